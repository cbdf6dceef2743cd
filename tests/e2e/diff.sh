#!/bin/sh
# diff: the fixes of a stable branch a vendor branch lacks, found by
# upstream line, by the change itself (a backport with adjusted
# context and no upstream line), or only by subject; and the vendor's
# own changes.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/ext4 fs/xfs
printf 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n' >fs/ext4/inode.c
echo 'int xfs;' >fs/xfs/xfs_log.c
git add .
test_commit fs/ext4/super.c 'int super;' 'Initial commit'
test_tick
git tag -a -m 'Linux 5.15' v5.15
git branch linux-5.15.y
git branch vendor

fix() {	# fix PATH CONTENT SUBJECT
	test_commit "$1" "$2" "$3

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>"
}
# Mainline fixes.
fix fs/ext4/namei.c 'int namei;' 'ext4: fix a leak in namei'
m1=$(git rev-parse HEAD)
fix fs/ext4/dir.c 'int dir;' 'ext4: fix a crash in readdir'
m2=$(git rev-parse HEAD)
fix fs/ext4/inode.c 'a
b
c
d
e fixed
f
g
h
i
j' 'ext4: fix an overflow in the inode code'
m3=$(git rev-parse HEAD)
fix fs/xfs/xfs_log.c 'int xfs_fixed;' 'xfs: fix a hang in log recovery'
m4=$(git rev-parse HEAD)
fix fs/ext4/xattr.c 'int xattr;' 'ext4: fix a race in xattr'
m5=$(git rev-parse HEAD)
fix fs/ext4/mballoc.c 'int mb;' 'ext4: fix a deadlock in mballoc'
m6=$(git rev-parse HEAD)
# Follow-ups: of a fix the vendor carries (by its upstream line), and
# of one it lacks (m5: not reported).
test_commit fs/ext4/dir.c 'int dir_fixed;' "ext4: fix the readdir crash fix

