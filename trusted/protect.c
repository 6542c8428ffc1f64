/* Protected files: the baseline, the comparison, the restore, the warden.
 * Everything here runs outside the sandbox: in the startup process before
 * confinement, or in the warden. The shell only sends CHECK frames. */
#include "trusted/protect.h"
#include "lib/gitconfig.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trusted/broker_proto.h"
#include "lib/events.h"

#define PROTECT_FILE_MAX (16u << 20) /* bigger files are not hooks or configs */
#define PROTECT_DEPTH 8
#define PROTECT_MODULES_DEPTH 32 /* folders in a submodule's name ("a/b/c") */
#define PROTECT_DIRS_MAX 16384     /* folders in the set, each an open descriptor */

struct pfile {
	char *name;
	bool present;      /* in the baseline */
	bool unheld;       /* present, but too big to keep a copy of: never touched */
	mode_t mode;       /* baseline type and permissions */
	struct timespec mtime;
	char *data;        /* contents, or a symlink's target */
	size_t len;
	bool loaded;       /* data is here; else it is read from the mirror when needed */
	struct stat seen;  /* the live file when last found equal; st_ino 0: unknown */
};

struct pdir {
	char *rel;         /* "." (project), a path below it, or an absolute path */
	char *name;        /* the name in the parent (roots: the absolute path) */
	int parent;        /* index, -1 for a root */
	bool all;          /* every entry is protected (hooks folders) */
	bool present;
	mode_t mode;
	int fd;            /* the live folder, O_RDONLY|O_DIRECTORY, or -1 */
	struct stat seen;  /* its dev/ino, and mtime/ctime when last read */
	bool listed;       /* seen's times are those of the last full listing */
	bool fresh;        /* recreated by the check in progress: its files are not listed one by one */
	struct pfile *files;
	size_t nfiles, cap;
};

struct protect {
	struct pdir *dirs;
	size_t ndirs, cap;
	char *root;        /* the project folder, absolute */
	char *hooks_rel;   /* the folder git runs hooks from, when inside the project */
	char *state;       /* $XDG_STATE_HOME/sbsh/projects/KEY */
	struct events *ev;
	unsigned counter;  /* temporary names */
	bool moved;        /* load_mirror: the live files' metadata differ from the manifest's */
	bool grown;        /* modules joined the set since the baseline was last written */
};

/* ---- small helpers ----------------------------------------------------- */

static bool same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

static bool same_meta(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev && a->st_mode == b->st_mode &&
	       a->st_size == b->st_size && same_time(a->st_mtim, b->st_mtim) &&
	       same_time(a->st_ctim, b->st_ctim);
}

static char *child_rel(const char *rel, const char *name)
{
	return strcmp(rel, ".") == 0 ? xstrdup(name) : xasprintf("%s/%s", rel, name);
}

/* Reads a regular file or a symlink's target without following links.
 * Returns 0 with *st filled, -1 when absent or unreadable. */
static int read_entry(int dirfd, const char *name, struct stat *st, char **data, size_t *len)
{
	*data = NULL;
	*len = 0;
	if (fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if (S_ISLNK(st->st_mode)) {
		char buf[PATH_MAX];
		ssize_t n = readlinkat(dirfd, name, buf, sizeof buf);
		if (n < 0 || (size_t)n >= sizeof buf)
			return -1;
		*data = xstrndup(buf, (size_t)n);
		*len = (size_t)n;
		return 0;
	}
	if (!S_ISREG(st->st_mode))
		return 0;
	if ((uint64_t)st->st_size > PROTECT_FILE_MAX)
		return -1;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	struct stat now;
	if (fstat(fd, &now) != 0 || !S_ISREG(now.st_mode) || now.st_ino != st->st_ino) {
		close(fd);
		return -1;
	}
	struct strbuf sb;
	strbuf_init(&sb);
	char buf[8192];
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || sb.len + (size_t)n > PROTECT_FILE_MAX) {
			close(fd);
			strbuf_free(&sb);
			return -1;
		}
		strbuf_addmem(&sb, buf, (size_t)n);
	}
	close(fd);
	*len = sb.len;
	*data = strbuf_detach(&sb);
	return 0;
}

/* Removes NAME below dirfd, a whole folder included, never following a
 * link (a planted link is removed, not what it points to). */
static void remove_at(int at, const char *name, int depth)
{
	if (unlinkat(at, name, 0) == 0 || errno == ENOENT)
		return;
	if (depth > 32 || (errno != EISDIR && errno != EPERM))
		return;
	int sub = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0)
		return;
	DIR *dir = fdopendir(sub);
	if (!dir) {
		close(sub);
		return;
	}
	struct dirent *e;
	while ((e = readdir(dir)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			remove_at(dirfd(dir), e->d_name, depth + 1);
	closedir(dir);
	unlinkat(at, name, AT_REMOVEDIR);
}

/* ---- the protected set --------------------------------------------------- */

static struct protect *protect_new(void)
{
	struct protect *p = xcalloc(1, sizeof *p);
	return p;
}

static void protect_free(struct protect *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->ndirs; i++) {
		struct pdir *d = &p->dirs[i];
		for (size_t j = 0; j < d->nfiles; j++) {
			free(d->files[j].name);
			free(d->files[j].data);
		}
		free(d->files);
		free(d->rel);
		free(d->name);
		if (d->fd >= 0)
			close(d->fd);
	}
	free(p->dirs);
	free(p->root);
	free(p->hooks_rel);
	free(p->state);
	free(p);
}

