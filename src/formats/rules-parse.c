/*
 * The parser of rule files (stablepick-rules(5)): its tables of
 * directives and fields, every check of a line, and
 * ruleset_load_buffer(), which reads a file's text into a ruleset.
 * Like tig's, it reports every error of a file as "path:line: message"
 * and goes on.  Loading files and directories, and what a loaded
 * ruleset does, are rules.c's.
 */
#include "formats/rules-internal.h"
#include "formats/rules-parse.h"
#include "base/ascii.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char rule_usage[] =
	"'rule' needs NAME WEIGHT FIELD /PATTERN/FLAGS";
static const char veto_usage[] = "'veto' needs NAME FIELD /PATTERN/FLAGS";
static const char link_usage[] = "'link' needs NAME FIELD /PATTERN/FLAGS";
static const char backport_usage[] =
	"'backport' needs NAME FIELD /PATTERN/FLAGS";

void report_at(struct parser *p, unsigned lineno, const char *fmt, ...)
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

static char *skip_blanks(char *s)
{
	while (is_blank(*s))
		s++;
	return s;
}

char *next_word(char **pp)
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

/*
 * Parses a weight or a threshold, a signed decimal integer ("+8", "-6",
 * "3"), into *out.  Returns 0; -1 when s is not such an integer; -2
 * when it is one beyond RULE_WEIGHT_MAX either way, however many
 * digits it has.
 */
static int parse_weight(const char *s, int *out)
{
	char *end;
	long v;

	if (!(*s >= '0' && *s <= '9') && *s != '+' && *s != '-')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end)
		return -1;
	if ((*s == '+' || *s == '-') && !(s[1] >= '0' && s[1] <= '9'))
		return -1;
	/* ERANGE: more digits than a long holds, out of range all the same. */
	if (errno || v < -RULE_WEIGHT_MAX || v > RULE_WEIGHT_MAX)
		return -2;
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
	if (!starts_with(word, "trailer:")) {
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
	if (r->veto || r->link || r->backport) {
		report(p, "'unless' is for rules: a %s applies whatever else "
		       "matched", r->veto ? "veto" : r->link ? "link" :
		       "backport");
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
 * link NAME FIELD /PATTERN/FLAGS or backport NAME FIELD /PATTERN/FLAGS
 * (kind 'r', 'v', 'l' or 'b').  A link and a backport line name commits:
 * they have a group for the id and read a message's text.
 */
static void parse_rule(struct parser *p, char *s, int kind)
{
	int veto = kind == 'v', link = kind == 'l', backport = kind == 'b';
	int naming = link || backport;
	const char *what = link ? "link" : "backport";
	const char *usage = veto ? veto_usage : link ? link_usage :
			    backport ? backport_usage : rule_usage;
	char *words[3], *slash, *pattern, *flags;
	size_t nr_words = veto || naming ? 2 : 3, i;
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
	r.backport = backport;
	if (!valid_name(words[0])) {
		report(p, "bad rule name '%s' (expected letters, digits, '-', "
		       "'_' and '.')", words[0]);
		bad = 1;
	}
	if (!veto && !naming) {
		int ret = parse_weight(words[1], &r.weight);

		if (ret == -1)
			report(p, "bad weight '%s' (expected an integer such "
			       "as +8 or -6)", words[1]);
		else if (ret == -2)
			report(p, "weight '%s' is out of range (expected "
			       "-%d to +%d)", words[1], RULE_WEIGHT_MAX,
			       RULE_WEIGHT_MAX);
		if (ret < 0)
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
	} else if (naming && !link_groups(r.re)) {
		report(p, "%s '%s' has no group for the commit id (as in %s)",
		       what, words[0], link ? "/^([0-9a-f]{7,40})\\b/" :
		       "/^master commit: (?<id>[0-9a-f]{40})$/m");
		bad = 1;
	}
	if (naming && !bad && r.field != FIELD_TRAILER &&
	    r.field != FIELD_SUBJECT && r.field != FIELD_BODY &&
	    r.field != FIELD_MESSAGE) {
		report(p, "%s '%s' reads field '%s': a commit names commits in "
		       "its subject, body, message or trailers", what, words[0],
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
	if (naming && p->cur) {
		report(p, "'%s' inside subsystem '%s': %ss are for every "
		       "commit", what, p->cur->name, what);
		bad = 1;
	}

	if (link) {
		rules = &p->rs->links;
		nr = &p->rs->nr_links;
		alloc = &p->rs->alloc_links;
	} else if (backport) {
		rules = &p->rs->backports;
		nr = &p->rs->nr_backports;
		alloc = &p->rs->alloc_backports;
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
		if (p->cur && !naming)
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

static void parse_threshold(struct parser *p, char *s)
{
	unsigned *line = p->cur ? &p->block_threshold_line : &p->threshold_line;
	char *word = next_word(&s);
	int v, ret;

	if (!word) {
		report(p, "'threshold' needs an integer");
		return;
	}
	if (next_word(&s)) {
		report(p, "too many arguments to 'threshold'");
		return;
	}
	ret = parse_weight(word, &v);
	if (ret == -1) {
		report(p, "threshold '%s' is not an integer", word);
		return;
	}
	if (ret == -2) {
		report(p, "threshold '%s' is out of range (expected -%d to "
		       "+%d)", word, RULE_WEIGHT_MAX, RULE_WEIGHT_MAX);
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
	if (!p->cc_seen && !p->generic_only) {
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
		if (p->generic_only)
			continue;
		rules_add_string(&p->rs->cc, &p->rs->nr_cc, &p->rs->alloc_cc,
				 word);
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
	if (!rules_named_group(re, "major")) {
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

/*
 * standalone: the directory of this file does without the subsystems
 * of those before it (the shipped kernel rules), see rules.h.
 */
static void parse_standalone(struct parser *p, char *s)
{
	if (p->cur) {
		report(p, "'standalone' inside subsystem '%s'", p->cur->name);
		return;
	}
	if (next_word(&s)) {
		report(p, "too many arguments to 'standalone'");
		return;
	}
	if (p->standalone_line) {
		report(p, "'standalone' given twice (first on line %u)",
		       p->standalone_line);
		return;
	}
	p->standalone_line = p->lineno;
	p->file->standalone = 1;
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
	if (bad || p->generic_only) {
		sub = &p->scratch;
		memset(sub, 0, sizeof(*sub));
	} else {
		sub = ruleset_new_subsystem(rs);
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
		{ "list", block_list, 1 },
		{ "maintainer", block_maintainer, 1 },
		{ "paths", block_paths, 1 },
		{ "policy", block_policy, 1 },
		{ "release-tags", parse_release_tags, 0 },
		{ "soak", block_soak, 1 },
		{ "standalone", parse_standalone, 0 },
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
	    !strcmp(word, "link") || !strcmp(word, "backport")) {
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
	f->standalone = 0;
	f->generic_only = 0;
	return f;
}

int ruleset_load_buffer(struct ruleset *rs, const char *name,
			const char *text, size_t len)
{
	return rules_parse_buffer(rs, name, text, len, 0);
}

int rules_parse_buffer(struct ruleset *rs, const char *name,
		       const char *text, size_t len, int generic_only)
{
	struct strbuf line = STRBUF_INIT;
	struct parser p;
	const char *end = text + len, *eol;

	memset(&p, 0, sizeof(p));
	p.rs = rs;
	p.file = add_file(rs, name);
	p.file->generic_only = generic_only;
	p.path = p.file->path;
	p.generic_only = generic_only;

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
