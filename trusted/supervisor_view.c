/* The caller's view, as the supervisor sees it: its memory (read with
 * process_vm_readv, which needs ptrace access: an ancestor under Yama,
 * same domain under Landlock), its descriptors (pidfd_getfd) and its paths,
 * walked one component at a time from its own root and working folder.
 *
 * Why walk by hand: the supervisor acts on what it resolved (an O_PATH
 * descriptor it holds), never on a path the caller could change after the
 * check. Walking one component at a time keeps the folder each object was
 * found in (the writable-folder check needs it), and lets /proc/self mean
 * the caller, not the supervisor: "self" and "thread-self" at a proc root
 * are replaced by the caller's ids, and the magic links below /proc/PID
 * (fd/N, cwd, root, exe) are followed by the kernel, which jumps to the
 * caller's object as it would for the caller. */
#include "trusted/supervisor_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "lib/util.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

enum { MAX_LINKS = 40, PROC_ROOT_INO = 1 };

void caller_init(struct caller *c, const struct seccomp_notif *req)
{
	*c = (struct caller){.id = req->id, .tid = (pid_t)req->pid, .tgid = 0, .pidfd = -1, .root = -1};
}

void caller_release(struct caller *c)
{
	if (c->pidfd >= 0)
		close(c->pidfd);
	if (c->root >= 0)
		close(c->root);
	c->pidfd = c->root = -1;
}

bool caller_waiting(const struct supervisor *s, const struct caller *c)
{
	uint64_t id = c->id;
	return ioctl(s->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

int caller_read(struct caller *c, uint64_t addr, void *buf, size_t len)
{
	if (len == 0)
		return 0;
	if (addr == 0)
		return -EFAULT;
	struct iovec local = {.iov_base = buf, .iov_len = len};
	struct iovec remote = {.iov_base = (void *)(uintptr_t)addr, .iov_len = len};
	ssize_t n = process_vm_readv(c->tid, &local, 1, &remote, 1, 0);
	if (n < 0)
		return errno == ESRCH ? -ESRCH : errno == EPERM ? -EPERM : -EFAULT;
	return (size_t)n == len ? 0 : -EFAULT;
}

int caller_write(struct caller *c, uint64_t addr, const void *buf, size_t len)
{
	struct iovec local = {.iov_base = (void *)buf, .iov_len = len};
	struct iovec remote = {.iov_base = (void *)(uintptr_t)addr, .iov_len = len};
	ssize_t n = process_vm_writev(c->tid, &local, 1, &remote, 1, 0);
	return n == (ssize_t)len ? 0 : -EFAULT;
}

int caller_read_string(struct caller *c, uint64_t addr, char *buf, size_t cap)
{
	if (addr == 0)
		return -EFAULT;
	size_t got = 0;
	const size_t page = 4096;
	while (got < cap) {
		/* up to the end of the page: the next one may be unmapped */
		size_t chunk = page - (size_t)((addr + got) % page);
		if (chunk > cap - got)
			chunk = cap - got;
		int r = caller_read(c, addr + got, buf + got, chunk);
		if (r < 0)
			return r;
		char *nul = memchr(buf + got, '\0', chunk);
		if (nul)
			return 0;
		got += chunk;
	}
	return -ENAMETOOLONG;
}

int caller_tgid(struct caller *c)
{
	if (c->tgid > 0)
		return c->tgid;
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/status", (int)c->tid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -ESRCH;
	char line[256];
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "Tgid:", 5) == 0) {
			c->tgid = (pid_t)strtol(line + 5, NULL, 10);
			break;
		}
	fclose(f);
	return c->tgid > 0 ? c->tgid : -ESRCH;
}

int caller_fd(struct caller *c, int fd)
{
	if (fd < 0)
		return -EBADF;
	if (c->pidfd < 0) {
		/* the thread's own table (a thread may have unshared it); a
		 * kernel before 6.9 knows only processes */
		c->pidfd = (int)syscall(SYS_pidfd_open, c->tid, PIDFD_THREAD);
		if (c->pidfd < 0 && errno == EINVAL) {
			int tgid = caller_tgid(c);
			if (tgid < 0)
				return tgid;
			c->pidfd = (int)syscall(SYS_pidfd_open, tgid, 0);
		}
		if (c->pidfd < 0)
			return -errno;
	}
	int got = (int)syscall(SYS_pidfd_getfd, c->pidfd, fd, 0);
	return got >= 0 ? got : -errno;
}

int caller_dirfd(struct caller *c, int fd)
{
	if (fd == AT_FDCWD) {
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/cwd", (int)c->tid);
		int d = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
		return d >= 0 ? d : errno == ENOENT ? -ESRCH : -errno;
	}
	int d = caller_fd(c, fd);
	if (d < 0)
		return d;
	struct stat st;
	if (fstat(d, &st) != 0 || !S_ISDIR(st.st_mode)) {
		close(d);
		return -ENOTDIR;
	}
	return d;
}

