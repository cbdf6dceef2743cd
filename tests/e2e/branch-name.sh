#!/bin/sh
# --branch NAME in a fresh clone, where the branch is origin/NAME: taken
# as git checkout takes it (the one remote that has it, or the one
# checkout.defaultRemote names), said on stderr; of several remotes, an
# error naming them; a name nothing has, an error with the nearest
# branches.
. "$TEST_SRCDIR/tests/lib.sh"
. "$TEST_SRCDIR/tests/e2e/fixture.sh"

make_fixture "$tmp/repo"
git clone -q "$tmp/repo" "$tmp/clone"
git -C "$tmp/clone" branch -a >"$tmp/branches"
! grep -qx '  linux-6.6.y' "$tmp/branches" || fail "the clone has a local linux-6.6.y"

# expect_error EXPECTED-STDERR COMMAND...: exit 1, nothing on stdout.
expect_error() {
	expected=$1
	shift
	set +e
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	set -e
	printf '%s\n' "$expected" >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/err"
	[ "$got" -eq 1 ] || fail "exit $got, expected 1: $*"
	[ ! -s "$tmp/out" ] || fail "unexpected output on stdout: $*"
	ok "$(head -n 1 "$tmp/expect")"
}

sp() { "$STABLEPICK" -C "$tmp/clone" "$@"; }

# The short name: the same answer as origin/linux-6.6.y, and a note.
sp --no-cache propose --branch origin/linux-6.6.y --all --format json \
	>"$tmp/expect" 2>"$tmp/err"
[ ! -s "$tmp/err" ] || fail "origin/linux-6.6.y: $(cat "$tmp/err")"
sp --no-cache propose --branch linux-6.6.y --all --format json \
	>"$tmp/actual" 2>"$tmp/err"
test_cmp "$tmp/expect" "$tmp/actual"
echo "branch 'linux-6.6.y' taken as 'origin/linux-6.6.y'" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/err"
jq -s -e 'any(.[]; .verdict == "present")' "$tmp/actual" >/dev/null ||
	fail "the backport in origin/linux-6.6.y is not seen"
ok "propose --branch linux-6.6.y in a fresh clone: origin/linux-6.6.y"

# The text names the branch read; a second run (memo, caches) the same.
sp propose --branch linux-6.6.y >"$tmp/first" 2>/dev/null
grep -q '^branch origin/linux-6.6.y (base v6.6)' "$tmp/first" ||
	fail "$(head -n 2 "$tmp/first")"
sp propose --branch linux-6.6.y >"$tmp/second" 2>/dev/null
test_cmp "$tmp/first" "$tmp/second"
ok "the text names origin/linux-6.6.y; the kept answer is the same"

# A local branch of that name wins, as for git checkout; the kept
# answer of the remote's branch is not shown for it.
git -C "$tmp/clone" branch -q linux-6.6.y origin/linux-6.6.y~1
sp propose --branch linux-6.6.y >"$tmp/local" 2>"$tmp/err"
[ ! -s "$tmp/err" ] || fail "a local linux-6.6.y: $(cat "$tmp/err")"
grep -q '^branch linux-6.6.y (base v6.6): 0 commits after the base' \
	"$tmp/local" || fail "$(head -n 1 "$tmp/local")"
git -C "$tmp/clone" branch -q -D linux-6.6.y
ok "a local branch of the name is read, not the remote's"

# The other commands that take a branch: mark (the ledger's key is the
# branch's name), explain, a glob.
sp mark --branch linux-6.6.y HEAD deferred >"$tmp/out" 2>"$tmp/err"
grep -qx "branch 'linux-6.6.y' taken as 'origin/linux-6.6.y'" "$tmp/err" ||
	fail "mark: $(cat "$tmp/err")"
grep -q 'linux-6.6.y' "$tmp/clone/.git/stablepick/ledger" ||
	fail "no ledger entry"
! grep -q 'origin/' "$tmp/clone/.git/stablepick/ledger" ||
	fail "the ledger keys on the remote: $(cat "$tmp/clone/.git/stablepick/ledger")"
