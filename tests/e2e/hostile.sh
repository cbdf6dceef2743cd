#!/bin/sh
# Hostile history: commit messages nobody writes on purpose (empty,
# enormous, not UTF-8, binary junk, CR line ends, thousands of
# trailers, Fixes: naming a blob, a tree or nothing, fixes, reverts and
# prerequisites that loop) and rules that backtrack for ever.  Every
# command answers, or fails with a clear message; none crashes (a
# signal, a sanitizer report) and none hangs (60 s each).
. "$TEST_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null || skip "python3 is needed"
command -v timeout >/dev/null || skip "timeout is needed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/ext4 fs/xfs mm
echo 'int xfs;' >fs/xfs/xfs_inode.c
echo 'int filemap;' >mm/filemap.c
git add .
test_commit fs/ext4/inode.c 'int ext4;' 'Initial commit'
test_commit fs/ext4/bar.c 'int bar;' 'ext4: add bar'
bar=$(git rev-parse --short=12 HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# raw PATH CONTENT MSGFILE: a commit of master that changes PATH, with
# the message of MSGFILE byte for byte (git commit cleans messages up,
# and git commit-tree re-encodes what is not UTF-8).
raw() {
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "$2" >"$1"
	git add -- "$1"
	test_tick
	c=$(echo x | git commit-tree -p HEAD "$(git write-tree)")
	c=$({ git cat-file commit "$c" | sed '/^$/q'; cat "$3"; } |
		git hash-object -t commit -w --stdin)
	git update-ref refs/heads/master "$c"
}

# forge PREFIX: rewrites HEAD, whose message ends in "X-Search:
# 00000000", so that its id starts with PREFIX (5 hex digits: a million
# tries or so), by searching that number.  The id of a commit cannot be
# named in an older one otherwise.
forge() {
	git cat-file commit HEAD >"$tmp/obj"
	python3 - "$1" "$tmp/obj" >"$tmp/forged" <<'PY'
import hashlib, sys
want, raw = sys.argv[1], open(sys.argv[2], 'rb').read()
assert raw.endswith(b'X-Search: 00000000\n')
head = raw[:-9]
h = hashlib.sha1(b'commit %d\0' % len(raw) + head)
for n in range(100000000):
	tail = b'%08d\n' % n
	g = h.copy()
	g.update(tail)
	if g.hexdigest().startswith(want):
		sys.stdout.buffer.write(head + tail)
		break
PY
	c=$(git hash-object -t commit -w "$tmp/forged")
	case $c in
	"$1"*) ;;
	*) fail "forge $1: got $c" ;;
	esac
	git update-ref refs/heads/master "$c"
	[ "$(git rev-parse --verify -q "$1^{commit}")" = "$c" ] ||
		fail "the prefix $1 is ambiguous"
}
id() { git rev-parse "$1"; }
short() { git rev-parse --short=12 "$1"; }

# An empty message.
: >"$tmp/msg"
raw fs/ext4/empty.c 'int empty;' "$tmp/msg"
empty=$(id HEAD)

# An enormous message: 4 MB of lines and a 1 MB line, then trailers.
{
	echo 'ext4: fix a crash in the enormous message'
	echo
	awk 'BEGIN { for (i = 0; i < 52429; i++)
		printf "%06d the quick brown fox jumps over the lazy dog, and then again, and again\n", i }'
	echo
	awk 'BEGIN { s = "x"; while (length(s) < 1048576) s = s s; print s }'
	echo
	echo "Fixes: $bar (\"ext4: add bar\")"
	echo 'Cc: stable@vger.kernel.org'
} >"$tmp/msg"
raw fs/ext4/huge.c 'int huge;' "$tmp/msg"
huge=$(id HEAD)

# Not UTF-8: Latin-1, an overlong form, a surrogate, a cut sequence.
printf 'ext4: fix a caf\351 cr\350me overflow \377\376\300\257\n\nInvalid: \355\240\200 \200 \370\210\200\200\200 cut \342\202\n\nReported-by: J\366rg M\374ller <jm@example.org>\nCc: stable@vger.kernel.org\n' \
	>"$tmp/msg"
