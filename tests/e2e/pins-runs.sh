#!/bin/sh
# Runs that one-line slips left unpinned (issue 39's second mutation
# round): each check below fails with its slip applied.
#
#  - propose --since last: a deferral that ended at the very second of
#    the run before (which listed the fix) does not list it again, nor
#    does a fix that still does not apply;
#  - the kept answer (memo) is keyed on info/grafts and TZ;
#  - results: an annotation for another filesystem names no fix for
#    this run, one for its own does; a new failure's suspects are those
#    of its own config's kernels;
#  - cves: of two commits that brought a bug in, the second in the
#    branch makes it unfixed;
#  - audit flags no prerequisite-missing for a prerequisite the branch
#    has.
. "$TEST_SRCDIR/tests/lib.sh"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"

# --- propose --since last -----------------------------------------------

test_repo "$tmp/since"
cd "$tmp/since"
test_commit fs/ext4/inode.c 'line 1
line 2
line 3' 'ext4: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
git checkout -q linux-6.6.y
test_commit fs/ext4/inode.c 'line 1
line 2 changed in 6.6.y
line 3' 'ext4: tweak the inode code for 6.6.y'
git checkout -q master
test_fix fs/ext4/a.c 'int a;' 'ext4: fix a crash in a' 'Cc: stable@vger.kernel.org'
deferred=$(git rev-parse HEAD)
test_fix fs/ext4/inode.c 'line 1
line 2 fixed
line 3' 'ext4: fix an overflow in the inode code' 'Cc: stable@vger.kernel.org'

B='--branch linux-6.6.y'
# listed: the subjects a run lists, and why again.
listed() {
	jq -r '[.subject, (.newly_eligible // {} | .why // "-")] | join("|")' |
		sort
}
STABLEPICK_NOW=1700100000 "$STABLEPICK" mark $B "$deferred" deferred \
	--until 2023-11-20 >/dev/null
# The first run, at 2023-11-20 00:00:00 UTC: the deferral has just
# ended, the fix is listed.
STABLEPICK_NOW=1700438400 "$STABLEPICK" propose $B --since last \
	--format json | listed >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
ext4: fix a crash in a|-
ext4: fix an overflow in the inode code|-
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
# A day later, mainline moved: only the new fix.
test_fix fs/ext4/b.c 'int b;' 'ext4: fix a crash in b' 'Cc: stable@vger.kernel.org'
STABLEPICK_NOW=1700524800 "$STABLEPICK" propose $B --since last \
	--format json | listed >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
ext4: fix a crash in b|-
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "--since last: nothing listed again that the run before listed"

# --- the memo: info/grafts ----------------------------------------------

STABLEPICK_NOW=1700524800
export STABLEPICK_NOW
# run: propose as JSON, traced; cold: the same without the cache.
run() {
	STABLEPICK_TRACE=1 "$STABLEPICK" propose $B --format json \
		>"$tmp/actual" 2>"$tmp/err"
}
cold() {
	"$STABLEPICK" --no-cache propose $B --format json >"$tmp/expect"
}
run
run
grep -q '^trace: memo: .* holds the answer of these inputs$' "$tmp/err" ||
	fail "no kept answer: $(cat "$tmp/err")"
# The fix of a becomes a root: the range loses the commits below it.
git rev-parse "$deferred" >.git/info/grafts
run
grep -q '^trace: memo: no answer for these inputs yet$' "$tmp/err" ||
	fail "info/grafts changed, the kept answer printed"
cold
test_cmp "$tmp/expect" "$tmp/actual"
rm .git/info/grafts
ok "the memo: info/grafts is an input"
# Another time zone is another answer (a date may be shown in it).
run
grep -q '^trace: memo: .* holds the answer of these inputs$' "$tmp/err" ||
	fail "no kept answer: $(cat "$tmp/err")"
TZ=JST-9 run
grep -q '^trace: memo: no answer for these inputs yet$' "$tmp/err" ||
	fail "TZ changed, the kept answer printed"
ok "the memo: TZ is an input"
unset STABLEPICK_NOW

# --- results: the filesystem of an annotation ---------------------------

test_repo "$tmp/res"
cd "$tmp/res"
test_commit fs/xfs/xfs_log.c 'int xfs_log;' 'xfs: add log recovery'
test_tick
git tag -a -m 'Linux 6.1' v6.1
git branch linux-6.1.y
test_fix fs/xfs/xfs_log.c 'int xfs_log_fixed;' 'xfs: fix a leak in log recovery'
X=$(git rev-parse HEAD)
test_fix fs/btrfs/inode.c 'int btrfs_fixed;' 'btrfs: fix a leak in the inode code'
Y=$(git rev-parse HEAD)
git checkout -q linux-6.1.y
test_tick
git tag -a -m 'Linux 6.1.1' v6.1.1
git checkout -q master
fst=$tmp/fstests
mkdir -p "$fst/common" "$fst/tests/generic"
: >"$fst/common/rc"
annotate() {	# annotate TEST FS SHA SUBJECT
	printf '#! /bin/bash\n. ./common/preamble\n_begin_fstest auto quick\n_fixed_by_fs_commit %s %s "%s"\nstatus=0\n' \
		"$2" "$(git rev-parse --short=12 "$3")" "$4" >"$fst/tests/$1"
}
annotate generic/001 xfs "$X" 'xfs: fix a leak in log recovery'
annotate generic/002 btrfs "$Y" 'btrfs: fix a leak in the inode code'
cat >"$tmp/now.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="xfstests" failures="2" skipped="0" tests="2" time="1" hostname="h">
<properties>
<property name="FSTYP" value="xfs"/>
<property name="KERNEL" value="6.1.1"/>
<property name="SECTION" value="xfs_4k"/>
</properties>
<testcase classname="xfstests.xfs_4k" name="generic/001" time="1">
<failure message="- output mismatch" type="TestFail"/>
</testcase>
<testcase classname="xfstests.xfs_4k" name="generic/002" time="1">
<failure message="- output mismatch" type="TestFail"/>
</testcase>
</testsuite>
EOF
"$STABLEPICK" results --branch linux-6.1.y --fstests "$fst" --format json \
	"$tmp/now.xml" >"$tmp/json"
