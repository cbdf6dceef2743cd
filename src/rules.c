#include "rules.h"
#include "ascii.h"
#include "error.h"
#include "soak.h"
#include "strbuf.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Limits for one match: enough for any sane pattern on a commit message,
 * small enough that a catastrophically backtracking one gives up in a
 * fraction of a second.
 */
#define MATCH_LIMIT 1000000
#define DEPTH_LIMIT 10000
#define JIT_STACK_START (32 * 1024)
#define JIT_STACK_MAX (1024 * 1024)

static const char rule_usage[] =
	"'rule' needs NAME WEIGHT FIELD /PATTERN/FLAGS";
static const char veto_usage[] = "'veto' needs NAME FIELD /PATTERN/FLAGS";
static const char link_usage[] = "'link' needs NAME FIELD /PATTERN/FLAGS";

/* The parser's state for one file: tig-style, it reports and goes on. */
struct parser {
	struct ruleset *rs;
	const char *path;		/* borrowed from rs->files */
	struct rule_file *file;		/* valid until rs->files grows */
	unsigned lineno;
	int errors;
	/*
	 * The open block: a subsystem of rs->subsystems, or `scratch`
	 * when the block's header was bad, so that its lines are still
	 * checked and then dropped.
	 */
	struct subsystem *cur;
	struct subsystem scratch;
	unsigned paths_line, policy_line, block_threshold_line;
	unsigned version_line, threshold_line, release_tags_line;
	int cc_seen;			/* this file set the Cc: */
};

__attribute__((format(printf, 3, 4)))
static void report_at(struct parser *p, unsigned lineno, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s:%u: %s", p->path, lineno, sb.buf);
	strbuf_release(&sb);
	p->errors++;
}

#define report(p, ...) report_at((p), (p)->lineno, __VA_ARGS__)

const char *policy_name(enum policy pol)
{
	switch (pol) {
	case POLICY_HEURISTIC: return "heuristic";
	case POLICY_OPT_IN: return "opt-in";
	case POLICY_IGNORE: return "ignore";
	}
	return "unknown";
}

static const char *const fact_names[FACT__NR] = {
	[FACT_FIXES_IN_BRANCH] = "fixes-in-branch",
	[FACT_FOLLOW_UP] = "follow-up",
	[FACT_REVERTS_PRESENT] = "reverts-present",
	[FACT_PREREQUISITE] = "prerequisite",
	[FACT_NAMED_BY_TEST] = "named-by-test",
};

const char *rule_fact_name(enum rule_fact f)
{
	return (unsigned)f < FACT__NR ? fact_names[f] : "unknown";
}

int rule_fact_lookup(const char *name)
{
	int i;

	for (i = 0; i < FACT__NR; i++)
		if (!strcmp(fact_names[i], name))
			return i;
	return -1;
}

const char *rule_field_name(enum rule_field f)
{
	switch (f) {
	case FIELD_SUBJECT: return "subject";
	case FIELD_BODY: return "body";
	case FIELD_MESSAGE: return "message";
	case FIELD_TRAILER: return "trailer";
	case FIELD_PATHS: return "paths";
	case FIELD_FACT: return "fact";
	case FIELD_REPLY: return "reply";
	}
	return "unknown";
}

static void free_strings(char **v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}

static void rule_release(struct rule *r)
{
	free(r->name);
	free(r->trailer);
	free(r->pattern);
	free(r->flags);
	pcre2_code_free(r->re);
	free_strings(r->unless, r->nr_unless);
	memset(r, 0, sizeof(*r));
}

static void subsystem_release(struct subsystem *s)
{
	size_t i;

	free(s->name);
	free_strings(s->paths, s->nr_paths);
	free_strings(s->lists, s->nr_lists);
	for (i = 0; i < s->nr_rules; i++)
		rule_release(&s->rules[i]);
	free(s->rules);
	memset(s, 0, sizeof(*s));
}

void ruleset_init(struct ruleset *rs)
{
	memset(rs, 0, sizeof(*rs));
	rs->threshold = 10;
	rs->mctx = pcre2_match_context_create(NULL);
	rs->md = pcre2_match_data_create(16, NULL);
	if (!rs->mctx || !rs->md)
		die_oom();
	pcre2_set_match_limit(rs->mctx, MATCH_LIMIT);
	pcre2_set_depth_limit(rs->mctx, DEPTH_LIMIT);
	/* NULL when this PCRE2 has no JIT; matching then interprets. */
	rs->jit_stack = pcre2_jit_stack_create(JIT_STACK_START, JIT_STACK_MAX,
					       NULL);
	if (rs->jit_stack)
		pcre2_jit_stack_assign(rs->mctx, NULL, rs->jit_stack);
}

