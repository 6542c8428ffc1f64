/* What tests/supervisor/run has a sandboxed program try: each way of
 * reaching a unix socket or changing a file's metadata, and the races
 * against the supervisor's check. It prints what the calls returned; the
 * suite judges from outside (the listener's log, the file's mode). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <unistd.h>

static atomic_int stop;

static void fill(struct sockaddr_un *a, const char *path)
{
	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	snprintf(a->sun_path, sizeof a->sun_path, "%s", path);
}

static void say(const char *what, long r)
{
	printf("%s: %s\n", what, r < 0 ? strerror(errno) : "ok");
}

/* connect a stream socket to path and send "hello": -1 when refused */
static int stream_to(const char *path)
{
	struct sockaddr_un a;
	fill(&a, path);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (connect(s, (struct sockaddr *)&a, sizeof a) != 0) {
		int e = errno;
		close(s);
		errno = e;
		return -1;
	}
	ssize_t n = write(s, "hello\n", 6);
	close(s);
	return n == 6 ? 0 : -1;
}

static int dgram_to(const char *path, const char *how)
{
	struct sockaddr_un a;
	fill(&a, path);
	int s = socket(AF_UNIX, SOCK_DGRAM, 0);
	long r;
	if (strcmp(how, "sendto") == 0) {
		r = sendto(s, "hello\n", 6, 0, (struct sockaddr *)&a, sizeof a);
	} else if (strcmp(how, "sendmsg") == 0) {
		struct iovec v = {.iov_base = "hello\n", .iov_len = 6};
		struct msghdr m = {.msg_name = &a, .msg_namelen = sizeof a, .msg_iov = &v, .msg_iovlen = 1};
		r = sendmsg(s, &m, 0);
	} else if (strcmp(how, "sendmmsg") == 0) {
		struct iovec v = {.iov_base = "hello\n", .iov_len = 6};
		struct mmsghdr m[2] = {{.msg_hdr = {.msg_name = &a, .msg_namelen = sizeof a, .msg_iov = &v, .msg_iovlen = 1}},
		                       {.msg_hdr = {.msg_name = &a, .msg_namelen = sizeof a, .msg_iov = &v, .msg_iovlen = 1}}};
		r = sendmmsg(s, m, 2, 0);
		if (r >= 0)
			printf("sendmmsg sent %ld, lengths %u %u\n", r, m[0].msg_len, m[1].msg_len);
	} else { /* connect, then write */
		r = connect(s, (struct sockaddr *)&a, sizeof a);
		if (r == 0)
			r = write(s, "hello\n", 6);
	}
	int e = errno;
	close(s);
	errno = e;
	return r < 0 ? -1 : 0;
}

/* ---- races: a thread flips, the main thread calls ---------------------- */

struct flip {
	const char *link, *a, *b;
	char *buf;
	size_t len;
};

static void *flip_link(void *arg)
{
	struct flip *f = arg;
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.new", f->link);
	for (unsigned i = 0; !atomic_load(&stop); i++) {
		unlink(tmp);
		if (symlink(i % 2 ? f->a : f->b, tmp) == 0)
			rename(tmp, f->link);
	}
	return NULL;
}

static void *flip_memory(void *arg)
{
	struct flip *f = arg;
	for (unsigned i = 0; !atomic_load(&stop); i++)
		memcpy(f->buf, i % 2 ? f->a : f->b, f->len);
	return NULL;
}

/* Flipping a symlink or the path in memory between an allowed target (a)
 * and a forbidden one (b), n times: chmod 0666, or a connection. */
