/* The calls the supervisor answers. Each is decided on what the supervisor
 * itself holds, and carried out by the supervisor on that: never answered
 * "go on" (SECCOMP_USER_NOTIF_FLAG_CONTINUE), since the kernel would then
 * read the caller's memory and walk its path again, after the check, when
 * another thread (or another process of the sandbox, which may write the
 * caller's memory) has changed them.
 *
 * - Metadata (chmod, chown, times, extended attributes, chattr's flags):
 *   the path is resolved to an O_PATH descriptor (supervisor_view.c), the
 *   folders above it are checked against the writable ones, and the change
 *   is made through that descriptor: what was checked is what changes. A
 *   call on a descriptor is made on a copy of that very descriptor
 *   (pidfd_getfd), so the kernel's own checks (an O_PATH descriptor cannot
 *   fchmod) stay the same.
 * - Sockets: the caller's socket is copied (pidfd_getfd) and the supervisor
 *   connects or sends on it. A pathname address is resolved to the socket
 *   file, decided, and given to the kernel as /proc/self/fd/N of the file
 *   the supervisor holds, so the connection goes to the very socket that
 *   was checked. Other addresses (TCP, UDP, abstract) are used as read
 *   once, an inet one checked against the network mode first (Landlock
 *   sees a TCP port, not the address, and no UDP): the supervisor runs in
 *   the sandbox's own Landlock domain, so its TCP port rules and
 *   abstract-socket scope apply to these calls as they would to the
 *   caller's. A call that would block waits in the supervisor's
 *   loop (supervisor.c), not in the supervisor.
 *
 * After memory is read and descriptors copied, and before anything is done,
 * the notification's id is checked still valid: the caller may have died
 * and its thread id been given to another process.
 *
 * One call goes on as the caller made it: bind, which decides nothing (it
 * only tells the supervisor which sockets the session made). */
#include "trusted/supervisor_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "sandbox/denial.h"
#include "trusted/unix_diag.h"

#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_setxattrat
#define __NR_setxattrat 463
#endif
#ifndef __NR_removexattrat
#define __NR_removexattrat 466
#endif
#ifndef __NR_file_setattr
#define __NR_file_setattr 469
#endif

/* What one message may carry through the supervisor: a stream socket sends
 * the first part (a short send, as the kernel may make), a datagram larger
 * than this is refused with EMSGSIZE (unix datagrams stop at the socket's
 * buffer, 208 KiB by default, well below). */
enum { SEND_CAP = 1 << 20, CONTROL_CAP = 1 << 16, IOV_MAX_CALLS = 1024, MMSG_MAX = 1024 };
/* What one sendmmsg gathers at most (the messages after it are left for
 * the caller's next call, as a short count says), and what the calls
 * waiting on full sockets may hold in all: the supervisor's memory is
 * bounded whatever the sandbox sends. */
#define MMSG_BYTES_CAP ((size_t)8 << 20)
#define PENDING_BYTES_CAP ((size_t)64 << 20)

void supervisor_respond(struct supervisor *s, uint64_t id, int64_t val, int err)
{
	memset(s->resp, 0, s->resp_size);
	s->resp->id = id;
	s->resp->val = err ? 0 : val;
	s->resp->error = err ? -err : 0;
	s->resp->flags = 0;
	/* ENOENT: the caller is gone (killed, its wait over); nothing to do */
	while (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SEND, s->resp) != 0 && errno == EINTR) {
	}
}

static void answer(struct supervisor *s, const struct caller *c, int64_t val_or_negerr)
{
	if (val_or_negerr < 0)
		supervisor_respond(s, c->id, 0, (int)-val_or_negerr);
	else
		supervisor_respond(s, c->id, val_or_negerr, 0);
}

void supervisor_explain(struct supervisor *s, const char *what, const char *path, bool shared)
{
	if (s->hint_fd < 0 || !path)
		return;
	char *key = xasprintf("%s %s", what ? what : "connect", path);
	for (size_t i = 0; i < s->explained.len; i++)
		if (strcmp(s->explained.items[i], key) == 0) {
			free(key);
			return;
		}
	if (s->explained.len >= 64) {
		free(key);
		return; /* a program trying every path gets no screenful */
	}
	strvec_push_owned(&s->explained, key);
	char *line = what ? denial_metadata_message(what, path, s->pol->project)
	                  : denial_socket_message(path, s->pol->project, shared);
	ssize_t ignored = write(s->hint_fd, line, strlen(line));
	(void)ignored;
	free(line);
}

/* The object's name for a message: where it really is. */
static char *object_name(int obj, const char *given)
{
	char link[64], path[PATH_MAX];
	snprintf(link, sizeof link, "/proc/self/fd/%d", obj);
	ssize_t n = readlink(link, path, sizeof path - 1);
	if (n > 0 && path[0] == '/') {
		path[n] = '\0';
		return xstrdup(path);
	}
	return xstrdup(given);
}

/* ---- metadata ----------------------------------------------------------- */

enum meta_kind { META_CHMOD, META_CHOWN, META_UTIMES, META_SETXATTR, META_REMOVEXATTR, META_SETATTR, META_IOCTL };

struct meta_op {
	enum meta_kind kind;
	const char *call;
	mode_t mode;
	uid_t uid;
	gid_t gid;
	struct timespec times[2];
	bool times_now; /* NULL times: both now */
	char name[XATTR_NAME_MAX + 1];
	char *value;
	size_t size;
	int xflags;
	unsigned char attr[256];
	size_t attr_size;
	unsigned long cmd;
	unsigned char arg[32];
};

static long apply_on_fd(const struct meta_op *op, int fd)
{
	long r = -1;
	switch (op->kind) {
	case META_CHMOD:
		r = fchmod(fd, op->mode);
		break;
	case META_CHOWN:
		r = fchown(fd, op->uid, op->gid);
		break;
	case META_UTIMES:
		r = futimens(fd, op->times_now ? NULL : op->times);
		break;
	case META_SETXATTR:
		r = fsetxattr(fd, op->name, op->value, op->size, op->xflags);
		break;
	case META_REMOVEXATTR:
		r = fremovexattr(fd, op->name);
		break;
	case META_IOCTL:
		r = ioctl(fd, op->cmd, op->arg);
		break;
	case META_SETATTR:
		errno = EBADF; /* file_setattr names a path; apply_on_object */
		break;
	}
	return r < 0 ? -errno : r;
}

