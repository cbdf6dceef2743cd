#!/bin/sh
# results: what each failure of a test run means for linux-6.1.y.  A
# fixture history with one commit per case; fstests' xunit reports
# written as common/report writes them (one per section, and merged as
# xfstests-bld merges them), a check.log, a results/ directory, an
# expunge list, runltp's log and kirk's JSON; every class asserted.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
id() { git rev-parse "$1"; }
short() { git rev-parse --short=12 "$1"; }

test_commit fs/xfs/xfs_log.c 'int xfs_log;' 'xfs: add log recovery'
R=$(short HEAD)
test_commit fs/ext4/page-io.c 'int writeback;' 'ext4: add writeback'
test_tick
git tag -a -m 'Linux 6.1' v6.1
git branch linux-6.1.y
fixes="Fixes: $R (\"xfs: add log recovery\")"

# Mainline after v6.1: the fixes the tests name.
test_fix fs/xfs/xfs_log.c 'int xfs_log_uaf_fixed;' 'xfs: fix a use-after-free in log recovery' "$fixes"
M=$(id HEAD)
test_fix fs/xfs/xfs_bmap.c 'int bmap_fixed;' 'xfs: fix a corruption in bmap' "$fixes"
P=$(id HEAD)
test_fix fs/ext4/page-io.c 'int writeback_fixed;' 'ext4: fix a deadlock in writeback' "$fixes"
U=$(id HEAD)
test_fix fs/xfs/xfs_icache.c 'int icache_fixed;' 'xfs: fix a leak in the inode cache' "$fixes"
Q=$(id HEAD)

# linux-6.1.y: v6.1.1 (the baseline's kernel), then the backport of P,
# an xfs change and an ext4 change, and v6.1.2 (the kernel tested).
git checkout -q linux-6.1.y
test_commit fs/ext4/super.c 'int super_fixed;' 'ext4: fix a typo in a message'
test_tick
git tag -a -m 'Linux 6.1.1' v6.1.1
test_fix fs/xfs/xfs_bmap.c 'int bmap_fixed;' 'xfs: fix a corruption in bmap' \
	"[ Upstream commit $P ]"
Pb=$(id HEAD)
test_commit fs/xfs/xfs_alloc.c 'int alloc_reworked;' 'xfs: rework the allocator'
S=$(id HEAD)
test_commit fs/ext4/journal.c 'int journal_tidy;' 'ext4: tidy up the journal'
test_tick
git tag -a -m 'Linux 6.1.2' v6.1.2
git checkout -q master

# An fstests checkout: a test per case.
fst=$tmp/fstests
mkdir -p "$fst/common" "$fst/tests/xfs" "$fst/tests/generic"
: >"$fst/common/rc"
annotate() {	# annotate TEST [SHA SUBJECT]
	{
		echo '#! /bin/bash'
		echo '. ./common/preamble'
		echo '_begin_fstest auto quick'
		[ -z "${2:-}" ] || echo "_fixed_by_kernel_commit $(short "$2") \"$3\""
		echo 'status=0'
	} >"$fst/tests/$1"
}
annotate xfs/001 "$M" 'xfs: fix a use-after-free in log recovery'
annotate xfs/002 "$P" 'xfs: fix a corruption in bmap'
annotate generic/003 "$U" 'ext4: fix a deadlock in writeback'
annotate xfs/004 "$Q" 'xfs: fix a leak in the inode cache'
annotate xfs/005
annotate generic/006
annotate generic/007
annotate xfs/008
annotate generic/009

