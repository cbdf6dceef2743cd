#!/bin/sh
# `stablepick rules check --branch B` in a repository: the commits of
# the range that change files no subsystem watches, by directory.  The
# NetworkManager case: an overlay with blocks for src/core/ and
# src/libnm/ but none for the files directly under src/ lost their
# commits without a word; the report names src/ and their number.

. "$TEST_SRCDIR/tests/lib.sh"

test_repo "$tmp/r"
cd "$tmp/r"
test_commit src/core/core.c 'int core;' 'core: start'
test_commit src/nm-main.c 'int main;' 'main: start'
test_commit tests/unit/t.c 'int t;' 'tests: start'
git branch stable

test_fix src/nm-main.c 'int main(void);' 'main: fix a crash on startup' \
	'Fixes: 0123456789ab ("main: start")'
printf 'int core2;\n' >src/core/core.c
printf 'int main2;\n' >src/nm-main.c
git add src
test_tick
git commit -q -m 'core, main: fix a leak'
test_commit src/nm-dispatch.c 'int d;' 'dispatch: fix a race'
test_commit src/core/core.c 'int core3;' 'core: fix a hang'
test_commit src/libnm/l.c 'int l;' 'libnm: fix a leak'
test_commit tests/unit/t.c 'int t2;' 'tests: fix a flaky test'
test_commit tests/integ/i.c 'int i;' 'tests: add an integration test'
test_commit README 'NetworkManager' 'README: fix a typo'

mkdir "$tmp/overlay"
cat >"$tmp/overlay/nm.rules" <<'END'
standalone
subsystem core
	paths src/core/
end
subsystem libnm
	paths src/libnm/
	policy ignore
end
END

base=$(git rev-parse --short=12 stable)
"$STABLEPICK" --rules "$tmp/overlay" rules check --branch stable >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "rules check --branch failed"; }
sed -n '/^gaps in\|^no gaps/,$p' "$tmp/out" >"$tmp/actual"
cat >"$tmp/expect" <<END
gaps in $base..master: 5 of 8 commits change files no subsystem watches, 4 of them no watched file at all
      3  src/
      2  tests/
1 commit changes files at the top of the tree, which no path spec names
END
test_cmp "$tmp/expect" "$tmp/actual"
ok "the gap under src/ is named with its 3 commits; tests/ as a whole"
[ ! -s "$tmp/err" ] || fail "unexpected stderr: $(cat "$tmp/err")"

# An ignored subsystem is no gap (libnm above); a block for the files
# directly under src/ and one for tests/ close the gaps.
cat >>"$tmp/overlay/nm.rules" <<'END'
subsystem daemon
	paths src/*.c src/*.h
end
subsystem tests
	paths tests/
	policy ignore
end
END
"$STABLEPICK" --rules "$tmp/overlay" rules check --range stable..master >"$tmp/out" 2>"$tmp/err" ||
	fail "rules check --range failed"
grep -q '^no gaps in stable\.\.master: every file its 8 commits change is watched$' "$tmp/out" ||
	{ cat "$tmp/out"; fail "the gaps are not closed"; }
ok "the blocks close the gaps"

# Without a range, rules check says nothing of gaps, as before.
"$STABLEPICK" --rules "$tmp/overlay" rules check >"$tmp/out" 2>"$tmp/err" ||
	fail "rules check failed"
! grep -q 'gaps' "$tmp/out" || fail "gaps reported without a range"
ok "no range, no gap report"
