#!/bin/sh
# The pages at scale: diff --format html opens with the totals, then
# the subsystems that lack something, the most missing fixes first,
# then follow-ups, the others folded in a <details>; its two charts
# (missing fixes, missing follow-ups) sorted the same way, capped at 25
# bars with the rest summed.  propose --format html says next to
# proposed how many do not apply, and caps its chart the same way (of
# several branches, each branch its share of the bars).
. "$TEST_SRCDIR/tests/lib.sh"

STABLEPICK_NOW=1700600000
export STABLEPICK_NOW
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
subs=$(seq -f 's%02g' 1 27)
for s in $subs fa fb quiet; do
	mkdir -p "fs/$s"
	echo "int $s;" >"fs/$s/a.c"
done
git add .
test_commit Makefile 'VERSION = 6.1' 'Linux 6.1'
git tag -a -m 'Linux 6.1' v6.1
git branch linux-6.1.y
git branch vendor

# Mainline: one stable fix in each sNN, two more in s05, one more in
# s10; a fix in fa and in fb, then follow-ups of them (two of fa's).
fixes=
for s in $subs s05 s05 s10; do
	n=$(git rev-list --count HEAD)
	test_fix "fs/$s/f$n.c" "int f$n;" "$s: fix a leak $n" \
		'Cc: stable@vger.kernel.org'
	fixes="$fixes $(git rev-parse HEAD)"
done
test_fix fs/fa/b.c 'int b;' 'fa: fix a race' 'Cc: stable@vger.kernel.org'
fa=$(git rev-parse HEAD)
test_fix fs/fb/b.c 'int b;' 'fb: fix a race' 'Cc: stable@vger.kernel.org'
fb=$(git rev-parse HEAD)
for f in u1 u2; do
	test_fix "fs/fa/$f.c" "int $f;" "fa: follow up the race fix $f" \
		"Fixes: $(git rev-parse --short=12 $fa) (\"fa: fix a race\")"
done
test_fix fs/fb/u1.c 'int u1;' 'fb: follow up the race fix' \
	"Fixes: $(git rev-parse --short=12 $fb) (\"fb: fix a race\")"

# Stable takes every fix; the vendor takes fa's and fb's from stable
# and has a change of its own in quiet.
git checkout -q linux-6.1.y
for m in $fixes $fa $fb; do
	test_tick
	git cherry-pick -x "$m" >/dev/null
done
git tag v6.1.1
git checkout -q vendor
for m in $(git rev-list --reverse -n 2 linux-6.1.y); do
	test_tick
	git cherry-pick -x "$m" >/dev/null
done
test_commit fs/quiet/v.c 'int v;' 'quiet: a vendor knob'
git checkout -q master

# Parses a page: the rows of each table by id (cells joined by a
# space), the <details> summaries, each chart's bar labels and counts
# (label=total, by the heading before it), and anything a page must
# not hold.
cat >"$tmp/parse.py" <<'EOF'
import html.parser, sys
VOID = {'meta', 'br', 'rect'}
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.bad, self.out = [], [], []
        self.table = self.chart = self.text = None
        self.cells, self.data = [], ''
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ('script', 'link', 'img', 'iframe') or any(
                k in ('src',) or k.startswith('on') for k in a):
            self.bad.append(tag)
        if tag == 'table':
            self.table = a.get('id', '-')
        if tag in ('tr', 'text', 'summary', 'h2', 'p'):
            self.data = ''
        if tag == 'tr':
            self.cells = []
        if tag in ('td', 'th'):
            self.data = ''
        if tag == 'svg':
            self.labels = []
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
        d = ' '.join(self.data.split())
        if tag in ('td', 'th'):
            self.cells.append(d)
        elif tag == 'tr' and 'svg' not in self.stack:
            self.out.append('%s: %s' % (self.table, ' '.join(self.cells)))
        elif tag == 'summary':
            self.out.append('details: ' + d)
        elif tag == 'h2':
            self.out.append('h2: ' + d)
        elif tag == 'text' and 'svg' in self.stack:
            self.labels.append(d)
        elif tag == 'svg':
            # After the legend: label, count, label, count ...
            rows = [l for l in self.labels if l not in LEGEND]
            for i in range(0, len(rows), 2):
                self.out.append('bar: %s=%s' % (rows[i], rows[i + 1]))
    def handle_data(self, d):
        self.data += d
