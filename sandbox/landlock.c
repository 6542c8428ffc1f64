/* Landlock for the shell process: the system calls, the rights each ABI
 * knows, and the rules: read and execute everywhere but /dev, the writable
 * folders, TCP ports, the shell's own pty. sandbox.c decides which and when. */
#include "sandbox/landlock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/util.h"
#include "sandbox/hide.h"

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_CREATE_RULESET_ERRATA (1U << 1)
#define LL_RULE_PATH_BENEATH 1
#define LL_RULE_NET_PORT 2

/* Our own copies of the UAPI structs: the attribute grows with the ABI
 * (8, 16, 24 bytes), the path rule is packed. */
struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct ll_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

struct ll_net_port_attr {
	uint64_t allowed_access;
	uint64_t port;
};

static long ll_create_ruleset(const struct ll_ruleset_attr *attr, size_t size, uint32_t flags)
{
	return syscall(__NR_landlock_create_ruleset, attr, size, flags);
}

static long ll_add_rule(int fd, int type, const void *attr)
{
	return syscall(__NR_landlock_add_rule, fd, type, attr, 0U);
}

static long ll_restrict_self(int fd, uint32_t flags)
{
	return syscall(__NR_landlock_restrict_self, fd, flags);
}

uint64_t sandbox_fs_rights_for_abi(int abi)
{
	if (abi <= 0)
		return 0;
	uint64_t r = (1ULL << 13) - 1; /* EXECUTE .. MAKE_SYM */
	if (abi >= 2)
		r |= LL_FS_REFER;
	if (abi >= 3)
		r |= LL_FS_TRUNCATE;
	if (abi >= 5)
		r |= LL_FS_IOCTL_DEV;
	if (abi >= 9)
		r |= LL_FS_RESOLVE_UNIX;
	return r;
}

uint64_t sandbox_scopes_for_abi(int abi)
{
	return abi >= 6 ? (LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL) : 0;
}

uint64_t sandbox_file_rights(uint64_t rights)
{
	return rights & (LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE |
	                 LL_FS_IOCTL_DEV);
}

void sandbox_probe(struct sandbox_state *st)
{
	long abi = ll_create_ruleset(NULL, 0, LL_CREATE_RULESET_VERSION);
	st->abi = abi > 0 ? (int)abi : 0;
	long errata = st->abi ? ll_create_ruleset(NULL, 0, LL_CREATE_RULESET_ERRATA) : -1;
	st->errata = errata > 0 ? (int)errata : 0;
}

int sandbox_landlock_ruleset(const struct sandbox_state *st)
{
	size_t attr_size = st->abi >= 6 ? 24 : st->abi >= 4 ? 16 : 8;
	struct ll_ruleset_attr attr = {
		.handled_access_fs = st->fs_handled,
		.handled_access_net = st->net_handled,
		.scoped = st->scoped,
	};
	return (int)ll_create_ruleset(&attr, attr_size, 0);
}

static int add_fd_rule(int ruleset, int fd, bool is_dir, uint64_t rights, uint64_t handled)
{
	rights &= handled;
	if (!is_dir)
		rights = sandbox_file_rights(rights);
	if (!rights)
		return 0;
	struct ll_path_beneath_attr attr = {.allowed_access = rights, .parent_fd = fd};
	return ll_add_rule(ruleset, LL_RULE_PATH_BENEATH, &attr) == 0 ? 0 : -1;
}

static int add_path_rule(int ruleset, const char *path, uint64_t rights, uint64_t handled)
{
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat sb;
	int r = fstat(fd, &sb) == 0 ? add_fd_rule(ruleset, fd, S_ISDIR(sb.st_mode), rights, handled) : -1;
	int saved = errno;
	close(fd);
	errno = saved;
	return r;
}

/* The descriptors opened only to name a rule are closed together, by one
 * close_range() per run of consecutive numbers once the rules are made:
 * ~40 close() calls fewer. They are kept open until then, so a low limit
 * on open files (ulimit -n) flushes the batch early and retries. */
struct fd_batch {
	int fd[64];
	size_t n;
};

/* Runs are taken in the order the descriptors came: the lowest free
 * number each time, so ascending but where another descriptor sat. */
static void fd_batch_flush(struct fd_batch *b)
{
	for (size_t i = 0; i < b->n;) {
		size_t j = i;
		while (j + 1 < b->n && b->fd[j + 1] == b->fd[j] + 1)
			j++;
		if (close_range((unsigned)b->fd[i], (unsigned)b->fd[j], 0) != 0)
			for (size_t k = i; k <= j; k++)
				close(b->fd[k]);
		i = j + 1;
	}
	b->n = 0;
}

static void fd_batch_add(struct fd_batch *b, int fd)
{
	if (b->n == sizeof b->fd / sizeof b->fd[0])
		fd_batch_flush(b);
	b->fd[b->n++] = fd;
}

