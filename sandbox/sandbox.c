/* Landlock + seccomp for the shell process. Best effort across ABI 1..9:
 * every right the kernel knows is handled, and whatever it lacks is
 * recorded for --doctor instead of silently assumed. */
#include "sandbox/sandbox.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

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

uint64_t sandbox_net_rights_for_abi(int abi)
{
	return abi >= 4 ? (LL_NET_BIND_TCP | LL_NET_CONNECT_TCP) : 0;
}

uint64_t sandbox_scopes_for_abi(int abi)
{
	return abi >= 6 ? (LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL) : 0;
}

uint32_t sandbox_restrict_flags_for_abi(int abi)
{
	uint32_t f = 0;
	if (abi >= 7)
		f |= LL_RESTRICT_LOG_SAME_EXEC_OFF | LL_RESTRICT_LOG_NEW_EXEC_ON |
		     LL_RESTRICT_LOG_SUBDOMAINS_OFF;
	if (abi >= 8)
		f |= LL_RESTRICT_TSYNC;
	return f;
}

uint64_t sandbox_file_rights(uint64_t rights)
{
	return rights & (LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE |
	                 LL_FS_IOCTL_DEV);
}

void sandbox_config_init(struct sandbox_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->mode = SANDBOX_AUTO;
	cfg->net = SANDBOX_NET_ON;
	strvec_init(&cfg->extra_write);
}

void sandbox_config_free(struct sandbox_config *cfg)
{
	strvec_free(&cfg->extra_write);
}

void sandbox_state_free(struct sandbox_state *st)
{
	for (size_t i = 0; i < st->ngrants; i++)
		free(st->grants[i].path);
	free(st->grants);
	st->grants = NULL;
	st->ngrants = 0;
	strvec_free(&st->skipped);
	strvec_free(&st->dropped);
	strvec_free(&st->env);
}

void sandbox_probe(struct sandbox_state *st)
{
	long abi = ll_create_ruleset(NULL, 0, LL_CREATE_RULESET_VERSION);
	st->abi = abi > 0 ? (int)abi : 0;
	long errata = st->abi ? ll_create_ruleset(NULL, 0, LL_CREATE_RULESET_ERRATA) : -1;
	st->errata = errata > 0 ? (int)errata : 0;
}

int sandbox_parse_net(struct sandbox_config *cfg, const char *spec)
{
	if (strcmp(spec, "on") == 0) {
		cfg->net = SANDBOX_NET_ON;
		return 0;
	}
	if (strcmp(spec, "off") == 0) {
		cfg->net = SANDBOX_NET_OFF;
		return 0;
	}
	if (strncmp(spec, "allow:", 6) != 0)
		return -1;
	const char *p = spec + 6;
	cfg->nports = 0;
	while (*p) {
		char *end;
		errno = 0;
		unsigned long port = strtoul(p, &end, 10);
		if (end == p || errno || port == 0 || port > 65535 || (*end && *end != ','))
			return -1;
		if (cfg->nports == SANDBOX_MAX_PORTS)
			return -1;
		cfg->ports[cfg->nports++] = (uint16_t)port;
		p = *end ? end + 1 : end;
	}
	if (cfg->nports == 0)
		return -1;
	cfg->net = SANDBOX_NET_ALLOW;
	return 0;
}

/* ---- the list of writable places ---------------------------------------- */

struct path_list {
	struct sandbox_grant *items;
	size_t len, cap;
};

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

