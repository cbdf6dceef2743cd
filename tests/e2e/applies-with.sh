#!/bin/sh
# A proposal that does not apply: the smallest series of mainline
# commits after which it does (applies_with), found by blame of its
# conflicting lines and of its prerequisites' own, each series tried in
# memory; checked against git cherry-pick of the series, then the fix.
. "$TEST_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
seq 1 40 | sed 's/^/line /' >lines
mkdir -p fs/ext4 fs/btrfs
cp lines fs/ext4/inode.c
cp lines fs/btrfs/inode.c
git add fs
test_tick
git commit -q -m 'fs: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# commit SUBJECT [BODY]: commits what is staged, prints its id.  In
# $(...), test_tick does not carry: the commits share one date, as a
# series applied at once does, and the order of a set is ancestry's.

# One prerequisite: the fix changes line 5 as the rework left it.
test_change fs/ext4/inode.c 'line 5' 'line 5 reworked'
rework=$(test_commit_staged 'ext4: rework the inode lookup')
# Far from everything: in no set.
test_change fs/ext4/inode.c 'line 35' 'line 35 tidied'
tidy=$(test_commit_staged 'ext4: tidy up the inode code')
# Two, in a chain: the fix changes line 15 as the split left it, which
# changed it as the cleanup left it.
test_change fs/ext4/inode.c 'line 15' 'line 15 cleaned'
clean=$(test_commit_staged 'ext4: clean up the extent code')
test_change fs/ext4/inode.c 'line 15 cleaned' 'line 15 cleaned and split'
split=$(test_commit_staged 'ext4: split the extent helper')
test_change fs/ext4/inode.c 'line 5 reworked' 'line 5 reworked and fixed'
fix=$(test_commit_staged 'ext4: fix a crash in the inode lookup' 'Cc: stable@vger.kernel.org')
test_change fs/ext4/inode.c 'line 15 cleaned and split' 'line 15 fixed'
chain=$(test_commit_staged 'ext4: fix a leak in the extent helper' 'Cc: stable@vger.kernel.org')
# None: only the branch changed btrfs's line 3.
test_change fs/btrfs/inode.c 'line 3' 'line 3 fixed'
manual=$(test_commit_staged 'btrfs: fix a deadlock in the inode code' 'Cc: stable@vger.kernel.org')
# One that applies alone.
test_change fs/btrfs/inode.c 'line 20' 'line 20 fixed'
alone=$(test_commit_staged 'btrfs: fix a crash in the inode code' 'Cc: stable@vger.kernel.org')

git checkout -q linux-6.6.y
test_change fs/btrfs/inode.c 'line 3' 'line 3 as 6.6.y has it'
test_commit_staged 'btrfs: adjust the inode code for 6.6.y' >/dev/null
git checkout -q master

short() { echo "$1" | cut -c1-12; }

"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/json"
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["verdict"] != "proposed":
        continue
    print(o["commit"], json.dumps(o["applies_with"]), o["applies_with_tried"])
' "$tmp/json" | sort >"$tmp/actual"
sort >"$tmp/expect" <<EXPECT
$fix ["$rework"] 1
$chain ["$clean", "$split"] 1
$manual null 0
$alone [] 0
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "JSON: applies_with, the smallest series in mainline order, or null"

# git agrees: each series, then the fix, picks cleanly onto the branch.
check_pick() {
	git checkout -q --detach linux-6.6.y
	git -c user.name=T -c user.email=t@example.org cherry-pick "$@" \
		>/dev/null 2>&1 || fail "git cherry-pick $* does not apply"
	git checkout -q master
}
check_pick $rework $fix
check_pick $clean $split $chain
git checkout -q --detach linux-6.6.y
! git -c user.name=T -c user.email=t@example.org cherry-pick $split \
	>/dev/null 2>&1 || fail "the split applies without the cleanup"
git cherry-pick --abort
git checkout -q master
ok "git cherry-pick applies each series found, and not less"

"$STABLEPICK" explain --branch linux-6.6.y $chain $manual >"$tmp/explain"
# Judged: the cleanup is below the threshold for its subject's word.
grep -q "applies after $(short $clean) (\"ext4: clean up the extent code\", below-threshold, score -6: subject-cleanup), $(short $split) (\"ext4: split the extent helper\", below-threshold, score 0)" \
	"$tmp/explain" || fail "explain does not name and judge the series"
