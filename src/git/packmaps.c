#include "git/packmaps.h"
#include "base/strbuf.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A window twice the largest pack: every window then starts at 0. */
#define PACKMAPS_WHOLE ((size_t)1 << 30)

void packmaps_fit(git_repository *repo)
{
	char *dir = xstrfmt("%sobjects/pack", git_repository_commondir(repo));
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	size_t total = 0, len;

	free(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		len = strlen(e->d_name);
		if (len > 5 && !strcmp(e->d_name + len - 5, ".pack") &&
		    !fstatat(dirfd(d), e->d_name, &st, 0))
			total += (size_t)st.st_size;
	}
	closedir(d);
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE,
			 total && total <= PACKMAPS_LIMIT / 2 ?
			 PACKMAPS_WHOLE : PACKMAPS_WINDOW);
}
