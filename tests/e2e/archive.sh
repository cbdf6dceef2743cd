#!/bin/sh
# Series and cover letters from the list archives (--archive): a
# public-inbox v2 inbox (two epochs) for linux-xfs and an mbox for
# linux-ext4, made for a fixture history.
#
#   series A  "xfs: log recovery fixes", posted as v1 and as v2, each
#             with a cover letter; mainline took v2.  A1 is found by a
#             lore.kernel.org/r/ Link:, A2 by a patch.msgid.link Link:,
#             A3 (its subject reworded when applied) by its patch-id.
#             The branch already has A1.
#   series B  two ext4 patches, no cover letter, 2/2 answering 1/2; B1
#             is found by subject and author, B2 by a list's lore URL.
#             B2 is not a fix the rules propose.
#   C         a single xfs patch; a reply to it says it breaks something.
#   D         a single xfs patch applied as posted, then posted as v2.
#
# The same messages in one mbox, a maildir and a public-inbox v1
# repository give the same answers; the caches are updated as the
# archives grow, and a damaged cache is read again.
. "$TEST_SRCDIR/tests/lib.sh"
# The lines whole: text-width.sh checks how the text fits a width.
COLUMNS=1000; export COLUMNS
. "$TEST_SRCDIR/tests/e2e/archive-lib.sh"

STABLEPICK_NOW=1800000000
export STABLEPICK_NOW
sp() {
	"$STABLEPICK" "$@"
}

alice='Alice Liddell <alice@example.com>'
bob='Bob Baker <bob@example.com>'

repo=$tmp/repo
test_repo "$repo"
cd "$repo"
test_commit fs/xfs/xfs_log_recover.c 'int recover;' 'xfs: add log recovery'
test_commit fs/xfs/xfs_scrub.c 'int scrub;' 'xfs: add online scrub'
test_commit fs/ext4/inode.c 'int ext4;' 'ext4: add the inode cache'
test_tick
git tag -a -m 'Linux 6.6' v6.6
git branch linux-6.6.y

as() {
	GIT_AUTHOR_NAME=$1 GIT_AUTHOR_EMAIL=$2
	export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL
}

as 'Alice Liddell' alice@example.com
test_fix fs/xfs/xfs_log_recover.c 'int recover1;' \
	'xfs: lock the AIL before log recovery' \
	'Cc: stable@vger.kernel.org' \
	'Link: https://lore.kernel.org/r/a-v2-1@example.com'
a1=$(git rev-parse HEAD)
test_fix fs/xfs/xfs_log_recover.c 'int recover2;' \
	'xfs: fix a use-after-free in log recovery' \
	'Cc: stable@vger.kernel.org' \
	'Link: https://patch.msgid.link/a-v2-2@example.com'
a2=$(git rev-parse HEAD)
test_fix fs/xfs/xfs_log_recover.c 'int recover3;' \
	'xfs: fix a race in log recovery' \
	'Cc: stable@vger.kernel.org'
a3=$(git rev-parse HEAD)

as 'Bob Baker' bob@example.com
test_fix fs/ext4/inode.c 'int ext4b1;' 'ext4: fix a deadlock in writeback' \
	'Cc: stable@vger.kernel.org'
b1=$(git rev-parse HEAD)
test_fix fs/ext4/inode.c 'int ext4b2;' 'ext4: rename the writeback helpers' \
	'Link: https://lore.kernel.org/linux-ext4/b-2@example.com/'
b2=$(git rev-parse HEAD)

as 'Alice Liddell' alice@example.com
test_fix fs/xfs/xfs_scrub.c 'int scrub1;' 'xfs: fix a leak in scrub' \
	'Cc: stable@vger.kernel.org' \
	'Link: https://lore.kernel.org/r/c-1@example.com'
c=$(git rev-parse HEAD)
test_fix fs/xfs/xfs_scrub.c 'int scrub2;' 'xfs: fix the quota check in scrub' \
	'Cc: stable@vger.kernel.org' \
	'Link: https://lore.kernel.org/r/d-1@example.com'
d=$(git rev-parse HEAD)
test_tick
git tag -a -m 'Linux 6.7' v6.7

# The branch has A1 already.
git checkout -q linux-6.6.y
test_commit fs/xfs/xfs_log_recover.c 'int recover1;' "xfs: lock the AIL before log recovery

commit $a1 upstream.

Signed-off-by: A U Thor <author@example.com>"
git checkout -q master

# --- the posted messages ------------------------------------------------

mail=$tmp/mail
mkdir "$mail"
t=1700000000