jq -r '[.test, .class, ([.commits[].id] | join(" "))] | join("|")' \
	"$tmp/json" | sort >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
generic/001|missing-fix|$X
generic/002|unexplained|
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "results: an annotation counts for its own filesystem only"

# Two configs, each its baseline kernel: the suspects of a new failure
# are the commits between its own config's kernels.
git checkout -q linux-6.1.y
test_commit fs/xfs/xfs_a.c 'int a;' 'xfs: rework a'
A=$(git rev-parse HEAD)
test_tick
git tag -a -m 'Linux 6.1.2' v6.1.2
test_commit fs/xfs/xfs_b.c 'int b;' 'xfs: rework b'
B=$(git rev-parse HEAD)
test_tick
git tag -a -m 'Linux 6.1.3' v6.1.3
git checkout -q master
: >"$fst/tests/generic/003"
# xunit CONFIG KERNEL STATUS: generic/003 on CONFIG.
xunit() {
	printf '<?xml version="1.0" encoding="UTF-8"?>\n'
	printf '<testsuite name="xfstests" failures="0" skipped="0" tests="1" time="1" hostname="h">\n'
	printf '<properties>\n<property name="FSTYP" value="xfs"/>\n'
	printf '<property name="KERNEL" value="%s"/>\n' "$2"
	printf '<property name="SECTION" value="%s"/>\n</properties>\n' "$1"
	printf '<testcase classname="xfstests.%s" name="generic/003" time="1">\n' "$1"
	[ "$3" = pass ] ||
		printf '<failure message="- output mismatch" type="TestFail"/>\n'
	printf '</testcase>\n</testsuite>\n'
}
mkdir -p "$tmp/base/xfs_a" "$tmp/base/xfs_b" "$tmp/run/xfs_a" "$tmp/run/xfs_b"
xunit xfs_a 6.1.1 pass >"$tmp/base/xfs_a/result.xml"
xunit xfs_b 6.1.2 pass >"$tmp/base/xfs_b/result.xml"
xunit xfs_a 6.1.3 fail >"$tmp/run/xfs_a/result.xml"
xunit xfs_b 6.1.3 fail >"$tmp/run/xfs_b/result.xml"
"$STABLEPICK" results --branch linux-6.1.y --fstests "$fst" --format json \
	--baseline "$tmp/base" "$tmp/run" >"$tmp/json"
jq -r 'select(.test == "generic/003") |
	[.config, .class, ([.commits[].id] | join(" "))] | join("|")' \
	"$tmp/json" | sort >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
xfs_a|new|$B $A
xfs_b|new|$B
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "results: the suspects of each config, between its own kernels"

# --- cves: two commits brought the bug in --------------------------------

test_repo "$tmp/cve"
cd "$tmp/cve"
test_commit fs/ext4/a.c 'int a;' 'ext4: add a'
v1=$(git rev-parse HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
test_commit fs/ext4/b.c 'int b;' 'ext4: add b'
v2=$(git rev-parse HEAD)
test_fix fs/ext4/a.c 'int a_fixed;' 'ext4: fix a use-after-free in a' \
	'Cc: stable@vger.kernel.org'
f=$(git rev-parse HEAD)
dir=$tmp/vulns/cve/published/2024
mkdir -p "$dir"
printf '%s\n' "$f" >"$dir/CVE-2024-1.sha1"
printf '# dyad version: 1.2.0\n6.7:%s:6.7:%s\n6.5:%s:6.7:%s\n' \
	"$v2" "$f" "$v1" "$f" >"$dir/CVE-2024-1.dyad"
"$STABLEPICK" cves --branch linux-6.6.y --cve "$tmp/vulns" --format json |
	jq -r '[.cve, .status, .detail] | join("|")' >"$tmp/actual"
echo "CVE-2024-1|unfixed|vulnerable: $(git rev-parse --short=12 "$v1") (6.5) is in linux-6.6.y" \
	>"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "cves: the second commit that brought the bug in is asked too"

# --- audit: a prerequisite the branch has --------------------------------

test_repo "$tmp/audit"
cd "$tmp/audit"
test_commit fs/ext4/inode.c 'int ext4;' 'ext4: add the inode code'
test_commit fs/ext4/quota.c 'int quota_helper;' 'ext4: factor out the quota helper'
helper=$(git rev-parse --short=12 HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
test_fix fs/ext4/quota.c 'int quota_fixed;' 'ext4: fix quota accounting' \
	"Cc: stable@vger.kernel.org # 6.6.x: $helper: ext4: factor out the quota helper"
git rev-parse HEAD | "$STABLEPICK" audit --branch linux-6.6.y --picks - \
	--format json >"$tmp/out"
jq -r '[.verdict, (.flags | map(.flag) | join(","))] | join(" ")' "$tmp/out" \
	>"$tmp/actual"
echo 'ok ' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "audit: a prerequisite below the branch's base is no prerequisite-missing"
