#include "testannot.h"
#include "ascii.h"
#include "error.h"
#include "strbuf.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <uthash.h>

/*
 * Both parsers are a lexer and a small state machine over its tokens,
 * with explicit stacks where the input nests ($(...) in "..." in a
 * word, if in a function body): nothing recurses on the input, and
 * every byte is looked at a bounded number of times.  A construct left
 * open at the end of a file is recorded as a problem; the shell lexer
 * then reads the word again with that kind of construct taken as
 * literal text from where it opened, at most MAX_RESTARTS times a file,
 * so that one stray quote does not hide the rest of the file.
 */

/* Times a file is read again after a quote that does not close. */
#define MAX_RESTARTS 8
/* Bytes of a name quoted in a problem, at most. */
#define QUOTE_MAX 40

static const char fstests_suite[] = "fstests";
static const char ltp_suite[] = "ltp";

/* --- the set ---------------------------------------------------------- */

const char *testannot_kind_name(enum testannot_kind kind)
{
	switch (kind) {
	case TESTANNOT_FIXED_BY:
		return "fixed-by";
	case TESTANNOT_WANTS:
		return "wants";
	case TESTANNOT_STABLE:
		return "stable-fix";
	case TESTANNOT_CVE:
		return "cve";
	}
	return "unknown";
}

void testannot_set_init(struct testannot_set *set)
{
	memset(set, 0, sizeof(*set));
}

static void annot_release(struct testannot *a)
{
	free(a->test);
	free(a->how);
	free(a->sha);
	free(a->subject);
	free(a->fstyp);
	free(a->file);
	free(a->via);
}

void testannot_set_release(struct testannot_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		annot_release(&set->items[i]);
	free(set->items);
	for (i = 0; i < set->nr_problems; i++) {
		free(set->problems[i].file);
		free(set->problems[i].message);
	}
	free(set->problems);
	testannot_set_init(set);
}

static char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Copies *a into dst; suite is static and stays shared. */
static void annot_copy(struct testannot *dst, const struct testannot *a)
{
	dst->test = xstrdup_or_null(a->test);
	dst->suite = a->suite;
	dst->kind = a->kind;
	dst->how = xstrdup_or_null(a->how);
	dst->sha = xstrdup_or_null(a->sha);
	dst->subject = xstrdup_or_null(a->subject);
	dst->fstyp = xstrdup_or_null(a->fstyp);
	dst->file = xstrdup_or_null(a->file);
	dst->line = a->line;
	dst->via = xstrdup_or_null(a->via);
}

static void add_item(struct testannot_set *set, const struct testannot *a)
{
	ALLOC_GROW(set->items, set->nr, set->alloc);
	annot_copy(&set->items[set->nr++], a);
}

/* A problem whose message is prefix, then name quoted, then suffix. */
static void add_problem(struct testannot_set *set, const char *file,
			unsigned line, const char *prefix, const char *name,
			const char *suffix)
{
	struct testannot_problem *pr;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, prefix);
	if (name) {
		strbuf_addch(&sb, '\'');
		strbuf_add_quoted(&sb, name, strlen(name), QUOTE_MAX);
		strbuf_addch(&sb, '\'');
	}
	strbuf_addstr(&sb, suffix);
	ALLOC_GROW(set->problems, set->nr_problems, set->alloc_problems);
	pr = &set->problems[set->nr_problems++];
	pr->file = xstrdup(file);
	pr->line = line;
	pr->message = strbuf_detach(&sb, NULL);
}

struct sort_entry {
	struct testannot item;
	size_t seq;
};

