#!/bin/sh
# The commit-graph hint: a run that walks 10,000 commits of a repository
# without a commit-graph says that one would help, once in the
# repository, not on every run (a file in .git/stablepick remembers it);
# removing the file brings it back.
. "$TEST_SRCDIR/tests/lib.sh"

# 10,001 commits by fast-import (no commit-graph): the first is the
# branch's base, then 10,000 on mainline.
test_repo "$tmp/repo"
cd "$tmp/repo"
awk -v n=10001 'BEGIN {
	for (c = 1; c <= n; c++) {
		t = 1700000000 + 60 * c
		msg = "change " c
		printf "commit refs/heads/master\n"
		printf "author A U Thor <author@example.com> %d +0000\n", t
		printf "committer C O Mitter <committer@example.com> %d +0000\n", t
		printf "data %d\n%s\n", length(msg), msg
		printf "M 100644 inline fs/ext4/f%d.c\n", c % 10
		body = "int c" c ";\n"
		printf "data %d\n%s", length(body), body
	}
}' | git fast-import --quiet
# The branch is still at its release: no backport yet.
git tag -a -m 'Linux 6.6' v6.6 master~10000
git branch linux-6.6.y master~10000
[ ! -e .git/objects/info/commit-graph ] || fail "a commit-graph already"

hints() {	# how many times the hint was said on $tmp/err
	grep -c '^hint: the repository has no commit-graph' "$tmp/err" || :
}

"$STABLEPICK" --no-cache propose --branch linux-6.6.y >/dev/null 2>"$tmp/err"
[ "$(hints)" = 1 ] || fail "the first run: $(cat "$tmp/err")"
[ -f .git/stablepick/commit-graph-hinted ] || fail "not remembered"
"$STABLEPICK" --no-cache propose --branch linux-6.6.y >/dev/null 2>"$tmp/err"
[ "$(hints)" = 0 ] || fail "said again: $(cat "$tmp/err")"
ok "the commit-graph hint is said once in a repository"

rm .git/stablepick/commit-graph-hinted
"$STABLEPICK" --no-cache propose --branch linux-6.6.y >/dev/null 2>"$tmp/err"
[ "$(hints)" = 1 ] || fail "the file removed: $(cat "$tmp/err")"
ok "removing the file brings the hint back"
