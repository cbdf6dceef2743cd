#!/bin/sh
# The memo: a run whose inputs are those of an earlier one prints what
# that one printed (its answer, and the warnings that came with it)
# without judging anything; a change to any input (a ref, the rules,
# the configuration, the ledger, the day a deferral ends, the time a
# mail is dated) is a new answer, the same as a run without the cache.
# A damaged memo is not trusted; the oldest answers go.
. "$TEST_SRCDIR/tests/lib.sh"

STABLEPICK_NOW=1700600000	# 2023-11-21 21:33:20 UTC
export STABLEPICK_NOW
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit fs/ext4/inode.c 'int ext4;' 'Initial commit'
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
test_fix fs/ext4/a.c 'int a;' 'ext4: fix a leak in a' \
	'Cc: stable@vger.kernel.org'
test_fix fs/btrfs/c.c 'int c;' 'btrfs: fix a crash in c' \
	'Cc: stable@vger.kernel.org'
memo=.git/stablepick/memo

sp() {
	STABLEPICK_TRACE=1 "$STABLEPICK" "$@" 2>"$tmp/err"
}
# kept: the last run printed a kept answer; judged: it judged.
kept() {
	grep -q '^trace: memo: .* holds the answer of these inputs$' "$tmp/err" ||
		fail "$1: not the kept answer: $(cat "$tmp/err")"
	! grep -q '^trace: scan' "$tmp/err" || fail "$1: the kept answer scanned"
}
judged() {
	grep -q '^trace: memo: no answer for these inputs yet$' "$tmp/err" ||
		fail "$1: a kept answer where the inputs changed"
	grep -q '^trace: scan' "$tmp/err" || fail "$1: no scan"
}
# same WHAT FORMAT: propose prints what a run without the cache prints,
# on stdout and (but the trace) on stderr.
same() {
	"$STABLEPICK" --no-cache propose --branch linux-6.6.y --format "$2" \
		>"$tmp/expect" 2>"$tmp/expect.err"
	sp propose --branch linux-6.6.y --format "$2" >"$tmp/actual"
	test_cmp "$tmp/expect" "$tmp/actual"
	grep -v '^trace: ' "$tmp/err" >"$tmp/actual.err" || :
	test_cmp "$tmp/expect.err" "$tmp/actual.err"
}

# Cold, then warm: the second run is the first one's answer.
same cold json
judged cold
[ "$(ls $memo | wc -l)" -eq 1 ] || fail "no answer kept: $(ls -a $memo)"
same warm json
kept warm
ok "a warm run prints the kept answer"

# What a run says on stderr comes with its answer.
same "nothing failed" failed
judged "nothing failed"
grep -q "^nothing failed to apply to linux-6.6.y: no mail written$" \
	"$tmp/expect.err" || fail "the fixture says nothing: $(cat "$tmp/expect.err")"
same "nothing failed, again" failed
kept "nothing failed, again"
ok "what the run said on stderr is said again"

# Another format, another answer; both kept.
same "text" text
judged "text"
same "text again" text
kept "text again"
[ "$(ls $memo | wc -l)" -eq 3 ] || fail "three answers: $(ls $memo)"
ok "each command line has its answer"

# Every input, changed in turn, is a new answer.
test_fix fs/ext4/b.c 'int b;' 'ext4: fix a race in b' \
	'Cc: stable@vger.kernel.org'
same "a new mainline commit" json
judged "a new mainline commit"
grep -q 'fix a race in b' "$tmp/actual" || fail "the new commit is missing"

git tag v6.7-rc1
same "a new tag" json
judged "a new tag"

test_tick
git branch -f linux-6.6.y "$(git commit-tree -p 'v6.6^{commit}' -m 'a backport' 'v6.6^{tree}')"
same "the branch moved" json
judged "the branch moved"
git branch -f linux-6.6.y v6.6
same "the branch moved back" json
kept "the branch moved back"

mkdir "$tmp/rules"
printf 'rule minus20 -20 subject /race/\n' >"$tmp/rules/local.rules"
git config stablepick.rules "$tmp/rules"
same "a rules directory set" json
judged "a rules directory set"
printf 'rule minus30 -30 subject /race/\n' >"$tmp/rules/local.rules"
same "a rule file changed" json
judged "a rule file changed"
grep -q minus30 "$tmp/actual" || fail "the new rule did not apply"

