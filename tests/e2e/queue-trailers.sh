#!/bin/sh
# queue: what the list said goes with the queued patches.  The trailer
# recorded with an acceptance (Acked-by:, Reviewed-by:, Tested-by:, as
# acks records it or as given to mark) is added to the message unless
# it has it; --signoff adds the backporter's Signed-off-by: last, as
# git am -s does, and not when the message already ends with it.
. "$TEST_SRCDIR/tests/lib.sh"

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
git config user.name 'Stable Picker'
git config user.email 'picker@example.org'
test_commit fs/xfs/alloc.c 'int alloc;' 'xfs: add the allocator'
test_commit fs/xfs/bmap.c 'int bmap;' 'xfs: add the block map'
test_commit fs/xfs/log.c 'int log;' 'xfs: add the log'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

# Acked in mainline already.
test_fix fs/xfs/alloc.c 'int alloc = 1;' 'xfs: fix a crash in the allocator' \
	'Cc: stable@vger.kernel.org' 'Acked-by: Rhea Castellano <rhea@example.org>'
x1=$(git rev-parse HEAD)
test_fix fs/xfs/bmap.c 'int bmap = 1;' 'xfs: fix a crash in the block map' \
	'Cc: stable@vger.kernel.org'
x2=$(git rev-parse HEAD)
# Signed off last by the backporter.
test_commit fs/xfs/log.c 'int log = 1;' 'xfs: fix a crash in the log

Cc: stable@vger.kernel.org
Signed-off-by: Stable Picker <picker@example.org>'
x3=$(git rev-parse HEAD)

export STABLEPICK_NOW=1701600000
"$STABLEPICK" mark --branch linux-6.6.y \
	-m 'Acked-by: Rhea Castellano <rhea@example.org> in <ack1@example.org>' \
	"$x1" accepted >/dev/null
"$STABLEPICK" mark --branch linux-6.6.y \
	-m 'reviewed-by: Kenji Watanabe <kenji@example.com> in <rev2@example.com>' \
	"$x2" accepted >/dev/null
"$STABLEPICK" mark --branch linux-6.6.y -m 'fine for 6.6' "$x3" accepted >/dev/null

# trailers MBOX: the subject and trailers of each commit git am -s (as
# the backporter) makes of MBOX on the branch.
trailers() {
	rm -rf "$tmp/stable"
	git clone -q -b linux-6.6.y "$repo" "$tmp/stable"
	GIT_COMMITTER_NAME='Stable Picker' GIT_COMMITTER_EMAIL='picker@example.org' \
		git -C "$tmp/stable" am -q -s "$1"
	git -C "$tmp/stable" log --reverse --format='%s%n%(trailers:only,unfold)' \
		origin/linux-6.6.y..HEAD
}

"$STABLEPICK" queue --branch linux-6.6.y --signoff >"$tmp/queue.mbox"
trailers "$tmp/queue.mbox" >"$tmp/actual"
cat >"$tmp/expect" <<EOF
xfs: fix a crash in the allocator
Cc: stable@vger.kernel.org
Acked-by: Rhea Castellano <rhea@example.org>
Signed-off-by: A U Thor <author@example.com>
Signed-off-by: Stable Picker <picker@example.org>

xfs: fix a crash in the block map
Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>
Reviewed-by: Kenji Watanabe <kenji@example.com>
Signed-off-by: Stable Picker <picker@example.org>

xfs: fix a crash in the log
Cc: stable@vger.kernel.org
Signed-off-by: Stable Picker <picker@example.org>

EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "queue --signoff: the recorded trailers once, the sign-off last once, through git am -s"

# Without --signoff the mbox itself has no sign-off of the backporter
# but the one the message had.
"$STABLEPICK" queue --branch linux-6.6.y >"$tmp/queue.mbox"
grep -c '^Signed-off-by: Stable Picker <picker@example.org>$' "$tmp/queue.mbox" \
	>"$tmp/actual" || :
echo 1 >"$tmp/expect"
test_cmp "$tmp/expect" "$tmp/actual"
grep -c '^Reviewed-by: Kenji Watanabe <kenji@example.com>$' "$tmp/queue.mbox" \
	>"$tmp/actual" || :
test_cmp "$tmp/expect" "$tmp/actual"
ok "queue without --signoff: the recorded trailers, no sign-off"

# The quilt patches carry the same, as git interpret-trailers reads them.
"$STABLEPICK" queue --branch linux-6.6.y --signoff --format quilt \
	--output "$tmp/q" 2>/dev/null
sed -n '/^$/,/^---$/p' "$tmp/q/xfs-fix-a-crash-in-the-block-map.patch" | sed '$d' |
	git interpret-trailers --parse >"$tmp/actual"
cat >"$tmp/expect" <<EOF
Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>
Reviewed-by: Kenji Watanabe <kenji@example.com>
Signed-off-by: Stable Picker <picker@example.org>
EOF
test_cmp "$tmp/expect" "$tmp/actual"
ok "queue --format quilt --signoff: the same trailers in the patches"

# Last as git cherry-pick -x writes it: the trailers after its line,
# still one trailer block.
git config stablepick.backportLine cherry-pick
"$STABLEPICK" queue --branch linux-6.6.y --signoff >"$tmp/queue.mbox"
trailers "$tmp/queue.mbox" >"$tmp/actual"
git -C "$tmp/stable" log -1 --format=%B HEAD~1 | grep -v "^$" | tail -5 >"$tmp/actual.body"
cat >"$tmp/expect" <<EOF
Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <author@example.com>
(cherry picked from commit $x2)
Reviewed-by: Kenji Watanabe <kenji@example.com>
Signed-off-by: Stable Picker <picker@example.org>
EOF
test_cmp "$tmp/expect" "$tmp/actual.body"
grep -v '^(cherry' "$tmp/expect" >"$tmp/expect.trailers"
sed -n '/^xfs: fix a crash in the block map$/,/^$/p' "$tmp/actual" | sed '1d;$d' \
	>"$tmp/actual.trailers"
test_cmp "$tmp/expect.trailers" "$tmp/actual.trailers"
ok "with stablepick.backportLine cherry-pick: the trailers after its line"
