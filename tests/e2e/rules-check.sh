#!/bin/sh
# `stablepick rules check`: a deliberately broken rule file gets every
# error reported, one per line, exactly as in broken.expect (after tig's
# config tests); the shipped rule files load cleanly; a missing file is
# one clear error.
#
# Needs STABLEPICK (the program) and TEST_SRCDIR (the source tree).

set -u

: "${STABLEPICK:?STABLEPICK is not set}"
: "${TEST_SRCDIR:?TEST_SRCDIR is not set}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rules-check.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
HOME=$tmp
GIT_CONFIG_NOSYSTEM=1
export HOME GIT_CONFIG_NOSYSTEM

failed=0
fail() {
	echo "FAIL: $*"
	failed=1
}
pass() {
	echo "ok: $*"
}

# Run from the source tree so that paths print relative, as written.
cd "$TEST_SRCDIR" || exit 99

# 1. The broken file: exact stderr, nothing on stdout, exit 1.
"$STABLEPICK" rules check tests/e2e/broken.rules >"$tmp/out" 2>"$tmp/err"
status=$?
if diff -u tests/e2e/broken.expect "$tmp/err"; then
	pass "broken.rules: every error reported"
else
	fail "broken.rules: stderr differs from broken.expect"
fi
[ "$status" -eq 1 ] || fail "broken.rules: exit $status, expected 1"
[ ! -s "$tmp/out" ] || fail "broken.rules: unexpected output on stdout"