git config stablepick.linux-6.6.y.version 6.6
same "a setting" json
judged "a setting"
printf '[stablepick]\n\tcc = list@example.com\n' >"$tmp/extra.config"
"$STABLEPICK" --no-cache --config "$tmp/extra.config" propose \
	--branch linux-6.6.y --format json >"$tmp/expect"
sp --config "$tmp/extra.config" propose --branch linux-6.6.y \
	--format json >"$tmp/actual"
judged "a --config file"
test_cmp "$tmp/expect" "$tmp/actual"

a=$(git rev-parse HEAD~1)
"$STABLEPICK" mark --branch linux-6.6.y --until 2023-11-25 "$a" deferred \
	>/dev/null
same "a decision" json
judged "a decision"
grep -q '"verdict": *"deferred"' "$tmp/actual" ||
	fail "the deferral is not in force: $(cat "$tmp/actual")"
same "the same day" json
kept "the same day"
STABLEPICK_NOW=1700956800	# 2023-11-26 00:00:00 UTC: the deferral ended
same "the day the deferral ended" json
judged "the day the deferral ended"
! grep -q '"verdict": *"deferred"' "$tmp/actual" ||
	fail "the deferral is still in force"
ok "a ref, a tag, the rules, a setting, a decision and the day are inputs"

# A mail carries its time: the same second is the same mail, another
# second another one.
same "email" email
judged "email"
same "email, the same second" email
kept "email, the same second"
STABLEPICK_NOW=1700956801
same "email, a second later" email
judged "email, a second later"
ok "a mail is kept for the second it is dated"

# What the key does not hold is never taken from the memo.
n=$(ls $memo | wc -l)
sp propose --branch linux-6.6.y --since last >/dev/null
sp propose --branch linux-6.6.y --since last >/dev/null
! grep -q '^trace: memo' "$tmp/err" || fail "--since asked the memo"
grep -q '^trace: scan' "$tmp/err" || fail "--since did not scan"
[ "$(ls $memo | wc -l)" -eq "$n" ] || fail "--since kept an answer"
sp --no-cache propose --branch linux-6.6.y >/dev/null
! grep -q '^trace: memo' "$tmp/err" || fail "--no-cache asked the memo"
ok "--since and --no-cache neither keep nor take an answer"

# A damaged answer is not trusted.
same "before the damage" json
kept "before the damage"
for f in $memo/*; do
	printf 'X' | dd of="$f" bs=1 seek=30 conv=notrunc 2>/dev/null
done
"$STABLEPICK" --no-cache propose --branch linux-6.6.y --format json \
	>"$tmp/expect" 2>/dev/null
sp propose --branch linux-6.6.y --format json >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
grep -q "^warning: ignoring memo '.*': .*; it will be rebuilt$" "$tmp/err" ||
	fail "no warning for a damaged memo: $(cat "$tmp/err")"
same "after the damage" json
kept "after the damage"
ok "a damaged memo is ignored with a warning, and rebuilt"

# The oldest answers go: at most 16 are kept.
for i in $(seq 1 20); do
	f=$memo/$(printf '%040d' "$i")
	printf 'old\n' >"$f"
	touch -d "@$((1600000000 + i))" "$f"
done
same "twenty old answers" text
[ "$(ls $memo | wc -l)" -eq 16 ] || fail "kept $(ls $memo | wc -l) answers"
[ ! -e "$memo/$(printf '%040d' 1)" ] || fail "the oldest answer was kept"
[ -e "$memo/$(printf '%040d' 20)" ] || fail "a newer one was dropped"
ok "the 16 answers used last are kept"

# The answer of a run that failed is not kept.
n=$(ls $memo | wc -l)
! sp propose --branch no-such-branch >/dev/null || fail "no error"
[ "$(ls $memo | wc -l)" -eq "$n" ] || fail "a failed run kept an answer"
ok "a failed run keeps nothing"

# diff has its memo too.
git branch -f vendor linux-6.6.y
"$STABLEPICK" --no-cache diff --branch vendor --against linux-6.6.y \
	>"$tmp/expect"
sp diff --branch vendor --against linux-6.6.y >"$tmp/actual"
judged "diff, cold"
test_cmp "$tmp/expect" "$tmp/actual"
sp diff --branch vendor --against linux-6.6.y >"$tmp/actual"
grep -q '^trace: memo: .* holds the answer' "$tmp/err" || fail "diff, warm"
test_cmp "$tmp/expect" "$tmp/actual"
ok "diff keeps its answer"
