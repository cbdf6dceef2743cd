#!/bin/sh
# Hostile files where records and messages are read: a CVE record's
# .sha1 or .dyad, a message of a maildir, that is a symbolic link to
# /dev/zero (which grew to 24 GB), a FIFO (which hung), a symbolic link
# to a file of the user's (whose first line the error printed), or a
# file too large.  Only regular files are read; each one skipped is
# named, with what it is, never with what it holds, and the rest is
# read (issue 39).  timeout makes a reader that follows them again
# fail rather than hang.
. "$TEST_SRCDIR/tests/lib.sh"
. "$TEST_SRCDIR/tests/e2e/archive-lib.sh"

command -v timeout >/dev/null || skip "no timeout(1)"
command -v mkfifo >/dev/null || skip "no mkfifo(1)"
[ -c /dev/zero ] || skip "no /dev/zero"
STABLEPICK_NOW=1800000000
export STABLEPICK_NOW
# A reader that follows /dev/zero again must not take the machine's
# memory before the timeout: 2 GB of address space (AddressSanitizer
# reserves terabytes at start, so a sanitizer build gets a cap on any
# one allocation instead).
if grep -q __asan_init "$STABLEPICK" 2>/dev/null; then
	limit=unlimited
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}malloc_limit_mb=2048
	export ASAN_OPTIONS
else
	limit=2000000
fi
sp() {
	( ulimit -v $limit && exec timeout 30 "$STABLEPICK" "$@" )
}

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit fs/ext4/inode.c 'int ext4;' 'ext4: add the inode cache'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
test_fix fs/ext4/inode.c 'int ext4a;' 'ext4: fix a leak in the inode cache' \
	'Cc: stable@vger.kernel.org'
fix=$(git rev-parse HEAD)
test_fix fs/ext4/inode.c 'int ext4b;' 'ext4: fix a race in the inode cache' \
	'Cc: stable@vger.kernel.org'
fix2=$(git rev-parse HEAD)
echo 'SECRET-LINE-OF-THE-USER' >"$tmp/secret"

# --- the CVE records ----------------------------------------------------------

v=$tmp/vulns/cve/published/2024
mkdir -p "$v"
ln -s /dev/zero "$v/CVE-2024-0001.sha1"
mkfifo "$v/CVE-2024-0002.sha1"
ln -s "$tmp/secret" "$v/CVE-2024-0003.sha1"
echo "$fix" >"$v/CVE-2024-0004.sha1"
ln -s "$tmp/secret" "$v/CVE-2024-0004.dyad"
ln -s CVE-2024-0005.sha1 "$v/CVE-2024-0005.sha1"
awk -v id="$fix2" 'BEGIN { for (i = 0; i < 30000; i++) print id }' \
	>"$v/CVE-2024-0006.sha1"
echo "$fix2" >"$v/CVE-2024-0007.sha1"
mkfifo "$v/CVE-2024-0007.dyad"
mkdir "$v/CVE-2024-0008.sha1"
status=0
sp cves --branch linux-6.6.y --cve "$tmp/vulns" --all --format json \
	>"$tmp/out" 2>"$tmp/err" || status=$?
[ $status -ne 124 ] || fail "cves hangs on a FIFO or /dev/zero"
[ $status -eq 0 ] || fail "cves: status $status: $(cat "$tmp/err")"
cat >"$tmp/expect" <<EOF
warning: skipping '$v/CVE-2024-0001.sha1': a symbolic link, not a regular file
warning: skipping '$v/CVE-2024-0002.sha1': a FIFO, not a regular file
warning: skipping '$v/CVE-2024-0003.sha1': a symbolic link, not a regular file
warning: skipping '$v/CVE-2024-0004.dyad': a symbolic link, not a regular file; the record is read without it
warning: skipping '$v/CVE-2024-0005.sha1': a symbolic link that loops, not a regular file
warning: skipping '$v/CVE-2024-0006.sha1': larger than 1048576 bytes
warning: skipping '$v/CVE-2024-0007.dyad': a FIFO, not a regular file; the record is read without it
warning: skipping '$v/CVE-2024-0008.sha1': a directory, not a regular file
EOF
test_cmp "$tmp/expect" "$tmp/err"
jq -r '[.cve, .status] | @tsv' <"$tmp/out" >"$tmp/actual"
printf '%s\t%s\n' CVE-2024-0004 unfixed CVE-2024-0007 unfixed >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
! grep -q SECRET "$tmp/out" "$tmp/err" || fail "a skipped file's content shown"
ok "cves: records that are no regular files are skipped and named, the rest read"

