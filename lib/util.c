/* Checked allocation, strbuf and strvec. */
#include "lib/util.h"

#include <errno.h>
#include <stdint.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <signal.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static void out_of_memory(void)
{
	static const char msg[] = "sbsh: out of memory\n";
	ssize_t ignored = write(2, msg, sizeof msg - 1);
	(void)ignored;
	_exit(2);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xreallocarray(void *ptr, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		out_of_memory();
	return xrealloc(ptr, count * size);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;
	strbuf_init(&sb);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

void strbuf_init(struct strbuf *sb)
{
	sb->data = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void strbuf_reserve(struct strbuf *sb, size_t extra)
{
	if (extra > SIZE_MAX - sb->len - 1)
		out_of_memory();
	size_t need = sb->len + extra + 1;
	if (need <= sb->cap && sb->data)
		return;
	size_t cap = sb->cap ? sb->cap : 32;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	bool fresh = sb->data == NULL;
	sb->data = xrealloc(sb->data, cap);
	sb->cap = cap;
	if (fresh)
		sb->data[0] = '\0';
}

void strbuf_addmem(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_reserve(sb, n);
	if (n)
		memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_addmem(sb, s, strlen(s));
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	strbuf_reserve(sb, (size_t)n);
	vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_truncate(struct strbuf *sb, size_t len)
{
	if (len < sb->len) {
		sb->len = len;
		sb->data[len] = '\0';
	}
}

void strbuf_add_single_quoted(struct strbuf *sb, const char *s, size_t len)
{
	strbuf_addc(sb, '\'');
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\'')
			strbuf_adds(sb, "'\\''");
		else
			strbuf_addc(sb, s[i]);
	}
	strbuf_addc(sb, '\'');
}

int hex_digit_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void strbuf_add_utf8(struct strbuf *sb, unsigned long cp)
{
	if (cp < 0x80) {
		strbuf_addc(sb, (char)cp);
	} else if (cp < 0x800) {
		strbuf_addc(sb, (char)(0xc0 | (cp >> 6)));
		strbuf_addc(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addc(sb, (char)(0xe0 | (cp >> 12)));
		strbuf_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addc(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addc(sb, (char)(0xf0 | ((cp >> 18) & 0x07)));
		strbuf_addc(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addc(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

char *strbuf_detach(struct strbuf *sb)
{
	char *p = sb->data;
	if (!p)
		p = xstrdup("");
	strbuf_init(sb);
	return p;
}

void strbuf_free(struct strbuf *sb)
{
	free(sb->data);
	strbuf_init(sb);
}

void strvec_init(struct strvec *v)
{
	v->items = NULL;
	v->len = 0;
	v->cap = 0;
}

void strvec_push_owned(struct strvec *v, char *s)
{
	if (v->len + 2 > v->cap) {
		v->cap = v->cap ? v->cap * 2 : 8;
		v->items = xreallocarray(v->items, v->cap, sizeof *v->items);
	}
	v->items[v->len++] = s;
	v->items[v->len] = NULL;
}

void strvec_push(struct strvec *v, const char *s)
{
	strvec_push_owned(v, xstrdup(s));
}

void strvec_free(struct strvec *v)
{
	for (size_t i = 0; i < v->len; i++)
		free(v->items[i]);
	free(v->items);
	strvec_init(v);
}

char **strvec_detach(struct strvec *v)
{
	char **items = v->items;
	if (!items)
		items = xcalloc(1, sizeof *items);
	strvec_init(v);
	return items;
}

void strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

size_t strv_len(char *const *v)
{
	size_t n = 0;
	while (v && v[n])
		n++;
	return n;
}

char **strv_copy(char *const *v)
{
	size_t n = strv_len(v);
	char **copy = xcalloc(n + 1, sizeof *copy);
	for (size_t i = 0; i < n; i++)
		copy[i] = xstrdup(v[i]);
	return copy;
}

int util_open_regular(const char *path, int extra)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | extra);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

FILE *util_fopen_regular(const char *path)
{
	int fd = util_open_regular(path, 0);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f && fd >= 0) {
		int saved = errno;
		close(fd);
		errno = saved;
	}
	return f;
}

char *util_read_file(const char *path, int extra, size_t max, size_t *len)
{
	int fd = util_open_regular(path, extra);
	if (fd < 0)
		return NULL;
	struct stat st;
	int err = fstat(fd, &st) != 0 ? errno : (uint64_t)st.st_size > max ? EFBIG : 0;
	if (err) {
		close(fd);
		errno = err;
		return NULL;
	}
	size_t cap = (size_t)st.st_size + 1, got = 0;
	char *buf = xmalloc(cap + 1);
	for (;;) {
		ssize_t n = read(fd, buf + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int saved = errno;
			close(fd);
			if (n < 0) {
				free(buf);
				errno = saved;
				return NULL;
			}
			break;
		}
		got += (size_t)n;
		if (got == cap) { /* it grew while being read */
			if (cap > max) {
				close(fd);
				free(buf);
				errno = EFBIG;
				return NULL;
			}
			cap = cap > max / 2 ? max + 1 : cap * 2;
			buf = xrealloc(buf, cap + 1);
		}
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

int util_replace_fd_contents(int fd, const char *data, size_t len)
{
	if (ftruncate(fd, 0) != 0)
		return -1;
	size_t off = 0;
	while (off < len) {
		ssize_t w = pwrite(fd, data + off, len - off, (off_t)off);
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

bool util_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

int64_t util_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

_Noreturn void util_exit_as(int wait_status)
{
	if (WIFSIGNALED(wait_status)) {
		int sig = WTERMSIG(wait_status);
		signal(sig, SIG_DFL);
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, sig);
		sigprocmask(SIG_UNBLOCK, &one, NULL);
		raise(sig);
		_exit(128 + sig);
	}
	_exit(WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 1);
}

int util_mkdir_private(char *dir)
{
	for (char *p = dir + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0700);
			*p = '/';
		}
	}
	return mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

char *util_history_path(const char *xdg_state_home, const char *home)
{
	char *dir;
	if (xdg_state_home && xdg_state_home[0] == '/')
		dir = xasprintf("%s/sbsh", xdg_state_home);
	else if (home && *home)
		dir = xasprintf("%s/.local/state/sbsh", home);
	else
		return NULL;
	util_mkdir_private(dir);
	char *path = xasprintf("%s/history", dir);
	free(dir);
	return path;
}
