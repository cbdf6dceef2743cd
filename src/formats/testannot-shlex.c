/*
 * The shell lexer of the fstests reader: a test script or common/ file
 * as words and operators (testannot-internal.h), with its quoting,
 * expansions, here-documents and redirections; a construct left open
 * is a problem and the word is read again without it.
 */
#include "formats/testannot-internal.h"
#include "base/ascii.h"

/* Times a file is read again after a quote that does not close. */
#define MAX_RESTARTS 8

/* Characters that end an unquoted shell word. */
static int is_sh_break(int c)
{
	return is_space(c) || c == '\n' || c == ';' || c == '&' || c == '|' ||
		c == '<' || c == '>' || c == '(' || c == ')';
}

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
			testannot_add_problem(lx->set, lx->file, d->line,
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

/* The closing quote of the innermost frame: kept in raw mode. */
static void close_quote(struct sh_lexer *lx, struct sh_word *w)
{
	close_frame(lx);
	if (lx->raw)
		add_raw(lx, w, 1);
	else
		lx->pos++;
}

/* A character of the word inside the innermost frame. */
static void step_frame(struct sh_lexer *lx, struct sh_word *w, int c)
{
	struct frame *f = top_frame(lx);
	int n = at(lx, 1), prev;

	switch (f->type) {
	case F_SQ:
		if (c == '\'') {
			close_quote(lx, w);
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
			close_quote(lx, w);
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
			testannot_add_problem(lx->set, lx->file, f->line,
					      "", NULL, frame_name(f->type));
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

void sh_lexer_init(struct sh_lexer *lx, struct testannot_set *set,
		   const char *file, const char *buf, size_t len)
{
	size_t i;

	memset(lx, 0, sizeof(*lx));
	lx->buf = buf;
	lx->len = buf ? len : 0;
	lx->line = 1;
	lx->set = set;
	lx->file = file;
	for (i = 0; i < NR_FRAME; i++)
		lx->kill_from[i] = (size_t)-1;
	strbuf_init(&lx->scratch.val, 0);
}

void sh_lexer_release(struct sh_lexer *lx)
{
	free(lx->frames);
	drop_heredocs(lx, 0);
	free(lx->docs);
	strbuf_release(&lx->scratch.val);
}

enum sh_tok sh_lexer_next(struct sh_lexer *lx, struct sh_word *w)
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