static int open_for_rule(struct fd_batch *b, int dir, const char *name, int flags)
{
	int fd = openat(dir, name, flags);
	if (fd < 0 && errno == EMFILE && b->n) {
		fd_batch_flush(b);
		fd = openat(dir, name, flags);
	}
	return fd;
}

/* What the walk that makes the read rules carries down. */
struct read_walk {
	int ruleset;
	uint64_t handled;
	struct fd_batch *batch;
	const struct hide_plan *plan;
	const struct sandbox_grant *grants;
	size_t ngrants;
	struct sandbox_state *st;
	char path[PATH_MAX]; /* the folder walked, "" for / */
};

static const uint64_t read_rights = LL_FS_READ_FILE | LL_FS_READ_DIR | LL_FS_EXECUTE;

/* The writable folder sb is, if it is one: what it holds stays readable
 * whatever is hidden, since its own rule grants reading too. */
static const char *grant_named(const struct read_walk *w, const struct stat *sb)
{
	for (size_t i = 0; i < w->ngrants; i++)
		if (w->grants[i].dev == sb->st_dev && w->grants[i].ino == sb->st_ino)
			return w->grants[i].why;
	return NULL;
}

/* An entry no rule reaches, w->path being its path: listed for --doctor
 * and the hints, or as still readable when a writable folder holds it. */
static void note_hidden(struct read_walk *w, int dir, const char *name, const char *grant_why)
{
	struct stat sb;
	if (!grant_why && fstatat(dir, name, &sb, AT_SYMLINK_NOFOLLOW) == 0)
		grant_why = grant_named(w, &sb);
	if (grant_why)
		strvec_push_owned(&w->st->hidden_readable,
		                  xasprintf("%s: in a writable folder (%s)", w->path, grant_why));
	else
		strvec_push(&w->st->hidden, w->path);
}

