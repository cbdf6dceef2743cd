#!/bin/sh
# Repository faults: shallow clones, objects missing or damaged, unborn
# branches, a detached HEAD, refs that dangle, loop or move between
# runs.  A fault gives one clear error naming the object or the ref,
# exit 1 and nothing on stdout; a harmless one (a detached or unborn
# HEAD, a clone deep enough) gives the answer of a healthy repository.
. "$TEST_SRCDIR/tests/lib.sh"
. "$TEST_SRCDIR/tests/e2e/fixture.sh"

command -v timeout >/dev/null || skip "timeout is needed"

make_fixture "$tmp/repo"
good=$tmp/repo

# run COMMAND...: stdout in $tmp/out, stderr in $tmp/err, exit status in
# $status; a hang, a signal or a sanitizer report fails the test.
run() {
	set +e
	timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	set -e
	[ $status -ne 124 ] || fail "no answer in 60 s: $*"
	[ $status -lt 128 ] || fail "killed by signal $((status - 128)): $*"
	if grep -q 'Sanitizer\|runtime error:' "$tmp/err"; then
		head -n 20 "$tmp/err"
		fail "a sanitizer report: $*"
	fi
}

# expect_error EXPECTED-STDERR COMMAND...: exit 1, exactly that on
# stderr, nothing on stdout.
expect_error() {
	local expected=$1
	shift
	run "$@"
	printf '%s\n' "$expected" >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/err"
	[ $status -eq 1 ] || fail "exit $status, expected 1: $*"
	[ ! -s "$tmp/out" ] || fail "unexpected output on stdout: $*"
	ok "$expected"
}

# expect_same REFERENCE COMMAND...: exit 0, stdout as in REFERENCE.
expect_same() {
	local ref=$1
	shift
	run "$@"
	[ $status -eq 0 ] || fail "exit $status: $(cat "$tmp/err")"
	test_cmp "$ref" "$tmp/out"
}

# copy NAME: a fresh copy of the healthy repository, in $tmp/NAME.
copy() {
	rm -rf "$tmp/$1"
	cp -R "$good" "$tmp/$1"
}
# drop REPO REV: deletes the loose object REV names.
drop() {
	local o
	o=$(git -C "$1" rev-parse "$2")
	rm -f "$1/.git/objects/$(echo "$o" | cut -c1-2)/$(echo "$o" | cut -c3-)"
	git -C "$1" cat-file -e "$o" 2>/dev/null && fail "$2 ($o) is still there"
	echo "$o"
}
rev() { git -C "$good" rev-parse "$1"; }
s12() { echo "$1" | cut -c1-12; }

"$STABLEPICK" -C "$good" --no-cache propose --branch linux-6.6.y --all >"$tmp/healthy"
"$STABLEPICK" -C "$good" --no-cache propose --branch linux-6.6.y --format json \
	>"$tmp/healthy.json"

# --- shallow clones ----------------------------------------------------------
# Cut inside what the run needs: the merge base cannot be found.
git clone -q --depth 5 --no-single-branch "file://$good" "$tmp/shallow5"
cut=$(head -n 1 "$tmp/shallow5/.git/shallow" | cut -c1-12)
expect_error "error: shallow clone: the history of 'origin/linux-6.6.y' and mainline stops at $cut (run 'git fetch --unshallow')" \
	"$STABLEPICK" -C "$tmp/shallow5" propose --branch origin/linux-6.6.y --upstream origin/master
# Cut exactly at the start of the range (the first commit after v6.6 is
# shallow, but its parent, v6.6, came with the branch): the answer of a
# full clone.
git clone -q --depth 7 --no-single-branch "file://$good" "$tmp/shallow7"
git clone -q --no-single-branch "file://$good" "$tmp/full"
[ "$(cat "$tmp/shallow7/.git/shallow")" = "$(git -C "$good" rev-list --reverse v6.6..master | head -n 1)" ] ||
	fail "depth 7 is not cut at the start of v6.6..master"
"$STABLEPICK" -C "$tmp/full" propose --branch origin/linux-6.6.y --upstream origin/master \
	--format json >"$tmp/full.json"