# Series A, v1: a cover letter and three patches whose diffs differ
# from what mainline took.
mail_write "$mail/a-v1-0" "$alice" $t '[PATCH 0/3] xfs: log recovery fixes' \
	a-v1-0@example.com <<'EOF'
This series fixes three races between log recovery and the AIL.

Alice Liddell (3):
  xfs: lock the AIL before log recovery
  xfs: fix a use-after-free in log recovery
  xfs: avoid a race in log recovery
EOF
n=1
for s in 'xfs: lock the AIL before log recovery' \
	 'xfs: fix a use-after-free in log recovery' \
	 'xfs: avoid a race in log recovery'; do
	mail_write "$mail/a-v1-$n" "$alice" $((t + n)) "[PATCH $n/3] $s" \
		a-v1-$n@example.com a-v1-0@example.com a-v1-0@example.com <<EOF
First try at patch $n.

Signed-off-by: Alice Liddell <alice@example.com>
---
diff --git a/fs/xfs/xfs_log_recover.c b/fs/xfs/xfs_log_recover.c
index 1111111..2222222 100644
--- a/fs/xfs/xfs_log_recover.c
+++ b/fs/xfs/xfs_log_recover.c
@@ -1 +1 @@
-int recover;
+int recover_v1_$n;
-- 
2.39.2
EOF
	n=$((n + 1))
done

# Series A, v2, a day later: mainline took it.
t=$((t + 86400))
mail_write "$mail/a-v2-0" "$alice" $t '[PATCH v2 0/3] xfs: log recovery fixes' \
	a-v2-0@example.com <<'EOF'
Hi all,

This series fixes three races between log recovery and the AIL that
show up as use-after-free reports when generic/388 runs for a while.

v2: take the AIL lock in one place.

Alice Liddell (3):
  xfs: lock the AIL before log recovery
  xfs: fix a use-after-free in log recovery
  xfs: avoid a race in log recovery
EOF
mail_patch "$mail/a-v2-1" $a1 "$alice" $((t + 1)) \
	'[PATCH v2 1/3] xfs: lock the AIL before log recovery' \
	a-v2-1@example.com a-v2-0@example.com a-v2-0@example.com
mail_patch "$mail/a-v2-2" $a2 "$alice" $((t + 2)) \
	'[PATCH v2 2/3] xfs: fix a use-after-free in log recovery' \
	a-v2-2@example.com a-v2-0@example.com a-v2-0@example.com
mail_patch "$mail/a-v2-3" $a3 "$alice" $((t + 3)) \
	'[PATCH v2 3/3] xfs: avoid a race in log recovery' \
	a-v2-3@example.com a-v2-0@example.com a-v2-0@example.com
# A review of 2/3 that quotes an old objection: quoted lines do not count.
mail_write "$mail/a-v2-2-re" 'Dave Reviewer <dave@example.com>' $((t + 600)) \
	'Re: [PATCH v2 2/3] xfs: fix a use-after-free in log recovery' \
	a-v2-2-re@example.com a-v2-2@example.com \
	'a-v2-0@example.com a-v2-2@example.com' <<'EOF'
On Wed, Nov 15, 2023 at 10:13:22PM +0000, Alice Liddell wrote:
> This breaks nothing, unlike v1.
>> Nacked-by: Someone Else <else@example.com>

Looks good now.

Reviewed-by: Dave Reviewer <dave@example.com>
EOF

# C, a single patch, and a reply that says it breaks something.
t=$((t + 86400))
mail_patch "$mail/c-1" $c "$alice" $t '[PATCH] xfs: fix a leak in scrub' \
	c-1@example.com
mail_write "$mail/c-1-re" 'Carol Tester <carol@example.com>' $((t + 3600)) \
	'Re: [PATCH] xfs: fix a leak in scrub' c-1-re@example.com \
	c-1@example.com c-1@example.com <<'EOF'
On Thu, Nov 16, 2023, Alice Liddell wrote:
> +int scrub1;

This breaks the scrub of quota files on 32-bit machines.

Carol
EOF

# D, applied as posted, then posted again as v2.
mail_patch "$mail/d-1" $d "$alice" $((t + 60)) \
	'[PATCH] xfs: fix the quota check in scrub' d-1@example.com
mail_write "$mail/d-2" "$alice" $((t + 86400)) \
	'[PATCH v2] xfs: fix the quota check in scrub' d-2@example.com <<'EOF'
v2: check the group quota too.
---
diff --git a/fs/xfs/xfs_scrub.c b/fs/xfs/xfs_scrub.c
index 3333333..4444444 100644
--- a/fs/xfs/xfs_scrub.c
+++ b/fs/xfs/xfs_scrub.c
@@ -1 +1 @@
-int scrub1;
+int scrub2_v2;
-- 
2.39.2
EOF

