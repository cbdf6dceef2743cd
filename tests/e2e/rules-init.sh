#!/bin/sh
# `stablepick rules init DIR`: a starter overlay for the repository at
# hand, written whole or not at all and never over a file: standalone,
# a subsystem per top-level directory (or per directory --paths names),
# the backport lines and the lines naming a commit found in the
# messages with their counts, a release-tags pattern from the tags.
# rules check accepts it, and propose gives with it what it gives with
# the same overlay written by hand: on a generated project other than
# the kernel, and on the demo history.

. "$TEST_SRCDIR/tests/lib.sh"

# --- a project other than the kernel --------------------------------------

test_repo "$tmp/p"
cd "$tmp/p"
test_commit README 'A project' 'Initial commit'
test_commit lib/list.c 'int list;' 'lib: add lists'
test_commit src/main.c 'int main;' 'src: add main'
test_commit tools/t.sh 'echo t' 'tools: add t'
test_commit docs/a.txt 'a' 'docs: add a'
test_commit .github/ci.yml 'ci' 'ci: add a workflow'
git tag v1.0
git branch stable
test_commit lib/list.c 'int list2;' "$(printf 'lib: fix a crash in list_add\n\nThe list crashes when empty.\n\nFixes: %s ("lib: add lists")' \
	"$(git rev-parse --short=12 v1.0~4)")"
fix1=$(git rev-parse HEAD)
test_commit src/main.c 'int main2;' "$(printf 'src: fix a leak in main\n\nThis leaks memory and causes a crash.\n\nFixes: %s ("src: add main")\nAddresses: %s' \
	"$(git rev-parse --short=12 v1.0~3)" "$(git rev-parse --short=12 v1.0~3)")"
fix2=$(git rev-parse HEAD)
test_commit tools/t.sh 'echo t2' 'tools: add an option'
git tag v1.1-rc1
test_commit docs/a.txt 'b' 'docs: fix a typo'
git tag v1.1
git tag release-1.1
git checkout -q stable
test_tick
git cherry-pick -x "$fix1" >/dev/null
test_tick
git cherry-pick -x "$fix2" >/dev/null
test_commit lib/other.c 'int o;' "$(printf 'lib: add other\n\nmaster commit: %s\nmaster date: 2023-11-14' "$fix1")"
git tag v1.0.1
git checkout -q master

"$STABLEPICK" rules init --branch stable "$tmp/out" >"$tmp/stdout" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "rules init failed"; }
f=$tmp/out/project.rules
[ -f "$f" ] || fail "no $f"
grep -q "^wrote $f: 4 subsystems" "$tmp/stdout" || fail "no closing line: $(cat "$tmp/stdout")"
grep -q '^standalone$' "$f" || fail "not standalone"
grep '^subsystem \|^	paths ' "$f" >"$tmp/actual"
cat >"$tmp/expect" <<'END'
subsystem docs
	paths docs/
subsystem lib
	paths lib/
subsystem src
	paths src/
subsystem tools
	paths tools/
END
test_cmp "$tmp/expect" "$tmp/actual"
ok "a subsystem per top-level directory, .github left out"

grep -q '^#   master commit: <id>: 0 in master, 1 in stable$' "$f" ||
	fail "master commit: lines not counted"
! grep -q 'Upstream commit <id> \]:\|upstream\.:' "$f" ||
	fail "a form found nowhere is listed"
# A form the shipped rules read is named so; another is declared.
grep -q '^#   (cherry picked from commit <id>): 0 in master, 2 in stable (the shipped `backport cherry-picked` reads it)$' "$f" ||
	fail "the cherry-pick form is not said to be read by the shipped rules"
[ "$(grep -c '^backport ' "$f")" = 1 ] || fail "not one backport line declared"
grep -q '^backport master-commit	body	/' "$f" ||
	fail "Xen's form is not declared"
grep -q '^#   Fixes: 2 in master, 2 in stable (the shipped `link fixes` reads it)$' "$f" ||
	fail "Fixes: not counted"
grep -q '^#   Addresses: 1 in master, 1 in stable$' "$f" ||
	fail "another key naming a commit is not counted"
grep -q '^#link addresses	trailer:Addresses	' "$f" ||
	fail "no commented link for Addresses:"
grep -q '^# 1 other tag read so after another prefix (the newest: release-1\.1): edit$' "$f" ||
	fail "the tags of another prefix are not named"
grep -A1 '^# Release tags: 4 of the 5 tags read so, the newest:$' "$f" |
	grep -q '^#   v1\.1, v1\.1-rc1, v1\.0\.1, v1\.0\.$' ||
	fail "release tags: $(grep -A1 'Release tags' "$f")"
grep -q '^release-tags /^v(?<major>' "$f" || fail "no release-tags line"
ok "backport forms, Fixes-like keys and release tags with their counts"

