#!/bin/sh
# eval and twins: mainline took one change twice, and the branch has it
# once.  T1 makes T0's change again (same subject, same patch) and T0 is
# below the branch's base; D2 makes D1's change again and the branch
# backported D1.  Neither is a false pick (already-in-branch, listed
# apart with its twin), and the same-content maybe-present that propose
# gives them names the twin in its evidence.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
for f in inode super namei leak; do
	test_commit fs/ext4/$f.c "int $f;" "ext4: add $f"
done
lines() { printf 'int %s;\n' "$@"; }
test_commit fs/ext4/dup.c "$(lines a b c d e f g h i j)" 'ext4: add dup'

test_commit fs/ext4/old.c 'int old;' 'ext4: add the old code'
old=$(git rev-parse --short=12 HEAD)
fixes="Fixes: $old (\"ext4: add the old code\")"
stable='Cc: stable@vger.kernel.org'
id() { git rev-parse "$1"; }
s() { git rev-parse --short=12 "$1"; }

git branch side1
# T0: before the base, and so in the branch.
test_fix fs/ext4/leak.c 'int leak_fixed;' 'ext4: fix a leak in the inode cache' \
	"$fixes" "$stable"
T0=$(id HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
git branch side2

# T1: T0 again on a side branch, merged after the base.
git checkout -q side1
test_tick
git cherry-pick "$T0" >/dev/null
T1=$(id HEAD)
git checkout -q master
# D1, backported; D2: D1 again on a side branch.
test_fix fs/ext4/dup.c "$(lines a b c d e f g h_fixed i j)" 'ext4: fix a race in dup' \
	"$fixes" "$stable"
D1=$(id HEAD)
git checkout -q side2
test_tick
git cherry-pick "$D1" >/dev/null
D2=$(id HEAD)
git checkout -q master
test_tick
git merge -q --no-ff -m 'Merge branch side1' side1
test_tick
git merge -q --no-ff -m 'Merge branch side2' side2
# N: a real false pick.
test_fix fs/ext4/super.c 'int super_fixed;' 'ext4: fix a crash in super' "$fixes"
N=$(id HEAD)
# P: the newest backport.
test_fix fs/ext4/namei.c 'int namei_fixed;' 'ext4: fix a crash in namei' "$fixes" "$stable"
P=$(id HEAD)

# The branch changed dup.c near D1's line first: its backport of D1 is
# not D1's patch, and so not D2's.
git checkout -q linux-6.6.y
test_commit fs/ext4/dup.c "$(lines a b c d e_branch f g h i j)" 'ext4: tune dup'
for c in "$D1" "$P"; do
	test_tick
	git cherry-pick -x "$c" >/dev/null
done
git checkout -q master
[ "$(git patch-id --stable <<EOF | cut -c1-40
$(git show "$T1")
EOF
)" = "$(git show "$T0" | git patch-id --stable | cut -c1-40)" ] ||
	fail "T1 is not T0's change"

"$STABLEPICK" eval --branch linux-6.6.y --false-picks >"$tmp/out"
sed -n 2p "$tmp/out" >"$tmp/actual"
echo 'labels: 2 positive (the branch carries them), 1 negative, 2 excluded (2 already-in-branch)' |
	test_cmp - "$tmp/actual"
sed -n '/^false picks/,$p' "$tmp/out" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
false picks (the rules pick them, the branch did not take them):
  $(s "$N") ext4         25/10  ext4: fix a crash in super
                     fixes-tag +8, fixes-in-branch +6, subject-fix +6, subject-crash +5

already in the branch (the rules pick them, the branch has the same change; not counted):
  $(s "$T1") ext4        125/10  ext4: fix a leak in the inode cache
                     same change as $(s "$T0") (below the base)
  $(s "$D2") ext4        125/10  ext4: fix a race in dup
                     same change as $(s "$D1") (in the range, carried by the branch)
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "a twin below the base and a twin in the range are no false picks"

"$STABLEPICK" eval --branch linux-6.6.y --false-picks --format json |
	jq -r '(select(.type == "labels") | .excluded["already-in-branch"]),
	       (select(.type == "selector" and .selector == "rules") | [.tp, .fp] | @tsv),
	       (select(.type == "false-pick" or .type == "already-in-branch") |
		[.type, .commit, .twin // "-", .where // "-"] | @tsv)' >"$tmp/actual"
printf '%s\n' 2 "2	1" "false-pick	$N	-	-" \
	"already-in-branch	$T1	$T0	below-base" \
	"already-in-branch	$D2	$D1	range" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "JSON: already-in-branch objects with the twin"

# propose picks them onto the tip: nothing changes, and the twin is named.
"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r 'select(.commit == "'"$T1"'" or .commit == "'"$D2"'") |
	       [.commit, .verdict, (.evidence[] | select(.kind == "same-content") | .commit), .why] | @tsv' \
	>"$tmp/actual"
printf '%s\t%s\t%s\t%s\n' \
	"$T1" maybe-present "$T0" "its pick changes nothing: $(s "$T0") (below v6.6) made the same change" \
	"$D2" maybe-present "$D1" "its pick changes nothing: $(s "$D1") (which linux-6.6.y carries) made the same change" \
	>"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" explain --branch linux-6.6.y "$T1" | grep '^  same-content' >"$tmp/actual"
echo "  same-content   picked onto the branch tip after the proposals before it, it changes nothing: $(s "$T0") (below v6.6) made the same change ($T0)" |
	test_cmp - "$tmp/actual"
ok "a same-content maybe-present names its twin"