# xunit SECTION KERNEL TEST:STATUS...: result.xml as common/report
# writes it (_xunit_make_section_report, _xunit_make_testcase_report).
xunit() {
	local section=$1 kernel=$2 t name status fails=0 skips=0 n=0
	shift 2
	for t in "$@"; do
		n=$((n + 1))
		case ${t#*:} in fail) fails=$((fails + 1)) ;; notrun) skips=$((skips + 1)) ;; esac
	done
	ns=https://git.kernel.org/pub/scm/fs/xfs/xfstests-dev.git
	cat <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<testsuite
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
 xsi:schemaLocation="$ns $ns/tree/doc/xunit.xsd"

 name="xfstests"
 failures="$fails" skipped="$skips" tests="$n" time="42"
 hostname="kvm-xfstests"
  start_timestamp="2026-12-01T10:00:00+00:00"
        timestamp="2026-12-01T10:00:01+00:00"
 report_timestamp="2026-12-01T10:10:00+00:00"
>
	<properties>
		<property name="ARCH" value="x86_64"/>
		<property name="FSTYP" value="xfs"/>
		<property name="KERNEL" value="$kernel"/>
		<property name="MKFS_OPTIONS" value="-m reflink=1 -b size=4096"/>
		<property name="PLATFORM" value="Linux/x86_64 kvm-xfstests $kernel #1 SMP"/>
		<property name="SECTION" value="$section"/>
		<property name="TEST_DEV" value="/dev/vdb"/>
	</properties>
EOF
	for t in "$@"; do
		name=${t%%:*} status=${t#*:}
		printf '\t<testcase classname="xfstests.%s" name="%s" time="3">\n' "$section" "$name"
		case $status in
		fail)
			printf '\t\t<failure message="- output mismatch (see /results/%s/%s.out.bad)" type="TestFail" />\n' "$section" "$name"
			printf '\t\t<system-out>\n<![CDATA[\nQA output created by %s &lt; <testcase name="bogus/1"> ]]]]><![CDATA[>\n]]>\n\t\t</system-out>\n' "$name"
			printf '\t\t<system-err>\n<![CDATA[\n--- tests/%s.out\n+++ /results/%s/%s.out.bad\n]]>\n\t\t</system-err>\n' "$name" "$section" "$name"
			;;
		notrun)
			printf '\t\t<skipped message="this test requires a feature &quot;x&quot; &amp; more" />\n'
			;;
		esac
		printf '\t</testcase>\n'
	done
	echo '</testsuite>'
}

mkdir -p "$tmp/run/xfs_4k" "$tmp/run/xfs_reflink" "$tmp/base/xfs_4k" "$tmp/base/xfs_reflink"
xunit xfs_4k 6.1.2 xfs/001:fail xfs/002:fail generic/003:pass xfs/004:fail \
	xfs/005:fail generic/006:fail generic/007:fail xfs/008:notrun \
	generic/009:pass >"$tmp/run/xfs_4k/result.xml"
xunit xfs_reflink 6.1.2 xfs/001:fail xfs/002:pass generic/003:pass xfs/004:pass \
	xfs/005:pass generic/006:pass generic/007:fail xfs/008:notrun \
	generic/009:pass >"$tmp/run/xfs_reflink/result.xml"
xunit xfs_4k 6.1.1 xfs/001:pass xfs/002:fail generic/003:pass xfs/004:fail \
	xfs/005:pass generic/009:pass >"$tmp/base/xfs_4k/result.xml"
xunit xfs_reflink 6.1.1 xfs/001:pass xfs/002:pass generic/003:pass \
	xfs/004:pass xfs/005:pass generic/009:pass >"$tmp/base/xfs_reflink/result.xml"
# kdevops keeps one expunge list per config.
cat >"$tmp/xfs_4k.txt" <<'EOF'
# expunges for xfs_4k on 6.1.y
generic/007 # bug 1234: fails since forever
EOF

results() {
	"$STABLEPICK" results --branch linux-6.1.y --fstests "$fst" "$@"
}
classes() {	# the (config, test, class) of JSON Lines, one a line
	jq -r '[.config, .test, .class] | @tsv'
}
has_evidence() {	# has_evidence TEST TEXT <JSON: TEST's evidence holds TEXT
	jq -r --arg t "$1" 'select(.test == $t) | .evidence' | grep -qF -- "$2"
}

# One section, its baseline run and the expunge list: each class.
results --format json --baseline "$tmp/base/xfs_4k/result.xml" \
	--baseline "$tmp/xfs_4k.txt" "$tmp/run/xfs_4k/result.xml" >"$tmp/json"
classes <"$tmp/json" >"$tmp/actual"
printf '%s\t%s\t%s\n' \
	xfs_4k generic/003 unexpected-pass \
	xfs_4k generic/006 unexplained \
	xfs_4k generic/007 baseline \
	xfs_4k xfs/001 missing-fix \
	xfs_4k xfs/002 baseline \
	xfs_4k xfs/004 baseline \
	xfs_4k xfs/005 new >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "one section with a baseline run and an expunge list: every class"

# XFS takes no fix without its maintainers' ack (the default rules).
jq -r 'select(.test == "xfs/001") | .commits[] | [.role, .id, .state] | @tsv' \
	<"$tmp/json" | sed 's/score [0-9]*/score N/' >"$tmp/actual"
printf 'missing-fix\t%s\tmissing, needs-ack, score N\n' "$M" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
has_evidence xfs/001 "propose --tests-from takes it up" <"$tmp/json" ||
	fail "a missing fix in the range: propose --tests-from"
