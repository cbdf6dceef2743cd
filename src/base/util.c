#include "base/util.h"

#include "base/error.h"
#include "base/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <git2.h>
#include <git2/sys/alloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Running out of memory is no bug: no core dump and no signal, but the
 * exit status of any error (1).  _exit(), not exit(): any thread may
 * get here, with others inside libgit2 or stdio, where exit()'s clean-up
 * would pull what they use from under them.
 */
void die_oom(void)
{
	static const char msg[] = "fatal: out of memory\n";
	ssize_t ignored = write(2, msg, sizeof(msg) - 1);

	(void)ignored;
	remove_held_files();
	_exit(1);
}

/*
 * The files held (see hold_file()): slots of pointers, read by a signal
 * handler, so only set whole and never freed from here.
 */
#define MAX_HELD 8
static const char *volatile held_files[MAX_HELD];
static volatile sig_atomic_t handlers_set;
static const int held_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE };

void remove_held_files(void)
{
	size_t i;

	for (i = 0; i < MAX_HELD; i++) {
		const char *path = held_files[i];

		if (path)
			unlink(path);
	}
}

/*
 * The interrupt noted (interrupt_defer()): the first SIGINT or SIGTERM
 * once deferring, else 0.
 */
static volatile sig_atomic_t deferring, noted;

static void remove_held_on_signal(int sig)
{
	if (deferring && !noted && (sig == SIGINT || sig == SIGTERM)) {
		noted = sig;
		return;
	}
	remove_held_files();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void set_handlers(void)
{
	struct sigaction sa;
	size_t i;

	if (handlers_set)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = remove_held_on_signal;
	/* A noted interrupt must not fail a read or write in progress. */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(held_signals); i++) {
		struct sigaction old;

		/* A signal ignored when we started stays ignored. */
		if (!sigaction(held_signals[i], NULL, &old) &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(held_signals[i], &sa, NULL);
	}
	handlers_set = 1;
}

void interrupt_defer(void)
{
	set_handlers();
	deferring = 1;
}

int interrupted(void)
{
	return noted;
}

void interrupt_raise(void)
{
	int sig = noted;

	if (!sig)
		return;
	remove_held_files();
	signal(sig, SIG_DFL);
	raise(sig);
}

void hold_file(const char *path)
{
	size_t i;

	set_handlers();
	for (i = 0; i < MAX_HELD; i++)
		if (!held_files[i]) {
			held_files[i] = path;
			return;
		}
	BUG("more than %d files held at once", MAX_HELD);
}

void drop_file(const char *path)
{
	size_t i;

	for (i = 0; i < MAX_HELD; i++)
		if (held_files[i] == path)
			held_files[i] = NULL;
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die_oom();
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die_oom();
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		die_oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die_oom();
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		die_oom();
	return p;
}

static void *git_xmalloc(size_t n, const char *file, int line)
{
	return xmalloc(n);
}

static void *git_xcalloc(size_t nelem, size_t elsize, const char *file,
			 int line)
{
	return xcalloc(nelem, elsize);
}

static char *git_xstrdup(const char *str, const char *file, int line)
{
	return xstrdup(str);
}

static char *git_xstrndup(const char *str, size_t n, const char *file,
			  int line)
{
	return xstrndup(str, n);
}

/* Exactly n bytes of start, which need not end before. */
static char *git_xsubstrdup(const char *start, size_t n, const char *file,
			    int line)
{
	char *p;

	if (n == SIZE_MAX)
		die_oom();
	p = xmalloc(n + 1);
	memcpy(p, start, n);
	p[n] = '\0';
	return p;
}

static void *git_xrealloc(void *ptr, size_t size, const char *file, int line)
{
	return xrealloc(ptr, size);
}

/* A size that does not fit in size_t is more memory than there is. */
static void *git_xreallocarray(void *ptr, size_t nelem, size_t elsize,
			       const char *file, int line)
{
	size_t size;

	if (__builtin_mul_overflow(nelem, elsize, &size))
		die_oom();
	return xrealloc(ptr, size);
}

static void *git_xmallocarray(size_t nelem, size_t elsize, const char *file,
			      int line)
{
	return git_xreallocarray(NULL, nelem, elsize, file, line);
}

static void git_xfree(void *ptr)
{
	free(ptr);
}

void xmalloc_for_libgit2(void)
{
	static git_allocator allocator = {
		git_xmalloc, git_xcalloc, git_xstrdup, git_xstrndup,
		git_xsubstrdup, git_xrealloc, git_xreallocarray,
		git_xmallocarray, git_xfree,
	};

	git_libgit2_opts(GIT_OPT_SET_ALLOCATOR, &allocator);
}

void free_string_array(char **v, size_t nr)
{
	while (nr)
		free(v[--nr]);
	free(v);
}

void add_string_once(char ***v, size_t *nr, size_t *alloc, const char *s)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (!strcmp((*v)[i], s))
			return;
	ALLOC_GROW(*v, *nr, *alloc);
	(*v)[(*nr)++] = xstrdup(s);
}

