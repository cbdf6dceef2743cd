#!/bin/sh
# Nothing the user keeps is lost: the caches, the state of --since last
# and the --output of tests survive kill -9 at random moments, runs at
# the same time, and a full disk (the file size limit), with the old
# file intact and the error reported.  (The ledger's own rounds of
# kill -9 and its lock are in mark.sh.)
. "$TEST_SRCDIR/tests/lib.sh"
. "$TEST_SRCDIR/tests/e2e/fixture.sh"

make_fixture "$tmp/repo"
cd "$tmp/repo"
git branch linux-6.1.y v6.6
# A backport that names nothing, so that patch-ids are computed and kept.
git checkout -q linux-6.6.y
test_commit fs/btrfs/inode.c 'int btrfs2;' 'VENDOR: btrfs deadlock fix'
git checkout -q master
gitdir=$(git rev-parse --absolute-git-dir)
state=$gitdir/stablepick/state
cache=$tmp/cache
STABLEPICK_NOW=1700000000
STABLEPICK_LOCK_TIMEOUT=10
export STABLEPICK_NOW STABLEPICK_LOCK_TIMEOUT

"$STABLEPICK" --no-cache propose --branch linux-6.6.y --format json >"$tmp/expect"
"$STABLEPICK" --no-cache propose --branch linux-6.6.y >"$tmp/expect.text"

# A run of the caches: its output must be the uncached one, with no
# word about a damaged cache; so must the answer kept for the text
# format, if the killed run kept one.
check_cached() {	# check_cached WHAT
	"$STABLEPICK" --cache "$cache" propose --branch linux-6.6.y --format json \
		>"$tmp/actual" 2>"$tmp/err" || fail "$1: the run after failed"
	test_cmp "$tmp/expect" "$tmp/actual"
	test_cmp /dev/null "$tmp/err"
	"$STABLEPICK" --cache "$cache" propose --branch linux-6.6.y \
		>"$tmp/actual" 2>"$tmp/err" || fail "$1: the text run failed"
	test_cmp "$tmp/expect.text" "$tmp/actual"
	test_cmp /dev/null "$tmp/err"
}

# --- kill -9 at random moments while the caches are written ---
i=0
while [ $i -lt 20 ]; do
	rm -rf "$cache"
	"$STABLEPICK" --cache "$cache" propose --branch linux-6.6.y \
		>/dev/null 2>&1 &
	pid=$!
	sleep "0.$(printf '%03d' $(( (i * 53) % 120 + 5 )))"
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	# A cache is whole or absent; what the killed run left is garbage
	# at most: a temporary file of its own name.
	for f in "$cache"/*; do
		[ -e "$f" ] || continue
		case ${f##*/} in
		scan-cache|patchid-cache|trial-cache) ;;
		scan-cache.tmp.*|patchid-cache.tmp.*|trial-cache.tmp.*) rm -f "$f" ;;
		memo) ;;
		*) fail "unexpected file $f after kill $i" ;;
		esac
	done
	for f in "$cache"/memo/*; do
		[ -e "$f" ] || continue
		case ${f##*/} in
		*.tmp.*) rm -f "$f" ;;
		*[!0-9a-f]*) fail "unexpected file $f after kill $i" ;;
		esac
	done
	check_cached "kill $i"
	i=$((i + 1))
done
ok "20 rounds of kill -9 while the caches are written: none damaged"

# --- runs at the same time: each cache file whole, the last one's ---
rm -rf "$cache"
pids=
for w in 1 2 3 4; do
	"$STABLEPICK" --cache "$cache" propose --branch linux-6.6.y --format json \
		>"$tmp/out.$w" 2>"$tmp/err.$w" &
	pids="$pids $!"
done
for pid in $pids; do
	wait "$pid" || fail "a concurrent run failed"
done
for w in 1 2 3 4; do
	test_cmp "$tmp/expect" "$tmp/out.$w"
	test_cmp /dev/null "$tmp/err.$w"
done
ls "$cache" >"$tmp/actual"
printf '%s\n' memo patchid-cache scan-cache trial-cache | test_cmp - "$tmp/actual"
[ "$(ls "$cache/memo" | grep -c '^[0-9a-f]*$')" -eq 1 ] &&
	! ls "$cache/memo" | grep -q '\.tmp\.' || fail "memo: $(ls "$cache/memo")"
check_cached "concurrent runs"
ok "4 runs writing the caches at once"

