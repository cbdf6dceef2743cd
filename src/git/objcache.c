#include <git2.h>

#include "git/objcache.h"

/* libgit2's default limit per tree. */
#define OBJCACHE_TREE_LIMIT 4096

static unsigned int paused;

static void set_tree_limit(size_t limit)
{
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
			 limit);
}

void objcache_pause_trees(void)
{
	if (!paused++)
		set_tree_limit(0);
}

void objcache_resume_trees(void)
{
	if (paused && !--paused)
		set_tree_limit(OBJCACHE_TREE_LIMIT);
}