static int cmp_entry(const void *va, const void *vb)
{
	const struct sort_entry *a = va, *b = vb;
	int c = strcmp(a->item.test, b->item.test);

	if (c)
		return c;
	c = strcmp(a->item.file, b->item.file);
	if (c)
		return c;
	if (a->item.line != b->item.line)
		return a->item.line < b->item.line ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void testannot_set_sort(struct testannot_set *set)
{
	struct sort_entry *v;
	size_t i;

	if (set->nr < 2)
		return;
	v = xmalloc(set->nr * sizeof(*v));
	for (i = 0; i < set->nr; i++) {
		v[i].item = set->items[i];
		v[i].seq = i;
	}
	QSORT(v, set->nr, cmp_entry);
	for (i = 0; i < set->nr; i++)
		set->items[i] = v[i].item;
	free(v);
}

int testannot_sha_ok(const char *sha)
{
	size_t n = strlen(sha);

	return n >= 7 && n <= 40 && is_hex(sha, n);
}

/* --- characters ------------------------------------------------------ */

/* A blank of the shell and of C: also \r, \f and \v. */
static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Non-zero if c is one of the characters of set (NUL is not). */
static int is_one_of(int c, const char *set)
{
	return c > 0 && strchr(set, c);
}

/* Characters that end an unquoted shell word. */
static int is_sh_break(int c)
{
	return is_space(c) || c == '\n' || c == ';' || c == '&' || c == '|' ||
		c == '<' || c == '>' || c == '(' || c == ')';
}

/* A name a shell function can have, as fstests writes them. */
static int is_func_name(const char *s)
{
	size_t i;

	if (!is_alpha((unsigned char)*s) && *s != '_')
		return 0;
	for (i = 1; s[i]; i++) {
		int c = (unsigned char)s[i];

		if (!is_alpha(c) && !is_digit(c) && c != '_' && c != '-' &&
		    c != '.' && c != ':')
			return 0;
	}
	return 1;
}

/* A filesystem name compared with $FSTYP: "xfs", "ext4", "9p". */
static int is_fs_name(const char *s)
{
	size_t i;

	if (!*s)
		return 0;
	for (i = 0; s[i]; i++) {
		int c = (unsigned char)s[i];

		if (!is_alpha(c) && !is_digit(c) && c != '_' && c != '-' &&
		    c != '.')
			return 0;
	}
	return 1;
}

/* --- helpers (common/) ------------------------------------------------ */

struct helper_call {
	char *name;		/* until testannot_helpers_finish() */
	size_t to;		/* then the callee's index in the list */
	char *fstyp;		/* the call is only on this filesystem */
};

struct helper {
	char *name;
	char *via;		/* "common/xfs:_require_foo" */
	size_t idx;		/* in testannot_helpers.list */
	struct testannot *annots;	/* test, suite and via unset */
	size_t nr_annots, alloc_annots;
	struct helper_call *calls;	/* [0, nr_resolved) are resolved */
	size_t nr_calls, alloc_calls, nr_resolved;
	UT_hash_handle hh;
};

struct testannot_helpers {
	struct helper *by_name;		/* uthash by name */
	struct helper **list;		/* as first defined */
	size_t nr, alloc;
};

struct testannot_helpers *testannot_helpers_new(void)
{
	return xcalloc(1, sizeof(struct testannot_helpers));
}

void testannot_helpers_free(struct testannot_helpers *h)
{
	size_t i, j;

	if (!h)
		return;
	HASH_CLEAR(hh, h->by_name);
	for (i = 0; i < h->nr; i++) {
		struct helper *hp = h->list[i];

		for (j = 0; j < hp->nr_annots; j++)
			annot_release(&hp->annots[j]);
		free(hp->annots);
		for (j = 0; j < hp->nr_calls; j++) {
			free(hp->calls[j].name);
			free(hp->calls[j].fstyp);
		}
		free(hp->calls);
		free(hp->name);
		free(hp->via);
		free(hp);
	}
	free(h->list);
	free(h);
}

/* The helper called name, made (defined in file) if it is new. */
static struct helper *helper_get(struct testannot_helpers *h,
				 const char *name, const char *file)
{
	struct helper *hp;

	HASH_FIND_STR(h->by_name, name, hp);
	if (hp)
		return hp;
	hp = xcalloc(1, sizeof(*hp));
	hp->name = xstrdup(name);
	hp->via = xstrfmt("%s:%s", file, name);
	hp->idx = h->nr;
	ALLOC_GROW(h->list, h->nr, h->alloc);
	h->list[h->nr++] = hp;
	HASH_ADD_KEYPTR(hh, h->by_name, hp->name, strlen(hp->name), hp);
	return hp;
}

void testannot_helpers_finish(struct testannot_helpers *h)
{
	size_t i, j;

	if (!h)
		return;
	for (i = 0; i < h->nr; i++) {
		struct helper *hp = h->list[i], *to;

		for (j = hp->nr_resolved; j < hp->nr_calls; j++) {
			struct helper_call c = hp->calls[j];

			HASH_FIND_STR(h->by_name, c.name, to);
			free(c.name);
			if (!to) {
				free(c.fstyp);
				continue;
			}
			c.name = NULL;
			c.to = to->idx;
			hp->calls[hp->nr_resolved++] = c;
		}
		hp->nr_calls = hp->nr_resolved;
	}
}

/* --- the shell lexer (fstests) ---------------------------------------- */

/*
 * What a word being read is inside of.  From F_BQ on, the text is kept
 * as written, quotes and all: only the outer level of a word is
 * unquoted.
 */
enum frame_type {
	F_SQ,		/* '...' (or $'...') */
	F_DQ,		/* "..." */
	F_BQ,		/* `...` */
	F_SUBST,	/* $(...) and $((...)) */
	F_PARAM,	/* ${...} */
	F_PAREN,	/* ((...)), name=(...), <(...) */
	NR_FRAME
};

struct frame {
	enum frame_type type;
	unsigned line;
	size_t pos;		/* of its opening character */
	size_t depth;		/* F_SUBST, F_PAREN: parentheses open */
	int arith;		/* arithmetic: "<<" is a shift */
	int ansi;		/* $'...': backslash escapes */
};

struct heredoc {
	char *delim;
	int strip_tabs;
	unsigned line;
};

struct sh_word {
	struct strbuf val;
	unsigned line;
	int quoted;		/* some of it was quoted or escaped */
	int var;		/* it has a $ expansion */
};

enum sh_tok {
	T_EOF, T_WORD, T_NEWLINE, T_SEMI, T_AMP, T_AND, T_OR, T_PIPE,
	T_DSEMI, T_LPAREN, T_RPAREN, T_REDIR
};

struct sh_lexer {
	const char *buf;
	size_t len, pos;
	unsigned line;
	struct testannot_set *set;
	const char *file;
	struct frame *frames;
	size_t nr_frames, alloc_frames;
	size_t raw;		/* frames from F_BQ on */
	struct heredoc *docs;	/* bodies start after the next line end */
	size_t nr_docs, alloc_docs;
	size_t kill_from[NR_FRAME];	/* taken as text from here on */
	int restarts;
	struct sh_word scratch;	/* redirection targets */
};

static int at(const struct sh_lexer *lx, size_t off)
{
	return lx->pos + off < lx->len ?
		(unsigned char)lx->buf[lx->pos + off] : -1;
}

static struct frame *top_frame(struct sh_lexer *lx)
{
	return lx->nr_frames ? &lx->frames[lx->nr_frames - 1] : NULL;
}

/*
 * Opens a frame at the cursor, unless a frame of its type was found
 * not to close from here on; returns 1 if it did.  The caller moves
 * the cursor.
 */
static int open_frame(struct sh_lexer *lx, enum frame_type type)
{
	struct frame *f;

	if (lx->pos >= lx->kill_from[type])
		return 0;
	ALLOC_GROW(lx->frames, lx->nr_frames, lx->alloc_frames);
	f = &lx->frames[lx->nr_frames++];
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->line = lx->line;
	f->pos = lx->pos;
	if (type >= F_BQ)
		lx->raw++;
	return 1;
}

static void close_frame(struct sh_lexer *lx)
{
	if (lx->frames[lx->nr_frames - 1].type >= F_BQ)
		lx->raw--;
	lx->nr_frames--;
}

static void queue_heredoc(struct sh_lexer *lx, const char *delim,
			  int strip_tabs)
{
	struct heredoc *d;

	ALLOC_GROW(lx->docs, lx->nr_docs, lx->alloc_docs);
	d = &lx->docs[lx->nr_docs++];
	d->delim = xstrdup(delim);
	d->strip_tabs = strip_tabs;
	d->line = lx->line;
}

static void drop_heredocs(struct sh_lexer *lx, size_t keep)
{
	while (lx->nr_docs > keep)
		free(lx->docs[--lx->nr_docs].delim);
}

/* Skips the bodies of the here-documents queued, at a line start. */
static void read_heredocs(struct sh_lexer *lx)
{
	size_t i;

	for (i = 0; i < lx->nr_docs; i++) {
		const struct heredoc *d = &lx->docs[i];
		size_t dlen = strlen(d->delim);
		int closed = 0;

		while (!closed && lx->pos < lx->len) {
			const char *p = lx->buf + lx->pos;
			const char *nl = memchr(p, '\n', lx->len - lx->pos);
			size_t n = nl ? (size_t)(nl - p) : lx->len - lx->pos;
			size_t s = 0;

			if (d->strip_tabs)
				while (s < n && p[s] == '\t')
					s++;
			closed = n - s == dlen &&
				!memcmp(p + s, d->delim, dlen);
			lx->pos += n + (nl ? 1 : 0);
			if (nl)
				lx->line++;
		}
		if (!closed)
			add_problem(lx->set, lx->file, d->line,
				    "here-document ", d->delim,
				    " is not closed");
	}
	drop_heredocs(lx, 0);
}

/* At a '\n' that ends a line (not one inside quotes). */
static void end_line(struct sh_lexer *lx)
{
	lx->pos++;
	lx->line++;
	if (lx->nr_docs)
		read_heredocs(lx);
}

/*
 * Appends the next n bytes to w and moves past them.  A NUL byte is
 * dropped, as bash drops it from its input: a word ends up a C string,
 * and one cut short at a NUL byte would lose the rest of it (a subject
 * word "\0x" became an empty subject).
 */
static void add_raw(struct sh_lexer *lx, struct sh_word *w, size_t n)
{
	const char *p = lx->buf + lx->pos, *end = p + n, *nul;

	while ((nul = memchr(p, '\0', (size_t)(end - p)))) {
		strbuf_add(&w->val, p, (size_t)(nul - p));
		p = nul + 1;
	}
	strbuf_add(&w->val, p, (size_t)(end - p));
	lx->pos += n;
}

/* At a '$': an expansion, or a '$' taken as it is. */
static void read_dollar(struct sh_lexer *lx, struct sh_word *w)
{
	int n = at(lx, 1);
	struct frame *f;

	if (n == '(' && open_frame(lx, F_SUBST)) {
		f = top_frame(lx);
		f->depth = 1;
		f->arith = at(lx, 2) == '(';
		w->var = 1;
		add_raw(lx, w, 2);
		return;
	}
	if (n == '{' && open_frame(lx, F_PARAM)) {
		w->var = 1;
		add_raw(lx, w, 2);
		return;
	}
	if (n == '\'' && !lx->nr_frames && open_frame(lx, F_SQ)) {
		/* $'...' outside quotes: quotes removed. */
		top_frame(lx)->ansi = 1;
		w->quoted = 1;
		lx->pos += 2;
		return;
	}
	if (n >= 0 && (is_alpha(n) || is_digit(n) || is_one_of(n, "_@*#?$!-")))
		w->var = 1;
	add_raw(lx, w, 1);
}

/*
 * "<<" inside $(...): a here-document whose delimiter is read here,
 * quotes removed, so that its body is skipped at the next line end.
 */
static void read_subst_heredoc(struct sh_lexer *lx, struct sh_word *w)
{
	struct strbuf delim = STRBUF_INIT;
	int strip = 0, quoted = 0, c;

	if (at(lx, 2) == '<') {
		add_raw(lx, w, 3);
		return;
	}
	add_raw(lx, w, 2);
	if (at(lx, 0) == '-') {
		strip = 1;
		add_raw(lx, w, 1);
	}
	while ((c = at(lx, 0)) == ' ' || c == '\t')
		add_raw(lx, w, 1);
	while ((c = at(lx, 0)) >= 0 && !is_sh_break(c)) {
		if (c == '\'' || c == '"' || c == '\\')
			quoted = 1;
		else if (c)
			strbuf_addch(&delim, c);
		add_raw(lx, w, 1);
	}
	if (delim.len || quoted)
		queue_heredoc(lx, delim.buf, strip);
	strbuf_release(&delim);
}

/* A character of a word outside quotes; returns 0 at its end. */
static int step_outer(struct sh_lexer *lx, struct sh_word *w, int c)
{
	struct frame *f;

	switch (c) {
	case '(':
		/* "name=(a b)", "((i++))", "<(cmd)" */
		if (!w->quoted && w->val.len &&
		    (w->val.buf[w->val.len - 1] == '=' ||
		     (w->val.len == 1 && is_one_of(w->val.buf[0], "<>")))) {
			if (!open_frame(lx, F_PAREN))
				return 0;
			top_frame(lx)->depth = 1;
			add_raw(lx, w, 1);
			return 1;
		}
		if (!w->quoted && !w->val.len && at(lx, 1) == '(' &&
		    open_frame(lx, F_PAREN)) {
			f = top_frame(lx);
			f->depth = 2;
			f->arith = 1;
			add_raw(lx, w, 2);
			return 1;
		}
		return 0;
	case '<':
	case '>':
		/* A process substitution starts a word, "<(" */
		if (!w->val.len && !w->quoted && at(lx, 1) == '(') {
			add_raw(lx, w, 1);
			return 1;
		}
		return 0;
	case '\\':
		if (at(lx, 1) == '\n') {
			lx->pos += 2;
			lx->line++;
		} else if (at(lx, 1) >= 0) {
			w->quoted = 1;
			lx->pos++;
			add_raw(lx, w, 1);
		} else {
			add_raw(lx, w, 1);
		}
		return 1;
	case '\'':
	case '"':
		if (!open_frame(lx, c == '\'' ? F_SQ : F_DQ))
			break;
		w->quoted = 1;
		lx->pos++;
		return 1;
	case '`':
		if (!open_frame(lx, F_BQ))
			break;
		add_raw(lx, w, 1);
		return 1;
	case '$':
		read_dollar(lx, w);
		return 1;
	default:
		if (is_sh_break(c))
			return 0;
	}
	add_raw(lx, w, 1);
	return 1;
}

/* A quote opening inside a frame: taken as text if it cannot open. */
static void open_quote(struct sh_lexer *lx, struct sh_word *w,
		       enum frame_type type)
{
	open_frame(lx, type);
	if (lx->raw)
		add_raw(lx, w, 1);
	else
		lx->pos++;
	if (type != F_BQ)
		w->quoted = 1;
}

/* A character inside $(...), ${...}, `...` or (...), kept as written. */
static void step_nested(struct sh_lexer *lx, struct sh_word *w, int c)
{
	const struct frame *f = top_frame(lx);
	int in_dq = lx->nr_frames > 1 &&
		lx->frames[lx->nr_frames - 2].type == F_DQ;

	switch (c) {
	case '\\':
		if (at(lx, 1) == '\n')
			lx->line++;
		add_raw(lx, w, at(lx, 1) >= 0 ? 2 : 1);
		return;
	case '\'':
		if (f->type == F_PARAM && in_dq)
			break;
		if (lx->pos < lx->kill_from[F_SQ]) {
			open_quote(lx, w, F_SQ);
			return;
		}
		break;
	case '"':
		if (lx->pos < lx->kill_from[F_DQ]) {
			open_quote(lx, w, F_DQ);
			return;
		}
		break;
	case '`':
		if (f->type != F_BQ && lx->pos < lx->kill_from[F_BQ]) {
			open_quote(lx, w, F_BQ);
			return;
		}
		break;
	case '$':
		read_dollar(lx, w);
		return;
	case '\n':
		add_raw(lx, w, 1);
		lx->line++;
		if (lx->nr_docs)
			read_heredocs(lx);
		return;
	}
	add_raw(lx, w, 1);
}

/* A character of the word inside the innermost frame. */
static void step_frame(struct sh_lexer *lx, struct sh_word *w, int c)
{
	struct frame *f = top_frame(lx);
	int n = at(lx, 1), prev;

	switch (f->type) {
	case F_SQ:
		if (c == '\'') {
			close_frame(lx);
			if (lx->raw)
				add_raw(lx, w, 1);
			else
				lx->pos++;
			return;
		}
		if (c == '\\' && f->ansi && n >= 0) {
			if (n == '\n')
				lx->line++;
			lx->pos++;
			add_raw(lx, w, 1);
			return;
		}
		break;
	case F_DQ:
		if (c == '"') {
			close_frame(lx);
			if (lx->raw)
				add_raw(lx, w, 1);
			else
				lx->pos++;
			return;
		}
		if (c == '\\' && n == '\n') {
			lx->pos += 2;
			lx->line++;
			return;
		}
		if (c == '\\' && is_one_of(n, "$`\"\\")) {
			if (!lx->raw)
				lx->pos++;
			add_raw(lx, w, lx->raw ? 2 : 1);
			return;
		}
		if (c == '$') {
			read_dollar(lx, w);
			return;
		}
		if (c == '`' && open_frame(lx, F_BQ)) {
			add_raw(lx, w, 1);
			return;
		}
		break;
	case F_BQ:
		if (c == '`') {
			close_frame(lx);
			add_raw(lx, w, 1);
			return;
		}
		if (c == '\\') {
			if (n == '\n')
				lx->line++;
			add_raw(lx, w, n >= 0 ? 2 : 1);
			return;
		}
		if (c == '\n') {
			step_nested(lx, w, c);
			return;
		}
		break;
	case F_PARAM:
		if (c == '}') {
			close_frame(lx);
			add_raw(lx, w, 1);
			return;
		}
		step_nested(lx, w, c);
		return;
	case F_SUBST:
	case F_PAREN:
		if (c == '(') {
			f->depth++;
		} else if (c == ')') {
			add_raw(lx, w, 1);
			if (!--f->depth)
				close_frame(lx);
			return;
		} else if (c == '#' && !f->arith) {
			prev = (unsigned char)lx->buf[lx->pos - 1];
			if (is_space(prev) || prev == '\n' || prev == '(' ||
			    prev == ';' || prev == '|' || prev == '&') {
				const char *nl = memchr(lx->buf + lx->pos, '\n',
							lx->len - lx->pos);

				lx->pos = nl ? (size_t)(nl - lx->buf) : lx->len;
				return;
			}
		} else if (c == '<' && n == '<' && !f->arith) {
			read_subst_heredoc(lx, w);
			return;
		} else {
			step_nested(lx, w, c);
			return;
		}
		break;
	case NR_FRAME:
		break;
	}
	if (c == '\n')
		lx->line++;
	add_raw(lx, w, 1);
}

static const char *frame_name(enum frame_type type)
{
	switch (type) {
	case F_SUBST:
		return "'$(' is not closed";
	case F_PARAM:
		return "'${' is not closed";
	case F_PAREN:
		return "'(' is not closed";
	default:
		return "quote is not closed";
	}
}

/*
 * Reads the word at the cursor into w.  If the end of the file comes
 * inside it, that is a problem, at the outermost construct still open;
 * the word is then read again with constructs of that kind taken as
 * text from where it opened.
 */
static void read_word(struct sh_lexer *lx, struct sh_word *w)
{
	size_t start = lx->pos, docs = lx->nr_docs;
	unsigned line = lx->line;
	const struct frame *f;
	int reported = 0;

	for (;;) {
		strbuf_reset(&w->val);
		w->line = line;
		w->quoted = 0;
		w->var = 0;
		lx->nr_frames = 0;
		lx->raw = 0;
		while (lx->pos < lx->len) {
			int c = (unsigned char)lx->buf[lx->pos];

			if (!lx->nr_frames) {
				if (!step_outer(lx, w, c))
					break;
			} else {
				step_frame(lx, w, c);
			}
		}
		if (!lx->nr_frames)
			return;
		f = &lx->frames[0];
		if (!reported)
			add_problem(lx->set, lx->file, f->line, "", NULL,
				    frame_name(f->type));
		reported = 1;
		if (lx->restarts >= MAX_RESTARTS)
			break;
		lx->restarts++;
		lx->kill_from[f->type] = f->pos;
		lx->pos = start;
		lx->line = line;
		drop_heredocs(lx, docs);
	}
	lx->nr_frames = 0;
	lx->raw = 0;
}

/* After a redirection operator: its target, if there is one. */
static enum sh_tok read_redir_target(struct sh_lexer *lx, int heredoc,
				     int strip_tabs)
{
	int c;

	while (is_space(c = at(lx, 0)) ||
	       (c == '\\' && at(lx, 1) == '\n')) {
		if (c == '\\') {
			lx->pos++;
			lx->line++;
		}
		lx->pos++;
	}
	if (c < 0 || c == '\n' || c == '#' ||
	    (is_sh_break(c) && !((c == '<' || c == '>') && at(lx, 1) == '(')))
		return T_REDIR;
	read_word(lx, &lx->scratch);
	if (heredoc)
		queue_heredoc(lx, lx->scratch.val.buf, strip_tabs);
	return T_REDIR;
}

/* At '<' or '>' (after a file descriptor number, if any). */
static enum sh_tok read_redir(struct sh_lexer *lx)
{
	int c = at(lx, 0), n = at(lx, 1);

	if (c == '<' && n == '<') {
		if (at(lx, 2) == '<') {
			lx->pos += 3;
			return read_redir_target(lx, 0, 0);
		}
		lx->pos += 2;
		if (at(lx, 0) == '-') {
			lx->pos++;
			return read_redir_target(lx, 1, 1);
		}
		return read_redir_target(lx, 1, 0);
	}
	lx->pos++;
	if ((c == '>' && (n == '>' || n == '|' || n == '&')) ||
	    (c == '<' && (n == '&' || n == '>')))
		lx->pos++;
	return read_redir_target(lx, 0, 0);
}

/*
 * "<pending-upstream>", "<hash>": what people write for a commit not
 * known yet.  To the shell two redirections; read as one word, so that
 * the annotation is kept (as a placeholder).
 */
static int angle_placeholder(struct sh_lexer *lx, struct sh_word *w)
{
	size_t i = lx->pos + 1;

	while (i < lx->len && (is_alpha((unsigned char)lx->buf[i]) ||
			       is_digit((unsigned char)lx->buf[i]) ||
			       lx->buf[i] == '-' || lx->buf[i] == '_' ||
			       lx->buf[i] == '.'))
		i++;
	if (i == lx->pos + 1 || i >= lx->len || lx->buf[i] != '>' ||
	    (i + 1 < lx->len && !is_space((unsigned char)lx->buf[i + 1]) &&
	     lx->buf[i + 1] != '\n'))
		return 0;
	strbuf_reset(&w->val);
	strbuf_add(&w->val, lx->buf + lx->pos, i + 1 - lx->pos);
	w->line = lx->line;
	w->quoted = 0;
	w->var = 0;
	lx->pos = i + 1;
	return 1;
}

static enum sh_tok sh_next(struct sh_lexer *lx, struct sh_word *w)
{
	size_t i, start;
	int c;

	for (;;) {
		c = at(lx, 0);
		if (c < 0)
			return T_EOF;
		if (is_space(c)) {
			lx->pos++;
		} else if (c == '\\' && at(lx, 1) == '\n') {
			lx->pos += 2;
			lx->line++;
		} else if (c == '\n') {
			end_line(lx);
			return T_NEWLINE;
		} else if (c == '#') {
			const char *nl = memchr(lx->buf + lx->pos, '\n',
						lx->len - lx->pos);

			lx->pos = nl ? (size_t)(nl - lx->buf) : lx->len;
		} else {
			break;
		}
	}

	/* "2>&1": the number belongs to the redirection. */
	i = lx->pos;
	while (i < lx->len && is_digit((unsigned char)lx->buf[i]))
		i++;
	if (i > lx->pos && i < lx->len &&
	    (lx->buf[i] == '<' || lx->buf[i] == '>') &&
	    !(i + 1 < lx->len && lx->buf[i + 1] == '(')) {
		lx->pos = i;
		return read_redir(lx);
	}

	switch (c) {
	case ';':
		if (at(lx, 1) == ';' || at(lx, 1) == '&') {
			lx->pos += 2;
			if (at(lx, 0) == '&')
				lx->pos++;
			return T_DSEMI;
		}
		lx->pos++;
		return T_SEMI;
	case '&':
		if (at(lx, 1) == '&') {
			lx->pos += 2;
			return T_AND;
		}
		if (at(lx, 1) == '>') {
			lx->pos += 2;
			if (at(lx, 0) == '>')
				lx->pos++;
			return read_redir_target(lx, 0, 0);
		}
		lx->pos++;
		return T_AMP;
	case '|':
		if (at(lx, 1) == '|') {
			lx->pos += 2;
			return T_OR;
		}
		lx->pos += at(lx, 1) == '&' ? 2 : 1;
		return T_PIPE;
	case ')':
		lx->pos++;
		return T_RPAREN;
	case '(':
		if (at(lx, 1) != '(') {
			lx->pos++;
			return T_LPAREN;
		}
		break;
	case '<':
		if (angle_placeholder(lx, w))
			return T_WORD;
		/* fall through */
	case '>':
		if (at(lx, 1) != '(')
			return read_redir(lx);
		break;
	}
	start = lx->pos;
	read_word(lx, w);
	if (lx->pos == start) {
		/* A construct that could not open: one character. */
		lx->pos++;
		return c == '(' ? T_LPAREN : T_REDIR;
	}
	return T_WORD;
}

/* --- the shell parser (fstests) ---------------------------------------- */

enum block_type { B_BRACE, B_FUNC, B_PAREN, B_IF, B_LOOP, B_CASE, NR_BLOCK };

struct block {
	enum block_type type;
	int cond;		/* B_IF, B_LOOP: reading the condition */
	size_t prev;		/* sh_parser.last[type] before it opened */
	const char *inherited;	/* the filesystem around it, or NULL */
	const char *fstyp;	/* the filesystem of its commands now */
	const char *cond_is;	/* B_IF: '[ $FSTYP = X ]' in the condition */
	const char *cond_not;	/* B_IF: '[ $FSTYP != X ]' in the condition */
	int cond_or;		/* B_IF: "||" in the condition */
	int helper;		/* B_FUNC: the body of sh_parser.cur */
};

enum fn_state {
	FN_NONE,
	FN_KW,			/* after "function" */
	FN_NAME,		/* after "function NAME" */
	FN_PARENS,		/* after "NAME (" */
	FN_BODY,		/* after "NAME ()": a '{' is next */
};

struct visit {
	size_t idx;
	const char *fstyp;
};

struct sh_parser {
	struct sh_lexer lx;
	struct testannot_set *set;
	struct testannot_helpers *defs;		/* common/: helpers found */
	const struct testannot_helpers *use;	/* a test: helpers called */
	const char *test;

	/* The command being read. */
	struct sh_word *words;
	size_t nr_words, init_words, alloc_words;
	unsigned cmd_line;
	int bang;		/* after "!" */
	int skip;		/* "for x in ...", "case x in": no command */

	struct block *blocks;
	size_t nr_blocks, alloc_blocks;
	size_t last[NR_BLOCK];	/* index + 1 of the innermost of a type */
	const char *list_fstyp;	/* after '[ $FSTYP = X ] &&' */

	enum fn_state fn;
	char *fn_name;
	unsigned fn_line;
	struct helper *cur;	/* the helper whose body is being read */
	unsigned cur_line;

	char **pool;		/* filesystem names the blocks point to */
	size_t nr_pool, alloc_pool;
	unsigned char *seen;	/* a test: helpers already passed on */
	struct visit *queue;
	size_t nr_queue, alloc_queue;
};

static void parser_init(struct sh_parser *p, struct testannot_set *set,
			const char *file, const char *buf, size_t len)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	p->lx.buf = buf;
	p->lx.len = buf ? len : 0;
	p->lx.line = 1;
	p->lx.set = set;
	p->lx.file = file;
	for (i = 0; i < NR_FRAME; i++)
		p->lx.kill_from[i] = (size_t)-1;
	strbuf_init(&p->lx.scratch.val, 0);
	p->set = set;
}

