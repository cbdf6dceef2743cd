#!/bin/sh
# The documentation says what the code does, and the versions agree:
#
#   - stablepick --version is configure.ac's version, the first heading
#     of NEWS, debian/changelog's and the manual pages' footers;
#   - the manual pages render without a warning (groff, man -l);
#   - every option of a command's option table is in its usage string,
#     and every option of a usage string in the command's section of
#     stablepick(1) (the global ones of --help too);
#   - every git-config key and environment variable the code reads is
#     in stablepick(1), every directive, field and fact of the rule
#     language in stablepick-rules(5).
. "$TEST_SRCDIR/tests/lib.sh"

src=$TEST_SRCDIR
man1=$src/doc/stablepick.1
man5=$src/doc/stablepick-rules.5
# bad MSG: one failure, the test goes on.  passed MSG: "ok - MSG" when
# nothing failed since the last passed.
nfail=0
before=0
bad() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
}
passed() {
	[ "$nfail" -ne "$before" ] || ok "$1"
	before=$nfail
}

# --- versions ---------------------------------------------------------------
version=$(sed -n 's/^AC_INIT(\[stablepick\], \[\([^]]*\)\].*/\1/p' "$src/configure.ac")
[ -n "$version" ] || fail "no version in configure.ac's AC_INIT"
got=$("$STABLEPICK" --version)
[ "$got" = "stablepick $version" ] ||
	bad "--version says '$got', configure.ac $version"
news=$(sed -n '1s/^stablepick \([^ ]*\)\( .*\)\{0,1\}$/\1/p' "$src/NEWS")
[ "$news" = "$version" ] || bad "NEWS begins with '$news', not $version"
sed -n 2p "$src/NEWS" | grep -q '^==*$' || bad "NEWS: no === under the heading"
deb=$(sed -n '1s/^stablepick (\([^)]*\)).*/\1/p' "$src/debian/changelog")
[ "$deb" = "$version" ] || bad "debian/changelog is at '$deb', not $version"
for page in "$man1" "$man5"; do
	grep -q "^\\.TH [A-Z-]* [15] \"[0-9-]*\" \"stablepick $version\"" "$page" ||
		bad "$(basename "$page"): .TH does not name stablepick $version"
done
passed "version $version everywhere"

# --- the pages render -------------------------------------------------------
if command -v groff >/dev/null 2>&1; then
	for page in "$man1" "$man5"; do
		groff -man -ww -z -Tutf8 "$page" >"$tmp/groff" 2>&1 ||
			bad "groff fails on $page"
		[ ! -s "$tmp/groff" ] || { cat "$tmp/groff"; bad "groff warns on $page"; }
	done
	passed "groff -ww: no warning"
else
	echo "# groff is not installed: not rendered"
fi
if command -v man >/dev/null 2>&1; then
	for page in "$man1" "$man5"; do
		MANWIDTH=80 man -l "$page" >"$tmp/man" 2>"$tmp/man.err" ||
			bad "man -l $page fails"
		grep -q '^NAME' "$tmp/man" || bad "man -l $page: no NAME"
	done
	passed "man -l renders both pages"
fi

# --- options: option tables, usage strings, stablepick(1) -------------------
# The section of stablepick(1) from a heading to the next one.
section() {
	awk -v h="$1" '$0 == h { on = 1; next } on && /^\.S[HS] / { exit } on' "$man1"
}
# has_entry OPTION FILE: a .TP entry of FILE (its tag line) is OPTION,
# alone or with its value ("\-\-format text", "\-m, \-\-message").
has_entry() {
	awk 'prev ~ /^\.TP/ { print } { prev = $0 }' "$2" |
		sed 's/^\.[BIR]* //; s/"//g; s/\\f[BIRP]//g; s/,//g' |
		tr ' ' '\n' | grep -qx -- "$(printf '%s' "$1" | sed 's/-/\\\\-/g')"
}

"$STABLEPICK" --help >"$tmp/help"
commands=$(sed -n '/^Commands:/,/^$/p' "$tmp/help" | awk 'NR > 1 && NF { print $1 }')
[ -n "$commands" ] || fail "no commands in --help"
for cmd in $commands; do
	"$STABLEPICK" "$cmd" --help >"$tmp/help-$cmd"
	# The synopsis (up to the blank line), then a line per option.
	sed '/^$/q' "$tmp/help-$cmd" >"$tmp/usage"
	# rules, ledger: the options are their subcommands'.
	[ "$cmd" != rules ] || for sub in check init list test; do
		"$STABLEPICK" rules "$sub" --help
	done >>"$tmp/help-$cmd"
	[ "$cmd" != ledger ] || "$STABLEPICK" ledger sync --help >>"$tmp/help-$cmd"
	grep -oE -- '--[a-z][a-z-]*' "$tmp/usage" | LC_ALL=C sort -u >"$tmp/usage-opts"
	sed -n 's/^    \(-[a-z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p' "$tmp/help-$cmd" |
		grep -v '^--help$' | LC_ALL=C sort -u >"$tmp/table-opts"
	grep -q -- '^    -h, --help  *show this help$' "$tmp/help-$cmd" ||
		bad "$cmd --help does not list -h, --help"
	missing=$(LC_ALL=C comm -23 "$tmp/table-opts" "$tmp/usage-opts")
	[ -z "$missing" ] || bad "$cmd: the usage string lacks" $missing
	unlisted=$(LC_ALL=C comm -13 "$tmp/table-opts" "$tmp/usage-opts")
	[ -z "$unlisted" ] || bad "$cmd: --help has no line for" $unlisted

	case $cmd in
	rules) heads=".SS rules check
