#!/bin/sh
# The patches of the mails are made from the trial picks: when those
# come from the trial cache (a warm run, the kept answers set aside),
# their trees are made again by replaying what the cache recorded, for
# the patches the mail carries alone (the review mails: the needs-ack
# commits, not the proposals before them on the same files).  Every
# mail is byte for byte that of a run without the cache.
. "$TEST_SRCDIR/tests/lib.sh"

STABLEPICK_NOW=1702900000
export STABLEPICK_NOW
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/ext4 fs/xfs
printf 'int a;\nint b;\nint c;\n' >fs/ext4/a.c
printf 'int x;\nint y;\nint z;\n' >fs/xfs/d.c
printf 'int e;\nint e_a;\nint e_b;\nint e_c;\nint e_d;\n' >fs/xfs/e.c
git add .
test_commit fs/xfs/f.c 'int f;' 'xfs: add f'
f=$(git rev-parse --short=12 HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

change() {	# change FILE LINE TEXT SUBJECT [TRAILER...]
	local file=$1 line=$2 text=$3 subject=$4 trailers= t
	shift 4
	for t in "$@"; do trailers="$trailers$t
"; done
	sed -i "${line}s/.*/$text/" "$file"
	git add "$file"
	test_tick
	git commit -q -m "$subject

${trailers}Signed-off-by: A U Thor <author@example.com>"
}
# Proposals (Cc: stable) and needs-ack xfs commits (xfs is opt-in)
# taking turns on the same files, a rename among them.
stable='Cc: stable@vger.kernel.org'
fixes="Fixes: $f (\"xfs: add f\")"
change fs/xfs/d.c 1 'int x1;' 'xfs: fix a leak in d' "$stable"
change fs/xfs/d.c 2 'int y1;' 'xfs: fix a crash in d' "$fixes"
change fs/ext4/a.c 1 'int a1;' 'ext4: fix a race in a' "$stable"
change fs/xfs/d.c 3 'int z1;' 'xfs: fix a hang in d' "$stable"
git mv fs/xfs/e.c fs/xfs/e2.c
change fs/xfs/e2.c 1 'int e1;' 'xfs: fix a deadlock in e' "$fixes"
change fs/xfs/d.c 1 'int x2;' 'xfs: fix a double free in d' "$fixes"
change fs/ext4/a.c 2 'int b1;' 'ext4: fix a leak in a' "$stable"
test_tick
git tag -a -m 'Linux 6.7' v6.7

sp() {	# sp FORMAT: the kept answers set aside, the trace in $tmp/err
	rm -rf .git/stablepick/memo
	STABLEPICK_TRACE=1 "$STABLEPICK" propose --branch linux-6.6.y \
		--format "$1" 2>"$tmp/err"
}
for f in mbox review; do
	"$STABLEPICK" --no-cache propose --branch linux-6.6.y --format $f \
		>"$tmp/expect.$f"
	grep -q '^diff --git' "$tmp/expect.$f" || fail "$f: no patch"
done
grep -q '^Subject: \[PATCH 6.6 1/4\] xfs: fix a crash in d$' "$tmp/expect.review" ||
	fail "the review mails are not those of the four needs-ack commits"
grep -q '^rename from fs/xfs/e.c$' "$tmp/expect.review" ||
	fail "the review mails have no rename"
for f in mbox review mbox review; do
	sp $f >"$tmp/actual"
	test_cmp "$tmp/expect.$f" "$tmp/actual"
done
grep -q '^trace: checks: trial picks: [1-9][0-9]* from the cache, 0 computed$' "$tmp/err" ||
	fail "the last run did not take its picks from the cache: $(cat "$tmp/err")"
ok "the mails of a warm run are those of a run without the cache"
