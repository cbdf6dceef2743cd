#!/bin/sh
# A recorded decision is one answer everywhere: a fix marked accepted
# (or rejected) for the branch is accepted in propose, tests, results
# and cves alike, not needs-ack or proposed by the rules alone; one
# that waits for its soak time waits in all four.
. "$TEST_SRCDIR/tests/lib.sh"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"

STABLEPICK_NOW=1700600000
export STABLEPICK_NOW
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
short() { git rev-parse --short=12 "$1"; }

test_commit fs/xfs/xfs_log.c 'int xfs_log;' 'xfs: add log recovery'
R=$(short HEAD)
test_commit fs/ext4/inode.c 'int ext4;' 'ext4: add the inode code'
E=$(short HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
# XFS takes no fix without its maintainers' ack (the default rules):
# needs-ack until the ledger says otherwise.
test_fix fs/xfs/xfs_log.c 'int xfs_log_fixed;' \
	'xfs: fix a use-after-free in log recovery' \
	"Fixes: $R (\"xfs: add log recovery\")"
X=$(git rev-parse HEAD)
test_fix fs/ext4/inode.c 'int ext4_fixed;' 'ext4: fix a crash in the inode code' \
	"Fixes: $E (\"ext4: add the inode code\")" 'Cc: stable@vger.kernel.org'
Y=$(git rev-parse HEAD)
# Proposed by the rules, but XFS asks for soak time in mainline first.
test_fix fs/xfs/xfs_log.c 'int xfs_log_soaked;' 'xfs: fix a hang in log recovery' \
	"Fixes: $R (\"xfs: add log recovery\")" 'Cc: stable@vger.kernel.org'
W=$(git rev-parse HEAD)

# fstests naming both fixes, a run failing both, a CVE for each.
fst=$tmp/fstests
mkdir -p "$fst/common" "$fst/tests/xfs" "$fst/tests/ext4"
: >"$fst/common/rc"
annotate() {	# annotate TEST SHA SUBJECT
	{
		echo '#! /bin/bash'
		echo '. ./common/preamble'
		echo '_begin_fstest auto quick'
		echo "_fixed_by_kernel_commit $(short "$2") \"$3\""
		echo 'status=0'
	} >"$fst/tests/$1"
}
annotate xfs/001 "$X" 'xfs: fix a use-after-free in log recovery'
annotate ext4/002 "$Y" 'ext4: fix a crash in the inode code'
annotate xfs/003 "$W" 'xfs: fix a hang in log recovery'
cat >"$tmp/result.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="xfstests" failures="3" skipped="0" tests="3" time="9">
	<properties>
		<property name="SECTION" value="xfs_4k"/>
	</properties>
	<testcase classname="xfstests.xfs_4k" name="xfs/001" time="3">
		<failure message="- output mismatch" type="TestFail" />
	</testcase>
	<testcase classname="xfstests.xfs_4k" name="ext4/002" time="3">
		<failure message="- output mismatch" type="TestFail" />
	</testcase>
	<testcase classname="xfstests.xfs_4k" name="xfs/003" time="3">
		<failure message="- output mismatch" type="TestFail" />
	</testcase>
</testsuite>
XML
cves=$tmp/vulns
mkdir -p "$cves/cve/published/2024"
for n in 1:$X 2:$Y 3:$W; do
	printf '%s\n' "${n#*:}" >"$cves/cve/published/2024/CVE-2024-${n%%:*}.sha1"
	printf '{}\n' >"$cves/cve/published/2024/CVE-2024-${n%%:*}.json"
done

# answers: what propose, tests, results and cves say of X, Y and W.
answers() {
	"$STABLEPICK" propose --branch linux-6.6.y --format json |
		jq -r '"propose \(.commit) \(.verdict)"'
	"$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst" --format json |
		jq -r '.annotations[] | "tests \(.commit) \(.verdict)"'
	"$STABLEPICK" results --branch linux-6.6.y --fstests "$fst" \
		--format json "$tmp/result.xml" |
		jq -r '.commits[] | "results \(.id) \(.state | sub(", score [0-9-]*$"; ""))"'
	"$STABLEPICK" cves --branch linux-6.6.y --cve "$cves" --format json |
		jq -r '"cves \(.fixes[0]) \(.verdict)"'
}

answers | sort >"$tmp/actual"
sort >"$tmp/expect" <<EOF
propose $X needs-ack
propose $Y proposed
tests $X needs-ack
tests $Y proposed
results $X missing, needs-ack
results $Y missing, proposed
cves $X needs-ack
cves $Y proposed
propose $W waiting
tests $W waiting
results $W missing, waiting
cves $W waiting
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "no decision: the rules' verdict, and the soak, everywhere"

"$STABLEPICK" mark --branch linux-6.6.y "$X" accepted >/dev/null
"$STABLEPICK" mark --branch linux-6.6.y -m 'not for 6.6' "$Y" rejected >/dev/null
answers | sort >"$tmp/actual"
sort >"$tmp/expect" <<EOF
propose $X accepted
propose $Y rejected
tests $X accepted
tests $Y rejected
results $X missing, accepted
results $Y missing, rejected
cves $X accepted
cves $Y rejected
propose $W waiting
tests $W waiting
results $W missing, waiting
cves $W waiting
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "a recorded decision: the same verdict in propose, tests, results and cves"

"$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst" |
	sed -n '/^missing fixes/,$p' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
missing fixes (backport candidates):
    $(short $X) xfs: fix a use-after-free in log recovery (xfs/001): accepted on 2023-11-21
    $(short $Y) ext4: fix a crash in the inode code (ext4/002): rejected on 2023-11-21: not for 6.6
    $(short $W) xfs: fix a hang in log recovery (xfs/003)
EOF
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" results --branch linux-6.6.y --fstests "$fst" --format json \
	"$tmp/result.xml" | jq -r '.evidence' >"$tmp/evidence"
grep -q "(accepted: accepted on 2023-11-21)" "$tmp/evidence" ||
	fail "results does not say why X is accepted: $(cat "$tmp/evidence")"
ok "tests and results say what was decided, and when"