raw fs/ext4/latin1.c 'int latin1;' "$tmp/msg"
latin1=$(id HEAD)

# Binary junk: 64 KiB of every byte value but NUL.
python3 -c '
import random, sys
r = random.Random(1)
sys.stdout.buffer.write(bytes(r.randrange(1, 256) for _ in range(65536)))' \
	>"$tmp/msg"
raw fs/ext4/junk.c 'int junk;' "$tmp/msg"
junk=$(id HEAD)

# Lines that end in CR alone.
printf 'ext4: fix a leak with CR line ends\r\rThe body, old Mac style.\r\rFixes: %s ("ext4: add bar")\rCc: stable@vger.kernel.org\r' \
	"$bar" >"$tmp/msg"
raw fs/ext4/cr.c 'int cr;' "$tmp/msg"
cr=$(id HEAD)

# 5,000 trailers, and a last Link: without an '@'.
{
	printf 'ext4: fix a race with many trailers\n\nA fix with a long tail.\n\n'
	awk -v bar="$bar" 'BEGIN { for (i = 0; i < 5000; i++)
		if (i % 3 == 0) printf "Fixes: %s (\"ext4: add bar\")\n", bar
		else if (i % 3 == 1) printf "Cc: Person %d <p%d@example.org>\n", i, i
		else printf "Link: https://lore.kernel.org/r/2024%05d-%d-dev@example.org\n", i, i % 50 + 1 }'
	echo 'Link: https://bugzilla.kernel.org/show_bug.cgi'
	echo 'Cc: stable@vger.kernel.org'
} >"$tmp/msg"
raw fs/ext4/trailers.c 'int trailers;' "$tmp/msg"
trailers=$(id HEAD)

# Fixes: naming a blob, a tree and nothing at all.
blob=$(echo 'not a commit' | git hash-object -w --stdin | cut -c1-12)
tree=$(git rev-parse --short=12 HEAD:fs/ext4)
printf 'ext4: fix what a blob, a tree and nothing introduced\n\nFixes: %s ("a blob")\nFixes: %s ("a tree")\nFixes: deadbeefdead ("ext4: nothing of that name")\nCc: stable@vger.kernel.org\n' \
	"$blob" "$tree" >"$tmp/msg"
raw fs/ext4/targets.c 'int targets;' "$tmp/msg"
targets=$(id HEAD)

# A loop of fixes: A fixes B through a short id, B fixes A.  Only B
# asks for stable.
printf 'ext4: fix the cycle, part A\n\nFixes: c1c1e ("ext4: fix the cycle, part B")\n' >"$tmp/msg"
raw fs/ext4/cycle.c 'int cycle_a;' "$tmp/msg"
cycle_a=$(id HEAD)
printf 'ext4: fix the cycle, part B\n\nFixes: %s ("ext4: fix the cycle, part A")\nCc: stable@vger.kernel.org\nX-Search: 00000000\n' \
	"$(short HEAD)" >"$tmp/msg"
raw fs/ext4/cycle.c 'int cycle_b;' "$tmp/msg"
forge c1c1e
cycle_b=$(id HEAD)

# A fix of itself; a revert of itself.
printf 'ext4: fix myself\n\nFixes: 5e1f0 ("ext4: fix myself")\nX-Search: 00000000\n' >"$tmp/msg"
raw fs/ext4/self.c 'int self;' "$tmp/msg"
forge 5e1f0
self=$(id HEAD)
printf 'Revert "ext4: revert myself"\n\nThis reverts commit ae7e5.\n\nCc: stable@vger.kernel.org\nX-Search: 00000000\n' >"$tmp/msg"
raw fs/ext4/self.c 'int self_reverted;' "$tmp/msg"
forge ae7e5
selfrevert=$(id HEAD)

