#!/bin/sh
# The gitattributes are an input of the kept answer (the memo) and of
# the patch-id cache: a file called binary ("-diff") has the patch-id of
# its blob ids, so a backport with other context is no longer "the same
# change".  An edit of any attributes file (info/attributes,
# core.attributesFile, the XDG file, a .gitattributes in the working
# tree or the index) makes the next run's answer that of a run without
# the caches; with nothing changed, the answer is the kept one.
. "$TEST_SRCDIR/tests/lib.sh"

STABLEPICK_NOW=1700600000	# 2023-11-21 21:33:20 UTC
export STABLEPICK_NOW
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/nfs
seq 1 40 | sed 's/^/int nfs_/; s/$/;/' >fs/nfs/inode.c
test_commit fs/ext4/inode.c 'int ext4;' 'Initial commit'
git add fs/nfs/inode.c
test_tick
git commit -q -m 'nfs: add the inode code'
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
# Mainline changes the file far from the fix; the fix is then the same
# lines in both, but not the same blobs.
sed -i 's/^int nfs_1;$/int nfs_1_renamed;/' fs/nfs/inode.c
git add fs/nfs/inode.c
test_tick
git commit -q -m 'nfs: rename one'
sed -i 's/^int nfs_30;$/int nfs_30_fixed;/' fs/nfs/inode.c
git add fs/nfs/inode.c
test_tick
git commit -q -m 'nfs: fix a leak in thirty

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
git checkout -q linux-6.6.y
sed -i 's/^int nfs_30;$/int nfs_30_fixed;/' fs/nfs/inode.c
git add fs/nfs/inode.c
test_tick
git commit -q -m 'VENDOR: nfs leak'
git checkout -q master
info=$(git rev-parse --git-path info)
memo=.git/stablepick/memo

sp() {
	STABLEPICK_TRACE=1 "$STABLEPICK" "$@" 2>"$tmp/err"
}
kept() {
	grep -q '^trace: memo: .* holds the answer of these inputs$' "$tmp/err" ||
		fail "$1: not the kept answer: $(cat "$tmp/err")"
}
judged() {
	grep -q '^trace: memo: no answer for these inputs yet$' "$tmp/err" ||
		fail "$1: a kept answer where the attributes changed"
}
# same WHAT: a warm run prints, byte for byte, what a run without the
# caches prints.
same() {
	"$STABLEPICK" --no-cache propose --branch linux-6.6.y --all \
		>"$tmp/expect" 2>/dev/null
	sp propose --branch linux-6.6.y --all >"$tmp/actual"
	cmp "$tmp/expect" "$tmp/actual" || {
		diff -u "$tmp/expect" "$tmp/actual"
		fail "$1: the warm run is not the run without the caches"
	}
}
# binary WHAT / text WHAT: whether the fix is told by its patch-id.
binary() {
	! grep -q '^present .*nfs: fix a leak in thirty' "$tmp/expect" ||
		fail "$1: the attributes changed nothing: $(cat "$tmp/expect")"
}
text() {
	grep -q '^present .*nfs: fix a leak in thirty' "$tmp/expect" ||
		fail "$1: not present by its patch-id: $(cat "$tmp/expect")"
}

same "cold"
text "cold"
same "warm"
kept "warm"
! grep -q '^trace: patch-id: ' "$tmp/err" || fail "warm: patch-ids computed"
ok "with nothing changed, the kept answer"

# Each source in turn: set, then gone with the memo set aside (the
# patch-id cache alone), then set again with the memo set aside.
check_source() {	# check_source WHAT SET-COMMAND UNSET-COMMAND
	eval "$2"
	same "$1"
	binary "$1"
	judged "$1"
	same "$1, again"
	kept "$1, again"
	eval "$3"
	rm -rf "$memo"
	same "$1 gone, the patch-id cache alone"
	text "$1 gone, the patch-id cache alone"
	grep -q '^trace: patch-id cache: other attributes than when computed' \
		"$tmp/err" || fail "$1 gone: the patch-ids were not computed again"
	same "$1 gone, warm"
	kept "$1 gone, warm"
	eval "$2"
	rm -rf "$memo"
	same "$1 again, the patch-id cache alone"
	binary "$1 again, the patch-id cache alone"
	grep -q '^trace: patch-id cache: other attributes than when computed' \
		"$tmp/err" || fail "$1 again: the patch-ids were not computed again"
	eval "$3"
	same "$1 gone again"
	text "$1 gone again"
	ok "$1 is an input of the memo and the patch-id cache"
}

check_source "info/attributes" \
	"echo 'fs/nfs/** -diff' >'$info/attributes'" \
	"rm '$info/attributes'"
check_source "an untracked .gitattributes" \
	"echo 'inode.c -diff' >fs/nfs/.gitattributes" \
	"rm fs/nfs/.gitattributes"
check_source "the top .gitattributes" \
	"echo 'fs/nfs/*.c binary' >.gitattributes" \
	"rm .gitattributes"
check_source "core.attributesFile" \
	"echo 'fs/nfs/** -diff' >'$tmp/attributes'
	 git config core.attributesFile '$tmp/attributes'" \
	"rm '$tmp/attributes'"
git config --unset core.attributesFile
mkdir -p "$HOME/.config/git"
check_source "the XDG attributes file" \
	"echo 'fs/nfs/** -diff' >'$HOME/.config/git/attributes'" \
	"rm '$HOME/.config/git/attributes'"

# A tracked .gitattributes: staged, edited in the working tree (which
# libgit2 reads first), staged again and edited back.
echo '*.c diff' >fs/nfs/.gitattributes
git add fs/nfs/.gitattributes
same "a tracked .gitattributes"
text "a tracked .gitattributes"
judged "a tracked .gitattributes"
same "a tracked .gitattributes, again"
kept "a tracked .gitattributes, again"
echo 'inode.c -diff' >fs/nfs/.gitattributes
same "a tracked .gitattributes edited"
binary "a tracked .gitattributes edited"
judged "a tracked .gitattributes edited"
git add fs/nfs/.gitattributes
echo '*.c diff' >fs/nfs/.gitattributes
same "a .gitattributes staged, then edited back"
text "a .gitattributes staged, then edited back"
judged "a .gitattributes staged, then edited back"
ok "a tracked .gitattributes, edited and staged, is an input"

# The index is read alike in each of its versions (4, 2, 3 with an
# intent-to-add entry): nothing changed, the kept answer; a change
# seen in each.
same "index version 2"
for v in 4 2 3; do
	git update-index --index-version "$v"
	if [ "$v" = 3 ]; then
		echo 'int nfs_new;' >fs/nfs/new.c
		git add -N fs/nfs/new.c
	fi
	same "index version $v"
	kept "index version $v"
	! grep -q '^trace: attributes: the index is read by libgit2' "$tmp/err" ||
		fail "index version $v: not read as such"
	git add fs/nfs/.gitattributes
	echo "inode.c -diff # $v" >fs/nfs/.gitattributes
	same "index version $v, an edit"
	binary "index version $v, an edit"
	judged "index version $v, an edit"
	# The version, the fourth byte of the header.
	[ "$(od -An -tu1 -j7 -N1 .git/index | tr -d ' ')" = "$v" ] ||
		fail "index version $v: written as $(od -An -tu1 -j7 -N1 .git/index)"
	echo '*.c diff' >fs/nfs/.gitattributes
	git add fs/nfs/.gitattributes
	same "index version $v, edited back"
	text "index version $v, edited back"
done
ok "the index is read alike in versions 2, 3 and 4"
