/* The shell's client of the checkpoint keeper (trusted/keeper.h): two
 * messages per top-level command line. Runs inside the sandbox on a socket
 * connected before confinement (trusted/keeper_start.c). */
#ifndef SBSH_CHECKPOINT_CLIENT_H
#define SBSH_CHECKPOINT_CLIENT_H

#include <stddef.h>

struct events;

struct checkpoint_client {
	int fd;    /* CLOEXEC; -1: no checkpoints in this session */
	int pid;   /* only this process speaks (not its subshells) */
	struct events *events; /* gets a checkpoint event per checkpoint made, or NULL */
	long long accepted_sec; /* when the accepted state was recorded, as of the line's start; 0 unknown */
};

/* A top-level line begins: what changed since the last one (an agent
 * tool's own edits) is recorded first. */
void checkpoint_line_begin(struct checkpoint_client *c);

/* It ended with status: what it changed is recorded, with its text. When
 * it deleted what the human had accepted, the agent is told on stderr
 * that the human can bring it back. */
void checkpoint_line_end(struct checkpoint_client *c, const char *text, int status);

/* Whether content (of the file at abs_path) is what the human accepted
 * there: 1 yes; 0 no, with the accepted content in *accepted (malloc'd,
 * or NULL when none was accepted); -1 when no keeper can tell. */
int checkpoint_accepted(struct checkpoint_client *c, const char *abs_path, const char *content, size_t len,
                        char **accepted);

/* Whether the program file at abs_path (a script the agent runs) is what
 * the human accepted: 1 yes; 0 no (new, or changed since); -1 when no
 * keeper can be asked (none, a subshell); -2 when it cannot tell (a path
 * outside the project or one it does not keep). The keeper reads the
 * file itself. */
int checkpoint_program_accepted(struct checkpoint_client *c, const char *abs_path);

/* The session ends: what changed after its last line is recorded and, for
 * an ephemeral session, its changes are undone before this returns. */
void checkpoint_session_end(struct checkpoint_client *c);

#endif