grep '^Search:' "$tmp/explain" >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
Search:    blame of fs/ext4/inode.c: the lines it changes were made by $(short $split) (after the base, not in the branch)
Search:    $(short $split) does not apply alone: conflicts in fs/ext4/inode.c; its lines were made by $(short $clean)
Search:    $(short $clean) applies alone
Search:    tried $(short $clean), $(short $split), then it: applies
Search:    blame of fs/btrfs/inode.c: the lines it changes were made by none (after the base, not in the branch)
Search:    no commit after the base that the branch lacks made those lines: the branch has them otherwise
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
grep -q "needs a manual backport" "$tmp/explain" ||
	fail "explain does not say the btrfs fix needs a manual backport"
ok "explain names the series with what the rules made of each, the search step by step"

# A second run makes no trial pick again: the trial cache has them all
# (the memo of whole answers set aside, which would answer at once).
rm -rf .git/stablepick/memo
STABLEPICK_TRACE=1 "$STABLEPICK" propose --branch linux-6.6.y --format json \
	>"$tmp/json2" 2>"$tmp/trace"
cmp -s "$tmp/json" "$tmp/json2" || fail "a second run answers otherwise"
grep -q 'prerequisite series: trial picks: [1-9][0-9]* from the cache, 0 computed' \
	"$tmp/trace" || { cat "$tmp/trace" >&2; fail "a second run picks again"; }
grep -q 'prerequisite series: blames: [1-9][0-9]* from the cache, 0 computed' \
	"$tmp/trace" || { cat "$tmp/trace" >&2; fail "a second run blames again"; }
ok "a second run gives the same answers from the trial cache, blaming nothing"
# The search has its own stage line: the judging after it is not
# charged for it (the presence line of the members outside the watch).
grep -q '^trace: prerequisite series: search  *[0-9.]* ms' "$tmp/trace" ||
	{ cat "$tmp/trace" >&2; fail "no stage line for the series search"; }
ok "the series search has its own stage line"

# The mbox carries each series before its fix, every prerequisite
# marked as the stable queue marks one; git am takes it all.
export STABLEPICK_NOW=1701600000
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/mbox"
grep '^Subject: \|^Stable-dep-of: ' "$tmp/mbox" >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
Subject: [PATCH 6.6 1/5] ext4: rework the inode lookup
Stable-dep-of: $(short $fix) ("ext4: fix a crash in the inode lookup")
Subject: [PATCH 6.6 2/5] ext4: fix a crash in the inode lookup
Subject: [PATCH 6.6 3/5] ext4: clean up the extent code
Stable-dep-of: $(short $chain) ("ext4: fix a leak in the extent helper")
Subject: [PATCH 6.6 4/5] ext4: split the extent helper
Stable-dep-of: $(short $chain) ("ext4: fix a leak in the extent helper")
Subject: [PATCH 6.6 5/5] ext4: fix a leak in the extent helper
Subject: [PATCH 6.6 1/1] btrfs: fix a crash in the inode code
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
git checkout -q --detach linux-6.6.y
git -c user.name=T -c user.email=t@example.org am -q "$tmp/mbox" ||
	fail "git am does not take the mbox"
n=$(git rev-list --count linux-6.6.y..HEAD)
git checkout -q master
[ "$n" = 6 ] || fail "git am made $n commits, not 6"
ok "the mbox carries each series before its fix, and git am takes it"

"$STABLEPICK" propose --branch linux-6.6.y --format email >"$tmp/email"
tr -s ' \n' '  ' <"$tmp/email" >"$tmp/flat"
grep -q "with the mainline commits some need before them (marked Stable-dep-of:)" \
	"$tmp/flat" || fail "the cover letter does not say prerequisites are carried"
# The series a fix applies after: in its patch's mail, with its reasons.
tr -s ' \n' '  ' <"$tmp/mbox" |
	grep -q "applies after $(short $rework) (\"ext4: rework the inode lookup\", below-threshold, score 0), in the series before it" ||
	fail "the patch's mail does not name the series"
grep -q "needs a manual backport: no mainline commit the branch lacks made the lines it changes" "$tmp/flat" ||
	fail "the cover letter does not say the btrfs fix needs a manual backport"
ok "the cover letter names each series, and what needs a manual backport"

# audit: a pick that does not apply after the picks before it names the
# mainline commits it needs that the picks lack; with them, it applies.
printf '%s\n' $fix $chain $manual >"$tmp/picks"
"$STABLEPICK" audit --branch linux-6.6.y --picks "$tmp/picks" --format json \
	>"$tmp/audit" || :
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if "commit" not in o:
        continue
    flags = {f["flag"]: f["evidence"] for f in o["flags"]}
    print(o["commit"], json.dumps(o["applies_with"]),
          "prerequisite-not-picked" in flags,
          "manual backport" in flags.get("does-not-apply", ""))
