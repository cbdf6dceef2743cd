#!/bin/sh
# Malformed commits: those git shows (git log goes on) but libgit2
# refuses to parse (git fsck: missingEmail, badDate, missingAuthor,
# ...).  Every command goes on: one warning names the commit, libgit2's
# reason and what was done ("skipped" on mainline, "read without its
# author or date" in a branch: its message, parents and patch-id), and
# the rest of the answer is that of the same history with a well-formed
# commit in its place.  What libgit2 reads as git does gets no
# warning; a commit git refuses too (a bad tree or parent line) stays
# an error, as a missing object does (tests/e2e/repo-faults.sh).
. "$TEST_SRCDIR/tests/lib.sh"
. "$TEST_SRCDIR/tests/e2e/fixture.sh"

make_fixture "$tmp/base"
uaf=$(git -C "$tmp/base" log --format=%H --grep='^ext4: fix use-after-free' master)
btrfs=$(git -C "$tmp/base" log --format=%H --grep='^btrfs: fix deadlock' master)

A='author A U Thor <author@example.com> 1700000900 +0000'
C='committer C O Mitter <committer@example.com> 1700000900 +0000'

# raw DIR PARENT AUTHOR COMMITTER [HOW]: writes a commit of the index's
# tree on PARENT, with the author and committer lines as given (an
# empty one is left out) and the message on standard input; prints its
# id.  HOW: "nomsg", no message; "unterminated", the header ends the
# object (no newline, no message); "noblank", no empty line between
# the header and the message; "badtree" or "badparent", that line is
# not an id.
raw() {
	local dir=$1 parent=$2 author=$3 committer=$4 how=${5:-} msg tree
	msg=$(cat)
	tree=$(git -C "$dir" write-tree)
	parent=$(git -C "$dir" rev-parse "$parent")
	case $how in
	badtree) tree=zz${tree#??} ;;
	badparent) parent=${parent%?}x ;;
	esac
	{
		printf 'tree %s\nparent %s\n' "$tree" "$parent"
		[ -z "$author" ] || printf '%s\n' "$author"
		case $how in
		unterminated) printf '%s' "$committer" ;;
		nomsg) printf '%s\n\n' "$committer" ;;
		noblank) printf '%s\n%s\n' "$committer" "${msg%%
*}" ;;
		*)
			[ -z "$committer" ] || printf '%s\n' "$committer"
			printf '\n%s\n' "$msg" ;;
		esac
	} | git -C "$dir" hash-object -t commit -w --literally --stdin
}

# build NAME AUTHOR COMMITTER [HOW [WHERE]]: $tmp/NAME, the fixture with
# a commit M of those lines on master ("ext4: fix a leak in quux", Cc:
# stable) and a fix on top of it, and one, Mb, on linux-6.6.y after the
# base (the backport of "ext4: fix use-after-free in bar") and a
# backport on top of it.  HOW as raw's; WHERE "master": Mb is
# well-formed.  The commits on top are the same in every repository
# but for their parents.
build() {
	local d=$tmp/$1 how=${4:-} m
	cp -R "$tmp/base" "$d"
	git -C "$d" checkout -q master
	echo 'int ext4; int bar3; int quux;' >"$d/fs/ext4/inode.c"
	git -C "$d" add fs/ext4/inode.c
	m=$(raw "$d" master "$2" "$3" $how <<-EOF
	ext4: fix a leak in quux

	Cc: stable@vger.kernel.org
	Signed-off-by: A U Thor <author@example.com>
	EOF
	)
	git -C "$d" reset -q --soft "$m"
	echo 'int super;' >"$d/fs/ext4/super.c"
	git -C "$d" add fs/ext4/super.c
	GIT_AUTHOR_DATE='1700001000 +0000' GIT_COMMITTER_DATE='1700001000 +0000' \
		git -C "$d" commit -q -m 'ext4: fix a crash in super

Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>'
	git -C "$d" checkout -q linux-6.6.y
	echo 'int ext4; int bar2;' >"$d/fs/ext4/inode.c"
	git -C "$d" add fs/ext4/inode.c
	if [ "${5:-}" = master ]; then
		set -- "$1" "$A" "$C"
		how=
	fi
	m=$(raw "$d" linux-6.6.y "$2" "$3" $how <<-EOF
	ext4: fix use-after-free in bar

	commit $uaf upstream.

	Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>
	EOF
	)
	git -C "$d" reset -q --soft "$m"
	echo 'int btrfs2;' >"$d/fs/btrfs/inode.c"
	git -C "$d" add fs/btrfs/inode.c
	GIT_AUTHOR_DATE='1700001100 +0000' GIT_COMMITTER_DATE='1700001100 +0000' \
		git -C "$d" commit -q -m "btrfs: fix deadlock in baz

commit $btrfs upstream.

Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>"
	git -C "$d" checkout -q master
}

