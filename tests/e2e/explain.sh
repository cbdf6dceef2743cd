#!/bin/sh
# explain: the rule-by-rule breakdown and the presence evidence.
. "$TEST_SRCDIR/tests/lib.sh"
. "$TEST_SRCDIR/tests/e2e/fixture.sh"

make_fixture "$tmp/repo"
cd "$tmp/repo"

uaf=$(git log --format=%H --grep='^ext4: fix use-after-free' master)
leak=$(git log --format=%H --grep='^fs: fix a refcount leak' master)
"$STABLEPICK" explain --branch linux-6.6.y "$uaf" "$leak" master~1 |
	sed "s|$STABLEPICK_DATADIR/||" >"$tmp/actual"
cat >"$tmp/expect" <<'EXPECT'
commit 06d0934822df3cb346e2ca036ce42ceb36d932d7
Subject:   ext4: fix use-after-free in bar
Author:    A U Thor <author@example.com>
Date:      2023-11-14T22:16:20+00:00
Subsystem: ext4 (policy heuristic; list linux-ext4@vger.kernel.org)
Fixes:     db2e5a497805 ("ext4: add bar") -> db2e5a497805855399ac60d0e596422f7f022856, in-branch
Stable:    stable@vger.kernel.org # 6.1+ (for 6.1 and later)

Score 125, threshold 10:
   +100  cc-stable            rules/default.rules:@cc-stable@  "stable@vger.kernel.org"
     +8  fixes-tag            rules/default.rules:@fixes-tag@  "db2e5a497805"
     +6  fixes-in-branch      rules/default.rules:@fixes-in-branch@  "fixes-in-branch"
     +6  subject-fix          rules/default.rules:@subject-fix@  "fix"
     +5  subject-crash        rules/default.rules:@subject-crash@  "use-after-free"
  not matched: follow-up, reverts-present, prerequisite, named-by-test, cve, in-newer-branch, syzbot, reported-by, closes-report, subject-guard, subject-check, body-fix, body-consequence, body-trace, body-crash, body-memory, body-corruption, body-fuzz, subject-cleanup, subject-rename, subject-feature, subject-perf, noautosel, ext4-journal, ext4-fsck

Presence in linux-6.6.y:
  absent         no commit of linux-6.6.y after v6.6 names it

Applies:   yes, onto the tip of linux-6.6.y (after the proposals before it)

Verdict:   proposed: score 125 reaches the threshold 10 of ext4

commit 72cb599cf35d643a9b851254b349975715d42305
Subject:   fs: fix a refcount leak in path lookup
Author:    A U Thor <author@example.com>
Date:      2023-11-14T22:20:20+00:00
Subsystem: vfs (policy heuristic; list linux-fsdevel@vger.kernel.org)
Fixes:     db2e5a497805 ("ext4: add bar") -> db2e5a497805855399ac60d0e596422f7f022856, in-branch

Score 25, threshold 10:
     +8  fixes-tag            rules/default.rules:@fixes-tag@  "db2e5a497805"
     +6  fixes-in-branch      rules/default.rules:@fixes-in-branch@  "fixes-in-branch"
     +6  subject-fix          rules/default.rules:@subject-fix@  "fix"
     +5  subject-crash        rules/default.rules:@subject-crash@  "leak"
  not matched: cc-stable, follow-up, reverts-present, prerequisite, named-by-test, cve, in-newer-branch, syzbot, reported-by, closes-report, subject-guard, subject-check, body-fix, body-consequence, body-trace, body-crash, body-memory, body-corruption, body-fuzz, subject-cleanup, subject-rename, subject-feature, subject-perf, noautosel

Presence in linux-6.6.y:
  upstream-line  backported as 8f3388abc9da (8f3388abc9da8f0bd4a0d1f6f7644cfac48ab01d)

Verdict:   present: backported as 8f3388abc9da

commit 6d52102f861b0c3c2711fe57d84feceee366541a
Subject:   mm: fix a crash in filemap
Author:    A U Thor <author@example.com>
Date:      2023-11-14T22:21:20+00:00
Subsystem: none (touches no watched path)
EXPECT
# The lines of the rules, from the rule file itself.
for rule in cc-stable fixes-tag fixes-in-branch subject-fix subject-crash; do
	n=$(grep -n "^rule $rule[[:space:]]" "$TEST_SRCDIR/rules/default.rules" | cut -d: -f1)
	sed -i "s/@$rule@/$n/" "$tmp/expect"
done
test_cmp "$tmp/expect" "$tmp/actual"
ok "explain"
