#ifndef CAPTURE_H
#define CAPTURE_H

#include <stdio.h>

/*
 * What a unit test's code writes to stderr, to assert on:
 *
 *     struct capture c;
 *     capture_begin(&c);
 *     ... code that warns ...
 *     err = capture_end(&c);          (the caller frees err)
 *
 * Include after cmocka.h: failures are cmocka assertions.
 */
struct capture {
	int saved;
	FILE *fp;
};

void capture_begin(struct capture *c);
/* Restores stderr; returns what was written (the caller frees). */
char *capture_end(struct capture *c);

#endif
