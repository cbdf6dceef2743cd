#!/bin/sh
# A backport the branch reverted on purpose: its own verdict,
# reverted-in-branch, with the revert's id and reason, and not proposed
# again until mainline fixes the commit or a decision says otherwise.
. "$TEST_SRCDIR/tests/lib.sh"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"

test_repo "$tmp/repo"
cd "$tmp/repo"
test_commit fs/ext4/inode.c 'one' 'ext4: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
test_fix fs/ext4/inode.c 'two' 'ext4: fix a leak in the inode code' \
	'Cc: stable@vger.kernel.org'
fix=$(git rev-parse HEAD)
fix12=$(git rev-parse --short=12 HEAD)
git checkout -q linux-6.6.y
git cherry-pick -x "$fix" >/dev/null
backport=$(git rev-parse --short=12 HEAD)
test_tick
git revert --no-edit HEAD >/dev/null
git commit -q --amend -F - <<MSG
Revert "ext4: fix a leak in the inode code"

This reverts commit $(git rev-parse HEAD~1) (a backport of
"ext4: fix a leak in the inode code."). Further fixes are needed
before this can be considered.

Signed-off-by: C O Mitter <committer@example.com>
MSG
revert=$(git rev-parse --short=12 HEAD)
git checkout -q master

verdict() {
	"$STABLEPICK" propose --branch linux-6.6.y --format json |
		jq -r 'select(.commit == "'"$fix"'") | .verdict + ": " + .why'
}
verdict >"$tmp/actual"
echo "reverted-in-branch: backported as $backport, reverted in linux-6.6.y by $revert: \"Further fixes are needed before this can be considered.\"" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
# The text table shows it, the weekly mail and mbox do not offer it.
"$STABLEPICK" propose --branch linux-6.6.y >"$tmp/text"
grep -q "reverted-in-branch" "$tmp/text" || { cat "$tmp/text"; fail "not in the table"; }
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/mbox" 2>/dev/null
[ ! -s "$tmp/mbox" ] || fail "a reverted backport is in the mbox"
ok "a backport the branch reverted is not proposed again, and says why"

# A decision outranks it.
"$STABLEPICK" mark "$fix" accepted --branch linux-6.6.y -m 'fixes are in' >/dev/null
verdict | cut -d: -f1 >"$tmp/actual"
echo accepted >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
# (The decision dropped again: the ledger removed.)
rm -f "$(git rev-parse --absolute-git-dir)/stablepick/ledger"
verdict | cut -d: -f1 >"$tmp/actual"
echo reverted-in-branch >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "a recorded decision outranks it"

# Mainline fixes it: both are proposed again, the revert's word kept,
# and a --since last run lists it again, saying why.
"$STABLEPICK" propose --branch linux-6.6.y --since last >/dev/null
test_fix fs/ext4/inode.c 'three' 'ext4: fix the leak fix' \
	"Fixes: $fix12 (\"ext4: fix a leak in the inode code\")"
later=$(git rev-parse --short=12 HEAD)
verdict | sed 's/^\([a-z-]*\): score [0-9]* reaches the threshold [0-9]* of ext4; /\1: /' >"$tmp/actual"
echo "proposed: backported as $backport, reverted in linux-6.6.y by $revert: \"Further fixes are needed before this can be considered.\"; fixed since in mainline by $later" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "a later mainline fix of it makes it a proposal again, with the revert's reason"
"$STABLEPICK" propose --branch linux-6.6.y --since last --format json |
	jq -r 'select(.commit == "'"$fix"'") | .newly_eligible | .why + " (was " + .was + ")"' \
	>"$tmp/actual"
echo "fixed-since (was reverted-in-branch)" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "propose --since last lists it again: fixed-since"
