#!/bin/sh
# Four weeks of the weekly loop on one fixture, each week's output
# asserted:
#   week 1  the proposal (email and series) and the xfs review thread;
#           a proposal deferred to week 3
#   week 2  the maintainers' ack and NAK arrive in the list's archive
#           (a public-inbox v2 inbox written with public-inbox-init and
#           public-inbox-mda; an mbox where they are not installed) and
#           acks records them; the new commit is proposed
#   week 3  the commit that waited for a release has soaked and the
#           deferral has ended: --since last lists both again, marked
#   week 4  what was accepted is the queue, and quilt push -a applies it
. "$TEST_SRCDIR/tests/lib.sh"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"

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
for f in alloc bmap log; do
	test_commit fs/xfs/$f.c "int $f;" "xfs: add the $f code"
done
alloc=$(git rev-parse HEAD~2)
bmap=$(git rev-parse HEAD~1)
for f in dir inode super extents; do
	test_commit fs/ext4/$f.c "int $f;" "ext4: add the $f code"
done
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

fix() {	# fix PATH SUBJECT TRAILER: a fix of PATH; prints its id
	test_fix "$1" "int fixed_$(basename "$1" .c);" "$2" "$3" >/dev/null
	git rev-parse HEAD
}
e1=$(fix fs/ext4/dir.c 'ext4: fix a crash in readdir' 'Cc: stable@vger.kernel.org')
x1=$(fix fs/xfs/alloc.c 'xfs: fix a crash in the allocator' \
	"Fixes: $(git rev-parse --short=12 "$alloc") (\"xfs: add the alloc code\")")
x2=$(fix fs/xfs/bmap.c 'xfs: fix a crash in the block map' \
	"Fixes: $(git rev-parse --short=12 "$bmap") (\"xfs: add the bmap code\")")
d1=$(fix fs/ext4/inode.c 'ext4: fix a crash in the inode code' 'Cc: stable@vger.kernel.org')
test_tick
git tag -a -m 'Linux 6.7' v6.7
# xfs takes a fix once a release has it: this one waits for 6.8.
w1=$(fix fs/xfs/log.c 'xfs: fix a crash in the log' 'Cc: stable@vger.kernel.org')
s() { git rev-parse --short=12 "$1"; }

