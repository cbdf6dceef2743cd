#!/bin/sh
# mark: decisions land in the ledger as exact lines, bad input writes
# nothing, and writers killed at random moments never leave a torn file.
. "$TEST_SRCDIR/tests/lib.sh"

test_repo "$tmp/repo"
cd "$tmp/repo"
git config user.name 'Jöhn Q. Püblic'
git config user.email jqp@example.com
test_commit fs/ext4/inode.c a 'ext4: fix a use-after-free'
test_commit fs/xfs/xfs_log.c b 'xfs: fix log recovery'
test_commit fs/btrfs/ctree.c c 'btrfs: fix a deadlock'
git branch linux-6.6.y HEAD~2
A=$(git rev-parse HEAD~2) B=$(git rev-parse HEAD~1) C=$(git rev-parse HEAD)
a=$(git rev-parse --short=12 HEAD~2) b=$(git rev-parse --short=12 HEAD~1)
c=$(git rev-parse --short=12 HEAD)
ledger=$(git rev-parse --absolute-git-dir)/stablepick/ledger
tab=$(printf '\t')
who='Jöhn Q. Püblic <jqp@example.com>'

# 2023-11-14T22:13:20Z
STABLEPICK_NOW=1700000000
export STABLEPICK_NOW

"$STABLEPICK" mark HEAD~1 HEAD rejected --branch linux-6.6.y \
	-m 'needs folios; see "xfs: foo"  (v6.8)' >"$tmp/actual"
"$STABLEPICK" mark --branch linux-6.6.y HEAD~2 deferred >>"$tmp/actual"
"$STABLEPICK" mark --branch linux-6.6.y --until 2023-12-01 -m 'wait for -rc3' \
	"$c" deferred >>"$tmp/actual"
cat >"$tmp/expect" <<EOF
rejected $b for linux-6.6.y: xfs: fix log recovery (needs folios; see "xfs: foo"  (v6.8))
rejected $c for linux-6.6.y: btrfs: fix a deadlock (needs folios; see "xfs: foo"  (v6.8))
deferred $a for linux-6.6.y until 2023-11-21: ext4: fix a use-after-free
deferred $c for linux-6.6.y until 2023-12-01: btrfs: fix a deadlock (wait for -rc3)
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "mark prints one line per decision"

{
	echo '# stablepick ledger 1'
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		linux-6.6.y "$B" rejected 2023-11-14T22:13:20Z - "$who" \
		'needs folios; see "xfs: foo"  (v6.8)' \
		linux-6.6.y "$C" rejected 2023-11-14T22:13:20Z - "$who" \
		'needs folios; see "xfs: foo"  (v6.8)' \
		linux-6.6.y "$A" deferred 2023-11-14T22:13:20Z 2023-11-21 "$who" '' \
		linux-6.6.y "$C" deferred 2023-11-14T22:13:20Z 2023-12-01 "$who" \
		'wait for -rc3'
} >"$tmp/expect"
test_cmp "$tmp/expect" "$ledger"
[ ! -e "$ledger.lock" ] || fail "lock left behind"
ok "the ledger holds exact tab-separated lines"

"$STABLEPICK" mark --branch linux-6.6.y --list >"$tmp/actual"
cat >"$tmp/expect" <<EOF
rejected $b for linux-6.6.y: xfs: fix log recovery (needs folios; see "xfs: foo"  (v6.8))
deferred $a for linux-6.6.y until 2023-11-21: ext4: fix a use-after-free
deferred $c for linux-6.6.y until 2023-12-01: btrfs: fix a deadlock (wait for -rc3)
EOF
test_cmp "$tmp/expect" "$tmp/actual"
# 2023-11-21T00:00:00Z: the first deferral has run out.
STABLEPICK_NOW=1700524800 "$STABLEPICK" mark --branch linux-6.6.y --list \
	>"$tmp/actual"
sed 1,2d "$tmp/expect" >"$tmp/expect2"
sed -n 1p "$tmp/expect" | cat - "$tmp/expect2" >"$tmp/expect3"
test_cmp "$tmp/expect3" "$tmp/actual"
"$STABLEPICK" mark --branch master --list >"$tmp/actual"
[ ! -s "$tmp/actual" ] || fail "decisions listed for another branch"
ok "--list shows the latest decisions in force"

# --- bad input: one clear message, a non-zero exit, nothing written ---
cp "$ledger" "$tmp/before"

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
	[ -n "${own_lock:-}" ] || [ ! -e "$ledger.lock" ] ||
		fail "lock left behind by: $*"
	ok "$(head -n 1 "$tmp/expect")"
}

usage="usage: stablepick mark --branch BRANCH [-m|--message REASON] [--until DATE|TAG] COMMIT... accepted|rejected|deferred
                       --branch BRANCH --list"
sp() { "$STABLEPICK" "$@"; }

expect_error 129 "error: unknown decision 'maybe' (expected accepted, rejected or deferred)" \
	sp mark HEAD maybe --branch linux-6.6.y
