/* The shell's client of the protection warden: what the shell calls at
 * the end of each top-level command line and when it exits. Runs inside
 * the sandbox; the socket and the watches (struct protect_client, in
 * trusted/warden_proto.h) come from protect_start, before confinement. */
#ifndef SBSH_PROTECT_CLIENT_H
#define SBSH_PROTECT_CLIENT_H

#include "trusted/warden_proto.h"

/* Shell side, at the end of a top-level command line: the warden puts
 * back what changed; one line per path on stderr. Cheap when nothing
 * changed: one round trip and a few stat calls in the warden. */
void protect_line_end(struct protect_client *c);

/* Shell side, once its own start-up is over and before any user code:
 * forgets what its watches saw so far (sbsh itself reading the allow-list
 * opens a protected file), so the first line does not look dirty. */
void protect_client_settle(struct protect_client *c);

/* Shell side, when it exits: the last check, then closes the socket. */
void protect_session_end(struct protect_client *c);

#endif