void ruleset_release(struct ruleset *rs)
{
	size_t i;

	for (i = 0; i < rs->nr_files; i++) {
		free(rs->files[i].path);
		free(rs->files[i].version);
	}
	free(rs->files);
	for (i = 0; i < rs->nr_subsystems; i++) {
		subsystem_release(rs->subsystems[i]);
		free(rs->subsystems[i]);
	}
	free(rs->subsystems);
	for (i = 0; i < rs->nr_rules; i++)
		rule_release(&rs->rules[i]);
	free(rs->rules);
	for (i = 0; i < rs->nr_links; i++)
		rule_release(&rs->links[i]);
	free(rs->links);
	for (i = 0; i < rs->nr_cc; i++)
		free(rs->cc[i]);
	free(rs->cc);
	pcre2_code_free(rs->release_tags);
	free(rs->release_tags_pattern);
	pcre2_match_data_free(rs->md);
	pcre2_jit_stack_free(rs->jit_stack);
	pcre2_match_context_free(rs->mctx);
	memset(rs, 0, sizeof(*rs));
}

struct subsystem *ruleset_subsystem(const struct ruleset *rs, const char *name)
{
	size_t i;

	for (i = 0; i < rs->nr_subsystems; i++)
		if (!strcmp(rs->subsystems[i]->name, name))
			return rs->subsystems[i];
	return NULL;
}

int subsystem_cmp(const struct subsystem *a, const struct subsystem *b)
{
	int da = !a->file, db = !b->file;

	if (da != db)
		return da - db;
	if (!da)
		return a->order < b->order ? -1 : a->order > b->order;
	return strcmp(a->nr_paths ? a->paths[0] : a->name,
		      b->nr_paths ? b->paths[0] : b->name);
}

/* A new, empty subsystem at the end of rs->subsystems. */
static struct subsystem *new_subsystem(struct ruleset *rs)
{
	struct subsystem *s = xcalloc(1, sizeof(*s));

	ALLOC_GROW(rs->subsystems, rs->nr_subsystems, rs->alloc_subsystems);
	s->order = rs->nr_subsystems;
	rs->subsystems[rs->nr_subsystems++] = s;
	return s;
}

int ruleset_threshold(const struct ruleset *rs, const struct subsystem *s)
{
	if (s && s->has_threshold)
		return s->threshold;
	return rs->threshold;
}

int rule_match(const struct ruleset *rs, const struct rule *r,
	       const char *text, size_t len, struct rule_match_result *res)
{
	PCRE2_SIZE *ov;
	int rc;

	if (!r->re)
		return 0;
	if (!text) {
		text = "";
		len = 0;
	}
	rc = pcre2_match(r->re, (PCRE2_SPTR)text, len, 0, 0, rs->md, rs->mctx);
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc < 0)
		return -1;
	if (res) {
		ov = pcre2_get_ovector_pointer(rs->md);
		res->start = ov[0];
		res->end = ov[1];
		/* \K can set the start after the end. */
		if (res->start > res->end)
			res->start = res->end;
	}
	return 1;
}

/* The number of a named group of re, or 0 when it has none. */
static int link_group(const pcre2_code *re, const char *name)
{
	int n = pcre2_substring_number_from_name(re, (PCRE2_SPTR)name);

	return n > 0 ? n : 0;
}

int rule_match_link(const struct ruleset *rs, const struct rule *r,
		    const char *text, size_t len, size_t start,
		    const char **id, size_t *id_len, const char **subject,
		    size_t *subject_len, size_t *end)
{
	PCRE2_SIZE *ov;
	int rc, g;

	if (!r->re || start > len)
		return 0;
	rc = pcre2_match(r->re, (PCRE2_SPTR)text, len, start, 0, rs->md, rs->mctx);
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc < 0)
		return -1;
	ov = pcre2_get_ovector_pointer(rs->md);
	/* An empty match moves on by one, or the caller would loop. */
	*end = ov[1] > start ? ov[1] : start + 1;
	if (!(g = link_group(r->re, "id")))
		g = 1;
	if (g >= rc || ov[2 * g] == PCRE2_UNSET)
		return rule_match_link(rs, r, text, len, *end, id, id_len,
				       subject, subject_len, end);
	*id = text + ov[2 * g];
	*id_len = ov[2 * g + 1] - ov[2 * g];
	*subject = NULL;
	*subject_len = 0;
	g = link_group(r->re, "subject");
	if (g && g < rc && ov[2 * g] != PCRE2_UNSET) {
		*subject = text + ov[2 * g];
		*subject_len = ov[2 * g + 1] - ov[2 * g];
	}
	return 1;
}

