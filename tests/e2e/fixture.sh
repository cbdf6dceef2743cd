# A small mainline with one stable branch, shared by the end-to-end tests
# of propose, explain and bad input.  Sourced after tests/lib.sh; builds
# the repository in "$1" with fixed dates and identities, so commit ids
# are the same on every machine.
#
#   master:       initial - ext4: add bar - (v6.6) - six fixes and
#                 clean-ups - an mm/ change - a merge of a topic branch
#   linux-6.6.y:  v6.6 - backport of "fs: fix a refcount leak in ..."
make_fixture() {
	repo=$1
	test_repo "$repo"
	mkdir -p "$repo/fs/xfs" "$repo/fs/ext4" "$repo/fs/btrfs" "$repo/mm"
	echo 'int xfs;' >"$repo/fs/xfs/xfs_inode.c"
	echo 'int btrfs;' >"$repo/fs/btrfs/inode.c"
	echo 'int namei;' >"$repo/fs/namei.c"
	echo 'int filemap;' >"$repo/mm/filemap.c"
	git -C "$repo" add .
	test_commit -C "$repo" fs/ext4/inode.c 'int ext4;' 'Initial commit'

	test_commit -C "$repo" fs/ext4/inode.c 'int ext4; int bar;' 'ext4: add bar

Add bar, which later turns out to be freed too early.

Signed-off-by: Ann Author <ann@example.org>'
	bar=$(git -C "$repo" rev-parse --short=12 HEAD)
	test_tick
	git -C "$repo" tag -a -m 'Linux 6.6' v6.6
	git -C "$repo" branch linux-6.6.y

	test_commit -C "$repo" fs/ext4/inode.c 'int ext4; int bar2;' "ext4: fix use-after-free in bar

bar is freed while the inode still points at it.

Fixes: $bar (\"ext4: add bar\")
Cc: stable@vger.kernel.org # 6.1+
Signed-off-by: Ann Author <ann@example.org>"

	test_commit -C "$repo" fs/xfs/xfs_inode.c 'int xfs2;' "xfs: fix corruption in the inode cluster

Fixes: $bar (\"ext4: add bar\")
Signed-off-by: Dave Xfs <dave@example.org>"

	test_commit -C "$repo" fs/btrfs/inode.c 'int btrfs2;' 'btrfs: fix deadlock in baz

Cc: stable+noautosel@kernel.org # needs a manual backport
Signed-off-by: Bea Btrfs <bea@example.org>'

	test_commit -C "$repo" fs/ext4/inode.c 'int ext4; int bar3;' 'ext4: remove unused variable in bar

Signed-off-by: Ann Author <ann@example.org>'

	test_commit -C "$repo" fs/namei.c 'int namei2;' "fs: fix a refcount leak in path lookup

Fixes: $bar (\"ext4: add bar\")
Signed-off-by: Vic Vfs <vic@example.org>"
	leak=$(git -C "$repo" rev-parse HEAD)

	test_commit -C "$repo" mm/filemap.c 'int filemap2;' 'mm: fix a crash in filemap

Cc: stable@vger.kernel.org
Signed-off-by: Mo Mm <mo@example.org>'

	# A topic branch merged the way mainline merges pull requests.
	git -C "$repo" checkout -q -b topic HEAD~1
	test_commit -C "$repo" fs/xfs/xfs_inode.c 'int xfs3;' 'xfs: fix a null pointer dereference in log recovery

Cc: stable@vger.kernel.org # v6.1
Signed-off-by: Dave Xfs <dave@example.org>'
	git -C "$repo" checkout -q master
	test_tick
	git -C "$repo" merge -q --no-ff -m "Merge tag 'xfs-fixes' of git://git.example.org/xfs" topic
	git -C "$repo" branch -q -D topic

	git -C "$repo" checkout -q linux-6.6.y
	test_commit -C "$repo" fs/namei.c 'int namei2;' "fs: fix a refcount leak in path lookup

commit $leak upstream.

Fixes: $bar (\"ext4: add bar\")
Signed-off-by: Vic Vfs <vic@example.org>
Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>"
	git -C "$repo" checkout -q master
}