"$STABLEPICK" --rules "$tmp/out" rules check >"$tmp/check" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "rules check rejects what rules init wrote"; }
grep -q "project.rules: ok (4 subsystems, 0 rules, 1 backport line, version 1, standalone)" "$tmp/check" ||
	fail "rules check: $(cat "$tmp/check")"
ok "rules check accepts it"

# The same overlay by hand: the blocks and Xen's backport line, which
# the branch's "master commit:" backport needs to be found by its line.
mkdir "$tmp/hand"
{
	echo standalone
	printf 'backport master-commit body /^master commit: (?<id>[0-9a-f]{40})$/m\n'
	for d in docs lib src tools; do
		printf 'subsystem %s\n\tpaths %s/\nend\n' "$d" "$d"
	done
} >"$tmp/hand/hand.rules"
"$STABLEPICK" --rules "$tmp/out" propose --branch stable --all >"$tmp/init.out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "propose with the written overlay failed"; }
"$STABLEPICK" --rules "$tmp/hand" propose --branch stable --all >"$tmp/hand.out" 2>&1 ||
	fail "propose with the hand-written overlay failed"
test_cmp "$tmp/hand.out" "$tmp/init.out"
grep -q '^proposed .* src  *src: fix a leak in main$' "$tmp/init.out" ||
	grep -q 'present.*src: fix a leak in main' "$tmp/init.out" ||
	fail "propose does not see the fix under src/: $(cat "$tmp/init.out")"
ok "propose runs with it as with the hand-written overlay"

# Never over a file, and nothing half-written.
cp "$f" "$tmp/before"
"$STABLEPICK" rules init --branch stable "$tmp/out" >"$tmp/stdout" 2>"$tmp/err" &&
	fail "rules init overwrote $f"
grep -q "^error: rule file '$f' exists: not overwritten$" "$tmp/err" ||
	fail "no error for the existing file: $(cat "$tmp/err")"
test_cmp "$tmp/before" "$f"
[ "$(ls -A "$tmp/out")" = project.rules ] || fail "left over: $(ls -A "$tmp/out")"
ok "an existing file is left alone"

# --paths: a subsystem per directory of a directory.
test_commit src/net/n.c 'int n;' 'net: add'
test_commit src/fs/f.c 'int f;' 'fs: add'
"$STABLEPICK" rules init --paths 'src/*/' "$tmp/out2" >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "rules init --paths failed"; }
grep '^subsystem \|^	paths ' "$tmp/out2/project.rules" >"$tmp/actual"
printf 'subsystem fs\n\tpaths src/fs/\nsubsystem net\n\tpaths src/net/\n' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" rules init --paths 'src/' "$tmp/out3" >/dev/null 2>"$tmp/err" &&
	fail "--paths src/ accepted"
grep -q "^error: bad --paths 'src/'" "$tmp/err" || fail "no error for --paths src/"
ok "--paths DIR/*/"

# --- the demo history --------------------------------------------------------

demo=$tmp/demo
"$TEST_SRCDIR/data/make-demo-history" "$demo" >/dev/null
cd "$demo"
"$STABLEPICK" rules init --branch linux-6.6.y "$tmp/demo-rules" >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "rules init on the demo failed"; }
f=$tmp/demo-rules/project.rules
grep -q '^#   commit <id> upstream\.: 0 in master, [1-9][0-9]* in linux-6\.6\.y (the shipped `backport upstream-line` reads it)$' "$f" ||
	fail "demo: the kernel's upstream line is not counted"
grep -q '^#   \[ Upstream commit <id> \]: 0 in master, [1-9][0-9]* in linux-6\.6\.y (the shipped `backport upstream-bracket` reads it)$' "$f" ||
	fail "demo: the [ Upstream commit ] form is not counted"
"$STABLEPICK" --rules "$tmp/demo-rules" rules check >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "demo: rules check rejects the overlay"; }
mkdir "$tmp/demo-hand"
{
	echo standalone
	git ls-tree -d --name-only master | grep -v '^\.' | while read -r d; do
		printf 'subsystem %s\n\tpaths %s/\nend\n' "$d" "$d"
	done
} >"$tmp/demo-hand/hand.rules"
"$STABLEPICK" --rules "$tmp/demo-rules" propose --branch linux-6.6.y --all >"$tmp/init.out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "demo: propose with the written overlay failed"; }
"$STABLEPICK" --rules "$tmp/demo-hand" propose --branch linux-6.6.y --all >"$tmp/hand.out" 2>&1 ||
	fail "demo: propose with the hand-written overlay failed"
test_cmp "$tmp/hand.out" "$tmp/init.out"
grep -q '^proposed ' "$tmp/init.out" || fail "demo: nothing proposed"
ok "demo: rules check accepts it, propose runs as with the hand-written overlay"
