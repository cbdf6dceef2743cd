#!/bin/sh
# The mail series: the proposals that apply alone and those with a
# series found, picked as one series onto the branch tip.  A proposal
# whose series was found after the proposals that apply alone may not
# apply after another's series: it is taken out, with the members
# carried only for it, and the series picked again (applywith_carry()).
. "$TEST_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/ext4
seq 1 40 | sed 's/^/line /' >fs/ext4/inode.c
git add fs
test_tick
git commit -q -m 'fs: add the inode code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# commit SUBJECT [BODY]: commits what is staged, prints its id.

# The crash fix applies after the rework of line 10.
test_change fs/ext4/inode.c 'line 10' 'line 10 reworked'
rework=$(test_commit_staged 'ext4: rework the inode lookup')
test_change fs/ext4/inode.c 'line 10 reworked' 'line 10 reworked and fixed'
crash=$(test_commit_staged 'ext4: fix a crash in the inode lookup' 'Cc: stable@vger.kernel.org')
# Mainline then takes line 10 back to what the branch has ...
test_change fs/ext4/inode.c 'line 10 reworked and fixed' 'line 10'
test_change fs/ext4/inode.c 'line 30' 'line 30 moved'
back=$(test_commit_staged 'ext4: move the inode lookup out of line')
# ... so the leak fix, which changes it too, applies after the split
# of line 20 on the branch tip, but not after the crash fix's series.
test_change fs/ext4/inode.c 'line 20' 'line 20 split'
split=$(test_commit_staged 'ext4: split the extent helper')
test_change fs/ext4/inode.c 'line 20 split' 'line 20 split and fixed'
test_change fs/ext4/inode.c 'line 10' 'line 10 guarded'
leak=$(test_commit_staged 'ext4: fix a leak in the extent helper' 'Cc: stable@vger.kernel.org')
# One that applies alone, after all of them.
test_change fs/ext4/inode.c 'line 36' 'line 36 fixed'
race=$(test_commit_staged 'ext4: fix a race in the inode code' 'Cc: stable@vger.kernel.org')

short() { echo "$1" | cut -c1-12; }

# What the search found, each on the branch tip after the proposals
# that apply alone: both fixes have a series.
"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/json"
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["verdict"] != "proposed":
        continue
    print(o["commit"], o["applies"], json.dumps(o["applies_with"]))
' "$tmp/json" | sort >"$tmp/actual"
sort >"$tmp/expect" <<EXPECT
$crash False ["$rework"]
$leak False ["$split"]
$race True []
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "JSON: each fix's series, as found on the branch tip"

# The mbox leaves out the leak fix and the split carried only for it;
# git am takes what is left.
export STABLEPICK_NOW=1701600000
"$STABLEPICK" propose --branch linux-6.6.y --format mbox >"$tmp/mbox"
grep '^Subject: \|^Stable-dep-of: ' "$tmp/mbox" >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
Subject: [PATCH 6.6 1/3] ext4: rework the inode lookup
Stable-dep-of: $(short $crash) ("ext4: fix a crash in the inode lookup")
Subject: [PATCH 6.6 2/3] ext4: fix a crash in the inode lookup
Subject: [PATCH 6.6 3/3] ext4: fix a race in the inode code
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
! grep -q "$split\|$leak" "$tmp/mbox" ||
	fail "the mbox carries the leak fix or its series"
git checkout -q --detach linux-6.6.y
git -c user.name=T -c user.email=t@example.org am -q "$tmp/mbox" ||
	fail "git am does not take the mbox"
n=$(git rev-list --count linux-6.6.y..HEAD)
git checkout -q master
[ "$n" = 3 ] || fail "git am made $n commits, not 3"
ok "the mbox leaves out a fix that does not apply in the series, and what was carried only for it"

# git agrees that the leak fix does not apply after the crash fix's
# series, and applies after its own on the tip.
git checkout -q --detach linux-6.6.y
git -c user.name=T -c user.email=t@example.org cherry-pick $split $leak \
	>/dev/null 2>&1 || fail "the leak fix does not apply after the split"
git checkout -q --detach linux-6.6.y
git -c user.name=T -c user.email=t@example.org cherry-pick $rework $crash \
	>/dev/null 2>&1 || fail "the crash fix does not apply after the rework"
! git -c user.name=T -c user.email=t@example.org cherry-pick $split $leak \
	>/dev/null 2>&1 || fail "the leak fix applies after the crash fix's series"
git cherry-pick --abort
git checkout -q master
ok "git cherry-pick agrees"

# The cover letter lists the leak fix as needing a manual backport,
# naming the series found on the tip and saying it conflicts after the
# patches before it; so does its FAILED mail.  explain, which makes no
# mail series, names the series.
"$STABLEPICK" propose --branch linux-6.6.y --format email >"$tmp/email"
sed -n '/^Needs a manual backport/,/^$/p' "$tmp/email" | tr -s ' \n' '  ' >"$tmp/flat"
grep -q "$(short $leak) ext4: fix a leak in the extent helper" "$tmp/flat" ||
	fail "the cover letter does not list the leak fix as manual"
grep -q "applies after $(short $split) (\"ext4: split the extent helper\", below-threshold, score 0); but not after the patches before it in the series: conflicts in fs/ext4/inode.c" \
	"$tmp/flat" || fail "the cover letter does not name the leak fix's series"
! grep -q "$(short $crash)\|$(short $race)" "$tmp/flat" ||
	fail "the cover letter lists a fix in the series as manual"
"$STABLEPICK" explain --branch linux-6.6.y $leak >"$tmp/explain"
grep -q "^Applies:   does not apply to linux-6.6.y: conflicts in fs/ext4/inode.c; applies after $(short $split) (\"ext4: split the extent helper\", below-threshold, score 0)" \
	"$tmp/explain" || fail "explain does not name the leak fix's series"
! grep -q "but not after" "$tmp/explain" ||
	fail "explain speaks of a mail series it did not make"
"$STABLEPICK" propose --branch linux-6.6.y --format failed >"$tmp/failed"
sed -n "/^Subject: FAILED: patch \"\[PATCH\] ext4: fix a leak/,/^thanks/p" \
	"$tmp/failed" | tr -s ' \n' '  ' >"$tmp/flat"
grep -q "But not after the patches before it in this run's series (it conflicts in fs/ext4/inode.c): it is left out of the mbox." \
	"$tmp/flat" || fail "the FAILED mail does not say the leak fix is left out"
sed -n "/^Subject: FAILED: patch \"\[PATCH\] ext4: fix a crash/,/^thanks/p" \
	"$tmp/failed" >"$tmp/crash"
[ -s "$tmp/crash" ] || fail "no FAILED mail for the crash fix"
! grep -q "But not after" "$tmp/crash" ||
	fail "the FAILED mail says a fix in the series is left out"
ok "the cover letter and the FAILED mail say the leak fix is left out; explain names the series found on the tip"
