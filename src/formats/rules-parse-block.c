/*
 * The directives of a subsystem block in a rule file (stablepick-rules(5)):
 * paths and their checks, policy, soak, list and maintainer.  The rest
 * of the parser is rules-parse.c's.
 */
#include "formats/rules-parse.h"
#include "base/ascii.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static int has_glob(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[')
			return 1;
	return 0;
}

/*
 * Checks the directory components of a spec: relative, no empty, "." or
 * ".." component, no glob.  `dirs` is the spec up to its last '/'.
 */
static int check_spec_dirs(struct parser *p, const char *spec, size_t dirs)
{
	size_t i = 0, len;

	if (spec[0] == '/') {
		report(p, "bad path spec '%s' (must be relative: no "
		       "leading '/')", spec);
		return -1;
	}
	while (i < dirs) {
		len = strcspn(spec + i, "/");
		if (!len) {
			report(p, "bad path spec '%s' (empty component)", spec);
			return -1;
		}
		if ((len == 1 && spec[i] == '.') ||
		    (len == 2 && spec[i] == '.' && spec[i + 1] == '.')) {
			report(p, "bad path spec '%s' (no '.' or '..' "
			       "components)", spec);
			return -1;
		}
		if (has_glob(spec + i, len)) {
			report(p, "bad path spec '%s' (only the last component "
			       "may be a glob)", spec);
			return -1;
		}
		i += len + 1;
	}
	return 0;
}

static int check_spec(struct parser *p, const char *spec, int is_template)
{
	size_t len = strlen(spec);
	const char *last = strrchr(spec, '/');

	if (is_template) {
		if (len < 4 || strcmp(spec + len - 3, "/*/")) {
			report(p, "bad path spec '%s' for 'subsystem *' "
			       "(expected DIR/*/, one subsystem per directory "
			       "in DIR)", spec);
			return -1;
		}
		return check_spec_dirs(p, spec, len - 2);
	}
	if (!last) {
		report(p, "bad path spec '%s' (expected DIR/ or DIR/GLOB)",
		       spec);
		return -1;
	}
	return check_spec_dirs(p, spec, (size_t)(last - spec) + 1);
}

void block_paths(struct parser *p, char *s)
{
	struct subsystem *sub = p->cur;
	char *word;
	int any = 0;

	if (p->paths_line) {
		report(p, "'paths' given twice in subsystem '%s' (first on "
		       "line %u)", sub->name, p->paths_line);
		return;
	}
	p->paths_line = p->lineno;
	sub->paths_lineno = p->lineno;
	while ((word = next_word(&s))) {
		any = 1;
		if (!check_spec(p, word, sub->is_template))
			rules_add_string(&sub->paths, &sub->nr_paths,
					 &sub->alloc_paths, word);
	}
	if (!any)
		report(p, "'paths' needs at least one path spec");
}

void block_policy(struct parser *p, char *s)
{
	char *word = next_word(&s);

	if (!word) {
		report(p, "'policy' needs a value (heuristic, opt-in or "
		       "ignore)");
		return;
	}
	if (next_word(&s)) {
		report(p, "too many arguments to 'policy'");
		return;
	}
	if (p->policy_line) {
		report(p, "'policy' given twice in subsystem '%s' (first on "
		       "line %u)", p->cur->name, p->policy_line);
		return;
	}
	if (!strcmp(word, "heuristic"))
		p->cur->policy = POLICY_HEURISTIC;
	else if (!strcmp(word, "opt-in"))
		p->cur->policy = POLICY_OPT_IN;
	else if (!strcmp(word, "ignore"))
		p->cur->policy = POLICY_IGNORE;
	else {
		report(p, "unknown policy '%s' (expected heuristic, opt-in or "
		       "ignore)", word);
		return;
	}
	p->cur->has_policy = 1;
	p->policy_line = p->lineno;
}

/*
 * soak release   only commits contained in a mainline release tag
 * soak Nd        only commits in mainline for at least N days
 * (either or both, on one line: "soak release 14d").
 */
void block_soak(struct parser *p, char *s)
{
	struct subsystem *sub = p->cur;
	char *word, *end;
	int any = 0;
	long days;

	while ((word = next_word(&s))) {
		any = 1;
		if (!strcmp(word, "release")) {
			sub->soak_release = 1;
			continue;
		}
		days = strtol(word, &end, 10);
		if (end == word || strcmp(end, "d") || days < 1 || days > 3650) {
			report(p, "bad soak '%s' (expected release or a number "
			       "of days such as 14d)", word);
			continue;
		}
		sub->soak_days = (int)days;
	}
	if (!any)
		report(p, "'soak' needs release or a number of days (14d)");
}

/* NAME@HOST..., into *v: the addresses of "list" and "maintainer". */
static void parse_addresses(struct parser *p, char *s, const char *what,
			    char ***v, size_t *nr, size_t *alloc)
{
	char *word, *at;
	int any = 0;

	while ((word = next_word(&s))) {
		any = 1;
		at = strchr(word, '@');
		if (!at || at == word || !at[1] || strchr(at + 1, '@')) {
			report(p, "bad %s address '%s' (expected NAME@HOST)",
			       what, word);
			continue;
		}
		rules_add_string(v, nr, alloc, word);
	}
	if (!any)
		report(p, "'%s' needs at least one address", what);
}

void block_list(struct parser *p, char *s)
{
	struct subsystem *sub = p->cur;

	parse_addresses(p, s, "list", &sub->lists, &sub->nr_lists,
			&sub->alloc_lists);
}

void block_maintainer(struct parser *p, char *s)
{
	struct subsystem *sub = p->cur;

	parse_addresses(p, s, "maintainer", &sub->maintainers,
			&sub->nr_maintainers, &sub->alloc_maintainers);
}