/* The number a named group of a tag holds: 0 when it took no part. */
static int tag_group(const struct ruleset *rs, const char *name,
		     const char *tag, int rc, int *out)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(rs->md);
	int g = link_group(rs->release_tags, name);
	long v = 0;
	size_t i;

	*out = 0;
	if (!g || g >= rc || ov[2 * g] == PCRE2_UNSET)
		return 0;
	for (i = ov[2 * g]; i < ov[2 * g + 1]; i++) {
		if (tag[i] < '0' || tag[i] > '9' || v > 100000)
			return -1;
		v = v * 10 + (tag[i] - '0');
	}
	*out = (int)v;
	return 1;
}

int ruleset_parse_tag(const struct ruleset *rs, const char *name,
		      int *major, int *minor, int *rc)
{
	int n, ret, stable;

	if (!rs || !rs->release_tags)
		return soak_parse_tag(name, major, minor, rc);
	n = pcre2_match(rs->release_tags, (PCRE2_SPTR)name, strlen(name), 0, 0,
			rs->md, rs->mctx);
	if (n < 0)
		return -1;
	if (tag_group(rs, "major", name, n, major) <= 0 ||
	    tag_group(rs, "minor", name, n, minor) < 0 ||
	    tag_group(rs, "rc", name, n, rc) < 0 ||
	    (ret = tag_group(rs, "stable", name, n, &stable)) < 0)
		return -1;
	/* "zfs-2.2.0" is the release, "zfs-2.2.4" a stable release. */
	if (ret && stable && !*rc)
		return 1;
	return 0;
}

static char *skip_blanks(char *s)
{
	while (is_blank(*s))
		s++;
	return s;
}

/* Cuts the next word out of *pp (NUL-terminating it); NULL at the end. */
static char *next_word(char **pp)
{
	char *s = skip_blanks(*pp), *word;

	if (!*s) {
		*pp = s;
		return NULL;
	}
	word = s;
	while (*s && !is_blank(*s))
		s++;
	if (*s)
		*s++ = '\0';
	*pp = s;
	return word;
}

static int is_name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

static int valid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!is_name_char((unsigned char)*s))
			return 0;
	return 1;
}

/* Parses a signed decimal integer ("+8", "-6", "3") into *out. */
static int parse_int(const char *s, int *out)
{
	char *end;
	long v;

	if (!(*s >= '0' && *s <= '9') && *s != '+' && *s != '-')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < INT_MIN || v > INT_MAX)
		return -1;
	if ((*s == '+' || *s == '-') && !(s[1] >= '0' && s[1] <= '9'))
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_field(struct parser *p, const char *word,
		       enum rule_field *field, char **trailer)
{
	static const struct {
		const char *name;
		enum rule_field field;
	} fields[] = {
		{ "subject", FIELD_SUBJECT },
		{ "body", FIELD_BODY },
		{ "message", FIELD_MESSAGE },
		{ "paths", FIELD_PATHS },
		{ "fact", FIELD_FACT },
		{ "reply", FIELD_REPLY },
	};
	const char *key, *s;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		if (!strcmp(word, fields[i].name)) {
			*field = fields[i].field;
			return 0;
		}
	}
	if (strncmp(word, "trailer:", 8)) {
		report(p, "unknown field '%s' (expected subject, body, "
		       "message, paths, fact, reply or trailer:KEY)", word);
		return -1;
	}
	key = word + 8;
	for (s = key; *s; s++)
		if (!is_name_char((unsigned char)*s) || *s == '_' || *s == '.')
			break;
	if (!*key || *s) {
		report(p, "bad trailer key '%s' (expected letters, digits "
		       "and '-', as in trailer:Reported-by)", key);
		return -1;
	}
	*field = FIELD_TRAILER;
	*trailer = xstrdup(key);
	return 0;
}

static int parse_flags(struct parser *p, const char *flags, uint32_t *options)
{
	const char *s;
	int ret = 0;

	*options = 0;
	for (s = flags; *s; s++) {
		switch (*s) {
		case 'i': *options |= PCRE2_CASELESS; break;
		case 'm': *options |= PCRE2_MULTILINE; break;
		case 's': *options |= PCRE2_DOTALL; break;
		case 'x': *options |= PCRE2_EXTENDED; break;
		default:
			if (is_blank(*s)) {
				report(p, "unexpected text after pattern "
				       "flags: '%s'", skip_blanks((char *)s));
				return -1;
			}
			report(p, "unknown pattern flag '%c' (expected i, m, "
			       "s or x)", *s);
			ret = -1;
		}
	}
	return ret;
}

