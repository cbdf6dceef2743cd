#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>

#include "capture.h"
#include "base/strbuf.h"

void capture_begin(struct capture *c)
{
	fflush(stderr);
	c->saved = dup(2);
	assert_true(c->saved >= 0);
	c->fp = tmpfile();
	assert_non_null(c->fp);
	assert_int_equal(dup2(fileno(c->fp), 2), 2);
}

char *capture_end(struct capture *c)
{
	struct strbuf sb = STRBUF_INIT;
	char chunk[4096];
	size_t got;

	fflush(stderr);
	assert_int_equal(dup2(c->saved, 2), 2);
	close(c->saved);
	rewind(c->fp);
	while ((got = fread(chunk, 1, sizeof(chunk), c->fp)) > 0)
		strbuf_add(&sb, chunk, got);
	fclose(c->fp);
	return strbuf_detach(&sb, NULL);
}