expect_same "$tmp/full.json" "$STABLEPICK" -C "$tmp/shallow7" propose \
	--branch origin/linux-6.6.y --upstream origin/master --format json
ok "a shallow clone cut at the start of the range: the answer of a full clone"

# --- missing and damaged objects ---------------------------------------------
# The fixture's objects are loose: each case deletes one.
xfs=$(git -C "$good" log --format=%H --grep='^xfs: fix corruption' master)
after=$(git -C "$good" rev-list --reverse "$xfs..master" | head -n 1)

copy nocommit
c=$(drop "$tmp/nocommit" "$xfs")
expect_error "error: cannot find the base of branch 'linux-6.6.y': cannot read commit $c: object not found - no match for id ($c)" \
	"$STABLEPICK" -C "$tmp/nocommit" --no-cache propose --branch linux-6.6.y

copy notree
t=$(drop "$tmp/notree" "$xfs^{tree}")
expect_error "error: cannot read tree $t of commit $(s12 $xfs), the parent of $(s12 $after): object not found - no match for id ($t)" \
	"$STABLEPICK" -C "$tmp/notree" --no-cache propose --branch linux-6.6.y

copy nosubtree
t=$(drop "$tmp/nosubtree" "$xfs:fs/xfs")
expect_error "error: cannot read tree $t ('fs/xfs'): object not found - no match for id ($t)" \
	"$STABLEPICK" -C "$tmp/nosubtree" --no-cache propose --branch linux-6.6.y

copy noblob
b=$(drop "$tmp/noblob" "$xfs:fs/xfs/xfs_inode.c")
expect_error "error: cannot apply $(s12 $xfs): blob $b ('fs/xfs/xfs_inode.c') is not in the repository" \
	"$STABLEPICK" -C "$tmp/noblob" --no-cache propose --branch linux-6.6.y

copy nobase
c=$(drop "$tmp/nobase" v6.6^{commit})
expect_error "error: cannot find the base of branch 'linux-6.6.y': cannot read commit $c: object not found - no match for id ($c)" \
	"$STABLEPICK" -C "$tmp/nobase" --no-cache propose --branch linux-6.6.y

# The branch's tip is gone: the ref is there, its commit is not.
copy notip
c=$(drop "$tmp/notip" linux-6.6.y)
expect_error "error: branch 'linux-6.6.y' points at $c, which is not in the repository" \
	"$STABLEPICK" -C "$tmp/notip" propose --branch linux-6.6.y
expect_error "error: branch 'linux-6.6.y' points at $c, which is not in the repository" \
	"$STABLEPICK" -C "$tmp/notip" mark --list --branch linux-6.6.y

