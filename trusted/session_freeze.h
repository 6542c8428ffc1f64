/* Pausing a session's sandboxed processes while an escape runs outside:
 * a job the agent left running could otherwise plant a hook or a
 * program-running git key between the warden's restore and the escaped
 * command reading it, or swap a script the human was shown. */
#ifndef SBSH_SESSION_FREEZE_H
#define SBSH_SESSION_FREEZE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct frozen_process {
	pid_t pid;
	int pidfd;        /* signals go by pidfd: the pid may be reused */
	bool stopped_by_us; /* a job the agent had stopped stays stopped */
};

struct session_freeze {
	struct frozen_process *items;
	size_t len, cap;
};

/* Stops every descendant of root that is more confined than this process
 * (made inside the sandbox), first_pid first, and waits until all of them
 * are stopped. Returns 0, or -1 when some would not stop in time (then
 * nothing stays stopped). */
int session_freeze(struct session_freeze *f, pid_t root, pid_t first_pid);

/* Continues what session_freeze stopped, first_pid last. */
void session_thaw(struct session_freeze *f, pid_t first_pid);

#endif
