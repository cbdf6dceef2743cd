#include "git/commitgraph.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#define HASH_LEN 20
#define HEADER_LEN 8
#define CHUNK_ENTRY_LEN 12
#define CDAT_LEN (HASH_LEN + 16)
#define BDAT_HEADER_LEN 12

#define PARENT_NONE 0x70000000u
#define PARENT_EDGE 0x80000000u
#define EDGE_LAST 0x80000000u
#define GDA2_OVERFLOW 0x80000000u

/* The chunk ids, as the 4 bytes read big-endian. */
#define ID(a, b, c, d) \
	(((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (d))
#define ID_OIDF ID('O', 'I', 'D', 'F')
#define ID_OIDL ID('O', 'I', 'D', 'L')
#define ID_CDAT ID('C', 'D', 'A', 'T')
#define ID_GDA2 ID('G', 'D', 'A', '2')
#define ID_GDO2 ID('G', 'D', 'O', '2')
#define ID_EDGE ID('E', 'D', 'G', 'E')
#define ID_BIDX ID('B', 'I', 'D', 'X')
#define ID_BDAT ID('B', 'D', 'A', 'T')
#define ID_BASE ID('B', 'A', 'S', 'E')

struct chunk {
	const unsigned char *data;
	uint64_t size;
};

/* One file: the whole graph, or one layer of a split chain. */
struct layer {
	char *path;
	unsigned char *map;
	size_t size;
	uint32_t nr;		/* commits of this layer */
	uint32_t base;		/* commits of the layers below it */
	unsigned int nr_bases;	/* the header's B */
	struct chunk oidf, oidl, cdat, gda2, gdo2, edge, bidx, bdat, basel;
	uint32_t bloom_version, num_hashes, bits_per_entry;
};

struct commit_graph {
	struct layer *layers;	/* base first */
	size_t nr_layers;
	uint32_t nr;
	int corrected_dates;	/* every layer has GDA2 */
	int bloom;		/* every layer has filters, the same way */
	uint32_t bloom_version, num_hashes, bits_per_entry;
	int warned;		/* damage seen while reading, said once */
};

static uint32_t get_be32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

static uint64_t get_be64(const unsigned char *p)
{
	return ((uint64_t)get_be32(p) << 32) | get_be32(p + 4);
}

static void layer_release(struct layer *l)
{
	if (l->map)
		munmap(l->map, l->size);
	free(l->path);
	memset(l, 0, sizeof(*l));
}

/*
 * Maps path; 1 when it is there, 0 when it is not (ENOENT), -1 with
 * *why set when it cannot be read.
 */
static int layer_map(struct layer *l, const char *path, struct strbuf *why)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	l->path = xstrdup(path);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		strbuf_addstr(why, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		strbuf_addstr(why, strerror(errno));
		close(fd);
		return -1;
	}
	if (st.st_size < HEADER_LEN + CHUNK_ENTRY_LEN + HASH_LEN) {
		close(fd);
		strbuf_addf(why, "file too short (%lld bytes)",
			    (long long)st.st_size);
		return -1;
	}
	l->size = st.st_size;
	l->map = mmap(NULL, l->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (l->map == MAP_FAILED) {
		l->map = NULL;
		strbuf_addf(why, "cannot map it: %s", strerror(errno));
		return -1;
	}
	return 1;
}

static struct chunk *chunk_slot(struct layer *l, uint32_t id)
{
	switch (id) {
	case ID_OIDF: return &l->oidf;
	case ID_OIDL: return &l->oidl;
	case ID_CDAT: return &l->cdat;
	case ID_GDA2: return &l->gda2;
	case ID_GDO2: return &l->gdo2;
	case ID_EDGE: return &l->edge;
	case ID_BIDX: return &l->bidx;
	case ID_BDAT: return &l->bdat;
	case ID_BASE: return &l->basel;
	default: return NULL;	/* a chunk of a later git, not needed */
	}
}

/*
 * The table of contents: C entries and a terminating one, whose offset
 * ends the last chunk.  Offsets must not decrease and must stay before
 * the trailing checksum, so that every chunk lies inside the file.
 */
static int read_chunks(struct layer *l, struct strbuf *why)
{
	unsigned int nr = l->map[6], i;
	uint64_t end = l->size - HASH_LEN;
	uint64_t table_end = HEADER_LEN + (uint64_t)(nr + 1) * CHUNK_ENTRY_LEN;
	const unsigned char *e;

	if (table_end > end) {
		strbuf_addf(why, "chunk table of %u chunks past the end", nr);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		uint32_t id;
		uint64_t off, next;
		struct chunk *c;

		e = l->map + HEADER_LEN + i * CHUNK_ENTRY_LEN;
		id = get_be32(e);
		off = get_be64(e + 4);
		next = get_be64(e + CHUNK_ENTRY_LEN + 4);
		if (!id) {
			strbuf_addf(why, "chunk %u has id 0", i);
			return -1;
		}
		if (off < table_end || off > next || next > end) {
			strbuf_addf(why, "chunk %u offset %llu out of the file",
				    i, (unsigned long long)off);
			return -1;
		}
		c = chunk_slot(l, id);
		if (!c)
			continue;
		if (c->data) {
			strbuf_addf(why, "chunk %u repeats an id", i);
			return -1;
		}
		c->data = l->map + off;
		c->size = next - off;
	}
	if (get_be32(l->map + HEADER_LEN + nr * CHUNK_ENTRY_LEN)) {
		strbuf_addstr(why, "chunk table not terminated");
		return -1;
	}
	return 0;
}

/* The fan-out must never decrease; its last entry is N. */
static int check_fanout(struct layer *l, struct strbuf *why)
{
	uint32_t prev = 0;
	int i;

	if (!l->oidf.data || l->oidf.size != 256 * 4) {
		strbuf_addstr(why, l->oidf.data ? "OIDF chunk of a wrong size" :
			      "no OIDF chunk");
		return -1;
	}
	for (i = 0; i < 256; i++) {
		uint32_t f = get_be32(l->oidf.data + 4 * i);

		if (f < prev) {
			strbuf_addf(why, "OIDF decreases at %d", i);
			return -1;
		}
		prev = f;
	}
	l->nr = prev;
	return 0;
}

/*
 * The chunks of a layer, their sizes against N.  Optional chunks of a
 * wrong size are damage too: git wrote them with N entries.
 */
static int check_sizes(struct layer *l, struct strbuf *why)
{
	uint64_t n = l->nr;

	if (!l->oidl.data || l->oidl.size != n * HASH_LEN) {
		strbuf_addstr(why, l->oidl.data ? "OIDL chunk of a wrong size" :
			      "no OIDL chunk");
		return -1;
	}
	if (!l->cdat.data || l->cdat.size != n * CDAT_LEN) {
		strbuf_addstr(why, l->cdat.data ? "CDAT chunk of a wrong size" :
			      "no CDAT chunk");
		return -1;
	}
	if (l->gda2.data && l->gda2.size != n * 4) {
		strbuf_addstr(why, "GDA2 chunk of a wrong size");
		return -1;
	}
	if (l->nr_bases && (!l->basel.data ||
			    l->basel.size != (uint64_t)l->nr_bases * HASH_LEN)) {
		strbuf_addstr(why, "BASE chunk missing or of a wrong size");
		return -1;
	}
	return 0;
}

/*
 * Bloom filters are taken only whole: BIDX of N entries, BDAT with its
 * header and a hash version this reader knows.  Otherwise the layer has
 * none (git, too, ignores filters it cannot use).
 */
static void read_bloom_settings(struct layer *l)
{
	const unsigned char *h = l->bdat.data;

	if (!l->bidx.data || !h || l->bidx.size != (uint64_t)l->nr * 4 ||
	    l->bdat.size < BDAT_HEADER_LEN)
		return;
	l->bloom_version = get_be32(h);
	l->num_hashes = get_be32(h + 4);
	l->bits_per_entry = get_be32(h + 8);
	if ((l->bloom_version != 1 && l->bloom_version != 2) ||
	    !l->num_hashes || l->num_hashes > 64)
		l->bloom_version = 0;
}

/*
 * Reads the header and chunks of a mapped file.  The trailing checksum
 * is not verified: that would read every byte of a graph of a million
 * commits on each open, and git does not either by default.  What is
 * checked is what keeps every later read inside the file.
 */
static int layer_parse(struct layer *l, struct strbuf *why)
{
	const unsigned char *h = l->map;

	if (memcmp(h, "CGPH", 4)) {
		strbuf_addstr(why, "bad signature");
		return -1;
	}
	if (h[4] != 1) {
		strbuf_addf(why, "unsupported version %u", h[4]);
		return -1;
	}
	if (h[5] != 1) {
		strbuf_addf(why, "unsupported hash version %u", h[5]);
		return -1;
	}
	l->nr_bases = h[7];
	if (read_chunks(l, why) < 0 || check_fanout(l, why) < 0 ||
	    check_sizes(l, why) < 0)
		return -1;
	read_bloom_settings(l);
	return 0;
}

static void damaged(const char *path, const struct strbuf *why)
{
	warning_aside("ignoring commit-graph '%s': %s", path, why->buf);
}

static void graph_free_layers(struct commit_graph *g)
{
	size_t i;

	for (i = 0; i < g->nr_layers; i++)
		layer_release(&g->layers[i]);
	free(g->layers);
	g->layers = NULL;
	g->nr_layers = 0;
}

/* Sets what depends on every layer: positions, generations, filters. */
static int graph_finish(struct commit_graph *g, struct strbuf *why)
{
	uint64_t total = 0;
	size_t i;

	g->corrected_dates = 1;
	g->bloom = 1;
	for (i = 0; i < g->nr_layers; i++) {
		struct layer *l = &g->layers[i];
		const struct layer *b = &g->layers[0];

		l->base = total;
		total += l->nr;
		if (!l->gda2.data)
			g->corrected_dates = 0;
		if (!l->bloom_version || l->bloom_version != b->bloom_version ||
		    l->num_hashes != b->num_hashes ||
		    l->bits_per_entry != b->bits_per_entry)
			g->bloom = 0;
	}
	/* The parent fields hold positions below PARENT_NONE. */
	if (total >= PARENT_NONE) {
		strbuf_addf(why, "too many commits (%llu)",
			    (unsigned long long)total);
		return -1;
	}
	g->nr = total;
	g->bloom_version = g->layers[0].bloom_version;
	g->num_hashes = g->layers[0].num_hashes;
	g->bits_per_entry = g->layers[0].bits_per_entry;
	return 0;
}

/* The single file objects/info/commit-graph: 1 read, 0 none, -1 damaged. */
static int open_single(struct commit_graph *g, const char *objdir)
{
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/info/commit-graph", objdir);
	g->layers = xcalloc(1, sizeof(*g->layers));
	g->nr_layers = 1;
	ret = layer_map(&g->layers[0], path.buf, &why);
	if (ret > 0 && layer_parse(&g->layers[0], &why) < 0)
		ret = -1;
	if (ret > 0 && g->layers[0].nr_bases) {
		strbuf_addstr(&why, "a single graph with base graphs");
		ret = -1;
	}
	if (ret > 0 && graph_finish(g, &why) < 0)
		ret = -1;
	if (ret < 0)
		damaged(path.buf, &why);
	if (ret <= 0)
		graph_free_layers(g);
	strbuf_release(&path);
	strbuf_release(&why);
	return ret;
}

/*
 * Layer i of a chain: its name's hash is its trailing checksum, it has
 * i bases, and its BASE chunk names the chain's layers below it.
 */
static int check_in_chain(const struct layer *l, size_t i,
			  unsigned char (*hashes)[HASH_LEN], struct strbuf *why)
{
	if (memcmp(l->map + l->size - HASH_LEN, hashes[i], HASH_LEN)) {
		strbuf_addstr(why, "its checksum does not match the chain");
		return -1;
	}
	if (l->nr_bases != i ||
	    (i && memcmp(l->basel.data, hashes, i * HASH_LEN))) {
		strbuf_addf(why, "its base graphs are not the %zu below it "
			    "in the chain", i);
		return -1;
	}
	return 0;
}

/* The hashes of the chain file, base first; -1 with why on a bad line. */
static int read_chain(const char *path, unsigned char (**hashes)[HASH_LEN],
		      size_t *nr, struct strbuf *why)
{
	FILE *fp = fopen(path, "r");
	char line[128];
	size_t alloc = 0;

	*hashes = NULL;
	*nr = 0;
	if (!fp) {
		if (errno == ENOENT)
			return 0;
		strbuf_addstr(why, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		size_t len = strcspn(line, "\n");
		git_oid id;

		if (len != 2 * HASH_LEN || !is_hex(line, len) ||
		    git_oid_fromstrn(&id, line, len) < 0) {
			strbuf_addf(why, "line %zu is not a graph's hash",
				    *nr + 1);
			fclose(fp);
			return -1;
		}
		ALLOC_GROW(*hashes, *nr, alloc);
		memcpy((*hashes)[(*nr)++], id.id, HASH_LEN);
	}
	fclose(fp);
	return 1;
}

/* The split chain of objects/info/commit-graphs: 1, 0 none, -1 damaged. */
static int open_chain(struct commit_graph *g, const char *objdir)
{
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
	unsigned char (*hashes)[HASH_LEN];
	size_t nr, i;
	int ret;

	strbuf_addf(&path, "%s/info/commit-graphs/commit-graph-chain", objdir);
	ret = read_chain(path.buf, &hashes, &nr, &why);
	if (ret > 0 && !nr)
		ret = 0;	/* an empty chain, as git leaves none */
	if (ret <= 0)
		goto out;
	g->layers = xcalloc(nr, sizeof(*g->layers));
	g->nr_layers = nr;
	for (i = 0; i < nr && ret > 0; i++) {
		struct layer *l = &g->layers[i];
		char hex[2 * HASH_LEN + 1];
		git_oid id;

		memcpy(id.id, hashes[i], HASH_LEN);
		git_oid_tostr(hex, sizeof(hex), &id);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/info/commit-graphs/graph-%s.graph",
			    objdir, hex);
		ret = layer_map(l, path.buf, &why);
		if (!ret) {
			strbuf_addstr(&why, "a layer of the chain is missing");
			ret = -1;
		}
		if (ret > 0 && (layer_parse(l, &why) < 0 ||
				check_in_chain(l, i, hashes, &why) < 0))
			ret = -1;
	}
	if (ret > 0 && graph_finish(g, &why) < 0)
		ret = -1;
out:
	if (ret < 0)
		damaged(path.buf, &why);
	if (ret <= 0)
		graph_free_layers(g);
	free(hashes);
	strbuf_release(&path);
	strbuf_release(&why);
	return ret;
}

/* core.commitGraph, true unless set false, as git reads it. */
static int graph_enabled(git_repository *repo)
{
	git_config *cfg = NULL;
	int on = 1, ret;

	if (git_repository_config_snapshot(&cfg, repo) < 0)
		return 1;
	ret = git_config_get_bool(&on, cfg, "core.commitGraph");
	if (ret < 0 && ret != GIT_ENOTFOUND) {
		warning_aside("ignoring core.commitGraph: %s",
			git_error_last() ? git_error_last()->message : "bad value");
		on = 1;
	}
	git_config_free(cfg);
	return on;
}

int commit_graph_open(struct commit_graph **out, git_repository *repo)
{
	struct commit_graph *g;
	struct strbuf objdir = STRBUF_INIT;
	int ret;

	*out = NULL;
	if (!graph_enabled(repo))
		return 0;
	/* The common directory: a worktree shares its repository's objects. */
	strbuf_addstr(&objdir, git_repository_commondir(repo));
	if (!objdir.len || objdir.buf[objdir.len - 1] != '/')
		strbuf_addch(&objdir, '/');
	strbuf_addstr(&objdir, "objects");

	/* As git: the single file first, else the chain. */
	g = xcalloc(1, sizeof(*g));
	ret = open_single(g, objdir.buf);
	if (!ret)
		ret = open_chain(g, objdir.buf);
	strbuf_release(&objdir);
	if (ret <= 0) {
		free(g);
		return 0;
	}
	*out = g;
	return 0;
}

void commit_graph_free(struct commit_graph *g)
{
	if (!g)
		return;
	graph_free_layers(g);
	free(g);
}

uint32_t commit_graph_nr(const struct commit_graph *g)
{
	return g->nr;
}

/* The layer of pos; *idx its index there. */
static const struct layer *layer_at(const struct commit_graph *g, uint32_t pos,
				    uint32_t *idx)
{
	size_t i = g->nr_layers;

	if (pos >= g->nr)
		BUG("commit-graph position %u of %u", pos, g->nr);
	while (pos < g->layers[i - 1].base)
		i--;
	*idx = pos - g->layers[i - 1].base;
	return &g->layers[i - 1];
}

static int layer_find(const struct layer *l, const git_oid *id, uint32_t *idx)
{
	unsigned char first = id->id[0];
	uint32_t lo = first ? get_be32(l->oidf.data + 4 * (first - 1)) : 0;
	uint32_t hi = get_be32(l->oidf.data + 4 * first);

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int cmp = memcmp(id->id, l->oidl.data + (size_t)mid * HASH_LEN,
				 HASH_LEN);

		if (!cmp) {
			*idx = mid;
			return 1;
		}
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

int commit_graph_find(const struct commit_graph *g, const git_oid *id,
		      uint32_t *pos)
{
	size_t i;
	uint32_t idx;

	for (i = g->nr_layers; i > 0; i--) {
		const struct layer *l = &g->layers[i - 1];

		if (layer_find(l, id, &idx)) {
			*pos = l->base + idx;
			return 1;
		}
	}
	return 0;
}

void commit_graph_oid(const struct commit_graph *g, uint32_t pos, git_oid *out)
{
	uint32_t idx;
	const struct layer *l = layer_at(g, pos, &idx);

	git_oid_fromraw(out, l->oidl.data + (size_t)idx * HASH_LEN);
}

static const unsigned char *cdat(const struct commit_graph *g, uint32_t pos,
				 const struct layer **l)
{
	uint32_t idx;

	*l = layer_at(g, pos, &idx);
	return (*l)->cdat.data + (size_t)idx * CDAT_LEN;
}

void commit_graph_tree(const struct commit_graph *g, uint32_t pos,
		       git_oid *out)
{
	const struct layer *l;

	git_oid_fromraw(out, cdat(g, pos, &l));
}

int64_t commit_graph_date(const struct commit_graph *g, uint32_t pos)
{
	const struct layer *l;
	const unsigned char *c = cdat(g, pos, &l) + HASH_LEN + 8;

	return ((int64_t)(get_be32(c) & 3) << 32) | get_be32(c + 4);
}

/* Damage found after the open (the graph is read lazily): said once. */
__attribute__((format(printf, 3, 4)))
static void damaged_late(const struct commit_graph *g, const struct layer *l,
			 const char *fmt, ...)
{
	struct strbuf why = STRBUF_INIT;
	va_list ap;

	if (g->warned)
		return;
	/* g is ours, allocated writable; only this flag changes. */
	((struct commit_graph *)g)->warned = 1;
	va_start(ap, fmt);
	strbuf_vaddf(&why, fmt, ap);
	va_end(ap);
	warning_aside("damaged commit-graph '%s': %s", l->path, why.buf);
	strbuf_release(&why);
}

uint64_t commit_graph_generation(const struct commit_graph *g, uint32_t pos)
{
	const struct layer *l;
	const unsigned char *c = cdat(g, pos, &l);
	uint32_t idx = pos - l->base, off;

	if (!g->corrected_dates)
		return get_be32(c + HASH_LEN + 8) >> 2;
	off = get_be32(l->gda2.data + (size_t)idx * 4);
	if (off & GDA2_OVERFLOW) {
		uint64_t i = off & ~GDA2_OVERFLOW;

		if ((i + 1) * 8 > l->gdo2.size) {
			damaged_late(g, l, "GDO2 entry %llu out of the chunk",
				     (unsigned long long)i);
			return commit_graph_date(g, pos);
		}
		return commit_graph_date(g, pos) + get_be64(l->gdo2.data + i * 8);
	}
	return commit_graph_date(g, pos) + off;
}

/* Adds parent p to out if it is a position of the graph. */
static void add_parent(const struct commit_graph *g, const struct layer *l,
		       uint32_t p, uint32_t *out, unsigned int max,
		       unsigned int *nr)
{
	if (p >= g->nr) {
		damaged_late(g, l, "parent position %u out of the graph", p);
		return;
	}
	if (*nr < max)
		out[*nr] = p;
	(*nr)++;
}

unsigned int commit_graph_parents(const struct commit_graph *g, uint32_t pos,
				  uint32_t *out, unsigned int max)
{
	const struct layer *l;
	const unsigned char *c = cdat(g, pos, &l) + HASH_LEN;
	uint32_t p1 = get_be32(c), p2 = get_be32(c + 4);
	unsigned int nr = 0;
	uint64_t e;

	if (p1 == PARENT_NONE)
		return 0;
	add_parent(g, l, p1, out, max, &nr);
	if (p2 == PARENT_NONE)
		return nr;
	if (!(p2 & PARENT_EDGE)) {
		add_parent(g, l, p2, out, max, &nr);
		return nr;
	}
	/* An octopus: the second and later parents are in EDGE. */
	for (e = p2 & ~PARENT_EDGE; ; e++) {
		uint32_t v;

		if ((e + 1) * 4 > l->edge.size) {
			damaged_late(g, l, "EDGE entry %llu out of the chunk",
				     (unsigned long long)e);
			break;
		}
		v = get_be32(l->edge.data + e * 4);
		add_parent(g, l, v & ~EDGE_LAST, out, max, &nr);
		if (v & EDGE_LAST)
			break;
	}
	return nr;
}

static uint32_t rotl32(uint32_t x, int r)
{
	return (x << r) | (x >> (32 - r));
}

/* A byte as git's first murmur3 read it: through a signed char. */
static uint32_t signed_byte(unsigned char b)
{
	return b & 0x80 ? 0xffffff00u | b : b;
}

/* The 4 bytes of a block, little-endian; version 1 as git read them. */
static uint32_t block(int version, const unsigned char *p)
{
	if (version == 1)
		return signed_byte(p[0]) | (signed_byte(p[1]) << 8) |
		       (signed_byte(p[2]) << 16) | (signed_byte(p[3]) << 24);
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) |
	       ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/*
 * murmur3's 32-bit hash.  Version 1 is git's first implementation,
 * which read each byte through a (signed, on x86) char: a byte of 0x80
 * or more is sign-extended before it is shifted into place, so its high
 * bits are ORed over the bytes after it in a block and XORed into the
 * tail.  The filters of git before the fix (and of
 * commitGraph.changedPathsVersion=1) are hashed that way, so paths
 * must be hashed that way to be found in them.  Version 2 is the hash
 * as specified.
 */
uint32_t commit_graph_murmur3(int version, uint32_t seed, const void *data,
			      size_t len)
{
	const uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
	const unsigned char *p = data;
	size_t i, body = len & ~(size_t)3;
	uint32_t h = seed, k;

	for (i = 0; i < body; i += 4) {
		k = block(version, p + i);
		k *= c1;
		k = rotl32(k, 15);
		k *= c2;
		h ^= k;
		h = rotl32(h, 13) * 5 + 0xe6546b64;
	}
	k = 0;
	for (i = len - body; i > 0; i--) {
		unsigned char b = p[body + i - 1];

		k ^= (version == 1 ? signed_byte(b) : b) << (8 * (i - 1));
	}
	if (len & 3) {
		k *= c1;
		k = rotl32(k, 15);
		k *= c2;
		h ^= k;
	}
	h ^= (uint32_t)len;
	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	h ^= h >> 16;
	return h;
}

int commit_graph_has_bloom(const struct commit_graph *g)
{
	return g->bloom;
}

/* The num_hashes positions of path: two seeds, double hashing. */
static void fill_hashes(uint32_t *out, uint32_t n, int version,
			const char *path, size_t len)
{
	uint32_t h0 = commit_graph_murmur3(version, 0x293ae76f, path, len);
	uint32_t h1 = commit_graph_murmur3(version, 0x7e646e2c, path, len);
	uint32_t i;

	for (i = 0; i < n; i++)
		out[i] = h0 + i * h1;
}

/*
 * A version 1 key holds two sets: the hash as git computes it where
 * char is signed (x86), then as where it is unsigned (arm64, ppc64le,
 * s390x), which is version 2's.  git of either kind labels its filters
 * version 1, and a path with a byte of 0x80 or more hashes differently
 * on the two; a filter is asked with both, so that it never denies a
 * path it holds.  For other paths the sets are the same.
 */
void commit_graph_bloom_key(const struct commit_graph *g, const char *path,
			    struct commit_graph_bloom_key *key)
{
	size_t len = strlen(path);
	uint32_t n = g->num_hashes;

	if (!g->bloom)
		BUG("commit_graph_bloom_key() on a graph without filters");
	key->hashes = xcalloc(g->bloom_version == 1 ? 2 * n : n,
			      sizeof(*key->hashes));
	fill_hashes(key->hashes, n, g->bloom_version, path, len);
	if (g->bloom_version == 1)
		fill_hashes(key->hashes + n, n, 2, path, len);
}

void commit_graph_bloom_key_release(struct commit_graph_bloom_key *key)
{
	free(key->hashes);
	key->hashes = NULL;
}

/* The filter of pos (bytes), or NULL when the graph has none for it. */
static const unsigned char *filter_at(const struct commit_graph *g,
				      uint32_t pos, uint64_t *len)
{
	uint32_t idx, start, end;
	const struct layer *l = layer_at(g, pos, &idx);
	uint64_t room = l->bdat.size - BDAT_HEADER_LEN;

	end = get_be32(l->bidx.data + (size_t)idx * 4);
	start = idx ? get_be32(l->bidx.data + (size_t)(idx - 1) * 4) : 0;
	if (start > end || end > room) {
		damaged_late(g, l, "BIDX entry %u out of the BDAT chunk", idx);
		return NULL;
	}
	*len = end - start;
	return l->bdat.data + BDAT_HEADER_LEN + start;
}

/* Whether every one of the n positions of hashes is set in filter f. */
static int filter_has(const unsigned char *f, uint64_t len,
		      const uint32_t *hashes, uint32_t n)
{
	uint64_t bits = len * 8;
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint64_t bit = hashes[i] % bits;

		if (!(f[bit / 8] & (1u << (bit % 8))))
			return 0;
	}
	return 1;
}

int commit_graph_bloom_maybe(const struct commit_graph *g, uint32_t pos,
			     const struct commit_graph_bloom_key *keys,
			     size_t nr)
{
	const unsigned char *f;
	uint64_t len;
	size_t i;

	if (!g->bloom)
		return -1;
	f = filter_at(g, pos, &len);
	/* Zero length: the filter was not computed (commitGraph.maxNewFilters). */
	if (!f || !len)
		return -1;
	for (i = 0; i < nr; i++) {
		const uint32_t *h = keys[i].hashes;
		uint32_t n = g->num_hashes;

		if (filter_has(f, len, h, n) ||
		    (g->bloom_version == 1 && filter_has(f, len, h + n, n)))
			return 1;
	}
	return 0;
}