# Reverts that revert each other: R1 reverts R2 through a short id.
printf 'Revert "ext4: the ping-pong"\n\nThis reverts commit 9a9a9.\n\nCc: stable@vger.kernel.org\n' >"$tmp/msg"
raw fs/ext4/pingpong.c 'int ping;' "$tmp/msg"
ping=$(id HEAD)
printf 'Revert "Revert "ext4: the ping-pong""\n\nThis reverts commit %s.\n\nCc: stable@vger.kernel.org\nX-Search: 00000000\n' \
	"$ping" >"$tmp/msg"
raw fs/ext4/pingpong.c 'int pong;' "$tmp/msg"
forge 9a9a9
pong=$(id HEAD)

# Prerequisites that need each other: P2 needs P1 (Cc: stable # X:
# <id>) and says it is one of P1's (Stable-dep-of:).
printf 'ext4: fix a leak, part 1\n\nCc: stable@vger.kernel.org\n' >"$tmp/msg"
raw fs/ext4/leak.c 'int leak1;' "$tmp/msg"
p1=$(id HEAD)
printf 'ext4: fix a leak, part 2\n\nCc: stable@vger.kernel.org # 6.6.x: %s: ext4: fix a leak, part 1\nStable-dep-of: %s\n' \
	"$(short HEAD)" "$(short HEAD)" >"$tmp/msg"
raw fs/ext4/leak.c 'int leak2;' "$tmp/msg"
p2=$(id HEAD)

# A Fixes: id that a commit and a blob share: ambiguous, so resolved by
# its subject.
amb=$(echo "$p2" | cut -c1-5)
python3 - "$amb" >"$tmp/blob" <<'PY'
import hashlib, sys
for n in range(100000000):
	body = b'collide %08d\n' % n
	if hashlib.sha1(b'blob %d\0' % len(body) + body).hexdigest().startswith(sys.argv[1]):
		sys.stdout.buffer.write(body)
		break
PY
git hash-object -w "$tmp/blob" | grep -q "^$amb" || fail "no blob of prefix $amb"
printf 'ext4: fix what an ambiguous id introduced\n\nFixes: %s ("ext4: fix a leak, part 2")\n' \
	"$amb" >"$tmp/msg"
raw fs/ext4/ambiguous.c 'int ambiguous;' "$tmp/msg"
ambiguous=$(id HEAD)

# A subject that makes /^(a+)+$/ backtrack for ever.
printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n\nCc: stable@vger.kernel.org\n' >"$tmp/msg"
raw fs/ext4/backtrack.c 'int backtrack;' "$tmp/msg"
backtrack=$(id HEAD)
git reset -q --hard

# linux-6.6.y carries four of them: three with an upstream line, the
# junk by its change alone.
git checkout -q linux-6.6.y
for c in "$huge" "$cr" "$trailers"; do
	test_tick
	git cherry-pick -x "$c" >/dev/null 2>&1
done
test_tick
git cherry-pick "$junk" >/dev/null 2>&1
git checkout -q master
ok "a hostile history: $(git rev-list --count v6.6..master) commits"

# run NAME COMMAND...: runs COMMAND with stdout in $tmp/NAME.out and
# stderr in $tmp/NAME.err, its exit status in $status; fails on a hang,
# a signal or a sanitizer report.
run() {
	local name=$1
	shift
	set +e
	timeout 60 "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	status=$?
	set -e
	[ $status -ne 124 ] || fail "$name: no answer in 60 s: $*"
	[ $status -lt 128 ] || fail "$name: killed by signal $((status - 128)): $*"
	if grep -q 'Sanitizer\|runtime error:' "$tmp/$name.err"; then
		head -n 20 "$tmp/$name.err"
		fail "$name: a sanitizer report: $*"
	fi
}
# expect_status NAME STATUS: the last run exited with STATUS.
expect_status() {
	[ $status = "$2" ] || fail "$1: exit $status, not $2: $(head -c 2000 "$tmp/$1.err")"
}
# field COMMIT JQ-EXPR: one candidate's JSON, from the last propose.
field() {
	jq -r --arg c "$1" "select(.commit == \$c) | $2" "$tmp/json.out"
}
s12() { echo "$1" | cut -c1-12; }

