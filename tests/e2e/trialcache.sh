#!/bin/sh
# The trial cache: a pick whose inputs (the commit, the branch tip at
# the paths it changes, the earlier picks on those paths) were seen
# before is not made again.  A warm run makes no pick; a branch commit
# on a file makes again the picks on that file and the later ones that
# share their paths, and no other; whatever the cache holds, every
# output is that of a run without it.  A damaged cache is not trusted.
. "$TEST_SRCDIR/tests/lib.sh"

STABLEPICK_NOW=1702900000
export STABLEPICK_NOW
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
printf 'one\ntwo\nthree\n' >b.txt
mkdir -p fs/ext4 fs/btrfs fs/xfs
for f in fs/ext4/a.c fs/ext4/b.c fs/btrfs/c.c fs/xfs/d.c; do
	printf 'int x;\nint y;\nint z;\n' >"$f"
done
git add .
test_commit fs/ext4/inode.c 'int ext4;' 'Initial commit'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

nr_fix=0
fix() {	# fix SUBJECT FILE...: changes the first line of each file
	local subject=$1 f
	shift
	nr_fix=$((nr_fix + 1))
	for f in "$@"; do
		sed -i "1s/.*/int fix$nr_fix;/" "$f"
		git add "$f"
	done
	test_tick
	git commit -q -m "$subject

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>"
}
fix 'ext4: fix a leak in a' fs/ext4/a.c
fix 'btrfs: fix a crash in c' fs/btrfs/c.c
fix 'ext4: fix a race in a and b' fs/ext4/a.c fs/ext4/b.c
fix 'xfs: fix a hang in d' fs/xfs/d.c
fix 'ext4: fix a deadlock in b' fs/ext4/b.c

