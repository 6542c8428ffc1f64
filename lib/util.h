/* Checked allocation and the two growable containers every module uses. */
#ifndef SBSH_UTIL_H
#define SBSH_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Allocation failure is not recoverable in a shell that must never run a
 * half-built command: these print "sbsh: out of memory" and _exit(2). */
void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Overflow-checked count * size reallocation. */
void *xreallocarray(void *ptr, size_t count, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A byte string that grows; always NUL-terminated, may contain NULs. */
struct strbuf {
	char *data;
	size_t len;
	size_t cap;
};

void strbuf_init(struct strbuf *sb);
void strbuf_reserve(struct strbuf *sb, size_t extra);
/* Inline: the lexer and the printer add a character at a time. */
static inline void strbuf_addc(struct strbuf *sb, char c)
{
	if (!sb->data || sb->len + 2 > sb->cap)
		strbuf_reserve(sb, 1);
	sb->data[sb->len++] = c;
	sb->data[sb->len] = '\0';
}
void strbuf_addmem(struct strbuf *sb, const char *s, size_t n);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_truncate(struct strbuf *sb, size_t len);
/* Appends s[0..len) in single quotes as every POSIX shell reads it back
 * ('\'' for a quote inside). */
void strbuf_add_single_quoted(struct strbuf *sb, const char *s, size_t len);
/* Appends code point cp as UTF-8 ($'\u..', printf \U..); values past
 * Unicode are encoded in four bytes as bash does. */
void strbuf_add_utf8(struct strbuf *sb, unsigned long cp);
/* The value of a hexadecimal digit, or -1. */
int hex_digit_value(int c);
/* Hands the buffer to the caller and leaves sb empty and reusable. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);

/* A NULL-terminated vector of owned strings, usable directly as argv. */
struct strvec {
	char **items;
	size_t len;
	size_t cap;
};

void strvec_init(struct strvec *v);
void strvec_push(struct strvec *v, const char *s);     /* copies s */
void strvec_push_owned(struct strvec *v, char *s);     /* takes s */
void strvec_free(struct strvec *v);
/* Returns items (NULL-terminated) and leaves v empty. */
char **strvec_detach(struct strvec *v);
void strv_free(char **v);
size_t strv_len(char *const *v);
char **strv_copy(char *const *v);

/* Replaces the contents of the file open on fd (for files opened before
 * the sandbox, which cannot be reopened by path). Returns 0 or -1. */
int util_replace_fd_contents(int fd, const char *data, size_t len);

/* Opens path for reading only if it is a regular file: a FIFO or a
 * device someone left where sbsh reads (.agentcommands.json, a .git file)
 * must not make it wait. extra: more open flags (O_NOFOLLOW). Returns the
 * descriptor (close-on-exec), or -1 with errno set (EINVAL: not a file). */
int util_open_regular(const char *path, int extra);
/* The same as a stdio stream for reading, or NULL with errno set. */
FILE *util_fopen_regular(const char *path);
/* All of the regular file at path, NUL-terminated (*len without the NUL),
 * or NULL with errno set: EINVAL, not a regular file; EFBIG, more than
 * max bytes (a sparse file costs nothing to make, so its size is looked
 * at before anything is read). */
char *util_read_file(const char *path, int extra, size_t max, size_t *len);

/* The monotonic clock in milliseconds, for deadlines. */
int64_t util_now_ms(void);
/* Ends this process the way a child with this wait status ended: by the
 * same signal (so the caller sees what it would see of the child), else
 * with its exit code. */
_Noreturn void util_exit_as(int wait_status);

/* mkdir -p, each folder made 0700 (dir is restored as it was). Returns
 * 0 when dir exists at the end, else -1 with errno. */
int util_mkdir_private(char *dir);

/* sbsh's history file: $XDG_STATE_HOME/sbsh/history (an absolute
 * XDG_STATE_HOME), else HOME/.local/state/sbsh/history, its folders made
 * (0700). Malloc'd; NULL when neither is set. */
char *util_history_path(const char *xdg_state_home, const char *home);

/* Writes all n bytes, going on after EINTR and short writes. Returns
 * false when a write fails (errno says why) or writes nothing. */
bool util_write_all(int fd, const void *buf, size_t n);

#endif
