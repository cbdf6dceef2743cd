#!/bin/sh
# The series search blames a conflicting file from its own history in
# the range (the scanned commits that changed it) when those form one
# line of descent (back to the commit that added it, if one did), else
# from the range's commits, merges included (a file both sides of a
# merge changed), and by libgit2's walk otherwise: a file renamed in
# the range.  Either way the
# answers are libgit2's (STABLEPICK_TEST_BLAME=check compares every
# blame; =libgit2 asks it alone).
. "$TEST_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
seq 1 40 | sed 's/^/line /' >"$tmp/lines"
mkdir -p fs/ext4 fs/gfs2 fs/btrfs fs/f2fs
for f in fs/ext4/inode.c fs/gfs2/file.c fs/btrfs/ctree.c fs/f2fs/old.c; do
	cp "$tmp/lines" $f
done
git add fs
test_tick
git commit -q -m 'fs: add the code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

stable='Cc: stable@vger.kernel.org'

# judged_again MSG: the run traced in $tmp/trace asked ancestry of the
# range (no commit-graph: the scan's walk linked it); judged again from
# the caches (the memo of whole answers removed), the same JSON as
# $tmp/json, every blame from the trial cache and the range not read.
judged_again() {
	grep -q '^trace: ancestry: the [0-9]* commits of the range, linked by the scan' \
		"$tmp/trace" ||
		{ cat "$tmp/trace" >&2; fail "no ancestry of the range asked"; }
	rm -rf .git/stablepick/memo
	STABLEPICK_TRACE=1 "$STABLEPICK" propose --branch linux-6.6.y \
		--format json >"$tmp/json-again" 2>"$tmp/trace" ||
		fail "propose failed"
	cmp -s "$tmp/json" "$tmp/json-again" || fail "judged again, another answer"
	! grep -q '^trace: prerequisite series: blames: .*, [1-9][0-9]* computed' \
		"$tmp/trace" && ! grep -q '^trace: ancestry:' "$tmp/trace" ||
		{ cat "$tmp/trace" >&2; fail "judged again, the range is read again"; }
	ok "$1"
}

# ext4: one line of descent, with a change far from the fix between.
test_change fs/ext4/inode.c 'line 5' 'line 5 reworked'
rework=$(test_commit_staged 'ext4: rework the inode lookup')
test_change fs/ext4/inode.c 'line 35' 'line 35 tidied'
test_commit_staged 'ext4: tidy up the inode code' >/dev/null

# btrfs: a topic branch only it changed the file on, merged.
git checkout -q -b topic
test_change fs/btrfs/ctree.c 'line 8' 'line 8 reworked'
btopic=$(test_commit_staged 'btrfs: rework the tree search')
git checkout -q master
test_tick
git merge -q --no-ff -m "Merge branch 'topic'" topic

# gfs2: both sides of a merge changed the file.
git checkout -q -b side
test_change fs/gfs2/file.c 'line 10' 'line 10 reworked'
xside=$(test_commit_staged 'gfs2: rework the file locking')
git checkout -q master
test_change fs/gfs2/file.c 'line 30' 'line 30 tidied'
test_commit_staged 'gfs2: tidy up the file code' >/dev/null
test_tick
git merge -q --no-ff -m "Merge branch 'side'" side

# f2fs: the line changed, then the file renamed (libgit2 follows it).
test_change fs/f2fs/old.c 'line 12' 'line 12 reworked'
fprep=$(test_commit_staged 'f2fs: rework the node code')
git mv fs/f2fs/old.c fs/f2fs/node.c
test_commit_staged 'f2fs: rename old.c to node.c' >/dev/null

# ext4: a file added in the range, which the branch took too.
cp "$tmp/lines" fs/ext4/extents.c
git add fs/ext4/extents.c
eadd=$(test_commit_staged 'ext4: add the extent status code')
git checkout -q linux-6.6.y
git cherry-pick -x $eadd >/dev/null 2>&1 || fail "cannot backport $eadd"
git checkout -q master
test_change fs/ext4/extents.c 'line 5' 'line 5 reworked'
erework=$(test_commit_staged 'ext4: rework the extent status code')