static void parser_release(struct sh_parser *p)
{
	size_t i;

	for (i = 0; i < p->init_words; i++)
		strbuf_release(&p->words[i].val);
	free(p->words);
	free(p->blocks);
	free(p->fn_name);
	for (i = 0; i < p->nr_pool; i++)
		free(p->pool[i]);
	free(p->pool);
	free(p->seen);
	free(p->queue);
	free(p->lx.frames);
	drop_heredocs(&p->lx, 0);
	free(p->lx.docs);
	strbuf_release(&p->lx.scratch.val);
}

/* A copy of s that lives as long as the parser. */
static const char *intern(struct sh_parser *p, const char *s)
{
	ALLOC_GROW(p->pool, p->nr_pool, p->alloc_pool);
	p->pool[p->nr_pool] = xstrdup(s);
	return p->pool[p->nr_pool++];
}

static struct block *top_block(struct sh_parser *p)
{
	return p->nr_blocks ? &p->blocks[p->nr_blocks - 1] : NULL;
}

/* The filesystem the next command runs on only, or NULL. */
static const char *current_fstyp(struct sh_parser *p)
{
	const struct block *b = top_block(p);

	if (p->list_fstyp)
		return p->list_fstyp;
	return b ? b->fstyp : NULL;
}

static struct block *push_block(struct sh_parser *p, enum block_type type)
{
	const char *fstyp = current_fstyp(p);
	struct block *b;