Fixes: $(git rev-parse --short=12 $m2) (\"ext4: fix a crash in readdir\")
Signed-off-by: A U Thor <author@example.com>"
f2=$(git rev-parse HEAD)
test_commit fs/ext4/xattr.c 'int xattr_fixed;' "ext4: fix the xattr race fix

Fixes: $(git rev-parse --short=12 $m5) (\"ext4: fix a race in xattr\")
Signed-off-by: A U Thor <author@example.com>"

# Stable takes m1..m5 with upstream lines.
git checkout -q linux-5.15.y
for m in $m1 $m2 $m3 $m4 $m5; do
	git cherry-pick -x "$m" >/dev/null
	test_tick
	git commit -q --amend -m "$(git log -1 --format=%s)

commit $m upstream.

$(git log -1 --format=%b | grep -v 'cherry picked')"
done
s1=$(git rev-parse HEAD~4) s2=$(git rev-parse HEAD~3) s3=$(git rev-parse HEAD~2)
s4=$(git rev-parse HEAD~1) s5=$(git rev-parse HEAD)
git tag v5.15.1 "$s2" && git tag v5.15.2 "$s4" && git tag v5.15.3 "$s5"

# The vendor: its own line at the top of inode.c, then s1 picked from
# stable, m2 backported naming mainline, m3 by hand (no upstream line,
# context moved), "xfs: fix a hang in log recovery" done differently,
# m6 ahead of stable, and a change of its own.
git checkout -q vendor
printf 'vendor\na\nb\nc\nd\ne\nf\ng\nh\ni\nj\n' >fs/ext4/inode.c
git add fs/ext4/inode.c
test_tick
git commit -q -m 'VENDOR: a local line'
vline=$(git rev-parse HEAD)
git cherry-pick -x "$s1" >/dev/null
test_commit fs/ext4/dir.c 'int dir;' "ext4: fix a crash in readdir

commit $m2 upstream.

Signed-off-by: Vendor <v@example.com>"
printf 'vendor\na\nb\nc\nd\ne fixed\nf\ng\nh\ni\nj\n' >fs/ext4/inode.c
git add fs/ext4/inode.c
test_tick
git commit -q -m 'ext4: overflow fix for our kernel'
v3=$(git rev-parse HEAD)
test_commit fs/xfs/xfs_log.c 'int xfs_fixed_our_way;' 'xfs: fix a hang in log recovery'
vx=$(git rev-parse HEAD)
test_commit fs/ext4/mballoc.c 'int mb;' "ext4: fix a deadlock in mballoc

commit $m6 upstream."
v6=$(git rev-parse HEAD)
test_commit fs/ext4/vendor.c 'int tuning;' 'ext4: vendor tuning knob'
vown=$(git rev-parse HEAD)
git checkout -q master

"$STABLEPICK" diff --branch vendor --against linux-5.15.y --format json |
	jq -r '[.section, .commit, (.upstream // "-"), .subsystem, .subject] | join(" ")' \
	>"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
maybe-present $s4 $m4 xfs xfs: fix a hang in log recovery
missing $s5 $m5 ext4 ext4: fix a race in xattr
vendor-only $vline - ext4 VENDOR: a local line
vendor-only $v6 $m6 ext4 ext4: fix a deadlock in mballoc
vendor-only $vown - ext4 ext4: vendor tuning knob
missing-follow-up $f2 $f2 ext4 ext4: fix the readdir crash fix
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "missing, maybe-present, vendor-only and missing-follow-up, exactly"

# --cve: the rows whose upstream fix a CVE record names carry its id.
mkdir -p "$tmp/vulns/cve/published/2024"
echo "$m5" >"$tmp/vulns/cve/published/2024/CVE-2024-4242.sha1"
"$STABLEPICK" diff --branch vendor --against linux-5.15.y --cve "$tmp/vulns" \
	--format json | jq -r 'select(.cves | length > 0) | [.section, .upstream,
	(.cves | join(","))] | join(" ")' >"$tmp/actual"
echo "missing $m5 CVE-2024-4242" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" diff --branch vendor --against linux-5.15.y --cve "$tmp/vulns" |
	grep -q '^ *fixes CVE-2024-4242$' || fail "the text names no CVE"
"$STABLEPICK" diff --branch vendor --against linux-5.15.y --cve "$tmp/vulns" \
	--format html | grep -q '<span class="badge">CVE-2024-4242</span>' ||
	fail "the page shows no CVE"
ok "--cve: the CVE ids of the missing fixes"

# A vendor forked between two releases (at s3, after v5.15.1) is
# caught up with the release before its fork where it lacks the very
# next stable commit (xfs's s4), not with "-".
git branch vendor3 "$s3"
"$STABLEPICK" diff --branch vendor3 --against linux-5.15.y |
	sed -n '/^subsystem/,$p' | awk 'NR > 1 { print $1, $NF }' >"$tmp/actual"
printf '%s\n' 'xfs v5.15.1' 'ext4 v5.15.2' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git branch -D vendor3 >/dev/null
ok "caught up with the release before the fork"

# Several vendor branches: a section each in the text, "branch" in JSON.
git branch vendor2 vendor~1
"$STABLEPICK" diff --branch 'vendor*' --against linux-5.15.y >"$tmp/actual"
grep '^== ' "$tmp/actual" >"$tmp/sections"
printf '== %s ==\n' vendor vendor2 | test_cmp - "$tmp/sections"
"$STABLEPICK" diff --branch vendor2 --against linux-5.15.y >"$tmp/alone"
sed -n '/^== vendor2 ==$/,$p' "$tmp/actual" | sed 1d | test_cmp "$tmp/alone" -
"$STABLEPICK" diff --branch vendor --branch vendor2 --against linux-5.15.y \
	--format json | jq -r .branch | uniq >"$tmp/actual"
printf '%s\n' vendor vendor2 | test_cmp - "$tmp/actual"
git branch -D vendor2 >/dev/null
ok "several vendor branches"

"$STABLEPICK" diff --branch vendor --against linux-5.15.y --format json |
	jq -r 'select(.section == "maybe-present") | .detail' >"$tmp/actual"
echo "same subject as $(echo $vx | cut -c1-12) in vendor" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" diff --branch vendor --against linux-5.15.y --format json |
	jq -r 'select(.section == "missing-follow-up") | .detail' >"$tmp/actual"
echo "fixes $(echo $m2 | cut -c1-12), which vendor carries; applies to its tip; proposed, score 25" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
# The follow-up is judged as propose judges it; the other rows are not.
"$STABLEPICK" diff --branch vendor --against linux-5.15.y --format json |
	jq -r '[.section, (.verdict // "-"), (.score // "-")] | join(" ")' |
	sort -u >"$tmp/actual"
printf '%s\n' 'maybe-present - -' 'missing - -' 'missing-follow-up proposed 25' \
	'vendor-only - -' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" diff --branch vendor --against linux-5.15.y --subsystem xfs >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
SECTION           COMMIT        SUBSYSTEM  SUBJECT
maybe-present     $(echo $s4 | cut -c1-12)  xfs        xfs: fix a hang in log recovery
                               same subject as $(echo $vx | cut -c1-12) in vendor

subsystem     missing  maybe-present  vendor-only  missing-follow-up  caught up with
xfs                 0              1            0                  0  v5.15.1
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" diff --branch vendor --against linux-5.15.y | tail -n 2 >"$tmp/actual"
cat >"$tmp/expect" <<EXPECT
xfs                 0              1            0                  0  v5.15.1
ext4                1              0            3                  1  v5.15.2
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
ok "evidence; --subsystem; the per-subsystem counts and releases caught up with"

# The HTML report: one well-formed file, no script, nothing fetched.
"$STABLEPICK" diff --branch vendor --against linux-5.15.y --format html >"$tmp/report.html"
python3 - "$tmp/report.html" >"$tmp/actual" <<'PY'
import html.parser, sys
VOID = {'meta', 'br', 'rect'}
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.cells, self.rows, self.bars, self.bad = [], [], [], 0, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ('script', 'link', 'img', 'iframe') or any(
                k in ('src', 'href') for k in a):
            self.bad.append(tag)
        if tag == 'rect' and a.get('height') == '18':
            self.bars += 1
        if tag == 'tr':
            self.cells = []
        if tag not in VOID:
            self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()
    def handle_endtag(self, tag):
        if tag in VOID:
            return
        assert self.stack and self.stack[-1] == tag, (tag, self.stack)
        self.stack.pop()
        if tag == 'tr':
            self.rows.append(' '.join(self.cells))
    def handle_data(self, d):
        if self.stack and self.stack[-1] in ('td', 'th', 'code', 'small'):
            self.cells.append(d.strip())
p = P()
p.feed(open(sys.argv[1], encoding='utf-8').read())
p.close()
assert not p.stack, p.stack
print('external or script:', p.bad)
print('bars:', p.bars)
for r in p.rows[:3]:
    print(r)
PY
cat >"$tmp/expect" <<EXPECT
external or script: []
bars: 2
subsystem missing maybe-present vendor-only missing-follow-up caught up with
all 2 subsystems 1 1 3 1 v5.15.1
ext4 1 0 3 1 v5.15.2
EXPECT
test_cmp "$tmp/expect" "$tmp/actual"
# The charts, of missing fixes and of missing follow-ups: a row for
# each subsystem that lacks one (ext4: its missing fix, then its
# missing follow-up), none of zeros (xfs).
sed -n '/<svg/,/<\/svg>/p' "$tmp/report.html" |
	sed -n 's/.*font-size="1[23]">\([^<]*\)<\/text>.*/\1/p' |
	grep -v ' days\| year' >"$tmp/actual"
printf '%s\n' ext4 1 ext4 1 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "the HTML report"

set +e
"$STABLEPICK" diff --branch vendor --against nope >/dev/null 2>"$tmp/err"
status=$?
"$STABLEPICK" diff --branch vendor >/dev/null 2>&1
usage=$?
set -e
[ $status = 1 ] || fail "bad --against: $status"
[ $usage = 129 ] || fail "no --against: $usage"
ok "bad input"
