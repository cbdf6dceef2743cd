#!/bin/sh
# Presence beyond upstream lines, and the last checks on proposals:
# a backport reverted in the branch, a subject-only match, soak time,
# and the trial cherry-pick onto the branch tip.
. "$TEST_SRCDIR/tests/lib.sh"
# The lines whole: text-width.sh checks how the text fits a width.
COLUMNS=1000; export COLUMNS

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit fs/ext4/inode.c 'line 1
line 2
line 3' 'ext4: add the inode code'
test_commit fs/btrfs/inode.c 'int btrfs;' 'btrfs: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# Backported, then reverted in the branch: absent again, and not
# proposed again (reverted-in-branch).
test_commit fs/ext4/namei.c 'int namei;' 'ext4: fix a leak in lookup

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
leak=$(git rev-parse HEAD)
# Backported by hand, adjusted, without an upstream line: only the
# subject tells.
test_commit fs/ext4/dir.c 'int dir;' 'ext4: fix a crash in readdir

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
# The branch changed these lines differently: it does not apply.
test_commit fs/ext4/inode.c 'line 1
line 2 fixed
line 3' 'ext4: fix an overflow in the inode code

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
conflict=$(git rev-parse --short=12 HEAD)
# Backported by a vendor under another subject, with no upstream line:
# only the change itself (its patch-id) tells.
test_commit fs/ext4/xattr.c 'int xattr;
int xattr_fixed;' 'ext4: fix a null dereference in xattr lookup

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
xattr=$(git rev-parse HEAD)
test_tick
git tag -a -m 'Linux 6.7-rc1' v6.7-rc1
# btrfs waits for a release tag (see the rules below): not in one yet.
test_commit fs/btrfs/inode.c 'int btrfs2;' 'btrfs: fix a deadlock in the inode code

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'

git checkout -q linux-6.6.y
git cherry-pick -x "$leak" >/dev/null
backport=$(git rev-parse HEAD)
git rm -q fs/ext4/namei.c
test_tick
git commit -q -F - <<MSG
Revert "ext4: fix a leak in lookup"

This reverts commit $backport.

Signed-off-by: A U Thor <author@example.com>
MSG
revert_full=$(git rev-parse HEAD)
revert=$(git rev-parse --short=12 HEAD)
test_commit fs/ext4/dir.c 'int dir_adjusted_for_66;' 'ext4: fix a crash in readdir

Signed-off-by: A U Thor <author@example.com>'
bysubject=$(git rev-parse --short=12 HEAD)
test_commit fs/ext4/xattr.c 'int xattr;
int xattr_fixed;' 'VENDOR: ext4 xattr crash fix'
vendor=$(git rev-parse --short=12 HEAD)
test_commit fs/ext4/inode.c 'line 1
line 2 changed in 6.6.y
line 3' 'ext4: tweak the inode code for 6.6.y'
git checkout -q master

mkdir rules
cat "$STABLEPICK_DATADIR/rules/default.rules" >rules/default.rules
cat >rules/btrfs.rules <<'RULES'
subsystem btrfs
	paths fs/btrfs/
	policy heuristic
	soak release
end
RULES

"$STABLEPICK" --rules rules propose --branch linux-6.6.y --format json |
	jq -r '[.subject, .verdict, .why, (.evidence | map(.kind) | join(",")),
		(.applies | tostring), (.conflicts | join(","))] | join("|")' \
	>"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
ext4: fix an overflow in the inode code|proposed|score 111 reaches the threshold 10 of ext4|absent|false|fs/ext4/inode.c
btrfs: fix a deadlock in the inode code|waiting|btrfs waits for a release: in no release tag yet|absent|null|
ext4: fix a crash in readdir|maybe-present|same subject as $bysubject in linux-6.6.y|subject|null|
ext4: fix a leak in lookup|reverted-in-branch|backported as $(echo "$backport" | cut -c1-12), reverted in linux-6.6.y by $revert|backport-reverted,absent|null|
ext4: fix a null dereference in xattr lookup|present|same change as $vendor in linux-6.6.y|patch-id|null|
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "verdicts, evidence and trial pick"

# The text table says which proposal does not apply, and why.
"$STABLEPICK" --rules rules propose --branch linux-6.6.y |
	grep -A2 "^proposed .* ext4: fix an overflow" >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
proposed              111  $conflict  ext4       ext4: fix an overflow in the inode code
                           cc-stable +100, subject-fix +6, subject-crash +5
                           does not apply to linux-6.6.y: conflicts in fs/ext4/inode.c; needs a manual backport: no mainline commit the branch lacks made the lines it changes
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "text names the conflict"

# explain names the revert in the branch.
"$STABLEPICK" --rules rules explain --branch linux-6.6.y "$leak" |
	grep '^  backport-reverted' >"$tmp/actual"
echo "  backport-reverted backported as $(echo "$backport" | cut -c1-12), reverted in linux-6.6.y by $revert ($revert_full)" \
	>"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "explain names the revert"

# Soak by days: "now" is the upstream tip's commit date, so the answer
# does not depend on the clock.
sed -i 's/soak release/soak 30d/' rules/btrfs.rules
"$STABLEPICK" --rules rules propose --branch linux-6.6.y --format json |
	jq -r 'select(.subsystem == "btrfs") | .verdict + ": " + .why' >"$tmp/actual"
ready=$(date -u -d "@$(( $(git log -1 --format=%ct master) + 30 * 86400 ))" +%Y-%m-%d)
echo "waiting: btrfs asks for 30 days in mainline: qualifies on $ready" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "soak days"

# The patch-ids are cached in the repository, and agree with git's.
cache=.git/stablepick/patchid-cache
[ "$(head -n 1 "$cache")" = "stablepick patchid cache 4" ] || fail "no cache header"
sed -n 2p "$cache" | grep -q '^attributes [0-9a-f]\{40\}$' ||
	fail "no attributes line: $(sed -n 2p "$cache")"
grep -q "^$xattr $(git show "$xattr" | git patch-id --stable | cut -d' ' -f1)\( [0-9a-f]*\)\{0,1\}\$" "$cache" ||
	fail "cached patch-id of $xattr differs from git patch-id --stable"
cp "$cache" "$tmp/cache.before"
"$STABLEPICK" --rules rules propose --branch linux-6.6.y >/dev/null
test_cmp "$tmp/cache.before" "$cache"
ok "patch-id cache"
