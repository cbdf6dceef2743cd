#!/bin/sh
# The replies to a review round that are not an ack or a NAK: a
# maintainer's remark is listed, a "not yet" or "defer until v6.6.9"
# is a deferral the ledger keeps until its date or its tag, and a
# checklist review (propose --format checklist) is answered line by
# line ("1 y", "2 n: why", "3 defer 2024-01-15") and read back by acks.
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
# Four xfs fixes without Cc: stable: xfs is opt-in, they need an ack.
for f in alloc bmap log attr; do
	test_fix fs/xfs/$f.c "int $f = 1;" "xfs: fix a crash in the $f code" \
		"Fixes: $(git log -1 --format=%h --abbrev=12 --grep="add the $f code") (\"xfs: add the $f code\")"
done
x1=$(git rev-parse HEAD~3) x2=$(git rev-parse HEAD~2)
x3=$(git rev-parse HEAD~1) x4=$(git rev-parse HEAD)
short() { git rev-parse --short=12 "$1"; }
ledger=$(git rev-parse --git-dir)/stablepick/ledger

export STABLEPICK_NOW=1701600000	# Sun, 3 Dec 2023
# verdicts: "x1 needs-ack", ... in the order of the fixes.
verdicts() {
	"$STABLEPICK" propose --branch linux-6.6.y --format json |
		jq -r '"\(.commit) \(.verdict)"' |
		sed -e "s/^$x1 /x1 /" -e "s/^$x2 /x2 /" -e "s/^$x3 /x3 /" \
			-e "s/^$x4 /x4 /" | sort
}
verdicts >"$tmp/actual"
cat >"$tmp/expect" <<EOF
x1 needs-ack
x2 needs-ack
x3 needs-ack
x4 needs-ack
EOF
test_cmp "$tmp/expect" "$tmp/actual"

id_of() { sed -n "s/^Message-ID: <\(.*\)>$/\1/p" "$1"; }
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
# deliver ARCHIVE MAIL...: appends the mails to an mbox (git mailsplit
# keeps a mail's "From " line).
deliver() {
	local archive=$1
	shift
	for m in "$@"; do
		head -n 1 "$m" | grep -q '^From ' ||
			echo "From mda Mon Sep 17 00:00:00 2001"
		cat "$m"
		echo
	done >>"$archive"
}

# --- the thread: remarks and deferrals ---------------------------------
"$STABLEPICK" propose --branch linux-6.6.y --format review >"$tmp/review.mbox"
mkdir "$tmp/split"
git mailsplit -o"$tmp/split" "$tmp/review.mbox" >/dev/null
p1=$(id_of "$tmp/split/0002") p2=$(id_of "$tmp/split/0003")
p3=$(id_of "$tmp/split/0004") p4=$(id_of "$tmp/split/0005")
reply "$tmp/r1" 'Rhea Castellano <rhea@example.org>' 'Mon, 4 Dec 2023 10:00:00 +0000' \
	r1@example.org "$p1" 'Hi Greg,

Not yet, let it soak in mainline for a while.'
reply "$tmp/r2" 'Kenji Watanabe <kenji@example.com>' 'Mon, 4 Dec 2023 11:00:00 +0000' \
	r2@example.com "$p2" '> Acked-by: Someone Quoted <q@example.org>

Defer until v6.6.9, it wants the rework that comes with it.'
reply "$tmp/r3" 'Rhea Castellano <rhea@example.org>' 'Mon, 4 Dec 2023 12:00:00 +0000' \
	r3@example.org "$p3" 'Looks right to me, I will run the tests on it first.'
reply "$tmp/r4" 'Random Person <random@example.net>' 'Mon, 4 Dec 2023 13:00:00 +0000' \
	r4@example.net "$p3" 'I would not take this one yet, it is too fresh.'
reply "$tmp/r5" 'Rhea Castellano <rhea@example.org>' 'Mon, 4 Dec 2023 14:00:00 +0000' \
	r5@example.org "$p4" 'defer 2024-01-15: after the merge window'
deliver "$tmp/thread.mbox" "$tmp"/split/000[1-5] "$tmp/r1" "$tmp/r2" \
	"$tmp/r3" "$tmp/r4" "$tmp/r5"

# acks runs after the answers were written (a mail dated more than a
# day after now is skipped).
export STABLEPICK_NOW=1701907200	# Thu, 7 Dec 2023
"$STABLEPICK" acks --branch linux-6.6.y --archive "$tmp/thread.mbox" >"$tmp/acks"
cat >"$tmp/expect" <<EOF
deferred until 2023-12-11 $(short "$x1") xfs: fix a crash in the alloc code
    Not yet, let it soak in mainline for a while. (Rhea Castellano <rhea@example.org>, <r1@example.org>)
deferred until v6.6.9 $(short "$x2") xfs: fix a crash in the bmap code
    Defer until v6.6.9, it wants the rework that comes with it. (Kenji Watanabe <kenji@example.com>, <r2@example.com>)