# --- the state of --since last: two branches at once lose neither ---
i=0
while [ $i -lt 8 ]; do
	rm -f "$state"
	"$STABLEPICK" --no-cache propose --branch linux-6.6.y --since last >/dev/null &
	p1=$!
	"$STABLEPICK" --no-cache propose --branch linux-6.1.y --since last >/dev/null &
	p2=$!
	wait "$p1" || fail "round $i: the 6.6.y run failed"
	wait "$p2" || fail "round $i: the 6.1.y run failed"
	cut -f1 "$state" | sed 1d | sort -u >"$tmp/actual"
	printf '%s\n' linux-6.1.y linux-6.6.y | test_cmp - "$tmp/actual"
	i=$((i + 1))
done
ok "8 rounds of two branches' --since last at once: both states kept"

# --- kill -9 while the state is written: whole, or the old one ---
cp "$state" "$tmp/state.before"
i=0
while [ $i -lt 15 ]; do
	"$STABLEPICK" --no-cache propose --branch linux-6.6.y --since last \
		>/dev/null 2>&1 &
	pid=$!
	sleep "0.$(printf '%03d' $(( (i * 37) % 100 + 5 )))"
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	rm -f "$state.lock"	# as the message of the next run would say
	test_cmp "$tmp/state.before" "$state"
	i=$((i + 1))
done
"$STABLEPICK" --no-cache propose --branch linux-6.6.y --since last \
	>/dev/null || fail "the state does not load after the kills"
ok "15 rounds of kill -9 while the state is written: never torn"

# --- a full disk: the write fails, is reported, and the old file stays ---
# full OUT ERR CMD...: CMD with a file size limit of 0 (ulimit -f), its
# standard output and error through pipes (the limit is the writer's),
# its exit status in $status.
full() {
	local out=$1 err=$2
	shift 2
	rm -f "$tmp/fifo" && mkfifo "$tmp/fifo"
	cat "$tmp/fifo" >"$err" &
	{
		st=0
		( ulimit -f 0 && exec "$@" ) 2>"$tmp/fifo" || st=$?
		echo $st >"$tmp/status"
	} | cat >"$out"
	wait
	status=$(cat "$tmp/status")
}
cp "$cache/scan-cache" "$tmp/scan-cache.before"
rm -f "$cache/patchid-cache"
rm -r "$cache/memo"	# else the kept answer is printed, and nothing written
full "$tmp/actual" "$tmp/err" \
	"$STABLEPICK" --cache "$cache" propose --branch linux-6.6.y --format json
[ "$status" = 0 ] || fail "a cache that cannot be written failed the run"
test_cmp "$tmp/expect" "$tmp/actual"
grep -q "^warning: cannot write patch-id cache '$cache/patchid-cache.tmp.[A-Za-z0-9]*': File too large$" \
	"$tmp/err" || fail "no warning for the cache: $(cat "$tmp/err")"
# The run goes on and exits 0: a warning, no error.
if grep -q "^error:" "$tmp/err"; then
	fail "an error for a cache, yet exit 0: $(cat "$tmp/err")"
fi
[ ! -e "$cache/patchid-cache" ] || fail "a patch-id cache was written"
cmp -s "$tmp/scan-cache.before" "$cache/scan-cache" || fail "the scan cache changed"
ls "$cache" | grep -q '\.tmp\.' && fail "a temporary file was left"
ok "full disk: the caches"

cp "$state" "$tmp/state.before"
git update-ref refs/heads/master master~1
full /dev/null "$tmp/err" \
	"$STABLEPICK" --no-cache propose --branch linux-6.6.y --since last
[ "$status" = 1 ] || fail "a state that cannot be written exits $status"
grep -q "^error: cannot write '$state.lock': File too large$" "$tmp/err" ||
	fail "no error for the state: $(cat "$tmp/err")"
test_cmp "$tmp/state.before" "$state"
[ ! -e "$state.lock" ] || fail "the lock was left"
ok "full disk: the state of --since last"

mkdir -p "$tmp/fst/tests/generic" "$tmp/fst/common"
printf '_fixed_by_kernel_commit %s "x"\n' "$(git rev-parse --short=12 master)" \
	>"$tmp/fst/tests/generic/001"
"$STABLEPICK" --no-cache tests --branch linux-6.6.y --fstests "$tmp/fst" \
	--output "$tmp/list"
cp "$tmp/list" "$tmp/list.before"
printf '_fixed_by_kernel_commit %s "y"\n' "$(git rev-parse --short=12 master~2)" \
	>"$tmp/fst/tests/generic/002"
full /dev/null "$tmp/err" "$STABLEPICK" --no-cache tests --branch linux-6.6.y \
	--fstests "$tmp/fst" --output "$tmp/list"
[ "$status" = 1 ] || fail "a test list that cannot be written exits $status"
grep -q "^error: cannot write test list '$tmp/list.tmp.[A-Za-z0-9]*': File too large$" \
	"$tmp/err" || fail "no error for --output: $(cat "$tmp/err")"
test_cmp "$tmp/list.before" "$tmp/list"
ok "full disk: tests --output"