' "$tmp/audit" >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
$fix ["$rework"] True False
$chain ["$clean", "$split"] True False
$manual null False True
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
grep -q "it applies after $(short $rework) (\\\\\"ext4: rework the inode lookup\\\\\", below-threshold), which the picks do not hold: pick it before it" \
	"$tmp/audit" || fail "audit does not name the prerequisite"
printf '%s\n' $rework $fix >"$tmp/picks"
"$STABLEPICK" audit --branch linux-6.6.y --picks "$tmp/picks" --format json \
	>"$tmp/audit" || :
! grep -q 'does-not-apply\|prerequisite-not-picked' "$tmp/audit" ||
	fail "audit flags a pick whose prerequisite is picked before it"
ok "audit names a prerequisite the picks lack, and not once it is picked"

# The bounds are settings: a series of two is not looked for with
# seriesSize 1; seriesTrials 0 searches nothing; a bad value is an error.
git config stablepick.seriesSize 1
"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/json"
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["applies"] is False:
        print(o["commit"], json.dumps(o["applies_with"]))
' "$tmp/json" | sort >"$tmp/actual"
printf '%s\n' "$fix [\"$rework\"]" "$chain null" "$manual null" | sort >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git config --unset stablepick.seriesSize
git config stablepick.seriesTrials 0
"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/json"
! grep -q '"applies_with":\["' "$tmp/json" || fail "seriesTrials 0 still searches"
grep -q '"applies_with_tried":[1-9]' "$tmp/json" && fail "seriesTrials 0 tried a set"
git config stablepick.seriesTrials lots
"$STABLEPICK" propose --branch linux-6.6.y --format json >/dev/null 2>"$tmp/err" &&
	fail "a bad seriesTrials is accepted"
grep -q "^error: bad value 'lots' of stablepick.seriesTrials: expected a number from 0 to 10000\$" \
	"$tmp/err" || fail "bad seriesTrials: $(cat "$tmp/err")"
git config --unset stablepick.seriesTrials
ok "the bounds are settings: seriesSize, seriesTrials (0: no search); a bad one is an error"

# A run searches seriesPicks proposals at most, the oldest first; the
# others say so, and explain still searches the one asked about.
git config stablepick.seriesPicks 1
"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/json"
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["applies"] is False:
        print(o["commit"], json.dumps(o["applies_with"]), o["applies_with_searched"])
' "$tmp/json" | sort >"$tmp/actual"
printf '%s\n' "$fix [\"$rework\"] True" "$chain null False" "$manual null False" |
	sort >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
COLUMNS=1000 "$STABLEPICK" propose --branch linux-6.6.y >"$tmp/text"
[ "$(grep -c 'its series not searched: the run searches the oldest proposals first, stablepick.seriesPicks of them' "$tmp/text")" = 2 ] ||
	fail "the text does not say two were not searched: $(cat "$tmp/text")"
"$STABLEPICK" explain --branch linux-6.6.y "$chain" >"$tmp/explain"
grep -q "applies after $(short $clean)" "$tmp/explain" ||
	fail "explain does not search the one asked about"
git config stablepick.seriesPicks 0
"$STABLEPICK" propose --branch linux-6.6.y >/dev/null 2>"$tmp/err" &&
	fail "seriesPicks 0 is accepted"
grep -q "stablepick.seriesPicks" "$tmp/err" || fail "seriesPicks 0: $(cat "$tmp/err")"
git config --unset stablepick.seriesPicks
ok "a run searches stablepick.seriesPicks proposals at most, the oldest first"

# queue: an accepted fix that does not apply alone in the queue comes
# with the series that makes it apply, each member before it marked as
# a prerequisite; git am and quilt push -a take the queue.  The fix
# for which no series is found is left out.
"$STABLEPICK" mark --branch linux-6.6.y $fix $chain $manual $alone accepted \
	>/dev/null
