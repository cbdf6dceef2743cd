#!/bin/sh
# Applicability and links between commits: Fixes: targets absent from
# the branch, follow-up fixes (transitively), wrong Fixes: ids resolved
# by subject, Cc: stable version hints, and mainline reverts.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit fs/ext4/inode.c 'int ext4;' 'ext4: add the inode cache'
cache=$(git rev-parse --short=12 HEAD)
test_commit fs/ext4/super.c 'int super;' 'ext4: add the mount table'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# A feature after the base, then a fix for it: the bug never reached 6.6.
test_commit fs/ext4/extents.c 'int extents;' 'ext4: add support for huge extents'
huge=$(git rev-parse --short=12 HEAD)
test_commit fs/ext4/extents.c 'int extents2;' "ext4: fix a crash in huge extents

Fixes: $huge (\"ext4: add support for huge extents\")
Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>"

# A fix of a commit in the branch, a fix of that fix, and a fix of that.
test_commit fs/ext4/inode.c 'int ext4a;' "ext4: fix a use-after-free in the inode cache

Fixes: $cache (\"ext4: add the inode cache\")
Signed-off-by: A U Thor <author@example.com>"
uaf=$(git rev-parse --short=12 HEAD)
test_commit fs/ext4/inode.c 'int ext4b;' "ext4: drop the extra reference taken by the cache change

Fixes: $uaf (\"ext4: fix a use-after-free in the inode cache\")
Signed-off-by: A U Thor <author@example.com>"
ref=$(git rev-parse --short=12 HEAD)
test_commit fs/ext4/inode.c 'int ext4c;' "ext4: keep the reference count in one place

Fixes: $ref (\"ext4: drop the extra reference taken by the cache change\")
Signed-off-by: A U Thor <author@example.com>"

# A wrong id, right subject: found by the subject, as findmissing does.
test_commit fs/ext4/super.c 'int super2;' 'ext4: fix a deadlock at mount

Fixes: 0123456789ab ("ext4: add the mount table")
Signed-off-by: A U Thor <author@example.com>'

# A version hint that excludes 6.6.
test_commit fs/ext4/super.c 'int super3;' 'ext4: fix a crash in the new mount API

Cc: stable@vger.kernel.org # 6.8+
Signed-off-by: A U Thor <author@example.com>'

# A fix the branch takes, then its mainline revert: the revert follows.
test_commit fs/ext4/mount.c 'int mount;' 'ext4: fix a leak in mount

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
leak=$(git rev-parse HEAD)
test_commit fs/ext4/mount.c 'int mount2;' "Revert \"ext4: fix a leak in mount\"

This reverts commit $leak.

Signed-off-by: A U Thor <author@example.com>"
# A fix the branch does not take, and its revert: both drop out.
test_commit fs/ext4/extents.c 'int extents3;' 'ext4: fix a hang in fallocate

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
hang=$(git rev-parse HEAD)
test_commit fs/ext4/extents.c 'int extents4;' "Revert \"ext4: fix a hang in fallocate\"

This reverts commit $hang.

Signed-off-by: A U Thor <author@example.com>"

git checkout -q linux-6.6.y
git cherry-pick -x "$leak" >/dev/null
git checkout -q master

"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r '[.subject, .verdict, .why, (.facts | join(","))] | join("|")' \
	>"$tmp/actual"
huge40=$(git rev-parse "$huge")
hang12=$(echo "$hang" | cut -c1-12)
cat >"$tmp/expect" <<EXPECT
Revert "ext4: fix a leak in mount"|proposed|score 111 reaches the threshold 10 of ext4|reverts-present
ext4: drop the extra reference taken by the cache change|proposed|score 108 reaches the threshold 10 of ext4|follow-up
ext4: keep the reference count in one place|proposed|score 108 reaches the threshold 10 of ext4|follow-up
ext4: fix a use-after-free in the inode cache|proposed|score 25 reaches the threshold 10 of ext4|fixes-in-branch
ext4: fix a deadlock at mount|proposed|score 25 reaches the threshold 10 of ext4|fixes-in-branch
ext4: fix a crash in huge extents|not-applicable|fixed commit $(echo "$huge40" | cut -c1-12) not in branch|
ext4: fix a crash in the new mount API|not-applicable|stable tag asks for 6.8 and later; linux-6.6.y is 6.6|
Revert "ext4: fix a hang in fallocate"|not-applicable|reverts $hang12, which linux-6.6.y does not carry|
ext4: fix a hang in fallocate|reverted|reverted in mainline by $(git rev-parse --short=12 master)|
ext4: fix a leak in mount|present|backported as $(git rev-parse --short=12 linux-6.6.y)|
ext4: add support for huge extents|below-threshold|score -8 is below the threshold 10 of ext4|
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "verdicts and reasons"

# The wrong Fixes: id resolved through its subject, with a warning.
"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r 'select(.subject == "ext4: fix a deadlock at mount") |
		.fixes[0].commit + " " + .fixes[0].status + " " + .warnings[0]' \
	>"$tmp/actual"
echo "$(git rev-parse v6.6^0) in-branch Fixes: 0123456789ab (\"ext4: add the mount table\") resolved by its subject" \
	>"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "Fixes: resolved by subject"

# explain shows the chain: what it fixes, what fixes it, what reverts it.
"$STABLEPICK" explain --branch linux-6.6.y "$ref" "$hang" |
	grep -E '^(Fixes|Fixed by|Reverted|Verdict)' >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
Fixes:     $uaf ("ext4: fix a use-after-free in the inode cache") -> $(git rev-parse "$uaf"), proposed
Fixed by:  $(git log -1 --format=%h --abbrev=12 --grep='^ext4: keep the reference') ("ext4: keep the reference count in one place"), proposed
Verdict:   proposed: score 108 reaches the threshold 10 of ext4
Reverted:  by $(git rev-parse master) ("Revert "ext4: fix a hang in fallocate"")
Verdict:   reverted: reverted in mainline by $(git rev-parse --short=12 master)
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "explain shows the chain"

# A range that ends before the revert still sees it (up to the tip).
"$STABLEPICK" propose --branch linux-6.6.y --range v6.6..master~1 --format json |
	jq -r 'select(.subject == "ext4: fix a hang in fallocate") | .verdict + ": " + .why' \
	>"$tmp/actual"
echo "reverted: reverted in mainline by $(git rev-parse --short=12 master)" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "reverts after the range"

# Prerequisites (Cc: stable # X.y: <id>, Stable-dep-of:) come along and
# first; a series-mate left behind is pointed out.
repo2=$tmp/repo2
test_repo "$repo2"
cd "$repo2"
test_commit fs/ext4/inode.c 'int ext4;' 'ext4: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
lore=https://lore.kernel.org/r/20240101120000.1000
test_commit fs/ext4/inode.c 'int foo;' "ext4: factor out foo

Link: $lore-1-dev@example.org
Signed-off-by: A U Thor <author@example.com>"
foo=$(git rev-parse --short=12 HEAD)
test_commit fs/ext4/inode.c 'int foo2;' "ext4: fix a crash in foo

Cc: stable@vger.kernel.org # 6.1.x: $foo: ext4: factor out foo
Link: $lore-2-dev@example.org
Signed-off-by: A U Thor <author@example.com>"
test_commit fs/ext4/inode.c 'int foo3;' "ext4: rename the foo helpers

Link: $lore-3-dev@example.org
Signed-off-by: A U Thor <author@example.com>"
test_commit fs/ext4/super.c 'int bar;' 'ext4: fix a leak in bar

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
bar=$(git rev-parse --short=12 HEAD)
test_commit fs/ext4/super.c 'int bar2;' "ext4: add the bar helper

Stable-dep-of: $bar (\"ext4: fix a leak in bar\")
Signed-off-by: A U Thor <author@example.com>"

"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r '[.subject, .verdict, (.facts | join(",")),
		(.prerequisites | map(.commit[0:12] + " " + .source + " " + .status) | join(",")),
		(.series.position // 0 | tostring), (.warnings | join(","))] | join("|")' \
	>"$tmp/actual"
helper=$(git rev-parse --short=12 master)
cat >"$tmp/expect" <<EXPECT
ext4: factor out foo|proposed|prerequisite||1|series-mate 3, $(git rev-parse --short=12 master~2), is below-threshold
ext4: fix a crash in foo|proposed||$foo Cc: stable proposed|2|series-mate 3, $(git rev-parse --short=12 master~2), is below-threshold
ext4: add the bar helper|proposed|prerequisite||0|
ext4: fix a leak in bar|proposed||$helper Stable-dep-of proposed|0|
ext4: rename the foo helpers|below-threshold|||3|
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "prerequisites first, series-mates named"

# A branch whose base has no vX.Y tag takes its version from the
# configuration.
cd "$repo"
git branch vendor linux-6.6.y
"$STABLEPICK" propose --branch vendor --format json |
	jq -r 'select(.subject == "ext4: fix a crash in the new mount API") | .verdict' >"$tmp/actual"
echo not-applicable >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git tag -d v6.6 >/dev/null
"$STABLEPICK" propose --branch vendor --format json |
	jq -r 'select(.subject == "ext4: fix a crash in the new mount API") | .verdict' >"$tmp/actual"
echo proposed >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git config stablepick.vendor.version 6.6
"$STABLEPICK" propose --branch vendor --format json |
	jq -r 'select(.subject == "ext4: fix a crash in the new mount API") | .verdict + ": " + .why' >"$tmp/actual"
echo "not-applicable: stable tag asks for 6.8 and later; vendor is 6.6" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "branch version from the configuration"
