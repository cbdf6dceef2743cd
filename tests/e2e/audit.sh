#!/bin/sh
# audit: someone else's picks judged one by one, a pick per red flag,
# with the exact verdicts, the text for a person and the exit status.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/ext4 fs/xfs fs/btrfs mm
printf 'line 1\nline 2\nline 3\n' >fs/ext4/inode.c
echo 'int xfs_log;' >fs/xfs/xfs_log.c
echo 'int btrfs;' >fs/btrfs/inode.c
echo 'int filemap;' >mm/filemap.c
git add .
test_commit fs/ext4/super.c 'int super;' 'Initial commit'
first=$(git rev-parse HEAD)
test_commit fs/ext4/bar.c 'int bar;' 'ext4: add bar'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

id() { git rev-parse "$1"; }
stable='Cc: stable@vger.kernel.org'

test_fix fs/ext4/bar.c 'int bar_fixed;' 'ext4: fix use-after-free in bar' \
	"Fixes: $(git rev-parse --short=12 HEAD~1) (\"ext4: add bar\")" "$stable"
ok_pick=$(id HEAD)
test_fix fs/ext4/super.c 'int super_fixed;' 'ext4: fix a leak in the super block' "$stable"
present=$(id HEAD)
test_fix fs/ext4/inode.c 'line 1
line 2 fixed
line 3' 'ext4: fix an overflow in the inode code' "$stable"
conflict=$(id HEAD)
test_commit fs/btrfs/inode.c 'int btrfs_shiny;' 'btrfs: add a shiny new interface'
feature=$(id HEAD)
test_fix fs/ext4/namei.c 'int namei;' 'ext4: fix a race in lookup' "$stable"
racy=$(id HEAD)
test_fix fs/ext4/namei.c 'int namei2;' 'ext4: fix the lookup race fix' \
	"Fixes: $(git rev-parse --short=12 HEAD) (\"ext4: fix a race in lookup\")" "$stable"
followup=$(id HEAD)
test_fix fs/ext4/xattr.c 'int xattr;' 'ext4: fix a crash in xattr' "$stable"
reverted=$(id HEAD)
test_tick
git revert --no-edit HEAD >/dev/null
test_commit fs/ext4/baz.c 'int baz;' 'ext4: add baz'
test_fix fs/ext4/baz.c 'int baz_fixed;' 'ext4: fix a crash in baz' \
	"Fixes: $(git rev-parse --short=12 HEAD) (\"ext4: add baz\")" "$stable"
nobug=$(id HEAD)
test_commit fs/ext4/quota.c 'int quota_helper;' 'ext4: factor out the quota helper'
helper=$(git rev-parse --short=12 HEAD)
test_fix fs/ext4/quota.c 'int quota_fixed;' 'ext4: fix quota accounting' \
	"$stable # 6.6.x: $helper: ext4: factor out the quota helper"
needs_prereq=$(id HEAD)
test_fix fs/xfs/xfs_log.c 'int xfs_log_fixed;' 'xfs: fix a hang in log recovery' \
	"Fixes: $(git rev-parse --short=12 "$first") (\"Initial commit\")"
optin=$(id HEAD)
test_fix fs/btrfs/inode.c 'int btrfs_fixed;' 'btrfs: fix a deadlock in the inode code' \
	'Cc: stable+noautosel@kernel.org # needs a manual backport'
vetoed=$(id HEAD)
test_fix fs/xfs/xfs_log.c 'int xfs_log_fixed2;' 'xfs: fix a use-after-free in the log' "$stable"
fresh=$(id HEAD)
test_fix fs/ext4/dir.c 'int dir;' 'ext4: fix a crash in readdir' "$stable"
rejected=$(id HEAD)
test_commit mm/filemap.c 'int filemap2;' 'mm: fix a leak in filemap'
unwatched=$(id HEAD)
lore=https://lore.kernel.org/r/20240101120000.1000
test_fix fs/ext4/mballoc.c 'int mb;' 'ext4: fix a leak in mballoc' "$stable" \
	"Link: $lore-1-dev@example.org"
mate1=$(id HEAD)
test_fix fs/ext4/extents.c 'int ext;' 'ext4: fix a race in extents' "$stable" \
	"Link: $lore-2-dev@example.org"
mate2=$(id HEAD)

git checkout -q linux-6.6.y
git cherry-pick -x "$present" >/dev/null
test_commit fs/ext4/inode.c 'line 1
line 2 changed in 6.6.y
line 3' 'ext4: tweak the inode code for 6.6.y'
git checkout -q master
"$STABLEPICK" mark --branch linux-6.6.y "$rejected" rejected -m "breaks the dir index" >/dev/null

