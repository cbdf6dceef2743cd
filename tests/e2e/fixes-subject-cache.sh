#!/bin/sh
# A Fixes: tag resolved through its quoted subject costs a walk of
# mainline; the scan cache keeps what it found by the upstream tip, so
# a run judged again walks nothing, and a later tip is walked again:
# the answers are always those of a run without the cache.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit fs/ext4/mount.c 'int mount;' 'ext4: add the mount table'
test_commit fs/ext4/inode.c 'int inode;' 'ext4: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
# One Fixes: id that does not resolve but whose subject does, one whose
# subject no commit has.
test_fix fs/ext4/mount.c 'int mount_1;' 'ext4: fix a deadlock at mount' \
	'Fixes: 0123456789ab ("ext4: add the mount table")' \
	'Cc: stable@vger.kernel.org'
test_fix fs/ext4/inode.c 'int inode_1;' 'ext4: fix a leak in the inode code' \
	'Fixes: 0123456789ac ("ext4: a commit nobody wrote")' \
	'Cc: stable@vger.kernel.org'
git branch week1

# Each run judges: the answers kept (memo.sh) are set aside first.
sp() {
	rm -rf .git/stablepick/memo
	STABLEPICK_TRACE=1 "$STABLEPICK" "$@" 2>"$tmp/err"
}
looked_up() {	# what the last run's lookup of subjects did
	sed -n 's/^trace: deps: \(.* subjects of Fixes: tags looked up.*\)/\1/p' "$tmp/err"
}

for format in json text; do
	sp --no-cache propose --branch linux-6.6.y --upstream week1 \
		--format $format >"$tmp/expect.$format"
done
[ "$(looked_up)" = "2 subjects of Fixes: tags looked up, 0 from the cache, 4 commits walked" ] ||
	fail "--no-cache: $(looked_up)"
grep -q 'resolved by its subject' "$tmp/expect.json" ||
	fail "the Fixes: id was not resolved by its subject"

sp propose --branch linux-6.6.y --upstream week1 --format json >"$tmp/actual.json"
[ "$(looked_up)" = "2 subjects of Fixes: tags looked up, 0 from the cache, 4 commits walked" ] ||
	fail "first run: $(looked_up)"
cmp "$tmp/expect.json" "$tmp/actual.json" || fail "the first run's answer differs"
for format in json text; do
	sp propose --branch linux-6.6.y --upstream week1 --format $format \
		>"$tmp/actual.$format"
	[ "$(looked_up)" = "2 subjects of Fixes: tags looked up, 2 from the cache, 0 commits walked" ] ||
		fail "judged again ($format): $(looked_up)"
	cmp "$tmp/expect.$format" "$tmp/actual.$format" ||
		fail "the answer from the cache differs ($format)"
done
ok "judged again, the subjects come from the cache, with the same answer"

# A later tip: a newer commit of the quoted subject is met first now
# (and, coming after the fix, is ignored with a warning): walked again.
test_commit fs/ext4/mount2.c 'int mount2;' 'ext4: add the mount table'
for format in json text; do
	sp --no-cache propose --branch linux-6.6.y --upstream master \
		--format $format >"$tmp/expect2.$format"
	sp propose --branch linux-6.6.y --upstream master --format $format \
		>"$tmp/actual2.$format"
	cmp "$tmp/expect2.$format" "$tmp/actual2.$format" ||
		fail "a later tip: the answer differs from --no-cache ($format)"
done
grep -q 'which comes after it' "$tmp/expect2.json" ||
	fail "the newer commit of the subject was not met first"
! cmp -s "$tmp/expect.json" "$tmp/expect2.json" || fail "the tip changed nothing"
sp propose --branch linux-6.6.y --upstream master --format json >/dev/null
[ "$(looked_up)" = "2 subjects of Fixes: tags looked up, 2 from the cache, 0 commits walked" ] ||
	fail "the later tip judged again: $(looked_up)"
ok "a later tip is walked again, with the answer of a run without the cache"
