#!/bin/sh
# `stablepick rules test`: rules tried on messages without a repository,
# with and without labels; what `unless` does; the body without its
# trailers; the errors of a bad file.  The rules are the test's own
# (STABLEPICK_DATADIR), so that retuning the shipped ones changes nothing
# here but the last check, which is about the shipped rules.
. "$TEST_SRCDIR/tests/lib.sh"

mkdir -p "$tmp/data/rules"
cat >"$tmp/data/rules/default.rules" <<'EOF'
version 1
threshold 10
subsystem *
	paths fs/*/
end
subsystem xfs
	paths fs/xfs/
	threshold 12
	rule xfs-log	+3	body	/\blog recovery fails\b/i
end
rule subject-fix	+6	subject	/\bfix(es|ed)?\b/i
rule subject-bug	+5	subject	/\b(leaks?|crash|use-after-free)\b/i
rule body-trace		+4	body	/\bcall trace:/i
rule names-a-bug	0	body	/\b(leak|crash)/i
rule cleanup		-6	subject	/\bclean ?up\b/i unless subject-bug,names-a-bug
rule in-branch		+6	fact	/^fixes-in-branch$/
veto noautosel		trailer:Cc	/stable\+noautosel@kernel\.org/
EOF
STABLEPICK_DATADIR=$tmp/data
export STABLEPICK_DATADIR

# One message a line; line 3 is blank.  Line 5's clean-up names a leak
# in its body, line 4's in its subject: unless spares both.  Line 8's
# Fixes: line quotes "crash" and "Call Trace:", which body rules do not
# read.  Line 7 is xfs's (threshold 12) and has a fact; line 8 names a
# subsystem the template makes (fs/ext2/).
cat >"$tmp/m.jsonl" <<'EOF'
{"subject": "ext4: fix a leak in mount", "message": "ext4: fix a leak in mount\n\nThe error path forgets the buffer.\n", "fix": true}
{"message": "ext4: clean up the mount code\n\nNo change in behaviour.\n", "fix": false}

{"message": "nfs: clean up potential refcount leaks\n\nThe put is missing on two paths.\n", "fix": "yes"}
{"message": "ext4: clean up the error paths\n\nTwo of them leak a reference.\n", "fix": true}
{"message": "xfs: fix a crash in log recovery\n\nLog recovery fails with:\n\nCall Trace:\n  xlog_recover+0x1a/0x40\n\nCc: stable+noautosel@kernel.org # needs a manual backport\n", "subsystem": "xfs", "fix": 1}
{"subject": "xfs: fix the quota check", "subsystem": "xfs", "facts": ["fixes-in-branch"], "fix": "positive"}
{"message": "ext2: tidy the code\n\nFixes: 0123456789ab (\"ext2: crash at mount, Call Trace: follows\")\n", "subsystem": "ext2", "fix": "negative"}
{"message": "vfs: fix a comment\n", "fix": null}
EOF
cd "$tmp"

# --- without labels -------------------------------------------------------
"$STABLEPICK" rules test m.jsonl >actual
cat >expect <<'EOF'
m.jsonl: 8 messages; threshold 10
picked: 2

RULE        WEIGHT   HITS  WHERE
subject-fix     +6      4  default.rules:11
subject-bug     +5      3  default.rules:12
body-trace      +4      1  default.rules:13
names-a-bug     +0      1  default.rules:14
cleanup         -6      1  default.rules:15
in-branch       +6      1  default.rules:16
noautosel     veto      1  default.rules:17
xfs/xfs-log     +3      1  default.rules:9
EOF
test_cmp expect actual
ok "rules test: hits per rule, picks at each subsystem's threshold"

# --- with labels, the sweep and each message ------------------------------
"$STABLEPICK" rules test --label fix --threshold-sweep --messages m.jsonl >actual
cat >expect <<'EOF'
m.jsonl: 8 messages, 5 positive, 2 negative, 1 unlabelled (label "fix"); threshold 10
picked: 2; 2 of 5 positive (recall 0.400), 0 of 2 negative (0.000); precision 1.000

RULE        WEIGHT   HITS    POS    NEG  PRECISION  RECALL  WHERE
subject-fix     +6      4      3      0      1.000   0.600  default.rules:11
subject-bug     +5      3      3      0      1.000   0.600  default.rules:12
body-trace      +4      1      1      0      1.000   0.200  default.rules:13
names-a-bug     +0      1      1      0      1.000   0.200  default.rules:14
cleanup         -6      1      0      1      0.000   0.000  default.rules:15
in-branch       +6      1      1      0      1.000   0.200  default.rules:16
noautosel     veto      1      1      0      1.000   0.200  default.rules:17
xfs/xfs-log     +3      1      1      0      1.000   0.200  default.rules:9

THRESHOLD     TP     FP     FN     TN  PRECISION  RECALL
       -6      4      2      1      0      0.667   0.800
        0      4      1      1      1      0.800   0.800
        5      3      0      2      2      1.000   0.600
       11      2      0      3      2      1.000   0.400
       12      1      0      4      2      1.000   0.200

  LINE SCORE  PICKED    LABEL     SUBJECT
     1    11  yes       positive  ext4: fix a leak in mount
                       subject-fix +6, subject-bug +5
     2    -6  no        negative  ext4: clean up the mount code
                       cleanup -6
     4     5  no        positive  nfs: clean up potential refcount leaks
                       subject-bug +5
     5     0  no        positive  ext4: clean up the error paths
                       names-a-bug +0
     6    18  no        positive  xfs: fix a crash in log recovery
                       subject-fix +6, subject-bug +5, body-trace +4, xfs-log +3; veto noautosel
     7    12  yes       positive  xfs: fix the quota check
                       subject-fix +6, in-branch +6
     8     0  no        negative  ext2: tidy the code
                       no rule matched
     9     6  no        -         vfs: fix a comment
                       subject-fix +6
EOF
test_cmp expect actual
ok "rules test --label: precision and recall, the sweep, each message"

# --- JSON Lines -------------------------------------------------------------
if command -v jq >/dev/null 2>&1; then
	"$STABLEPICK" rules test --label fix --format json --threshold-sweep \
		--messages - <m.jsonl >json
	jq -e -s 'all(.[]; has("type"))' json >/dev/null ||
		fail "a JSON line without its type"
	jq -r 'select(.type == "summary") |
		[.file, .messages, .positives, .negatives, .tp, .fp, .fn, .tn,
		 .recall, .precision, .negatives_picked] | @tsv' json >actual
	printf -- '-\t8\t5\t2\t2\t0\t3\t2\t0.4\t1\t0\n' >expect
	test_cmp expect actual
	jq -r 'select(.type == "rule" and .rule == "xfs-log") |
		[.subsystem, .weight, .line, .hits, .positive, .negative] | @tsv' \
		json >actual
	printf 'xfs\t3\t9\t1\t1\t0\n' >expect
	test_cmp expect actual
	jq -r 'select(.type == "sweep") | [.threshold, .tp, .fp] | @tsv' json >actual
	printf -- '-6\t4\t2\n0\t4\t1\n5\t3\t0\n11\t2\t0\n12\t1\t0\n' >expect
	test_cmp expect actual
	jq -r 'select(.type == "message" and .line == 6) |
		[.score, .threshold, .picked, .label, .veto,
		 (.reasons | map(.rule + "=" + .match) | join(","))] | @tsv' \
		json >actual
	printf '18\t12\tfalse\tpositive\tnoautosel\tsubject-fix=fix,subject-bug=crash,body-trace=Call Trace:,xfs-log=Log recovery fails\n' >expect
	test_cmp expect actual
	jq -r 'select(.type == "message" and .line == 9) | .label' json >actual
	echo null >expect
	test_cmp expect actual
	ok "rules test --format json: summary, rules, sweep, messages"
fi

# --- errors -------------------------------------------------------------------
cat >bad.jsonl <<'EOF'
{"subject": "ext4: fix a leak", "fix": true}
{"subject": "ext4: fix a leak" "fix": true}
{"fix": true}
{"subject": "zz: fix", "subsystem": "no/such", "fix": true}
{"subject": "ext4: fix a leak", "fix": "maybe"}
[1, 2]
{"subject": "ext4: fix a leak", "facts": ["folow-up"], "fix": true}
EOF
status=0
"$STABLEPICK" rules test --label fix bad.jsonl >out 2>err || status=$?
[ "$status" -eq 1 ] || fail "bad.jsonl: exit $status, expected 1"
[ ! -s out ] || fail "bad.jsonl: output on stdout"
cat >expect <<'EOF'
error: bad.jsonl:2: expected ',' or '}' in an object (at byte 32)
error: bad.jsonl:3: no "message" or "subject" string
error: bad.jsonl:4: unknown subsystem 'no/such'
error: bad.jsonl:5: label "fix" is neither positive (true, 1, "yes", "positive") nor negative (false, 0, "no", "negative")
error: bad.jsonl:6: not a JSON object (at byte 1)
error: bad.jsonl:7: unknown fact 'folow-up'
EOF
test_cmp expect err
status=0
"$STABLEPICK" rules test nosuch.jsonl >out 2>err || status=$?
[ "$status" -eq 1 ] || fail "nosuch.jsonl: exit $status, expected 1"
echo "error: cannot read 'nosuch.jsonl': No such file or directory" >expect
test_cmp expect err
: >empty.jsonl
status=0
"$STABLEPICK" rules test empty.jsonl >out 2>err || status=$?
[ "$status" -eq 1 ] || fail "empty.jsonl: exit $status, expected 1"
echo "error: empty.jsonl: no messages" >expect
test_cmp expect err
status=0
"$STABLEPICK" rules test >out 2>err || status=$?
[ "$status" -eq 129 ] || fail "no file: exit $status, expected 129"
grep -q '^error: rules test needs one file of messages' err ||
	fail "no file: $(cat err)"
status=0
"$STABLEPICK" rules test --threshold-sweep m.jsonl >out 2>err || status=$?
[ "$status" -eq 129 ] || fail "--threshold-sweep without --label: exit $status"
echo "error: rules test: --threshold-sweep needs --label" >expect
head -1 err >actual
test_cmp expect actual
ok "rules test: each bad line named with its cause, then exit 1"

# --- scores beyond 32 bits --------------------------------------------------
# 2,200 rules at the weight bound for "up", as many against for "down":
# each message scores 2.2e9 one way, which an int would wrap (to the
# other sign: "down" picked).  Scores, the sweep's thresholds and the
# picks are exact.
mkdir -p big/rules
awk 'BEGIN {
	print "threshold 10"
	for (i = 0; i < 2200; i++)
		print "rule up" i " +1000000 subject /\\bup\\b/"
	for (i = 0; i < 2200; i++)
		print "rule down" i " -1000000 subject /\\bdown\\b/"
}' >big/rules/default.rules
cat >big.jsonl <<'EOF'
{"subject": "ext4: up", "fix": true}
{"subject": "ext4: down", "fix": false}
EOF
STABLEPICK_DATADIR=$tmp/big "$STABLEPICK" rules test --label fix \
	--threshold-sweep --messages big.jsonl >out
grep -E '^picked|^ *-?[0-9]+ ' out >actual
cat >expect <<'EOF'
picked: 1; 1 of 1 positive (recall 1.000), 0 of 1 negative (0.000); precision 1.000
-2200000000      1      1      0      0      0.500   1.000
2200000000      1      0      0      1      1.000   1.000
     1 2200000000  yes       positive  ext4: up
     2 -2200000000  no        negative  ext4: down
EOF
test_cmp expect actual
ok "rules test: 2,200 weights at the bound add up exactly, past 32 bits"

# --- the shipped rules --------------------------------------------------------
# A clean-up that fixes a leak is a fix: the penalty gives way.  And a
# body's own words count in any case: "Call trace:" as arm64 prints it.
unset STABLEPICK_DATADIR
cat >shipped.jsonl <<'EOF'
{"message": "nfsd: clean up potential nfsd_file refcount leaks\n\nTwo paths leak a reference.\n"}
{"message": "ext4: clean up the mount code\n\nNo change in behaviour.\n"}
{"message": "ext4: do not read past the end\n\nCall trace:\n dump_backtrace+0x0/0x1e0\n"}
EOF
"$STABLEPICK" rules test --messages shipped.jsonl | sed -n '/^ *LINE/,$p' |
	awk 'NR > 1 && NR % 2 == 0 { printf "%s:", $3 } NR > 1 && NR % 2 == 1 { print }' |
	sed 's/  */ /g' >actual