/* The change, through the O_PATH descriptor of what was checked. */
static long apply_on_object(const struct meta_op *op, const struct resolved *t)
{
	char via[64];
	snprintf(via, sizeof via, "/proc/self/fd/%d", t->obj);
	bool link = S_ISLNK(t->st.st_mode);
	long r = -1;
	switch (op->kind) {
	case META_CHMOD:
		if (link)
			return -EOPNOTSUPP; /* as the kernel answers a symlink's mode */
		r = syscall(__NR_fchmodat2, t->obj, "", op->mode, AT_EMPTY_PATH);
		if (r < 0 && errno == ENOSYS)
			r = chmod(via, op->mode);
		break;
	case META_CHOWN:
		r = fchownat(t->obj, "", op->uid, op->gid, AT_EMPTY_PATH);
		break;
	case META_UTIMES:
		r = utimensat(t->obj, "", op->times_now ? NULL : op->times, AT_EMPTY_PATH);
		break;
	/* The xattr and fileattr calls take no O_PATH descriptor (EBADF): the
	 * object is named through its /proc/self/fd link, which the kernel
	 * follows to it. A symlink has none of either an unprivileged process
	 * may set (user.* is for files and folders). */
	case META_SETXATTR:
		if (link)
			return -EPERM;
		r = setxattr(via, op->name, op->value, op->size, op->xflags);
		break;
	case META_REMOVEXATTR:
		if (link)
			return -EPERM;
		r = removexattr(via, op->name);
		break;
	case META_SETATTR:
		if (link)
			return -EOPNOTSUPP;
		r = syscall(__NR_file_setattr, AT_FDCWD, via, op->attr, op->attr_size, 0);
		break;
	case META_IOCTL:
		return -EBADF;
	}
	return r < 0 ? -errno : r;
}

/* Decides t and, inside, makes the change; the caller's answer. */
static long meta_decide(struct supervisor *s, struct caller *c, const struct meta_op *op, const struct resolved *t,
                        bool on_fd, int fd, const char *given)
{
	bool unlinked;
	const struct supervisor_grant *g = beneath_grant(s, t, &unlinked);
	if (!caller_waiting(s, c))
		return -ESRCH;
	if (!g && !unlinked) {
		char *name = object_name(t->obj, given ? given : "?");
		supervisor_explain(s, op->call, name, false);
		free(name);
		return -EACCES;
	}
	return on_fd ? apply_on_fd(op, fd) : apply_on_object(op, t);
}

/* The call names a descriptor: it is copied, and the same call is made on
 * the copy. */
static long meta_fd(struct supervisor *s, struct caller *c, const struct meta_op *op, int fd)
{
	int mine = caller_fd(c, fd);
	if (mine < 0)
		return mine;
	struct resolved t;
	long r = resolve_fd(mine, &t);
	if (r == 0) {
		r = meta_decide(s, c, op, &t, true, mine, NULL);
		resolved_close(&t);
	}
	close(mine);
	return r;
}

/* The call names a path from dirfd; with at_empty an empty path means
 * dirfd itself (AT_EMPTY_PATH), and a NULL path (utimensat) too. */
static long meta_path(struct supervisor *s, struct caller *c, const struct meta_op *op, int dirfd, uint64_t path_addr,
                      bool follow, bool at_empty)
{
	char path[PATH_MAX];
	long r = path_addr == 0 && at_empty ? (path[0] = '\0', 0) : caller_read_string(c, path_addr, path, sizeof path);
	if (r < 0)
		return r;
	if (!path[0] && !at_empty)
		return -ENOENT;
	int base = -1;
	if (path[0] != '/') {
		/* relative, or empty: dirfd itself */
		base = path[0] || dirfd == AT_FDCWD ? caller_dirfd(c, dirfd) : caller_fd(c, dirfd);
		if (base < 0)
			return base;
	}
	struct resolved t;
	if (!path[0])
		r = resolve_fd(base, &t);
	else
		r = resolve_path(c, base, path, follow, &t);
	if (base >= 0)
		close(base);
	if (r < 0)
		return r;
	r = meta_decide(s, c, op, &t, false, -1, path);
	resolved_close(&t);
	return r;
}

static long read_timevals(struct caller *c, uint64_t addr, struct meta_op *op)
{
	if (addr == 0) {
		op->times_now = true;
		return 0;
	}
	struct timeval tv[2];
	long r = caller_read(c, addr, tv, sizeof tv);
	if (r < 0)
		return r;
	for (int i = 0; i < 2; i++) {
		if (tv[i].tv_usec < 0 || tv[i].tv_usec >= 1000000)
			return -EINVAL;
		op->times[i] = (struct timespec){.tv_sec = tv[i].tv_sec, .tv_nsec = tv[i].tv_usec * 1000};
	}
	return 0;
}

static long read_xattr(struct caller *c, uint64_t name, uint64_t value, uint64_t size, struct meta_op *op)
{
	long r = caller_read_string(c, name, op->name, sizeof op->name);
	if (r == -ENAMETOOLONG)
		return -ERANGE;
	if (r < 0)
		return r;
	if (!op->name[0])
		return -ERANGE;
	if (op->kind != META_SETXATTR)
		return 0;
	if (size > XATTR_SIZE_MAX)
		return -E2BIG;
	op->size = (size_t)size;
	op->value = xmalloc(op->size ? op->size : 1);
	return caller_read(c, value, op->value, op->size);
}

/* The ioctl's argument: an int for the flags and the version, the struct
 * otherwise (the kernel reads all of these from the caller). */