# Series B: no cover letter, 2/2 answers 1/2.  1/2 was changed when it
# was applied: only its subject and author tell.
mail_write "$mail/b-1" "$bob" $((t + 120)) \
	'[PATCH 1/2] ext4: fix a deadlock in writeback' b-1@example.com <<'EOF'
Take the lock once.

Signed-off-by: Bob Baker <bob@example.com>
---
diff --git a/fs/ext4/inode.c b/fs/ext4/inode.c
index 5555555..6666666 100644
--- a/fs/ext4/inode.c
+++ b/fs/ext4/inode.c
@@ -1 +1 @@
-int ext4;
+int ext4_b1_as_posted;
-- 
2.39.2
EOF
mail_patch "$mail/b-2" $b2 "$bob" $((t + 121)) \
	'[PATCH 2/2] ext4: rename the writeback helpers' b-2@example.com \
	b-1@example.com b-1@example.com

# The stores: linux-xfs as public-inbox v2 (v1 of A in epoch 0, the rest
# in epoch 1), linux-ext4 as an mbox.
xfs=$tmp/linux-xfs
for m in a-v1-0 a-v1-1 a-v1-2 a-v1-3; do
	pi_v2_add "$xfs" 0 "$mail/$m"
done
for m in a-v2-0 a-v2-1 a-v2-2 a-v2-3 a-v2-2-re c-1 c-1-re d-1 d-2; do
	pi_v2_add "$xfs" 1 "$mail/$m"
done
ext4=$tmp/linux-ext4.mbox
for m in b-1 b-2; do
	mbox_add "$ext4" "$mail/$m"
done

arch="--archive $xfs --archive $ext4"

# --- propose ----------------------------------------------------------------

# shellcheck disable=SC2086
sp propose --branch linux-6.6.y $arch >actual
cat >expect <<EOF
branch linux-6.6.y (base v6.6): 1 commit after the base, 1 names an upstream commit
mainline v6.6..master: 7 commits walked (0 merges), 7 in watched paths
archives: 2 (15 messages); 7 of 7 candidates found posted (5 by link, 1 by patch-id, 1 by subject)

VERDICT   SCORE  COMMIT        SUBSYSTEM  SUBJECT
proposed    111  $(git rev-parse --short=12 $a2)  xfs        xfs: fix a use-after-free in log recovery
                 cc-stable +100, subject-fix +6, subject-crash +5
                 series: 2/3 of v2 "xfs: log recovery fixes" <https://lore.kernel.org/r/a-v2-0@example.com>: 1/3 present, 3/3 proposed
proposed    111  $(git rev-parse --short=12 $a3)  xfs        xfs: fix a race in log recovery
                 cc-stable +100, subject-fix +6, subject-crash +5
                 series: 3/3 of v2 "xfs: log recovery fixes" <https://lore.kernel.org/r/a-v2-0@example.com>: 1/3 present, 2/3 proposed
proposed    111  $(git rev-parse --short=12 $b1)  ext4       ext4: fix a deadlock in writeback
                 cc-stable +100, subject-fix +6, subject-crash +5
                 series: 1/2 of "ext4: fix a deadlock in writeback" <https://lore.kernel.org/r/b-1@example.com> (no cover letter): 2/2 absent
proposed    108  $(git rev-parse --short=12 $d)  xfs        xfs: fix the quota check in scrub
                 cc-stable +100, subject-fix +6, subject-check +2
                 posted: <https://lore.kernel.org/r/d-1@example.com>; v2 posted later <https://lore.kernel.org/r/d-2@example.com>
proposed    101  $(git rev-parse --short=12 $c)  xfs        xfs: fix a leak in scrub
                 cc-stable +100, subject-fix +6, subject-crash +5, review-breaks -10

7 candidates: 5 proposed, 1 present, 1 below-threshold
(2 present, below-threshold or decided not shown; use --all)
EOF
test_cmp expect actual
ok "propose: series, positions, cover letters, mates and later revisions"

