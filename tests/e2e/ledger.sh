#!/bin/sh
# The ledger keyed on the branch as resolved, decisions for other
# branches shown as evidence, and the ledger shared through a notes ref
# (ledger sync), down to a team's round trip through a bare "origin".
. "$TEST_SRCDIR/tests/lib.sh"
. "$TEST_SRCDIR/tests/e2e/fixture.sh"

make_fixture "$tmp/repo"
cd "$tmp/repo"
git config user.name 'Ann Maintainer'
git config user.email ann@example.org
git branch linux-6.1.y v6.6
git update-ref refs/remotes/origin/linux-6.6.y linux-6.6.y
git update-ref refs/remotes/origin/linux-6.1.y linux-6.1.y
ledger=$(git rev-parse --absolute-git-dir)/stablepick/ledger
tab=$(printf '\t')
uaf=$(git log --format=%H --grep='^ext4: fix use-after-free' master)
xfs=$(git log --format=%H --grep='^xfs: fix corruption' master)
uaf12=$(echo "$uaf" | cut -c1-12)
xfs12=$(echo "$xfs" | cut -c1-12)
who='Ann Maintainer <ann@example.org>'

# 2023-11-14T22:13:20Z
STABLEPICK_NOW=1700000000
export STABLEPICK_NOW

# verdict BRANCH COMMIT: the verdict propose gives the commit.
verdict() {
	"$STABLEPICK" propose --branch "$1" --format json |
		jq -r --arg c "$2" 'select(.commit == $c) | .verdict'
}

# --- one key for every spelling of a branch ---------------------------------
[ "$(verdict linux-6.6.y "$uaf")" = proposed ] || fail "not proposed at first"
"$STABLEPICK" mark --branch linux-6.6.y -m 'needs folios' "$uaf" rejected \
	>"$tmp/actual"
echo "rejected $uaf12 for linux-6.6.y: ext4: fix use-after-free in bar (needs folios)" \
	>"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
for b in origin/linux-6.6.y refs/remotes/origin/linux-6.6.y \
	 refs/heads/linux-6.6.y; do
	[ "$(verdict "$b" "$uaf")" = rejected ] ||
		fail "--branch $b does not see the rejection"
done
ok "a decision for linux-6.6.y holds for origin/linux-6.6.y"

"$STABLEPICK" mark --branch refs/remotes/origin/linux-6.1.y "$xfs" accepted \
	>"$tmp/actual"
echo "accepted $xfs12 for linux-6.1.y: xfs: fix corruption in the inode cluster" \
	>"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
grep -q "^linux-6.1.y$tab$xfs$tab" "$ledger" || fail "not saved under the key"
[ "$(verdict linux-6.1.y "$xfs")" = accepted ] ||
	fail "linux-6.1.y does not see origin/linux-6.1.y's decision"
"$STABLEPICK" mark --branch linux-6.1.y --list >"$tmp/a"
"$STABLEPICK" mark --branch origin/linux-6.1.y --list >"$tmp/b"
test_cmp "$tmp/a" "$tmp/b"
grep -q "^accepted $xfs12 for linux-6.1.y" "$tmp/a" || fail "--list: $(cat "$tmp/a")"
ok "a decision for origin/linux-6.1.y holds for linux-6.1.y"

# A line saved by an older stablepick under the remote-tracking spelling.
cp "$ledger" "$tmp/saved"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' origin/linux-6.6.y "$xfs" rejected \
	2023-11-14T22:13:20Z - "$who" 'old spelling' >>"$ledger"
cp "$ledger" "$tmp/before"
[ "$(verdict linux-6.6.y "$xfs")" = rejected ] ||
	fail "an origin/ line does not count for linux-6.6.y"
[ "$(verdict origin/linux-6.6.y "$xfs")" = rejected ] ||
	fail "an origin/ line does not count for origin/linux-6.6.y"
cmp -s "$tmp/before" "$ledger" || fail "the ledger was rewritten"
ok "old lines under origin/linux-6.6.y still count, the file unchanged"

# Not a branch: a tag keeps its spelling.
"$STABLEPICK" mark --branch v6.6 "$uaf" deferred >/dev/null
tail -n 1 "$ledger" | grep -q "^v6.6$tab$uaf${tab}deferred" ||
	fail "a tag's decision: $(tail -n 1 "$ledger")"
cp "$tmp/saved" "$ledger"
ok "a tag keeps its spelling"

# --- the latest WHEN wins, whatever the order of the lines ------------------
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' linux-6.6.y "$uaf" accepted \
	2023-11-01T00:00:00Z - "$who" 'older, merged in late' >>"$ledger"
