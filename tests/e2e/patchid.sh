#!/bin/sh
# patch-id: the same lines, byte for byte, as
#
#	git log -p --no-merges RANGE | git patch-id --stable
#
# whatever the number of threads, over a history with the changes whose
# diffs are special (renames, mode changes, binary files, symlinks, a
# merge, an empty commit); and bad input says what is wrong.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"

test_commit README 'stablepick test' 'Initial commit'
test_tick
git tag base
test_commit fs/ext4/inode.c 'int ext4;
int inode;
int block;
int extent;
int journal;
int xattr;' 'ext4: add the inode code'
test_commit fs/xfs/xfs_log.c 'int xfs_log;' 'xfs: add the log'

# A rename with a change, and an exact rename.
git mv fs/ext4/inode.c fs/ext4/inode2.c
printf 'int ext4;\nint inode;\nint block;\nint extent;\nint journal;\nint xattr2;\n' \
	>fs/ext4/inode2.c
git add fs/ext4/inode2.c
git mv fs/xfs/xfs_log.c fs/xfs/xfs_log_recover.c
test_tick
git commit -q -m 'ext4, xfs: rename files'

# A mode change alone, then a mode change with an edit.
chmod +x fs/xfs/xfs_log_recover.c
git add fs/xfs/xfs_log_recover.c
test_tick
git commit -q -m 'xfs: make the log executable'
chmod -x fs/xfs/xfs_log_recover.c
echo 'int xfs_log2;' >fs/xfs/xfs_log_recover.c
git add fs/xfs/xfs_log_recover.c
test_tick
git commit -q -m 'xfs: change the log and its mode'

# Binary files: added, changed, then a text file after one.
printf 'GIF89a\000\001\002\003\377' >fs/logo.gif
git add fs/logo.gif
test_tick
git commit -q -m 'fs: add a logo'
printf 'GIF89a\000\001\002\004\377' >fs/logo.gif
echo 'int vfs;' >fs/namei.c
git add fs/logo.gif fs/namei.c
test_tick
git commit -q -m 'fs: change the logo and namei'

# A symlink, then a file that becomes a symlink.
ln -s ext4/inode2.c fs/link
git add fs/link
test_tick
git commit -q -m 'fs: add a symlink'
git rm -q fs/namei.c
ln -s ext4/inode2.c fs/namei.c
git add fs/namei.c
test_tick
git commit -q -m 'fs: make namei a symlink'

# An empty commit: git patch-id prints nothing for it.
test_tick
git commit -q --allow-empty -m 'empty'

# A topic branch and its merge.
git checkout -q -b topic
test_commit mm/filemap.c 'int filemap;' 'mm: add filemap'
test_commit mm/filemap.c 'int filemap;
int folio;' 'mm: add folios'
git checkout -q master
test_commit fs/btrfs/inode.c 'int btrfs;' 'btrfs: add the inode code'
test_tick
git merge -q --no-ff -m 'Merge branch topic' topic
# A file without a final newline, and a deletion.
printf 'int no_newline;' >fs/ext4/super.c
git rm -q README
git add fs/ext4/super.c
test_tick
git commit -q -m 'ext4: add super, remove README'
test_commit fs/ext4/super.c 'int with_newline;' 'ext4: end super with a newline'

# Two series applied in the same second (git am does that), on two
# branches, then merged: git log orders commits of one date by when they
# joined its list, which is not libgit2's order.
test_tick
git checkout -q -b series
for i in 1 2 3; do
	echo "int series$i;" >"fs/xfs/series$i.c"
	git add "fs/xfs/series$i.c"
	git commit -q -m "xfs: series patch $i"
done
git checkout -q master
for i in 1 2 3; do
	echo "int other$i;" >"fs/btrfs/other$i.c"
	git add "fs/btrfs/other$i.c"
	git commit -q -m "btrfs: other patch $i"
done
git merge -q --no-ff -m 'Merge branch series' series

[ "$(git rev-list --count --merges base..master)" = 2 ] ||
	fail "the history has no merge"

# expect_same ARGS...: stablepick patch-id ARGS (with --jobs 1, 2 and 3)
# prints what git log -p --no-merges ARGS | git patch-id --stable does.
expect_same() {
	git log -p --no-merges "$@" | git patch-id --stable >"$tmp/expect"
	[ -s "$tmp/expect" ] || fail "git printed no patch-id for $*"
	for jobs in 1 2 3; do
		"$STABLEPICK" patch-id --jobs "$jobs" "$@" >"$tmp/actual"
		test_cmp "$tmp/expect" "$tmp/actual"
	done
	"$STABLEPICK" patch-id "$@" >"$tmp/actual"
	test_cmp "$tmp/expect" "$tmp/actual"
	ok "patch-id $* prints what git does, $(wc -l <"$tmp/expect") lines"
}