static long read_ioctl(struct caller *c, uint64_t addr, struct meta_op *op)
{
	size_t len = 4;
	if (op->cmd == FS_IOC_FSSETXATTR)
		len = 28;
	else if (op->cmd == FS_IOC_SET_ENCRYPTION_POLICY)
		len = 24;
	long r = caller_read(c, addr, op->arg, len);
	if (r < 0 && op->cmd == FS_IOC_SET_ENCRYPTION_POLICY)
		r = caller_read(c, addr, op->arg, 12); /* a version 1 policy */
	return r;
}

static long metadata_call(struct supervisor *s, struct caller *c, int nr, const uint64_t *a)
{
	struct meta_op op = {.kind = META_CHMOD, .call = "chmod"};
	long r = 0;
	switch (nr) {
#ifdef __NR_chmod
	case __NR_chmod:
		op.mode = (mode_t)a[1];
		return meta_path(s, c, &op, AT_FDCWD, a[0], true, false);
	case __NR_chown:
	case __NR_lchown:
		op = (struct meta_op){.kind = META_CHOWN, .call = "chown", .uid = (uid_t)a[1], .gid = (gid_t)a[2]};
		return meta_path(s, c, &op, AT_FDCWD, a[0], nr == __NR_chown, false);
	case __NR_utime: {
		op = (struct meta_op){.kind = META_UTIMES, .call = "touch"};
		if (a[1] == 0) {
			op.times_now = true;
		} else {
			struct {
				long actime, modtime;
			} ut;
			if ((r = caller_read(c, a[1], &ut, sizeof ut)) < 0)
				return r;
			op.times[0] = (struct timespec){.tv_sec = ut.actime};
			op.times[1] = (struct timespec){.tv_sec = ut.modtime};
		}
		return meta_path(s, c, &op, AT_FDCWD, a[0], true, false);
	}
	case __NR_utimes:
		op = (struct meta_op){.kind = META_UTIMES, .call = "touch"};
		if ((r = read_timevals(c, a[1], &op)) < 0)
			return r;
		return meta_path(s, c, &op, AT_FDCWD, a[0], true, false);
	case __NR_futimesat:
		op = (struct meta_op){.kind = META_UTIMES, .call = "touch"};
		if ((r = read_timevals(c, a[2], &op)) < 0)
			return r;
		return meta_path(s, c, &op, (int)a[0], a[1], true, false);
#endif
	case __NR_fchmod:
		op.mode = (mode_t)a[1];
		return meta_fd(s, c, &op, (int)a[0]);
	case __NR_fchmodat:
		op.mode = (mode_t)a[2];
		return meta_path(s, c, &op, (int)a[0], a[1], true, false);
	case __NR_fchmodat2: {
		unsigned flags = (unsigned)a[3];
		if (flags & ~(unsigned)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
			return -EINVAL;
		op.mode = (mode_t)a[2];
		return meta_path(s, c, &op, (int)a[0], a[1], !(flags & AT_SYMLINK_NOFOLLOW), flags & AT_EMPTY_PATH);
	}
	case __NR_fchown:
		op = (struct meta_op){.kind = META_CHOWN, .call = "chown", .uid = (uid_t)a[1], .gid = (gid_t)a[2]};
		return meta_fd(s, c, &op, (int)a[0]);
	case __NR_fchownat: {
		unsigned flags = (unsigned)a[4];
		if (flags & ~(unsigned)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
			return -EINVAL;
		op = (struct meta_op){.kind = META_CHOWN, .call = "chown", .uid = (uid_t)a[2], .gid = (gid_t)a[3]};
		return meta_path(s, c, &op, (int)a[0], a[1], !(flags & AT_SYMLINK_NOFOLLOW), flags & AT_EMPTY_PATH);
	}
	case __NR_utimensat: {
		unsigned flags = (unsigned)a[3];
		if (flags & ~(unsigned)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
			return -EINVAL;
		op = (struct meta_op){.kind = META_UTIMES, .call = "touch"};
		if (a[2] == 0)
			op.times_now = true;
		else if ((r = caller_read(c, a[2], op.times, sizeof op.times)) < 0)
			return r;
		if (a[1] == 0) {
			/* futimens: the descriptor itself */
			if ((int)a[0] == AT_FDCWD || flags)
				return (int)a[0] == AT_FDCWD ? -EFAULT : -EINVAL;
			return meta_fd(s, c, &op, (int)a[0]);
		}
		return meta_path(s, c, &op, (int)a[0], a[1], !(flags & AT_SYMLINK_NOFOLLOW), flags & AT_EMPTY_PATH);
	}
	case __NR_setxattr:
	case __NR_lsetxattr:
	case __NR_fsetxattr:
		op = (struct meta_op){.kind = META_SETXATTR, .call = "setfattr", .xflags = (int)a[4]};
		if ((r = read_xattr(c, a[1], a[2], a[3], &op)) >= 0)
			r = nr == __NR_fsetxattr ? meta_fd(s, c, &op, (int)a[0])
			                         : meta_path(s, c, &op, AT_FDCWD, a[0], nr == __NR_setxattr, false);
		free(op.value);
		return r;
	case __NR_removexattr:
	case __NR_lremovexattr:
	case __NR_fremovexattr:
		op = (struct meta_op){.kind = META_REMOVEXATTR, .call = "setfattr"};
		if ((r = read_xattr(c, a[1], 0, 0, &op)) < 0)
			return r;
		return nr == __NR_fremovexattr ? meta_fd(s, c, &op, (int)a[0])
		                               : meta_path(s, c, &op, AT_FDCWD, a[0], nr == __NR_removexattr, false);
	case __NR_setxattrat:
	case __NR_removexattrat: {
		unsigned flags = (unsigned)a[2];
		if (flags & ~(unsigned)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
			return -EINVAL;
		op = (struct meta_op){.kind = nr == __NR_setxattrat ? META_SETXATTR : META_REMOVEXATTR, .call = "setfattr"};
		if (nr == __NR_setxattrat) {
			struct {
				uint64_t value;
				uint32_t size, flags;
			} args;
			if (a[5] < sizeof args)
				return -EINVAL;
			if (a[5] > 4096)
				return -E2BIG;
			if ((r = caller_read(c, a[4], &args, sizeof args)) < 0)
				return r;
			op.xflags = (int)args.flags;
			r = read_xattr(c, a[3], args.value, args.size, &op);
		} else {
			r = read_xattr(c, a[3], 0, 0, &op);
		}
		if (r >= 0)
			r = meta_path(s, c, &op, (int)a[0], a[1], !(flags & AT_SYMLINK_NOFOLLOW), flags & AT_EMPTY_PATH);
		free(op.value);
		return r;
	}
	case __NR_file_setattr: {
		unsigned flags = (unsigned)a[4];
		if (flags & ~(unsigned)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
			return -EINVAL;
		op = (struct meta_op){.kind = META_SETATTR, .call = "chattr"};
		if (a[3] < 24)
			return -EINVAL;
		if (a[3] > sizeof op.attr)
			return -E2BIG;
		op.attr_size = (size_t)a[3];
		if ((r = caller_read(c, a[2], op.attr, op.attr_size)) < 0)
			return r;
		return meta_path(s, c, &op, (int)a[0], a[1], !(flags & AT_SYMLINK_NOFOLLOW), flags & AT_EMPTY_PATH);
	}
	case __NR_ioctl:
		op = (struct meta_op){.kind = META_IOCTL, .call = "chattr", .cmd = (unsigned long)(uint32_t)a[1]};
		if ((r = read_ioctl(c, a[2], &op)) < 0)
			return r;
		return meta_fd(s, c, &op, (int)a[0]);
	}
	return -ENOSYS;
}

/* ---- sockets -------------------------------------------------------------- */

/* Whether a socket of this session is bound to the file st: one the
 * supervisor saw a process of the session bind (supervisor_note_bind). A
 * socket made outside (the human's tmux or X server in /tmp, another
 * session's) is not among them. */
static bool made_in_session(struct supervisor *s, const struct stat *st)
{
	for (size_t i = s->nmade; i-- > 0;) {
		dev_t dev;
		uint64_t ino32;
		if (unix_diag_bound_file(s->made[i], &dev, &ino32) != 0) {
			s->made[i] = s->made[--s->nmade]; /* closed since */
			continue;
		}
		if (dev == st->st_dev && ino32 == (uint32_t)st->st_ino)
			return true;
	}
	return false;
}

/* bind: the socket is noted as the session's, and the call goes on as the
 * caller made it (nothing is decided: Landlock says where a socket file
 * may be made). A socket swapped in after the note is simply not known. */
static void bind_call(struct supervisor *s, struct caller *c, const uint64_t *a)
{
	int mine = caller_fd(c, (int)a[0]);
	int domain = 0;
	socklen_t dl = sizeof domain;
	struct stat st;
	if (mine >= 0 && getsockopt(mine, SOL_SOCKET, SO_DOMAIN, &domain, &dl) == 0 && domain == AF_UNIX &&
	    fstat(mine, &st) == 0) {
		if (s->nmade == SUPERVISOR_MADE_MAX) {
			/* the oldest goes; the ones closed since go at the next look */
			memmove(s->made, s->made + 1, (SUPERVISOR_MADE_MAX - 1) * sizeof *s->made);
			s->nmade--;
		}
		s->made[s->nmade++] = (uint64_t)st.st_ino;
	}
	if (mine >= 0)
		close(mine);
	memset(s->resp, 0, s->resp_size);
	s->resp->id = c->id;
	s->resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	while (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SEND, s->resp) != 0 && errno == EINTR) {
	}
}

static bool allowed_socket(const struct supervisor *s, const struct stat *st)
{
	for (size_t i = 0; i < s->pol->allowed.len; i++) {
		struct stat a;
		if (stat(s->pol->allowed.items[i], &a) == 0 && S_ISSOCK(a.st_mode) && a.st_dev == st->st_dev &&
		    a.st_ino == st->st_ino)
			return true;
	}
	return false;
}

/* A pathname address for our copy sock of the caller's socket: decided,
 * and made /proc/self/fd/N of the socket file held in *held. Other
 * addresses are left as they are. 0, or -errno to answer. */
static int unix_target(struct supervisor *s, struct caller *c, int sock, struct sockaddr_storage *addr,
                       socklen_t *len, int *held)
{
	*held = -1;
	struct sockaddr_un *un = (struct sockaddr_un *)addr;
	int domain = 0;
	socklen_t dl = sizeof domain;
	if (*len <= offsetof(struct sockaddr_un, sun_path) || un->sun_family != AF_UNIX || un->sun_path[0] == '\0' ||
	    getsockopt(sock, SOL_SOCKET, SO_DOMAIN, &domain, &dl) != 0 || domain != AF_UNIX)
		return 0;
	if (*len > sizeof *un)
		return -EINVAL; /* as the kernel says; the path we pass on would be valid */
	char path[sizeof un->sun_path + 1];
	size_t n = strnlen(un->sun_path, *len - offsetof(struct sockaddr_un, sun_path));
	memcpy(path, un->sun_path, n);
	path[n] = '\0';
	int base = -1;
	if (path[0] != '/' && (base = caller_dirfd(c, AT_FDCWD)) < 0)
		return base;
	struct resolved t;
	int r = resolve_path(c, base, path, true, &t);
	if (base >= 0)
		close(base);
	if (r < 0)
		return r;
	if (!S_ISSOCK(t.st.st_mode)) {
		resolved_close(&t);
		return -ECONNREFUSED;
	}
	bool unlinked;
	const struct supervisor_grant *g = allowed_socket(s, &t.st) ? NULL : beneath_grant(s, &t, &unlinked);
	bool ok = allowed_socket(s, &t.st) || (g && (!g->shared || made_in_session(s, &t.st)));
	if (!ok) {
		char *name = object_name(t.obj, path);
		supervisor_explain(s, NULL, name, g != NULL);
		free(name);
		resolved_close(&t);
		return -EACCES;
	}
	memset(un, 0, sizeof *un);
	un->sun_family = AF_UNIX;
	snprintf(un->sun_path, sizeof un->sun_path, "/proc/self/fd/%d", t.obj);
	*len = (socklen_t)sizeof *un;
	*held = t.obj;
	t.obj = -1;
	resolved_close(&t);
	return 0;
}

/* ---- inet addresses ------------------------------------------------------- */

static bool port_in(const uint16_t *ports, size_t n, uint16_t port)
{
	for (size_t i = 0; i < n; i++)
		if (ports[i] == port)
			return true;
	return false;
}

static bool is_v4(const struct in6_addr *a, uint32_t host_order)
{
	uint32_t v4 = htonl(host_order);
	return IN6_IS_ADDR_V4MAPPED(a) && memcmp(&a->s6_addr[12], &v4, 4) == 0;
}

/* 127.0.0.1 or ::1: what localhost:PORT names. Not 0.0.0.0 (which the
 * kernel takes for 127.0.0.1) nor the rest of 127/8: one spelling each. */
static bool is_localhost(const struct in6_addr *a)
{
	return is_v4(a, INADDR_LOOPBACK) || IN6_IS_ADDR_LOOPBACK(a);
}

bool supervisor_net_allows(const struct supervisor_net *n, bool datagram, const struct in6_addr *a, uint16_t port)
{
	if (datagram) {
		if (n->udp == SUPERVISOR_UDP_OPEN)
			return true;
		if (n->udp == SUPERVISOR_UDP_CLOSED || port != 53)
			return false;
		for (size_t i = 0; i < n->nnameservers; i++)
			if (memcmp(&n->nameservers[i], a, sizeof *a) == 0)
				return true;
		return false;
	}
	if (!n->check_tcp || port_in(n->any_ports, n->nany, port))
		return true;
	if (port_in(n->local_ports, n->nlocal, port) && is_localhost(a))
		return true;
	return n->proxy_port && port == n->proxy_port && is_v4(a, INADDR_LOOPBACK);
}

static void explain_inet(struct supervisor *s, bool datagram, const struct in6_addr *a, uint16_t port)
{
	char text[INET6_ADDRSTRLEN], host[INET6_ADDRSTRLEN + 2], where[INET6_ADDRSTRLEN + 16];
	if (IN6_IS_ADDR_V4MAPPED(a)) {
		inet_ntop(AF_INET, &a->s6_addr[12], host, sizeof host);
	} else {
		inet_ntop(AF_INET6, a, text, sizeof text);
		snprintf(host, sizeof host, "[%s]", text);
	}
	snprintf(where, sizeof where, "%s %s:%u", datagram ? "udp" : "tcp", host, port);
	for (size_t i = 0; i < s->explained.len; i++)
		if (strcmp(s->explained.items[i], where) == 0)
			return;
	if (s->hint_fd < 0 || s->explained.len >= 64)
		return;
	strvec_push(&s->explained, where);
	const struct supervisor_net *n = &s->pol->net;
	char *line;
	if (datagram && n->udp == SUPERVISOR_UDP_DNS)
		line = xasprintf("sbsh: the sandbox refused UDP to %s:%u (with a port allow-list UDP reaches only the "
		                 "nameservers of /etc/resolv.conf, on port 53)\n",
		                 host, port);
	else if (datagram)
		line = xasprintf("sbsh: the sandbox refused UDP to %s:%u (UDP is cut with --net=off and with a host "
		                 "allow-list, whose names the proxy resolves)\n",
		                 host, port);
	else if (port_in(n->local_ports, n->nlocal, port))
		line = xasprintf("sbsh: the sandbox refused a connection to %s:%u (localhost:%u is allowed on "
		                 "127.0.0.1 and ::1 only)\n",
		                 host, port, port);
	else if (n->proxy_port)
		line = xasprintf("sbsh: the sandbox refused a connection to %s:%u (the listed hosts are reached "
		                 "through sbsh's proxy, http://127.0.0.1:%u in HTTPS_PROXY, not directly)\n",
		                 host, port, n->proxy_port);
	else
		line = xasprintf("sbsh: the sandbox refused a connection to %s:%u (not on the network allow-list)\n",
		                 host, port);
	ssize_t ignored = write(s->hint_fd, line, strlen(line));
	(void)ignored;
	free(line);
}

/* An address for our copy sock of an AF_INET or AF_INET6 socket, checked
 * as the kernel will read it (the very bytes we pass on): an IPv4 address
 * on an IPv6 socket, ::ffff:a.b.c.d, and the AF_UNSPEC that a send on an
 * IPv4 datagram socket takes for AF_INET. An AF_UNSPEC connect (a
 * disconnect) and one sent on a stream socket (TCP Fast Open disconnects)
 * name nobody. 0, or -errno to answer. */
static int inet_target(struct supervisor *s, int sock, const struct sockaddr_storage *addr, socklen_t len,
                       bool connecting)
{
	const struct supervisor_net *n = &s->pol->net;
	if (!n->check_tcp && n->udp == SUPERVISOR_UDP_OPEN)
		return 0; /* --net=on: nothing to look at */
	int domain = 0, type = 0;
	socklen_t dl = sizeof domain, tl = sizeof type;
	if (getsockopt(sock, SOL_SOCKET, SO_DOMAIN, &domain, &dl) != 0 || (domain != AF_INET && domain != AF_INET6) ||
	    getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &tl) != 0)
		return 0;
	if (len < sizeof(sa_family_t))
		return -EINVAL;
	bool datagram = type == SOCK_DGRAM;
	sa_family_t family = addr->ss_family;
	if (family == AF_UNSPEC) {
		if (connecting || !datagram || domain != AF_INET)
			return 0;
		family = AF_INET;
	}
	struct in6_addr a;
	uint16_t port;
	if (family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)addr;
		if (len < sizeof *in)
			return -EINVAL;
		memset(&a, 0, sizeof a);
		a.s6_addr[10] = a.s6_addr[11] = 0xff;
		memcpy(&a.s6_addr[12], &in->sin_addr, 4);
		port = ntohs(in->sin_port);
	} else if (family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)addr;
		if (len < 24) /* SIN6_LEN_RFC2133: without the scope id */
			return -EINVAL;
		memcpy(&a, &in6->sin6_addr, sizeof a);
		port = ntohs(in6->sin6_port);
	} else {
		return -EAFNOSUPPORT;
	}
	if (supervisor_net_allows(n, datagram, &a, port))
		return 0;
	explain_inet(s, datagram, &a, port);
	return -EACCES;
}

/* The caller's address, decided: a unix path made the held file's, an
 * inet address checked against the network mode. */
static int decide_address(struct supervisor *s, struct caller *c, int sock, struct sockaddr_storage *addr,
                          socklen_t *len, int *held, bool connecting)
{
	int r = unix_target(s, c, sock, addr, len, held);
	if (r == 0 && *held < 0)
		r = inet_target(s, sock, addr, *len, connecting);
	return r;
}

static bool nonblocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	return fl >= 0 && (fl & O_NONBLOCK);
}