# ids NAME: M, G (on it), Mb and Gb of $tmp/NAME into $m $g $mb $gb.
ids() {
	m=$(git -C "$tmp/$1" rev-parse master~1)
	g=$(git -C "$tmp/$1" rev-parse master)
	mb=$(git -C "$tmp/$1" rev-parse linux-6.6.y~1)
	gb=$(git -C "$tmp/$1" rev-parse linux-6.6.y)
}

# map NAME TWIN: a sed script that names the commits of $tmp/NAME as
# those of $tmp/TWIN, in full and in 12 digits.
map() {
	local a b x y
	ids "$1"
	a="$m $g $mb $gb"
	ids "$2"
	b="$m $g $mb $gb"
	for x in $a; do
		y=${b%% *}
		b=${b#* }
		printf 's/%s/%s/g\ns/%s/%s/g\n' "$x" "$y" \
			"$(echo "$x" | cut -c1-12)" "$(echo "$y" | cut -c1-12)"
	done
}

# run NAME ARGS...: stablepick in $tmp/NAME; stdout in $tmp/out, stderr
# in $tmp/err, exit status in $status.
run() {
	local d=$1
	shift
	set +e
	"$STABLEPICK" -C "$tmp/$d" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	set -e
	[ $status -lt 128 ] || fail "killed by signal $((status - 128)): $*"
}

COMMANDS='propose explain audit diff tests patch-id mark'

# answers NAME: what each command says in $tmp/NAME, without caches,
# into $tmp/NAME.answers/COMMAND{,.err,.status} (the fstests test names
# the fix on top of M).
answers() {
	local d=$1 out=$tmp/$1.answers c
	mkdir -p "$out" "$tmp/$d.fst/common" "$tmp/$d.fst/tests/generic"
	: >"$tmp/$d.fst/common/rc"
	ids "$d"
	printf '#! /bin/bash\n_fixed_by_kernel_commit %s "ext4: fix a crash in super"\n' \
		"$(echo "$g" | cut -c1-12)" >"$tmp/$d.fst/tests/generic/001"
	for c in $COMMANDS; do
		case $c in
		propose) run "$d" --no-cache propose --branch linux-6.6.y \
			--format json ;;
		explain) run "$d" --no-cache explain --branch linux-6.6.y "$g" ;;
		audit) run "$d" --no-cache audit --branch linux-6.6.y \
			--range v6.6..linux-6.6.y --format json ;;
		diff) run "$d" --no-cache diff --branch linux-6.6.y \
			--against master --format json ;;
		tests) run "$d" --no-cache tests --branch linux-6.6.y \
			--fstests "$tmp/$d.fst" --format json ;;
		patch-id) run "$d" --no-cache patch-id v6.6..master \
			v6.6..linux-6.6.y ;;
		mark) run "$d" --no-cache mark --list --branch linux-6.6.y ;;
		esac
		mv "$tmp/out" "$out/$c"
		mv "$tmp/err" "$out/$c.err"
		echo $status >"$out/$c.status"
	done
}

