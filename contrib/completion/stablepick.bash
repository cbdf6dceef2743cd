# bash completion for stablepick(1)
#
# Installed as bash-completion/completions/stablepick, where
# bash-completion loads it on first use; or source it from ~/.bashrc.
# Plain bash: nothing of bash-completion's library is needed.
#
# Completes the global options, the commands, each command's options
# (as its usage string lists them: tests/e2e/completion.sh keeps the two
# in step), the values of --format, --status and --class, branches and
# revisions from the repository (-C DIR) with git for-each-ref, and the
# subsystem names of the loaded rules (stablepick rules list).

# The options a word of the command line takes a value for.
__stablepick_takes_value()
{
	case $1 in
	-C|--cache|--config|--rules|\
	--against|--archive|--baseline|--baseline-kernel|--branch|--class|--cve|--format|\
	--fstests|--fstyp|--in-reply-to|--jobs|--kernel|--limit|\
	--label|--ltp|--mbox|--message|-m|--output|--paths|--picks|--queue|--range|--ref|--since|\
	--status|--subsystem|--tests-from|--until|--upstream)
		return 0 ;;
	esac
	return 1
}

# __stablepick_options COMMAND [SUBCOMMAND]: the options, sorted.
__stablepick_options()
{
	case $1 in
	'')       echo "-C --cache --config --help --no-cache --rules --version" ;;
	acks)     echo "--archive --branch --dry-run --help --upstream" ;;
	audit)    echo "--archive --branch --format --help --in-reply-to --mbox --picks --queue --range --upstream" ;;
	cves)     echo "--all --branch --cve --format --help --upstream" ;;
	diff)     echo "--against --branch --cve --format --help --subsystem --upstream" ;;
	eval)     echo "--ablation --branch --false-picks --format --help --misses --range --subsystem --threshold-sweep --upstream" ;;
	explain)  echo "--archive --branch --help --upstream" ;;
	ledger)
		case $2 in
		sync) echo "--help --ref" ;;
		*)    echo "--help" ;;
		esac ;;
	mark)     echo "--branch --help --list --message --until" ;;
	patch-id) echo "--help --jobs" ;;
	propose)  echo "--all --archive --branch --cve --format --help --in-reply-to --limit --range --since --subsystem --tests-from --upstream" ;;
	queue)    echo "--archive --branch --format --help --output --range --signoff --upstream" ;;
	results)  echo "--baseline --baseline-kernel --branch --class --config --format --fstests --fstyp --help --kernel --ltp --output --upstream" ;;
	rules)
		case $2 in
		check) echo "--branch --help --range --upstream" ;;
		init) echo "--branch --help --paths --range --upstream" ;;
		list) echo "--help --upstream" ;;
		test) echo "--format --help --label --messages --threshold-sweep" ;;
		*)    echo "--help" ;;
		esac ;;
	tests)    echo "--branch --format --fstests --fstyp --help --ltp --output --status --upstream" ;;
	esac
}

# __stablepick_formats COMMAND: what its --format takes.
__stablepick_formats()
{
	case $1 in
	audit)   echo "text json email" ;;
	cves)    echo "text json html" ;;
	diff)    echo "text json html" ;;
	eval)    echo "text json" ;;
	propose) echo "text json email mbox review checklist failed html" ;;
	queue)   echo "mbox quilt" ;;
	results) echo "text json exclude" ;;
	rules)   echo "text json" ;;
	tests)   echo "text json exclude" ;;
	esac
}

__stablepick_commands="acks audit cves diff eval explain ledger mark patch-id propose queue results rules tests"

# __stablepick_refs heads|revs|notes: branch names (local and remote),
# every ref and HEAD, or the notes refs, of the repository the command
# line names.
__stablepick_refs()
{
	if [ "$1" = notes ]; then
		git ${__stablepick_dir:+-C "$__stablepick_dir"} for-each-ref \
			--format='%(refname)' refs/notes 2>/dev/null
		return
	fi
	local -a where=(refs/heads refs/remotes)

	[ "$1" = revs ] && where+=(refs/tags) && echo HEAD
	git ${__stablepick_dir:+-C "$__stablepick_dir"} for-each-ref \
		--format='%(refname:short)' "${where[@]}" 2>/dev/null
}

