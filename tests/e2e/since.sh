#!/bin/sh
# propose --since last lists again what an earlier run listed when it
# was not eligible then and is now: soaked, its deferral ended, its
# ledger decision changed, the prerequisite it was held for is in the
# branch.  Marked so in text, JSON, the email; the mbox carries them;
# and a second run at the same tip lists the same.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
git config user.name 'Stable Picker'
git config user.email 'picker@example.org'
# btrfs soaks a week; xfs is opt-in without the shipped soak.
mkdir "$tmp/rules"
cat >"$tmp/rules/btrfs.rules" <<'RULES'
subsystem btrfs
	paths fs/btrfs/
	policy heuristic
	soak 7d
end
RULES
cat >"$tmp/rules/xfs.rules" <<'RULES'
subsystem xfs
	paths fs/xfs/
	policy opt-in
end
RULES
git config stablepick.rules "$tmp/rules"

test_commit fs/ext4/inode.c 'int ext4;' 'ext4: add the inode code'
test_commit fs/xfs/xfs_log.c 'line 1
line 2
line 3' 'xfs: add the log code'
test_commit fs/btrfs/inode.c 'int btrfs;' 'btrfs: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

fix() {	# fix FILE SUBJECT [CONTENT]: tagged for stable
	test_fix "$1" "${3:-int $(echo "$2" | tr -c 'a-z\n' '_');}" "$2" \
		'Cc: stable@vger.kernel.org'
}
untagged() {	# untagged FILE SUBJECT [CONTENT]: needs-ack in xfs
	test_fix "$1" "${3:-int $(echo "$2" | tr -c 'a-z\n' '_');}" "$2"
}
fix fs/ext4/a.c 'ext4: fix a crash in a'
fix fs/ext4/w.c 'ext4: fix a crash in w'
briefly=$(git rev-parse HEAD)
fix fs/btrfs/b.c 'btrfs: fix a crash in b'
soaks=$(git rev-parse HEAD)
fix fs/ext4/c.c 'ext4: fix a crash in c'
deferred=$(git rev-parse HEAD)
untagged fs/xfs/d.c 'xfs: fix a crash in d'
acked=$(git rev-parse HEAD)
untagged fs/xfs/e.c 'xfs: fix a crash in e'
untagged fs/xfs/f.c 'xfs: fix a crash in f'
naked=$(git rev-parse HEAD)
# A fix that applies only after another, which waits for xfs's ack.
untagged fs/xfs/xfs_log.c 'xfs: fix a crash in the log' 'line 1
line 2 fixed
line 3'
prereq=$(git rev-parse HEAD)
fix fs/xfs/xfs_log.c 'xfs: fix a crash in the log again' 'line 1
line 2 fixed again
line 3'

B='--branch linux-6.6.y'
export STABLEPICK_NOW=1700100000	# 2023-11-16
"$STABLEPICK" mark $B "$deferred" deferred --until 2023-11-20 >/dev/null

