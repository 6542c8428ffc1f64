/* escape CMD [ARGS]: asks the broker to run one command outside the
 * sandbox. Always a human's decision: with nobody to ask it is refused
 * without asking, and nothing in a file can pre-approve it. */
#include "builtins/builtins.h"

#include <stdio.h>

#include "hooks/broker_client.h"
#include "shell/vars.h"

static void describe(struct strbuf *sb, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (i > 1)
			strbuf_addc(sb, ' ');
		vars_quote(sb, argv[i]);
	}
}

BUILTIN_FN(escape)
{
	if (argc < 2) {
		shell_warn("escape: usage: escape COMMAND [ARGS...]");
		return STATUS_SYNTAX;
	}
	struct strbuf cmd;
	strbuf_init(&cmd);
	describe(&cmd, argc, argv);
	if (sh->broker_fd < 0 && sh->nested_session) {
		shell_error(sh, "refused ESCAPE (inside a session): %s — only the session's own sbsh can run a "
		            "command outside its sandbox; this one runs inside it", cmd.data);
		strbuf_free(&cmd);
		return STATUS_REFUSED;
	}
	if (sh->broker_fd < 0) {
		/* Only the broker, forked before confinement, can run it outside;
		 * a quiet sbsh -c (frontend/startup.c) has none although a human is there. */
		shell_error(sh, "refused ESCAPE (%s): %s — %s",
		            sh->quiet ? "no broker in this session" : "headless, nobody to approve", cmd.data,
		            sh->quiet ? "sbsh -c starts the broker only when its text, as written, may need "
		                        "the human; run escape as its own sbsh -c"
		                      : "escape always needs a human (a terminal, or `sbsh --approver' "
		                        "running in another one)");
		strbuf_free(&cmd);
		return STATUS_REFUSED;
	}
	fflush(stdout);
	const char *why = NULL;
	int status = broker_request_escape(sh->broker_fd, argv + 1, &why);
	if (status < 0) {
		shell_error(sh, "refused ESCAPE: %s: %s", cmd.data, why ? why : "no answer");
		status = STATUS_REFUSED;
	}
	strbuf_free(&cmd);
	return status;
}
