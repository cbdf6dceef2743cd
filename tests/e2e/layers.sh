#!/bin/sh
# The layers of src/ (HACKING): every #include "x.h" of a file names a
# header of its own layer or of one below, never above.  A file that
# is in no layer fails too, so that a new file is given its place.
. "$TEST_SRCDIR/tests/lib.sh"

cat >"$tmp/layers" <<'LAYERS'
0 base        ascii cachefile error heap json lockfile paths progress sha1 strbuf trace util
1 readers     apply archive archive-mbox archive-ops archive-pi commitgraph config cve history history-walk ledger ledger-internal ledger-notes mail malformed mbox mbox-internal mbox-mime message message-internal message-tags patchid patchid-attr patchid-cache patchid-diff patchid-pool patchid-rename rules rules-internal rules-parse scancache soak state testannot testannot-fstests testannot-internal testannot-ltp testannot-shlex testresult treediff trialcache
2 candidate   candidate
3 stages      audit blame branch checks deps eval match match-files match-internal match-mainline posted review revlist ruletest scan scan-fixes scan-internal scan-paths scan-refs score
4 run         cverun memo multirun picks resultrun run testrun vendordiff
5 report      report report-audit report-cves report-diff report-eval report-json report-matrix report-failed report-html report-ledger report-mail report-results report-review report-rules report-ruletest report-tests
6 cli         cli/* main
LAYERS

# layer NAME: the layer of src/NAME.[ch] (NAME "cli/x" for src/cli/x).
layer() {
	awk -v f="$1" '{
		for (i = 3; i <= NF; i++)
			if ($i == f || ($i == "cli/*" && f ~ /^cli\//)) { print $1; exit }
	}' "$tmp/layers"
}

cd "$TEST_SRCDIR/src"
bad=0
for file in *.c *.h cli/*.c cli/*.h; do
	name=${file%.[ch]}
	[ "$name" = paths ] && continue	# generated in the build tree
	mine=$(layer "$name")
	if [ -z "$mine" ]; then
		echo "FAIL: src/$file is in no layer: add it to tests/e2e/layers.sh and HACKING"
		bad=1
		continue
	fi
	for inc in $(sed -n 's/^#include "\([a-z0-9_/-]*\)\.h".*/\1/p' "$file"); do
		case $file in cli/*) [ -f "cli/$inc.h" ] && inc=cli/$inc ;; esac
		theirs=$(layer "$inc")
		if [ -z "$theirs" ]; then
			echo "FAIL: src/$file includes $inc.h, which is in no layer"
			bad=1
		elif [ "$theirs" -gt "$mine" ]; then
			echo "FAIL: src/$file (layer $mine) includes $inc.h (layer $theirs, above it)"
			bad=1
		fi
	done
done
[ "$bad" -eq 0 ] || exit 1
ok "every file includes only its own layer and those below"
