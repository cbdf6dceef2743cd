#!/bin/sh
# What was kernel-only is a setting: a mainline named main, tags that
# are not vX.Y, links other than Fixes: (and issue numbers that are no
# commit), the mail's Cc, rule directories laid over the shipped ones,
# and the field body without its trailers.
. "$TEST_SRCDIR/tests/lib.sh"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"

repo=$tmp/repo
git init -q -b main "$repo"
cd "$repo"
mkdir -p src/network src/resolve
printf 'one\n' >src/network/networkd.c
printf 'one\n' >src/resolve/resolved.c
git add src
test_tick
git commit -q -m 'network: add networkd'
base=$(git rev-parse --short=12 HEAD)
test_tick
git tag -a -m 'systemd 255' v255
git branch v255-stable

id() { git rev-parse "$1"; }
short() { git rev-parse --short=12 "$1"; }
test_commit src/network/networkd.c 'two' "network: fix a crash in DHCP

Fixes: #30425"
issue=$(id HEAD)
test_commit src/network/networkd.c 'three' "network: fix the DHCP crash fix

Follow-up for $(id HEAD)."
followup=$(id HEAD)
test_commit src/resolve/resolved.c 'two' "resolved: tidy the cache code

Fixes: $base (\"network: add networkd, which had a use-after-free\")"
tidy=$(id HEAD)
test_tick
git tag -a -m 'systemd 256-rc1' v256-rc1

mkdir "$tmp/rules"
cat >"$tmp/rules/systemd.rules" <<'EOF'
version 1
subsystem *
	paths src/*/
	policy heuristic
	soak release
	list systemd-devel@lists.freedesktop.org
end
link follow-up	body	/^Follow-up for:? ([0-9a-f]{7,40})\b/mi
release-tags /^v(?<major>[0-9]+)(?:-rc(?<rc>[0-9]+)|\.(?<stable>[0-9]+))?$/
cc none
EOF

# --- mainline is main, found without --upstream -------------------------
"$STABLEPICK" --rules "$tmp/rules" propose --branch v255-stable --format json \
	>"$tmp/json" 2>"$tmp/err" || { cat "$tmp/err"; fail "propose on main failed"; }
test_cmp /dev/null "$tmp/err"
jq -r '(.commit | .[0:12]) + " " + .subsystem + " " +
	([.fixes[] | .id[0:12] + ":" + .status] | join(",")) + " " + .verdict + ": " + .why' \
	"$tmp/json" | sort >"$tmp/actual"
# The crash fix scores 11 (subject-fix +6, subject-crash +5): its
# "Fixes: #30425" names no commit (no link, no fixes-tag), and it waits
# for a release, as the follow-up that names it in "Follow-up for" (a
# link to a proposed commit) does.
sort >"$tmp/expect" <<EOF
$(short "$issue") network  waiting: network waits for a release: in v256-rc1, not in a release tag yet
$(short "$followup") network $(short "$issue"):proposed waiting: network waits for a release: in v256-rc1, not in a release tag yet
$(short "$tidy") resolve $base:in-branch below-threshold: score 8 is below the threshold 10 of resolve
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "main is mainline; Follow-up for is a link, Fixes: #30425 is none"

# The body's words do not include a Fixes: line's: the tidy commit's
# Fixes: quotes "use-after-free", which body-memory reads in the body.
jq -r 'select(.commit == "'"$tidy"'") | [.reasons[].rule] | join(",")' "$tmp/json" \
	>"$tmp/actual"
echo "fixes-tag,fixes-in-branch,subject-cleanup" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "rules on body do not read the trailers"

# --- release tags of another form: soak release waits for v256 ----------
test_commit src/network/networkd.c 'four' 'network: fix a use-after-free in DHCP

Cc: stable@vger.kernel.org'
uaf=$(short HEAD)
"$STABLEPICK" --rules "$tmp/rules" propose --branch v255-stable --format json |
	jq -r 'select(.subject | test("use-after-free")) | .verdict + ": " + .why' >"$tmp/actual"
echo "waiting: network waits for a release: in no release tag yet" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
test_tick
git tag -a -m 'systemd 256' v256
"$STABLEPICK" --rules "$tmp/rules" propose --branch v255-stable --format json |
	jq -r 'select(.subject | test("use-after-free")) | .verdict' >"$tmp/actual"
echo proposed >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "release-tags: v256-rc1 is a release candidate, v256 a release"

# The stable releases of diff's "caught up with": v255.1.
git checkout -q v255-stable
test_commit src/resolve/resolved.c 'stable' 'resolved: fix a leak'
test_tick
git tag -a -m 'systemd 255.1' v255.1
git branch vendor v255.1
test_commit src/libsystemd-network/sd-dhcp-client.c 'stable again' \
	'sd-dhcp-client: fix a hang'
hang=$(short HEAD)
git checkout -q main
"$STABLEPICK" --rules "$tmp/rules" diff --branch vendor --against v255-stable \
	>"$tmp/actual"
cat >"$tmp/expect" <<EOF
SECTION           COMMIT        SUBSYSTEM          SUBJECT
missing           $hang  libsystemd-network sd-dhcp-client: fix a hang
missing-follow-up $(short "$tidy")  resolve            resolved: tidy the cache code
                                       fixes $base, which vendor carries; does not apply to its tip; below-threshold, score 8

subsystem           missing  maybe-present  vendor-only  missing-follow-up  caught up with
libsystemd-network        1              0            0                  0  v255.1
resolve                   0              0            0                  1  v255.1
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "diff: stable releases by the release-tags pattern, long names aligned"

# --- the mail's Cc: none with "cc none", the rules' otherwise ------------
STABLEPICK_NOW=1700000000
export STABLEPICK_NOW
"$STABLEPICK" --rules "$tmp/rules" propose --branch v255-stable --format email |
	grep -c '^Cc:' >"$tmp/actual" || :
echo 0 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
sed -i 's/^cc none$/cc devel@example.org team@example.org/' "$tmp/rules/systemd.rules"
"$STABLEPICK" --rules "$tmp/rules" propose --branch v255-stable --format email |
	python3 -c 'import sys, email; print("Cc:", email.message_from_file(sys.stdin)["Cc"])' |
	tr -s ' \n' ' ' >"$tmp/actual"
printf "Cc: devel@example.org, team@example.org " >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git config stablepick.cc ''
"$STABLEPICK" --rules "$tmp/rules" propose --branch v255-stable --format email |
	grep -c '^Cc:' >"$tmp/actual" || :
echo 0 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
git config --unset stablepick.cc
ok "the mail's Cc: cc in the rules, stablepick.cc over it"

# --- overlays ------------------------------------------------------------
# A directory of one file adds it to the shipped ones; a file of a
# shipped name replaces it; an empty one takes it away; several
# directories, from --rules or stablepick.rules, in order.
"$STABLEPICK" --rules "$tmp/rules" rules check | sed "s#^$STABLEPICK_DATADIR/#shipped/#; s#^$tmp/#tmp/#" |
	cut -d: -f1 >"$tmp/actual"
cat >"$tmp/expect" <<EOF
shipped/rules/default.rules
shipped/rules/btrfs.rules
shipped/rules/ext4.rules
shipped/rules/iomap.rules
shipped/rules/netfs.rules
shipped/rules/smb.rules
tmp/rules/systemd.rules
shipped/rules/xfs.rules
EOF
test_cmp "$tmp/expect" "$tmp/actual"
mkdir "$tmp/more"
: >"$tmp/more/xfs.rules"
printf 'version 2\nthreshold 20\n' >"$tmp/more/ext4.rules"
git config --add stablepick.rules "$tmp/rules"
git config --add stablepick.rules "$tmp/more"
"$STABLEPICK" rules check | sed "s#^$STABLEPICK_DATADIR/#shipped/#; s#^$tmp/#tmp/#" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
shipped/rules/default.rules: ok (2 subsystems, 29 rules, 1 veto, 1 link, 3 backport lines, version 1)
shipped/rules/btrfs.rules: ok (1 subsystem, 2 rules, version 1)
tmp/more/ext4.rules: ok (0 subsystems, 0 rules, version 2)
shipped/rules/iomap.rules: ok (1 subsystem, 1 rule, version 1)
shipped/rules/netfs.rules: ok (1 subsystem, 0 rules, version 1)
shipped/rules/smb.rules: ok (3 subsystems, 0 rules, version 1)
tmp/rules/systemd.rules: ok (1 subsystem, 0 rules, 1 link, version 1)
tmp/more/xfs.rules: ok (0 subsystems, 0 rules)
EOF
test_cmp "$tmp/expect" "$tmp/actual"
"$STABLEPICK" rules list | grep -c '^xfs$' >"$tmp/actual" || :
echo 0 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "rule directories lay their files over the shipped ones"

# --- no mainline: an error, for propose and for rules list ----------------
git init -q -b trunk "$tmp/other"
test_commit -C "$tmp/other" src/a.c 'a' 'add a'
cat >"$tmp/expect" <<EOF
error: no mainline branch: none of 'master', 'main', 'origin/master' and 'origin/main' exists; give --upstream REF or set stablepick.upstream
EOF
if "$STABLEPICK" -C "$tmp/other" rules list >"$tmp/out" 2>"$tmp/err"; then
	fail "rules list without a mainline succeeded"
fi
test_cmp "$tmp/expect" "$tmp/err"
test_cmp /dev/null "$tmp/out"
"$STABLEPICK" -C "$tmp/other" rules list --upstream trunk >/dev/null ||
	fail "rules list --upstream trunk failed"
ok "no mainline to take: an error that says what was tried"
