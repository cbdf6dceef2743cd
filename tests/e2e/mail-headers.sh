#!/bin/sh
# Subjects and names from history that look like mail syntax: an RFC
# 2047 encoded word ("=?UTF-8?Q?=0D=0ABcc:...?="), a lone "=?", quotes
# and a backslash, non-ASCII, lines too long for a header.  Written raw,
# git am (and every mail client) would decode them, and the backport
# would not carry upstream's subject or author (a lone "=?" even makes
# git mailinfo fail).  They are encoded as git format-patch encodes
# them: the mbox series (and the queue's) goes through git am and git
# mailinfo unchanged, its From: and Subject: are format-patch's byte for
# byte, and a mail parser reads the headers of the series, the FAILED
# mail and the audit's email back as they were in history.
. "$TEST_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
git config user.name 'Stable "Picker", Esq. Jr'
git config user.email 'picker@example.org'
for f in a b c d e f g; do
	test_commit fs/ext4/$f.c "int $f;" "ext4: add $f"
done
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# hostile NAME F SUBJECT [TRAILER]: a fix of fs/ext4/F.c by NAME
# <F@example.org>, for stable.
hostile() {
	GIT_AUTHOR_NAME=$1 GIT_AUTHOR_EMAIL=$2@example.org \
	test_commit "fs/ext4/$2.c" "int $2 = 1;" "$3

${4:+$4
}Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>"
}
hostile 'A U Thor' a '=?UTF-8?Q?=0D=0ABcc:_x@evil?=' \
	'Acked-by: Jane Q. Doe <jqd@example.org>
Reviewed-by: =?UTF-8?Q?Ren=C3=A9?= <rene@example.org>'
hostile '=?UTF-8?Q?Eve?=' b '=?utf-8?b?DQpCY2M6IHhAZXZpbA==?= ext4: fix b'
hostile 'Jo "Q" O\Back' c 'ext4: a lone =? in a subject'
hostile 'Zoë Ünïcode' d 'ext4: fix café handling in readdir' \
	'From the start, readdir got it wrong.'
hostile 'Dr. Mallory (Esq.), Jr' e \
	'ext4: a plain subject so long that it does not fit on one line of a mail header'
hostile 'Ëlëonörë Ännä-Märïä Çhâtëâü-Dë-Lä-Tôür' f \
	'ext4: a subject so long that its encoded words =? fill more than one line of the header, café'
# One that conflicts with the branch: a FAILED mail to its author.
hostile 'Mal =?x?= Lory' g '=?UTF-8?Q?=0D=0ABcc:_y@evil?= ext4: fix g'
git checkout -q linux-6.6.y
test_commit fs/ext4/g.c 'int g = 2;' 'ext4: change g for 6.6.y'
git checkout -q master

export STABLEPICK_NOW=1701600000	# Sun, 3 Dec 2023
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/mbox"
grep '^From [0-9a-f]\{40\} ' "$tmp/mbox" | cut -d' ' -f2 >"$tmp/ids"
[ "$(wc -l <"$tmp/ids")" -eq 6 ] || fail "not 6 patches: $(cat "$tmp/ids")"

# am_check MBOX: git am takes all of MBOX onto the branch, and each
# backport has upstream's subject and author.
am_check() {
	rm -rf "$tmp/stable"
	git clone -q -b linux-6.6.y "$repo" "$tmp/stable"
	git -C "$tmp/stable" am -q "$1"
	: >"$tmp/expect"
	: >"$tmp/actual"
	for c in $(git -C "$tmp/stable" rev-list --reverse origin/linux-6.6.y..HEAD); do
		up=$(git -C "$tmp/stable" log -1 --format=%b "$c" |
			sed -n 's/^commit \([0-9a-f]*\) upstream\.$/\1/p')
		git log -1 --format='%H%n%s%n%an%n%ae' "$up" >>"$tmp/expect"
		printf '%s\n' "$up" >>"$tmp/actual"
		git -C "$tmp/stable" log -1 --format='%s%n%an%n%ae' "$c" >>"$tmp/actual"
	done
	test_cmp "$tmp/expect" "$tmp/actual"
	[ "$(wc -l <"$tmp/actual")" -eq 24 ] || fail "not 6 patches applied"
}
am_check "$tmp/mbox"
# A line of the message that starts with "From " but is no From_ line
# reaches the backport as it is (as git format-patch leaves it).
git -C "$tmp/stable" log --format=%B origin/linux-6.6.y..HEAD >"$tmp/bodies"
grep -qx 'From the start, readdir got it wrong.' "$tmp/bodies" ||
	fail "git am: the From line of a message: $(grep 'the start' "$tmp/bodies")"
ok "git am: subjects and authors as upstream has them"

# git mailinfo, each mail on its own.
mkdir "$tmp/split"
git mailsplit -o"$tmp/split" "$tmp/mbox" >/dev/null
: >"$tmp/expect"
: >"$tmp/actual"
n=0
for c in $(cat "$tmp/ids"); do
	n=$((n + 1))
	git log -1 --format='Author: %an%nEmail: %ae%nSubject: %s' "$c" >>"$tmp/expect"
	git mailinfo "$tmp/msg" "$tmp/patch" <"$tmp/split/000$n" |
		sed '/^Date: /d; /^$/d' >>"$tmp/actual"
done
test_cmp "$tmp/expect" "$tmp/actual"
ok "git mailinfo: Author, Email and Subject as upstream has them"