	ALLOC_GROW(p->blocks, p->nr_blocks, p->alloc_blocks);
	b = &p->blocks[p->nr_blocks++];
	memset(b, 0, sizeof(*b));
	b->type = type;
	b->cond = type == B_IF || type == B_LOOP;
	b->prev = p->last[type];
	p->last[type] = p->nr_blocks;
	b->inherited = b->fstyp = fstyp;
	p->list_fstyp = NULL;
	return b;
}

/*
 * Closes the block at index idx1 - 1 and those inside it; nothing if
 * idx1 is 0, or if that would close a function body from inside it
 * (a stray "fi" or "done").
 */
static void pop_to(struct sh_parser *p, size_t idx1)
{
	if (!idx1 || p->last[B_FUNC] > idx1)
		return;
	while (p->nr_blocks >= idx1) {
		struct block *b = &p->blocks[--p->nr_blocks];

		p->last[b->type] = b->prev;
		if (b->helper)
			p->cur = NULL;
	}
	p->list_fstyp = NULL;
}

static void fn_cancel(struct sh_parser *p)
{
	free(p->fn_name);
	p->fn_name = NULL;
	p->fn = FN_NONE;
}

static void open_function(struct sh_parser *p)
{
	struct block *b = push_block(p, B_FUNC);

	if (p->defs && !p->cur && p->fn_name) {
		p->cur = helper_get(p->defs, p->fn_name, p->lx.file);
		p->cur_line = p->fn_line;
		b->helper = 1;
	}
	fn_cancel(p);
}