# --- propose ---------------------------------------------------------------
run text "$STABLEPICK" propose --branch linux-6.6.y --all
expect_status text 0
[ ! -s "$tmp/text.err" ] || fail "propose: $(cat "$tmp/text.err")"
tail -n 1 "$tmp/text.out" >"$tmp/actual"
echo '17 candidates: 6 proposed, 3 not-applicable, 1 reverted, 4 present, 3 below-threshold' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
for c in $empty $huge $latin1 $junk $cr $trailers $targets $cycle_a $cycle_b \
	 $self $selfrevert $ping $pong $p1 $p2 $ambiguous $backtrack; do
	grep -q "  $(s12 $c)  " "$tmp/text.out" || fail "$(s12 $c) is not listed"
done
ok "propose (text): every hostile commit has its line"

run json "$STABLEPICK" propose --branch linux-6.6.y --format json
expect_status json 0
jq -e . "$tmp/json.out" >/dev/null || fail "propose --format json is not JSON"
[ "$(jq -s length "$tmp/json.out")" = 17 ] || fail "not 17 candidates in JSON"
field "$huge" '[.subject, .verdict] | join(" / ")' >"$tmp/actual"
echo 'ext4: fix a crash in the enormous message / present' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(field "$empty" '[.subject, .verdict] | join("/")')" = /below-threshold ] ||
	fail "empty message: $(field "$empty" .)"
field "$latin1" .subject | grep -q '^ext4: fix a caf.* overflow' ||
	fail "Latin-1: $(field "$latin1" .subject)"
[ "$(field "$junk" .verdict)" = present ] || fail "junk: $(field "$junk" .why)"
# CR alone ends lines: the subject is the first line, trailers are found.
field "$cr" '[.subject, .fixes[0].status, .verdict] | join(" / ")' >"$tmp/actual"
echo 'ext4: fix a leak with CR line ends / in-branch / present' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
# 1,667 Fixes: tags naming one commit: one link, one rule hit each.
field "$trailers" '[(.fixes | length), (.reasons | map(.rule) | join(","))] | join(" ")' >"$tmp/actual"
echo '1 cc-stable,fixes-tag,fixes-in-branch,subject-fix,subject-crash,body-fix' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "propose (json): enormous, empty, non-UTF-8, junk, CR and 5,000-trailer messages"

# Fixes: naming a blob, a tree, nothing: unresolved, and said why.
field "$targets" '.fixes[] | [.id, (.commit // "null"), .status] | join(" ")' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
$blob null unknown
$tree null unknown
deadbeefdead null unknown
EOF
test_cmp "$tmp/expect" "$tmp/actual"
field "$targets" '.warnings[]' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
Fixes: $blob ("a blob") names a blob, not a commit
Fixes: $tree ("a tree") names a tree, not a commit
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "Fixes: a blob, a tree, nothing: unresolved"

# A prefix that a blob shares with the commit meant: found by subject.
field "$ambiguous" '[.fixes[0].commit, .fixes[0].status, (.facts | join(",")), .verdict] | join(" ")' \
	>"$tmp/actual"
echo "$p2 proposed follow-up proposed" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
field "$ambiguous" '.warnings[]' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
Fixes: $amb ("ext4: fix a leak, part 2") is ambiguous: several objects of the repository start with it
Fixes: $amb ("ext4: fix a leak, part 2") resolved by its subject
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "an ambiguous Fixes: id, resolved by its subject"

# Loops: a commit does not fix or revert itself or a later commit; a
# target named so is ignored, with a warning, and counts for nothing.
for c in $cycle_a $cycle_b $self $selfrevert $ping $pong; do
	field "$c" '[.commit[0:12], .verdict, .score, (.facts | join(",")), (.warnings | join("; "))] | join(" | ")'