static pcre2_code *compile(struct parser *p, const char *pattern,
			   uint32_t options)
{
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE offset;
	pcre2_code *re;
	int code;

	/*
	 * Kernel messages need not be UTF-8: match bytes, and refuse a
	 * (*UTF) that would make invalid UTF-8 text an error.
	 */
	re = pcre2_compile((PCRE2_SPTR)pattern, strlen(pattern),
			   options | PCRE2_NEVER_UTF, &code, &offset, NULL);
	if (!re) {
		if (pcre2_get_error_message(code, msg, sizeof(msg)) < 0)
			snprintf((char *)msg, sizeof(msg), "error %d", code);
		report(p, "cannot compile pattern '%s': %s at offset %zu",
		       pattern, (char *)msg, (size_t)offset);
		return NULL;
	}
	/* Without JIT (unsupported here, or out of memory) it interprets. */
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

static int link_groups(const pcre2_code *re)
{
	uint32_t count = 0;

	pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &count);
	return count > 0;
}

static const struct rule *find_rule(const struct rule *rules, size_t nr,
				    const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(rules[i].name, name))
			return &rules[i];
	return NULL;
}

/* Whether a rule on the field "fact" can match one of the facts. */
static int matches_a_fact(const struct ruleset *rs, const struct rule *r)
{
	int f;

	for (f = 0; f < FACT__NR; f++) {
		const char *name = rule_fact_name((enum rule_fact)f);

		if (rule_match(rs, r, name, strlen(name), NULL) == 1)
			return 1;
	}
	return 0;
}

/*
 * "unless NAME[,NAME...]" after a rule's pattern: each NAME a rule
 * defined above, in the same subsystem (rules, nr) or globally.  A rule
 * is applied after those above it, so whether they counted is known.
 */
static int parse_unless(struct parser *p, struct rule *r, char *s,
			const char *name, const struct rule *rules, size_t nr)
{
	size_t alloc = 0;
	char *word;
	int ret = 0;

	word = next_word(&s);
	if (strcmp(word, "unless")) {
		report(p, "unexpected text after pattern flags: '%s' (expected "
		       "unless NAME)", word);
		return -1;
	}
	if (r->veto || r->link) {
		report(p, "'unless' is for rules: a %s applies whatever else "
		       "matched", r->veto ? "veto" : "link");
		return -1;
	}
	s = skip_blanks(s);
	if (!*s) {
		report(p, "'unless' needs the names of rules above (as in "
		       "unless names-a-bug)");
		return -1;
	}
	while (*s) {
		size_t len = strcspn(s, ", \t");
		char *one = xstrndup(s, len);
		const struct rule *target;

		s += len;
		s += strspn(s, ", \t");
		target = find_rule(rules, nr, one);
		if (!target && p->cur)
			target = find_rule(p->rs->rules, p->rs->nr_rules, one);
		if (!strcmp(one, name)) {
			report(p, "rule '%s' is unless itself", name);
			ret = -1;
		} else if (!target) {
			report(p, "unless '%s': no rule of that name above this "
			       "line%s", one, p->cur ? " (in this subsystem or "
			       "global)" : "");
			ret = -1;
		} else if (target->veto) {
			report(p, "unless '%s': that is a veto, not a rule", one);
			ret = -1;
		}
		ALLOC_GROW(r->unless, r->nr_unless, alloc);
		r->unless[r->nr_unless++] = one;
	}
	return ret;
}

/*
 * rule NAME WEIGHT FIELD /PATTERN/FLAGS, veto NAME FIELD /PATTERN/FLAGS,
 * or link NAME FIELD /PATTERN/FLAGS (kind 'r', 'v' or 'l').
 */
