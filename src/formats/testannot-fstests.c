/*
 * The fstests reader: the shell parser over testannot-shlex.c's tokens
 * (blocks, functions, '[ $FSTYP = X ]' conditions, annotation commands)
 * and the helpers of common/, whose annotations pass on to the tests
 * that call them.
 */
#include "formats/testannot-internal.h"
#include "base/ascii.h"

#include <uthash.h>

static const char fstests_suite[] = "fstests";

/* --- names ------------------------------------------------------------ */

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
			testannot_release(&hp->annots[j]);
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
	memset(p, 0, sizeof(*p));
	sh_lexer_init(&p->lx, set, file, buf, len);
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
	free_string_array(p->pool, p->nr_pool);
	free(p->seen);
	free(p->queue);
	sh_lexer_release(&p->lx);
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
			testannot_add_problem(p->set, p->lx.file,
					      p->cmd_line, "", how.buf,
					      " without a commit");
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
		testannot_copy(&hp->annots[hp->nr_annots++], &a);
	} else {
		a.test = (char *)p->test;
		a.suite = (char *)fstests_suite;
		testannot_add_item(p->set, &a);
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
			testannot_add_item(p->set, &a);
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
		t = sh_lexer_next(&p->lx, &p->words[p->nr_words]);
		if (t == T_WORD)
			on_word(p);
		else
			on_operator(p, t);
	} while (t != T_EOF);
	if (p->cur)
		testannot_add_problem(p->set, p->lx.file, p->cur_line,
				      "helper ", p->cur->name,
				      " is not closed");
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
