#!/bin/sh
# A blame through a merge whose first parent forked below the base goes
# on below it, where libgit2 names the commits that made the lines
# there: they are not prerequisites (the branch has them).  That a commit blame
# names is at or below the base is answered by the scanned range (an
# ancestor of a pick of the range is of the range or below its start),
# so a run judged again from the caches reads no history for it.
. "$TEST_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/f2fs
seq 1 40 | sed 's/^/line /' >fs/f2fs/old.c
git add fs
test_tick
git commit -q -m 'fs: add the code'


# Below the base: a line the fix changes is made here; a topic branch
# forks here too.
test_change fs/f2fs/old.c 'line 14' 'line 14 old'
below=$(test_commit_staged 'f2fs: rework the node code')
git branch topic
echo 'release notes' >NOTES
git add NOTES
test_commit_staged 'Release notes' >/dev/null
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# The range: a line reworked on master; the topic, which merges master
# (its own line first) and is then master.  Blame from the merge goes
# down the topic's side, below the base without meeting it.
test_change fs/f2fs/old.c 'line 12' 'line 12 reworked'
prep=$(test_commit_staged 'f2fs: rework the node lookup')
git checkout -q topic
test_change fs/f2fs/old.c 'line 30' 'line 30 topic'
test_commit_staged 'f2fs: tidy up the node code' >/dev/null
test_tick
git merge -q --no-ff -m "Merge branch 'master' into topic" master
git checkout -q master
git merge -q --ff-only topic
test_change fs/f2fs/old.c 'line 12 reworked' 'line 12 fixed'
test_change fs/f2fs/old.c 'line 14 old' 'line 14 fixed'
test_commit_staged 'f2fs: fix a crash in the node code' 'Cc: stable@vger.kernel.org' >/dev/null

STABLEPICK_TEST_BLAME=libgit2 STABLEPICK_TRACE=1 "$STABLEPICK" propose \
	--branch linux-6.6.y --format json >"$tmp/json" 2>"$tmp/trace" ||
	{ cat "$tmp/trace" >&2; fail "propose failed"; }
grep -q '^trace: prerequisite series: files blamed: 0 from their history in the range, 1 by libgit2.s walk$' \
	"$tmp/trace" || { cat "$tmp/trace" >&2; fail "not blamed by libgit2"; }
python3 - "$tmp/json" "$prep" "$below" <<'PY' || fail "not the prerequisite expected"
import json, sys
named = []
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["subject"] == "f2fs: fix a crash in the node code":
        named = o["applies_with"] or []
assert sys.argv[2] in named, named
assert sys.argv[3] not in named, named
PY
ok "the commit below the base that made a line is not a prerequisite"

rm -rf .git/stablepick/memo
STABLEPICK_TRACE=1 "$STABLEPICK" propose --branch linux-6.6.y \
	--format json >"$tmp/json-again" 2>"$tmp/trace" ||
	fail "propose failed"
cmp -s "$tmp/json" "$tmp/json-again" || fail "judged again, another answer"
! grep -q '^trace: ancestry:' "$tmp/trace" ||
	{ cat "$tmp/trace" >&2; fail "judged again, history read for ancestry"; }
ok "judged again from the caches, no history read to place what blame named"

# A fix made on a topic forked below the base (before the file last
# changed there), merged: its parent is below the base, so every line
# it changes is the base's or below.  Its blame needs no walk
# (libgit2's goes down to the first commit).  The branch changed the
# line next to it: it conflicts.
git checkout -q linux-6.6.y
test_change fs/f2fs/old.c 'line 15' 'line 15 stable'
test_commit_staged 'f2fs: a stable-only change' >/dev/null
git checkout -q -b oldfix "$below~1"
test_change fs/f2fs/old.c 'line 16' 'line 16 fixed'
test_commit_staged 'f2fs: fix a leak in the node code' 'Cc: stable@vger.kernel.org' >/dev/null
git checkout -q master
test_tick
git merge -q --no-ff -m "Merge branch 'oldfix'" oldfix
STABLEPICK_TEST_BLAME=check "$STABLEPICK" --no-cache propose \
	--branch linux-6.6.y --format json >"$tmp/json-check" 2>"$tmp/err" ||
	{ cat "$tmp/err" >&2; fail "the blames differ from libgit2's"; }
STABLEPICK_TRACE=1 "$STABLEPICK" --no-cache propose --branch linux-6.6.y \
	--format json >"$tmp/json" 2>"$tmp/trace" || fail "propose failed"
cmp -s "$tmp/json" "$tmp/json-check" || fail "another answer than the checked run"
grep -q '^trace: prerequisite series: files blamed: [1-9][0-9]* from their history in the range, 0 by libgit2.s walk$' \
	"$tmp/trace" || { cat "$tmp/trace" >&2; fail "a file blamed by libgit2"; }
python3 - "$tmp/json" <<'PY' || fail "the topic's fix is not blamed, or names a commit"
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["subject"] == "f2fs: fix a leak in the node code":
        assert o["verdict"] == "proposed", o["verdict"]
        assert not o["applies_with"], o["applies_with"]
        break
else:
    raise SystemExit("no such commit")
PY
ok "a fix on a topic forked below the base: nothing after the base made its lines"
