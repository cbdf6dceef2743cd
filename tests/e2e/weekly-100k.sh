#!/bin/sh
# Four weeks of the weekly loop on a 100k-commit history from
# bench/generate (linux-5.10.y, a backlog of about 1,700 proposals), as
# the README's recipe runs it, each week's mainline tip 500 first-parent
# commits on from the last:
#   every week  the email: each mail under stablepick.mailSizeCap, one
#               mail per set of lists; git send-email --dry-run takes
#               the email and the mbox split by git mailsplit; git am
#               takes the mbox on the branch; what a week left for later
#               comes the next weeks, nothing twice
#   week 1      the xfs review thread and the checklist
#   week 2      the maintainers' answers in the list's archive: acks,
#               reviews, a NAK, a "not yet", a "defer", the checklist
#               answered line by line; acks lists and records them
#   week 3      the deferrals have ended: listed again, marked
#   week 4      the queue: the accepted with their trailers, the
#               backporter's Signed-off-by last, applied by git am
# Minutes, not seconds: not run under the sanitizers, nor when
# STABLEPICK_SKIP_SCALE is set (the CI's distcheck, which runs the
# suite a second time).
. "$TEST_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
command -v jq >/dev/null 2>&1 || skip "jq is not installed"
[ -z "${STABLEPICK_SKIP_SCALE:-}" ] || skip "STABLEPICK_SKIP_SCALE is set"
if grep -q __asan_init "$STABLEPICK" 2>/dev/null; then
	skip "a sanitizer build: the 100k history takes too long"
fi

repo=$tmp/repo
python3 "$TEST_SRCDIR/bench/generate" "$repo" --commits 100000 >"$tmp/gen" ||
	fail "bench/generate: $(cat "$tmp/gen")"
cd "$repo"
git config user.name 'Stable Picker'
git config user.email 'picker@example.org'
# The xfs maintainers whose answers count (the history has no
# MAINTAINERS): the shipped xfs.rules with a maintainer line, laid over.
mkdir "$tmp/rules"
sed 's/^\tlist linux-xfs@vger.kernel.org$/&\n\tmaintainer rhea@example.org/' \
	"$TEST_SRCDIR/rules/xfs.rules" >"$tmp/rules/xfs.rules"
grep -q "^	maintainer rhea@example.org" "$tmp/rules/xfs.rules" || fail "no maintainer line"
git config stablepick.rules "$tmp/rules"
cap=100000
B=linux-5.10.y

tip1=$(git rev-parse master~1500) tip2=$(git rev-parse master~1000)
tip3=$(git rev-parse master~500) tip4=$(git rev-parse master)
day=86400
now1=1662336000		# Mon, 5 Sep 2022
short() { git rev-parse --short=12 "$1"; }
id_of() { sed -n 's/^Message-ID: <\(.*\)>$/\1/p' "$1"; }

# propose WEEK FORMAT [ARG...]: the week's run, to $tmp/wWEEK.FORMAT.
propose() {
	local w=$1 f=$2
	shift 2
	STABLEPICK_NOW=$((now1 + (w - 1) * 7 * day)) \
		"$STABLEPICK" propose --branch $B --upstream "$(eval echo \$tip$w)" \
		--since last --format "$f" "$@" >"$tmp/w$w.$f" 2>"$tmp/w$w.$f.err" ||
		fail "week $w, --format $f: $(cat "$tmp/w$w.$f.err")"
}