# The same faults with the caches of a healthy run: the cached base and
# scan do not hide them.  (The answer the healthy run kept is that of
# the same refs, hence the same objects: it is printed again as it was;
# without it the run judges, from the caches.)
copy cached
"$STABLEPICK" -C "$tmp/cached" propose --branch linux-6.6.y >"$tmp/kept"
t=$(drop "$tmp/cached" "$xfs^{tree}")
run "$STABLEPICK" -C "$tmp/cached" propose --branch linux-6.6.y
[ $status -eq 0 ] || fail "the kept answer: $status $(cat "$tmp/err")"
test_cmp "$tmp/kept" "$tmp/out"
rm -r "$tmp/cached/.git/stablepick/memo"
run "$STABLEPICK" -C "$tmp/cached" propose --branch linux-6.6.y
[ $status -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "^error: cannot read tree $t " "$tmp/err" ||
	fail "cached, no tree: $status $(cat "$tmp/err")"
ok "a missing tree, with the caches of a healthy run"

# A damaged pack: a commit and a tree whose bytes are overwritten.
copy packed
git -C "$tmp/packed" repack -adq
git -C "$tmp/packed" prune-packed
pack=$(ls "$tmp"/packed/.git/objects/pack/*.pack)
# offset OBJECT: where the object's data starts in the pack.
offset() {
	git -C "$tmp/packed" verify-pack -v "${pack%.pack}.idx" |
		awk -v o="$1" '$1 == o { print $5 }'
}
ct=$(rev "$xfs^{tree}")
c_at=$(offset "$xfs")
t_at=$(offset "$ct")
[ -n "$c_at" ] && [ -n "$t_at" ] || fail "objects not found in the pack"
cp -R "$tmp/packed" "$tmp/badtree"
cp -R "$tmp/packed" "$tmp/badcommit"
# damage REPO OFFSET: 8 bytes of 0xff into the pack of REPO.
damage() {
	local p
	p=$(ls "$1"/.git/objects/pack/*.pack)
	chmod u+w "$p"
	printf '\377\377\377\377\377\377\377\377' |
		dd of="$p" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
damage "$tmp/badtree" $((t_at + 8))
damage "$tmp/badcommit" $((c_at + 20))
run "$STABLEPICK" -C "$tmp/badtree" --no-cache propose --branch linux-6.6.y
[ $status -eq 1 ] && [ ! -s "$tmp/out" ] &&
	grep -q "^error: cannot read tree $ct of commit $(s12 $xfs), the parent of $(s12 $after): ." "$tmp/err" ||
	fail "damaged tree: $status $(cat "$tmp/err")"
ok "a damaged tree in a pack: $(cat "$tmp/err")"
run "$STABLEPICK" -C "$tmp/badcommit" --no-cache propose --branch linux-6.6.y
[ $status -eq 1 ] && [ ! -s "$tmp/out" ] &&
	grep -q "^error: cannot find the base of branch 'linux-6.6.y': cannot read commit $xfs: ." "$tmp/err" ||
	fail "damaged commit: $status $(cat "$tmp/err")"
ok "a damaged commit in a pack: $(cat "$tmp/err")"

# --- unborn branches, a detached HEAD ----------------------------------------
git init -q -b master "$tmp/empty"
expect_error "error: the repository has no commits yet (HEAD is the unborn branch 'master')" \
	"$STABLEPICK" -C "$tmp/empty" propose --branch master
expect_error "error: the repository has no commits yet (HEAD is the unborn branch 'master')" \
	"$STABLEPICK" -C "$tmp/empty" explain --branch master HEAD
expect_error "error: branch 'master' has no commits yet" \
	"$STABLEPICK" -C "$tmp/empty" mark --list --branch master
expect_error "error: revision 'HEAD' has no commits yet" \
	"$STABLEPICK" -C "$tmp/empty" patch-id HEAD

# HEAD on an unborn branch of a repository that has history: stablepick
# does not need HEAD; the unborn branch named is an error.
copy orphan
git -C "$tmp/orphan" checkout -q --orphan fresh
expect_same "$tmp/healthy" "$STABLEPICK" -C "$tmp/orphan" --no-cache propose \
	--branch linux-6.6.y --all
ok "HEAD on an unborn branch: the same proposal"
expect_error "error: branch 'fresh' has no commits yet" \
	"$STABLEPICK" -C "$tmp/orphan" propose --branch fresh
expect_error "error: 'fresh' for --upstream has no commits yet" \
	"$STABLEPICK" -C "$tmp/orphan" propose --branch linux-6.6.y --upstream fresh
expect_error "error: unknown branch 'linux-9.9.y'
hint: did you mean 'linux-6.6.y'?" \
	"$STABLEPICK" -C "$tmp/orphan" propose --branch linux-9.9.y

# A repository just made and fetched into: master is unborn, mainline
# is origin/master.
git init -q -b master "$tmp/fetched"
git -C "$tmp/fetched" fetch -q "$good" 'refs/heads/master:refs/remotes/origin/master' \
	'refs/heads/linux-6.6.y:refs/heads/linux-6.6.y' 'refs/tags/*:refs/tags/*'
expect_same "$tmp/healthy.json" "$STABLEPICK" -C "$tmp/fetched" --no-cache propose \
	--branch linux-6.6.y --format json
ok "an unborn master and origin/master: mainline is origin/master"

copy detached
git -C "$tmp/detached" checkout -q --detach master~2
expect_same "$tmp/healthy" "$STABLEPICK" -C "$tmp/detached" --no-cache propose \
	--branch linux-6.6.y --all
git -C "$tmp/detached" checkout -q --detach linux-6.6.y
expect_same "$tmp/healthy.json" "$STABLEPICK" -C "$tmp/detached" --no-cache propose \
	--branch linux-6.6.y --format json
ok "a detached HEAD: the same proposal"

# --- refs that dangle, loop or move ------------------------------------------
copy dangling
bogus=0123456789abcdef0123456789abcdef01234567
echo "$bogus" >"$tmp/dangling/.git/refs/heads/master"
expect_error "error: mainline 'master' points at $bogus, which is not in the repository" \
	"$STABLEPICK" -C "$tmp/dangling" propose --branch linux-6.6.y
expect_error "error: 'master' for --upstream points at $bogus, which is not in the repository" \
	"$STABLEPICK" -C "$tmp/dangling" propose --branch linux-6.6.y --upstream master

copy loop
git -C "$tmp/loop" symbolic-ref refs/heads/a refs/heads/b
git -C "$tmp/loop" symbolic-ref refs/heads/b refs/heads/a
run "$STABLEPICK" -C "$tmp/loop" propose --branch a
[ $status -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "^error: cannot resolve branch 'a': " "$tmp/err" ||
	fail "symbolic ref loop: $status $(cat "$tmp/err")"
ok "a loop of symbolic refs: $(cat "$tmp/err")"

# A ref that moves during a run cannot be timed from a test; stablepick
# reads each ref once, at the start, so what a moving ref can do to a
# run is what it leaves for the next one: caches and state that name
# commits rewritten away and pruned (a force-push, then gc), and refs
# deleted.  Those are tested here, deterministically.
copy moving
"$STABLEPICK" -C "$tmp/moving" propose --branch linux-6.6.y >/dev/null
"$STABLEPICK" -C "$tmp/moving" propose --branch linux-6.6.y --since last >/dev/null
# A base no tag names (a branch at a mainline commit is refused: one
# commit of its own).
test_tick
git -C "$tmp/moving" branch vendor "$(git -C "$tmp/moving" commit-tree \
	-p master~3 -m 'a vendor change' 'master~3^{tree}')"
"$STABLEPICK" -C "$tmp/moving" propose --branch vendor >/dev/null
old_master=$(git -C "$tmp/moving" rev-parse master)
old_base=$(git -C "$tmp/moving" rev-parse master~3)
# Mainline and the vendor branch rewritten from v6.6, the rest pruned.
git -C "$tmp/moving" checkout -q -b rewrite v6.6
test_commit -C "$tmp/moving" fs/ext4/inode.c 'int ext4; int again;' 'ext4: fix a crash, rewritten

Cc: stable@vger.kernel.org'
git -C "$tmp/moving" branch -f master rewrite
git -C "$tmp/moving" checkout -q --detach v6.6
test_commit -C "$tmp/moving" fs/ext4/inode.c 'int ext4; int vendor;' 'ext4: a vendor change'
git -C "$tmp/moving" branch -f vendor HEAD
git -C "$tmp/moving" checkout -q master
git -C "$tmp/moving" branch -D rewrite >/dev/null
git -C "$tmp/moving" reflog expire --expire=now --all
git -C "$tmp/moving" gc -q --prune=now
! git -C "$tmp/moving" cat-file -e "$old_master" 2>/dev/null || fail "old master not pruned"
! git -C "$tmp/moving" cat-file -e "$old_base" 2>/dev/null || fail "old base not pruned"
for b in linux-6.6.y vendor; do
	"$STABLEPICK" -C "$tmp/moving" --no-cache propose --branch "$b" --format json \
		>"$tmp/expect"
	expect_same "$tmp/expect" "$STABLEPICK" -C "$tmp/moving" propose --branch "$b" \
		--format json
done
ok "mainline and a branch rewritten and pruned since the cached run: the answer without caches"
# --since last names a tip that is gone: everything is listed again.
"$STABLEPICK" -C "$tmp/moving" --no-cache propose --branch linux-6.6.y --format json \
	>"$tmp/expect"
expect_same "$tmp/expect" "$STABLEPICK" -C "$tmp/moving" propose --branch linux-6.6.y \
	--since last --format json
ok "--since last after the last tip was pruned: everything again"
git -C "$tmp/moving" branch -D vendor >/dev/null
expect_error "error: unknown branch 'vendor'" \
	"$STABLEPICK" -C "$tmp/moving" propose --branch vendor
