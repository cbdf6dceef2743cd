#!/bin/sh
# The weekly proposal as mail: the email, read by a standard mail parser,
# and the mbox series, applied by git am to the stable branch.  Subjects
# and names from history cannot break either.
. "$TEST_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
git config user.name 'Stable Picker'
git config user.email 'picker@example.org'
test_commit fs/ext4/inode.c 'line 1
line 2
line 3' 'ext4: add the inode code'
bug=$(git rev-parse --short=12 HEAD)
test_commit fs/btrfs/inode.c 'int btrfs0;' 'btrfs: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

test_commit fs/ext4/helper.c 'int helper;' 'ext4: factor out the helper'
helper=$(git rev-parse --short=12 HEAD)
helper_full=$(git rev-parse HEAD)
test_commit fs/ext4/inode.c 'line 1
line 2 fixed
line 3' "ext4: fix a crash in the inode code

Cc: stable@vger.kernel.org # 6.1.x: $helper: ext4: factor out the helper
Fixes: $bug (\"ext4: add the inode code\")
Signed-off-by: A U Thor <author@example.com>"
crash=$(git rev-parse --short=12 HEAD)
# Untrusted history: a carriage return and a fake header in the subject,
# non-ASCII in the subject and in the author's name.
printf 'int dir;\n' >fs/ext4/dir.c
git add fs/ext4/dir.c
test_tick
GIT_AUTHOR_NAME='Zoë Ünïcode' git commit -q -F - <<MSG
ext4: fix café handling in readdir${CR:-$(printf '\r')}Bcc: victim@example.org

From the very start readdir mishandled it.

Cc: stable@vger.kernel.org
Signed-off-by: Zoë Ünïcode <zoe@example.org>
MSG
cafe=$(git rev-parse HEAD)
test_commit fs/btrfs/inode.c 'int btrfs;' 'btrfs: fix a hang in the inode code

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
hang=$(git rev-parse HEAD)

git checkout -q linux-6.6.y
test_commit fs/ext4/inode.c 'line 1
line 2 changed in 6.6.y
line 3' 'ext4: tweak the inode code for 6.6.y'
git checkout -q master

export STABLEPICK_NOW=1701600000	# Sun, 3 Dec 2023, week 48
"$STABLEPICK" propose --branch linux-6.6.y --format email >"$tmp/email"
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/mbox"

# The email: a mail per list, as Python's email package reads them.
python3 - "$tmp/email" >"$tmp/actual" <<'PY'
import sys, email, mailbox, re
from email import policy
read = lambda f: email.message_from_binary_file(f, policy=policy.default)
for msg in mailbox.mbox(sys.argv[1], factory=read):
    for h in ('From', 'To', 'Cc', 'Subject', 'Date', 'Message-ID', 'Content-Type'):
        v = msg[h]
        if h == 'Message-ID':
            # The digest of what the mail lists: checked below.
            v = re.sub(r'\.[0-9a-f]{8}\.', '.DIGEST.', v)
        print('%s: %s' % (h, v))
    print('Bcc:', msg['Bcc'])
    print('defects:', len(msg.defects))
    body = msg.get_content()
    print('body lines:', len(body.splitlines()))
    for line in body.splitlines():
        if line.startswith('  ') and not line.startswith('      '):
            print(line)
PY
master=$(git rev-parse --short=12 master)
cat >"$tmp/expect" <<EXPECT
From: Stable Picker <picker@example.org>
To: linux-btrfs@vger.kernel.org
Cc: stable@vger.kernel.org
Subject: [PATCH 6.6 0/1] btrfs: 1 patch proposed for 6.6.y, week 48
Date: Sun, 03 Dec 2023 10:40:00 +0000
Message-ID: <stablepick.linux-6.6.y.$master.DIGEST.1-linux-btrfs@example.org>
Content-Type: text/plain; charset="UTF-8"
Bcc: None
defects: 0
body lines: 18
  $(echo "$hang" | cut -c1-12) btrfs: fix a hang in the inode code
From: Stable Picker <picker@example.org>
To: linux-ext4@vger.kernel.org
Cc: stable@vger.kernel.org
Subject: [PATCH 6.6 0/2] ext4: 2 patches proposed for 6.6.y, week 48
Date: Sun, 03 Dec 2023 10:40:00 +0000
Message-ID: <stablepick.linux-6.6.y.$master.DIGEST.2-linux-ext4@example.org>
Content-Type: text/plain; charset="UTF-8"
Bcc: None
defects: 0
body lines: 27
  $helper ext4: factor out the helper
  $(echo "$cafe" | cut -c1-12) ext4: fix café handling in readdir
  $crash ext4: fix a crash in the inode code
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "email headers and body"

# The series: git am takes it as it is on a clean checkout of the branch.
git clone -q -b linux-6.6.y "$repo" "$tmp/stable"
git -C "$tmp/stable" config user.name 'Stable Picker'
git -C "$tmp/stable" config user.email 'picker@example.org'
git -C "$tmp/stable" am -q "$tmp/mbox"
git -C "$tmp/stable" log --reverse --format='%an|%s|%b' origin/linux-6.6.y..HEAD |
	sed -n 's/^\(.*|.*\)|commit \([0-9a-f]*\) upstream\.$/\1|\2/p' >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
A U Thor|ext4: factor out the helper|$helper_full
Zoë Ünïcode|ext4: fix café handling in readdir|$cafe
A U Thor|btrfs: fix a hang in the inode code|$hang
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "git am applies the series, upstream lines first"

# Numbered within the mail of their list, threaded to it; the fix that
# conflicts is left out.
grep -E '^(Subject|In-Reply-To):' "$tmp/mbox" | sed 's/=?UTF-8?q?.*/(encoded)/' >"$tmp/actual"
sed -n 's/^Message-ID: //p' "$tmp/email" >"$tmp/ids"
btrfs_id=$(sed -n 1p "$tmp/ids")
ext4_id=$(sed -n 2p "$tmp/ids")
for id in "$btrfs_id" "$ext4_id"; do
	case $id in
	"<stablepick.linux-6.6.y.$(git rev-parse --short=12 master)."*"@example.org>") ;;
	*) fail "the email's Message-ID: $id" ;;
	esac
