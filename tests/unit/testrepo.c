#include "testrepo.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "formats/rules.h"

void testrepo_create(char *dir_template)
{
	assert_non_null(mkdtemp(dir_template));
	setenv("HOME", dir_template, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	setenv("GIT_AUTHOR_NAME", "A U Thor", 1);
	setenv("GIT_AUTHOR_EMAIL", "author@example.com", 1);
	setenv("GIT_COMMITTER_NAME", "C O Mitter", 1);
	setenv("GIT_COMMITTER_EMAIL", "committer@example.com", 1);
	setenv("TZ", "UTC", 1);
}

long testrepo_vgit(const char *dir, long *tick, long step, const char *fmt,
		   va_list ap)
{
	struct strbuf cmd = STRBUF_INIT;
	char date[64];

	*tick += step;
	snprintf(date, sizeof(date), "@%ld +0000", *tick);
	setenv("GIT_AUTHOR_DATE", date, 1);
	setenv("GIT_COMMITTER_DATE", date, 1);
	strbuf_addf(&cmd, "cd '%s' && git ", dir);
	strbuf_vaddf(&cmd, fmt, ap);
	strbuf_addstr(&cmd, " >/dev/null");
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
	return *tick;
}

long testrepo_git(const char *dir, long *tick, long step, const char *fmt, ...)
{
	va_list ap;
	long t;

	va_start(ap, fmt);
	t = testrepo_vgit(dir, tick, step, fmt, ap);
	va_end(ap);
	return t;
}

long testrepo_sh(const char *dir, long *tick, long step, const char *cmd)
{
	/* "git --version" only to reuse testrepo_git()'s dating and cd. */
	return testrepo_git(dir, tick, step, "--version >/dev/null && { %s; }",
			    cmd);
}

long testrepo_change(const char *dir, long *tick, long step, const char *path,
		     const char *line, const char *message)
{
	return testrepo_git(dir, tick, step,
			    "--version >/dev/null && mkdir -p \"$(dirname '%s')\" && "
			    "printf '%%s\\n' '%s' >'%s' && git add '%s' && "
			    "git commit -q -m '%s'", path, line, path, path, message);
}

git_oid testrepo_rev(git_repository *repo, const char *name)
{
	git_object *obj = NULL;
	git_oid id;

	assert_int_equal(git_revparse_single(&obj, repo, name), 0);
	git_oid_cpy(&id, git_object_id(obj));
	git_object_free(obj);
	return id;
}

void testrepo_remove(const char *dir)
{
	struct strbuf cmd = STRBUF_INIT;

	strbuf_addf(&cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
}

void testrepo_load_backports(struct ruleset *rs)
{
	const char *dir = getenv("TEST_SRCDIR");
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, lines = STRBUF_INIT;
	const char *p, *eol;

	strbuf_addf(&path, "%s/rules/default.rules", dir && *dir ? dir : ".");
	assert_int_equal(strbuf_read_file(&text, path.buf), 0);
	for (p = text.buf; *p; p = *eol ? eol + 1 : eol) {
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		if (!strncmp(p, "backport", 8) && (p[8] == ' ' || p[8] == '\t'))
			strbuf_addf(&lines, "%.*s\n", (int)(eol - p), p);
	}
	assert_non_null(strstr(lines.buf, "cherry picked"));
	assert_int_equal(ruleset_load_buffer(rs, "backports.rules", lines.buf,
					     lines.len), 0);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&lines);
}
