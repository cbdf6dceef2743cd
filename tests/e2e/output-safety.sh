#!/bin/sh
# Output safety: what commits and pick mails say cannot add a header to
# the mails stablepick writes, split its mbox into a forged message, slip
# a diff into what git am applies, or run as markup in the HTML report.
. "$TEST_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null || skip "python3 is needed to parse the mails"
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/ext4
echo 'int inode;' >fs/ext4/inode.c
git add .
test_commit fs/ext4/super.c 'int super;' 'ext4: the base'
base=$(git rev-parse --short=12 HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# A fix whose subject carries a CR and a header (a CR ends a line of a
# commit message, as git log shows it: the rest is body), whose author has
# quotes and a comma, and whose body holds a From_ line, mail headers
# and a forged diff.
cr=$(printf '\r')
printf '%s\n' "ext4: fix a crash${cr}Bcc: evil@example.com" '' \
	'From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001' \
	'From: Mallory <mallory@example.com>' \
	'Subject: [PATCH] forged' '' \
	'---' \
	'diff --git a/fs/ext4/evil.c b/fs/ext4/evil.c' \
	'new file mode 100644' \
	'--- /dev/null' \
	'+++ b/fs/ext4/evil.c' \
	'@@ -0,0 +1 @@' \
	'+int evil;' '' \
	"Fixes: $base (\"ext4: the base\")" \
	'Cc: stable@vger.kernel.org' \
	'Signed-off-by: A U Thor <author@example.com>' >"$tmp/msg"
echo 'int inode_fixed;' >fs/ext4/inode.c
git add fs/ext4/inode.c
test_tick
GIT_AUTHOR_NAME='Evil "Q" Mallory, Jr' git commit -q --cleanup=verbatim -F "$tmp/msg"
fix=$(git rev-parse HEAD)

STABLEPICK_NOW=1700000000
export STABLEPICK_NOW
git config user.name 'Stable Maintainer'
git config user.email stable@example.com

# --- the series: one message, its headers only ours ---
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/series.mbox"
"$STABLEPICK" propose --branch linux-6.6.y --format email >"$tmp/mail"
python3 - "$tmp/series.mbox" >"$tmp/actual" <<'EOF'
import email.header, mailbox, sys
for m in mailbox.mbox(sys.argv[1]):
    print(sorted(m.keys()))
    print(str(email.header.make_header(email.header.decode_header(m["Subject"]))))
    print(email.utils.parseaddr(m["From"]))
    print(email.utils.getaddresses([m["Cc"]]))
EOF
cat >"$tmp/expect" <<EOF
['Cc', 'Content-Transfer-Encoding', 'Content-Type', 'Date', 'From', 'In-Reply-To', 'MIME-Version', 'Message-ID', 'References', 'Subject', 'To']
[PATCH 6.6 1/1] ext4: fix a crash
('Evil "Q" Mallory, Jr', 'author@example.com')
[('', 'stable@vger.kernel.org'), ('Evil "Q" Mallory, Jr', 'author@example.com')]
EOF
test_cmp "$tmp/expect" "$tmp/actual"
mkdir "$tmp/split"
[ "$(git mailsplit -o"$tmp/split" "$tmp/series.mbox")" = 1 ] ||
	fail "git mailsplit finds more than one message"
ok "mbox: no header, no message forged"

# --- git am takes the real change only, and the message as text ---
git checkout -q linux-6.6.y
git am -q "$tmp/series.mbox"
[ "$(git rev-list --count v6.6..HEAD)" = 1 ] || fail "git am made more than one commit"
[ ! -e fs/ext4/evil.c ] || fail "the diff in the commit message was applied"
git diff --stat v6.6 HEAD >"$tmp/actual"
cat >"$tmp/expect" <<EOF
 fs/ext4/inode.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)
EOF
test_cmp "$tmp/expect" "$tmp/actual"
git log -1 --format=%B >"$tmp/actual"
grep -q '^ diff --git a/fs/ext4/evil.c b/fs/ext4/evil.c$' "$tmp/actual" ||
	fail "the message lost its text: $(cat "$tmp/actual")"
