#include "state.h"
#include "lockfile.h"
#include "error.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER "# stablepick state 1\n"

/* Reads the state file into sb; a missing file reads as empty. */
static int read_state(const char *path, struct strbuf *sb)
{
	if (strbuf_read_file(sb, path) < 0) {
		if (errno == ENOENT)
			return 0;
		return error("cannot read state '%s': %s", path, strerror(errno));
	}
	if (sb->len && strncmp(sb->buf, HEADER, strlen(HEADER)))
		return error("%s:1: not a stablepick state file", path);
	return 0;
}

/* The line of branch in sb, or NULL; *len gets its length. */
static const char *find_line(const struct strbuf *sb, const char *branch,
			     size_t *len)
{
	const char *p = sb->buf;
	size_t blen = strlen(branch);

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		if (l > blen && !strncmp(p, branch, blen) && p[blen] == '\t') {
			*len = l;
			return p;
		}
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

int state_get(const char *path, const char *branch, struct state *out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *line;
	size_t len;
	int ret = read_state(path, &sb);

	if (!ret && (line = find_line(&sb, branch, &len))) {
		const char *from = line + strlen(branch) + 1;
		size_t rest = len - strlen(branch) - 1;
		const char *tip = memchr(from, '\t', rest);

		memset(out, 0, sizeof(*out));
		ret = 1;
		if (!tip || (size_t)(from + rest - (tip + 1)) != GIT_OID_HEXSZ ||
		    git_oid_fromstrn(&out->tip, tip + 1, GIT_OID_HEXSZ) < 0)
			ret = -1;
		else if (tip - from == 1 && *from == '-')
			out->has_from = 0;
		else if (tip - from != GIT_OID_HEXSZ ||
			 git_oid_fromstrn(&out->from, from, GIT_OID_HEXSZ) < 0)
			ret = -1;
		else
			out->has_from = 1;
		if (ret < 0)
			error("%s: bad line for branch '%s'", path, branch);
	}
	strbuf_release(&sb);
	return ret;
}

int state_set(const char *path, const char *branch, const struct state *st)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1], from[GIT_OID_HEXSZ + 1] = "-";
	struct lockfile lk;
	const char *line;
	size_t len;
	int ret;

	/* Read under the lock: another run may be setting another branch. */
	if (lockfile_take(&lk, path, "state") < 0)
		return -1;
	if ((ret = read_state(path, &sb)) < 0) {
		lockfile_rollback(&lk);
		goto out;
	}
	strbuf_addstr(&out, HEADER);
	if (sb.len)
		strbuf_add(&out, sb.buf + strlen(HEADER), sb.len - strlen(HEADER));
	line = find_line(&out, branch, &len);
	git_oid_tostr(hex, sizeof(hex), &st->tip);
	if (st->has_from)
		git_oid_tostr(from, sizeof(from), &st->from);
	if (line) {
		size_t at = (size_t)(line - out.buf), end = at + len;
		struct strbuf rebuilt = STRBUF_INIT;

		strbuf_add(&rebuilt, out.buf, at);
		strbuf_addf(&rebuilt, "%s\t%s\t%s", branch, from, hex);
		strbuf_addstr(&rebuilt, out.buf + end);
		strbuf_release(&out);
		out = rebuilt;
	} else {
		strbuf_addf(&out, "%s\t%s\t%s\n", branch, from, hex);
	}
	ret = lockfile_commit(&lk, out.buf, out.len);
out:
	strbuf_release(&out);
	strbuf_release(&sb);
	return ret < 0 ? -1 : 0;
}
