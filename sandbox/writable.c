/* The folders the sandbox lets the shell write: the project, the temporary
 * folders, the sandbox's own package caches (never the human's: caches.c),
 * and --allow-write; never / nor all of $HOME. Opened once (sandbox_collect)
 * so the rules and the broker's list name the very same folders. */
#include "sandbox/writable.h"
#include "lib/project.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandbox/caches.h"

static const char *env_nonempty(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* mkdir -p with mode 0700 for the parts it creates; true if it exists after. */
static bool make_dirs(const char *path, bool *created)
{
	struct stat st;
	if (stat(path, &st) == 0)
		return S_ISDIR(st.st_mode);
	if (errno != ENOENT)
		return false;
	char *copy = xstrdup(path);
	for (char *p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0700) != 0 && errno != EEXIST) {
			free(copy);
			return false;
		}
		*p = '/';
	}
	bool ok = mkdir(copy, 0700) == 0 || errno == EEXIST;
	free(copy);
	if (ok)
		*created = true;
	return ok;
}

/* The folders nothing may make writable: `/`, and $HOME with each of its
 * ancestors (granting one grants all of $HOME). Compared by device and
 * inode, which costs a stat each instead of a realpath per grant. */
struct forbidden {
	dev_t dev[32];
	ino_t ino[32];
	size_t n;
};

static void forbid_path(struct forbidden *f, const char *path)
{
	struct stat sb;
	if (f->n < 32 && stat(path, &sb) == 0) {
		f->dev[f->n] = sb.st_dev;
		f->ino[f->n] = sb.st_ino;
		f->n++;
	}
}

static void forbidden_init(struct forbidden *f, const char *home)
{
	f->n = 0;
	forbid_path(f, "/");
	char *real = home ? realpath(home, NULL) : NULL;
	if (!real)
		return;
	for (char *p = real + strlen(real); p > real; p--) {
		if (*p == '/' || p == real + strlen(real)) {
			char saved = *p;
			*p = '\0';
			forbid_path(f, real);
			*p = saved;
		}
	}
	free(real);
}

static bool is_forbidden(const struct forbidden *f, const struct stat *sb)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->dev[i] == sb->st_dev && f->ino[i] == sb->st_ino)
			return true;
	return false;
}

/* A path as it is on disk: realpath, or that of its folder when it does
 * not exist yet (a session could make it), else as given. */
static char *resolved(const char *path)
{
	char *real = realpath(path, NULL);
	if (real)
		return real;
	const char *slash = strrchr(path, '/');
	if (slash && slash != path) {
		char *dir = xstrndup(path, (size_t)(slash - path));
		char *rdir = realpath(dir, NULL);
		free(dir);
		if (rdir) {
			char *out = xasprintf("%s%s", rdir, slash);
			free(rdir);
			return out;
		}
	}
	return xstrdup(path);
}

/* Whether a is b or lies inside it (both resolved). */
static bool within(const char *a, const char *b)
{
	size_t n = strlen(b);
	return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/' || (n == 1 && b[0] == '/'));
}

/* sbsh's own folder below $XDG_<KIND>_HOME (or $HOME/fallback), resolved;
 * NULL without either. */
static char *sbsh_folder(const char *xdg_name, const char *fallback)
{
	const char *xdg = env_nonempty(xdg_name);
	const char *home = env_nonempty("HOME");
	char *path = xdg && xdg[0] == '/' ? xasprintf("%s/sbsh", xdg)
	             : home               ? xasprintf("%s/%s/sbsh", home, fallback)
	                                  : NULL;
	char *real = path ? resolved(path) : NULL;
	free(path);
	return real;
}

/* Whether real is a folder of $PATH (an absolute entry): a program the
 * agent put there would run outside the sandbox whenever the human types
 * its name (git, sudo). A project that merely holds one (its bin on PATH
 * by direnv, node_modules/.bin by npx, an activated .venv/bin) stays the
 * project: the human chose to run its programs, which the checkpoints
 * keep. */
