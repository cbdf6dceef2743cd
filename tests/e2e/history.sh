#!/bin/sh
# Watching over history: a template stands for the directories a commit
# changes at that commit, so that commits under a directory renamed or
# removed since are scanned as git log -- fs/ lists them; a subsystem's
# former paths (rules/smb.rules: fs/cifs/ for fs/smb/client/) keep them
# in it; what the specs leave of a directory (fs/smb/Kconfig) is the
# template's.
. "$TEST_SRCDIR/tests/lib.sh"
# The lines whole: text-width.sh checks how the text fits a width.
COLUMNS=1000; export COLUMNS

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit fs/cifs/file.c 'int file;' 'cifs: add the file code'
test_commit fs/smbfs_common/smb2pdu.h 'int pdu;' 'smb: add the common pdu'
test_commit fs/reiserfs/super.c 'int super;' 'reiserfs: add the super code'
test_commit fs/ext4/inode.c 'int inode;' 'ext4: add the inode code'
test_tick
git tag -a -m 'Linux 6.1' v6.1
git branch linux-6.1.y

test_fix fs/cifs/file.c 'int file_fixed;' 'cifs: fix a leak in the file code' \
	'Cc: stable@vger.kernel.org'
cifs_old=$(git rev-parse HEAD)
test_fix fs/reiserfs/super.c 'int super_fixed;' 'reiserfs: fix a crash at mount' \
	'Cc: stable@vger.kernel.org'
reiser=$(git rev-parse HEAD)
# Linux 6.4's move, in one commit.
mkdir -p fs/smb
git mv fs/cifs fs/smb/client
git mv fs/smbfs_common fs/smb/common
test_tick
git commit -q -m 'smb: move client and server files to common directory fs/smb'
move=$(git rev-parse HEAD)
test_commit fs/smb/Kconfig 'source' 'smb: add a Kconfig for the directory'
kconfig=$(git rev-parse HEAD)
test_fix fs/smb/client/file.c 'int file_fixed_again;' \
	'smb: client: fix a race in the file code' 'Cc: stable@vger.kernel.org'
cifs_new=$(git rev-parse HEAD)
test_fix fs/smb/common/smb2pdu.h 'int pdu_fixed;' 'smb: common: fix a field size' \
	'Cc: stable@vger.kernel.org'
common=$(git rev-parse HEAD)
git rm -q -r fs/reiserfs
test_tick
git commit -q -m 'fs: remove reiserfs'
removal=$(git rev-parse HEAD)
test_fix fs/ext4/inode.c 'int inode_fixed;' 'ext4: fix an overflow in the inode code' \
	'Cc: stable@vger.kernel.org'

# Every commit git log lists for fs/ is a candidate, in its subsystem.
git rev-list --no-merges --full-history v6.1..master -- fs/ | sort >"$tmp/expect"
"$STABLEPICK" propose --branch linux-6.1.y --format json >"$tmp/json"
jq -r .commit "$tmp/json" | sort >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
ok "every commit under fs/ is scanned, renamed and removed directories too"

jq -r '.commit[0:12] + " " + .subsystem + " " + (.subsystems | join(","))' \
	"$tmp/json" | sort >"$tmp/actual"
short() { git rev-parse --short=12 "$1"; }
sort >"$tmp/expect" <<EXPECT
$(short "$cifs_old") cifs cifs
$(short "$reiser") reiserfs reiserfs
$(short "$move") cifs cifs,smb-common
$(short "$kconfig") smb smb
$(short "$cifs_new") cifs cifs
$(short "$common") smb-common smb-common
$(short "$removal") reiserfs reiserfs
$(short master) ext4 ext4
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "former paths keep a subsystem; the template takes what specs leave"

# explain knows the subsystem of a directory that is gone.
"$STABLEPICK" explain --branch linux-6.1.y "$reiser" | grep '^Subsystem' >"$tmp/actual"
echo "Subsystem: reiserfs (policy heuristic; list linux-fsdevel@vger.kernel.org)" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "explain: a removed directory's subsystem"

# --subsystem takes a directory of the base that the tip lacks, and the
# header says what it left out.
"$STABLEPICK" propose --branch linux-6.1.y --subsystem reiserfs --all >"$tmp/out"
grep -c '^[a-z-]* .* reiserfs ' "$tmp/out" >"$tmp/actual" || :
echo 2 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
grep '^mainline ' "$tmp/out" >"$tmp/actual"
echo "mainline v6.1..master: 8 commits walked (0 merges), 2 in watched paths, 6 left out (not in --subsystem, or policy ignore)" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "--subsystem reiserfs, and what it left out"

# The cache replays the derived subsystems, and a week later the new
# commits join them.
"$STABLEPICK" propose --branch linux-6.1.y --format json >"$tmp/json2"
test_cmp "$tmp/json" "$tmp/json2"
test_fix fs/smb/client/file.c 'int file_fixed_thrice;' 'smb: client: fix a leak in reconnect' \
	'Cc: stable@vger.kernel.org'
"$STABLEPICK" propose --branch linux-6.1.y --format json >"$tmp/json3"
"$STABLEPICK" --no-cache propose --branch linux-6.1.y --format json >"$tmp/json4"
test_cmp "$tmp/json4" "$tmp/json3"
[ "$(jq -s length "$tmp/json3")" = 9 ] || fail "the new commit is not scanned"
ok "cached runs derive the same subsystems"

# A spec that names a directory without its slash watches nothing: an
# error naming the file and line.
mkdir "$tmp/rules"
cp "$STABLEPICK_DATADIR"/rules/*.rules "$tmp/rules/"
printf 'version 1\nsubsystem f2fs\n\tpaths fs/ext4\nend\n' >"$tmp/rules/f2fs.rules"
if "$STABLEPICK" --rules "$tmp/rules" propose --branch linux-6.1.y 2>"$tmp/err" >/dev/null; then
	fail "a directory without its slash is accepted"
fi
cat >"$tmp/expect" <<EXPECT
error: $tmp/rules/f2fs.rules:3: paths 'fs/ext4' of subsystem 'f2fs' is a directory in v6.1..master: write 'fs/ext4/' to watch what is in it
EXPECT
test_cmp "$tmp/expect" "$tmp/err"
ok "a directory without its slash is an error"

# A subsystem ignored by policy: its commits are left out, and said so.
mkdir "$tmp/ignore"
printf 'version 1\nsubsystem reiserfs\n\tpolicy ignore\nend\n' >"$tmp/ignore/reiserfs.rules"
"$STABLEPICK" --rules "$tmp/ignore" propose --branch linux-6.1.y | grep '^mainline ' >"$tmp/actual"
echo "mainline v6.1..master: 9 commits walked (0 merges), 7 in watched paths, 2 left out (policy ignore)" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" --rules "$tmp/ignore" explain --branch linux-6.1.y "$reiser" |
	grep '^Subsystem' >"$tmp/actual"
echo "Subsystem: none (the subsystems of the paths it changes are ignored by policy)" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "policy ignore: left out, and said so"