# The subsystem names of the rules the command line would load.
__stablepick_subsystems()
{
	"$__stablepick_prog" ${__stablepick_dir:+-C "$__stablepick_dir"} \
		${__stablepick_config:+--config "$__stablepick_config"} \
		${__stablepick_rules:+--rules "$__stablepick_rules"} \
		rules list ${__stablepick_upstream:+--upstream "$__stablepick_upstream"} \
		2>/dev/null
}

# __stablepick_words LIST CUR: COMPREPLY from a list of words.
__stablepick_words()
{
	mapfile -t COMPREPLY < <(compgen -W "$1" -- "$2")
}

# __stablepick_comma_list LIST CUR: one more word of a comma-separated
# list, without those already given.
__stablepick_comma_list()
{
	local cur=$2 pfx= w left=

	case $cur in
	*,*) pfx=${cur%,*},; cur=${cur##*,} ;;
	esac
	for w in $1; do
		case ",$pfx" in
		*",$w,"*) ;;
		*) left="$left $w" ;;
		esac
	done
	mapfile -t COMPREPLY < <(compgen -P "$pfx" -W "$left" -- "$cur")
}

# __stablepick_revs CUR: a revision, or the end of a range A..B, A...B.
__stablepick_revs()
{
	local cur=$1 pfx=

	case $cur in
	*...*) pfx=${cur%%...*}...; cur=${cur#*...} ;;
	*..*) pfx=${cur%%..*}..; cur=${cur#*..} ;;
	esac
	mapfile -t COMPREPLY < <(compgen -P "$pfx" -W "$(__stablepick_refs revs)" -- "$cur")
}

__stablepick_files()
{
	compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen "$1" -- "$2")
}

# __stablepick_value OPTION COMMAND CUR: the values of an option.
__stablepick_value()
{
	local opt=$1 cmd=$2 cur=$3

	case $opt in
	-C|--cache|--cve|--fstests|--ltp|--queue|--rules|--tests-from)
		__stablepick_files -d "$cur" ;;
	--config)
		# results --config NAME names a config of the results.
		if [ "$cmd" = results ]; then
			COMPREPLY=()
		else
			__stablepick_files -f "$cur"
		fi ;;
	--archive|--output)
		__stablepick_files -f "$cur" ;;
	--baseline)
		__stablepick_files -f "$cur" ;;
	--mbox|--picks)
		__stablepick_files -f "$cur"
		[ "$cur" = - ] && COMPREPLY+=(-) ;;
	--branch)
		__stablepick_words "$(__stablepick_refs heads)" "$cur" ;;
	--against|--baseline-kernel|--kernel|--upstream)
		__stablepick_words "$(__stablepick_refs revs)" "$cur" ;;
	--range)
		__stablepick_revs "$cur" ;;
	--ref)
		__stablepick_words "$(__stablepick_refs notes)" "$cur" ;;
	--since)
		__stablepick_revs "$cur"
		[[ last == "$cur"* ]] && COMPREPLY=(last "${COMPREPLY[@]}") ;;
	--format)
		__stablepick_words "$(__stablepick_formats "$cmd")" "$cur" ;;
	--subsystem)
		__stablepick_comma_list "$(__stablepick_subsystems)" "$cur" ;;
	--status)
		__stablepick_comma_list "expected-fail expected-pass unknown" "$cur" ;;
	--class)
		__stablepick_comma_list "baseline missing-fix fix-present new unexplained unexpected-pass" "$cur" ;;
	*)
		COMPREPLY=() ;;
	esac
}

