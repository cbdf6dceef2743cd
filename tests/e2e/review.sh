#!/bin/sh
# The review round of an opt-in subsystem, end to end: propose --format
# review writes the thread, the maintainers' answers arrive in a list
# archive (written by public-inbox's own tools when they are installed,
# else an mbox), stablepick acks records them, and stablepick queue
# writes what was accepted, which git am and quilt push -a apply.
. "$TEST_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
git config user.name 'Stable Picker'
git config user.email 'picker@example.org'
cat >MAINTAINERS <<'EOF'
List of maintainers
===================

FILESYSTEMS (VFS and infrastructure)
M:	Viktor Brandt <vbrandt@example.org>
L:	linux-fsdevel@vger.kernel.org
F:	fs/*

XFS FILESYSTEM
M:	Rhea Castellano <rhea@example.org>
R:	Kenji Watanabe <kenji@example.com>
L:	linux-xfs@vger.kernel.org
F:	fs/xfs/
F:	include/uapi/linux/dqblk_xfs.h
EOF
git add MAINTAINERS
test_commit fs/xfs/alloc.c 'int alloc;' 'xfs: add the allocator'
alloc=$(git rev-parse HEAD)
test_commit fs/xfs/bmap.c 'int bmap;' 'xfs: add the block map'
bmap=$(git rev-parse HEAD)
test_commit fs/xfs/log.c 'int log;' 'xfs: add the log'
log=$(git rev-parse HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# Three xfs fixes without Cc: stable: xfs is opt-in, they need an ack.
test_fix fs/xfs/alloc.c 'int alloc = 1;' 'xfs: fix a crash in the allocator' \
	"Fixes: $(git rev-parse --short=12 "$alloc") (\"xfs: add the allocator\")"
x1=$(git rev-parse HEAD)
test_fix fs/xfs/bmap.c 'int bmap = 1;' 'xfs: fix a crash in the block map' \
	"Fixes: $(git rev-parse --short=12 "$bmap") (\"xfs: add the block map\")"
x2=$(git rev-parse HEAD)
test_fix fs/xfs/log.c 'int log = 1;' 'xfs: fix a crash in the log' \
	"Fixes: $(git rev-parse --short=12 "$log") (\"xfs: add the log\")"
x3=$(git rev-parse HEAD)
test_tick
git tag -a -m 'Linux 6.7' v6.7
short() { git rev-parse --short=12 "$1"; }

export STABLEPICK_NOW=1701600000	# Sun, 3 Dec 2023
"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r 'select(.verdict == "needs-ack") | .commit' >"$tmp/actual"
printf '%s\n' "$x1" "$x2" "$x3" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"

# --- week 1: the review thread ----------------------------------------
"$STABLEPICK" propose --branch linux-6.6.y --format review >"$tmp/review.mbox"
python3 - "$tmp/review.mbox" >"$tmp/actual" <<'PY'
import mailbox, sys, email.utils
from email import policy
for m in mailbox.mbox(sys.argv[1], factory=lambda f: __import__('email').message_from_binary_file(f, policy=policy.default)):
    to = [a for _, a in email.utils.getaddresses(m.get_all('To', []))]
    cc = [a for _, a in email.utils.getaddresses(m.get_all('Cc', []))]
    print(m['Subject'], '|', ' '.join(to), '|', ' '.join(sorted(cc)))
    print('  ', m['Message-ID'].split('@')[0], m['In-Reply-To'] and m['In-Reply-To'].split('@')[0])
    if len(m.defects):
        print('defects', m.defects)
PY
tip=$(git rev-parse --short=12 master)
cat >"$tmp/expect" <<EOF
[PATCH 6.6 0/3] xfs: candidates for 6.6.y, please ack | linux-xfs@vger.kernel.org | kenji@example.com rhea@example.org stable@vger.kernel.org
   <stablepick-review.xfs.linux-6.6.y.$tip None
[PATCH 6.6 1/3] xfs: fix a crash in the allocator | linux-xfs@vger.kernel.org | author@example.com kenji@example.com rhea@example.org stable@vger.kernel.org
   <stablepick-review.$x1.linux-6.6.y.$tip <stablepick-review.xfs.linux-6.6.y.$tip
[PATCH 6.6 2/3] xfs: fix a crash in the block map | linux-xfs@vger.kernel.org | author@example.com kenji@example.com rhea@example.org stable@vger.kernel.org
   <stablepick-review.$x2.linux-6.6.y.$tip <stablepick-review.xfs.linux-6.6.y.$tip
[PATCH 6.6 3/3] xfs: fix a crash in the log | linux-xfs@vger.kernel.org | author@example.com kenji@example.com rhea@example.org stable@vger.kernel.org
   <stablepick-review.$x3.linux-6.6.y.$tip <stablepick-review.xfs.linux-6.6.y.$tip
EOF
test_cmp "$tmp/expect" "$tmp/actual"
# The VFS maintainer (F: fs/*) is not xfs's.
! grep -q vbrandt "$tmp/review.mbox" || fail "the VFS maintainer is Cc'd"
# The patches are the branch's backports: git am takes them (after the
# cover letter, which is no patch).
mkdir "$tmp/split"
git mailsplit -o"$tmp/split" "$tmp/review.mbox" >/dev/null
git clone -q -b linux-6.6.y "$repo" "$tmp/am"
git -C "$tmp/am" am -q "$tmp/split/0002" "$tmp/split/0003" "$tmp/split/0004" 2>"$tmp/err" ||
	fail "git am of the review thread: $(cat "$tmp/err")"
git -C "$tmp/am" log --format=%s origin/linux-6.6.y..HEAD | wc -l >"$tmp/actual"
echo 3 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "propose --format review: a thread to the list, Cc the maintainers"

# --- the answers, in the list's archive --------------------------------
# acks runs after the answers were written (a mail dated more than a
# day after now is skipped).
export STABLEPICK_NOW=1701820800	# Wed, 6 Dec 2023
id_of() { sed -n "s/^Message-ID: <\(.*\)>$/\1/p" "$1"; }
cover=$(id_of "$tmp/split/0001")
p1=$(id_of "$tmp/split/0002")
p2=$(id_of "$tmp/split/0003")
p3=$(id_of "$tmp/split/0004")
# reply FILE FROM DATE ID PARENT TEXT
reply() {
	cat >"$1" <<EOF
From: $2
To: linux-xfs@vger.kernel.org
Subject: Re: [PATCH 6.6] xfs
Date: $3
Message-ID: <$4>
In-Reply-To: <$5>
References: <$cover> <$5>

> Acked-by: Quoted Person <quoted@example.org>

$6
EOF
}
reply "$tmp/a1" 'Rhea Castellano <rhea@example.org>' 'Mon, 4 Dec 2023 10:00:00 +0000' \
	ack1@example.org "$p1" 'Acked-by: Rhea Castellano <rhea@example.org>'
reply "$tmp/a2" 'Random Person <random@example.net>' 'Mon, 4 Dec 2023 11:00:00 +0000' \
	ack2@example.net "$p2" 'Acked-by: Random Person <random@example.net>'
reply "$tmp/a3" 'Kenji Watanabe <kenji@example.com>' 'Mon, 4 Dec 2023 12:00:00 +0000' \
	nak3@example.com "$p3" 'NAK, the log changed too much since 6.6.'
# A reply to Kenji's NAK: still about patch 3, and says nothing.
reply "$tmp/a4" 'Rhea Castellano <rhea@example.org>' 'Mon, 4 Dec 2023 12:30:00 +0000' \
	talk4@example.org nak3@example.com 'Agreed, let us wait.'

if command -v public-inbox-init >/dev/null 2>&1 &&
   command -v public-inbox-mda >/dev/null 2>&1; then
	export PI_CONFIG="$tmp/pi-config"
	public-inbox-init -V2 xfs "$tmp/inbox" http://example.com/xfs \
		linux-xfs@vger.kernel.org >/dev/null 2>&1 ||
		fail "public-inbox-init -V2"
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none
	deliver() {
		for m in "$@"; do
			ORIGINAL_RECIPIENT=linux-xfs@vger.kernel.org \
				public-inbox-mda --no-precheck <"$m" ||
				fail "public-inbox-mda $m"
		done
	}
	archive=$tmp/inbox
else
	echo "# public-inbox is not installed: the archive is an mbox"
	deliver() {
		for m in "$@"; do
			echo "From mda Mon Sep 17 00:00:00 2001"
			cat "$m"
			echo
		done >>"$tmp/archive.mbox"
	}
	archive=$tmp/archive.mbox
fi
deliver "$tmp"/split/0001 "$tmp"/split/0002 "$tmp"/split/0003 "$tmp"/split/0004 \
	"$tmp/a1" "$tmp/a2" "$tmp/a3" "$tmp/a4"

"$STABLEPICK" acks --branch linux-6.6.y --archive "$archive" --dry-run >"$tmp/dry"
"$STABLEPICK" mark --branch linux-6.6.y --list >"$tmp/actual"
[ ! -s "$tmp/actual" ] || fail "--dry-run recorded: $(cat "$tmp/actual")"
"$STABLEPICK" acks --branch linux-6.6.y --archive "$archive" >"$tmp/acks"
sed 's/^would be //' "$tmp/dry" | diff - "$tmp/acks" >/dev/null ||
	fail "--dry-run says otherwise: $(cat "$tmp/dry")"
grep -v '^    ' "$tmp/acks" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
accepted $(short "$x1") xfs: fix a crash in the allocator
not a maintainer $(short "$x2") xfs: fix a crash in the block map
rejected $(short "$x3") xfs: fix a crash in the log
noted, no decision $(short "$x3") xfs: fix a crash in the log
EOF
test_cmp "$tmp/expect" "$tmp/actual"
# A maintainer's reply that decides nothing is listed, with what it said.
grep -A1 '^noted' "$tmp/acks" | tail -n 1 >"$tmp/actual"
echo '    Agreed, let us wait. (Rhea Castellano <rhea@example.org>, <talk4@example.org>)' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" mark --branch linux-6.6.y --list >"$tmp/actual"
cat >"$tmp/expect" <<EOF
accepted $(short "$x1") for linux-6.6.y: xfs: fix a crash in the allocator (Acked-by: Rhea Castellano <rhea@example.org> in <ack1@example.org>)
    read from <ack1@example.org> from Rhea Castellano <rhea@example.org>, dated 2023-12-04T10:00:00Z, in $archive (a claim by the mail's sender)
rejected $(short "$x3") for linux-6.6.y: xfs: fix a crash in the log (NAK, the log changed too much since 6.6. in <nak3@example.com>)
    read from <nak3@example.com> from Kenji Watanabe <kenji@example.com>, dated 2023-12-04T12:00:00Z, in $archive (a claim by the mail's sender)
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "acks: a maintainer's ack and NAK recorded, anyone else's not, a remark listed"

# Again: nothing new is recorded.
"$STABLEPICK" acks --branch linux-6.6.y --archive "$archive" | grep -v '^    ' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
recorded before $(short "$x1") xfs: fix a crash in the allocator
not a maintainer $(short "$x2") xfs: fix a crash in the block map
recorded before $(short "$x3") xfs: fix a crash in the log
noted, no decision $(short "$x3") xfs: fix a crash in the log
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "acks again: nothing recorded twice"

# An ack of the cover letter counts for every patch the ledger has no
# decision for: patch 2 is accepted, patch 3's NAK stands.
reply "$tmp/a5" 'Rhea Castellano <rhea@example.org>' 'Tue, 5 Dec 2023 09:00:00 +0000' \
	series5@example.org "$cover" 'For the series: Reviewed-by: no, this line is text.

Reviewed-by: Rhea Castellano <rhea@example.org>'
deliver "$tmp/a5"
"$STABLEPICK" acks --branch linux-6.6.y --archive "$archive" |
	grep -v '^    ' | grep -v '^not a maintainer' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
recorded before $(short "$x1") xfs: fix a crash in the allocator
recorded before $(short "$x3") xfs: fix a crash in the log
noted, no decision $(short "$x3") xfs: fix a crash in the log
recorded before $(short "$x1") xfs: fix a crash in the allocator
accepted $(short "$x2") xfs: fix a crash in the block map
recorded before $(short "$x3") xfs: fix a crash in the log
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "acks: an answer to the cover counts for the undecided patches"

# --- the queue: what was accepted, ready to apply ---------------------
"$STABLEPICK" propose --branch linux-6.6.y --format review >"$tmp/none" 2>"$tmp/err"
[ ! -s "$tmp/none" ] || fail "accepted and rejected commits still asked for review"
"$STABLEPICK" queue --branch linux-6.6.y >"$tmp/queue.mbox"
grep '^Subject:' "$tmp/queue.mbox" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
Subject: [PATCH 6.6 1/2] xfs: fix a crash in the allocator
Subject: [PATCH 6.6 2/2] xfs: fix a crash in the block map
EOF
test_cmp "$tmp/expect" "$tmp/actual"
git clone -q -b linux-6.6.y "$repo" "$tmp/stable"
git -C "$tmp/stable" am -q "$tmp/queue.mbox"
git -C "$tmp/stable" log --reverse --format=%b origin/linux-6.6.y..HEAD |
	sed -n 's/^commit \([0-9a-f]*\) upstream\.$/\1/p' >"$tmp/actual"
printf '%s\n' "$x1" "$x2" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "queue --format mbox: git am applies what was accepted"

# What the list said goes with the patches: the trailer acks recorded
# for each (an ack, a review of the cover), and with --signoff the
# backporter's sign-off last, which git am -s then does not repeat.
"$STABLEPICK" queue --branch linux-6.6.y --signoff >"$tmp/signed.mbox"
git clone -q -b linux-6.6.y "$repo" "$tmp/signed"
GIT_COMMITTER_NAME='Stable Picker' GIT_COMMITTER_EMAIL='picker@example.org' \
	git -C "$tmp/signed" am -q -s "$tmp/signed.mbox"
git -C "$tmp/signed" log --reverse --format='%s%n%(trailers:only,unfold)' \
	origin/linux-6.6.y..HEAD >"$tmp/actual"
cat >"$tmp/expect" <<EOF
xfs: fix a crash in the allocator
Fixes: $(short "$alloc") ("xfs: add the allocator")
Signed-off-by: A U Thor <author@example.com>
Acked-by: Rhea Castellano <rhea@example.org>
Signed-off-by: Stable Picker <picker@example.org>

xfs: fix a crash in the block map
Fixes: $(short "$bmap") ("xfs: add the block map")
Signed-off-by: A U Thor <author@example.com>
Reviewed-by: Rhea Castellano <rhea@example.org>
Signed-off-by: Stable Picker <picker@example.org>

EOF
test_cmp "$tmp/expect" "$tmp/actual"
# The same read by git interpret-trailers from the quilt patch.
"$STABLEPICK" queue --branch linux-6.6.y --signoff --format quilt \
	--output "$tmp/signed-6.6" 2>/dev/null
sed -n '/^$/,/^---$/p' "$tmp/signed-6.6/xfs-fix-a-crash-in-the-allocator.patch" |
	sed '$d' | git interpret-trailers --parse >"$tmp/actual"
sed -n 2,5p "$tmp/expect" >"$tmp/expect.quilt"
test_cmp "$tmp/expect.quilt" "$tmp/actual"
# Without --signoff, no sign-off.
grep -q '^Signed-off-by: Stable Picker' "$tmp/queue.mbox" &&
	fail "a sign-off without --signoff"
ok "queue: the trailers acks recorded, and --signoff's sign-off last, as git am -s"

"$STABLEPICK" queue --branch linux-6.6.y --format quilt --output "$tmp/queue-6.6" 2>"$tmp/err"
cat >"$tmp/expect" <<EOF
xfs-fix-a-crash-in-the-allocator.patch
xfs-fix-a-crash-in-the-block-map.patch
EOF
test_cmp "$tmp/expect" "$tmp/queue-6.6/series"
grep -q "^commit $x1 upstream\.$" "$tmp/queue-6.6/xfs-fix-a-crash-in-the-allocator.patch" ||
	fail "no upstream line in the queued patch"
# Again: the queue has them, nothing is added.
"$STABLEPICK" queue --branch linux-6.6.y --format quilt --output "$tmp/queue-6.6" 2>"$tmp/err"
grep -q "^0 of 2 accepted patches added" "$tmp/err" || fail "queued twice: $(cat "$tmp/err")"
test_cmp "$tmp/expect" "$tmp/queue-6.6/series"
if command -v quilt >/dev/null 2>&1; then
	git clone -q -b linux-6.6.y "$repo" "$tmp/quilt"
	(cd "$tmp/quilt" && QUILT_PATCHES="$tmp/queue-6.6" quilt push -a -q) \
		>"$tmp/out" 2>&1 || fail "quilt push -a: $(cat "$tmp/out")"
	grep -q 'int bmap = 1;' "$tmp/quilt/fs/xfs/bmap.c" || fail "quilt applied nothing"
	ok "queue --format quilt: quilt push -a applies the queue"
else
	echo "# quilt is not installed: quilt push -a not tried"
fi

# A usage error names what is missing.
"$STABLEPICK" queue --branch linux-6.6.y --format quilt 2>"$tmp/err" && fail "no --output"
grep -q "^error: --format quilt needs --output DIR$" "$tmp/err" || fail "$(cat "$tmp/err")"
"$STABLEPICK" acks --branch linux-6.6.y 2>"$tmp/err" && fail "acks without an archive"
grep -q "^error: acks needs the list archives" "$tmp/err" || fail "$(cat "$tmp/err")"
ok "usage errors"
