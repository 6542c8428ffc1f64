/* Isolated sessions (docs/isolation.md): `sbsh --isolate NAME` runs the
 * session in a mount namespace of its own where the project folder is an
 * OverlayFS view: the real folder below, the layer NAME's upper folder
 * above, kept in the project's state folder where the sandbox cannot
 * write. Landlock is applied afterwards, as always, to the view. Nothing
 * reaches the real folder until the human accepts it (trusted/layer.c,
 * sbsh --review --isolate). Runs before confinement, in the front end. */
#ifndef SBSH_ISOLATE_H
#define SBSH_ISOLATE_H

#include <stdbool.h>
#include <sys/types.h>

#include "lib/util.h"

/* What the front end was asked for, and what it holds once the session
 * runs in the view. */
struct isolate_session {
	bool wanted;    /* --isolate given */
	char *name;     /* the layer's name; NULL until made when none was given */
	int note_fd;    /* to the holder: the warden's pid once known, or -1 */
};

/* A layer's name: 1 to 64 letters, digits, '.', '_' or '-', not starting
 * with '.' or '-', and none of the review's command words. */
bool isolate_name_valid(const char *name);

/* The folder holding a project's layers, STATE/layers (malloc'd). */
char *isolate_layers_dir(const char *state);

/* Takes the layer's lock (DIR/lock) without waiting, making the file when
 * create. Returns the descriptor (close-on-exec), or -1 with errno:
 * EWOULDBLOCK when a session or a review holds it (*holder: the pid it
 * wrote there, or 0). */
int isolate_lock(const char *dir, bool create, pid_t *holder);

/* Starts the isolated session: makes the layer when new (printing its
 * name when none was given), takes its lock, enters a mount namespace of
 * its own and mounts the view on the project folder. Then forks the
 * holder, which waits for every process of the session before it lets
 * the layer go (and discards it, when ephemeral), and the session, which
 * returns 0 here, in the view. The process the caller started waits for
 * the session's status and exits with it: it never returns. On failure
 * nothing has run: one line is printed and the exit status returned (7:
 * isolation cannot be had here; 2: a wrong name). allow_write: the
 * --allow-write folders, none of which may hold the layer. */
int isolate_begin(struct isolate_session *is, bool ephemeral, const struct strvec *allow_write);

/* Tells the holder which process is the session's warden (0: none), so
 * that the session ends when it does; closes is->note_fd. */
void isolate_note_warden(struct isolate_session *is, pid_t warden);

/* What --doctor says of isolation here (strings malloc'd or NULL). */
struct isolate_report {
	bool available;
	char *how;      /* "as root" or "in a user namespace" */
	char *why_not;  /* when not available */
	char *layers;   /* where this project's layers are, or NULL outside a project */
};
void isolate_report(struct isolate_report *r);
void isolate_report_free(struct isolate_report *r);

#endif