done
[ "$btrfs_id" != "$ext4_id" ] || fail "two mails, one Message-ID: $btrfs_id"
cat >"$tmp/expect" <<EXPECT
Subject: [PATCH 6.6 1/2] ext4: factor out the helper
In-Reply-To: $ext4_id
Subject: [PATCH 6.6 2/2] (encoded)
In-Reply-To: $ext4_id
Subject: [PATCH 6.6 1/1] btrfs: fix a hang in the inode code
In-Reply-To: $btrfs_id
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
tr -s ' \n' '  ' <"$tmp/email" |
	grep -q "does not apply to linux-6.6.y: conflicts in fs/ext4/inode.c" ||
	fail "the email does not list the manual backport"
ok "series threading and manual backports"

# --in-reply-to threads the series to a message of one's own.
"$STABLEPICK" propose --branch linux-6.6.y --format mbox --in-reply-to '<week48@example.org>' |
	grep -c '^In-Reply-To: <week48@example.org>$' >"$tmp/actual"
echo 3 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "--in-reply-to"

# Every mail its own Message-ID: one subsystem's mail is another mail.
"$STABLEPICK" propose --branch linux-6.6.y --subsystem ext4 --format email |
	sed -n 's/^Message-ID: //p' >"$tmp/actual"
[ -s "$tmp/actual" ] && [ "$(cat "$tmp/actual")" != "$id" ] ||
	fail "--subsystem ext4 has the id of the full mail: $(cat "$tmp/actual")"
"$STABLEPICK" propose --branch linux-6.6.y --subsystem ext4 --format mbox |
	sed -n 's/^In-Reply-To: //p' | sort -u >"$tmp/mbox-ids"
test_cmp "$tmp/actual" "$tmp/mbox-ids"
ok "a Message-ID per mail; the series threads to its own email"

# Each patch to its subsystem's list, with its author and reviewers.
python3 - "$tmp/mbox" >"$tmp/actual" <<'PY'
import mailbox, sys, email.utils
for m in mailbox.mbox(sys.argv[1]):
    print([a for _, a in email.utils.getaddresses(m.get_all('To', []))],
          [a for _, a in email.utils.getaddresses(m.get_all('Cc', []))])
PY
head -1 "$tmp/actual" | grep -q "^\['linux-ext4@vger.kernel.org'\] \['stable@vger.kernel.org', '" ||
	fail "patch 1's To/Cc: $(head -1 "$tmp/actual")"
tail -1 "$tmp/actual" | grep -q "^\['linux-btrfs@vger.kernel.org'\]" ||
	fail "patch 3's To: $(tail -1 "$tmp/actual")"
ok "To and Cc on every patch"

# The README's recipe, through git send-email itself (--dry-run: nothing
# leaves the machine): the mails and the patches split, one file each.
if git send-email --help >/dev/null 2>&1; then
	mkdir "$tmp/outgoing"
	git mailsplit -o"$tmp/outgoing" "$tmp/email" "$tmp/mbox" >/dev/null
	# --no-thread: each mail has the threading it needs (send-email
	# would make the second list's mail a reply to the first's).
	git send-email --dry-run --confirm=never --no-thread --suppress-cc=author \
		--suppress-cc=body --smtp-server=/bin/false "$tmp/outgoing" \
		>"$tmp/sent" 2>&1 || fail "git send-email: $(cat "$tmp/sent")"
	grep -c '^Result: OK$' "$tmp/sent" >"$tmp/actual"
	echo 5 >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/actual"
	# Who gets each mail: the lists, the Cc, the authors.
	sed -n 's/^Sendmail: [^ ]* -i //p' "$tmp/sent" >"$tmp/actual"
	cat >"$tmp/expect" <<EXPECT