[ "$(verdict linux-6.6.y "$uaf")" = rejected ] ||
	fail "an older decision appended later won"
cp "$tmp/saved" "$ledger"
ok "the decision with the latest time wins"

# --- decisions for other branches are evidence ------------------------------
"$STABLEPICK" propose --branch linux-6.1.y >"$tmp/text"
grep -A3 "  $uaf12  ext4 " "$tmp/text" >"$tmp/actual"
grep -q '^proposed ' "$tmp/actual" || fail "the verdict followed another branch"
grep -q "^ *decided: rejected for linux-6.6.y on 2023-11-14 by Ann Maintainer: needs folios\$" \
	"$tmp/actual" || fail "text: $(cat "$tmp/actual")"
ok "text shows the decision for another branch"

"$STABLEPICK" explain --branch linux-6.1.y "$uaf" >"$tmp/explain"
cat >"$tmp/expect" <<EOF
Other branches (evidence; the verdict is this branch's own):
  rejected for linux-6.6.y on 2023-11-14 by $who: needs folios
EOF
grep -A1 '^Other branches' "$tmp/explain" >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
grep -q '^Verdict:   proposed' "$tmp/explain" || fail "explain: the verdict changed"
ok "explain shows the decision for another branch"

# (In the mail of its patch, with its reasons.)
"$STABLEPICK" propose --branch linux-6.1.y --format mbox >"$tmp/mail"
tr '\n' ' ' <"$tmp/mail" | tr -s ' ' |
	grep -q "decided: rejected for linux-6.6.y on 2023-11-14 by Ann Maintainer: needs folios" ||
	fail "mbox: no decision for another branch"
ok "the email shows the decision for another branch"

"$STABLEPICK" propose --branch linux-6.1.y --format json >"$tmp/json"
jq -c --arg c "$uaf" 'select(.commit == $c) | .other_decisions' "$tmp/json" \
	>"$tmp/actual"
echo '[{"branch":"linux-6.6.y","decision":"rejected","when":"2023-11-14T22:13:20Z","until":null,"who":"Ann Maintainer <ann@example.org>","reason":"needs folios","origin":null}]' \
	>"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(jq -c 'select(.other_decisions == null)' "$tmp/json")" = "" ] ||
	fail "a candidate without other_decisions"
"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/json"
jq -c --arg c "$xfs" 'select(.commit == $c) | .other_decisions[].branch' \
	"$tmp/json" >"$tmp/actual"
echo '"linux-6.1.y"' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
# Decided for the branch itself, or nowhere: no evidence from others.
echo '[]' >"$tmp/expect"
for c in "$uaf" "$(git log --format=%H --grep='^btrfs: fix deadlock' master)"; do
	jq -c --arg c "$c" 'select(.commit == $c) | .other_decisions' \
		"$tmp/json" >"$tmp/actual"
	test_cmp "$tmp/expect" "$tmp/actual"
done
ok "JSON: other_decisions, empty for a commit decided here or nowhere"

# --- ledger sync: file and notes, both ways ---------------------------------
"$STABLEPICK" ledger sync >"$tmp/actual"
notes_commit=$(git rev-parse --short=12 refs/notes/stablepick)
cat >"$tmp/expect" <<EOF
2 decisions added to refs/notes/stablepick in 2 notes (commit $notes_commit)
the ledger and refs/notes/stablepick hold the same 2 decisions
EOF
test_cmp "$tmp/expect" "$tmp/actual"
git notes --ref=stablepick show "$uaf" >"$tmp/actual"
grep "$tab$uaf$tab" "$ledger" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git log --notes=stablepick -1 --format='%N' "$xfs" >"$tmp/actual"
grep -q "^linux-6.1.y$tab$xfs${tab}accepted$tab" "$tmp/actual" ||
	fail "git log --notes=stablepick: $(cat "$tmp/actual")"
[ "$(git rev-list --count refs/notes/stablepick)" = 1 ] ||
	fail "more than one notes commit"
git log -1 --format='%an <%ae> %at%n%s' refs/notes/stablepick >"$tmp/actual"
printf '%s 1700000000\nstablepick ledger sync: 2 decisions in 2 notes\n' \
	"$who" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "sync writes the decisions to refs/notes/stablepick, one note per commit"

cp "$ledger" "$tmp/before"
"$STABLEPICK" ledger sync >"$tmp/actual"
echo 'the ledger and refs/notes/stablepick hold the same 2 decisions' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
cmp -s "$tmp/before" "$ledger" || fail "the second sync changed the ledger"
[ "$(git rev-parse --short=12 refs/notes/stablepick)" = "$notes_commit" ] ||
	fail "the second sync made a notes commit"