build twin "$A" "$C"
answers twin
build twin-nomsg "$A" "$C" nomsg
answers twin-nomsg

# same NAME TWIN COMMAND: $tmp/NAME's answer to COMMAND is $tmp/TWIN's
# (NAME's commits named as TWIN's) but for M, whose lines propose and
# diff leave out; patch-id's in any order (git's is checked, which
# sorts a commit with no date last).
same() {
	local a=$tmp/$1.answers/$3 e=$tmp/$2.answers/$3
	[ "$(cat "$a.status")" = "$(cat "$e.status")" ] ||
		fail "$1: $3 exits $(cat "$a.status"), not $(cat "$e.status"): $(cat "$a.err")"
	map "$1" "$2" >"$tmp/map"
	sed -f "$tmp/map" "$a" >"$tmp/actual"
	ids "$2"
	case $3 in
	propose|diff)
		grep -v "$m" "$e" >"$tmp/expect" || :
		grep -v "$m" "$tmp/actual" >"$tmp/actual.m" || :
		mv "$tmp/actual.m" "$tmp/actual" ;;
	patch-id)
		sort "$e" >"$tmp/expect"
		sort -o "$tmp/actual" "$tmp/actual" ;;
	*) cp "$e" "$tmp/expect" ;;
	esac
	test_cmp "$tmp/expect" "$tmp/actual"
}

# malformed NAME AUTHOR COMMITTER REASON [HOW [WHERE]]: libgit2 cannot
# parse M and Mb (only M with WHERE "master").  Every command goes on,
# each of them named once in a warning with REASON: M skipped, Mb read
# for its message (its upstream line: "ext4: fix use-after-free in bar"
# is present still); patch-id reads their trees, as git log -p does.
# What they say of the other commits is what they say with well-formed
# ones.
malformed() {
	local name=$1 reason=$4 how=${5:-} twin=twin c
	case $how in unterminated) twin=twin-nomsg ;; esac
	[ -z "${6:-}" ] || twin=$twin-$6
	if [ ! -d "$tmp/$twin" ]; then
		build "$twin" "$A" "$C" "${how:+nomsg}" "${6:-}"
		answers "$twin"
	fi
	build "$name" "$2" "$3" "$how" "${6:-}"
	answers "$name"
	for c in $COMMANDS; do
		ids "$name"
		case $c in
		patch-id)
			printf 'warning: cannot parse commit %s: %s; read without its author or date\n' \
				"$m" "$reason" >"$tmp/expect"
			[ "${6:-}" = master ] ||
				printf 'warning: cannot parse commit %s: %s; read without its author or date\n' \
					"$mb" "$reason" >>"$tmp/expect" ;;
		mark)
			: >"$tmp/expect" ;;
		*)
			printf 'warning: cannot parse commit %s: %s; skipped\n' \
				"$m" "$reason" >"$tmp/expect"
			[ "${6:-}" = master ] ||
				printf 'warning: cannot parse commit %s: %s; read without its author or date\n' \
					"$mb" "$reason" >>"$tmp/expect" ;;
		esac
		# In the order the stages meet them.
		sort -o "$tmp/expect" "$tmp/expect"
		sort "$tmp/$name.answers/$c.err" >"$tmp/actual"
		test_cmp "$tmp/expect" "$tmp/actual"
		same "$name" "$twin" "$c"
	done
	# The patch-ids, and their order, are git's.
	git -C "$tmp/$name" log -p v6.6..master v6.6..linux-6.6.y |
		git patch-id --stable >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/$name.answers/patch-id"
	ok "$name: $reason; every command goes on"
}

# accepted NAME AUTHOR COMMITTER [HOW TWIN]: libgit2 reads M and Mb as
# git does: no warning, M is proposed, the rest is the twin's.
accepted() {
	local name=$1
	build "$name" "$2" "$3" ${4:-}
	answers "$name"
	for c in propose explain audit tests; do
		[ ! -s "$tmp/$name.answers/$c.err" ] ||
			fail "$name: $c: $(cat "$tmp/$name.answers/$c.err")"
		same "$name" "${5:-twin}" "$c"
	done
	ids "$name"
	grep -q "^{\"commit\":\"$m\"" "$tmp/$name.answers/propose" ||
		fail "$name: M is not a candidate"
	ok "$name: read by libgit2 as git reads it"
}

