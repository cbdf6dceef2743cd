#include "formats/config.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

void config_init(struct config *c)
{
	memset(c, 0, sizeof(*c));
	c->mail_size_cap = CONFIG_MAIL_SIZE_CAP;
}

void config_release(struct config *c)
{
	free(c->upstream);
	free_string_array(c->rules, c->nr_rules);
	free(c->ledger);
	free(c->ledger_ref);
	free(c->commit_url);
	free(c->to);
	free(c->cc);
	free(c->stable_url);
	free_string_array(c->archives, c->nr_archives);
	git_config_free(c->snapshot);
	config_init(c);
}

/* Copies a string setting; a missing key leaves *out alone. */
static int get_string(git_config *cfg, const char *key, char **out)
{
	git_buf buf = GIT_BUF_INIT;
	int ret = git_config_get_string_buf(&buf, cfg, key);

	if (ret == GIT_ENOTFOUND) {
		git_error_clear();
		return 0;
	}
	if (ret < 0)
		return error_git("cannot read '%s'", key);
	free(*out);
	*out = xstrdup(buf.ptr);
	git_buf_dispose(&buf);
	return 0;
}

/* One value of a setting that is a path ("~/" is the home directory). */
static int add_path(const git_config_entry *e, char ***v, size_t *nr,
		    size_t *alloc)
{
	git_buf path = GIT_BUF_INIT;

	if (git_config_parse_path(&path, e->value) < 0)
		return error_git("bad %s '%s'", e->name, e->value);
	ALLOC_GROW(*v, *nr, *alloc);
	(*v)[(*nr)++] = xstrdup(path.ptr);
	git_buf_dispose(&path);
	return 0;
}

/* One value of stablepick.archive, a list archive. */
static int add_archive(const git_config_entry *e, void *data)
{
	struct config *c = data;

	return add_path(e, &c->archives, &c->nr_archives, &c->alloc_archives);
}

/* One value of stablepick.rules, a directory of rule files. */
static int add_rules(const git_config_entry *e, void *data)
{
	struct config *c = data;

	return add_path(e, &c->rules, &c->nr_rules, &c->alloc_rules);
}

/* A setting that may be given many times: every value, in order. */
static int get_multivar(git_config *cfg, const char *key,
			git_config_foreach_cb fn, struct config *c)
{
	int ret = git_config_get_multivar_foreach(cfg, key, NULL, fn, c);

	if (ret == GIT_ENOTFOUND) {
		git_error_clear();
		return 0;
	}
	return ret < 0 ? -1 : 0;
}

const char *const backport_line_names[] = {
	[BACKPORT_LINE_UPSTREAM] = "upstream",
	[BACKPORT_LINE_BRACKET] = "bracket",
	[BACKPORT_LINE_CHERRY_PICK] = "cherry-pick",
	NULL
};

/* stablepick.backportLine: one of backport_line_names[]. */
static int get_backport_line(git_config *cfg, enum backport_line *out)
{
	char *value = NULL;
	size_t i;
	int ret;

	*out = BACKPORT_LINE_UPSTREAM;
	if ((ret = get_string(cfg, "stablepick.backportLine", &value)) < 0 ||
	    !value)
		return ret;
	for (i = 0; backport_line_names[i]; i++)
		if (!strcmp(value, backport_line_names[i])) {
			*out = (enum backport_line)i;
			free(value);
			return 0;
		}
	ret = error("bad value '%s' of stablepick.backportLine: expected "
		    "upstream, bracket or cherry-pick", value);
	hint_similar(value, strlen(value), backport_line_names, 0, "");
	free(value);
	return ret;
}

/*
 * A number setting from min to max; *out untouched when unset.  0, or
 * -1 after an error that names the setting and what it takes.
 */
static int get_number(git_config *cfg, const char *key, unsigned min,
		      unsigned max, unsigned *out, int *set)
{
	char *value = NULL, *end;
	unsigned long n;
	int ret;

	if ((ret = get_string(cfg, key, &value)) < 0 || !value)
		return ret;
	errno = 0;
	n = strtoul(value, &end, 10);
	if (!*value || *end || errno || n < min || n > max ||
	    !isdigit((unsigned char)*value)) {
		ret = error("bad value '%s' of %s: expected a number from %u "
			    "to %u", value, key, min, max);
	} else {
		*out = (unsigned)n;
		if (set)
			*set = 1;
	}
	free(value);
	return ret;
}