static int race(const char *kind, const char *link, const char *a, const char *b, long n)
{
	bool memory = strstr(kind, "memory") != NULL, to_socket = strncmp(kind, "connect", 7) == 0;
	size_t len = strlen(a) > strlen(b) ? strlen(a) : strlen(b);
	/* for a connection in memory, the whole address flips: family, path */
	size_t at = memory && to_socket ? offsetof(struct sockaddr_un, sun_path) : 0;
	static char pa[4096], pb[4096], buf[4096];
	if (to_socket && len + 1 > sizeof((struct sockaddr_un *)0)->sun_path)
		return 2;
	memset(pa, 0, sizeof pa);
	memset(pb, 0, sizeof pb);
	if (at) {
		sa_family_t fam = AF_UNIX;
		memcpy(pa, &fam, sizeof fam);
		memcpy(pb, &fam, sizeof fam);
	}
	memcpy(pa + at, a, strlen(a));
	memcpy(pb + at, b, strlen(b));
	struct flip f = {.link = link, .a = memory ? pa : a, .b = memory ? pb : b, .buf = buf, .len = at + len + 1};
	memcpy(buf, pa, f.len);
	pthread_t t;
	pthread_create(&t, NULL, memory ? flip_memory : flip_link, &f);
	long ok = 0, refused = 0;
	for (long i = 0; i < n; i++) {
		int r;
		if (!to_socket) {
			r = chmod(memory ? buf : link, 0666);
		} else if (memory) {
			int s = socket(AF_UNIX, SOCK_STREAM, 0);
			r = connect(s, (struct sockaddr *)buf, (socklen_t)f.len);
			if (r == 0 && write(s, "race\n", 5) != 5)
				r = -1;
			close(s);
		} else {
			r = stream_to(link);
		}
		if (r == 0)
			ok++;
		else
			refused++;
	}
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	printf("%s: %ld attempts, %ld done, %ld refused\n", kind, n, ok, refused);
	return 0;
}

/* chmod through the i386 entry point (int 0x80), which the supervisor
 * does not read: refused outright. The path must lie below 4 GiB. */
static long int80_chmod(const char *path)
{
#if defined(__x86_64__)
	char *low = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (low == MAP_FAILED)
		return -1;
	snprintf(low, 4096, "%s", path);
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(15L), "b"((long)(uintptr_t)low), "c"(0666L) : "memory");
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return 0;
#else
	(void)path;
	errno = ENOSYS;
	return -1;
#endif
}

/* The socket's descriptor flips between a TCP socket and a unix one while
 * the address names the forbidden unix socket. */
static int race_fd(const char *forbidden, long n)
{
	int inet = socket(AF_INET, SOCK_STREAM, 0);
	int fd = 50;
	struct sockaddr_un a;
	fill(&a, forbidden);
	long ok = 0;
	for (long i = 0; i < n; i++) {
		int un = socket(AF_UNIX, SOCK_STREAM, 0);
		dup2(i % 2 ? inet : un, fd);
		if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0) {
			ok++;
			if (write(fd, "fd\n", 3) < 0)
				ok += 0;
		}
		close(un);
	}
	printf("race-fd: %ld attempts, %ld connected\n", n, ok);
	return 0;
}

/* An inet address flips in memory between 127.0.0.1 (allowed) and
 * 127.0.0.2 (refused), on the same port, while the main thread connects:
 * the supervisor must connect where it checked. */