static bool on_path(const char *real)
{
	const char *path = getenv("PATH");
	bool found = false;
	for (const char *p = path ? path : ""; *p && !found;) {
		size_t n = strcspn(p, ":");
		char *entry = xstrndup(p, n);
		char *dir = entry[0] == '/' ? realpath(entry, NULL) : NULL;
		found = dir && strcmp(dir, real) == 0;
		free(dir);
		free(entry);
		p += n + (p[n] == ':');
	}
	return found;
}

/* The system's folders whose files steer programs that run outside any
 * session (/etc/ld.so.preload, profile.d, cron, a site-packages'
 * sitecustomize.py, systemd units under /run): an agent tool can start a
 * session in any folder it likes (Codex's workdir), so none of them is
 * the project. Sources kept under /usr stay projects (a container's
 * /usr/src/app). NULL when folder is none of them. */
static const char *system_folder(const char *real)
{
	static const char *const steering[] = {"/etc", "/usr", "/boot", "/lib", "/lib32", "/lib64", "/libx32", "/bin",
	                                       "/sbin", "/var/lib", "/var/spool", "/var/cache", "/proc", "/sys", "/run",
	                                       "/dev"};
	static const char *const sources[] = {"/usr/src", "/usr/local/src", "/dev/shm"};
	for (size_t i = 0; i < sizeof sources / sizeof *sources; i++)
		if (within(real, sources[i]))
			return NULL;
	for (size_t i = 0; i < sizeof steering / sizeof *steering; i++)
		if (within(real, steering[i]))
			return steering[i];
	return NULL;
}

char *sandbox_project_refusal(const char *folder)
{
	char *real = resolved(folder);
	char *why = NULL;
	static const char *const kinds[][3] = {
		{"XDG_CONFIG_HOME", ".config", "config folder (its config and allow.json steer every session)"},
		{"XDG_STATE_HOME", ".local/state", "state folder (the protected files' baselines)"},
		{"XDG_CACHE_HOME", ".cache", "cache folder (the sandbox's own package caches)"},
	};
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds && !why; k++) {
		char *own = sbsh_folder(kinds[k][0], kinds[k][1]);
		if (own && within(real, own))
			why = xasprintf("it is in sbsh's own %s", kinds[k][2]);
		else if (own && within(own, real))
			why = xasprintf("it holds sbsh's own %s, %s", kinds[k][2], own);
		free(own);
	}
	const char *home = env_nonempty("HOME");
	char *home_real = home && !why ? realpath(home, NULL) : NULL;
	size_t hn = home_real ? strlen(home_real) : 0;
	if (home_real && hn > 1 && strncmp(real, home_real, hn) == 0 && real[hn] == '/' && real[hn + 1] == '.') {
		size_t len = strcspn(real + hn + 1, "/");
		why = xasprintf("it is in ~/%.*s, a folder of $HOME whose files steer programs", (int)len,
		                real + hn + 1);
	}
	free(home_real);
	if (!why && on_path(real))
		why = xstrdup("it is a folder on PATH: a program put there would run whenever its name is typed");
	const char *system = why ? NULL : system_folder(real);
	if (system)
		why = xasprintf("it is in %s, a system folder whose files steer programs outside the sandbox", system);
	free(real);
	return why;
}

const char *sandbox_shared_folder(const char *path)
{
	char *real = resolved(path);
	const char *tmpdir = env_nonempty("TMPDIR");
	char *tmp_real = tmpdir ? resolved(tmpdir) : NULL;
	char *own = sbsh_folder("XDG_CACHE_HOME", ".cache");
	char *cache = own ? xasprintf("%s/sandbox-caches", own) : NULL;
	free(own);
	const char *which = NULL;
	static const char *const temp[] = {"/tmp", "/var/tmp", "/dev/shm"};
	for (size_t i = 0; i < sizeof temp / sizeof *temp && !which; i++) {
		char *t = resolved(temp[i]);
		if (within(real, t))
			which = "a temp folder";
		free(t);
	}
	if (!which && tmp_real && strcmp(tmp_real, "/") != 0 && within(real, tmp_real))
		which = "a temp folder ($TMPDIR)";
	if (!which && cache && within(real, cache))
		which = "the sandbox's package caches";
	free(cache);
	free(tmp_real);
	free(real);
	return which;
}

