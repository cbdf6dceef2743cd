#!/bin/sh
# The pages: propose --format html (one branch, and several) and cves
# --format html are one file each, with no script and nothing fetched
# (every link is an <a href>), well formed, holding a row for every
# commit the text lists, CVE badges, commit links with
# stablepick.commitUrl and the reasons of each branch's verdict.  A
# real browser (headless Chromium, when installed) renders them: the
# screenshot is not blank and its DOM holds every row.
. "$TEST_SRCDIR/tests/lib.sh"

STABLEPICK_NOW=1700600000
export STABLEPICK_NOW
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit fs/ext4/inode.c 'int ext4;' 'Initial commit'
for v in 6.1 6.6; do
	test_commit Makefile "VERSION = $v" "Linux $v"
	git tag -a -m "Linux $v" "v$v"
	git branch "linux-$v.y"
done
test_fix fs/ext4/a.c 'int a;' 'ext4: fix a leak in a <b>&amp;</b>' \
	'Cc: stable@vger.kernel.org'
a=$(git rev-parse HEAD)
test_fix fs/btrfs/c.c 'int c;' 'btrfs: fix a crash in c' 'Cc: stable@vger.kernel.org'
c=$(git rev-parse HEAD)
test_commit fs/xfs/d.c 'int d;' 'xfs: add d'
mkdir -p "$tmp/vulns/cve/published/2024"
echo "$c" >"$tmp/vulns/cve/published/2024/CVE-2024-1234.sha1"
git config stablepick.commitUrl 'https://git.example.org/linux/commit/?id=%H&x="y"'

# well_formed FILE: parses, every element closed, no script, no
# stylesheet or image fetched, no inline handler.
well_formed() {
	python3 - "$1" <<'EOF' || fail "$1 is not well formed"
import sys
from html.parser import HTMLParser
void = {'meta', 'br', 'rect', 'img', 'input', 'link'}
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.bad = [], []
    def handle_starttag(self, tag, attrs):
        if tag in ('script', 'link', 'img', 'iframe', 'object'):
            self.bad.append(tag)
        for k, v in attrs:
            if k.startswith('on') or k == 'src':
                self.bad.append(k)
        if tag not in void:
            self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        pass
    def handle_endtag(self, tag):
        if tag in void:
            return
        if not self.stack or self.stack[-1] != tag:
            self.bad.append('</%s>' % tag)
        else:
            self.stack.pop()
p = P()
p.feed(open(sys.argv[1], encoding='utf-8').read())
if p.bad or p.stack:
    print(p.bad, p.stack)
    sys.exit(1)
EOF
}

sp() {
	"$STABLEPICK" "$@" 2>"$tmp/err" || fail "$*: $(cat "$tmp/err")"
}
sp propose --branch 'linux-*.y' --cve "$tmp/vulns" --format html >"$tmp/many.html"
sp propose --branch 'linux-*.y' --cve "$tmp/vulns" >"$tmp/many.txt"
well_formed "$tmp/many.html"
rows=$(sed -n '/^COMMIT/,/^$/p' "$tmp/many.txt" | grep -c '^[0-9a-f]\{12\} ')
[ "$rows" -eq 2 ] || fail "the text lists $rows rows"
[ "$(grep -c '<tr class="row"' "$tmp/many.html")" -eq "$rows" ] ||
	fail "rows: $(grep -c '<tr class="row"' "$tmp/many.html") of $rows"
grep -q '<th>linux-6.6.y</th><th>linux-6.1.y</th>' "$tmp/many.html" ||
	fail "the branches, newest first"
grep -q 'ext4: fix a leak in a &lt;b&gt;&amp;amp;&lt;/b&gt;' "$tmp/many.html" ||
	fail "the subject is not escaped"
grep -q "<a href=\"https://git.example.org/linux/commit/?id=$a&amp;x=%22y%22\"><code>$(git rev-parse --short=12 $a)</code></a>" \
	"$tmp/many.html" || fail "no commit link"
grep -q '<a class="badge" href="https://www.cve.org/CVERecord?id=CVE-2024-1234">CVE-2024-1234</a>' \
	"$tmp/many.html" || fail "no CVE badge"
grep -q '<div>linux-6.1.y: proposed (score [0-9]*): cc-stable +100' "$tmp/many.html" ||
	fail "no reasons"
grep -q '<svg ' "$tmp/many.html" || fail "no chart"
ok "propose --format html of two branches: rows, links, badges, reasons"

sp propose --branch linux-6.6.y --format html >"$tmp/one.html"
well_formed "$tmp/one.html"
[ "$(grep -c '<tr class="row"' "$tmp/one.html")" -eq 2 ] || fail "one branch: rows"
sp cves --branch linux-6.6.y --cve "$tmp/vulns" --format html >"$tmp/cves.html"
well_formed "$tmp/cves.html"
grep -q '<tr class="row unfixed"><td><a class="badge" href="https://www.cve.org/CVERecord?id=CVE-2024-1234">' \
	"$tmp/cves.html" || fail "cves: $(cat "$tmp/cves.html")"
test_fix fs/ext4/v.c 'int v;' 'ext4: fix a vendor-only race'
git checkout -q linux-6.6.y
git cherry-pick -x "$a" >/dev/null
git checkout -q master
git branch -f vendor v6.6
sp diff --branch vendor --against linux-6.6.y --format html >"$tmp/diff.html"
well_formed "$tmp/diff.html"
grep -q '<a href="https://git.example.org/linux/commit/?id=[0-9a-f]*&amp;x=%22y%22"><code>' \
	"$tmp/diff.html" || fail "diff: no commit link"
ok "propose of one branch, cves and diff: well formed"

# A real browser, network off, no script.
command -v chromium >/dev/null || skip "no chromium (apt-get install chromium): the pages were not rendered"
render() {	# render FILE: FILE.png and FILE.dom
	local profile=$tmp/profile
	rm -rf "$profile"
	timeout 120 chromium --headless=new --no-sandbox --disable-gpu \
		--disable-javascript --user-data-dir="$profile" \
		--proxy-server='http://0.0.0.0:1' --window-size=1000,800 \
		--screenshot="$1.png" "file://$1" >/dev/null 2>&1 ||
		fail "chromium could not render $1"
	timeout 120 chromium --headless=new --no-sandbox --disable-gpu \
		--disable-javascript --user-data-dir="$profile" \
		--proxy-server='http://0.0.0.0:1' --dump-dom "file://$1" \
		>"$1.dom" 2>/dev/null || fail "chromium could not dump $1"
}
# not_blank PNG: decodes it and counts its colours.
not_blank() {
	python3 - "$1" <<'EOF' || fail "$1 is blank"
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, width, height = 8, b'', 0, 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        width, height = struct.unpack('>II', body[:8])
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
# Filtered scanlines: the byte values vary only where something is drawn.
colours = len(set(raw))
print('%dx%d, %d distinct bytes' % (width, height, colours))
sys.exit(0 if width > 100 and height > 100 and colours > 16 else 1)
EOF
}
for page in many one cves diff; do
	render "$tmp/$page.html"
	not_blank "$tmp/$page.html.png"
done
[ "$(grep -c '<tr class="row"' "$tmp/many.html.dom")" -eq "$rows" ] ||
	fail "the browser's DOM: $(grep -c '<tr class="row"' "$tmp/many.html.dom") rows"
grep -q 'CVE-2024-1234' "$tmp/cves.html.dom" || fail "the CVE page's DOM"
ok "headless Chromium renders every page, every row in its DOM"
