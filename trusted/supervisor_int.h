/* What the supervisor's three files share: the process (supervisor.c), the
 * calls it answers (supervisor_calls.c) and the caller's view of memory,
 * descriptors and paths (supervisor_view.c). Not for use elsewhere. */
#ifndef SBSH_SUPERVISOR_INT_H
#define SBSH_SUPERVISOR_INT_H

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>

#include "trusted/supervisor.h"

enum { SUPERVISOR_MADE_MAX = 4096 };

/* The caller of one notified system call. */
struct caller {
	uint64_t id;   /* the notification's cookie */
	pid_t tid;     /* the calling thread (the notification's pid) */
	pid_t tgid;    /* its process, read from /proc when first needed; 0 until then */
	int pidfd;     /* a pidfd of the thread, for pidfd_getfd; -1 until needed */
	int root;      /* O_PATH of its root; -1 until needed */
};

/* One message to send on the caller's behalf: the address (translated),
 * the data and the control data (its descriptors ours), gathered. */
struct out_msg {
	struct sockaddr_storage name;
	socklen_t namelen;
	char *data;
	size_t len, off; /* off: sent already (a stream socket may take a part) */
	char *control;
	size_t controllen;
	int *fds; /* our copies of the descriptors the control data passes */
	size_t nfds;
	uint64_t len_at; /* sendmmsg: where the caller's msg_len is, or 0 */
};

enum pending_kind { PENDING_CONNECT, PENDING_SEND };

/* A call carried out for a caller that would block: the supervisor waits
 * for the socket instead, serving other calls meanwhile. */
struct pending {
	struct caller who;
	enum pending_kind kind;
	int fd; /* our copy of the caller's socket */
	/* connect */
	struct sockaddr_storage addr;
	socklen_t addrlen;
	bool in_progress; /* EINPROGRESS: wait until writable, then SO_ERROR */
	/* send */
	struct out_msg *msgs;
	size_t nmsgs, at;   /* at: the message being sent */
	int flags;          /* the caller's, with MSG_DONTWAIT | MSG_NOSIGNAL added */
	bool caller_nosignal, caller_dontwait;
	bool stream;
	int64_t retry_ms;   /* a unix connect refused for a full backlog: try again then */
	int64_t checked_ms; /* when the call was last seen still waiting */
};

struct supervisor {
	int listener;
	const struct supervisor_policy *pol;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	size_t req_size, resp_size;
	struct pending *pend;
	size_t npend, cappend;
	struct strvec explained; /* paths already explained on hint_fd */
	uint64_t made[SUPERVISOR_MADE_MAX]; /* sockets the session bound (their inodes) */
	size_t nmade;
	int hint_fd;
	pid_t self;
};

/* ---- supervisor_view.c: the caller's memory, descriptors and paths ---- */

void caller_init(struct caller *c, const struct seccomp_notif *req);
void caller_release(struct caller *c);
/* Reads len bytes at addr in the caller. 0, or -errno. */
int caller_read(struct caller *c, uint64_t addr, void *buf, size_t len);
int caller_write(struct caller *c, uint64_t addr, const void *buf, size_t len);
/* A NUL-terminated string of at most cap - 1 bytes (ENAMETOOLONG past it). */
int caller_read_string(struct caller *c, uint64_t addr, char *buf, size_t cap);
/* The caller's process id (its thread group), or -errno. */
int caller_tgid(struct caller *c);
/* A copy of the caller's descriptor fd (the same open file). -errno. */
int caller_fd(struct caller *c, int fd);
/* The folder fd names for an *at call (AT_FDCWD: its working folder), as
 * an O_PATH descriptor of ours. -errno. */
int caller_dirfd(struct caller *c, int fd);
/* Whether the call is still waiting (the caller alive, the id not reused). */
bool caller_waiting(const struct supervisor *s, const struct caller *c);

/* Where a path led: the object (O_PATH), and the folder it was found in
 * (O_PATH), or -1 when it was reached through a /proc magic link. */
struct resolved {
	int parent;
	int obj;
	struct stat st;
};
/* Resolves path (from dirfd when relative) as the kernel would for the
 * caller: its root, its /proc/self, symlinks (the last one only when
 * follow), magic links. 0 or -errno; on success both descriptors are the
 * caller's to close (resolved_close). */
int resolve_path(struct caller *c, int dirfd, const char *path, bool follow, struct resolved *out);
/* The object behind a descriptor of ours, located as resolve_path locates a
 * path (its folder found from its name in /proc). */
int resolve_fd(int fd, struct resolved *out);
void resolved_close(struct resolved *r);

/* The nearest writable folder at or above r's object, or NULL (outside). A
 * file no longer linked anywhere is nobody's: *unlinked is set. */
const struct supervisor_grant *beneath_grant(const struct supervisor *s, const struct resolved *r, bool *unlinked);

/* ---- supervisor_calls.c: the calls ---- */

/* Answers the notification in s->req, now or later (a pending call). */
void supervise_call(struct supervisor *s);
/* Moves a pending call on when its socket is ready (revents) or its time
 * came; true when it is finished (answered or given up). */
bool pending_step(struct supervisor *s, struct pending *p, short revents, int64_t now);
void pending_free(struct pending *p);
void supervisor_respond(struct supervisor *s, uint64_t id, int64_t val, int err);
/* One line on hint_fd, once per path. */
void supervisor_explain(struct supervisor *s, const char *what, const char *path, bool shared);

#endif
