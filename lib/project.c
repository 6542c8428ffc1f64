/* Which folder is the project; see project.h. */
#include "lib/project.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/util.h"

static bool same_path(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

char *project_top(const char *cwd)
{
	if (!cwd || cwd[0] != '/')
		return NULL;
	const char *home_env = getenv("HOME");
	char *home = home_env && *home_env ? realpath(home_env, NULL) : NULL;
	if (strcmp(cwd, "/") == 0 || same_path(cwd, home)) {
		free(home);
		return NULL;
	}
	char *dir = xstrdup(cwd);
	char *found = NULL;
	while (!found) {
		char *dotgit = xasprintf("%s/.git", dir);
		struct stat st;
		if (lstat(dotgit, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
			found = xstrdup(dir);
		free(dotgit);
		char *slash = strrchr(dir, '/');
		if (found || !slash || slash == dir)
			break;
		*slash = 0;
	}
	free(dir);
	if (found && (strcmp(found, "/") == 0 || same_path(found, home))) {
		free(found);
		found = NULL;
	}
	free(home);
	return found ? found : xstrdup(cwd);
}
