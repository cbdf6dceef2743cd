#include "base/strbuf.h"
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = 0;
	sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	int new_buf = !sb->alloc;
	size_t want;

	if (sb->len + extra + 1 < sb->len)
		die_oom();
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return;
	if (new_buf)
		sb->buf = NULL;
	sb->alloc = sb->alloc ? sb->alloc : 64;
	while (sb->alloc < want)
		sb->alloc = sb->alloc * 3 / 2 + 16;
	sb->buf = xrealloc(sb->buf, sb->alloc);
	if (new_buf)
		sb->buf[0] = '\0';
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc && !len)
		return;
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_add(sb, other->buf, other->len);
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	if (!n)
		return;
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	strbuf_setlen(sb, sb->len + n);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int len;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	len = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (len < 0)
		return;
	if ((size_t)len >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)len);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	strbuf_setlen(sb, sb->len + (size_t)len);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *xstrvfmt(const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	return strbuf_detach(&sb, NULL);
}

char *xstrfmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xstrvfmt(fmt, ap);
	va_end(ap);
	return s;
}

void strbuf_rtrim(struct strbuf *sb)
{
	size_t len = sb->len;

	while (len && isspace((unsigned char)sb->buf[len - 1]))
		len--;
	strbuf_setlen(sb, len);
}

void strbuf_ltrim(struct strbuf *sb)
{
	size_t skip = 0;

	while (skip < sb->len && isspace((unsigned char)sb->buf[skip]))
		skip++;
	if (!skip)
		return;
	memmove(sb->buf, sb->buf + skip, sb->len - skip);
	strbuf_setlen(sb, sb->len - skip);
}

void strbuf_trim(struct strbuf *sb)
{
	strbuf_rtrim(sb);
	strbuf_ltrim(sb);
}

int strbuf_read_fd(struct strbuf *sb, int fd)
{
	char chunk[8192];
	ssize_t got;

	for (;;) {
		got = read(fd, chunk, sizeof(chunk));
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (!got)
			return 0;
		strbuf_add(sb, chunk, (size_t)got);
	}
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY), ret, saved;

	if (fd < 0)
		return -1;
	ret = strbuf_read_fd(sb, fd);
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}

/* What a file that is not a regular one is, for a message. */
static void add_not_regular(struct strbuf *why, const char *path, mode_t mode)
{
	struct stat st;
	const char *what = S_ISFIFO(mode) ? "a FIFO" :
			   S_ISCHR(mode) ? "a character device" :
			   S_ISBLK(mode) ? "a block device" :
			   S_ISSOCK(mode) ? "a socket" :
			   S_ISDIR(mode) ? "a directory" :
			   S_ISLNK(mode) ? "a symbolic link" : "a special file";

	if (S_ISLNK(mode) && stat(path, &st) < 0 && errno == ELOOP)
		what = "a symbolic link that loops";
	strbuf_addf(why, "%s, not a regular file", what);
}

int strbuf_read_regular(struct strbuf *sb, const char *path, size_t max,
			struct strbuf *why)
{
	struct stat st, opened;
	size_t before = sb->len;
	ssize_t got;
	int fd, saved;

	if (lstat(path, &st) < 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		add_not_regular(why, path, st.st_mode);
		return 0;
	}
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP) {
		/* Made a symbolic link since lstat(). */
		add_not_regular(why, path, S_IFLNK);
		return 0;
	}
	if (fd < 0)
		return -1;
	if (fstat(fd, &opened) < 0) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	if (!S_ISREG(opened.st_mode)) {
		close(fd);
		add_not_regular(why, path, opened.st_mode);
		return 0;
	}
	if ((unsigned long long)opened.st_size > max) {
		close(fd);
		strbuf_addf(why, "larger than %zu bytes", max);
		return 0;
	}
	/* One byte beyond max tells a file that grew while it was read. */
	strbuf_grow(sb, (size_t)opened.st_size + 1);
	for (;;) {
		char chunk[8192];
		size_t want = max - (sb->len - before) + 1;

		got = read(fd, chunk, want < sizeof(chunk) ? want : sizeof(chunk));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		strbuf_add(sb, chunk, (size_t)got);
		if (sb->len - before > max)
			break;
	}
	saved = errno;
	close(fd);
	if (got < 0) {
		strbuf_setlen(sb, before);
		errno = saved;
		return -1;
	}
	if (sb->len - before > max) {
		strbuf_setlen(sb, before);
		strbuf_addf(why, "larger than %zu bytes", max);
		return 0;
	}
	return 1;
}

void strbuf_add_quoted(struct strbuf *sb, const char *p, size_t len,
		       size_t max)
{
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = (unsigned char)p[i];

		if (i >= max) {
			strbuf_addstr(sb, "...");
			return;
		}
		n = c < 0x20 || c == 0x7f ? 0 :
			utf8_seq_len((const unsigned char *)p + i, len - i);
		if (!n) {
			strbuf_addch(sb, '?');
			i++;
		} else {
			strbuf_add(sb, p + i, n);
			i += n;
		}
	}
}

void strbuf_add_utf8(struct strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, (char)cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, (char)(0xc0 | cp >> 6));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, (char)(0xe0 | cp >> 12));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(sb, (char)(0xf0 | cp >> 18));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	}
}
