/*
 * Rename detection for patch-ids (patchid-diff.h), as git's
 * diffcore-rename.c does it by default.
 */
#include "git/patchid-diff.h"
#include "base/error.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/*
 * Rename detection as git's diffcore-rename.c does it by default (no
 * copies, no breaks, rename limit 1000): exact renames first, then files
 * with the same unique basename, then the best of a similarity matrix.
 * Similarity is git's: files cut into chunks at newlines or 64 bytes,
 * each chunk hashed, and the bytes of the destination's chunks found in
 * the source counted.
 */

#define MIN_SCORE 30000			/* 50% */
#define BASENAME_SCORE (MIN_SCORE + (MAX_SCORE - MIN_SCORE) / 2)
#define RENAME_LIMIT 1000
#define CANDIDATES_PER_DST 4
#define SPAN_HASHBASE 107927

struct span {
	uint32_t hash;
	uint32_t bytes;
};

/* A deleted file (a source) or an added one (a destination). */
struct cand {
	struct filepair *pair;
	struct side *side;
	int loaded;
	unsigned long size;
	struct span *spans;		/* sorted by hash, hashes unique */
	size_t nr_spans;
	int used;			/* renamed already */
};

struct score {
	int src, dst;			/* indexes; dst -1: unused slot */
	unsigned short score;
	short name_score;
	size_t pos;			/* for a stable sort */
};

static int span_cmp(const void *a_, const void *b_)
{
	const struct span *a = a_, *b = b_;

	return a->hash < b->hash ? -1 : a->hash > b->hash;
}

static void hash_spans(struct cand *cand, const unsigned char *buf, size_t size)
{
	size_t alloc = 0, nr = 0, i, n = 0;
	uint32_t acc1 = 0, acc2 = 0;
	int is_text = !size || !memchr(buf, '\0', size < 8000 ? size : 8000);
	struct span *v = NULL;

	while (size) {
		unsigned c = *buf++;
		uint32_t old1 = acc1;

		size--;
		/* Ignore the CR of a CRLF in text. */
		if (is_text && c == '\r' && size && *buf == '\n')
			continue;
		acc1 = (acc1 << 7) ^ (acc2 >> 25);
		acc2 = (acc2 << 7) ^ (old1 >> 25);
		acc1 += c;
		if (++n < 64 && c != '\n')
			continue;
		ALLOC_GROW(v, nr, alloc);
		v[nr].hash = (acc1 + acc2 * 0x61) % SPAN_HASHBASE;
		v[nr++].bytes = (uint32_t)n;
		n = 0;
		acc1 = acc2 = 0;
	}
	/* A last chunk without a newline is not counted, as in git. */
	if (nr)
		QSORT(v, nr, span_cmp);
	for (i = 0, cand->nr_spans = 0; i < nr; i++) {
		if (cand->nr_spans && v[cand->nr_spans - 1].hash == v[i].hash)
			v[cand->nr_spans - 1].bytes += v[i].bytes;
		else
			v[cand->nr_spans++] = v[i];
	}
	cand->spans = v;
}

static int load_cand(git_repository *repo, struct cand *c)
{
	git_blob *blob;

	if (c->loaded)
		return 0;
	if (git_blob_lookup(&blob, repo, &c->side->id) < 0)
		return error_git("cannot read '%s'", c->side->path);
	c->size = (unsigned long)git_blob_rawsize(blob);
	hash_spans(c, git_blob_rawcontent(blob), c->size);
	git_blob_free(blob);
	c->loaded = 1;
	return 0;
}

/* Bytes of dst's chunks that src has too. */
static unsigned long count_copied(const struct cand *src,
				  const struct cand *dst)
{
	unsigned long copied = 0;
	size_t i, j = 0;

	for (i = 0; i < src->nr_spans; i++) {
		const struct span *s = &src->spans[i];

		while (j < dst->nr_spans && dst->spans[j].hash < s->hash)
			j++;
		if (j < dst->nr_spans && dst->spans[j].hash == s->hash) {
			copied += s->bytes < dst->spans[j].bytes ?
				  s->bytes : dst->spans[j].bytes;
			j++;
		}
	}
	return copied;
}

static int is_regular(const struct side *s)
{
	return (s->mode & MODE_TYPE) == MODE_REG;
}

