/* Tags in an array of their own, with concatenated literals. */
#include "tst_test.h"

static const struct tst_tag tags[] = {
	{ "linux" "-git", "89abcdef"
	  "0123" },
	{"linux-git", /* a comment */ "13579bdf"},
	{"CVE",
	 "2021-\
12345"},
	{"linux-git"},
	{"CVE", 42},
	{NULL, NULL}
};

#define TAG(x) {"linux-git", x} // a line comment \
   continued
static const char *strs[] = { "linux-git", "x" };