grep -q "^commit $fix upstream\.$" "$tmp/actual" || fail "no upstream line"
git checkout -q master
ok "git am: the real change only; the forged diff stays text"

# --- the proposal email and the audit reply ---
"$STABLEPICK" audit --branch linux-6.6.y --picks - --format email \
	--in-reply-to "<pick@example.com>${cr}Bcc: evil@example.com" \
	>"$tmp/reply" <<EOF || true
$fix
EOF
python3 - "$tmp/mail" "$tmp/reply" >"$tmp/actual" <<'EOF'
import email, sys
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        m = email.message_from_binary_file(f)
    print(sorted(m.keys()))
    print(m.get("In-Reply-To"))
EOF
cat >"$tmp/expect" <<EOF
['Cc', 'Content-Transfer-Encoding', 'Content-Type', 'Date', 'From', 'MIME-Version', 'Message-ID', 'Subject', 'To']
None
['Cc', 'Content-Transfer-Encoding', 'Content-Type', 'Date', 'From', 'In-Reply-To', 'MIME-Version', 'Message-ID', 'References', 'Subject']
<pick@example.com>
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "email and reply: a Message-ID from outside cannot add a header"

# --- HTML: everything from history escaped ---
git checkout -q -b vendor v6.6
test_commit fs/ext4/vendor.c 'int v;' '<script>alert("vendor")</script> & "quoted" <b>'
git checkout -q linux-6.6.y
test_commit fs/ext4/stable.c 'int s;' 'ext4: fix <img src=x onerror=alert(1)> & more'
git checkout -q master
"$STABLEPICK" diff --branch vendor --against linux-6.6.y --format html >"$tmp/report.html"
grep -q '&lt;script&gt;alert(&quot;vendor&quot;)&lt;/script&gt; &amp; &quot;quoted&quot; &lt;b&gt;' \
	"$tmp/report.html" || fail "the vendor subject is not escaped"
grep -q 'ext4: fix &lt;img src=x onerror=alert(1)&gt; &amp; more' "$tmp/report.html" ||
	fail "the stable subject is not escaped"
if grep -q '<script\|<img\|<b>' "$tmp/report.html"; then
	fail "markup from history in the report: $(grep -o '<script[^>]*>\|<img[^>]*>\|<b>' "$tmp/report.html")"
fi
ok "HTML: every subject escaped"

# --- a terminal: escape sequences from history are not passed on ---
command -v script >/dev/null || skip "script(1) is needed for a terminal"
git checkout -q master
esc=$(printf '\033')
test_commit fs/ext4/term.c 'int t;' "ext4: fix ${esc}]0;owned${esc}\\ a title${esc}[2J and a clear

Cc: stable@vger.kernel.org"
# Into a pipe or a file (a pager may pass escapes on), the text shows
# them as cat -v does; JSON keeps the bytes, escaped.
"$STABLEPICK" propose --branch linux-6.6.y >"$tmp/plain"
if grep -q "$esc" "$tmp/plain"; then
	fail "an escape sequence from a subject reached a file"
fi
grep -qF 'ext4: fix ^[]0;owned^[\ a title^[[2J and a clear' "$tmp/plain" ||
	fail "the subject is not shown as cat -v shows it: $(grep 'ext4: fix' "$tmp/plain")"
"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r 'select(.subject | startswith("ext4: fix ")) | .subject' >"$tmp/json-subject"
grep -q "$esc\\[2J" "$tmp/json-subject" || fail "JSON lost the subject's bytes"
# On a terminal (script(1) gives one), none either.
TERM=dumb script -qec "\"$STABLEPICK\" propose --branch linux-6.6.y" /dev/null \
	>"$tmp/tty"
if grep -q "$esc" "$tmp/tty"; then
	fail "an escape sequence from a subject reached the terminal"
fi
grep -qF 'ext4: fix ^[]0;owned^[\ a title^[[2J and a clear' "$tmp/tty" ||
	fail "the subject is not shown as cat -v shows it: $(grep 'ext4: fix' "$tmp/tty")"
ok "a terminal gets no escape sequence from a subject"