/* git's estimate_similarity(): 0..MAX_SCORE, or -1 after an error. */
static int similarity(git_repository *repo, struct cand *src, struct cand *dst,
		      int min_score)
{
	unsigned long max_size, delta_size;

	if (!is_regular(src->side) || !is_regular(dst->side))
		return 0;
	if (load_cand(repo, src) < 0 || load_cand(repo, dst) < 0)
		return -1;
	max_size = src->size > dst->size ? src->size : dst->size;
	delta_size = max_size - (src->size < dst->size ? src->size : dst->size);
	/* Sizes too different: not a rename. */
	if (max_size * (MAX_SCORE - min_score) < delta_size * MAX_SCORE)
		return 0;
	if (!dst->size)
		return 0;
	return (int)(count_copied(src, dst) * MAX_SCORE / max_size);
}

/* 1 if both paths end in the same file name. */
static int basename_same(const char *src, const char *dst)
{
	size_t src_len = strlen(src), dst_len = strlen(dst);

	while (src_len && dst_len) {
		char c1 = src[--src_len];
		char c2 = dst[--dst_len];

		if (c1 != c2)
			return 0;
		if (c1 == '/')
			return 1;
	}
	return (!src_len || src[src_len - 1] == '/') &&
	       (!dst_len || dst[dst_len - 1] == '/');
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void record_rename(struct cand *src, struct cand *dst, int score)
{
	src->used = 1;
	dst->used = 1;
	src->pair->gone = 1;
	dst->pair->one = src->pair->one;
	dst->pair->renamed = 1;
	dst->pair->score = score;
}

static void find_exact(struct cand *src, size_t nr_src,
		       struct cand *dst, size_t nr_dst)
{
	size_t d, s;

	for (d = 0; d < nr_dst; d++) {
		const struct side *t = dst[d].side;
		struct cand *best = NULL;
		int best_score = -1, left = 100;

		for (s = 0; s < nr_src; s++) {
			const struct side *o = src[s].side;
			int score;

			if (!git_oid_equal(&o->id, &t->id))
				continue;
			/* Symlinks and submodules must keep their type. */
			if ((!is_regular(o) || !is_regular(t)) &&
			    o->mode != t->mode)
				continue;
			if (src[s].used)
				continue;
			score = 1 + basename_same(o->path, t->path);
			if (score > best_score) {
				best = &src[s];
				best_score = score;
				if (score == 2)
					break;
			}
			if (!--left)
				break;
		}
		if (best)
			record_rename(best, &dst[d], MAX_SCORE);
	}
}

struct name_index {
	const char *name;
	size_t index;
};

static int name_index_cmp(const void *a_, const void *b_)
{
	const struct name_index *a = a_, *b = b_;
	int cmp = strcmp(a->name, b->name);

	if (cmp)
		return cmp;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* The unused candidates' basenames, sorted. */
static struct name_index *basenames(struct cand *c, size_t nr, size_t *out_nr)
{
	struct name_index *v = xcalloc(nr, sizeof(*v));
	size_t i;

	*out_nr = 0;
	for (i = 0; i < nr; i++) {
		if (c[i].used)
			continue;
		v[*out_nr].name = basename_of(c[i].side->path);
		v[(*out_nr)++].index = i;
	}
	QSORT(v, *out_nr, name_index_cmp);
	return v;
}

/* 1 and *index if name is there once, 0 if not there, -1 if several. */
static int lookup_name(const struct name_index *v, size_t nr, const char *name,
		       size_t *index)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == nr || strcmp(v[lo].name, name))
		return 0;
	if (lo + 1 < nr && !strcmp(v[lo + 1].name, name))
		return -1;
	*index = v[lo].index;
	return 1;
}

/* A file moved to another directory under its own name, mostly kept. */
static int find_basename(git_repository *repo, struct cand *src, size_t nr_src,
			 struct cand *dst, size_t nr_dst)
{
	struct name_index *srcs, *dsts;
	size_t nr_srcs, nr_dsts, i;
	int ret = 0;

	srcs = basenames(src, nr_src, &nr_srcs);
	dsts = basenames(dst, nr_dst, &nr_dsts);
	for (i = 0; i < nr_srcs && !ret; i++) {
		const char *name = srcs[i].name;
		size_t s, d;
		int score;

		if (lookup_name(srcs, nr_srcs, name, &s) != 1 ||
		    lookup_name(dsts, nr_dsts, name, &d) != 1 || dst[d].used)
			continue;
		score = similarity(repo, &src[s], &dst[d], BASENAME_SCORE);
		if (score < 0)
			ret = -1;
		else if (score >= BASENAME_SCORE)
			record_rename(&src[s], &dst[d], score);
	}
	free(srcs);
	free(dsts);
	return ret;
}

