/* The protected-file baseline: the protected set, finding it, scanning,
 * comparing and putting back, its persistence and the session markers.
 * Everything here runs outside the sandbox: in the startup process before
 * confinement, in the warden, or in `sbsh --protect`. */
#include "trusted/baseline.h"
#include "lib/gitconfig.h"
#include "trusted/warden_proto.h"
#include "sandbox/sandbox.h"

#include <ctype.h>
#include <dirent.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROTECT_FILE_MAX (16u << 20) /* bigger files are not hooks or configs */
#define PROTECT_DEPTH 8
#define PROTECT_MODULES_DEPTH 32 /* folders in a submodule's name ("a/b/c") */
#define PROTECT_DIRS_MAX 16384     /* folders in the set, each an open descriptor */

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

/* A listing of folder fd from its first entry, through a duplicate (fd
 * itself stays open); NULL when it cannot be read. */
static DIR *list_dir(int fd)
{
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *dir = dup >= 0 ? fdopendir(dup) : NULL;
	if (!dir) {
		if (dup >= 0)
			close(dup);
		return NULL;
	}
	rewinddir(dir); /* the duplicate shares the offset of the last listing */
	return dir;
}

/* The next entry of dir but "." and "..", or NULL after the last. */
static struct dirent *next_entry(DIR *dir)
{
	struct dirent *e;
	while ((e = readdir(dir)) && (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0))
		continue;
	return e;
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
	while ((e = next_entry(dir)))
		remove_at(dirfd(dir), e->d_name, depth + 1);
	closedir(dir);
	unlinkat(at, name, AT_REMOVEDIR);
}

static int mkdir_p(const char *path, mode_t mode);

/* ---- the quarantine ------------------------------------------------------ */

/* Nothing a restore takes away is deleted: it may be the human's (a folder
 * moved over a hook's name, a .git moved aside). It goes to
 * STATE/quarantine/SESSION/N-NAME, under the state folder the sandbox
 * cannot write (so nothing can be planted there for the human to copy
 * back), and STATE/quarantine/SESSION/index says what it was, where, and
 * when, for `sbsh --protect status`. */

/* Copies NAME below sfd to DNAME below dfd, never following a link, for
 * a quarantine on another file system. Returns 0 or -1. */