/* The file a setting came from, for a message: "in '~/.gitconfig'". */
static char *where_set(const git_config_entry *e, git_repository *repo,
		       const char *file)
{
	int (*find)(git_buf *) = NULL;
	git_buf buf = GIT_BUF_INIT;
	char *path = NULL, *where;

	switch (e->level) {
	case GIT_CONFIG_LEVEL_APP:
		path = xstrdup(file ? file : "--config");
		break;
	case GIT_CONFIG_LEVEL_LOCAL:
		path = xstrfmt("%sconfig", git_repository_commondir(repo));
		break;
	case GIT_CONFIG_LEVEL_GLOBAL:
		find = git_config_find_global;
		break;
	case GIT_CONFIG_LEVEL_XDG:
		find = git_config_find_xdg;
		break;
	case GIT_CONFIG_LEVEL_SYSTEM:
		find = git_config_find_system;
		break;
	default:
		break;
	}
	if (find && !find(&buf))
		path = xstrdup(buf.ptr);
	git_error_clear();
	git_buf_dispose(&buf);
	if (!path)
		return xstrdup("in git's configuration");
	where = xstrfmt(e->include_depth ? "in a file included from '%s'" :
			"in '%s'", path);
	free(path);
	return where;
}

/*
 * stablepick.commitUrl: an http or https address.  It becomes the href
 * of every commit id on the HTML pages, so any other scheme
 * (javascript:, data:) would put a script on a page that promises
 * none; and a browser drops blanks and control bytes before it reads
 * the scheme, so the value must start with it and hold none.
 */
static int get_commit_url(git_config *cfg, git_repository *repo,
			  const char *file, char **out)
{
	const char *key = "stablepick.commitUrl", *v;
	git_config_entry *e = NULL;
	char *where;
	int ret = git_config_get_entry(&e, cfg, key);

	if (ret == GIT_ENOTFOUND) {
		git_error_clear();
		return 0;
	}
	if (ret < 0)
		return error_git("cannot read '%s'", key);
	for (v = e->value; *v && (unsigned char)*v > 0x20 && *v != 0x7f; v++)
		;
	if (!*v && (!ascii_strncasecmp(e->value, "https://", 8) ||
		    !ascii_strncasecmp(e->value, "http://", 7))) {
		free(*out);
		*out = xstrdup(e->value);
		git_config_entry_free(e);
		return 0;
	}
	where = where_set(e, repo, file);
	ret = error("bad value '%s' of %s (%s): expected an http:// or "
		    "https:// address, %%H for the commit id, without blanks",
		    e->value, key, where);
	free(where);
	git_config_entry_free(e);
	return ret;
}

int config_load(struct config *c, git_repository *repo, const char *file)
{
	git_config *cfg = NULL, *snap = NULL;
	int ret;

	if (file && access(file, R_OK) < 0)
		return error("cannot read config file '%s': %s", file,
			     strerror(errno));
	if (git_repository_config(&cfg, repo) < 0)
		return error_git("cannot read the repository's configuration");
	/* A --config file outranks every other level. */
	if (file && git_config_add_file_ondisk(cfg, file, GIT_CONFIG_LEVEL_APP,
					       repo, 1) < 0) {
		ret = error_git("cannot read config file '%s'", file);
		goto out;
	}
	if (git_config_snapshot(&snap, cfg) < 0) {
		ret = error_git("cannot read the configuration");
		goto out;
	}
	ret = get_string(snap, "stablepick.upstream", &c->upstream);
	if (!ret)
		ret = get_multivar(snap, "stablepick.rules", add_rules, c);
	if (!ret)
		ret = get_string(snap, "stablepick.ledger", &c->ledger);
	if (!ret)
		ret = get_string(snap, "stablepick.ledgerRef", &c->ledger_ref);
	if (!ret)
		ret = get_string(snap, "stablepick.to", &c->to);
	if (!ret)
		ret = get_string(snap, "stablepick.cc", &c->cc);
	if (!ret)
		ret = get_string(snap, "stablepick.stableUrl", &c->stable_url);
	if (!ret)
		ret = get_commit_url(snap, repo, file, &c->commit_url);
	if (!ret)
		ret = get_backport_line(snap, &c->backport_line);
	if (!ret)
		ret = get_number(snap, "stablepick.seriesSize", 1, 10,
				 &c->series_size, NULL);
	if (!ret)
		ret = get_number(snap, "stablepick.seriesDepth", 1, 6,
				 &c->series_depth, NULL);
	if (!ret)
		ret = get_number(snap, "stablepick.seriesTrials", 0, 10000,
				 &c->series_trials, &c->series_trials_set);
	if (!ret)
		ret = get_number(snap, "stablepick.seriesPicks", 1, 100000,
				 &c->series_picks, NULL);
	if (!ret)
		ret = get_number(snap, "stablepick.mailSizeCap", 0, 1000000000,
				 &c->mail_size_cap, NULL);
	if (!ret)
		ret = get_multivar(snap, "stablepick.archive", add_archive, c);
	c->snapshot = snap;
	snap = NULL;
out:
	git_config_free(snap);
	git_config_free(cfg);
	return ret;
}

char *config_branch_get(const struct config *c, const char *branch,
			const char *key)
{
	char *name, *value = NULL;

	if (!c->snapshot)
		return NULL;
	name = xstrfmt("stablepick.%s.%s", branch, key);
	if (get_string(c->snapshot, name, &value) < 0)
		value = NULL;
	free(name);
	return value;
}