cat >"$tmp/picks" <<PICKS
# AUTOSEL-like picks for 6.6, oldest first
$ok_pick ext4: fix use-after-free in bar
$present
$conflict
$feature
$racy
$reverted
$nobug
$needs_prereq
$optin
$vetoed
$fresh
$rejected
$unwatched

$ok_pick listed again
PICKS

set +e
"$STABLEPICK" audit --branch linux-6.6.y --picks "$tmp/picks" --format json >"$tmp/out"
status=$?
set -e
[ $status = 2 ] || fail "exit status $status, not 2 (a pick is rejected)"
jq -r '[.commit[0:12], .verdict, (.flags | map(.flag) | join(","))] | join(" ")' \
	"$tmp/out" >"$tmp/actual"
s() { echo "$1" | cut -c1-12; }
cat >"$tmp/expect" <<EXPECT
$(s $present) reject already-present
$(s $conflict) reject does-not-apply
$(s $reverted) reject reverted
$(s $nobug) reject bug-not-in-branch,does-not-apply,prerequisite-not-picked
$(s $needs_prereq) reject prerequisite-missing,does-not-apply,prerequisite-not-picked
$(s $vetoed) reject policy
$(s $rejected) reject rejected-before
$(s $ok_pick) reject duplicate-pick
$(s $feature) questionable not-a-fix
$(s $racy) questionable follow-up-missing
$(s $optin) questionable policy
$(s $fresh) questionable too-fresh
$(s $unwatched) questionable not-watched
$(s $ok_pick) ok 
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "one verdict per pick, one flag per red flag, worst first"

# The evidence names what a maintainer must check.
jq -r 'select(.commit == "'"$racy"'") | .flags[0].evidence' "$tmp/out" >"$tmp/actual"
echo "$(s $followup) (\"ext4: fix the lookup race fix\") fixes it, and is neither in the picks nor in the branch" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
jq -r 'select(.commit == "'"$conflict"'") | .flags[0].evidence' "$tmp/out" >"$tmp/actual"
echo "conflicts in fs/ext4/inode.c with linux-6.6.y and the picks before it in mainline order; no series of mainline commits the picks lack makes it apply (0 tried): a manual backport" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "evidence"

jq -r 'select(.commit == "'"$feature"'") | .flags[0].evidence' "$tmp/out" >"$tmp/actual"
grep -q '^score 0 below the threshold 12 of btrfs; no rule matched; not matched: cc-stable, fixes-tag, .*subject-fix, ' "$tmp/actual" ||
	fail "not-a-fix evidence: $(cat "$tmp/actual")"

# Taking the follow-up along clears the flag; all ok: exit 0.
printf '%s\n%s\n%s\n' "$ok_pick" "$racy" "$followup" |
	"$STABLEPICK" audit --branch linux-6.6.y --picks - >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
ok            $(s $ok_pick)  ext4: fix use-after-free in bar  (-:1)
ok            $(s $racy)  ext4: fix a race in lookup  (-:2)
ok            $(s $followup)  ext4: fix the lookup race fix  (-:3)
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "text, standard input, exit 0 when nothing is rejected"

# Pick mails: an AUTOSEL-like series as an mbox (CRLF line ends, one
# body in quoted-printable).  The upstream line names the commit, else
# its subject; the cover letter and a reply are not picks; a mail that
# names nothing known is reported with its index and Message-ID.
mail() {	# mail N SUBJECT BODY [QP]
	printf 'From autosel Mon Sep 17 00:00:00 2001\n'
	printf 'From: Sasha Levin <sashal@kernel.org>\n'
	printf 'Subject: %s\n' "$2"
	printf 'Message-ID: <2023-autosel-%s@kernel.org>\n' "$1"
	[ -z "${4:-}" ] || printf 'Content-Transfer-Encoding: quoted-printable\n'
	printf '\n%s\n\n' "$3"
}
{
	mail 0 '[PATCH AUTOSEL 6.6 0/4] ext4 fixes' 'A cover letter.'
	mail 1 '[PATCH AUTOSEL 6.6 1/4] ext4: fix use-after-free in bar' "From: A U Thor <author@example.com>

[ Upstream commit $ok_pick ]

Signed-off-by: Sasha Levin <sashal@kernel.org>"
	mail 2 '[PATCH AUTOSEL 6.6 2/4] ext4: fix a crash in xattr' "No upstream line: the subject tells.=
 Soft break above."  qp
	mail 3 '[PATCH AUTOSEL 6.6 3/4] ext4: fix nothing we know' 'Not in mainline.'
	mail 4 '[PATCH AUTOSEL 6.6 4/4] ext4: fix a race in lookup' "commit $racy upstream."
	mail 5 'Re: [PATCH AUTOSEL 6.6 2/4] ext4: fix a crash in xattr' 'Please drop.'
	# Reworded, no upstream line: only the change itself tells.
	git format-patch --stdout -1 "$nobug" |
		sed 's/^Subject: .*/Subject: [PATCH AUTOSEL 6.6 5\/5] ext4: baz, reworded/'
} | sed 's/$/\r/' >"$tmp/autosel.mbox"
set +e
"$STABLEPICK" audit --branch linux-6.6.y --mbox "$tmp/autosel.mbox" --format json \
	>"$tmp/out" 2>"$tmp/err"
