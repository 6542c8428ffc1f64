/* Protected files: what runs later outside the sandbox (git hooks, git's
 * config, sbsh's own .agentcommands.json). A baseline is taken before
 * confinement and held by the warden, a process in a group of its own
 * (in the caller's session) that the sandbox cannot write to or kill with
 * the shell's process group; it
 * puts back whatever a command changed, at the end of every top-level
 * command line and when the session ends. The baseline is also persisted
 * under $XDG_STATE_HOME/sbsh/ (out of the sandbox's reach) so a session
 * killed mid-command cannot hand its changes to the next one. A submodule
 * added during a session joins the set at the next check: its hooks keep
 * only git's samples, its config loses the keys that run programs.
 *
 * The pieces: trusted/baseline.c (the baseline and its persistence), this
 * warden (trusted/warden.c, started here), its protocol
 * (trusted/warden_proto.c), the shell's client inside the sandbox
 * (hooks/protect_client.c) and `sbsh --protect` (trusted/protect_cli.c). */
#ifndef SBSH_WARDEN_H
#define SBSH_WARDEN_H

#include <stdbool.h>

#include "lib/util.h"
#include "trusted/warden_proto.h"

struct events;

/* What protect_start hands the shell and the broker. */
struct protect_start_result {
	struct protect_client shell;  /* for the shell */
	int broker_fd;                /* for the broker's final check, or -1 */
	char *root;                   /* the protected project folder, or NULL */
	char *hooks;                  /* the baseline's hooks, where core.hooksPath points git, or NULL */
	struct strvec env;            /* GIT_CONFIG_* NAME=VALUE to export */
};

/* Takes (or loads and enforces) the baseline, starts the warden. extra:
 * more paths to protect (NULL-terminated, relative to the project's top;
 * a folder is protected whole), or NULL. Call
 * before the broker is forked and before confinement. With broker false
 * (headless: no broker is forked) the warden watches the calling process
 * itself and makes the session's last check when it has exited (the shell
 * may exec its last command). Reads no contents when the protected files'
 * metadata match the saved manifest. Returns 0, or -1 when nothing is
 * protected (the reason was printed when it matters). */
int protect_start(struct events *ev, bool broker, char *const *extra, struct protect_start_result *out);

/* The front end's last part: reads the session's pid then its wait status
 * from fd, forwards the signals sent to it meanwhile, and ends as the
 * session did. what prefixes the error when no session came. */
_Noreturn void warden_front_wait(int fd, const char *what);

#endif
