#!/bin/sh
# One presence engine: propose, audit, diff and tests give the same
# answer for the same commit and branch, on a branch that carries
# mainline commits in every way real ones do (named, unnamed, reverted,
# adapted, under a subject other commits share, tied to another commit)
# and lacks a file a later feature added.  Then audit's own cases: a
# range applied as adapted backports, and a pick whose fixed commit the
# rules propose but nobody picked.
. "$TEST_SRCDIR/tests/lib.sh"
# The lines whole: text-width.sh checks how the text fits a width.
COLUMNS=1000; export COLUMNS
command -v jq >/dev/null 2>&1 || skip "jq is not installed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/ext4
for f in namei dir xattr super inode rename fsync helper other truncate quota; do
	printf 'one\ntwo\nthree\n' >fs/ext4/$f.c
done
git add fs
test_tick
git commit -q -m 'ext4: add the code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

id() { git rev-parse "$1"; }
short() { git rev-parse --short=12 "$1"; }
stable='Cc: stable@vger.kernel.org'
# fix NAME PATH CONTENT SUBJECT [TRAILER...]: a commit, its id in $NAME.
fix() {
	local name=$1
	shift
	test_fix "$@"
	eval "$name=\$(id HEAD)"
}

fix named fs/ext4/namei.c 'named' 'ext4: fix a leak in lookup' "$stable"
fix unnamed fs/ext4/dir.c 'unnamed' 'ext4: fix a crash in readdir' "$stable"
fix reverted fs/ext4/xattr.c 'reverted' 'ext4: fix an overflow in xattr' "$stable"
fix typo1 fs/ext4/super.c 'typo one' 'ext4: fix typo' "$stable"
fix typo2 fs/ext4/inode.c 'typo two' 'ext4: fix typo' "$stable"
fix rework fs/ext4/rename.c 'rework' 'ext4: rework rename locking' "$stable"
fix tied fs/ext4/rename.c 'tied' 'ext4: fix a race in rename' "$stable"
fix adapted fs/ext4/fsync.c 'adapted' 'ext4: fix a hang in fsync' "$stable"
fix elsewhere fs/ext4/helper.c 'elsewhere' 'ext4: fix the shared helper' "$stable"
test_commit fs/ext4/replay.c 'replay' 'ext4: add the fast commit replay'
feature=$(id HEAD)
fix newfile fs/ext4/replay.c 'replay fixed' 'ext4: fix a crash in replay' "$stable"
# The same feature's file and one the branch has: proposed, and why it
# does not apply is said.
printf 'replay fixed again\n' >fs/ext4/replay.c && git add fs/ext4/replay.c
fix partial fs/ext4/xattr.c 'xattr and replay' 'ext4: fix a race between replay and xattr' "$stable"
fix truncate fs/ext4/truncate.c 'truncate fixed' 'ext4: fix a deadlock in truncate' "$stable"
fix quota fs/ext4/quota.c 'quota' 'ext4: fix a leak in quota accounting' "$stable"
fix followup fs/ext4/quota.c 'quota fixed' 'ext4: fix the quota leak fix' \
	"Fixes: $(short "$quota") (\"ext4: fix a leak in quota accounting\")"

# The branch: a release, the backports, another release.
git checkout -q linux-6.6.y
test_commit fs/ext4/truncate.c 'one
two changed in 6.6.y
three' 'ext4: tweak truncate for 6.6.y'
test_tick
git tag -a -m 'Linux 6.6.1' v6.6.1
git cherry-pick -x "$named" >/dev/null
git cherry-pick "$unnamed" >/dev/null
git commit -q --amend -m 'VENDOR: readdir crash'
git cherry-pick "$reverted" >/dev/null
test_tick
git revert --no-edit HEAD >/dev/null
test_commit fs/ext4/super.c 'typo, adapted' 'ext4: fix typo'
test_tick
printf 'tied\n' >fs/ext4/rename.c
git add fs/ext4/rename.c
git commit -q -m "ext4: fix a race in rename

(cherry picked from commit $rework)"
test_commit fs/ext4/fsync.c 'adapted for 6.6.y' 'ext4: fix a hang in fsync'
adapted_bp=$(short HEAD)
test_commit fs/ext4/other.c 'elsewhere' 'ext4: fix the shared helper'
# An adapted backport with its upstream line: the mainline change does
# not apply to 6.6.y, this one does.
test_commit fs/ext4/truncate.c "truncate fixed
two changed in 6.6.y
three" "ext4: fix a deadlock in truncate

commit $truncate upstream."
test_tick
git tag -a -m 'Linux 6.6.2' v6.6.2
git checkout -q master