ok "a second sync changes nothing"

# A note added by hand (as git notes merge would bring one in).
line=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s' linux-6.1.y "$uaf" deferred \
	2023-11-15T08:00:00Z 2023-12-01 'Bob <bob@example.org>' 'wait for rc3')
{ git notes --ref=stablepick show "$uaf"; printf '%s\n' "$line"; } |
	sort | git notes --ref=stablepick add -f -F - "$uaf" 2>/dev/null
"$STABLEPICK" ledger sync >"$tmp/actual"
cat >"$tmp/expect" <<EOF
1 decision from refs/notes/stablepick added to the ledger
the ledger and refs/notes/stablepick hold the same 3 decisions
EOF
test_cmp "$tmp/expect" "$tmp/actual"
tail -n 1 "$ledger" >"$tmp/actual"
printf '%s\n' "$line" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(verdict linux-6.1.y "$uaf")" = deferred ] || fail "the note's decision does not count"
ok "sync appends what only the notes have to the ledger"

# An old origin/ line is the same decision as its keyed twin in the notes.
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' origin/linux-6.6.y "$uaf" rejected \
	2023-11-14T22:13:20Z - "$who" 'needs folios' >>"$ledger"
cp "$ledger" "$tmp/before"
"$STABLEPICK" ledger sync >"$tmp/actual"
echo 'the ledger and refs/notes/stablepick hold the same 3 decisions' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
cmp -s "$tmp/before" "$ledger" || fail "the ledger changed"
ok "sync compares lines by key"

# --ref and stablepick.ledgerRef name the notes ref.
"$STABLEPICK" ledger sync --ref team >"$tmp/actual"
grep -q '^3 decisions added to refs/notes/team in 2 notes' "$tmp/actual" ||
	fail "--ref team: $(cat "$tmp/actual")"
git config stablepick.ledgerRef notes/other
"$STABLEPICK" ledger sync >"$tmp/actual"
grep -q 'refs/notes/other hold the same 3 decisions' "$tmp/actual" ||
	fail "stablepick.ledgerRef: $(cat "$tmp/actual")"
git config --unset stablepick.ledgerRef
ok "--ref and stablepick.ledgerRef name the notes ref"

# --- bad input --------------------------------------------------------------
cp "$ledger" "$tmp/before"
before_notes=$(git rev-parse refs/notes/stablepick)
# expect_error STATUS EXPECTED-STDERR COMMAND...
expect_error() {
	status=$1 expected=$2
	shift 2
	set +e
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	set -e
	printf '%s\n' "$expected" >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/err"
	[ "$got" -eq "$status" ] || fail "exit $got, expected $status: $*"
	[ ! -s "$tmp/out" ] || fail "unexpected output on stdout: $*"
	cmp -s "$tmp/before" "$ledger" || fail "ledger changed by: $*"
	[ ! -e "$ledger.lock" ] || fail "lock left behind by: $*"
	ok "$(head -n 1 "$tmp/expect")"
}
sp() { "$STABLEPICK" "$@"; }
usage='usage: stablepick ledger sync [--ref REF]'

expect_error 129 "error: ledger needs a subcommand (sync)
$usage" sp ledger
expect_error 129 "error: unknown ledger subcommand 'snyc' (expected sync)
hint: did you mean 'sync'?
$usage" sp ledger snyc
expect_error 129 "error: ledger sync takes no arguments
$usage" sp ledger sync extra
expect_error 1 "error: bad notes ref 'a..b'" sp ledger sync --ref a..b

printf 'linux-6.6.y\t%s\tmaybe\n' "$xfs" |
	git notes --ref=stablepick add -f -F - "$xfs" 2>/dev/null
# Without its last tab (git notes add strips it) a line has no reason:
# the error is the commit it names, not the number of fields.
printf 'linux-6.6.y\t%s\taccepted\t2023-11-14T22:13:20Z\t-\tX <x@y>\n' "$uaf" |
	git notes --ref=stablepick add -f -F - master~1
mm=$(git rev-parse master~1)
broken_notes=$(git rev-parse refs/notes/stablepick)
expect_error 1 "error: refs/notes/stablepick:$mm:1: a decision about $uaf in the note of another commit
error: refs/notes/stablepick:$xfs:1: expected 7 tab-separated fields, found 3" \
	sp ledger sync
[ "$(git rev-parse refs/notes/stablepick)" = "$broken_notes" ] ||
	fail "a bad note moved the notes ref"
git update-ref refs/notes/stablepick "$before_notes"