noted, no decision $(short "$x3") xfs: fix a crash in the log code
    Looks right to me, I will run the tests on it first. (Rhea Castellano <rhea@example.org>, <r3@example.org>)
deferred until 2024-01-15 $(short "$x4") xfs: fix a crash in the attr code
    defer 2024-01-15: after the merge window (Rhea Castellano <rhea@example.org>, <r5@example.org>)
EOF
test_cmp "$tmp/expect" "$tmp/acks"
ok "acks: a maintainer's remark is listed, \"not yet\" and \"defer\" are deferrals"

# The ledger keeps the condition: a date, or the tag.
cut -f2,3,5 "$ledger" | grep -v '^#' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
$x1	deferred	2023-12-11
$x2	deferred	v6.6.9
$x4	deferred	2024-01-15
EOF
test_cmp "$tmp/expect" "$tmp/actual"
verdicts >"$tmp/actual"
cat >"$tmp/expect" <<EOF
x1 deferred
x2 deferred
x3 needs-ack
x4 deferred
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "propose: what was deferred is not proposed"

# --- a deferral until a date: over once the day has come ----------------
STABLEPICK_NOW=1702339200 verdicts >"$tmp/actual"	# 12 Dec 2023
cat >"$tmp/expect" <<EOF
x1 needs-ack
x2 deferred
x3 needs-ack
x4 deferred
EOF
test_cmp "$tmp/expect" "$tmp/actual"
STABLEPICK_NOW=1705363200 COLUMNS=1000 "$STABLEPICK" propose --branch linux-6.6.y | # 16 Jan 2024
	grep 'deferral over' | sed 's/^ *//' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
deferral over: deferred until 2023-12-11 by Rhea Castellano: Not yet, let it soak in mainline for a while. in <r1@example.org>; 2023-12-11 has come
deferral over: deferred until 2024-01-15 by Rhea Castellano: defer 2024-01-15: after the merge window in <r5@example.org>; 2024-01-15 has come
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "a deferral until a date ends on that day, and propose says so"

# --- a deferral until a tag: over once the branch has it ----------------
# The tag elsewhere (mainline) is not the branch's.
git tag v6.6.9 master
verdicts | grep '^x2 ' >"$tmp/actual"
echo "x2 deferred" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git tag -d v6.6.9 >/dev/null
git checkout -q linux-6.6.y
test_commit fs/xfs/other.c 'int other;' 'xfs: something else'
test_tick
git tag -a -m 'Linux 6.6.9' v6.6.9
git checkout -q master
verdicts | grep '^x2 ' >"$tmp/actual"
echo "x2 needs-ack" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
COLUMNS=1000 "$STABLEPICK" propose --branch linux-6.6.y | grep 'deferral over' |
	sed 's/^ *//' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
deferral over: deferred until v6.6.9 by Kenji Watanabe: Defer until v6.6.9, it wants the rework that comes with it. in <r2@example.com>; the branch has v6.6.9 now
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "a deferral until a tag ends when the branch has the tag, and propose says so"

# The notes carry the tag too, and bring it back.
"$STABLEPICK" ledger sync >/dev/null
git notes --ref=stablepick show "$x2" | cut -f3,5 >"$tmp/actual"
printf 'deferred\tv6.6.9\n' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
mv "$ledger" "$tmp/ledger.old"
"$STABLEPICK" ledger sync >/dev/null
sort "$tmp/ledger.old" >"$tmp/expect"
sort "$ledger" >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
ok "ledger sync: a deferral until a tag round-trips through the notes"

# --- the checklist ----------------------------------------------------
rm "$ledger"
# Sent on the 3rd, as the thread was: the answers come after it.
STABLEPICK_NOW=1701600000 "$STABLEPICK" propose --branch linux-6.6.y \
	--format checklist >"$tmp/checklist.mbox"
grep -c '^From ' "$tmp/checklist.mbox" >"$tmp/actual"
echo 1 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
sed -n 's/^Subject: //p' "$tmp/checklist.mbox" >"$tmp/actual"
echo '[CHECKLIST 6.6] xfs: 4 candidates for 6.6.y, please answer by number' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
grep '^  [0-9]' "$tmp/checklist.mbox" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
  1. $(short "$x1") xfs: fix a crash in the alloc code
  2. $(short "$x2") xfs: fix a crash in the bmap code
  3. $(short "$x3") xfs: fix a crash in the log code
  4. $(short "$x4") xfs: fix a crash in the attr code
EOF
test_cmp "$tmp/expect" "$tmp/actual"
grep -q '^Cc:.*rhea@example.org' "$tmp/checklist.mbox" || fail "the maintainer is not Cc'd"
ok "propose --format checklist: one mail, the candidates numbered"

