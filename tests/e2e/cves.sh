#!/bin/sh
# The CVE question: stablepick cves reads a CVE tree in the layout of
# the kernel's vulns repository (cve/published/YEAR/CVE-*.sha1 and
# .dyad) and says, for a branch, which CVEs it is affected by and lacks
# the fix of (with the verdict propose gives the fix), which it has
# fixed (the mainline fix by ancestry or by a backport, or the fix a
# .dyad line names for its line) and which do not affect it (none of
# the commits that brought the bug in is there).  propose --cve marks
# the fixes.  Malformed records are errors naming the file and line.
. "$TEST_SRCDIR/tests/lib.sh"
# The lines whole: text-width.sh checks how the text fits a width.
COLUMNS=1000; export COLUMNS

STABLEPICK_NOW=1700600000
export STABLEPICK_NOW
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit fs/ext4/inode.c 'int ext4;' 'Initial commit'
root=$(git rev-parse HEAD)
test_commit fs/ext4/a.c 'int a;' 'ext4: add a'
v1=$(git rev-parse HEAD)			# brings in the bug of CVE-2024-1001
test_commit fs/xfs/c.c 'int c;' 'xfs: add c'
v3=$(git rev-parse HEAD)			# CVE-2024-999, backported fix
test_fix fs/xfs/d.c 'int d;' 'xfs: fix a leak in d' 'Cc: stable@vger.kernel.org'
f4=$(git rev-parse HEAD)			# CVE-2023-9: fixed below the base
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

test_commit fs/btrfs/b.c 'int b;' 'btrfs: add b'
v2=$(git rev-parse HEAD)			# CVE-2024-1002: not in the branch
test_fix fs/ext4/a.c 'int a_fixed;' 'ext4: fix a use-after-free in a' \
	"Fixes: $(git rev-parse --short=12 $v1) (\"ext4: add a\")" \
	'Cc: stable@vger.kernel.org'
f1=$(git rev-parse HEAD)
test_fix fs/btrfs/b.c 'int b_fixed;' 'btrfs: fix an overflow in b' \
	"Fixes: $(git rev-parse --short=12 $v2) (\"btrfs: add b\")"
f2=$(git rev-parse HEAD)
test_fix fs/xfs/c.c 'int c_fixed;' 'xfs: fix a crash in c' \
	'Cc: stable@vger.kernel.org'
f3=$(git rev-parse HEAD)
test_commit fs/ext4/e.c 'int e;' 'ext4: add e'
v5=$(git rev-parse HEAD)			# CVE-2024-1005: backported bug
test_fix fs/ext4/e.c 'int e_fixed;' 'ext4: fix a race in e' \
	'Cc: stable@vger.kernel.org'
f5=$(git rev-parse HEAD)
test_fix mm/f.c 'int f;' 'mm: fix a bad page state' 'Cc: stable@vger.kernel.org'
f6=$(git rev-parse HEAD)			# CVE-2024-1006: no .dyad, not fs/
test_fix fs/ext4/g.c 'int g;' 'ext4: fix a hang in g' 'Cc: stable@vger.kernel.org'
f7=$(git rev-parse HEAD)			# CVE-2024-1007: fixed by the .dyad's id

git checkout -q linux-6.6.y
test_commit fs/xfs/c.c 'int c_fixed;' "xfs: fix a crash in c

commit $f3 upstream.

Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>"
test_commit fs/ext4/e.c 'int e;' "ext4: add e

commit $v5 upstream.

Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>"
test_commit fs/ext4/g.c 'int g_adapted;' 'ext4: avoid a hang in g (6.6 version)'
s7=$(git rev-parse HEAD)
git checkout -q master

