#!/bin/sh
# A maintainer's "not yet" of a commit that needs the ack (xfs is
# opt-in): with --since last it comes back once the deferral ends,
# needs-ack again and marked deferral-expired, and the week's review
# asks about it again; before that it stays out of the list.
. "$TEST_SRCDIR/tests/lib.sh"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
git config user.name 'Stable Picker'
git config user.email 'picker@example.org'
test_commit fs/xfs/alloc.c 'int alloc;' 'xfs: add the alloc code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
test_fix fs/xfs/alloc.c 'int alloc = 1;' 'xfs: fix a crash in the allocator' \
	"Fixes: $(git rev-parse --short=12 HEAD) (\"xfs: add the alloc code\")"
x=$(git rev-parse HEAD)

# row WEEK: the xfs fix in the week's JSON: "verdict why", or nothing.
row() {
	"$STABLEPICK" propose --branch linux-6.6.y --since last --format json |
		jq -r "select(.commit == \"$x\") | select(.listed_before != true) |
			\"\(.verdict) \(.newly_eligible.why // \"-\")\""
}
STABLEPICK_NOW=1701648000	# Mon, 4 Dec 2023
export STABLEPICK_NOW
echo 'needs-ack -' >"$tmp/expect"
row | test_cmp "$tmp/expect" -
"$STABLEPICK" mark --branch linux-6.6.y "$x" deferred --until 2023-12-15 \
	-m 'not yet' >/dev/null

STABLEPICK_NOW=1702252800	# Mon, 11 Dec 2023: still deferred
test_commit fs/ext4/a.c 'int a;' 'ext4: add a'
row | test_cmp /dev/null -

STABLEPICK_NOW=1702857600	# Mon, 18 Dec 2023: the deferral has ended
test_commit fs/ext4/b.c 'int b;' 'ext4: add b'
echo 'needs-ack deferral-expired' >"$tmp/expect"
row | test_cmp "$tmp/expect" -
"$STABLEPICK" propose --branch linux-6.6.y --since last --format review \
	>"$tmp/review" 2>/dev/null
grep -q "^From $x " "$tmp/review" || fail "the review does not ask again"
ok "a deferred needs-ack commit comes back when its deferral ends"
