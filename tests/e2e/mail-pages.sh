#!/bin/sh
# The proposal mails a list takes: one mail per set of lists (ext4 and
# jbd2 share linux-ext4, btrfs has its own), each under
# stablepick.mailSizeCap, the rest paged (the oldest first) and listed
# by the next --since last run; --limit caps how many are listed.
. "$TEST_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
git config user.name 'Stable Picker'
git config user.email 'picker@example.org'
for f in a b c d e f g h; do
	test_commit fs/ext4/$f.c "int $f;" "ext4: add $f"
	test_commit fs/jbd2/$f.c "int $f;" "jbd2: add $f"
	test_commit fs/btrfs/$f.c "int $f;" "btrfs: add $f"
done
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# fix DIR F: a fix for stable of fs/DIR/F.c; its id in $tmp/order.
fix() {
	test_commit "fs/$1/$2.c" "int $2 = 1;" "$1: fix a crash in $2

A longer explanation of the crash in $2, so that the reasons and the
message make the mails of some size.

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>"
	git rev-parse --short=12 HEAD >>"$tmp/order"
}
: >"$tmp/order"
fix ext4 a
fix btrfs a
fix jbd2 a
fix ext4 b
fix btrfs b
fix ext4 c
fix jbd2 b
fix btrfs c
fix ext4 d

export STABLEPICK_NOW=1701600000	# Sun, 3 Dec 2023, week 48

# mails FILE: each mail of FILE (an mbox), as Python's email package
# reads it: its size in bytes as written (without the mbox's From_
# line), To, Subject, the commits it lists and what it says is left.
cat >"$tmp/mails.py" <<'PY'
import sys, re, email
from email import policy
data = open(sys.argv[1], 'rb').read()
sep = b'From stablepick Mon Sep 17 00:00:00 2001\n'
assert data.startswith(sep), data[:80]
for raw in data.split(sep)[1:]:
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert not msg.defects, msg.defects
    body = msg.get_content()
    listed = re.findall(r'^  ([0-9a-f]{12}) ', body, re.M)
    more = re.findall(r'^([0-9]+) more next week', body, re.M)
    print(len(raw), msg['To'], '|', msg['Subject'], '|', ' '.join(listed),
          '|', more[0] if more else 0)
PY
mails() {
	python3 "$tmp/mails.py" "$1"
}

# One mail per list, each listing its own subsystems' fixes, the
# Subject saying what it holds.
"$STABLEPICK" propose --branch linux-6.6.y --format email >"$tmp/all.eml"
mails "$tmp/all.eml" | cut -d' ' -f2- >"$tmp/actual"
o() { sed -n "$1p" "$tmp/order"; }
cat >"$tmp/expect" <<EXPECT
linux-btrfs@vger.kernel.org | [PATCH 6.6 0/3] btrfs: 3 patches proposed for 6.6.y, week 48 | $(o 2) $(o 5) $(o 8) | 0
linux-ext4@vger.kernel.org | [PATCH 6.6 0/6] ext4, jbd2: 6 patches proposed for 6.6.y, week 48 | $(o 1) $(o 4) $(o 6) $(o 9) $(o 3) $(o 7) | 0
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/all.mbox"
grep '^Subject:\|^In-Reply-To:' "$tmp/all.mbox" | sed 's/^In-Reply-To: <.*\.\([0-9]-[a-z0-9-]*\)@.*/  to \1/' >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
Subject: [PATCH 6.6 1/6] ext4: fix a crash in a
  to 2-linux-ext4
Subject: [PATCH 6.6 1/3] btrfs: fix a crash in a
  to 1-linux-btrfs
Subject: [PATCH 6.6 2/6] jbd2: fix a crash in a
  to 2-linux-ext4
Subject: [PATCH 6.6 3/6] ext4: fix a crash in b
  to 2-linux-ext4
Subject: [PATCH 6.6 2/3] btrfs: fix a crash in b
  to 1-linux-btrfs
Subject: [PATCH 6.6 4/6] ext4: fix a crash in c
  to 2-linux-ext4
Subject: [PATCH 6.6 5/6] jbd2: fix a crash in b
  to 2-linux-ext4
