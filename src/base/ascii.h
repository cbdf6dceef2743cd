#ifndef ASCII_H
#define ASCII_H

/*
 * Character classes of ASCII, whatever the locale (as git's sane_ctype):
 * commit messages, mails and rule files are bytes, and <ctype.h> would
 * take a byte above 0x7f for a letter in some locales, and is undefined
 * for a negative char.
 */

static inline int is_blank(int c)
{
	return c == ' ' || c == '\t';
}

static inline int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static inline int is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline int is_alnum(int c)
{
	return is_alpha(c) || is_digit(c);
}

static inline int is_hexdigit(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

#endif
