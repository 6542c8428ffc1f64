/* Protected files: what runs later outside the sandbox (git hooks, git's
 * config, sbsh's own .agentcommands.json). A baseline is taken before
 * confinement and held by the warden, a process in its own session that
 * the sandbox cannot write to or kill with the shell's process group; it
 * puts back whatever a command changed, at the end of every top-level
 * command line and when the session ends. The baseline is also persisted
 * under $XDG_STATE_HOME/sbsh/ (out of the sandbox's reach) so a session
 * killed mid-command cannot hand its changes to the next one. A submodule
 * added during a session joins the set at the next check: its hooks keep
 * only git's samples, its config loses the keys that run programs. */
#ifndef SBSH_PROTECT_H
#define SBSH_PROTECT_H

#include <stdbool.h>
#include <sys/types.h>

#include "lib/util.h"
#include "trusted/warden_proto.h"

struct events;

struct protect_start_result {
	struct protect_client shell;  /* for the shell */
	int broker_fd;                /* for the broker's final check, or -1 */
	char *root;                   /* the protected project folder, or NULL */
	struct strvec env;            /* GIT_CONFIG_* NAME=VALUE to export */
};

/* Whether the current folder has something to protect (a git work tree,
 * GIT_DIR, or .agentcommands.json). Only stat() calls. */
bool protect_applies(void);

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

/* A protect-path value: 0 when it is a path relative to the project's top
 * that stays inside it, else -1. */
int protect_check_extra(const char *rel);

#endif