Subject: [PATCH 6.6 3/3] btrfs: fix a crash in c
  to 1-linux-btrfs
Subject: [PATCH 6.6 6/6] ext4: fix a crash in d
  to 2-linux-ext4
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "a mail per list, its patches numbered in it and threaded to it"

# --in-reply-to: every patch to that message; the mails keep an id each.
"$STABLEPICK" propose --branch linux-6.6.y --format mbox \
	--in-reply-to '<week48@example.org>' | sed -n 's/^In-Reply-To: //p' |
	sort | uniq -c | tr -s ' ' >"$tmp/actual"
echo ' 9 <week48@example.org>' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" propose --branch linux-6.6.y --format email \
	--in-reply-to '<week48@example.org>' | sed -n 's/^Message-ID: //p' |
	sort -u | wc -l | tr -d ' ' >"$tmp/actual"
echo 2 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "--in-reply-to threads every patch to it"

# A cap the ext4 mail does not fit under: the oldest go, each mail
# stays under the cap, the rest are counted.
cap=1650
git config stablepick.mailSizeCap $cap
"$STABLEPICK" propose --branch linux-6.6.y --since last --format email >"$tmp/w1.eml"
"$STABLEPICK" propose --branch linux-6.6.y --since last --format mbox >"$tmp/w1.mbox"
# A run that pages nothing, at the same tip, forgets nothing of it.
"$STABLEPICK" propose --branch linux-6.6.y --since last --format json >/dev/null
mails "$tmp/w1.eml" >"$tmp/w1"
while read -r size rest; do
	[ "$size" -le $cap ] || fail "a mail of $size bytes, over $cap: $rest"
done <"$tmp/w1"
[ "$(wc -l <"$tmp/w1")" = 2 ] || fail "not two mails: $(cat "$tmp/w1")"
# The ext4 mail: a prefix of its fixes in mainline order, the rest
# counted; what it lists and what is left make all six.
ext4=$(sed -n 2p "$tmp/w1" | cut -d'|' -f3)
left=$(sed -n 2p "$tmp/w1" | cut -d'|' -f4 | tr -d ' ')
n=$(echo $ext4 | wc -w)
[ "$left" -gt 0 ] && [ $((n + left)) = 6 ] ||
	fail "the ext4 mail lists $n and leaves $left: $(cat "$tmp/w1")"
# (The mail lists them by subsystem: compared as sets.)
want=$(printf '%s\n' "$(o 1)" "$(o 3)" "$(o 4)" "$(o 6)" "$(o 7)" "$(o 9)" |
	head -n "$n" | sort | xargs)
got=$(printf '%s\n' $ext4 | sort | xargs)
[ "$want" = "$got" ] || fail "not the oldest $n: $got, not $want"
sed -n 2p "$tmp/w1" | grep -q "| \[PATCH 6.6 0/$n\] ext4, jbd2: $n patches proposed for 6.6.y, week 48 |" ||
	fail "the Subject does not say what the mail holds: $(sed -n 2p "$tmp/w1")"
grep -q "^$left more next week: a mail holds no more than the lists take," "$tmp/w1.eml" ||
	fail "no 'more next week' line"
# The mbox: the patches of what the mails list, no more.
grep '^From [0-9a-f]\{40\} ' "$tmp/w1.mbox" | cut -c6-17 | sort >"$tmp/actual"
cut -d'|' -f3 "$tmp/w1" | xargs -n1 | sort >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git clone -q -b linux-6.6.y "$repo" "$tmp/stable"
git -C "$tmp/stable" -c user.name=T -c user.email=t@example.org am -q "$tmp/w1.mbox" ||
	fail "git am does not take the paged mbox"
ok "stablepick.mailSizeCap: each mail under it, the oldest listed, the rest counted"