"$STABLEPICK" queue --branch linux-6.6.y >"$tmp/queue.mbox" 2>"$tmp/err"
grep '^Subject: \|^Stable-dep-of: ' "$tmp/queue.mbox" >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
Subject: [PATCH 6.6 1/6] ext4: rework the inode lookup
Stable-dep-of: $(short $fix) ("ext4: fix a crash in the inode lookup")
Subject: [PATCH 6.6 2/6] ext4: fix a crash in the inode lookup
Subject: [PATCH 6.6 3/6] ext4: clean up the extent code
Stable-dep-of: $(short $chain) ("ext4: fix a leak in the extent helper")
Subject: [PATCH 6.6 4/6] ext4: split the extent helper
Stable-dep-of: $(short $chain) ("ext4: fix a leak in the extent helper")
Subject: [PATCH 6.6 5/6] ext4: fix a leak in the extent helper
Subject: [PATCH 6.6 6/6] btrfs: fix a crash in the inode code
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
grep -q "^warning: $(short $manual) (\"btrfs: fix a deadlock in the inode code\") does not apply to the branch; conflicts in fs/btrfs/inode.c: left out" \
	"$tmp/err" || fail "the fix with no series is not said left out: $(cat "$tmp/err")"
git checkout -q --detach linux-6.6.y
git -c user.name=T -c user.email=t@example.org am -q "$tmp/queue.mbox" ||
	fail "git am does not take the queue"
git log --reverse --format=%s linux-6.6.y..HEAD >"$tmp/actual"
git checkout -q master
sed -n 's/^Subject: \[PATCH 6.6 [0-9]\/6\] //p' "$tmp/expect" >"$tmp/expect.log"
test_cmp "$tmp/expect.log" "$tmp/actual"
ok "queue: an accepted fix comes with its series, marked; git am takes it"

"$STABLEPICK" queue --branch linux-6.6.y --format quilt --output "$tmp/q" \
	2>"$tmp/err"
cp "$tmp/err" "$tmp/quilt.err"
cat >"$tmp/expect" <<EXPECT
ext4-rework-the-inode-lookup.patch
ext4-fix-a-crash-in-the-inode-lookup.patch
ext4-clean-up-the-extent-code.patch
ext4-split-the-extent-helper.patch
ext4-fix-a-leak-in-the-extent-helper.patch
btrfs-fix-a-crash-in-the-inode-code.patch
EXPECT
test_cmp "$tmp/expect" "$tmp/q/series"
grep -q "^Stable-dep-of: $(short $fix) " "$tmp/q/ext4-rework-the-inode-lookup.patch" ||
	fail "the quilt patch of the prerequisite is not marked"
if command -v quilt >/dev/null 2>&1; then
	git worktree add -q --detach "$tmp/quilt" linux-6.6.y
	(cd "$tmp/quilt" && QUILT_PATCHES="$tmp/q" quilt push -a -q) \
		>"$tmp/out" 2>&1 || fail "quilt push -a: $(cat "$tmp/out")"
	grep -q '^line 15 fixed$' "$tmp/quilt/fs/ext4/inode.c" ||
		fail "quilt did not apply the leak fix"
	ok "queue --format quilt: the series in order; quilt push -a applies it"
else
	echo "# quilt is not installed: quilt push -a not tried"
fi

# What the queue says it did counts the accepted commits, the
# prerequisites with them and the one left out apart (it said "6 of 6
# accepted patches added"); the FAILED mails are for that one too.
grep -q "^3 of 4 accepted patches added to $tmp/q/series, with 3 prerequisites; 1 left out: it needs a manual backport\$" \
	"$tmp/quilt.err" || fail "queue --format quilt says: $(cat "$tmp/quilt.err")"
"$STABLEPICK" queue --branch linux-6.6.y 2>"$tmp/err" >/dev/null
grep -q "^3 of 4 accepted patches added to the mbox, with 3 prerequisites; 1 left out: it needs a manual backport\$" \
	"$tmp/err" || fail "queue says: $(cat "$tmp/err")"
"$STABLEPICK" propose --branch linux-6.6.y --format failed >"$tmp/failed" 2>"$tmp/err"
# The headers unfolded: the Subject line is long.
sed -n '/^$/q;p' "$tmp/failed" | sed -e ':a' -e 'N;s/\n / /;ta' -e 'P;D' |
	grep '^Subject: ' >"$tmp/actual"
echo 'Subject: FAILED: patch "[PATCH] btrfs: fix a deadlock in the inode code" failed to apply to 6.6-stable tree' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
grep -q '^fs/btrfs/inode.c$' "$tmp/failed" ||
	fail "the FAILED mail does not name the conflict: $(cat "$tmp/failed")"
ok "queue counts accepted patches, prerequisites and those left out; FAILED mails for those left out"
