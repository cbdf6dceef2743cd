#!/bin/sh
# Lines a merge made: blame names the merge, which no one cherry-picks;
# the series search leaves it out and says so, instead of failing the
# run (NetworkManager's nm-1-54 had such a fix: "cannot trial-pick
# merge 6a4e6fab403b").
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/ext4
seq 1 20 | sed 's/^/line /' >fs/ext4/inode.c
git add fs
test_tick
git commit -q -m 'fs: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# Two lines of development change line 10 each their way; the merge
# resolves it to a third text, which only the merge made.
git checkout -q -b topic
sed -i 's/^line 10$/line 10 as the topic has it/' fs/ext4/inode.c
git add fs && test_tick && git commit -q -m 'ext4: rework the inode code'
git checkout -q master
sed -i 's/^line 10$/line 10 as master has it/' fs/ext4/inode.c
git add fs && test_tick && git commit -q -m 'ext4: tidy the inode code'
test_tick
git merge -q --no-ff topic -m "Merge branch 'topic'" >/dev/null 2>&1 || :
sed -i -e '/^<<<<<<<\|^=======\|^>>>>>>>/d' \
	-e '/^line 10 as/d' -e 's/^line 9$/line 9\nline 10 as the merge has it/' \
	fs/ext4/inode.c
git add fs && test_tick && git commit -q --no-edit
merge=$(git rev-parse HEAD)
[ "$(git rev-list --parents -1 HEAD | wc -w)" = 3 ] || fail "no merge made"
sed -i 's/^line 10 as the merge has it$/line 10 fixed/' fs/ext4/inode.c
git add fs
test_tick
git commit -q -m 'ext4: fix a crash in the inode code

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
fix=$(git rev-parse HEAD)

"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/json" ||
	fail "propose fails on a fix whose lines a merge made"
jq -r --arg c "$fix" 'select(.commit == $c) |
	(.applies | tostring) + " " + (.applies_with | tostring)' \
	"$tmp/json" >"$tmp/actual"
echo "false null" | test_cmp - "$tmp/actual"
"$STABLEPICK" explain --branch linux-6.6.y "$fix" >"$tmp/explain" ||
	fail "explain fails on a fix whose lines a merge made"
grep -q "^Search: .*$(echo "$merge" | cut -c1-12) is a merge: its lines are not picked\$" \
	"$tmp/explain" || { cat "$tmp/explain" >&2; fail "explain does not name the merge"; }
grep -q "needs a manual backport" "$tmp/explain" ||
	fail "explain does not say it needs a manual backport"
ok "a merge's lines: left out of the series, named, a manual backport"