done >"$tmp/actual"
cat >"$tmp/expect" <<EOF
$(s12 $cycle_a) | below-threshold | 6 |  | Fixes: c1c1e ("ext4: fix the cycle, part B") names $(s12 $cycle_b), which comes after it in mainline; ignored
$(s12 $cycle_b) | not-applicable | 114 |  | 
$(s12 $self) | below-threshold | 6 |  | Fixes: 5e1f0 ("ext4: fix myself") names this commit itself; ignored
$(s12 $selfrevert) | not-applicable | 100 |  | reverts $(s12 $selfrevert) ("Revert "ext4: revert myself""), which is this commit itself; ignored
$(s12 $ping) | reverted | 100 |  | reverts $(s12 $pong) ("Revert "Revert "ext4: the ping-pong"""), which comes after it in mainline; ignored
$(s12 $pong) | not-applicable | 100 |  | 
EOF
test_cmp "$tmp/expect" "$tmp/actual"
[ "$(field "$pong" .why)" = "reverts $(s12 $ping), which linux-6.6.y does not carry" ] ||
	fail "pong: $(field "$pong" .why)"
ok "loops of Fixes: and reverts"

# Prerequisites that need each other: both proposed, each once.
jq -r 'select(.verdict == "proposed") | .commit' "$tmp/json.out" >"$tmp/proposed"
[ "$(grep -c "^$p1\$\|^$p2\$" "$tmp/proposed")" = 2 ] || fail "prerequisite loop: $(cat "$tmp/proposed")"
ok "a loop of prerequisites"

# The scan cache holds hostile commits as well: the same answer.
run json2 "$STABLEPICK" propose --branch linux-6.6.y --format json
expect_status json2 0
test_cmp "$tmp/json.out" "$tmp/json2.out"
run nocache "$STABLEPICK" --no-cache propose --branch linux-6.6.y --format json
test_cmp "$tmp/json.out" "$tmp/nocache.out"
ok "the same answer from the scan cache and without it"

run email "$STABLEPICK" propose --branch linux-6.6.y --format email
expect_status email 0
run mbox "$STABLEPICK" propose --branch linux-6.6.y --format mbox
expect_status mbox 0
[ "$(grep -c '^From [0-9a-f]\{40\} ' "$tmp/mbox.out")" = 6 ] || fail "mbox: not 6 patches"
git clone -q -b linux-6.6.y "$repo" "$tmp/am"
git -C "$tmp/am" am -q "$tmp/mbox.out" || fail "git am does not take the series"
ok "propose (email, mbox: git am takes it)"

# --- explain ---------------------------------------------------------------
run explain "$STABLEPICK" explain --branch linux-6.6.y $empty $huge $latin1 \
	$junk $cr $trailers $targets $cycle_a $cycle_b $self $selfrevert $ping $pong \
	$p1 $p2 $ambiguous $backtrack
expect_status explain 0
[ "$(grep -c '^commit ' "$tmp/explain.out")" = 17 ] || fail "explain: not 17 commits"
# The enormous message is not copied out.
size=$(awk -v c="commit $huge" '/^commit / { on = $0 == c } on { n += length($0) + 1 } END { print n }' \
	"$tmp/explain.out")
[ "$size" -gt 0 ] && [ "$size" -lt 10000 ] || fail "explain of the enormous message: $size bytes"
grep -F 'Fixes:     deadbeefdead ("ext4: nothing of that name") -> not found in the repository' \
	"$tmp/explain.out" >/dev/null || fail "explain: the nonexistent Fixes: target"
grep -Fx "  warning: Fixes: $blob (\"a blob\") names a blob, not a commit" \
	"$tmp/explain.out" >/dev/null || fail "explain: the blob"
grep -Fx "  warning: Fixes: 5e1f0 (\"ext4: fix myself\") names this commit itself; ignored" \
	"$tmp/explain.out" >/dev/null || fail "explain: the self-fix"
! grep -q '^Fixed by:  \(5e1f0\|'"$(s12 $cycle_a)"'\)' "$tmp/explain.out" ||
	fail "explain: a commit fixed by itself or by an older one"
ok "explain, every hostile commit"