LEGEND = {'under 30 days', '30 to 90 days', '90 days to a year',
          'over a year', 'does not apply'}
p = P()
p.feed(open(sys.argv[1], encoding='utf-8').read())
p.close()
assert not p.stack, p.stack
assert not p.bad, p.bad
print('\n'.join(p.out))
EOF

sp() {
	"$STABLEPICK" "$@" 2>"$tmp/err" || fail "$*: $(cat "$tmp/err")"
}
sp diff --branch vendor --against linux-6.1.y --format html >"$tmp/diff.html"
python3 "$tmp/parse.py" "$tmp/diff.html" >"$tmp/parsed" ||
	fail "the diff page does not parse"
# The totals first, then s05 (3 missing), s10 (2), the other sNN (1
# each), fa (2 follow-ups), fb (1); quiet (vendor-only) folded.
grep -v '^-: \|^bar: \|^h2: ' "$tmp/parsed" | sed -n '1,4p;30,$p' >"$tmp/actual"
cat >"$tmp/expect" <<EOF
summary: subsystem missing maybe-present vendor-only missing-follow-up caught up with
summary: all 30 subsystems 30 0 1 3 -
summary: s05 3 0 0 0 -
summary: s10 2 0 0 0 -
summary: fa 0 0 0 2 v6.1.1
summary: fb 0 0 0 1 v6.1.1
details: 1 subsystem with nothing missing
nothing-missing: subsystem missing maybe-present vendor-only missing-follow-up caught up with
nothing-missing: quiet 0 0 1 0 v6.1.1
EOF
test_cmp "$tmp/expect" "$tmp/actual"
sed -n 's/^summary: \(s[0-9]*\) \([0-9]*\) .*/\1 \2/p' "$tmp/parsed" >"$tmp/actual"
[ "$(wc -l <"$tmp/actual")" -eq 27 ] || fail "$(cat "$tmp/actual")"
head -n 1 "$tmp/actual" | grep -qx 's05 3' || fail "s05 is not first"
sort -k2,2nr -s "$tmp/actual" | test_cmp - "$tmp/actual"
ok "diff page: the totals, then by missing fixes and follow-ups, the rest folded"

grep '^h2: \|^details: \|^summary: all' "$tmp/parsed" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
h2: Summary
summary: all 30 subsystems 30 0 1 3 -
details: 1 subsystem with nothing missing
h2: Missing stable fixes by subsystem and age
h2: Missing follow-ups by subsystem and age
h2: Commits
EOF
test_cmp "$tmp/expect" "$tmp/actual"
# 27 subsystems miss fixes: 24 bars and the 3 others summed.
sed -n '/^h2: Missing stable/,/^h2: Missing follow/s/^bar: //p' "$tmp/parsed" >"$tmp/actual"
[ "$(wc -l <"$tmp/actual")" -eq 25 ] || fail "$(cat "$tmp/actual")"
sed -n '1,2p;$p' "$tmp/actual" >"$tmp/head"
printf '%s\n' s05=3 s10=2 'and 3 more=3' | test_cmp - "$tmp/head"
sed -n '/^h2: Missing follow/,/^h2: Commits/s/^bar: //p' "$tmp/parsed" >"$tmp/actual"
printf '%s\n' fa=2 fb=1 | test_cmp - "$tmp/actual"
# Every bar at least 3 pixels wide.
sed -n 's/.*<rect [^>]*width="\([0-9]*\)" height="18".*/\1/p' "$tmp/diff.html" |
	awk '$1 < 3 { bad = 1 } END { exit bad }' || fail "a bar under 3 pixels"
ok "diff page: two charts, sorted, capped at 25 bars"

# propose of the vendor: what it lacks, and how many do not apply.
# The vendor changed the line of fs/s03/a.c that a fix changes: that
# fix does not apply to it.
git checkout -q vendor
test_commit fs/s03/a.c 'int s03_ours;' 's03: our way'
git checkout -q master
test_fix fs/s03/a.c 'int s03_fixed;' 's03: fix a' 'Cc: stable@vger.kernel.org'
sp propose --branch vendor --format html >"$tmp/propose.html"
sp propose --branch vendor --format json >"$tmp/propose.json"
python3 "$tmp/parse.py" "$tmp/propose.html" >"$tmp/parsed" ||
	fail "the propose page does not parse"