# --- libgit2 refuses, git shows ---------------------------------------------
malformed missingEmail 'author A U Thor author@example.com 1700000900 +0000' "$C" \
	'failed to parse signature - malformed e-mail'
malformed badEmail 'author A U Thor <author@example.com 1700000900 +0000' "$C" \
	'failed to parse signature - malformed e-mail'
malformed badDate 'author A U Thor <author@example.com> notadate +0000' "$C" \
	'failed to parse signature - invalid Unix timestamp'
malformed badDateOverflow \
	'author A U Thor <author@example.com> 99999999999999999999 +0000' "$C" \
	'failed to parse signature - invalid Unix timestamp'
malformed missingAuthor '' "$C" \
	"failed to parse signature - expected prefix doesn't match actual"
malformed missingCommitter "$A" '' \
	"failed to parse signature - expected prefix doesn't match actual"
malformed committerMissingEmail "$A" \
	'committer C O Mitter committer@example.com 1700000900 +0000' \
	'failed to parse signature - malformed e-mail'
malformed committerBadDate "$A" \
	'committer C O Mitter <committer@example.com> notadate +0000' \
	'failed to parse signature - invalid Unix timestamp'
# No end to the header, and so no message: git log shows it all the
# same.  In the branch its message is no evidence, but its patch-id is,
# read from its trees: the change it backports is present.
malformed unterminatedHeader "$A" "$C" \
	'failed to parse signature - no newline given' unterminated master
build unterminatedBranch "$A" "$C" unterminated
answers unterminatedBranch
ids unterminatedBranch
printf 'warning: cannot parse commit %s: %s; %s\n' \
	"$m" 'failed to parse signature - no newline given' skipped \
	"$mb" 'failed to parse signature - no newline given' 'read without its author or date' |
	sort >"$tmp/expect"
sort "$tmp/unterminatedBranch.answers/propose.err" >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
grep -q "^{\"commit\":\"$uaf\",.*\"verdict\":\"present\",.*\"evidence\":\[{\"kind\":\"patch-id\",\"commit\":\"$mb\"" \
	"$tmp/unterminatedBranch.answers/propose" ||
	fail "unterminated in the branch: $(grep "$uaf" "$tmp/unterminatedBranch.answers/propose")"
ok "unterminatedHeader in the branch: what it backports is present by patch-id"
# On mainline only, with the repository's commit-graph (walks and
# merge bases on it; git writes the commit there, its date 0).
build graph-twin "$A" "$C" '' master
answers graph-twin
git -C "$tmp/graph-twin" commit-graph write --reachable
mv "$tmp/graph-twin.answers" "$tmp/graph-twin.nograph"
answers graph-twin
for c in $COMMANDS; do
	test_cmp "$tmp/graph-twin.nograph/$c" "$tmp/graph-twin.answers/$c"
done
build graph "$A" 'committer C O Mitter <committer@example.com> notadate +0000' '' master
git -C "$tmp/graph" commit-graph write --reachable
answers graph
for c in propose explain audit diff tests; do
	ids graph
	printf 'warning: cannot parse commit %s: %s; skipped\n' "$m" \
		'failed to parse signature - invalid Unix timestamp' >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/graph.answers/$c.err"
	same graph graph-twin "$c"
done
ok "with a commit-graph: M skipped, the rest as without one"