# What Fixes: names, explain and audit refuse with a clear message.
run explain-blob "$STABLEPICK" explain --branch linux-6.6.y "$blob"
expect_status explain-blob 1
echo "error: '$blob' (explain) is not a commit" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/explain-blob.err"
run explain-none "$STABLEPICK" explain --branch linux-6.6.y deadbeefdead
expect_status explain-none 1
echo "error: unknown revision 'deadbeefdead' for explain" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/explain-none.err"
printf '%s\n' "$huge" "$tree" >"$tmp/tree-pick"
run audit-tree "$STABLEPICK" audit --branch linux-6.6.y --picks "$tmp/tree-pick"
# A tree among the picks is skipped with a warning; the other is judged.
expect_status audit-tree 2
grep -qx "warning: $tmp/tree-pick:2: bad revision '$tree', skipped" \
	"$tmp/audit-tree.err" || fail "audit-tree: $(cat "$tmp/audit-tree.err")"
grep -q "(${tmp}/tree-pick:1)" "$tmp/audit-tree.out" ||
	fail "audit-tree: the first pick was not judged"
ok "a blob, a tree or nothing to explain or audit: a clear error"

# --- audit -----------------------------------------------------------------
git rev-list --reverse v6.6..master >"$tmp/picks"
run audit "$STABLEPICK" audit --branch linux-6.6.y --picks "$tmp/picks" --format json
expect_status audit 2
jq -e . "$tmp/audit.out" >/dev/null || fail "audit --format json is not JSON"
jq -r '[.commit[0:12], .verdict, (.flags | map(.flag) | join(","))] | join(" ")' \
	"$tmp/audit.out" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
$(s12 $huge) reject already-present
$(s12 $junk) reject already-present
$(s12 $cr) reject already-present
$(s12 $trailers) reject already-present
$(s12 $cycle_b) reject bug-not-in-branch
$(s12 $selfrevert) reject file-not-in-branch
$(s12 $ping) reject reverted
$(s12 $pong) reject bug-not-in-branch
$(s12 $empty) questionable not-a-fix
$(s12 $cycle_a) questionable not-a-fix
$(s12 $self) questionable not-a-fix
$(s12 $latin1) ok 
$(s12 $targets) ok 
$(s12 $p1) ok 
$(s12 $p2) ok 
$(s12 $ambiguous) ok 
$(s12 $backtrack) ok 
EOF
test_cmp "$tmp/expect" "$tmp/actual"
run audit-text "$STABLEPICK" audit --branch linux-6.6.y --picks "$tmp/picks"
expect_status audit-text 2
ok "audit --picks, every hostile commit"

# --- eval ------------------------------------------------------------------
run eval "$STABLEPICK" eval --branch linux-6.6.y --misses --false-picks \
	--threshold-sweep --ablation
expect_status eval 0
sed -n 2p "$tmp/eval.out" >"$tmp/actual"
echo 'labels: 4 positive (the branch carries them), 2 negative, 11 excluded (1 reverted, 1 revert-of-absent, 1 bug-not-in-branch, 1 file-not-in-branch, 7 after-last-backport)' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
run eval-json "$STABLEPICK" eval --branch linux-6.6.y --format json --misses \
	--false-picks --threshold-sweep --ablation
expect_status eval-json 0
jq -e . "$tmp/eval-json.out" >/dev/null || fail "eval --format json is not JSON"
ok "eval"