test_change fs/ext4/extents.c 'line 5 reworked' 'line 5 fixed'
efix2=$(test_commit_staged 'ext4: fix a leak in the extent status code' "$stable")
test_change fs/ext4/inode.c 'line 5 reworked' 'line 5 fixed'
efix=$(test_commit_staged 'ext4: fix a crash in the inode lookup' "$stable")
test_change fs/btrfs/ctree.c 'line 8 reworked' 'line 8 fixed'
bfix=$(test_commit_staged 'btrfs: fix a crash in the tree search' "$stable")
test_change fs/gfs2/file.c 'line 10 reworked' 'line 10 fixed'
xfix=$(test_commit_staged 'gfs2: fix a deadlock in the file locking' "$stable")
test_change fs/f2fs/node.c 'line 12 reworked' 'line 12 fixed'
test_commit_staged 'f2fs: fix a crash in the node code' "$stable" >/dev/null

STABLEPICK_TEST_BLAME=check STABLEPICK_TRACE=1 "$STABLEPICK" propose \
	--branch linux-6.6.y --format json >"$tmp/json" 2>"$tmp/trace" ||
	{ cat "$tmp/trace" >&2; fail "the blames differ from libgit2's"; }
ok "every blame from the file's history is libgit2's"

# Without a commit-graph the first question of ancestry takes the
# range's links from the scan; judged again from the caches, the
# answers are kept there.
judged_again "judged again from the caches, the range is not read for ancestry"

# A week later (one new mainline commit): the scan walks the new commit
# alone, so the first question of ancestry reads the range; the answers
# are those of a run without caches.
git checkout -q master
echo 'new' >README.new && git add README.new
test_commit_staged 'docs: a new file' >/dev/null
rm -rf .git/stablepick/memo .git/stablepick/trial-cache*
STABLEPICK_TRACE=1 "$STABLEPICK" propose --branch linux-6.6.y \
	--format json >"$tmp/json-week" 2>"$tmp/trace" ||
	fail "propose failed"
"$STABLEPICK" --no-cache propose --branch linux-6.6.y --format json \
	>"$tmp/json-week-nc" || fail "propose failed"
grep -q '^trace: scan: .* 1 of them walked' "$tmp/trace" &&
	grep -q '^trace: ancestry: the [0-9]* commits of the range read with their parents' \
		"$tmp/trace" ||
	{ cat "$tmp/trace" >&2; fail "the week's run did not read the range"; }
cmp -s "$tmp/json-week" "$tmp/json-week-nc" ||
	fail "the week's run answers otherwise than a run without caches"
ok "a week later, the range read for ancestry: the answers of a run without caches"

STABLEPICK_TRACE=1 "$STABLEPICK" --no-cache propose --branch linux-6.6.y \
	--format json >"$tmp/json-history" 2>"$tmp/trace" ||
	fail "propose failed"
grep -q '^trace: prerequisite series: files blamed: 4 from their history in the range, 1 by libgit2.s walk$' \
	"$tmp/trace" || { cat "$tmp/trace" >&2; fail "not blamed the ways expected"; }
ok "ext4 (one file added in the range), btrfs and gfs2 (merged changes) from their history; f2fs (renamed) by libgit2"

STABLEPICK_TEST_BLAME=libgit2 "$STABLEPICK" --no-cache propose \
	--branch linux-6.6.y --format json >"$tmp/json-libgit2" ||
	fail "propose failed"
cmp -s "$tmp/json-history" "$tmp/json-libgit2" ||
	fail "the JSON differs from libgit2's blames"
cmp -s "$tmp/json" "$tmp/json-libgit2" ||
	fail "the JSON of the checked run differs"
ok "the same JSON as with libgit2's blames alone"

python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["verdict"] == "proposed" and o["applies_with"]:
        print(o["commit"], json.dumps(o["applies_with"]))
