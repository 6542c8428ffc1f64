/* What happens before the shell proper starts: the config file, sbsh's own
 * options, the one-shot modes (frontend/modes.c), and confinement. */
#ifndef SBSH_STARTUP_H
#define SBSH_STARTUP_H

#include <stdbool.h>

#include "trusted/broker.h"
#include "sandbox/sandbox.h"
#include "lib/events.h"
#include "trusted/warden.h"
#include "hooks/checkpoint_client.h"
#include "trusted/isolate.h"
#include "trusted/supervisor.h"

struct classifier;

/* Exit statuses of the front end (the shell's are in shell.h). */
/* STARTUP_CHECKPOINTS: --ephemeral was asked for and no keeper can undo
 * the session: like a sandbox that cannot be applied, nothing runs. */
enum { STARTUP_CONTINUE = -1, STARTUP_USAGE = 2, STARTUP_SANDBOX = 7, STARTUP_CHECKPOINTS = 7 };

struct startup {
	struct sandbox_config sandbox;
	struct sandbox_state state;
	bool headless;        /* --headless, or CI set, or no terminal and no approver */
	int history_fd;       /* the interactive history file, opened before confinement, or -1 */
	bool interactive_hint; /* the shell will be interactive (for the one-line notice) */
	char *config_path;    /* the config file read, or NULL */
	struct broker_options broker;
	int broker_fd;        /* socket to the broker, or -1 when nobody can be asked */
	bool quiet;           /* not headless, yet no broker: sbsh -c whose text needs nobody */
	struct classifier *classifier; /* made to judge that text (the shell's then), or NULL */
	char *pty_path;       /* the pty the broker gave the shell, or NULL */
	bool no_protect;      /* --no-protect, or protect = off in the config */
	struct strvec protect_extra; /* protect-path lines of the config: more files to protect */
	struct strvec classify_rules; /* classify lines of the config: more rules (hooks/classify.h) */
	struct protect_start_result protect; /* shell.fd -1 when nothing is protected */
	struct events *events; /* --events / SBSH_EVENTS, or NULL */
	bool text_safe;       /* the -c text needs nobody as written */
	bool terminal;        /* stdio is the controlling terminal: a human is there */
	char *session_socket; /* a nested sbsh: its session's broker asks for it, or NULL */
	bool no_checkpoints;  /* --no-checkpoints, or checkpoints = off in the config */
	bool ephemeral;       /* --ephemeral: the session's changes are undone at its end */
	unsigned keeper_idle_s; /* keeper-idle in the config (SBSH_KEEPER_IDLE wins) */
	unsigned keep_sessions; /* checkpoint-keep-sessions in the config, or 0 */
	unsigned keep_mib;      /* checkpoint-keep-mb in the config, or 0 */
	struct checkpoint_client checkpoints; /* fd -1 when none are made */
	struct isolate_session isolate; /* --isolate [NAME]: the session runs in a layer's view */
	struct strvec allow_sockets; /* allow-socket lines: unix sockets outside that stay reachable */
	struct supervisor_policy supervision; /* what the supervisor is given (trusted/supervisor.h) */
};

/* Reads the config file and removes sbsh's own options from argv (shell
 * options stay). Runs the one-shot mode one names (frontend/modes.c).
 * Applies the sandbox. Returns -1 to go on with the shell using the
 * remaining argc and argv, or an exit status to leave with at once (7 when a
 * required sandbox is unavailable). */
int startup_run(struct startup *st, int *argc, char ***argv);

/* Why nothing is asked in a quiet session (struct startup.quiet). */
#define QUIET_NOBODY_WHY \
	"this sbsh -c has no broker: its text needed no approval as written, so nobody can be asked " \
	"when one turns out to be needed as it runs; run that command as its own sbsh -c"

#endif
