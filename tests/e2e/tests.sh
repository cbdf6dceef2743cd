#!/bin/sh
# tests: the fstests and LTP regression tests that name, as their fix, a
# kernel commit linux-6.6.y lacks.  A fixture history with one commit
# per presence case, and fstests- and LTP-style trees written for this
# test with every annotation form; the exact output of every format,
# and propose --tests-from.
. "$TEST_SRCDIR/tests/lib.sh"
# The lines whole: text-width.sh checks how the text fits a width.
COLUMNS=1000; export COLUMNS

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/xfs fs/ext4 fs/btrfs mm
echo 'int xfs_log;' >fs/xfs/xfs_log.c
echo 'int bmap;' >fs/xfs/xfs_bmap.c
echo 'int writeback;' >fs/ext4/page-io.c
echo 'int filemap;' >mm/filemap.c
echo 'int mmap;' >mm/mmap.c
git add .
test_commit fs/ext4/super.c 'int super;' 'Initial commit'
test_tick
git tag -a -m 'Linux 6.1' v6.1
git branch linux-6.1.y

id() { git rev-parse "$1"; }
short() { git rev-parse --short=12 "$1"; }

test_commit fs/xfs/xfs_log.c 'int xfs_log_recover;' 'xfs: add log recovery'
recovery=$(short HEAD)
test_fix fs/xfs/xfs_log.c 'int xfs_log_recover_fixed;' 'xfs: fix an old bug in log recovery' \
	"Fixes: $recovery (\"xfs: add log recovery\")"