static int64_t now_ms(void)
{
	return util_now_ms();
}

void pending_free(struct pending *p)
{
	if (p->fd >= 0)
		close(p->fd);
	for (size_t i = 0; i < p->nmsgs; i++) {
		free(p->msgs[i].data);
		free(p->msgs[i].control);
		for (size_t k = 0; k < p->msgs[i].nfds; k++)
			close(p->msgs[i].fds[k]);
		free(p->msgs[i].fds);
	}
	free(p->msgs);
	caller_release(&p->who);
	p->fd = -1;
	p->msgs = NULL;
	p->nmsgs = 0;
}

static void finish(struct supervisor *s, struct pending *p, int64_t val_or_negerr)
{
	/* the caller's send raises SIGPIPE in the caller; ours never does */
	if (val_or_negerr == -EPIPE && p->kind == PENDING_SEND && !p->caller_nosignal && caller_tgid(&p->who) > 0)
		syscall(SYS_tgkill, p->who.tgid, p->who.tid, SIGPIPE);
	answer(s, &p->who, val_or_negerr);
}

static bool connect_step(struct supervisor *s, struct pending *p, short revents, int64_t now)
{
	if (p->in_progress) {
		if (!(revents & (POLLOUT | POLLERR | POLLHUP)))
			return false;
		int err = 0;
		socklen_t len = sizeof err;
		if (getsockopt(p->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
			err = errno;
		finish(s, p, err ? -err : 0);
		return true;
	}
	if (p->retry_ms && now < p->retry_ms)
		return false;
	p->retry_ms = 0;
	int fl = fcntl(p->fd, F_GETFL);
	if (fl < 0) {
		finish(s, p, -errno);
		return true;
	}
	if (fl & O_NONBLOCK) {
		int r = connect(p->fd, (struct sockaddr *)&p->addr, p->addrlen);
		finish(s, p, r == 0 ? 0 : -errno);
		return true;
	}
	/* The caller's socket blocks; the supervisor must not. O_NONBLOCK is
	 * on the open file, which the caller's other threads share: it is set
	 * only for this one call. */
	fcntl(p->fd, F_SETFL, fl | O_NONBLOCK);
	int r = connect(p->fd, (struct sockaddr *)&p->addr, p->addrlen);
	int err = r == 0 ? 0 : errno;
	fcntl(p->fd, F_SETFL, fl);
	if (err == EINPROGRESS) {
		p->in_progress = true;
		return false;
	}
	if (err == EAGAIN) {
		/* a unix listener's backlog is full: a blocking connect waits */
		p->retry_ms = now + 10;
		return false;
	}
	finish(s, p, -err);
	return true;
}

static ssize_t send_one(int fd, struct out_msg *m, int flags)
{
	struct iovec iov = {.iov_base = m->data + m->off, .iov_len = m->len - m->off};
	struct msghdr h = {.msg_name = m->namelen ? &m->name : NULL, .msg_namelen = m->namelen, .msg_iov = &iov,
	                   .msg_iovlen = 1};
	if (m->off == 0 && m->controllen) {
		h.msg_control = m->control;
		h.msg_controllen = m->controllen;
	}
	ssize_t n;
	do
		n = sendmsg(fd, &h, flags);
	while (n < 0 && errno == EINTR);
	return n;
}

/* What a send answers: the bytes of a single message, or the messages of
 * sendmmsg; a failure after some were sent reports those. */
static int64_t send_result(const struct pending *p, int err)
{
	bool mmsg = p->msgs[0].len_at != 0;
	if (mmsg)
		return p->at > 0 ? (int64_t)p->at : -err;
	if (err && p->msgs[0].off > 0)
		return (int64_t)p->msgs[0].off;
	return err ? -err : (int64_t)p->msgs[0].off;
}

static bool send_step(struct supervisor *s, struct pending *p, short revents, int64_t now)
{
	(void)now;
	if (revents & POLLNVAL) {
		finish(s, p, send_result(p, EBADF));
		return true;
	}
	bool caller_waits = !p->caller_dontwait && !nonblocking(p->fd);
	while (p->at < p->nmsgs) {
		struct out_msg *m = &p->msgs[p->at];
		ssize_t n = send_one(p->fd, m, p->flags | MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0) {
			int err = errno;
			if ((err == EAGAIN || err == EWOULDBLOCK) && caller_waits)
				return false;
			finish(s, p, send_result(p, err));
			return true;
		}
		m->off += (size_t)n;
		if (p->stream && m->off < m->len && n > 0) {
			if (!caller_waits) {
				/* a socket that does not block takes what it takes */
				finish(s, p, send_result(p, 0));
				return true;
			}
			continue;
		}
		if (m->len_at) {
			unsigned int sent = (unsigned int)m->off;
			caller_write(&p->who, m->len_at, &sent, sizeof sent);
		}
		p->at++;
	}
	finish(s, p, send_result(p, 0));
	return true;
}

bool pending_step(struct supervisor *s, struct pending *p, short revents, int64_t now)
{
	return p->kind == PENDING_CONNECT ? connect_step(s, p, revents, now) : send_step(s, p, revents, now);
}

/* Control data as sent, with the caller's descriptors replaced by ours and
 * SCM_CREDENTIALS made the supervisor's (the kernel takes only the
 * sender's own pid). */
static int translate_control(struct supervisor *s, struct caller *c, struct out_msg *m)
{
	struct msghdr h = {.msg_control = m->control, .msg_controllen = m->controllen};
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&h); cm; cm = CMSG_NXTHDR(&h, cm)) {
		if (cm->cmsg_len < CMSG_LEN(0) || (size_t)((char *)cm - m->control) + cm->cmsg_len > m->controllen)
			return -EINVAL;
		if (cm->cmsg_level != SOL_SOCKET)
			continue;
		if (cm->cmsg_type == SCM_RIGHTS) {
			size_t n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			if (m->nfds + n > 253)
				return -EINVAL; /* the kernel's SCM_MAX_FD */
			int *fds = (int *)CMSG_DATA(cm);
			for (size_t i = 0; i < n; i++) {
				int theirs;
				memcpy(&theirs, &fds[i], sizeof theirs);
				int mine = caller_fd(c, theirs);
				if (mine < 0)
					return mine == -ESRCH ? -ESRCH : -EBADF;
				m->fds = xreallocarray(m->fds, m->nfds + 1, sizeof *m->fds);
				m->fds[m->nfds++] = mine;
				memcpy(&fds[i], &mine, sizeof mine);
			}
		} else if (cm->cmsg_type == SCM_CREDENTIALS && cm->cmsg_len >= CMSG_LEN(sizeof(struct ucred))) {
			struct ucred u;
			memcpy(&u, CMSG_DATA(cm), sizeof u);
			u.pid = s->self;
			memcpy(CMSG_DATA(cm), &u, sizeof u);
		}
	}
	return 0;
}

