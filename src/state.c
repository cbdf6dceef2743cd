#include "state.h"
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
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT, tmp = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1], from[GIT_OID_HEXSZ + 1] = "-";
	const char *line;
	size_t len;
	int fd = -1, ret;

	if ((ret = read_state(path, &sb)) < 0)
		goto out;
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

	if ((ret = mkdir_leading(path)) < 0)
		goto out;
	strbuf_addf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || write_in_full(fd, out.buf, out.len) < 0 || fsync(fd) < 0) {
		ret = error("cannot write state '%s': %s", tmp.buf, strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(tmp.buf);
		goto out;
	}
	if (close(fd) < 0) {
		ret = error("cannot write state '%s': %s", tmp.buf, strerror(errno));
		unlink(tmp.buf);
		goto out;
	}
	if (rename(tmp.buf, path) < 0) {
		ret = error("cannot rename '%s' to '%s': %s", tmp.buf, path,
			    strerror(errno));
		unlink(tmp.buf);
	} else {
		fsync_dir_of(path);
	}
out:
	strbuf_release(&tmp);
	strbuf_release(&out);
	strbuf_release(&sb);
	return ret < 0 ? -1 : 0;
}