# propose_json WEEK: the listed candidates of --since last, one a line:
# "subject verdict [why of newly_eligible]".
listed() {
	jq -r 'select(.listed_before != true) |
		select(.verdict != "present" and .verdict != "below-threshold") |
		[.subject, .verdict, (.newly_eligible // {} | .why // empty)] |
		join(" ")' "$1"
}

# --- week 1 -------------------------------------------------------------
STABLEPICK_NOW=1701648000	# Mon, 4 Dec 2023
export STABLEPICK_NOW
"$STABLEPICK" propose --branch linux-6.6.y --since last --format email >"$tmp/w1.eml"
"$STABLEPICK" propose --branch linux-6.6.y --since last --format mbox >"$tmp/w1.mbox"
"$STABLEPICK" propose --branch linux-6.6.y --since last --format review >"$tmp/w1-review.mbox"
"$STABLEPICK" propose --branch linux-6.6.y --since last --format json >"$tmp/w1.json"
listed "$tmp/w1.json" | sort >"$tmp/actual"
cat >"$tmp/expect" <<EOF
ext4: fix a crash in readdir proposed
ext4: fix a crash in the inode code proposed
xfs: fix a crash in the allocator needs-ack
xfs: fix a crash in the block map needs-ack
xfs: fix a crash in the log waiting
EOF
test_cmp "$tmp/expect" "$tmp/actual"
grep '^Subject:' "$tmp/w1.mbox" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
Subject: [PATCH 6.6 1/2] ext4: fix a crash in readdir
Subject: [PATCH 6.6 2/2] ext4: fix a crash in the inode code
EOF
test_cmp "$tmp/expect" "$tmp/actual"
id=$(sed -n 's/^Message-ID: //p' "$tmp/w1.eml")
[ "$(grep -c "^In-Reply-To: $id\$" "$tmp/w1.mbox")" = 2 ] ||
	fail "the series is not threaded to the week's email"
grep '^Subject:' "$tmp/w1-review.mbox" | sed 's/^Subject: //' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
[PATCH 6.6 0/2] xfs: candidates for 6.6.y, please ack
[PATCH 6.6 1/2] xfs: fix a crash in the allocator
[PATCH 6.6 2/2] xfs: fix a crash in the block map
EOF
test_cmp "$tmp/expect" "$tmp/actual"
# The list says: the inode fix can wait a week and more.
"$STABLEPICK" mark --branch linux-6.6.y "$d1" deferred --until 2023-12-15 \
	-m "wait for the next -rc" >/dev/null
ok "week 1: the proposal, the series, the review thread, a deferral"

# --- week 2 -------------------------------------------------------------
STABLEPICK_NOW=1702252800	# Mon, 11 Dec 2023
mkdir "$tmp/split"
git mailsplit -o"$tmp/split" "$tmp/w1-review.mbox" >/dev/null
idof() { sed -n 's/^Message-ID: <\(.*\)>$/\1/p' "$1"; }
cover=$(idof "$tmp/split/0001")
reply() {	# reply FILE FROM DATE ID PARENT TEXT
	printf 'From: %s\nTo: linux-xfs@vger.kernel.org\nSubject: Re: xfs\nDate: %s\nMessage-ID: <%s>\nIn-Reply-To: <%s>\nReferences: <%s> <%s>\n\n%s\n' \
		"$2" "$3" "$4" "$5" "$cover" "$5" "$6" >"$1"
}
reply "$tmp/ack" 'Rhea Castellano <rhea@example.org>' 'Tue, 5 Dec 2023 09:00:00 +0000' \
	ack@example.org "$(idof "$tmp/split/0002")" 'Acked-by: Rhea Castellano <rhea@example.org>'
reply "$tmp/nak" 'Kenji Watanabe <kenji@example.com>' 'Tue, 5 Dec 2023 10:00:00 +0000' \
	nak@example.com "$(idof "$tmp/split/0003")" 'NAK: the block map changed since 6.6.'
if command -v public-inbox-init >/dev/null 2>&1 &&
   command -v public-inbox-mda >/dev/null 2>&1; then
	PI_CONFIG=$tmp/pi-config
	export PI_CONFIG
	public-inbox-init -V2 xfs "$tmp/inbox" http://example.com/xfs \
		linux-xfs@vger.kernel.org >/dev/null 2>&1 || fail "public-inbox-init -V2"
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none
	for m in "$tmp"/split/* "$tmp/ack" "$tmp/nak"; do
		ORIGINAL_RECIPIENT=linux-xfs@vger.kernel.org \
			public-inbox-mda --no-precheck <"$m" || fail "public-inbox-mda $m"
	done
	archive=$tmp/inbox
	[ "$(git --git-dir="$tmp/inbox/git/0.git" rev-list --count HEAD)" = 5 ] ||
		fail "the inbox does not hold the 5 mails"
else
	echo "# public-inbox is not installed: the archive is an mbox"
	for m in "$tmp"/split/* "$tmp/ack" "$tmp/nak"; do
		echo "From mda Mon Sep 17 00:00:00 2001"
		cat "$m"
		echo
	done >"$tmp/archive.mbox"
	archive=$tmp/archive.mbox
fi
"$STABLEPICK" acks --branch linux-6.6.y --archive "$archive" | grep -v '^    ' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
accepted $(s "$x1") xfs: fix a crash in the allocator
rejected $(s "$x2") xfs: fix a crash in the block map
EOF
test_cmp "$tmp/expect" "$tmp/actual"
e2=$(fix fs/ext4/super.c 'ext4: fix a crash at mount' 'Cc: stable@vger.kernel.org')
"$STABLEPICK" propose --branch linux-6.6.y --since last --format json >"$tmp/w2.json"
listed "$tmp/w2.json" | sort >"$tmp/actual"
cat >"$tmp/expect" <<EOF
ext4: fix a crash at mount proposed
xfs: fix a crash in the allocator accepted ledger-changed
EOF
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" propose --branch linux-6.6.y --since last --format review \
	>"$tmp/w2-review.mbox" 2>/dev/null
[ ! -s "$tmp/w2-review.mbox" ] || fail "week 2 asks again for what was decided"
ok "week 2: the ack and the NAK recorded from the archive, the new fix proposed"

# --- week 3 -------------------------------------------------------------
STABLEPICK_NOW=1702857600	# Mon, 18 Dec 2023
test_tick
git tag -a -m 'Linux 6.8' v6.8
e3=$(fix fs/ext4/extents.c 'ext4: fix a crash in the extents code' 'Cc: stable@vger.kernel.org')
"$STABLEPICK" propose --branch linux-6.6.y --since last --format json >"$tmp/w3.json"
listed "$tmp/w3.json" | sort >"$tmp/actual"
cat >"$tmp/expect" <<EOF
ext4: fix a crash in the extents code proposed
ext4: fix a crash in the inode code proposed deferral-expired
xfs: fix a crash in the log proposed soaked
EOF
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" propose --branch linux-6.6.y --since last --format email >"$tmp/w3.eml"
[ "$(grep -c '^Newly eligible since the last run' "$tmp/w3.eml")" = 2 ] ||
	fail "week 3's email has no newly eligible sections: $(cat "$tmp/w3.eml")"
tr -s ' \n' '  ' <"$tmp/w3.eml" >"$tmp/w3.flat"
grep -q "$(s "$w1") xfs: fix a crash in the log score [^;]*; soaked (was waiting)" "$tmp/w3.flat" &&
	grep -q "$(s "$d1") ext4: fix a crash in the inode code score [^;]*; deferral-expired (was deferred)" "$tmp/w3.flat" ||
	fail "week 3's email does not say why they are back: $(cat "$tmp/w3.eml")"
"$STABLEPICK" propose --branch linux-6.6.y --since last --format mbox >"$tmp/w3.mbox"
grep '^Subject:' "$tmp/w3.mbox" | sed 's/^Subject: //' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
[PATCH 6.6 1/2] ext4: fix a crash in the inode code
[PATCH 6.6 1/1] xfs: fix a crash in the log
[PATCH 6.6 2/2] ext4: fix a crash in the extents code
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "week 3: the soaked and the deferred come back under --since last"

# --- week 4 -------------------------------------------------------------
STABLEPICK_NOW=1703462400	# Mon, 25 Dec 2023
"$STABLEPICK" mark --branch linux-6.6.y "$e1" "$d1" "$w1" "$e2" "$e3" accepted \
	-m "no objection on the list" >/dev/null
"$STABLEPICK" queue --branch linux-6.6.y --format quilt --output "$tmp/queue-6.6" \
	2>"$tmp/err"
cat >"$tmp/expect" <<EOF
ext4-fix-a-crash-in-readdir.patch
xfs-fix-a-crash-in-the-allocator.patch
ext4-fix-a-crash-in-the-inode-code.patch
xfs-fix-a-crash-in-the-log.patch
ext4-fix-a-crash-at-mount.patch
ext4-fix-a-crash-in-the-extents-code.patch
EOF
test_cmp "$tmp/expect" "$tmp/queue-6.6/series"
grep -q "$x2" "$tmp"/queue-6.6/*.patch && fail "the NAKed fix is queued"
git clone -q -b linux-6.6.y "$repo" "$tmp/stable"
if command -v quilt >/dev/null 2>&1; then
	(cd "$tmp/stable" && QUILT_PATCHES="$tmp/queue-6.6" quilt push -a -q) \
		>"$tmp/out" 2>&1 || fail "quilt push -a: $(cat "$tmp/out")"
	grep -q 'int fixed_log;' "$tmp/stable/fs/xfs/log.c" || fail "quilt applied nothing"
else
	echo "# quilt is not installed: the queue is applied with git apply"
	for p in $(cat "$tmp/queue-6.6/series"); do
		git -C "$tmp/stable" apply "$tmp/queue-6.6/$p" || fail "git apply $p"
	done
fi
ok "week 4: the accepted queue applies with quilt push -a"