static int lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

int ascii_strncasecmp(const char *a, const char *b, size_t n)
{
	for (; n; a++, b++, n--) {
		int d = lower((unsigned char)*a) - lower((unsigned char)*b);

		if (d || !*a)
			return d;
	}
	return 0;
}

int ascii_strcasecmp(const char *a, const char *b)
{
	return ascii_strncasecmp(a, b, (size_t)-1);
}

int is_hex(const char *s, size_t n)
{
	size_t i;

	if (!n)
		n = strlen(s);
	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
		      (c >= 'A' && c <= 'F')))
			return 0;
	}
	return 1;
}

size_t utf8_seq_len(const unsigned char *s, size_t avail)
{
	size_t n, i;
	unsigned cp;

	if (!avail)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > avail)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

int write_in_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t done = write(fd, p, len);

		if (done < 0 && errno == EINTR)
			continue;
		if (done < 0)
			return -1;
		if (!done) {
			errno = EIO;
			return -1;
		}
		p += done;
		len -= (size_t)done;
	}
	return 0;
}

/* An error, or a warning (not kept with the answer) when warn. */
__attribute__((format(printf, 2, 3)))
static int complain(int warn, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xstrvfmt(fmt, ap);
	va_end(ap);
	if (warn)
		warning_aside("%s", msg);
	else
		error("%s", msg);
	free(msg);
	return -1;
}

static int mkdir_leading_as(const char *path, int warn)
{
	char *copy = xstrdup(path), *p;
	int ret = 0;

	for (p = strchr(copy + 1, '/'); p && !ret; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(copy, 0777) < 0 && errno != EEXIST)
			ret = complain(warn, "cannot create directory '%s': %s",
				       copy, strerror(errno));
		*p = '/';
	}
	free(copy);
	return ret;
}

int mkdir_leading(const char *path)
{
	return mkdir_leading_as(path, 0);
}

void fsync_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	int fd = open(*dir ? dir : "/", O_RDONLY | O_DIRECTORY);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}


/* The umask, which can only be read by setting it. */
static mode_t current_umask(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return mask;
}

static int write_parts(int fd, const struct file_part *parts, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (write_in_full(fd, parts[i].buf, parts[i].len) < 0)
			return -1;
	return 0;
}