static int caller_root(struct caller *c)
{
	if (c->root < 0) {
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/root", (int)c->tid);
		c->root = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (c->root < 0)
			return errno == ENOENT ? -ESRCH : -errno;
	}
	return c->root;
}

void resolved_close(struct resolved *r)
{
	if (r->parent >= 0)
		close(r->parent);
	if (r->obj >= 0)
		close(r->obj);
	r->parent = r->obj = -1;
}

static bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* procfs's device: its "self" and magic links mean the reader. */
static dev_t proc_dev(void)
{
	static dev_t dev;
	static bool known;
	if (!known) {
		struct stat st;
		if (stat("/proc", &st) == 0)
			dev = st.st_dev;
		known = true;
	}
	return dev;
}

static bool on_proc(const struct stat *st)
{
	return proc_dev() != 0 && st->st_dev == proc_dev();
}

int resolve_path(struct caller *c, int dirfd, const char *path, bool follow, struct resolved *out)
{
	out->parent = out->obj = -1;
	if (!*path)
		return -ENOENT;
	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	int root = caller_root(c);
	if (root < 0)
		return root;
	/* rest: what is still to walk; links replace a component by their text */
	char *rest = xstrdup(path);
	char *p = rest;
	int cur = fcntl(path[0] == '/' ? root : dirfd, F_DUPFD_CLOEXEC, 0);
	struct stat cur_st, root_st;
	int err = 0, links = 0;
	if (cur < 0 || fstat(cur, &cur_st) != 0 || fstat(root, &root_st) != 0) {
		err = -errno;
		goto fail;
	}
	while (1) {
		while (*p == '/')
			p++;
		if (!*p) {
			/* "/" or a path that ends in "/" after a folder: that folder */
			out->obj = cur;
			out->st = cur_st;
			cur = -1;
			break;
		}
		char *slash = strchr(p, '/');
		char *after = slash ? slash + 1 : p + strlen(p);
		if (slash)
			*slash = '\0';
		while (*after == '/')
			after++;
		bool last = *after == '\0';
		bool trailing = last && slash; /* "name/": a folder, links followed */
		char comp[NAME_MAX + 32];
		if (strlen(p) > NAME_MAX) {
			err = -ENAMETOOLONG;
			goto fail;
		}
		snprintf(comp, sizeof comp, "%s", p);
		char *insert = NULL; /* "task/TID" after thread-self */
		if (on_proc(&cur_st) && cur_st.st_ino == PROC_ROOT_INO &&
		    (strcmp(comp, "self") == 0 || strcmp(comp, "thread-self") == 0)) {
			int tgid = caller_tgid(c);
			if (tgid < 0) {
				err = tgid;
				goto fail;
			}
			if (strcmp(comp, "thread-self") == 0)
				insert = xasprintf("task/%d", (int)c->tid);
			snprintf(comp, sizeof comp, "%d", tgid);
		}
		if (insert) {
			/* comp (the tgid) first, then the inserted components */
			char *next = xasprintf("%s%s%s", insert, *after || trailing ? "/" : "", after);
			free(insert);
			free(rest);
			rest = after = next;
			last = trailing = false;
		}
		if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0) {
			int next;
			if (comp[1] == '.' && !same_inode(&cur_st, &root_st))
				next = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
			else
				next = fcntl(cur, F_DUPFD_CLOEXEC, 0);
			if (next < 0 || fstat(next, &cur_st) != 0) {
				err = -errno;
				if (next >= 0)
					close(next);
				goto fail;
			}
			close(cur);
			cur = next;
			p = after;
			continue;
		}
		int fd = openat(cur, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) != 0) {
			err = -errno;
			if (fd >= 0)
				close(fd);
			goto fail;
		}
		if (S_ISLNK(st.st_mode) && (!last || follow || trailing)) {
			if (++links > MAX_LINKS) {
				close(fd);
				err = -ELOOP;
				goto fail;
			}
			if (on_proc(&st) && !(on_proc(&cur_st) && cur_st.st_ino == PROC_ROOT_INO)) {
				/* a magic link: the kernel jumps to the caller's object */
				close(fd);
				int target = openat(cur, comp, O_PATH | O_CLOEXEC);
				if (target < 0 || fstat(target, &st) != 0) {
					err = -errno;
					if (target >= 0)
						close(target);
					goto fail;
				}
				if (last) {
					out->obj = target;
					out->st = st;
					break;
				}
				if (!S_ISDIR(st.st_mode)) {
					close(target);
					err = -ENOTDIR;
					goto fail;
				}
				close(cur);
				cur = target;
				cur_st = st;
				p = after;
				continue;
			}
			char text[PATH_MAX];
			ssize_t n = readlinkat(fd, "", text, sizeof text - 1);
			close(fd);
			if (n < 0) {
				err = -errno;
				goto fail;
			}
			text[n] = '\0';
			char *next = xasprintf("%s%s%s", text, *after || trailing ? "/" : "", after);
			if (strlen(next) >= PATH_MAX) {
				free(next);
				err = -ENAMETOOLONG;
				goto fail;
			}
			free(rest);
			rest = p = next;
			if (text[0] == '/') {
				int r = fcntl(root, F_DUPFD_CLOEXEC, 0);
				if (r < 0) {
					err = -errno;
					goto fail;
				}
				close(cur);
				cur = r;
				cur_st = root_st;
			}
			continue;
		}
		if (!last || trailing) {
			if (!S_ISDIR(st.st_mode)) {
				close(fd);
				err = -ENOTDIR;
				goto fail;
			}
			if (trailing) {
				out->obj = fd;
				out->st = st;
				out->parent = cur;
				cur = -1;
				break;
			}
			close(cur);
			cur = fd;
			cur_st = st;
			p = after;
			continue;
		}
		out->obj = fd;
		out->st = st;
		out->parent = cur;
		cur = -1;
		break;
	}
	free(rest);
	if (cur >= 0)
		close(cur);
	return 0;