# What the JSON says of each candidate's posted patch, commit by commit.
posted_summary() {
	jq -r '[.subject, (.posted // {} | .found_by, .revision, .latest_revision,
		(.series // {} | .subject, .cover, "\(.position)/\(.total)",
		 ([.mates[]? | "\(.position):\(.status)"] | join(" "))),
		([.replies[]? | .from] | join(", ")))] | map(. // "-") | join(" | ")' "$@"
}
# shellcheck disable=SC2086
sp propose --branch linux-6.6.y $arch --format json >actual.json
posted_summary actual.json >actual
cat >expect <<'EOF'
xfs: fix a use-after-free in log recovery | link | 2 | 2 | xfs: log recovery fixes | a-v2-0@example.com | 2/3 | 1:present 3:proposed | Dave Reviewer <dave@example.com>
xfs: fix a race in log recovery | patch-id | 2 | 2 | xfs: log recovery fixes | a-v2-0@example.com | 3/3 | 1:present 2:proposed | 
ext4: fix a deadlock in writeback | subject | 1 | 1 | ext4: fix a deadlock in writeback | - | 1/2 | 2:absent | 
xfs: fix the quota check in scrub | link | 1 | 2 | - | - | null/null |  | 
xfs: fix a leak in scrub | link | 1 | 1 | - | - | null/null |  | Carol Tester <carol@example.com>
xfs: lock the AIL before log recovery | link | 2 | 2 | xfs: log recovery fixes | a-v2-0@example.com | 1/3 | 2:proposed 3:proposed | 
ext4: rename the writeback helpers | link | 1 | 1 | ext4: fix a deadlock in writeback | - | 2/2 | 1:proposed | 
EOF
test_cmp expect actual
jq -s -e 'map(select(.commit == "'$d'")) | .[0].posted.latest == "d-2@example.com"' \
	actual.json >/dev/null || fail "json: the later revision of D"
jq -s -e 'map(select(.commit == "'$a2'")) | .[0].posted.series.mates[0].commit == "'$a1'"' \
	actual.json >/dev/null || fail "json: the commit of a series-mate"
ok "propose --format json: found by link, patch-id and subject; the series of each"

# --- explain ----------------------------------------------------------------

# shellcheck disable=SC2086
sp explain --branch linux-6.6.y $arch $a2 $d >out
grep -E '^(Posted|Series|Revised|Reply): |^           [0-9]/' out >actual
cat >expect <<EOF
Posted:    https://lore.kernel.org/r/a-v2-2@example.com (found by link)
Series:    2/3 of v2 "xfs: log recovery fixes" <https://lore.kernel.org/r/a-v2-0@example.com>: 1/3 present, 3/3 proposed
           1/3 $(git rev-parse --short=12 $a1) present   xfs: lock the AIL before log recovery
           3/3 $(git rev-parse --short=12 $a3) proposed  xfs: avoid a race in log recovery
Reply:     Dave Reviewer <dave@example.com> <https://lore.kernel.org/r/a-v2-2-re@example.com>
Posted:    https://lore.kernel.org/r/d-1@example.com (found by link)
Revised:   v2 posted later <https://lore.kernel.org/r/d-2@example.com>
EOF
test_cmp expect actual
ok "explain: the posted patch, its series-mates, replies and revisions"

# --- audit ------------------------------------------------------------------

printf '%s\n' $a2 $b1 $c >picks
st=0
# shellcheck disable=SC2086
sp audit --branch linux-6.6.y $arch --picks picks >actual || st=$?
[ $st = 0 ] || fail "audit: exit $st"
cat >expect <<EOF
questionable  $(git rev-parse --short=12 $a2)  xfs: fix a use-after-free in log recovery  (picks:1)
              series-mate-missing: patch 3/3 of the series "xfs: log recovery fixes" (v2), $(git rev-parse --short=12 $a3) ("xfs: avoid a race in log recovery"), is neither in the picks nor in the branch
questionable  $(git rev-parse --short=12 $b1)  ext4: fix a deadlock in writeback  (picks:2)
              series-mate-missing: patch 2/2 of the series "ext4: fix a deadlock in writeback", $(git rev-parse --short=12 $b2) ("ext4: rename the writeback helpers"), is neither in the picks nor in the branch
questionable  $(git rev-parse --short=12 $c)  xfs: fix a leak in scrub  (picks:3)
              review-objection: Carol Tester <carol@example.com> answered the patch <https://lore.kernel.org/r/c-1-re@example.com>: "This breaks" (rule review-breaks -10)
EOF
test_cmp expect actual
# The whole series is fine.
printf '%s\n' $a2 $a3 >picks
# shellcheck disable=SC2086
sp audit --branch linux-6.6.y $arch --picks picks --format json >actual.json
jq -r '"\(.verdict) \([.flags[].flag] | join(","))"' actual.json >actual
printf 'ok \nok \n' >expect
test_cmp expect actual
# Without the archives, only the Link: ids tell (and A3 has none).
printf '%s\n' $a2 >picks
sp audit --branch linux-6.6.y --picks picks --format json >actual.json
jq -r '"\(.verdict) \([.flags[].flag] | join(","))"' actual.json >actual
printf 'ok \n' >expect
test_cmp expect actual
ok "audit: a part of a series without the rest, and an objection in review"

