#!/bin/sh
# The fuzz targets of tests/fuzz/, replayed without libFuzzer: each
# target runs once on every input of its committed corpus
# (tests/fuzz/corpus/TARGET) and on every input a fuzzer found a crash,
# hang or leak with (tests/fuzz/regressions/TARGET), so that a fixed
# bug stays fixed, in the plain build and under the sanitizers.
#
# Needs TEST_BUILDDIR (the replay programs) and TEST_SRCDIR (the inputs).

set -u

: "${TEST_BUILDDIR:?TEST_BUILDDIR is not set}"
: "${TEST_SRCDIR:?TEST_SRCDIR is not set}"

fuzz=$TEST_SRCDIR/tests/fuzz
failed=0
for t in message rules mbox fstests ltp json results caches cve archive; do
	replay=$TEST_BUILDDIR/tests/fuzz/replay-$t
	if [ ! -x "$replay" ]; then
		echo "FAIL: $t: no replay program $replay"
		failed=1
		continue
	fi
	# An input running longer than 5 s is a hang.
	if out=$(REPLAY_TIMEOUT=5 "$replay" "$fuzz/corpus/$t" \
			"$fuzz/regressions/$t" 2>&1); then
		echo "ok: $t: $out"
	else
		echo "$out"
		echo "FAIL: $t: replay failed"
		failed=1
	fi
done
exit $failed