# mails WEEK: checks the week's email and mbox as the README sends them.
mails() {
	local w=$1 n size to
	rm -rf "$tmp/m" "$tmp/outgoing"
	mkdir "$tmp/m" "$tmp/outgoing"
	n=$(git mailsplit -o"$tmp/m" "$tmp/w$w.email")
	[ "$n" -ge 2 ] || fail "week $w: $n mails, not one per set of lists"
	for m in "$tmp"/m/*; do
		size=$(wc -c <"$m")
		[ "$size" -le $cap ] ||
			fail "week $w: a mail of $size bytes, over $cap: $(grep -m1 '^Subject:' "$m")"
		# The To: header, unfolded.
		sed -n '/^To:/{:a;N;/\n[ \t]/ba;p;q}' "$m" | tr -s ' \n\t' ' '
		echo
	done >"$tmp/to"
	[ "$(sort "$tmp/to" | uniq -d)" = "" ] ||
		fail "week $w: two mails to one set of lists: $(sort "$tmp/to" | uniq -d)"
	# The README's recipe.
	n=$(git mailsplit -o"$tmp/outgoing" "$tmp/w$w.email" "$tmp/w$w.mbox")
	if git send-email --help >/dev/null 2>&1; then
		git send-email --dry-run --confirm=never --no-thread \
			--suppress-cc=author --suppress-cc=body \
			--smtp-server=/bin/false "$tmp/outgoing" >"$tmp/sent" 2>&1 ||
			fail "week $w: git send-email: $(tail -n 5 "$tmp/sent")"
		[ "$(grep -c '^Result: OK$' "$tmp/sent")" = "$n" ] ||
			fail "week $w: git send-email sent $(grep -c '^Result: OK$' "$tmp/sent") of $n"
	fi
	# git am on the branch, as it is.
	rm -rf "$tmp/am"
	git worktree add -q --detach "$tmp/am" $B
	n=$(grep -c '^From [0-9a-f]\{40\} ' "$tmp/w$w.mbox")
	git -C "$tmp/am" am -q "$tmp/w$w.mbox" >"$tmp/out" 2>&1 ||
		fail "week $w: git am: $(tail -n 5 "$tmp/out")"
	[ "$(git -C "$tmp/am" rev-list --count $B..HEAD)" = "$n" ] ||
		fail "week $w: git am applied $(git -C "$tmp/am" rev-list --count $B..HEAD) of $n"
	git worktree remove --force "$tmp/am"
	# The proposals it sends: a commit carried for another, marked
	# Stable-dep-of:, goes again while the branch lacks it.
	awk '/^From [0-9a-f]+ / && length($2) == 40 { if (c != "" && !dep) print c; c = $2; dep = 0 }
		/^Stable-dep-of: / { dep = 1 }
		END { if (c != "" && !dep) print c }' "$tmp/w$w.mbox" | sort >"$tmp/sent.$w"
	echo "# week $w: $(wc -l <"$tmp/to") mails, $n patches"
}

# --- week 1 -------------------------------------------------------------
propose 1 email
propose 1 mbox
propose 1 review
propose 1 checklist
propose 1 json
mails 1
left=$(sed -n 's/^\([0-9][0-9]*\) more next week:.*/\1/p' "$tmp/w1.email")
[ -n "$left" ] && [ "$left" -gt 0 ] ||
	fail "week 1 leaves nothing for later: the backlog fits one week"
[ "$(grep -c '^From ' "$tmp/w1.checklist")" = 1 ] ||
	fail "the checklist is not one mail"
ok "week 1: every mail under the cap, one per set of lists; send-email and git am take them"

# --- week 2: the answers ------------------------------------------------
mkdir "$tmp/review" "$tmp/checklist"
git mailsplit -o"$tmp/review" "$tmp/w1.review" >/dev/null
git mailsplit -o"$tmp/checklist" "$tmp/w1.checklist" >/dev/null
# The commit of review patch N (its mail is N + 1, after the cover).
patch_commit() {
	sed -n 's/^From \([0-9a-f]\{40\}\) .*/\1/p' "$tmp/review/$(printf %04d $(($1 + 1)))"
}
# The commit of checklist item N.
item_commit() {
	sed -n "s/^  $1\\. \\([0-9a-f]\\{12\\}\\) .*/\\1/p" "$tmp/checklist/0001" |
		xargs git rev-parse
}
reply() {	# reply FILE FROM ID PARENT TEXT
	printf 'From: %s\nTo: linux-xfs@vger.kernel.org\nSubject: Re: [PATCH 5.10] xfs\nDate: Tue, 6 Sep 2022 09:00:00 +0000\nMessage-ID: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>\n\n%s\n' \
		"$2" "$3" "$4" "$4" "$5" >"$1"
}
rhea='Rhea Castellano <rhea@example.org>'
p() { id_of "$tmp/review/$(printf %04d $(($1 + 1)))"; }
reply "$tmp/a1" "$rhea" a1@example.org "$(p 1)" "Acked-by: $rhea"
reply "$tmp/a2" "$rhea" a2@example.org "$(p 2)" "Reviewed-by: $rhea"
reply "$tmp/a3" "$rhea" a3@example.org "$(p 3)" 'Not yet, let it soak in mainline for a while.'
reply "$tmp/a4" "$rhea" a4@example.org "$(p 4)" 'defer 2022-09-15: after the next -rc'
reply "$tmp/a5" "$rhea" a5@example.org "$(p 5)" 'NAK: it needs the iomap rework.'
reply "$tmp/c1" "$rhea" c1@example.org "$(id_of "$tmp/checklist/0001")" \
	"$(printf '%s\n' '6 y' '7 n: needs the prep patch' '8 defer 2022-09-15')"
for m in "$tmp"/review/* "$tmp"/checklist/* "$tmp"/a? "$tmp/c1"; do
	head -n 1 "$m" | grep -q '^From ' ||
		echo "From mda Mon Sep 17 00:00:00 2001"
	cat "$m"
	echo
done >"$tmp/archive.mbox"
for n in 1 2 3 4 5; do
	eval "x$n=\$(patch_commit $n)"
done
for n in 6 7 8; do
	eval "x$n=\$(item_commit $n)"
done
for n in 1 2 3 4 5 6 7 8; do
	[ -n "$(eval echo \$x$n)" ] || fail "no commit for answer $n"
done
[ "$(printf '%s\n' $x1 $x2 $x3 $x4 $x5 $x6 $x7 $x8 | sort -u | wc -l)" = 8 ] ||
	fail "the review and the checklist answers name one commit twice"
STABLEPICK_NOW=$((now1 + 7 * day)) "$STABLEPICK" acks --branch $B \
	--archive "$tmp/archive.mbox" >"$tmp/acks" 2>"$tmp/acks.err" ||
	fail "acks: $(cat "$tmp/acks.err")"
# "accepted <id> subject", "deferred until 2022-09-15 <id> subject"
grep -v '^    ' "$tmp/acks" |
	awk '{ for (i = 2; i <= NF; i++) if (length($i) == 12 && $i ~ /^[0-9a-f]+$/) { print $1, $i; break } }' |
	sort >"$tmp/actual"
sort >"$tmp/expect" <<EOF
accepted $(short $x1)
accepted $(short $x2)
deferred $(short $x3)
deferred $(short $x4)
rejected $(short $x5)
accepted $(short $x6)
rejected $(short $x7)
deferred $(short $x8)
EOF
test_cmp "$tmp/expect" "$tmp/actual"
grep -q "^deferred until 2022-09-15 $(short $x4) " "$tmp/acks" &&
	grep -q "^deferred until 2022-09-15 $(short $x8) " "$tmp/acks" ||
	fail "the deferrals until a date: $(cat "$tmp/acks")"
grep -q '^    Not yet, let it soak in mainline for a while. (Rhea' "$tmp/acks" ||
	fail "the 'not yet' is not listed: $(cat "$tmp/acks")"
grep -q '^    7 n: needs the prep patch (Rhea' "$tmp/acks" ||
	fail "the checklist's answer is not read back: $(cat "$tmp/acks")"

propose 2 email
propose 2 mbox
propose 2 json
mails 2
# The ledger is the answer everywhere: the week's JSON judges by it.
for n in 1 2 6; do
	v=$(jq -r "select(.commit == \"$(eval echo \$x$n)\") | .verdict" "$tmp/w2.json")
	[ -z "$v" ] || [ "$v" = accepted ] || fail "answer $n: $v, not accepted"
done
# What week 1 left comes now; no proposal twice.
[ -z "$(comm -12 "$tmp/sent.1" "$tmp/sent.2")" ] ||
	fail "week 2 sends again: $(comm -12 "$tmp/sent.1" "$tmp/sent.2" | head -n 3)"
old=0
for c in $(cat "$tmp/sent.2"); do
	git merge-base --is-ancestor "$c" "$tip1" && old=$((old + 1))
done
[ "$old" -gt 0 ] || fail "week 2 lists nothing of what week 1 left"
echo "# week 2: $old of what week 1 left"
ok "week 2: the answers recorded from the archive, what week 1 left listed"

# --- week 3 -------------------------------------------------------------
propose 3 email
propose 3 mbox
propose 3 json
mails 3
[ -z "$(sort "$tmp/sent.1" "$tmp/sent.2" | comm -12 - "$tmp/sent.3")" ] ||
	fail "week 3 sends again what was sent"
for n in 3 4 8; do
	jq -r "select(.commit == \"$(eval echo \$x$n)\") |
		\"\(.verdict) \(.newly_eligible.why // \"-\")\"" "$tmp/w3.json"
done >"$tmp/actual"
cat >"$tmp/expect" <<EOF
needs-ack deferral-expired
needs-ack deferral-expired
needs-ack deferral-expired
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "week 3: the deferrals ended, listed again with why"

# --- week 4: the queue ---------------------------------------------------
propose 4 email
propose 4 mbox
mails 4
STABLEPICK_NOW=$((now1 + 21 * day)) "$STABLEPICK" queue --branch $B \
	--upstream "$tip4" --signoff >"$tmp/queue.mbox" 2>"$tmp/queue.err" ||
	fail "queue: $(cat "$tmp/queue.err")"
for n in 1 2 6; do
	grep -q "^From $(eval echo \$x$n) " "$tmp/queue.mbox" ||
		fail "accepted answer $n is not queued"
done
for n in 3 4 5 7 8; do
	! grep -q "^From $(eval echo \$x$n) " "$tmp/queue.mbox" ||
		fail "answer $n is queued"
done
mkdir "$tmp/q"
git mailsplit -o"$tmp/q" "$tmp/queue.mbox" >/dev/null
# trailers FILE: the trailer block of the patch's message.
trailers() {
	sed -n '/^$/,/^---$/p' "$1" | grep -E '^[A-Z][A-Za-z-]+: ' | tail -n 3
}
for f in "$tmp"/q/*; do
	c=$(sed -n 's/^From \([0-9a-f]\{40\}\) .*/\1/p' "$f")
	[ "$(trailers "$f" | tail -n 1)" = 'Signed-off-by: Stable Picker <picker@example.org>' ] ||
		fail "$c: the backporter's sign-off is not last: $(trailers "$f")"
	case $c in
	$x1) trailers "$f" | grep -q "^Acked-by: $rhea\$" || fail "no Acked-by on answer 1" ;;
	$x2) trailers "$f" | grep -q "^Reviewed-by: $rhea\$" || fail "no Reviewed-by on answer 2" ;;
	esac