# The headers as git format-patch writes them, byte for byte.
# headers FILE: its From: and Subject:, with their continuation lines.
headers() {
	awk '/^$/ { exit } /^(From|Subject): / { on = 1; print; next }
	     on && /^[ \t]/ { print; next } { on = 0 }' "$1"
}
: >"$tmp/expect"
: >"$tmp/actual"
n=0
for c in $(cat "$tmp/ids"); do
	n=$((n + 1))
	git format-patch -1 --stdout --subject-prefix="PATCH 6.6 $n/6" "$c" \
		>"$tmp/fp"
	headers "$tmp/fp" >>"$tmp/expect"
	headers "$tmp/split/000$n" >>"$tmp/actual"
done
test_cmp "$tmp/expect" "$tmp/actual"
grep -q '^ =?UTF-8?q?' "$tmp/actual" || fail "no folded encoded word: the test is void"
ok "From: and Subject: are git format-patch's"

# A mail parser reads every header back as history has it: the series,
# the FAILED mail (To: its author), the audit summary (Cc: the config's);
# no line is longer than 78 columns, no Bcc: appears.  Display names
# through email.utils and email.header: the parser of policy.default
# puts a space between two encoded words of a display name (CPython
# gh-128110; git format-patch's own mails read the same).
git config stablepick.cc 'Zoë =?UTF-8?Q?x?= <zoe@example.org>, "Doe, Jane" <jane@example.org>'
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/mbox"
"$STABLEPICK" propose --branch linux-6.6.y --format failed >"$tmp/failed"
git rev-parse master~1 |
	"$STABLEPICK" audit --branch linux-6.6.y --picks - --format email \
	>"$tmp/audit" 2>/dev/null || true
cat "$tmp/mbox" "$tmp/failed" >"$tmp/all"
printf 'From stablepick Mon Sep 17 00:00:00 2001\n' >>"$tmp/all"
cat "$tmp/audit" >>"$tmp/all"
# Split as git am splits (Python's mailbox would split at any line that
# starts with "From ", which the patches leave as format-patch does).
mkdir "$tmp/msgs"
git mailsplit -o"$tmp/msgs" "$tmp/all" >/dev/null
python3 - "$tmp/msgs" >"$tmp/actual" <<'PY'
import email, email.header, email.policy, email.utils, os, sys
for f in sorted(os.listdir(sys.argv[1])):
    raw = open(os.path.join(sys.argv[1], f), 'rb').read()
    m = email.message_from_bytes(raw)
    head = raw.split(b'\n\n', 1)[0]
    long = [l for l in head.split(b'\n') if len(l) > 78]
    for h in ('From', 'To', 'Cc'):
        v = ''.join(m.get(h, '').splitlines())
        for name, addr in email.utils.getaddresses([v] if v else []):
            name = str(email.header.make_header(email.header.decode_header(name)))
            print('%s: %s' % (h, '%s | %s' % (name, addr) if name else addr))
    m = email.message_from_bytes(raw, policy=email.policy.default)
    print('Subject: %s' % m['Subject'])
    print('Bcc: %s, defects: %d, long lines: %d'
          % (m['Bcc'], len(m.defects), len(long)))
PY
# expect_patch N ID: what the parser reads of patch N/6, upstream ID.
expect_patch() {
	git log -1 --format='From: %an | %ae' "$2"
	echo 'To: linux-ext4@vger.kernel.org'
	{
		echo 'Zoë =?UTF-8?Q?x?= | zoe@example.org'
		echo 'Doe, Jane | jane@example.org'
		git log -1 --format='%an | %ae' "$2"
		git log -1 --format='%(trailers:key=Reviewed-by,key=Acked-by,valueonly)' "$2" |
			sed -n 's/^\(.*\) <\(.*\)>$/\1 | \2/p'
	} | sed 's/^/Cc: /'
	git log -1 --format="Subject: [PATCH 6.6 $1/6] %s" "$2"
	echo 'Bcc: None, defects: 0, long lines: 0'
}
n=0
for c in $(cat "$tmp/ids"); do
	n=$((n + 1))
	expect_patch $n "$c"
done >"$tmp/expect"
cat >>"$tmp/expect" <<'EXPECT'
From: Stable "Picker", Esq. Jr | picker@example.org
To: Mal =?x?= Lory | g@example.org
Cc: linux-ext4@vger.kernel.org
Cc: Zoë =?UTF-8?Q?x?= | zoe@example.org
Cc: Doe, Jane | jane@example.org
Subject: FAILED: patch "[PATCH] =?UTF-8?Q?=0D=0ABcc:_y@evil?= ext4: fix g" failed to apply to 6.6-stable tree
Bcc: None, defects: 0, long lines: 0
From: Stable "Picker", Esq. Jr | picker@example.org
Cc: Zoë =?UTF-8?Q?x?= | zoe@example.org
Cc: Doe, Jane | jane@example.org
Subject: the picks for linux-6.6.y
Bcc: None, defects: 0, long lines: 0
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "a mail parser reads the headers of every kind of mail as written"

# The queue of what was accepted: the same patch mails.
"$STABLEPICK" mark --branch linux-6.6.y $(cat "$tmp/ids") accepted >/dev/null
"$STABLEPICK" queue --branch linux-6.6.y >"$tmp/queue.mbox"
am_check "$tmp/queue.mbox"
ok "queue --format mbox: the same through git am"
