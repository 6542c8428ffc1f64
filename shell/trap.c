/* Traps and the shell's own signal dispositions. Handlers only set flags;
 * actions run between commands (trap_run_pending), never inside a handler. */
#include "shell/shell.h"
#include "shell/exec.h"
#include "shell/trap.h"
#include "shell/jobs.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Index 0 is EXIT, real signals after it, then bash's DEBUG, ERR and
 * RETURN (trap.h), in the order `trap` lists them. */

static volatile sig_atomic_t signal_pending[NSIG];
static volatile sig_atomic_t any_signal_pending;
static volatile sig_atomic_t sigint_seen;

struct trap_table {
	char *action[TRAP_SLOTS]; /* NULL: default, "": ignored */
	bool ignored_at_entry[NSIG];
	bool entry_known[NSIG];
	bool shell_catches_int;   /* interactive: SIGINT cancels the line */
	bool shell_ignores[NSIG]; /* interactive / job control own ignores */
	bool exit_ran;
	/* Inside an action of that kind: a signal's (or EXIT's) action runs
	 * no other signal's; DEBUG and ERR do not run inside themselves, but
	 * each inside the other and inside a signal's, as in bash. */
	bool running_signal, running_debug, running_err, running_return;
	/* In a subshell, until a trap is changed there: the parent's actions,
	 * which `trap` still lists (bash; POSIX lets $(trap) show them). */
	char *inherited[TRAP_SLOTS];
	bool show_inherited;
	/* What we last installed, so resets touch only what changed. */
	void (*installed[NSIG])(int);
	bool touched[NSIG];
	bool installed_restart[NSIG];
	bool interruptible; /* inside the wait builtin */
	/* Interactive with job control: SIGHUP (the terminal went away) is
	 * passed on to every job before the shell dies of it, as bash does,
	 * and interrupts the line editor and waits so that happens at once. */
	bool hup_jobs;
};

static const struct {
	int num;
	const char *name;
} signal_names[] = {
	{SIGHUP, "HUP"},   {SIGINT, "INT"},     {SIGQUIT, "QUIT"},   {SIGILL, "ILL"},
	{SIGTRAP, "TRAP"}, {SIGABRT, "ABRT"},   {SIGBUS, "BUS"},     {SIGFPE, "FPE"},
	{SIGKILL, "KILL"}, {SIGUSR1, "USR1"},   {SIGSEGV, "SEGV"},   {SIGUSR2, "USR2"},
	{SIGPIPE, "PIPE"}, {SIGALRM, "ALRM"},   {SIGTERM, "TERM"},
#ifdef SIGSTKFLT
	{SIGSTKFLT, "STKFLT"},
#endif
	{SIGCHLD, "CHLD"}, {SIGCONT, "CONT"},   {SIGSTOP, "STOP"},   {SIGTSTP, "TSTP"},
	{SIGTTIN, "TTIN"}, {SIGTTOU, "TTOU"},   {SIGURG, "URG"},     {SIGXCPU, "XCPU"},
	{SIGXFSZ, "XFSZ"}, {SIGVTALRM, "VTALRM"}, {SIGPROF, "PROF"}, {SIGWINCH, "WINCH"},
#ifdef SIGIO
	{SIGIO, "IO"},
#endif
#ifdef SIGPWR
	{SIGPWR, "PWR"},
#endif
	{SIGSYS, "SYS"},
};

static void on_signal(int sig)
{
	if (sig > 0 && sig < NSIG)
		signal_pending[sig] = 1;
	if (sig == SIGINT)
		sigint_seen = 1;
	any_signal_pending = 1;
}

/* Caught signals restart interrupted system calls (reads in builtins go
 * on, the trap runs after), except where the shell wants the call to
 * return: the interactive SIGINT that cancels a line, and every trap
 * while the wait builtin waits (POSIX: wait returns 128+N at once). */
static void set_disposition(int sig, void (*handler)(int), bool restart)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigaction(sig, &sa, NULL);
}