# xfs/004 fails in the baseline too; its missing fix stays in its commits.
jq -r 'select(.test == "xfs/004") | [.commits[].id] | join(" ")' <"$tmp/json" \
	>"$tmp/actual"
echo "$Q" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
has_evidence generic/007 "xfs_4k.txt:2 # bug 1234: fails since forever" <"$tmp/json" ||
	fail "the expunge list's line and reason"
# generic/003 passed with its fix absent: the presence verdict to check.
jq -r 'select(.test == "generic/003") | [.commits[].role, .commits[].id] | join(" ")' \
	<"$tmp/json" >"$tmp/actual"
echo "missing-fix $U" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
# xfs/005: the branch's xfs commits between v6.1.1 and v6.1.2, newest
# first; not the ext4 ones.
jq -r 'select(.test == "xfs/005") | .commits[] | [.role, .id] | @tsv' \
	<"$tmp/json" >"$tmp/actual"
printf 'suspect\t%s\n' "$S" "$Pb" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
has_evidence xfs/005 "2 of the 3 commits of v6.1.1..v6.1.2 touch fs/xfs/" <"$tmp/json" ||
	fail "xfs/005: the range and the paths"
ok "the commits of each class: the missing fix, the suspects newest first"

# Without the baseline, xfs/002's fix is in the branch: fix-present,
# with the backport; xfs/005 is unexplained.
results --format json "$tmp/run/xfs_4k/result.xml" >"$tmp/json"
jq -r 'select(.test == "xfs/002") | [.class, (.commits[] | .role + " " + .id)] | join(", ")' \
	<"$tmp/json" >"$tmp/actual"
echo "fix-present, fix $P, backport $Pb" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
jq -r 'select(.test == "xfs/005") | .class + ": " + .evidence' <"$tmp/json" >"$tmp/actual"
echo "unexplained: no annotation of the test sources names a fix for it; no baseline given" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "fix-present names the backport; without a baseline, no new"

# Two configs and their baselines: the difference per config.
results --baseline "$tmp/base" --baseline "$tmp/xfs_4k.txt" "$tmp/run" \
	--format json >"$tmp/json"
classes <"$tmp/json" >"$tmp/actual"
printf '%s\t%s\t%s\n' \
	xfs_4k generic/003 unexpected-pass \
	xfs_4k generic/006 unexplained \
	xfs_4k generic/007 baseline \
	xfs_4k xfs/001 missing-fix \
	xfs_4k xfs/002 baseline \
	xfs_4k xfs/004 baseline \
	xfs_4k xfs/005 new \
	xfs_reflink generic/003 unexpected-pass \
	xfs_reflink generic/007 unexplained \
	xfs_reflink xfs/001 missing-fix \
	xfs_reflink xfs/004 unexpected-pass >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
results --baseline "$tmp/base" --baseline "$tmp/xfs_4k.txt" "$tmp/run" >"$tmp/text"
sed -n '/^differing between configs:/,/^$/p' "$tmp/text" >"$tmp/actual"
cat >"$tmp/expect" <<'EOF'
differing between configs:
    generic/006      xfs_4k fail, xfs_reflink pass
    xfs/002          xfs_4k fail, xfs_reflink pass
    xfs/004          xfs_4k fail, xfs_reflink pass
    xfs/005          xfs_4k fail, xfs_reflink pass

EOF
test_cmp "$tmp/expect" "$tmp/actual"
sed -n '/^config /,$p' "$tmp/text" >"$tmp/actual"
cat >"$tmp/expect" <<'EOF'
config           missing-fix new fix-present unexplained unexpected-pass baseline passed skipped
xfs_4k                     1   1           0           1               1        3      1       1
xfs_reflink                1   0           0           1               2        0      4       1
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "two configs with a baseline run each: classes and counts per config"

# xfstests-bld's merged results.xml (a <testsuites> root, TESTCFG):
# the same answer as the two sections' files.
{
	echo '<?xml version="1.0" encoding="utf-8"?>'
	echo '<testsuites>'
	for c in xfs_4k xfs_reflink; do
		sed -e '1d' -e "s|<properties>|<properties>\n\t\t<property name=\"TESTCFG\" value=\"$c\"/>|" \
			"$tmp/run/$c/result.xml"
	done
	echo '</testsuites>'
} >"$tmp/results.xml"
results --baseline "$tmp/base" --baseline "$tmp/xfs_4k.txt" "$tmp/results.xml" \
	--format json >"$tmp/json2"
