#!/bin/sh
# A proposal that does not apply: its likely prerequisites (the mainline
# commits since the base that changed the lines it conflicts on) in
# explain, JSON and the email, and propose --format failed, the stable
# team's FAILED mail to its author, whose commands reproduce the conflict.
. "$TEST_SRCDIR/tests/lib.sh"
. "$TEST_SRCDIR/tests/e2e/archive-lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
git config user.name 'Stable Picker'
git config user.email 'picker@example.org'
seq 1 30 | sed 's/^/line /' >lines
mkdir -p fs/ext4 fs/btrfs
cp lines fs/ext4/inode.c
cp lines fs/btrfs/inode.c
git add fs
test_tick
git commit -q -m 'fs: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# change FILE FROM TO: replace the line FROM of FILE with TO.
change() {
	sed "s/^$2\$/$3/" "$1" >"$tmp/changed" && cat "$tmp/changed" >"$1"
	git add "$1"
}

# Mainline.  The fix changes lines 5 and 10 of ext4's file: line 5 as
# the rework left it (which the branch lacks: the likely prerequisite),
# line 10 as the hardening left it (which the branch has backported: no
# prerequisite); the tidy-up changed line 25, far from the fix.
change fs/ext4/inode.c 'line 5' 'line 5 reworked'
test_tick
git commit -q -m 'ext4: rework the inode lookup

Signed-off-by: Rita Rework <rita@example.org>'
rework=$(git rev-parse HEAD)
change fs/ext4/inode.c 'line 25' 'line 25 tidied'
test_tick
git commit -q -m 'ext4: tidy up the inode code

Signed-off-by: A U Thor <author@example.com>'
tidy=$(git rev-parse HEAD)
change fs/ext4/inode.c 'line 10' 'line 10 hardened'
test_tick
git commit -q -m 'ext4: harden the inode checks

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
harden=$(git rev-parse HEAD)
change fs/ext4/inode.c 'line 5 reworked' 'line 5 reworked and fixed'
change fs/ext4/inode.c 'line 10 hardened' 'line 10 hardened and fixed'
test_tick
GIT_AUTHOR_NAME='Fay Fixer' GIT_AUTHOR_EMAIL=fay@example.org \
git commit -q -m 'ext4: fix a crash in the inode lookup

The lookup crashes when the inode is gone.
From the start, it did.

Cc: stable@vger.kernel.org
Signed-off-by: Fay Fixer <fay@example.org>'
fix=$(git rev-parse HEAD)
# btrfs: the branch changed line 3 its own way; no mainline commit did.
change fs/btrfs/inode.c 'line 3' 'line 3 fixed'
test_tick
GIT_AUTHOR_NAME='Bea Btrfs' GIT_AUTHOR_EMAIL=bea@example.org \
git commit -q -m 'btrfs: fix a deadlock in the inode code

Cc: stable@vger.kernel.org
Signed-off-by: Bea Btrfs <bea@example.org>'
deadlock=$(git rev-parse HEAD)
# One that applies: not a FAILED mail.
change fs/btrfs/inode.c 'line 20' 'line 20 fixed'
test_tick
git commit -q -m 'btrfs: fix a crash in the inode code

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'

git checkout -q linux-6.6.y
change fs/ext4/inode.c 'line 10' 'line 10 hardened'
test_tick
git commit -q -m "ext4: harden the inode checks

commit $harden upstream.

Signed-off-by: A U Thor <author@example.com>"
change fs/btrfs/inode.c 'line 3' 'line 3 as 6.6.y has it'
test_tick
git commit -q -m 'btrfs: adjust the inode code for 6.6.y'
git checkout -q master

# The fix as posted, for In-Reply-To.
mkdir "$tmp/mail"
mail_patch "$tmp/mail/fix" "$fix" 'Fay Fixer <fay@example.org>' $test_tick \
	'[PATCH] ext4: fix a crash in the inode lookup' 'fix-1-fay@example.org'
mbox_add "$tmp/list.mbox" "$tmp/mail/fix"

export STABLEPICK_NOW=1701600000	# Sun, 3 Dec 2023
fix12=$(echo "$fix" | cut -c1-12)
rework12=$(echo "$rework" | cut -c1-12)