A=$(id HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
fixes="Fixes: $recovery (\"xfs: add log recovery\")"

# Mainline after v6.6, one commit per case.
test_fix fs/xfs/xfs_log.c 'int xfs_log_uaf_fixed;' 'xfs: fix a use-after-free in log recovery' "$fixes"
B=$(id HEAD)
test_fix fs/ext4/page-io.c 'int writeback_fixed;' 'ext4: fix a deadlock in writeback' "$fixes"
C=$(id HEAD)
test_fix mm/filemap.c 'int filemap_fixed;' 'mm: fix a leak in filemap' "$fixes"
D=$(id HEAD)
test_fix fs/xfs/xfs_bmap.c 'int bmap_fixed;' 'xfs: fix a corruption in bmap' "$fixes"
E=$(id HEAD)
test_commit fs/btrfs/feature.c 'int feature;' 'btrfs: add the shiny feature'
feature=$(short HEAD)
test_fix fs/btrfs/feature.c 'int feature_fixed;' 'btrfs: fix a crash in the shiny feature' \
	"Fixes: $feature (\"btrfs: add the shiny feature\")"
G=$(id HEAD)
test_fix fs/ext4/inode.c 'int inode_fixed;' 'ext4: fix a race in inode eviction' "$fixes"
H=$(id HEAD)
test_fix mm/mmap.c 'int mmap_fixed;' 'mm: fix an overflow in mmap' "$fixes"
I=$(id HEAD)
test_fix fs/namei.c 'int namei_fixed;' 'fs: fix a race in rename' "$fixes"
J=$(id HEAD)
# K fixes I, the mm/ fix outside the watch that --tests-from adds.
test_fix fs/ext4/mmap.c 'int ext4_mmap;' 'ext4: fix the mmap overflow fix' \
	"Fixes: $(git rev-parse --short=12 "$I") (\"mm: fix an overflow in mmap\")"
K=$(id HEAD)
blob=$(echo 'not a commit' | git hash-object -w --stdin)
blob12=$(echo "$blob" | cut -c1-12)

# linux-6.6.y: B with an upstream line, C and D cherry-picked without
# one (found by patch-id; D outside the watched fs/), and a commit with
# H's subject but another change (found by subject only).
git checkout -q linux-6.6.y
test_tick
git cherry-pick "$B" >/dev/null
git commit -q --amend -m "xfs: fix a use-after-free in log recovery

commit $B upstream.

Signed-off-by: A U Thor <author@example.com>"
Bb=$(id HEAD)
test_tick
git cherry-pick "$C" >/dev/null
test_tick
git cherry-pick "$D" >/dev/null
test_fix fs/ext4/inode.c 'int inode_other;' 'ext4: fix a race in inode eviction'
# linux-6.1.y carries E, with its upstream line.
git checkout -q linux-6.1.y
test_fix fs/xfs/xfs_bmap.c 'int bmap_fixed;' 'xfs: fix a corruption in bmap' \
	"[ Upstream commit $E ]"
E61=$(short HEAD)
git checkout -q master

# An fstests-style checkout.
fst=$tmp/fstests
mkdir -p "$fst/common" "$fst/tests/xfs" "$fst/tests/generic"
cat >"$fst/common/rc" <<'EOF'
# The wrappers: their ids are the caller's, not annotations.
_fixed_by_git_commit()
{
	echo "This test is fixed by $1 fix: $*" >> $seqres.hints
}
_fixed_by_kernel_commit()
{
	_fixed_by_git_commit kernel $*
}
EOF
cat >"$fst/common/xfs" <<EOF
_require_xfs_log_fix()
{
	_fixed_by_kernel_commit $(short "$B") "xfs: fix a use-after-free in log recovery"
}
_require_xfs_sane()
{
	_require_xfs_log_fix
}
EOF
cat >"$fst/tests/xfs/001" <<EOF
#! /bin/bash
# FS QA Test No. 001
. ./common/preamble
_begin_fstest auto quick log

_require_xfs_sane
_fixed_by_kernel_commit $(short "$E") \\
	"xfs: fix a corruption in bmap"
echo "Silence is golden"
EOF
cat >"$fst/tests/xfs/002" <<EOF
#! /bin/bash
_fixed_by_git_commit kernel $(short "$B") "xfs: fix a use-after-free in log recovery"
_fixed_by_git_commit xfsprogs 0123456789ab "xfs_repair: fix something"
EOF
cat >"$fst/tests/generic/003" <<EOF
#! /bin/bash
_fixed_by_kernel_commit $(short "$C") 'ext4: fix a deadlock in writeback'
[ \$FSTYP = btrfs ] && _fixed_by_kernel_commit $(short "$G") \\
	"btrfs: fix a crash in the shiny feature"
EOF
cat >"$fst/tests/generic/004" <<'EOF'
#! /bin/bash
# _fixed_by_kernel_commit 999999999999 "a comment is no annotation"
_fixed_by_kernel_commit xxxxxxxxxxxx "fs: fix a race in rename"
EOF
cat >"$fst/tests/generic/005" <<'EOF'
#! /bin/bash
_fixed_by_kernel_commit <pending-upstream> "fs: a fix nobody merged yet"
EOF
cat >"$fst/tests/generic/006" <<EOF
#! /bin/bash
_wants_kernel_commit $(short "$H") "ext4: fix a race in inode eviction"
EOF
cat >"$fst/tests/generic/007" <<EOF
#! /bin/bash
_fixed_by_fs_commit btrfs $(short "$G") "btrfs: fix a crash in the shiny feature"
if [ "\$FSTYP" = "xfs" ]; then
	_fixed_by_kernel_commit $(short "$A") "xfs: fix an old bug in log recovery"
fi
EOF
cat >"$fst/tests/generic/008" <<'EOF'
#! /bin/bash
echo "no annotation here"
EOF
cat >"$fst/tests/xfs/009" <<EOF
#! /bin/bash
_fixed_by_kernel_commit $blob12 "xfs: an id that names a blob"
_fixed_by_kernel_commit deadbeefdead
EOF
: >"$fst/tests/xfs/001.out"

# An LTP-style checkout.
ltp=$tmp/ltp
mkdir -p "$ltp/testcases/kernel/syscalls/mmap" "$ltp/testcases/kernel/mem" \
	"$ltp/testcases/kernel/fs" "$ltp/testcases/cve"
cat >"$ltp/testcases/kernel/syscalls/mmap/mmap99.c" <<EOF
/* {"linux-git", "abcdefabcdef"} in a comment is no annotation. */
static struct tst_test test = {
	.test_all = run,
	.tags = (const struct tst_tag[]) {
		{"linux-git", "$(short "$I")"},
		{"CVE", "2099-0001"},
		{}
	}
};
EOF
cat >"$ltp/testcases/kernel/mem/filemap01.c" <<EOF
static struct tst_tag tags[] = {
	{"linux-git", "$(short "$D")"},
	{}
};
static struct tst_test test = { .tags = tags };
EOF
cat >"$ltp/testcases/kernel/fs/stable01.c" <<EOF
static struct tst_test test = {
	.tags = (const struct tst_tag[]) {
		{"linux-stable-git", "$(short "$Bb")"},
		{}
	}
};
EOF
cat >"$ltp/testcases/kernel/fs/stable02.c" <<EOF
static struct tst_test test = {
	.tags = (const struct tst_tag[]) {
		{"linux-stable-git", "$E61"},
		{}
	}
};
EOF
cat >"$ltp/testcases/cve/cve-2099-0002.c" <<'EOF'
static struct tst_test test = {
	.tags = (const struct tst_tag[]) {
		{"CVE", "2099-0002"},
		{}
	}
};
EOF

# The text report, exactly.
"$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst" --ltp "$ltp" \
	>"$tmp/actual" 2>"$tmp/err"
s() { git rev-parse --short=12 "$1"; }
cat >"$tmp/expect" <<EOF
branch linux-6.6.y (base v6.6) against v6.6..master: 14 test files read, 13 name kernel commits

unknown        cve-2099-0002 (ltp)
    ignored       2099-0002
                  CVE: CVE-2099-0002 names no commit; testcases/cve/cve-2099-0002.c:3
expected-pass  filemap01 (ltp)
    present       $(s "$D") mm: fix a leak in filemap
                  linux-git: same change as $(s linux-6.6.y~1) in linux-6.6.y; testcases/kernel/mem/filemap01.c:2
expected-pass  generic/003 (fstests)
    present       $(s "$C") ext4: fix a deadlock in writeback
                  _fixed_by_kernel_commit: same change as $(s linux-6.6.y~2) in linux-6.6.y; tests/generic/003:2
    not-needed    $(s "$G") btrfs: fix a crash in the shiny feature
                  _fixed_by_kernel_commit: absent, but the branch cannot need it: fixed commit $feature not in branch; tests/generic/003:3, only on btrfs
expected-fail  generic/004 (fstests)
    missing       $(s "$J") fs: fix a race in rename
                  _fixed_by_kernel_commit: no commit of linux-6.6.y after v6.6 names it ('xxxxxxxxxxxx' is a placeholder, not a commit id; found by its subject); tests/generic/004:3
unknown        generic/005 (fstests)
    unresolved    <pending-upstream> fs: a fix nobody merged yet
                  _fixed_by_kernel_commit: '<pending-upstream>' is a placeholder, not a commit id; no commit of the range or the branch has its subject; tests/generic/005:2
expected-pass  generic/006 (fstests)
    maybe-present $(s "$H") ext4: fix a race in inode eviction
                  _wants_kernel_commit: same subject as $(s linux-6.6.y) in linux-6.6.y; tests/generic/006:2
expected-pass  generic/007 (fstests)
    not-needed    $(s "$G") btrfs: fix a crash in the shiny feature
                  _fixed_by_fs_commit btrfs: absent, but the branch cannot need it: fixed commit $feature not in branch; tests/generic/007:2, only on btrfs
    present       $(s "$A") xfs: fix an old bug in log recovery
                  _fixed_by_kernel_commit: in linux-6.6.y already (below v6.6); tests/generic/007:4, only on xfs
expected-fail  mmap99 (ltp)
    missing       $(s "$I") mm: fix an overflow in mmap
                  linux-git: no commit of linux-6.6.y after v6.6 names it; testcases/kernel/syscalls/mmap/mmap99.c:5
    ignored       2099-0001
                  CVE: CVE-2099-0001 names no commit; testcases/kernel/syscalls/mmap/mmap99.c:6
expected-pass  stable01 (ltp)
    present       $(s "$Bb") xfs: fix a use-after-free in log recovery
                  linux-stable-git: linux-6.6.y has this commit itself; testcases/kernel/fs/stable01.c:3
expected-fail  stable02 (ltp)
    missing       $(s "$E") xfs: fix a corruption in bmap
                  linux-stable-git: no commit of linux-6.6.y after v6.6 names it (stable commit $E61 backports $(s "$E")); testcases/kernel/fs/stable02.c:3
expected-fail  xfs/001 (fstests)
    present       $(s "$B") xfs: fix a use-after-free in log recovery
                  _fixed_by_kernel_commit: backported as $(s "$Bb"); common/xfs:3 via common/xfs:_require_xfs_sane
    missing       $(s "$E") xfs: fix a corruption in bmap
                  _fixed_by_kernel_commit: no commit of linux-6.6.y after v6.6 names it; tests/xfs/001:7
expected-pass  xfs/002 (fstests)
    present       $(s "$B") xfs: fix a use-after-free in log recovery
                  _fixed_by_git_commit kernel: backported as $(s "$Bb"); tests/xfs/002:2
unknown        xfs/009 (fstests)
    unresolved    $blob12 xfs: an id that names a blob
                  _fixed_by_kernel_commit: '$blob12' names a blob, not a commit; no commit of the range or the branch has its subject; tests/xfs/009:2
    unresolved    deadbeefdead
                  _fixed_by_kernel_commit: no commit 'deadbeefdead' in this repository; tests/xfs/009:3

13 tests: 4 expected-fail, 6 expected-pass, 3 unknown

missing fixes (backport candidates):
    $(s "$E") xfs: fix a corruption in bmap (stable02, xfs/001)
    $(s "$I") mm: fix an overflow in mmap (mmap99)
    $(s "$J") fs: fix a race in rename (generic/004)
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "text report"
test_cmp /dev/null "$tmp/err"

# JSON Lines: every line an object jq reads; status and missing per test.
"$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst" --ltp "$ltp" \
	--format json >"$tmp/json"
jq -r '[.test, .status, (.missing | map(.[0:12]) | join(","))] | @tsv' \
	"$tmp/json" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
cve-2099-0002	unknown	
filemap01	expected-pass	
generic/003	expected-pass	
generic/004	expected-fail	$(s "$J")
generic/005	unknown	
generic/006	expected-pass	
generic/007	expected-pass	
mmap99	expected-fail	$(s "$I")
stable01	expected-pass	
stable02	expected-fail	$(s "$E")
xfs/001	expected-fail	$(s "$E")
xfs/002	expected-pass	
xfs/009	unknown	
EOF
test_cmp "$tmp/expect" "$tmp/actual"
# Full ids, and one annotation in full.
jq -r 'select(.test == "xfs/001") | .missing[]' "$tmp/json" >"$tmp/actual"
echo "$E" | test_cmp - "$tmp/actual"
jq -c 'select(.test == "xfs/001") | .annotations[0]' "$tmp/json" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
{"kind":"fixed-by","how":"_fixed_by_kernel_commit","sha":"$(s "$B")","subject":"xfs: fix a use-after-free in log recovery","fstyp":null,"via":"common/xfs:_require_xfs_sane","file":"common/xfs","line":3,"commit":"$B","state":"present","detail":"backported as $(s "$Bb")","resolved_by":null,"verdict":"present"}
EOF
test_cmp "$tmp/expect" "$tmp/actual"
jq -c 'select(.test == "stable02") | .annotations[0] | [.kind, .commit, .resolved_by]' \
	"$tmp/json" >"$tmp/actual"
echo "[\"stable-fix\",\"$E\",\"stable commit $E61 backports $(s "$E")\"]" |
	test_cmp - "$tmp/actual"
ok "JSON Lines, one object per test"

# The exclude file for an xfs run: btrfs-only annotations do not count.
"$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst" --fstyp xfs \
	--format exclude --output "$tmp/xfs.exclude" >"$tmp/out"
test_cmp /dev/null "$tmp/out"
cat >"$tmp/expect" <<EOF
generic/004 # missing $(s "$J") ("fs: fix a race in rename")
xfs/001 # missing $(s "$E") ("xfs: fix a corruption in bmap")
EOF
test_cmp "$tmp/expect" "$tmp/xfs.exclude"
# With the unknown ones too, as JSON Lines.
"$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst" --fstyp xfs \
	--format json --status expected-fail,unknown | jq -r .test >"$tmp/actual"
printf '%s\n' generic/004 generic/005 xfs/001 xfs/009 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst" --fstyp btrfs \
	--format json | jq -r 'select(.test == "generic/007") | .annotations[] | .state' \
	>"$tmp/actual"
printf '%s\n' not-needed ignored >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "exclude file, --status and --fstyp"

# A problem in a test source is a warning naming file and line.
printf '#! /bin/bash\n_fixed_by_kernel_commit\necho "open\n' >"$fst/tests/generic/010"
"$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst" --format exclude \
	>/dev/null 2>"$tmp/err"
cat >"$tmp/expect" <<EOF
warning: $fst/tests/generic/010:2: '_fixed_by_kernel_commit' without a commit
warning: $fst/tests/generic/010:3: quote is not closed
EOF
test_cmp "$tmp/expect" "$tmp/err"
rm "$fst/tests/generic/010"
ok "problems in the sources are warnings"

# Errors: a directory that is no checkout, a missing option, a bad
# status; nothing is written to --output.
echo keep >"$tmp/kept"
if "$STABLEPICK" tests --branch linux-6.6.y --fstests "$tmp/nowhere" \
	--output "$tmp/kept" 2>"$tmp/err"; then
	fail "a missing checkout succeeded"
fi
grep -q "^error: cannot read '$tmp/nowhere/tests': " "$tmp/err" ||
	fail "no error naming the directory: $(cat "$tmp/err")"
echo keep | test_cmp - "$tmp/kept"
if "$STABLEPICK" propose --branch linux-6.6.y --tests-from "$tmp" \
	2>"$tmp/err" >/dev/null; then
	fail "--tests-from a directory that is no checkout succeeded"
fi
echo "error: '$tmp' is neither an fstests checkout (tests/ and common/) nor an LTP checkout (testcases/)" |
	test_cmp - "$tmp/err"
set +e
"$STABLEPICK" tests --branch linux-6.6.y 2>"$tmp/err"
rc=$?
"$STABLEPICK" tests --branch linux-6.6.y --ltp "$ltp" --status failing \
	2>>"$tmp/err" >/dev/null
rc2=$?
set -e
[ "$rc" = 129 ] && [ "$rc2" = 129 ] || fail "usage errors exit $rc, $rc2"
grep -q "^error: tests needs --branch, and --fstests or --ltp$" "$tmp/err" ||
	fail "$(cat "$tmp/err")"
grep -q "^error: unknown status 'failing' (expected expected-fail, expected-pass or unknown)$" \
	"$tmp/err" || fail "$(cat "$tmp/err")"
ok "errors"

# --fstests and --ltp may be repeated: every checkout is read.
fst2=$tmp/fstests2
mkdir -p "$fst2/common" "$fst2/tests/ext4"
cp "$fst/common/rc" "$fst2/common/rc"
cat >"$fst2/tests/ext4/900" <<EOF
_fixed_by_kernel_commit $(short "$J") "fs: fix a race in rename"
EOF
"$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst" --fstests "$fst2" \
	--format json >"$tmp/two.json"
"$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst" --format json \
	>"$tmp/one.json"
grep -q '"test":"ext4/900"' "$tmp/two.json" || fail "the second --fstests was not read"
[ "$(grep -c . "$tmp/two.json")" -eq "$(($(grep -c . "$tmp/one.json") + 1))" ] ||
	fail "two checkouts: $(grep -c . "$tmp/two.json") tests, one: $(grep -c . "$tmp/one.json")"
ok "--fstests repeated reads every checkout"

# propose --tests-from: the fixes named become candidates, with the
# tests that name them; those outside fs/ too, found present by patch-id
# when they are.
"$STABLEPICK" propose --branch linux-6.6.y --tests-from "$fst" \
	--tests-from "$ltp" --format json >"$tmp/json"
jq -r 'select(.named_by != []) | [.commit[0:12], .verdict, (.named_by | join(", "))] | @tsv' \
	"$tmp/json" | sort >"$tmp/actual"
cat >"$tmp/expect" <<EOF
$(s "$B")	present	fstests xfs/001, fstests xfs/002
$(s "$C")	present	fstests generic/003
$(s "$D")	present	ltp filemap01
$(s "$E")	needs-ack	fstests xfs/001, ltp stable02
$(s "$G")	not-applicable	fstests generic/003, fstests generic/007
$(s "$H")	maybe-present	fstests generic/006
$(s "$I")	proposed	ltp mmap99
$(s "$J")	proposed	fstests generic/004
EOF
sort "$tmp/expect" | test_cmp - "$tmp/actual"
"$STABLEPICK" propose --branch linux-6.6.y --tests-from "$ltp" >"$tmp/out"
sed -n 2p "$tmp/out" >"$tmp/actual"
echo "mainline v6.6..master: 10 commits walked (0 merges), 8 in watched paths, 2 more named by tests" |
	test_cmp - "$tmp/actual"
grep -A1 "^proposed .* $(s "$I") " "$tmp/out" | tail -1 | sed 's/^ *//' >"$tmp/actual"
echo "fixes-tag +8, fixes-in-branch +6, named-by-test +10, subject-fix +6, subject-crash +5; named by ltp mmap99" |
	test_cmp - "$tmp/actual"
# K, which the walk met, fixes the mm/ fix that --tests-from added after
# it: placed by date, I comes first, so K is its follow-up (not a fix of
# a later commit, ignored with a warning).
"$STABLEPICK" propose --branch linux-6.6.y --tests-from "$ltp" --format json |
	jq -r "select(.commit == \"$K\") | [.verdict, (.facts | join(\",\")), (.warnings | length)] | @tsv" \
	>"$tmp/actual"
printf 'proposed\tfollow-up\t0\n' | test_cmp - "$tmp/actual"
# Without --tests-from, neither the mm/ fix nor the fact.
"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/json"
[ -z "$(jq -r "select(.commit == \"$I\") | .commit" "$tmp/json")" ] ||
	fail "the mm/ fix is a candidate without --tests-from"
[ -z "$(jq -r 'select(.facts | index("named-by-test")) | .commit' "$tmp/json")" ] ||
	fail "named-by-test without --tests-from"
ok "propose --tests-from"

# STABLEPICK_TRACE: every stage of tests, in order, each once, and the
# same report as without.
"$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst" --ltp "$ltp" \
	>"$tmp/plain"
STABLEPICK_TRACE=1 "$STABLEPICK" tests --branch linux-6.6.y \
	--fstests "$fst" --ltp "$ltp" >"$tmp/actual" 2>"$tmp/err"
test_cmp "$tmp/plain" "$tmp/actual"
sed -n 's/^trace: \([a-z][a-z ]*[a-z]\)  .*/\1/p' "$tmp/err" |
	grep -v '^patch-id' >"$tmp/stages"
for stage in 'test annotations read' scan 'annotations resolved by id' \
	'annotations resolved by subject' 'the range judged' \
	'statuses settled' report save; do
	[ "$(grep -c -x "$stage" "$tmp/stages")" = 1 ] ||
		fail "stage '$stage' traced $(grep -c -x "$stage" "$tmp/stages") times"
done
[ "$(head -1 "$tmp/stages")" = 'test annotations read' ] ||
	fail "the first stage traced is $(head -1 "$tmp/stages")"
[ "$(tail -1 "$tmp/stages")" = save ] ||
	fail "the last stage traced is $(tail -1 "$tmp/stages")"
ok "STABLEPICK_TRACE: the stages of tests"


# LTP's shell tests that use the shell loader: the tags of the "# env"
# JSON comment block; a script without one is no test.
ltp2=$tmp/ltp2
mkdir -p "$ltp2/testcases/kernel/fs/shelly" "$ltp2/testcases/lib"
cat >"$ltp2/testcases/kernel/fs/shelly/shelly01.sh" <<SHELL
#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ---
# env
# {
#  "needs_tmpdir": true,
#  "tags": [
#   ["linux-git", "$(short "$I")"],
#   ["CVE", "2099-0003"]
#  ]
# }
# ---

. tst_loader.sh
SHELL
cat >"$ltp2/testcases/lib/tst_helper.sh" <<'SHELL'
#!/bin/sh
# A helper: ["linux-git", "0123456789ab"] outside a metadata block.
SHELL
"$STABLEPICK" tests --branch linux-6.6.y --ltp "$ltp2" --format json \
	>"$tmp/json" 2>"$tmp/err" || fail "tests --ltp: $(cat "$tmp/err")"
jq -r '[.test, .suite, .status] | join(" ")' "$tmp/json" >"$tmp/actual"
echo "shelly01 ltp expected-fail" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
jq -r '.annotations[] | [.how, .file, (.line | tostring)] | join(" ")' \
	"$tmp/json" >"$tmp/actual"
printf '%s\n' "linux-git testcases/kernel/fs/shelly/shelly01.sh 8" \
	"CVE testcases/kernel/fs/shelly/shelly01.sh 9" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "LTP shell tests: the tags of the shell loader's env block"

# Files that are not read are named: a FIFO (reading it would block),
# a symbolic link that loops, one to a file, a device's place.
fst3=$tmp/fstests3
cp -R "$fst" "$fst3"
mkfifo "$fst3/tests/xfs/900"
ln -s 901 "$fst3/tests/xfs/901"
ln -s 001 "$fst3/tests/xfs/902"
mkfifo "$fst3/common/fifo"
mkdir -p "$ltp2/testcases/kernel/odd"
mkfifo "$ltp2/testcases/kernel/odd/fifo01.c"
ln -s loop01.c "$ltp2/testcases/kernel/odd/loop01.c"
"$STABLEPICK" tests --branch linux-6.6.y --fstests "$fst3" --ltp "$ltp2" \
	--format json >/dev/null 2>"$tmp/err" || fail "tests: $(cat "$tmp/err")"
grep '^warning: skipping' "$tmp/err" | sort >"$tmp/actual"
sort >"$tmp/expect" <<EOF
warning: skipping '$fst3/common/fifo': a FIFO, not a regular file
warning: skipping '$fst3/tests/xfs/900': a FIFO, not a regular file
warning: skipping '$fst3/tests/xfs/901': a symbolic link that loops, not a regular file
warning: skipping '$fst3/tests/xfs/902': a symbolic link, not a regular file
warning: skipping '$ltp2/testcases/kernel/odd/fifo01.c': a FIFO, not a regular file
warning: skipping '$ltp2/testcases/kernel/odd/loop01.c': a symbolic link that loops, not a regular file
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "FIFOs and symbolic links in a checkout: skipped, each named"