done
rm -rf "$tmp/am"
git worktree add -q --detach "$tmp/am" $B
git -C "$tmp/am" am -q "$tmp/queue.mbox" >"$tmp/out" 2>&1 ||
	fail "git am of the queue: $(tail -n 5 "$tmp/out")"
git worktree remove --force "$tmp/am"
ok "week 4: the queue carries the answers' trailers and the sign-off, git am takes it"

# --- the pages at 100k ----------------------------------------------------
# The first screen (1000x800) holds the totals, to their last column.
command -v chromium >/dev/null 2>&1 ||
	skip "no chromium (apt-get install chromium): the pages were not rendered"
"$STABLEPICK" propose --branch $B --upstream "$tip4" --format html \
	>"$tmp/propose.html" 2>/dev/null || fail "propose --format html"
"$STABLEPICK" diff --branch linux-5.18.y --against $B --format html \
	>"$tmp/diff.html" 2>/dev/null || fail "diff --format html"
mkdir "$tmp/screen"
python3 "$TEST_SRCDIR/tests/firstscreen.py" "$tmp/propose.html" '#branches tr' \
	"$tmp/screen" >"$tmp/out" 2>&1 || fail "$(cat "$tmp/out")"
echo "# $(cat "$tmp/out")"
python3 "$TEST_SRCDIR/tests/firstscreen.py" "$tmp/diff.html" '#summary tr.total' \
	"$tmp/screen" >"$tmp/out" 2>&1 || fail "$(cat "$tmp/out")"
echo "# $(cat "$tmp/out")"
ok "the 100k pages: the first screen holds the totals"