' "$tmp/json-history" | sort >"$tmp/actual"
grep -q "^$efix \[\"$rework\"\]$" "$tmp/actual" &&
	grep -q "^$bfix \[\"$btopic\"\]$" "$tmp/actual" &&
	grep -q "^$xfix \[\"$xside\"\]$" "$tmp/actual" &&
	grep -q "\"$fprep\"" "$tmp/actual" &&
	grep -q "^$efix2 \[\"$erework\"\]$" "$tmp/actual" ||
	{ cat "$tmp/actual" >&2; fail "a series is not the one the blame names"; }
ok "each fix applies after the commit that made its lines"

# Many random edits (lines added, removed and changed, some files both
# sides of merges change), then a fix of each file's lines that the
# branch has otherwise: each blame, either way, is libgit2's.
random=$tmp/random
test_repo "$random"
cd "$random"
python3 - <<'PY'
import os, random, subprocess
rnd = random.Random(7)
env = dict(os.environ)
tick = [1700000000]
def git(*args):
    tick[0] += 60
    env['GIT_AUTHOR_DATE'] = env['GIT_COMMITTER_DATE'] = '%d +0000' % tick[0]
    subprocess.run(('git',) + args, check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
files = ['fs/ext4/f%d.c' % i for i in range(4)]
def edit(path, n):
    lines = open(path).read().split('\n')[:-1]
    for _ in range(n):
        k = rnd.randrange(len(lines) + 1)
        op = rnd.random()
        if op < 0.4 or len(lines) < 5:
            lines[k:k] = ['add %d %d' % (tick[0], j) for j in range(rnd.randint(1, 3))]
        elif op < 0.7:
            del lines[k:k + rnd.randint(1, 2)]
        else:
            lines[min(k, len(lines) - 1)] = 'change %d' % tick[0]
    open(path, 'w').write('\n'.join(lines) + '\n')
    git('add', path)
os.makedirs('fs/ext4')
for f in files:
    open(f, 'w').write(''.join('line %d\n' % i for i in range(1, 61)))
git('add', 'fs')
git('commit', '-q', '-m', 'fs: add the code')
git('tag', '-a', '-m', 'Linux 6.6', 'v6.6')
git('branch', 'linux-6.6.y')
for n in range(60):
    if rnd.random() < 0.15:
        git('checkout', '-q', '-b', 'topic%d' % n)
        for _ in range(rnd.randint(1, 3)):
            edit(rnd.choice(files), rnd.randint(1, 4))
            git('commit', '-q', '-m', 'ext4: topic change %d' % n)
        git('checkout', '-q', 'master')
        if rnd.random() < 0.5:
            edit(rnd.choice(files), 1)
            git('commit', '-q', '-m', 'ext4: change %d beside' % n)
        try:
            git('merge', '-q', '--no-ff', '-m', 'Merge topic%d' % n, 'topic%d' % n)
        except subprocess.CalledProcessError:
            git('merge', '--abort')
    else:
        edit(rnd.choice(files), rnd.randint(1, 4))
        git('commit', '-q', '-m', 'ext4: change %d' % n)
for i, f in enumerate(files):
    edit(f, 2)
    git('commit', '-q', '-m', 'ext4: fix a crash %d\n\nCc: stable@vger.kernel.org' % i)
PY
STABLEPICK_TEST_BLAME=check "$STABLEPICK" --no-cache propose \
	--branch linux-6.6.y --format json >"$tmp/json" 2>"$tmp/err" ||
	{ cat "$tmp/err" >&2; fail "a blame differs from libgit2's"; }
STABLEPICK_TRACE=1 "$STABLEPICK" propose --branch linux-6.6.y \
	--format json >"$tmp/json-again" 2>"$tmp/trace"
grep -q '^trace: prerequisite series: files blamed: [1-9][0-9]* from their history in the range, 0 by libgit2.s walk$' \
	"$tmp/trace" || { cat "$tmp/trace" >&2; fail "a file (no rename) blamed by libgit2"; }
cmp -s "$tmp/json" "$tmp/json-again" || fail "the JSON differs from libgit2's"
ok "random edits: every blame from a file's history is libgit2's"

# The searches ordered sets of several commits: judged again, the
# answers of ancestry come from the trial cache.
judged_again "random edits, judged again: the range is not read for ancestry"
