# Mailing-list archives for the end-to-end tests: messages, and the
# public-inbox v2 and v1, maildir and mbox stores that hold them.
#
# A test sources this file after tests/lib.sh:
#
#	. "$TEST_SRCDIR/tests/lib.sh"
#	. "$TEST_SRCDIR/tests/e2e/archive-lib.sh"
#
# Everything it writes is the same, byte for byte, on every run: dates
# come from the messages (or, for a removal, from the archive's last
# commit), identities are fixed, and nothing reads the clock, the network
# or a personal configuration.  Like tests/lib.sh it counts on set -e for
# the git commands; a misuse (a bad argument, a message without the
# header needed) ends the test with a FAIL line on stderr, even where
# set -e is off.  POSIX sh plus `local`.
#
# Messages
#
#	mail_write FILE FROM DATE SUBJECT MSGID [IN_REPLY_TO [REFERENCES]]
#	    Write to FILE a raw RFC 5322 message whose body is read from
#	    stdin, with the headers
#	        From: FROM
#	        Date: DATE as RFC 2822 in UTC, "Tue, 14 Nov 2023 22:13:20 +0000"
#	              (DATE is seconds since the epoch, e.g. $test_tick; the
#	              day is not padded, as git writes it: "Sun, 3 Dec")
#	        Subject: SUBJECT
#	        Message-ID: <MSGID>
#	        In-Reply-To: <IN_REPLY_TO>      (when given and not empty)
#	        References: <a> <b> ...         (REFERENCES is "a b ...", ids
#	                                        without <>; when given)
#	        MIME-Version: 1.0
#	        Content-Type: text/plain; charset=UTF-8
#	    then an empty line and the body, as it comes.
#
#	mail_patch [-C DIR] FILE COMMIT FROM DATE SUBJECT MSGID [IN_REPLY_TO [REFERENCES]]
#	    mail_write of COMMIT (of the repository at DIR, default .) as
#	    posted: SUBJECT is the whole Subject header ("[PATCH v2 3/3] xfs:
#	    fix a race"); the body is the commit message without its subject,
#	    a "---" line, the diff exactly as `git format-patch --stdout`
#	    prints it (no diffstat), and the signature lines "-- " and
#	    "2.39.2".
#
# Archives.  FILE is always a raw message such as mail_write writes (no
# mbox From_ line).  Where a function needs a header it parses FILE's
# own: From (name and address), Date (any RFC 2822 date with a numeric
# zone or UT/GMT/Z), Subject, and Message-ID, names matched without
# regard to case, folded lines unfolded.
#
#	pi_v2_add INBOX EPOCH FILE
#	    Append FILE to the public-inbox v2 inbox INBOX in epoch EPOCH
#	    (0, 1, ...), creating INBOX/git/EPOCH.git (bare, branch master)
#	    and INBOX/all.git (empty, objects/info/alternates naming every
#	    epoch, newest first) when needed.  One commit on refs/heads/master
#	    whose tree is a single blob "m", FILE's bytes, as public-inbox
#	    writes it: author the From name and address at the Date, committer
#	    the inbox ($pi_name <$pi_email>) at the Date, message the Subject.
#	    (public-inbox also points each epoch's config at all.git's with
#	    include.path, and keeps databases beside; readers need neither.)
#
#	pi_v2_remove INBOX EPOCH FILE
#	    Record the removal of message FILE in epoch EPOCH: one commit
#	    whose tree is a single blob "d", FILE's bytes, author and committer
#	    the inbox, message "rm", dated a minute after the epoch's last
#	    commit (or at FILE's Date in an epoch without commits).
#
#	pi_v1_add REPO FILE
#	    Add FILE to the public-inbox v1 ("ssoma") bare repository REPO,
#	    created when needed: one commit that adds the blob at xx/y{38},
#	    where xxy{38} is the SHA-1 in hex of FILE's first Message-ID
#	    without the angle brackets.  Identities, dates and message as for
#	    pi_v2_add.  A Message-ID already in REPO fails the test.
#
#	pi_v1_remove REPO FILE
#	    One commit that deletes FILE's path (and its directory when that
#	    empties); identities, date and message as for pi_v2_remove.  The
#	    path must hold exactly FILE's bytes (public-inbox compares only
#	    the Subject and the body).
#
#	maildir_add DIR FILE [new|cur]
#	    Deliver FILE to the maildir DIR (cur/, new/ and tmp/ created when
#	    needed): through tmp/, into new/ as "EPOCH.N.localhost" or, by
#	    default, into cur/ as "EPOCH.N.localhost:2,S" (seen), where EPOCH
#	    is FILE's Date and N one more than the number of messages in cur/
#	    and new/ (or the next number free, after a removal).
#
#	mbox_add MBOX FILE
#	    Append FILE to the mboxrd file MBOX: a From_ line "From ADDRESS
#	    Tue Nov 14 22:13:20 2023" (FILE's From address and its Date in
#	    UTC, as ctime(3)), FILE with one '>' added to every line that
#	    matches ^>*"From ", a newline if FILE lacks the final one, and an
#	    empty line.
#
# Variables
#
#	pi_name, pi_email   the identity the public-inbox functions commit as
#	                    (default "test-inbox", "test-inbox@example.com")