static void parse_rule(struct parser *p, char *s, int kind)
{
	int veto = kind == 'v', link = kind == 'l';
	const char *usage = veto ? veto_usage : link ? link_usage : rule_usage;
	char *words[3], *slash, *pattern, *flags;
	size_t nr_words = veto || link ? 2 : 3, i;
	struct rule r, **rules;
	size_t *nr, *alloc;
	const struct rule *dup;
	uint32_t options;
	char *unless;
	int bad = 0;

	for (i = 0; i < nr_words; i++) {
		s = skip_blanks(s);
		if (!*s || *s == '/') {
			report(p, "%s", usage);
			return;
		}
		words[i] = next_word(&s);
	}
	s = skip_blanks(s);
	if (!*s) {
		report(p, "%s", usage);
		return;
	}
	slash = strrchr(s, '/');
	if (*s != '/' || slash == s) {
		report(p, "pattern '%s' is not enclosed in slashes", s);
		return;
	}
	*slash = '\0';
	pattern = s + 1;
	flags = slash + 1;
	unless = flags + strcspn(flags, " \t");
	if (*unless) {
		*unless++ = '\0';
		unless = skip_blanks(unless);
	}

	memset(&r, 0, sizeof(r));
	r.veto = veto;
	r.link = link;
	if (!valid_name(words[0])) {
		report(p, "bad rule name '%s' (expected letters, digits, '-', "
		       "'_' and '.')", words[0]);
		bad = 1;
	}
	if (!veto && !link && parse_int(words[1], &r.weight) < 0) {
		report(p, "bad weight '%s' (expected an integer such as +8 "
		       "or -6)", words[1]);
		bad = 1;
	}
	if (parse_field(p, words[nr_words - 1], &r.field, &r.trailer) < 0)
		bad = 1;
	if (parse_flags(p, flags, &options) < 0)
		bad = 1;
	else if (!*pattern) {
		report(p, "empty pattern (it would match everything)");
		bad = 1;
	} else if (!(r.re = compile(p, pattern, options))) {
		bad = 1;
	} else if (link && !link_groups(r.re)) {
		report(p, "link '%s' has no group for the commit id (as in "
		       "/^([0-9a-f]{7,40})\\b/)", words[0]);
		bad = 1;
	}
	if (link && !bad && r.field != FIELD_TRAILER && r.field != FIELD_SUBJECT &&
	    r.field != FIELD_BODY && r.field != FIELD_MESSAGE) {
		report(p, "link '%s' reads field '%s': a commit names commits in "
		       "its subject, body, message or trailers", words[0],
		       rule_field_name(r.field));
		bad = 1;
	}
	if (!bad && r.field == FIELD_FACT && !matches_a_fact(p->rs, &r)) {
		struct strbuf names = STRBUF_INIT;
		int f;

		for (f = 0; f < FACT__NR; f++)
			strbuf_addf(&names, "%s%s", f ? ", " : "",
				    rule_fact_name((enum rule_fact)f));
		report(p, "%s '%s' matches no fact (the facts are %s)",
		       veto ? "veto" : "rule", words[0], names.buf);
		strbuf_release(&names);
		bad = 1;
	}
	if (link && p->cur) {
		report(p, "'link' inside subsystem '%s': links are for every "
		       "commit", p->cur->name);
		bad = 1;
	}

	if (link) {
		rules = &p->rs->links;
		nr = &p->rs->nr_links;
		alloc = &p->rs->alloc_links;
	} else if (p->cur) {
		rules = &p->cur->rules;
		nr = &p->cur->nr_rules;
		alloc = &p->cur->alloc_rules;
	} else {
		rules = &p->rs->rules;
		nr = &p->rs->nr_rules;
		alloc = &p->rs->alloc_rules;
	}
	if (*unless && parse_unless(p, &r, unless, words[0], *rules, *nr) < 0)
		bad = 1;
	dup = find_rule(*rules, *nr, words[0]);
	if (dup) {
		if (p->cur && !link)
			report(p, "duplicate rule '%s' in subsystem '%s' "
			       "(first defined at %s:%u)", words[0],
			       p->cur->name, dup->file, dup->lineno);
		else
			report(p, "duplicate rule '%s' (first defined at "
			       "%s:%u)", words[0], dup->file, dup->lineno);
		bad = 1;
	}
	if (bad) {
		rule_release(&r);
		return;
	}
	r.name = xstrdup(words[0]);
	r.pattern = xstrdup(pattern);
	r.flags = xstrdup(flags);
	r.file = p->path;
	r.lineno = p->lineno;
	ALLOC_GROW(*rules, *nr, *alloc);
	(*rules)[(*nr)++] = r;
}

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

static void add_string(char ***arr, size_t *nr, size_t *alloc, const char *s)
{
	ALLOC_GROW(*arr, *nr, *alloc);
	(*arr)[(*nr)++] = xstrdup(s);
}

static void parse_paths(struct parser *p, char *s)
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
			add_string(&sub->paths, &sub->nr_paths,
				   &sub->alloc_paths, word);
	}
	if (!any)
		report(p, "'paths' needs at least one path spec");
}

static void parse_policy(struct parser *p, char *s)
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
static void parse_soak(struct parser *p, char *s)
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

static void parse_list(struct parser *p, char *s)
{
	struct subsystem *sub = p->cur;
	char *word, *at;
	int any = 0;

	while ((word = next_word(&s))) {
		any = 1;
		at = strchr(word, '@');
		if (!at || at == word || !at[1] || strchr(at + 1, '@')) {
			report(p, "bad list address '%s' (expected NAME@HOST)",
			       word);
			continue;
		}
		add_string(&sub->lists, &sub->nr_lists, &sub->alloc_lists,
			   word);
	}
	if (!any)
		report(p, "'list' needs at least one address");
}

static void parse_threshold(struct parser *p, char *s)
{
	unsigned *line = p->cur ? &p->block_threshold_line : &p->threshold_line;
	char *word = next_word(&s);
	int v;

	if (!word) {
		report(p, "'threshold' needs an integer");
		return;
	}
	if (next_word(&s)) {
		report(p, "too many arguments to 'threshold'");
		return;
	}
	if (parse_int(word, &v) < 0) {
		report(p, "threshold '%s' is not an integer", word);
		return;
	}
	if (*line) {
		report(p, "'threshold' given twice (first on line %u)", *line);
		return;
	}
	*line = p->lineno;
	if (p->cur) {
		p->cur->threshold = v;
		p->cur->has_threshold = 1;
	} else {
		p->rs->threshold = v;
	}
}