# record YEAR-N FIX [DYAD-LINE...]
cves=$tmp/vulns
record() {
	local id=CVE-$1 year=${1%%-*} fix=$2 dir
	dir=$cves/cve/published/$year
	shift 2
	mkdir -p "$dir"
	printf '%s\n' "$fix" >"$dir/$id.sha1"
	[ $# -gt 0 ] || return 0
	{
		echo '# dyad version: 1.2.0'
		printf '%s\n' "$@"
	} >"$dir/$id.dyad"
	printf '{}\n' >"$dir/$id.json"
}
record 2024-1001 $f1 "6.5:$v1:6.7:$f1"
record 2024-1002 $f2 "6.7:$v2:6.7:$f2"
record 2024-999 $f3 "6.5:$v3:6.7:$f3"
record 2023-9 $f4 "2.6.12:$root:6.6:$f4"
record 2024-1005 $f5 "6.7:$v5:6.7:$f5" "6.6.2:$(git rev-parse linux-6.6.y~1):0:0"
record 2024-1006 $f6
record 2024-1007 $f7 "6.5:$v1:6.6.3:$s7" "6.5:$v1:6.7:$f7"
mkdir -p "$cves/cve/rejected/2024"
printf 'not read\n' >"$cves/cve/rejected/2024/CVE-2024-1.sha1"

"$STABLEPICK" cves --branch linux-6.6.y --cve "$cves" --format json >"$tmp/json" ||
	fail "cves failed"
jq -r '[.cve, .branch, .status, (.verdict // "-")] | join(" ")' "$tmp/json" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
CVE-2023-9 linux-6.6.y fixed -
CVE-2024-999 linux-6.6.y fixed -
CVE-2024-1001 linux-6.6.y unfixed proposed
CVE-2024-1002 linux-6.6.y not-affected -
CVE-2024-1005 linux-6.6.y unfixed proposed
CVE-2024-1006 linux-6.6.y unfixed proposed
CVE-2024-1007 linux-6.6.y fixed -
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "each record's status, and the verdict of the fixes the branch lacks"

jq -r 'select(.cve == "CVE-2024-1001") | .fixes[0]' "$tmp/json" |
	grep -qx "$f1" || fail "fixes: $(cat "$tmp/json")"
jq -r '.detail' "$tmp/json" >"$tmp/actual"
s12() { git rev-parse --short=12 "$1"; }
cat >"$tmp/expect" <<EOF
fix $(s12 $f4): in linux-6.6.y already (below v6.6)
fix $(s12 $f3): backported as $(s12 linux-6.6.y~2)
vulnerable: $(s12 $v1) (6.5) is in linux-6.6.y
linux-6.6.y has none of the commits that brought it in
vulnerable: $(s12 $v5) (6.7): backported as $(s12 linux-6.6.y~1)
no vulnerable commit named: taken to be in every branch
fixed by $(s12 $s7) (6.6.3) is in linux-6.6.y
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "the evidence of each status"

"$STABLEPICK" cves --branch linux-6.6.y --cve "$cves" >"$tmp/text"
grep -q "^CVE-2024-1001    unfixed       $(s12 $f1)  proposed         ext4: fix a use-after-free in a$" \
	"$tmp/text" || fail "text: $(cat "$tmp/text")"
! grep -q "^CVE-2024-1002" "$tmp/text" || fail "not-affected listed without --all"
grep -q "^linux-6.6.y: 3 unfixed, 3 fixed, 1 not affected (--all lists them)$" \
	"$tmp/text" || fail "counts: $(tail -1 "$tmp/text")"
"$STABLEPICK" cves --branch linux-6.6.y --cve "$cves" --all >"$tmp/text"
grep -q "^CVE-2024-1002    not-affected" "$tmp/text" || fail "--all: $(cat "$tmp/text")"
ok "text: the unfixed first, the others with --all"

# propose --cve: the fixes of the range carry their CVE ids and the fact.
"$STABLEPICK" propose --branch linux-6.6.y --cve "$cves" --format json >"$tmp/json"
jq -r 'select(.cves | length > 0) | [.subject, (.cves | join(",")),
	(.facts | index("cve") != null)] | @tsv' "$tmp/json" | sort >"$tmp/actual"
printf '%s\t%s\t%s\n' \
	'btrfs: fix an overflow in b' CVE-2024-1002 true \
	'ext4: fix a hang in g' CVE-2024-1007 true \
	'ext4: fix a race in e' CVE-2024-1005 true \
	'ext4: fix a use-after-free in a' CVE-2024-1001 true \
	'xfs: fix a crash in c' CVE-2024-999 true >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/json"
[ -z "$(jq -r 'select(.cves | length > 0) | .commit' "$tmp/json")" ] ||
	fail "CVE ids without --cve"
"$STABLEPICK" propose --branch linux-6.6.y --cve "$cves" >"$tmp/text"
grep -q "cve +10, .*; fixes CVE-2024-1001$" "$tmp/text" ||
	fail "text reasons: $(cat "$tmp/text")"
ok "propose --cve: ids and the fact cve on the fixes"

# Malformed records: every bad line named, nothing printed, exit 1.
bad=$tmp/bad
mkdir -p "$bad/cve/published/2024"
printf '%s\nnot-an-id\n' "$f1" >"$bad/cve/published/2024/CVE-2024-1.sha1"
printf '6.5:%s:6.7\n6.5:1234:6.7:0\n' "$v1" >"$bad/cve/published/2024/CVE-2024-1.dyad"
: >"$bad/cve/published/2024/CVE-2024-2.sha1"
if "$STABLEPICK" cves --branch linux-6.6.y --cve "$bad" >"$tmp/out" 2>"$tmp/err"; then
	fail "malformed records accepted"
fi
cat >"$tmp/expect" <<EOF
error: $bad/cve/published/2024/CVE-2024-1.sha1:2: not a full commit id: 'not-an-id'
error: $bad/cve/published/2024/CVE-2024-1.dyad:1: expected VERSION:ID:VERSION:ID: '6.5:$v1:6.7'
error: $bad/cve/published/2024/CVE-2024-1.dyad:2: an id that is neither 0 nor a full commit id: '6.5:1234:6.7:0'
error: $bad/cve/published/2024/CVE-2024-2.sha1: names no commit
EOF
test_cmp "$tmp/expect" "$tmp/err"
[ ! -s "$tmp/out" ] || fail "output for malformed records"
if "$STABLEPICK" cves --branch linux-6.6.y --cve "$tmp/nowhere" 2>"$tmp/err"; then
	fail "a missing tree accepted"
fi
grep -q "^error: cannot read '$tmp/nowhere/cve/published': No such file or directory (--cve wants a checkout of the kernel's vulns repository)$" \
	"$tmp/err" || fail "missing tree: $(cat "$tmp/err")"
ok "malformed records and a missing tree are errors naming the file"
