#!/bin/sh
# Presence by patch-id is asked of every candidate whose paths the branch
# changed, below the threshold too: the text summary counts "present"
# apart from "below-threshold", and the JSON gives every candidate's
# evidence, so a commit the branch carries under another subject is
# present whatever its score.  Whoever makes presence lazier keeps
# this.  The trace says how many patch-ids presence computed.
. "$TEST_SRCDIR/tests/lib.sh"
COLUMNS=1000; export COLUMNS

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit fs/ext4/inode.c 'int inode;' 'ext4: add the inode code'
test_commit fs/ext4/dir.c 'int dir;' 'ext4: add the dir code'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# Below the threshold (no fix words, no stable tag), carried by the
# branch under another subject: present by its patch-id.
test_commit fs/ext4/inode.c 'int inode;
int inode_tidy;' 'ext4: tidy up the inode code'
tidy=$(git rev-parse HEAD)
# Below the threshold, its path changed otherwise by the branch: absent.
test_commit fs/ext4/dir.c 'int dir;
int dir_tidy;' 'ext4: tidy up the dir code'
other=$(git rev-parse HEAD)

git checkout -q linux-6.6.y
test_commit fs/ext4/inode.c 'int inode;
int inode_tidy;' 'VENDOR: inode cleanup'
vendor=$(git rev-parse HEAD)
test_commit fs/ext4/dir.c 'int dir;
int dir_for_66;' 'VENDOR: dir change'
git checkout -q master

"$STABLEPICK" propose --branch linux-6.6.y --format json |
	jq -r '[.commit, .verdict, (.evidence | map(.kind) | join(","))] |
	       join(" ")' | sort >"$tmp/actual"
sort >"$tmp/expect" <<EXPECT
$tidy present patch-id
$other below-threshold absent
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "a below-threshold commit the branch carries is present"

"$STABLEPICK" propose --branch linux-6.6.y | grep '^2 candidates:' >"$tmp/actual"
echo "2 candidates: 1 present, 1 below-threshold" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "the summary counts it present"

# Cold: both candidates' patch-ids and the two branch commits'.
rm -rf .git/stablepick
STABLEPICK_TRACE=1 "$STABLEPICK" propose --branch linux-6.6.y 2>"$tmp/trace" \
	>/dev/null
grep 'presence: [0-9]* patch-ids computed' "$tmp/trace" >"$tmp/actual"
echo "trace: presence: 4 patch-ids computed for 2 commits asked about" \
	>"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
for c in $tidy $other $vendor; do
	grep -q "^$c [0-9a-f]\{40\}" .git/stablepick/patchid-cache ||
		fail "no patch-id of $c in the cache"
done
ok "the trace counts the patch-ids presence computed"
