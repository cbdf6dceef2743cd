/*
 * The upstream commits a backport names, read by the rules' backport
 * lines (message_read_backports()), and a message's text without those
 * lines, for the reason a revert gives.  The forms are declared in rule
 * files, the kernel's three in default.rules, so that a project's own
 * ("master commit: <id>", "(backported from commit <id>)") count
 * everywhere a backport is read.
 */
#include "formats/message-internal.h"
#include "formats/rules.h"
#include "base/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* A set of the upstream ids seen, to keep the list free of repeats. */
struct id_set {
	size_t *slot;		/* index + 1 into m->upstream, 0 if free */
	size_t alloc;
};

static size_t id_hash(const char *id)
{
	size_t h = 5381, i;

	for (i = 0; i < FULL_HEX; i++)
		h = h * 33 + (unsigned char)id[i];
	return h;
}

static size_t *id_set_slot(struct id_set *set, char **ids, const char *id)
{
	size_t i = id_hash(id) & (set->alloc - 1);

	while (set->slot[i] && memcmp(ids[set->slot[i] - 1], id, FULL_HEX))
		i = (i + 1) & (set->alloc - 1);
	return &set->slot[i];
}

static void add_upstream(struct message *m, struct id_set *set,
			 const char *hex)
{
	char *id = lower_dup(hex, FULL_HEX);
	size_t *slot, i;

	if (2 * (m->nr_upstream + 1) > set->alloc) {
		size_t old = set->alloc;
		size_t *old_slot = set->slot;

		set->alloc = old ? 2 * old : 16;
		set->slot = xcalloc(set->alloc, sizeof(*set->slot));
		for (i = 0; i < old; i++)
			if (old_slot[i])
				*id_set_slot(set, m->upstream,
					     m->upstream[old_slot[i] - 1]) =
					old_slot[i];
		free(old_slot);
	}
	slot = id_set_slot(set, m->upstream, id);
	if (*slot) {
		free(id);
		return;
	}
	ALLOC_GROW(m->upstream, m->nr_upstream, m->alloc_upstream);
	m->upstream[m->nr_upstream++] = id;
	*slot = m->nr_upstream;
}

/*
 * Whether text[off, off + len) is a full id: 40 hex digits, no more
 * hex on either side (a shorter id, or the start of a longer run of
 * hex, names nothing).
 */
static int full_id(const char *text, size_t tlen, size_t off, size_t len)
{
	if (len != FULL_HEX || hex_run(text + off, len) != FULL_HEX)
		return 0;
	if (off && is_hexdigit((unsigned char)text[off - 1]))
		return 0;
	return off + len == tlen || !is_hexdigit((unsigned char)text[off + len]);
}

/*
 * Calls fn for every full id that backport line r names in text: its
 * offset.  A match that gives up (a pattern's match limit) ends it.
 */
static void each_id(const struct ruleset *rs, const struct rule *r,
		    const char *text, size_t len,
		    void (*fn)(void *data, const char *text, size_t off),
		    void *data)
{
	size_t start = 0, id_len, subject_len, end;
	const char *id, *subject;

	while (rule_match_link(rs, r, text, len, start, &id, &id_len, &subject,
			       &subject_len, &end) == 1) {
		if (full_id(text, len, (size_t)(id - text), id_len))
			fn(data, text, (size_t)(id - text));
		start = end;
	}
}

struct reading {
	struct message *m;
	struct id_set set;
};

static void take_id(void *data, const char *text, size_t off)
{
	struct reading *rd = data;

	add_upstream(rd->m, &rd->set, text + off);
}

int message_read_backports(struct message *m, const char *raw, size_t len,
			   const struct ruleset *rs)
{
	struct reading rd = { m, { NULL, 0 } };
	struct strbuf whole = STRBUF_INIT;
	const struct trailer *t;
	size_t i, pos;

	free_string_array(m->upstream, m->nr_upstream);
	m->upstream = NULL;
	m->nr_upstream = m->alloc_upstream = 0;
	if (!raw) {
		strbuf_addf(&whole, "%s\n\n%s", m->subject ? m->subject : "",
			    m->body ? m->body : "");
		raw = whole.buf;
		len = whole.len;
	}
	for (i = 0; rs && i < rs->nr_backports; i++) {
		const struct rule *r = &rs->backports[i];
		const char *s;

		switch (r->field) {
		case FIELD_TRAILER:
			pos = 0;
			while ((t = message_trailer_next(m, r->trailer, &pos)))
				each_id(rs, r, t->val, strlen(t->val), take_id,
					&rd);
			break;
		case FIELD_SUBJECT:
			s = m->subject ? m->subject : "";
			each_id(rs, r, s, strlen(s), take_id, &rd);
			break;
		case FIELD_BODY:
			s = m->text ? m->text : "";
			each_id(rs, r, s, strlen(s), take_id, &rd);
			break;
		case FIELD_MESSAGE:
			each_id(rs, r, raw, len, take_id, &rd);
			break;
		default:
			break;
		}
	}
	free(rd.set.slot);
	strbuf_release(&whole);
	return 0;
}

/* --- the text without its backport lines ------------------------------ */

/* Marks the line of text that holds the id at off. */
static void mark_line(void *data, const char *text, size_t off)
{
	unsigned char *marked = data;

	marked[off] = 1;
	(void)text;
}

char *message_text_without_backports(const char *text,
				     const struct ruleset *rs)
{
	size_t len = strlen(text), i, line = 0;
	unsigned char *marked = xcalloc(len + 1, 1);
	struct strbuf out = STRBUF_INIT;
	int drop = 0;

	/* The lines of text, the body, a backport line of the body reads. */
	for (i = 0; rs && i < rs->nr_backports; i++)
		if (rs->backports[i].field == FIELD_BODY ||
		    rs->backports[i].field == FIELD_MESSAGE)
			each_id(rs, &rs->backports[i], text, len, mark_line,
				marked);
	for (i = 0; i <= len; i++) {
		drop |= marked[i];
		if (i < len && text[i] != '\n')
			continue;
		if (!drop)
			strbuf_add(&out, text + line, i - line + (i < len));
		line = i + 1;
		drop = 0;
	}
	free(marked);
	return strbuf_detach(&out, NULL);
}