# --- the proposal email -------------------------------------------------------

# shellcheck disable=SC2086
sp propose --branch linux-6.6.y $arch --format email >mail.txt
sed -n '/^xfs (linux-xfs/,/^-- $/p' mail.txt >actual
cat >expect <<EOF
xfs (linux-xfs@vger.kernel.org)
===============================

Proposed (the patches follow in reply):
  $(git rev-parse --short=12 $a2) xfs: fix a use-after-free in log recovery
      score 111: cc-stable +100, ...
  $(git rev-parse --short=12 $a3) xfs: fix a race in log recovery
      score 111: cc-stable +100, ...
  $(git rev-parse --short=12 $d) xfs: fix the quota check in scrub
      score 108: cc-stable +100, ...
  $(git rev-parse --short=12 $c) xfs: fix a leak in scrub
      score 101: cc-stable +100, ...

-- 
EOF
test_cmp expect actual
python3 -c 'import email, sys; m = email.message_from_file(open(sys.argv[1])); assert m["Subject"]' mail.txt ||
	fail "the proposal email does not parse"
# The reasons in full, and where each was posted, in its patch's mail,
# after the "---" that git am reads no further than.
# shellcheck disable=SC2086
sp propose --branch linux-6.6.y $arch --format mbox >mail.mbox
sed -n '/^---$/,/^ fs\//p' mail.mbox | grep -v '^ fs/' >actual
cat >expect <<EOF
---
stablepick: score 111: cc-stable +100, subject-fix +6, subject-crash +5
series: 2/3 of v2 "xfs: log recovery fixes"
  <https://lore.kernel.org/r/a-v2-0@example.com>: 1/3 present, 3/3
  proposed

---
stablepick: score 111: cc-stable +100, subject-fix +6, subject-crash +5
series: 3/3 of v2 "xfs: log recovery fixes"
  <https://lore.kernel.org/r/a-v2-0@example.com>: 1/3 present, 2/3
  proposed

---
stablepick: score 111: cc-stable +100, subject-fix +6, subject-crash +5
series: 1/2 of "ext4: fix a deadlock in writeback"
  <https://lore.kernel.org/r/b-1@example.com> (no cover letter): 2/2
  absent

---
stablepick: score 101: cc-stable +100, subject-fix +6, subject-crash +5,
  review-breaks -10

---
stablepick: score 108: cc-stable +100, subject-fix +6, subject-check +2
posted: <https://lore.kernel.org/r/d-1@example.com>; v2 posted later
  <https://lore.kernel.org/r/d-2@example.com>

EOF
test_cmp expect actual
ok "email: a short line per patch; its mail: the reasons, where it was posted"

# --- the same messages in other stores ----------------------------------------

# shellcheck disable=SC2086
sp propose --branch linux-6.6.y $arch --format json >ref.json
jq -c '{commit, posted}' ref.json >ref
all=$tmp/all.mbox
v1=$tmp/v1.git
md=$tmp/maildir
for m in a-v1-0 a-v1-1 a-v1-2 a-v1-3 a-v2-0 a-v2-1 a-v2-2 a-v2-3 a-v2-2-re \
	 c-1 c-1-re d-1 d-2 b-1 b-2; do
	mbox_add "$all" "$mail/$m"
	pi_v1_add "$v1" "$mail/$m"
	maildir_add "$md" "$mail/$m"
done
gzip -9n <"$all" >"$all.gz"
for store in "$all" "$all.gz" "$v1" "$md"; do
	sp propose --branch linux-6.6.y --archive "$store" --format json >x.json
	jq -c '{commit, posted}' x.json >actual
	test_cmp ref actual
done
ok "one mbox (plain and gzip), a public-inbox v1 repository and a maildir give the same answers"

# --- a malformed commit in an inbox ------------------------------------------