/* One message from the caller's memory: its address (decided), its data
 * gathered, its control data translated. */
static int read_message(struct supervisor *s, struct caller *c, int sock, bool stream_or_cap, uint64_t name,
                        uint64_t namelen, uint64_t iov, uint64_t iovlen, uint64_t control, uint64_t controllen,
                        struct out_msg *m, int *held)
{
	*held = -1;
	if ((int64_t)(int)namelen < 0)
		return -EINVAL;
	if (name && namelen) {
		m->namelen = (socklen_t)(namelen > sizeof m->name ? sizeof m->name : namelen);
		int r = caller_read(c, name, &m->name, m->namelen);
		if (r < 0)
			return r;
		r = decide_address(s, c, sock, &m->name, &m->namelen, held, false);
		if (r < 0)
			return r;
	}
	if (iovlen > IOV_MAX_CALLS)
		return -EMSGSIZE;
	struct iovec *v = xcalloc(iovlen ? iovlen : 1, sizeof *v);
	int r = caller_read(c, iov, v, iovlen * sizeof *v);
	size_t total = 0;
	for (size_t i = 0; r == 0 && i < iovlen; i++) {
		if (v[i].iov_len > SSIZE_MAX || total + v[i].iov_len < total)
			r = -EINVAL;
		total += v[i].iov_len;
	}
	if (r == 0 && total > SEND_CAP) {
		if (!stream_or_cap)
			r = -EMSGSIZE;
		total = SEND_CAP;
	}
	if (r == 0) {
		m->data = xmalloc(total ? total : 1);
		size_t at = 0;
		for (size_t i = 0; r == 0 && i < iovlen && at < total; i++) {
			size_t take = v[i].iov_len < total - at ? v[i].iov_len : total - at;
			r = caller_read(c, (uint64_t)(uintptr_t)v[i].iov_base, m->data + at, take);
			at += take;
		}
		m->len = total;
	}
	free(v);
	if (r == 0 && control && controllen) {
		if (controllen > CONTROL_CAP)
			return -ENOBUFS;
		m->controllen = (size_t)controllen;
		m->control = xmalloc(m->controllen);
		r = caller_read(c, control, m->control, m->controllen);
		if (r == 0)
			r = translate_control(s, c, m);
	}
	return r;
}