# Each run judges: the answers kept (memo.sh) are set aside first.
sp() {
	rm -rf .git/stablepick/memo "$tmp"/*/memo
	STABLEPICK_TRACE=1 "$STABLEPICK" "$@" 2>"$tmp/err"
}
picks() {	# what the last run's checks took from the cache and made
	sed -n 's/^trace: checks: trial picks: //p' "$tmp/err"
}
# Every format the trial picks reach, against a run without the cache.
same() {	# same WHAT
	local f
	for f in text json mbox failed; do
		"$STABLEPICK" --no-cache propose --branch linux-6.6.y --format $f \
			>"$tmp/expect" 2>"$tmp/expect.err"
		sp propose --branch linux-6.6.y --format $f >"$tmp/actual"
		test_cmp "$tmp/expect" "$tmp/actual"
		grep -v '^trace: ' "$tmp/err" >"$tmp/actual.err" || :
		test_cmp "$tmp/expect.err" "$tmp/actual.err"
	done
	ok "$1: the same as without the cache"
}

sp --no-cache propose --branch linux-6.6.y >/dev/null
[ "$(picks)" = "no cache" ] || fail "--no-cache: $(picks)"
[ ! -e .git/stablepick/trial-cache ] || fail "--no-cache wrote a trial cache"
# xfs waits for a release (the default rules' soak): it is in the series
# of every held commit alone, after the four proposals.  A cold run
# picks those four in the series of the proposals and takes them from
# the cache in the other (a pick's key is its inputs, not its series).
sp propose --branch linux-6.6.y >/dev/null
[ "$(picks)" = "4 from the cache, 5 computed" ] || fail "cold: $(picks)"
sp propose --branch linux-6.6.y >/dev/null
[ "$(picks)" = "9 from the cache, 0 computed" ] || fail "warm: $(picks)"
same "cold and warm"

# A branch commit on the file of one pick alone: that pick, no other.
git checkout -q linux-6.6.y
sed -i '3s/.*/int z_stable;/' fs/btrfs/c.c
git add fs/btrfs/c.c
test_tick
git commit -q -m 'btrfs: a stable-only change'
git checkout -q master
sp propose --branch linux-6.6.y >/dev/null
[ "$(picks)" = "8 from the cache, 1 computed" ] || fail "btrfs tip: $(picks)"
same "a new tip on one pick's file"

# On a file that three picks share through their paths (a.c, then a.c
# and b.c, then b.c): those three, not the btrfs and xfs ones.  The
# branch changes the line the picks change: they conflict now.
git checkout -q linux-6.6.y
sed -i '1s/.*/int x_stable;/' fs/ext4/a.c
git add fs/ext4/a.c
test_tick
git commit -q -m 'ext4: a stable-only change'
git checkout -q master
sp propose --branch linux-6.6.y >/dev/null
[ "$(picks)" = "6 from the cache, 3 computed" ] || fail "ext4 tip: $(picks)"
"$STABLEPICK" propose --branch linux-6.6.y | grep -q 'conflicts in fs/ext4/a.c' ||
	fail "the picks on a.c do not conflict"
same "a new tip on a shared file"

# New mainline commits: only they are picked; the series before them
# is as it was.
fix 'xfs: fix a leak in d' fs/xfs/d.c
sp propose --branch linux-6.6.y >/dev/null
[ "$(picks)" = "9 from the cache, 1 computed" ] || fail "new mainline: $(picks)"
same "new mainline commits"

# Damage: each is named in a warning, the answers stay right, and the
# next save replaces the file.
cache=.git/stablepick/trial-cache
"$STABLEPICK" --no-cache propose --branch linux-6.6.y --format json >"$tmp/expect"
damage() {	# damage HOW WHY
	sp propose --branch linux-6.6.y >/dev/null
	case $1 in
	flip)	printf 'X' | dd of="$cache" bs=1 seek=40 conv=notrunc 2>/dev/null ;;
	foreign) printf 'not a cache at all, really not\n' >"$cache" ;;
	version) printf '\000\000\000\377' | dd of="$cache" bs=1 seek=16 conv=notrunc 2>/dev/null ;;
	truncate) head -c 100 "$cache" >"$cache.new" && mv "$cache.new" "$cache" ;;
	esac
	sp propose --branch linux-6.6.y --format json >"$tmp/actual"
	test_cmp "$tmp/expect" "$tmp/actual"
	grep -q "^warning: ignoring trial cache '.*trial-cache': $2; it will be rebuilt\$" "$tmp/err" ||
		fail "$1: no warning: $(cat "$tmp/err")"
	[ "$(picks)" = "4 from the cache, 6 computed" ] || fail "$1: $(picks)"
	sp propose --branch linux-6.6.y --format json >"$tmp/actual"
	test_cmp "$tmp/expect" "$tmp/actual"
	! grep -q warning "$tmp/err" || fail "$1: not rebuilt: $(cat "$tmp/err")"
	[ "$(picks)" = "10 from the cache, 0 computed" ] || fail "$1 rebuilt: $(picks)"
}
damage flip 'checksum mismatch (corrupt)'
damage foreign 'not a stablepick trial cache'
damage version 'written by another version of stablepick'
damage truncate 'checksum mismatch (corrupt)'
ok "a damaged trial cache is named, ignored and rebuilt"

# The size is bounded: each new branch tip on c.c adds the btrfs pick's
# result for it; what none of the last 8 writers used is dropped, so
# once 8 runs have written the file it stops growing.
round() {	# round N: a branch commit on c.c, then a run
	git checkout -q linux-6.6.y
	sed -i "3s/.*/int z_round$1;/" fs/btrfs/c.c
	git add fs/btrfs/c.c
	test_tick
	git commit -q -m "btrfs: stable-only change $1"
	git checkout -q master
	sp propose --branch linux-6.6.y >/dev/null
	[ "$(picks)" = "9 from the cache, 1 computed" ] || fail "round $1: $(picks)"
}
for n in 1 2 3 4 5 6 7 8 9; do round $n; done
size9=$(wc -c <"$cache")
round 10
[ "$(wc -c <"$cache")" = "$size9" ] || fail "the cache grows: $size9, then $(wc -c <"$cache")"
round 11
[ "$(wc -c <"$cache")" = "$size9" ] || fail "the cache grows: $size9, then $(wc -c <"$cache")"
same "after the old entries are dropped"
ok "the trial cache keeps what the last 8 writers used"
