#!/bin/sh
# Ctrl-C keeps finished work: a run interrupted (SIGINT) after its scan
# has saved the scan cache, and the next run reads it instead of
# walking; one interrupted among its trial picks keeps the picks made,
# and the next run makes only the others.  An interrupted run writes no
# report and keeps no answer (memo), and ends as SIGINT would (130).
# STABLEPICK_TEST_INTERRUPT sends the SIGINT at a named point: the end
# of a stage ("scan"), or a progress line's count ("Trial picks 2").
. "$TEST_SRCDIR/tests/lib.sh"

STABLEPICK_NOW=1702900000
export STABLEPICK_NOW
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/ext4
for i in 1 2 3 4; do
	echo "int f$i;" >fs/ext4/f$i.c
done
git add .
test_commit fs/ext4/inode.c 'int ext4;' 'ext4: the base'
base=$(git rev-parse --short=12 HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
git branch vendor
for i in 1 2 3 4; do
	test_fix fs/ext4/f$i.c "int f${i}_fixed;" "ext4: fix f$i" \
		"Fixes: $base (\"ext4: the base\")" 'Cc: stable@vger.kernel.org'
done
# A commit of the branch's own: presence asks its patch-id.
git checkout -q linux-6.6.y
test_commit fs/ext4/inode.c 'int ext4_stable;' 'ext4: a change of the branch'
git checkout -q master

"$STABLEPICK" --no-cache propose --branch linux-6.6.y >"$tmp/expect"
grep -q 'ext4: fix f4' "$tmp/expect" || fail "no proposals: $(cat "$tmp/expect")"

# run NAME ARGS...: stablepick traced; its status in $status, its
# stdout in $tmp/out, its stderr in $tmp/err.
run() {
	local at=$1
	shift
	status=0
	STABLEPICK_TRACE=1 STABLEPICK_TEST_INTERRUPT=$at "$STABLEPICK" "$@" \
		>"$tmp/out" 2>"$tmp/err" || status=$?
}
scanned() {
	sed -n 's/^trace: scan: //p' "$tmp/err"
}
picks() {
	sed -n 's/^trace: checks: trial picks: //p' "$tmp/err"
}

# Interrupted as the scan ends: the scan cache is there, nothing else.
run scan propose --branch linux-6.6.y
[ "$status" = 130 ] || fail "interrupted: exit status $status: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "interrupted, a report: $(cat "$tmp/out")"
grep -q '^trace: interrupted: saving the caches' "$tmp/err" ||
	fail "not said: $(cat "$tmp/err")"
[ -s .git/stablepick/scan-cache ] || fail "no scan cache after the scan"
[ ! -e .git/stablepick/memo ] || fail "an interrupted run kept an answer"
[ ! -e .git/stablepick/trial-cache ] || fail "a trial cache before the trial picks"
ok "interrupted after the scan: exit 130, the scan cache saved, no report"

run none propose --branch linux-6.6.y
[ "$status" = 0 ] || fail "the next run: $status: $(cat "$tmp/err")"
[ "$(scanned)" = "4 commits in v6.6..master, 0 of them walked, 4 candidates from the cache" ] ||
	fail "the next run walked again: $(scanned)"
test_cmp "$tmp/expect" "$tmp/out"
ok "the next run reads the scan cache and answers as a run without it"

# Interrupted after two of four trial picks: those two are kept.
rm -rf .git/stablepick
run 'Trial picks 2' propose --branch linux-6.6.y
[ "$status" = 130 ] || fail "interrupted in the picks: $status: $(cat "$tmp/err")"
[ "$(picks)" = "0 from the cache, 2 computed" ] ||
	fail "interrupted in the picks: $(picks)"
[ -s .git/stablepick/trial-cache ] || fail "the picks made were not kept"
run none propose --branch linux-6.6.y
[ "$(picks)" = "2 from the cache, 2 computed" ] ||
	fail "the picks kept were made again: $(picks)"
test_cmp "$tmp/expect" "$tmp/out"
ok "interrupted among the trial picks: the picks made are kept"

# Interrupted as presence ends: the patch-ids computed are kept.
rm -rf .git/stablepick
run presence propose --branch linux-6.6.y
[ "$status" = 130 ] || fail "interrupted after presence: $status"
[ -s .git/stablepick/patchid-cache ] || fail "the patch-ids were not kept"
ok "interrupted after presence: the patch-id cache saved"

# Several branches at once: the branch interrupted keeps its picks too.
rm -rf .git/stablepick
run 'Trial picks 2' propose --branch linux-6.6.y --branch vendor
[ "$status" = 130 ] || fail "several branches: $status: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "several branches, a report: $(cat "$tmp/out")"
[ -s .git/stablepick/trial-cache ] || fail "several branches: the picks made were not kept"
ok "several branches, interrupted: the picks made are kept"