fail:
	free(rest);
	if (cur >= 0)
		close(cur);
	resolved_close(out);
	return err ? err : -EIO;
}

int resolve_fd(int fd, struct resolved *out)
{
	out->parent = -1;
	out->obj = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (out->obj < 0 || fstat(out->obj, &out->st) != 0) {
		int err = -errno;
		resolved_close(out);
		return err;
	}
	return 0;
}

static const struct supervisor_grant *grant_of(const struct supervisor *s, const struct stat *st)
{
	for (size_t i = 0; i < s->pol->ngrants; i++)
		if (s->pol->grants[i].dev == st->st_dev && s->pol->grants[i].ino == st->st_ino)
			return &s->pol->grants[i];
	return NULL;
}

/* The folder an object reached through a magic link lies in, from its name
 * (the kernel's d_path), checked to hold the very object: -1 when it has
 * no name any more or the name now holds something else. */
static int folder_by_name(int obj, const struct stat *st, bool *unlinked)
{
	char link[64], path[PATH_MAX];
	snprintf(link, sizeof link, "/proc/self/fd/%d", obj);
	ssize_t n = readlink(link, path, sizeof path - 1);
	if (n <= 0)
		return -1;
	path[n] = '\0';
	const char *deleted = " (deleted)";
	size_t dl = strlen(deleted);
	if (path[0] != '/' || ((size_t)n > dl && strcmp(path + n - dl, deleted) == 0)) {
		/* a pipe, a socket, an unlinked file: no path reaches it */
		*unlinked = st->st_nlink == 0 || path[0] != '/';
		return -1;
	}
	char *slash = strrchr(path, '/');
	if (slash == path)
		slash[1] = '\0';
	const char *name = slash == path ? NULL : slash + 1;
	if (slash != path)
		*slash = '\0';
	int dir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0 || !name)
		return dir;
	struct stat again;
	if (fstatat(dir, name, &again, AT_SYMLINK_NOFOLLOW) != 0 || !same_inode(&again, st)) {
		close(dir);
		return -1;
	}
	return dir;
}

const struct supervisor_grant *beneath_grant(const struct supervisor *s, const struct resolved *r, bool *unlinked)
{
	*unlinked = false;
	const struct supervisor_grant *g = grant_of(s, &r->st);
	if (g)
		return g;
	int d;
	if (S_ISDIR(r->st.st_mode))
		d = openat(r->obj, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
	else if (r->parent >= 0)
		d = fcntl(r->parent, F_DUPFD_CLOEXEC, 0);
	else
		d = folder_by_name(r->obj, &r->st, unlinked);
	/* up through "..", as Landlock walks up from a path: across mounts to
	 * the folder each is mounted on, until the root */
	for (int depth = 0; d >= 0 && depth < 4096; depth++) {
		struct stat st;
		if (fstat(d, &st) != 0)
			break;
		if ((g = grant_of(s, &st)) != NULL)
			break;
		int up = openat(d, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		struct stat up_st;
		if (up < 0 || fstat(up, &up_st) != 0 || same_inode(&up_st, &st)) {
			if (up >= 0)
				close(up);
			break;
		}
		close(d);
		d = up;
	}
	if (d >= 0)
		close(d);
	return g;
}