# 2. The shipped rule files, checked together: clean, one line each.
"$STABLEPICK" rules check rules/*.rules >"$tmp/out" 2>"$tmp/err"
status=$?
if [ "$status" -eq 0 ] && [ ! -s "$tmp/err" ]; then
	pass "shipped rules load cleanly"
else
	cat "$tmp/err"
	fail "shipped rules: exit $status"
fi
for f in rules/*.rules; do
	grep -q "^$f: ok (" "$tmp/out" || fail "no summary line for $f"
done
grep -q '^rules/xfs\.rules: ok (1 subsystem, 3 rules, version 1)$' \
	"$tmp/out" || fail "unexpected summary for rules/xfs.rules"

# 3. The rules directory, as propose would load it (default.rules first).
"$STABLEPICK" --rules rules rules check >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 0 ] && [ ! -s "$tmp/err" ] ||
	fail "rules check --rules rules: exit $status"
head -n 1 "$tmp/out" | grep -q '^rules/default\.rules: ok (' ||
	fail "default.rules is not loaded first"
[ "$status" -eq 0 ] && pass "rules directory loads cleanly"

# 4. A file that is not there: one error, no line number, exit 1.
"$STABLEPICK" rules check tests/e2e/missing.rules >"$tmp/out" 2>"$tmp/err"
status=$?
printf '%s\n' "error: cannot read rule file 'tests/e2e/missing.rules': No such file or directory" >"$tmp/expect"
if diff -u "$tmp/expect" "$tmp/err"; then
	pass "missing file reported"
else
	fail "missing file: unexpected stderr"
fi
[ "$status" -eq 1 ] || fail "missing file: exit $status, expected 1"
[ ! -s "$tmp/out" ] || fail "missing file: unexpected output on stdout"

# 5. The same subsystem in two files: named with both places.
cat >"$tmp/a.rules" <<'EOF'
subsystem xfs
	paths fs/xfs/
end
EOF
cp "$tmp/a.rules" "$tmp/b.rules"
"$STABLEPICK" rules check "$tmp/a.rules" "$tmp/b.rules" >"$tmp/out" 2>"$tmp/err"
status=$?
printf '%s\n' "error: $tmp/b.rules:1: duplicate subsystem 'xfs' (first defined at $tmp/a.rules:1)" >"$tmp/expect"
if diff -u "$tmp/expect" "$tmp/err" && [ "$status" -eq 1 ]; then
	pass "duplicate subsystem across files"
else
	fail "duplicate subsystem across files: exit $status"
fi

# 6. In a repository, a spec without its slash that names a directory
#    of mainline's tree (fs/f2fs for fs/f2fs/) watches nothing: an error;
#    outside one, there is no tree to tell.
mkdir -p "$tmp/repo/fs/f2fs"
echo 'int f2fs;' >"$tmp/repo/fs/f2fs/super.c"
git -C "$tmp/repo" init -q -b master
git -C "$tmp/repo" add fs
git -C "$tmp/repo" -c user.name='A U Thor' -c user.email=author@example.com \
	commit -q -m 'f2fs: add the code'
printf 'subsystem f2fs\n\tpaths fs/f2fs\nend\n' >"$tmp/f2fs.rules"
"$STABLEPICK" -C "$tmp/repo" rules check "$tmp/f2fs.rules" >"$tmp/out" 2>"$tmp/err"
status=$?
printf '%s\n' "error: $tmp/f2fs.rules:2: paths 'fs/f2fs' of subsystem 'f2fs' is a directory in master: write 'fs/f2fs/' to watch what is in it" >"$tmp/expect"
if diff -u "$tmp/expect" "$tmp/err" && [ "$status" -eq 1 ] && [ ! -s "$tmp/out" ]; then
	pass "a directory without its slash, in a repository"
else
	fail "a directory without its slash: exit $status"
fi
(cd "$tmp" && "$STABLEPICK" rules check "$tmp/f2fs.rules") >"$tmp/out" 2>"$tmp/err" ||
	fail "outside a repository, the spec cannot be checked against a tree"

# 8. A standalone overlay: the kernel's subsystems and cc are gone, the
# shipped scoring (rules, link, threshold) stays; without `standalone`
# the same overlay adds to the kernel's subsystems.
mkdir "$tmp/alone"
cat >"$tmp/alone/project.rules" <<'EOF'
# A project other than the kernel.
standalone
subsystem core
	paths src/
end
EOF
"$STABLEPICK" --rules "$tmp/alone" rules list >"$tmp/out" 2>"$tmp/err"
status=$?
printf 'core\n' >"$tmp/expect"
if [ "$status" -eq 0 ] && diff -u "$tmp/expect" "$tmp/out"; then
	pass "standalone: only the overlay's subsystems"
else
	cat "$tmp/err"
	fail "standalone: rules list (exit $status)"
fi
"$STABLEPICK" --rules "$tmp/alone" rules check >"$tmp/out" 2>"$tmp/err" ||
	fail "standalone: rules check failed"
grep -q '/default\.rules: ok (0 subsystems, [1-9][0-9]* rules, 1 veto, 1 link, 3 backport lines, version 1, generic part only)$' "$tmp/out" ||
	fail "standalone: default.rules not kept for its generic part"
grep -q "^$tmp/alone/project\.rules: ok (1 subsystem, 0 rules, standalone)\$" "$tmp/out" ||
	fail "standalone: the overlay's summary does not say standalone"
! grep -q 'xfs\.rules\|btrfs\.rules' "$tmp/out" ||
	fail "standalone: a kernel subsystem file was loaded"
printf '{"message": "core: fix a crash\\n\\nThis fixes a crash.\\n\\nFixes: 0123456789ab (\\"core: x\\")\\n"}\n' \
	>"$tmp/msg.json"
"$STABLEPICK" --rules "$tmp/alone" rules test --messages "$tmp/msg.json" >"$tmp/alone.out" 2>&1
"$STABLEPICK" rules test --messages "$tmp/msg.json" >"$tmp/kernel.out" 2>&1
if [ "$(sed -n 1,2p "$tmp/kernel.out")" = "$(sed -n 1,2p "$tmp/alone.out")" ] &&
   grep -q "^picked: 1$" "$tmp/alone.out" && grep -q "^fixes-tag  *+8  *1 " "$tmp/alone.out"; then
	pass "standalone: the shipped scoring still applies"
else
	cat "$tmp/alone.out"
	fail "standalone: scores differ from the shipped rules'"
fi
sed -i '/^standalone$/d' "$tmp/alone/project.rules"
"$STABLEPICK" --rules "$tmp/alone" rules list >"$tmp/out" 2>&1
grep -q '^xfs$' "$tmp/out" && grep -q '^core$' "$tmp/out" ||
	fail "without standalone: the kernel's subsystems are not kept"

# 7. Usage errors.
"$STABLEPICK" rules frobnicate >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 129 ] || fail "unknown subcommand: exit $status, expected 129"
grep -q "^error: unknown rules subcommand 'frobnicate'" "$tmp/err" ||
	fail "unknown subcommand: no error"
[ "$status" -eq 129 ] && pass "unknown subcommand"

exit $failed