static int race_inet(int port, long n)
{
	static struct sockaddr_in pa, pb, buf;
	pa = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	pb = pa;
	inet_pton(AF_INET, "127.0.0.1", &pa.sin_addr);
	inet_pton(AF_INET, "127.0.0.2", &pb.sin_addr);
	buf = pa;
	struct flip f = {.a = (const char *)&pa, .b = (const char *)&pb, .buf = (char *)&buf, .len = sizeof buf};
	pthread_t t;
	pthread_create(&t, NULL, flip_memory, &f);
	long ok = 0;
	for (long i = 0; i < n; i++) {
		int s = socket(AF_INET, SOCK_STREAM, 0);
		if (connect(s, (struct sockaddr *)&buf, sizeof buf) == 0 && write(s, "race\n", 5) == 5)
			ok++;
		close(s);
	}
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	printf("race-inet: %ld attempts, %ld connected\n", n, ok);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: attempt WHAT PATH...\n");
		return 2;
	}
	const char *what = argv[1], *path = argv[2];
	if (strcmp(what, "stream") == 0) {
		say("stream", stream_to(path));
	} else if (strcmp(what, "sendto") == 0 || strcmp(what, "sendmsg") == 0 || strcmp(what, "sendmmsg") == 0 ||
	           strcmp(what, "dgram-connect") == 0) {
		say(what, dgram_to(path, what));
	} else if (strcmp(what, "sendmmsg-mixed") == 0 && argc > 3) {
		/* one message inside, one outside: the first is sent, the count
		 * says one, the second goes nowhere */
		struct sockaddr_un in, out;
		fill(&in, path);
		fill(&out, argv[3]);
		int sk = socket(AF_UNIX, SOCK_DGRAM, 0);
		struct iovec v = {.iov_base = "mixed\n", .iov_len = 6};
		struct mmsghdr m[2] = {{.msg_hdr = {.msg_name = &in, .msg_namelen = sizeof in, .msg_iov = &v, .msg_iovlen = 1}},
		                       {.msg_hdr = {.msg_name = &out, .msg_namelen = sizeof out, .msg_iov = &v, .msg_iovlen = 1}}};
		printf("sendmmsg-mixed sent %d\n", sendmmsg(sk, m, 2, 0));
	} else if (strcmp(what, "opath") == 0) {
		/* an O_PATH descriptor of the socket, connected through /proc */
		int o = open(path, O_PATH | O_CLOEXEC);
		char via[64];
		snprintf(via, sizeof via, "/proc/self/fd/%d", o);
		say("opath", o < 0 ? -1 : stream_to(via));
	} else if (strcmp(what, "fchmod") == 0) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		say("fchmod", fd < 0 ? -1 : fchmod(fd, 0666));
	} else if (strcmp(what, "fchmod-opath") == 0) {
		int fd = open(path, O_PATH | O_CLOEXEC);
		say("fchmodat2-empty", syscall(452, fd, "", 0666, AT_EMPTY_PATH));
	} else if (strcmp(what, "fchownat-empty") == 0) {
		int fd = open(path, O_PATH | O_CLOEXEC);
		say("fchownat-empty", fchownat(fd, "", 0, 0, AT_EMPTY_PATH));
	} else if (strcmp(what, "futimens") == 0) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		struct timespec t[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
		say("futimens", fd < 0 ? -1 : futimens(fd, t));
	} else if (strcmp(what, "utimensat-dirfd") == 0 && argc > 3) {
		int d = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
		struct timespec t[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
		say("utimensat-dirfd", utimensat(d, argv[3], t, 0));
	} else if (strcmp(what, "fsetxattr") == 0) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		say("fsetxattr", fd < 0 ? -1 : fsetxattr(fd, "user.sbsh", "evil", 4, 0));
	} else if (strcmp(what, "lsetxattr") == 0) {
		say("lsetxattr", lsetxattr(path, "user.sbsh", "evil", 4, 0));
	} else if (strcmp(what, "chattr") == 0) {
		/* the nodump flag, which an owner may set with chattr +d */
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		int flags = 0;
		long r = fd < 0 ? -1 : ioctl(fd, FS_IOC_GETFLAGS, &flags);
		flags |= FS_NODUMP_FL;
		say("chattr", r < 0 ? -1 : ioctl(fd, FS_IOC_SETFLAGS, &flags));
	} else if (strcmp(what, "file_setattr") == 0) {
		unsigned char attr[24] = {0};
		long r = syscall(468, AT_FDCWD, path, attr, sizeof attr, 0);
		uint64_t x;
		memcpy(&x, attr, sizeof x);
		x |= 0x80; /* FS_XFLAG_NODUMP */
		memcpy(attr, &x, sizeof x);
		say("file_setattr", r < 0 ? -1 : syscall(469, AT_FDCWD, path, attr, sizeof attr, 0));
	} else if (strcmp(what, "int80-chmod") == 0) {
		say("int80-chmod", int80_chmod(path));
	} else if (strcmp(what, "io_uring") == 0) {
		char params[120] = {0};
		say("io_uring_setup", syscall(425, 4, params));
	} else if (strcmp(what, "race-inet") == 0 && argc > 3) {
		return race_inet(atoi(path), atol(argv[3]));
	} else if (strncmp(what, "race-", 5) == 0 && strcmp(what, "race-fd") != 0 && argc > 5) {
		return race(what + 5, path, argv[3], argv[4], atol(argv[5]));
	} else if (strcmp(what, "race-fd") == 0 && argc > 3) {
		return race_fd(path, atol(argv[3]));
	} else {
		fprintf(stderr, "attempt: unknown %s\n", what);
		return 2;
	}
	return 0;
}
