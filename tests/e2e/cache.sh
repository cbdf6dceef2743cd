#!/bin/sh
# The scan cache: a re-run reads it instead of walking, a later upstream
# walks only what is new, and whatever the cache holds, the answers are
# those of a run without it.  A corrupt or foreign cache is not trusted.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit fs/ext4/inode.c 'int ext4;' 'ext4: add the inode code'
test_commit fs/btrfs/inode.c 'int btrfs;' 'btrfs: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

fix() {	# fix PATH CONTENT SUBJECT
	test_commit "$1" "$2" "$3

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>"
}
fix fs/ext4/inode.c 'int ext4_1;' 'ext4: fix a leak in the inode code'
fix fs/btrfs/inode.c 'int btrfs_1;' 'btrfs: fix a deadlock in the inode code'
git checkout -q -b topic
fix fs/ext4/namei.c 'int namei;' 'ext4: fix a crash in lookup'
git checkout -q master
test_commit mm/filemap.c 'int filemap;' 'mm: not a filesystem change'
test_tick
git merge -q --no-ff -m "Merge branch 'topic'" topic
git branch week1

mkdir rules
cat "$STABLEPICK_DATADIR/rules/default.rules" >rules/default.rules
cat >rules/btrfs.rules <<'RULES'
subsystem btrfs
	paths fs/btrfs/
	policy heuristic
	soak release
end
RULES