static void add_grant(struct sandbox_grant_list *list, struct sandbox_state *st, const char *path,
                      const char *why, bool create, const struct forbidden *forbid)
{
	if (!path || !*path)
		return;
	bool created = false;
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && create && make_dirs(path, &created))
		fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		if (create || errno != ENOENT)
			strvec_push_owned(&st->skipped, xasprintf("%s (%s): %s", path, why, strerror(errno)));
		return;
	}
	struct stat sb;
	if (fstat(fd, &sb) != 0 || is_forbidden(forbid, &sb)) {
		strvec_push_owned(&st->skipped,
		                  xasprintf("%s (%s): refused, it would make / or all of $HOME writable",
		                            path, why));
		close(fd);
		return;
	}
	for (size_t i = 0; i < list->len; i++) {
		if (list->items[i].dev == sb.st_dev && list->items[i].ino == sb.st_ino) {
			close(fd);
			return;
		}
	}
	if (list->len == list->cap) {
		list->cap = list->cap ? list->cap * 2 : 32;
		list->items = xreallocarray(list->items, list->cap, sizeof *list->items);
	}
	list->items[list->len++] = (struct sandbox_grant){
		.path = xstrdup(path), .why = why, .rights = 0, .created = created,
		.fd = fd, .dev = sb.st_dev, .ino = sb.st_ino};
}

/* The package caches: the sandbox's own folder for them (the human's stay
 * read-only, caches.c) and the variables that point each tool there. */
static void add_caches(struct sandbox_grant_list *list, struct sandbox_state *st,
                       const struct forbidden *home_real)
{
	struct sandbox_caches c;
	sandbox_caches_plan(&c);
	for (size_t i = 0; i < c.notes.len; i++)
		strvec_push(&st->skipped, c.notes.items[i]);
	if (c.root) {
		add_grant(list, st, c.root, "package caches, the sandbox's own", true, home_real);
		sandbox_caches_prepare(&c);
	}
	for (size_t i = 0; i < c.env.len; i++)
		strvec_push(&st->env, c.env.items[i]);
	sandbox_caches_free(&c);
}

/* Claude Code's shell snapshots: at its start it has the shell write
 * ~/.claude/shell-snapshots/snapshot-*.sh, then has the shell source it
 * before each command, so only sandboxed shells read what is written
 * there. The folder alone is granted, and only where ~/.claude is the
 * human's own folder: its settings.json (hooks) stays read-only. */
static void add_agent_scratch(struct sandbox_grant_list *list, struct sandbox_state *st,
                              const struct forbidden *home_real)
{
	const char *cfg_dir = env_nonempty("CLAUDE_CONFIG_DIR");
	const char *home = env_nonempty("HOME");
	char *dir = cfg_dir && cfg_dir[0] == '/' ? xstrdup(cfg_dir) : home ? xasprintf("%s/.claude", home) : NULL;
	if (!dir)
		return;
	struct stat sb;
	if (lstat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) && sb.st_uid == geteuid()) {
		char *snapshots = xasprintf("%s/shell-snapshots", dir);
		struct stat ss;
		/* a link there would lead the grant anywhere: not followed */
		if (lstat(snapshots, &ss) != 0 ? errno == ENOENT && mkdir(snapshots, 0700) == 0
		                               : S_ISDIR(ss.st_mode) && ss.st_uid == geteuid())
			add_grant(list, st, snapshots, "Claude Code's shell snapshots", false, home_real);
		free(snapshots);
	}
	free(dir);
}

static void collect_writable(const struct sandbox_config *cfg, struct sandbox_state *st,
                             struct sandbox_grant_list *list)
{
	const char *home = env_nonempty("HOME");
	struct forbidden forbid;
	forbidden_init(&forbid, home);
	const struct forbidden *home_real = &forbid;