static int write_atomic(const char *path, const struct file_part *parts,
			size_t nr, const char *what, int warn, int no_replace)
{
	/* A name of its own: two runs writing at once must not mix. */
	char *tmp = xstrfmt("%s.tmp.XXXXXX", path);
	int fd = -1, ret = 0;

	if (mkdir_leading_as(path, warn) < 0) {
		free(tmp);
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = complain(warn, "cannot write %s '%s': %s", what, tmp,
			      strerror(errno));
		free(tmp);
		return ret;
	}
	hold_file(tmp);
	if (fchmod(fd, 0666 & ~current_umask()) < 0 ||
	    write_parts(fd, parts, nr) < 0 || fsync(fd) < 0) {
		ret = complain(warn, "cannot write %s '%s': %s", what, tmp,
			      strerror(errno));
		close(fd);
	} else if (close(fd) < 0) {
		ret = complain(warn, "cannot write %s '%s': %s", what, tmp,
			      strerror(errno));
	} else if (no_replace && link(tmp, path) < 0) {
		if (errno == EEXIST)
			ret = complain(warn, "%s '%s' exists: not overwritten",
				       what, path);
		else
			ret = complain(warn, "cannot write %s '%s': %s", what,
				       path, strerror(errno));
	} else if (!no_replace && rename(tmp, path) < 0) {
		ret = complain(warn, "cannot rename '%s' to '%s': %s", tmp,
			       path, strerror(errno));
	}
	if (ret || no_replace)
		unlink(tmp);
	drop_file(tmp);
	if (!ret)
		fsync_dir_of(path);
	free(tmp);
	return ret;
}

int write_file_atomic(const char *path, const void *buf, size_t len,
		      const char *what)
{
	struct file_part part = { buf, len };

	return write_atomic(path, &part, 1, what, 0, 0);
}

int write_file_new(const char *path, const void *buf, size_t len,
		   const char *what)
{
	struct file_part part = { buf, len };

	return write_atomic(path, &part, 1, what, 0, 1);
}

int write_file_atomic_warn(const char *path, const void *buf, size_t len,
			   const char *what)
{
	struct file_part part = { buf, len };

	return write_atomic(path, &part, 1, what, 1, 0);
}

int write_parts_atomic_warn(const char *path, const struct file_part *parts,
			    size_t nr, const char *what)
{
	return write_atomic(path, parts, nr, what, 1, 0);
}

long long days_from_civil(int y, int m, int d)
{
	int era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (long long)era * 146097 + doe - 719468;
}

int dir_names(const char *path, int missing_ok, char ***names,
		    size_t *nr)
{
	size_t alloc = 0;
	struct dirent *de;
	DIR *d = opendir(path);

	*names = NULL;
	*nr = 0;
	if (!d) {
		if (missing_ok && errno == ENOENT)
			return 1;
		return error("cannot read '%s': %s", path, strerror(errno));
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de)
			break;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ALLOC_GROW(*names, *nr, alloc);
		(*names)[(*nr)++] = xstrdup(de->d_name);
	}
	if (errno) {
		int saved = errno;

		closedir(d);
		free_string_array(*names, *nr);
		*names = NULL;
		*nr = 0;
		return error("cannot read '%s': %s", path, strerror(saved));
	}
	closedir(d);
	QSORT(*names, *nr, cmp_str);
	return 0;
}

int is_dir_in(const char *dir, const char *name)
{
	char *path = xstrfmt("%s/%s", dir, name);
	struct stat st;
	int ok = !stat(path, &st) && S_ISDIR(st.st_mode);

	free(path);
	return ok;
}

/* Edits from a to b (optimal string alignment), capped at cap + 1. */
static size_t edits(const char *a, const char *b, size_t cap)
{
	size_t la = strlen(a), lb = strlen(b);
	int d;

	if ((la > lb ? la - lb : lb - la) > cap)
		return cap + 1;
	d = levenshtein(a, b, 1, 1, 1, 1);
	return (size_t)d > cap ? cap + 1 : (size_t)d;
}

const char *suggest_name(const char *word, const char *const *names,
			 size_t nr)
{
	const char *best = NULL, *prefixed = NULL;
	size_t len = strlen(word), best_d = 3, i, nr_prefixed = 0;

	for (i = 0; nr ? i < nr : names[i] != NULL; i++) {
		size_t d = edits(word, names[i], 2);

		if (d < best_d && d < len) {
			best = names[i];
			best_d = d;
		}
		if (len >= 3 && !strncmp(names[i], word, len)) {
			prefixed = names[i];
			nr_prefixed++;
		}
	}
	if (nr_prefixed == 1)
		return prefixed;
	return best;
}