# Every run says so: the scan of a range with a malformed commit is not
# cached, a kept answer shows its warnings again.
run badDate propose --branch linux-6.6.y
cp "$tmp/err" "$tmp/first"
cp "$tmp/out" "$tmp/first.out"
run badDate propose --branch linux-6.6.y
test_cmp "$tmp/first" "$tmp/err"
test_cmp "$tmp/first.out" "$tmp/out"
rm -r "$tmp/badDate/.git/stablepick/memo"
run badDate propose --branch linux-6.6.y
test_cmp "$tmp/first" "$tmp/err"
test_cmp "$tmp/first.out" "$tmp/out"
[ -s "$tmp/first" ] || fail "no warning"
ok "with caches: the warnings on every run"

# Asked about by name: M cannot be explained; the others still are.
ids badDate
run badDate --no-cache explain --branch linux-6.6.y "$m" "$g"
grep -q "^error: cannot parse commit '$m' for explain: failed to parse signature - invalid Unix timestamp\$" \
	"$tmp/err" || fail "explain M: $(cat "$tmp/err")"
[ $status -eq 1 ] && grep -q "^commit $g\$" "$tmp/out" ||
	fail "explain M G: exit $status, $(head -n 1 "$tmp/out")"
ok "explain M: $(grep '^error' "$tmp/err")"

# A CVE record that names M as the fix: not judged, and said so.
ids badDate
mkdir -p "$tmp/vulns/cve/published/2024"
echo "$m" >"$tmp/vulns/cve/published/2024/CVE-2024-4242.sha1"
run badDate --no-cache cves --branch linux-6.6.y --cve "$tmp/vulns"
[ $status -eq 0 ] || fail "cves: exit $status: $(cat "$tmp/err")"
grep -q "^ *no vulnerable commit named; the fix $(echo "$m" | cut -c1-12) cannot be parsed\$" \
	"$tmp/out" || fail "cves: $(cat "$tmp/out")"
grep -q "^warning: cannot parse commit $m: .*; skipped\$" "$tmp/err" ||
	fail "cves: $(cat "$tmp/err")"
ok "a CVE fixed by M: its fix cannot be parsed"

# Release tags on M, lightweight and annotated: releases all the same,
# for the soak of xfs (opt-in, it waits for one).
for d in badDate twin; do
	cp -R "$tmp/$d" "$tmp/$d-tagged"
	ids "$d"
	git -C "$tmp/$d-tagged" tag v6.7-rc1 "$m"
	test_tick
	git -C "$tmp/$d-tagged" tag -a -m 'Linux 6.7-rc2' v6.7-rc2 "$m"
	run "$d-tagged" --no-cache propose --branch linux-6.6.y --format json
	mkdir -p "$tmp/$d-tagged.answers"
	mv "$tmp/out" "$tmp/$d-tagged.answers/propose"
	echo $status >"$tmp/$d-tagged.answers/propose.status"
done
same badDate-tagged twin-tagged propose
grep -q '"why":"xfs waits for a release: in v6.7-rc1, not in a release tag yet"' \
	"$tmp/badDate-tagged.answers/propose" || fail "the tags of M are no releases"
ok "release tags of M: releases all the same"

# A proposal that does not apply, whose file M changed: libgit2's blame
# cannot go through M, so its likely prerequisites there are unknown,
# and it says so.
cp -R "$tmp/badDate" "$tmp/blame"
echo 'int ext4; int bar3; int quux; int more;' >"$tmp/blame/fs/ext4/inode.c"
git -C "$tmp/blame" add fs/ext4/inode.c
test_tick
git -C "$tmp/blame" commit -q -m 'ext4: fix a crash in more

Cc: stable@vger.kernel.org'
run blame --no-cache explain --branch linux-6.6.y master
[ $status -eq 0 ] || fail "explain: exit $status: $(cat "$tmp/err")"
grep -q "^  warning: its likely prerequisites in 'fs/ext4/inode.c' are not known: its history has a commit libgit2 cannot parse (failed to parse signature - invalid Unix timestamp)\$" \
	"$tmp/out" || fail "no warning of the blame: $(cat "$tmp/out")"
grep -q '^Applies:   does not apply' "$tmp/out" || fail "it applies"
ok "likely prerequisites past M: unknown, and said so"