void trap_init(struct shell *sh)
{
	/* What each signal was at entry is asked lazily (entry_known), so
	 * startup does not cost a system call per signal. */
	sh->traps = xcalloc(1, sizeof *sh->traps);
}

void trap_free(struct shell *sh)
{
	struct trap_table *t = sh->traps;
	if (!t)
		return;
	for (int i = 0; i < TRAP_SLOTS; i++) {
		free(t->action[i]);
		free(t->inherited[i]);
	}
	free(t);
	sh->traps = NULL;
}

int trap_signal_count(void)
{
	return NSIG;
}

const char *trap_signal_name(int sig)
{
	static char rt_name[NSIG][12];
	if (sig == 0)
		return "EXIT";
	if (sig == TRAP_DEBUG)
		return "DEBUG";
	if (sig == TRAP_ERR)
		return "ERR";
	if (sig == TRAP_RETURN)
		return "RETURN";
	for (size_t i = 0; i < sizeof signal_names / sizeof signal_names[0]; i++)
		if (signal_names[i].num == sig)
			return signal_names[i].name;
	if (sig >= SIGRTMIN && sig <= SIGRTMAX && sig < NSIG) {
		/* Computed once into a static buffer per signal: read-only after. */
		if (!rt_name[sig][0]) {
			if (sig == SIGRTMIN)
				snprintf(rt_name[sig], sizeof rt_name[sig], "RTMIN");
			else if (sig == SIGRTMAX)
				snprintf(rt_name[sig], sizeof rt_name[sig], "RTMAX");
			else if (sig - SIGRTMIN <= SIGRTMAX - sig)
				snprintf(rt_name[sig], sizeof rt_name[sig], "RTMIN+%d", sig - SIGRTMIN);
			else
				snprintf(rt_name[sig], sizeof rt_name[sig], "RTMAX-%d", SIGRTMAX - sig);
		}
		return rt_name[sig];
	}
	return NULL;
}

int trap_signal_number(const char *name)
{
	if (!name || !*name)
		return -1;
	if (name[0] >= '0' && name[0] <= '9') {
		char *end;
		long n = strtol(name, &end, 10);
		if (*end || n < 0 || n >= NSIG)
			return -1;
		return (int)n;
	}
	if (strcasecmp(name, "EXIT") == 0)
		return 0;
	if (strcasecmp(name, "ERR") == 0)
		return TRAP_ERR;
	if (strcasecmp(name, "DEBUG") == 0)
		return TRAP_DEBUG;
	if (strcasecmp(name, "RETURN") == 0)
		return TRAP_RETURN;
	if (strncasecmp(name, "SIG", 3) == 0)
		name += 3;
	for (int sig = 1; sig < NSIG; sig++) {
		const char *n = trap_signal_name(sig);
		if (n && strcasecmp(n, name) == 0)
			return sig;
	}
	if (strcasecmp(name, "CLD") == 0)
		return SIGCHLD;
	if (strcasecmp(name, "POLL") == 0)
		return SIGIO;
	if (strcasecmp(name, "IOT") == 0)
		return SIGABRT;
	return -1;
}

/* Signals that kill the shell but let bash run the EXIT trap first. */
static bool dies_with_exit_trap(struct trap_table *t, int sig)
{
	return (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) &&
	       ((t->action[0] && t->action[0][0]) || (sig == SIGHUP && t->hup_jobs)) &&
	       !t->action[sig] && !t->shell_ignores[sig] && !t->ignored_at_entry[sig];
}

static void learn_entry(struct trap_table *t, int sig)
{
	if (t->entry_known[sig] || t->touched[sig])
		return;
	struct sigaction old;
	if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		t->ignored_at_entry[sig] = true;
	t->entry_known[sig] = true;
}

