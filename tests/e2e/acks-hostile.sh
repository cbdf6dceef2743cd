#!/bin/sh
# Answers nobody can forge into the ledger for good: a decision's time
# is when this repository learnt it (a mail's Date: is only evidence),
# nothing dated in the future outranks a mark, an answer counts from
# one sender only, one hostile mail is skipped and named while the
# rest is recorded (exit 3), and an ack quoted (indented, or under
# "-----Original Message-----") or dated before the review mail is not
# one.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
git config user.name 'Stable Picker'
git config user.email 'picker@example.org'
cat >MAINTAINERS <<'EOF'
XFS FILESYSTEM
M:	Rhea Castellano <rhea@example.org>
R:	Kenji Watanabe <kenji@example.com>
L:	linux-xfs@vger.kernel.org
F:	fs/xfs/
EOF
git add MAINTAINERS
for f in alloc bmap log attr; do
	test_commit fs/xfs/$f.c "int $f;" "xfs: add the $f code"
done
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
for f in alloc bmap log attr; do
	test_fix fs/xfs/$f.c "int $f = 1;" "xfs: fix a crash in the $f code" \
		"Fixes: $(git log -1 --format=%h --abbrev=12 --grep="add the $f code") (\"xfs: add the $f code\")"
done
x1=$(git rev-parse HEAD~3) x2=$(git rev-parse HEAD~2)
x3=$(git rev-parse HEAD~1) x4=$(git rev-parse HEAD)
short() { git rev-parse --short=12 "$1"; }
ledger=$(git rev-parse --absolute-git-dir)/stablepick/ledger
tab=$(printf '\t')

# The review thread goes out on Sunday 3 December 2023, 10:40; acks
# runs on Thursday the 7th, after the answers.
STABLEPICK_NOW=1701600000 "$STABLEPICK" propose --branch linux-6.6.y \
	--format review >"$tmp/review.mbox"
export STABLEPICK_NOW=1701907200	# Thu, 7 Dec 2023 00:00
mkdir "$tmp/split"
git mailsplit -o"$tmp/split" "$tmp/review.mbox" >/dev/null
id_of() { sed -n "s/^Message-ID: <\(.*\)>$/\1/p" "$1"; }
p1=$(id_of "$tmp/split/0002") p2=$(id_of "$tmp/split/0003")
p3=$(id_of "$tmp/split/0004") p4=$(id_of "$tmp/split/0005")

# reply FILE FROM DATE ID PARENT TEXT
reply() {
	cat >"$1" <<EOF
From: $2
To: linux-xfs@vger.kernel.org
Subject: Re: [PATCH 6.6] xfs
Date: $3
Message-ID: <$4>
In-Reply-To: <$5>
References: <$5>

$6
EOF
}
# archive NAME MAIL...: an mbox with the review thread and the mails
# (git mailsplit keeps a mail's "From " line).
archive() {
	local a=$tmp/$1.mbox
	shift
	for m in "$tmp"/split/000[1-5] "$@"; do
		head -n 1 "$m" | grep -q '^From ' ||
			echo "From mda Mon Sep 17 00:00:00 2001"
		cat "$m"
		echo
	done >"$a"
}
# verdict COMMIT: its verdict for linux-6.6.y.
verdict() {
	"$STABLEPICK" propose --branch linux-6.6.y --format json |
		jq -r --arg c "$1" 'select(.commit == $c) | .verdict'
}
rhea='Rhea Castellano <rhea@example.org>'
ack='Acked-by: Rhea Castellano <rhea@example.org>'

# --- 1. the time of a decision -----------------------------------------
# A genuine ack: recorded at now, the mail's Date: kept as evidence.
reply "$tmp/g1" "$rhea" 'Mon, 4 Dec 2023 10:00:00 +0000' g1@example.org "$p1" "$ack"
archive genuine "$tmp/g1"
"$STABLEPICK" acks --branch linux-6.6.y --archive "$tmp/genuine.mbox" >/dev/null
grep "$x1" "$ledger" | cut -f3,4,8 >"$tmp/actual"
printf 'accepted\t2023-12-07T00:00:00Z\tarchive=%s;message-id=g1@example.org;from=%s;date=2023-12-04T10:00:00Z\n' \
	"$tmp/genuine.mbox" "$rhea" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "acks: a decision is dated when it was read, the mail's date kept as evidence"

