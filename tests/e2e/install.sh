#!/bin/sh
# make install and make uninstall, for real: the distributed sources
# (make distdir) are configured with --prefix in a scratch directory,
# built and installed; the installed program, run from a repository
# outside the source tree without STABLEPICK_DATADIR, loads the rules
# installed under $prefix/share/stablepick/rules (and the program left
# in the build tree the source tree's); the manual pages and the bash
# completion are installed; DESTDIR stages the same files; make
# uninstall leaves no file behind; configured again with another
# prefix, the build tree installs a program that reads the new prefix's
# rules.
#
# About 30 s on two cores.  STABLEPICK_SKIP_INSTALL_TEST=1 skips it.
. "$TEST_SRCDIR/tests/lib.sh"
. "$TEST_SRCDIR/tests/e2e/fixture.sh"

[ "${STABLEPICK_SKIP_INSTALL_TEST:-0}" = 1 ] &&
	skip "STABLEPICK_SKIP_INSTALL_TEST=1"
[ -f "$TEST_BUILDDIR/Makefile" ] || skip "no Makefile in '$TEST_BUILDDIR'"
command -v make >/dev/null 2>&1 || skip "make is not installed"

# A make of its own, not a part of the make check that runs this test.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES DESTDIR STABLEPICK_DATADIR
jobs=$(nproc 2>/dev/null || echo 2)

src=$tmp/src
pfx=$tmp/prefix
make -s -C "$TEST_BUILDDIR" distdir distdir="$src" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "make distdir"; }
(
	cd "$src" &&
	./configure -q --prefix="$pfx" &&
	make -s -j"$jobs" &&
	make -s install
) >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "configure, make, make install"; }
ok "configure --prefix, make, make install"

# What make install puts where.
(cd "$pfx" && find . -type f | LC_ALL=C sort) >"$tmp/actual"
cat >"$tmp/expect" <<'EOF'
./bin/stablepick
./share/bash-completion/completions/stablepick
./share/man/man1/stablepick.1
./share/man/man5/stablepick-rules.5
./share/stablepick/data/make-demo-history
./share/stablepick/rules/README
./share/stablepick/rules/btrfs.rules
./share/stablepick/rules/default.rules
./share/stablepick/rules/ext4.rules
./share/stablepick/rules/iomap.rules
./share/stablepick/rules/netfs.rules
./share/stablepick/rules/smb.rules
./share/stablepick/rules/xfs.rules
EOF
test_cmp "$tmp/expect" "$tmp/actual"
cmp -s "$TEST_SRCDIR/contrib/completion/stablepick.bash" \
	"$pfx/share/bash-completion/completions/stablepick" ||
	fail "the installed completion differs from contrib/completion/stablepick.bash"
ok "installed files"

# The installed program, from a repository elsewhere: the installed rules.
make_fixture "$tmp/repo"
cd "$tmp/repo"
version=$("$STABLEPICK" --version)
[ "$("$pfx/bin/stablepick" --version)" = "$version" ] ||
	fail "the installed program is not $version"
"$pfx/bin/stablepick" rules check >"$tmp/actual"
for f in default btrfs ext4 iomap netfs smb xfs; do
	grep -q "^$pfx/share/stablepick/rules/$f\\.rules: ok (" "$tmp/actual" ||
		{ cat "$tmp/actual"; fail "the installed program did not load $pfx/share/stablepick/rules/$f.rules"; }
done
[ "$(wc -l <"$tmp/actual")" -eq 7 ] || { cat "$tmp/actual"; fail "rules check: not 7 files"; }
"$pfx/bin/stablepick" --no-cache propose --branch linux-6.6.y >"$tmp/actual"
STABLEPICK_DATADIR=$TEST_SRCDIR "$STABLEPICK" --no-cache propose \
	--branch linux-6.6.y >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
ok "the installed program loads the installed rules"

# The program left in the build tree: the source tree's rules.
"$src/stablepick" rules check >"$tmp/actual"
grep -q "^$src/rules/default\\.rules: ok (" "$tmp/actual" ||
	{ cat "$tmp/actual"; fail "the uninstalled program did not load $src/rules"; }
ok "the uninstalled program loads the source tree's rules"

if command -v man >/dev/null 2>&1; then
	for page in man1/stablepick.1 man5/stablepick-rules.5; do
		MANWIDTH=80 man -l "$pfx/share/man/$page" >"$tmp/man" 2>/dev/null ||
			fail "man -l $page"
		grep -q '^NAME' "$tmp/man" || fail "man -l $page: no NAME"
	done
	ok "the installed manual pages render"
fi
if command -v bash >/dev/null 2>&1; then
	got=$(bash --norc --noprofile -c \
		". '$pfx/share/bash-completion/completions/stablepick' && complete -p stablepick")
	[ "$got" = "complete -F _stablepick stablepick" ] ||
		fail "installed completion: '$got'"
	ok "the installed completion registers"
fi

# DESTDIR: the same files, staged.
(cd "$src" && make -s install DESTDIR="$tmp/stage") >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "make install DESTDIR"; }
(cd "$tmp/stage$pfx" && find . -type f | LC_ALL=C sort) >"$tmp/staged"
(cd "$pfx" && find . -type f | LC_ALL=C sort) >"$tmp/installed"
test_cmp "$tmp/installed" "$tmp/staged"
[ -z "$(cd "$tmp/stage" && find . -type f ! -path ".$pfx/*")" ] ||
	fail "make install DESTDIR wrote outside DESTDIR$pfx"
ok "make install DESTDIR stages the same files"

# make uninstall, both ways: nothing left.
(cd "$src" && make -s uninstall DESTDIR="$tmp/stage" && make -s uninstall) \
	>"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make uninstall"; }
left=$(find "$pfx" "$tmp/stage" -type f)
[ -z "$left" ] || fail "make uninstall left: $left"
ok "make uninstall removes every file"

# Configured again with another prefix, in the same build tree: make
# rebuilds what reads the paths, and the program installed there reads
# the rules installed there.
pfx2=$tmp/prefix2
(
	cd "$src" &&
	./configure -q --prefix="$pfx2" &&
	make -s -j"$jobs" &&
	make -s install
) >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "configure --prefix again, make install"; }
(cd "$tmp/repo" && "$pfx2/bin/stablepick" rules check) >"$tmp/actual"
grep -q "^$pfx2/share/stablepick/rules/default\\.rules: ok (" "$tmp/actual" ||
	{ cat "$tmp/actual"; fail "after another configure --prefix, the program reads another prefix's rules"; }
ok "configure with another --prefix: the new program reads the new rules"
