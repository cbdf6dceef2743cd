#include "util.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void die_oom(void)
{
	static const char msg[] = "fatal: out of memory\n";
	ssize_t ignored = write(2, msg, sizeof(msg) - 1);

	(void)ignored;
	abort();
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