# public-inbox commits as the sender: an author line git shows but
# libgit2 cannot parse (here without the <> of its address) is named
# in a warning, and its message is read from its blob all the same.
# malform GITDIR: rewrites the tip of refs/heads/master so; prints it.
malform() {
	local tip c
	tip=$(git --git-dir="$1" rev-parse refs/heads/master)
	c=$(git --git-dir="$1" cat-file commit "$tip" |
		sed 's/^author \(.*\) <\([^>]*\)> /author \1 \2 /' |
		git --git-dir="$1" hash-object -t commit -w --literally --stdin)
	git --git-dir="$1" update-ref refs/heads/master "$c"
	echo "$c"
}
cp -R "$xfs" "$tmp/xfs-bad"
cp -R "$v1" "$tmp/v1-bad.git"
bad2=$(malform "$tmp/xfs-bad/git/1.git")
bad1=$(malform "$tmp/v1-bad.git")
for store in "$tmp/xfs-bad --archive $ext4" "$tmp/v1-bad.git"; do
	# shellcheck disable=SC2086
	sp --no-cache propose --branch linux-6.6.y --archive $store \
		--format json >x.json 2>err
	jq -c '{commit, posted}' x.json >actual
	test_cmp ref actual
	case $store in
	*xfs-bad*) c=$bad2 ;;
	*) c=$bad1 ;;
	esac
	echo "warning: cannot parse commit $c: failed to parse signature - malformed e-mail; its message read from its blob" >expect
	test_cmp expect err
done
ok "a malformed commit in a v2 epoch or a v1 inbox: warned, its message read"

# --- the caches ----------------------------------------------------------------

# Fresh caches: a first run reads everything, the next nothing.
rm -rf .git/stablepick/archives
trace() {
	# shellcheck disable=SC2086
	STABLEPICK_TRACE=1 sp propose --branch linux-6.6.y $arch --format json \
		2>trace.err >"$1"
	grep "^trace: archive: '" trace.err | sed 's/^trace: //'
}
# How many times each archive's cache file was written: once whole, and
# a checksum line more for each run that appended.
cachefile() {
	printf '.git/stablepick/archives/archive-%s' \
		"$(printf %s "$(realpath "$1")" | sha1sum | cut -c1-16)"
}
writes() {
	echo "$(grep -c '^checksum ' "$(cachefile "$xfs")") $(grep -c '^checksum ' "$(cachefile "$ext4")")"
}
trace x.json >actual
cat >expect <<EOF
archive: '$xfs' (public-inbox-v2): 13 messages, 13 read now, the others from the cache
archive: '$ext4' (mbox): 2 messages, 2 read now, the others from the cache
EOF
test_cmp expect actual
[ "$(writes)" = "1 1" ] || fail "cache writes after the first run: $(writes)"
trace x.json >actual
cat >expect <<EOF
archive: '$xfs' (public-inbox-v2): 13 messages, 0 read now, the others from the cache
archive: '$ext4' (mbox): 2 messages, 0 read now, the others from the cache
EOF
test_cmp expect actual
jq -c '{commit, posted}' x.json >actual
test_cmp ref actual

# The archives grow: a reply arrives in the inbox, another in the mbox;
# only they are read.
mail_write "$mail/b-2-re" "$alice" $((t + 7200)) \
	'Re: [PATCH 2/2] ext4: rename the writeback helpers' b-2-re@example.com \
	b-2@example.com 'b-1@example.com b-2@example.com' <<'EOF'
Nacked-by: Alice Liddell <alice@example.com>
EOF
mail_write "$mail/d-1-re" 'Dave Reviewer <dave@example.com>' $((t + 7200)) \
	'Re: [PATCH] xfs: fix the quota check in scrub' d-1-re@example.com \
	d-1@example.com d-1@example.com <<'EOF'
Please do not backport this one alone.
EOF
mbox_add "$ext4" "$mail/b-2-re"
pi_v2_add "$xfs" 1 "$mail/d-1-re"
trace x.json >actual
cat >expect <<EOF
archive: '$xfs' (public-inbox-v2): 14 messages, 1 read now, the others from the cache
archive: '$ext4' (mbox): 3 messages, 1 read now, the others from the cache
EOF
test_cmp expect actual
# Only additions: appended to the files, not written again.
[ "$(writes)" = "2 2" ] || fail "cache writes after additions: $(writes)"
jq -r 'select(.posted.replies != []) | "\(.subject): \([.reasons[] | select(.field == "reply") | .rule] | join(","))"' x.json >actual
cat >expect <<'EOF'
xfs: fix a use-after-free in log recovery: 
xfs: fix a leak in scrub: review-breaks
xfs: fix the quota check in scrub: review-breaks
ext4: rename the writeback helpers: review-nack
EOF
test_cmp expect actual
# The same as reading everything again.
sp --no-cache propose --branch linux-6.6.y --archive "$xfs" --archive "$ext4" \
	--format json >nocache.json
jq -c '{commit, score, posted}' nocache.json >expect
jq -c '{commit, score, posted}' x.json >actual
test_cmp expect actual