_stablepick()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev= opt= pfx=
	local cmd= sub= w val i=1 npos=0
	local __stablepick_dir= __stablepick_config= __stablepick_rules=
	local __stablepick_upstream= __stablepick_prog=${COMP_WORDS[0]}

	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
	__stablepick_prog=${__stablepick_prog/#\~/$HOME}

	# What the words before the cursor say: the repository, the rules,
	# the command and how many arguments it has so far.  With '=' in
	# COMP_WORDBREAKS, "--format=json" comes as "--format" "=" "json".
	while [ "$i" -lt "$COMP_CWORD" ]; do
		w=${COMP_WORDS[i]}
		val=
		case $w in
		--*=*)
			val=${w#*=}; w=${w%%=*} ;;
		*)
			if __stablepick_takes_value "$w"; then
				if [ "${COMP_WORDS[i+1]}" = = ]; then
					i=$((i + 2))
				else
					i=$((i + 1))
				fi
				[ "$i" -lt "$COMP_CWORD" ] || break
				val=${COMP_WORDS[i]}
			elif [ "${w#-}" = "$w" ]; then
				if [ -z "$cmd" ]; then
					cmd=$w
				elif { [ "$cmd" = rules ] || [ "$cmd" = ledger ]; } &&
				     [ -z "$sub" ]; then
					sub=$w
				else
					npos=$((npos + 1))
				fi
			fi ;;
		esac
		case $w in
		-C) __stablepick_dir=${val/#\~/$HOME} ;;
		--config) __stablepick_config=${val/#\~/$HOME} ;;
		--rules) __stablepick_rules=${val/#\~/$HOME} ;;
		--upstream) __stablepick_upstream=$val ;;
		esac
		i=$((i + 1))
	done

	# The value of an option: "--opt VALUE", "--opt=VALUE".
	if [ "$cur" = = ] && __stablepick_takes_value "$prev"; then
		opt=$prev; cur=
	elif [ "$prev" = = ] && [ "$COMP_CWORD" -gt 1 ] &&
	     __stablepick_takes_value "${COMP_WORDS[COMP_CWORD-2]}"; then
		opt=${COMP_WORDS[COMP_CWORD-2]}
	elif [[ $cur == --*=* ]]; then
		opt=${cur%%=*}; pfx=$opt=; cur=${cur#*=}
	elif [ "$COMP_CWORD" -gt 1 ] && __stablepick_takes_value "$prev"; then
		opt=$prev
	fi
	if [ -n "$opt" ]; then
		__stablepick_value "$opt" "$cmd" "$cur"
		[ -n "$pfx" ] && [ "${#COMPREPLY[@]}" -gt 0 ] &&
			COMPREPLY=("${COMPREPLY[@]/#/$pfx}")
		return 0
	fi

	if [ -z "$cmd" ]; then
		case $cur in
		-*) __stablepick_words "$(__stablepick_options '')" "$cur" ;;
		*) __stablepick_words "$__stablepick_commands" "$cur" ;;
		esac
		return 0
	fi
	case $cur in
	-*)
		__stablepick_words "$(__stablepick_options "$cmd" "$sub")" "$cur"
		return 0 ;;
	esac
	case $cmd in
	rules)
		case $sub in
		'') __stablepick_words "check init list test" "$cur" ;;
		check|test) __stablepick_files -f "$cur" ;;
		init) __stablepick_files -d "$cur" ;;
		*) COMPREPLY=() ;;
		esac ;;
	ledger)
		case $sub in
		'') __stablepick_words "sync" "$cur" ;;
		*) COMPREPLY=() ;;
		esac ;;
	explain|patch-id)
		__stablepick_revs "$cur" ;;
	results)
		# The results of a run: files and directories.
		__stablepick_files -f "$cur" ;;
	mark)
		__stablepick_revs "$cur"
		if [ "$npos" -gt 0 ]; then
			local -a revs=("${COMPREPLY[@]}")
			__stablepick_words "accepted deferred rejected" "$cur"
			COMPREPLY+=("${revs[@]}")
		fi ;;
	*)
		# No arguments but options.
		__stablepick_words "$(__stablepick_options "$cmd")" "$cur" ;;
	esac
	return 0
}

complete -F _stablepick stablepick
