#!/bin/sh
# Bad input: each case gets one clear message on stderr and a non-zero
# exit; nothing is printed on stdout.
. "$TEST_SRCDIR/tests/lib.sh"
. "$TEST_SRCDIR/tests/e2e/fixture.sh"

make_fixture "$tmp/repo"

# expect_error STATUS EXPECTED-STDERR COMMAND...
expect_error() {
	status=$1 expected=$2
	shift 2
	set +e
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	set -e
	printf '%s\n' "$expected" >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/err"
	[ "$got" -eq "$status" ] || fail "exit $got, expected $status: $*"
	[ ! -s "$tmp/out" ] || fail "unexpected output on stdout: $*"
	ok "$expected"
}

sp() { "$STABLEPICK" -C "$tmp/repo" "$@"; }

expect_error 1 "error: not a git repository: '$tmp/nowhere'" \
	"$STABLEPICK" -C "$tmp/nowhere" propose --branch linux-6.6.y
expect_error 1 "error: unknown branch 'linux-9.9.y'
hint: did you mean 'linux-6.6.y'?" \
	sp propose --branch linux-9.9.y
expect_error 1 "error: unknown revision 'mainline' for --upstream" \
	sp propose --branch linux-6.6.y --upstream mainline
expect_error 1 "error: 'v6.6' is not a range (expected A..B)" \
	sp propose --branch linux-6.6.y --range v6.6
expect_error 1 "error: 'v6.6...master' is not a range (expected A..B)" \
	sp propose --branch linux-6.6.y --range v6.6...master
expect_error 1 "error: unknown revision 'v9.9' for --range" \
	sp propose --branch linux-6.6.y --range v9.9..master
expect_error 1 "error: unknown subsystem 'xsf' for --subsystem
hint: did you mean 'xfs'?" \
	sp propose --branch linux-6.6.y --subsystem xfs,xsf
expect_error 1 "error: unknown subsystem 'EXT' for --subsystem
hint: did you mean 'ext4'?" \
	sp propose --branch linux-6.6.y --subsystem EXT
expect_error 1 "error: unknown subsystem 'zzzz' for --subsystem" \
	sp propose --branch linux-6.6.y --subsystem zzzz
expect_error 129 "error: unknown format 'yaml' (expected text, json, email, mbox, review, checklist, failed or html)" \
	sp propose --branch linux-6.6.y --format yaml
expect_error 129 "error: propose needs --branch
usage: stablepick propose --branch BRANCH... [--all] [--archive PATH]... [--cve DIR]
                          [--format text|json|email|mbox|review|checklist|failed|html]
                          [--in-reply-to MSGID] [--limit N] [--range A..B]
                          [--since last|REV] [--subsystem LIST]
                          [--tests-from DIR]... [--upstream REF]" \
	sp propose
expect_error 1 "error: unknown revision 'deadbeef' for explain" \
	sp explain --branch linux-6.6.y deadbeef
expect_error 129 "error: 'stablepick' is not a stablepick command (see 'stablepick --help')" \
	sp stablepick

# A misspelt command, subcommand or option: what it most likely means.
expect_error 129 "error: 'propse' is not a stablepick command (see 'stablepick --help')
hint: did you mean 'propose'?" sp propse
expect_error 129 "error: 'expl' is not a stablepick command (see 'stablepick --help')
hint: did you mean 'explain'?" sp expl
for case in "propose --brnach linux-6.6.y|hint: did you mean '--branch'?" \
	    "eval --branch linux-6.6.y --threshold-swep|hint: did you mean '--threshold-sweep'?" \
	    "rules tset|hint: did you mean 'test'?" \
	    "--rule x propose|hint: did you mean '--rules'?"; do
	args=${case%%|*}
	want=${case#*|}
	set +e
	# shellcheck disable=SC2086
	sp $args >"$tmp/out" 2>"$tmp/err"
	got=$?
	set -e
	[ "$got" -eq 129 ] || fail "exit $got, expected 129: $args"
	grep -qxF "$want" "$tmp/err" || { cat "$tmp/err"; fail "no '$want' for: $args"; }
	ok "$args: $want"
done
# Nothing near it: no hint.
set +e
sp propose --zzzzzz >"$tmp/out" 2>"$tmp/err"
set -e
! grep -q '^hint:' "$tmp/err" || fail "a hint for --zzzzzz: $(cat "$tmp/err")"
ok "no hint when nothing is near"

# No rules, or broken rules: every error of the file, with its line.
expect_error 1 "error: cannot read rule directory '$tmp/norules': No such file or directory" \
	"$STABLEPICK" -C "$tmp/repo" --rules "$tmp/norules" propose --branch linux-6.6.y
mkdir "$tmp/badrules"
cat >"$tmp/badrules/default.rules" <<'RULES'
threshold ten
rule fixes-tag +8 trailer:Fixes /[0-9a-f/
RULES
set +e
"$STABLEPICK" -C "$tmp/repo" --rules "$tmp/badrules" propose --branch linux-6.6.y \
	>"$tmp/out" 2>"$tmp/err"
got=$?
set -e
[ "$got" -eq 1 ] || fail "broken rules: exit $got"
grep -q "^error: $tmp/badrules/default.rules:1: " "$tmp/err" || fail "no error for line 1"
grep -q "^error: $tmp/badrules/default.rules:2: " "$tmp/err" || fail "no error for line 2"
[ ! -s "$tmp/out" ] || fail "output despite broken rules"
ok "broken rules: both errors reported"

# A shallow clone whose history stops before the branch's base.
git clone -q --depth 3 --no-single-branch "file://$tmp/repo" "$tmp/shallow"
cut=$(head -n 1 "$tmp/shallow/.git/shallow" | cut -c1-12)
expect_error 1 "error: shallow clone: the history of 'origin/linux-6.6.y' and mainline stops at $cut (run 'git fetch --unshallow')" \
	"$STABLEPICK" -C "$tmp/shallow" propose --branch origin/linux-6.6.y --upstream origin/master

# A megabyte of pattern is not repeated whole in its error: the first
# 80 bytes and the length.
python3 -c "print('rule big +1 subject /(' + 'a' * 1048576 + '/')" >"$tmp/badrules/default.rules"
set +e
"$STABLEPICK" -C "$tmp/repo" --rules "$tmp/badrules" propose --branch linux-6.6.y \
	>"$tmp/out" 2>"$tmp/err"
got=$?
set -e
[ "$got" -eq 1 ] || fail "a megabyte pattern: exit $got"
grep -q "^error: $tmp/badrules/default.rules:1: cannot compile pattern '(a\{79\}\.\.\.' (1048577 bytes): " \
	"$tmp/err" || fail "a megabyte pattern: $(head -c 400 "$tmp/err")"
[ "$(wc -c <"$tmp/err")" -lt 1000 ] || fail "a megabyte pattern: $(wc -c <"$tmp/err") bytes of error"
ok "a megabyte of pattern: its error quotes 80 bytes and the length"
