#!/bin/sh
# The bundled demo history, data/make-demo-history: it gives the same
# commit ids on every run, its trailers name real commits, and propose
# gives each of its candidates the verdict and score that the comment
# block at the top of the script announces (and shows every verdict).
. "$TEST_SRCDIR/tests/lib.sh"

command -v jq >/dev/null 2>&1 || skip "jq is not installed"

demo=$tmp/demo
"$TEST_SRCDIR/data/make-demo-history" "$demo" >/dev/null
"$TEST_SRCDIR/data/make-demo-history" "$tmp/again" >/dev/null

# --- the history itself ----------------------------------------------------

refs() {
	git -C "$1" rev-parse master linux-6.6.y
	git -C "$1" for-each-ref --format='%(objectname) %(refname)'
}
refs "$demo" >"$tmp/expect"
refs "$tmp/again" >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
ok "same commit ids on every run"

cd "$demo"

# Every Fixes: names a mainline commit by its 12-hex id and subject, all
# before v6.6 but one: the raid stripe tree fix, whose feature came in
# 6.7 (so that 6.6.y cannot need the fix).
git log --format=%B v6.6..master | sed -n 's/^Fixes: //p' >"$tmp/fixes"
[ -s "$tmp/fixes" ] || fail "no Fixes: trailers in v6.6..master"
after=0
while read -r id rest; do
	[ "${#id}" -eq 12 ] || fail "Fixes: $id is not 12 hex digits"
	git merge-base --is-ancestor "$id" master || fail "Fixes: $id is not in master"
	git merge-base --is-ancestor "$id" v6.6 || after=$((after + 1))
	[ "$rest" = "(\"$(git log -1 --format=%s "$id")\")" ] ||
		fail "Fixes: $id $rest: wrong subject"
done <"$tmp/fixes"
[ "$after" -eq 1 ] || fail "$after Fixes: name commits after v6.6, expected 1"
ok "Fixes: trailers name mainline commits"

# Every upstream line of the stable branch names a mainline commit with
# the same subject, in both forms.
git log --format='%H %s' v6.6..linux-6.6.y >"$tmp/stable"
n=0
while read -r stable subject; do
	up=$(git log -1 --format=%B "$stable" |
		sed -n 's/^commit \([0-9a-f]\{40\}\) upstream\.$/\1/p
			s/^\[ Upstream commit \([0-9a-f]\{40\}\) \]$/\1/p')
	[ -n "$up" ] || continue
	git merge-base --is-ancestor "$up" master || fail "$stable: $up is not in master"
	[ "$(git log -1 --format=%s "$up")" = "$subject" ] ||
		fail "$stable: subject differs from $up"
	n=$((n + 1))
done <"$tmp/stable"
[ "$n" -ge 2 ] || fail "only $n backports with an upstream line"
git log --format=%B v6.6..linux-6.6.y | grep -q '^\[ Upstream commit ' ||
	fail "no backport in the [ Upstream commit ] form"
ok "backports name their mainline commits"

# --- propose ---------------------------------------------------------------

"$STABLEPICK" -C "$demo" propose --branch linux-6.6.y --format json >"$tmp/json"
jq -e -s 'length > 0 and all(.[]; (.commit | test("^[0-9a-f]{40}$"))
	and (.score | type) == "number" and (.reasons | type) == "array")' \
	<"$tmp/json" >/dev/null || fail "malformed JSON Lines"
ok "json lines"

for verdict in proposed needs-ack waiting maybe-present not-applicable \
	reverted vetoed present below-threshold; do
	jq -e -s --arg v "$verdict" 'any(.[]; .verdict == $v)' <"$tmp/json" \
		>/dev/null || fail "no candidate is $verdict"
done
ok "every verdict occurs"

