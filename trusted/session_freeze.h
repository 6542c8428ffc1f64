/* Pausing sandboxed processes while the human decides or an escape runs:
 * a job the agent left running could otherwise plant a hook or a
 * program-running git key between the warden's restore and the escaped
 * command reading it, swap a script the human was shown, or draw over a
 * question on the human's terminal. Only processes more confined than
 * this one (made inside a sandbox) and of this user are ever stopped. */
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

/* Stops the sandboxed processes that could change what an escape reads:
 * every descendant of root (first_pid first), and the jobs other sessions
 * left behind: the sandboxed descendants of every other sbsh of this user
 * that runs outside a sandbox (its brokers and wardens adopt such jobs),
 * and sandboxed orphans init adopted. Waits until all of them are
 * stopped. Returns 0, or -1 when some would not stop in time (then
 * nothing stays stopped). */
int session_freeze(struct session_freeze *f, pid_t root, pid_t first_pid);

/* Continues what session_freeze or terminal_freeze stopped, first_pid
 * last (0: no such order). */
void session_thaw(struct session_freeze *f, pid_t first_pid);

/* Stops every sandboxed process that holds the terminal tty_fd is open on
 * (an earlier sbsh -c that needed nobody leaves its jobs the human's
 * terminal: one could draw over a question once it is on the screen), and
 * waits until they are stopped. Returns 0, or -1 as session_freeze. */
int terminal_freeze(struct session_freeze *f, int tty_fd);

/* A sandboxed process that holds that terminal and is not in f (it took a
 * descriptor of it from another while the question was up), or 0. */
pid_t terminal_newcomer(const struct session_freeze *f, int tty_fd);

#endif