static void add_grant(struct path_list *list, struct sandbox_state *st, const char *path,
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

static char *join(const char *a, const char *b)
{
	return xasprintf("%s/%s", a, b);
}

/* The package caches, each where its tool would look for it. */
static void add_caches(struct path_list *list, struct sandbox_state *st, const char *home,
                       const struct forbidden *home_real)
{
	char *p;
	const char *xdg_cache = env_nonempty("XDG_CACHE_HOME");
	char *cache = xdg_cache ? xstrdup(xdg_cache) : home ? join(home, ".cache") : NULL;

	/* npm */
	const char *npm = env_nonempty("npm_config_cache");
	if (!npm)
		npm = env_nonempty("NPM_CONFIG_CACHE");
	p = npm ? xstrdup(npm) : home ? join(home, ".npm") : NULL;
	add_grant(list, st, p, "npm cache", true, home_real);
	free(p);

	/* pip */
	const char *pip = env_nonempty("PIP_CACHE_DIR");
	p = pip ? xstrdup(pip) : cache ? join(cache, "pip") : NULL;
	add_grant(list, st, p, "pip cache", true, home_real);
	free(p);

	/* NuGet */
	const char *nuget = env_nonempty("NUGET_PACKAGES");
	p = nuget ? xstrdup(nuget) : home ? join(home, ".nuget/packages") : NULL;
	add_grant(list, st, p, "NuGet packages", true, home_real);
	if (p && !nuget)
		strvec_push_owned(&st->env, xasprintf("NUGET_PACKAGES=%s", p));
	free(p);

	/* Go: module cache and build cache */
	const char *gomod = env_nonempty("GOMODCACHE");
	if (gomod) {
		p = xstrdup(gomod);
	} else {
		const char *gopath = env_nonempty("GOPATH");
		if (gopath) {
			size_t n = strcspn(gopath, ":");
			char *first = xstrndup(gopath, n);
			p = join(first, "pkg/mod");
			free(first);
		} else {
			p = home ? join(home, "go/pkg/mod") : NULL;
		}
	}
	add_grant(list, st, p, "Go module cache", true, home_real);
	free(p);
	const char *gocache = env_nonempty("GOCACHE");
	p = gocache ? xstrdup(gocache) : cache ? join(cache, "go-build") : NULL;
	add_grant(list, st, p, "Go build cache", true, home_real);
	free(p);

	/* Cargo: registry and git checkouts, not the binaries or config */
	const char *cargo = env_nonempty("CARGO_HOME");
	char *cargo_home = cargo ? xstrdup(cargo) : home ? join(home, ".cargo") : NULL;
	if (cargo_home) {
		p = join(cargo_home, "registry");
		add_grant(list, st, p, "Cargo registry", true, home_real);
		free(p);
		p = join(cargo_home, "git");
		add_grant(list, st, p, "Cargo git", true, home_real);
		free(p);
		free(cargo_home);
	}

	/* Gradle: caches and wrapper downloads, not init.d or properties */
	const char *gradle = env_nonempty("GRADLE_USER_HOME");
	char *gradle_home = gradle ? xstrdup(gradle) : home ? join(home, ".gradle") : NULL;
	if (gradle_home) {
		p = join(gradle_home, "caches");
		add_grant(list, st, p, "Gradle caches", true, home_real);
		free(p);
		p = join(gradle_home, "wrapper");
		add_grant(list, st, p, "Gradle wrapper", true, home_real);
		free(p);
		free(gradle_home);
	}

	/* Maven: the local repository, not settings.xml */
	p = home ? join(home, ".m2/repository") : NULL;
	add_grant(list, st, p, "Maven repository", true, home_real);
	free(p);

	/* .NET: a private CLI home, so ~/.dotnet (global tools) stays read-only */
	if (cache) {
		p = join(cache, "sbsh/sandbox-dotnet");
		add_grant(list, st, p, ".NET CLI home", true, home_real);
		strvec_push_owned(&st->env, xasprintf("DOTNET_CLI_HOME=%s", p));
		free(p);
	}
	free(cache);
}

static void collect_writable(const struct sandbox_config *cfg, struct sandbox_state *st,
                             struct path_list *list)
{
	const char *home = env_nonempty("HOME");
	struct forbidden forbid;
	forbidden_init(&forbid, home);
	const struct forbidden *home_real = &forbid;

	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof cwd))
		add_grant(list, st, cwd, "project", false, home_real);
	add_grant(list, st, env_nonempty("TMPDIR"), "temp", false, home_real);
	add_grant(list, st, "/tmp", "temp", false, home_real);
	add_grant(list, st, "/var/tmp", "temp", false, home_real);
	add_grant(list, st, "/dev/shm", "POSIX shared memory", false, home_real);
	add_caches(list, st, home, home_real);
	for (size_t i = 0; i < cfg->extra_write.len; i++)
		add_grant(list, st, cfg->extra_write.items[i], "--allow-write", false, home_real);
}