static int socket_type(int fd)
{
	int type = 0;
	socklen_t len = sizeof type;
	return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 ? type : -1;
}

static size_t pending_bytes(const struct pending *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nmsgs; i++)
		n += p->msgs[i].len + p->msgs[i].controllen;
	return n;
}

static void start_pending(struct supervisor *s, struct pending *p)
{
	p->checked_ms = now_ms();
	if (pending_step(s, p, 0, p->checked_ms)) {
		pending_free(p);
		return;
	}
	size_t held = pending_bytes(p);
	for (size_t i = 0; i < s->npend; i++)
		held += pending_bytes(&s->pend[i]);
	if (held > PENDING_BYTES_CAP) {
		finish(s, p, p->kind == PENDING_SEND ? send_result(p, ENOBUFS) : -ENOBUFS);
		pending_free(p);
		return;
	}
	if (s->npend == s->cappend) {
		s->cappend = s->cappend ? s->cappend * 2 : 8;
		s->pend = xreallocarray(s->pend, s->cappend, sizeof *s->pend);
	}
	s->pend[s->npend++] = *p;
}

/* Our copy of the caller's socket, or the error its call gets. */
static int socket_of(struct caller *c, int fd)
{
	int mine = caller_fd(c, fd);
	if (mine < 0)
		return mine;
	struct stat st;
	if (fstat(mine, &st) != 0 || !S_ISSOCK(st.st_mode)) {
		close(mine);
		return -ENOTSOCK;
	}
	return mine;
}

