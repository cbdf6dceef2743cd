#!/bin/sh
# valgrind memcheck over one run of every command on the fixture
# history: no invalid read or write, no use of uninitialised memory, and
# no leak (definite or indirect).  Skipped where valgrind is missing and
# for a sanitizer build (the two do not mix).
. "$TEST_SRCDIR/tests/lib.sh"
. "$TEST_SRCDIR/tests/e2e/fixture.sh"
. "$TEST_SRCDIR/tests/e2e/archive-lib.sh"

command -v valgrind >/dev/null || skip "valgrind is not installed"
if grep -q __asan_init "$STABLEPICK" 2>/dev/null; then
	skip "a sanitizer build: valgrind cannot run it"
fi

make_fixture "$tmp/repo"
cd "$tmp/repo"
git branch vendor linux-6.6.y
mkdir -p "$tmp/fst/tests/generic" "$tmp/fst/common"
printf '_fixed_by_kernel_commit %s "x"\n' "$(git rev-parse --short=12 master)" \
	>"$tmp/fst/tests/generic/001"
STABLEPICK_NOW=1700000000
export STABLEPICK_NOW

vg() {	# vg NAME ARGS...: one run under memcheck
	local name=$1 status=0
	shift
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect \
		--suppressions="$TEST_SRCDIR/tests/valgrind.supp" \
		--log-file="$tmp/vg.$name" "$STABLEPICK" "$@" \
		>"$tmp/out.$name" 2>&1 || status=$?
	if [ -s "$tmp/vg.$name" ] || [ "$status" = 99 ]; then
		cat "$tmp/vg.$name" >&2
		fail "memcheck: errors in '$name'"
	fi
	# audit exits 2 when a pick is to be dropped; 1 would be an error.
	case $status in
	0|2) ;;
	*) cat "$tmp/out.$name" >&2; fail "'$name' exited $status" ;;
	esac
}
vg propose propose --branch linux-6.6.y --format mbox
vg propose-cached propose --branch linux-6.6.y --format json
vg explain explain --branch linux-6.6.y master~1
git rev-list --no-merges v6.6..master >"$tmp/picks"
vg audit audit --branch linux-6.6.y --picks "$tmp/picks"
vg diff diff --branch vendor --against linux-6.6.y --format html
vg tests tests --branch linux-6.6.y --fstests "$tmp/fst"
vg eval eval --branch linux-6.6.y --misses --ablation
vg mark mark --branch linux-6.6.y master~1 rejected -m "valgrind"
# The state of --since last: written, then read with what it remembers.
vg since propose --branch linux-6.6.y --since last --format email
vg since-again propose --branch linux-6.6.y --since last
[ "$(awk -F '\t' 'NF == 4' .git/stablepick/state)" ] ||
	fail "the state remembers nothing"
vg patch-id patch-id --jobs 2 v6.6..master
vg rules-list rules list

# The list archives: the fixture's commits posted as one threaded series
# with a cover letter, as an mbox and as a public-inbox v2 inbox.
git format-patch -q --stdout --thread --cover-letter v6.6..master >"$tmp/list.mbox"
mkdir "$tmp/split"
git mailsplit -o"$tmp/split" "$tmp/list.mbox" >/dev/null
for m in "$tmp"/split/*; do
	pi_v2_add "$tmp/inbox" 0 "$m"
done
vg archive-propose propose --branch linux-6.6.y --archive "$tmp/list.mbox" \
	--archive "$tmp/inbox" --format email
vg archive-cached propose --branch linux-6.6.y --archive "$tmp/list.mbox" \
	--archive "$tmp/inbox" --format json
vg archive-audit audit --branch linux-6.6.y --picks "$tmp/picks" \
	--archive "$tmp/inbox"
grep -q '"found_by"' "$tmp/out.archive-cached" ||
	fail "the archives found no posted patch"
ok "memcheck: no error and no leak in 15 runs"