# --- a team through a bare origin -------------------------------------------
git clone -q --bare "$tmp/repo" "$tmp/origin.git"
git -C "$tmp/origin.git" update-ref -d refs/notes/stablepick
git -C "$tmp/origin.git" update-ref -d refs/notes/team
git -C "$tmp/origin.git" update-ref -d refs/notes/other
for who in alice bob; do
	git clone -q "$tmp/origin.git" "$tmp/$who"
	git -C "$tmp/$who" config user.name "$who"
	git -C "$tmp/$who" config user.email "$who@example.org"
done
btrfs=$(git log --format=%H --grep='^btrfs: fix deadlock' master)
git -C "$tmp/bob" branch -q linux-6.6.y origin/linux-6.6.y
# recipe: what the README and the manual page tell a team to run.
recipe() {
	(
		cd "$tmp/$1"
		if git ls-remote --exit-code origin refs/notes/stablepick >/dev/null; then
			git fetch -q origin refs/notes/stablepick:refs/notes/stablepick-origin &&
			git notes --ref=stablepick merge -q -s cat_sort_uniq stablepick-origin
		fi &&
		"$STABLEPICK" ledger sync >/dev/null &&
		git push -q origin refs/notes/stablepick
	)
}
# Alice and Bob each decide a commit of their own, and both the same
# commit differently, Bob later.
(cd "$tmp/alice" &&
	"$STABLEPICK" mark --branch origin/linux-6.6.y "$uaf" rejected -m 'alice: no' &&
	"$STABLEPICK" mark --branch origin/linux-6.6.y "$btrfs" rejected -m 'alice: later') >/dev/null
(cd "$tmp/bob" && export STABLEPICK_NOW=1700003600 &&
	"$STABLEPICK" mark --branch linux-6.6.y "$xfs" accepted -m 'bob: yes' &&
	"$STABLEPICK" mark --branch linux-6.6.y "$btrfs" accepted -m 'bob: fine') >/dev/null
# Both sync before either fetches: the notes diverge, and merge.
(cd "$tmp/alice" && "$STABLEPICK" ledger sync >/dev/null)
(cd "$tmp/bob" && "$STABLEPICK" ledger sync >/dev/null)
recipe alice
recipe bob
recipe alice
for who in alice bob; do
	l=$(git -C "$tmp/$who" rev-parse --absolute-git-dir)/stablepick/ledger
	grep -v '^#' "$l" | sort >"$tmp/$who.lines"
	[ "$(wc -l <"$tmp/$who.lines")" -eq 4 ] ||
		fail "$who has $(wc -l <"$tmp/$who.lines") decisions, not 4"
	for c in "$uaf" "$xfs"; do
		grep -q "$tab$c$tab" "$tmp/$who.lines" || fail "$who lacks $c"
	done
	grep -q "$tab$btrfs${tab}rejected$tab.*${tab}alice: later\$" "$tmp/$who.lines" ||
		fail "$who lost alice's decision on $btrfs"
	grep -q "$tab$btrfs${tab}accepted$tab.*${tab}bob: fine\$" "$tmp/$who.lines" ||
		fail "$who lost bob's decision on $btrfs"
	[ "$(cd "$tmp/$who" && verdict origin/linux-6.6.y "$btrfs")" = accepted ] ||
		fail "$who: the latest decision on $btrfs does not win"
	git -C "$tmp/$who" notes --ref=stablepick show "$btrfs" >"$tmp/$who.note"
	grep "$tab$btrfs$tab" "$tmp/$who.lines" >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/$who.note"
done
test_cmp "$tmp/alice.lines" "$tmp/bob.lines"
[ "$(git -C "$tmp/origin.git" rev-list --merges --count refs/notes/stablepick)" -ge 1 ] ||
	fail "the notes never diverged: no merge was tested"
[ "$(git -C "$tmp/alice" rev-parse refs/notes/stablepick)" = \
  "$(git -C "$tmp/origin.git" rev-parse refs/notes/stablepick)" ] ||
	fail "alice's notes are not origin's"
ok "two clones and a bare origin: every decision reaches both, none lost"

# Once in step, the recipe changes nothing.
cp "$tmp/bob/.git/stablepick/ledger" "$tmp/bob.before"
recipe bob
recipe bob
cmp -s "$tmp/bob.before" "$tmp/bob/.git/stablepick/ledger" ||
	fail "the recipe in step changed bob's ledger"
[ "$(git -C "$tmp/bob" rev-parse refs/notes/stablepick)" = \
  "$(git -C "$tmp/origin.git" rev-parse refs/notes/stablepick)" ] ||
	fail "bob is not in step with origin"
ok "the recipe again changes nothing"
