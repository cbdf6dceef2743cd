#include "formats/mbox.h"
#include "formats/mbox-internal.h"
#include "base/ascii.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/*
 * Reading an mbox: the file taken apart into messages at its From_
 * lines, each message's subject tags and diff, and dates.  A message's
 * headers and text (MIME, RFC 2047) are mbox-mime.c's.
 *
 * The reader first takes the file apart into lines (after turning
 * "\r\n" into "\n") and those into messages; each message is then
 * parsed on its own text, which keeps pointers into it, so that a
 * problem can be traced back to its line of the file.  Every pass is
 * linear in the size of the file.
 */

/* git's buffer_is_binary() looks this far for a NUL byte. */
#define BINARY_PROBE 8000

/* --- lines ---------------------------------------------------------- */

static int span_starts_with(struct span s, const char *prefix)
{
	size_t n = strlen(prefix);

	return s.len >= n && !memcmp(s.p, prefix, n);
}

/* --- the diff --------------------------------------------------------- */

static char *find_diff(const char *body)
{
	const char *p = body;

	for (;;) {
		if (starts_with(p, "diff --git "))
			return xstrdup(p);
		p = strchr(p, '\n');
		if (!p)
			return NULL;
		p++;
	}
}

/* --- subjects --------------------------------------------------------- */

static size_t digit_run(const char *p, size_t len)
{
	size_t n = 0;

	while (n < len && is_digit((unsigned char)p[n]))
		n++;
	return n;
}

/*
 * "6.1", "5.15.y", "6.6-stable", "v6.1", "6.19-6.12", "6.1.70" give
 * "6.1", "5.15", ...; "v2" (a revision) and "1/3" give NULL.
 */
static char *parse_version(const char *p, size_t len)
{
	size_t i = 0, start, n;

	if (len && (p[0] == 'v' || p[0] == 'V'))
		i++;
	start = i;
	n = digit_run(p + i, len - i);
	if (!n || n > 3)
		return NULL;
	i += n;
	if (i >= len || p[i] != '.')
		return NULL;
	i++;
	n = digit_run(p + i, len - i);
	if (!n || n > 3)
		return NULL;
	i += n;
	if (i < len && p[i] != '.' && p[i] != '-' && p[i] != '/' && p[i] != '+')
		return NULL;
	return xstrndup(p + start, i - start);
}

/* "03/12" gives 3 and 12. */
static int parse_n_of_m(const char *p, size_t len, int *n, int *m)
{
	size_t a = digit_run(p, len), b;

	if (!a || a > 5 || a >= len || p[a] != '/')
		return 0;
	b = digit_run(p + a + 1, len - a - 1);
	if (!b || b > 5 || a + 1 + b != len)
		return 0;
	*n = atoi(p);
	*m = atoi(p + a + 1);
	return 1;
}

/* "v3" or "V3" gives 3; anything else 0. */
static int parse_revision(const char *p, size_t len)
{
	size_t n;

	if (len < 2 || (p[0] != 'v' && p[0] != 'V'))
		return 0;
	n = digit_run(p + 1, len - 1);
	if (n != len - 1 || n > 3)
		return 0;
	return atoi(p + 1);
}

/* Reads the tokens of one "[...]" group, p[0..len). */
static void parse_bracket(struct mbox_msg *m, const char *p, size_t len)
{
	size_t i = 0, start;

	while (i < len) {
		while (i < len && (p[i] == ' ' || p[i] == ','))
			i++;
		start = i;
		while (i < len && p[i] != ' ' && p[i] != ',')
			i++;
		if (i == start)
			continue;
		if (span_eq_ci(p + start, i - start, "AUTOSEL"))
			m->autosel = 1;
		else if (!m->revision &&
			 (m->revision = parse_revision(p + start, i - start)))
			;
		else if (!m->total && !m->number &&
			 parse_n_of_m(p + start, i - start, &m->number,
				      &m->total))
			;
		else if (!m->version)
			m->version = parse_version(p + start, i - start);
	}
}

static void parse_subject(struct mbox_msg *m)
{
	const char *p = m->subject, *close;
	struct strbuf title = STRBUF_INIT;

	if (!p)
		return;
	for (;;) {
		while (*p == ' ')
			p++;
		if (!ascii_strncasecmp(p, "re:", 3)) {
			m->is_reply = 1;
			p += 3;
		} else if (*p == '[' && (close = strchr(p, ']'))) {
			parse_bracket(m, p + 1, (size_t)(close - p - 1));
			p = close + 1;
		} else {
			break;
		}
	}
	strbuf_addstr(&title, p);
	strbuf_trim(&title);
	m->title = strbuf_detach(&title, NULL);
}