.SS rules init
.SS rules list
.SS rules test" ;;
	ledger) heads=".SS ledger sync" ;;
	*) heads=".SS $cmd" ;;
	esac
	: >"$tmp/section"
	echo "$heads" | while IFS= read -r h; do section "$h"; done >"$tmp/section"
	[ -s "$tmp/section" ] || { bad "stablepick(1) has no section for $cmd"; continue; }
	for opt in $(cat "$tmp/usage-opts"); do
		has_entry "$opt" "$tmp/section" ||
			bad "stablepick(1), $cmd: $opt has no entry"
	done
	# The synopsis names the command.
	grep -q "^\\.SY \"stablepick $(echo "$cmd" | sed 's/-/\\\\-/g')" "$man1" ||
		bad "stablepick(1): $cmd is not in the SYNOPSIS"
done
section ".SH GLOBAL OPTIONS" >"$tmp/section"
for opt in $(sed -n '/^Options:/,/^$/p' "$tmp/help" | grep -oE -- '(^|[ ,])-(-[a-z][a-z-]*|[A-Za-z])' | tr -d ' ,'); do
	has_entry "$opt" "$tmp/section" ||
		bad "stablepick(1), GLOBAL OPTIONS: $opt has no entry"
done
passed "option tables, usage strings and stablepick(1) agree"

# --- configuration and environment ------------------------------------------
section ".SH CONFIGURATION" >"$tmp/config"
keys=$(grep -ohE '"stablepick\.[a-z]+"' "$src"/src/*/*.c | tr -d '"' | sort -u)
[ -n "$keys" ] || bad "no configuration key found in src/"
for key in $keys; do
	grep -q "^\\.B $key\$" "$tmp/config" ||
		bad "stablepick(1), CONFIGURATION: $key is not described"
done
for key in $(grep -ohE 'config_branch_get\([^)]*"[a-z]+"\)' "$src"/src/*/*.c |
	     sed 's/.*"\([a-z]*\)")$/\1/' | sort -u); do
	grep -q "^\\.BI stablepick\\. branch \\.$key\$" "$tmp/config" ||
		bad "stablepick(1), CONFIGURATION: stablepick.<branch>.$key is not described"
done
section ".SH ENVIRONMENT" >"$tmp/env"
for var in $(grep -ohE 'getenv\("STABLEPICK_[A-Z_]+"\)' "$src"/src/*/*.c |
	     sed 's/getenv("\(.*\)")/\1/' | sort -u); do
	grep -q "^\\.B $var\$" "$tmp/env" ||
		bad "stablepick(1), ENVIRONMENT: $var is not described"
done
passed "every configuration key and environment variable is described"

# --- the rule language --------------------------------------------------------
awk '/^\.SH DIRECTIVES/ { on = 1; next } on && /^\.SH / { exit } on' "$man5" >"$tmp/directives"
words=$(sed -n '/directives\[\] = {/,/};/s/^[	 ]*{ "\([a-z]*\)", parse_.*/\1/p' "$src/src/formats/rules-parse.c")
[ -n "$words" ] || bad "no directive table in src/formats/rules-parse.c"
for d in rule veto $words; do
	awk 'prev == ".TP" { print } { prev = $0 }' "$tmp/directives" |
		grep -qE "^\\.(B|BI|BR) $d( |\$)" ||
		bad "stablepick-rules(5): directive '$d' has no entry"
done
awk '/^\.SH FIELDS/ { on = 1; next } on && /^\.SH / { exit } on' "$man5" >"$tmp/fields"
fields=$(sed -n '/fields\[\] = {/,/};/s/^[	 ]*{ "\([a-z]*\)", FIELD_.*/\1/p' "$src/src/formats/rules-parse.c")
[ -n "$fields" ] || bad "no field table in src/formats/rules-parse.c"
for f in $fields; do
	grep -q "^\\.B $f\$" "$tmp/fields" || bad "stablepick-rules(5): field '$f' has no entry"
done
grep -q '^\.BI trailer: KEY$' "$tmp/fields" || bad "stablepick-rules(5): no trailer:KEY"
facts=$(sed -n '/fact_names\[FACT__NR\] = {/,/};/s/.*\] = "\([a-z-]*\)",$/\1/p' "$src/src/formats/rules.c")
[ -n "$facts" ] || bad "no fact table in src/formats/rules.c"
for fact in $facts; do
	roff=$(printf '%s' "$fact" | sed 's/-/\\\\-/g')
	grep -q "^\\.B $roff\$" "$tmp/fields" ||
		bad "stablepick-rules(5): fact '$fact' has no entry"
done
passed "every directive, field and fact of src/formats/rules-parse.c and src/formats/rules.c is in stablepick-rules(5)"

[ "$nfail" -eq 0 ] || exit 1