# Every candidate with its verdict and score (the scores are worked out
# rule by rule in the comment block of data/make-demo-history; every
# Fixes: there but one names a commit below v6.6, so each adds
# fixes-in-branch).
cat >"$tmp/table" <<'EOF'
Revert "ext4: speed up goal block lookup in ext4_ext_find_goal()"|not-applicable|-3
btrfs: add support for the raid stripe tree in btrfs_map_block()|below-threshold|-8
btrfs: fix a null pointer dereference when a raid stripe extent is missing|not-applicable|131
btrfs: fix deadlock between device scan and chunk allocation|proposed|25
btrfs: fix null pointer dereference in btrfs_page_mkwrite()|present|33
btrfs: fix race between ordered extent completion and inode eviction|vetoed|125
btrfs: tests: fix memory leak in test_eb_bitmaps()|below-threshold|3
ext4: factor out ext4_zero_partial_blocks_range()|proposed|100
ext4: fix leak of the test_dummy_encryption argument on mount failure|present|129
ext4: fix slab-out-of-bounds read in ext4_ext_binsearch_idx()|proposed|155
ext4: fix stale data exposure in ext4_zero_range()|proposed|123
ext4: remove unused variable 'ee_block' in ext4_ext_map_blocks()|below-threshold|-2
ext4: speed up goal block lookup in ext4_ext_find_goal()|reverted|-3
fs: fix a missing unlock on the error path of do_renameat2()|maybe-present|24
iomap: fix dirty range accounting after a short copy|proposed|124
jbd2: correct the log tail while a transaction is committing|present|124
nfs: fix a potential null pointer dereference in nfs_update_inode()|present|11
xfs: avoid false positives when cross-referencing unwritten extents|needs-ack|14
xfs: fix delalloc extent length corruption in xfs_bmap_add_extent_hole_delay()|needs-ack|29
xfs: fix use-after-free of log items during log shutdown|waiting|147
xfs: rename xfs_iomap_write_unwritten to xfs_iomap_convert_unwritten|below-threshold|-6
EOF
sort "$tmp/table" >"$tmp/expect"
jq -r '[.subject, .verdict, (.score | tostring)] | join("|")' <"$tmp/json" |
	sort >"$tmp/actual"
test_cmp "$tmp/expect" "$tmp/actual"
ok "verdict and score of every candidate"

# The reasons explain the score.
jq -e -s 'all(.[]; ([.reasons[].weight // 0] | add // 0) == .score)' \
	<"$tmp/json" >/dev/null || fail "reasons do not add up to the score"
ok "reasons add up to the score"

# A candidate present by an upstream line names the backport that
# carries it.
jq -r 'select(.verdict == "present" and .evidence[0].kind == "upstream-line") |
	.commit' <"$tmp/json" >"$tmp/present"
while read -r c; do
	s=$(git log --format=%H -F --grep="$c" v6.6..linux-6.6.y)
	jq -e -s --arg c "$c" --arg s "$s" \
		'any(.[]; .commit == $c and any(.evidence[]; .commit == $s))' \
		<"$tmp/json" >/dev/null || fail "$c: evidence does not name $s"
done <"$tmp/present"
ok "present evidence names the backport"

# Only non-merge commits that touch fs/ are candidates: no merge, and
# nothing from drivers/, mm/ or kernel/ (the loop fix has Cc: stable).
jq -r .commit <"$tmp/json" >"$tmp/commits"
while read -r c; do
	[ "$(git rev-list --no-walk --parents "$c" | wc -w)" -eq 2 ] ||
		fail "merge $c is a candidate"
	git diff-tree --no-commit-id --name-only -r "$c" | grep -q '^fs/' ||
		fail "$c touches nothing under fs/ but is a candidate"
done <"$tmp/commits"
for c in $(git rev-list --merges v6.6..master) \
	$(git rev-list --full-history v6.6..master -- drivers mm kernel); do
	! grep -qx "$c" "$tmp/commits" || fail "$c is a candidate"
done
ok "no merge and no drivers/, mm/ or kernel/ commit"