linux-btrfs@vger.kernel.org stable@vger.kernel.org
linux-ext4@vger.kernel.org stable@vger.kernel.org
linux-ext4@vger.kernel.org stable@vger.kernel.org author@example.com
linux-ext4@vger.kernel.org stable@vger.kernel.org author@example.com
linux-btrfs@vger.kernel.org stable@vger.kernel.org author@example.com
EXPECT
	test_cmp "$tmp/expect" "$tmp/actual"
	sed -n 's/^In-Reply-To: //p' "$tmp/sent" >"$tmp/actual"
	printf '%s\n' "$ext4_id" "$ext4_id" "$btrfs_id" >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/actual"
	ok "git send-email --dry-run sends the email and the series as written"
else
	echo "# git send-email is not installed (Debian: git-email): not tried"
fi

# Nothing to propose: no mail, a note, exit status 0.
"$STABLEPICK" propose --branch linux-6.6.y --subsystem xfs --format email \
	>"$tmp/none" 2>"$tmp/err" || fail "propose with nothing to propose failed"
[ ! -s "$tmp/none" ] || fail "a mail with nothing to propose: $(head -3 "$tmp/none")"
grep -q "^nothing to propose for linux-6.6.y: no mail written$" "$tmp/err" ||
	fail "no note: $(cat "$tmp/err")"
ok "nothing to propose: no mail, a note on stderr, exit 0"

# stablepick.backportLine: the form of the line naming the mainline
# commit.  git cherry-pick -x's line goes last (after the trailers
# without a blank line, as git writes it); what git am makes of the
# series is then present by that line.
git config stablepick.backportLine cherry-pick
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/mbox-x"
git clone -q -b linux-6.6.y "$repo" "$tmp/stable-x"
git -C "$tmp/stable-x" config user.name 'Stable Picker'
git -C "$tmp/stable-x" config user.email 'picker@example.org'
git -C "$tmp/stable-x" am -q "$tmp/mbox-x"
for c in $(git -C "$tmp/stable-x" rev-list --reverse origin/linux-6.6.y..HEAD); do
	git -C "$tmp/stable-x" log -1 --format=%B "$c" | sed '/^$/d' | tail -n 1
done >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
(cherry picked from commit $helper_full)
(cherry picked from commit $cafe)
(cherry picked from commit $hang)
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
git -C "$tmp/stable-x" config stablepick.upstream origin/master
"$STABLEPICK" -C "$tmp/stable-x" propose --branch linux-6.6.y --format json |
	jq -r 'select(.commit == "'"$hang"'") | .verdict + " " + .evidence[0].kind' \
	>"$tmp/actual"
echo "present upstream-line" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git config stablepick.backportLine bracket
"$STABLEPICK" propose --branch linux-6.6.y --format mbox |
	grep -c '^\[ Upstream commit [0-9a-f]\{40\} \]$' >"$tmp/actual" || :
echo 3 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
# A message whose body begins like a header git am reads (From: is the
# author) has nothing before it in that form: it is indented.
test_commit fs/btrfs/super.c 'int super;' 'btrfs: fix a leak in mount

From: Mallory <mallory@evil.example>

Cc: stable@vger.kernel.org'
git config stablepick.backportLine cherry-pick
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/mbox-from"
git clone -q -b linux-6.6.y "$repo" "$tmp/stable-from"
git -C "$tmp/stable-from" am -q "$tmp/mbox-from"
git -C "$tmp/stable-from" log -1 --format='%an <%ae>|%s|%b' >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
A U Thor <author@example.com>|btrfs: fix a leak in mount| From: Mallory <mallory@evil.example>

Cc: stable@vger.kernel.org
(cherry picked from commit $(git rev-parse HEAD))

EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
git config stablepick.backportLine cherry-picked
status=0
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >/dev/null \
	2>"$tmp/err" || status=$?
[ "$status" = 1 ] || fail "a bad stablepick.backportLine: exit $status"
cat >"$tmp/expect" <<EXPECT
error: bad value 'cherry-picked' of stablepick.backportLine: expected upstream, bracket or cherry-pick
hint: did you mean 'cherry-pick'?
EXPECT
test_cmp "$tmp/expect" "$tmp/err"
git config --unset stablepick.backportLine
ok "stablepick.backportLine: the cherry-pick -x line, the bracket line, a bad value"