status=$?
set -e
[ $status = 2 ] || fail "mbox: exit $status: $(cat "$tmp/err")"
jq -r 'if .commit then [.commit[0:12], .verdict, .input, .message_id, (.flags | map(.flag) | join(","))] | join(" ")
	else [.status, .number, .input, .message_id] | join(" ") end' \
	"$tmp/out" >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
$(s $reverted) reject $tmp/autosel.mbox#3 2023-autosel-2@kernel.org reverted
$(s $nobug) reject $tmp/autosel.mbox#7  bug-not-in-branch,does-not-apply,prerequisite-not-picked
$(s $racy) questionable $tmp/autosel.mbox#5 2023-autosel-4@kernel.org follow-up-missing
$(s $ok_pick) ok $tmp/autosel.mbox#2 2023-autosel-1@kernel.org 
unmatched 3/4 $tmp/autosel.mbox#4 2023-autosel-3@kernel.org
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
cat >"$tmp/expect" <<EXPECT
warning: $tmp/autosel.mbox:28: message 4 <2023-autosel-3@kernel.org> ("ext4: fix nothing we know"): no mainline commit found (no upstream line; no commit of v6.6..master has its change or, alone, its subject); skipped
EXPECT
test_cmp "$tmp/expect" "$tmp/err"
ok "pick mails: upstream line, patch-id, subject, cover letter and reply, an unknown mail"

# The reply to the thread: a mail a parser takes, threaded to the cover
# letter, to its sender, with the picks to drop and why.
STABLEPICK_NOW=1700000000 "$STABLEPICK" audit --branch linux-6.6.y \
	--mbox "$tmp/autosel.mbox" --format email >"$tmp/reply.eml" 2>/dev/null || true
python3 - "$tmp/reply.eml" "$(s $reverted)" >"$tmp/actual" <<'PY'
import email, email.policy, mailbox, sys
m = email.message_from_bytes(mailbox.mbox(sys.argv[1])[0].as_bytes(),
                             policy=email.policy.default)
assert not m.defects, m.defects
body = m.get_content()
drop = body.split('Please drop:')[1].split('Please check:')[0]
print(m['Subject'])
print(m['To'])
print(m['In-Reply-To'], m['References'])
print(' '.join(drop.split()).split(' by ')[0])
print(body.splitlines()[3])
PY
cat >"$tmp/expect" <<EXPECT
Re: [PATCH AUTOSEL 6.6 0/4] ext4 fixes
Sasha Levin <sashal@kernel.org>
<2023-autosel-0@kernel.org> <2023-autosel-0@kernel.org>
2/4 ext4: fix a crash in xattr: reject, reverted: reverted in mainline
These 4 picks for linux-6.6.y were judged against mainline v6.6..master
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "the reply to the pick thread"

# A stable-queue directory: "series" names the patches, each one mail
# as git format-patch writes it.
mkdir "$tmp/queue-6.6"
git format-patch -q -o "$tmp/fp" -1 "$conflict"
git format-patch -q -o "$tmp/fp" -1 "$feature"
for f in "$tmp"/fp/*.patch; do
	# As the stable queue has them: the upstream line first in the body.
	c=$(sed -n 's/^From \([0-9a-f]*\) .*/\1/p' "$f")
	awk -v c="$c" 'done == 0 && /^$/ { print; print "commit " c " upstream."; done = 1; next } { print }' \
		"$f" >"$tmp/queue-6.6/$(basename "$f")"
done
( cd "$tmp/queue-6.6" && { echo '# 6.6 queue'; ls *.patch; } >series )
"$STABLEPICK" audit --branch linux-6.6.y --queue "$tmp/queue-6.6" --format json |
	jq -r '[.commit[0:12], .verdict, (.input | sub(".*/"; "")), (.flags | map(.flag) | join(","))] | join(" ")' \
	>"$tmp/actual" || true