/* --- messages --------------------------------------------------------- */

/*
 * Parses one message, raw[0..len) starting on line lineno of the file:
 * its headers and text (mbox-mime.c), then its diff and subject tags.
 */
static void parse_message(struct mbox_msg *m, const char *raw, size_t len,
			  size_t lineno)
{
	mbox_parse_mail(m, raw, len, lineno);
	m->diff = find_diff(m->body);
	parse_subject(m);
}

static void add_message(struct mbox *mb, size_t index, size_t line,
			const char *raw, size_t len, size_t lineno)
{
	struct mbox_msg *m;

	ALLOC_GROW(mb->msgs, mb->nr, mb->alloc);
	m = &mb->msgs[mb->nr++];
	memset(m, 0, sizeof(*m));
	m->index = index;
	m->line = line;
	parse_message(m, raw, len, lineno);
}

/* --- the file --------------------------------------------------------- */

static int is_name(const char *p, const char *const names[], size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!ascii_strncasecmp(p, names[i], 3))
			return 1;
	return 0;
}

/*
 * Non-zero if line is a From_ line as mbox writers write it:
 * "From SENDER Www Mmm dd hh:mm:ss yyyy", perhaps with more after the
 * time; only the names of the day and month and the time are checked.
 */
static int is_from_line(struct span line)
{
	static const char *const days[] = {
		"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"
	};
	static const char *const months[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
	};
	const char *p = line.p, *end = line.p + line.len;

	if (!span_starts_with(line, "From "))
		return 0;
	p += 5;
	if (p == end || *p == ' ')
		return 0;
	while (p < end && *p != ' ')
		p++;
	while (p < end && *p == ' ')
		p++;
	if (end - p < 8 || p[3] != ' ' || !is_name(p, days, ARRAY_SIZE(days)))
		return 0;
	p += 4;
	while (p < end && *p == ' ')
		p++;
	if (end - p < 4 || p[3] != ' ' ||
	    !is_name(p, months, ARRAY_SIZE(months)))
		return 0;
	for (p += 4; end - p >= 4; p++)
		if (is_digit((unsigned char)p[0]) && p[1] == ':' &&
		    is_digit((unsigned char)p[2]) &&
		    is_digit((unsigned char)p[3]))
			return 1;
	return 0;
}

size_t mbox_next_message(const char *buf, size_t len, size_t at)
{
	const char *nl;
	size_t p = at;

	/* From the start of the next line, when at is inside one. */
	if (p > 0 && p < len && buf[p - 1] != '\n') {
		nl = memchr(buf + p, '\n', len - p);
		p = nl ? (size_t)(nl - buf) + 1 : len;
	}
	while (p < len) {
		size_t end;
		struct span line;

		nl = memchr(buf + p, '\n', len - p);
		end = nl ? (size_t)(nl - buf) : len;
		line.p = buf + p;
		line.len = end - p;
		if (line.len && line.p[line.len - 1] == '\r')
			line.len--;
		/* At the start, or after an empty line ("\n\n", "\n\r\n"). */
		if ((p <= 1 || buf[p - 2] == '\n' ||
		     (buf[p - 2] == '\r' && (p == 2 || buf[p - 3] == '\n'))) &&
		    is_from_line(line))
			return p;
		p = nl ? end + 1 : len;
	}
	return len;
}

/* ">From ", ">>From ", ...: mboxrd's escape. */
static int is_escaped_from(struct span line)
{
	size_t i = 0;

	while (i < line.len && line.p[i] == '>')
		i++;
	return i && line.len - i >= 5 && !memcmp(line.p + i, "From ", 5);
}

/*
 * Where "\r" were dropped from the text (see normalize()): offsets in
 * the text, ascending, so that an offset in the text maps back to the
 * buffer the caller gave.
 */
struct crs {
	size_t *at;
	size_t nr, alloc;
};

