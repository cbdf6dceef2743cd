#!/bin/sh
# eval: a fixture history whose labelled set is known by construction
# (4 positives, 4 negatives, one commit per exclusion reason), and the
# exact confusion counts of the rules and of each baseline, the commits
# behind them, the threshold sweep and the ablation.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/ext4 fs/xfs fs/btrfs
for f in inode super namei dir extents journal balloc mballoc; do
	echo "int $f;" >fs/ext4/$f.c
done
echo 'int xfs_log;' >fs/xfs/xfs_log.c
echo 'int xfs_bmap;' >fs/xfs/xfs_bmap.c
echo 'int btrfs;' >fs/btrfs/inode.c
git add .
test_commit fs/ext4/old.c 'int old;' 'ext4: add the old code'
old=$(git rev-parse --short=12 HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

id() { git rev-parse "$1"; }
fixes="Fixes: $old (\"ext4: add the old code\")"
stable='Cc: stable@vger.kernel.org'

# In mainline order.  X: a feature (negative, picked by nobody).
test_commit fs/ext4/shiny.c 'int shiny;' 'ext4: add the shiny feature'
X=$(id HEAD)
# P1: Cc: stable and Fixes:, backported with an upstream line.
test_fix fs/ext4/inode.c 'int inode_fixed;' 'ext4: fix a crash in inode eviction' "$fixes" "$stable"
P1=$(id HEAD)
# N1: Fixes: only, no word of a fix (14 points; "handle" would be one,
# subject-check), not taken.
test_fix fs/ext4/super.c 'int super_fixed;' 'ext4: deal with the stale superblock case' "$fixes"
N1=$(id HEAD)
# P2: Fixes: and a fix, cherry-picked without an upstream line.
test_fix fs/ext4/namei.c 'int namei_fixed;' 'ext4: fix a deadlock in rename' "$fixes"
P2=$(id HEAD)
# N2: xfs (opt-in) with Fixes: but no Cc: stable, not taken.
test_fix fs/xfs/xfs_log.c 'int xfs_log_fixed;' 'xfs: fix a crash in log recovery' "$fixes"
N2=$(id HEAD)
# N3: a clean-up.
test_commit fs/ext4/dir.c 'int dir_tidy;' 'ext4: clean up the dir code'
N3=$(id HEAD)
# N4: for 6.8 and later (version-hint).
test_fix fs/btrfs/inode.c 'int btrfs_fixed;' 'btrfs: fix a leak in inode' \
	'Cc: stable@vger.kernel.org # 6.8+'
N4=$(id HEAD)
# N5: fixes X, which the branch lacks (bug-not-in-branch).
test_fix fs/ext4/shiny.c 'int shiny_fixed;' 'ext4: fix a crash in the shiny feature' \
	"Fixes: $(git rev-parse --short=12 "$X") (\"ext4: add the shiny feature\")" "$stable"
N5=$(id HEAD)
# P3: xfs with Cc: stable, backported; its words alone (subject-fix, 6)
# stay below the threshold ("a corruption" would add subject-crash: 11).
test_fix fs/xfs/xfs_bmap.c 'int xfs_bmap_fixed;' 'xfs: fix a corner case in bmap' "$stable"
P3=$(id HEAD)
# N6: reverted in mainline by R (reverted; R is a revert-of-absent).
test_fix fs/ext4/extents.c 'int extents_fixed;' 'ext4: fix an overflow in extents' "$fixes" "$stable"
N6=$(id HEAD)
test_tick
git revert --no-edit HEAD >/dev/null
R=$(id HEAD)
# S: the branch has a commit of the same subject only (subject-only).
test_fix fs/ext4/journal.c 'int journal_fixed;' 'ext4: fix a race in the journal' "$fixes" "$stable"
S=$(id HEAD)
# N7: a feature after the base, not taken; F: a fix of its file only
# (file-not-in-branch).
test_commit fs/ext4/fancy.c 'int fancy;' 'ext4: add support for the fancy feature'
N7=$(id HEAD)
test_fix fs/ext4/fancy.c 'int fancy_fixed;' 'ext4: fix a crash in the fancy feature' "$stable"
F=$(id HEAD)
# P4: no tag at all, backported (as a prerequisite, say).
test_commit fs/ext4/balloc.c 'int balloc_tweak;' 'ext4: tweak the allocator'
P4=$(id HEAD)
# L: after the last commit the branch took (after-last-backport).
test_fix fs/ext4/mballoc.c 'int mballoc_fixed;' 'ext4: fix a crash in mballoc' "$fixes" "$stable"
L=$(id HEAD)

git checkout -q linux-6.6.y
backport() {	# backport COMMIT: cherry-pick with an upstream line
	test_tick
	git cherry-pick "$1" >/dev/null
	git commit -q --amend -m "$(git log -1 --format=%s "$1")

commit $1 upstream.

Signed-off-by: A U Thor <author@example.com>"
}
backport "$P1"
test_tick
git cherry-pick "$P2" >/dev/null
backport "$P3"
test_fix fs/ext4/journal.c 'int journal_other;' 'ext4: fix a race in the journal'
backport "$P4"
git checkout -q master

s() { git rev-parse --short=12 "$1"; }
"$STABLEPICK" eval --branch linux-6.6.y >"$tmp/actual"
cat >"$tmp/expect" <<EOF
eval linux-6.6.y: v6.6..master, 16 commits in watched paths
labels: 4 positive (the branch carries them), 5 negative, 7 excluded (1 subject-only, 1 reverted, 1 version-hint, 1 revert-of-absent, 1 bug-not-in-branch, 1 file-not-in-branch, 1 after-last-backport)

SELECTOR         TP     FP     FN     TN  PRECISION  RECALL      F1
rules             3      1      1      4    0.750    0.750    0.750
cc-stable         2      0      2      5    1.000    0.500    0.667
fixes             2      2      2      3    0.500    0.500    0.500
cc-or-fixes       3      2      1      3    0.600    0.750    0.667

rules by subsystem:
SUBSYSTEM       POS    NEG     TP     FP     FN     TN  PRECISION  RECALL      F1
ext4              3      4      2      1      1      3    0.667    0.667    0.667
xfs               1      1      1      0      0      1    1.000    1.000    1.000
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "labels and confusion counts, text"

"$STABLEPICK" eval --branch linux-6.6.y --format json >"$tmp/json"
jq -c 'select(.type == "labels") | [.positives, .negatives, .excluded]' \
	"$tmp/json" >"$tmp/actual"
echo '[4,5,{"subject-only":1,"reverted":1,"version-hint":1,"revert-of-absent":1,"bug-not-in-branch":1,"file-not-in-branch":1,"already-in-branch":0,"after-last-backport":1}]' |
	test_cmp - "$tmp/actual"
jq -r 'select(.type == "selector") | [.selector, .tp, .fp, .fn, .tn, .precision, .recall, (.f1 * 1000 | round)] | @tsv' \
	"$tmp/json" >"$tmp/actual"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
	rules 3 1 1 4 0.75 0.75 750 \
	cc-stable 2 0 2 5 1 0.5 667 \
	fixes 2 2 2 3 0.5 0.5 500 \
	cc-or-fixes 3 2 1 3 0.6 0.75 667 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
jq -c 'select(.selector == "rules") | .subsystems.xfs' "$tmp/json" >"$tmp/actual"
echo '{"positives":1,"negatives":1,"tp":1,"fp":0,"fn":0,"tn":1,"precision":1.0000,"recall":1.0000,"f1":1.0000}' |
	jq -c . | test_cmp - "$tmp/actual"
ok "JSON, one object per selector and one for the labels"

# The commits behind the numbers.
"$STABLEPICK" eval --branch linux-6.6.y --misses --false-picks --format json |
	jq -r 'select(.type == "miss" or .type == "false-pick") | [.type, .commit, .score, .threshold, .why] | @tsv' \
	>"$tmp/actual"
printf '%s\t%s\t%s\t%s\t%s\n' \
	miss "$P4" 0 10 "no rule matched" \
	false-pick "$N1" 14 10 "fixes-tag +8, fixes-in-branch +6" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" eval --branch linux-6.6.y --misses >"$tmp/out"
sed -n '/^misses/,$p' "$tmp/out" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
misses (the branch took them, the rules do not pick them):
  $(s "$P4") ext4          0/10  ext4: tweak the allocator
                     no rule matched
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "--misses and --false-picks"

# The sweep: every score of a labelled commit as the threshold.
"$STABLEPICK" eval --branch linux-6.6.y --threshold-sweep --format json |
	jq -r 'select(.type == "sweep") | [.threshold, .tp, .fp, .fn, .tn] | @tsv' >"$tmp/actual"
# Scores: N7 -8 (subject-feature), N3 -6 (subject-cleanup), X and P4 0,
# N1 14, P2 and N2 25 (N2 never picked: xfs is opt-in), P3 106, P1 125.
printf '%s\t%s\t%s\t%s\t%s\n' \
	-8 4 4 0 1 \
	-6 4 3 0 2 \
	0 4 2 0 3 \
	14 3 1 1 4 \
	25 3 0 1 5 \
	106 2 0 2 5 \
	125 1 0 3 5 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "--threshold-sweep"

# Ablation: without fixes-tag, the false pick N1 (14) falls below 10
# (P2, 25, stays above); without cc-stable, P3 (106) falls below.
"$STABLEPICK" eval --branch linux-6.6.y --ablation --format json |
	jq -r 'select(.type == "ablation" and (.rule == "fixes-tag" or .rule == "cc-stable")) | [.rule, .tp, .fp, .fn, .tn] | @tsv' \
	>"$tmp/actual"
printf '%s\t%s\t%s\t%s\t%s\n' cc-stable 2 1 2 4 fixes-tag 3 0 1 5 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" eval --branch linux-6.6.y --ablation | grep '^fixes-tag ' |
	sed 's/  [^ ]*default.rules:/  default.rules:/' >"$tmp/actual"
line=$(grep -n '^rule fixes-tag[[:space:]]' "$TEST_SRCDIR/rules/default.rules" | cut -d: -f1)
echo "fixes-tag                    +8     +0     -1    0.857  +0.107  default.rules:$line" |
	test_cmp - "$tmp/actual"
ok "--ablation"

# Another rule set, the same labels: --rules shows a change in one run.
mkdir "$tmp/rules"
cp "$TEST_SRCDIR/rules/"*.rules "$tmp/rules/"
sed -i 's/^threshold 10$/threshold 15/' "$tmp/rules/default.rules"
"$STABLEPICK" --rules "$tmp/rules" eval --branch linux-6.6.y --format json |
	jq -r 'select(.selector == "rules") | [.tp, .fp, .fn, .tn] | @tsv' >"$tmp/actual"
printf '3\t0\t1\t5\n' | test_cmp - "$tmp/actual"
ok "--rules: a threshold of 15 drops the false pick"

# --range and --subsystem narrow the set; errors exit as elsewhere.
"$STABLEPICK" eval --branch linux-6.6.y --subsystem xfs --format json |
	jq -r 'select(.type == "labels") | [.commits, .positives, .negatives] | @tsv' >"$tmp/actual"
printf '2\t1\t1\n' | test_cmp - "$tmp/actual"
set +e
"$STABLEPICK" eval 2>"$tmp/err"
rc=$?
set -e
[ "$rc" = 129 ] || fail "eval without --branch exits $rc"
grep -q '^error: eval needs --branch$' "$tmp/err" || fail "$(cat "$tmp/err")"
ok "--subsystem, errors"
