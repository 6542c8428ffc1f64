/* The keeper: one process per project, outside the sandbox, that records a
 * checkpoint at the end of every top-level command line of every session
 * there (docs/checkpoints.md). It lives in the sbsh-keeper program, with
 * libgit2; the shell side only speaks its protocol (keeper_proto below,
 * hooks/checkpoint_client.c) and starts it (trusted/keeper_start.c).
 *
 * The protocol, on a SOCK_SEQPACKET socket (beside the store),
 * one message per packet, text (answers "K HEX CHANGED DELETED" when a
 * checkpoint was made, DELETED counting files the accepted state had):
 *   H SESSION FLAGS   hello, sent before confinement; FLAGS "-" or "e"
 *                     (ephemeral: the session's checkpoints are undone when
 *                     it ends). Answer "OK" or "NO why".
 *   B                 a top-level line begins: what changed since the last
 *                     one is recorded as "between". Answer "K".
 *   E STATUS\nTEXT    the line ended. Answer "K" or "K HEX N" (a checkpoint
 *                     of N changed paths was made).
 *   S SINCE           from a session's warden, without a hello: where its
 *                     end-of-session sweep must look (SINCE: the session's
 *                     start, CLOCK_MONOTONIC ns). Answer NUL-terminated
 *                     records, in as many packets as needed: "OK DEV INO",
 *                     then "A"+folder (alone), "W"+folder (whole), "."; or
 *                     "FULL why" (sweep_answer in keeper.c).
 * When the session's socket closes, what changed after its last line is
 * recorded as "end".
 *
 * The socket is keeper-N.sock, N the protocol's version: a keeper left
 * running by an older sbsh keeps serving its sessions, and a newer sbsh
 * starts its own. */
#ifndef SBSH_KEEPER_H
#define SBSH_KEEPER_H

#define KEEPER_PROTOCOL "2"

#include <stdbool.h>
#include <stdint.h>

/* Where a project's keeper lives: $XDG_STATE_HOME/sbsh/projects/KEY
 * (malloc'd), or NULL without a home. */
char *keeper_state_dir(const char *root);

/* The top of the project sbsh started in cwd belongs to: the git work
 * tree's top, or cwd itself (malloc'd), or NULL where checkpoints are not
 * made (/, $HOME itself). */
char *keeper_project_root(const char *cwd);

/* sbsh-keeper serve ROOT STATE_DIR ...: serves until idle for idle_s
 * seconds or until the project is gone, keeping the checkpoints of the
 * last keep_sessions sessions in at most keep_bytes (store_prune). Writes one byte on ready_fd once the
 * socket listens (or closes it on failure). */
int keeper_serve(const char *root, const char *state_dir, int ready_fd, unsigned idle_s, unsigned keep_sessions,
                 uint64_t keep_bytes);

/* sbsh-keeper review ARGS: the human's review CLI (trusted/review.c). */
int review_main(int argc, char **argv);

#endif