expect_error 129 "error: mark needs --branch
$usage" sp mark HEAD rejected
expect_error 129 "error: mark needs commits and a decision (accepted, rejected or deferred)
$usage" sp mark rejected --branch linux-6.6.y
expect_error 129 "error: --until is only for deferred" \
	sp mark HEAD rejected --branch linux-6.6.y --until 2023-12-01
expect_error 129 "error: the reason must be one line without tabs" \
	sp mark HEAD rejected --branch linux-6.6.y -m 'two
lines'
expect_error 129 "error: the reason must be one line without tabs" \
	sp mark HEAD rejected --branch linux-6.6.y -m "a${tab}tab"
expect_error 1 "error: bad date '2023-11-31' for --until (expected YYYY-MM-DD or a tag)" \
	sp mark HEAD deferred --branch linux-6.6.y --until 2023-11-31
expect_error 1 "error: --until 2023-11-14 is not after today" \
	sp mark HEAD deferred --branch linux-6.6.y --until 2023-11-14
expect_error 1 "error: unknown revision 'nosuch' for mark" \
	sp mark HEAD nosuch accepted --branch linux-6.6.y
expect_error 1 "error: unknown branch 'linux-9.9.y'
hint: did you mean 'linux-6.6.y'?" \
	sp mark HEAD accepted --branch linux-9.9.y
expect_error 1 "error: bad STABLEPICK_NOW 'soon' (expected a Unix time)" \
	env STABLEPICK_NOW=soon "$STABLEPICK" mark HEAD accepted --branch linux-6.6.y

: >"$ledger.lock"
own_lock=1
expect_error 1 "error: ledger '$ledger' is locked by another run (remove '$ledger.lock' if no stablepick is running)" \
	env STABLEPICK_LOCK_TIMEOUT=0.1 "$STABLEPICK" mark HEAD accepted --branch linux-6.6.y
[ -e "$ledger.lock" ] || fail "another run's lock removed"
rm "$ledger.lock"
own_lock=

printf 'linux-6.6.y %s accepted\n' "$A" >>"$ledger"
cp "$ledger" "$tmp/before"
expect_error 1 "error: $ledger:6: expected 7 tab-separated fields, found 1" \
	sp mark HEAD accepted --branch linux-6.6.y
expect_error 1 "error: $ledger:6: expected 7 tab-separated fields, found 1" \
	sp mark --branch linux-6.6.y --list
sed '$d' "$ledger" >"$tmp/fixed"
cp "$tmp/fixed" "$ledger"

# --- stablepick.ledger puts the ledger elsewhere (made if missing) ---
git config stablepick.ledger "$tmp/team/ledger"
"$STABLEPICK" mark HEAD accepted --branch linux-6.6.y >/dev/null
{
	echo '# stablepick ledger 1'
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		linux-6.6.y "$C" accepted 2023-11-14T22:13:20Z - "$who" ''
} >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/team/ledger"
git config --unset stablepick.ledger
ok "stablepick.ledger names the file"

# --- kill -9 at random moments: whole lines only, and it still loads ---
line_re="^[^$tab]+$tab[0-9a-f]{40}$tab(accepted|rejected|deferred)$tab"
line_re="$line_re[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$tab"
line_re="$line_re(-|[0-9]{4}-[0-9]{2}-[0-9]{2})$tab[^$tab]+$tab[^$tab]*\$"
STABLEPICK_LOCK_TIMEOUT=0.3
export STABLEPICK_LOCK_TIMEOUT
before=$(wc -l <"$ledger")
stale=0
i=0
while [ $i -lt 30 ]; do
	pids=
	for w in 1 2 3; do
		"$STABLEPICK" mark HEAD HEAD~1 rejected --branch linux-6.6.y \
			-m "writer $i.$w" >/dev/null 2>&1 &
		pids="$pids $!"
	done
	# 10 to 300 ms: before, during and after the write.
	sleep "0.$(printf '%02d' $(( (i * 37) % 30 + 1 )))"
	for pid in $pids; do
		kill -9 "$pid" 2>/dev/null || true
	done
	for pid in $pids; do
		wait "$pid" 2>/dev/null || true
	done
	if [ -e "$ledger.lock" ]; then
		stale=$((stale + 1))
		rm -f "$ledger.lock"
	fi
	[ "$(sed -n 1p "$ledger")" = '# stablepick ledger 1' ] ||
		fail "header lost after kill $i"
	if sed 1d "$ledger" | grep -Evq "$line_re"; then
		sed 1d "$ledger" | grep -Ev "$line_re" >&2
		fail "torn line after kill $i"
	fi
	"$STABLEPICK" mark --branch linux-6.6.y --list >/dev/null ||
		fail "ledger does not load after kill $i"
	i=$((i + 1))
done
after=$(wc -l <"$ledger")
[ "$after" -gt "$before" ] || fail "no writer ever got through"
ok "30 rounds of kill -9: $((after - before)) lines appended, $stale stale locks, no torn line"
