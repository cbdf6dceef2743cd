#!/bin/sh
# Behaviour that one-line slips left unpinned (issue 39's mutation
# rounds): each check below fails with its slip applied.
#
#  - a fix with two Fixes: tags, one target in the branch and one not,
#    is needed: bug-not-in-branch only when every known target is absent;
#  - a body line our own mbox reader splits at, but git mailsplit does
#    not ("From x Mon Sep 17 10:30"), goes out quoted: git mailsplit,
#    git am and audit --mbox each see the series as written;
#  - a test not run in the baseline and failing now is unexplained,
#    not baseline;
#  - audit flags no follow-up-missing for a later fix the branch
#    already carries.
. "$TEST_SRCDIR/tests/lib.sh"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"

short() { git rev-parse --short=12 "$1"; }

# --- two Fixes: tags, one target in the branch -------------------------

test_repo "$tmp/fixes"
cd "$tmp/fixes"
test_commit fs/ext4/inode.c 'int cache;' 'ext4: add the inode cache'
cache=$(short HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
test_commit fs/ext4/extents.c 'int huge;' 'ext4: add support for huge extents'
huge=$(short HEAD)
test_commit fs/ext4/extents.c 'int huge2;' 'ext4: add huge extent trees'
trees=$(short HEAD)
# The absent target first, then the one in the branch, and the other way.
test_fix fs/ext4/inode.c 'int cache_fixed;' 'ext4: fix a crash in the inode cache' \
	"Fixes: $huge (\"ext4: add support for huge extents\")" \
	"Fixes: $cache (\"ext4: add the inode cache\")"
both1=$(git rev-parse HEAD)
test_fix fs/ext4/inode.c 'int cache_fixed2;' 'ext4: fix a leak in the inode cache' \
	"Fixes: $cache (\"ext4: add the inode cache\")" \
	"Fixes: $huge (\"ext4: add support for huge extents\")"
both2=$(git rev-parse HEAD)
# Both targets absent: the bug never got in.
test_fix fs/ext4/extents.c 'int huge_fixed;' 'ext4: fix a hang in huge extents' \
	"Fixes: $huge (\"ext4: add support for huge extents\")" \
	"Fixes: $trees (\"ext4: add huge extent trees\")"
none=$(git rev-parse HEAD)

"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r --arg a "$both1" --arg b "$both2" --arg n "$none" \
	'select(.commit == $a or .commit == $b or .commit == $n) |
	 [.subject, .verdict, (.fixes | map(.status) | join(","))] | join("|")' |
	sort >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
ext4: fix a crash in the inode cache|proposed|absent,in-branch
ext4: fix a hang in huge extents|not-applicable|absent,absent
ext4: fix a leak in the inode cache|proposed|in-branch,absent
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "two Fixes: tags, one target in the branch: needed, either order"

# --- audit: a follow-up the branch already carries ----------------------

# A fix, and a later fix of it (another file) that the branch took.
test_fix fs/ext4/namei.c 'int namei;' 'ext4: fix a race in lookup' \
	'Cc: stable@vger.kernel.org'
racy=$(git rev-parse HEAD)
test_fix fs/ext4/dir.c 'int dir;' 'ext4: fix the lookup race fix' \
	"Fixes: $(short "$racy") (\"ext4: fix a race in lookup\")" \
	'Cc: stable@vger.kernel.org'
followup=$(git rev-parse HEAD)
test_fix fs/ext4/xattr.c 'int xattr;' 'ext4: fix a crash in xattr' \
	'Cc: stable@vger.kernel.org'
lone=$(git rev-parse HEAD)
test_fix fs/ext4/acl.c 'int acl;' 'ext4: fix the xattr crash fix' \
	"Fixes: $(short "$lone") (\"ext4: fix a crash in xattr\")" \
	'Cc: stable@vger.kernel.org'
lonefix=$(git rev-parse HEAD)
git checkout -q linux-6.6.y
git cherry-pick -x "$followup" >/dev/null
git checkout -q master

printf '%s\n%s\n' "$racy" "$lone" |
	"$STABLEPICK" audit --branch linux-6.6.y --picks - --format json \
	>"$tmp/out" || :
jq -r '[.commit[0:12], .verdict, (.flags | map(.flag) | join(","))] | join(" ")' \
	"$tmp/out" >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
$(short "$lone") questionable follow-up-missing
$(short "$racy") ok 
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "audit: no follow-up-missing for a follow-up the branch carries"

# --- mail: a line only our mbox reader splits at ------------------------

test_repo "$tmp/mail"
cd "$tmp/mail"
for f in a b c; do
	test_commit fs/ext4/$f.c "int $f;" "ext4: add $f"
done
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
# The lines of the message that start with "From ": after a blank line,
# one our reader takes for a From_ line (a day, a month, a time); lines
# git mailsplit takes for one (its is_from_line(): 20 bytes with the
# newline, the last ':' before the last two bytes between digits, a
# year after 90 next), the shortest with a two-digit year; lines
# neither does (19 bytes; a ':' too near the end; no time).
test_fix fs/ext4/a.c 'int a = 1;' 'ext4: fix a' 'Cc: stable@vger.kernel.org'
test_commit fs/ext4/b.c 'int b = 1;' 'ext4: fix b

The log said:

From x Mon Sep 17 10:30

From y 12:34:56 2023
From zz 01:02:03 99
From z 01:02:03 99
From x 12:34:56 1999:5
From x 12:34:56 1999:

From the start, b was wrong.

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
test_fix fs/ext4/c.c 'int c = 1;' 'ext4: fix c' 'Cc: stable@vger.kernel.org'
git log --format=%H --reverse v6.6..master >"$tmp/ids"

export STABLEPICK_NOW=1701600000
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/mbox"
grep -c '^From [0-9a-f]\{40\} ' "$tmp/mbox" >"$tmp/actual"
echo 3 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
grep '^>*From [xyzt]' "$tmp/mbox" >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
>From x Mon Sep 17 10:30
>From y 12:34:56 2023
>From zz 01:02:03 99
From z 01:02:03 99
From x 12:34:56 1999:5
>From x 12:34:56 1999:
From the start, b was wrong.
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "mbox: the lines a reader splits at are quoted, no other"

# git mailsplit finds the three patches.
mkdir "$tmp/split"
[ "$(git mailsplit -o"$tmp/split" "$tmp/mbox")" = 3 ] ||
	fail "git mailsplit: not 3 mails"
# git am applies them, each message as upstream's but for the quotes.
git clone -q -b linux-6.6.y "$tmp/mail" "$tmp/am"
git -C "$tmp/am" am -q "$tmp/mbox" || fail "git am does not take the mbox"
git -C "$tmp/am" log --reverse --format=%s origin/linux-6.6.y..HEAD >"$tmp/actual"
git log --reverse --format=%s v6.6..master >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git -C "$tmp/am" log -1 --format=%B HEAD~1 | grep 'From ' >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
>From x Mon Sep 17 10:30
>From y 12:34:56 2023
>From zz 01:02:03 99
From z 01:02:03 99
From x 12:34:56 1999:5
>From x 12:34:56 1999:
From the start, b was wrong.
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
# Our own reader (audit --mbox) finds the same three, each its commit.
"$STABLEPICK" audit --branch linux-6.6.y --mbox "$tmp/mbox" --format json \
	>"$tmp/out" 2>"$tmp/err" || :
jq -r '.commit // .status' "$tmp/out" | sort >"$tmp/actual"
sort "$tmp/ids" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
test_cmp /dev/null "$tmp/err"
ok "git mailsplit, git am and audit --mbox read the series as written"

# --- results: not run in the baseline, failing now ----------------------

test_repo "$tmp/res"
cd "$tmp/res"
test_commit fs/xfs/xfs_log.c 'int xfs_log;' 'xfs: add log recovery'
test_tick
git tag -a -m 'Linux 6.1' v6.1
git branch linux-6.1.y
git checkout -q linux-6.1.y
test_commit fs/xfs/xfs_bmap.c 'int bmap;' 'xfs: tidy bmap'
test_tick
git tag -a -m 'Linux 6.1.1' v6.1.1
test_commit fs/xfs/xfs_alloc.c 'int alloc;' 'xfs: tidy the allocator'
test_tick
git tag -a -m 'Linux 6.1.2' v6.1.2
git checkout -q master
fst=$tmp/fstests
mkdir -p "$fst/common" "$fst/tests/xfs"
: >"$fst/common/rc"
for t in 001 002 003; do
	printf '#! /bin/bash\n. ./common/preamble\n_begin_fstest auto quick\nstatus=0\n' \
		>"$fst/tests/xfs/$t"
done
# xunit KERNEL TEST:STATUS...: a result.xml as fstests writes it.
xunit() {
	local kernel=$1 t
	shift
	printf '<?xml version="1.0" encoding="UTF-8"?>\n'
	printf '<testsuite name="xfstests" failures="0" skipped="0" tests="%d" time="1" hostname="h">\n' $#
	printf '<properties>\n<property name="FSTYP" value="xfs"/>\n'
	printf '<property name="KERNEL" value="%s"/>\n' "$kernel"
	printf '<property name="SECTION" value="xfs_4k"/>\n</properties>\n'
	for t in "$@"; do
		printf '<testcase classname="xfstests.xfs_4k" name="%s" time="1">\n' "${t%%:*}"
		case ${t#*:} in
		fail) printf '<failure message="- output mismatch" type="TestFail"/>\n' ;;
		notrun) printf '<skipped message="requires a feature"/>\n' ;;
		esac
		printf '</testcase>\n'
	done
	printf '</testsuite>\n'
}
xunit 6.1.1 xfs/001:notrun xfs/002:fail xfs/003:pass >"$tmp/base.xml"
xunit 6.1.2 xfs/001:fail xfs/002:fail xfs/003:fail >"$tmp/now.xml"
"$STABLEPICK" results --branch linux-6.1.y --fstests "$fst" --format json \
	--baseline "$tmp/base.xml" "$tmp/now.xml" >"$tmp/json"
cat >"$tmp/expect" <<'EXPECT'
xfs/001|unexplained|no annotation of the test sources names a fix for it; not run in the baseline
EXPECT
jq -r 'select(.test == "xfs/001") | [.test, .class, .evidence] | join("|")' \
	"$tmp/json" >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
jq -r '[.test, .class] | join(" ")' "$tmp/json" >"$tmp/actual"
printf '%s\n' 'xfs/001 unexplained' 'xfs/002 baseline' 'xfs/003 new' |
	sort >"$tmp/expect"
sort "$tmp/actual" >"$tmp/sorted"
test_cmp "$tmp/expect" "$tmp/sorted"
ok "results: not run in the baseline, failing now: unexplained"
