#!/bin/sh
# The bash completion (contrib/completion/stablepick.bash), sourced in a
# bash without any startup file: it registers itself, and its function,
# driven through COMP_WORDS and COMP_CWORD as bash drives it, offers
# exactly the commands, options, formats, refs of a fixture repository
# and subsystem names expected.  The lists it carries are checked
# against --help and each command's usage string, so that they cannot
# drift apart.  Also `stablepick rules list`, which it reads.
. "$TEST_SRCDIR/tests/lib.sh"

command -v bash >/dev/null 2>&1 || skip "bash is not installed"
script=$TEST_SRCDIR/contrib/completion/stablepick.bash

# A mainline with fs/xfs, fs/nfs and fs/namei.c (the template makes nfs,
# the shipped rules define the others), a stable branch, a tag and a
# remote-tracking branch.
test_repo "$tmp/repo"
test_commit -C "$tmp/repo" fs/xfs/xfs_inode.c 'int xfs;' 'Initial commit'
test_commit -C "$tmp/repo" fs/nfs/inode.c 'int nfs;' 'nfs: add inode'
test_commit -C "$tmp/repo" fs/namei.c 'int namei;' 'fs: add namei'
git -C "$tmp/repo" tag v6.6
git -C "$tmp/repo" branch linux-6.6.y
git -C "$tmp/repo" update-ref refs/remotes/origin/master HEAD
git -C "$tmp/repo" update-ref refs/notes/stablepick "$(git -C "$tmp/repo" commit-tree -m notes "$(git -C "$tmp/repo" mktree </dev/null)")"

# --- rules list -----------------------------------------------------------
"$STABLEPICK" -C "$tmp/repo" rules list >"$tmp/actual"
printf '%s\n' btrfs cifs ext4 iomap jbd2 ksmbd netfs nfs smb-common vfs xfs >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "rules list: the defined subsystems and those of upstream's fs/"

"$STABLEPICK" -C "$tmp/repo" rules list --upstream HEAD~2 >"$tmp/actual"
printf '%s\n' btrfs cifs ext4 iomap jbd2 ksmbd netfs smb-common vfs xfs >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "rules list --upstream: the directories of that tree"

mkdir "$tmp/norepo"
(cd "$tmp/norepo" && "$STABLEPICK" rules list) >"$tmp/actual"
printf '%s\n' btrfs cifs ext4 iomap jbd2 ksmbd netfs smb-common vfs xfs >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "rules list outside a repository: the defined subsystems"

set +e
"$STABLEPICK" -C "$tmp/repo" rules list --upstream nosuch >"$tmp/out" 2>"$tmp/err"
status=$?
set -e
[ "$status" -eq 1 ] || fail "rules list --upstream nosuch: exit $status"
printf '%s\n' "error: unknown revision 'nosuch' for --upstream" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/err"
[ ! -s "$tmp/out" ] || fail "rules list --upstream nosuch printed names"
set +e
"$STABLEPICK" -C "$tmp/repo" rules list extra >"$tmp/out" 2>"$tmp/err"
status=$?
set -e
[ "$status" -eq 129 ] || fail "rules list extra: exit $status, expected 129"
head -n 1 "$tmp/err" >"$tmp/actual"
printf '%s\n' "error: rules list takes no arguments" >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "rules list: errors"

# --- what the completion must offer, from the program itself --------------
# Commands and global options from --help (-h has a long twin, --help).
"$STABLEPICK" --help >"$tmp/help"
sed -n '/^Commands:/,/^$/p' "$tmp/help" | awk 'NR > 1 && NF { print $1 }' |
	LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//' >"$tmp/commands"
sed -n '/^Options:/,/^$/p' "$tmp/help" |
	grep -oE -- '(^|[ ,])-(-[a-z][a-z-]*|[A-Z])' | tr -d ' ,' |
	LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//' >"$tmp/globals"
[ -s "$tmp/commands" ] && [ -s "$tmp/globals" ] || fail "cannot read --help"

# Each command's long options (and --help), and its formats, from its usage.
for cmd in $(cat "$tmp/commands"); do
	# The synopsis: up to the blank line before the options' help.
	"$STABLEPICK" "$cmd" --help | sed '/^$/q' >"$tmp/usage-$cmd"
	{ grep -oE -- '--[a-z][a-z-]*' "$tmp/usage-$cmd"; echo --help; } |
		LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//' >"$tmp/opts-$cmd"
	grep -oE -- '--format [a-z|]+' "$tmp/usage-$cmd" | cut -d' ' -f2 |
		tr '|' '\n' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//' \
		>"$tmp/formats-$cmd" || :
done

# --- the completion, in bash --norc ---------------------------------------
cat >"$tmp/drive.bash" <<'EOF'
set -u
failed=0
. "$script"

# comp WORD...: the candidates for the last word, sorted, on one line.
comp() {
	COMP_WORDS=("$STABLEPICK" "$@")
	COMP_CWORD=$#
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_stablepick
	[ "${#COMPREPLY[@]}" -eq 0 ] ||
		printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | tr '\n' ' ' |
		sed 's/ $//'
}

# expect DESCRIPTION EXPECTED WORD...
expect() {
	local desc=$1 want=$2 got
	shift 2
	got=$(comp "$@")
	if [ "$got" = "$want" ]; then
		echo "ok - $desc"
	else
		echo "FAIL: $desc: [$*]"
		echo "  expected: $want"
		echo "  got:      $got"
		failed=1
	fi
}

