#!/bin/sh
# Progress as git shows it: on a terminal, each stage that can take a
# while (the scan, patch-ids, presence, trial picks, the series search,
# the likely prerequisites, the patches of the mails) has its line with
# a percentage and the total, ended with ", done."; a loop inside
# another stage's (the trial picks of a series search) prints nothing
# of its own.  Not on a file.  STABLEPICK_PROGRESS_DELAY=0 shows the
# lines of a run too short for the half second they wait otherwise.
. "$TEST_SRCDIR/tests/lib.sh"

command -v script >/dev/null || skip "script (util-linux) is needed"

STABLEPICK_NOW=1702900000
export STABLEPICK_NOW
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/ext4
for i in 1 2 3; do
	echo "int f$i;" >fs/ext4/f$i.c
done
printf 'int a;\nint b;\n' >fs/ext4/a.c
git add .
test_commit fs/ext4/inode.c 'int ext4;' 'ext4: the base'
base=$(git rev-parse --short=12 HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
for i in 1 2 3; do
	test_fix fs/ext4/f$i.c "int f${i}_fixed;" "ext4: fix f$i" \
		"Fixes: $base (\"ext4: the base\")" 'Cc: stable@vger.kernel.org'
done
# A fix that applies only after the change before it.
printf 'int a2;\nint b;\n' >fs/ext4/a.c
git add .
test_tick
git commit -q -m 'ext4: rename a'
printf 'int a3;\nint b;\n' >fs/ext4/a.c
git add .
test_tick
git commit -q -m "ext4: fix a

Fixes: $base (\"ext4: the base\")
Cc: stable@vger.kernel.org"
# A backport of fix f3 under another subject: presence asks patch-ids.
git checkout -q linux-6.6.y
test_commit fs/ext4/f3.c 'int f3_fixed;' 'ext4: f3, the backport'
git checkout -q master

# progress ARGS...: the progress lines of a run with stderr on a
# terminal, one a line ("\r" ends the redrawn ones).
progress() {
	STABLEPICK_PROGRESS_DELAY=0 script -qec \
		"'$STABLEPICK' --no-cache $* 2>&1 >/dev/null" /dev/null |
		tr '\r' '\n' | grep -v '^$' >"$tmp/lines" || :
	grep ', done\.$' "$tmp/lines" || :
}

progress propose --branch linux-6.6.y --format failed >"$tmp/actual"
# The range's 5 commits, the patch-ids of the backport and of fix f3,
# the 5 candidates, the 3 proposals (fix a, with rename a before it,
# in the mail series).
cat >"$tmp/expect" <<'EOF'
Scanning: 100% (5/5), done.
Patch ids: 100% (2/2), done.
Presence: 100% (5/5), done.
Trial picks: 100% (3/3), done.
Likely prerequisites: 100% (1/1), done.
Prerequisite series: 100% (1/1), done.
Trial picks: 100% (4/4), done.
EOF
test_cmp "$tmp/expect" "$tmp/actual"
grep -q '^Presence:  20% (1/5)$' "$tmp/lines" ||
	fail "no line before the end: $(cat "$tmp/lines")"
ok "every stage shows its progress with the total"

progress propose --branch linux-6.6.y --format mbox | tail -n 1 >"$tmp/actual"
echo 'Patches: 100% (4/4), done.' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "the patches of the mails show their progress"

"$STABLEPICK" --no-cache propose --branch linux-6.6.y --format failed \
	>/dev/null 2>"$tmp/err"
! grep -q '%' "$tmp/err" || fail "progress on a file: $(cat "$tmp/err")"
ok "no progress when stderr is not a terminal"
