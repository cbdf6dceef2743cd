#!/bin/sh
# audit --mbox --format email: the replies a maintainer writes to a pick
# thread.  A cover letter and twelve patches (one matches no mainline
# commit, one is in the branch already), a NAK and an ack among the
# replies in the mbox itself, To and Cc lists with names to encode.
# Every reply must parse, be a reply-all to the mail it answers, be
# threaded to it, and cite the picks as the subjects number them.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
git config user.name 'A Maintainer'
git config user.email maint@example.com
test_commit fs/ext4/super.c 'int super;' 'Initial commit'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

stable='Cc: stable@vger.kernel.org'
n=1
while [ $n -le 11 ]; do
	test_fix "fs/ext4/f$n.c" "int f$n;" "ext4: fix a leak in part $n" "$stable"
	eval "c$n=\$(git rev-parse HEAD)"
	n=$((n + 1))
done
git checkout -q linux-6.6.y
git cherry-pick -x "$c3" >/dev/null
git checkout -q master

# The thread as lore's t.mbox has it.
cover=20231114-autosel-0@kernel.org
mid() { echo "20231114-autosel-$1@kernel.org"; }
headers() {	# headers ID SUBJECT IN-REPLY-TO REFERENCES [FROM]
	printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\n'
	printf 'From: %s\n' "${5:-Sasha Levin <sashal@kernel.org>}"
	printf 'To: stable@vger.kernel.org, Sasha Levin <sashal@kernel.org>\n'
	printf 'Cc: linux-ext4@vger.kernel.org,\n'
	printf ' "Wong, Darrick" <djwong@kernel.org>,\n'
	printf ' =?UTF-8?Q?Ren=C3=A9_Ts=27o?= <rene@example.org>, maint@example.com\n'
	printf 'Subject: %s\n' "$2"
	printf 'Date: Tue, 14 Nov 2023 22:13:20 +0000\n'
	printf 'Message-ID: <%s>\n' "$1"
	[ -z "$3" ] || printf 'In-Reply-To: <%s>\n' "$3"
	[ -z "$4" ] || printf 'References: %s\n' "$4"
	printf '\n'
}
{
	headers "$cover" '[PATCH 6.6 00/12] 6.6.1-rc1 review' '' ''
	printf 'This is the start of the review cycle.\n\n'
	n=1
	while [ $n -le 12 ]; do
		nn=$(printf %02d $n)
		headers "$(mid $n)" "[PATCH 6.6 $nn/12] ext4: fix a leak in part $n" \
			"$cover" "<$cover>"
		case $n in
		7)	printf 'From: Jan Kara <jack@suse.cz>\n\n' ;;
		12)	;;
		*)	printf 'From: A U Thor <author@example.com>\n\n' ;;
		esac
		[ $n = 12 ] || eval "printf '[ Upstream commit %s ]\n\n' \$c$n"
		printf 'Signed-off-by: Sasha Levin <sashal@kernel.org>\n\n'
		n=$((n + 1))
	done
	headers nak@kernel.org 'Re: [PATCH 6.6 05/12] ext4: fix a leak in part 5' \
		"$(mid 5)" "<$cover> <$(mid 5)>" 'Darrick J. Wong <djwong@kernel.org>'
	printf 'On Tue, Sasha Levin wrote:\n> [ Upstream commit %s ]\n\n' "$c5"
	printf 'This breaks the dir index on 6.6.\n\n'
	printf 'Nacked-by: Darrick J. Wong <djwong@kernel.org>\n\n'
	headers ack@suse.cz 'Re: [PATCH 6.6 02/12] ext4: fix a leak in part 2' \
		"$(mid 2)" "<$cover> <$(mid 2)>" 'Jan Kara <jack@suse.cz>'
	printf 'Acked-by: Jan Kara <jack@suse.cz>\n\n'
	# Quoted, a NAK is someone else's: part 6 stays fine.
	headers quote@suse.cz 'Re: [PATCH 6.6 06/12] ext4: fix a leak in part 6' \
		"$(mid 6)" "<$cover> <$(mid 6)>" 'Jan Kara <jack@suse.cz>'
	printf '> NAK\n> Nacked-by: Someone <someone@example.com>\n\nI disagree.\n\n'
} >"$tmp/thread.mbox"

