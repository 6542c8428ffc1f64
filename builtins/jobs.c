/* kill (wait, jobs, fg and bg live beside the job table in shell/jobs.c). */
#include "builtins/builtins.h"
#include "shell/trap.h"
#include "shell/jobs.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* kill -l: names for numbers and numbers for names; 0 is EXIT, as in bash. */
static int list_signals(struct shell *sh, int argc, char **argv, int i)
{
	if (i >= argc) {
		if (!sh->opt.posix) {
			builtin_list_signals();
			return 0;
		}
		/* POSIX's format (bash --posix): the names on one line */
		bool first = true;
		for (int sig = 1; sig < trap_signal_count(); sig++) {
			const char *name = trap_signal_name(sig);
			if (name) {
				printf(first ? "%s" : " %s", name);
				first = false;
			}
		}
		putchar('\n');
		return 0;
	}
	int status = 0;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] >= '0' && a[0] <= '9') {
			long n = strtol(a, NULL, 10);
			if (n > 128 && n < 128 + trap_signal_count())
				n -= 128; /* an exit status: the signal that caused it */
			const char *name = n >= 0 && n < trap_signal_count() ? trap_signal_name((int)n) : NULL;
			if (!name) {
				shell_error(sh, "kill: %s: invalid signal specification", a);
				status = 1;
				continue;
			}
			printf("%s\n", name);
		} else {
			int sig = trap_signal_number(a);
			if (sig < 0 || sig >= trap_signal_count()) {
				shell_error(sh, "kill: %s: invalid signal specification", a);
				status = 1;
				continue;
			}
			printf("%d\n", sig);
		}
	}
	return status;
}

BUILTIN_FN(kill)
{
	int sig = SIGTERM;
	int i = 1;
	if (i >= argc) {
		shell_warn("kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]");
		return 2;
	}
	const char *a = argv[i];
	if (strcmp(a, "-l") == 0 || strcmp(a, "-L") == 0)
		return list_signals(sh, argc, argv, i + 1);
	if (strcmp(a, "-s") == 0 || strcmp(a, "-n") == 0) {
		if (i + 1 >= argc) {
			shell_warn("kill: %s: option requires an argument", a);
			return 2;
		}
		sig = trap_signal_number(argv[i + 1]);
		if (sig < 0 || sig >= trap_signal_count()) {
			shell_error(sh, "kill: %s: invalid signal specification", argv[i + 1]);
			return 1;
		}
		i += 2;
	} else if (a[0] == '-' && a[1] && strcmp(a, "--") != 0 && !(a[1] >= '0' && a[1] <= '9' && 0)) {
		sig = trap_signal_number(a + 1);
		if (sig < 0 || sig >= trap_signal_count()) {
			shell_error(sh, "kill: %s: invalid signal specification", a + 1);
			return 1;
		}
		i++;
	}
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i >= argc) {
		shell_warn("kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]");
		return 2;
	}
	int status = 0;
	for (; i < argc; i++)
		if (jobs_signal(sh, argv[i], sig, "kill") != 0)
			status = 1;
	return status;
}
