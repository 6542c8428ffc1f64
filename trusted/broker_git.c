#include "trusted/broker_git.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/gitconfig.h"
#include "lib/util.h"

#define INCLUDE_DEPTH 10             /* git's own limit */
#define CONFIG_MAX ((size_t)4 << 20) /* a config file; a bigger one is not read, and refused */

static const char *env_get(char *const *env, const char *name)
{
	size_t n = strlen(name);
	for (char *const *e = env; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

static char *join(const char *dir, const char *name)
{
	if (name[0] == '/')
		return xstrdup(name);
	return xasprintf("%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
}

static bool within(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static bool exists(const char *dir, const char *name)
{
	char *p = join(dir, name);
	bool ok = access(p, F_OK) == 0;
	free(p);
	return ok;
}

/* The folder a .git file ("gitdir: X") names, relative to the file's. */
static char *gitfile_target(const char *dir, const char *file)
{
	size_t len = 0;
	char *text = util_read_file(file, 0, PATH_MAX + 16, &len);
	char *target = NULL;
	if (text && strncmp(text, "gitdir: ", 8) == 0) {
		text[strcspn(text, "\r\n")] = '\0';
		target = join(dir, text + 8);
	}
	free(text);
	return target;
}

/* The git folder git finds from start as it walks up: a .git folder, a
 * .git file naming one, or a bare repository. NULL when none. */
static char *discover(const char *start)
{
	char *dir = xstrdup(start);
	char *found = NULL;
	while (!found) {
		char *dotgit = join(dir, ".git");
		struct stat st;
		if (stat(dotgit, &st) == 0 && S_ISDIR(st.st_mode) && exists(dotgit, "HEAD"))
			found = xstrdup(dotgit);
		else if (stat(dotgit, &st) == 0 && S_ISREG(st.st_mode))
			found = gitfile_target(dir, dotgit);
		else if (exists(dir, "HEAD") && exists(dir, "objects") && exists(dir, "refs"))
			found = xstrdup(dir);
		free(dotgit);
		char *slash = strrchr(dir, '/');
		if (found || !slash || strcmp(dir, "/") == 0)
			break;
		slash == dir ? (void)(dir[1] = '\0') : (void)(*slash = '\0');
	}
	free(dir);
	return found;
}

struct scan {
	const struct escape_git_view *v;
	char *found;
	const char *file; /* the one being read, resolved */
	bool untrusted;   /* it lies where the sandbox writes, or an untrusted one included it */
	struct strvec includes;
};

/* An include's path as git takes it: ~/ from HOME, else relative to the
 * folder of the file that includes it. */
static char *include_target(const struct scan *s, const char *value)
{
	if (strncmp(value, "~/", 2) == 0) {
		const char *home = env_get(s->v->env, "HOME");
		return home ? xasprintf("%s/%s", home, value + 2) : NULL;
	}
	char *dir = xstrdup(s->file);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash == dir ? (void)(dir[1] = '\0') : (void)(*slash = '\0');
	char *path = join(dir, value);
	free(dir);
	return path;
}

static bool on_entry(const struct gitconfig_entry *e, void *ctx)
{
	struct scan *s = ctx;
	if ((strcmp(e->section, "include") == 0 || strcmp(e->section, "includeif") == 0) && strcmp(e->key, "path") == 0) {
		/* every condition taken as met: what it could read counts */
		char *target = e->value ? include_target(s, e->value) : NULL;
		if (target)
			strvec_push_owned(&s->includes, target);
		return true;
	}
	if (!s->untrusted)
		return true;
	bool pinned = strcmp(e->section, "core") == 0 && (strcmp(e->key, "hookspath") == 0 ||
	                                                    strcmp(e->key, "fsmonitor") == 0);
	bool read_anyway = strcmp(e->section, "extensions") == 0 && strcmp(e->key, "worktreeconfig") == 0;
	if (pinned || read_anyway || !gitconfig_entry_runs(e->section, e->subsection, e->key, e->value))
		return true;
	s->found = xasprintf("%s, which the agent can write, sets %s.%s%s%s", s->file, e->section,
	                     e->subsection ? e->subsection : "", e->subsection ? "." : "", e->key);
	return false;
}

static void check_file(struct scan *s, const char *path, bool untrusted, int depth)
{
	char *real = path ? realpath(path, NULL) : NULL;
	if (!real || s->found || depth > INCLUDE_DEPTH) {
		free(real);
		return; /* absent: git reads nothing there */
	}
	const struct escape_git_view *v = s->v;
	untrusted = untrusted ||
	            (v->writable(v->ctx, real) && !(v->restored_gitdir && within(real, v->restored_gitdir)));
	size_t len = 0;
	char *text = util_read_file(real, 0, CONFIG_MAX, &len);
	if (!text) {
		if (untrusted && errno == EFBIG)
			s->found = xasprintf("%s, which the agent can write, is too big to read", real);
		free(real);
		return;
	}
	struct scan inner = {.v = v, .file = real, .untrusted = untrusted};
	strvec_init(&inner.includes);
	size_t bad_at;
	gitconfig_parse(text, len, on_entry, &inner, &bad_at);
	s->found = inner.found;
	for (size_t i = 0; i < inner.includes.len && !s->found; i++)
		check_file(s, inner.includes.items[i], untrusted, depth + 1);
	strvec_free(&inner.includes);
	free(text);
	free(real);
}

/* The folder git runs in and the git folder it is told of, from git's own
 * options before its command (-C, --git-dir). */
static void git_options(char *const *argv, char **cwd, char **gitdir)
{
	for (size_t i = 1; argv[i] && argv[i][0] == '-'; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-C") == 0 && argv[i + 1]) {
			char *next = join(*cwd, argv[++i]);
			free(*cwd);
			*cwd = next;
		} else if (strncmp(a, "--git-dir=", 10) == 0) {
			free(*gitdir);
			*gitdir = join(*cwd, a + 10);
		} else if (strcmp(a, "--git-dir") == 0 && argv[i + 1]) {
			free(*gitdir);
			*gitdir = join(*cwd, argv[++i]);
		} else if ((strcmp(a, "-c") == 0 || strcmp(a, "--config-env") == 0 || strcmp(a, "--namespace") == 0 ||
		            strcmp(a, "--work-tree") == 0 || strcmp(a, "--exec-path") == 0) && argv[i + 1]) {
			i++;
		}
	}
}

char *escape_git_plant(const struct escape_git_view *v)
{
	struct scan s = {.v = v};
	char *cwd = xstrdup(v->cwd);
	const char *env_dir = env_get(v->env, "GIT_DIR");
	char *gitdir = env_dir && *env_dir ? join(cwd, env_dir) : NULL;
	const char *base = v->program ? strrchr(v->program, '/') : NULL;
	base = base ? base + 1 : v->program ? v->program : "";
	if (strcmp(base, "git") == 0 || strncmp(base, "git-", 4) == 0)
		git_options(v->argv, &cwd, &gitdir);
	if (!gitdir)
		gitdir = discover(cwd);
	if (gitdir) {
		/* A linked work tree's config is its main repository's
		 * (commondir, a path relative to the git folder). */
		char *common_file = join(gitdir, "commondir");
		size_t len = 0;
		char *text = util_read_file(common_file, 0, PATH_MAX, &len);
		char *common = NULL;
		if (text) {
			text[strcspn(text, "\r\n")] = '\0';
			common = join(gitdir, text);
		}
		free(text);
		char *local = join(common ? common : gitdir, "config");
		char *worktree = join(gitdir, "config.worktree");
		check_file(&s, local, false, 0);
		check_file(&s, worktree, false, 0);
		free(local);
		free(worktree);
		free(common);
		free(common_file);
	}
	/* The user's and the system's: the human's, unless the sandbox can
	 * write them (a config home inside the project, say). */
	const char *home = env_get(v->env, "HOME");
	const char *xdg = env_get(v->env, "XDG_CONFIG_HOME");
	const char *global = env_get(v->env, "GIT_CONFIG_GLOBAL");
	const char *system = env_get(v->env, "GIT_CONFIG_SYSTEM");
	char *files[4] = {
		global ? xstrdup(global) : xdg && *xdg ? xasprintf("%s/git/config", xdg)
		                         : home         ? xasprintf("%s/.config/git/config", home)
		                                        : NULL,
		!global && home ? xasprintf("%s/.gitconfig", home) : NULL,
		env_get(v->env, "GIT_CONFIG_NOSYSTEM") ? NULL : xstrdup(system ? system : "/etc/gitconfig"),
		NULL,
	};
	for (size_t i = 0; files[i] || i < 3; i++) {
		check_file(&s, files[i], false, 0);
		free(files[i]);
	}
	free(gitdir);
	free(cwd);
	return s.found;
}