# --- a maildir --------------------------------------------------------------

md=$tmp/maildir
mail_patch mail "$fix" 'A U Thor <author@example.com>' 1700000000 \
	'[PATCH] ext4: fix a leak in the inode cache' fix-1@example.com
maildir_add "$md" mail
ln -s /dev/zero "$md/cur/1700000001.zero.host:2,S"
ln -s "$tmp/secret" "$md/cur/1700000002.secret.host:2,S"
mkfifo "$md/new/1700000003.fifo.host"
for cache in --no-cache ''; do
	status=0
	# shellcheck disable=SC2086
	sp $cache propose --branch linux-6.6.y --archive "$md" --format json \
		>"$tmp/out" 2>"$tmp/err" || status=$?
	[ $status -ne 124 ] || fail "propose hangs on a maildir's FIFO or /dev/zero"
	[ $status -eq 0 ] || fail "propose: status $status: $(cat "$tmp/err")"
	cat >"$tmp/expect" <<EOF
warning: skipping '$md/cur/1700000001.zero.host:2,S': a symbolic link, not a regular file
warning: skipping '$md/cur/1700000002.secret.host:2,S': a symbolic link, not a regular file
warning: skipping '$md/new/1700000003.fifo.host': a FIFO, not a regular file
EOF
	test_cmp "$tmp/expect" "$tmp/err"
	jq -r 'select(.commit == "'"$fix"'") | .posted.message_id' \
		<"$tmp/out" >"$tmp/actual"
	echo 'fix-1@example.com' >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/actual"
	! grep -q SECRET "$tmp/out" "$tmp/err" ||
		fail "a skipped file's content shown"
done
ok "a maildir: messages that are no regular files are skipped and named, the rest read"


# A reply indexed by a run before, then made a symbolic link: reading
# it again is an error naming it, not what it points at.
mail_write reply 'Rhea Viewer <rhea@example.com>' 1700000100 \
	'Re: [PATCH] ext4: fix a leak in the inode cache' fix-1-re@example.com \
	fix-1@example.com fix-1@example.com <<'EOF2'
Looks good.

Reviewed-by: Rhea Viewer <rhea@example.com>
EOF2
maildir_add "$md" reply
sp propose --branch linux-6.6.y --archive "$md" --format json >"$tmp/out" \
	2>/dev/null || fail "propose with the reply"
jq -r 'select(.commit == "'"$fix"'") | .posted.replies[].message_id' \
	<"$tmp/out" >"$tmp/actual"
echo 'fix-1-re@example.com' >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
# (grep would wait on the FIFO: regular files only.)
re=$(find "$md" -type f -exec grep -l 'fix-1-re@example.com' {} +)
rm "$re"
ln -s "$tmp/secret" "$re"
status=0
sp propose --branch linux-6.6.y --archive "$md" --format json >"$tmp/out" \
	2>"$tmp/err" || status=$?
[ $status -eq 1 ] || fail "a reply made a symbolic link: status $status"
grep -qxF "error: cannot read message <fix-1-re@example.com> of '$re': a symbolic link, not a regular file" \
	"$tmp/err" || fail "a reply made a symbolic link: $(cat "$tmp/err")"
! grep -q SECRET "$tmp/out" "$tmp/err" || fail "a skipped file's content shown"
ok "a maildir: a message made a symbolic link since it was indexed is an error naming it"