list=$(id_of "$tmp/checklist.mbox")
{
	echo '> Please answer this mail with a line for each, its number'
	echo '> and your answer, as in "1 y", "2 n: needs the prep patch",'
	sed -n 's/^  \([0-9]\)/> \1/p' "$tmp/checklist.mbox"
	echo '> 4 y'
	echo
	echo '1 y'
	echo '2 n: needs the prep patch'
	echo '3. defer 2024-01-15'
}>"$tmp/answers"
reply "$tmp/c1" 'Rhea Castellano <rhea@example.org>' 'Mon, 4 Dec 2023 10:00:00 +0000' \
	c1@example.org "$list" "$(cat "$tmp/answers")"
reply "$tmp/c2" 'Random Person <random@example.net>' 'Mon, 4 Dec 2023 11:00:00 +0000' \
	c2@example.net "$list" '4 yes'
mkdir "$tmp/cl"
git mailsplit -o"$tmp/cl" "$tmp/checklist.mbox" >/dev/null
deliver "$tmp/list.mbox" "$tmp/cl/0001" "$tmp/c1" "$tmp/c2"
"$STABLEPICK" acks --branch linux-6.6.y --archive "$tmp/list.mbox" >"$tmp/acks"
cat >"$tmp/expect" <<EOF
accepted $(short "$x1") xfs: fix a crash in the alloc code
    1 y (Rhea Castellano <rhea@example.org>, <c1@example.org>)
rejected $(short "$x2") xfs: fix a crash in the bmap code
    2 n: needs the prep patch (Rhea Castellano <rhea@example.org>, <c1@example.org>)
deferred until 2024-01-15 $(short "$x3") xfs: fix a crash in the log code
    3. defer 2024-01-15 (Rhea Castellano <rhea@example.org>, <c1@example.org>)
not a maintainer $(short "$x4") xfs: fix a crash in the attr code
    4 yes (Random Person <random@example.net>, <c2@example.net>)
EOF
test_cmp "$tmp/expect" "$tmp/acks"
verdicts >"$tmp/actual"
cat >"$tmp/expect" <<EOF
x1 accepted
x2 rejected
x3 deferred
x4 needs-ack
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "acks: a checklist answered line by line, only by a maintainer"

# A reply to the checklist that numbers nothing is one to the whole
# list: a remark is listed once, an ack counts for what is undecided.
reply "$tmp/c3" 'Kenji Watanabe <kenji@example.com>' 'Tue, 5 Dec 2023 09:00:00 +0000' \
	c3@example.com "$list" 'Thanks, I will look at the rest this week.'
reply "$tmp/c4" 'Kenji Watanabe <kenji@example.com>' 'Wed, 6 Dec 2023 09:00:00 +0000' \
	c4@example.com c3@example.com 'Reviewed-by: Kenji Watanabe <kenji@example.com>'
deliver "$tmp/list.mbox" "$tmp/c3" "$tmp/c4"
"$STABLEPICK" acks --branch linux-6.6.y --archive "$tmp/list.mbox" |
	sed -n '/c[34]@/{x;p;x;p;};h' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
noted, no decision $(short "$x1") xfs: fix a crash in the alloc code
    Thanks, I will look at the rest this week. (Kenji Watanabe <kenji@example.com>, <c3@example.com>, for the series)
recorded before $(short "$x1") xfs: fix a crash in the alloc code
    Reviewed-by: Kenji Watanabe <kenji@example.com> (Kenji Watanabe <kenji@example.com>, <c4@example.com>, for the series)
recorded before $(short "$x2") xfs: fix a crash in the bmap code
    Reviewed-by: Kenji Watanabe <kenji@example.com> (Kenji Watanabe <kenji@example.com>, <c4@example.com>, for the series)
recorded before $(short "$x3") xfs: fix a crash in the log code
    Reviewed-by: Kenji Watanabe <kenji@example.com> (Kenji Watanabe <kenji@example.com>, <c4@example.com>, for the series)
accepted $(short "$x4") xfs: fix a crash in the attr code
    Reviewed-by: Kenji Watanabe <kenji@example.com> (Kenji Watanabe <kenji@example.com>, <c4@example.com>, for the series)
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "acks: a checklist answer without numbers counts for the whole list"

# --- mark --until TAG: the same deferral by hand ------------------------
export STABLEPICK_NOW=1702339200	# 12 Dec 2023: after the answers
"$STABLEPICK" mark --branch linux-6.6.y --until v6.6.10 "$x4" deferred >"$tmp/actual"
echo "deferred $(short "$x4") for linux-6.6.y until v6.6.10: xfs: fix a crash in the attr code" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
verdicts | grep '^x4 ' >"$tmp/actual"
echo "x4 deferred" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git tag -a -m 'Linux 6.6.10' v6.6.10 linux-6.6.y
verdicts | grep '^x4 ' >"$tmp/actual"
echo "x4 needs-ack" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" mark --branch linux-6.6.y --until 'next week' "$x4" deferred 2>"$tmp/err" &&
	fail "--until 'next week' taken"
grep -q "^error: bad date 'next week' for --until" "$tmp/err" || fail "$(cat "$tmp/err")"
ok "mark --until TAG: deferred until the branch has the tag"
