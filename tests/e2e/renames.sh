#!/bin/sh
# A fix to a file mainline moved after the branch forked: the branch
# has it under its former name, as git's rename detection finds it (a
# file added by a commit that deleted one at least 50% similar, or a
# chain of such), so the fix is not not-applicable, its trial pick
# follows the rename as git cherry-pick does, and a backport made to
# the old name is the same file for the subject evidence.  A file
# truly added since (no similar file deleted) stays missing.
. "$TEST_SRCDIR/tests/lib.sh"

STABLEPICK_NOW=1702900000
export STABLEPICK_NOW
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
lines() {	# lines PREFIX: ten lines of a C file
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		echo "int $1_$i;"
	done
}
mkdir -p fs/foo fs/qux
lines inode >fs/foo/inode.c
lines dir >fs/foo/dir.c
lines super >fs/foo/super.c
lines old >fs/qux/old.c
git add .
test_commit fs/foo/Makefile 'obj-y += inode.o' 'foo: add the code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# Moved to fs/bar/ (another subsystem) under another name, one line
# changed on the way: similar, not the same.
mkdir -p fs/bar
git mv fs/foo/inode.c fs/bar/bar-inode.c
sed -i 's/int inode_10;/int inode_10_moved;/' fs/bar/bar-inode.c
git add fs/bar/bar-inode.c
test_tick
git commit -q -m 'bar: take the inode code from foo'
move=$(git rev-parse --short=12 HEAD)
# Moved twice: fs/foo/dir.c -> fs/bar/dir.c -> fs/baz/dir.c.
git mv fs/foo/dir.c fs/bar/dir.c
test_tick
git commit -q -m 'bar: take the dir code from foo'
dirmove=$(git rev-parse HEAD)
mkdir -p fs/baz
git mv fs/bar/dir.c fs/baz/dir.c
test_tick
git commit -q -m 'baz: take the dir code from bar'
# A file deleted and another added in one commit, unlike each other:
# no rename.
git rm -q fs/qux/old.c
mkdir -p fs/bar
lines new >fs/bar/new.c
git add fs/bar/new.c
test_tick
git commit -q -m 'bar: replace the old code of qux'
added=$(git rev-parse --short=12 HEAD)

test_commit fs/bar/bar-inode.c "$(sed 's/int inode_2;/int inode_2_fixed;/' fs/bar/bar-inode.c)" \
	'bar: fix a leak in the inode code

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
fix=$(git rev-parse HEAD)
test_commit fs/baz/dir.c "$(sed 's/int dir_3;/int dir_3_fixed;/' fs/baz/dir.c)" \
	'baz: fix a crash in the dir code

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
chain=$(git rev-parse HEAD)
test_commit fs/bar/new.c "$(sed 's/int new_4;/int new_4_fixed;/' fs/bar/new.c)" \
	'bar: fix an overflow in the new code

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
test_commit fs/bar/bar-inode.c "$(sed 's/int inode_6;/int inode_6_fixed;/' fs/bar/bar-inode.c)" \
	'bar: fix a race in the inode code

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
race=$(git rev-parse HEAD)

# git cherry-pick itself applies the two fixes of moved files.
git worktree add -q --detach "$tmp/pick" linux-6.6.y
git -C "$tmp/pick" cherry-pick -x "$fix" "$chain" >/dev/null
git -C "$tmp/pick" diff --name-only linux-6.6.y HEAD -- >"$tmp/actual"
printf 'fs/foo/dir.c\nfs/foo/inode.c\n' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git worktree remove --force "$tmp/pick"
ok "git cherry-pick follows the renames"

# The branch backported the race fix by hand to the old file, under
# the same subject: maybe-present, by subject, since inode.c is the
# file mainline knows as bar-inode.c.
git checkout -q linux-6.6.y
sed -i 's/int inode_6;/int inode_6_fixed_by_hand;/' fs/foo/inode.c
git add fs/foo/inode.c
test_tick
git commit -q -m 'bar: fix a race in the inode code'
byhand=$(git rev-parse --short=12 HEAD)
git checkout -q master

"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r 'select(.subject | test("fix")) |
		[.subject, .verdict, .why, (.applies | tostring),
		 (.conflicts | join(","))] | join("|")' >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
bar: fix a leak in the inode code|proposed|score 111 reaches the threshold 10 of bar|true|
baz: fix a crash in the dir code|proposed|score 111 reaches the threshold 10 of baz|true|
bar: fix a race in the inode code|maybe-present|same subject as $byhand in linux-6.6.y|null|
bar: fix an overflow in the new code|not-applicable|changes fs/bar/new.c, which linux-6.6.y does not have ($added added it: not proposed)|null|
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "a moved file is there, an added one is not"

# The patches change the files the branch has, as git's would.
"$STABLEPICK" propose --branch linux-6.6.y --format mbox |
	sed -n 's/^diff --git //p' >"$tmp/actual"
printf 'a/fs/foo/inode.c b/fs/foo/inode.c\na/fs/foo/dir.c b/fs/foo/dir.c\n' \
	>"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "the patches change the former names"

# The branch changes the lines the fix changes: the trial pick, made
# again (its key has the tree it follows a rename in), conflicts on
# both names.
git checkout -q linux-6.6.y
test_commit fs/foo/inode.c "$(sed 's/int inode_2;/int inode_2_branch;/' fs/foo/inode.c)" \
	'foo: change the inode code on the branch'
git checkout -q master
"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r 'select(.subject | test("leak")) |
		[.verdict, (.applies | tostring), (.conflicts | join(","))] |
		join("|")' >"$tmp/actual"
echo 'proposed|false|fs/bar/bar-inode.c,fs/foo/inode.c' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "the trial cache does not hide a change of the renamed file"

# A range that leaves out where a file came from (fs/bar/dir.c, moved
# there before it): git's rename detection onto the branch tip, among
# the files of the same name, finds it; not so a file renamed.
"$STABLEPICK" propose --branch linux-6.6.y --range "$dirmove..master" \
	--format json |
	jq -r 'select(.subject | test("crash|leak")) |
		[.subject, .verdict] | join("|")' >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
baz: fix a crash in the dir code|proposed
bar: fix a leak in the inode code|not-applicable
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "a file moved before the range is found by its name"
