/* cd and pwd, with POSIX logical paths: PWD keeps the symlinks the user
 * went through, and `..` removes the last component of it. */
#include "builtins/builtins.h"
#include "shell/vars.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_directory(const char *path);

/* Removes . and name/.. components of an absolute path, in place. Returns
 * false when a name before .. is no directory: `cd missing/..` must fail,
 * as in bash, not land where the text points. */
static bool canonicalize(char *path)
{
	bool ok = true;
	char *out = path;
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == 1 && p[0] == '.') {
			/* skip */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			if (ok && out > path) {
				/* out is behind p: the mark overwrites nothing unread */
				*out = '\0';
				ok = is_directory(path);
			}
			while (out > path && *(out - 1) != '/')
				out--;
			if (out > path)
				out--; /* the slash */
		} else {
			*out++ = '/';
			memmove(out, p, len);
			out += len;
		}
		p += len;
	}
	if (out == path)
		*out++ = '/';
	*out = '\0';
	return ok;
}

static bool is_directory(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Is $PWD an absolute name of the current directory? */
static bool pwd_is_valid(const char *pwd)
{
	if (!pwd || pwd[0] != '/')
		return false;
	struct stat a, b;
	return stat(pwd, &a) == 0 && stat(".", &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static char *physical_cwd(void)
{
	char *cwd = getcwd(NULL, 0);
	if (!cwd)
		return NULL;
	char *copy = xstrdup(cwd);
	free(cwd);
	return copy;
}

/* Tries to chdir into dir; *newpwd gets the PWD value. */
static int change_dir(struct shell *sh, const char *dir, bool physical, char **newpwd)
{
	if (physical) {
		if (chdir(dir) != 0)
			return -1;
		*newpwd = physical_cwd();
		if (!*newpwd)
			*newpwd = xstrdup(dir);
		return 0;
	}
	char *cur;
	if (dir[0] == '/') {
		cur = xstrdup(dir);
	} else {
		const char *pwd = vars_get(sh, "PWD");
		char *phys = NULL;
		if (!pwd_is_valid(pwd))
			pwd = phys = physical_cwd();
		cur = xasprintf("%s/%s", pwd ? pwd : "", dir);
		free(phys);
	}
	if (!canonicalize(cur) || chdir(cur) != 0) {
		/* The logical path may not exist (a .. through a symlink that
		 * is gone): fall back to the physical walk, as bash does. */
		int err = errno;
		if (chdir(dir) != 0) {
			errno = err;
			free(cur);
			return -1;
		}
		free(cur);
		*newpwd = physical_cwd();
		if (!*newpwd)
			*newpwd = xstrdup(dir);
		return 0;
	}
	*newpwd = cur;
	return 0;
}

BUILTIN_FN(cd)
{
	struct builtin_getopt g = {.index = 1};
	bool physical = false;
	int c;
	while ((c = builtin_getopt(&g, argc, argv, "LPe@", "cd")) != -1) {
		if (c == 'P')
			physical = true;
		else if (c == 'L')
			physical = false;
		else if (c == '?') {
			shell_warn("cd: usage: cd [-L|-P] [dir]");
			return 2;
		}
	}
	const char *dir;
	bool print = false;
	if (g.index >= argc) {
		dir = vars_get(sh, "HOME");
		if (!dir) {
			shell_error(sh, "cd: HOME not set");
			return 1;
		}
		if (!*dir)
			return 0;
	} else {
		if (g.index + 1 < argc) {
			shell_error(sh, "cd: too many arguments");
			return 1;
		}
		dir = argv[g.index];
		if (strcmp(dir, "-") == 0) {
			dir = vars_get(sh, "OLDPWD");
			if (!dir || !*dir) {
				shell_error(sh, "cd: OLDPWD not set");
				return 1;
			}
			print = true;
		}
	}
	if (!*dir) {
		/* bash: an empty operand leaves the directory as it is */
		return 0;
	}
	char *target_copy = xstrdup(dir); /* dir may point into a variable we change */
	char *newpwd = NULL;
	bool done = false;
	/* CDPATH for relative names not starting with . or .. */
	const char *cdpath = vars_get(sh, "CDPATH");
	bool dotted = target_copy[0] == '.' && (target_copy[1] == '\0' || target_copy[1] == '/' ||
	                                        (target_copy[1] == '.' && (target_copy[2] == '\0' || target_copy[2] == '/')));
	if (cdpath && *cdpath && target_copy[0] != '/' && !dotted) {
		const char *p = cdpath;
		for (;;) {
			const char *colon = strchr(p, ':');
			size_t dlen = colon ? (size_t)(colon - p) : strlen(p);
			char *cand = dlen ? xasprintf("%.*s/%s", (int)dlen, p, target_copy) : xasprintf("./%s", target_copy);
			if (is_directory(cand) && change_dir(sh, cand, physical, &newpwd) == 0) {
				done = true;
				if (dlen)
					print = true;
				free(cand);
				break;
			}
			free(cand);
			if (!colon)
				break;
			p = colon + 1;
		}
	}
	if (!done && change_dir(sh, target_copy, physical, &newpwd) != 0) {
		shell_error(sh, "cd: %s: %s", target_copy, strerror(errno));
		free(target_copy);
		return 1;
	}
	free(target_copy);
	const char *oldpwd = vars_get(sh, "PWD");
	char *old = oldpwd ? xstrdup(oldpwd) : physical_cwd();
	int status = 0;
	/* Exported, as bash does. */
	if (vars_set(sh, "OLDPWD", old ? old : "", VAR_EXPORT) != 0)
		status = 1;
	if (vars_set(sh, "PWD", newpwd, 0) != 0)
		status = 1;
	if (print)
		printf("%s\n", newpwd);
	free(old);
	free(newpwd);
	return status;
}

BUILTIN_FN(pwd)
{
	struct builtin_getopt g = {.index = 1};
	bool physical = false;
	int c;
	while ((c = builtin_getopt(&g, argc, argv, "LP", "pwd")) != -1) {
		if (c == 'P')
			physical = true;
		else if (c == 'L')
			physical = false;
		else {
			shell_warn("pwd: usage: pwd [-LP]");
			return 2;
		}
	}
	const char *pwd = vars_get(sh, "PWD");
	if (!physical && pwd_is_valid(pwd)) {
		/* PWD must not contain . or .. components to be used */
		if (!strstr(pwd, "/./") && !strstr(pwd, "/../")) {
			printf("%s\n", pwd);
			return 0;
		}
	}
	char *cwd = physical_cwd();
	if (!cwd) {
		shell_error(sh, "pwd: error retrieving current directory: %s", strerror(errno));
		return 1;
	}
	printf("%s\n", cwd);
	free(cwd);
	return 0;
}