classes <"$tmp/json2" >"$tmp/actual"
classes <"$tmp/json" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "the merged results.xml of xfstests-bld reads as its sections"

# check.log (the last run's block) and a results/ directory of
# TEST.out.bad files: the same classes for xfs_4k.
mkdir -p "$tmp/cl/xfs_4k"
cat >"$tmp/cl/xfs_4k/check.log" <<'EOF'

Mon Nov 30 10:00:00 UTC 2026
Ran: xfs/001 generic/009
Failures: xfs/001
Failed 1 of 2 tests

Tue Dec  1 10:00:00 UTC 2026
Ran: xfs/001 xfs/002 generic/003 xfs/004 xfs/005 generic/006 generic/007 generic/009
Not run: xfs/008
Failures: xfs/001 xfs/002 xfs/004 xfs/005 generic/006 generic/007
Failed 6 of 8 tests
EOF
results --baseline "$tmp/base/xfs_4k/result.xml" --baseline "$tmp/xfs_4k.txt" \
	--kernel v6.1.2 "$tmp/cl/xfs_4k/check.log" --format json >"$tmp/json2"
results --baseline "$tmp/base/xfs_4k/result.xml" --baseline "$tmp/xfs_4k.txt" \
	"$tmp/run/xfs_4k/result.xml" --format json >"$tmp/json"
classes <"$tmp/json2" >"$tmp/actual"
classes <"$tmp/json" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
mkdir -p "$tmp/files/results/xfs_4k/xfs" "$tmp/files/results/xfs_4k/generic"
for t in xfs/001 xfs/002 xfs/004 xfs/005 generic/006 generic/007; do
	echo 'QA output created' >"$tmp/files/results/xfs_4k/$t.out.bad"
	: >"$tmp/files/results/xfs_4k/$t.full"
done
: >"$tmp/files/results/xfs_4k/generic/003.full"
: >"$tmp/files/results/xfs_4k/generic/009.full"
echo 'requires a feature' >"$tmp/files/results/xfs_4k/xfs/008.notrun"
: >"$tmp/files/results/xfs_4k/xfs/008.full"
results --baseline "$tmp/base/xfs_4k/result.xml" --baseline "$tmp/xfs_4k.txt" \
	--kernel v6.1.2 "$tmp/files/results" --format json >"$tmp/json2"
classes <"$tmp/json2" >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
jq -r 'select(.test == "xfs/005") | [.commits[].id] | join(" ")' <"$tmp/json2" >"$tmp/actual"
echo "$S $Pb" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "check.log and a results/ directory give the classes of result.xml"

# The kernel as uname -r with CONFIG_LOCALVERSION_AUTO: its -g part.
sed "s/value=\"6.1.2\"/value=\"6.1.2-00003-g$(git rev-parse --short=12 "$S")\"/" \
	"$tmp/run/xfs_4k/result.xml" >"$tmp/g.xml"
results --baseline "$tmp/base/xfs_4k/result.xml" "$tmp/g.xml" --format json \
	--class new >"$tmp/json"
jq -r '[.commits[].id] | join(" ")' <"$tmp/json" >"$tmp/actual"
echo "$S $Pb" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "a kernel release with a -g part names its commit"

# The expunge list for the next baseline: one config, a reason a line.
results --baseline "$tmp/base" --baseline "$tmp/xfs_4k.txt" "$tmp/run" \
	--format exclude --config xfs_4k >"$tmp/actual"
cat >"$tmp/expect" <<EOF
# xfs_4k on linux-6.1.y: the tests that failed, from stablepick results
generic/006 # unexplained: no fix known
generic/007 # baseline: expunged in $tmp/xfs_4k.txt:2 # bug 1234: fails since forever
xfs/001 # missing-fix: missing-fix $(short "$M") ("xfs: fix a use-after-free in log recovery")
xfs/002 # baseline: failed in the baseline run too ($tmp/base/xfs_4k/result.xml)
xfs/004 # baseline: missing-fix $(short "$Q") ("xfs: fix a leak in the inode cache")
xfs/005 # new: passed in the baseline; 2 suspects
EOF
test_cmp "$tmp/expect" "$tmp/actual"
if results --baseline "$tmp/base" "$tmp/run" --format exclude >"$tmp/out" 2>"$tmp/err"; then
	fail "an expunge list of two configs"
fi
grep -q "^error: an expunge list is of one config, and the results have 2: name one with --config$" \
	"$tmp/err" || fail "exclude of two configs: $(cat "$tmp/err")"