static void reset_command(struct sh_parser *p)
{
	p->nr_words = 0;
	p->bang = 0;
	p->skip = 0;
}

/*
 * '[ $FSTYP = xfs ]', '[ "$FSTYP" == "xfs" ]', '[[ ... ]]' and
 * 'test $FSTYP = xfs' (or the other way round, or "!=" with *neg set):
 * the filesystem name, or NULL.
 */
static const char *fstyp_test(const struct sh_parser *p, int *neg)
{
	const struct sh_word *w = p->words, *a, *b;
	const char *op;

	if (p->nr_words == 5 && !strcmp(w[0].val.buf, "[") &&
	    !strcmp(w[4].val.buf, "]"))
		a = &w[1];
	else if (p->nr_words == 5 && !strcmp(w[0].val.buf, "[[") &&
		 !strcmp(w[4].val.buf, "]]"))
		a = &w[1];
	else if (p->nr_words == 4 && !strcmp(w[0].val.buf, "test"))
		a = &w[1];
	else
		return NULL;
	op = a[1].val.buf;
	b = &a[2];
	if (!strcmp(op, "=") || !strcmp(op, "=="))
		*neg = 0;
	else if (!strcmp(op, "!="))
		*neg = 1;
	else
		return NULL;
	if (!a->var || (strcmp(a->val.buf, "$FSTYP") &&
			strcmp(a->val.buf, "${FSTYP}"))) {
		const struct sh_word *t = a;

		a = b;
		b = t;
	}
	if (!a->var || (strcmp(a->val.buf, "$FSTYP") &&
			strcmp(a->val.buf, "${FSTYP}")))
		return NULL;
	if (b->var || !is_fs_name(b->val.buf))
		return NULL;
	return b->val.buf;
}

struct annot_cmd {
	const char *name;
	enum testannot_kind kind;
	int takes_word;		/* a package or filesystem before SHA */
	int fs;			/* that word is a filesystem */
};

static const struct annot_cmd annot_cmds[] = {
	{ "_fixed_by_kernel_commit", TESTANNOT_FIXED_BY, 0, 0 },
	{ "_wants_kernel_commit", TESTANNOT_WANTS, 0, 0 },
	{ "_fixed_by_git_commit", TESTANNOT_FIXED_BY, 1, 0 },
	{ "_wants_git_commit", TESTANNOT_WANTS, 1, 0 },
	{ "_fixed_by_fs_commit", TESTANNOT_FIXED_BY, 1, 1 },
};

/*
 * Appends the words of s to sb, each run of blanks as one space; a
 * space first if sb is not empty.
 */
static void add_words(struct strbuf *sb, const char *s)
{
	for (;;) {
		size_t n;

		s += strspn(s, " \t\n");
		n = strcspn(s, " \t\n");
		if (!n)
			return;
		if (sb->len)
			strbuf_addch(sb, ' ');
		strbuf_add(sb, s, n);
		s += n;
	}
}

static void annotation(struct sh_parser *p, const struct annot_cmd *ac,
		       const char *fstyp)
{
	const struct sh_word *w = p->words;
	struct strbuf how = STRBUF_INIT, subject = STRBUF_INIT;
	struct strbuf sha = STRBUF_INIT;
	struct testannot a;
	size_t i = 1, j, n;
	int wrapper = 0;

	if (p->defs && !p->cur)
		return;		/* library code, outside any helper */
	strbuf_addstr(&how, ac->name);
	if (ac->takes_word && i < p->nr_words) {
		wrapper = w[i].var;
		if (!ac->fs && strcmp(w[i].val.buf, "kernel"))
			goto out;	/* xfsprogs, e2fsprogs, ... */
		if (ac->fs)
			fstyp = w[i].val.buf;
		strbuf_addch(&how, ' ');
		strbuf_addbuf(&how, &w[i].val);
		i++;
	}
	if (i >= p->nr_words) {
		if (!(p->defs && wrapper))
			add_problem(p->set, p->lx.file, p->cmd_line, "",
				    how.buf, " without a commit");
		goto out;
	}
	if (p->defs && (wrapper || w[i].var))
		goto out;	/* a wrapper: _fixed_by_git_commit kernel $* */
	/* "SHA subject" quoted as one word: split at the first blank. */
	n = strcspn(w[i].val.buf, " \t\n");
	if (n && w[i].val.buf[n]) {
		strbuf_add(&sha, w[i].val.buf, n);
		add_words(&subject, w[i].val.buf + n);
	} else {
		strbuf_addbuf(&sha, &w[i].val);
	}
	for (j = i + 1; j < p->nr_words; j++) {
		if (subject.len)
			strbuf_addch(&subject, ' ');
		strbuf_addbuf(&subject, &w[j].val);
	}

	memset(&a, 0, sizeof(a));
	a.kind = ac->kind;
	a.how = how.buf;
	a.sha = sha.buf;
	a.subject = subject.len ? subject.buf : NULL;
	a.fstyp = (char *)fstyp;
	a.file = (char *)p->lx.file;
	a.line = p->cmd_line;
	if (p->defs) {
		struct helper *hp = p->cur;

		ALLOC_GROW(hp->annots, hp->nr_annots, hp->alloc_annots);
		annot_copy(&hp->annots[hp->nr_annots++], &a);
	} else {
		a.test = (char *)p->test;
		a.suite = (char *)fstests_suite;
		add_item(p->set, &a);
	}
out:
	strbuf_release(&how);
	strbuf_release(&sha);
	strbuf_release(&subject);
}