# explain: the rework, not the tidy-up (other lines) nor the hardening
# (backported), nor anything for btrfs (only the branch changed the line).
"$STABLEPICK" explain --branch linux-6.6.y $fix $deadlock >"$tmp/explain"
grep '^May need:' "$tmp/explain" >"$tmp/actual" || :
echo "May need:  $rework12 ext4: rework the inode lookup (below-threshold)" \
	>"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
grep -q "^Applies:   does not apply to linux-6.6.y: conflicts in fs/btrfs/inode.c" \
	"$tmp/explain" || fail "explain does not say the btrfs fix conflicts"
ok "explain names the likely prerequisite, and only it"

"$STABLEPICK" propose --branch linux-6.6.y --format json |
python3 -c '
import json, sys
for line in sys.stdin:
    o = json.loads(line)
    if o["applies"] is False:
        print(o["subject"], json.dumps(o["likely_prerequisites"]))
' >"$tmp/actual"
# Not looked for by propose's JSON (a blame per proposal costs too much
# on a long range): null, not an empty list.
cat >"$tmp/expect" <<EXPECT
ext4: fix a crash in the inode lookup null
btrfs: fix a deadlock in the inode code null
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "JSON: likely_prerequisites null where not looked for"

# The series carries the ext4 fix after the rework it needs (the series
# found, applywith.h), its mail says so; the btrfs fix needs a manual
# backport.
"$STABLEPICK" propose --branch linux-6.6.y --format mbox |
	tr -s ' \n' '  ' >"$tmp/flat"
grep -q "applies after $rework12 (\"ext4: rework the inode lookup\", below-threshold, score 0), in the series before it" \
	"$tmp/flat" || fail "the mbox does not carry the ext4 fix's series"
"$STABLEPICK" propose --branch linux-6.6.y --format email >"$tmp/email"
tr -s ' \n' '  ' <"$tmp/email" >"$tmp/flat"
grep -q "does not apply to linux-6.6.y: conflicts in fs/btrfs/inode.c; needs a manual backport: no mainline commit the branch lacks made the lines it changes" \
	"$tmp/flat" || fail "the email does not list the manual backport"
! grep -q 'may need:' "$tmp/email" ||
	fail "the email lists likely prerequisites (the series says more)"
ok "the email carries the series found, and lists the manual backport"

# The FAILED mails, with the stable tree's URL set.
git config stablepick.stableUrl "$repo"
"$STABLEPICK" propose --branch linux-6.6.y --format failed \
	--archive "$tmp/list.mbox" >"$tmp/failed"
mkdir "$tmp/split"
[ "$(git mailsplit -o"$tmp/split" "$tmp/failed")" = 2 ] ||
	fail "git mailsplit does not find two mails"
python3 - "$tmp/split" >"$tmp/actual" <<'PY'
import email, os, sys
from email import policy
d = sys.argv[1]
for name in sorted(os.listdir(d)):
    msg = email.message_from_binary_file(open(os.path.join(d, name), 'rb'),
                                         policy=policy.default)
    for h in ('From', 'To', 'Cc', 'Subject', 'Message-ID', 'In-Reply-To'):
        print('%s: %s' % (h, msg[h]))
    print('defects:', len(msg.defects))
    body = msg.get_content()
    for line in body.splitlines():
        if line.startswith(('git ', '#', 'fs/', 'It applies', 'No series',
                            'No mainline')) \
                or 'rework' in line:
            print(line)
    print('--')