sp mark --branch origin/linux-6.6.y --list >"$tmp/list" 2>"$tmp/err"
grep -q deferred "$tmp/list" || fail "mark --list: $(cat "$tmp/list")"
uaf=$(git -C "$tmp/clone" rev-parse ':/ext4: fix use-after-free')
sp explain --branch linux-6.6.y "$uaf" >"$tmp/out" 2>"$tmp/err"
grep -q 'Presence in origin/linux-6.6.y' "$tmp/out" || fail "explain: $(cat "$tmp/out")"
sp --no-cache propose --branch 'linux-*' >"$tmp/out" 2>"$tmp/err"
grep -q '^branch origin/linux-6.6.y (base v6.6)' "$tmp/out" ||
	fail "glob: $(cat "$tmp/out" "$tmp/err")"
ok "mark, explain and a glob take the remote's branch too"

# A typo: the nearest branches, the remote's among them.
expect_error "error: unknown branch 'linux-6.6y'
hint: did you mean 'origin/linux-6.6.y'?" sp propose --branch linux-6.6y
expect_error "error: unknown branch 'mastr'
hint: did you mean 'master'?" sp propose --branch mastr
expect_error "error: unknown branch 'linux-6.6y'
hint: did you mean 'origin/linux-6.6.y'?" sp mark --branch linux-6.6y HEAD accepted
expect_error "error: unknown branch 'zzzzzzzz'" sp propose --branch zzzzzzzz
# The other way: a remote's name where there is no remote.
expect_error "error: unknown branch 'origin/linux-6.6.y'
hint: did you mean 'linux-6.6.y'?" \
	"$STABLEPICK" -C "$tmp/repo" propose --branch origin/linux-6.6.y

# Two remotes with the branch: which one is for the user to say, or
# for checkout.defaultRemote.
git -C "$tmp/clone" remote add fork "$tmp/repo"
git -C "$tmp/clone" fetch -q fork
expect_error "error: branch 'linux-6.6.y' is ambiguous: it is 'fork/linux-6.6.y' and 'origin/linux-6.6.y'; name one" \
	sp propose --branch linux-6.6.y
expect_error "error: unknown branch 'linux-6.6y'
hint: did you mean one of these?
hint: 	fork/linux-6.6.y
hint: 	origin/linux-6.6.y" sp propose --branch linux-6.6y
git -C "$tmp/clone" config checkout.defaultRemote fork
sp --no-cache propose --branch linux-6.6.y >"$tmp/out" 2>"$tmp/err"
grep -qx "branch 'linux-6.6.y' taken as 'fork/linux-6.6.y'" "$tmp/err" ||
	fail "checkout.defaultRemote: $(cat "$tmp/err")"
grep -q '^branch fork/linux-6.6.y' "$tmp/out" || fail "$(head -n 1 "$tmp/out")"
ok "checkout.defaultRemote chooses among remotes"

# Mainline itself, or a commit of it, is no branch to backport to: an
# error, not an empty answer.  A branch still at its release tag (just
# cut, no backport yet) is one.
r() { "$STABLEPICK" -C "$tmp/repo" "$@"; }
expect_error "error: branch 'master' is mainline itself (upstream 'master')" \
	r propose --branch master
expect_error "error: branch 'origin/master' is mainline itself (upstream 'master')" \
	sp propose --branch origin/master
expect_error "error: branch 'master~1' is an ancestor of mainline (upstream 'master'): nothing is backported to it" \
	r propose --branch master~1
expect_error "error: branch 'master~2' is an ancestor of mainline (upstream 'master~1'): nothing is backported to it" \
	r explain --branch master~2 --upstream master~1 "$uaf"
git -C "$tmp/repo" branch linux-6.7.y v6.6
r propose --branch linux-6.7.y >"$tmp/out" 2>"$tmp/err" ||
	fail "a branch at its release tag: $(cat "$tmp/err")"
grep -q '^proposed' "$tmp/out" || fail "$(cat "$tmp/out")"
ok "a branch at its release tag, no backport yet, gets its proposals"
# The base kept from an earlier run is a guess: a branch moved onto
# mainline since is found out all the same.
r propose --branch linux-6.7.y --format json >/dev/null 2>&1
git -C "$tmp/repo" branch -f linux-6.7.y master~1
expect_error "error: branch 'linux-6.7.y' is an ancestor of mainline (upstream 'master'): nothing is backported to it" \
	r propose --branch linux-6.7.y
