#!/bin/sh
# The layers of src/ (HACKING): each folder of src/ is a layer, and a
# file includes headers of its own folder or of a folder below, never
# above.  A file outside every folder, or in a folder that is no layer,
# fails too, so that a new file is placed by where it is put.  The
# check runs on the real tree, then on a copy with one wrong include
# and one stray file, which it must refuse.
. "$TEST_SRCDIR/tests/lib.sh"

cat >"$tmp/layers" <<'LAYERS'
0 base
1 store
2 git
3 formats
4 candidate
5 stages
6 run
7 report
8 cli
LAYERS

# layer FOLDER: the layer of src/FOLDER/, or nothing.
layer() {
	awk -v f="$1" '$2 == f { print $1; exit }' "$tmp/layers"
}

# check_layers SRC: prints a FAIL line for every file out of place and
# every include that climbs; exits 1 if there was any.
check_layers() (
	cd "$1" || exit 2
	bad=0
	for file in *; do
		[ -f "$file" ] || continue
		echo "FAIL: src/$file is in no folder: put it in the folder of its layer"
		bad=1
	done
	for file in */*.c */*.h; do
		dir=${file%%/*}
		[ "$file" = base/paths.h ] && continue	# generated, in-tree build
		mine=$(layer "$dir")
		if [ -z "$mine" ]; then
			echo "FAIL: src/$file: src/$dir/ is no layer: add it to tests/e2e/layers.sh and HACKING"
			bad=1
			continue
		fi
		for inc in $(sed -n 's/^#include "\([a-z0-9_/-]*\)\.h".*/\1/p' "$file"); do
			case $inc in
			*/*) ;;
			*)	inc=$dir/$inc ;;	# a bare name: the includer's folder
			esac
			theirs=$(layer "${inc%%/*}")
			if [ -z "$theirs" ] || { [ ! -f "$inc.h" ] && [ "$inc" != base/paths ]; }; then
				echo "FAIL: src/$file includes $inc.h, which is in no layer"
				bad=1
			elif [ "$theirs" -gt "$mine" ]; then
				echo "FAIL: src/$file (layer $mine, $dir) includes $inc.h (layer $theirs, above it)"
				bad=1
			fi
		done
	done
	exit $bad
)

check_layers "$TEST_SRCDIR/src" >"$tmp/out" ||
	{ cat "$tmp/out"; fail "src/ breaks its layers"; }
ok "every file is in a layer's folder and includes only its own layer and those below"

# The check itself: a copy of src/ with a base file that includes a
# report header and a file outside every folder must fail, naming both.
cp -R "$TEST_SRCDIR/src" "$tmp/src"
chmod -R u+w "$tmp/src"
printf '#include "report/report.h"\n' >>"$tmp/src/base/util.c"
printf 'int stray;\n' >"$tmp/src/stray.c"
mkdir "$tmp/src/misc" && printf 'int misc;\n' >"$tmp/src/misc/misc.c"
if check_layers "$tmp/src" >"$tmp/out"; then
	fail "a climbing include and stray files passed the check"
fi
cat >"$tmp/expect" <<'EOF'
FAIL: src/stray.c is in no folder: put it in the folder of its layer
FAIL: src/base/util.c (layer 0, base) includes report/report.h (layer 7, above it)
FAIL: src/misc/misc.c: src/misc/ is no layer: add it to tests/e2e/layers.sh and HACKING
EOF
test_cmp "$tmp/expect" "$tmp/out"
ok "the check refuses an include that climbs and a file outside the layers"