ok "--format exclude writes the next baseline of one config"

# LTP: runltp's log and kirk's JSON; a runtest tag that runs a test of
# another name finds that test's tags.
ltp=$tmp/ltp
mkdir -p "$ltp/testcases/kernel/syscalls/fanotify" "$ltp/runtest"
cat >"$ltp/testcases/kernel/syscalls/fanotify/fanotify10.c" <<EOF
static struct tst_test test = {
	.tags = (const struct tst_tag[]) {
		{"linux-git", "$(short "$M")"},
		{}
	}
};
EOF
cat >"$ltp/testcases/kernel/syscalls/fanotify/fanotify11.c" <<EOF
static struct tst_test test = {
	.tags = (const struct tst_tag[]) {
		{"linux-git", "$(short "$P")"},
		{}
	}
};
EOF
cat >"$ltp/runtest/syscalls" <<'EOF'
#DESCRIPTION:Kernel system calls
abort01 abort01
fanotify10 fanotify10
cve-2099-0001 fanotify11
EOF
cat >"$tmp/ltp.log" <<'EOF'
Test Start Time: Tue Dec  1 10:00:00 2026
-----------------------------------------
Testcase                                           Result     Exit Value
--------                                           ------     ----------
abort01                                            PASS       0
fanotify10                                         FAIL       1
cve-2099-0001                                      FAIL       1
ioctl_loop01                                       CONF       32

-----------------------------------------------
Total Tests: 4
Total Skipped Tests: 1
Total Failures: 2
Kernel Version: 6.1.2
Machine Architecture: x86_64
Hostname: kvm
EOF
"$STABLEPICK" results --branch linux-6.1.y --ltp "$ltp" "$tmp/ltp.log" \
	--format json >"$tmp/json"
jq -r '[.config, .test, .suite, .class, .kernel, (.commits[] | .role + " " + .id)] | join(" ")' \
	<"$tmp/json" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
ltp cve-2099-0001 ltp fix-present 6.1.2 fix $P backport $Pb
ltp fanotify10 ltp missing-fix 6.1.2 missing-fix $M
EOF
test_cmp "$tmp/expect" "$tmp/actual"
cat >"$tmp/kirk.json" <<'EOF'
{
  "results": [
    {"test_fqn": "abort01", "status": "pass",
     "test": {"command": "abort01", "arguments": [], "log": "PASS", "retval": ["0"], "duration": 0.1, "failed": 0, "passed": 1, "broken": 0, "skipped": 0, "warnings": 0, "result": "pass"}},
    {"test_fqn": "fanotify10", "status": "fail",
     "test": {"command": "fanotify10", "arguments": [], "log": "TFAIL: \"x\"", "retval": ["1"], "duration": 0.5, "failed": 1, "passed": 0, "broken": 0, "skipped": 0, "warnings": 0, "result": "fail"}},
    {"test_fqn": "cve-2099-0001", "status": "brok",
     "test": {"command": "fanotify11", "arguments": [], "log": "", "retval": ["2"], "duration": 0.5, "failed": 0, "passed": 0, "broken": 1, "skipped": 0, "warnings": 0, "result": "brok"}},
    {"test_fqn": "ioctl_loop01", "status": "conf",
     "test": {"command": "ioctl_loop01", "arguments": [], "log": "", "retval": ["32"], "duration": 0.1, "failed": 0, "passed": 0, "broken": 0, "skipped": 1, "warnings": 0, "result": "conf"}}
  ],
  "stats": {"runtime": 1.2, "passed": 1, "failed": 1, "broken": 1, "skipped": 1, "warnings": 0},
  "environment": {"distribution": "debian", "distribution_version": "12", "kernel": "Linux 6.1.2 #1 SMP PREEMPT_DYNAMIC", "arch": "x86_64", "RAM": "4 GB", "swap": "0 kB"}
}
EOF
"$STABLEPICK" results --branch linux-6.1.y --ltp "$ltp" "$tmp/kirk.json" \
	--format json >"$tmp/json"
jq -r '[.config, .test, .suite, .class, .kernel, (.commits[] | .role + " " + .id)] | join(" ")' \
	<"$tmp/json" >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