# One line a candidate, by subject: verdict, and why it is listed again.
summary() {
	jq -r '[.subject, .verdict, (.newly_eligible // {} |
		(.why // "-") + "/" + (.was // "-"))] | join("|")' | sort
}

# --- week 1: the first run lists everything ---
"$STABLEPICK" propose $B --since last --format json >"$tmp/week1.json"
summary <"$tmp/week1.json" >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
btrfs: fix a crash in b|waiting|-/-
ext4: fix a crash in a|proposed|-/-
ext4: fix a crash in c|deferred|-/-
ext4: fix a crash in w|proposed|-/-
xfs: fix a crash in d|needs-ack|-/-
xfs: fix a crash in e|needs-ack|-/-
xfs: fix a crash in f|needs-ack|-/-
xfs: fix a crash in the log again|needs-ack|-/-
xfs: fix a crash in the log|needs-ack|-/-
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
jq -r 'select(.subject == "xfs: fix a crash in the log again") | .why' \
	<"$tmp/week1.json" | grep -q "^needs $(git rev-parse --short=12 "$prereq") " ||
	fail "the fix is not held for its prerequisite"
ok "week 1: waiting, deferred, needs-ack and held"

# --- between the weeks: the list answers (one proposal is to wait a
# few days), the branch takes the prerequisite, mainline moves on by
# eight days ---
"$STABLEPICK" mark $B "$acked" accepted -m 'acked by xfs' >/dev/null
"$STABLEPICK" mark $B "$briefly" deferred --until 2023-11-19 >/dev/null
"$STABLEPICK" mark $B "$naked" rejected -m 'breaks quota' >/dev/null
git checkout -q linux-6.6.y
git cherry-pick -x "$prereq" >/dev/null
git checkout -q master
test_tick=$((test_tick + 8 * 86400))
fix fs/ext4/g.c 'ext4: fix a crash in g'
STABLEPICK_NOW=1700800000	# 2023-11-24: both deferrals have ended

# --- week 2 ---
"$STABLEPICK" propose $B --since last --format json >"$tmp/week2.json"
summary <"$tmp/week2.json" >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
btrfs: fix a crash in b|proposed|soaked/waiting
ext4: fix a crash in c|proposed|deferral-expired/deferred
ext4: fix a crash in g|proposed|-/-
ext4: fix a crash in w|proposed|deferral-expired/deferred
xfs: fix a crash in d|accepted|ledger-changed/needs-ack
xfs: fix a crash in the log again|proposed|prerequisite-present/held
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
# Nothing else differs from a full run.
"$STABLEPICK" propose $B --format json >"$tmp/full2.json"
jq -r .commit <"$tmp/week2.json" >"$tmp/listed"
jq -c --rawfile listed "$tmp/listed" \
	'select(.commit as $c | ($listed | split("\n") | index($c)) != null)' \
	<"$tmp/full2.json" >"$tmp/expect"
jq -c 'del(.newly_eligible)' <"$tmp/week2.json" >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(grep -c newly_eligible "$tmp/full2.json")" = 0 ] ||
	fail "a full run marks something newly eligible"
ok "week 2: soaked, deferral-expired, ledger-changed, prerequisite-present"

# The same tip again, in every format: the same list.
"$STABLEPICK" propose $B --since last >"$tmp/week2.txt"
"$STABLEPICK" propose $B --since last --format email >"$tmp/week2.eml"
"$STABLEPICK" propose $B --since last --format mbox >"$tmp/week2.mbox"
"$STABLEPICK" propose $B --since last --format json >"$tmp/again.json"
test_cmp "$tmp/week2.json" "$tmp/again.json"
# One subsystem's run forgets nothing of the others (week 3 below).
"$STABLEPICK" propose $B --since last --subsystem ext4 --format json |
	summary >"$tmp/actual"
summary <"$tmp/week2.json" | grep '^ext4' | test_cmp - "$tmp/actual"
ok "a second run at the same tip lists the same"

grep -A3 ' btrfs: fix a crash in b$' "$tmp/week2.txt" |
	grep -q '^ *newly eligible: soaked (was waiting)$' ||
	fail "text: no mark for the soaked fix"
grep -A3 ' ext4: fix a crash in c$' "$tmp/week2.txt" |
	grep -q '^ *newly eligible: deferral-expired (was deferred)$' ||
	fail "text: no mark for the deferred fix"
grep -A3 '^accepted .* xfs: fix a crash in d$' "$tmp/week2.txt" |
	grep -q '^ *newly eligible: ledger-changed (was needs-ack)$' ||
	fail "text: no mark for the accepted fix"
grep -A3 ' xfs: fix a crash in the log again$' "$tmp/week2.txt" |
	grep -q '^ *newly eligible: prerequisite-present (was held)$' ||
	fail "text: no mark for the held fix"
grep -q '^(5 listed by an earlier run and newly eligible)$' "$tmp/week2.txt" &&
	grep -q '^(4 listed by an earlier run not shown)$' "$tmp/week2.txt" ||
	fail "text: the counts are wrong: $(cat "$tmp/week2.txt")"
[ "$(grep -c 'newly eligible' "$tmp/week2.txt")" = 6 ] ||
	fail "text: marks on other lines"
ok "text: the marks"

# The email: a section of each subsystem; the mbox: the patches of
# those that apply (the accepted one is not proposed).
# (A mail per list, a patch that follows on a short line: its reasons
# in full are in its mail.)
tr -s ' \n' ' ' <"$tmp/week2.eml" >"$tmp/body"
for want in \
	"Newly eligible since the last run (listed before): $(git rev-parse --short=12 "$soaks") btrfs: fix a crash in b score 111: cc-stable +100, ...; soaked (was waiting); the patch follows in reply" \
	"deferral-expired (was deferred); the patch follows in reply" \
	"ledger-changed (was needs-ack); accepted on 2023-11-16: acked by xfs" \
	"prerequisite-present (was held); the patch follows in reply"
do
	grep -qF "$want" "$tmp/body" || fail "email: no \"$want\" in $(cat "$tmp/body")"
done
[ "$(grep -c '^Newly eligible since the last run' "$tmp/week2.eml")" = 3 ] ||
	fail "email: not one section in each of btrfs, ext4, xfs"
grep '^Subject:' "$tmp/week2.mbox" >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
Subject: [PATCH 6.6 1/3] ext4: fix a crash in w
Subject: [PATCH 6.6 1/2] btrfs: fix a crash in b
Subject: [PATCH 6.6 2/3] ext4: fix a crash in c
Subject: [PATCH 6.6 2/2] xfs: fix a crash in the log again
Subject: [PATCH 6.6 3/3] ext4: fix a crash in g
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
tr -s ' \n' ' ' <"$tmp/week2.mbox" |
	grep -qF "stablepick: score 111: cc-stable +100, subject-fix +6, subject-crash +5; soaked (was waiting)" ||
	fail "mbox: the reasons of btrfs: fix a crash in b are not in its mail"
ok "email and mbox: the newly eligible"

# --- week 3: what week 2 listed again is not listed a third time ---
fix fs/ext4/h.c 'ext4: fix a crash in h'
"$STABLEPICK" propose $B --since last --format json | summary >"$tmp/actual"
echo 'ext4: fix a crash in h|proposed|-/-' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "week 3: only the new"

# --- the state: a version 1 file remembers no verdicts; a bad line ---
state=.git/stablepick/state
[ "$(head -n 1 "$state")" = '# stablepick state 2' ] || fail "not version 2"
grep -q "^linux-6.6.y	$naked	rejected	rejected\$" "$state" ||
	fail "the rejected commit is not remembered: $(cat "$state")"
{
	echo '# stablepick state 1'
	awk -F '\t' -v OFS='\t' 'NR > 1 && NF == 5 { print $1, $2, $3 }' "$state"
} >"$tmp/v1" && mv "$tmp/v1" "$state"
"$STABLEPICK" propose $B --since last --format json | summary >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(head -n 1 "$state")" = '# stablepick state 2' ] || fail "not rewritten as version 2"
grep -q "^linux-6.6.y	$naked	-	rejected\$" "$state" ||
	fail "the rejected commit is not remembered after a version 1 file"
ok "a version 1 state is read, and written again as version 2"

printf 'linux-6.6.y\t%s\twaiting\tsoon\n' "$naked" >>"$state"
n=$(wc -l <"$state")
"$STABLEPICK" propose $B --since last >/dev/null 2>"$tmp/err" &&
	fail "a bad state line is accepted"
echo "error: $(git rev-parse --absolute-git-dir)/stablepick/state:$n: bad line for branch 'linux-6.6.y'" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/err"
ok "a bad line of the state names its file and line"
