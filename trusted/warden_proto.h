/* The warden's protocol (trusted/warden.c serves it): what the shell
 * (inside the sandbox, hooks/protect_client.c) and the broker (outside)
 * send it, what it answers, and how the answer is told to the agent. The
 * frames are the broker's (trusted/broker.h): BROKER_CHECK with a
 * broker_check_kind, BROKER_RESTORED with the paths put back. */
#ifndef SBSH_WARDEN_PROTO_H
#define SBSH_WARDEN_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "trusted/broker_proto.h"

struct strvec;

/* An entry of a RESTORED answer is a path in the project, put back; or
 * PATH SEP KIND SEP DETAIL: KIND 'q', moved to quarantine at DETAIL (it
 * was not in the baseline); 'k', put back, and what was there is kept in
 * the quarantine at DETAIL; 'f', it could not be restored (DETAIL: why). */
#define WARDEN_NOTE_SEP '\x1f'
#define WARDEN_NOTE_QUARANTINED 'q'
#define WARDEN_NOTE_KEPT 'k'
#define WARDEN_NOTE_FAILED 'f'

/* One of the shell's inotify watches on the protected set. */
struct protect_watch {
	int wd;
	bool names_only;
	bool is_file;
	char **names;     /* names_only: the protected names in that folder */
};

/* What the shell and the broker hold: a socket to the warden, and the
 * shell's own inotify watches on the protected set, so that a command
 * line that touched nothing protected costs one read() instead of a
 * round trip to the warden. Made by protect_start (trusted/warden.c)
 * before confinement; used by the shell's client (hooks/protect_client.c). */
struct protect_client {
	int fd;        /* CLOEXEC; -1 when nothing is protected */
	pid_t pid;     /* only this process asks (not its subshells) */
	pid_t warden;  /* headless, the warden is this process's child */
	int inotify;   /* -1: ask the warden every time (no watches, or they may
	                * no longer cover the files: after a restore or a rename) */
	struct protect_watch *watches;
	size_t nwatches;
	const uint32_t *warden_saw; /* non-zero: the warden's own watches saw a change, ask */
};

/* Closes the client's watches: from then on it asks the warden every time. */
void protect_client_unwatch(struct protect_client *c);

/* Sends a CHECK of that kind, answered or not. Returns 0, or -1. */
int warden_send_check(int fd, enum broker_check_kind kind);

/* Sends CHECK and collects the restored paths. Returns -1 when the warden
 * is gone. */
int warden_ask_check(int fd, enum broker_check_kind kind, struct strvec *out);

/* The warden's side: answers a CHECK with the paths it put back. */
void warden_reply(int fd, const struct strvec *restored);

/* Tells the agent, on stderr, what became of the path of a RESTORED
 * entry (put back, moved to quarantine, not restored), and why it matters. */
void warden_print_restored(const char *entry, const char *origin);

/* The path of a RESTORED entry, new. */
char *warden_note_path(const char *entry);

/* The broker's check after the shell has exited (printed on its stderr);
 * also the shell's last one, when it may have changed something. */
void protect_final_check(int fd);

/* The pids of a thread's children, as the kernel lists them ("12 34 "),
 * NUL-terminated in buf (size - 1 bytes at most: size - 1 may mean more).
 * Returns the length, or -1 when the kernel cannot tell. Both ends look:
 * the shell ends QUIET only when it leaves no child, and the warden
 * follows the jobs the session left. */
ssize_t warden_read_children(pid_t pid, pid_t tid, char *buf, size_t size);

#endif
