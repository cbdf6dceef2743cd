#!/bin/sh
# The commit-graph: a scan on it (generation numbers, changed-path Bloom
# filters) answers as a scan of the commit objects does, with commits
# made after the graph, with a damaged graph, and without one; and no
# run changes a file of the repository (libgit2 "freshens" the pack or
# loose file of an object written again, unless told not to).
. "$TEST_SRCDIR/tests/lib.sh"
. "$TEST_SRCDIR/tests/e2e/fixture.sh"

repo=$tmp/repo
make_fixture "$repo"
cd "$repo"
# Commits outside fs/ for the filters to pass over, and a tag for soak.
for i in 1 2 3 4 5 6; do
	test_commit "mm/file$i.c" "int mm$i;" "mm: change $i"
done

sp() {
	STABLEPICK_TRACE=1 "$STABLEPICK" --no-cache "$@" 2>"$tmp/err"
}
walked() {
	sed -n 's/^trace: walk: //p' "$tmp/err"
}
answers() {
	sp propose --branch linux-6.6.y --format json >"$tmp/$1.json" ||
		fail "propose ($1): $(cat "$tmp/err")"
	sp explain --branch linux-6.6.y "$(git rev-parse master~8)" \
		>"$tmp/$1.explain" 2>&1 || true
}

answers objects
case $(walked) in
*"read from their objects"*) ;;
*) fail "no graph, yet: $(walked)" ;;
esac
[ -s "$tmp/objects.json" ] || fail "nothing proposed: the test is void"

git commit-graph write --reachable --changed-paths
answers graph
case $(walked) in
*"on the commit-graph, "[1-9]*" of them passed over by their Bloom filters") ;;
*) fail "the filters passed over nothing: $(walked)" ;;
esac
test_cmp "$tmp/objects.json" "$tmp/graph.json"
test_cmp "$tmp/objects.explain" "$tmp/graph.explain"
ok "on the commit-graph and its filters, the answers of the objects"

# A range that starts above the base has nothing below it, which the
# graph says from generation numbers (no walk to hide the range's
# start); one that starts below the base has the commits between.
ranges() {
	for r in master~9..master v6.6~1..master; do
		sp propose --branch linux-6.6.y --range "$r" --format json \
			>"$tmp/$1-$r.json" || fail "--range $r ($1): $(cat "$tmp/err")"
		grep '^trace: presence: the range starts above' "$tmp/err" \
			>"$tmp/$1-$r.trace" || :
	done
}
ranges graph
mv .git/objects/info/commit-graph "$tmp/commit-graph"
ranges objects
mv "$tmp/commit-graph" .git/objects/info/commit-graph
for r in master~9..master v6.6~1..master; do
	test_cmp "$tmp/objects-$r.json" "$tmp/graph-$r.json"
	[ ! -s "$tmp/objects-$r.trace" ] || fail "no graph, yet: $r"
done
[ -s "$tmp/graph-master~9..master.trace" ] || fail "walked below the base"
[ ! -s "$tmp/graph-v6.6~1..master.trace" ] ||
	fail "a range from below the base called above it"
grep -q '"verdict"' "$tmp/graph-v6.6~1..master.json" ||
	fail "nothing judged from below the base: the test is void"
ok "a range that starts above the base: none of it below, without a walk"

# Commits the graph does not hold: read from their objects, the rest
# from the graph, and still the same answers as without a graph.
fix_commit() {
	test_commit "$1" "$2" "$3

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>"
}
fix_commit fs/ext4/extents.c 'int extents_fixed;' 'ext4: fix a leak in extents'
test_commit mm/late.c 'int late;' 'mm: a late change'
answers stale
mv .git/objects/info/commit-graph "$tmp/commit-graph"
answers stale-objects
test_cmp "$tmp/stale-objects.json" "$tmp/stale.json"
grep -q 'ext4: fix a leak in extents' "$tmp/stale.json" ||
	fail "the commit made after the graph is missing"
ok "commits newer than the graph are read from their objects"

# A damaged graph: one warning, and the answers of the objects.
cp "$tmp/commit-graph" .git/objects/info/commit-graph
chmod u+w .git/objects/info/commit-graph
printf 'XXXX' | dd of=.git/objects/info/commit-graph conv=notrunc 2>/dev/null
answers damaged
test_cmp "$tmp/stale-objects.json" "$tmp/damaged.json"
grep -q "^warning: .*commit-graph" "$tmp/err" ||
	fail "no warning for the damaged graph: $(cat "$tmp/err")"
rm -f .git/objects/info/commit-graph
ok "a damaged graph is set aside with a warning"

# No file of the repository changes, whatever the run writes in memory
# (trial picks write thousands of objects, most of them already there).
git gc -q
git commit-graph write --reachable --changed-paths
find .git -type f -exec touch -d '2001-01-01 00:00:00' {} +
touch -d '2001-01-02 00:00:00' "$tmp/mark"
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/mbox" 2>"$tmp/err" ||
	fail "propose: $(cat "$tmp/err")"
grep -q '^Subject: ' "$tmp/mbox" || fail "no patch written: the test is void"
find .git -type f -newer "$tmp/mark" ! -path '*/stablepick/*' >"$tmp/changed"
test_cmp /dev/null "$tmp/changed"
ok "no file of the repository changes but stablepick's own"