/*
 * cc ADDRESS... (or none): the proposal mail's Cc when stablepick.cc is
 * unset.  A file's cc lines add up, and replace those of the files
 * loaded before.
 */
static void parse_cc(struct parser *p, char *s)
{
	char *word, *at;
	int any = 0;

	if (p->cur) {
		report(p, "'cc' inside subsystem '%s' (use 'list' there)",
		       p->cur->name);
		return;
	}
	/* The file that sets the Cc: replaces what the files before set. */
	if (!p->cc_seen) {
		size_t i;

		for (i = 0; i < p->rs->nr_cc; i++)
			free(p->rs->cc[i]);
		p->rs->nr_cc = 0;
		p->cc_seen = 1;
	}
	while ((word = next_word(&s))) {
		any = 1;
		if (!strcmp(word, "none"))
			continue;
		at = strchr(word, '@');
		if (!at || at == word || !at[1] || strchr(at + 1, '@')) {
			report(p, "bad cc address '%s' (expected NAME@HOST)", word);
			continue;
		}
		add_string(&p->rs->cc, &p->rs->nr_cc, &p->rs->alloc_cc, word);
	}
	if (!any)
		report(p, "'cc' needs at least one address");
}

/* release-tags /PATTERN/: how tags name releases, see rules.h. */
static void parse_release_tags(struct parser *p, char *s)
{
	char *slash, *pattern;
	uint32_t options;
	pcre2_code *re;

	if (p->cur) {
		report(p, "'release-tags' inside subsystem '%s'", p->cur->name);
		return;
	}
	s = skip_blanks(s);
	slash = strrchr(s, '/');
	if (*s != '/' || !slash || slash == s) {
		report(p, "'release-tags' needs /PATTERN/, with groups major, "
		       "minor, rc and stable");
		return;
	}
	*slash = '\0';
	pattern = s + 1;
	if (parse_flags(p, slash + 1, &options) < 0)
		return;
	if (p->release_tags_line) {
		report(p, "'release-tags' given twice (first on line %u)",
		       p->release_tags_line);
		return;
	}
	if (!*pattern) {
		report(p, "empty pattern (it would match everything)");
		return;
	}
	if (!(re = compile(p, pattern, options)))
		return;
	if (!link_group(re, "major")) {
		report(p, "'release-tags' pattern has no group 'major' (as in "
		       "/^v(?<major>[0-9]+)\\.(?<minor>[0-9]+)$/)");
		pcre2_code_free(re);
		return;
	}
	p->release_tags_line = p->lineno;
	pcre2_code_free(p->rs->release_tags);
	free(p->rs->release_tags_pattern);
	p->rs->release_tags = re;
	p->rs->release_tags_pattern = xstrdup(pattern);
}

static void parse_version(struct parser *p, char *s)
{
	size_t len;

	s = skip_blanks(s);
	len = strlen(s);
	while (len && is_blank(s[len - 1]))
		s[--len] = '\0';
	if (!len) {
		report(p, "'version' needs a value");
		return;
	}
	if (p->version_line) {
		report(p, "'version' given twice (first on line %u)",
		       p->version_line);
		return;
	}
	p->version_line = p->lineno;
	p->file->version = xstrdup(s);
}

/* Ends the open block (at `end`, at a new `subsystem`, at end of file). */
static void close_block(struct parser *p)
{
	struct subsystem *sub = p->cur;

	if (sub->is_template && !sub->nr_paths && !p->paths_line)
		report_at(p, sub->lineno, "template subsystem '*' needs "
			  "'paths DIR/*/'");
	if (sub == &p->scratch)
		subsystem_release(&p->scratch);
	p->cur = NULL;
	p->paths_line = p->policy_line = p->block_threshold_line = 0;
}

static void parse_subsystem(struct parser *p, char *s)
{
	struct ruleset *rs = p->rs;
	char *name = next_word(&s);
	const struct subsystem *dup = NULL;
	struct subsystem *sub;
	int bad = 0;

	if (p->cur) {
		report(p, "'subsystem' inside subsystem '%s' (opened on line "
		       "%u; missing 'end')", p->cur->name, p->cur->lineno);
		close_block(p);
	}
	if (!name) {
		report(p, "'subsystem' needs a name");
		name = "";
		bad = 1;
	} else if (next_word(&s)) {
		report(p, "too many arguments to 'subsystem'");
		bad = 1;
	} else if (strcmp(name, "*") && !valid_name(name)) {
		report(p, "bad subsystem name '%s' (expected letters, digits, "
		       "'-', '_' and '.', or '*' for a template)", name);
		bad = 1;
	} else if (strcmp(name, "*") && (dup = ruleset_subsystem(rs, name))) {
		if (dup->file)
			report(p, "duplicate subsystem '%s' (first defined at "
			       "%s:%u)", name, dup->file, dup->lineno);
		else
			report(p, "duplicate subsystem '%s'", name);
		bad = 1;
	}
	if (bad) {
		sub = &p->scratch;
		memset(sub, 0, sizeof(*sub));
	} else {
		sub = new_subsystem(rs);
	}
	sub->name = xstrdup(name);
	sub->is_template = !strcmp(name, "*");
	sub->file = p->path;
	sub->lineno = p->lineno;
	p->cur = sub;
}