# The next weeks (a newer mainline tip each): what was left is listed
# then, the oldest first, until none is left; nothing twice.  The mbox
# of each week carries what its email lists.
cp "$tmp/w1" "$tmp/weeks"
week=1
while grep -q 'more next week' "$tmp/w$week.eml"; do
	[ $week -lt 6 ] || fail "still more after $week weeks"
	week=$((week + 1))
	test_commit fs/btrfs/i$week.c "int i$week;" "btrfs: add i$week"
	"$STABLEPICK" propose --branch linux-6.6.y --since last --format email >"$tmp/w$week.eml"
	"$STABLEPICK" propose --branch linux-6.6.y --since last --format mbox >"$tmp/w$week.mbox"
	mails "$tmp/w$week.eml" >"$tmp/w$week"
	while read -r size rest; do
		[ "$size" -le $cap ] || fail "week $week: a mail of $size bytes: $rest"
	done <"$tmp/w$week"
	grep '^From [0-9a-f]\{40\} ' "$tmp/w$week.mbox" | cut -c6-17 | sort >"$tmp/actual"
	cut -d'|' -f3 "$tmp/w$week" | xargs -n1 | sort >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/actual"
	cat "$tmp/w$week" >>"$tmp/weeks"
done
[ $week -gt 2 ] || fail "all of it in the second week: the cap is too large"
cut -d'|' -f3 "$tmp/weeks" | xargs -n1 | sort >"$tmp/actual"
sort "$tmp/order" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
# Week 2's ext4 mail: the oldest of what week 1 left.
left=$(cut -d'|' -f3 "$tmp/w1" | xargs -n1 | grep -v -x -F -f - "$tmp/order" | xargs)
ext4=$(grep 'linux-ext4' "$tmp/w2" | cut -d'|' -f3 | xargs -n1 | sort | xargs)
n=$(echo $ext4 | wc -w)
want=$(printf '%s\n' $left | head -n "$n" | sort | xargs)
[ "$ext4" = "$want" ] || fail "week 2 lists $ext4, not the oldest left: $want"
ok "what was left comes in the next weeks, the oldest first"

# --limit: no more than N in all, the oldest.
git config --unset stablepick.mailSizeCap
"$STABLEPICK" propose --branch linux-6.6.y --format email --limit 2 >"$tmp/l.eml"
mails "$tmp/l.eml" | cut -d'|' -f3 | xargs -n1 | sort >"$tmp/actual"
head -n 2 "$tmp/order" | sort >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
status=0
"$STABLEPICK" propose --branch linux-6.6.y --limit 2 >/dev/null 2>"$tmp/err" ||
	status=$?
[ "$status" = 129 ] || fail "--limit with the text: exit $status"
grep -q "^error: --limit takes --format email or mbox$" "$tmp/err" ||
	fail "--limit with the text: $(cat "$tmp/err")"
ok "--limit"

git config stablepick.mailSizeCap 100k
status=0
"$STABLEPICK" propose --branch linux-6.6.y --format email >/dev/null \
	2>"$tmp/err" || status=$?
[ "$status" = 1 ] || fail "a bad stablepick.mailSizeCap: exit $status"
echo "error: bad value '100k' of stablepick.mailSizeCap: expected a number from 0 to 1000000000" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/err"
git config --unset stablepick.mailSizeCap
ok "a bad stablepick.mailSizeCap"

# git send-email takes the mails and the patches as they are split.
if git send-email --help >/dev/null 2>&1; then
	mkdir "$tmp/outgoing"
	git mailsplit -o"$tmp/outgoing" "$tmp/all.eml" "$tmp/all.mbox" >/dev/null
	git send-email --dry-run --confirm=never --no-thread \
		--suppress-cc=author --suppress-cc=body \
		--smtp-server=/bin/false "$tmp/outgoing" >"$tmp/sent" 2>&1 ||
		fail "git send-email: $(cat "$tmp/sent")"
	[ "$(grep -c '^Result: OK$' "$tmp/sent")" = 11 ] ||
		fail "git send-email: $(cat "$tmp/sent")"
	sed -n 's/^Sendmail: [^ ]* -i //p' "$tmp/sent" | head -n 2 >"$tmp/actual"
	cat >"$tmp/expect" <<'EXPECT'
linux-btrfs@vger.kernel.org stable@vger.kernel.org
linux-ext4@vger.kernel.org stable@vger.kernel.org
EXPECT
	test_cmp "$tmp/expect" "$tmp/actual"
	ok "git send-email --dry-run sends each list its mail"
else
	echo "# git send-email is not installed (Debian: git-email): not tried"
fi