static void socket_call(struct supervisor *s, struct caller *c, int nr, const uint64_t *a)
{
	int sock = socket_of(c, (int)a[0]);
	if (sock < 0) {
		answer(s, c, sock);
		return;
	}
	int type = socket_type(sock);
	struct pending p = {.who = *c, .fd = sock, .stream = type == SOCK_STREAM};
	c->pidfd = c->root = -1; /* now the pending call's */
	int held = -1;
	long r = 0;
	if (nr == __NR_connect) {
		p.kind = PENDING_CONNECT;
		p.addrlen = (socklen_t)a[2];
		/* the kernel takes no more (the filter sends no longer ones) */
		r = a[2] > sizeof p.addr ? -EINVAL : caller_read(&p.who, a[1], &p.addr, p.addrlen);
		if (r == 0)
			r = decide_address(s, &p.who, sock, &p.addr, &p.addrlen, &held, true);
	} else {
		p.kind = PENDING_SEND;
		uint64_t flags = nr == __NR_sendmmsg ? a[3] : a[nr == __NR_sendto ? 3 : 2];
		p.caller_nosignal = (flags & MSG_NOSIGNAL) != 0;
		/* the caller's MSG_DONTWAIT is kept aside: ours is always added */
		p.caller_dontwait = (flags & MSG_DONTWAIT) != 0;
		p.flags = (int)(flags & ~(uint64_t)(MSG_DONTWAIT | MSG_NOSIGNAL));
		if (nr == __NR_sendto) {
			p.nmsgs = 1;
			p.msgs = xcalloc(1, sizeof *p.msgs);
			struct out_msg *m = &p.msgs[0];
			m->namelen = (socklen_t)(a[5] > sizeof m->name ? sizeof m->name : a[5]);
			r = caller_read(&p.who, a[4], &m->name, m->namelen);
			if (r == 0)
				r = decide_address(s, &p.who, sock, &m->name, &m->namelen, &held, false);
			if (r == 0) {
				size_t len = (size_t)a[2];
				if (len > SEND_CAP) {
					if (!p.stream)
						r = -EMSGSIZE;
					len = SEND_CAP;
				}
				if (r == 0) {
					m->data = xmalloc(len ? len : 1);
					m->len = len;
					r = caller_read(&p.who, a[1], m->data, len);
				}
			}
		} else if (nr == __NR_sendmsg) {
			struct msghdr h;
			p.nmsgs = 1;
			p.msgs = xcalloc(1, sizeof *p.msgs);
			r = caller_read(&p.who, a[1], &h, sizeof h);
			if (r == 0)
				r = read_message(s, &p.who, sock, p.stream, (uint64_t)(uintptr_t)h.msg_name, h.msg_namelen,
				                 (uint64_t)(uintptr_t)h.msg_iov, h.msg_iovlen, (uint64_t)(uintptr_t)h.msg_control,
				                 h.msg_controllen, &p.msgs[0], &held);
		} else {
			uint64_t vlen = (uint32_t)a[2];
			if (vlen > MMSG_MAX)
				vlen = MMSG_MAX;
			struct mmsghdr *v = xcalloc(vlen ? vlen : 1, sizeof *v);
			r = caller_read(&p.who, a[1], v, vlen * sizeof *v);
			p.msgs = xcalloc(vlen ? vlen : 1, sizeof *p.msgs);
			size_t gathered = 0;
			for (uint64_t i = 0; r == 0 && i < vlen && gathered < MMSG_BYTES_CAP; i++) {
				int h2 = -1;
				struct msghdr *h = &v[i].msg_hdr;
				r = read_message(s, &p.who, sock, p.stream, (uint64_t)(uintptr_t)h->msg_name, h->msg_namelen,
				                 (uint64_t)(uintptr_t)h->msg_iov, h->msg_iovlen,
				                 (uint64_t)(uintptr_t)h->msg_control, h->msg_controllen, &p.msgs[i], &h2);
				p.msgs[i].len_at = a[1] + i * sizeof *v + offsetof(struct mmsghdr, msg_len);
				p.nmsgs = i + 1;
				gathered += p.msgs[i].len;
				if (r < 0 && i > 0) {
					/* as the kernel does: the messages before one that
					 * fails are sent, and their count answered */
					free(p.msgs[i].data);
					free(p.msgs[i].control);
					for (size_t k = 0; k < p.msgs[i].nfds; k++)
						close(p.msgs[i].fds[k]);
					free(p.msgs[i].fds);
					memset(&p.msgs[i], 0, sizeof p.msgs[i]);
					p.nmsgs = i;
					if (h2 >= 0)
						close(h2);
					r = 0;
					break;
				}
				/* the socket file stays held in the message's descriptors */
				if (h2 >= 0) {
					p.msgs[i].fds = xreallocarray(p.msgs[i].fds, p.msgs[i].nfds + 1, sizeof(int));
					p.msgs[i].fds[p.msgs[i].nfds++] = h2;
				}
			}
			free(v);
			if (r == 0 && vlen == 0) {
				pending_free(&p);
				answer(s, c, 0);
				return;
			}
		}
		if (held >= 0 && p.nmsgs) {
			p.msgs[0].fds = xreallocarray(p.msgs[0].fds, p.msgs[0].nfds + 1, sizeof(int));
			p.msgs[0].fds[p.msgs[0].nfds++] = held;
			held = -1;
		}
	}
	if (r == 0 && !caller_waiting(s, &p.who))
		r = -ESRCH;
	if (r < 0) {
		if (held >= 0)
			close(held);
		if (r != -ESRCH)
			answer(s, &p.who, r);
		pending_free(&p);
		return;
	}
	if (p.kind == PENDING_CONNECT && held >= 0) {
		/* the address names the held file: keep it until connected */
		p.msgs = xcalloc(1, sizeof *p.msgs);
		p.nmsgs = 1;
		p.msgs[0].fds = xmalloc(sizeof(int));
		p.msgs[0].fds[0] = held;
		p.msgs[0].nfds = 1;
	}
	start_pending(s, &p);
}

void supervise_call(struct supervisor *s)
{
	struct caller c;
	caller_init(&c, s->req);
	int nr = s->req->data.nr;
	const uint64_t *a = (const uint64_t *)s->req->data.args;
	if (nr == __NR_fchmod && (int)a[0] == -1 && (uint32_t)a[1] == SUPERVISOR_PROBE_MODE) {
		answer(s, &c, 0); /* a nested sbsh asking whether we are here */
	} else if (nr == __NR_bind) {
		bind_call(s, &c, a);
	} else if (nr == __NR_connect || nr == __NR_sendto || nr == __NR_sendmsg || nr == __NR_sendmmsg) {
		socket_call(s, &c, nr, a);
	} else {
		long r = metadata_call(s, &c, nr, a);
		if (r != -ESRCH)
			answer(s, &c, r);
	}
	caller_release(&c);
}
