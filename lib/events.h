/* The event stream (--events FILE, --events fd:N, SBSH_EVENTS): one JSON
 * object per line, "v":1, written with one write() each so that lines from
 * the shell, its subshells and the protection warden never interleave.
 * Opened before confinement, so the file may live outside the project.
 * Every function accepts a NULL stream and then does nothing. */
#ifndef SBSH_EVENTS_H
#define SBSH_EVENTS_H

#include <stdbool.h>
#include <sys/types.h>

struct events;
struct node;
struct sandbox_state;
struct sandbox_config;

/* SPEC is a path (appended to, created 0600) or fd:N. Returns NULL with
 * *err set (static text or errno's) when it cannot be opened. */
struct events *events_open(const char *spec, const char **err);

/* The session: the sandbox as --doctor --json reports its core, and
 * whether a human can be asked and what is protected. */
void events_session_start(struct events *ev, const struct sandbox_config *cfg,
                          const struct sandbox_state *st, bool headless, const char *protected_root);

/* One decision on one command: verdict (SAFE, ASK, ...), decision
 * ("allow" or "refuse") and who took it ("safe", "allow-list",
 * "deny-list", "human", "headless"). */
void events_command(struct events *ev, char *const *argv, const char *verdict, const char *decision,
                    const char *by);

/* A top-level command line starts / ends with STATUS. */
void events_line_begin(struct events *ev, const struct node *line);
void events_line_end(struct events *ev, int status);
/* The shell moved to a child of process was (the supervisor's start): the
 * line it began there is its own. */
void events_rebase(struct events *ev, pid_t was);

/* A checkpoint the keeper made at the end of a line (or "between"): its
 * id, how many paths changed, how many of them it deleted. */
void events_checkpoint(struct events *ev, const char *kind, const char *id, unsigned changed, unsigned deleted);

/* A protected file put back; origin says what changed it. */
void events_restore(struct events *ev, const char *path, const char *origin);

/* An `escape` request and what became of it ("asked", "approved",
 * "refused", "headless refusal"); status is the exit status or -1. */
void events_escape(struct events *ev, char *const *argv, const char *decision, int status);

/* A connection the network proxy (trusted/netproxy.c) allowed or refused:
 * decision "allow" or "refuse", by "allow-list", "human", "session" (the
 * human's earlier yes or no for the session), "headless". */
void events_net(struct events *ev, const char *host, unsigned port, const char *decision, const char *by);

/* The stream's descriptor, for a process that keeps it across a fork and
 * closes the rest (the proxy); -1 for NULL. */
int events_fd(const struct events *ev);

#endif
