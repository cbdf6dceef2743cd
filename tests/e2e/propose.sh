#!/bin/sh
# propose on the fixture of tests/e2e/fixture.sh: the exact table and
# the exact JSON Lines, one candidate per verdict.
. "$TEST_SRCDIR/tests/lib.sh"
# The lines whole: text-width.sh checks how the text fits a width.
COLUMNS=1000; export COLUMNS
. "$TEST_SRCDIR/tests/e2e/fixture.sh"

make_fixture "$tmp/repo"
cd "$tmp/repo"

# The default table hides present and below-threshold candidates.
"$STABLEPICK" propose --branch linux-6.6.y >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
branch linux-6.6.y (base v6.6): 1 commit after the base, 1 names an upstream commit
mainline v6.6..master: 8 commits walked (1 merge), 6 in watched paths

VERDICT    SCORE  COMMIT        SUBSYSTEM  SUBJECT
proposed     125  06d0934822df  ext4       ext4: fix use-after-free in bar
                  cc-stable +100, fixes-tag +8, fixes-in-branch +6, subject-fix +6, subject-crash +5
needs-ack     25  724a0d4cb6b2  xfs        xfs: fix corruption in the inode cluster
                  xfs is opt-in and no Cc: stable tag approves it; fixes-tag +8, fixes-in-branch +6, subject-fix +6, subject-crash +5
waiting      111  95375dd19af5  xfs        xfs: fix a null pointer dereference in log recovery
                  xfs waits for a release: in no release tag yet; cc-stable +100, subject-fix +6, subject-crash +5
vetoed       111  11bbf3aa4846  btrfs      btrfs: fix deadlock in baz
                  stable+noautosel: needs a manual backport; cc-stable +100, subject-fix +6, subject-crash +5

6 candidates: 1 proposed, 1 needs-ack, 1 waiting, 1 vetoed, 1 present, 1 below-threshold
(2 present, below-threshold or decided not shown; use --all)
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "text table"

"$STABLEPICK" propose --branch linux-6.6.y --all >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
branch linux-6.6.y (base v6.6): 1 commit after the base, 1 names an upstream commit
mainline v6.6..master: 8 commits walked (1 merge), 6 in watched paths

VERDICT          SCORE  COMMIT        SUBSYSTEM  SUBJECT
proposed           125  06d0934822df  ext4       ext4: fix use-after-free in bar
                        cc-stable +100, fixes-tag +8, fixes-in-branch +6, subject-fix +6, subject-crash +5
needs-ack           25  724a0d4cb6b2  xfs        xfs: fix corruption in the inode cluster
                        xfs is opt-in and no Cc: stable tag approves it; fixes-tag +8, fixes-in-branch +6, subject-fix +6, subject-crash +5
waiting            111  95375dd19af5  xfs        xfs: fix a null pointer dereference in log recovery
                        xfs waits for a release: in no release tag yet; cc-stable +100, subject-fix +6, subject-crash +5
vetoed             111  11bbf3aa4846  btrfs      btrfs: fix deadlock in baz
                        stable+noautosel: needs a manual backport; cc-stable +100, subject-fix +6, subject-crash +5
present             25  72cb599cf35d  vfs        fs: fix a refcount leak in path lookup
                        backported as 8f3388abc9da; fixes-tag +8, fixes-in-branch +6, subject-fix +6, subject-crash +5
below-threshold     -6  71656c8bf190  ext4       ext4: remove unused variable in bar
                        subject-cleanup -6

6 candidates: 1 proposed, 1 needs-ack, 1 waiting, 1 vetoed, 1 present, 1 below-threshold
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "text table with --all"

# JSON: every candidate, whatever its verdict; jq must accept it.
"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/json"
jq -r '[.verdict, (.score|tostring), .subsystem, .commit[0:12], .subject,
	(.reasons | map(.rule + " " + (.weight|tostring)) | join(",")),
	(.evidence | map(.kind) | join(","))] | join("|")' \
	<"$tmp/json" >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
proposed|125|ext4|06d0934822df|ext4: fix use-after-free in bar|cc-stable 100,fixes-tag 8,fixes-in-branch 6,subject-fix 6,subject-crash 5|absent
needs-ack|25|xfs|724a0d4cb6b2|xfs: fix corruption in the inode cluster|fixes-tag 8,fixes-in-branch 6,subject-fix 6,subject-crash 5|absent
waiting|111|xfs|95375dd19af5|xfs: fix a null pointer dereference in log recovery|cc-stable 100,subject-fix 6,subject-crash 5|absent
vetoed|111|btrfs|11bbf3aa4846|btrfs: fix deadlock in baz|cc-stable 100,subject-fix 6,subject-crash 5|absent
present|25|vfs|72cb599cf35d|fs: fix a refcount leak in path lookup|fixes-tag 8,fixes-in-branch 6,subject-fix 6,subject-crash 5|upstream-line
below-threshold|-6|ext4|71656c8bf190|ext4: remove unused variable in bar|subject-cleanup -6|absent
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "json lines"