	char cwd[PATH_MAX];
	bool have_cwd = getcwd(cwd, sizeof cwd) != NULL;
	/* the whole work tree, not the subfolder the agent tool is in */
	char *top = have_cwd ? project_top(cwd) : NULL;
	const char *project = top ? top : cwd;
	char *refused = have_cwd ? sandbox_project_refusal(project) : NULL;
	if (refused) {
		/* Said at once: writing there would steer later sessions (in a
		 * temp folder it is writable as temp all the same: nothing said). */
		if (!sandbox_shared_folder(project))
			fprintf(stderr, "sbsh: %s is not made writable as the project: %s; start sbsh in the project's folder\n",
			        project, refused);
		strvec_push_owned(&st->skipped, xasprintf("%s (project): refused, %s", project, refused));
		free(refused);
	} else if (have_cwd) {
		add_grant(list, st, project, "project", false, home_real);
	}
	free(top);
	add_grant(list, st, env_nonempty("TMPDIR"), "temp", false, home_real);
	add_grant(list, st, "/tmp", "temp", false, home_real);
	add_grant(list, st, "/var/tmp", "temp", false, home_real);
	add_grant(list, st, "/dev/shm", "POSIX shared memory", false, home_real);
	add_caches(list, st, home_real);
	add_agent_scratch(list, st, home_real);
	for (size_t i = 0; i < cfg->extra_write.len; i++)
		add_grant(list, st, cfg->extra_write.items[i], "--allow-write", false, home_real);
}

struct sandbox_collected {
	struct sandbox_grant_list list;
	struct strvec skipped, env; /* what collect_writable put in the state */
};

void sandbox_collect(struct sandbox_config *cfg)
{
	if (cfg->collected || cfg->mode == SANDBOX_OFF)
		return;
	struct sandbox_state st = {0};
	strvec_init(&st.skipped);
	strvec_init(&st.env);
	struct sandbox_collected *c = xcalloc(1, sizeof *c);
	collect_writable(cfg, &st, &c->list);
	c->skipped = st.skipped;
	c->env = st.env;
	cfg->collected = c;
}

/* sandbox_prepare's list: opened now, or a copy of the collected one
 * whose descriptors stay open (a broker forked before sandbox_commit
 * names its folders by them). Returns whether the descriptors are ours. */
bool sandbox_take_writable(const struct sandbox_config *cfg, struct sandbox_state *st,
                           struct sandbox_grant_list *list)
{
	struct sandbox_collected *c = cfg->collected;
	if (!c) {
		collect_writable(cfg, st, list);
		return true;
	}
	list->len = list->cap = c->list.len;
	list->items = xcalloc(list->len ? list->len : 1, sizeof *list->items);
	for (size_t i = 0; i < c->list.len; i++) {
		list->items[i] = c->list.items[i];
		list->items[i].path = xstrdup(c->list.items[i].path);
	}
	for (size_t i = 0; i < c->skipped.len; i++)
		strvec_push(&st->skipped, c->skipped.items[i]);
	for (size_t i = 0; i < c->env.len; i++)
		strvec_push(&st->env, c->env.items[i]);
	return false;
}

void sandbox_writable_paths(const struct sandbox_config *cfg, struct strvec *out)
{
	if (!cfg->collected)
		return;
	const struct sandbox_grant_list *list = &cfg->collected->list;
	for (size_t i = 0; i < list->len; i++) {
		/* The folder each rule names, by its open descriptor: one
		 * readlink, where realpath() looks at every component. */
		char link[64], buf[PATH_MAX];
		snprintf(link, sizeof link, "/proc/self/fd/%d", list->items[i].fd);
		ssize_t n = readlink(link, buf, sizeof buf - 1);
		char *real = n > 0 && buf[0] == '/' && (size_t)n < sizeof buf - 1 ? xstrndup(buf, (size_t)n)
		                                                                    : realpath(list->items[i].path, NULL);
		strvec_push_owned(out, real ? real : xstrdup(list->items[i].path));
	}
}

void sandbox_close_collected(const struct sandbox_config *cfg)
{
	/* The shell's copies of the collected folders: the broker has its own. */
	if (!cfg->collected)
		return;
	const struct sandbox_grant_list *list = &cfg->collected->list;
	for (size_t i = 0; i < list->len; i++)
		if (list->items[i].fd >= 0) {
			close(list->items[i].fd);
			list->items[i].fd = -1;
		}
}
