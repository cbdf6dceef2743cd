#include <git2.h>

#include "git/objcache.h"

/* libgit2's default limit per commit and per tree. */
#define OBJCACHE_LIMIT 4096

static unsigned int paused_trees, paused_commits;

static void set_limit(git_object_t type, size_t limit)
{
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, type, limit);
}

static void pause(unsigned int *paused, git_object_t type)
{
	if (!(*paused)++)
		set_limit(type, 0);
}

static void resume(unsigned int *paused, git_object_t type)
{
	if (*paused && !--*paused)
		set_limit(type, OBJCACHE_LIMIT);
}

void objcache_pause_trees(void)
{
	pause(&paused_trees, GIT_OBJECT_TREE);
}

void objcache_resume_trees(void)
{
	resume(&paused_trees, GIT_OBJECT_TREE);
}

void objcache_pause_commits(void)
{
	pause(&paused_commits, GIT_OBJECT_COMMIT);
}

void objcache_resume_commits(void)
{
	resume(&paused_commits, GIT_OBJECT_COMMIT);
}