static size_t buffer_offset(const struct crs *crs, size_t off)
{
	size_t lo = 0, hi = crs->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (crs->at[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return off + lo;
}

/* Sets the bytes of the message text[start..end) in the caller's buffer. */
static void set_range(struct mbox *mb, const struct crs *crs, size_t start,
		      size_t end)
{
	struct mbox_msg *m = &mb->msgs[mb->nr - 1];

	m->offset = buffer_offset(crs, start);
	m->length = buffer_offset(crs, end) - m->offset;
}

/*
 * Splits the lines lines[first..nr) (lines[first] a From_ line) of text
 * into messages and adds them.
 */
static void split_mbox(struct mbox *mb, const struct strbuf *text,
		       const struct crs *crs, const struct span *lines,
		       size_t nr, size_t first)
{
	struct strbuf raw = STRBUF_INIT;
	size_t i = first, j, k, end, index = 0;

	while (i < nr) {
		for (j = i + 1; j < nr; j++)
			if (!lines[j - 1].len && is_from_line(lines[j]))
				break;
		end = j;
		if (end > i + 1 && !lines[end - 1].len)
			end--;
		strbuf_reset(&raw);
		for (k = i + 1; k < end; k++) {
			size_t skip = is_escaped_from(lines[k]);

			strbuf_add(&raw, lines[k].p + skip,
				   lines[k].len - skip);
			strbuf_addch(&raw, '\n');
		}
		add_message(mb, ++index, i + 1, raw.buf, raw.len, i + 2);
		set_range(mb, crs, (size_t)(lines[i].p - text->buf),
			  j < nr ? (size_t)(lines[j].p - text->buf) : text->len);
		i = j;
	}
	strbuf_release(&raw);
}

/*
 * The text with "\r\n" as "\n" (and a "\r" that ends it dropped);
 * crs gets where.
 */
static void normalize(struct strbuf *out, struct crs *crs, const char *buf,
		      size_t len)
{
	const char *end = buf + len, *cr;

	strbuf_grow(out, len);
	while ((cr = memchr(buf, '\r', (size_t)(end - buf)))) {
		strbuf_add(out, buf, (size_t)(cr - buf));
		if (cr + 1 < end && cr[1] != '\n') {
			strbuf_addch(out, '\r');
		} else {
			ALLOC_GROW(crs->at, crs->nr, crs->alloc);
			crs->at[crs->nr++] = out->len;
		}
		buf = cr + 1;
	}
	strbuf_add(out, buf, (size_t)(end - buf));
}

void mbox_init(struct mbox *mb)
{
	mb->msgs = NULL;
	mb->nr = mb->alloc = 0;
}

/* mbox_read(); quiet: fail without a message. */
static int read_buffer(struct mbox *out, const char *path, const char *buf,
		       size_t len, int quiet)
{
	struct strbuf text = STRBUF_INIT;
	struct crs crs = { NULL, 0, 0 };
	struct span *lines = NULL, line;
	size_t nr = 0, alloc = 0, pos = 0, first;
	const char *nul;
	int ret = 0;

	if (!len)
		return quiet ? -1 : error("'%s' is not an mbox (empty file)", path);
	nul = memchr(buf, '\0', len < BINARY_PROBE ? len : BINARY_PROBE);
	if (nul)
		return quiet ? -1 : mbox_check_text(path, buf, len);

	normalize(&text, &crs, buf, len);
	while (next_line(text.buf, text.len, &pos, &line)) {
		ALLOC_GROW(lines, nr, alloc);
		lines[nr++] = line;
	}
	for (first = 0; first < nr && span_is_blank(lines[first]); first++)
		;
	if (first == nr) {
		ret = quiet ? -1 : error("'%s' is not an mbox (only blank lines)",
					 path);
	} else if (span_starts_with(lines[first], "From ")) {
		split_mbox(out, &text, &crs, lines, nr, first);
	} else if (header_name_len(lines[first])) {
		const char *start = lines[first].p;

		add_message(out, 1, first + 1, start,
			    text.len - (size_t)(start - text.buf), first + 1);
		set_range(out, &crs, (size_t)(start - text.buf), text.len);
	} else {
		ret = quiet ? -1 :
		      error("'%s' is not an mbox (line %zu starts with neither "
			    "'From ' nor a header)", path, first + 1);
	}
	free(lines);
	free(crs.at);
	strbuf_release(&text);
	return ret;
}

int mbox_check_text(const char *path, const char *buf, size_t len)
{
	const char *nul = memchr(buf, '\0', len < BINARY_PROBE ? len :
				 BINARY_PROBE);

	if (!nul)
		return 0;
	return error("'%s' is not an mbox (binary: NUL byte on line %zu)",
		     path, 1 + count_lines(buf, (size_t)(nul - buf)));
}

int mbox_read(struct mbox *out, const char *path, const char *buf, size_t len)
{
	return read_buffer(out, path, buf, len, 0);
}

int mbox_read_quiet(struct mbox *out, const char *buf, size_t len)
{
	return read_buffer(out, "", buf, len, 1);
}

/* Reads all of fd into sb; 0, or -1 with errno set. */
static int read_fd(struct strbuf *sb, int fd)
{
	char chunk[8192];
	ssize_t got;

	for (;;) {
		got = read(fd, chunk, sizeof(chunk));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (!got)
			return 0;
		strbuf_add(sb, chunk, (size_t)got);
	}
}

int mbox_read_file(struct mbox *out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (!strcmp(path, "-")) {
		path = "<stdin>";
		ret = read_fd(&sb, 0);
	} else {
		ret = strbuf_read_file(&sb, path);
	}
	if (ret < 0)
		ret = error("cannot read '%s': %s", path, strerror(errno));
	else
		ret = mbox_read(out, path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

static void msg_release(struct mbox_msg *m)
{
	free(m->message_id);
	free(m->in_reply_to);
	free_string_array(m->references, m->nr_references);
	free(m->subject);
	free(m->from);
	mbox_address_free(m->from_addr, m->from_addr ? 1 : 0);
	mbox_address_free(m->to, m->nr_to);
	mbox_address_free(m->cc, m->nr_cc);
	free(m->date);
	free(m->body);
	free(m->diff);
	free(m->title);
	free(m->version);
	free(m->problem);
}

void mbox_release(struct mbox *mb)
{
	size_t i;

	for (i = 0; i < mb->nr; i++)
		msg_release(&mb->msgs[i]);
	free(mb->msgs);
	mbox_init(mb);
}

/* --- dates ------------------------------------------------------------ */

static const char *skip_cfws(const char *p)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth)
			depth--;
		else if (!depth && *p != ' ' && *p != '\t' && *p != ',')
			break;
	}
	return p;
}

/* The number at *p (at most max digits); -1 if none. */
static long date_number(const char **p, int max)
{
	long v = 0;
	int n = 0;

	while (n < max && is_digit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n ? v : -1;
}

int mbox_parse_date(const char *s, long long *time, int *offset_minutes)
{
	static const char *const months[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
	};
	static const struct { const char *name; int hours; } zones[] = {
		{ "UT", 0 }, { "GMT", 0 }, { "Z", 0 }, { "EST", -5 },
		{ "EDT", -4 }, { "CST", -6 }, { "CDT", -5 }, { "MST", -7 },
		{ "MDT", -6 }, { "PST", -8 }, { "PDT", -7 },
	};
	const char *p;
	long day, mon = -1, year, hh, mm, ss = 0, zone = 0;
	size_t i;

	if (!s)
		return -1;
	p = skip_cfws(s);
	/* A day name, "Tue,", is optional. */
	if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')
		p = skip_cfws(p + strcspn(p, ", \t"));
	if ((day = date_number(&p, 2)) < 1 || day > 31)
		return -1;
	p = skip_cfws(p);
	for (i = 0; i < ARRAY_SIZE(months); i++)
		if (!ascii_strncasecmp(p, months[i], 3))
			mon = (long)i + 1;
	if (mon < 0)
		return -1;
	p = skip_cfws(p + 3);
	if ((year = date_number(&p, 4)) < 0)
		return -1;
	if (year < 50)
		year += 2000;
	else if (year < 1000)
		year += 1900;
	p = skip_cfws(p);
	if ((hh = date_number(&p, 2)) < 0 || hh > 23 || *p++ != ':' ||
	    (mm = date_number(&p, 2)) < 0 || mm > 59)
		return -1;
	if (*p == ':' && (p++, (ss = date_number(&p, 2)) < 0 || ss > 60))
		return -1;
	p = skip_cfws(p);
	if (*p == '+' || *p == '-') {
		const char *q = p + 1;
		long v = date_number(&q, 4);

		if (v < 0 || q - p != 5)
			return -1;
		zone = (v / 100 * 60 + v % 100) * (*p == '-' ? -1 : 1);
	} else {
		for (i = 0; i < ARRAY_SIZE(zones); i++)
			if (!ascii_strncasecmp(p, zones[i].name, strlen(zones[i].name)))
				break;
		/* An unknown zone name is "-0000": the time is UTC. */
		zone = i < ARRAY_SIZE(zones) ? zones[i].hours * 60 : 0;
	}
	*time = days_from_civil((int)year, (int)mon, (int)day) * 86400 +
		hh * 3600 + mm * 60 + ss - zone * 60;
	*offset_minutes = (int)zone;
	return 0;
}
