#!/bin/sh
# A fix that conflicts on a file outside the watched paths (the scan has
# no candidate that changed it): its blame walks the range's commits
# that changed the file, not libgit2's whole history, with libgit2's
# answers (STABLEPICK_TEST_BLAME=check compares them); the range is read
# once, for every such file.
. "$TEST_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/f2fs Documentation/filesystems tools
seq 1 40 | sed 's/^/line /' >fs/f2fs/node.c
seq 1 40 | sed 's/^/doc /' >Documentation/filesystems/f2fs.rst
seq 1 40 | sed 's/^/tool /' >tools/f2fs.sh
git add .
test_tick
git commit -q -m 'fs: add the code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

stable='Cc: stable@vger.kernel.org'

# Outside fs/: reworked, then an unrelated change, then the fix of both
# files; and another file outside fs/ that a merge brought.
test_change Documentation/filesystems/f2fs.rst 'doc 5' 'doc 5 reworked'
drework=$(test_commit_staged 'docs: f2fs: rework the mount options')
test_change Documentation/filesystems/f2fs.rst 'doc 30' 'doc 30 tidied'
test_commit_staged 'docs: f2fs: tidy up' >/dev/null
git checkout -q -b topic
test_change tools/f2fs.sh 'tool 8' 'tool 8 reworked'
trework=$(test_commit_staged 'tools: f2fs: rework the checker')
git checkout -q master
test_change fs/f2fs/node.c 'line 30' 'line 30 tidied'
test_commit_staged 'f2fs: tidy up the node code' >/dev/null
test_tick
git merge -q --no-ff -m "Merge branch 'topic'" topic
test_change fs/f2fs/node.c 'line 10' 'line 10 fixed'
test_change Documentation/filesystems/f2fs.rst 'doc 5 reworked' 'doc 5 fixed'
dfix=$(test_commit_staged 'f2fs: fix the mount options' "$stable")
test_change fs/f2fs/node.c 'line 20' 'line 20 fixed'
test_change tools/f2fs.sh 'tool 8 reworked' 'tool 8 fixed'
tfix=$(test_commit_staged 'f2fs: fix the checker' "$stable")

STABLEPICK_TEST_BLAME=check STABLEPICK_TRACE=1 "$STABLEPICK" propose \
	--branch linux-6.6.y --format json >"$tmp/json-check" 2>"$tmp/trace" ||
	{ cat "$tmp/trace" >&2; fail "the blames differ from libgit2's"; }
ok "the blames of files outside the watch are libgit2's"

STABLEPICK_TRACE=1 "$STABLEPICK" --no-cache propose --branch linux-6.6.y \
	--format json >"$tmp/json" 2>"$tmp/trace" || fail "propose failed"
grep -q '^trace: prerequisite series: files blamed: 2 from their history in the range, 0 by libgit2.s walk$' \
	"$tmp/trace" || { cat "$tmp/trace" >&2; fail "not blamed from the range"; }
[ "$(grep -c '^trace: blame: the 7 commits of the range read with their parents (merges, files outside the watched paths)$' "$tmp/trace")" = 1 ] ||
	{ cat "$tmp/trace" >&2; fail "the range is not read once"; }
cmp -s "$tmp/json" "$tmp/json-check" || fail "another answer than the checked run"
STABLEPICK_TEST_BLAME=libgit2 "$STABLEPICK" --no-cache propose \
	--branch linux-6.6.y --format json >"$tmp/json-libgit2" ||
	fail "propose failed"
cmp -s "$tmp/json" "$tmp/json-libgit2" || fail "another answer than libgit2's"
python3 - "$tmp/json" "$dfix" "$drework" "$tfix" "$trework" <<'PY' ||
import json, sys
got = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    got[o["commit"]] = o["applies_with"] or []
assert got[sys.argv[2]] == [sys.argv[3]], got.get(sys.argv[2])
assert got[sys.argv[4]] == [sys.argv[5]], got.get(sys.argv[4])
PY
	fail "not the series the blames name"
ok "each fix applies after the commit outside fs/ that made its lines"