set +e
STABLEPICK_NOW=1700000000 "$STABLEPICK" audit --branch linux-6.6.y \
	--mbox "$tmp/thread.mbox" --format email >"$tmp/replies" 2>"$tmp/err"
status=$?
set -e
[ $status = 2 ] || fail "exit $status, not 2: $(cat "$tmp/err")"
grep -q "^warning: $tmp/thread.mbox:[0-9]*: message 13 <$(mid 12)> (\"ext4: fix a leak in part 12\"): no mainline commit found" "$tmp/err" ||
	fail "the unmatched mail's warning: $(cat "$tmp/err")"

# Three replies: the summary, and one to each pick to drop (03/12 is
# in the branch, 05/12 NAKed); git mailsplit agrees.
mkdir "$tmp/split"
[ "$(git mailsplit -o"$tmp/split" "$tmp/replies")" = 3 ] ||
	fail "git mailsplit: not 3 mails"

python3 - "$tmp/replies" "$c3" "$c5" >"$tmp/actual" <<'PY'
import mailbox, email.policy, email.utils, sys
path, c3, c5 = sys.argv[1:]
mails = [email.message_from_bytes(m.as_bytes(), policy=email.policy.default)
         for m in mailbox.mbox(path)]
def addrs(m, h):
    return sorted(a for _, a in email.utils.getaddresses([str(m[h] or '')]))
def names(m, h):
    return sorted(n for n, _ in email.utils.getaddresses([str(m[h] or '')]) if n)
ids = set()
for m in mails:
    assert not m.defects, m.defects
    for h in ('From', 'To', 'Cc', 'Subject', 'Message-ID', 'In-Reply-To',
              'References', 'Date'):
        assert h in m, h
        assert not m[h].defects, (h, m[h].defects)
    ids.add(m['Message-ID'])
    print('Subject:', m['Subject'])
    print('From:', m['From'])
    print('To:', ' '.join(addrs(m, 'To')))
    print('Cc:', ' '.join(addrs(m, 'Cc')))
    print('In-Reply-To:', m['In-Reply-To'])
    print('References:', m['References'])
    print('---')
assert len(ids) == 3, ids
print('names:', ' | '.join(names(mails[0], 'Cc')))
body = mails[0].get_content()
drop = body.split('Please drop:')[1].split('Fine:')[0]
fine = body.split('Fine:')[1].split('Not judged:')[0]
notj = body.split('Not judged:')[1]
print('03 dropped:', '03/12 ext4: fix a leak in part 3: reject, already-present' in drop)
print('05 dropped:', '05/12 ext4: fix a leak in part 5: reject, rejected-by-review' in drop)
print('05 evidence:', 'djwong@kernel.org' in drop and '<nak@kernel.org>' in drop)
print('02 acked:', '02/12 ext4: fix a leak in part 2: ok, acked: Jan Kara' in fine)
print('06 fine:', '06/12 ext4: fix a leak in part 6: ok\n' in fine)
print('12 listed:', '12/12 ext4: fix a leak in part 12: no mainline commit found' in notj)
print('00 listed:', '00/12 6.6.1-rc1 review: the cover letter' in notj)
print('no #index:', '#' not in body)
nak = mails[2].get_content()
print(nak.splitlines()[0])
print(nak.splitlines()[1])
print('nak flag:', 'rejected-by-review: Darrick J. Wong <djwong@kernel.org> wrote "Nacked-by:' in nak.replace('\n    ', ' '))
PY
cat >"$tmp/expect" <<EOF
Subject: Re: [PATCH 6.6 00/12] 6.6.1-rc1 review
From: A Maintainer <maint@example.com>
To: sashal@kernel.org
Cc: djwong@kernel.org linux-ext4@vger.kernel.org rene@example.org stable@vger.kernel.org
In-Reply-To: <$cover>
References: <$cover>
---
Subject: Re: [PATCH 6.6 03/12] ext4: fix a leak in part 3
From: A Maintainer <maint@example.com>
To: sashal@kernel.org
Cc: author@example.com djwong@kernel.org linux-ext4@vger.kernel.org rene@example.org stable@vger.kernel.org
In-Reply-To: <$(mid 3)>
References: <$cover> <$(mid 3)>
---
Subject: Re: [PATCH 6.6 05/12] ext4: fix a leak in part 5
From: A Maintainer <maint@example.com>
To: sashal@kernel.org
Cc: author@example.com djwong@kernel.org linux-ext4@vger.kernel.org rene@example.org stable@vger.kernel.org
In-Reply-To: <$(mid 5)>
References: <$cover> <$(mid 5)>
---
names: René Ts'o | Wong, Darrick
03 dropped: True
05 dropped: True
05 evidence: True
02 acked: True
06 fine: True
12 listed: True
00 listed: True
no #index: True
On Tue, 14 Nov 2023 22:13:20 +0000, Sasha Levin wrote:
> [PATCH 6.6 05/12] ext4: fix a leak in part 5
nak flag: True
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "reply-all to the cover and to each pick to drop, threaded, cited NN/MM"