static void push_visit(struct sh_parser *p, size_t idx, const char *fstyp)
{
	p->seen[idx] = 1;
	ALLOC_GROW(p->queue, p->nr_queue, p->alloc_queue);
	p->queue[p->nr_queue].idx = idx;
	p->queue[p->nr_queue].fstyp = fstyp;
	p->nr_queue++;
}

/*
 * A test calls root: the annotations of root and of the helpers it
 * calls, breadth first, each helper once a test.
 */
static void pass_on(struct sh_parser *p, const struct helper *root,
		    const char *fstyp)
{
	const struct testannot_helpers *h = p->use;
	size_t head, i;

	if (!p->seen)
		p->seen = xcalloc(h->nr, 1);
	if (p->seen[root->idx])
		return;
	p->nr_queue = 0;
	push_visit(p, root->idx, fstyp);
	for (head = 0; head < p->nr_queue; head++) {
		struct visit v = p->queue[head];
		const struct helper *hp = h->list[v.idx];

		for (i = 0; i < hp->nr_annots; i++) {
			struct testannot a = hp->annots[i];

			a.test = (char *)p->test;
			a.suite = (char *)fstests_suite;
			a.via = root->via;
			if (!a.fstyp)
				a.fstyp = (char *)v.fstyp;
			add_item(p->set, &a);
		}
		for (i = 0; i < hp->nr_resolved; i++) {
			const struct helper_call *c = &hp->calls[i];

			if (!p->seen[c->to])
				push_visit(p, c->to,
					   c->fstyp ? c->fstyp : v.fstyp);
		}
	}
}

static void call(struct sh_parser *p, const char *name, const char *fstyp)
{
	struct helper *hp;

	if (p->defs) {
		struct helper_call *c;

		if (!p->cur)
			return;
		hp = p->cur;
		ALLOC_GROW(hp->calls, hp->nr_calls, hp->alloc_calls);
		c = &hp->calls[hp->nr_calls++];
		c->name = xstrdup(name);
		c->to = 0;
		c->fstyp = xstrdup_or_null(fstyp);
		return;
	}
	if (!p->use)
		return;
	HASH_FIND_STR(p->use->by_name, name, hp);
	if (hp)
		pass_on(p, hp, fstyp);
}

/* A simple command, read whole: an annotation, a helper called, ... */
static void command(struct sh_parser *p, const char *fstyp)
{
	const char *name = p->words[0].val.buf;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(annot_cmds); i++) {
		if (!strcmp(name, annot_cmds[i].name)) {
			annotation(p, &annot_cmds[i], fstyp);
			return;
		}
	}
	if (!p->words[0].var && is_func_name(name))
		call(p, name, fstyp);
}

/* The end of a command, at the operator sep after it. */
static void end_command(struct sh_parser *p, enum sh_tok sep)
{
	struct block *b = top_block(p);
	int in_cond = b && b->type == B_IF && b->cond, neg = 0;
	const char *test = NULL;

	if (p->nr_words && !p->skip) {
		test = fstyp_test(p, &neg);
		if (test) {
			test = intern(p, test);
			neg ^= p->bang;
		} else {
			command(p, current_fstyp(p));
		}
		if (test && in_cond) {
			if (neg)
				b->cond_not = test;
			else
				b->cond_is = test;
		}
	}
	if (in_cond && sep == T_OR)
		b->cond_or = 1;
	if (sep == T_AND) {
		if (test && !neg)
			p->list_fstyp = test;
	} else if (sep == T_OR) {
		p->list_fstyp = test && neg ? test : NULL;
	} else if (sep != T_PIPE) {
		p->list_fstyp = NULL;
	}
	reset_command(p);
}

static int is_assignment(const struct sh_word *w)
{
	const char *s = w->val.buf;
	size_t i = 0;

	if (!is_alpha((unsigned char)s[0]) && s[0] != '_')
		return 0;
	while (is_alpha((unsigned char)s[i]) || is_digit((unsigned char)s[i]) ||
	       s[i] == '_')
		i++;
	if (s[i] == '[') {
		const char *close = strchr(s + i, ']');

		if (!close)
			return 0;
		i = (size_t)(close - s) + 1;
	}
	if (s[i] == '+')
		i++;
	return s[i] == '=';
}

/* A reserved word where a command starts; returns 1 if word was one. */
static int keyword(struct sh_parser *p, const char *word, unsigned line)
{
	struct block *b = top_block(p);

	if (!strcmp(word, "if") || !strcmp(word, "while") ||
	    !strcmp(word, "until")) {
		push_block(p, word[0] == 'i' ? B_IF : B_LOOP);
	} else if (!strcmp(word, "for") || !strcmp(word, "select")) {
		push_block(p, B_LOOP);
		p->skip = 1;
		return 0;
	} else if (!strcmp(word, "case")) {
		push_block(p, B_CASE);
		p->skip = 1;
		return 0;
	} else if (!strcmp(word, "then")) {
		if (b && b->type == B_IF && b->cond) {
			b->cond = 0;
			b->fstyp = b->cond_is && !b->cond_or ?
				b->cond_is : b->inherited;
		}
	} else if (!strcmp(word, "elif")) {
		if (b && b->type == B_IF) {
			b->cond = 1;
			b->fstyp = b->inherited;
			b->cond_is = b->cond_not = NULL;
			b->cond_or = 0;
		}
	} else if (!strcmp(word, "else")) {
		if (b && b->type == B_IF) {
			b->cond = 0;
			b->fstyp = b->cond_not && !b->cond_is && !b->cond_or ?
				b->cond_not : b->inherited;
		}
	} else if (!strcmp(word, "do")) {
		if (b && b->type == B_LOOP)
			b->cond = 0;
	} else if (!strcmp(word, "fi")) {
		pop_to(p, p->last[B_IF]);
	} else if (!strcmp(word, "done")) {
		pop_to(p, p->last[B_LOOP]);
	} else if (!strcmp(word, "esac")) {
		pop_to(p, p->last[B_CASE]);
	} else if (!strcmp(word, "{")) {
		push_block(p, B_BRACE);
	} else if (!strcmp(word, "}")) {
		pop_to(p, p->last[B_BRACE] > p->last[B_FUNC] ?
		       p->last[B_BRACE] : p->last[B_FUNC]);
	} else if (!strcmp(word, "!")) {
		p->bang = !p->bang;
	} else if (!strcmp(word, "function")) {
		p->fn = FN_KW;
		p->fn_line = line;
	} else {
		return 0;
	}
	return 1;
}

static void on_word(struct sh_parser *p)
{
	struct sh_word *w = &p->words[p->nr_words];
	int plain = !w->quoted;

	switch (p->fn) {
	case FN_KW:
		if (plain && is_func_name(w->val.buf)) {
			p->fn_name = xstrdup(w->val.buf);
			p->fn = FN_NAME;
			return;
		}
		fn_cancel(p);
		break;
	case FN_NAME:
	case FN_BODY:
		if (plain && !strcmp(w->val.buf, "{")) {
			open_function(p);
			return;
		}
		fn_cancel(p);
		break;
	case FN_PARENS:
		fn_cancel(p);
		break;
	case FN_NONE:
		break;
	}
	if (!p->nr_words && !p->skip) {
		if (plain && keyword(p, w->val.buf, w->line))
			return;
		if (!p->skip && is_assignment(w))
			return;
	}
	if (!p->nr_words)
		p->cmd_line = w->line;
	p->nr_words++;
}

