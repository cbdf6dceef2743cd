#!/bin/sh
# stablepick.commitUrl becomes the href of every commit id on the HTML
# pages: only an http or https address is taken.  Any other scheme
# (javascript:, data:) would put a script on pages that promise none
# (issue 39); a bad value is an error naming the setting and the file
# it was set in, whatever the command.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit fs/ext4/inode.c 'int ext4;' 'Initial commit'
test_commit Makefile 'VERSION = 6.6' 'Linux 6.6'
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y
test_fix fs/ext4/a.c 'int a;' 'ext4: fix a leak' 'Cc: stable@vger.kernel.org'
fix=$(git rev-parse HEAD)
mkdir -p "$tmp/vulns/cve/published/2024"
echo "$fix" >"$tmp/vulns/cve/published/2024/CVE-2024-1234.sha1"

pages() {	# pages: both pages that link commits, into $tmp/out
	"$STABLEPICK" cves --branch linux-6.6.y --cve "$tmp/vulns" \
		--format html >"$tmp/out" &&
	"$STABLEPICK" propose --branch linux-6.6.y --format html >>"$tmp/out"
}
# refused VALUE WHERE: the value is an error naming the setting and
# WHERE, nothing is written and the status is 1.
refused() {
	local status=0
	pages 2>"$tmp/err" || status=$?
	[ $status -eq 1 ] || fail "commitUrl '$1': status $status"
	echo "error: bad value '$1' of stablepick.commitUrl (in $2): expected an http:// or https:// address, %H for the commit id, without blanks" >"$tmp/expect"
	test_cmp "$tmp/expect" "$tmp/err"
	[ ! -s "$tmp/out" ] || fail "commitUrl '$1': a page was written"
}

for url in 'javascript:alert(document.domain)//%H' \
	'JavaScript:alert(1)//https://x/%H' 'data:text/html,<b>%H</b>' \
	'//evil.example.org/%H' 'ftp://example.org/%H' \
	' https://example.org/%H' "$(printf 'java\tscript:alert(1)//%%H')"; do
	git config stablepick.commitUrl "$url"
	refused "$url" "'$repo/.git/config'"
done
ok "a commitUrl that is not http or https: an error naming the file"

git config --unset stablepick.commitUrl
git config --global stablepick.commitUrl 'javascript:alert(1)//%H'
refused 'javascript:alert(1)//%H' "'$HOME/.gitconfig'"
printf '[stablepick]\n\tcommitUrl = javascript:void(0)//%%H\n' >"$tmp/inc"
git config --global --unset stablepick.commitUrl
git config include.path "$tmp/inc"
refused 'javascript:void(0)//%H' "a file included from '$repo/.git/config'"
git config --unset include.path
printf '[stablepick]\n\tcommitUrl = data:,%%H\n' >"$tmp/conf"
status=0
"$STABLEPICK" --config "$tmp/conf" cves --branch linux-6.6.y \
	--cve "$tmp/vulns" 2>"$tmp/err" >/dev/null || status=$?
[ $status -eq 1 ] || fail "--config file's commitUrl: status $status"
grep -qF "of stablepick.commitUrl (in '$tmp/conf')" "$tmp/err" ||
	fail "--config file's commitUrl: $(cat "$tmp/err")"
ok "where it was set: ~/.gitconfig, an included file, a --config file"

# http and https, in any case, link each commit.
for url in 'https://git.kernel.org/linus/%H' 'HTTP://example.org/c/%H'; do
	git config stablepick.commitUrl "$url"
	pages 2>"$tmp/err" || fail "commitUrl '$url': $(cat "$tmp/err")"
	n=$(grep -o "<a href=\"$(echo "$url" | sed "s/%H/$fix/")\"" "$tmp/out" |
		wc -l)
	[ "$n" -ge 2 ] || fail "commitUrl '$url': $n links"
done
ok "an http or https commitUrl links the commits of both pages"