# ltp-pan's log without -p: a tag= line per test.
cat >"$tmp/pan.log" <<'EOF'
startup='Tue Dec  1 10:00:00 2026'
tag=abort01 stime=1764583200 dur=0 exit=exited stat=0 core=no cu=0 cs=0
tag=fanotify10 stime=1764583201 dur=1 exit=exited stat=1 core=no cu=1 cs=0
tag=cve-2099-0001 stime=1764583202 dur=1 exit=signaled stat=9 core=yes cu=0 cs=0
tag=ioctl_loop01 stime=1764583203 dur=0 exit=exited stat=32 core=no cu=0 cs=0
EOF
"$STABLEPICK" results --branch linux-6.1.y --ltp "$ltp" "$tmp/pan.log" \
	--format json >"$tmp/json"
jq -r '[.config, .test, .suite, .class, (.kernel // "6.1.2"), (.commits[] | .role + " " + .id)] | join(" ")' \
	<"$tmp/json" >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
ok "runltp's log and kirk's JSON: classes, and runtest tags of other tests"

# The text report: grouped by class, in the order a maintainer reads.
results --baseline "$tmp/base/xfs_4k/result.xml" --baseline "$tmp/xfs_4k.txt" \
	"$tmp/run/xfs_4k/result.xml" >"$tmp/text"
grep '^[a-z-]* ([0-9]*):$' "$tmp/text" >"$tmp/actual"
cat >"$tmp/expect" <<'EOF'
missing-fix (1):
new (1):
unexplained (1):
unexpected-pass (1):
baseline (3):
EOF
test_cmp "$tmp/expect" "$tmp/actual"
head -3 "$tmp/text" >"$tmp/actual"
cat >"$tmp/expect" <<'EOF'
results on linux-6.1.y (base v6.1): config xfs_4k (kernel 6.1.2)
baseline: 1 configs run, 1 tests expunged

EOF
test_cmp "$tmp/expect" "$tmp/actual"
results --class missing-fix,new "$tmp/run/xfs_4k/result.xml" \
	--baseline "$tmp/base/xfs_4k/result.xml" --format json | classes >"$tmp/actual"
printf 'xfs_4k\txfs/001\tmissing-fix\nxfs_4k\txfs/005\tnew\n' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "text groups by class; --class selects"

# Bad input: a clear error naming the file, line and cause.
printf '<testsuite name="x">\n\t<testcase name="xfs/001">\n' >"$tmp/cut.xml"
if results "$tmp/cut.xml" 2>"$tmp/err"; then fail "a cut xunit report"; fi
grep -q "^error: $tmp/cut.xml: the report ends inside <testcase>: was the run cut short?$" \
	"$tmp/err" || fail "cut report: $(cat "$tmp/err")"
printf '<testsuite>\n<testcase name="a b"/>\n</testsuite>\n' >"$tmp/bad.xml"
if results "$tmp/bad.xml" 2>"$tmp/err"; then fail "a bad test name"; fi
grep -q "^error: $tmp/bad.xml:2: <testcase> name is not a test name$" "$tmp/err" ||
	fail "bad name: $(cat "$tmp/err")"
if results "$tmp/xfs_4k.txt" 2>"$tmp/err"; then fail "an expunge list as the run"; fi
grep -q "^error: $tmp/xfs_4k.txt: an expunge list is what a baseline expects, not what a run did: give it with --baseline$" \
	"$tmp/err" || fail "expunge as run: $(cat "$tmp/err")"
printf 'generic/001 # ok\nthis is not a test list\n' >"$tmp/prose.txt"
if results --baseline "$tmp/prose.txt" "$tmp/run/xfs_4k/result.xml" 2>"$tmp/err"; then
	fail "prose as a baseline"
fi
grep -q "^error: $tmp/prose.txt: not a results file stablepick knows" "$tmp/err" ||
	fail "prose: $(cat "$tmp/err")"
if results "$tmp/nothere.xml" 2>"$tmp/err"; then fail "a missing file"; fi
grep -q "^error: cannot read '$tmp/nothere.xml': No such file or directory$" "$tmp/err" ||
	fail "missing: $(cat "$tmp/err")"
if results --config nosuch "$tmp/run/xfs_4k/result.xml" 2>"$tmp/err"; then
	fail "an unknown config"
fi
grep -q "^error: no config 'nosuch' in the results$" "$tmp/err" || fail "config: $(cat "$tmp/err")"
if "$STABLEPICK" results --branch linux-6.1.y --fstests "$fst" 2>"$tmp/err"; then
	fail "no results"
fi
grep -q "^error: results needs --branch, --fstests or --ltp, and the results of a run$" \
	"$tmp/err" || fail "usage: $(cat "$tmp/err")"
ok "bad input: a clear error with the file and line"