static void on_operator(struct sh_parser *p, enum sh_tok t)
{
	const struct sh_word *w = p->words;

	switch (t) {
	case T_REDIR:
		return;
	case T_LPAREN:
		if (p->fn == FN_NAME) {
			p->fn = FN_PARENS;
			return;
		}
		if (p->fn == FN_NONE && p->nr_words == 1 && !p->bang &&
		    !p->skip && !w[0].quoted && !w[0].var &&
		    is_func_name(w[0].val.buf)) {
			p->fn_name = xstrdup(w[0].val.buf);
			p->fn_line = p->cmd_line;
			p->fn = FN_PARENS;
			reset_command(p);
			return;
		}
		fn_cancel(p);
		end_command(p, t);
		push_block(p, B_PAREN);
		return;
	case T_RPAREN:
		if (p->fn == FN_PARENS) {
			p->fn = FN_BODY;
			return;
		}
		fn_cancel(p);
		if (p->last[B_CASE] > p->last[B_PAREN]) {
			/* The end of a case pattern. */
			reset_command(p);
			p->list_fstyp = NULL;
			return;
		}
		end_command(p, t);
		pop_to(p, p->last[B_PAREN]);
		return;
	case T_NEWLINE:
		if (p->fn == FN_NAME || p->fn == FN_BODY)
			return;
		break;
	default:
		break;
	}
	fn_cancel(p);
	end_command(p, t);
}

static void parse_sh(struct sh_parser *p)
{
	enum sh_tok t;

	do {
		if (p->nr_words >= p->init_words) {
			ALLOC_GROW(p->words, p->init_words, p->alloc_words);
			strbuf_init(&p->words[p->init_words++].val, 0);
		}
		t = sh_next(&p->lx, &p->words[p->nr_words]);
		if (t == T_WORD)
			on_word(p);
		else
			on_operator(p, t);
	} while (t != T_EOF);
	if (p->cur)
		add_problem(p->set, p->lx.file, p->cur_line, "helper ",
			    p->cur->name, " is not closed");
}

void testannot_parse_fstests_common(struct testannot_helpers *h,
				    struct testannot_set *set,
				    const char *file, const char *buf,
				    size_t len)
{
	struct sh_parser p;

	if (!h)
		return;
	parser_init(&p, set, file, buf, len);
	p.defs = h;
	parse_sh(&p);
	parser_release(&p);
}

void testannot_parse_fstests(struct testannot_set *set,
			     const struct testannot_helpers *h,
			     const char *test, const char *file,
			     const char *buf, size_t len)
{
	struct sh_parser p;

	parser_init(&p, set, file, buf, len);
	p.use = h && h->nr ? h : NULL;
	p.test = test;
	parse_sh(&p);
	parser_release(&p);
}

/* --- LTP ------------------------------------------------------------- */

enum c_tok { C_EOF, C_LBRACE, C_COMMA, C_STRING, C_OTHER };

struct c_lexer {
	const char *buf;
	size_t len, pos;
	unsigned line;
	struct testannot_set *set;
	const char *file;
	struct strbuf str;	/* the string literals last read, joined */
};

static int c_at(const struct c_lexer *lx, size_t off)
{
	return lx->pos + off < lx->len ?
		(unsigned char)lx->buf[lx->pos + off] : -1;
}

/* Skips white space, comments and backslash-newlines. */
static void c_skip_space(struct c_lexer *lx)
{
	for (;;) {
		int c = c_at(lx, 0);

		if (c == '\n') {
			lx->pos++;
			lx->line++;
		} else if (is_space(c)) {
			lx->pos++;
		} else if (c == '\\' && c_at(lx, 1) == '\n') {
			lx->pos += 2;
			lx->line++;
		} else if (c == '/' && c_at(lx, 1) == '*') {
			unsigned line = lx->line;
			int closed = 0;

			for (lx->pos += 2; lx->pos < lx->len; lx->pos++) {
				if (lx->buf[lx->pos] == '\n')
					lx->line++;
				if (lx->buf[lx->pos] == '*' &&
				    c_at(lx, 1) == '/') {
					lx->pos += 2;
					closed = 1;
					break;
				}
			}
			if (!closed)
				add_problem(lx->set, lx->file, line, "", NULL,
					    "comment is not closed");
		} else if (c == '/' && c_at(lx, 1) == '/') {
			for (; lx->pos < lx->len; lx->pos++) {
				if (lx->buf[lx->pos] != '\n')
					continue;
				if (lx->buf[lx->pos - 1] != '\\')
					break;
				lx->line++;
			}
		} else {
			return;
		}
	}
}

/* At '"': one string literal, and those that follow it. */
static void c_read_strings(struct c_lexer *lx)
{
	strbuf_reset(&lx->str);
	while (c_at(lx, 0) == '"') {
		unsigned line = lx->line;
		int closed = 0;

		lx->pos++;
		while (lx->pos < lx->len) {
			int c = c_at(lx, 0), n = c_at(lx, 1);

			if (c == '"') {
				lx->pos++;
				closed = 1;
				break;
			}
			if (c == '\n')
				break;
			if (!c) {
				/* Ignored, as C compilers do: no NUL in str. */
				lx->pos++;
			} else if (c == '\\' && n == '\n') {
				lx->pos += 2;
				lx->line++;
			} else if (c == '\\' && n > 0) {
				if (!is_one_of(n, "\"\\'?"))
					strbuf_addch(&lx->str, c);
				strbuf_addch(&lx->str, n);
				lx->pos += 2;
			} else {
				strbuf_addch(&lx->str, c);
				lx->pos++;
			}
		}
		if (!closed) {
			add_problem(lx->set, lx->file, line, "", NULL,
				    "quote is not closed");
			return;
		}
		c_skip_space(lx);
	}
}

static enum c_tok c_next(struct c_lexer *lx, unsigned *line)
{
	int c;

	c_skip_space(lx);
	*line = lx->line;
	c = c_at(lx, 0);
	switch (c) {
	case -1:
		return C_EOF;
	case '{':
		lx->pos++;
		return C_LBRACE;
	case ',':
		lx->pos++;
		return C_COMMA;
	case '"':
		c_read_strings(lx);
		return C_STRING;
	case '\'':
		/* A character constant; one left open ends with its line. */
		for (lx->pos++; lx->pos < lx->len; lx->pos++) {
			c = (unsigned char)lx->buf[lx->pos];
			if (c == '\\' && c_at(lx, 1) >= 0 &&
			    c_at(lx, 1) != '\n') {
				lx->pos++;
			} else if (c == '\'') {
				lx->pos++;
				break;
			} else if (c == '\n') {
				break;
			}
		}
		return C_OTHER;
	}
	if (is_alpha(c) || is_digit(c) || c == '_') {
		while ((c = c_at(lx, 0)) >= 0 &&
		       (is_alpha(c) || is_digit(c) || c == '_'))
			lx->pos++;
		return C_OTHER;
	}
	lx->pos++;
	return C_OTHER;
}

static const struct {
	const char *tag;
	enum testannot_kind kind;
} ltp_tags[] = {
	{ "linux-git", TESTANNOT_FIXED_BY },
	{ "linux-stable-git", TESTANNOT_STABLE },
	{ "CVE", TESTANNOT_CVE },
};

static int find_tag(const struct strbuf *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ltp_tags); i++)
		if (s->len == strlen(ltp_tags[i].tag) &&
		    !memcmp(s->buf, ltp_tags[i].tag, s->len))
			return (int)i;
	return -1;
}

void testannot_parse_ltp(struct testannot_set *set, const char *test,
			 const char *file, const char *buf, size_t len)
{
	struct c_lexer lx;
	enum { IDLE, BRACE, TAG, COMMA } state = IDLE;
	unsigned line, brace_line = 0;
	enum c_tok t;
	int tag = -1;

	memset(&lx, 0, sizeof(lx));
	lx.buf = buf;
	lx.len = buf ? len : 0;
	lx.line = 1;
	lx.set = set;
	lx.file = file;
	strbuf_init(&lx.str, 0);
	do {
		t = c_next(&lx, &line);
		if (state == TAG && t == C_COMMA) {
			state = COMMA;
			continue;
		}
		if (state == COMMA && t == C_STRING) {
			struct testannot a;

			memset(&a, 0, sizeof(a));
			a.test = (char *)test;
			a.suite = (char *)ltp_suite;
			a.kind = ltp_tags[tag].kind;
			a.how = (char *)ltp_tags[tag].tag;
			a.sha = lx.str.buf;
			a.file = (char *)file;
			a.line = brace_line;
			add_item(set, &a);
			state = IDLE;
			continue;
		}
		if (state == TAG || state == COMMA)
			add_problem(set, file, brace_line, "tag ",
				    ltp_tags[tag].tag, " without a value");
		if (t == C_LBRACE) {
			state = BRACE;
			brace_line = line;
		} else if (state == BRACE && t == C_STRING &&
			   (tag = find_tag(&lx.str)) >= 0) {
			state = TAG;
		} else {
			state = IDLE;
		}
	} while (t != C_EOF);
	strbuf_release(&lx.str);
}