struct sandbox_collected {
	struct path_list list;
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
static bool take_writable(const struct sandbox_config *cfg, struct sandbox_state *st, struct path_list *list)
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
	const struct path_list *list = &cfg->collected->list;
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

/* ---- applying ------------------------------------------------------------ */

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

/* Read and execute everywhere but /dev: the human's terminal and other
 * ptys live there, and reading them would let a command see the answer to
 * an approval prompt. The harmless device nodes are added back one by one. */
static int add_read_rules(int ruleset, uint64_t handled, struct fd_batch *batch)
{
	const uint64_t read_rights = LL_FS_READ_FILE | LL_FS_READ_DIR | LL_FS_EXECUTE;
	int root = open_for_rule(batch, AT_FDCWD, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -1;
	/* Listing folders is harmless everywhere, /dev included. */
	if (add_fd_rule(ruleset, root, true, LL_FS_READ_DIR, handled) != 0) {
		close(root);
		return -1;
	}
	/* getdents64 straight into a buffer: a DIR would malloc 32 KB. */
	_Alignas(8) char buf[4096];
	long n;
	while ((n = syscall(SYS_getdents64, root, buf, sizeof buf)) > 0) {
		for (long at = 0; at < n;) {
			const struct dirent64 *e = (const struct dirent64 *)(buf + at);
			at += e->d_reclen;
			/* A link at the root (bin -> usr/bin) leads into another child
			 * of /, whose rule covers it, or into /dev, which stays out. */
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
			    strcmp(e->d_name, "dev") == 0 || e->d_type == DT_LNK)
				continue;
			int fd = open_for_rule(batch, root, e->d_name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				continue;
			bool is_dir = e->d_type == DT_DIR;
			if (e->d_type != DT_DIR && e->d_type != DT_REG) {
				struct stat sb;
				if (fstat(fd, &sb) != 0 || S_ISLNK(sb.st_mode)) {
					close(fd);
					continue;
				}
				is_dir = S_ISDIR(sb.st_mode);
			}
			add_fd_rule(ruleset, fd, is_dir, read_rights, handled);
			fd_batch_add(batch, fd);
		}
	}
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
static void add_own_terminal_rules(int ruleset, const char *pty_path, uint64_t handled)
{
	const uint64_t tty_rights = LL_FS_READ_FILE | LL_FS_WRITE_FILE | LL_FS_IOCTL_DEV;
	add_path_rule(ruleset, pty_path, tty_rights, handled);
	add_path_rule(ruleset, "/dev/tty", tty_rights, handled);
}

/* seccomp closes what Landlock leaves open: MPTCP (which Landlock's TCP
 * rules do not see), io_uring (which bypasses the socket syscalls), and
 * below ABI 4 all of TCP when the network is cut. */
static int apply_seccomp(const struct sandbox_config *cfg, struct sandbox_state *st, bool cut_tcp)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return -1;
	int rc = 0;
	rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(io_uring_setup), 0);
	rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(io_uring_enter), 0);
	rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(io_uring_register), 0);
	if (cfg->net != SANDBOX_NET_ON) {
		const int families[] = {AF_INET, AF_INET6};
		for (size_t i = 0; i < 2; i++) {
			rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2,
			                       SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[i]),
			                       SCMP_A2(SCMP_CMP_EQ, IPPROTO_MPTCP));
			if (cut_tcp) {
				/* Everything but datagrams: TCP, SCTP, MPTCP. UDP keeps DNS. */
				rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2,
				                       SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[i]),
				                       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_STREAM));
				rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2,
				                       SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[i]),
				                       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_SEQPACKET));
			}
		}
		/* With a port allow-list TCP sockets exist, and listen() on an
		 * unbound socket autobinds past Landlock's bind rule. */
		if (cfg->net == SANDBOX_NET_ALLOW && !cut_tcp)
			rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(listen), 0);
	}
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc != 0)
		return -1;
	st->seccomp_applied = true;
	return 0;
}

/* TIOCSTI types into a terminal and TIOCLINUX pastes into a console; on
 * a terminal the sandbox inherited (the human's, when sbsh -c asks on it
 * itself) either would answer a prompt. Written as BPF by hand: loading it
 * through libseccomp cost 136 us here, more than the whole rest of the
 * sandbox, for thirteen instructions. The arch check comes first; on
 * x86-64 the i386 and x32 entry points of ioctl are covered too. */
static int guard_terminal(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
	const uint32_t deny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
	/* The command is an unsigned int: the low half of args[1] (little endian). */
	const uint32_t cmd_at = (uint32_t)offsetof(struct seccomp_data, args[1]);
	struct sock_filter prog[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
#if defined(__x86_64__)
		/* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 3),
		/* 2 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		/* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 4, 0),
		/* 4 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 514 | 0x40000000u /* x32 */, 3, 6),
		/* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 0, 5),
		/* 6 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		/* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 54 /* i386 ioctl */, 0, 3),