static int copy_at(int sfd, const char *name, int dfd, const char *dname, int depth)
{
	struct stat st;
	if (depth > 32 || fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if (S_ISLNK(st.st_mode)) {
		char buf[PATH_MAX];
		ssize_t n = readlinkat(sfd, name, buf, sizeof buf - 1);
		if (n < 0)
			return -1;
		buf[n] = '\0';
		return symlinkat(buf, dfd, dname);
	}
	if (S_ISDIR(st.st_mode)) {
		int sub = openat(sfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || mkdirat(dfd, dname, 0700) != 0) {
			if (sub >= 0)
				close(sub);
			return -1;
		}
		int dsub = openat(dfd, dname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		DIR *dir = dsub >= 0 ? fdopendir(sub) : NULL;
		if (!dir) {
			close(sub);
			if (dsub >= 0)
				close(dsub);
			return -1;
		}
		int rc = 0;
		struct dirent *e;
		while (rc == 0 && (e = next_entry(dir)))
			rc = copy_at(dirfd(dir), e->d_name, dsub, e->d_name, depth + 1);
		closedir(dir);
		fchmod(dsub, st.st_mode & 07777);
		close(dsub);
		return rc;
	}
	if (!S_ISREG(st.st_mode))
		return 0; /* a fifo or a socket holds nothing to keep */
	int in = openat(sfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	int out = in >= 0 ? openat(dfd, dname, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600) : -1;
	bool ok = out >= 0;
	char buf[65536];
	ssize_t n;
	while (ok && (n = read(in, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		ok = n > 0 && util_write_all(out, buf, (size_t)n);
	}
	if (ok)
		ok = fchmod(out, st.st_mode & 0777) == 0;
	if (out >= 0 && close(out) != 0)
		ok = false;
	if (in >= 0)
		close(in);
	return ok ? 0 : -1;
}

/* What an entry was, in a few words, for the index. */
static char *describe_entry(int dirfd, const char *name, const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return xstrdup("folder");
	if (S_ISLNK(st->st_mode)) {
		char buf[PATH_MAX];
		ssize_t n = readlinkat(dirfd, name, buf, sizeof buf - 1);
		buf[n > 0 ? n : 0] = '\0';
		return xasprintf("symlink to %s", buf);
	}
	if (S_ISREG(st->st_mode))
		return xasprintf("file of %lld bytes, mode %03o", (long long)st->st_size, (unsigned)(st->st_mode & 0777));
	return xstrdup("special file");
}

/* The session's quarantine folder, made the first time; -1 without one. */
static int quarantine_fd(struct protect *p)
{
	if (p->qfd >= 0)
		return p->qfd;
	if (!p->state)
		return -1;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	if (!gmtime_r(&now, &tm) || strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%lld", (long long)now);
	free(p->qdir);
	p->qdir = xasprintf("%s/quarantine/%s-%ld", p->state, stamp, (long)getpid());
	if (mkdir_p(p->qdir, 0700) == 0)
		p->qfd = open(p->qdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return p->qfd;
}

/* Moves NAME below dirfd (rel, in the project) to the quarantine: a
 * rename on the same file system, else a copy and then the removal.
 * Returns 0 with *where set (or NULL when there was nothing), -1 when it
 * could not be kept: then it is left as it is, never deleted. */
static int quarantine_at(struct protect *p, int dirfd, const char *name, const char *rel, char **where)
{
	*where = NULL;
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0 : -1;
	int qfd = quarantine_fd(p);
	if (qfd < 0)
		return -1;
	char *what = describe_entry(dirfd, name, &st);
	char *item = xasprintf("%u-%.200s", p->counter++, name);
	/* A file is copied and then unlinked, not renamed: a command of the
	 * sandbox opening it at that moment would otherwise resolve it inside
	 * the quarantine, outside its writable folders, and fail with EACCES.
	 * A folder (the human's data, possibly large) is renamed. */
	int rc;
	if (S_ISDIR(st.st_mode)) {
		rc = renameat(dirfd, name, qfd, item);
	} else {
		rc = copy_at(dirfd, name, qfd, item, 0);
		if (rc == 0 && unlinkat(dirfd, name, 0) != 0 && errno != ENOENT)
			rc = -1;
		if (rc != 0) {
			int saved = errno;
			unlinkat(qfd, item, 0);
			errno = saved;
		}
	}
	if (rc != 0 && errno == ENOENT) {
		/* gone meanwhile (another session's warden took it): nothing to keep */
		free(item);
		free(what);
		return 0;
	}
	if (rc != 0 && errno == EXDEV) {
		rc = copy_at(dirfd, name, qfd, item, 0);
		if (rc == 0) {
			remove_at(dirfd, name, 0);
			struct stat left;
			if (fstatat(dirfd, name, &left, AT_SYMLINK_NOFOLLOW) == 0)
				rc = -1; /* kept in both places: say the restore failed */
		} else {
			int saved = errno;
			remove_at(qfd, item, 0);
			errno = saved;
		}
	}
	if (rc == 0 || fstatat(qfd, item, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		struct strbuf line;
		strbuf_init(&line);
		strbuf_addf(&line, "%s\t%lld\t%s\t%s\n", item, (long long)time(NULL), what, rel);
		int ifd = openat(qfd, "index", O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (ifd >= 0) {
			util_write_all(ifd, line.data, line.len);
			close(ifd);
		}
		strbuf_free(&line);
	}
	if (rc == 0)
		*where = xasprintf("%s/%s", p->qdir, item);
	free(item);
	free(what);
	return rc;
}

/* ---- the protected set --------------------------------------------------- */

static struct protect *protect_new(void)
{
	struct protect *p = xcalloc(1, sizeof *p);
	p->qfd = -1;
	return p;
}

void protect_free(struct protect *p)
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
	if (p->qfd >= 0)
		close(p->qfd);
	free(p->qdir);
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
bool protect_modules_folder(struct protect *p, int di)
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

/* core.hooksPath as git takes it (the last one), or NULL. */
static char *config_hooks_path(const char *text, size_t len)
{
	/* A variable's name is written out in full (letters, digits and '-',
	 * no escapes): a config that never spells it sets no hooks path, and
	 * is not parsed at every start (60 aliases: ~160,000 instructions). */
	static const char name[] = "hookspath";
	bool spelled = false;
	for (size_t i = 0; !spelled && i + sizeof name - 1 <= len; i++) {
		size_t k = 0;
		while (k < sizeof name - 1 && tolower((unsigned char)text[i + k]) == name[k])
			k++;
		spelled = k == sizeof name - 1;
	}
	if (!spelled)
		return NULL;
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

/* Claude Code runs the hooks, status line and key helper of the project's
 * settings and the servers of .mcp.json; Codex loads the project's .codex
 * layer (config, hooks, rules) once the folder is trusted; Cursor runs
 * .cursor/hooks.json and its MCP servers; Gemini CLI the servers of its
 * settings; VS Code the tasks marked to run when the folder opens. All of
 * it outside any sandbox, with no question once the folder was trusted. */
const char *const protect_agent_files[] = {
	".claude/settings.json", ".claude/settings.local.json", ".mcp.json", ".codex", ".cursor/hooks.json",
	".cursor/mcp.json", ".gemini/settings.json", ".vscode/tasks.json", NULL,
};

/* A folder that only holds agent files (.claude, not .codex, which is one). */
static bool agent_folder(const char *rel)
{
	size_t n = strlen(rel);
	for (const char *const *a = protect_agent_files; *a; a++)
		if (strncmp(*a, rel, n) == 0 && (*a)[n] == '/')
			return true;
	return false;
}

bool protect_is_agent_file(const char *rel)
{
	for (const char *at = rel; at; at = strchr(at, '/'), at = at ? at + 1 : NULL)
		for (const char *const *a = protect_agent_files; *a; a++) {
			size_t n = strlen(*a);
			size_t m = strlen(at);
			if ((strncmp(at, *a, n) == 0 && (at[n] == 0 || at[n] == '/')) ||
			    (m < n && strncmp(at, *a, m) == 0 && (*a)[m] == '/'))
				return true;
		}
	return false;
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

#define PROTECT_HOOK_READ (64u << 10) /* of each hook, for the files it names */
#define PROTECT_HOOK_FILES 64

/* The files of the project a hook names (`./scripts/lint.sh`, `sh
 * tools/check`) run outside the sandbox when the hook does: they are
 * protected as the hook is. Only words that name an existing file below
 * the project, relative to its top, count; what a hook computes ($0,
 * $(dirname ...)) is not followed, hence husky below. */
static void add_hook_references(struct protect *p, int root, const char *hooks_abs)
{
	DIR *dir = opendir(hooks_abs);
	if (!dir)
		return;
	struct dirent *e;
	int files = 0;
	while ((e = next_entry(dir)) && files < PROTECT_HOOK_FILES) {
		size_t n = strlen(e->d_name);
		if (n > 7 && strcmp(e->d_name + n - 7, ".sample") == 0)
			continue;
		char *path = xasprintf("%s/%s", hooks_abs, e->d_name);
		size_t len = 0;
		char *text = util_read_file(path, O_NOFOLLOW, PROTECT_HOOK_READ, &len);
		free(path);
		if (!text)
			continue;
		files++;
		/* "#!tools/run": the kernel runs a relative interpreter from the
		 * folder git runs the hook in, the work tree's top */
		char *from = len >= 2 && text[0] == '#' && text[1] == '!' ? text + 2 : text;
		for (char *w = from; w < text + len;) {
			size_t skip = strspn(w, " \t\r\n;|&()<>'\"`=");
			w += skip;
			size_t wl = strcspn(w, " \t\r\n;|&()<>'\"`=");
			if (wl == 0)
				break;
			char *word = xstrndup(w, wl);
			w += wl;
			const char *rel = strncmp(word, "./", 2) == 0 ? word + 2 : word;
			if (!strchr(rel, '$') && strchr(rel, '/') && protect_check_extra(rel) == 0 &&
			    strncmp(rel, ".git/", 5) != 0) {
				struct stat st;
				char *full = xasprintf("%s/%s", p->root, rel);
				if (lstat(full, &st) == 0 && S_ISREG(st.st_mode))
					add_extra(p, root, rel);
				free(full);
			}
			free(word);
		}
		free(text);
	}
	closedir(dir);
}

/* Outside git, where a session can make nothing to keep away: $HOME, a
 * folder above it, /, and the folders never made writable as the project;
 * or where every session can write whatever its project (a temp folder). */
static bool home_or_above(const char *dir)
{
	if (strcmp(dir, "/") == 0)
		return true;
	const char *env = getenv("HOME");
	char *home = env && *env == '/' ? realpath(env, NULL) : NULL;
	size_t n = strlen(dir);
	bool above = home && strncmp(home, dir, n) == 0 && (home[n] == '\0' || home[n] == '/');
	free(home);
	return above;
}

/* The protected folders and files of the project here, before any scan. */
struct protect *protect_discover(char *const *extra)
{
	char *worktree = NULL, *gitdir = NULL;
	struct protect *p = protect_new();
	if (!find_git(&worktree, &gitdir)) {
		/* Outside git the folder is the project all the same: an allow-list
		 * or a .git the session makes here is run later by the human's sbsh
		 * or git, so what is absent at the start is kept absent too. */
		worktree = realpath(".", NULL);
		char *refused = worktree ? sandbox_project_refusal(worktree) : NULL;
		bool nothing = !worktree || home_or_above(worktree) || refused || sandbox_shared_folder(worktree);
		free(refused);
		if (nothing) {
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
	for (const char *const *a = protect_agent_files; *a; a++)
		add_extra(p, root, *a);
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
					/* husky: core.hooksPath=.husky/_, whose scripts run
					 * .husky/<hook>: the folder above is protected whole */
					if (h >= 0 && strcmp(p->dirs[h].name, "_") == 0 && p->dirs[h].parent > root)
						p->dirs[p->dirs[h].parent].all = true;
				}
				free(abs);
				free(hp);
			}
		}
	}
	if (p->hooks_rel) {
		char *hooks_abs = p->hooks_rel[0] == '/' ? xstrdup(p->hooks_rel) : xasprintf("%s/%s", worktree, p->hooks_rel);
		add_hook_references(p, root, hooks_abs);
		char *slash = strrchr(hooks_abs, '/');
		if (slash && strcmp(slash, "/_") == 0) {
			*slash = '\0'; /* husky's own hook scripts, which .husky/_/h runs */
			add_hook_references(p, root, hooks_abs);
		}
		free(hooks_abs);
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
	DIR *dir = list_dir(p->dirs[di].fd);
	if (!dir)
		return;
	struct dirent *e;
	while ((e = next_entry(dir))) {
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
static char *note_text(const char *rel, const char *name, char kind, const char *detail);
static void note_push(struct strvec *restored, char *text);

/* A walk of a modules folder for the module git dirs the set lacks. */
struct module_walk {
	struct protect *p;
	size_t room;            /* how many more may join */
	struct strvec found;    /* their paths from the modules folder */
	struct strvec *removed; /* during a session: what could not join, quarantined (notes) */
	const char *rel;        /* the modules folder's, in the set */
};

/* A folder with a HEAD is a module git dir (its own modules/ is walked
 * as a modules folder of its own); any other folder is part of a name
 * with slashes. di: this folder's index in the set, or -1. Links are
 * not followed, as git's own modules are never links. */
static void find_modules(struct module_walk *w, int di, int fd, const char *prefix, int depth)
{
	DIR *dir = list_dir(fd);
	if (!dir)
		return;
	struct dirent *e;
	while ((e = next_entry(dir))) {
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
			char *rel = child_rel(w->rel, path), *where = NULL;
			if (quarantine_at(w->p, fd, e->d_name, rel, &where) == 0)
				strvec_push_owned(w->removed, note_text(rel, NULL, WARDEN_NOTE_QUARANTINED, where));
			else
				strvec_push_owned(w->removed, note_text(rel, NULL, WARDEN_NOTE_FAILED, strerror(errno)));
			free(where);
			free(rel);
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
	struct module_walk w = {.p = p, .room = SIZE_MAX, .rel = p->dirs[m].rel};
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
	for (size_t i = 0; i < removed.len; i++) {
		if (strchr(removed.items[i], WARDEN_NOTE_SEP)[1] == WARDEN_NOTE_FAILED)
			p->failed++;
		note_push(restored, xstrdup(removed.items[i]));
	}
	strvec_free(&w.found);
	strvec_free(&removed);
}

void protect_scan(struct protect *p)
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

/* What a check tells, one entry per path (see WARDEN_NOTE_SEP): the path
 * alone when it was put back, else the path, a kind and a detail. */
static char *note_text(const char *rel, const char *name, char kind, const char *detail)
{
	char *path = name ? child_rel(rel, name) : xstrdup(rel);
	if (!kind)
		return path;
	char *text = xasprintf("%s%c%c%c%s", path, WARDEN_NOTE_SEP, kind, WARDEN_NOTE_SEP, detail ? detail : "");
	free(path);
	return text;
}

static void note_push(struct strvec *restored, char *text)
{
	if (!restored) {
		free(text);
		return;
	}
	size_t plen = strcspn(text, (char[]){WARDEN_NOTE_SEP, '\0'});
	for (size_t i = 0; i < restored->len; i++) {
		const char *e = restored->items[i];
		if (strncmp(e, text, plen) == 0 && (e[plen] == '\0' || e[plen] == WARDEN_NOTE_SEP)) {
			if (text[plen] && !e[plen]) {
				free(restored->items[i]); /* the detail says more */
				restored->items[i] = text;
				return;
			}
			free(text);
			return;
		}
	}
	strvec_push_owned(restored, text);
}

static void note_as(struct strvec *restored, const char *rel, const char *name, char kind, const char *detail)
{
	if (restored)
		note_push(restored, note_text(rel, name, kind, detail));
}

static void note(struct strvec *restored, const char *rel, const char *name)
{
	note_as(restored, rel, name, 0, NULL);
}

/* A restore that failed: said loudly, and kept as the set's dirty state
 * until a later check succeeds (trusted/warden.c persists it). */
static void note_failed(struct protect *p, struct strvec *restored, const char *rel, const char *name,
                        const char *why)
{
	p->failed++;
	note_as(restored, rel, name, WARDEN_NOTE_FAILED, why);
}

/* Takes LEAF below dirfd (rel/name in the set, name NULL for the folder
 * rel itself) away to the quarantine, and says so, or that it could not.
 * Returns true when it is gone. */
static bool take_away(struct protect *p, int dirfd, const char *leaf, const char *rel, const char *name,
                      struct strvec *restored)
{
	char *path = name ? child_rel(rel, name) : xstrdup(rel);
	char *where = NULL;
	bool ok = quarantine_at(p, dirfd, leaf, path, &where) == 0;
	if (ok && where)
		note_as(restored, rel, name, WARDEN_NOTE_QUARANTINED, where);
	else if (!ok)
		note_failed(p, restored, rel, name, strerror(errno));
	free(where);
	free(path);
	return ok;
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
static bool put_back(struct protect *p, int dirfd, struct pfile *f, const char *rel, char **kept)
{
	*kept = NULL;
	if (!S_ISREG(f->mode) && !S_ISLNK(f->mode)) {
		errno = EINVAL;
		return false;
	}
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
	/* what is there goes to the quarantine first: it may be the human's
	 * (a file or a folder moved over the name) */
	char *path = child_rel(rel, f->name);
	int qr = quarantine_at(p, dirfd, f->name, path, kept);
	free(path);
	if (qr != 0 || renameat(dirfd, tmp, dirfd, f->name) != 0) {
		int saved = errno;
		unlinkat(dirfd, tmp, 0);
		errno = saved;
		return false;
	}
	memset(&f->seen, 0, sizeof f->seen); /* compare contents once more next time */
	return true;
}

/* The baseline's contents of f, read from the read-only mirror the first
 * time they are needed: a start whose files did not move reads none. */
static bool need_data(struct protect *p, int di, struct pfile *f)
{
	if (f->loaded || !f->present || f->unheld)
		return true;
	char *mdir = protect_saved_path(p, p->dirs[di].rel);
	int fd = open(mdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(mdir);
	struct stat st;
	bool ok = fd >= 0 && read_entry(fd, f->name, &st, &f->data, &f->len) == 0;
	if (fd >= 0)
		close(fd);
	f->loaded = ok;
	return ok;
}

bool protect_need_all_data(struct protect *p)
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
		if (r == 0)
			take_away(p, d->fd, f->name, d->rel, f->name, restored);
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
	char *kept = NULL;
	if (put_back(p, d->fd, f, d->rel, &kept))
		note_as(restored, d->rel, f->name, kept ? WARDEN_NOTE_KEPT : 0, kept);
	else
		note_failed(p, restored, d->rel, f->name, strerror(errno));
	free(kept);
}

bool protect_known_name(struct protect *p, int di, const char *name)
{
	return find_file(p, di, name) || find_dir(p, di, name) >= 0;
}

/* Entries of an `all` folder that the baseline does not have go. */
static bool remove_unknown(struct protect *p, int di, struct strvec *restored)
{
	DIR *dir = list_dir(p->dirs[di].fd);
	if (!dir)
		return false;
	struct strvec extra;
	strvec_init(&extra);
	struct dirent *e;
	while ((e = next_entry(dir)))
		if (!protect_known_name(p, di, e->d_name))
			strvec_push(&extra, e->d_name);
	closedir(dir);
	for (size_t i = 0; i < extra.len; i++)
		take_away(p, p->dirs[di].fd, extra.items[i], p->dirs[di].rel, extra.items[i], restored);
	bool any = extra.len > 0;
	strvec_free(&extra);
	return any;
}

/* Folder d, replaced at its name (now free), comes back from wherever it
 * was moved, found through the descriptor held on it, when it still
 * exists. False when it is gone, or when what arrived is not it (then it
 * is left in the quarantine's care by the caller's fresh folder). */
static bool bring_back(struct protect *p, int pfd, struct pdir *d)
{
	struct stat st;
	if (d->fd < 0 || fstat(d->fd, &st) != 0 || st.st_nlink == 0 || st.st_ino != d->seen.st_ino ||
	    st.st_dev != d->seen.st_dev)
		return false;
	char link[64], where[PATH_MAX];
	snprintf(link, sizeof link, "/proc/self/fd/%d", d->fd);
	ssize_t n = readlink(link, where, sizeof where - 1);
	if (n <= 0 || where[0] != '/')
		return false;
	where[n] = '\0';
	if (renameat2(AT_FDCWD, where, pfd, d->name, RENAME_NOREPLACE) != 0)
		return false;
	struct stat now;
	if (fstatat(pfd, d->name, &now, AT_SYMLINK_NOFOLLOW) == 0 && now.st_ino == st.st_ino && now.st_dev == st.st_dev)
		return true;
	/* swapped on the way: what came is not the folder */
	char *ignored = NULL;
	quarantine_at(p, pfd, d->name, d->rel, &ignored);
	free(ignored);
	return false;
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
			if (r == 0 && S_ISDIR(st.st_mode) && agent_folder(d->rel)) {
				/* .claude and the like hold more than the protected
				 * files: the folder may come, what is protected in it
				 * is kept absent */
				if (d->fd < 0 || st.st_ino != d->seen.st_ino || st.st_dev != d->seen.st_dev) {
					if (d->fd >= 0)
						close(d->fd);
					d->fd = openat(pfd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
					if (d->fd < 0 || fstat(d->fd, &d->seen) != 0) {
						note_failed(p, restored, d->rel, NULL, strerror(errno));
						return;
					}
					p->rewatch = true;
				}
				goto files;
			}
			if (d->fd >= 0) {
				close(d->fd);
				d->fd = -1;
			}
			/* a modules folder that appears is grow_modules' to take */
			if (r == 0 && !modules_dir(p, di))
				take_away(p, pfd, d->name, d->rel, NULL, restored);
			return;
		}
		if (r != 0 || !S_ISDIR(st.st_mode) || st.st_ino != d->seen.st_ino || st.st_dev != d->seen.st_dev ||
		    d->fd < 0) {
			/* removed, or replaced (by a link, another folder, a file).
			 * What is there now goes to the quarantine. The folder comes
			 * back from wherever it was moved when it still exists (a .git
			 * moved aside holds the whole repository); else a fresh one
			 * is filled below from the baseline. */
			char *kept = NULL;
			if (r == 0 && quarantine_at(p, pfd, d->name, d->rel, &kept) != 0) {
				note_failed(p, restored, d->rel, NULL, strerror(errno));
				return;
			}
			if (bring_back(p, pfd, d)) {
				note_as(restored, d->rel, NULL, kept ? WARDEN_NOTE_KEPT : 0, kept);
				free(kept);
			} else {
				if (d->fd >= 0)
					close(d->fd);
				if (mkdirat(pfd, d->name, 0700) != 0 && errno != EEXIST) {
					note_failed(p, restored, d->rel, NULL, strerror(errno));
					d->fd = -1;
					free(kept);
					return;
				}
				d->fd = openat(pfd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (d->fd < 0) {
					note_failed(p, restored, d->rel, NULL, strerror(errno));
					free(kept);
					return;
				}
				fchmod(d->fd, d->mode & 07777);
				fstat(d->fd, &d->seen);
				d->listed = false;
				note_as(restored, d->rel, NULL, kept ? WARDEN_NOTE_KEPT : 0, kept);
				free(kept);
				d->fresh = true;
			}
		} else if (st.st_mode != d->mode) {
			fchmod(d->fd, d->mode & 07777);
			note(restored, d->rel, NULL);
		}
	}
files:
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

void protect_check(struct protect *p, struct strvec *restored)
{
	grow_modules(p, restored);
	for (size_t i = 0; i < p->ndirs; i++)
		check_dir(p, (int)i, restored);
}

/* ---- what the session made elsewhere in the tree ------------------------ */

/* A repository made inside the project during the session (`git init
 * sub`), or one whose config or hooks the session changed, is run by the
 * human's git later like any other: its config loses the keys that run a
 * program (the original is kept in the quarantine) and its hooks but git's
 * samples go to the quarantine. A .git file the session wrote (sending git
 * elsewhere) and an .agentcommands.json below the top one that the session
 * wrote go to the quarantine. "During the session": the inode's change
 * time, which nothing inside the sandbox can set back, is after its start. */

#define PROTECT_SWEEP_DIRS 20000 /* folders walked at a session's end, at most */
#define PROTECT_SWEEP_RACED 64    /* walked while the keeper's answer is awaited */
#define PROTECT_SWEEP_DEPTH 24

struct sweep {
	struct protect *p;
	struct timespec since;
	size_t dirs;
	bool capped;
	bool may_fork;   /* past PROTECT_SWEEP_WAITED, the rest goes on in a child */
	int stop_fd;     /* the walk stops once it is readable (*stopped), or -1 */
	bool stopped;
	bool background; /* this is that child */
	bool handed_on;  /* this is the parent, which stops here */
	struct strvec *restored;
	char *buf; /* one folder's entries at a time (SWEEP_BUF bytes; not zeroed) */
};
#define SWEEP_BUF 32768

static bool changed_since(const struct stat *st, struct timespec since)
{
	return st->st_ctim.tv_sec > since.tv_sec ||
	       (st->st_ctim.tv_sec == since.tv_sec && st->st_ctim.tv_nsec >= since.tv_nsec);
}

/* Whether rel/name is in the set (the project's .git, a submodule's). */
static bool sweep_known(struct protect *p, const char *rel, const char *name)
{
	for (size_t i = 0; i < p->ndirs; i++)
		if (strcmp(p->dirs[i].rel, rel) == 0)
			return protect_known_name(p, (int)i, name);
	return false;
}

/* The config of a repository the session made or changed, without the
 * entries that run a program; the original is kept in the quarantine. */
static void sweep_config(struct sweep *s, int gfd, const char *grel)
{
	struct stat st;
	char *data = NULL;
	size_t len = 0;
	if (read_entry(gfd, "config", &st, &data, &len) != 0 || !changed_since(&st, s->since))
		goto out;
	if (!S_ISREG(st.st_mode)) {
		take_away(s->p, gfd, "config", grel, "config", s->restored);
		goto out;
	}
	size_t safe_len;
	char *safe = config_without_programs(data, len, &safe_len);
	if (safe) {
		struct pfile f = {.name = (char *)"config", .mode = st.st_mode, .data = safe, .len = safe_len,
		                  .mtime = st.st_mtim, .present = true, .loaded = true};
		char *kept = NULL;
		if (put_back(s->p, gfd, &f, grel, &kept))
			note_as(s->restored, grel, "config", WARDEN_NOTE_KEPT, kept);
		else
			note_failed(s->p, s->restored, grel, "config", strerror(errno));
		free(kept);
		free(safe);
	}
out:
	free(data);
}

/* A repository below the project, not in the set: pinned when the session
 * made or changed it. */
static void sweep_repo(struct sweep *s, int fd, const char *rel)
{
	char *grel = child_rel(rel, ".git");
	int gfd = openat(fd, ".git", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (gfd < 0) {
		free(grel);
		return;
	}
	sweep_config(s, gfd, grel);
	static const char *const others[] = {"config.worktree", "commondir"};
	for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
		struct stat st;
		if (fstatat(gfd, others[i], &st, AT_SYMLINK_NOFOLLOW) == 0 && changed_since(&st, s->since))
			take_away(s->p, gfd, others[i], grel, others[i], s->restored);
	}
	int hfd = openat(gfd, "hooks", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *dir = hfd >= 0 ? fdopendir(hfd) : NULL;
	if (!dir && hfd >= 0)
		close(hfd);
	char *hrel = child_rel(grel, "hooks");
	struct strvec planted;
	strvec_init(&planted);
	struct dirent *e;
	while (dir && (e = next_entry(dir))) {
		struct stat st;
		size_t n = strlen(e->d_name);
		if (fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !changed_since(&st, s->since))
			continue;
		if (S_ISREG(st.st_mode) && n > 7 && strcmp(e->d_name + n - 7, ".sample") == 0)
			continue; /* git's inert samples */
		strvec_push(&planted, e->d_name);
	}
	for (size_t i = 0; dir && i < planted.len; i++)
		if (planted.items[i])
			take_away(s->p, dirfd(dir), planted.items[i], hrel, planted.items[i], s->restored);
	strvec_free(&planted);
	if (dir)
		closedir(dir);
	free(hrel);
	close(gfd);
	free(grel);
}

/* A .git file that sends git into one of the set's git dirs (what `git
 * submodule add` and `git worktree add` write): their config and hooks are
 * the set's already. */
static bool own_gitfile(struct protect *p, const char *rel)
{
	char *path = strcmp(rel, ".") == 0 ? xasprintf("%s/.git", p->root) : xasprintf("%s/%s/.git", p->root, rel);
	char *target = read_gitfile(path);
	free(path);
	bool own = false;
	for (size_t i = 0; target && i < p->ndirs && !own; i++) {
		const struct pdir *d = &p->dirs[i];
		if (!git_dir(p, (int)i))
			continue;
		char *abs = d->rel[0] == '/' ? xstrdup(d->rel) : xasprintf("%s/%s", p->root, d->rel);
		size_t n = strlen(abs);
		own = strncmp(target, abs, n) == 0 && (target[n] == '/' || target[n] == '\0');
		free(abs);
	}
	free(target);
	return own;
}

/* The sweep lists every folder of the project at each session's end, so
 * straight from the kernel, into one buffer: a DIR costs a dup, an fstat,
 * two fcntl, an lseek and 32 KB of heap per folder, more than the listing.
 * fd is the sweep's own (at offset 0); folders (and entries of unknown
 * type) go to subs, the others to names. False after a read error. */
static bool sweep_names(struct sweep *s, int fd, struct strvec *names, struct strvec *subs)
{
	ssize_t n;
	while ((n = getdents64(fd, s->buf, SWEEP_BUF)) > 0) {
		for (ssize_t at = 0; at < n;) {
			const struct dirent64 *e = (const struct dirent64 *)(s->buf + at);
			at += e->d_reclen;
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			bool is_dir = e->d_type == DT_DIR || e->d_type == DT_UNKNOWN;
			strvec_push(is_dir ? subs : names, e->d_name);
		}
	}
	return n == 0;
}

/* What changed in the session at rel/name, or below it when that is a
 * folder the session did not make, goes to the quarantine. */
static void sweep_changed(struct sweep *s, int fd, const char *rel, const char *name, int depth)
{
	struct stat st;
	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		if (changed_since(&st, s->since))
			take_away(s->p, fd, name, rel, name, s->restored);
		return;
	}
	if (depth >= PROTECT_SWEEP_DEPTH)
		return;
	int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0)
		return;
	struct strvec names, subs;
	strvec_init(&names);
	strvec_init(&subs);
	sweep_names(s, sub, &names, &subs);
	char *srel = child_rel(rel, name);
	for (int list = 0; list < 2; list++) {
		struct strvec *v = list ? &subs : &names;
		for (size_t i = 0; i < v->len; i++)
			sweep_changed(s, sub, srel, v->items[i], depth + 1);
	}
	free(srel);
	strvec_free(&names);
	strvec_free(&subs);
	close(sub);
}

/* An agent tool started in a subfolder reads its files there (Codex reads
 * every .codex from the top down): what the session wrote of them below
 * the top goes to the quarantine. */
static void sweep_agent_files(struct sweep *s, int fd, const char *rel, const char *name)
{
	for (const char *const *a = protect_agent_files; *a; a++) {
		const char *slash = strchr(*a, '/');
		size_t n = slash ? (size_t)(slash - *a) : strlen(*a);
		if (strncmp(*a, name, n) != 0 || name[n] != 0)
			continue;
		if (!slash) {
			sweep_changed(s, fd, rel, name, 1); /* the whole of it, e.g. .codex */
			continue;
		}
		struct stat st;
		if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (!S_ISDIR(st.st_mode)) {
			/* the tool follows a link where it looks for a folder */
			if (S_ISLNK(st.st_mode) && changed_since(&st, s->since))
				take_away(s->p, fd, name, rel, name, s->restored);
			continue;
		}
		int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		char *srel = child_rel(rel, name);
		if (fstatat(sub, slash + 1, &st, AT_SYMLINK_NOFOLLOW) == 0 && changed_since(&st, s->since))
			take_away(s->p, sub, slash + 1, srel, slash + 1, s->restored);
		free(srel);
		close(sub);
	}
}

/* Looks at the entries of the folder fd (rel): what the session made or
 * changed of them goes; subs gets the folders among them to walk on. */
static void sweep_entries(struct sweep *s, int fd, const char *rel, struct strvec *subs)
{
	struct strvec names;
	strvec_init(&names);
	sweep_names(s, fd, &names, subs); /* a read error ends the listing, as readdir's did */
	/* .git and .agentcommands.json may be folders or files: both lists */
	for (int list = 0; list < 2; list++) {
		struct strvec *v = list ? subs : &names;
		for (size_t i = 0; i < v->len; i++) {
			const char *name = v->items[i];
			bool is_git = strcmp(name, ".git") == 0;
			bool is_allow = strcmp(name, ".agentcommands.json") == 0 && strcmp(rel, ".") != 0;
			if (!is_git && !is_allow) {
				if (strcmp(rel, ".") != 0)
					sweep_agent_files(s, fd, rel, name);
				continue;
			}
			struct stat st;
			if (!sweep_known(s->p, rel, name) && fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
				if (is_git && S_ISDIR(st.st_mode))
					sweep_repo(s, fd, rel);
				else if (changed_since(&st, s->since) && !(is_git && own_gitfile(s->p, rel)))
					take_away(s->p, fd, name, rel, name, s->restored);
			}
			free(v->items[i]); /* not a folder to walk */
			v->items[i] = NULL;
		}
	}
	strvec_free(&names);
}

static void sweep_dir(struct sweep *s, int fd, const char *rel, int depth)
{
	struct strvec subs;
	strvec_init(&subs);
	sweep_entries(s, fd, rel, &subs);
	for (size_t i = 0; i < subs.len; i++) {
		if (!subs.items[i])
			continue;
		if (s->dirs >= PROTECT_SWEEP_DIRS || depth >= PROTECT_SWEEP_DEPTH) {
			s->capped = true;
			break;
		}
		if (s->handed_on || s->stopped)
			break;
		/* The keeper's answer came: the walk stops. Past a few folders it
		 * stops all the same and waits for it: walking on costs the CPU
		 * the keeper needs to answer. */
		struct pollfd answer = {.fd = s->stop_fd, .events = POLLIN};
		if (s->stop_fd >= 0 && (s->dirs >= PROTECT_SWEEP_RACED || poll(&answer, 1, 0) != 0)) {
			s->stopped = true;
			break;
		}
		if (s->may_fork && !s->background && s->dirs >= PROTECT_SWEEP_WAITED) {
			/* A large tree: the caller is not held up for the rest. The
			 * child has the walk as it stands and finishes it; a failed
			 * fork just walks on here. It is made our parent's child, not
			 * ours: the warden takes its own children for jobs the
			 * session left, and would wait for it. */
			pid_t child = (pid_t)syscall(SYS_clone, CLONE_PARENT | SIGCHLD, NULL, NULL, NULL, NULL);
			if (child == 0) {
				/* What was found so far is the parent's to tell. The
				 * caller's stdio is let go: whoever reads it to its end
				 * would wait for this walk too. */
				strvec_free(s->restored);
				strvec_init(s->restored);
				s->background = true;
				s->stop_fd = -1; /* nobody waits for an answer here */
				int null = open("/dev/null", O_RDWR | O_CLOEXEC);
				for (int std = 0; std <= 2 && null >= 0; std++)
					dup2(null, std);
				if (null > 2)
					close(null);
			} else if (child > 0)
				s->handed_on = true;
			s->may_fork = false;
			if (s->handed_on)
				break;
		}
		int sub = openat(fd, subs.items[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		s->dirs++;
		char *srel = child_rel(rel, subs.items[i]);
		sweep_dir(s, sub, srel, depth + 1);
		free(srel);
		close(sub);
	}
	strvec_free(&subs);
}

bool protect_sweep_name(const char *name)
{
	if (strcmp(name, ".git") == 0 || strcmp(name, ".agentcommands.json") == 0)
		return true;
	size_t n = strlen(name);
	for (const char *const *a = protect_agent_files; *a; a++)
		if (strncmp(*a, name, n) == 0 && ((*a)[n] == 0 || (*a)[n] == '/'))
			return true;
	return false;
}

/* The folder rel below the project's top, not following a link at any
 * step: -1 when it is gone, or is no folder now. */
static int open_below(int top, const char *rel)
{
	int fd = openat(top, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (const char *at = rel; fd >= 0 && *at;) {
		const char *slash = strchr(at, '/');
		size_t n = slash ? (size_t)(slash - at) : strlen(at);
		char name[NAME_MAX + 1];
		if (n == 0 || n > NAME_MAX || (n == 1 && at[0] == '.') || (n == 2 && at[0] == '.' && at[1] == '.')) {
			close(fd);
			return -1;
		}
		memcpy(name, at, n);
		name[n] = 0;
		int next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		fd = next;
		at += n + (slash != NULL);
	}
	return fd;
}

static int compare_paths(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether rel is one of the sorted folders, or below one. */
static bool covered_by(char *const *sorted, size_t n, const char *rel)
{
	if (n == 0)
		return false; /* bsearch wants an array, even an empty one */
	char *path = xstrdup(rel);
	bool found = false;
	for (size_t len = strlen(path);; len--) {
		if (len == 0 || path[len] == '/' || path[len] == 0) {
			char keep = path[len];
			path[len] = 0;
			const char *key = path;
			found = bsearch(&key, sorted, n, sizeof *sorted, compare_paths) != NULL;
			path[len] = keep;
			if (found || len == 0)
				break;
		}
	}
	free(path);
	return found;
}

/* The folders a planned sweep looks at alone: those the keeper named, and
 * the folder holding an agent tool's folder on their way (.codex/a/b
 * changed: .codex is judged from the folder holding it). Sorted, once each. */
static void alone_folders(const struct strvec *named, struct strvec *out)
{
	for (size_t i = 0; i < named->len; i++) {
		const char *rel = named->items[i];
		strvec_push(out, rel);
		for (const char *at = rel; *at;) {
			const char *slash = strchr(at, '/');
			size_t n = slash ? (size_t)(slash - at) : strlen(at);
			char *name = xstrndup(at, n);
			if (strcmp(name, ".git") != 0 && strcmp(name, ".agentcommands.json") != 0 && protect_sweep_name(name))
				strvec_push_owned(out, xstrndup(rel, at == rel ? 0 : (size_t)(at - rel - 1)));
			free(name);
			at += n + (slash != NULL);
		}
	}
	if (out->len > 1)
		qsort(out->items, out->len, sizeof *out->items, compare_paths);
	size_t k = 0;
	for (size_t i = 0; i < out->len; i++) {
		if (k && strcmp(out->items[k - 1], out->items[i]) == 0)
			free(out->items[i]);
		else
			out->items[k++] = out->items[i];
	}
	out->len = k;
}

/* The sweep the keeper vouches for: its folders alone, then its trees. */
static void sweep_planned(struct sweep *s, int top, const struct sweep_plan *plan)
{
	struct strvec whole, alone;
	strvec_init(&whole);
	strvec_init(&alone);
	for (size_t i = 0; i < plan->whole.len; i++)
		strvec_push(&whole, plan->whole.items[i]);
	if (whole.len > 1)
		qsort(whole.items, whole.len, sizeof *whole.items, compare_paths);
	alone_folders(&plan->alone, &alone);
	for (size_t i = 0; i < alone.len && !s->capped; i++) {
		const char *rel = alone.items[i];
		if (covered_by(whole.items, whole.len, rel))
			continue;
		int fd = open_below(top, rel);
		if (fd < 0)
			continue;
		if (s->dirs >= PROTECT_SWEEP_DIRS) {
			s->capped = true;
			close(fd);
			break;
		}
		s->dirs++;
		struct strvec subs;
		strvec_init(&subs);
		sweep_entries(s, fd, *rel ? rel : ".", &subs);
		strvec_free(&subs);
		close(fd);
	}
	for (size_t i = 0; i < whole.len && !s->handed_on && !s->capped; i++) {
		const char *rel = whole.items[i];
		/* sorted: a folder below another comes after it */
		if (i > 0 && covered_by(whole.items, i, rel))
			continue;
		int fd = open_below(top, rel);
		if (fd < 0)
			continue;
		s->dirs++;
		/* the depth bound counts from the folder named: it is walked
		 * as deep below it as the whole project would be */
		sweep_dir(s, fd, *rel ? rel : ".", 0);
		close(fd);
	}
	strvec_free(&whole);
	strvec_free(&alone);
}

bool protect_sweep(struct protect *p, struct timespec since, const struct sweep_plan *plan, int stop_fd,
                   struct strvec *restored, bool *background, bool *stopped)
{
	if (background)
		*background = false;
	if (stopped)
		*stopped = false;
	if (p->ndirs == 0 || p->dirs[0].fd < 0 || strcmp(p->dirs[0].rel, ".") != 0)
		return true;
	/* a descriptor of our own: the set's shares its offset with other listings */
	int top = openat(p->dirs[0].fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (top < 0)
		return false;
	struct sweep *s = xmalloc(sizeof *s);
	*s = (struct sweep){.p = p, .since = since, .restored = restored, .may_fork = background != NULL,
	                    .stop_fd = plan ? -1 : stop_fd, .buf = xmalloc(SWEEP_BUF)};
	if (plan)
		sweep_planned(s, top, plan);
	else
		sweep_dir(s, top, ".", 0);
	close(top);
	bool whole = !s->capped;
	if (background)
		*background = s->background;
	if (stopped)
		*stopped = s->stopped;
	free(s->buf);
	free(s);
	return whole;
}

/* ---- the persisted baseline ------------------------------------------- */

char *protect_state_dir(const char *key_path)
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
	char *dir = protect_state_in(base, key_path);
	free(base);
	return dir;
}

char *protect_state_in(const char *projects, const char *key_path)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a: a short stable folder name */
	for (const unsigned char *s = (const unsigned char *)key_path; *s; s++)
		h = (h ^ *s) * 1099511628211ULL;
	const char *last = strrchr(key_path, '/');
	last = last && last[1] ? last + 1 : "root";
	return xasprintf("%s/%.32s-%016llx", projects, last, (unsigned long long)h);
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

char *protect_saved_path(const struct protect *p, const char *rel)
{
	char *tree = xasprintf("%s/baseline/tree", p->state);
	char *path = mirror_path(tree, rel);
	free(tree);
	return path;
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
		/* an absent folder's files too: the set must cover the live one,
		 * and a folder that may appear (.claude) is checked by them */
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

int protect_write_mirror(struct protect *p)
{
	return write_mirror_opt(p, true);
}

/* Only the manifest: the contents are the same, the live metadata moved
 * (a restore, a `touch`). */
int protect_write_manifest(struct protect *p)
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
struct protect *protect_load_mirror(const char *state)
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
			    ((d->all || protect_modules_folder(p, (int)k)) &&
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

bool protect_covers(struct protect *saved, struct protect *live)
{
	for (size_t i = 0; i < live->ndirs; i++) {
		const struct pdir *d = &live->dirs[i];
		int si = -1;
		for (size_t k = 0; k < saved->ndirs && si < 0; k++)
			if (strcmp(saved->dirs[k].rel, d->rel) == 0)
				si = (int)k;
		if (si < 0 || (d->all && !saved->dirs[si].all))
			return false;
		for (size_t j = 0; j < d->nfiles; j++)
			if (!find_file(saved, si, d->files[j].name))
				return false;
	}
	return true;
}

/* Whether two scans hold the same files (names, types, modes, contents). */
bool protect_same_baseline(struct protect *a, struct protect *b)
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

/* ---- restores that failed ---------------------------------------------- */

/* A restore that failed (an immutable file, a full disk) leaves the
 * sandbox's file in place. It must not become the next session's
 * baseline: STATE/dirty says so, out of the sandbox's reach, until a
 * check puts everything back. */
void protect_set_dirty(const char *state, const struct strvec *restored)
{
	if (!state)
		return;
	struct strbuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < restored->len; i++) {
		const char *e = restored->items[i], *sep = strchr(e, WARDEN_NOTE_SEP);
		if (sep && sep[1] == WARDEN_NOTE_FAILED)
			strbuf_addf(&sb, "%.*s: %s\n", (int)(sep - e), e, sep[2] ? sep + 3 : "");
	}
	char *path = xasprintf("%s/dirty", state);
	if (sb.len == 0) {
		unlink(path);
	} else {
		char *tmp = xasprintf("%s/dirty.%ld", state, (long)getpid());
		int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
		bool ok = fd >= 0 && util_write_all(fd, sb.data, sb.len);
		if (fd >= 0 && close(fd) != 0)
			ok = false;
		if (!ok || rename(tmp, path) != 0) {
			unlink(tmp);
			/* at least the mark, if not the list */
			int mark = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
			if (mark >= 0)
				close(mark);
		}
		free(tmp);
	}
	free(path);
	strbuf_free(&sb);
}

bool protect_is_dirty(const char *state)
{
	char *path = xasprintf("%s/dirty", state);
	struct stat st;
	bool dirty = lstat(path, &st) == 0;
	free(path);
	return dirty;
}

/* ---- sessions: which process holds a baseline --------------------------- */

/* A session marker is STATE/sessions/<warden pid>, a file the warden holds
 * an flock on for as long as it lives: no contents to write or read, and
 * a killed warden's lock goes with it. */

/* Before the fork: a locked file the warden inherits (the lock belongs to
 * the open file, so it stays with the warden once we close our copy).
 * Returns the fd and the temporary name, or -1. */
int protect_marker_prepare(const char *state, char **tmp_name)
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
void protect_marker_publish(const char *state, char *tmp_name, int fd, pid_t pid)
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

void protect_remove_marker(const char *state, pid_t pid)
{
	char *path = xasprintf("%s/sessions/%ld", state, (long)pid);
	unlink(path);
	free(path);
}

/* Session markers: counts those of live wardens and of dead ones (which
 * are removed); live pids go to *live when given. */
void protect_sessions(const char *state, int *nlive, int *ndead, struct strvec *live)
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

/* ---- the state folder's lock ------------------------------------------- */

int protect_lock_state(const char *state)
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

/* The state folder's lock; the folder is made only the first time. */
int protect_open_state(const char *state)
{
	int fd = protect_lock_state(state);
	if (fd < 0 && errno == ENOENT && mkdir_p(state, 0700) == 0)
		fd = protect_lock_state(state);
	return fd;
}