# The same input, the same Message-IDs; never a "Re: Re:".
STABLEPICK_NOW=1700000000 "$STABLEPICK" audit --branch linux-6.6.y \
	--mbox "$tmp/thread.mbox" --format email >"$tmp/again" 2>/dev/null || true
test_cmp "$tmp/replies" "$tmp/again"
! grep -q '^Subject: Re: Re:' "$tmp/replies" || fail "Re: Re:"
ok "deterministic"

# The author named in the body (07/12), else the commit's, is Cc'd.
{
	headers nak7@kernel.org 'Re: [PATCH 6.6 07/12] ext4: fix a leak in part 7' \
		"$(mid 7)" "<$cover> <$(mid 7)>" 'Darrick J. Wong <djwong@kernel.org>'
	printf 'NAK, this is not a fix for 6.6.\n\n'
} >>"$tmp/thread.mbox"
STABLEPICK_NOW=1700000000 "$STABLEPICK" audit --branch linux-6.6.y \
	--mbox "$tmp/thread.mbox" --format email >"$tmp/replies" 2>/dev/null || true
python3 - "$tmp/replies" >"$tmp/actual" <<'PY'
import mailbox, email.policy, email.utils, sys
for m in mailbox.mbox(sys.argv[1]):
    m = email.message_from_bytes(m.as_bytes(), policy=email.policy.default)
    if '07/12' in m['Subject']:
        print(' '.join(sorted(a for _, a in email.utils.getaddresses([str(m['Cc'])]))))
        print('"NAK, this is not a fix for 6.6."' in ' '.join(m.get_content().split()))
PY
cat >"$tmp/expect" <<EOF
djwong@kernel.org jack@suse.cz linux-ext4@vger.kernel.org rene@example.org stable@vger.kernel.org
True
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "a NAK as the first word of a line; the body's author Cc'd"

# Text and JSON name the unmatched mail; the picks' fields are kept.
"$STABLEPICK" audit --branch linux-6.6.y --mbox "$tmp/thread.mbox" \
	--format json >"$tmp/out" 2>/dev/null || true
jq -c 'select(.status) | [.status, .number, .subject, .message_id]' "$tmp/out" >"$tmp/actual"
echo "[\"unmatched\",\"12/12\",\"ext4: fix a leak in part 12\",\"$(mid 12)\"]" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
jq -r 'select(.commit) | [.number, .verdict, (.flags | map(.flag) | join(","))] | join(" ")' \
	"$tmp/out" | sort >"$tmp/actual"
cat >"$tmp/expect" <<EOF
01/12 ok 
02/12 ok acked
03/12 reject already-present
04/12 ok 
05/12 reject rejected-by-review
06/12 ok 
07/12 reject rejected-by-review
08/12 ok 
09/12 ok 
10/12 ok 
11/12 ok 
EOF
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" audit --branch linux-6.6.y --mbox "$tmp/thread.mbox" \
	>"$tmp/out" 2>/dev/null || true
grep -q "^unmatched     -             ext4: fix a leak in part 12  ($tmp/thread.mbox#13)\$" "$tmp/out" ||
	fail "text: $(cat "$tmp/out")"
ok "text and JSON list the unmatched mail"

# No cover letter, no N/M in the subjects: the reply goes to the first
# patch, and the picks are cited by their place, marked as such.
{
	headers p1@kernel.org '[PATCH 6.6] ext4: fix a leak in part 1' '' ''
	printf '[ Upstream commit %s ]\n\n' "$c1"
	headers p2@kernel.org '[PATCH 6.6] ext4: fix a leak in part 3' '' ''
	printf '[ Upstream commit %s ]\n\n' "$c3"
} >"$tmp/loose.mbox"
STABLEPICK_NOW=1700000000 "$STABLEPICK" audit --branch linux-6.6.y \
	--mbox "$tmp/loose.mbox" --format email >"$tmp/replies" 2>/dev/null || true
