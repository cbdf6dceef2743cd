/*
 * Fuzz target: the readers of the files stablepick keeps between runs:
 * the scan cache, the trial cache, the patch-id cache (all three with
 * their header, version and checksum), the ledger and the state of
 * --since.
 *
 * The first byte picks the reader (its low 7 bits modulo 5), the rest is
 * the file's bytes, written to a file of its own for the reader to
 * load, as a run finds it on disk (the patch-id cache's, of an odd
 * size, for the attributes whose key is all 0x11).  With the first byte's high bit set,
 * the bytes are sealed first with the checksum the reader expects (so
 * that the fuzzer reaches the parsing behind the checksum, which a
 * random change never matches).  Nothing a file holds may crash a reader: a
 * damaged cache is a warning and is rebuilt, a damaged ledger or state
 * an error naming the file and line.
 */
#include "fuzz.h"
#include "base/cachefile.h"
#include "store/ledger.h"
#include "git/patchid.h"
#include "store/scancache.h"
#include "store/state.h"
#include "base/strbuf.h"
#include "store/trialcache.h"

#include <git2.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("TMPDIR");

	fuzz_quiet();
	/* The ledger resolves branch names, and libgit2's errors need it. */
	git_libgit2_init();
	snprintf(path, sizeof(path), "%s/stablepick-fuzz-%ld",
		 dir && *dir && strlen(dir) < 20 ? dir : "/tmp", (long)getpid());
	return 0;
}

/* The checksum each reader checks; the ledger and the state have none. */
static const int kinds[5] = {
	CACHEFILE_HASH64_RAW, CACHEFILE_HASH64_RAW, CACHEFILE_SHA1, -1, -1,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned reader;
	FILE *f;

	if (!size)
		return 0;
	reader = (data[0] & 0x7f) % 5;
	strbuf_add(&sb, data + 1, size - 1);
	if ((data[0] & 0x80) && kinds[reader] >= 0)
		cachefile_seal(&sb, (enum cachefile_sum_kind)kinds[reader], NULL);
	f = fopen(path, "wb");
	FUZZ_CHECK(f);
	FUZZ_CHECK(fwrite(sb.buf, 1, sb.len, f) == sb.len);
	FUZZ_CHECK(!fclose(f));
	strbuf_release(&sb);
	switch (reader) {
	case 0: {
		struct scancache c;

		scancache_init(&c, path);
		scancache_load(&c);
		scancache_release(&c);
		break;
	}
	case 1: {
		struct trialcache c;

		trialcache_init(&c, path);
		trialcache_load(&c);
		trialcache_release(&c);
		break;
	}
	case 2: {
		struct patchid_cache c;
		unsigned char key[20];

		patchid_cache_init(&c, path);
		/* An odd size: read for the attributes 1111...11. */
		memset(key, 0x11, sizeof(key));
		if (size & 1)
			patchid_cache_set_attributes(&c, key);
		(void)patchid_cache_load(&c);
		patchid_cache_release(&c);
		break;
	}
	case 3: {
		struct ledger l;

		ledger_init(&l, path);
		(void)ledger_load(&l);
		ledger_release(&l);
		break;
	}
	default: {
		struct state st;

		if (state_get(path, "linux-6.6.y", &st) > 0)
			state_release(&st);
		break;
	}
	}
	unlink(path);
	return 0;
}
