#!/bin/sh
# The weekly loop: a proposal, decisions recorded with mark, and next
# week's run with --since last, which must equal a full run minus what
# the first one listed.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
git config user.name 'Stable Picker'
git config user.email 'picker@example.org'
test_commit fs/ext4/inode.c 'int ext4;' 'ext4: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

fix() {	# fix FILE SUBJECT
	test_commit "$1" "int $(echo "$2" | tr -c 'a-z\n' '_');" "$2

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>"
}
fix fs/ext4/a.c 'ext4: fix a crash in a'
a=$(git rev-parse HEAD)
fix fs/ext4/b.c 'ext4: fix a crash in b'
b=$(git rev-parse HEAD)
fix fs/ext4/c.c 'ext4: fix a crash in c'
c=$(git rev-parse HEAD)

export STABLEPICK_NOW=1701600000	# 2023-12-03
verdicts() {
	"$STABLEPICK" propose --branch linux-6.6.y --format json "$@" |
		jq -r '.subject + "|" + .verdict + "|" + .why'
}

# Week 1: the first --since last run falls back to the branch base.
"$STABLEPICK" propose --branch linux-6.6.y --format json --since last >"$tmp/week1.json"
"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/full1.json"
test_cmp "$tmp/full1.json" "$tmp/week1.json"
[ "$(wc -l <"$tmp/week1.json")" -eq 3 ] || fail "week 1 lists $(wc -l <"$tmp/week1.json")"
ok "first --since last run equals a full run"

# The list answers: a is accepted, b rejected, c deferred by a week.
"$STABLEPICK" mark --branch linux-6.6.y "$a" accepted -m 'queued' >/dev/null
"$STABLEPICK" mark --branch linux-6.6.y "$b" rejected -m 'breaks quota' >/dev/null
"$STABLEPICK" mark --branch linux-6.6.y "$c" deferred --until 2023-12-10 >/dev/null
verdicts >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
ext4: fix a crash in a|accepted|accepted on 2023-12-03: queued
ext4: fix a crash in b|rejected|rejected on 2023-12-03: breaks quota
ext4: fix a crash in c|deferred|deferred until 2023-12-10
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" propose --branch linux-6.6.y >"$tmp/text"
grep -q '^3 candidates: 1 accepted, 1 rejected, 1 deferred$' "$tmp/text" &&
	grep -q '^(nothing to show)$' "$tmp/text" && grep -q '(3 present, below-threshold or decided not shown; use --all)' "$tmp/text" ||
	fail "decided candidates are shown without --all"
ok "decisions outrank the rules"

# A deferral ends on its date.
STABLEPICK_NOW=1702200000 verdicts | grep 'in c|' >"$tmp/actual"	# 2023-12-10
echo 'ext4: fix a crash in c|proposed|score 111 reaches the threshold 10 of ext4' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "deferred comes back after its date"

# Week 2: new mainline commits, one a follow-up of last week's a.
fix fs/ext4/d.c 'ext4: fix a crash in d'
test_commit fs/ext4/a.c 'int a2;' "ext4: fix the fix of the crash in a

Fixes: $(git rev-parse --short=12 "$a") (\"ext4: fix a crash in a\")
Signed-off-by: A U Thor <author@example.com>"
# Compared whole, JSON object by JSON object, by commit id.
"$STABLEPICK" propose --branch linux-6.6.y --format json --since last >"$tmp/week2.json"
"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/full2.json"
jq -r .commit <"$tmp/week1.json" >"$tmp/listed"
jq -c --rawfile listed "$tmp/listed" \
	'select(.commit as $c | ($listed | split("\n") | index($c)) == null)' \
	<"$tmp/full2.json" >"$tmp/full2"
jq -c . <"$tmp/week2.json" >"$tmp/week2"
test_cmp "$tmp/full2" "$tmp/week2"
jq -r '.subject + "|" + .verdict + "|" + .why' <"$tmp/week2.json" >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
ext4: fix the fix of the crash in a|proposed|score 119 reaches the threshold 10 of ext4
ext4: fix a crash in d|proposed|score 111 reaches the threshold 10 of ext4
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "--since last equals the full run minus what was listed"


# The mbox after the email: a run at the same tip lists the same.
fix fs/ext4/e.c 'ext4: fix a crash in e'
verdicts --since last >"$tmp/email-run"
verdicts --since last >"$tmp/mbox-run"
echo 'ext4: fix a crash in e|proposed|score 111 reaches the threshold 10 of ext4' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/email-run"
test_cmp "$tmp/expect" "$tmp/mbox-run"
ok "a second run at the same tip lists the same commits"
