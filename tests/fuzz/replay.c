/*
 * The replay of a fuzz target without libFuzzer: linked with one
 * target by the normal build, it runs LLVMFuzzerTestOneInput() once on
 * every file named on the command line, and on every file of every
 * directory named there (in name order, hidden files skipped), so
 * that `make check` (and the sanitizer build in CI) go over the corpus
 * and the regression inputs.
 *
 *     replay-mbox tests/fuzz/corpus/mbox tests/fuzz/regressions/mbox
 *
 * A directory that does not exist is skipped.  An input that takes
 * longer than REPLAY_TIMEOUT seconds (default 10) is a hang: the
 * replay names it and fails.  Each input is read into a buffer of
 * exactly its size, as libFuzzer does, so a read past its end is seen
 * by AddressSanitizer.
 */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The input being run, for the alarm handler. */
static const char *volatile current;
static size_t nr_inputs;

/* Initialize is optional: a weak reference is NULL without it. */
extern int LLVMFuzzerInitialize(int *argc, char ***argv)
	__attribute__((weak));

/* Writes s to file descriptor 2, from a signal handler too. */
static void say(const char *s)
{
	size_t len = strlen(s);

	if (write(2, s, len) != (ssize_t)len)
		return;
}

static void on_alarm(int sig)
{
	(void)sig;
	say("replay: timeout (a hang) on input ");
	say(current ? current : "?");
	say("\n");
	_exit(1);
}

static int read_all(const char *path, uint8_t **out, size_t *size)
{
	struct stat st;
	uint8_t *buf;
	size_t len, got = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) < 0) {
		dprintf(2, "replay: cannot read '%s': %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	len = (size_t)st.st_size;
	/* malloc(0) may give NULL; libFuzzer never passes NULL. */
	buf = malloc(len ? len : 1);
	if (!buf) {
		close(fd);
		dprintf(2, "replay: out of memory for '%s'\n", path);
		return -1;
	}
	while (got < len) {
		n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			dprintf(2, "replay: cannot read '%s': %s\n", path,
				n < 0 ? strerror(errno) : "file shrank");
			free(buf);
			close(fd);
			return -1;
		}
		got += (size_t)n;
	}
	close(fd);
	*out = buf;
	*size = len;
	return 0;
}

static int run_file(const char *path, unsigned timeout)
{
	uint8_t *data;
	size_t size;

	if (read_all(path, &data, &size) < 0)
		return -1;
	current = path;
	alarm(timeout);
	LLVMFuzzerTestOneInput(data, size);
	alarm(0);
	current = NULL;
	free(data);
	nr_inputs++;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, unsigned timeout)
{
	char **names = NULL, *path;
	size_t nr = 0, alloc = 0, i;
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);
	int ret = 0;

	if (!d) {
		dprintf(2, "replay: cannot read '%s': %s\n", dir,
			strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (nr == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			names = realloc(names, alloc * sizeof(*names));
			if (!names)
				abort();
		}
		names[nr] = strdup(de->d_name);
		if (!names[nr++])
			abort();
	}
	closedir(d);
	if (nr > 1)
		qsort(names, nr, sizeof(*names), cmp_names);
	for (i = 0; i < nr; i++) {
		path = malloc(strlen(dir) + strlen(names[i]) + 2);
		if (!path)
			abort();
		sprintf(path, "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    run_file(path, timeout) < 0)
			ret = -1;
		free(path);
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	const char *t = getenv("REPLAY_TIMEOUT");
	unsigned timeout = t && atoi(t) > 0 ? (unsigned)atoi(t) : 10;
	struct stat st;
	int i, ret = 0;

	if (argc < 2) {
		dprintf(2, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	signal(SIGALRM, on_alarm);
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) < 0) {
			if (errno == ENOENT)
				continue;
			dprintf(2, "replay: cannot read '%s': %s\n",
				argv[i], strerror(errno));
			ret = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (run_dir(argv[i], timeout) < 0)
				ret = 1;
		} else if (run_file(argv[i], timeout) < 0) {
			ret = 1;
		}
	}
	printf("replay: %zu inputs\n", nr_inputs);
	return ret;
}