pi_name=test-inbox
pi_email=test-inbox@example.com

# _arch_die MSG: report a misuse or a failed step and end the test (or
# the command substitution that called us, whose `|| exit 1` ends it).
_arch_die() {
	echo "FAIL: $*" >&2
	exit 1
}

# _arch_date MODE ARG: the date conversions, in awk so as not to need a
# particular date(1).  MODE rfc2822 and ctime format the epoch seconds ARG
# ("Tue, 14 Nov 2023 22:13:20 +0000", "Tue Nov 14 22:13:20 2023", both
# UTC); MODE parse reads the RFC 2822 date ARG and prints "SECONDS ZONE",
# ready for GIT_AUTHOR_DATE.
_arch_date() {
	awk -v mode="$1" -v arg="$2" '
	# Days between 1970-01-01 and the civil date y-m-d (proleptic
	# Gregorian), and back; after Howard Hinnant'"'"'s algorithms.
	function days(y, m, d,   era, yoe, doy, doe) {
		y -= (m <= 2)
		era = int((y >= 0 ? y : y - 399) / 400)
		yoe = y - era * 400
		doy = int((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
		doe = yoe * 365 + int(yoe / 4) - int(yoe / 100) + doy
		return era * 146097 + doe - 719468
	}
	function civil(z,   era, doe, yoe, doy, mp) {
		z += 719468
		era = int((z >= 0 ? z : z - 146096) / 146097)
		doe = z - era * 146097
		yoe = int((doe - int(doe / 1460) + int(doe / 36524) - \
			int(doe / 146096)) / 365)
		doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
		mp = int((5 * doy + 2) / 153)
		D = doy - int((153 * mp + 2) / 5) + 1
		M = mp + (mp < 10 ? 3 : -9)
		Y = yoe + era * 400 + (M <= 2)
	}
	function bad() {
		print "FAIL: cannot read the date \"" arg "\"" >"/dev/stderr"
		exit 1
	}
	BEGIN {
		split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", mon)
		split("Thu Fri Sat Sun Mon Tue Wed", wday)
		for (i = 1; i <= 12; i++)
			mnum[tolower(mon[i])] = i
		if (mode == "parse") {
			s = arg
			sub(/[ \t]*\([^)]*\)[ \t]*$/, "", s)	# a trailing "(UTC)"
			sub(/[ \t]+$/, "", s)
			sub(/^[ \t]*[A-Za-z]+,/, "", s)	# the day of the week
			n = split(s, f, /[ \t]+/)
			if (n > 0 && f[1] == "") {
				for (i = 1; i < n; i++)
					f[i] = f[i + 1]
				n--
			}
			if (n != 5 || f[1] !~ /^[0-9]+$/ || f[3] !~ /^[0-9]+$/ ||
			    !(tolower(f[2]) in mnum))
				bad()
			t = split(f[4], hms, ":")
			if (t < 2 || t > 3)
				bad()
			if (t == 2)
				hms[3] = 0
			z = f[5]
			if (z == "UT" || z == "GMT" || z == "Z")
				z = "+0000"
			if (z !~ /^[-+][0-9][0-9][0-9][0-9]$/)
				bad()
			off = (substr(z, 2, 2) * 3600 + substr(z, 4, 2) * 60)
			if (substr(z, 1, 1) == "-")
				off = -off
			secs = days(f[3] + 0, mnum[tolower(f[2])], f[1] + 0) * 86400
			secs += hms[1] * 3600 + hms[2] * 60 + hms[3] - off
			printf "%.0f %s\n", secs, z
			exit 0
		}
		if (arg !~ /^[0-9]+$/)
			bad()
		d = int(arg / 86400)
		r = arg - d * 86400
		civil(d)
		hh = int(r / 3600); mm = int((r % 3600) / 60); ss = r % 60
		if (mode == "rfc2822")
			printf "%s, %d %s %d %02d:%02d:%02d +0000\n", \
				wday[d % 7 + 1], D, mon[M], Y, hh, mm, ss
		else if (mode == "ctime")
			printf "%s %s %2d %02d:%02d:%02d %d\n", \
				wday[d % 7 + 1], mon[M], D, hh, mm, ss, Y
		else
			bad()
	}'
}

# _arch_header FILE NAME: print the value of FILE's first NAME header
# (name matched without regard to case), unfolded, without the
# surrounding blanks; fail when there is none.
_arch_header() {
	awk -v want="$2" '
	BEGIN { want = tolower(want) }
	{ sub(/\r$/, "") }
	/^[ \t]/ { if (found) val = val $0; next }	# a folded line
	found || /^$/ { exit }
	{
		i = index($0, ":")
		name = tolower(substr($0, 1, i - 1))
		sub(/[ \t]+$/, "", name)
		if (i > 1 && name == want) {
			found = 1
			val = substr($0, i + 1)
		}
	}
	END {
		if (!found)
			exit 1
		gsub(/^[ \t]+|[ \t]+$/, "", val)
		print val
	}' "$1"
}

# _arch_msgid FILE: print FILE's Message-ID without the angle brackets
# (the first <...> of the first Message-ID header, else its whole value).
_arch_msgid() {
	local v
	v=$(_arch_header "$1" Message-ID) || _arch_die "$1: no Message-ID header"
	case $v in
	*'<'*'>'*)
		v=${v#*<}
		v=${v%%>*}
		;;
	esac
	[ -n "$v" ] || _arch_die "$1: empty Message-ID"
	printf '%s\n' "$v"
}

# _arch_msgdate FILE: print FILE's Date as "SECONDS ZONE".
_arch_msgdate() {
	local v
	v=$(_arch_header "$1" Date) || _arch_die "$1: no Date header"
	_arch_date parse "$v" || exit 1
}

# _arch_from FILE: set _arch_name and _arch_email from FILE's From header
# ("Name <addr>", "\"Name\" <addr>", "addr (Name)" or "addr").  As in
# public-inbox a missing name is the address's local part, and '<' and '>'
# are dropped from both, which git would refuse.
_arch_from() {
	local v
	v=$(_arch_header "$1" From) || _arch_die "$1: no From header"
	case $v in
	*'<'*'>'*)
		_arch_email=${v#*<}
		_arch_email=${_arch_email%%>*}
		_arch_name=${v%%<*}
		;;
	*'('*')'*)
		_arch_email=${v%%(*}
		_arch_name=${v#*(}
		_arch_name=${_arch_name%)*}
		;;
	*)
		_arch_email=$v
		_arch_name=
		;;
	esac
	_arch_email=$(printf '%s\n' "$_arch_email" | tr -d '<>' |
		sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
	_arch_name=$(printf '%s\n' "$_arch_name" | tr -d '<>' |
		sed 's/^[[:space:]"]*//; s/[[:space:]"]*$//')
	[ -n "$_arch_email" ] || _arch_die "$1: no address in From: $v"
	[ -n "$_arch_name" ] || _arch_name=${_arch_email%%@*}
}

# _arch_sha1 STRING: the SHA-1 of STRING's bytes, in hex.
_arch_sha1() {
	local h
	if command -v sha1sum >/dev/null 2>&1; then
		h=$(printf '%s' "$1" | sha1sum)
	elif command -v shasum >/dev/null 2>&1; then
		h=$(printf '%s' "$1" | shasum -a 1)
	else
		h=$(printf '%s' "$1" | openssl sha1 -r)
	fi
	h=${h%% *}
	[ "${#h}" -eq 40 ] || _arch_die "no SHA-1 tool (sha1sum, shasum, openssl)"
	printf '%s\n' "$h"
}

# _arch_init GITDIR: create the bare repository GITDIR, branch master,
# unless it exists.
_arch_init() {
	[ -d "$1" ] || git init -q --bare -b master "$1"
}

# _arch_tip GITDIR: print the commit refs/heads/master names, or nothing.
_arch_tip() {
	git --git-dir="$1" rev-parse -q --verify refs/heads/master || :
}

# _arch_tree GITDIR OLD NAME [MODE TYPE OID]: write the tree OLD (a tree
# or commit; empty for none) with its entry NAME dropped and, when given,
# replaced by MODE TYPE OID; print the new tree's id.
_arch_tree() {
	local gd="$1" old="$2" name="$3" list=
	shift 3
	if [ -n "$old" ]; then
		list=$(git --git-dir="$gd" ls-tree "$old" |
			awk -F '\t' -v n="$name" '$2 != n')
	fi
	{
		[ -z "$list" ] || printf '%s\n' "$list"
		[ $# -eq 0 ] || printf '%s %s %s\t%s\n' "$1" "$2" "$3" "$name"
	} | git --git-dir="$gd" mktree
}

# _arch_commit GITDIR TREE MESSAGE AUTHOR_NAME AUTHOR_EMAIL AUTHOR_DATE
# COMMITTER_DATE: commit TREE, committed by the inbox, and move
# refs/heads/master of GITDIR to it (its parent the old tip, if any).
_arch_commit() {
	local gd="$1" tree="$2" msg="$3" an="$4" ae="$5" ad="$6" cd="$7" tip c
	tip=$(_arch_tip "$gd")
	if [ -n "$tip" ]; then
		set -- -p "$tip"
	else
		set --
	fi
	c=$(printf '%s\n' "$msg" |
		GIT_AUTHOR_NAME=$an GIT_AUTHOR_EMAIL=$ae GIT_AUTHOR_DATE=$ad \
		GIT_COMMITTER_NAME=$pi_name GIT_COMMITTER_EMAIL=$pi_email \
		GIT_COMMITTER_DATE=$cd \
		git --git-dir="$gd" commit-tree "$tree" "$@")
	# An empty old value makes sure the branch did not exist yet.
	git --git-dir="$gd" update-ref refs/heads/master "$c" "$tip"
}

# _arch_add GITDIR TREE FILE: commit TREE for the addition of message
# FILE, as public-inbox does: author the sender at the Date, committer the
# inbox at the Date (public-inbox takes the Received date first; our
# messages have none), message the Subject.
_arch_add() {
	local date subject
	_arch_from "$3"
	date=$(_arch_msgdate "$3") || exit 1
	subject=$(_arch_header "$3" Subject) || subject=
	[ -n "$subject" ] || subject='(no subject)'
	_arch_commit "$1" "$2" "$subject" "$_arch_name" "$_arch_email" \
		"$date" "$date"
}

# _arch_rm GITDIR TREE FILE: commit TREE for the removal of message FILE:
# author and committer the inbox, message "rm", a minute after the tip
# (public-inbox uses the time of the removal).
_arch_rm() {
	local date tip
	tip=$(_arch_tip "$1")
	if [ -n "$tip" ]; then
		date=$(git --git-dir="$1" show -s --format=%ct "$tip")
		date="$((date + 60)) +0000"
	else
		date=$(_arch_msgdate "$3") || exit 1
	fi
	_arch_commit "$1" "$2" rm "$pi_name" "$pi_email" "$date" "$date"
}

# _arch_readable FUNC FILE: FILE must be a readable message.
_arch_readable() {
	[ -f "$2" ] && [ -r "$2" ] || _arch_die "$1: cannot read $2"
}

# --- public-inbox v2 -------------------------------------------------------

# _pi_v2_epoch INBOX EPOCH: create INBOX/git/EPOCH.git and INBOX/all.git
# as needed and list every epoch in all.git's alternates, newest first,
# the way public-inbox does; print the epoch's git directory.
_pi_v2_epoch() {
	local gd="$1/git/$2.git"
	case $2 in
	''|*[!0-9]*) _arch_die "$1: epoch '$2' is not a number" ;;
	esac
	if [ ! -d "$gd" ]; then
		mkdir -p "$1/git"
		_arch_init "$gd"
		_arch_init "$1/all.git"
		ls "$1/git" | sed -n 's/^\([0-9][0-9]*\)\.git$/\1/p' | sort -rn |
			sed 's|.*|../../git/&.git/objects|' \
			>"$1/all.git/objects/info/alternates"
	fi
	printf '%s\n' "$gd"
}

# pi_v2_add INBOX EPOCH FILE: see the top of this file.
pi_v2_add() {
	local gd blob tree
	[ $# -eq 3 ] || _arch_die "usage: pi_v2_add INBOX EPOCH FILE"
	_arch_readable pi_v2_add "$3"
	gd=$(_pi_v2_epoch "$1" "$2") || exit 1
	blob=$(git --git-dir="$gd" hash-object -w --no-filters -- "$3")
	tree=$(_arch_tree "$gd" '' m 100644 blob "$blob")
	_arch_add "$gd" "$tree" "$3"
}

# pi_v2_remove INBOX EPOCH FILE: see the top of this file.
pi_v2_remove() {
	local gd blob tree
	[ $# -eq 3 ] || _arch_die "usage: pi_v2_remove INBOX EPOCH FILE"
	_arch_readable pi_v2_remove "$3"
	gd=$(_pi_v2_epoch "$1" "$2") || exit 1
	blob=$(git --git-dir="$gd" hash-object -w --no-filters -- "$3")
	tree=$(_arch_tree "$gd" '' d 100644 blob "$blob")
	_arch_rm "$gd" "$tree" "$3"
}

# --- public-inbox v1 -------------------------------------------------------

# _pi_v1_path FILE: print FILE's path in a v1 tree, "xx/y{38}".
_pi_v1_path() {
	local mid h
	mid=$(_arch_msgid "$1") || exit 1
	h=$(_arch_sha1 "$mid") || exit 1
	printf '%s\n' "$h" | sed 's|^..|&/|'
}

# pi_v1_add REPO FILE: see the top of this file.
pi_v1_add() {
	local repo="$1" path dir tip sub='' blob tree
	[ $# -eq 2 ] || _arch_die "usage: pi_v1_add REPO FILE"
	_arch_readable pi_v1_add "$2"
	path=$(_pi_v1_path "$2") || exit 1
	dir=${path%/*}
	_arch_init "$repo"
	tip=$(_arch_tip "$repo")
	if [ -n "$tip" ]; then
		if git --git-dir="$repo" rev-parse -q --verify \
			"$tip:$path" >/dev/null; then
			_arch_die "pi_v1_add: $2: its Message-ID is in $repo already"
		fi
		sub=$(git --git-dir="$repo" rev-parse -q --verify "$tip:$dir") ||
			sub=
	fi
	blob=$(git --git-dir="$repo" hash-object -w --no-filters -- "$2")
	sub=$(_arch_tree "$repo" "$sub" "${path#*/}" 100644 blob "$blob")
	tree=$(_arch_tree "$repo" "$tip" "$dir" 040000 tree "$sub")
	_arch_add "$repo" "$tree" "$2"
}

# pi_v1_remove REPO FILE: see the top of this file.
pi_v1_remove() {
	local repo="$1" path dir tip old blob sub tree
	[ $# -eq 2 ] || _arch_die "usage: pi_v1_remove REPO FILE"
	_arch_readable pi_v1_remove "$2"
	path=$(_pi_v1_path "$2") || exit 1
	dir=${path%/*}
	tip=$(_arch_tip "$repo")
	old=
	if [ -n "$tip" ]; then
		old=$(git --git-dir="$repo" rev-parse -q --verify "$tip:$path") ||
			old=
	fi
	[ -n "$old" ] || _arch_die "pi_v1_remove: $2: not in $repo"
	blob=$(git --git-dir="$repo" hash-object --no-filters -- "$2")
	[ "$old" = "$blob" ] ||
		_arch_die "pi_v1_remove: $2: $repo holds another message at $path"
	sub=$(_arch_tree "$repo" "$tip:$dir" "${path#*/}")
	if [ -n "$(git --git-dir="$repo" ls-tree "$sub")" ]; then
		tree=$(_arch_tree "$repo" "$tip" "$dir" 040000 tree "$sub")
	else
		tree=$(_arch_tree "$repo" "$tip" "$dir")
	fi
	_arch_rm "$repo" "$tree" "$2"
}

# --- maildir and mbox ------------------------------------------------------

# maildir_add DIR FILE [new|cur]: see the top of this file.
maildir_add() {
	local dir="$1" file="$2" sub="${3:-cur}" info='' n=1 f epoch name
	[ $# -eq 2 ] || [ $# -eq 3 ] ||
		_arch_die "usage: maildir_add DIR FILE [new|cur]"
	case $sub in
	new) ;;
	cur) info=':2,S' ;;
	*) _arch_die "maildir_add: '$sub' is neither new nor cur" ;;
	esac
	_arch_readable maildir_add "$file"
	epoch=$(_arch_msgdate "$file") || exit 1
	epoch=${epoch%% *}
	mkdir -p "$dir/cur" "$dir/new" "$dir/tmp"
	for f in "$dir"/cur/* "$dir"/new/*; do
		if [ -e "$f" ]; then n=$((n + 1)); fi
	done
	# Counting can repeat a number after a removal: skip the names taken.
	while :; do
		name=$epoch.$n.localhost
		set -- "$dir/cur/$name:"*
		if [ ! -e "$dir/new/$name" ] && [ ! -e "$1" ]; then break; fi
		n=$((n + 1))
	done
	cp "$file" "$dir/tmp/$name"
	mv "$dir/tmp/$name" "$dir/$sub/$name$info"
}

# mbox_add MBOX FILE: see the top of this file.
mbox_add() {
	local date
	[ $# -eq 2 ] || _arch_die "usage: mbox_add MBOX FILE"
	_arch_readable mbox_add "$2"
	_arch_from "$2"
	date=$(_arch_msgdate "$2") || exit 1
	date=$(_arch_date ctime "${date%% *}") || exit 1
	{
		printf 'From %s %s\n' "$_arch_email" "$date"
		awk '/^>*From / { $0 = ">" $0 } { print } END { print "" }' "$2"
	} >>"$1"
}

# --- messages --------------------------------------------------------------

# mail_write FILE FROM DATE SUBJECT MSGID [IN_REPLY_TO [REFERENCES]]:
# see the top of this file.
mail_write() {
	local file="$1" from="$2" date="$3" subject="$4" msgid="$5"
	local irt="${6:-}" refs="${7:-}"
	[ $# -ge 5 ] && [ $# -le 7 ] || _arch_die "usage: mail_write FILE" \
		"FROM DATE SUBJECT MSGID [IN_REPLY_TO [REFERENCES]] <BODY"
	date=$(_arch_date rfc2822 "$date") || exit 1
	if [ -n "$refs" ]; then
		refs=$(printf '%s\n' "$refs" | awk '{
			for (i = 1; i <= NF; i++)
				printf "%s<%s>", (i > 1 ? " " : ""), $i
		}')
	fi
	{
		printf 'From: %s\n' "$from"
		printf 'Date: %s\n' "$date"
		printf 'Subject: %s\n' "$subject"
		printf 'Message-ID: <%s>\n' "$msgid"
		[ -z "$irt" ] || printf 'In-Reply-To: <%s>\n' "$irt"
		[ -z "$refs" ] || printf 'References: %s\n' "$refs"
		printf 'MIME-Version: 1.0\n'
		printf 'Content-Type: text/plain; charset=UTF-8\n'
		printf '\n'
		cat
	} >"$file"
}

# mail_patch [-C DIR] FILE COMMIT FROM DATE SUBJECT MSGID [IN_REPLY_TO
# [REFERENCES]]: see the top of this file.
mail_patch() {
	local dir=. file commit text
	if [ "${1:-}" = -C ]; then
		dir=$2
		shift 2
	fi
	[ $# -ge 6 ] && [ $# -le 8 ] || _arch_die "usage: mail_patch [-C DIR]" \
		"FILE COMMIT FROM DATE SUBJECT MSGID [IN_REPLY_TO [REFERENCES]]"
	file=$1
	commit=$2
	shift 2
	# format-patch prints headers, an empty line, the message body, "---",
	# the diffstat, the diff from its first "diff --git" line, and the
	# signature, "-- " and the git version: keep the body, the "---" and
	# the diff (up to the last "-- ", as a diff line may read "-- " too).
	text=$(git -C "$dir" format-patch --stdout -1 "$commit" | awk '
		state == 0 { if ($0 == "") state = 1; next }
		state == 1 { print; if ($0 == "---") state = 2; next }
		state == 2 && /^diff --git / { state = 3 }
		state == 3 { line[++n] = $0 }
		END {
			for (k = n; k > 0 && line[k] != "-- "; k--)
				;
			if (k == 0)
				exit 1
			for (i = 1; i < k; i++)
				print line[i]
		}') ||
		_arch_die "mail_patch: $dir: no patch for commit $commit"
	printf '%s\n-- \n2.39.2\n' "$text" | mail_write "$file" "$@"
}