static void grant_entry(struct read_walk *w, int dir, const char *name, unsigned char type)
{
	int fd = open_for_rule(w->batch, dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	bool is_dir = type == DT_DIR;
	if (type != DT_DIR && type != DT_REG) {
		struct stat sb;
		if (fstat(fd, &sb) != 0 || S_ISLNK(sb.st_mode)) {
			close(fd);
			return;
		}
		is_dir = S_ISDIR(sb.st_mode);
	}
	add_fd_rule(w->ruleset, fd, is_dir, read_rights, w->handled);
	fd_batch_add(w->batch, fd);
}

/* Grants reading each entry of the folder open on dir (w->path, len
 * bytes) but the hidden ones, and walks down into those with hidden paths
 * below them. A link gets no rule: its target is checked as itself, and
 * at / leads into another child of / or into /dev. */
static void walk_folder(struct read_walk *w, int dir, size_t len, bool hidden, const char *grant_why,
                        int depth)
{
	struct hide_folder f;
	hide_folder_at(w->plan, len ? w->path : "/", &f);
	/* getdents64 straight into a buffer: a DIR would malloc 32 KB. */
	enum { BUF = 4096 };
	char *buf = xmalloc(BUF);
	long n;
	while ((n = syscall(SYS_getdents64, dir, buf, BUF)) > 0) {
		for (long at = 0; at < n;) {
			const struct dirent64 *e = (const struct dirent64 *)(buf + at);
			at += e->d_reclen;
			const char *name = e->d_name;
			if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || (len == 0 && strcmp(name, "dev") == 0) ||
			    e->d_type == DT_LNK)
				continue;
			size_t nlen = strlen(name);
			bool fits = len + 1 + nlen < sizeof w->path;
			if (fits) {
				w->path[len] = '/';
				memcpy(w->path + len + 1, name, nlen + 1);
			}
			bool hide = hide_folder_hides(w->plan, &f, name, hidden);
			if (hide_folder_below(&f, name)) {
				int sub = fits && depth < 64 ? open_for_rule(w->batch, dir, name,
				                                             O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
				                             : -1;
				if (sub >= 0) {
					struct stat sb;
					const char *sub_grant = grant_why;
					if (!sub_grant && fstat(sub, &sb) == 0)
						sub_grant = grant_named(w, &sb);
					walk_folder(w, sub, len + 1 + nlen, hide, sub_grant, depth + 1);
					close(sub);
					continue;
				}
				/* Not a folder after all (a file where a hidden path
				 * would run through): decided as itself. One that cannot
				 * be walked, too deep or unopenable: left unread. */
				if (!(fits && depth < 64 && (errno == ENOTDIR || errno == ELOOP)))
					hide = true;
			}
			if (!hide)
				grant_entry(w, dir, name, e->d_type);
			else if (fits)
				note_hidden(w, dir, name, grant_why);
		}
	}
	w->path[len] = '\0';
	free(buf);
	hide_folder_free(&f);
}

/* Read and execute everywhere but /dev and the hidden paths (hide.c):
 * the human's terminal and other ptys live in /dev, and reading them
 * would let a command see the answer to an approval prompt. The harmless
 * device nodes are added back one by one. */
static int add_read_rules(int ruleset, const struct sandbox_config *cfg, struct sandbox_state *st,
                          const struct sandbox_grant *grants, size_t ngrants, struct fd_batch *batch)
{
	uint64_t handled = st->fs_handled;
	int root = open_for_rule(batch, AT_FDCWD, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -1;
	/* Listing folders is harmless everywhere, /dev and hidden ones included. */
	if (add_fd_rule(ruleset, root, true, LL_FS_READ_DIR, handled) != 0) {
		close(root);
		return -1;
	}
	struct hide_plan plan;
	hide_plan_make(cfg, &plan);
	struct read_walk *w = xmalloc(sizeof *w);
	*w = (struct read_walk){.ruleset = ruleset, .handled = handled, .batch = batch, .plan = &plan,
	                        .grants = grants, .ngrants = ngrants, .st = st};
	w->path[0] = '\0';
	walk_folder(w, root, 0, false, NULL, 0);
	free(w);
	hide_plan_free(&plan);
	fd_batch_add(batch, root);
	/* Only real nodes: /dev/stdin, /dev/fd and the like are links into
	 * /proc, whose targets are checked as themselves. File rights suit
	 * any node, so no stat is needed to tell. */
	int dev = open_for_rule(batch, AT_FDCWD, "/dev", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dev < 0)
		return 0;
	const struct {
		const char *name;
		uint64_t rights;
	} nodes[] = {
		{"random", LL_FS_READ_FILE},
		{"urandom", LL_FS_READ_FILE},
		{"null", LL_FS_READ_FILE | LL_FS_WRITE_FILE | LL_FS_TRUNCATE},
		{"zero", LL_FS_READ_FILE | LL_FS_WRITE_FILE | LL_FS_TRUNCATE},
		{"full", LL_FS_READ_FILE | LL_FS_WRITE_FILE | LL_FS_TRUNCATE},
	};
	for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
		int fd = open_for_rule(batch, dev, nodes[i].name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		add_fd_rule(ruleset, fd, false, nodes[i].rights, handled);
		fd_batch_add(batch, fd);
	}
	fd_batch_add(batch, dev);
	return 0;
}

/* The shell's own terminal, when the broker gave it a pty of its own:
 * full use, ioctls included, since nothing of the human's is behind it. */
void sandbox_landlock_add_own_terminal(int ruleset, const char *pty_path, uint64_t handled)
{
	const uint64_t tty_rights = LL_FS_READ_FILE | LL_FS_WRITE_FILE | LL_FS_IOCTL_DEV;
	add_path_rule(ruleset, pty_path, tty_rights, handled);
	add_path_rule(ruleset, "/dev/tty", tty_rights, handled);
}

void sandbox_landlock_add_readable(int ruleset, const char *path, uint64_t handled)
{
	add_path_rule(ruleset, path, read_rights, handled);
}

int sandbox_landlock_add_rules(int ruleset, const struct sandbox_config *cfg, struct sandbox_state *st,
                               struct sandbox_grant *grants, size_t ngrants, bool own_fds)
{
	struct fd_batch batch = {.n = 0};
	/* Everything in the writable roots but device ioctls and device nodes:
	 * a block device made in the project reads and writes the disk behind
	 * it, whatever the folder. (Root lacks CAP_MKNOD in the sandbox too.) */
	uint64_t write_rights = st->fs_handled & ~(LL_FS_IOCTL_DEV | LL_FS_MAKE_CHAR | LL_FS_MAKE_BLOCK);
	for (size_t i = 0; i < ngrants; i++) {
		if (add_fd_rule(ruleset, grants[i].fd, true, write_rights, st->fs_handled) == 0)
			grants[i].rights = write_rights;
		else
			strvec_push_owned(&st->skipped, xasprintf("%s (%s): %s", grants[i].path,
			                                           grants[i].why, strerror(errno)));
		if (own_fds)
			fd_batch_add(&batch, grants[i].fd);
		grants[i].fd = -1;
	}
	int rc = add_read_rules(ruleset, cfg, st, grants, ngrants, &batch);
	if (rc == 0 && cfg->net == SANDBOX_NET_ALLOW && st->net_handled) {
		for (size_t i = 0; i <= cfg->nports; i++) {
			/* the listed ports, then the proxy's, when one listens */
			uint16_t p = i < cfg->nports ? cfg->ports[i] : cfg->proxy_port;
			if (!p)
				continue;
			struct ll_net_port_attr port = {.allowed_access = LL_NET_CONNECT_TCP, .port = p};
			if (ll_add_rule(ruleset, LL_RULE_NET_PORT, &port) != 0)
				rc = -1;
		}
	}
	fd_batch_flush(&batch);
	return rc;
}

long sandbox_landlock_confine(int ruleset, uint32_t *flags)
{
	long r = ll_restrict_self(ruleset, *flags);
	if (r != 0 && *flags) {
		*flags = 0;
		r = ll_restrict_self(ruleset, 0);
	}
	return r;
}
