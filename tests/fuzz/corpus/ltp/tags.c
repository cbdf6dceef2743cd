// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Made-up test: a regression test for a fanotify bug.
 */

#include "tst_test.h"

static void run(void)
{
	char c = '"', d = '\'', e = '\\';
	const char *s = "not a {\"tag\", \"x\"} pair";

	tst_res(TPASS, "%c%c%c %s", c, d, e, s);
}

static struct tst_test test = {
	.test_all = run,
	.needs_root = 1,
	.tags = (const struct tst_tag[]) {
		{"linux-git", "0123456789ab"},
		{"linux-stable-git", "abcdef012345"},
		{"CVE", "2017-1000380"},
		{"glibc-git", "fedcba987654"},
		{}
	}
};
