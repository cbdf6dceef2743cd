#!/bin/sh
# results-large: a large xunit report reads in one pass, and the lines
# it names are still right.  The reader once counted the lines of each
# <testcase> from the start of the file: 80,000 test cases took 74 s
# (issue 39).  The timeout is no measure of speed (the file reads in a
# fraction of a second; bench/xunit-read times it): it makes a reader
# that goes quadratic again fail here rather than run for minutes.
. "$TEST_SRCDIR/tests/lib.sh"

command -v timeout >/dev/null || skip "no timeout(1)"
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit README 'start' 'start'
git branch linux-6.1.y
test_commit README 'mainline' 'mainline'
git checkout -q linux-6.1.y
test_commit README 'stable' 'stable'
git checkout -q master
mkdir -p "$tmp/fstests/tests" "$tmp/fstests/common"

# xunit N FAIL BAD: N test cases of two lines each; the FAILth fails,
# the BADth (0: none) is named as no test is.
xunit() {
	awk -v n="$1" -v fail="$2" -v bad="$3" 'BEGIN {
		print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
		print "<testsuite name=\"xfstests\" tests=\"" n "\">"
		print "\t<properties>"
		print "\t\t<property name=\"SECTION\" value=\"xfs_4k\"/>"
		print "\t</properties>"
		for (i = 1; i <= n; i++) {
			name = i == bad ? "not a test" : "generic/" i
			printf "\t<testcase classname=\"xfstests.xfs_4k\" name=\"%s\" time=\"1\">\n", name
			if (i == fail)
				print "\t\t<failure message=\"output mismatch\" type=\"TestFail\"/>"
			print "\t</testcase>"
		}
		print "</testsuite>"
	}'
}
results() {
	timeout 60 "$STABLEPICK" results --branch linux-6.1.y \
		--fstests "$tmp/fstests" "$@"
}

# The line of a failing test case deep in the file: where grep finds it.
xunit 120000 99999 0 >"$tmp/result.xml"
results --format json "$tmp/result.xml" >"$tmp/json" ||
	fail "results on 120,000 test cases: status $?"
jq -r 'select(.test == "generic/99999") | "\(.file):\(.line)"' <"$tmp/json" \
	>"$tmp/actual"
echo "$tmp/result.xml:$(grep -n 'name="generic/99999"' "$tmp/result.xml" |
	cut -d: -f1)" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "a failing test case deep in a large report: its line"

# The line of an error deep in the file.
xunit 120000 0 88888 >"$tmp/bad.xml"
status=0
results "$tmp/bad.xml" >/dev/null 2>"$tmp/err" || status=$?
[ $status -ne 124 ] || fail "results on 120,000 test cases timed out"
[ $status -ne 0 ] || fail "a test case that names no test was taken"
line=$(grep -n 'name="not a test"' "$tmp/bad.xml" | cut -d: -f1)
echo "error: $tmp/bad.xml:$line: <testcase> name is not a test name" \
	>"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/err"
ok "an error deep in a large report: its line"