# --- the same answers from the four commands ---------------------------
# Each answer in one vocabulary: present, maybe-present, not-applicable,
# absent.
# (A maybe-present whose evidence is same-content is the trial pick's
# finding, after the engine said absent: the engine's answer is absent.)
"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/propose.json"
jq -r '.commit + " " + (if .verdict == "maybe-present" and
	any(.evidence[]; .kind == "same-content") then "absent"
	elif .verdict == "present" or .verdict == "maybe-present"
	or .verdict == "not-applicable" then .verdict else "absent" end)' \
	"$tmp/propose.json" | sort >"$tmp/propose"
# The tied fix: the branch's cherry-pick of the rework made its change too.
jq -r 'select(.commit == "'"$(id "$tied")"'") | .verdict + " " +
	([.evidence[].kind] | join(","))' "$tmp/propose.json" >"$tmp/actual"
echo "maybe-present absent,same-content" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"

jq -r .commit "$tmp/propose.json" >"$tmp/picks"
"$STABLEPICK" audit --branch linux-6.6.y --picks "$tmp/picks" --format json \
	>"$tmp/audit.json" || [ $? = 2 ] || fail "audit failed"
jq -r '.commit + " " + ([.flags[].flag] as $f |
	if ($f | index("already-present")) then "present"
	elif ($f | index("maybe-present")) and
		any(.flags[]; .evidence | test("pick changes nothing")) then "absent"
	elif ($f | index("maybe-present")) then "maybe-present"
	elif ($f | index("file-not-in-branch")) or ($f | index("bug-not-in-branch"))
		then "not-applicable"
	else "absent" end)' "$tmp/audit.json" | sort >"$tmp/audit"

"$STABLEPICK" diff --branch linux-6.6.y --against master --format json \
	>"$tmp/diff.json"
for c in $(cat "$tmp/picks"); do
	s=$(jq -r --arg c "$c" 'select(.commit == $c) | .section' "$tmp/diff.json")
	case $s in
	'') echo "$c present" ;;
	maybe-present) echo "$c maybe-present" ;;
	*) echo "$c absent" ;;
	esac
done | sort >"$tmp/diff"

# Every fix, not the feature: a test naming it would make it a
# candidate worth proposing (named-by-test), as propose --tests-from does.
fst=$tmp/fstests
mkdir -p "$fst/tests/generic" "$fst/common"
printf '_fixed_by_kernel_commit() { :; }\n' >"$fst/common/rc"
n=100
for c in $(grep -v "^$feature\$" "$tmp/picks"); do
	n=$((n + 1))
	printf '#! /bin/bash\n. ./common/rc\n_fixed_by_kernel_commit %s "%s"\n' \
		"$(short "$c")" "$(git log -1 --format=%s "$c")" >"$fst/tests/generic/$n"
done
"$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst" --format json \
	>"$tmp/tests.json"
jq -r '.annotations[] | .commit + " " + (if .state == "present" or
	.state == "maybe-present" then .state elif .state == "not-needed" then
	"not-applicable" else "absent" end)' "$tmp/tests.json" | sort >"$tmp/tests"

sort >"$tmp/expect" <<EOF
$named present
$unnamed present
$reverted absent
$typo1 absent
$typo2 absent
$rework present
$tied absent
$adapted maybe-present
$elsewhere absent
$feature absent
$newfile not-applicable
$partial absent
$truncate present
$quota absent
$followup absent
EOF
test_cmp "$tmp/expect" "$tmp/propose"
ok "propose: every way a branch carries a commit"
# diff's table has no not-applicable: it lists what the vendor lacks.
sed 's/ not-applicable$/ absent/' "$tmp/expect" >"$tmp/expect.diff"
test_cmp "$tmp/expect.diff" "$tmp/diff"
test_cmp "$tmp/expect" "$tmp/audit"
grep -v "^$feature " "$tmp/expect" | test_cmp - "$tmp/tests"
ok "audit, diff and tests give the answers propose gives"

# The evidence behind them.
jq -r '(.commit | .[0:12]) + " " + ([.evidence[].kind] | join(",")) +
	" " + .why' "$tmp/propose.json" | sort >"$tmp/actual"
sort >"$tmp/expect" <<EOF
$(short "$named") upstream-line backported as $(short linux-6.6.y~8)
$(short "$unnamed") patch-id same change as $(short linux-6.6.y~7) in linux-6.6.y
$(short "$reverted") backport-reverted,absent same change as $(short linux-6.6.y~6), reverted in linux-6.6.y by $(short linux-6.6.y~5)
$(short "$typo1") absent score 100 reaches the threshold 10 of ext4
$(short "$typo2") absent score 100 reaches the threshold 10 of ext4
$(short "$rework") upstream-line backported as $(short linux-6.6.y~3)
$(short "$tied") absent,same-content its pick changes nothing: the branch (or a proposal before it) already makes its change
$(short "$adapted") subject same subject as $adapted_bp in linux-6.6.y
$(short "$elsewhere") absent score 106 reaches the threshold 10 of ext4
$(short "$feature") absent score 0 is below the threshold 10 of ext4
$(short "$newfile") absent changes fs/ext4/replay.c, which linux-6.6.y does not have ($(short "$feature") added it: not proposed)
$(short "$partial") absent score 111 reaches the threshold 10 of ext4
$(short "$truncate") upstream-line backported as $(short linux-6.6.y)
$(short "$quota") absent score 111 reaches the threshold 10 of ext4
$(short "$followup") absent score 119 reaches the threshold 10 of ext4
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "propose: the evidence of each"

