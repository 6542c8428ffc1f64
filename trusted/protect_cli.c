/* `sbsh --protect accept|status`, run by the human outside the sandbox:
 * accept takes the protected files as they are now for the new baseline
 * (and tells the running wardens to reload it); status says where the
 * baseline is and how many sessions hold it. */
#include "trusted/protect_cli.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "trusted/baseline.h"

/* What a failed restore left (STATE/dirty, written by the warden). */
static void print_dirty(const char *state)
{
	char *path = xasprintf("%s/dirty", state);
	size_t len = 0;
	char *text = util_read_file(path, O_NOFOLLOW, 1u << 20, &len);
	free(path);
	if (!text)
		return;
	printf("NOT RESTORED (a restore failed; the next session will not take these as the baseline):\n");
	for (char *line = text, *nl; *line; line = nl) {
		nl = strchr(line, '\n');
		nl = nl ? nl + 1 : line + strlen(line);
		printf("  %.*s\n", (int)strcspn(line, "\n"), line);
	}
	free(text);
}

/* What restores moved to the quarantine, oldest session first: where it
 * was, when, what it was, and where it is now. */
static void print_quarantine(const char *state)
{
	char *dir = xasprintf("%s/quarantine", state);
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort);
	bool any = false;
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			char *index = xasprintf("%s/%s/index", dir, names[i]->d_name);
			size_t len = 0;
			char *text = util_read_file(index, O_NOFOLLOW, 16u << 20, &len);
			free(index);
			for (char *line = text, *nl; line && *line; line = nl) {
				nl = strchr(line, '\n');
				if (nl)
					*nl++ = '\0';
				else
					nl = line + strlen(line);
				char *f[4] = {line, NULL, NULL, NULL};
				for (int k = 1; k < 4 && f[k - 1]; k++) {
					char *tab = strchr(f[k - 1], '\t');
					if (tab)
						*tab++ = '\0';
					f[k] = tab;
				}
				if (!f[3])
					continue;
				if (!any)
					printf("quarantine (what restores took away; copy back what you want):\n");
				any = true;
				time_t when = (time_t)strtoll(f[1], NULL, 10);
				struct tm tm;
				char stamp[32] = "?";
				if (localtime_r(&when, &tm))
					strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);
				printf("  %s  %s (%s)\n      now %s/%s/%s\n", stamp, f[3], f[2], dir, names[i]->d_name, f[0]);
			}
			free(text);
		}
		free(names[i]);
	}
	free(names);
	if (!any)
		printf("quarantine: empty\n");
	free(dir);
}

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
		if (state) {
			print_dirty(state);
			print_quarantine(state);
		}
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
		struct strvec none;
		strvec_init(&none);
		protect_set_dirty(state, &none); /* the human took what is there */
		printf("sbsh: the protected files of %s are the new baseline\n", live->root);
	} else {
		fprintf(stderr, "sbsh: --protect accept: cannot write the baseline under %s (run it outside the sandbox)\n",
		        state);
	}
	close(lock);
	protect_free(live);
	return rc == 0 ? 0 : 1;
}
