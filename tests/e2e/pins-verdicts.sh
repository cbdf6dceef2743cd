#!/bin/sh
# Verdicts that one-line slips left unpinned (issue 39's second mutation
# round): each check below fails with its slip applied.
#
#  - of two version hints the oldest counts, in either order;
#  - a stable+noautosel tag's hint is no version hint: vetoed, with the
#    author's reason;
#  - a fix of a commit that is maybe-present is not bug-not-in-branch:
#    its target is unknown;
#  - a fix of a commit that needs an ack is a follow-up;
#  - of the backports the upstream lines of a commit name, a live one
#    wins over one the branch reverted.
. "$TEST_SRCDIR/tests/lib.sh"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"

test_repo "$tmp/repo"
cd "$tmp/repo"
test_commit fs/ext4/inode.c 'int cache;' 'ext4: add the inode cache'
test_commit fs/xfs/xfs_log.c 'int xfs_log;' 'xfs: add log recovery'
xlog=$(git rev-parse --short=12 HEAD)
test_commit fs/ext4/quota.c 'int quota;' 'ext4: add quota'
test_commit fs/ext4/fold.c 'int fold;' 'ext4: add fold'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# Version hints.
test_fix fs/ext4/a.c 'int a;' 'ext4: fix a crash in a' \
	'Cc: stable@vger.kernel.org # 6.1+' 'Cc: stable@vger.kernel.org # 6.8+'
test_fix fs/ext4/b.c 'int b;' 'ext4: fix a crash in b' \
	'Cc: stable@vger.kernel.org # 6.8+' 'Cc: stable@vger.kernel.org # 6.1+'
test_fix fs/ext4/c.c 'int c;' 'ext4: fix a crash in c' \
	'Cc: stable@vger.kernel.org # 6.7+' 'Cc: stable@vger.kernel.org # 6.8+'
test_fix fs/ext4/d.c 'int d;' 'ext4: fix a crash in d' \
	'Cc: stable+noautosel@kernel.org # 6.8+ needs a manual backport'

# A fix the branch may have (an adapted backport, same subject), and a
# fix of that fix.
test_fix fs/ext4/quota.c 'int quota_fixed;' 'ext4: fix the quota leak' \
	'Cc: stable@vger.kernel.org'
maybe=$(git rev-parse --short=12 HEAD)
test_fix fs/ext4/quota.c 'int quota_fixed2;' 'ext4: fix the quota leak fix' \
	"Fixes: $maybe (\"ext4: fix the quota leak\")" 'Cc: stable@vger.kernel.org'

# xfs takes no fix without an ack (the default rules): a fix of one is
# a follow-up all the same.
test_fix fs/xfs/xfs_log.c 'int xfs_log_fixed;' 'xfs: fix a leak in log recovery' \
	"Fixes: $xlog (\"xfs: add log recovery\")"
xfix=$(git rev-parse --short=12 HEAD)
test_fix fs/xfs/xfs_log.c 'int xfs_log_fixed2;' 'xfs: fix the log recovery leak fix' \
	"Fixes: $xfix (\"xfs: fix a leak in log recovery\")"

# A fold of two upstream commits; the branch took the first and
# reverted it, and took the second (adapted).
u1=1111111111111111111111111111111111111111
u2=2222222222222222222222222222222222222222
test_fix fs/ext4/fold.c 'int fold_fixed;' 'ext4: fix a race in fold' \
	"commit $u1 upstream." "commit $u2 upstream."

git checkout -q linux-6.6.y
test_commit fs/ext4/quota.c 'int quota_adapted;' 'ext4: fix the quota leak'
test_commit fs/ext4/fold.c 'int fold_one;' "ext4: fix a race in fold, part one

[ Upstream commit $u1 ]"
one=$(git rev-parse HEAD)
test_tick
git revert --no-edit HEAD >/dev/null
test_commit fs/ext4/fold.c 'int fold_two;' "ext4: fix a race in fold, part two

[ Upstream commit $u2 ]"
two=$(git rev-parse --short=12 HEAD)
git checkout -q master

"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r '[.subject, .verdict,
		(if .verdict == "proposed" then "-" else .why end)] | join("|")' |
	sort >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
ext4: fix a crash in a|proposed|-
ext4: fix a crash in b|proposed|-
ext4: fix a crash in c|not-applicable|stable tag asks for 6.7 and later; linux-6.6.y is 6.6
ext4: fix a crash in d|vetoed|stable+noautosel: 6.8+ needs a manual backport
ext4: fix a race in fold|present|backported as $two
ext4: fix the quota leak fix|proposed|-
ext4: fix the quota leak|maybe-present|same subject as $(git rev-parse --short=12 linux-6.6.y~3) in linux-6.6.y
xfs: fix a leak in log recovery|needs-ack|xfs is opt-in and no Cc: stable tag approves it
xfs: fix the log recovery leak fix|needs-ack|xfs is opt-in and no Cc: stable tag approves it
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "verdicts: hints, noautosel, a fix of a maybe-present or needs-ack commit, a fold"

"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r 'select(.fixes | length > 0) |
	 [.subject, (.fixes | map(.status) | join(",")), (.facts | join(","))] |
	 join("|")' | sort >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
ext4: fix the quota leak fix|unknown|
xfs: fix a leak in log recovery|in-branch|fixes-in-branch
xfs: fix the log recovery leak fix|proposed|follow-up
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "Fixes: targets: maybe-present is unknown, needs-ack makes a follow-up"
