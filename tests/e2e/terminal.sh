#!/bin/sh
# Terminal safety: subjects and names with escape sequences (ESC, OSC
# with BEL, DEL, C1 controls) reach every
# text report as visible text ("^[", "\x9b"), whether it goes to a
# terminal, a file or a pager; JSON keeps them as data.
. "$TEST_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null || skip "python3 is needed"
repo=$tmp/repo
test_repo "$repo"
cd "$repo"
mkdir -p fs/ext4
echo 'int inode;' >fs/ext4/inode.c
git add .
test_commit fs/ext4/super.c 'int super;' 'ext4: the base'
base=$(git rev-parse --short=12 HEAD)
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
git branch vendor

# The subject retitles the window (OSC 0 ... BEL), turns the text red,
# deletes (DEL) and starts a CSI the C1 way; the
# author's name clears the screen.
esc=$(printf '\033')
printf '%s\n' "ext4: fix a crash${esc}]0;pwned$(printf '\007')${esc}[31m red$(printf '\177')$(printf '\302\233')2J" '' \
	"Fixes: $base (\"ext4: the base\")" \
	'Cc: stable@vger.kernel.org' \
	'Signed-off-by: A U Thor <author@example.com>' >"$tmp/msg"
echo 'int inode_fixed;' >fs/ext4/inode.c
git add fs/ext4/inode.c
test_tick
GIT_AUTHOR_NAME="Mal${esc}[2Jlory" git commit -q --cleanup=verbatim -F "$tmp/msg"
fix=$(git rev-parse HEAD)

# clean FILE: no control byte but newline and tab, no C1 control, only
# UTF-8; and the escape shown.
clean() {
	python3 - "$1" <<'EOF' || fail "$1 holds bytes a terminal acts on"
import re, sys
b = open(sys.argv[1], 'rb').read()
t = b.decode('utf-8')			# raises on bytes that are not UTF-8
bad = re.findall(r'[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]', t)
sys.exit(1 if bad else 0)
EOF
	grep -qF '^[' "$1" || fail "$1: the escape is not shown"
}

"$STABLEPICK" propose --branch linux-6.6.y >"$tmp/propose"
clean "$tmp/propose"
grep -qF 'ext4: fix a crash^[]0;pwned^G^[[31m red^?\xc2\x9b2J' "$tmp/propose" ||
	fail "propose: $(cat -v "$tmp/propose")"
"$STABLEPICK" propose --branch linux-6.6.y --branch vendor >"$tmp/matrix"
clean "$tmp/matrix"
"$STABLEPICK" explain --branch linux-6.6.y "$fix" >"$tmp/explain"
clean "$tmp/explain"
grep -qF 'Mal^[[2Jlory' "$tmp/explain" || fail "explain: the author: $(cat -v "$tmp/explain")"
"$STABLEPICK" diff --branch vendor --against linux-6.6.y >"$tmp/diff"
python3 - "$tmp/diff" <<'EOF' || fail "diff holds bytes a terminal acts on"
import re, sys
t = open(sys.argv[1], 'rb').read().decode('utf-8')
sys.exit(1 if re.findall(r'[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]', t) else 0)
EOF
"$STABLEPICK" eval --branch linux-6.6.y --misses --false-picks >"$tmp/eval"
python3 - "$tmp/eval" <<'EOF' || fail "eval holds bytes a terminal acts on"
import re, sys
t = open(sys.argv[1], 'rb').read().decode('utf-8')
sys.exit(1 if re.findall(r'[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]', t) else 0)
EOF
git log -1 --format='%H %s' "$fix" >"$tmp/picks"
"$STABLEPICK" audit --branch linux-6.6.y --picks "$tmp/picks" >"$tmp/audit" || :
clean "$tmp/audit"
ok "text reports show the control bytes of subjects and names"

# JSON is data: the subject as the commit has it.
"$STABLEPICK" propose --branch linux-6.6.y --format json >"$tmp/json"
jq -r '.subject' <"$tmp/json" >"$tmp/subject"
python3 - "$tmp/subject" <<'EOF' || fail "JSON: the subject is not the commit's"
import sys
s = open(sys.argv[1], 'rb').read()
sys.exit(0 if b'\x1b]0;pwned\x07\x1b[31m red\x7f\xc2\x9b2J' in s else 1)
EOF
ok "JSON keeps the subject as data"