"$STABLEPICK" propose --branch linux-6.6.y |
	grep -A2 "  $(short "$partial")  " | tail -n 1 | sed 's/^ *//' >"$tmp/actual"
sed 's/; applies after .*//' "$tmp/actual" >"$tmp/actual.why"
echo "does not apply to linux-6.6.y: conflicts in fs/ext4/replay.c, fs/ext4/xattr.c; it changes fs/ext4/replay.c, which linux-6.6.y does not have ($(short "$feature") added it)" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual.why"
ok "propose: a fix of a later feature's file and an older one says why"

# The text names the series JSON's applies_with holds, in its order,
# the feature among them, each with its verdict.
jq -r --arg c "$partial" 'select(.commit == $c) | .applies_with[]' \
	"$tmp/propose.json" | cut -c1-12 >"$tmp/expect"
grep -q "^$(short "$feature")\$" "$tmp/expect" ||
	fail "the series of $(short "$partial") lacks the feature"
sed -n 's/.*; applies after //p' "$tmp/actual" | tr ',' '\n' |
	sed -n 's/^ *\([0-9a-f]\{12\}\) (.*/\1/p' >"$tmp/actual.series"
test_cmp "$tmp/expect" "$tmp/actual.series"
grep -q "$(short "$feature") (\"[^\"]*\", below-threshold, score 0)" "$tmp/actual" ||
	fail "the feature's verdict is not in the text"
ok "propose: the text says what a proposal applies after, as JSON does"

# --- audit: an applied range, and a pick whose fixed commit is not -----
"$STABLEPICK" audit --branch linux-6.6.y --range v6.6.1..v6.6.2 --format json \
	>"$tmp/range.json" || [ $? = 2 ] || fail "audit --range failed"
jq -r '(.commit | .[0:12]) + " " + .verdict + " " + ([.flags[].flag] | join(","))' \
	"$tmp/range.json" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
$(short "$named") ok 
$(short "$unnamed") ok 
$(short "$reverted") ok 
$(short "$rework") ok 
$(short "$adapted") ok 
$(short "$truncate") ok 
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "audit --range: an adapted backport applies as it was applied"

printf '%s\n' "$followup" >"$tmp/picks"
"$STABLEPICK" audit --branch linux-6.6.y --picks "$tmp/picks" --format json \
	>"$tmp/one.json" || [ $? = 2 ] || fail "audit failed"
jq -r '.verdict + " " + ([.flags[] | .flag + ": " + .evidence] | join("; "))' \
	"$tmp/one.json" >"$tmp/actual"
echo "reject fixed-commit-not-picked: it fixes $(short "$quota") (\"ext4: fix a leak in quota accounting\"), which is neither in the branch nor in the picks, and which the rules propose: pick both or neither; does-not-apply: conflicts in fs/ext4/quota.c with linux-6.6.y and the picks before it in mainline order; prerequisite-not-picked: it applies after $(short "$quota") (\"ext4: fix a leak in quota accounting\", proposed), which the picks do not hold: pick it before it" \
	>"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "audit: a pick whose fixed commit nobody picked"

# --- diff and explain: a vendor's cherry-pick without -x ---------------
# A vendor branch on 6.6.2 carries a mainline fix that 6.6.y lacks,
# picked without a line naming it: explain finds it by its change, and
# diff must name the same mainline commit for the vendor's row.
git checkout -q -b vendor linux-6.6.y
git cherry-pick "$elsewhere" >/dev/null
vendor_pick=$(id HEAD)
git checkout -q master
"$STABLEPICK" explain --branch vendor "$elsewhere" >"$tmp/explain"
grep -q "same change as $(short "$vendor_pick") in vendor" "$tmp/explain" ||
	{ cat "$tmp/explain"; fail "explain does not find the vendor's pick"; }
"$STABLEPICK" diff --branch vendor --against linux-6.6.y --format json \
	>"$tmp/vendor.json"
jq -r --arg c "$vendor_pick" 'select(.commit == $c) |
	.section + " " + .upstream + " " + .detail' "$tmp/vendor.json" >"$tmp/actual"
echo "vendor-only $(id "$elsewhere") the same change as mainline $(short "$elsewhere"), ahead of stable" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "diff names the mainline commit explain finds by its change"
