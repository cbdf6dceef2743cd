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
# A decision for another branch, shown as evidence; the ledger as notes.
uaf=$(git log --format=%H --grep='^ext4: fix use-after-free' master)
vg mark-other mark --branch refs/heads/vendor "$uaf" rejected -m "other"
vg propose-others propose --branch linux-6.6.y --format email
vg explain-others explain --branch linux-6.6.y "$uaf"
grep -q 'rejected for vendor on 2023-11-14' "$tmp/out.explain-others" ||
	fail "explain shows no decision for another branch"
vg ledger-sync ledger sync
# A note that replaces the file's: both ways at once.
printf 'linux-6.6.y\t%s\taccepted\t2023-11-15T00:00:00Z\t-\tV <v@x>\tnote\n' \
	"$uaf" | git notes --ref=stablepick add -f -F - "$uaf" 2>/dev/null
vg ledger-sync-both ledger sync
grep -q '^1 decision from refs/notes/stablepick added' "$tmp/out.ledger-sync-both" &&
	grep -q '^1 decision added to refs/notes/stablepick' "$tmp/out.ledger-sync-both" ||
	fail "ledger sync did not go both ways: $(cat "$tmp/out.ledger-sync-both")"
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
# The series as pick mails, with a NAK among them: the replies to it.
first=$(ls "$tmp"/split/* | sed -n 2p)
{
	cat "$tmp/list.mbox"
	printf '\nFrom nak Mon Sep 17 00:00:00 2001\nFrom: R <r@example.org>\n'
	printf 'Cc: "Wong, D" <d@example.org>, =?UTF-8?Q?Ren=C3=A9?= <x@example.org>\n'
	sed -n 's/^Subject: /Subject: Re: /p; s/^Message-I[Dd]: /In-Reply-To: /p' "$first"
	printf 'Message-ID: <nak@example.org>\n\nNAK\n'
} >"$tmp/picks.mbox"
vg audit-replies audit --branch linux-6.6.y --mbox "$tmp/picks.mbox" --format email
grep -q 'rejected-by-review' "$tmp/out.audit-replies" || fail "the NAK was not read"
grep -q '"found_by"' "$tmp/out.archive-cached" ||
	fail "the archives found no posted patch"
ok "memcheck: no error and no leak in 21 runs"