/* --- reading a checkout ----------------------------------------------- */

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

/*
 * The names in directory path, sorted, "." and ".." left out.  Returns
 * 0, 1 if it does not exist and missing_ok, or -1 after an error.
 */
static int list_dir(const char *path, int missing_ok, char ***names,
		    size_t *nr)
{
	size_t alloc = 0;
	struct dirent *de;
	DIR *d = opendir(path);

	*names = NULL;
	*nr = 0;
	if (!d) {
		if (missing_ok && errno == ENOENT)
			return 1;
		return error("cannot read '%s': %s", path, strerror(errno));
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de)
			break;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ALLOC_GROW(*names, *nr, alloc);
		(*names)[(*nr)++] = xstrdup(de->d_name);
	}
	if (errno) {
		int saved = errno;

		closedir(d);
		free_names(*names, *nr);
		*names = NULL;
		*nr = 0;
		return error("cannot read '%s': %s", path, strerror(saved));
	}
	closedir(d);
	QSORT(*names, *nr, cmp_names);
	return 0;
}

/* The mode of path, not following a symbolic link; -1 after an error. */
static int lstat_mode(const char *path, mode_t *mode)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	*mode = st.st_mode;
	return 0;
}

static int read_file(struct strbuf *sb, const char *path)
{
	strbuf_reset(sb);
	if (strbuf_read_file(sb, path) < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	return 0;
}

/* A regular file into sb: 1; 0 for anything else (skipped); -1. */
static int read_regular(struct strbuf *sb, const char *path)
{
	mode_t mode;

	if (lstat_mode(path, &mode) < 0)
		return -1;
	if (!S_ISREG(mode))
		return 0;
	return read_file(sb, path) < 0 ? -1 : 1;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!is_digit((unsigned char)*s))
			return 0;
	return 1;
}

/* Reads common/ into h; a checkout without it has no helpers. */
static int read_common(struct testannot_set *set, struct testannot_helpers *h,
		       struct strbuf *path, size_t base)
{
	struct strbuf buf = STRBUF_INIT;
	char **names, *rel;
	size_t nr, i;
	int ret = 0, r;

	strbuf_setlen(path, base);
	strbuf_addstr(path, "/common");
	ret = list_dir(path->buf, 1, &names, &nr);
	if (ret)
		return ret < 0 ? -1 : 0;
	for (i = 0; i < nr; i++) {
		strbuf_setlen(path, base);
		strbuf_addf(path, "/common/%s", names[i]);
		r = read_regular(&buf, path->buf);
		if (r <= 0) {
			ret = r < 0 ? -1 : ret;
			continue;
		}
		rel = xstrfmt("common/%s", names[i]);
		testannot_parse_fstests_common(h, set, rel, buf.buf, buf.len);
		free(rel);
	}
	free_names(names, nr);
	strbuf_release(&buf);
	return ret;
}

/* Reads the tests of tests/DIR. */
static int read_fstests_dir(struct testannot_set *set,
			    const struct testannot_helpers *h,
			    struct strbuf *path, size_t base, const char *dir)
{
	struct strbuf buf = STRBUF_INIT;
	char **names, *test, *rel;
	size_t nr, i;
	int ret, r;

	strbuf_setlen(path, base);
	strbuf_addf(path, "/tests/%s", dir);
	if (list_dir(path->buf, 0, &names, &nr) < 0)
		return -1;
	ret = 0;
	for (i = 0; i < nr; i++) {
		if (!all_digits(names[i]))
			continue;
		strbuf_setlen(path, base);
		strbuf_addf(path, "/tests/%s/%s", dir, names[i]);
		r = read_regular(&buf, path->buf);
		if (r <= 0) {
			ret = r < 0 ? -1 : ret;
			continue;
		}
		test = xstrfmt("%s/%s", dir, names[i]);
		rel = xstrfmt("tests/%s", test);
		testannot_parse_fstests(set, h, test, rel, buf.buf, buf.len);
		set->nr_tests++;
		free(test);
		free(rel);
	}
	free_names(names, nr);
	strbuf_release(&buf);
	return ret;
}

/* dir without the slashes it ends with, for paths under it. */
static void checkout_path(struct strbuf *path, const char *dir)
{
	size_t len = strlen(dir);

	while (len > 1 && dir[len - 1] == '/')
		len--;
	strbuf_add(path, dir, len);
}

int testannot_read_fstests(struct testannot_set *set, const char *dir)
{
	struct testannot_helpers *h = testannot_helpers_new();
	struct strbuf path = STRBUF_INIT;
	char **names = NULL;
	size_t nr = 0, base, i;
	mode_t mode;
	int ret;

	checkout_path(&path, dir);
	base = path.len;
	ret = read_common(set, h, &path, base);
	testannot_helpers_finish(h);

	strbuf_setlen(&path, base);
	strbuf_addstr(&path, "/tests");
	if (list_dir(path.buf, 0, &names, &nr) < 0) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < nr; i++) {
		strbuf_setlen(&path, base);
		strbuf_addf(&path, "/tests/%s", names[i]);
		if (lstat_mode(path.buf, &mode) < 0) {
			ret = -1;
			continue;
		}
		if (!S_ISDIR(mode))
			continue;
		if (read_fstests_dir(set, h, &path, base, names[i]) < 0)
			ret = -1;
	}
out:
	testannot_set_sort(set);
	free_names(names, nr);
	testannot_helpers_free(h);
	strbuf_release(&path);
	return ret < 0 ? -1 : 0;
}

/* An LTP test file: "NAME.c"; its test name, or NULL. */
static char *ltp_test_name(const char *rel)
{
	const char *base = strrchr(rel, '/');
	size_t len;

	base = base ? base + 1 : rel;
	len = strlen(base);
	if (len < 3 || strcmp(base + len - 2, ".c"))
		return NULL;
	return xstrndup(base, len - 2);
}

/*
 * Pushes the entries of rel, a directory under the checkout, on the
 * stack in reverse order, so that they come off it sorted.
 */
static int push_entries(struct strbuf *path, size_t base, const char *rel,
			char ***stack, size_t *nr, size_t *alloc)
{
	char **names;
	size_t n, i;

	strbuf_setlen(path, base);
	strbuf_addf(path, "/%s", rel);
	if (list_dir(path->buf, 0, &names, &n) < 0)
		return -1;
	for (i = n; i-- > 0; ) {
		ALLOC_GROW(*stack, *nr, *alloc);
		(*stack)[(*nr)++] = xstrfmt("%s/%s", rel, names[i]);
	}
	free_names(names, n);
	return 0;
}

int testannot_read_ltp(struct testannot_set *set, const char *dir)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	char **stack = NULL, *rel, *test;
	size_t nr = 0, alloc = 0, base;
	mode_t mode;
	int ret = 0;

	checkout_path(&path, dir);
	base = path.len;
	if (push_entries(&path, base, "testcases", &stack, &nr, &alloc) < 0)
		ret = -1;
	while (nr) {
		rel = stack[--nr];
		strbuf_setlen(&path, base);
		strbuf_addf(&path, "/%s", rel);
		if (lstat_mode(path.buf, &mode) < 0) {
			ret = -1;
		} else if (S_ISDIR(mode)) {
			if (push_entries(&path, base, rel, &stack, &nr,
					 &alloc) < 0)
				ret = -1;
		} else if (S_ISREG(mode) && (test = ltp_test_name(rel))) {
			if (read_file(&buf, path.buf) < 0) {
				ret = -1;
			} else {
				testannot_parse_ltp(set, test, rel, buf.buf,
						    buf.len);
				set->nr_tests++;
			}
			free(test);
		}
		free(rel);
	}
	testannot_set_sort(set);
	free(stack);
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}