void hint_similar(const char *word, size_t len, const char *const *names,
		  size_t nr, const char *prefix)
{
	char *w = xstrndup(word, len);
	const char *hit = suggest_name(w, names, nr);

	if (hit)
		fprintf(stderr, "hint: did you mean '%s%s'?\n", prefix, hit);
	free(w);
}

int levenshtein(const char *a, const char *b, int swap, int change, int add,
		int del)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int *row0, *row1, *row2, *tmp, d;

	row0 = xcalloc(lb + 1, sizeof(*row0));
	row1 = xcalloc(lb + 1, sizeof(*row1));
	row2 = xcalloc(lb + 1, sizeof(*row2));
	for (j = 0; j <= lb; j++)
		row1[j] = (int)j * add;
	for (i = 1; i <= la; i++) {
		row2[0] = (int)i * del;
		for (j = 1; j <= lb; j++) {
			d = row1[j - 1] + (a[i - 1] != b[j - 1] ? change : 0);
			if (i > 1 && j > 1 && a[i - 2] == b[j - 1] &&
			    a[i - 1] == b[j - 2] && row0[j - 2] + swap < d)
				d = row0[j - 2] + swap;
			if (row1[j] + del < d)
				d = row1[j] + del;
			if (row2[j - 1] + add < d)
				d = row2[j - 1] + add;
			row2[j] = d;
		}
		tmp = row0;
		row0 = row1;
		row1 = row2;
		row2 = tmp;
	}
	d = row1[lb];
	free(row0);
	free(row1);
	free(row2);
	return d;
}

int suggest_score(const char *word, const char *name)
{
	if (*word && (starts_with(name, word) ||
		      (strlen(word) >= 3 && strstr(name, word))))
		return 0;
	return levenshtein(word, name, 0, 2, 1, 3) + 1;
}

void suggest_offer(struct suggest *sg, const char *word, const char *name,
		   const char *shown)
{
	int score = suggest_score(word, name);
	size_t i;

	for (i = 0; i < sg->nr; i++) {
		if (strcmp(sg->shown[i], shown))
			continue;
		if (score < sg->score[i])
			sg->score[i] = score;
		return;
	}
	if (sg->nr == sg->alloc) {
		sg->alloc = sg->alloc ? 2 * sg->alloc : 16;
		sg->shown = xrealloc(sg->shown, sg->alloc * sizeof(*sg->shown));
		sg->score = xrealloc(sg->score, sg->alloc * sizeof(*sg->score));
	}
	sg->shown[sg->nr] = xstrdup(shown);
	sg->score[sg->nr++] = score;
}

size_t suggest_hint(const struct suggest *sg)
{
	int best = SUGGEST_FLOOR;
	size_t i, nr = 0;

	for (i = 0; i < sg->nr; i++)
		if (sg->score[i] < best)
			best = sg->score[i];
	for (i = 0; i < sg->nr; i++)
		nr += sg->score[i] == best;
	if (!nr)
		return 0;
	if (nr == 1) {
		for (i = 0; sg->score[i] != best; i++)
			;
		fprintf(stderr, "hint: did you mean '%s'?\n", sg->shown[i]);
		return 1;
	}
	fprintf(stderr, "hint: did you mean one of these?\n");
	for (i = 0; i < sg->nr; i++)
		if (sg->score[i] == best)
			fprintf(stderr, "hint: \t%s\n", sg->shown[i]);
	return nr;
}

void suggest_release(struct suggest *sg)
{
	free_string_array(sg->shown, sg->nr);
	free(sg->score);
	memset(sg, 0, sizeof(*sg));
}

int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

int cmp_llong(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t term_columns(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	size_t n = TERM_COLUMNS_PIPE;
	char *end;

	if (env && *env) {
		unsigned long v = strtoul(env, &end, 10);

		if (!*end && v)
			n = v;
	} else if (isatty(1) && !ioctl(1, TIOCGWINSZ, &ws) && ws.ws_col) {
		n = ws.ws_col;
	}
	return n < TERM_COLUMNS_MIN ? TERM_COLUMNS_MIN : n;
}