python3 - "$tmp/replies" >"$tmp/actual" <<'PY'
import mailbox, email.policy, sys
ms = [email.message_from_bytes(m.as_bytes(), policy=email.policy.default)
      for m in mailbox.mbox(sys.argv[1])]
print(len(ms), ms[0]['In-Reply-To'], ms[1]['In-Reply-To'])
body = ' '.join(ms[0].get_content().split())
print('2/2* ext4: fix a leak in part 3: reject' in body, 'has no N/M in its' in body)
PY
cat >"$tmp/expect" <<EOF
2 <p1@kernel.org> <p2@kernel.org>
True True
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "no cover, no N/M: the first patch, picks cited by place"

# What a reader of the list acts on, in the thread's own numbering: a
# pick listed twice cites the first by its N/M, not its place in the
# mbox (here in another order); not-a-fix says its score and the rules
# that matched, not the names of every rule that did not (text and
# JSON keep them).
test_commit fs/ext4/tidy.c 'int tidy;' 'ext4: tidy up the code'
tidy=$(git rev-parse HEAD)
{
	headers t0@kernel.org '[PATCH 6.6 0/3] 6.6.2-rc1 review' '' ''
	headers t3@kernel.org '[PATCH 6.6 3/3] ext4: fix a leak in part 1' \
		t0@kernel.org '<t0@kernel.org>'
	printf '[ Upstream commit %s ]\n\n' "$c1"
	headers t1@kernel.org '[PATCH 6.6 1/3] ext4: fix a leak in part 1' \
		t0@kernel.org '<t0@kernel.org>'
	printf '[ Upstream commit %s ]\n\n' "$c1"
	headers t2@kernel.org '[PATCH 6.6 2/3] ext4: tidy up the code' \
		t0@kernel.org '<t0@kernel.org>'
	printf '[ Upstream commit %s ]\n\n' "$tidy"
} >"$tmp/tidy.mbox"
STABLEPICK_NOW=1700000000 "$STABLEPICK" audit --branch linux-6.6.y \
	--mbox "$tmp/tidy.mbox" --format email >"$tmp/replies" 2>/dev/null || true
python3 - "$tmp/replies" >"$tmp/actual" <<'PY'
import mailbox, email.policy, sys
for m in mailbox.mbox(sys.argv[1]):
    m = email.message_from_bytes(m.as_bytes(), policy=email.policy.default)
    body = ' '.join(m.get_content().split())
    print(m['Subject'])
    print(' duplicate:', 'duplicate-pick: listed before, as 3/3' in body)
    print(' not-a-fix:', 'not-a-fix: score -6 below the threshold 10 of ext4; matched subject-cleanup -6' in body)
    print(' no rule names:', 'not matched' not in body and 'subject-fix' not in body)
    print(' no #index:', '#' not in body)
PY
cat >"$tmp/expect" <<EOF
Re: [PATCH 6.6 0/3] 6.6.2-rc1 review
 duplicate: True
 not-a-fix: True
 no rule names: True
 no #index: True
Re: [PATCH 6.6 1/3] ext4: fix a leak in part 1
 duplicate: True
 not-a-fix: False
 no rule names: True
 no #index: True
Re: [PATCH 6.6 2/3] ext4: tidy up the code
 duplicate: False
 not-a-fix: True
 no rule names: True
 no #index: True
EOF
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" audit --branch linux-6.6.y --mbox "$tmp/tidy.mbox" \
	--format json >"$tmp/out" 2>/dev/null || true
jq -r 'select(.commit) | [.number, (.flags[] | .flag, .evidence)] | join(" ")' \
	"$tmp/out" | sort >"$tmp/actual"
grep -q "^1/3 duplicate-pick listed before, as 3/3\$" "$tmp/actual" ||
	fail "JSON: $(cat "$tmp/actual")"
grep -q "^2/3 not-a-fix score -6 below the threshold .*; not matched: .*subject-fix" \
	"$tmp/actual" || fail "JSON: not-a-fix lost its unmatched rules: $(cat "$tmp/actual")"
ok "the reply cites picks by N/M and leaves out the rules that did not match"