stuck=$(jq -s '[.[] | select((.verdict == "proposed" or .verdict ==
	"needs-ack" or .verdict == "waiting") and .applies == false)] |
	length' "$tmp/propose.json")
[ "$stuck" -eq 1 ] || fail "$stuck do not apply"
proposed=$(jq -s '[.[] | select(.verdict == "proposed")] | length' \
	"$tmp/propose.json")
needs_ack=$(jq -s '[.[] | select(.verdict == "needs-ack")] | length' \
	"$tmp/propose.json")
# A column per branch, a row per verdict: the table as narrow as the
# first screen.
grep '^branches: ' "$tmp/parsed" | cut -d' ' -f2- | head -n 6 >"$tmp/actual"
cat >"$tmp/expect" <<EOF
branch vendor
base v6.1
mainline range v6.1..master
proposed $proposed
does not apply $stuck
needs-ack $needs_ack
EOF
test_cmp "$tmp/expect" "$tmp/actual"
grep -n '^h2: ' "$tmp/parsed" | cut -d: -f1,3 >"$tmp/actual"
grep -q '^[0-9]*: Branches$' "$tmp/actual" || fail "$(cat "$tmp/actual")"
[ "$(sed -n 1p "$tmp/actual")" = "$(grep ': Branches$' "$tmp/actual")" ] ||
	fail "the totals are not first: $(cat "$tmp/actual")"
sed -n 's/^bar: vendor //p; s/^bar: \(and [0-9]* more\)/\1/p' "$tmp/parsed" >"$tmp/bars"
[ "$(wc -l <"$tmp/bars")" -eq 25 ] || fail "$(cat "$tmp/bars")"
tail -n 1 "$tmp/bars" | grep -q '^and [0-9]* more=' || fail "$(cat "$tmp/bars")"
lacks=$(jq -s '[.[] | select(.verdict == "proposed" or .verdict ==
	"needs-ack" or .verdict == "waiting")] | length' "$tmp/propose.json")
sed 's/.*=\([0-9]*\).*/\1/' "$tmp/bars" | awk '{ n += $1 } END { print n }' >"$tmp/actual"
echo "$lacks" | test_cmp - "$tmp/actual"
head -n 24 "$tmp/bars" | sed 's/.*=\([0-9]*\).*/\1/' >"$tmp/totals"
sort -nr -s "$tmp/totals" | test_cmp - "$tmp/totals"
grep -q '^s03=2, 1 not applying$' "$tmp/bars" || fail "$(cat "$tmp/bars")"
grep -c '<title>[0-9]* do not apply</title>' "$tmp/propose.html" >"$tmp/actual" || :
echo 1 | test_cmp - "$tmp/actual"
ok "propose page: does not apply next to proposed, the chart capped"

# Of two branches, each has its share of the bars (12), its rest summed.
sp propose --branch vendor --branch linux-6.1.y --format html >"$tmp/two.html"
python3 "$tmp/parse.py" "$tmp/two.html" >"$tmp/parsed" ||
	fail "the page of two branches does not parse"
[ "$(grep -c '^bar: vendor ' "$tmp/parsed")" -eq 12 ] || fail "$(grep '^bar: ' "$tmp/parsed")"
grep '^bar: vendor ' "$tmp/parsed" | tail -n 1 | grep -q '^bar: vendor and [0-9]* more=' ||
	fail "$(grep '^bar: ' "$tmp/parsed")"
grep -q '^bar: linux-6.1.y ' "$tmp/parsed" || fail "$(grep '^bar: ' "$tmp/parsed")"
ok "propose page of two branches: each its share of the chart"

# The first screen (1000x800, as a maintainer opens it) holds the
# totals: the propose page's Branches table and the diff page's total
# row, to their last column (a row per branch ran past the screen's
# right edge).
command -v chromium >/dev/null 2>&1 ||
	skip "no chromium (apt-get install chromium): the first screen was not rendered"
mkdir "$tmp/screen"
python3 "$TEST_SRCDIR/tests/firstscreen.py" "$tmp/propose.html" '#branches tr' \
	"$tmp/screen" >"$tmp/out" 2>&1 || fail "$(cat "$tmp/out")"
python3 "$TEST_SRCDIR/tests/firstscreen.py" "$tmp/diff.html" '#summary tr.total' \
	"$tmp/screen" >"$tmp/out" 2>&1 || fail "$(cat "$tmp/out")"
ok "the first screen of each page holds its totals"