got=$(complete -p stablepick 2>&1)
if [ "$got" = "complete -F _stablepick stablepick" ]; then
	echo "ok - complete -p stablepick"
else
	echo "FAIL: complete -p stablepick: $got"
	failed=1
fi

# Exact lists.
expect "commands" \
	"acks audit cves diff eval explain ledger mark patch-id propose queue results rules tests" ''
expect "commands by prefix" "patch-id propose" p
expect "global options" \
	"--cache --config --help --no-cache --rules --version -C" -
expect "propose options" \
	"--all --archive --branch --cve --format --help --in-reply-to --limit --range --since --subsystem --tests-from --upstream" \
	propose -
expect "options after a global option" "--branch" -C "$repo" explain --br
expect "rules subcommands" "check init list test" rules ''
expect "rules list options" "--help --upstream" rules list -
expect "rules test options" "--format --help --label --messages --threshold-sweep" \
	rules test -
expect "rules test formats" "json text" rules test --format ''
expect "ledger subcommands" "sync" ledger ''
expect "ledger sync options" "--help --ref" ledger sync -
expect "ledger sync --ref" "refs/notes/stablepick" -C "$repo" ledger sync --ref ''
expect "branches" "linux-6.6.y master origin/master" -C "$repo" propose --branch ''
expect "branches, --branch=" "linux-6.6.y master origin/master" \
	-C "$repo" propose --branch = ''
expect "branches, one word" "--branch=linux-6.6.y" \
	-C "$repo" propose --branch=li
expect "revisions" "HEAD linux-6.6.y master origin/master v6.6" \
	-C "$repo" explain --branch linux-6.6.y ''
expect "--upstream" "origin/master" -C "$repo" diff --upstream o
expect "--against" "linux-6.6.y" -C "$repo" diff --branch master --against l
expect "ranges" "v6.6..master" -C "$repo" propose --range v6.6..ma
expect "--since" "last linux-6.6.y" -C "$repo" propose --since l
expect "mark: a commit, then the decision too" \
	"HEAD accepted deferred linux-6.6.y master origin/master rejected v6.6" \
	-C "$repo" mark --branch linux-6.6.y v6.6 ''
expect "mark: the decision by prefix" "rejected" \
	-C "$repo" mark --branch linux-6.6.y -m why v6.6 re
expect "subsystems" "btrfs cifs ext4 iomap jbd2 ksmbd netfs nfs smb-common vfs xfs" \
	-C "$repo" propose --subsystem ''
expect "subsystems, after a comma" "xfs,btrfs xfs,cifs xfs,ext4 xfs,iomap xfs,jbd2 xfs,ksmbd xfs,netfs xfs,nfs xfs,smb-common xfs,vfs" \
	-C "$repo" propose --subsystem xfs,
expect "subsystems of --upstream" "btrfs cifs ext4 iomap jbd2 ksmbd netfs smb-common vfs xfs" \
	-C "$repo" eval --upstream HEAD~2 --subsystem ''
expect "subsystems outside a repository" "btrfs cifs ext4 iomap jbd2 ksmbd netfs smb-common vfs xfs" \
	-C "$tmp/norepo" propose --subsystem ''
expect "propose formats" "checklist email failed html json mbox review text" propose --format ''
expect "audit formats" "email json text" audit --format ''
expect "diff formats, one word" "--format=html --format=json --format=text" diff --format=
expect "eval formats" "json text" eval --format = ''
expect "tests formats" "exclude json text" tests --format ''
expect "results formats" "exclude json text" results --format ''
expect "results classes" "new,baseline new,fix-present new,missing-fix new,unexpected-pass new,unexplained" \
	results --class new,
expect "tests statuses" "expected-fail,expected-pass expected-fail,unknown" \
	tests --status expected-fail,
expect "directories" "$tmp/norepo" -C "$tmp/nor"
expect "nothing for a free value" "" mark --until ''

# In step with the program: the commands and global options of --help,
# every long option of each usage string, and the formats it names.
expect "commands as --help lists them" "$(cat "$tmp/commands")" ''
expect "global options as --help lists them" "$(cat "$tmp/globals")" -
for cmd in $(cat "$tmp/commands"); do
	[ "$cmd" = rules ] && continue
	if [ "$cmd" = ledger ]; then
		expect "ledger: the options of its usage" \
			"$(cat "$tmp/opts-ledger")" ledger sync -
		continue
	fi
	expect "$cmd: the options of its usage" "$(cat "$tmp/opts-$cmd")" \
		"$cmd" -
	[ -s "$tmp/formats-$cmd" ] || continue
	expect "$cmd: the formats of its usage" "$(cat "$tmp/formats-$cmd")" \
		"$cmd" --format ''
done
got=$({ comp rules check -; echo; comp rules init -; echo; comp rules list -; echo; comp rules test -; } | tr ' ' '\n' |
	LC_ALL=C sort -u | grep . | tr '\n' ' ' | sed 's/ $//')
if [ "$got" = "$(cat "$tmp/opts-rules")" ]; then
	echo "ok - rules: the options of its usage, over its subcommands"
else
	echo "FAIL: rules: the options of its usage: $got"
	failed=1
fi
exit $failed
EOF
env -i PATH="$PATH" HOME="$HOME" LC_ALL=C STABLEPICK="$STABLEPICK" \
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$GIT_CONFIG_GLOBAL" \
	script="$script" repo="$tmp/repo" tmp="$tmp" \
	bash --norc --noprofile "$tmp/drive.bash" || fail "bash completion"