# A message removed from the inbox (public-inbox's "d" blob) is gone.
pi_v2_remove "$xfs" 1 "$mail/d-1-re"
trace x.json >actual
cat >expect <<EOF
archive: '$xfs' (public-inbox-v2): 13 messages, 0 read now, the others from the cache
archive: '$ext4' (mbox): 3 messages, 0 read now, the others from the cache
EOF
test_cmp expect actual
jq -s -e 'map(select(.commit == "'$d'")) | .[0].posted.replies == []' x.json >/dev/null ||
	fail "a removed reply still counts"
# A removal writes the file whole again; the unchanged mbox's is left.
[ "$(writes)" = "1 2" ] || fail "cache writes after a removal: $(writes)"

# An mbox rewritten (not appended to) is read again whole.
: >"$ext4.new"
for m in b-1 b-2; do
	mbox_add "$ext4.new" "$mail/$m"
done
mv "$ext4.new" "$ext4"
trace x.json >actual
cat >expect <<EOF
archive: '$xfs' (public-inbox-v2): 13 messages, 0 read now, the others from the cache
archive: '$ext4' (mbox): 2 messages, 2 read now, the others from the cache
EOF
test_cmp expect actual

# A new modification time alone: the bytes are checked, none read again.
touch -d @1800000000 "$ext4"
trace x.json >actual
cat >expect <<EOF
archive: '$xfs' (public-inbox-v2): 13 messages, 0 read now, the others from the cache
archive: '$ext4' (mbox): 2 messages, 0 read now, the others from the cache
EOF
test_cmp expect actual

# A damaged cache is not trusted: a warning, and the archive read again.
for f in .git/stablepick/archives/archive-*; do
	sed 's/a-v2-0@example.com/a-v2-9@example.com/' "$f" >"$f.new"
	mv "$f.new" "$f"
done
trace x.json >actual
grep "^warning: ignoring the archive cache '.*' of '$xfs': its checksum does not match$" \
	trace.err >/dev/null || fail "no warning for a damaged cache"
jq -c '{commit, posted}' x.json >actual
test_cmp ref actual
ok "caches: read once, then only what is new; removals, rewrites, damage"

# --- bad archives --------------------------------------------------------------

st=0
sp propose --branch linux-6.6.y --archive "$tmp/nowhere" 2>err >/dev/null || st=$?
[ $st = 1 ] || fail "a missing archive: exit $st"
echo "error: cannot read the archive '$tmp/nowhere': No such file or directory" >expect
test_cmp expect err
mkdir "$tmp/empty"
st=0
sp propose --branch linux-6.6.y --archive "$tmp/empty" 2>err >/dev/null || st=$?
[ $st = 1 ] || fail "not an archive: exit $st"
echo "error: '$tmp/empty' is not an archive: neither a public-inbox repository (v2: git/N.git epochs; v1: a git repository), a maildir (cur/, new/) nor an mbox file" >expect
test_cmp expect err
# An mbox with a NUL byte: the archive reader and audit --mbox give
# one answer for one file.
{ printf 'From x@y Thu Jan  1 00:00:00 1970\nSubject: a\n\nbody \000 binary\n'; } >"$tmp/nul.mbox"
st=0
sp propose --branch linux-6.6.y --archive "$tmp/nul.mbox" 2>err >/dev/null || st=$?
[ $st = 1 ] || fail "an mbox with a NUL byte as an archive: exit $st"
echo "error: '$tmp/nul.mbox' is not an mbox (binary: NUL byte on line 4)" >expect
test_cmp expect err
st=0
sp audit --branch linux-6.6.y --mbox "$tmp/nul.mbox" 2>err >/dev/null || st=$?
[ $st != 0 ] || fail "an mbox with a NUL byte for audit: exit 0"
test_cmp expect err
mkdir -p "$tmp/nogit/git"
st=0
sp propose --branch linux-6.6.y --archive "$tmp/nogit" 2>err >/dev/null || st=$?
[ $st = 1 ] || fail "no epochs: exit $st"
echo "error: '$tmp/nogit' is not a public-inbox v2 archive: git/ holds no epoch (git/0.git, ...)" >expect
test_cmp expect err
head -c 300 "$all.gz" >"$tmp/cut.mbox.gz"
st=0
sp propose --branch linux-6.6.y --archive "$tmp/cut.mbox.gz" 2>err >/dev/null || st=$?
[ $st = 1 ] || fail "a gzip file cut short: exit $st"
echo "error: cannot read '$tmp/cut.mbox.gz': not a whole gzip file (cut short)" >expect
test_cmp expect err
ok "bad archives: clear errors, exit 1"

# --- configuration ---------------------------------------------------------------