expect_same base..master
expect_same master
expect_same master ^base
expect_same ^topic master
expect_same base..topic base~0..master~3
expect_same topic...master
expect_same "$(git rev-parse HEAD~1)"
expect_same base..

# From packs (each thread reads them through its own view), and from a
# linked worktree, whose objects are in the main repository.
git repack -a -d -q
expect_same base..master
git worktree add -q "$tmp/wt" topic
cd "$tmp/wt"
expect_same base..HEAD
cd "$repo"

# Attributes are read as git reads them: a text file called binary is
# hashed by its ids, whether the .gitattributes that says so is in a
# directory of the working tree or in info/.  (One in the index alone
# is not read by libgit2 1.5 as git reads it: not tested.)
"$STABLEPICK" patch-id base..master >"$tmp/plain"
expect_attributes() {
	expect_same base..master
	cmp -s "$tmp/plain" "$tmp/actual" &&
		fail "the attributes ($1) changed no patch-id"
	ok "patch-id follows the attributes of $1"
}
echo 'inode.c binary' >fs/ext4/.gitattributes
expect_attributes "a directory's .gitattributes"
rm fs/ext4/.gitattributes
echo 'inode.c binary' >"$(git rev-parse --git-path info)/attributes"
expect_attributes "info/attributes"
rm "$(git rev-parse --git-path info)/attributes"
expect_same base..master
cmp -s "$tmp/plain" "$tmp/actual" || fail "patch-ids changed with no attributes"

# The merge and the empty commit have no line; every other commit does.
"$STABLEPICK" patch-id base..master | cut -d' ' -f2 >"$tmp/actual"
git rev-list --no-merges base..master >"$tmp/all"
grep -v "$(git rev-parse ':/^empty')" "$tmp/all" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "no line for a merge or an empty commit"

# Nothing to walk: no output, success.
"$STABLEPICK" patch-id master..master >"$tmp/actual"
[ ! -s "$tmp/actual" ] || fail "output for an empty range"
ok "an empty range prints nothing"

# expect_error STATUS EXPECTED-STDERR ARGS...
expect_error() {
	status=$1 expected=$2
	shift 2
	set +e
	"$STABLEPICK" -C "$repo" patch-id "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	set -e
	printf '%s\n' "$expected" >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/err"
	[ "$got" -eq "$status" ] || fail "exit $got, expected $status: $*"
	[ ! -s "$tmp/out" ] || fail "unexpected output on stdout: $*"
	ok "patch-id $*: exit $status"
}

usage='usage: stablepick patch-id [--jobs N] REVISION...'
expect_error 1 "error: bad revision 'nope'" nope
expect_error 1 "error: bad revision 'base..nope'" base..nope
expect_error 1 "error: bad revision '^nope'" master ^nope
expect_error 1 "error: bad revision 'master^{tree}': not a commit" 'master^{tree}'
expect_error 129 "error: --jobs takes a number from 1 to 64, not '0'" --jobs 0 master
expect_error 129 "error: --jobs takes a number from 1 to 64, not 'x'" --jobs x master
expect_error 129 "error: --jobs takes a number from 1 to 64, not '65'" --jobs=65 master
expect_error 129 "error: patch-id needs a revision range
$usage" --jobs 2
expect_error 129 "patch-id: unrecognized option '--nope'
$usage" --nope master

"$STABLEPICK" patch-id --help >"$tmp/actual"
cat >"$tmp/expect" <<EOF
$usage

    --jobs N              threads for the diffs (default: one a CPU, one per
                          1024 commits at most)
    -h, --help            show this help
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "--help prints the usage and the options on stdout"

# A blob gone from the object store: the worker that meets it fails, the
# others stop, and the main thread says which commit; nothing on stdout.
test_repo "$tmp/broken"
for i in 1 2 3 4 5 6; do
	test_commit -C "$tmp/broken" "f$i" "$i" "commit $i"
done
blob=$(git -C "$tmp/broken" rev-parse HEAD~2:f4)
broken=$(git -C "$tmp/broken" rev-parse HEAD~2)
rm "$tmp/broken/.git/objects/$(echo "$blob" | cut -c1-2)/$(echo "$blob" | cut -c3-)"
for jobs in 1 3; do
	set +e
	"$STABLEPICK" -C "$tmp/broken" patch-id --jobs "$jobs" master \
		>"$tmp/out" 2>"$tmp/err"
	got=$?
	set -e
	[ "$got" -eq 1 ] || fail "exit $got with a missing blob, --jobs $jobs"
	[ ! -s "$tmp/out" ] || fail "output despite a missing blob, --jobs $jobs"
	grep -q "^error: cannot compute the patch-id of $broken\$" "$tmp/err" ||
		fail "no error naming $broken: $(cat "$tmp/err")"
	ok "a missing blob fails the run, --jobs $jobs"
done
