#!/bin/sh
# Several branches in one run: --branch repeated or a glob, the
# branches newest first; the text is a matrix (commit x branch), the
# JSON one object per candidate and branch with its "branch".  Each
# branch's verdicts are those of a run of it alone, but where a newer
# branch of the run took the commit as a backport (the fact
# in-newer-branch, weighed in default.rules); a commit an older branch
# is to take that a newer one lacks and is not to take is flagged.
. "$TEST_SRCDIR/tests/lib.sh"

STABLEPICK_NOW=1700600000
export STABLEPICK_NOW
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit fs/ext4/inode.c 'int ext4;' 'Initial commit'
for v in 6.1 6.6 6.7; do
	test_commit Makefile "VERSION = $v" "Linux $v"
	git tag -a -m "Linux $v" "v$v"
	git branch "linux-$v.y"
	test_commit "fs/btrfs/v$v.c" "int v;" "btrfs: add v$v"
done
test_fix fs/ext4/a.c 'int a;' 'ext4: fix a leak in a' 'Cc: stable@vger.kernel.org'
a=$(git rev-parse HEAD)
# Its words alone are below the threshold: the 6.7.y team took it.
test_fix fs/ext4/inode.c 'int ext4_fixed;' 'ext4: fix the inode helper'
b=$(git rev-parse HEAD)
test_fix fs/ext4/c.c 'int c;' 'ext4: fix a crash in c' 'Cc: stable@vger.kernel.org'
c=$(git rev-parse HEAD)
test_fix fs/ext4/d.c 'int d;' 'ext4: fix a race in d' 'Cc: stable@vger.kernel.org'
d=$(git rev-parse HEAD)

backport() {	# backport BRANCH COMMIT
	git checkout -q "$1"
	git cherry-pick -x "$2" >/dev/null
	git checkout -q master
}
test_tick
backport linux-6.7.y "$b"
backport linux-6.1.y "$c"
"$STABLEPICK" mark --branch linux-6.7.y "$d" rejected -m 'breaks quota' >/dev/null

s12() { git rev-parse --short=12 "$1"; }
sp() {
	"$STABLEPICK" propose "$@" 2>"$tmp/err" || fail "propose $*: $(cat "$tmp/err")"
}

sp --branch linux-6.1.y --branch 'linux-6.[67].y' >"$tmp/actual"
sed -n '/^COMMIT/,$p' "$tmp/actual" >"$tmp/matrix"
cat >"$tmp/expect" <<EOF
COMMIT        linux-6.7.y  linux-6.6.y  linux-6.1.y  SUBJECT
$(s12 $a)  proposed     proposed     proposed     ext4: fix a leak in a
$(s12 $b)  present      proposed     proposed     ext4: fix the inode helper
$(s12 $c)  proposed     proposed     present      ext4: fix a crash in c
$(s12 $d)  rejected     proposed!    proposed!    ext4: fix a race in d

linux-6.7.y: 2 proposed, 1 rejected, 1 present, 1 below-threshold
linux-6.6.y: 4 proposed, 2 below-threshold
linux-6.1.y: 3 proposed, 1 present, 3 below-threshold
!: 1 commit to take that a newer branch lacks and is not to take (newer trees first)
(commits present or below the threshold in every branch not shown; use --all)
EOF
test_cmp "$tmp/expect" "$tmp/matrix"
head -1 "$tmp/actual" | grep -q '^branch linux-6.7.y (base v6.7): 1 commit after the base, 1 names an upstream commit$' ||
	fail "the newest branch first: $(head -1 "$tmp/actual")"
ok "the matrix, newest branch first"

sp --branch 'linux-*.y' --format json >"$tmp/json"
jq -r '[.branch, .commit[:12], .verdict,
	(.facts | index("in-newer-branch") != null),
	(.newer_lacking | map(.branch + "=" + .verdict) | join(","))] | @tsv' \
	"$tmp/json" | grep -v below-threshold | sort >"$tmp/actual"