# A value is a path: "~/" is the home directory.
ln -s "$xfs" "$HOME/linux-xfs"
git config --add stablepick.archive '~/linux-xfs'
git config --add stablepick.archive "$ext4"
sp propose --branch linux-6.6.y --format json >x.json
jq -c '{commit, posted}' x.json >actual
test_cmp ref actual
ok "stablepick.archive: the archives to read when --archive is not given"

# --- hostile mails -----------------------------------------------------------------

# A position past the total, a reply that answers itself, and a thread
# that loops: posted alone, and no hang.  (test_fix sets t.)
t0=$t
test_fix fs/xfs/xfs_scrub.c 'int scrub3;' 'xfs: fix a hang in scrub' \
	'Cc: stable@vger.kernel.org' \
	'Link: https://lore.kernel.org/r/e-5@example.com'
e=$(git rev-parse HEAD)
t=$t0
mail_patch "$mail/e-5" $e "$alice" $((t + 300)) '[PATCH 5/3] xfs: fix a hang in scrub' \
	e-5@example.com e-6@example.com e-6@example.com
mail_write "$mail/e-6" "$bob" $((t + 301)) 'Re: [PATCH 5/3] xfs: fix a hang in scrub' \
	e-6@example.com e-5@example.com e-5@example.com <<'EOF2'
This breaks the loop.
EOF2
mail_write "$mail/e-7" "$bob" $((t + 302)) 'Re: [PATCH 5/3] xfs: fix a hang in scrub' \
	e-7@example.com e-7@example.com e-7@example.com <<'EOF2'
Me again.
EOF2
# A Link: to the cover letter: the patch is the one with the subject.
t0=$t
test_fix fs/xfs/xfs_scrub.c 'int scrub4;' 'xfs: fix a stall in scrub' \
	'Cc: stable@vger.kernel.org' \
	'Link: https://lore.kernel.org/r/f-0@example.com'
f=$(git rev-parse HEAD)
t=$t0
mail_write "$mail/f-0" "$alice" $((t + 400)) '[PATCH 0/2] xfs: scrub stalls' \
	f-0@example.com <<'EOF2'
Two stalls in scrub.
EOF2
mail_write "$mail/f-1" "$alice" $((t + 401)) '[PATCH 1/2] xfs: cond_resched in scrub' \
	f-1@example.com f-0@example.com f-0@example.com <<'EOF2'
Not applied.
EOF2
mail_patch "$mail/f-2" $f "$alice" $((t + 402)) '[PATCH 2/2] xfs: fix a stall in scrub' \
	f-2@example.com f-0@example.com f-0@example.com
for m in e-5 e-6 e-7 f-0 f-1 f-2; do
	mbox_add "$tmp/hostile.mbox" "$mail/$m"
done
sp explain --branch linux-6.6.y --archive "$tmp/hostile.mbox" $f >out
grep -E '^(Posted|Series|Revised|Reply): |^           [0-9]/' out >actual
cat >expect <<'EOF2'
Posted:    https://lore.kernel.org/r/f-2@example.com (found by link)
Series:    2/2 of "xfs: scrub stalls" <https://lore.kernel.org/r/f-0@example.com>: 1/2 not-found
           1/2 -            not-found xfs: cond_resched in scrub
EOF2
test_cmp expect actual
sp explain --branch linux-6.6.y --archive "$tmp/hostile.mbox" $e >out
grep -E '^(Posted|Series|Revised|Reply): ' out >actual
# (Each of the two names the other as the first of its thread: two
# threads, neither a reply in the other's.)
cat >expect <<'EOF2'
Posted:    https://lore.kernel.org/r/e-5@example.com (found by link)
EOF2
test_cmp expect actual

# A stable backport of B1 posted later by its author, same subject: the
# mail posted for mainline is still the one, and no later revision.
mail_write "$mail/b-1-stable" "$bob" $((t + 86400 * 30)) \
	'[PATCH 6.6 1/2] ext4: fix a deadlock in writeback' b-1-stable@example.com <<'EOF2'
commit upstream.
EOF2
for m in b-1-stable b-1 b-2; do
	mbox_add "$tmp/stable.mbox" "$mail/$m"
done
sp explain --branch linux-6.6.y --archive "$tmp/stable.mbox" $b1 >out
grep -E '^(Posted|Series|Revised|Reply): ' out >actual
cat >expect <<'EOF2'
Posted:    https://lore.kernel.org/r/b-1@example.com (found by subject)
Series:    1/2 of "ext4: fix a deadlock in writeback" <https://lore.kernel.org/r/b-1@example.com> (no cover letter): 2/2 absent
EOF2
test_cmp expect actual
ok "hostile mails: a position past the total, replies in a loop, a Link: to a cover letter, a stable backport"