# Field types and ids as documented.
jq -e -s 'all(.[]; (.commit|test("^[0-9a-f]{40}$")) and (.score|type) == "number"
	and (.reasons|type) == "array" and (.evidence|length) >= 1)' \
	<"$tmp/json" >/dev/null || fail "json fields"
present=$(jq -r 'select(.verdict == "present") | .evidence[0].commit' <"$tmp/json")
[ "$present" = "$(git rev-parse linux-6.6.y)" ] ||
	fail "present evidence names $present"
ok "json fields and evidence"

# --subsystem limits the walk to the named subsystems.
"$STABLEPICK" propose --branch linux-6.6.y --subsystem xfs --format json |
	jq -r .subsystem | sort -u >"$tmp/actual"
echo xfs >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "--subsystem"
# Whatever its case, and named twice: the same answer.
"$STABLEPICK" --no-cache propose --branch linux-6.6.y --subsystem xfs,ext4 \
	>"$tmp/expect"
"$STABLEPICK" --no-cache propose --branch linux-6.6.y --subsystem XFS,Ext4,xfs \
	>"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
grep -q '^proposed .* ext4 ' "$tmp/actual" || fail "no ext4: $(cat "$tmp/actual")"
ok "--subsystem XFS is xfs"

# --range: from before the base, the bug introducer is present by
# ancestry (below v6.6).
"$STABLEPICK" propose --branch linux-6.6.y --range master~8..master --format json |
	jq -r 'select(.subject == "ext4: add bar") | .verdict + " " + .evidence[0].kind' \
	>"$tmp/actual"
echo "present ancestor" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "--range below the base"

# Configuration: stablepick.upstream in the repository's config, and a
# --config file that wins over it.
git branch mainline master~2
git config stablepick.upstream mainline
"$STABLEPICK" propose --branch linux-6.6.y >"$tmp/actual"
head -n 2 "$tmp/actual" | tail -n 1 >"$tmp/range"
echo "mainline v6.6..mainline: 5 commits walked (0 merges), 5 in watched paths" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/range"
printf '[stablepick]\n\tupstream = master\n' >"$tmp/sp.conf"
"$STABLEPICK" --config "$tmp/sp.conf" propose --branch linux-6.6.y >"$tmp/actual"
head -n 2 "$tmp/actual" | tail -n 1 >"$tmp/range"
echo "mainline v6.6..master: 8 commits walked (1 merge), 6 in watched paths" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/range"
ok "stablepick.upstream and --config"

# stablepick.rules points at another rules directory: no vfs subsystem
# there (fs/namei.c is not watched) and a threshold nothing reaches.
mkdir "$tmp/rules"
printf 'threshold 1000\nsubsystem *\n\tpaths fs/*/\nend\nrule fix 1 subject /fix/\n' \
	>"$tmp/rules/default.rules"
git config stablepick.rules "$tmp/rules"
"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r '.verdict' | sort | uniq -c | sed 's/^ *//' >"$tmp/actual"
printf '4 below-threshold\n' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "stablepick.rules"

# A fix whose change the branch already makes, in a commit of its own
# that does more (no upstream line, another patch-id): its pick changes
# nothing, so it is maybe-present, not an empty patch that stops git am.
test_repo "$tmp/same"
cd "$tmp/same"
test_commit fs/ext4/a.c 'one
two' 'ext4: add a'
test_commit fs/ext4/b.c 'b' 'ext4: add b'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
test_fix fs/ext4/a.c 'one
two fixed' 'ext4: fix a crash in a' 'Cc: stable@vger.kernel.org'
same=$(git rev-parse HEAD)
test_fix fs/ext4/b.c 'b fixed' 'ext4: fix a crash in b' 'Cc: stable@vger.kernel.org'
git checkout -q linux-6.6.y
printf 'one\ntwo fixed\n' >fs/ext4/a.c
printf 'int c;\n' >fs/ext4/c.c
git add fs/ext4
test_tick
git commit -q -m 'ext4: vendor rework of a'
git checkout -q master
"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r '[.subject, .verdict, (.evidence | map(.kind) | join(","))] | join(" | ")' \
	>"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
ext4: fix a crash in b | proposed | absent
ext4: fix a crash in a | maybe-present | absent,same-content
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" propose --branch linux-6.6.y --format mbox | grep '^Subject:' >"$tmp/actual"
echo 'Subject: [PATCH 6.6 1/1] ext4: fix a crash in b' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "a pick that changes nothing: maybe-present, not an empty patch"
