#!/bin/sh
# Runs the message parser over the real commit messages of the reference
# corpus (kept outside the project): every Fixes: line and every Cc:
# line that mentions stable must be parsed or get a diagnostic.  Skips
# when the corpus is not there, as in a tarball build.
set -e

: "${TEST_BUILDDIR:?}" "${TEST_SRCDIR:?}"
corpus=${STABLEPICK_CORPUS:-$TEST_SRCDIR/../shared/corpus/kernel-messages.jsonl}

if [ ! -r "$corpus" ]; then
	echo "skip: no message corpus at '$corpus' (set STABLEPICK_CORPUS)"
	exit 77
fi

out=${TMPDIR:-/tmp}/corpus-check.$$
trap 'rm -f "$out"' EXIT

status=0
"$TEST_BUILDDIR/tests/corpus_check" "$corpus" >"$out" || status=$?
cat "$out"

summary=$(grep '^messages [0-9]*, trailers ' "$out" || true)
if [ -z "$summary" ]; then
	echo "FAIL: corpus_check printed no summary" >&2
	exit 1
fi
if [ "$status" -ne 0 ]; then
	echo "FAIL: corpus_check exited $status" >&2
	exit 1
fi
echo "ok: $summary"