static void parse_end(struct parser *p, char *s)
{
	if (!p->cur) {
		report(p, "'end' outside a subsystem block");
		return;
	}
	/* Closes the block all the same, or every line after would err. */
	if (next_word(&s))
		report(p, "too many arguments to 'end'");
	close_block(p);
}

static void parse_line(struct parser *p, char *line)
{
	static const struct {
		const char *name;
		void (*fn)(struct parser *p, char *rest);
		int in_block;	/* 1: only in a block, 0: anywhere */
	} directives[] = {
		{ "cc", parse_cc, 0 },
		{ "end", parse_end, 0 },
		{ "list", parse_list, 1 },
		{ "paths", parse_paths, 1 },
		{ "policy", parse_policy, 1 },
		{ "release-tags", parse_release_tags, 0 },
		{ "soak", parse_soak, 1 },
		{ "subsystem", parse_subsystem, 0 },
		{ "threshold", parse_threshold, 0 },
		{ "version", parse_version, 0 },
	};
	char *s = line, *word;
	size_t i;

	word = next_word(&s);
	if (!word || *word == '#')
		return;
	if (!strcmp(word, "rule") || !strcmp(word, "veto") ||
	    !strcmp(word, "link")) {
		parse_rule(p, s, word[0]);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(directives); i++) {
		if (strcmp(word, directives[i].name))
			continue;
		if (directives[i].in_block && !p->cur) {
			report(p, "'%s' outside a subsystem block", word);
			return;
		}
		directives[i].fn(p, s);
		return;
	}
	report(p, "unknown directive '%s'", word);
}

static struct rule_file *add_file(struct ruleset *rs, const char *path)
{
	struct rule_file *f;

	ALLOC_GROW(rs->files, rs->nr_files, rs->alloc_files);
	f = &rs->files[rs->nr_files++];
	f->path = xstrdup(path);
	f->version = NULL;
	return f;
}

int ruleset_load_buffer(struct ruleset *rs, const char *name,
			const char *text, size_t len)
{
	struct strbuf line = STRBUF_INIT;
	struct parser p;
	const char *end = text + len, *eol;

	memset(&p, 0, sizeof(p));
	p.rs = rs;
	p.file = add_file(rs, name);
	p.path = p.file->path;

	while (text < end) {
		eol = memchr(text, '\n', (size_t)(end - text));
		if (!eol)
			eol = end;
		p.lineno++;
		strbuf_reset(&line);
		strbuf_add(&line, text, (size_t)(eol - text));
		text = eol + 1;
		while (line.len && (is_blank(line.buf[line.len - 1]) ||
				    line.buf[line.len - 1] == '\r'))
			strbuf_setlen(&line, line.len - 1);
		if (strlen(line.buf) != line.len) {
			report(&p, "NUL byte in line");
			continue;
		}
		parse_line(&p, line.buf);
	}
	if (p.cur) {
		report_at(&p, p.cur->lineno, "subsystem '%s' is not closed "
			  "(missing 'end')", p.cur->name);
		close_block(&p);
	}
	strbuf_release(&line);
	return p.errors ? -1 : 0;
}

/* As ruleset_load_file(); -2 (after the message) if it cannot be read. */
static int load_file(struct ruleset *rs, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&sb, path) < 0) {
		error("cannot read rule file '%s': %s", path, strerror(errno));
		strbuf_release(&sb);
		return -2;
	}
	ret = ruleset_load_buffer(rs, path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

int ruleset_load_file(struct ruleset *rs, const char *path)
{
	return load_file(rs, path) < 0 ? -1 : 0;
}

/*
 * A rule file other than default.rules: "NAME.rules", not hidden and not
 * an editor's lock or autosave file (".#x.rules", "#x.rules#").
 */
static int is_rule_file(const char *name)
{
	size_t len = strlen(name);

	if (name[0] == '.' || name[0] == '#' || !strcmp(name, "default.rules"))
		return 0;
	return len > 6 && !strcmp(name + len - 6, ".rules");
}

/* A rule file of an overlay: its name, and the directory it comes from. */
struct overlay_file {
	char *name;
	const char *dir;
};

static int cmp_overlay(const void *a, const void *b)
{
	const struct overlay_file *x = a, *y = b;
	int dx = !strcmp(x->name, "default.rules");
	int dy = !strcmp(y->name, "default.rules");

	if (dx != dy)
		return dy - dx;
	return strcmp(x->name, y->name);
}

/* Adds the rule files of dir, in place of those of the same name. */
static int list_dir(const char *dir, struct overlay_file **v, size_t *nr,
		    size_t *alloc)
{
	struct dirent *de;
	size_t i;
	DIR *d = opendir(dir);

	if (!d)
		return error("cannot read rule directory '%s': %s", dir,
			     strerror(errno));
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, "default.rules") &&
		    !is_rule_file(de->d_name))
			continue;
		for (i = 0; i < *nr; i++)
			if (!strcmp((*v)[i].name, de->d_name))
				break;
		if (i == *nr) {
			ALLOC_GROW(*v, *nr, *alloc);
			(*v)[(*nr)++].name = xstrdup(de->d_name);
		}
		(*v)[i].dir = dir;
	}
	closedir(d);
	return 0;
}