/* What the process should do for sig given traps and the shell's role. */
static void apply_disposition(struct trap_table *t, int sig)
{
	if (sig <= 0 || sig >= NSIG || sig == SIGKILL || sig == SIGSTOP)
		return;
	learn_entry(t, sig);
	const char *a = t->action[sig];
	void (*want)(int);
	if (a && *a)
		want = on_signal;
	else if (a)
		want = SIG_IGN;
	else if (sig == SIGINT && t->shell_catches_int)
		want = on_signal;
	else if (dies_with_exit_trap(t, sig))
		want = on_signal; /* run the EXIT trap, then die of it (bash) */
	else if (t->shell_ignores[sig] || t->ignored_at_entry[sig])
		want = SIG_IGN;
	else
		want = SIG_DFL;
	/* Untouched signals are as inherited: SIG_IGN if ignored at entry,
	 * else SIG_DFL. */
	bool restart = want == on_signal && !t->interruptible && !(sig == SIGINT && t->shell_catches_int) &&
	               !(sig == SIGHUP && t->hup_jobs && !a);
	void (*have)(int) = t->touched[sig] ? t->installed[sig] : (t->ignored_at_entry[sig] ? SIG_IGN : SIG_DFL);
	if (want == have && (want != on_signal || restart == t->installed_restart[sig]))
		return;
	set_disposition(sig, want, restart);
	t->installed[sig] = want;
	t->installed_restart[sig] = restart;
	t->touched[sig] = true;
}

int trap_set(struct shell *sh, int sig, const char *action)
{
	struct trap_table *t = sh->traps;
	if (sig < 0 || sig >= TRAP_SLOTS)
		return -1;
	if (sig == SIGKILL || sig == SIGSTOP)
		return -1;
	if (sig > 0 && sig < NSIG)
		learn_entry(t, sig);
	if (sig > 0 && sig < NSIG && t->ignored_at_entry[sig] && !sh->opt.interactive)
		return 0; /* POSIX: silently keeps the inherited ignore */
	trap_forget_inherited(sh);
	free(t->action[sig]);
	t->action[sig] = action ? xstrdup(action) : NULL;
	if (sig > 0 && sig < NSIG) {
		apply_disposition(t, sig);
	} else if (sig == 0) {
		apply_disposition(t, SIGINT);
		apply_disposition(t, SIGTERM);
		apply_disposition(t, SIGHUP);
	}
	return 0;
}

const char *trap_get(struct shell *sh, int sig)
{
	if (!sh->traps || sig < 0 || sig >= TRAP_SLOTS)
		return NULL;
	return sh->traps->action[sig];
}

const char *trap_get_listed(struct shell *sh, int sig)
{
	if (!sh->traps || sig < 0 || sig >= TRAP_SLOTS)
		return NULL;
	if (sh->traps->show_inherited)
		return sh->traps->inherited[sig] ? sh->traps->inherited[sig] : sh->traps->action[sig];
	return sh->traps->action[sig];
}

void trap_forget_inherited(struct shell *sh)
{
	struct trap_table *t = sh->traps;
	if (!t->show_inherited)
		return;
	t->show_inherited = false;
	for (int i = 0; i < TRAP_SLOTS; i++) {
		free(t->inherited[i]);
		t->inherited[i] = NULL;
	}
}

bool trap_any_set(struct shell *sh)
{
	struct trap_table *t = sh->traps;
	for (int i = 0; i < TRAP_SLOTS; i++)
		if (t->action[i] && t->action[i][0])
			return true;
	return false;
}

bool trap_signal_pending(void)
{
	return any_signal_pending != 0;
}

bool trap_take_sigint(void)
{
	if (!sigint_seen)
		return false;
	sigint_seen = 0;
	return true;
}

/* Runs one action with $? preserved, as POSIX requires. A signal's
 * action counts its lines from 1 (bash); DEBUG's and ERR's are at the
 * line of the command they are about. */
