/* `sbsh --protect accept|status`, run by the human outside the sandbox:
 * accept takes the protected files as they are now for the new baseline
 * (and tells the running wardens to reload it); status says where the
 * baseline is and how many sessions hold it. */
#include "trusted/protect_cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "trusted/baseline.h"

int protect_main(int argc, char **argv, int i, char *const *extra)
{
	const char *what = i + 1 < argc ? argv[i + 1] : "";
	if (strcmp(what, "accept") != 0 && strcmp(what, "status") != 0) {
		fprintf(stderr, "sbsh: usage: sbsh --protect accept|status\n");
		return 2;
	}
	struct protect *live = protect_discover(extra);
	if (!live) {
		fprintf(stderr, "sbsh: --protect: nothing to protect here (no git work tree, no .agentcommands.json)\n");
		return 1;
	}
	char *state = protect_state_dir(live->root);
	if (strcmp(what, "status") == 0) {
		int nlive = 0, ndead = 0;
		if (state)
			protect_sessions(state, &nlive, &ndead, NULL);
		printf("project: %s\nbaseline: %s/baseline\nsessions running: %d\n", live->root,
		       state ? state : "(no state folder)", nlive);
		free(state);
		protect_free(live);
		return 0;
	}
	int lock = state ? protect_open_state(state) : -1;
	if (lock < 0) {
		fprintf(stderr, "sbsh: --protect accept: cannot write %s: %s (run it outside the sandbox)\n",
		        state ? state : "the state folder", strerror(errno));
		free(state);
		protect_free(live);
		return 1;
	}
	live->state = state;
	protect_scan(live);
	int rc = protect_write_mirror(live);
	if (rc == 0) {
		struct strvec pids;
		strvec_init(&pids);
		int nlive, ndead;
		protect_sessions(state, &nlive, &ndead, &pids);
		for (size_t k = 0; k < pids.len; k++)
			kill((pid_t)strtol(pids.items[k], NULL, 10), SIGUSR1);
		strvec_free(&pids);
		printf("sbsh: the protected files of %s are the new baseline\n", live->root);
	} else {
		fprintf(stderr, "sbsh: --protect accept: cannot write the baseline under %s (run it outside the sandbox)\n",
		        state);
	}
	close(lock);
	protect_free(live);
	return rc == 0 ? 0 : 1;
}