printf '%s\t%s\t%s\t%s\t%s\n' \
	linux-6.1.y "$(s12 $a)" proposed false '' \
	linux-6.1.y "$(s12 $b)" proposed true '' \
	linux-6.1.y "$(s12 $c)" present false '' \
	linux-6.1.y "$(s12 $d)" proposed false linux-6.7.y=rejected \
	linux-6.6.y "$(s12 $a)" proposed false '' \
	linux-6.6.y "$(s12 $b)" proposed true '' \
	linux-6.6.y "$(s12 $c)" proposed false '' \
	linux-6.6.y "$(s12 $d)" proposed false linux-6.7.y=rejected \
	linux-6.7.y "$(s12 $a)" proposed false '' \
	linux-6.7.y "$(s12 $b)" present false '' \
	linux-6.7.y "$(s12 $c)" proposed false '' \
	linux-6.7.y "$(s12 $d)" rejected false '' |
	sort >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "JSON: a branch field, in-newer-branch and newer_lacking"

# Each branch alone: the same verdicts, but the one the newer branch's
# backport lifted over the threshold.
for br in linux-6.7.y linux-6.6.y linux-6.1.y; do
	sp --branch $br --format json |
		jq -r '[.branch, .commit, .verdict] | @tsv' | sort >"$tmp/alone"
	jq -r --arg b $br 'select(.branch == $b) | [.branch, .commit, .verdict] | @tsv' \
		"$tmp/json" | sort >"$tmp/together"
	diff "$tmp/alone" "$tmp/together" | sed -n 's/^[<>] //p' >"$tmp/diff" || :
	case $br in
	linux-6.7.y) : >"$tmp/expect" ;;
	*) printf '%s\t%s\t%s\n' $br $b below-threshold $br $b proposed >"$tmp/expect" ;;
	esac
	test_cmp "$tmp/expect" "$tmp/diff"
done
ok "each branch's verdicts are its own run's, but in-newer-branch"

# explain: a section per branch, newest first; the fact and the flag.
"$STABLEPICK" explain --branch 'linux-*.y' "$d" "$b" >"$tmp/explain" 2>"$tmp/err" ||
	fail "explain: $(cat "$tmp/err")"
grep '^== ' "$tmp/explain" >"$tmp/actual"
printf '== %s ==\n' linux-6.7.y linux-6.6.y linux-6.1.y >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(grep -c '^Newer:     linux-6.7.y lacks it and is not to take it (rejected): take it there first$' "$tmp/explain")" -eq 2 ] ||
	fail "explain: no newer-first line: $(cat "$tmp/explain")"
sed -n '/^== linux-6.6.y ==$/,/^== linux-6.1.y ==$/p' "$tmp/explain" |
	grep -q '+6 *in-newer-branch' || fail "explain: no in-newer-branch in 6.6.y"
"$STABLEPICK" explain --branch linux-6.6.y "$d" >"$tmp/one"
! grep -q '^== ' "$tmp/one" || fail "explain of one branch has a section header"
ok "explain of several branches: a section each, the fact and the flag"

# eval: each branch's figures, newest first.
"$STABLEPICK" eval --branch 'linux-*.y' >"$tmp/eval" 2>"$tmp/err" ||
	fail "eval: $(cat "$tmp/err")"
grep '^== ' "$tmp/eval" >"$tmp/actual"
printf '== %s ==\n' linux-6.7.y linux-6.6.y linux-6.1.y >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" eval --branch 'linux-*.y' --format json | jq -r .branch | uniq >"$tmp/actual"
printf '%s\n' linux-6.7.y linux-6.6.y linux-6.1.y >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" eval --branch linux-6.1.y >"$tmp/alone"
[ -s "$tmp/alone" ] || fail "eval of one branch printed nothing"
ok "eval of several branches: a section each, newest first"

# The kept answer covers several branches; a glob that matches nothing
# and a format that takes one branch are errors.
sp --branch 'linux-*.y' --format json >"$tmp/again"
test_cmp "$tmp/json" "$tmp/again"
if "$STABLEPICK" propose --branch 'nope-*' 2>"$tmp/err"; then
	fail "a glob that matches nothing"
fi
grep -q "^error: no branch matches 'nope-\*'$" "$tmp/err" || fail "$(cat "$tmp/err")"
if "$STABLEPICK" propose --branch 'linux-*.y' --format email 2>"$tmp/err"; then
	fail "email of several branches"
fi
grep -q "^error: several branches take --format text, json or html" "$tmp/err" ||
	fail "$(cat "$tmp/err")"
ok "errors: no branch matched, a one-branch format"
