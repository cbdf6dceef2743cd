#!/bin/sh
# patch-id when memory runs out: under a sweep of address space limits
# (ulimit -v), from one where the program barely starts to one where
# it succeeds, with four threads, every run either prints what an
# unlimited run prints (exit 0) or says that memory ran out (exit 1).
# Never a signal (libgit2 1.5 follows allocations it did not check),
# never another message ("object not found" was one), never exit 0
# with other output.  Each limit is run several times: the failures
# depend on which thread asks for memory first.
. "$TEST_SRCDIR/tests/lib.sh"

# AddressSanitizer reserves terabytes of address space at start, so a
# sanitizer build cannot run under ulimit -v.
if grep -q __asan_init "$STABLEPICK" 2>/dev/null; then
	skip "a sanitizer build: ulimit -v cannot limit it"
fi
if ! ( ulimit -v 1000000 && exec "$STABLEPICK" --version ) >/dev/null 2>&1; then
	skip "stablepick --version does not run under ulimit -v 1000000"
fi

# 3,000 commits, each changing 3 of 300 files of 40 lines (the first
# adds them all), made by fast-import: one pack, as a clone has.
test_repo "$tmp/repo"
cd "$tmp/repo"
awk -v n=3000 -v files=300 -v lines=40 'BEGIN {
	for (c = 1; c <= n; c++) {
		t = 1700000000 + 60 * c
		msg = "change " c
		printf "commit refs/heads/master\n"
		printf "author A U Thor <author@example.com> %d +0000\n", t
		printf "committer C O Mitter <committer@example.com> %d +0000\n", t
		printf "data %d\n%s\n", length(msg), msg
		nf = c == 1 ? files : 3
		for (k = 0; k < nf; k++) {
			f = c == 1 ? k : (c * 7 + k * 101) % files
			v[f, c % lines] = c
			body = ""
			for (l = 0; l < lines; l++)
				body = body "int f" f "_" l " = " v[f, l] + 0 ";\n"
			printf "M 100644 inline dir%02d/file%03d.c\n", f % 30, f
			printf "data %d\n%s", length(body), body
		}
	}
}' | git fast-import --quiet
git log -p --no-merges master | git patch-id --stable >"$tmp/expect"
[ "$(wc -l <"$tmp/expect")" = 3000 ] || fail "git printed no 3,000 patch-ids"
"$STABLEPICK" patch-id --jobs 4 master >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
ok "patch-id with no limit prints what git does"

# run KB: one patch-id run limited to KB KiB of address space; its
# exit status in $status, its output in $tmp/out and $tmp/err.
run() {
	status=0
	( ulimit -v "$1" && exec "$STABLEPICK" patch-id --jobs 4 master ) \
		>"$tmp/out" 2>"$tmp/err" || status=$?
}

# The lines a run that ran out of memory may print: what failed with
# "out of memory" (libgit2's words for it too), the commit it was
# for, or a thread that could not start.
memory_lines='^fatal: out of memory$
^error: .*: out of memory$
^error: cannot compute the patch-id of [0-9a-f]\{40\}$
^warning: cannot start a thread (out of memory, or too many threads): .*; going on with [0-9]*$'

# check KB: judges the run just made; exit status 0 or 1, as above.
nr_ok=0
nr_oom=0
check() {
	if grep -v -e "$memory_lines" "$tmp/err" >"$tmp/other"; then
		cat "$tmp/err"
		fail "ulimit -v $1: exit $status with another message"
	fi
	case $status in
	0)
		test_cmp "$tmp/expect" "$tmp/out"
		nr_ok=$((nr_ok + 1))
		;;
	1)
		grep -q 'out of memory' "$tmp/err" ||
			fail "ulimit -v $1: exit 1 and no word of memory"
		nr_oom=$((nr_oom + 1))
		;;
	*)
		cat "$tmp/err"
		fail "ulimit -v $1: exit $status (above 128: killed by a signal)"
		;;
	esac
}

# The range: from the smallest limit (doubling from 4 MiB) under which
# the program starts at all, to twice the first double of it under
# which patch-id succeeds, so that the sweep ends where runs succeed; a
# machine's libraries decide both.
low=4096
while ! ( ulimit -v "$low" && exec "$STABLEPICK" --version ) >/dev/null 2>&1; do
	low=$((low * 2))
	[ "$low" -le 4194304 ] || fail "stablepick --version never runs"
done
high=$low
while run "$high" && [ "$status" != 0 ]; do
	check "$high"
	high=$((high * 2))
	[ "$high" -le 4194304 ] || fail "patch-id fails even under 4 GiB"
done
check "$high"
high=$((high * 2))

steps=20
runs=3
i=0
while [ "$i" -lt "$steps" ]; do
	kb=$((low + (high - low) * i / (steps - 1)))
	r=0
	while [ "$r" -lt "$runs" ]; do
		run "$kb"
		check "$kb"
		r=$((r + 1))
	done
	i=$((i + 1))
done
[ "$nr_oom" -gt 0 ] || fail "no limit was too small: the sweep tested nothing"
[ "$nr_ok" -gt 0 ] || fail "no run succeeded"
ok "ulimit -v $low to $high KiB, $steps limits, $runs runs each:" \
	"$nr_ok right answers, $nr_oom said out of memory"
