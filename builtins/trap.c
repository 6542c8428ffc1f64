/* The trap builtin: set, reset, ignore and list trap actions. */
#include "builtins/builtins.h"
#include "shell/trap.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static void print_trap(struct shell *sh, int sig)
{
	const char *action = trap_get_listed(sh, sig);
	if (!action)
		return;
	fputs("trap -- ", stdout);
	builtin_print_single_quoted(action);
	const char *name = trap_signal_name(sig);
	/* bash prints real signals with their SIG prefix, EXIT and ERR bare;
	 * POSIX (set -o posix, dash) all of them bare */
	if (sig == 0 || sig >= trap_signal_count() || sh->opt.posix)
		printf(" %s\n", name);
	else
		printf(" SIG%s\n", name);
}

static bool is_unsigned_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* The table `trap -l` and `kill -l` print: five "N) SIGNAME" a line. */
void builtin_list_signals(void)
{
	int col = 0;
	for (int sig = 1; sig < trap_signal_count(); sig++) {
		const char *name = trap_signal_name(sig);
		if (!name)
			continue;
		char buf[32];
		snprintf(buf, sizeof buf, "SIG%s", name);
		printf("%2d) %s", sig, buf);
		if (++col % 5 == 0)
			putchar('\n');
		else
			putchar('\t');
	}
	if (col % 5)
		putchar('\n');
}

/* The signal an operand names, or -1 after saying it names none. */
static int signal_operand(struct shell *sh, const char *arg)
{
	int sig = trap_signal_number(arg);
	if (sig < 0)
		shell_error(sh, "trap: %s: invalid signal specification", arg);
	return sig;
}

BUILTIN_FN(trap)
{
	int i = 1;
	bool print = false;
	if (i < argc && strcmp(argv[i], "-l") == 0) {
		builtin_list_signals();
		return 0;
	}
	if (i < argc && strcmp(argv[i], "-p") == 0) {
		print = true;
		i++;
	}
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (!print && i < argc && argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "-") != 0) {
		shell_warn("trap: %s: invalid option", argv[i]);
		shell_warn("trap: usage: trap [-lp] [[arg] signal_spec ...]");
		return 2;
	}
	if (i >= argc || print) {
		if (i >= argc) {
			for (int sig = 0; sig < TRAP_SLOTS; sig++)
				print_trap(sh, sig);
			return 0;
		}
		int status = 0;
		for (; i < argc; i++) {
			int sig = signal_operand(sh, argv[i]);
			if (sig < 0)
				status = 1;
			else
				print_trap(sh, sig);
		}
		return status;
	}
	const char *action = argv[i];
	bool reset = false;
	if (argc - i == 1 || strcmp(action, "-") == 0) {
		reset = true;
		if (strcmp(action, "-") == 0)
			i++;
	} else if (is_unsigned_number(action)) {
		reset = true; /* POSIX: a leading number means all are conditions */
	} else {
		i++;
	}
	int status = 0;
	for (; i < argc; i++) {
		int sig = signal_operand(sh, argv[i]);
		if (sig < 0) {
			status = 1;
			continue;
		}
		if (sig == SIGKILL || sig == SIGSTOP)
			continue; /* no handler can run; bash and dash accept it silently */
		if (trap_set(sh, sig, reset ? NULL : action) != 0) {
			shell_error(sh, "trap: %s: cannot be trapped", argv[i]);
			status = 1;
		}
	}
	return status;
}
