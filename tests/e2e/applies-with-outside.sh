#!/bin/sh
# A member of a series outside the watched paths: the scan did not find
# it, so applywith_members() judges it apart.  Every output says it is
# not watched, with what the rules make of it, never a blank verdict.
. "$TEST_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/ext4 lib
seq 1 40 | sed 's/^/line /' >fs/ext4/inode.c
seq 1 40 | sed 's/^/line /' >lib/helper.c
git add fs lib
test_tick
git commit -q -m 'fs: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# commit SUBJECT [BODY]: commits what is staged, prints its id.

# lib/ is no subsystem's: the cleanup is not scanned, yet the ext4 fix
# changes a line of lib/helper.c as it left it.
test_change lib/helper.c 'line 5' 'line 5 cleaned'
clean=$(test_commit_staged 'lib: clean up the helper')
test_change lib/helper.c 'line 5 cleaned' 'line 5 cleaned and fixed'
test_change fs/ext4/inode.c 'line 10' 'line 10 fixed'
fix=$(test_commit_staged 'ext4: fix a crash in the inode lookup' 'Cc: stable@vger.kernel.org')

short() { echo "$1" | cut -c1-12; }
judged="not watched, below-threshold, score -6: subject-cleanup"

"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/json"
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    print(o["commit"], json.dumps(o["applies_with"]),
          json.dumps(o["applies_with_members"], sort_keys=True))
' "$tmp/json" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
$fix ["$clean"] [{"commit": "$clean", "score": -6, "subject": "lib: clean up the helper", "verdict": "below-threshold", "watched": false}]
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "JSON: the member outside the watched paths, with its verdict, score and watched false"

"$STABLEPICK" explain --branch linux-6.6.y $fix >"$tmp/explain"
grep -qF "applies after $(short $clean) (\"lib: clean up the helper\", $judged)" \
	"$tmp/explain" || fail "explain: $(cat "$tmp/explain")"
grep -qF "May need:  $(short $clean) lib: clean up the helper (not watched, below-threshold)" \
	"$tmp/explain" || fail "explain's may need: $(cat "$tmp/explain")"
ok "explain says the member is not watched, and what the rules make of it"

export STABLEPICK_NOW=1701600000
# The reasons are in the fix's own patch mail (the cover is short).
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/mbox"
tr -s ' \n' '  ' <"$tmp/mbox" >"$tmp/flat"
grep -qF "applies after $(short $clean) (\"lib: clean up the helper\", $judged), in the series before it" \
	"$tmp/flat" || fail "the patch mail: $(cat "$tmp/mbox")"
"$STABLEPICK" propose --branch linux-6.6.y --format failed >"$tmp/failed"
grep -qF "$(short $clean) lib: clean up the helper ($judged)" "$tmp/failed" ||
	fail "the FAILED mail: $(cat "$tmp/failed")"
ok "the patch mail and the FAILED mail say so too"

# The mbox carries it before the fix; git am takes both.
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/mbox"
grep '^Subject: \|^Stable-dep-of: ' "$tmp/mbox" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
Subject: [PATCH 6.6 1/2] lib: clean up the helper
Stable-dep-of: $(short $fix) ("ext4: fix a crash in the inode lookup")
Subject: [PATCH 6.6 2/2] ext4: fix a crash in the inode lookup
EOF
test_cmp "$tmp/expect" "$tmp/actual"
git checkout -q --detach linux-6.6.y
git -c user.name=T -c user.email=t@example.org am -q "$tmp/mbox" ||
	fail "git am does not take the mbox"
git checkout -q master
ok "the mbox carries the member before the fix, and git am takes it"
