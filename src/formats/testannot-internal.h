#ifndef TESTANNOT_INTERNAL_H
#define TESTANNOT_INTERNAL_H

/*
 * What the files of the testannot module share, and nothing else
 * includes: testannot.c (the set and reading a checkout),
 * testannot-shlex.c (the shell lexer), testannot-fstests.c (the shell
 * parser and common/ helpers) and testannot-ltp.c (the C reader).
 * The API is testannot.h.
 *
 * Both parsers are a lexer and a small state machine over its tokens,
 * with explicit stacks where the input nests ($(...) in "..." in a
 * word, if in a function body): nothing recurses on the input, and
 * every byte is looked at a bounded number of times.  A construct left
 * open at the end of a file is recorded as a problem; the shell lexer
 * then reads the word again with that kind of construct taken as
 * literal text from where it opened, at most MAX_RESTARTS times a file,
 * so that one stray quote does not hide the rest of the file.
 */

#include "base/strbuf.h"
#include "formats/testannot.h"
#include "base/util.h"

#include <string.h>

/* --- the set (testannot.c) -------------------------------------------- */

/* Frees what a owns. */
void testannot_release(struct testannot *a);
/* Copies *a into dst; suite is static and stays shared. */
void testannot_copy(struct testannot *dst, const struct testannot *a);
/* Adds a copy of *a to set. */
void testannot_add_item(struct testannot_set *set, const struct testannot *a);
/* A problem whose message is prefix, then name quoted, then suffix. */
void testannot_add_problem(struct testannot_set *set, const char *file,
			   unsigned line, const char *prefix, const char *name,
			   const char *suffix);

static inline char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* --- characters ------------------------------------------------------- */

/* A blank of the shell and of C: also \r, \f and \v. */
static inline int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Non-zero if c is one of the characters of set (NUL is not). */
static inline int is_one_of(int c, const char *set)
{
	return c > 0 && strchr(set, c);
}

/* --- the shell lexer (testannot-shlex.c) ------------------------------- */

/*
 * The tokens of a test script or common/ file, as testannot.h tells
 * how the shell is read: words (quotes removed at their outer level),
 * the operators between commands, and the ends of lines.  Comments,
 * here-document bodies and redirections with their targets are read
 * past; a construct left open is a problem in lx->set.
 *
 *     struct sh_lexer lx;
 *     struct sh_word w;    (w.val initialised)
 *     sh_lexer_init(&lx, set, file, buf, len);
 *     while ((t = sh_lexer_next(&lx, &w)) != T_EOF)
 *             ... T_WORD: w.val, w.line, w.quoted, w.var ...
 *     sh_lexer_release(&lx);
 */

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

struct frame;
struct heredoc;

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

/* buf (NULL: empty) need not end in a NUL; file names the problems. */
void sh_lexer_init(struct sh_lexer *lx, struct testannot_set *set,
		   const char *file, const char *buf, size_t len);
void sh_lexer_release(struct sh_lexer *lx);
/* The next token; for T_WORD, the word in w. */
enum sh_tok sh_lexer_next(struct sh_lexer *lx, struct sh_word *w);

#endif