static void run_action(struct shell *sh, const char *action, bool *running, unsigned first_line)
{
	char *copy = xstrdup(action); /* the action may replace itself */
	int saved_status = sh->last_status;
	unsigned saved_flags = sh->status_flags;
	unsigned saved_line = sh->lineno;
	bool was_running = *running;
	*running = true;
	exec_string(sh, copy, strlen(copy), sh->source_name, first_line);
	*running = was_running;
	free(copy);
	sh->lineno = saved_line;
	if (sh->jump != JUMP_EXIT) {
		sh->last_status = saved_status;
		sh->status_flags = saved_flags;
		/* return inside a trap action ends the action, not the caller */
		if (sh->jump == JUMP_RETURN && sh->func_depth == 0 && sh->source_depth == 0)
			sh->jump = JUMP_NONE;
	}
}

void trap_run_pending(struct shell *sh)
{
	struct trap_table *t = sh->traps;
	if (!any_signal_pending || t->running_signal)
		return;
	any_signal_pending = 0;
	for (int sig = 1; sig < NSIG; sig++) {
		if (!signal_pending[sig])
			continue;
		signal_pending[sig] = 0;
		const char *a = t->action[sig];
		if (a && *a) {
			run_action(sh, a, &t->running_signal, 1);
			if (sh->jump == JUMP_EXIT)
				return;
		} else if (dies_with_exit_trap(t, sig)) {
			sh->last_status = 128 + sig;
			if (sig == SIGHUP && t->hup_jobs)
				jobs_hangup(sh);
			trap_run_exit(sh);
			fflush(stdout);
			fflush(stderr);
			set_disposition(sig, SIG_DFL, false);
			sigset_t set;
			sigemptyset(&set);
			sigaddset(&set, sig);
			sigprocmask(SIG_UNBLOCK, &set, NULL);
			raise(sig);
			_exit(128 + sig);
		}
	}
}

void trap_run_exit(struct shell *sh)
{
	struct trap_table *t = sh->traps;
	if (!t || t->exit_ran)
		return;
	t->exit_ran = true;
	char *a = t->action[0];
	t->action[0] = NULL;
	if (a && *a) {
		/* exit inside the EXIT trap sets the final status; otherwise $?
		 * stays what it was when the shell started exiting. */
		int status = sh->last_status;
		sh->jump = JUMP_NONE;
		t->running_signal = true;
		exec_string(sh, a, strlen(a), sh->source_name, 1);
		t->running_signal = false;
		if (sh->jump == JUMP_EXIT)
			sh->last_status = sh->exit_status;
		else
			sh->last_status = status;
		sh->jump = JUMP_NONE;
	}
	free(a);
}

void trap_run_err(struct shell *sh)
{
	struct trap_table *t = sh->traps;
	const char *a = t->action[TRAP_ERR];
	if (!a || !*a || t->running_err || sh->errexit_ignored)
		return;
	run_action(sh, a, &t->running_err, sh->lineno);
}

bool trap_running(const struct shell *sh)
{
	const struct trap_table *t = sh->traps;
	return t->running_signal || t->running_debug || t->running_err || t->running_return;
}

bool trap_debug_set(const struct shell *sh)
{
	const char *a = sh->traps->action[TRAP_DEBUG];
	return a && *a && !sh->traps->running_debug;
}

void trap_run_debug(struct shell *sh, unsigned line)
{
	struct trap_table *t = sh->traps;
	const char *a = t->action[TRAP_DEBUG];
	if (!a || !*a || t->running_debug)
		return;
	sh->lineno = line;
	run_action(sh, a, &t->running_debug, line);
	sh->lineno = line;
}

void trap_run_return(struct shell *sh)
{
	struct trap_table *t = sh->traps;
	const char *a = t->action[TRAP_RETURN];
	if (!a || !*a)
		return;
	/* Its own return ends the action only; the caller's jump stays. */
	enum exec_jump jump = sh->jump;
	sh->jump = JUMP_NONE;
	run_action(sh, a, &t->running_return, sh->lineno);
	if (sh->jump == JUMP_NONE || sh->jump == JUMP_RETURN)
		sh->jump = jump;
}

/* bash's DEBUG, ERR and RETURN traps belong to the code that set them: a
 * function does not see them (unless -T for DEBUG and RETURN, -E for
 * ERR), and gets back the caller's after its body unless it set its own. */