cat >"$tmp/expect" <<EXPECT
$(s $conflict) reject 0001-ext4-fix-an-overflow-in-the-inode-code.patch does-not-apply
$(s $feature) questionable 0001-btrfs-add-a-shiny-new-interface.patch not-a-fix
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
echo 'missing.patch' >>"$tmp/queue-6.6/series"
set +e
"$STABLEPICK" audit --branch linux-6.6.y --queue "$tmp/queue-6.6" >/dev/null 2>"$tmp/err"
status=$?
set -e
[ $status = 1 ] && grep -q "^error: $tmp/queue-6.6/series:4: cannot read the patch 'missing.patch'" "$tmp/err" ||
	fail "queue: $status $(cat "$tmp/err")"
ok "a stable-queue directory"

# A range already applied to the branch: judged against the branch as
# it was before it (so that what it applies is not "present").
git checkout -q linux-6.6.y
test_tick
git tag -a -m 'Linux 6.6.1' v6.6.1
git cherry-pick -x "$ok_pick" >/dev/null
git cherry-pick -x "$reverted" >/dev/null
test_commit fs/ext4/vendor.c 'int vendor;' 'VENDOR: a local change'
test_commit Makefile 'SUBLEVEL = 2' 'Linux 6.6.2'
test_tick
git tag -a -m 'Linux 6.6.2' v6.6.2
git checkout -q master
set +e
"$STABLEPICK" audit --branch linux-6.6.y --range v6.6.1..v6.6.2 --format json \
	>"$tmp/out" 2>"$tmp/err"
status=$?
set -e
[ $status = 2 ] || fail "range: exit $status: $(cat "$tmp/err")"
jq -r '[.commit[0:12], .verdict, (.flags | map(.flag) | join(","))] | join(" ")' \
	"$tmp/out" >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
$(s $reverted) reject reverted
$(s $ok_pick) ok 
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
grep -q '^warning: v6.6.1..v6.6.2: [0-9a-f]* ("VENDOR: a local change"): no mainline commit found' "$tmp/err" ||
	fail "range warning: $(cat "$tmp/err")"
ok "a range applied to the branch"

# Not an mbox: a clear error.
echo 'just some text' >"$tmp/not.mbox"
set +e
"$STABLEPICK" audit --branch linux-6.6.y --mbox "$tmp/not.mbox" >/dev/null 2>"$tmp/err"
status=$?
set -e
[ $status = 1 ] && grep -q "^error: '$tmp/not.mbox' is not an mbox" "$tmp/err" ||
	fail "not an mbox: $status $(cat "$tmp/err")"
ok "not an mbox"

# A patch of a posted series without its series-mate.
echo "$mate2" | "$STABLEPICK" audit --branch linux-6.6.y --picks - --format json |
	jq -r '.verdict + " " + (.flags | map(.flag + ": " + .evidence) | join(";"))' >"$tmp/actual"
echo "questionable series-mate-missing: patch 1 of its series, $(s $mate1) (\"ext4: fix a leak in mballoc\"), is neither in the picks nor in the branch" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
printf '%s\n%s\n' "$mate1" "$mate2" | "$STABLEPICK" audit --branch linux-6.6.y --picks - --format json |
	jq -r .verdict >"$tmp/actual"
printf 'ok\nok\n' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "series-mates"

# A bad line of --picks is named with file and line and skipped, as a
# bad mail of --mbox is: the other picks are judged, exit 2 (a pick
# could not be judged).  No pick at all: exit 1; usage errors 129.
printf '%s\nnot-a-commit\n' "$ok_pick" >"$tmp/bad"
set +e
"$STABLEPICK" audit --branch linux-6.6.y --picks "$tmp/bad" --format json \
	>"$tmp/out" 2>"$tmp/err"
status=$?
set -e
[ $status = 2 ] || fail "bad revision: exit $status"
grep -qx "warning: $tmp/bad:2: bad revision 'not-a-commit', skipped" "$tmp/err" ||
	fail "$(cat "$tmp/err")"
[ "$(jq -r .input "$tmp/out")" = "$tmp/bad:1" ] ||
	fail "the good pick was not judged: $(cat "$tmp/out")"
ok "a bad line of --picks is skipped with a warning"
printf '# nothing\n' >"$tmp/empty"
set +e
"$STABLEPICK" audit --branch linux-6.6.y --picks "$tmp/empty" >/dev/null 2>"$tmp/err"
status=$?
"$STABLEPICK" audit --branch linux-6.6.y >/dev/null 2>&1
usage=$?
set -e
[ $status = 1 ] && grep -qx "error: $tmp/empty: no picks" "$tmp/err" || fail "empty: $status $(cat "$tmp/err")"
[ $usage = 129 ] || fail "no --picks: exit $usage"
ok "bad input"