# Each run judges: the answers kept (memo.sh) are set aside first.
sp() {
	rm -rf .git/stablepick/memo "$tmp"/*/memo
	STABLEPICK_TRACE=1 "$STABLEPICK" --rules rules "$@" 2>"$tmp/err"
}
verdicts() {	# the answers, one line each
	jq -r '[.commit, .verdict, .why, .score] | map(tostring) | join("|")'
}
scanned() {	# what the last run's scan walked and took from the cache
	sed -n 's/^trace: scan: //p' "$tmp/err"
}

# A first run writes the cache; a second reads it and walks nothing.
sp --no-cache propose --branch linux-6.6.y --upstream week1 --format json |
	verdicts >"$tmp/expect"
[ ! -e .git/stablepick/scan-cache ] || fail "--no-cache wrote a cache"
sp propose --branch linux-6.6.y --upstream week1 --format json | verdicts >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(scanned)" = "5 commits in v6.6..week1, 5 of them walked, 0 candidates from the cache" ] ||
	fail "cold scan: $(scanned)"
sp propose --branch linux-6.6.y --upstream week1 --format json | verdicts >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(scanned)" = "5 commits in v6.6..week1, 0 of them walked, 3 candidates from the cache" ] ||
	fail "warm scan: $(scanned)"
grep -q '^[0-9a-f]*|waiting|btrfs waits for a release: in no release tag yet|' "$tmp/actual" ||
	fail "the btrfs fix should wait for a release"
ok "a re-run reads the cache and answers the same"

# Each stage's line says the time, the peak memory so far, which never
# falls from one stage to the next, and the resident set now, heap and
# mapped files, which together never pass the peak (each is rounded to
# the MiB: the two may gain 1 MiB on it).
grep -E '^trace: [a-z ]+ +[0-9.]+ ms  \(total [0-9.]+ ms, peak [0-9.]+ MiB; now [0-9]+ heap, [0-9]+ files\)$' "$tmp/err" |
	sed 's/.*peak \([0-9.]*\) MiB; now \([0-9]*\) heap, \([0-9]*\) files)$/\1 \2 \3/' >"$tmp/peaks"
[ "$(wc -l <"$tmp/peaks")" -ge 3 ] || fail "no stage lines: $(cat "$tmp/err")"
cut -d' ' -f1 "$tmp/peaks" | sort -n -c || fail "the peak fell: $(cat "$tmp/peaks")"
awk '$1 <= 0 || $2 <= 0 { exit 1 }' "$tmp/peaks" ||
	fail "a peak or a heap of 0: $(cat "$tmp/peaks")"
awk '$2 + $3 > $1 + 1.1 { exit 1 }' "$tmp/peaks" ||
	fail "more resident than the peak: $(cat "$tmp/peaks")"
ok "STABLEPICK_TRACE: each stage's time, the peak memory so far, and now"

# A week later: new fixes, and v6.7 released after them.  The old btrfs
# fix is now in a release: the cache said "no release yet", which the
# new walk must not believe.
fix fs/ext4/super.c 'int super;' 'ext4: fix a race in the super block code'
test_tick
git tag -a -m 'Linux 6.7-rc1' v6.7-rc1
test_commit Makefile 'VERSION = 6.7' 'Linux 6.7'
test_tick
git tag -a -m 'Linux 6.7' v6.7
fix fs/btrfs/super.c 'int super;' 'btrfs: fix a leak in the super block code'
sp --no-cache propose --branch linux-6.6.y --format json | verdicts >"$tmp/expect"
sp propose --branch linux-6.6.y --format json | verdicts >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(scanned)" = "8 commits in v6.6..master, 3 of them walked, 3 candidates from the cache (new tags passed on)" ] ||
	fail "weekly scan: $(scanned)"
grep -q "^$(git rev-parse week1~2)|proposed|" "$tmp/actual" ||
	fail "the old btrfs fix is in v6.7 now: $(grep btrfs "$tmp/actual")"
ok "a later upstream walks only the new commits; soak marks are rechecked"

# An upstream that is not a descendant of the cached one (rewound):
# the cache cannot stand for it, and is not used.
git checkout -q -b rewound week1~1
fix fs/ext4/xattr.c 'int xattr;' 'ext4: fix an overflow in xattr'
git checkout -q master
sp --no-cache propose --branch linux-6.6.y --upstream rewound --format json |
	verdicts >"$tmp/expect"
sp propose --branch linux-6.6.y --upstream master --format json >/dev/null
sp propose --branch linux-6.6.y --upstream rewound --format json | verdicts >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
case $(scanned) in
*", 0 candidates from the cache") ;;
*) fail "rewound upstream used the cache: $(scanned)" ;;
esac
ok "a rewound upstream is scanned afresh"

# Damage: a flipped byte, a foreign file, another version, a truncated
# file.  Each is named in a warning, the answers stay right, and the
# next save replaces the file.
cache=.git/stablepick/scan-cache
sp --no-cache propose --branch linux-6.6.y --format json | verdicts >"$tmp/expect"
damage() {	# damage HOW: damages the cache, runs, checks
	sp propose --branch linux-6.6.y --format json >/dev/null
	case $1 in
	flip)	printf 'X' | dd of="$cache" bs=1 seek=40 conv=notrunc 2>/dev/null ;;
	foreign) printf 'not a cache at all, really not\n' >"$cache" ;;
	version) printf '\000\000\000\377' | dd of="$cache" bs=1 seek=16 conv=notrunc 2>/dev/null ;;
	truncate) head -c 100 "$cache" >"$cache.new" && mv "$cache.new" "$cache" ;;
	esac
	sp propose --branch linux-6.6.y --format json | verdicts >"$tmp/actual"
	test_cmp "$tmp/expect" "$tmp/actual"
	grep -q "^warning: ignoring scan cache '.*scan-cache': $2; it will be rebuilt\$" "$tmp/err" ||
		fail "$1: no warning: $(cat "$tmp/err")"
	sp propose --branch linux-6.6.y --format json | verdicts >"$tmp/actual"
	test_cmp "$tmp/expect" "$tmp/actual"
	! grep -q warning "$tmp/err" || fail "$1: not rebuilt: $(cat "$tmp/err")"
}
damage flip 'checksum mismatch (corrupt)'
damage foreign 'not a stablepick scan cache'
damage version 'written by another version of stablepick'
damage truncate 'checksum mismatch (corrupt)'
ok "a damaged cache is named, ignored and rebuilt"

# The branch base is taken from the cache only when it is proven to be
# the merge base.  A branch that merges mainline, or one started again
# from a later release, has a new base: it is computed again.
base() { sed -n 's/^trace: branch: //p' "$tmp/err"; }
sp propose --branch linux-6.6.y >/dev/null
sp propose --branch linux-6.6.y >/dev/null
[ "$(base)" = "the base of linux-6.6.y from the cache holds" ] || fail "base: $(base)"
git checkout -q linux-6.6.y
test_tick
git merge -q --no-ff -m "Merge v6.7-rc1 into linux-6.6.y" v6.7-rc1
git checkout -q master
sp --no-cache propose --branch linux-6.6.y --format json | verdicts >"$tmp/expect"
sp propose --branch linux-6.6.y --format json | verdicts >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(base)" = "the base of linux-6.6.y from the cache does not hold: computing it" ] ||
	fail "merged branch: $(base)"
git branch -f linux-6.6.y v6.7
sp --no-cache propose --branch linux-6.6.y --format json | verdicts >"$tmp/expect"
sp propose --branch linux-6.6.y --format json | verdicts >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(base)" = "the base of linux-6.6.y from the cache does not hold: computing it" ] ||
	fail "restarted branch: $(base)"
sp propose --branch linux-6.6.y --format json | verdicts >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(base)" = "the base of linux-6.6.y from the cache holds" ] || fail "base: $(base)"
ok "a cached branch base is used only when proven"

# --cache DIR keeps the caches there.
rm -rf .git/stablepick
sp --cache "$tmp/c" propose --branch linux-6.6.y >/dev/null
[ -f "$tmp/c/scan-cache" ] ||
	fail "--cache DIR: $(ls "$tmp/c" 2>&1)"
[ ! -e .git/stablepick/scan-cache ] || fail "--cache DIR wrote .git/stablepick"
sp --cache "$tmp/c" propose --branch linux-6.6.y >/dev/null
[ "$(scanned)" = "1 commits in v6.7..master, 0 of them walked, 1 candidates from the cache" ] ||
	fail "--cache DIR not read: $(scanned)"
ok "--cache DIR"

# A new tag that contains an old commit but not the cached end (tagged
# on a side branch, then merged): the cached marks cannot simply take
# the new tags in, and are asked of the graph again.
git branch -f linux-6.6.y v6.6
sp propose --branch linux-6.6.y >/dev/null
git checkout -q -b side week1~3
fix fs/btrfs/xattr.c 'int xattr;' 'btrfs: fix an overflow in xattr'
test_tick
git tag -a -m 'Linux 6.8-rc1' v6.8-rc1
git checkout -q master
test_tick
git merge -q --no-ff -m "Merge branch 'side'" side
sp --no-cache propose --branch linux-6.6.y --format json | verdicts >"$tmp/expect"
sp propose --branch linux-6.6.y --format json | verdicts >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
case $(scanned) in
*", 2 of them walked, "*" (soak marks rechecked)") ;;
*) fail "side tag: $(scanned)" ;;
esac
ok "a tag off the cached line makes cached marks be asked again"
