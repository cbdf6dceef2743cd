#!/bin/sh
# Backport lines declared in rule files: a branch that names what it
# backports in its own form (Xen's "master commit: <id>", one line per
# fix, two in a backport that folds a fix and its follow-up) is read by
# propose, explain, audit --range and diff once a `backport` line of
# the project's rules declares the form; the kernel's forms, shipped in
# default.rules, are still read.
. "$TEST_SRCDIR/tests/lib.sh"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"

test_repo "$tmp/repo"
cd "$tmp/repo"
mkdir -p fs/ext4
printf 'a\nb\nc\nd\ne\nf\ng\nh\n' >fs/ext4/namei.c
printf '1\n2\n3\n4\n5\n6\n7\n8\n' >fs/ext4/dir.c
git add .
test_commit fs/ext4/super.c 'int super;' 'ext4: the code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
git branch stable
test_fix fs/ext4/namei.c "$(printf 'a\nb\nc\nd fixed\ne\nf\ng\nh')" \
	'ext4: fix a leak in namei' 'Cc: stable@vger.kernel.org'
fix=$(git rev-parse HEAD)
test_fix fs/ext4/namei.c "$(printf 'a\nb\nc\nd fixed\ne fixed too\nf\ng\nh')" \
	'ext4: fix the fix of the namei leak' \
	"Fixes: $(git rev-parse --short=12 HEAD) (\"ext4: fix a leak in namei\")" \
	'Cc: stable@vger.kernel.org'
followup=$(git rev-parse HEAD)
test_fix fs/ext4/dir.c "$(printf '1\n2\n3 fixed\n4\n5\n6\n7\n8')" \
	'ext4: fix a crash in readdir' 'Cc: stable@vger.kernel.org'
crash=$(git rev-parse HEAD)

# The branch: the fix and its follow-up folded into one backport, and
# the readdir fix retitled and adapted, so that neither its subject nor
# its change finds it: only the "master commit:" lines name them.
git checkout -q linux-6.6.y
printf 'a\nb\nc\nd fixed\ne fixed too\nf\ng\nh\n' >fs/ext4/namei.c
git add .
test_tick
git commit -q -F - <<MSG
ext4: fix a leak in namei

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>
master commit: $fix
master date: 2023-11-14 22:14:20 +0000
master commit: $followup
master date: 2023-11-14 22:15:20 +0000
MSG
folded=$(git rev-parse --short=12 HEAD)
printf '1\n2 branch\n3 fixed\n4\n5\n6\n7\n8\n' >fs/ext4/dir.c
git add .
test_tick
git commit -q -F - <<MSG
ext4/readdir: do not crash

Signed-off-by: A U Thor <author@example.com>
master commit: $crash
master date: 2023-11-14 22:16:20 +0000
MSG
adapted=$(git rev-parse --short=12 HEAD)
# Another branch backports the readdir fix in the kernel's form.
git checkout -q stable
git cherry-pick -x "$crash" >/dev/null
git checkout -q master

mkdir "$tmp/rules"
cat >"$tmp/rules/xen.rules" <<'RULES'
backport master message /^master commit: (?<id>[0-9a-f]{40})$/m
RULES
git config stablepick.rules "$tmp/rules"

"$STABLEPICK" rules check >"$tmp/check" 2>&1 || { cat "$tmp/check"; fail "rules check"; }
grep -q "xen.rules: ok (0 subsystems, 0 rules, 1 backport line)" "$tmp/check" ||
	{ cat "$tmp/check"; fail "rules check does not count the backport line"; }
grep -q "default.rules: ok (.*, 3 backport lines" "$tmp/check" ||
	{ cat "$tmp/check"; fail "the kernel's three forms are not shipped"; }
ok "rules check counts the backport lines"

# 1. propose: each of the three is present, by its upstream line.
"$STABLEPICK" propose --branch linux-6.6.y --all --format json |
	jq -r '.commit[0:12] + " " + .verdict + " " +
	       ([.evidence[] | .kind + ":" + .commit[0:12]] | join(","))' |
	sort >"$tmp/actual"
sort >"$tmp/expect" <<EXPECT
$(git rev-parse --short=12 "$fix") present upstream-line:$folded
$(git rev-parse --short=12 "$followup") present upstream-line:$folded
$(git rev-parse --short=12 "$crash") present upstream-line:$adapted
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "propose reads a project's backport lines, both of a folded backport"

# The kernel's form, shipped in default.rules, still reads.
"$STABLEPICK" propose --branch stable --all --format json |
	jq -r 'select(.commit == "'"$crash"'") | .verdict + " " + .evidence[0].kind' \
	>"$tmp/actual"
echo "present upstream-line" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "the kernel's (cherry picked from commit) still reads"

# 2. explain: the follow-up is backported by the folded commit.
"$STABLEPICK" explain --branch linux-6.6.y "$followup" >"$tmp/explain"
grep -q "^  upstream-line  backported as $folded" "$tmp/explain" ||
	{ cat "$tmp/explain"; fail "explain does not read the folded backport"; }
grep -q "^Verdict:   present: backported as $folded" "$tmp/explain" ||
	{ cat "$tmp/explain"; fail "explain's verdict"; }
ok "explain reads them"

# 3. audit --range: the folded backport is a pick of each commit it
# names, so its fix is not missing its follow-up; the adapted one is
# found by its line, not skipped.
"$STABLEPICK" audit --branch linux-6.6.y --range v6.6..linux-6.6.y \
	>"$tmp/audit" 2>"$tmp/audit.err" || true
! grep -q "follow-up-missing" "$tmp/audit" ||
	{ cat "$tmp/audit"; fail "audit flags the folded backport follow-up-missing"; }
! grep -q "no mainline commit found" "$tmp/audit.err" ||
	{ cat "$tmp/audit.err"; fail "audit skips the adapted backport"; }
for id in "$fix" "$followup" "$crash"; do
	grep -q "^[a-z-]* *$(git rev-parse --short=12 "$id") " "$tmp/audit" ||
		{ cat "$tmp/audit"; fail "audit lists no pick $id"; }
done
ok "audit --range takes a folded backport as a pick of each"

# 4. diff: the vendor branch has the readdir fix the stable branch has.
"$STABLEPICK" diff --branch linux-6.6.y --against stable >"$tmp/diff"
! grep -q "^missing" "$tmp/diff" ||
	{ cat "$tmp/diff"; fail "diff calls a fix the vendor carries missing"; }
! grep -q "no upstream counterpart" "$tmp/diff" ||
	{ cat "$tmp/diff"; fail "diff finds no upstream commit for a vendor backport"; }
ok "diff reads the vendor's backport lines"