# --- tests -----------------------------------------------------------------
fst=$tmp/fstests
mkdir -p "$fst/common" "$fst/tests/ext4"
: >"$fst/common/rc"
cat >"$fst/tests/ext4/001" <<EOF
#! /bin/bash
_fixed_by_kernel_commit $(s12 $huge) "ext4: fix a crash in the enormous message"
_fixed_by_kernel_commit $(s12 $junk)
EOF
cat >"$fst/tests/ext4/002" <<EOF
#! /bin/bash
_fixed_by_kernel_commit $blob "a blob"
_fixed_by_kernel_commit $tree "a tree"
_fixed_by_kernel_commit deadbeefdead "ext4: nothing of that name"
EOF
cat >"$fst/tests/ext4/003" <<EOF
#! /bin/bash
_fixed_by_kernel_commit $(s12 $self) "ext4: fix myself"
_fixed_by_kernel_commit $(s12 $cycle_b) "ext4: fix the cycle, part B"
_fixed_by_kernel_commit $(s12 $empty)
EOF
run tests "$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst" --format json
expect_status tests 0
jq -r '.annotations[] | [.sha, .state, .detail] | join(" ")' "$tmp/tests.out" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
$(s12 $huge) present backported as $(s12 $(git rev-parse linux-6.6.y~3))
$(s12 $junk) present same change as $(s12 $(git rev-parse linux-6.6.y)) in linux-6.6.y
$blob unresolved '$blob' names a blob, not a commit; no commit of the range or the branch has its subject
$tree unresolved '$tree' names a tree, not a commit; no commit of the range or the branch has its subject
deadbeefdead unresolved no commit 'deadbeefdead' in this repository; no commit of the range or the branch has its subject
$(s12 $self) missing no commit of linux-6.6.y after v6.6 names it
$(s12 $cycle_b) not-needed absent, but the branch cannot need it: fixed commit $(s12 $cycle_a) not in branch
$(s12 $empty) missing no commit of linux-6.6.y after v6.6 names it
EOF
test_cmp "$tmp/expect" "$tmp/actual"
run tests-text "$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst"
expect_status tests-text 0
ok "tests: a self-fix is missing, not 'not needed'"

# --- rules that backtrack for ever -------------------------------------------
mkdir "$tmp/rules"
cp "$TEST_SRCDIR"/rules/*.rules "$tmp/rules/"
cat >"$tmp/rules/zz-hostile.rules" <<'EOF'
# Patterns that backtrack catastrophically on what they meet.
version 1
rule backtrack		+1	subject		/^(a+)+$/
rule backtrack-body	+1	body		/(x+x+)+y/
rule backtrack-link	+1	trailer:Link	/^([\w:\/.?-]|\w+)+$/
EOF
r=$tmp/rules/zz-hostile.rules
run bt-json "$STABLEPICK" --rules "$tmp/rules" propose --branch linux-6.6.y --format json
expect_status bt-json 0
jq -r 'select(.warnings | length > 0) | [.commit[0:12], (.warnings | join("; "))] | join(" ")' \
	"$tmp/bt-json.out" | grep gave >"$tmp/actual"
cat >"$tmp/expect" <<EOF
$(s12 $backtrack) rule 'backtrack' ($r:3) gave up: match limit reached
$(s12 $trailers) rule 'backtrack-link' ($r:5) gave up: match limit reached
$(s12 $huge) rule 'backtrack-body' ($r:4) gave up: match limit reached
EOF
test_cmp "$tmp/expect" "$tmp/actual"
# A rule that gave up does not count, though a later Link: matches it.
jq -r 'select(.reasons | map(.rule) | any(startswith("backtrack"))) | .commit' \
	"$tmp/bt-json.out" >"$tmp/actual"
[ ! -s "$tmp/actual" ] || fail "a rule that gave up counted: $(cat "$tmp/actual")"
run bt-text "$STABLEPICK" --rules "$tmp/rules" propose --branch linux-6.6.y --all
expect_status bt-text 0
run bt-explain "$STABLEPICK" --rules "$tmp/rules" explain --branch linux-6.6.y $backtrack
expect_status bt-explain 0
grep -Fx "  warning: rule 'backtrack' ($r:3) gave up: match limit reached" \
	"$tmp/bt-explain.out" >/dev/null || fail "explain: $(cat "$tmp/bt-explain.out")"
run bt-audit "$STABLEPICK" --rules "$tmp/rules" audit --branch linux-6.6.y --picks "$tmp/picks"
expect_status bt-audit 2
run bt-eval "$STABLEPICK" --rules "$tmp/rules" eval --branch linux-6.6.y --ablation
expect_status bt-eval 0
ok "rules that backtrack give up, with a warning naming the rule"
