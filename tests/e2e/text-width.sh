#!/bin/sh
# The text fits the terminal as git's output does: $COLUMNS, else the
# terminal's width, else 100 columns into a file or a pipe.  Long
# subjects and notes go on under themselves; nothing else changes.
. "$TEST_SRCDIR/tests/lib.sh"
. "$TEST_SRCDIR/tests/e2e/fixture.sh"

make_fixture "$tmp/repo"
cd "$tmp/repo"
test_commit fs/ext4/namei.c 'int namei_fixed;' "ext4: fix a use-after-free in the directory lookup when the hash tree is rebuilt under a rename

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>"

# width FILE: the widest line of FILE, in characters.
width() { awk '{ if (length > w) w = length } END { print w + 0 }' "$1"; }
# words FILE: its words, one a line: what wrapping must keep.
words() { tr -s ' \n' '\n\n' <"$1"; }

unset COLUMNS
"$STABLEPICK" propose --branch linux-6.6.y >"$tmp/pipe"
COLUMNS=1000 "$STABLEPICK" propose --branch linux-6.6.y >"$tmp/wide"
[ "$(width "$tmp/wide")" -gt 100 ] ||
	fail "the fixture has no line over 100 columns to fit"
[ "$(width "$tmp/pipe")" -le 100 ] ||
	fail "into a file, a line runs to $(width "$tmp/pipe") columns"
words "$tmp/pipe" >"$tmp/pipe.words"
words "$tmp/wide" | test_cmp - "$tmp/pipe.words"
ok "into a file: 100 columns, the same words"

COLUMNS=60 "$STABLEPICK" propose --branch linux-6.6.y >"$tmp/narrow"
[ "$(width "$tmp/narrow")" -le 60 ] ||
	fail "COLUMNS=60: a line runs to $(width "$tmp/narrow") columns"
words "$tmp/narrow" | test_cmp - "$tmp/pipe.words"
# The long subject goes on in the subject's column; a note in the
# notes' column; a list breaks after its commas.
col=$(grep '^VERDICT' "$tmp/pipe" | awk '{ print index($0, "SUBJECT") - 1 }')
grep -A1 '^proposed .*  ext4: fix a use-after-free in the directory' "$tmp/pipe" |
	tail -n 1 | grep -q "^$(printf "%${col}s" '')[a-z]" ||
	fail "into a file, the subject does not go on in its column"
notes=$(grep -m1 '^proposed' "$tmp/pipe" | awk '{ print index($0, $3) - 1 }')
grep -A1 '^proposed .*  ext4: fix a$' "$tmp/narrow" |
	tail -n 1 | grep -q "^$(printf "%${notes}s" '')use-after-free in the" ||
	fail "COLUMNS=60: the subject does not go on under the notes"
grep -q '^ *cc-stable +100, fixes-tag +8,$' "$tmp/narrow" ||
	fail "a rule list is not broken after a comma"
ok "COLUMNS=60: each long line goes on under itself"

# A terminal's own width, when COLUMNS is not set.
if command -v script >/dev/null 2>&1 && command -v stty >/dev/null 2>&1; then
	script -qec "stty cols 70; '$STABLEPICK' propose --branch linux-6.6.y" \
		/dev/null | tr -d '\r' >"$tmp/tty"
	[ "$(width "$tmp/tty")" -le 70 ] ||
		fail "on a terminal of 70 columns a line runs to $(width "$tmp/tty")"
	[ "$(width "$tmp/tty")" -gt 60 ] ||
		fail "on a terminal of 70 columns the widest line is $(width "$tmp/tty")"
	ok "a terminal of 70 columns"
fi

# The kept answer is another for another width.
COLUMNS=60 "$STABLEPICK" propose --branch linux-6.6.y | test_cmp "$tmp/narrow" -
COLUMNS=1000 "$STABLEPICK" propose --branch linux-6.6.y | test_cmp "$tmp/wide" -
ok "the kept answer is kept per width"