# --- libgit2 reads them as git does -----------------------------------------
accepted missingSpaceBeforeEmail 'author A U Thor<author@example.com> 1700000900 +0000' "$C"
accepted missingNameBeforeEmail 'author <author@example.com> 1700000900 +0000' "$C"
accepted badTimezone 'author A U Thor <author@example.com> 1700000900 +xyz' "$C"
accepted zeroPaddedDate 'author A U Thor <author@example.com> 01700000900 +0000' "$C"
accepted missingSpaceBeforeDate 'author A U Thor <author@example.com>1700000900 +0000' "$C"
# The message is taken for more header lines, as git takes it: empty.
accepted noBlankLine "$A" "$C" noblank twin-nomsg

# --- malformed tips ----------------------------------------------------------
# M is master's tip and Mb linux-6.6.y's.  Named directly (a branch, an
# id, master~0, ^{commit}), they resolve, as git rev-parse resolves
# them; M is skipped, Mb read for its message, and the trial picks go
# onto a copy of Mb's tree in memory: nothing is written to the
# repository, and the mails apply with git am.
for d in missingEmail twin; do
	cp -R "$tmp/$d" "$tmp/$d-tips"
	ids "$d"
	git -C "$tmp/$d-tips" update-ref refs/heads/master "$m"
	git -C "$tmp/$d-tips" update-ref refs/heads/linux-6.6.y "$mb"
	git -C "$tmp/$d-tips" tag -a -m 'the tip' tip "$m"
	git -C "$tmp/$d-tips" count-objects >"$tmp/$d-tips.objects"
	mkdir -p "$tmp/$d-tips.answers"
	for up in '' master~0 "$m" "$(echo "$m" | cut -c1-9)" \
		'master^{commit}' tip tip^0 'tip^{commit}~0'; do
		run "$d-tips" --no-cache propose --branch linux-6.6.y \
			${up:+--upstream "$up"} --format json
		[ $status -eq 0 ] || fail "$d-tips: propose ${up:+--upstream $up}: exit $status: $(cat "$tmp/err")"
		if [ -z "$up" ]; then
			mv "$tmp/out" "$tmp/$d-tips.answers/propose"
			mv "$tmp/err" "$tmp/$d-tips.answers/propose.err"
		else
			test_cmp "$tmp/$d-tips.answers/propose" "$tmp/out"
		fi
	done
	# Through M to its parent, as git rev-parse goes.
	run "$d-tips" --no-cache propose --branch linux-6.6.y \
		--upstream 'tip~1' --format json
	cp "$tmp/out" "$tmp/through"
	run "$d-tips" --no-cache propose --branch linux-6.6.y \
		--upstream "$(git -C "$tmp/$d-tips" rev-parse master~1)" --format json
	test_cmp "$tmp/through" "$tmp/out"
	run "$d-tips" --no-cache propose --branch linux-6.6.y \
		--upstream 'master^{tree}'
	grep -q "^error: 'master^{tree}' (--upstream) is not a commit\$" "$tmp/err" ||
		fail "$d-tips: master^{tree}: $(cat "$tmp/err")"
	# G, on top of M, is proposed: picked onto the branch's tip.
	run "$d-tips" --no-cache propose --branch linux-6.6.y --upstream "$g" \
		--format mbox
	[ $status -eq 0 ] || fail "$d-tips: mbox: exit $status: $(cat "$tmp/err")"
	mv "$tmp/out" "$tmp/$d-tips.mbox"
	run "$d-tips" --no-cache mark --branch linux-6.6.y -m 'not this one' \
		"$uaf" rejected
	[ $status -eq 0 ] || fail "$d-tips: mark: exit $status: $(cat "$tmp/err")"
	# M marked: its subject, read from its object.
	run "$d-tips" --no-cache mark --branch linux-6.6.y -m no "$m" rejected
	echo "rejected $(echo "$m" | cut -c1-12) for linux-6.6.y: ext4: fix a leak in quux (no)" \
		>"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/out"
	git -C "$tmp/$d-tips" count-objects >"$tmp/actual"
	test_cmp "$tmp/$d-tips.objects" "$tmp/actual"
	git clone -q -b linux-6.6.y "$tmp/$d-tips" "$tmp/$d-tips.am"
	git -C "$tmp/$d-tips.am" am -q "$tmp/$d-tips.mbox" ||
		fail "$d-tips: git am fails"
	git -C "$tmp/$d-tips.am" log --format=%s origin/linux-6.6.y.. \
		>"$tmp/$d-tips.applied"