/* git's score_compare(): best first, unused slots last. */
static int score_cmp(const struct score *a, const struct score *b)
{
	if (a->dst < 0)
		return 0 <= b->dst;
	else if (b->dst < 0)
		return -1;
	if (a->score == b->score)
		return b->name_score - a->name_score;
	return b->score - a->score;
}

static int score_sort_cmp(const void *a_, const void *b_)
{
	const struct score *a = a_, *b = b_;
	int cmp = score_cmp(a, b);

	if (cmp)
		return cmp;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Keeps the CANDIDATES_PER_DST best sources of a destination. */
static void record_if_better(struct score *m, const struct score *o)
{
	int i, worst = 0;

	for (i = 1; i < CANDIDATES_PER_DST; i++)
		if (score_cmp(&m[i], &m[worst]) > 0)
			worst = i;
	if (score_cmp(&m[worst], o) > 0)
		m[worst] = *o;
}

static int find_inexact(git_repository *repo, struct cand *src, size_t nr_src,
			struct cand *dst, size_t nr_dst)
{
	size_t left_src = 0, left_dst = 0, nr = 0, d, s, i;
	struct score *mx;

	for (s = 0; s < nr_src; s++)
		left_src += !src[s].used;
	for (d = 0; d < nr_dst; d++)
		left_dst += !dst[d].used;
	/* Too many: git gives up on inexact renames. */
	if (!left_src || !left_dst ||
	    (uint64_t)left_src * left_dst >
	    (uint64_t)RENAME_LIMIT * RENAME_LIMIT)
		return 0;

	mx = xcalloc(left_dst * CANDIDATES_PER_DST, sizeof(*mx));
	for (d = 0; d < nr_dst; d++) {
		struct score *m = &mx[nr * CANDIDATES_PER_DST];

		if (dst[d].used)
			continue;
		for (i = 0; i < CANDIDATES_PER_DST; i++)
			m[i].dst = -1;
		for (s = 0; s < nr_src; s++) {
			struct score this;
			int score;

			if (src[s].used)
				continue;
			score = similarity(repo, &src[s], &dst[d], MIN_SCORE);
			if (score < 0) {
				free(mx);
				return -1;
			}
			this.score = (unsigned short)score;
			this.name_score = (short)basename_same(
				src[s].side->path, dst[d].side->path);
			this.dst = (int)d;
			this.src = (int)s;
			this.pos = 0;
			record_if_better(m, &this);
		}
		nr++;
	}
	for (i = 0; i < nr * CANDIDATES_PER_DST; i++)
		mx[i].pos = i;
	QSORT(mx, nr * CANDIDATES_PER_DST, score_sort_cmp);
	for (i = 0; i < nr * CANDIDATES_PER_DST; i++) {
		if (mx[i].dst < 0 || mx[i].score < MIN_SCORE)
			break;
		if (dst[mx[i].dst].used || src[mx[i].src].used)
			continue;
		record_rename(&src[mx[i].src], &dst[mx[i].dst], mx[i].score);
	}
	free(mx);
	return 0;
}

int patchid_detect_renames(git_repository *repo, struct filepair *pairs,
			   size_t nr)
{
	struct cand *src = NULL, *dst = NULL;
	size_t nr_src = 0, nr_dst = 0, alloc_src = 0, alloc_dst = 0, i;
	int ret = 0;

	for (i = 0; i < nr; i++) {
		struct filepair *p = &pairs[i];

		if (!p->one.mode) {
			ALLOC_GROW(dst, nr_dst, alloc_dst);
			memset(&dst[nr_dst], 0, sizeof(*dst));
			dst[nr_dst].pair = p;
			dst[nr_dst++].side = &p->two;
		} else if (!p->two.mode) {
			ALLOC_GROW(src, nr_src, alloc_src);
			memset(&src[nr_src], 0, sizeof(*src));
			src[nr_src].pair = p;
			src[nr_src++].side = &p->one;
		}
	}
	if (nr_src && nr_dst) {
		find_exact(src, nr_src, dst, nr_dst);
		ret = find_basename(repo, src, nr_src, dst, nr_dst);
		if (!ret)
			ret = find_inexact(repo, src, nr_src, dst, nr_dst);
	}
	for (i = 0; i < nr_src; i++)
		free(src[i].spans);
	for (i = 0; i < nr_dst; i++)
		free(dst[i].spans);
	free(src);
	free(dst);
	return ret;
}
