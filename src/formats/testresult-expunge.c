/*
 * Expunge lists (kdevops expunges/, xfstests-bld *.exclude), the tests
 * a baseline expects to fail: see testresult.h.
 */
#include "formats/testresult-internal.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <string.h>

int result_parse_expunge(struct result_set *set, const char *path,
			 const char *config, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *line;
	unsigned lineno = 0;
	size_t n;

	while (next_line(&p, end, &line, &n)) {
		const char *lend = line + n, *w, *hash, *rest;
		size_t wn, rn;
		struct result_item *it;

		lineno++;
		w = word_at(line, lend, &wn);
		if (!wn || *w == '#')
			continue;
		hash = memchr(w, '#', (size_t)(lend - w));
		if (hash && hash < w + wn)
			wn = (size_t)(hash - w);
		if (!result_test_name_ok(w, wn))
			return error("%s:%u: not a test name: '%.*s'", path,
				     lineno, SHORT(w, wn));
		rest = word_at(w + wn, lend, &rn);
		if (rn && *rest != '#')
			return error("%s:%u: '%.*s' after the test is not a "
				     "comment (they start with '#')", path,
				     lineno, SHORT(rest, (size_t)(lend - rest)));
		ALLOC_GROW(set->expunged, set->nr_expunged,
			   set->alloc_expunged);
		it = &set->expunged[set->nr_expunged++];
		memset(it, 0, sizeof(*it));
		it->config = xstrdup(config);
		it->test = xstrndup(w, wn);
		it->suite = result_suite_of(it->test);
		it->outcome = RESULT_FAIL;
		it->file = xstrdup(path);
		it->line = lineno;
		if (hash) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_add(&sb, hash + 1, (size_t)(lend - hash - 1));
			strbuf_trim(&sb);
			if (sb.len)
				it->reason = strbuf_detach(&sb, NULL);
			strbuf_release(&sb);
		}
	}
	return 0;
}