PY
deadlock12=$(echo "$deadlock" | cut -c1-12)
cat >"$tmp/expect" <<EXPECT
From: Stable Picker <picker@example.org>
To: Fay Fixer <fay@example.org>
Cc: linux-ext4@vger.kernel.org, stable@vger.kernel.org
Subject: FAILED: patch "[PATCH] ext4: fix a crash in the inode lookup" failed to apply to 6.6-stable tree
Message-ID: <stablepick.failed.linux-6.6.y.$fix12@example.org>
In-Reply-To: <fix-1-fay@example.org>
defects: 0
git fetch $repo linux-6.6.y
git checkout FETCH_HEAD
git cherry-pick -x $fix
# <resolve conflicts, build, test, etc.>
git commit -s
git send-email --to '<stable@vger.kernel.org>' --in-reply-to stablepick.failed.linux-6.6.y.$fix12@example.org --subject-prefix 'PATCH 6.6.y' HEAD^..
fs/ext4/inode.c
$rework12 ext4: rework the inode lookup (below-threshold)
It applies after these mainline commits, picked in this order
$rework12 ext4: rework the inode lookup (below-threshold, score 0)
--
From: Stable Picker <picker@example.org>
To: Bea Btrfs <bea@example.org>
Cc: linux-btrfs@vger.kernel.org, stable@vger.kernel.org
Subject: FAILED: patch "[PATCH] btrfs: fix a deadlock in the inode code" failed to apply to 6.6-stable tree
Message-ID: <stablepick.failed.linux-6.6.y.$deadlock12@example.org>
In-Reply-To: None
defects: 0
git fetch $repo linux-6.6.y
git checkout FETCH_HEAD
git cherry-pick -x $deadlock
# <resolve conflicts, build, test, etc.>
git commit -s
git send-email --to '<stable@vger.kernel.org>' --in-reply-to stablepick.failed.linux-6.6.y.$deadlock12@example.org --subject-prefix 'PATCH 6.6.y' HEAD^..
fs/btrfs/inode.c
No mainline commit the branch lacks made the lines it changes: the branch
--
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
# The original commit, its "From " line quoted so that it splits nothing.
grep -q "^>From the start, it did.\$" "$tmp/failed" ||
	fail "a body line starting with From is not quoted"
ok "FAILED mails: one per proposal that does not apply, headers and body, the series"

# The commands, run as the author would in a mainline clone, reproduce
# the conflict.
git clone -q --branch master "$repo" "$tmp/author"
sed -n '/^git fetch/,/^git cherry-pick/p' "$tmp/split/0001" >"$tmp/commands"
[ "$(wc -l <"$tmp/commands")" = 3 ] || fail "no fetch, checkout and pick"
if (cd "$tmp/author" && . "$tmp/commands") >"$tmp/out" 2>&1; then
	fail "the printed cherry-pick applies"
fi
git -C "$tmp/author" diff --name-only --diff-filter=U >"$tmp/actual"
echo fs/ext4/inode.c >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "the printed commands reproduce the conflict"

# Where to fetch from: the branch itself without a URL; the remote's
# URL for a remote-tracking branch.
git config --unset stablepick.stableUrl
"$STABLEPICK" propose --branch linux-6.6.y --format failed |
	grep '^git checkout' >"$tmp/actual"
printf 'git checkout linux-6.6.y\ngit checkout linux-6.6.y\n' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git -C "$tmp/author" cherry-pick --abort
git -C "$tmp/author" config user.email picker@example.org
"$STABLEPICK" -C "$tmp/author" propose --branch origin/linux-6.6.y \
	--format failed | grep -m1 '^git fetch' >"$tmp/actual"
echo "git fetch $repo linux-6.6.y" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "the fetch URL: the setting, else the remote's, else none"

# stablepick.cc: the Cc, and its first address the backport's To.
git config stablepick.cc 'Stable Team <stable@example.org>, me@example.org'
"$STABLEPICK" propose --branch linux-6.6.y --format failed >"$tmp/failed"
python3 -c '
import email, sys
from email import policy
msg = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=policy.default)
print("Cc:", msg["Cc"])' "$tmp/failed" >"$tmp/actual"
grep -m1 -e '^git send-email' "$tmp/failed" | cut -d' ' -f3-4 >>"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
Cc: linux-ext4@vger.kernel.org, Stable Team <stable@example.org>, me@example.org
--to '<stable@example.org>'
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
git config --unset stablepick.cc
ok "stablepick.cc: the Cc, and where the backport goes"

# Nothing fails to apply: nothing written, a note, exit 0.
"$STABLEPICK" propose --branch linux-6.6.y --format failed \
	--range "$deadlock..master" >"$tmp/out" 2>"$tmp/err"
[ ! -s "$tmp/out" ] || fail "something was written with nothing failed"
grep -q "nothing failed to apply to linux-6.6.y" "$tmp/err" ||
	fail "no note on stderr"
ok "nothing failed: no mail, exit 0"
