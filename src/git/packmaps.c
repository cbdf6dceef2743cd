#include "git/packmaps.h"
#include "base/strbuf.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The bytes of the packs in objects/pack of common, or 0. */
static size_t packs_size(const char *common)
{
	char *path = xstrfmt("%sobjects/pack", common);
	DIR *d = opendir(path);
	struct dirent *e;
	struct stat st;
	size_t total = 0, len;

	free(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		len = strlen(e->d_name);
		if (len > 5 && !strcmp(e->d_name + len - 5, ".pack") &&
		    !fstatat(dirfd(d), e->d_name, &st, 0))
			total += (size_t)st.st_size;
	}
	closedir(d);
	return total;
}

void packmaps_fit(git_repository *repo)
{
	const char *common = git_repository_commondir(repo);
	char *alternates = xstrfmt("%sobjects/info/alternates", common);
	size_t window = PACKMAPS_WINDOW, total;

	/* Packs of another repository (clone --reference) are untold. */
	if (access(alternates, F_OK) < 0) {
		total = packs_size(common);
		if (total && total <= PACKMAPS_LIMIT / 2)
			window = PACKMAPS_WHOLE;
	}
	free(alternates);
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, window);
}