done
ids missingEmail
printf 'warning: cannot parse commit %s: %s; %s\n' \
	"$m" 'failed to parse signature - malformed e-mail' skipped \
	"$mb" 'failed to parse signature - malformed e-mail' 'read without its author or date' |
	sort >"$tmp/expect"
sort "$tmp/missingEmail-tips.answers/propose.err" >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
# The twin's answer but for M, its commits named as the twin's; G
# applies with git am on either branch.
m2=$m mb2=$mb
ids twin
grep -v "$m" "$tmp/twin-tips.answers/propose" >"$tmp/expect"
sed -e "s/$mb2/$mb/g" -e "s/$(echo "$mb2" | cut -c1-12)/$(echo "$mb" | cut -c1-12)/g" \
	"$tmp/missingEmail-tips.answers/propose" >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
# (On the twin, M does not apply alone: the mbox carries the commit it
# needs before it, Stable-dep-of it; with M skipped, neither is there.)
grep -v -e 'ext4: fix a leak in quux' -e 'ext4: remove unused variable in bar' \
	"$tmp/twin-tips.applied" >"$tmp/expect"
grep -q '^Stable-dep-of: .* ("ext4: fix a leak in quux")$' "$tmp/twin-tips.mbox" ||
	fail "the twin's mbox does not carry what M needs"
test_cmp "$tmp/expect" "$tmp/missingEmail-tips.applied"
grep -q '^ext4: fix a crash in super$' "$tmp/expect" || fail "G is not proposed"
ok "malformed tips of master and the branch: resolved, read, picked onto"

# --- git refuses them too: an error, as a damaged object ---------------------
# refused NAME HOW MESSAGE: on master, a commit M whose tree or parent
# line is not an id, and a fix on top of it, both written by hand (git
# cannot make a commit on M); the error names M (@M@ in MESSAGE).
refused() {
	local d=$tmp/$1 m
	cp -R "$tmp/base" "$d"
	git -C "$d" checkout -q master
	echo 'int ext4; int bar3; int quux;' >"$d/fs/ext4/inode.c"
	git -C "$d" add fs/ext4/inode.c
	m=$(echo 'ext4: fix a leak in quux' | raw "$d" master "$A" "$C" "$2")
	echo 'int super;' >"$d/fs/ext4/super.c"
	git -C "$d" add fs/ext4/super.c
	printf 'tree %s\nparent %s\n%s\n%s\n\n%s\n' "$(git -C "$d" write-tree)" \
		"$m" "$A" "$C" 'ext4: fix a crash in super' |
		git -C "$d" hash-object -t commit -w --literally --stdin \
		>"$d/.git/refs/heads/master"
	! git -C "$tmp/$1" log --format=%H master >/dev/null 2>&1 ||
		fail "$1: git log shows it"
	run "$1" --no-cache propose --branch linux-6.6.y
	printf '%s\n' "$3" | sed "s/@M@/$m/" >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/err"
	[ $status -eq 1 ] && [ ! -s "$tmp/out" ] || fail "$1: exit $status"
	ok "$1: $(cat "$tmp/err")"
}
refused badTree badtree \
	"error: cannot walk v6.6..master: commit @M@: failed to parse bad commit object"
refused badParent badparent \
	"error: cannot find the base of branch 'linux-6.6.y': cannot read commit @M@: failed to parse signature - expected prefix doesn't match actual"
