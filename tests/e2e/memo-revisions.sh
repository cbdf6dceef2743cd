#!/bin/sh
# What the revisions a command names resolve to is an input of the kept
# answer (the memo), also when no ref under refs/ moves: FETCH_HEAD,
# ORIG_HEAD, a reflog's master@{1}, in --upstream, --range or
# stablepick.upstream.  A warm run after such a move prints what a run
# without the caches prints; with nothing moved, the kept answer.
. "$TEST_SRCDIR/tests/lib.sh"

STABLEPICK_NOW=1700600000	# 2023-11-21 21:33:20 UTC
export STABLEPICK_NOW
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
git config core.logAllRefUpdates true
test_commit fs/ext4/inode.c 'int ext4;' 'Initial commit'
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
for i in 1 2 3 4; do
	test_fix "fs/ext4/f$i.c" "int f$i;" "ext4: fix a leak in f$i" \
		'Cc: stable@vger.kernel.org'
done

sp() {
	STABLEPICK_TRACE=1 "$STABLEPICK" "$@" 2>"$tmp/err"
}
kept() {
	grep -q '^trace: memo: .* holds the answer of these inputs$' "$tmp/err" ||
		fail "$1: not the kept answer: $(cat "$tmp/err")"
}
# same WHAT ARGS...: a warm propose prints, byte for byte, what one
# without the caches prints.
same() {
	local what=$1
	shift
	"$STABLEPICK" --no-cache propose --branch linux-6.6.y --all "$@" \
		>"$tmp/expect" 2>/dev/null
	sp propose --branch linux-6.6.y --all "$@" >"$tmp/actual"
	cmp "$tmp/expect" "$tmp/actual" || {
		diff -u "$tmp/expect" "$tmp/actual"
		fail "$what: the warm run is not the run without the caches"
	}
}
# walked N: the answer walked N mainline commits.
walked() {
	grep -q "^mainline .*: $1 commits\{0,1\} walked" "$tmp/expect" ||
		fail "not $1 commits walked: $(sed -n 2p "$tmp/expect")"
}

# check WHAT MOVE ARGS...: an answer, kept; then MOVE (which moves no
# ref under refs/), and the answer is the new one.
check() {
	local what=$1 move=$2
	shift 2
	same "$what" "$@"
	walked 3
	same "$what, again" "$@"
	kept "$what, again"
	eval "$move"
	same "$what, moved" "$@"
	walked 4
	same "$what, moved, again" "$@"
	kept "$what, moved, again"
	ok "$what: the answer follows what it resolves to"
}

# Fetched from branches of its own, which stay where they are.
git branch week3 master~1
git branch week4 master
git fetch -q . week3
check "--upstream FETCH_HEAD" "git fetch -q . week4" --upstream FETCH_HEAD

git update-ref ORIG_HEAD master~1
check "--upstream ORIG_HEAD" "git update-ref ORIG_HEAD master" \
	--upstream ORIG_HEAD

git update-ref ORIG_HEAD master~1
check "--range v6.6..ORIG_HEAD" "git update-ref ORIG_HEAD master" \
	--range v6.6..ORIG_HEAD

git update-ref ORIG_HEAD master~1
git config stablepick.upstream ORIG_HEAD
check "stablepick.upstream ORIG_HEAD" "git update-ref ORIG_HEAD master"
git config --unset stablepick.upstream

# master@{1} is master~1; master to master~2 and back, and master@{1}
# is master~2, master itself where it was.
tip=$(git rev-parse master)
git update-ref refs/heads/master master~1
git update-ref refs/heads/master "$tip"
[ "$(git rev-parse 'master@{1}')" = "$(git rev-parse master~1)" ] ||
	fail "the fixture's reflog"
same "--upstream master@{1}" --upstream 'master@{1}'
walked 3
same "--upstream master@{1}, again" --upstream 'master@{1}'
kept "--upstream master@{1}, again"
git update-ref refs/heads/master master~2
git update-ref refs/heads/master "$tip"
same "--upstream master@{1}, the reflog changed" --upstream 'master@{1}'
walked 2
ok "--upstream master@{1}: the answer follows the reflog"