grep -q '^no: subject-crash +5, subject-cleanup' actual &&
	fail "subject-cleanup counted against a leak fix"
grep -c 'subject-cleanup' actual >count || :
echo 1 >expect
test_cmp expect count
grep -q 'body-trace +4' actual || fail "Call trace: (arm64) not read: $(cat actual)"
ok "shipped rules: unless spares a clean-up that fixes a leak; case-free body words"

# Whitespace, style and option subjects (the test's own messages): a
# fix of indentation or a checkpatch warning is a clean-up, a subject
# that adds an option is a feature, "prevent" names a fix; a real bug in
# a whitespace parser keeps its score (unless).
cat >words.jsonl <<'EOF2'
{"message": "ext4: fix indentation\n\nThe fix aligns the lines.\n"}
{"message": "ext4: fix warnings from checkpatch.pl\n\nThe fix makes it quiet.\n"}
{"message": "ext4: fix a leak in the whitespace parser\n\nIt leaks a buffer.\n"}
{"message": "ext4: add a new option to fix slow commits\n\nThe fix causes a flag to be read.\n"}
{"message": "ext4: add max extents parameter\n\nA fix for big files leads to it.\n"}
{"message": "ext4: add missing option check\n\nIt crashes.\n"}
{"message": "ext4: prevent a use-after-free in mount\n\nThe error path frees it twice.\n"}
EOF2
"$STABLEPICK" rules test --messages --format json words.jsonl |
	jq -r 'select(.type == "message") | [.line, .score, .picked, ([.reasons[].rule] | join(","))] | @tsv' >actual
printf '%s\t%s\t%s\t%s\n' \
	1 4 false subject-fix,body-fix,subject-cleanup \
	2 4 false subject-fix,body-fix,subject-cleanup \
	3 15 true subject-fix,subject-crash,body-memory \
	4 6 false subject-fix,body-fix,body-consequence,subject-feature \
	5 0 false body-fix,body-consequence,subject-feature \
	6 10 true subject-guard,subject-check,body-crash \
	7 11 true subject-fix,subject-crash >expect
test_cmp expect actual
ok "shipped rules: style fixes are clean-ups, new options features, prevent a fix"