#else
		/* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_AARCH64, 0, 5),
		/* 2 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		/* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 3),
#endif
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, cmd_at),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCSTI, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCLINUX, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, deny),
	};
	struct sock_fprog fprog = {.len = (unsigned short)(sizeof prog / sizeof prog[0]), .filter = prog};
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) == 0 ? 0 : -1;
#else
	errno = ENOSYS;
	return -1;
#endif
}

static int fail(struct sandbox_state *st, const struct sandbox_config *cfg, const char *fmt,
                const char *arg)
{
	snprintf(st->reason, sizeof st->reason, fmt, arg);
	return cfg->mode == SANDBOX_REQUIRED ? -1 : 1;
}

int sandbox_prepare(const struct sandbox_config *cfg, struct sandbox_state *st)
{
	memset(st, 0, sizeof *st);
	st->ruleset = -1;
	strvec_init(&st->skipped);
	strvec_init(&st->dropped);
	strvec_init(&st->env);
	st->net = cfg->net;
	sandbox_probe(st);
	if (cfg->mode == SANDBOX_OFF)
		return 0;
	if (st->abi == 0) {
		int err = errno;
		return fail(st, cfg, "Landlock is not available in this kernel (%s)",
		            err == EOPNOTSUPP ? "disabled at boot" : "not built in or blocked by seccomp");
	}

	st->fs_handled = sandbox_fs_rights_for_abi(st->abi);
	st->scoped = sandbox_scopes_for_abi(st->abi);
	st->restrict_flags = st->abi >= 7 ? LL_RESTRICT_LOG_SAME_EXEC_OFF : 0;
	if (cfg->audit && st->abi >= 7)
		st->restrict_flags |= LL_RESTRICT_LOG_NEW_EXEC_ON;
	if (st->abi < 2)
		strvec_push(&st->dropped, "cross-folder rename and link (needs ABI 2): mv copies instead");
	if (st->abi < 3)
		strvec_push(&st->dropped, "truncate control (needs ABI 3)");
	if (st->abi < 5)
		strvec_push(&st->dropped, "device ioctl control (needs ABI 5)");
	if (st->abi < 6)
		strvec_push(&st->dropped, "signal and abstract socket scoping (needs ABI 6)");
	if (st->abi < 9)
		strvec_push(&st->dropped, "pathname unix socket control (needs ABI 9)");

	if (cfg->net == SANDBOX_NET_OFF) {
		if (st->abi >= 4)
			st->net_handled = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
		st->cut_tcp_seccomp = true; /* also covers listen() without bind() */
	} else if (cfg->net == SANDBOX_NET_ALLOW) {
		if (st->abi < 4) {
			if (cfg->mode == SANDBOX_REQUIRED)
				return fail(st, cfg, "%s", "a TCP port allow-list needs Landlock ABI 4 (Linux 6.7)");
			strvec_push(&st->dropped, "TCP port allow-list (needs ABI 4): all TCP cut instead");
			st->cut_tcp_seccomp = true;
		} else {
			st->net_handled = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
		}
	}

	size_t attr_size = st->abi >= 6 ? 24 : st->abi >= 4 ? 16 : 8;
	struct ll_ruleset_attr attr = {
		.handled_access_fs = st->fs_handled,
		.handled_access_net = st->net_handled,
		.scoped = st->scoped,
	};
	int ruleset = (int)ll_create_ruleset(&attr, attr_size, 0);
	if (ruleset < 0)
		return fail(st, cfg, "landlock_create_ruleset failed: %s", strerror(errno));

	struct path_list list = {0};
	bool own_fds = take_writable(cfg, st, &list);
	struct fd_batch batch = {.n = 0};
	/* Everything but device ioctls in the writable roots. */
	uint64_t write_rights = st->fs_handled & ~LL_FS_IOCTL_DEV;
	for (size_t i = 0; i < list.len; i++) {
		if (add_fd_rule(ruleset, list.items[i].fd, true, write_rights, st->fs_handled) == 0)
			list.items[i].rights = write_rights;
		else
			strvec_push_owned(&st->skipped, xasprintf("%s (%s): %s", list.items[i].path,
			                                           list.items[i].why, strerror(errno)));
		if (own_fds)
			fd_batch_add(&batch, list.items[i].fd);
		list.items[i].fd = -1;
	}
	int rc = add_read_rules(ruleset, st->fs_handled, &batch);
	if (rc == 0 && cfg->net == SANDBOX_NET_ALLOW && st->net_handled) {
		for (size_t i = 0; i < cfg->nports; i++) {
			struct ll_net_port_attr port = {.allowed_access = LL_NET_CONNECT_TCP,
			                                .port = cfg->ports[i]};
			if (ll_add_rule(ruleset, LL_RULE_NET_PORT, &port) != 0)
				rc = -1;
		}
	}
	fd_batch_flush(&batch);
	st->grants = list.items;
	st->ngrants = list.len;
	if (rc != 0) {
		close(ruleset);
		return fail(st, cfg, "landlock_add_rule failed: %s", strerror(errno));
	}
	st->ruleset = ruleset;
	return 0;
}