# Where it came from shows wherever the decision does.
"$STABLEPICK" mark --branch linux-6.6.y --list >"$tmp/actual"
cat >"$tmp/expect" <<EOF
accepted $(short "$x1") for linux-6.6.y: xfs: fix a crash in the alloc code ($ack in <g1@example.org>)
    read from <g1@example.org> from $rhea, dated 2023-12-04T10:00:00Z, in $tmp/genuine.mbox (a claim by the mail's sender)
EOF
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" explain --branch linux-6.6.y "$x1" | grep '^Decision:' >"$tmp/actual"
echo "Decision:  read from <g1@example.org> from $rhea, dated 2023-12-04T10:00:00Z, in $tmp/genuine.mbox (a claim by the mail's sender)" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -c --arg c "$x1" 'select(.commit == $c) | .decision_origin' >"$tmp/actual"
echo "{\"archive\":\"$tmp/genuine.mbox\",\"message_id\":\"g1@example.org\",\"from\":\"$rhea\",\"date\":\"2023-12-04T10:00:00Z\"}" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "mark --list, explain and JSON show where an ack came from"

# A reply dated 2099 is skipped, and a later mark counts.
rm -f "$ledger"
reply "$tmp/f1" "$rhea" 'Thu, 1 Jan 2099 00:00:00 +0000' f1@example.org "$p2" "$ack"
archive future "$tmp/f1"
status=0
"$STABLEPICK" acks --branch linux-6.6.y --archive "$tmp/future.mbox" >"$tmp/acks" || status=$?
[ "$status" = 3 ] || fail "acks with a mail from 2099 exited with $status"
# Named: its Message-ID, the archive and where in it (bytes, in an mbox).
head -n 2 "$tmp/acks" |
	sed -e "s|$tmp|TMP|" -e 's/ at [0-9][0-9]*+[0-9][0-9]*)$/ at OFFSET+LENGTH)/' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
skipped $(short "$x2") xfs: fix a crash in the bmap code
    its Date: is in the future (2099-01-01T00:00:00Z) ($rhea, <f1@example.org>, in TMP/future.mbox at OFFSET+LENGTH)
EOF
test_cmp "$tmp/expect" "$tmp/actual"
STABLEPICK_NOW=1701993600 "$STABLEPICK" mark --branch linux-6.6.y "$x2" rejected >/dev/null
[ "$(STABLEPICK_NOW=1701993600 verdict "$x2")" = rejected ] ||
	fail "a mark after a reply dated 2099 does not count"
ok "acks: a reply dated 2099 is skipped, a later mark counts"

# A line of 2099 in the ledger (an older acks wrote it) counts for
# nothing, with a warning naming it; mark works.
rm -f "$ledger"
{
	echo '# stablepick ledger 1'
	printf 'linux-6.6.y\t%s\taccepted\t2099-01-01T00:00:00Z\t-\tMallory <m@evil.example>\tAcked-by: x\n' "$x2"
} >"$ledger"
"$STABLEPICK" mark --branch linux-6.6.y "$x2" rejected >/dev/null 2>"$tmp/err"
grep -q "^warning: $ledger:2: a decision dated 2099-01-01T00:00:00Z, in the future, is not counted\$" "$tmp/err" ||
	fail "no warning on the line from 2099: $(cat "$tmp/err")"
[ "$(verdict "$x2" 2>/dev/null)" = rejected ] ||
	fail "a line of 2099 in the ledger outranks a mark"
ok "ledger: a line dated in the future is named and not counted"

# One a few hours ahead (another clone's clock) counts, but a mark made
# now still outranks it: dated a second after it, with a warning.
rm -f "$ledger"
{
	echo '# stablepick ledger 1'
	printf 'linux-6.6.y\t%s\taccepted\t2023-12-07T03:00:00Z\t-\tBob <bob@example.org>\tfine\n' "$x2"
} >"$ledger"
[ "$(verdict "$x2")" = accepted ] || fail "a line three hours ahead does not count"
"$STABLEPICK" mark --branch linux-6.6.y "$x2" rejected >/dev/null 2>"$tmp/err"
echo "warning: the ledger's decision about $(short "$x2") is dated 2023-12-07T03:00:00Z, after now (by Bob <bob@example.org>): this one is dated a second later, to outrank it" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/err"
tail -n 1 "$ledger" | cut -f3,4 >"$tmp/actual"
printf 'rejected\t2023-12-07T03:00:01Z\n' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(verdict "$x2")" = rejected ] || fail "a line three hours ahead outranks a mark"
ok "mark: a decision a few hours ahead does not outrank a mark made now"

# A note of 2099 from another clone: ledger sync takes the rest, not it.
rm -f "$ledger"
"$STABLEPICK" mark --branch linux-6.6.y "$x4" deferred >/dev/null
line=$(printf 'linux-6.6.y\t%s\taccepted\t2099-01-01T00:00:00Z\t-\tMallory <m@evil.example>\tyes' "$x3")
printf '%s\n' "$line" | git notes --ref=stablepick add -f -F - "$x3"
status=0
"$STABLEPICK" ledger sync >"$tmp/actual" 2>"$tmp/err" || status=$?
[ "$status" = 3 ] || fail "ledger sync with a note from 2099 exited with $status"
echo "warning: refs/notes/stablepick:$x3:1: a decision dated 2099-01-01T00:00:00Z, in the future, is not counted" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/err"
cat >"$tmp/expect" <<EOF
1 decision added to refs/notes/stablepick in 1 note (commit $(git rev-parse --short=12 refs/notes/stablepick))
the ledger and refs/notes/stablepick hold the same 1 decision
1 decision dated in the future left out (see the warnings)
EOF
test_cmp "$tmp/expect" "$tmp/actual"
grep -q "$x3" "$ledger" && fail "the note from 2099 reached the ledger"
"$STABLEPICK" mark --branch linux-6.6.y "$x3" rejected >/dev/null
[ "$(verdict "$x3")" = rejected ] || fail "a note of 2099 outranks a mark"
ok "ledger sync: a note dated in the future is named and left out"

# A mark is not outranked by an answer read after it.
rm -f "$ledger"
STABLEPICK_NOW=1701610000 "$STABLEPICK" mark --branch linux-6.6.y "$x1" deferred >/dev/null
"$STABLEPICK" acks --branch linux-6.6.y --archive "$tmp/genuine.mbox" >"$tmp/acks"
head -n 1 "$tmp/acks" >"$tmp/actual"
echo "kept the mark of 2023-12-03 by Stable Picker $(short "$x1") xfs: fix a crash in the alloc code" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(verdict "$x1")" = deferred ] || fail "an ack read later outranks the mark"
ok "acks: an answer does not outrank a mark, it is listed"

# --- 2. one sender -----------------------------------------------------
rm -f "$ledger"
reply "$tmp/s1" "Mallory <m@evil.example>, $rhea" 'Mon, 4 Dec 2023 10:00:00 +0000' \
	s1@evil.example "$p3" "$ack"
archive senders "$tmp/s1"
"$STABLEPICK" acks --branch linux-6.6.y --archive "$tmp/senders.mbox" >"$tmp/acks"
head -n 1 "$tmp/acks" >"$tmp/actual"
echo "not one sender $(short "$x3") xfs: fix a crash in the log code" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
[ ! -s "$ledger" ] || fail "an ack from two senders was recorded: $(cat "$ledger")"
ok "acks: a From: with several addresses is no maintainer's"

# --- 3. one hostile mail -----------------------------------------------
rm -f "$ledger"
reply "$tmp/h1" "$rhea" 'Fri, 31 Dec 9999 23:59:59 -1400' h1@evil.example "$p3" "$ack"
reply "$tmp/h2" "$rhea" 'Mon, 4 Dec 2023 10:00:00 +0000' h2@example.org "$p4" "$ack"
archive hostile "$tmp/h1" "$tmp/h2"
status=0
"$STABLEPICK" acks --branch linux-6.6.y --archive "$tmp/hostile.mbox" >"$tmp/acks" 2>"$tmp/err" || status=$?
[ "$status" = 3 ] || fail "acks with a mail of year 9999 exited with $status: $(cat "$tmp/err")"
grep -v '^    ' "$tmp/acks" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
accepted $(short "$x4") xfs: fix a crash in the attr code
skipped $(short "$x3") xfs: fix a crash in the log code
EOF
test_cmp "$tmp/expect" "$tmp/actual"
grep -q '^    its Date: is in the future (after 9999) (.*, <h1@evil.example>, in ' "$tmp/acks" ||
	fail "the hostile mail is not named: $(cat "$tmp/acks")"
cut -f2,3 "$ledger" | grep -v '^#' >"$tmp/actual"
printf '%s\taccepted\n' "$x4" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "acks: a mail dated 9999 is skipped and named, the genuine ack recorded, exit 3"

# --- minor: quoted acks, an ack older than its question ----------------
rm -f "$ledger"
reply "$tmp/q1" "$rhea" 'Mon, 4 Dec 2023 10:00:00 +0000' q1@example.org "$p1" \
	"Let me look at it again.

    $ack"
reply "$tmp/q2" 'Kenji Watanabe <kenji@example.com>' 'Mon, 4 Dec 2023 11:00:00 +0000' \
	q2@example.com "$p2" "Forwarding what Rhea said.

-----Original Message-----
From: $rhea
Sent: Monday, December 4, 2023 09:00

$ack"
reply "$tmp/q3" "$rhea" 'Fri, 1 Dec 2023 10:00:00 +0000' q3@example.org "$p3" "$ack"
archive quoted "$tmp/q1" "$tmp/q2" "$tmp/q3"
status=0
"$STABLEPICK" acks --branch linux-6.6.y --archive "$tmp/quoted.mbox" >"$tmp/acks" || status=$?
[ "$status" = 3 ] || fail "acks with an ack older than its review mail exited with $status"
grep -v '^    ' "$tmp/acks" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
skipped $(short "$x3") xfs: fix a crash in the log code
noted, no decision $(short "$x1") xfs: fix a crash in the alloc code
noted, no decision $(short "$x2") xfs: fix a crash in the bmap code
EOF
test_cmp "$tmp/expect" "$tmp/actual"
grep -q "^    its Date: (2023-12-01T10:00:00Z) is before the review mail <$(id_of "$tmp/split/0001")> it answers was sent (2023-12-03T10:40:00Z) " "$tmp/acks" ||
	fail "the early ack's cause: $(cat "$tmp/acks")"
[ ! -s "$ledger" ] || fail "a quoted or early ack was recorded: $(cat "$ledger")"
ok "acks: an indented or Outlook-quoted ack, or one older than its question, is none"
