# Shell helpers for the end-to-end tests, after git's test-lib.sh.
#
# A test sources this file first:
#
#	. "$TEST_SRCDIR/tests/lib.sh"
#
# and gets:
#
#	$tmp                a fresh directory, removed on exit (KEEP=1 keeps
#	                    it and prints where it is)
#	an isolated git     HOME=$tmp/home, no system or global configuration,
#	                    fixed identities, TZ=UTC, LC_ALL=C
#	set -e              any failing command fails the test
#
# and the functions below.  Exit status follows automake: 0 pass, 1 fail,
# 77 skip.  POSIX sh plus `local`.

set -e

tmp=$(mktemp -d "${TMPDIR:-/tmp}/stablepick-test.XXXXXX") || exit 99
if [ "${KEEP:-0}" = 1 ]; then
	trap 'echo "# kept $tmp" >&2' EXIT
else
	trap 'rm -rf "$tmp"' EXIT
fi
trap 'exit 130' INT
trap 'exit 143' TERM

# Nothing of the user's git setup may leak into a test.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY \
	GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_CONFIG GIT_CONFIG_PARAMETERS \
	GIT_CONFIG_COUNT GIT_TEMPLATE_DIR GIT_NAMESPACE GIT_CEILING_DIRECTORIES \
	EMAIL
mkdir "$tmp/home"
: >"$tmp/home/.gitconfig"
HOME=$tmp/home
GIT_CONFIG_NOSYSTEM=1
GIT_CONFIG_GLOBAL=$tmp/home/.gitconfig
GIT_MERGE_AUTOEDIT=no
GIT_AUTHOR_NAME='A U Thor'
GIT_AUTHOR_EMAIL=author@example.com
GIT_COMMITTER_NAME='C O Mitter'
GIT_COMMITTER_EMAIL=committer@example.com
TZ=UTC
LC_ALL=C
export HOME GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL GIT_MERGE_AUTOEDIT \
	GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL \
	TZ LC_ALL

# test_tick: move the clock on; the first call sets it to 1700000000
# (2023-11-14 22:13:20 UTC), every further call adds 60 seconds.  Commits
# and tags made after it carry that date as author and committer date.
test_tick() {
	if [ -z "${test_tick:-}" ]; then
		test_tick=1700000000
	else
		test_tick=$((test_tick + 60))
	fi
	GIT_AUTHOR_DATE="$test_tick +0000"
	GIT_COMMITTER_DATE="$test_tick +0000"
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
}

# test_repo DIR: create an empty repository with branch master.
test_repo() {
	git init -q -b master "$1"
}

# test_commit [-C DIR] PATH CONTENT MESSAGE: write CONTENT and a newline
# to PATH (creating its directory), add it and commit whatever is staged
# with MESSAGE, which may span lines.  Ticks the clock first.
test_commit() {
	local dir=.
	if [ "$1" = -C ]; then
		dir=$2
		shift 2
	fi
	mkdir -p "$(dirname "$dir/$1")"
	printf '%s\n' "$2" >"$dir/$1"
	git -C "$dir" add -- "$1"
	test_tick
	printf '%s\n' "$3" | git -C "$dir" commit -q -F -
}

# test_fix PATH CONTENT SUBJECT [TRAILER...]: test_commit with a
# message of SUBJECT, then the trailers, one a line, and a Signed-off-by
# of the test author.
test_fix() {
	local path=$1 content=$2 subject=$3 trailers=
	shift 3
	for t in "$@"; do trailers="$trailers$t
"; done
	test_commit "$path" "$content" "$subject

${trailers}Signed-off-by: A U Thor <author@example.com>"
}

# test_change FILE FROM TO: replace the line FROM of FILE (a whole line,
# a sed pattern) with TO, and stage FILE.
test_change() {
	sed "s/^$2\$/$3/" "$1" >"$tmp/changed" && cat "$tmp/changed" >"$1"
	git add "$1"
}

# test_commit_staged SUBJECT [BODY]: commit what is staged with SUBJECT,
# BODY (a paragraph, if given) and a Signed-off-by of the test author;
# prints the new commit's id.  Ticks the clock first.
test_commit_staged() {
	test_tick
	git commit -q -m "$1

${2:+$2

}Signed-off-by: A U Thor <author@example.com>"
	git rev-parse HEAD
}

# test_cmp EXPECT ACTUAL: fail, showing the difference, unless the files
# are the same.
test_cmp() {
	diff -u "$1" "$2" || fail "$2 differs from $1"
}

# fail MSG: report a failure and end the test.
fail() {
	echo "FAIL: $*"
	exit 1
}

# ok MSG: report one passed check.
ok() {
	echo "ok - $*"
}

# skip MSG: the test cannot run here (a missing tool, ...).
skip() {
	echo "skip: $*"
	exit 77
}