int ruleset_load_dirs(struct ruleset *rs, const char *const *dirs, size_t nr)
{
	struct strbuf path = STRBUF_INIT;
	struct overlay_file *v = NULL;
	size_t n = 0, alloc = 0, i;
	int ret = 0;

	for (i = 0; i < nr; i++)
		if (list_dir(dirs[i], &v, &n, &alloc) < 0)
			ret = -1;
	if (ret)
		goto out;
	QSORT(v, n, cmp_overlay);
	if (!n || strcmp(v[0].name, "default.rules")) {
		ret = error("cannot read rule file '%s/default.rules': %s",
			    nr ? dirs[0] : ".", strerror(ENOENT));
		goto out;
	}
	for (i = 0; i < n; i++) {
		size_t len = strlen(v[i].dir);

		while (len > 1 && v[i].dir[len - 1] == '/')
			len--;
		strbuf_reset(&path);
		strbuf_add(&path, v[i].dir, len);
		strbuf_addf(&path, "/%s", v[i].name);
		if (load_file(rs, path.buf) < 0)
			ret = -1;
	}
out:
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	strbuf_release(&path);
	return ret < 0 ? -1 : 0;
}

int ruleset_load_dir(struct ruleset *rs, const char *dir)
{
	return ruleset_load_dirs(rs, &dir, 1);
}

static void copy_rule(struct rule *dst, const struct rule *src)
{
	size_t i;

	*dst = *src;
	dst->name = xstrdup(src->name);
	dst->trailer = src->trailer ? xstrdup(src->trailer) : NULL;
	dst->pattern = xstrdup(src->pattern);
	dst->flags = xstrdup(src->flags);
	dst->unless = NULL;
	if (src->nr_unless) {
		dst->unless = xcalloc(src->nr_unless, sizeof(*dst->unless));
		for (i = 0; i < src->nr_unless; i++)
			dst->unless[i] = xstrdup(src->unless[i]);
	}
	dst->re = NULL;
	if (src->re) {
		/* Compiled with the default tables, so they need no copy. */
		dst->re = pcre2_code_copy(src->re);
		if (!dst->re)
			die_oom();
		pcre2_jit_compile(dst->re, PCRE2_JIT_COMPLETE);
	}
}

struct subsystem *ruleset_add_derived(struct ruleset *rs,
				      const struct subsystem *tmpl,
				      const char *name, const char *path)
{
	struct subsystem *s = ruleset_subsystem(rs, name);
	size_t i;

	if (s) {
		for (i = 0; i < s->nr_paths; i++)
			if (!strcmp(s->paths[i], path))
				return s;
		if (!s->nr_paths || !s->file)
			add_string(&s->paths, &s->nr_paths, &s->alloc_paths,
				   path);
		return s;
	}
	s = new_subsystem(rs);
	s->name = xstrdup(name);
	add_string(&s->paths, &s->nr_paths, &s->alloc_paths, path);
	s->policy = tmpl->policy;
	s->has_policy = tmpl->has_policy;
	for (i = 0; i < tmpl->nr_lists; i++)
		add_string(&s->lists, &s->nr_lists, &s->alloc_lists,
			   tmpl->lists[i]);
	s->threshold = tmpl->threshold;
	s->has_threshold = tmpl->has_threshold;
	s->soak_release = tmpl->soak_release;
	s->soak_days = tmpl->soak_days;
	if (tmpl->nr_rules) {
		s->alloc_rules = tmpl->nr_rules;
		s->rules = xcalloc(s->alloc_rules, sizeof(*s->rules));
		for (i = 0; i < tmpl->nr_rules; i++)
			copy_rule(&s->rules[i], &tmpl->rules[i]);
		s->nr_rules = tmpl->nr_rules;
	}
	return s;
}