void sandbox_close_collected(const struct sandbox_config *cfg)
{
	/* The shell's copies of the collected folders: the broker has its own. */
	if (!cfg->collected)
		return;
	const struct path_list *list = &cfg->collected->list;
	for (size_t i = 0; i < list->len; i++)
		if (list->items[i].fd >= 0) {
			close(list->items[i].fd);
			list->items[i].fd = -1;
		}
}

int sandbox_commit(const struct sandbox_config *cfg, struct sandbox_state *st)
{
	if (st->ruleset < 0)
		return 0;
	int ruleset = st->ruleset;
	st->ruleset = -1;
	sandbox_close_collected(cfg);
	if (cfg->own_pty)
		add_own_terminal_rules(ruleset, cfg->own_pty, st->fs_handled);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		close(ruleset);
		return fail(st, cfg, "PR_SET_NO_NEW_PRIVS failed: %s", strerror(errno));
	}
	/* With the network on, the filter would guard nothing Landlock cares
	 * about, and loading it costs more than the rest of the sandbox. */
	if (cfg->net != SANDBOX_NET_ON && apply_seccomp(cfg, st, st->cut_tcp_seccomp) != 0) {
		bool net_lost = st->cut_tcp_seccomp && st->net_handled == 0;
		if (net_lost || (st->cut_tcp_seccomp && cfg->mode == SANDBOX_REQUIRED)) {
			close(ruleset);
			return fail(st, cfg, "%s", "the seccomp network filter could not be loaded");
		}
		strvec_push(&st->dropped, "seccomp filter (MPTCP, io_uring) could not be loaded");
	}
	if (cfg->guard_terminal) {
		/* A filter inherited from an outer sbsh (make's recipes, nested
		 * shells) refuses both before it looks at the descriptor: then
		 * another copy would only cost its load. Otherwise the guard waits
		 * for the first program (sandbox_guard_terminal): loading it and
		 * freeing it at exit cost ~100 us here, and until a program runs
		 * only the shell's own code does, which never types into a terminal. */
		int c = 0;
		bool inherited = ioctl(-1, TIOCSTI, &c) == -1 && errno == EPERM &&
		                 ioctl(-1, TIOCLINUX, &c) == -1 && errno == EPERM;
		if (inherited) {
			st->terminal_guarded = true;
		} else if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0) {
			st->guard_pending = true;
		} else if (cfg->mode == SANDBOX_REQUIRED) {
			close(ruleset);
			return fail(st, cfg, "the terminal guard (seccomp) is unavailable: %s", strerror(errno));
		} else {
			strvec_push(&st->dropped, "terminal guard (seccomp: no typing into the terminal) could not be loaded");
		}
	}
	long r = ll_restrict_self(ruleset, st->restrict_flags);
	if (r != 0 && st->restrict_flags) {
		st->restrict_flags = 0;
		r = ll_restrict_self(ruleset, 0);
	}
	int saved = errno;
	close(ruleset);
	if (r != 0) {
		errno = saved;
		if (saved == E2BIG)
			return fail(st, cfg, "%s", "too many nested sandboxes (Landlock allows 16 layers)");
		return fail(st, cfg, "landlock_restrict_self failed: %s", strerror(saved));
	}
	st->landlock_applied = true;
	return 0;
}

int sandbox_guard_terminal(struct sandbox_state *st)
{
	if (!st->guard_pending)
		return 0;
	if (guard_terminal() != 0)
		return -1;
	st->guard_pending = false;
	st->terminal_guarded = true;
	return 0;
}

int sandbox_apply(const struct sandbox_config *cfg, struct sandbox_state *st)
{
	int r = sandbox_prepare(cfg, st);
	if (r == 0)
		r = sandbox_commit(cfg, st);
	if (r == 0 && sandbox_guard_terminal(st) != 0) {
		if (cfg->mode == SANDBOX_REQUIRED)
			return fail(st, cfg, "the terminal guard (seccomp) could not be loaded: %s", strerror(errno));
		st->guard_pending = false;
		strvec_push(&st->dropped, "terminal guard (seccomp: no typing into the terminal) could not be loaded");
	}
	return r;
}