static bool trap_function_scoped(const struct shell *sh, int slot)
{
	return slot == TRAP_ERR ? !sh->opt.errtrace : !sh->opt.functrace;
}

void trap_enter_function(struct shell *sh, struct trap_frame *saved)
{
	static const int slots[3] = {TRAP_DEBUG, TRAP_ERR, TRAP_RETURN};
	struct trap_table *t = sh->traps;
	for (int i = 0; i < 3; i++) {
		saved->action[i] = NULL;
		saved->hidden[i] = trap_function_scoped(sh, slots[i]);
		if (saved->hidden[i]) {
			saved->action[i] = t->action[slots[i]];
			t->action[slots[i]] = NULL;
		}
	}
}

void trap_leave_function(struct shell *sh, struct trap_frame *saved)
{
	static const int slots[3] = {TRAP_DEBUG, TRAP_ERR, TRAP_RETURN};
	struct trap_table *t = sh->traps;
	for (int i = 0; i < 3; i++) {
		if (!saved->hidden[i])
			continue;
		if (t->action[slots[i]])
			free(saved->action[i]); /* the function set its own: it stays */
		else
			t->action[slots[i]] = saved->action[i];
		saved->action[i] = NULL;
	}
}

void trap_reset_for_subshell(struct shell *sh)
{
	struct trap_table *t = sh->traps;
	t->exit_ran = false;
	t->running_signal = t->running_debug = t->running_err = t->running_return = false;
	t->shell_catches_int = false;
	t->hup_jobs = false;
	trap_forget_inherited(sh);
	for (int i = 0; i < TRAP_SLOTS; i++) {
		if (!t->action[i] || !t->action[i][0])
			continue;
		/* -E keeps ERR, -T keeps DEBUG and RETURN, in subshells too. */
		if ((i == TRAP_ERR && sh->opt.errtrace) ||
		    ((i == TRAP_DEBUG || i == TRAP_RETURN) && sh->opt.functrace))
			continue;
		t->inherited[i] = t->action[i];
		t->action[i] = NULL;
		t->show_inherited = true;
	}
	for (int sig = 1; sig < NSIG; sig++) {
		t->shell_ignores[sig] = false;
		if (t->touched[sig]) {
			signal_pending[sig] = 0;
			apply_disposition(t, sig);
		}
	}
	any_signal_pending = 0;
	sigint_seen = 0;
}

void trap_reset_for_exec(struct shell *sh)
{
	struct trap_table *t = sh->traps;
	/* Caught signals return to default across execve by themselves; the
	 * shell's own ignores must be undone explicitly. */
	for (int sig = 1; sig < NSIG; sig++) {
		if (t->shell_ignores[sig]) {
			t->shell_ignores[sig] = false;
			apply_disposition(t, sig);
		}
	}
}

void trap_setup_interactive(struct shell *sh, bool interactive, bool job_control)
{
	struct trap_table *t = sh->traps;
	t->shell_catches_int = interactive;
	t->shell_ignores[SIGTERM] = interactive;
	t->shell_ignores[SIGQUIT] = interactive;
	t->shell_ignores[SIGTSTP] = job_control;
	t->shell_ignores[SIGTTIN] = job_control;
	t->shell_ignores[SIGTTOU] = job_control;
	t->hup_jobs = interactive && job_control;
	static const int sigs[] = {SIGINT, SIGTERM, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGHUP};
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		apply_disposition(t, sigs[i]);
}

int trap_pending_signal(void)
{
	if (!any_signal_pending)
		return 0;
	for (int sig = 1; sig < NSIG; sig++)
		if (signal_pending[sig])
			return sig;
	return 0;
}

void trap_set_interruptible(struct shell *sh, bool on)
{
	struct trap_table *t = sh->traps;
	if (t->interruptible == on)
		return;
	t->interruptible = on;
	for (int sig = 1; sig < NSIG; sig++)
		if (t->touched[sig] && t->installed[sig] == on_signal)
			apply_disposition(t, sig);
}
