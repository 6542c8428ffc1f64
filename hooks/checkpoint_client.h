/* The shell's client of the checkpoint keeper (trusted/keeper.h): two
 * messages per top-level command line. Runs inside the sandbox on a socket
 * connected before confinement (trusted/keeper_start.c). */
#ifndef SBSH_CHECKPOINT_CLIENT_H
#define SBSH_CHECKPOINT_CLIENT_H

struct events;

struct checkpoint_client {
	int fd;    /* CLOEXEC; -1: no checkpoints in this session */
	int pid;   /* only this process speaks (not its subshells) */
	struct events *events; /* gets a checkpoint event per checkpoint made, or NULL */
};

/* A top-level line begins: what changed since the last one (an agent
 * tool's own edits) is recorded first. */
void checkpoint_line_begin(struct checkpoint_client *c);

/* It ended with status: what it changed is recorded, with its text. When
 * it deleted what the human had accepted, the agent is told on stderr
 * that the human can bring it back. */
void checkpoint_line_end(struct checkpoint_client *c, const char *text, int status);

/* The session ends: what changed after its last line is recorded and, for
 * an ephemeral session, its changes are undone before this returns. */
void checkpoint_session_end(struct checkpoint_client *c);

#endif