static int find_dir(struct protect *p, int parent, const char *name)
{
	for (size_t i = 0; i < p->ndirs; i++)
		if (p->dirs[i].parent == parent && strcmp(p->dirs[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int add_dir(struct protect *p, int parent, const char *name, bool all)
{
	int found = find_dir(p, parent, name);
	if (found >= 0) {
		p->dirs[found].all |= all;
		return found;
	}
	if (p->ndirs == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->dirs = xreallocarray(p->dirs, p->cap, sizeof *p->dirs);
	}
	struct pdir *d = &p->dirs[p->ndirs];
	memset(d, 0, sizeof *d);
	d->name = xstrdup(name);
	d->rel = parent < 0 ? xstrdup(name) : child_rel(p->dirs[parent].rel, name);
	d->parent = parent;
	d->all = all;
	d->fd = -1;
	return (int)p->ndirs++;
}

static struct pfile *find_file(struct protect *p, int di, const char *name)
{
	struct pdir *d = &p->dirs[di];
	for (size_t i = 0; i < d->nfiles; i++)
		if (strcmp(d->files[i].name, name) == 0)
			return &d->files[i];
	return NULL;
}

static struct pfile *add_file(struct protect *p, int di, const char *name)
{
	struct pfile *found = find_file(p, di, name);
	if (found)
		return found;
	struct pdir *d = &p->dirs[di];
	if (d->nfiles == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 8;
		d->files = xreallocarray(d->files, d->cap, sizeof *d->files);
	}
	struct pfile *f = &d->files[d->nfiles++];
	memset(f, 0, sizeof *f);
	f->name = xstrdup(name);
	return f;
}

/* A chain of folders for a path below dir `from` ("a/b/c"); returns the
 * last, or -1 when the path climbs out with "..". */
static int add_chain(struct protect *p, int from, const char *path, bool all)
{
	struct strvec parts;
	strvec_init(&parts);
	const char *s = path;
	while (*s) {
		size_t n = strcspn(s, "/");
		if (n && !(n == 1 && s[0] == '.'))
			strvec_push_owned(&parts, xstrndup(s, n));
		s += n;
		while (*s == '/')
			s++;
	}
	int at = from;
	for (size_t i = 0; i < parts.len && at >= 0; i++) {
		if (strcmp(parts.items[i], "..") == 0)
			at = -1;
		else
			at = add_dir(p, at, parts.items[i], all && i + 1 == parts.len);
	}
	strvec_free(&parts);
	return at;
}

/* A git dir of the set: the project's, or a submodule's. */
static bool git_dir(struct protect *p, int di)
{
	return find_file(p, di, "config") && find_dir(p, di, "hooks") >= 0;
}

/* The modules/ folder of a git dir, where git keeps its submodules' git
 * dirs: .git/modules/NAME, .git/modules/NAME/modules/NAME2. */
static bool modules_dir(struct protect *p, int di)
{
	const struct pdir *d = &p->dirs[di];
	return d->parent >= 0 && strcmp(d->name, "modules") == 0 && git_dir(p, d->parent);
}

/* A modules/ folder or a folder below one that is part of a submodule's
 * name: any new name in it may be a new module git dir. */
static bool modules_folder(struct protect *p, int di)
{
	for (; di >= 0 && !git_dir(p, di); di = p->dirs[di].parent)
		if (modules_dir(p, di))
			return true;
	return false;
}

/* ---- finding the project as git finds it --------------------------------- */

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* "gitdir: X" in a .git file; X relative to the file's folder. */
static char *read_gitfile(const char *path)
{
	FILE *f = util_fopen_regular(path);
	if (!f)
		return NULL;
	char line[PATH_MAX + 16];
	char *res = NULL;
	if (fgets(line, sizeof line, f) && strncmp(line, "gitdir:", 7) == 0) {
		char *v = line + 7;
		while (*v == ' ')
			v++;
		v[strcspn(v, "\r\n")] = '\0';
		char *full;
		if (*v == '/') {
			full = xstrdup(v);
		} else {
			char *dir = dir_of(path);
			full = xasprintf("%s/%s", dir, v);
			free(dir);
		}
		res = realpath(full, NULL);
		free(full);
	}
	fclose(f);
	return res;
}

/* The work tree and the git directory holding hooks and config (the
 * common dir of a linked work tree). Returns false outside any. getcwd()
 * is already free of symlinks, and a .git folder found by lstat() is not
 * one, so the usual case needs no realpath(). */
static bool find_git(char **worktree, char **gitdir)
{
	*worktree = *gitdir = NULL;
	const char *env = getenv("GIT_DIR");
	if (env && *env) {
		*gitdir = realpath(env, NULL);
		const char *wt = getenv("GIT_WORK_TREE");
		*worktree = realpath(wt && *wt ? wt : ".", NULL);
	} else {
		char *dir = getcwd(NULL, 0);
		if (dir && dir[0] != '/') { /* "(unreachable)" */
			free(dir);
			dir = NULL;
		}
		while (dir) {
			char *dotgit = xasprintf("%s/.git", strcmp(dir, "/") == 0 ? "" : dir);
			struct stat st;
			if (lstat(dotgit, &st) == 0) {
				if (S_ISDIR(st.st_mode)) {
					*gitdir = dotgit;
					dotgit = NULL;
				} else if (S_ISREG(st.st_mode)) {
					*gitdir = read_gitfile(dotgit);
				}
			}
			free(dotgit);
			if (*gitdir) {
				*worktree = dir;
				break;
			}
			if (strcmp(dir, "/") == 0) {
				free(dir);
				break;
			}
			char *up = dir_of(dir);
			free(dir);
			dir = up;
		}
	}
	if (!*gitdir || !*worktree) {
		free(*gitdir);
		free(*worktree);
		*gitdir = *worktree = NULL;
		return false;
	}
	char *common = xasprintf("%s/commondir", *gitdir);
	int cfd = util_open_regular(common, 0);
	free(common);
	if (cfd >= 0) {
		char line[PATH_MAX];
		ssize_t n = read(cfd, line, sizeof line - 1);
		close(cfd);
		if (n > 0) {
			line[n] = '\0';
			line[strcspn(line, "\r\n")] = '\0';
			char *full = line[0] == '/' ? xstrdup(line) : xasprintf("%s/%s", *gitdir, line);
			char *real = realpath(full, NULL);
			free(full);
			if (real) {
				free(*gitdir);
				*gitdir = real;
			}
		}
	}
	return true;
}

bool protect_applies(void)
{
	char *wt, *gd;
	if (find_git(&wt, &gd)) {
		free(wt);
		free(gd);
		return true;
	}
	return access(".agentcommands.json", F_OK) == 0;
}

/* core.hooksPath as git takes it (the last one), or NULL. */
static char *config_hooks_path(const char *text, size_t len)
{
	struct strvec v;
	strvec_init(&v);
	gitconfig_values(text, len, "core", "hookspath", &v);
	char *res = v.len ? xstrdup(v.items[v.len - 1]) : NULL;
	strvec_free(&v);
	return res;
}

/* ---- a new submodule's config ------------------------------------------ */

/* Git reads a submodule's config when the human works in it, outside the
 * sandbox, so a config that appears during a session loses the entries
 * that make git run a program or read settings from elsewhere (the one
 * table in lib/gitconfig.c); the rest of it stays, so the submodule keeps
 * working. */
struct config_cut {
	const char *text;
	size_t kept; /* text[kept..] is not in out yet */
	struct strbuf out;
	bool cut;
};

/* Leaves out text[begin..end), from the start of its line when nothing
 * but blanks comes before it. */
static void config_cut_range(struct config_cut *cc, size_t begin, size_t end)
{
	size_t from = begin;
	while (from > cc->kept && (cc->text[from - 1] == ' ' || cc->text[from - 1] == '\t'))
		from--;
	if (from == 0 || cc->text[from - 1] == '\n')
		begin = from;
	strbuf_addmem(&cc->out, cc->text + cc->kept, begin - cc->kept);
	cc->kept = end;
	cc->cut = true;
}

static bool config_cut_entry(const struct gitconfig_entry *e, void *ctx)
{
	if (gitconfig_entry_runs(e->section, e->subsection, e->key, e->value))
		config_cut_range(ctx, e->begin, e->end);
	return true;
}

/* The config's text without those entries, or NULL when it has none. Read
 * as git reads it, since a value may go on over several lines (after a
 * backslash) and what looks like a section or a key there is neither.
 * From a syntax error on (git would refuse the file), the rest goes too. */
static char *config_without_programs(const char *text, size_t len, size_t *out_len)
{
	struct config_cut cc = {.text = text};
	strbuf_init(&cc.out);
	size_t bad_at = 0;
	if (gitconfig_parse(text, len, config_cut_entry, &cc, &bad_at) != 0)
		config_cut_range(&cc, bad_at, len);
	if (!cc.cut) {
		strbuf_free(&cc.out);
		return NULL;
	}
	strbuf_addmem(&cc.out, text + cc.kept, len - cc.kept);
	*out_len = cc.out.len;
	return strbuf_detach(&cc.out);
}

/* The protected folders and files of the project here, before any scan. */
int protect_check_extra(const char *rel)
{
	if (!rel || !*rel || rel[0] == '/')
		return -1;
	for (const char *s = rel; *s;) {
		size_t n = strcspn(s, "/");
		if (n == 2 && s[0] == '.' && s[1] == '.')
			return -1;
		s += n;
		while (*s == '/')
			s++;
	}
	return 0;
}

/* A protect-path from the config: a folder is protected whole, anything
 * else (a file, or nothing yet) by its name in its folder. */
static void add_extra(struct protect *p, int root, const char *rel)
{
	if (protect_check_extra(rel) != 0)
		return;
	struct stat sb;
	char *full = xasprintf("%s/%s", p->root, rel);
	bool is_dir = lstat(full, &sb) == 0 && S_ISDIR(sb.st_mode);
	free(full);
	if (is_dir) {
		add_chain(p, root, rel, true);
		return;
	}
	char *copy = xstrdup(rel);
	size_t n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	char *slash = strrchr(copy, '/');
	int di = root;
	const char *name = copy;
	if (slash) {
		*slash = '\0';
		di = add_chain(p, root, copy, false);
		name = slash + 1;
	}
	if (di >= 0 && *name && strcmp(name, ".") != 0)
		add_file(p, di, name);
	free(copy);
}

/* What git reads in git dir g outside the sandbox: its config, the files
 * that send it to config elsewhere, its hooks and its submodules' git dirs. */
static void add_git_dir(struct protect *p, int g)
{
	add_file(p, g, "config");
	/* absent in most: git would take config and hooks from where they point */
	add_file(p, g, "commondir");
	add_file(p, g, "config.worktree");
	add_dir(p, g, "hooks", true);
	/* even when there is none yet: submodules may come during a session
	 * (scan and grow_modules find them) */
	add_dir(p, g, "modules", false);
}

#define PROTECT_SUBMODULES_MAX 256

/* The submodules checked out in the project (.gitmodules' paths): git
 * follows each one's .git, a file naming its git dir or the git dir
 * itself, when the human works there or runs git status above it. One
 * pointed elsewhere would bring config and hooks the sandbox wrote. Those
 * not checked out at the start are left to git (`submodule update`). */
static void add_worktree_modules(struct protect *p, int root)
{
	char *path = xasprintf("%s/.gitmodules", p->root);
	size_t len = 0;
	char *text = util_read_file(path, O_NOFOLLOW, PROTECT_FILE_MAX, &len);
	free(path);
	if (!text)
		return;
	struct strvec rels;
	strvec_init(&rels);
	gitconfig_values(text, len, "submodule", "path", &rels);
	free(text);
	for (size_t i = 0; i < rels.len && i < PROTECT_SUBMODULES_MAX; i++) {
		const char *rel = rels.items[i];
		if (!*rel || rel[0] == '/' || strncmp(rel, ".git/", 5) == 0 || strcmp(rel, ".git") == 0)
			continue;
		char *dotgit = xasprintf("%s/%s/.git", p->root, rel);
		struct stat st;
		int sd = lstat(dotgit, &st) == 0 ? add_chain(p, root, rel, false) : -1;
		free(dotgit);
		if (sd < 0 || sd == root)
			continue;
		if (S_ISDIR(st.st_mode))
			add_git_dir(p, add_dir(p, sd, ".git", false));
		else
			add_file(p, sd, ".git");
	}
	strvec_free(&rels);
}

static struct protect *discover(char *const *extra)
{
	char *worktree = NULL, *gitdir = NULL;
	struct protect *p = protect_new();
	if (!find_git(&worktree, &gitdir)) {
		worktree = realpath(".", NULL);
		if (!worktree || access(".agentcommands.json", F_OK) != 0) {
			free(worktree);
			protect_free(p);
			return NULL;
		}
	}
	p->root = worktree;
	int root = add_dir(p, -1, ".", false);
	free(p->dirs[root].name);
	p->dirs[root].name = xstrdup(worktree);
	add_file(p, root, ".agentcommands.json");
	for (char *const *e = extra; e && *e; e++)
		add_extra(p, root, *e);
	if (gitdir) {
		size_t wl = strlen(worktree);
		int g;
		if (strncmp(gitdir, worktree, wl) == 0 && gitdir[wl] == '/')
			g = add_chain(p, root, gitdir + wl + 1, false);
		else
			g = add_dir(p, -1, gitdir, false);
		add_git_dir(p, g);
		p->hooks_rel = xstrdup(p->dirs[find_dir(p, g, "hooks")].rel);
		add_file(p, add_dir(p, g, "info", false), "attributes");
		add_worktree_modules(p, root);

		char *cfg = xasprintf("%s/config", gitdir);
		size_t clen = 0;
		char *text = util_read_file(cfg, O_NOFOLLOW, PROTECT_FILE_MAX, &clen);
		free(cfg);
		if (text) {
			char *hp = config_hooks_path(text, clen);
			free(text);
			if (hp) {
				char *abs = hp[0] == '/' ? xstrdup(hp) : xasprintf("%s/%s", worktree, hp);
				free(p->hooks_rel);
				p->hooks_rel = NULL;
				if (strncmp(abs, worktree, wl) == 0 && (abs[wl] == '/' || abs[wl] == '\0')) {
					int h = add_chain(p, root, abs + wl, true);
					if (h >= 0)
						p->hooks_rel = xstrdup(p->dirs[h].rel);
				}
				free(abs);
				free(hp);
			}
		}
	}
	free(gitdir);
	return p;
}

/* ---- scanning: the live state becomes the baseline ----------------------- */

static int open_live(struct protect *p, int di)
{
	struct pdir *d = &p->dirs[di];
	if (d->parent < 0)
		return open(d->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int pfd = p->dirs[d->parent].fd;
	if (pfd < 0)
		return -1;
	return openat(pfd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* Opens folder di and takes its metadata as the baseline's; false when
 * it is not there. */
static bool take_dir(struct protect *p, int di)
{
	struct pdir *d = &p->dirs[di];
	if (d->fd >= 0)
		close(d->fd);
	d->fd = open_live(p, di);
	if (d->fd >= 0 && fstat(d->fd, &d->seen) != 0) {
		close(d->fd);
		d->fd = -1;
	}
	d->present = d->fd >= 0;
	d->mode = d->seen.st_mode;
	d->listed = d->present;
	return d->present;
}

static void take_file(int dirfd, struct pfile *f)
{
	free(f->data);
	struct stat st;
	f->unheld = false;
	if (read_entry(dirfd, f->name, &st, &f->data, &f->len) != 0) {
		if (fstatat(dirfd, f->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    (uint64_t)st.st_size > PROTECT_FILE_MAX) {
			/* The human's, too big to restore from a copy: counting it
			 * absent would remove it at the next check. */
			f->present = f->unheld = f->loaded = true;
			f->data = NULL;
			f->len = 0;
			f->mode = st.st_mode;
			f->mtime = st.st_mtim;
			f->seen = st;
			return;
		}
		f->present = false;
		f->loaded = true;
		f->data = NULL;
		f->len = 0;
		memset(&f->seen, 0, sizeof f->seen);
		return;
	}
	f->present = true;
	f->loaded = true;
	f->mode = st.st_mode;
	f->mtime = st.st_mtim;
	f->seen = st;
}

/* Lists an `all` folder: files become entries, folders become `all`
 * folders of their own (scanned after, as they are appended). samples:
 * only git's inert sample hooks, plain files named *.sample. */
static void list_all(struct protect *p, int di, int depth, bool samples)
{
	int dup = fcntl(p->dirs[di].fd, F_DUPFD_CLOEXEC, 0);
	DIR *dir = dup >= 0 ? fdopendir(dup) : NULL;
	if (!dir) {
		if (dup >= 0)
			close(dup);
		return;
	}
	rewinddir(dir); /* the duplicate shares the offset of the last listing */
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		struct stat st;
		if (fstatat(p->dirs[di].fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		size_t n = strlen(e->d_name);
		if (samples) {
			if (S_ISREG(st.st_mode) && n > 7 && strcmp(e->d_name + n - 7, ".sample") == 0)
				add_file(p, di, e->d_name);
		} else if (S_ISDIR(st.st_mode)) {
			if (depth < PROTECT_DEPTH)
				add_dir(p, di, e->d_name, true);
		} else {
			add_file(p, di, e->d_name);
		}
	}
	closedir(dir);
}

static int dir_depth(struct protect *p, int di)
{
	int n = 0;
	while (p->dirs[di].parent >= 0 && n < 64) {
		di = p->dirs[di].parent;
		n++;
	}
	return n;
}

/* How many folders the set may hold: each is an open descriptor. */
static size_t dirs_budget(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 256;
	return rl.rlim_cur / 2 < PROTECT_DIRS_MAX ? (size_t)(rl.rlim_cur / 2) : PROTECT_DIRS_MAX;
}

static void note(struct strvec *restored, const char *rel, const char *name);

/* A walk of a modules folder for the module git dirs the set lacks. */
struct module_walk {
	struct protect *p;
	size_t room;            /* how many more may join */
	struct strvec found;    /* their paths from the modules folder */
	struct strvec *removed; /* during a session: what could not join, removed */
};

/* A folder with a HEAD is a module git dir (its own modules/ is walked
 * as a modules folder of its own); any other folder is part of a name
 * with slashes. di: this folder's index in the set, or -1. Links are
 * not followed, as git's own modules are never links. */
static void find_modules(struct module_walk *w, int di, int fd, const char *prefix, int depth)
{
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *dir = dup >= 0 ? fdopendir(dup) : NULL;
	if (!dir) {
		if (dup >= 0)
			close(dup);
		return;
	}
	rewinddir(dir);
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		int known = di >= 0 ? find_dir(w->p, di, e->d_name) : -1;
		struct stat st;
		bool module = fstatat(sub, "HEAD", &st, AT_SYMLINK_NOFOLLOW) == 0;
		char *path = prefix ? xasprintf("%s/%s", prefix, e->d_name) : xstrdup(e->d_name);
		if (module && known >= 0 && find_file(w->p, known, "config")) {
			/* in the set already */
		} else if (w->removed && known < 0 && (depth >= PROTECT_MODULES_DEPTH || w->found.len >= w->room)) {
			/* what the set cannot hold must not stay unprotected */
			remove_at(fd, e->d_name, 0);
			strvec_push(w->removed, path);
		} else if (module) {
			strvec_push(&w->found, path);
		} else if (depth < PROTECT_MODULES_DEPTH) {
			find_modules(w, known, sub, path, depth + 1);
		}
		free(path);
		close(sub);
	}
	closedir(dir);
}

/* Adds the module git dirs in modules folder m that the set lacks, each
 * with what git reads there outside the sandbox (config, hooks/) and its
 * own modules/. restored: NULL when scanning; during a session, what
 * could not join (too deep, or too many) is removed and told there. */
static void add_modules(struct protect *p, int m, struct strvec *restored)
{
	struct strvec removed;
	strvec_init(&removed);
	struct module_walk w = {.p = p, .room = SIZE_MAX};
	strvec_init(&w.found);
	if (restored) {
		size_t max = dirs_budget();
		w.room = p->ndirs < max ? (max - p->ndirs) / 4 : 0; /* 4: the module, hooks/, modules/, a name's part */
		w.removed = &removed;
	}
	find_modules(&w, m, p->dirs[m].fd, NULL, 0);
	for (size_t i = 0; i < w.found.len; i++) {
		int md = add_chain(p, m, w.found.items[i], false);
		if (md >= 0)
			add_git_dir(p, md);
	}
	for (size_t i = 0; i < removed.len; i++)
		note(restored, p->dirs[m].rel, removed.items[i]);
	strvec_free(&w.found);
	strvec_free(&removed);
}

static void scan(struct protect *p)
{
	for (size_t i = 0; i < p->ndirs; i++) {
		if (!take_dir(p, (int)i)) {
			for (size_t j = 0; j < p->dirs[i].nfiles; j++)
				take_file(-1, &p->dirs[i].files[j]);
			continue;
		}
		if (p->dirs[i].all)
			list_all(p, (int)i, dir_depth(p, (int)i), false);
		else if (modules_dir(p, (int)i))
			add_modules(p, (int)i, NULL);
		struct pdir *d = &p->dirs[i];
		for (size_t j = 0; j < d->nfiles; j++)
			take_file(d->fd, &d->files[j]);
	}
}

/* ---- checking and restoring ------------------------------------------- */

static void note(struct strvec *restored, const char *rel, const char *name)
{
	if (!restored)
		return;
	char *path = name ? child_rel(rel, name) : xstrdup(rel);
	for (size_t i = 0; i < restored->len; i++) {
		if (strcmp(restored->items[i], path) == 0) {
			free(path);
			return;
		}
	}
	strvec_push_owned(restored, path);
}

static bool same_contents(int dirfd, const struct pfile *f, const struct stat *st)
{
	if (st->st_mode != f->mode)
		return false;
	if (!S_ISREG(f->mode) && !S_ISLNK(f->mode))
		return true;
	struct stat again;
	char *data;
	size_t len;
	if (read_entry(dirfd, f->name, &again, &data, &len) != 0)
		return false;
	bool same = again.st_ino == st->st_ino && len == f->len && (len == 0 || memcmp(data, f->data, len) == 0);
	free(data);
	return same;
}

/* Writes the baseline version beside the file and renames it over: the
 * name never points anywhere else in between, and a planted link is
 * replaced, never written through. */
static bool put_back(struct protect *p, int dirfd, struct pfile *f)
{
	if (!S_ISREG(f->mode) && !S_ISLNK(f->mode))
		return false;
	struct stat st;
	if (fstatat(dirfd, f->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
		remove_at(dirfd, f->name, 0);
	char tmp[64];
	snprintf(tmp, sizeof tmp, ".sbsh-restore.%ld.%u", (long)getpid(), p->counter++);
	if (S_ISLNK(f->mode)) {
		if (symlinkat(f->data ? f->data : "", dirfd, tmp) != 0)
			return false;
	} else {
		int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			return false;
		bool ok = util_write_all(fd, f->data ? f->data : "", f->len) && fchmod(fd, f->mode & 07777) == 0;
		struct timespec times[2] = {{.tv_nsec = UTIME_OMIT}, f->mtime};
		futimens(fd, times);
		if (close(fd) != 0)
			ok = false;
		if (!ok) {
			unlinkat(dirfd, tmp, 0);
			return false;
		}
	}
	if (renameat(dirfd, tmp, dirfd, f->name) != 0) {
		unlinkat(dirfd, tmp, 0);
		return false;
	}
	memset(&f->seen, 0, sizeof f->seen); /* compare contents once more next time */
	return true;
}

static char *mirror_path(const char *tree, const char *rel);

/* The baseline's contents of f, read from the read-only mirror the first
 * time they are needed: a start whose files did not move reads none. */
static bool need_data(struct protect *p, int di, struct pfile *f)
{
	if (f->loaded || !f->present || f->unheld)
		return true;
	char *tree = xasprintf("%s/baseline/tree", p->state);
	char *mdir = mirror_path(tree, p->dirs[di].rel);
	free(tree);
	int fd = open(mdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(mdir);
	struct stat st;
	bool ok = fd >= 0 && read_entry(fd, f->name, &st, &f->data, &f->len) == 0;
	if (fd >= 0)
		close(fd);
	f->loaded = ok;
	return ok;
}

static bool need_all_data(struct protect *p)
{
	bool ok = true;
	for (size_t i = 0; i < p->ndirs; i++)
		for (size_t j = 0; j < p->dirs[i].nfiles; j++)
			ok &= need_data(p, (int)i, &p->dirs[i].files[j]);
	return ok;
}

static void check_file(struct protect *p, int di, struct pfile *f, struct strvec *restored)
{
	struct pdir *d = &p->dirs[di];
	if (f->unheld)
		return;
	struct stat st;
	int r = fstatat(d->fd, f->name, &st, AT_SYMLINK_NOFOLLOW);
	if (!f->present) {
		if (r == 0) {
			remove_at(d->fd, f->name, 0);
			note(restored, d->rel, f->name);
		}
		return;
	}
	if (r == 0 && f->seen.st_ino && same_meta(&st, &f->seen))
		return;
	if (!need_data(p, di, f))
		return; /* the mirror is unreadable: never write a guess */
	if (r == 0 && same_contents(d->fd, f, &st)) {
		f->seen = st;
		return;
	}
	if (put_back(p, d->fd, f))
		note(restored, d->rel, f->name);
}

static bool known_name(struct protect *p, int di, const char *name)
{
	return find_file(p, di, name) || find_dir(p, di, name) >= 0;
}

/* Entries of an `all` folder that the baseline does not have go. */
static bool remove_unknown(struct protect *p, int di, struct strvec *restored)
{
	int dup = fcntl(p->dirs[di].fd, F_DUPFD_CLOEXEC, 0);
	DIR *dir = dup >= 0 ? fdopendir(dup) : NULL;
	if (!dir) {
		if (dup >= 0)
			close(dup);
		return false;
	}
	struct strvec extra;
	strvec_init(&extra);
	rewinddir(dir);
	struct dirent *e;
	while ((e = readdir(dir)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && !known_name(p, di, e->d_name))
			strvec_push(&extra, e->d_name);
	closedir(dir);
	for (size_t i = 0; i < extra.len; i++) {
		remove_at(p->dirs[di].fd, extra.items[i], 0);
		note(restored, p->dirs[di].rel, extra.items[i]);
	}
	bool any = extra.len > 0;
	strvec_free(&extra);
	return any;
}

static void check_dir(struct protect *p, int di, struct strvec *restored)
{
	struct pdir *d = &p->dirs[di];
	d->fresh = false;
	if (d->parent >= 0 && p->dirs[d->parent].fresh) {
		/* the folder above was put back as a whole: say that once */
		d->fresh = true;
		restored = NULL;
	}
	if (d->parent >= 0) {
		int pfd = p->dirs[d->parent].fd;
		if (pfd < 0) {
			if (d->fd >= 0)
				close(d->fd);
			d->fd = -1;
			return;
		}
		struct stat st;
		int r = fstatat(pfd, d->name, &st, AT_SYMLINK_NOFOLLOW);
		if (!d->present) {
			/* a modules folder that appears is grow_modules' to take */
			if (r == 0 && !modules_dir(p, di)) {
				remove_at(pfd, d->name, 0);
				note(restored, d->rel, NULL);
			}
			return;
		}
		if (r != 0 || !S_ISDIR(st.st_mode) || st.st_ino != d->seen.st_ino || st.st_dev != d->seen.st_dev ||
		    d->fd < 0) {
			/* removed, or replaced (by a link, another folder, a file):
			 * a fresh folder, filled below from the baseline */
			if (r == 0)
				remove_at(pfd, d->name, 0);
			if (d->fd >= 0)
				close(d->fd);
			mkdirat(pfd, d->name, 0700);
			d->fd = openat(pfd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (d->fd < 0)
				return;
			fchmod(d->fd, d->mode & 07777);
			fstat(d->fd, &d->seen);
			d->listed = false;
			note(restored, d->rel, NULL);
			d->fresh = true;
		} else if (st.st_mode != d->mode) {
			fchmod(d->fd, d->mode & 07777);
			note(restored, d->rel, NULL);
		}
	}
	if (d->fd < 0)
		return;
	if (d->fresh)
		restored = NULL;
	struct stat before;
	bool relist = false;
	if (d->all) {
		/* a folder's times move whenever a name in it is added,
		 * removed or renamed: list it only then */
		if (fstat(d->fd, &before) == 0 &&
		    (!d->listed || !same_time(before.st_mtim, d->seen.st_mtim) ||
		     !same_time(before.st_ctim, d->seen.st_ctim))) {
			relist = true;
			if (remove_unknown(p, di, restored))
				before.st_mtim.tv_sec = -1; /* our own change: list again next time */
		}
	}
	d = &p->dirs[di];
	size_t nres = restored ? restored->len : 0;
	for (size_t i = 0; i < d->nfiles; i++)
		check_file(p, di, &d->files[i], restored);
	if (d->all && relist) {
		if (restored && restored->len != nres)
			before.st_mtim.tv_sec = -1;
		d->seen.st_mtim = before.st_mtim;
		d->seen.st_ctim = before.st_ctim;
		d->listed = before.st_mtim.tv_sec != -1;
	} else if (d->all && restored && restored->len != nres) {
		d->listed = false;
	}
}

/* A module git dir that appeared during a session is taken as git makes
 * one and no further: its hooks/ keeps only git's inert samples (the
 * check removes the rest, and says so), and its config loses the keys
 * that make git run a program (the check puts back the rest, and says
 * so). Dropping just those keys, rather than refusing the config whole,
 * keeps the submodule working: git needs its core.worktree, remote and
 * branch entries. A config that is not a plain file is not one git
 * made: it goes. */
static void take_module(struct protect *p, int md, int hooks)
{
	struct pfile *f = add_file(p, md, "config");
	take_file(p->dirs[md].fd, f);
	if (f->present && (!S_ISREG(f->mode) || f->unheld)) {
		f->unheld = false; /* made in the session: too big is no excuse */
		free(f->data);
		f->data = NULL;
		f->len = 0;
		f->present = false;
	} else if (f->present) {
		size_t len;
		char *safe = config_without_programs(f->data ? f->data : "", f->len, &len);
		if (safe) {
			free(f->data);
			f->data = safe;
			f->len = len;
			memset(&f->seen, 0, sizeof f->seen); /* not the live file's contents */
		}
	}
	if (!p->dirs[hooks].present)
		return;
	list_all(p, hooks, PROTECT_DEPTH, true);
	struct pdir *h = &p->dirs[hooks];
	for (size_t j = 0; j < h->nfiles; j++)
		take_file(h->fd, &h->files[j]);
	h->listed = false; /* the check lists it: what is not a sample goes */
}

/* A check's first step: module git dirs that appeared in a modules
 * folder (a submodule added during the session) join the set, taken as
 * take_module says. Otherwise nothing would protect them, and the next
 * session would take what is in them for a human's. */
static void grow_modules(struct protect *p, struct strvec *restored)
{
	size_t before = p->ndirs;
	for (size_t i = 0; i < p->ndirs; i++) {
		bool modules = modules_dir(p, (int)i);
		struct pdir *d = &p->dirs[i];
		if (i >= before)
			take_dir(p, (int)i); /* just added, below a modules folder */
		else if (modules && !d->present && take_dir(p, (int)i))
			p->grown = true; /* the first submodule: modules/ itself appeared */
		else if (modules && d->fd >= 0)
			fstat(d->fd, &d->seen); /* before the walk: a module added after it moves these times */
		if (modules && p->dirs[i].fd >= 0)
			add_modules(p, (int)i, restored);
	}
	/* each new module brought a new hooks/, its only `all` folder */
	for (size_t i = before; i < p->ndirs; i++)
		if (p->dirs[i].all)
			take_module(p, p->dirs[i].parent, (int)i);
	if (p->ndirs > before)
		p->grown = true;
}

static void check(struct protect *p, struct strvec *restored)
{
	grow_modules(p, restored);
	for (size_t i = 0; i < p->ndirs; i++)
		check_dir(p, (int)i, restored);
}

/* ---- the persisted baseline ------------------------------------------- */

static char *state_dir_for(const char *key_path)
{
	const char *xdg = getenv("XDG_STATE_HOME");
	char *base;
	if (xdg && *xdg == '/') {
		base = xasprintf("%s/sbsh/projects", xdg);
	} else {
		const char *home = getenv("HOME");
		if (!home || !*home)
			return NULL;
		base = xasprintf("%s/.local/state/sbsh/projects", home);
	}
	uint64_t h = 1469598103934665603ULL; /* FNV-1a: a short stable folder name */
	for (const unsigned char *s = (const unsigned char *)key_path; *s; s++)
		h = (h ^ *s) * 1099511628211ULL;
	const char *last = strrchr(key_path, '/');
	last = last && last[1] ? last + 1 : "root";
	char *dir = xasprintf("%s/%.32s-%016llx", base, last, (unsigned long long)h);
	free(base);
	return dir;
}

static int mkdir_p(const char *path, mode_t mode)
{
	char *copy = xstrdup(path);
	for (char *s = copy + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(copy, mode);
			*s = '/';
		}
	}
	int r = mkdir(copy, mode);
	free(copy);
	return r == 0 || errno == EEXIST ? 0 : -1;
}

static char *mirror_path(const char *tree, const char *rel)
{
	if (strcmp(rel, ".") == 0)
		return xstrdup(tree);
	return rel[0] == '/' ? xasprintf("%s%s", tree, rel) : xasprintf("%s/%s", tree, rel);
}

static void remove_path(const char *path)
{
	char *dir = dir_of(path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0)
		return;
	const char *name = strrchr(path, '/');
	remove_at(fd, name ? name + 1 : path, 0);
	close(fd);
}

/* The manifest (STATE/baseline/manifest): a format of our own, one line
 * per folder and per file, read with one read() and a scan. It is read at
 * every start in a project; as JSON, jansson took ~350 us of that start
 * for 37 entries.
 *
 *   sbsh-baseline 3                  (3: every git dir has modules/ in the set)
 *   R <len>:<project folder>
 *   H <len>:<hooks folder>           (only when it is inside the project)
 *   D <parent> <all> <present> <mode> META <len>:<name>
 *   F <dir> <present> <mode> <mtime> <mtime_ns> META <len>:<name>
 *
 * META is the live metadata when last found equal to the baseline, which
 * is all the next start compares when nothing moved: inode, device, size,
 * mode, mtime, mtime_ns, ctime, ctime_ns. A name is its length in bytes, a
 * colon, the bytes (any but NUL), and a newline. F lines follow their D. */
#define PROTECT_MANIFEST_MAGIC "sbsh-baseline 3\n"
#define PROTECT_MANIFEST_MAX (64u << 20)

static void manifest_name(struct strbuf *sb, const char *name)
{
	size_t n = strlen(name);
	strbuf_addf(sb, " %zu:", n);
	strbuf_addmem(sb, name, n);
	strbuf_addc(sb, '\n');
}

static void manifest_meta(struct strbuf *sb, const struct stat *st)
{
	strbuf_addf(sb, " %llu %llu %lld %u %lld %ld %lld %ld", (unsigned long long)st->st_ino,
	            (unsigned long long)st->st_dev, (long long)st->st_size, (unsigned)st->st_mode,
	            (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec, (long long)st->st_ctim.tv_sec,
	            st->st_ctim.tv_nsec);
}

static char *manifest_text(const struct protect *p, size_t *len)
{
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_adds(&sb, PROTECT_MANIFEST_MAGIC "R");
	manifest_name(&sb, p->root);
	if (p->hooks_rel) {
		strbuf_addc(&sb, 'H');
		manifest_name(&sb, p->hooks_rel);
	}
	for (size_t i = 0; i < p->ndirs; i++) {
		const struct pdir *d = &p->dirs[i];
		strbuf_addf(&sb, "D %d %d %d %u", d->parent, d->all, d->present, (unsigned)d->mode);
		manifest_meta(&sb, &d->seen);
		manifest_name(&sb, d->name);
		if (!d->present)
			continue;
		for (size_t j = 0; j < d->nfiles; j++) {
			const struct pfile *f = &d->files[j];
			strbuf_addf(&sb, "F %zu %d %u %lld %ld", i, f->unheld ? 2 : f->present, (unsigned)f->mode,
			            (long long)f->mtime.tv_sec, f->mtime.tv_nsec);
			manifest_meta(&sb, &f->seen);
			manifest_name(&sb, f->name);
		}
	}
	*len = sb.len;
	return strbuf_detach(&sb);
}

/* Writes the manifest as PATH (a new file). Returns 0 or -1. */
static int manifest_write(const struct protect *p, const char *path)
{
	size_t len;
	char *text = manifest_text(p, &len);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	bool ok = fd >= 0 && util_write_all(fd, text, len);
	if (fd >= 0 && close(fd) != 0)
		ok = false;
	free(text);
	return ok ? 0 : -1;
}

struct manifest_reader {
	const char *at, *end;
	bool ok;
};

/* " N": a decimal number after one space, within [min, max]. */
static long long manifest_num(struct manifest_reader *r, long long min, unsigned long long max)
{
	if (!r->ok || r->at >= r->end || *r->at != ' ') {
		r->ok = false;
		return 0;
	}
	r->at++;
	bool negative = r->at < r->end && *r->at == '-';
	if (negative)
		r->at++;
	unsigned long long v = 0;
	const char *first = r->at;
	while (r->at < r->end && *r->at >= '0' && *r->at <= '9') {
		unsigned digit = (unsigned)(*r->at++ - '0');
		if (v > (ULLONG_MAX - digit) / 10) {
			r->ok = false;
			return 0;
		}
		v = v * 10 + digit;
	}
	/* how far below zero min reaches, without overflowing at LLONG_MIN */
	unsigned long long below = min < 0 ? (unsigned long long)(-(min + 1)) + 1 : 0;
	if (r->at == first || (negative ? v > below : v > max)) {
		r->ok = false;
		return 0;
	}
	if (negative)
		return v == 0 ? 0 : -(long long)(v - 1) - 1;
	return (long long)v;
}

static unsigned long long manifest_unum(struct manifest_reader *r)
{
	return (unsigned long long)manifest_num(r, 0, ULLONG_MAX);
}

static void manifest_meta_read(struct manifest_reader *r, struct stat *st)
{
	memset(st, 0, sizeof *st);
	st->st_ino = (ino_t)manifest_unum(r);
	st->st_dev = (dev_t)manifest_unum(r);
	st->st_size = (off_t)manifest_num(r, 0, LLONG_MAX);
	st->st_mode = (mode_t)manifest_num(r, 0, UINT_MAX);
	st->st_mtim.tv_sec = (time_t)manifest_num(r, LLONG_MIN, LLONG_MAX);
	st->st_mtim.tv_nsec = (long)manifest_num(r, 0, 999999999);
	st->st_ctim.tv_sec = (time_t)manifest_num(r, LLONG_MIN, LLONG_MAX);
	st->st_ctim.tv_nsec = (long)manifest_num(r, 0, 999999999);
}

/* " LEN:BYTES\n": a new string, or NULL (and !r->ok). */
static char *manifest_name_read(struct manifest_reader *r)
{
	size_t n = (size_t)manifest_num(r, 0, PATH_MAX);
	if (!r->ok || r->at >= r->end || *r->at != ':' || (size_t)(r->end - r->at) < n + 2 ||
	    r->at[n + 1] != '\n' || memchr(r->at + 1, '\0', n)) {
		r->ok = false;
		return NULL;
	}
	char *name = xstrndup(r->at + 1, n);
	r->at += n + 2;
	return name;
}

static int write_mirror_opt(struct protect *p, bool tree_too);

static int write_mirror(struct protect *p)
{
	return write_mirror_opt(p, true);
}

/* Only the manifest: the contents are the same, the live metadata moved
 * (a restore, a `touch`). */
static int write_manifest(struct protect *p)
{
	return write_mirror_opt(p, false);
}

/* Writes the baseline as STATE/baseline/{manifest,tree/} and swaps it
 * in with a rename. The copies are read-only: tree/<hooks> is what
 * core.hooksPath points every git at. No fsync: a baseline lost in a crash
 * is taken again from the files, which is what a new session does anyway. */
static int write_mirror_opt(struct protect *p, bool tree_too)
{
	if (!tree_too) {
		char *tmp = xasprintf("%s/baseline/manifest.%ld", p->state, (long)getpid());
		char *final = xasprintf("%s/baseline/manifest", p->state);
		unlink(tmp);
		int rc = manifest_write(p, tmp) == 0 && rename(tmp, final) == 0 ? 0 : -1;
		if (rc != 0)
			unlink(tmp);
		free(tmp);
		free(final);
		return rc;
	}

	char *tmp = xasprintf("%s/baseline.tmp.%ld", p->state, (long)getpid());
	char *tree = xasprintf("%s/tree", tmp);
	remove_path(tmp);
	int rc = mkdir_p(tree, 0700);
	for (size_t i = 0; i < p->ndirs && rc == 0; i++) {
		struct pdir *d = &p->dirs[i];
		if (!d->present)
			continue;
		char *mdir = mirror_path(tree, d->rel);
		if (mkdir_p(mdir, 0700) != 0)
			rc = -1;
		for (size_t j = 0; j < d->nfiles && rc == 0; j++) {
			struct pfile *f = &d->files[j];
			if (!f->present || f->unheld)
				continue;
			char *mf = xasprintf("%s/%s", mdir, f->name);
			if (S_ISLNK(f->mode)) {
				if (symlink(f->data ? f->data : "", mf) != 0)
					rc = -1;
			} else if (S_ISREG(f->mode)) {
				int fd = open(mf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
				if (fd < 0 || !util_write_all(fd, f->data ? f->data : "", f->len) ||
				    fchmod(fd, f->mode & 0555) != 0)
					rc = -1;
				if (fd >= 0)
					close(fd);
			}
			free(mf);
		}
		free(mdir);
	}
	char *manifest = xasprintf("%s/manifest", tmp);
	if (rc == 0 && manifest_write(p, manifest) != 0)
		rc = -1;
	free(manifest);
	char *final = xasprintf("%s/baseline", p->state);
	char *old = xasprintf("%s/baseline.old.%ld", p->state, (long)getpid());
	if (rc == 0) {
		rename(final, old);
		if (rename(tmp, final) != 0)
			rc = -1;
		remove_path(old);
	}
	if (rc == 0)
		p->grown = false;
	if (rc != 0)
		remove_path(tmp);
	free(final);
	free(old);
	free(tree);
	free(tmp);
	return rc;
}

/* Loads STATE/baseline as a protect set, with descriptors on the live
 * folders and nothing known about the live files (so the first check
 * compares every content). NULL when there is none. */
static struct protect *load_mirror(const char *state)
{
	char *path = xasprintf("%s/baseline/manifest", state);
	size_t len = 0;
	char *text = util_read_file(path, O_NOFOLLOW, PROTECT_MANIFEST_MAX, &len);
	free(path);
	const size_t magic = sizeof PROTECT_MANIFEST_MAGIC - 1;
	if (!text || len < magic + 1 || memcmp(text, PROTECT_MANIFEST_MAGIC, magic) != 0 || text[magic] != 'R') {
		free(text);
		return NULL;
	}
	struct manifest_reader r = {.at = text + magic + 1, .end = text + len, .ok = true};
	struct protect *p = protect_new();
	p->state = xstrdup(state);
	p->root = manifest_name_read(&r);
	if (r.ok && r.at < r.end && *r.at == 'H') {
		r.at++;
		p->hooks_rel = manifest_name_read(&r);
	}
	while (r.ok && r.at < r.end) {
		char kind = *r.at++;
		if (kind == 'D') {
			int parent = (int)manifest_num(&r, -1, p->ndirs ? p->ndirs - 1 : 0);
			bool all = manifest_num(&r, 0, 1), present = manifest_num(&r, 0, 1);
			mode_t mode = (mode_t)manifest_num(&r, 0, UINT_MAX);
			struct stat seen;
			manifest_meta_read(&r, &seen);
			char *name = manifest_name_read(&r);
			if (!r.ok || (parent >= 0 && p->ndirs == 0) || p->ndirs >= PROTECT_DIRS_MAX) {
				free(name);
				r.ok = false;
				break;
			}
			int di = add_dir(p, parent, name, false);
			free(name);
			if (di == 0 && parent < 0 && strcmp(p->dirs[0].rel, ".") != 0) {
				free(p->dirs[0].rel); /* the project: below it, names are relative */
				p->dirs[0].rel = xstrdup(".");
			}
			struct pdir *d = &p->dirs[di];
			d->all = all;
			d->present = present;
			d->mode = mode;
			d->seen = seen;
		} else if (kind == 'F') {
			size_t di = (size_t)manifest_num(&r, 0, p->ndirs ? p->ndirs - 1 : 0);
			int present = (int)manifest_num(&r, 0, 2); /* 2: unheld */
			mode_t mode = (mode_t)manifest_num(&r, 0, UINT_MAX);
			struct timespec mtime;
			mtime.tv_sec = (time_t)manifest_num(&r, LLONG_MIN, LLONG_MAX);
			mtime.tv_nsec = (long)manifest_num(&r, 0, 999999999);
			struct stat seen;
			manifest_meta_read(&r, &seen);
			char *name = manifest_name_read(&r);
			if (!r.ok || p->ndirs == 0) {
				free(name);
				r.ok = false;
				break;
			}
			struct pfile *f = add_file(p, (int)di, name);
			free(name);
			f->present = present != 0;
			f->unheld = present == 2;
			f->mode = mode;
			f->mtime = mtime;
			f->seen = seen;
			f->loaded = !f->present || f->unheld; /* contents come from the mirror when needed */
		} else {
			r.ok = false;
		}
	}
	free(text);
	if (!r.ok || !p->root || p->ndirs == 0) {
		protect_free(p);
		return NULL;
	}
	/* The live folders, as they are now (check() repairs them), and
	 * whether anything moved since the manifest was written: metadata
	 * only, so a start where nothing moved reads no contents. */
	for (size_t k = 0; k < p->ndirs; k++) {
		struct pdir *d = &p->dirs[k];
		d->fd = open_live(p, (int)k);
		struct stat now;
		if (d->fd >= 0 && fstat(d->fd, &now) != 0) {
			close(d->fd);
			d->fd = -1;
		}
		if (d->fd < 0 && d->parent < 0 && d->present) {
			protect_free(p); /* the project itself is gone */
			return NULL;
		}
		d->listed = false;
		if ((d->fd >= 0) != d->present) {
			p->moved = true;
		} else if (d->fd >= 0) {
			/* the names in a folder of named files (the project, .git)
			 * change all the time and do not matter; a hooks folder's
			 * do, and a modules folder's (a submodule may have come) */
			if (now.st_ino != d->seen.st_ino || now.st_dev != d->seen.st_dev || now.st_mode != d->mode ||
			    ((d->all || modules_folder(p, (int)k)) &&
			     (!same_time(now.st_mtim, d->seen.st_mtim) || !same_time(now.st_ctim, d->seen.st_ctim))))
				p->moved = true;
			else
				d->listed = d->all;
			d->seen = now;
		}
		if (d->fd < 0 || !d->present)
			continue;
		for (size_t j = 0; j < d->nfiles; j++) {
			struct pfile *f = &d->files[j];
			struct stat st;
			int fr = fstatat(d->fd, f->name, &st, AT_SYMLINK_NOFOLLOW);
			if (f->present ? (fr != 0 || !same_meta(&st, &f->seen)) : fr == 0) {
				p->moved = true;
				if (f->present)
					memset(&f->seen, 0, sizeof f->seen);
			}
		}
	}
	return p;
}

/* Whether two scans hold the same files (names, types, modes, contents). */
static bool same_baseline(struct protect *a, struct protect *b)
{
	if (a->ndirs != b->ndirs)
		return false;
	for (size_t i = 0; i < a->ndirs; i++) {
		struct pdir *x = &a->dirs[i], *y = &b->dirs[i];
		if (strcmp(x->rel, y->rel) != 0 || x->present != y->present || x->all != y->all ||
		    (x->present && x->mode != y->mode) || x->nfiles != y->nfiles)
			return false;
		for (size_t j = 0; j < x->nfiles; j++) {
			struct pfile *f = &x->files[j], *g = NULL;
			for (size_t k = 0; k < y->nfiles && !g; k++)
				if (strcmp(y->files[k].name, f->name) == 0)
					g = &y->files[k];
			if (!g || f->present != g->present || f->unheld != g->unheld)
				return false;
			if (f->unheld && (f->seen.st_size != g->seen.st_size ||
			                  !same_time(f->seen.st_mtim, g->seen.st_mtim)))
				return false;
			if (f->present && (f->mode != g->mode || f->len != g->len ||
			                   (f->len && memcmp(f->data, g->data, f->len) != 0)))
				return false;
		}
	}
	return (a->hooks_rel == NULL) == (b->hooks_rel == NULL) &&
	       (!a->hooks_rel || strcmp(a->hooks_rel, b->hooks_rel) == 0);
}

/* ---- sessions: which process holds a baseline --------------------------- */

/* A session marker is STATE/sessions/<warden pid>, a file the warden holds
 * an flock on for as long as it lives: no contents to write or read, and
 * a killed warden's lock goes with it. */

/* Before the fork: a locked file the warden inherits (the lock belongs to
 * the open file, so it stays with the warden once we close our copy).
 * Returns the fd and the temporary name, or -1. */
static int marker_prepare(const char *state, char **tmp_name)
{
	*tmp_name = xasprintf("%s/sessions/.new.%ld", state, (long)getpid());
	int fd = open(*tmp_name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 && errno == ENOENT) {
		char *dir = xasprintf("%s/sessions", state);
		mkdir(dir, 0700);
		free(dir);
		fd = open(*tmp_name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	}
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		free(*tmp_name);
		*tmp_name = NULL;
	}
	return fd;
}

/* After the fork: the marker takes the warden's name. */
static void marker_publish(const char *state, char *tmp_name, int fd, pid_t pid)
{
	if (fd < 0)
		return;
	char *path = xasprintf("%s/sessions/%ld", state, (long)pid);
	if (rename(tmp_name, path) != 0)
		unlink(tmp_name);
	free(path);
	free(tmp_name);
	close(fd);
}

static void remove_marker(const char *state, pid_t pid)
{
	char *path = xasprintf("%s/sessions/%ld", state, (long)pid);
	unlink(path);
	free(path);
}

/* Session markers: counts those of live wardens and of dead ones (which
 * are removed); live pids go to *live when given. */
static void sessions(const char *state, int *nlive, int *ndead, struct strvec *live)
{
	*nlive = *ndead = 0;
	char *dir = xasprintf("%s/sessions", state);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (e->d_name[0] == '.' || *end || pid <= 0)
			continue;
		int fd = openat(dfd, e->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		bool alive = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
		if (fd >= 0)
			close(fd);
		if (alive) {
			(*nlive)++;
			if (live)
				strvec_push(live, e->d_name);
		} else {
			(*ndead)++;
			unlinkat(dfd, e->d_name, 0);
		}
	}
	closedir(d);
}

/* ---- telling the agent --------------------------------------------------- */

static const char *why_protected(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (strcmp(base, ".agentcommands.json") == 0)
		return "it is sbsh's allow-list";
	if (strcmp(base, ".git") == 0)
		return "git follows it outside the sandbox";
	if (strcmp(base, "config") == 0 || strcmp(base, "attributes") == 0 ||
	    strcmp(base, "commondir") == 0 || strcmp(base, "config.worktree") == 0)
		return "git reads it outside the sandbox";
	if (strstr(path, "hooks/") || strncmp(path, ".git/", 5) == 0 || strstr(path, "/.git/") ||
	    strncmp(path, ".husky/", 7) == 0)
		return "hooks run outside the sandbox";
	/* a protect-path of the config, or a hooks folder of another name */
	return "protected: it runs or is read outside the sandbox";
}

static void print_restored(const char *path, const char *origin)
{
	fprintf(stderr, "sbsh: restored %s (%s; %s)\n", path, origin, why_protected(path));
	fflush(stderr);
}

/* ---- the warden ---------------------------------------------------------- */

struct watch {
	int wd;
	int dir;          /* index of the folder, or of the file's folder */
	bool names_only;  /* a folder of named files: only their names count */
	bool is_file;     /* a named file (its inode, which a rename replaces) */
};

struct warden {
	struct protect *p;
	int fds[2];       /* the shell's and the broker's sockets, -1 once closed */
	int pidfd;        /* headless, no broker: the shell, watched until it exits; else -1 */
	bool no_broker;   /* nobody makes the final check but the warden */
	pid_t shell_pid;
	pid_t origin;     /* the sbsh that forked us: the shell, or the broker; its
	                   * children at the session's end are jobs it left */
	int sigfd;
	int inotify;      /* -1: every check is a full one */
	struct watch *watches;
	size_t nwatches;
};

static void add_watch(struct warden *w, int ifd, const char *path, uint32_t mask, int dir,
                      bool names_only, bool is_file)
{
	int wd = inotify_add_watch(ifd, path, mask);
	if (wd < 0)
		return;
	w->watches = xreallocarray(w->watches, w->nwatches + 1, sizeof *w->watches);
	w->watches[w->nwatches++] =
		(struct watch){.wd = wd, .dir = dir, .names_only = names_only, .is_file = is_file};
}

/* A fresh inotify instance on every protected folder and named file: as
 * long as it stays silent, nothing protected changed and a check costs
 * one read(). Opens count too, so a file opened for writing and changed
 * later through a mapping is compared at the next boundary. */
static int watch_all(struct warden *w)
{
	free(w->watches);
	w->watches = NULL;
	w->nwatches = 0;
	int ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (ifd < 0)
		return -1;
	const uint32_t content = IN_MODIFY | IN_ATTRIB | IN_OPEN | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE |
	                         IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF;
	const uint32_t names = IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
	                       IN_DELETE_SELF | IN_MOVE_SELF;
	/* Each folder is named by its descriptor. Made the working folder for
	 * the moment, it costs a short lookup per watch; a /proc/self/fd/N/
	 * path cost ~15 us per watch here, 18 watches per start. */
	int home = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (home >= 0 && fchdir(home) != 0) { /* the way back must work first */
		close(home);
		home = -1;
	}
	for (size_t i = 0; i < w->p->ndirs; i++) {
		struct pdir *d = &w->p->dirs[i];
		if (d->fd < 0)
			continue;
		char path[64];
		const char *dir = path;
		snprintf(path, sizeof path, "/proc/self/fd/%d", d->fd);
		if (home >= 0 && fchdir(d->fd) == 0)
			dir = ".";
		/* in a modules folder any new name may be a submodule's git dir */
		bool names_only = !d->all && !modules_folder(w->p, (int)i);
		add_watch(w, ifd, dir, d->all ? content : names, (int)i, names_only, false);
		if (d->all)
			continue;
		for (size_t j = 0; j < d->nfiles; j++) {
			char *fp = dir == path ? xasprintf("%s/%s", path, d->files[j].name)
			                       : xstrdup(d->files[j].name);
			add_watch(w, ifd, fp, content | IN_DONT_FOLLOW, (int)i, false, true);
			free(fp);
		}
	}
	if (home >= 0) {
		if (fchdir(home) != 0) {
			/* It worked a moment ago; the shell must not go on in the
			 * wrong folder. */
			fprintf(stderr, "sbsh: cannot return to the working folder: %s\n", strerror(errno));
			_exit(1);
		}
		close(home);
	}
	return ifd;
}

/* Whether anything protected may have moved since the watches were set. */
static bool warden_dirty(struct warden *w)
{
	if (w->inotify < 0)
		return true;
	bool dirty = false;
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	while ((n = read(w->inotify, buf, sizeof buf)) > 0) {
		for (char *at = buf; at < buf + n;) {
			struct inotify_event *e = (struct inotify_event *)at;
			at += sizeof *e + e->len;
			if (e->mask & IN_Q_OVERFLOW) {
				dirty = true;
				continue;
			}
			const struct watch *wt = NULL;
			for (size_t i = 0; i < w->nwatches && !wt; i++)
				if (w->watches[i].wd == e->wd)
					wt = &w->watches[i];
			if (!wt)
				continue;
			/* in a folder of named files (the project folder) only
			 * those names matter, not the agent's own files */
			if (wt->names_only && e->len && !known_name(w->p, wt->dir, e->name))
				continue;
			dirty = true;
		}
	}
	return dirty;
}

static void reply(int fd, const struct strvec *restored)
{
	struct broker_frame f;
	f.magic = BROKER_MAGIC;
	f.type = BROKER_RESTORED;
	f.value = (int32_t)restored->len;
	size_t off = 0;
	for (size_t i = 0; i < restored->len; i++) {
		size_t n = strlen(restored->items[i]) + 1;
		if (off + n > BROKER_PAYLOAD_MAX)
			break;
		memcpy(f.payload + off, restored->items[i], n);
		off += n;
	}
	f.len = (uint32_t)off;
	ssize_t ignored = send(fd, &f, BROKER_HEADER_SIZE + off, MSG_NOSIGNAL);
	(void)ignored;
}

static int lock_state(const char *state);

/* The next session starts from the grown set, not from a scan that would
 * take what is in the new modules for a human's. Under the state lock,
 * which a starting session holds while it reads the baseline. */
static void save_grown(struct protect *p)
{
	int lock = lock_state(p->state);
	if (lock < 0)
		return;
	if (need_all_data(p))
		write_mirror(p);
	close(lock);
}

static void warden_check(struct warden *w, struct strvec *restored, const char *origin)
{
	if (!warden_dirty(w))
		return;
	/* watch first, then compare: a change during the comparison is
	 * caught next time */
	int fresh = watch_all(w);
	check(w->p, restored);
	if (w->inotify >= 0)
		close(w->inotify);
	w->inotify = fresh;
	if (w->p->grown) {
		/* the watches were set before the new modules joined: the
		 * next check is a full one, and sets them anew */
		if (w->inotify >= 0)
			close(w->inotify);
		w->inotify = -1;
		save_grown(w->p);
	}
	for (size_t i = 0; i < restored->len; i++)
		events_restore(w->p->ev, restored->items[i], origin);
}

/* The baseline was accepted anew (`sbsh --protect accept`): take it. */
static void warden_reload(struct warden *w)
{
	struct protect *fresh = load_mirror(w->p->state);
	if (!fresh)
		return;
	fresh->ev = w->p->ev;
	protect_free(w->p);
	w->p = fresh;
	if (w->inotify >= 0)
		close(w->inotify);
	w->inotify = -1;
	struct strvec restored;
	strvec_init(&restored);
	warden_check(w, &restored, "accepted baseline");
	strvec_free(&restored);
}

/* The session's last checks, when nobody waits for an answer: what the
 * last command (exec'd by the shell, or run by a job it left) changed. */
static void warden_final(struct warden *w, const char *message)
{
	struct strvec restored;
	strvec_init(&restored);
	warden_check(w, &restored, "session end");
	for (size_t i = 0; i < restored.len; i++)
		print_restored(restored.items[i], message);
	strvec_free(&restored);
}

/* The shell closed its socket: exiting (its last line was checked just
 * before), or exec'ing its last command, which must run first. An exiting
 * process has already dropped its memory, so /proc/PID/exe is gone; after
 * an exec it names the new program. */
static bool shell_exiting(struct warden *w)
{
	struct pollfd pfd = {.fd = w->pidfd, .events = POLLIN};
	if (poll(&pfd, 1, 0) > 0)
		return true;
	char path[64], target[16];
	snprintf(path, sizeof path, "/proc/%ld/exe", (long)w->shell_pid);
	return readlink(path, target, sizeof target) < 0;
}

/* A signal the warden takes: SIGUSR1, the baseline was accepted anew;
 * SIGTERM, stop (returns false). */
static bool warden_signal(struct warden *w)
{
	struct signalfd_siginfo si;
	if (read(w->sigfd, &si, sizeof si) != (ssize_t)sizeof si)
		return true;
	if (si.ssi_signo == SIGTERM)
		return false;
	warden_reload(w);
	return true;
}

/* ---- after the session: the jobs it left ------------------------------- */

#define PROTECT_JOBS_MAX 1024

struct jobs {
	pid_t pid[PROTECT_JOBS_MAX];
	int fd[PROTECT_JOBS_MAX]; /* pidfds: a pid reused later is not ours */
	size_t n;
};

static bool jobs_has(const struct jobs *j, pid_t pid)
{
	for (size_t i = 0; i < j->n; i++)
		if (j->pid[i] == pid)
			return true;
	return false;
}

/* Adds the children thread tid of process pid started (as /proc lists
 * them now) but skip. */
/* The pids of a thread's children, as the kernel lists them ("12 34 "),
 * NUL-terminated in buf (size - 1 bytes at most: size - 1 may mean more).
 * Returns the length, or -1 when the kernel cannot tell. */
static ssize_t read_children(pid_t pid, pid_t tid, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", (long)pid, (long)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static void jobs_add_thread_children(struct jobs *j, pid_t pid, pid_t tid, pid_t skip)
{
	char buf[4096];
	if (read_children(pid, tid, buf, sizeof buf) <= 0)
		return;
	for (char *s = buf, *end; *s && j->n < PROTECT_JOBS_MAX; s = end) {
		long child = strtol(s, &end, 10);
		if (end == s)
			break;
		if (child <= 0 || child == skip || jobs_has(j, (pid_t)child))
			continue;
		int pfd = (int)syscall(SYS_pidfd_open, (pid_t)child, 0);
		if (pfd < 0)
			continue;
		j->pid[j->n] = (pid_t)child;
		j->fd[j->n++] = pfd;
	}
}

/* Adds parent's children but skip: those of its every thread (a job that
 * is a threaded program may start processes from any of them). */
static void jobs_add_children(struct jobs *j, pid_t parent, pid_t skip)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/task", (long)parent);
	DIR *dir = opendir(path);
	if (!dir) {
		jobs_add_thread_children(j, parent, parent, skip);
		return;
	}
	struct dirent *e;
	while ((e = readdir(dir))) {
		long tid = strtol(e->d_name, NULL, 10);
		if (tid > 0)
			jobs_add_thread_children(j, parent, (pid_t)tid, skip);
	}
	closedir(dir);
}

/* Drops the jobs that have exited; the children of those still running
 * join first (an exited job's children are no longer found below it). */
static void jobs_refresh(struct jobs *j)
{
	for (size_t i = 0; i < j->n; i++)
		jobs_add_children(j, j->pid[i], getpid());
	size_t k = 0;
	for (size_t i = 0; i < j->n; i++) {
		struct pollfd pfd = {.fd = j->fd[i], .events = POLLIN};
		if (poll(&pfd, 1, 0) > 0) {
			close(j->fd[i]);
			continue;
		}
		j->pid[k] = j->pid[i];
		j->fd[k++] = j->fd[i];
	}
	j->n = k;
}

/* The session is over but jobs it left still run (`cmd &`): what changes
 * now is still the sandbox's, not the human's. The warden stays, keeps
 * putting changes back as they come, and keeps the session's marker, so a
 * session started meanwhile takes what differs for this one's. It leaves
 * when the last job (or a child it started) has exited. A job that
 * detached itself during the session is found too: the shell (headless)
 * or the broker adopts orphans. */
static _Noreturn void warden_linger(struct warden *w, struct jobs *j)
{
	for (int i = 0; i < 2; i++)
		if (w->fds[i] >= 0) {
			close(w->fds[i]);
			w->fds[i] = -1;
		}
	/* Whoever reads sbsh's stderr through a pipe waits for every writer
	 * to close it: an agent tool would wait for the job. A terminal stays,
	 * to show what is put back. */
	if (!isatty(2)) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, 2);
			close(null);
		}
	}
	const char *why = "changed by a job the session left running";
	struct strvec restored;
	strvec_init(&restored);
	while (j->n > 0) {
		struct pollfd pfd[2 + PROTECT_JOBS_MAX];
		nfds_t n = 0;
		int ino_i = -1, sig_i = -1;
		if (w->inotify >= 0) {
			ino_i = (int)n;
			pfd[n++] = (struct pollfd){.fd = w->inotify, .events = POLLIN};
		}
		if (w->sigfd >= 0) {
			sig_i = (int)n;
			pfd[n++] = (struct pollfd){.fd = w->sigfd, .events = POLLIN};
		}
		for (size_t i = 0; i < j->n; i++)
			pfd[n++] = (struct pollfd){.fd = j->fd[i], .events = POLLIN};
		/* children a job starts are looked for once a second */
		int r = poll(pfd, n, w->inotify >= 0 ? 1000 : 200);
		if (r < 0 && errno != EINTR)
			break;
		if (sig_i >= 0 && (pfd[sig_i].revents & POLLIN) && !warden_signal(w))
			break;
		if (ino_i < 0 || (pfd[ino_i].revents & POLLIN)) {
			strvec_free(&restored);
			warden_check(w, &restored, "after the session");
			for (size_t i = 0; i < restored.len; i++)
				print_restored(restored.items[i], why);
		}
		jobs_refresh(j);
	}
	warden_final(w, why);
	strvec_free(&restored);
	remove_marker(w->p->state, getpid());
	_exit(0);
}

static _Noreturn void warden_main(struct warden *w)
{
	/* Its own session, unless the parent made it a group leader first
	 * (then it stays in the caller's session, in a group of its own). */
	setsid();
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		close(null);
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTTOU, SIG_IGN); /* saying what it restored, from a background group */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	w->sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	/* each protected folder is an open descriptor, and submodules may
	 * add folders (dirs_budget) */
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	struct strvec restored;
	strvec_init(&restored);
	bool clients_gone = false;
	while (w->fds[0] >= 0 || w->fds[1] >= 0 || w->pidfd >= 0) {
		if (!clients_gone && w->fds[0] < 0 && w->fds[1] < 0) {
			/* The shell closed its end: it exited, or exec'd its last
			 * command (the socket is close-on-exec). Check now, and once
			 * more when a still running shell has exited. */
			clients_gone = true;
			if (w->pidfd >= 0 && !shell_exiting(w))
				continue; /* checked when it has exited */
			if (w->pidfd >= 0) {
				close(w->pidfd);
				w->pidfd = -1;
			}
			if (!w->no_broker) {
				/* the broker never asked: killed along with the shell */
				if (w->inotify >= 0)
					close(w->inotify);
				w->inotify = -1;
			}
			warden_final(w, w->no_broker ? "changed by the last command"
			                             : "changed by a session that ended before it could check");
			continue;
		}
		struct pollfd pfd[4];
		int n = 0, map[4];
		for (int i = 0; i < 2; i++) {
			if (w->fds[i] >= 0) {
				map[n] = i;
				pfd[n++] = (struct pollfd){.fd = w->fds[i], .events = POLLIN};
			}
		}
		int sig_i = -1, pid_i = -1;
		if (w->sigfd >= 0) {
			sig_i = n;
			map[n] = -1;
			pfd[n++] = (struct pollfd){.fd = w->sigfd, .events = POLLIN};
		}
		if (w->pidfd >= 0) {
			pid_i = n;
			map[n] = -1;
			pfd[n++] = (struct pollfd){.fd = w->pidfd, .events = POLLIN};
		}
		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (sig_i >= 0 && (pfd[sig_i].revents & POLLIN) && !warden_signal(w))
			break;
		/* What the shell sent comes before its exit: a QUIET end read
		 * after the exit's check would have checked what may already be
		 * the human's. */
		for (int k = 0; k < n; k++) {
			if (k == sig_i || k == pid_i || !(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			int *fd = &w->fds[map[k]];
			struct broker_frame f;
			ssize_t got = recv(*fd, &f, sizeof f, MSG_DONTWAIT);
			if (got < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (got <= 0) {
				close(*fd);
				*fd = -1;
				continue;
			}
			if (broker_frame_check(&f, (size_t)got) != 0 || f.type != BROKER_CHECK)
				continue;
			strvec_free(&restored);
			/* QUIET: the shell's watches saw nothing, and the shell is
			 * trusted as it is for a final answer (it could change a
			 * file after one). What this warden's watches hold now may
			 * already be the human's, after the shell exited. */
			if (f.value != BROKER_CHECK_QUIET)
				warden_check(w, &restored, f.value ? "session end" : "command");
			/* Jobs the session leaves are found while their parent (the
			 * shell, or the broker that adopted them) still waits for
			 * this answer: one read when there are none. */
			static struct jobs left;
			if (f.value) /* sbsh has one thread */
				jobs_add_thread_children(&left, w->origin, w->origin, getpid());
			if (f.value && left.n > 0) {
				reply(*fd, &restored);
				warden_linger(w, &left);
			}
			if (f.value) {
				/* The broker saw the shell exit and waits for this answer
				 * before it exits: the session is over. Staying would race
				 * the human, whose changes from now on are theirs. */
				remove_marker(w->p->state, getpid());
				reply(*fd, &restored);
				/* Headless, the asker is the shell itself: outlive it,
				 * so the inotify instance it shares with us (its watches)
				 * is destroyed here, not in its exit, where the SRCU
				 * grace period that costs (~10 ms) would hold up whoever
				 * waits for the shell. */
				if (w->pidfd >= 0) {
					struct pollfd gone = {.fd = w->pidfd, .events = POLLIN};
					while (poll(&gone, 1, 2000) < 0 && errno == EINTR)
						continue;
				}
				_exit(0);
			}
			reply(*fd, &restored);
		}
		if (pid_i >= 0 && (pfd[pid_i].revents & (POLLIN | POLLHUP | POLLERR))) {
			/* The shell (or what it exec'd) has exited without a last
			 * check. Jobs it left may still hold its socket: they are
			 * checked when they close it. */
			close(w->pidfd);
			w->pidfd = -1;
			warden_final(w, "changed by the last command");
		}
	}
	/* Everybody who could ask is gone (exited, or killed with the whole
	 * process group): one last check, told on stderr when it finds anything. */
	strvec_free(&restored);
	if (!clients_gone) {
		if (w->inotify >= 0)
			close(w->inotify);
		w->inotify = -1; /* the last check is a full one */
		warden_check(w, &restored, "after the session");
		for (size_t i = 0; i < restored.len; i++)
			print_restored(restored.items[i], "changed by a session that ended before it could check");
		strvec_free(&restored);
	}
	remove_marker(w->p->state, getpid());
	_exit(0);
}

/* ---- the clients --------------------------------------------------------- */

struct protect_watch {
	int wd;
	bool names_only;
	bool is_file;
	char **names;     /* names_only: the protected names in that folder */
};

/* The shell's own copy of the warden's watches, taken before confinement
 * (inotify needs no write access, and the instance is the shell's alone). */
static void client_watch(struct protect_client *c, struct protect *p)
{
	struct warden tmp = {.p = p};
	int ifd = watch_all(&tmp);
	if (ifd < 0) {
		free(tmp.watches);
		return;
	}
	c->watches = xcalloc(tmp.nwatches ? tmp.nwatches : 1, sizeof *c->watches);
	for (size_t i = 0; i < tmp.nwatches; i++) {
		const struct watch *w = &tmp.watches[i];
		struct protect_watch *cw = &c->watches[i];
		*cw = (struct protect_watch){.wd = w->wd, .names_only = w->names_only, .is_file = w->is_file};
		if (!w->names_only)
			continue;
		struct strvec names;
		strvec_init(&names);
		const struct pdir *d = &p->dirs[w->dir];
		for (size_t j = 0; j < d->nfiles; j++)
			strvec_push(&names, d->files[j].name);
		for (size_t j = 0; j < p->ndirs; j++)
			if (p->dirs[j].parent == w->dir)
				strvec_push(&names, p->dirs[j].name);
		cw->names = strvec_detach(&names);
	}
	c->nwatches = tmp.nwatches;
	c->inotify = ifd;
	free(tmp.watches);
}

static void client_unwatch(struct protect_client *c)
{
	if (c->inotify >= 0)
		close(c->inotify);
	c->inotify = -1;
	for (size_t i = 0; i < c->nwatches; i++)
		if (c->watches[i].names)
			strv_free(c->watches[i].names);
	free(c->watches);
	c->watches = NULL;
	c->nwatches = 0;
}

static bool client_knows(const struct protect_watch *w, const char *name)
{
	for (char **n = w->names; n && *n; n++)
		if (strcmp(*n, name) == 0)
			return true;
	return false;
}

/* Whether the last line may have touched a protected file. *stale: the
 * watches may no longer cover them (a watched file or folder was renamed,
 * removed or replaced, or events were lost), so stop trusting them. */
static bool client_dirty(struct protect_client *c, bool *stale)
{
	bool dirty = false;
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	while ((n = read(c->inotify, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
		for (char *at = buf; n > 0 && at < buf + n;) {
			struct inotify_event *e = (struct inotify_event *)at;
			at += sizeof *e + e->len;
			if (e->mask & IN_Q_OVERFLOW) {
				dirty = *stale = true;
				continue;
			}
			const struct protect_watch *w = NULL;
			for (size_t i = 0; i < c->nwatches && !w; i++)
				if (c->watches[i].wd == e->wd)
					w = &c->watches[i];
			if (!w)
				continue;
			if (w->names_only && e->len && !client_knows(w, e->name))
				continue;
			dirty = true;
			if (e->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT))
				*stale = true;
			/* a name in a watched folder added, replaced or removed: a
			 * protected file's watch is gone, or a submodule's git dir
			 * came that no watch covers */
			if (!w->is_file && (e->mask & (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)))
				*stale = true;
		}
	}
	return dirty;
}

/* Sends a CHECK of that kind, answered or not. */
static int send_check(int fd, enum broker_check_kind kind)
{
	struct broker_frame f;
	memset(&f, 0, BROKER_HEADER_SIZE);
	f.magic = BROKER_MAGIC;
	f.type = BROKER_CHECK;
	f.value = kind;
	f.len = 0;
	ssize_t sent;
	do
		sent = send(fd, &f, BROKER_HEADER_SIZE, MSG_NOSIGNAL);
	while (sent < 0 && errno == EINTR);
	return sent < 0 ? -1 : 0;
}

/* Sends CHECK and collects the restored paths. Returns -1 when the warden
 * is gone. */
static int ask_check(int fd, enum broker_check_kind kind, struct strvec *out)
{
	struct broker_frame f;
	if (send_check(fd, kind) != 0)
		return -1;
	while (1) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int r = poll(&pfd, 1, 10000);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		ssize_t n = recv(fd, &f, sizeof f, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || broker_frame_check(&f, (size_t)n) != 0)
			return -1;
		if (f.type != BROKER_RESTORED)
			continue;
		size_t off = 0;
		while (off < f.len) {
			const char *end = memchr(f.payload + off, '\0', f.len - off);
			if (!end)
				break;
			strvec_push(out, f.payload + off);
			off = (size_t)(end - f.payload) + 1;
		}
		if (f.value > (int32_t)out->len)
			strvec_push_owned(out, xasprintf("(%ld more)", (long)f.value - (long)out->len));
		return 0;
	}
}

void protect_client_settle(struct protect_client *c)
{
	if (!c || c->inotify < 0)
		return;
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	while ((n = read(c->inotify, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		continue;
}

void protect_line_end(struct protect_client *c)
{
	if (!c || c->fd < 0 || getpid() != c->pid)
		return;
	bool stale = false;
	if (c->inotify >= 0 && !client_dirty(c, &stale))
		return;
	struct strvec restored;
	strvec_init(&restored);
	if (ask_check(c->fd, BROKER_CHECK_LINE, &restored) != 0) {
		fprintf(stderr, "sbsh: the protection warden is gone: protected files are no longer checked\n");
		close(c->fd);
		c->fd = -1;
	}
	/* a restore writes new files: the watches saw the old ones */
	if (stale || restored.len)
		client_unwatch(c);
	for (size_t i = 0; i < restored.len; i++)
		print_restored(restored.items[i], "changed by the last command");
	strvec_free(&restored);
}

void protect_final_check(int fd)
{
	if (fd < 0)
		return;
	struct strvec restored;
	strvec_init(&restored);
	if (ask_check(fd, BROKER_CHECK_FINAL, &restored) == 0)
		for (size_t i = 0; i < restored.len; i++)
			print_restored(restored.items[i], "changed by the last command");
	strvec_free(&restored);
}

/* Whether this process (one thread) has a child but the warden, running
 * or not yet waited for; true when the kernel cannot tell. */
static bool leaves_children(pid_t warden)
{
	char buf[256];
	ssize_t n = read_children(getpid(), getpid(), buf, sizeof buf);
	if (n < 0 || (size_t)n >= sizeof buf - 1)
		return true;
	for (char *s = buf, *end;; s = end) {
		long child = strtol(s, &end, 10);
		if (end == s)
			return false;
		if (child != warden)
			return true;
	}
}

void protect_session_end(struct protect_client *c)
{
	if (!c || c->fd < 0 || getpid() != c->pid)
		return;
	/* What changes once the shell has exited is the human's, so the
	 * warden's last check must be over before that: a round trip (~250 us,
	 * two wake-ups). Not needed when the shell's watches saw nothing since
	 * the last check and no child is left (jobs are found while the shell
	 * still waits): the warden then just ends the session, taking the
	 * shell's word as it does after a final answer. */
	bool stale = false;
	if (c->inotify >= 0 && !leaves_children(c->warden) && !client_dirty(c, &stale) && !stale)
		send_check(c->fd, BROKER_CHECK_QUIET);
	else
		protect_final_check(c->fd);
	client_unwatch(c);
	close(c->fd);
	c->fd = -1;
}

/* ---- startup ------------------------------------------------------------- */

static int lock_state(const char *state)
{
	char *path = xasprintf("%s/lock", state);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	free(path);
	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* GIT_CONFIG_KEY_n / VALUE_n after any the caller already set. */
static void git_env(struct protect *p, struct strvec *env)
{
	const char *count = getenv("GIT_CONFIG_COUNT");
	char *end;
	long n = count && *count ? strtol(count, &end, 10) : 0;
	if (n < 0 || n > 1000 || (count && *count && *end))
		n = 0;
	if (p->hooks_rel) {
		char *tree = xasprintf("%s/baseline/tree", p->state);
		char *hooks = mirror_path(tree, p->hooks_rel);
		strvec_push_owned(env, xasprintf("GIT_CONFIG_KEY_%ld=core.hooksPath", n));
		strvec_push_owned(env, xasprintf("GIT_CONFIG_VALUE_%ld=%s", n, hooks));
		n++;
		free(hooks);
		free(tree);
	}
	strvec_push_owned(env, xasprintf("GIT_CONFIG_KEY_%ld=core.fsmonitor", n));
	strvec_push_owned(env, xasprintf("GIT_CONFIG_VALUE_%ld=false", n));
	n++;
	strvec_push_owned(env, xasprintf("GIT_CONFIG_COUNT=%ld", n));
}

/* The state folder's lock; the folder is made only the first time. */
static int open_state(const char *state)
{
	int fd = lock_state(state);
	if (fd < 0 && errno == ENOENT && mkdir_p(state, 0700) == 0)
		fd = lock_state(state);
	return fd;
}

int protect_start(struct events *ev, bool broker, char *const *extra, struct protect_start_result *out)
{
	memset(out, 0, sizeof *out);
	out->shell.fd = -1;
	out->shell.inotify = -1;
	out->broker_fd = -1;
	strvec_init(&out->env);
	struct protect *live = discover(extra);
	if (!live)
		return -1;
	char *state = state_dir_for(live->root);
	/* Inside another sbsh's sandbox the state folder is read-only: the
	 * outer session protects the project. */
	int lock = state ? open_state(state) : -1;
	if (lock < 0) {
		free(state);
		protect_free(live);
		return -1;
	}
	live->state = state;
	/* always: a dead session's marker must not outlive the start that
	 * found nothing of its to restore */
	int nlive, ndead;
	sessions(state, &nlive, &ndead, NULL);
	struct protect *saved = load_mirror(state);
	struct protect *base;
	if (saved && !saved->moved) {
		/* The usual start: every protected file has the metadata it had
		 * when last found equal to the baseline. Nothing to read. */
		base = saved;
		protect_free(live);
	} else {
		if (saved && (nlive || ndead) && need_all_data(saved)) {
			/* A session still running, or one that died before it could
			 * check: what differs from the baseline is theirs, not a human's. */
			base = saved;
			struct strvec restored;
			strvec_init(&restored);
			check(base, &restored);
			const char *origin = ndead ? "changed by an earlier sbsh session that did not finish"
			                           : "changed inside another running sbsh session";
			for (size_t i = 0; i < restored.len; i++) {
				print_restored(restored.items[i], origin);
				events_restore(ev, restored.items[i], "earlier session");
			}
			strvec_free(&restored);
			if (base->grown)
				write_mirror(base); /* submodules it added joined the set */
			protect_free(live);
		} else {
			/* No session ran since the last one ended: the files as they
			 * are are the human's, and the new baseline. */
			scan(live);
			if (!saved || !need_all_data(saved) || !same_baseline(live, saved))
				write_mirror(live);
			else
				write_manifest(live); /* same contents, new metadata */
			protect_free(saved);
			base = live;
		}
	}
	base->ev = ev;
	state = NULL; /* freed with whichever set was not kept */
	int shell_sv[2], broker_sv[2] = {-1, -1};
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, shell_sv) != 0) {
		close(lock);
		protect_free(base);
		return -1;
	}
	if (broker && socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, broker_sv) != 0) {
		close(shell_sv[0]);
		close(shell_sv[1]);
		close(lock);
		protect_free(base);
		return -1;
	}
	/* The warden sets its own watches at its first check, which (with none
	 * yet) is a full comparison with the baseline, so nothing done before
	 * them is missed. Most sessions never ask for one: the shell's own
	 * watches, set before anything runs, end them QUIET. (Setting them
	 * here cost every start ~40 us, and the warden a second instance.) */
	struct warden w = {.p = base, .fds = {shell_sv[0], broker_sv[0]}, .pidfd = -1, .sigfd = -1,
	                   .inotify = -1, .no_broker = !broker};
	w.origin = getpid();
	char *marker_tmp = NULL;
	int marker = marker_prepare(base->state, &marker_tmp);
	fflush(stderr);
	pid_t shell_pid = getpid();
	/* The shell's own watches, made before the fork so that the warden
	 * holds them too (see the session's last check). */
	client_watch(&out->shell, base);
	pid_t pid = fork();
	if (pid == 0) {
		close(lock);
		close(shell_sv[1]);
		if (broker_sv[1] >= 0)
			close(broker_sv[1]);
		/* marker stays open: its lock says this warden is alive */
		if (!broker) {
			w.shell_pid = shell_pid;
			w.pidfd = (int)syscall(SYS_pidfd_open, shell_pid, 0);
			if (w.pidfd >= 0 && getppid() != shell_pid) {
				close(w.pidfd); /* the shell is already gone */
				w.pidfd = -1;
			}
		}
		warden_main(&w);
	}
	/* Out of our process group at once, not only when the warden gets to
	 * its setsid(): a kill of the whole group (an agent tool's timeout)
	 * right after the start must not take the warden with it. */
	if (pid > 0)
		setpgid(pid, pid);
	if (w.inotify >= 0)
		close(w.inotify);
	free(w.watches);
	close(shell_sv[0]);
	if (broker_sv[0] >= 0)
		close(broker_sv[0]);
	if (pid < 0) {
		client_unwatch(&out->shell);
		close(shell_sv[1]);
		if (broker_sv[1] >= 0)
			close(broker_sv[1]);
		if (marker >= 0) {
			unlink(marker_tmp);
			free(marker_tmp);
			close(marker);
		}
		close(lock);
		protect_free(base);
		return -1;
	}
	marker_publish(base->state, marker_tmp, marker, pid);
	close(lock); /* releases the lock */
	out->shell.fd = shell_sv[1];
	out->shell.pid = shell_pid;
	out->shell.warden = pid;
	out->broker_fd = broker_sv[1];
	out->root = xstrdup(base->root);
	git_env(base, &out->env);
	protect_free(base); /* the warden has it; the shell must not hold its folders */
	return 0;
}

int protect_main(int argc, char **argv, int i, char *const *extra)
{
	const char *what = i + 1 < argc ? argv[i + 1] : "";
	if (strcmp(what, "accept") != 0 && strcmp(what, "status") != 0) {
		fprintf(stderr, "sbsh: usage: sbsh --protect accept|status\n");
		return 2;
	}
	struct protect *live = discover(extra);
	if (!live) {
		fprintf(stderr, "sbsh: --protect: nothing to protect here (no git work tree, no .agentcommands.json)\n");
		return 1;
	}
	char *state = state_dir_for(live->root);
	if (strcmp(what, "status") == 0) {
		int nlive = 0, ndead = 0;
		if (state)
			sessions(state, &nlive, &ndead, NULL);
		printf("project: %s\nbaseline: %s/baseline\nsessions running: %d\n", live->root,
		       state ? state : "(no state folder)", nlive);
		free(state);
		protect_free(live);
		return 0;
	}
	int lock = state ? open_state(state) : -1;
	if (lock < 0) {
		fprintf(stderr, "sbsh: --protect accept: cannot write %s: %s (run it outside the sandbox)\n",
		        state ? state : "the state folder", strerror(errno));
		free(state);
		protect_free(live);
		return 1;
	}
	live->state = state;
	scan(live);
	int rc = write_mirror(live);
	if (rc == 0) {
		struct strvec pids;
		strvec_init(&pids);
		int nlive, ndead;
		sessions(state, &nlive, &ndead, &pids);
		for (size_t k = 0; k < pids.len; k++)
			kill((pid_t)strtol(pids.items[k], NULL, 10), SIGUSR1);
		strvec_free(&pids);
		printf("sbsh: the protected files of %s are the new baseline\n", live->root);
	} else {
		fprintf(stderr, "sbsh: --protect accept: cannot write the baseline under %s (run it outside the sandbox)\n",
		        state);
	}
	close(lock);
	protect_free(live);
	return rc == 0 ? 0 : 1;
}
