/* The evaluator: runs the AST. Errors are statuses; break, continue,
 * return and exit unwind through sh->jump, checked after every command. */
#include "shell/shell.h"
#include "hooks/approve.h"
#include "sandbox/denial.h"
#include "builtins/builtins.h"
#include "shell/parser.h"
#include "shell/redir.h"
#include "sandbox/sandbox.h"
#include "shell/vars.h"
#include "shell/expand.h"
#include "shell/arith.h"
#include "shell/pattern.h"
#include "shell/exec.h"
#include "shell/funcs.h"
#include "shell/cmdhash.h"
#include "shell/xtrace.h"
#include "shell/assign.h"
#include "shell/cond_eval.h"
#include "shell/alias.h"
#include "shell/trap.h"
#include "shell/jobs.h"
#include "shell/input.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* sh->status_flags */
enum {
	EXEC_STATUS_EXEMPT = 1 << 0,  /* errexit and ERR must not fire for it */
	EXEC_STATUS_HANDLED = 1 << 1, /* an inner command already fired them */
};

/* Flags of run_node. */
enum {
	EX_LAST = 1 << 0, /* nothing runs after this in this process: may exec */
};

static int run_node(struct shell *sh, const struct node *n, unsigned flags);
static int run_simple_command(struct shell *sh, const struct node *n, unsigned flags);

/* Nesting limit for subshell processes inside each other ($( ), pipelines,
 * ( ), &): far above what scripts use, far below what a machine holds. */
#define EXEC_MAX_SUBSHELL_DEPTH 256

/* ---- keywords ------------------------------------------------------------- */

const char *const *exec_keyword_list(void)
{
	/* In the order bash's compgen -k lists them. */
	static const char *const keywords[] = {
		"if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until",
		"do", "done", "in", "function", "time", "{", "}", "!", "[[", "]]", NULL,
	};
	return keywords;
}

bool exec_is_keyword(const char *word)
{
	for (const char *const *k = exec_keyword_list(); *k; k++)
		if (strcmp(word, *k) == 0)
			return true;
	return false;
}

/* ---- processes ------------------------------------------------------------- */

/* State of a freshly forked child: a subshell of the shell. */
static void become_subshell(struct shell *sh)
{
	sh->in_subshell = true;
	sh->subshell_level++;
	trap_reset_for_subshell(sh);
	/* Job control belongs to the top-level interactive shell only. */
	if (sh->opt.monitor) {
		sh->opt.monitor = false;
		if (sh->tty_fd >= 0) {
			close(sh->tty_fd);
			sh->tty_fd = -1;
		}
	}
	sh->opt.interactive = false;
	sh->interrupted = false;
}

/* Counting levels (EXEC_MAX_DEPTH) is not enough: a level of a function,
 * eval, source or command substitution costs different amounts of C
 * stack, and `ulimit -s` may be small. Going deeper is refused once less
 * than a quarter of the limit is left: what the parser and classifier
 * need for one more maximally nested line. The frame address is the real
 * stack even under sanitizers that move locals elsewhere. */
static bool stack_exhausted(void)
{
	static uintptr_t base;
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	if (!base)
		base = sp; /* the first call comes from near main() */
	size_t used = base > sp ? base - sp : sp - base;
	if (used < (size_t)256 * 1024)
		return false; /* the common case, without a system call */
	/* Read each time: `ulimit -s` may have lowered it since. */
	struct rlimit rl;
	size_t limit = (size_t)64 << 20;
	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < limit)
		limit = (size_t)rl.rlim_cur;
	return used > limit - limit / 4;
}

/* A nesting limit was hit: like bash, the rest of the command line is
 * abandoned (sh->interrupted), so a body that recurses twice cannot
 * retry the limit an exponential number of times. */
static int nesting_error(struct shell *sh, const char *name)
{
	if (name)
		shell_error(sh, "%s: maximum nesting depth exceeded", name);
	else
		shell_error(sh, "maximum nesting depth exceeded");
	sh->interrupted = true;
	return 2;
}

int shell_guard_before_program(struct shell *sh)
{
	if (!sh->pending_guard)
		return 0;
	int r = sandbox_guard_terminal(sh->pending_guard);
	if (r < 0) {
		shell_error(sh, "the terminal guard (seccomp) could not be loaded: %s; no program is started",
		            strerror(errno));
		return -1;
	}
	/* The supervisor stays behind as the caller's child; the shell goes on
	 * in its child, which $$ names from now on: it is started before $$ is
	 * first expanded (shell_pid_settled), so $$ never changes. */
	if (r == 1)
		sh->shell_pid = sh->top_pid = getpid();
	sh->pending_guard = NULL;
	return 0;
}

pid_t shell_pid_settled(struct shell *sh)
{
	if (sh->pending_guard && getpid() == sh->top_pid)
		shell_guard_before_program(sh);
	return sh->shell_pid;
}

/* Forks. With job control, the child joins process group pgid (0: its
 * own) and, in the foreground, takes the terminal. Returns the pid in the
 * parent, 0 in the child, -1 after reporting. */
static pid_t fork_child(struct shell *sh, pid_t pgid, bool foreground)
{
	if (shell_guard_before_program(sh) != 0)
		return -1;
	/* Every level of nested subshells is a live process, and forking
	 * costs more the deeper the chain (the kernel's anon_vma chains):
	 * recursion through $( ) or pipelines stops here, in a second, rather
	 * than after EXEC_MAX_DEPTH processes and a minute. */
	if (sh->subshell_level >= EXEC_MAX_SUBSHELL_DEPTH) {
		nesting_error(sh, NULL);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	bool monitor = sh->opt.monitor;
	pid_t pid = fork();
	if (pid < 0) {
		shell_error(sh, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (monitor && pgid >= 0) {
			pid_t me = getpid();
			setpgid(0, pgid ? pgid : me);
			if (foreground && sh->tty_fd >= 0)
				tcsetpgrp(sh->tty_fd, pgid ? pgid : me);
		}
		become_subshell(sh);
		return 0;
	}
	if (monitor && pgid >= 0)
		setpgid(pid, pgid ? pgid : pid);
	return pid;
}

_Noreturn void exec_exit(struct shell *sh, int status)
{
	sh->last_status = status;
	trap_run_exit(sh);
	status = sh->last_status;
	fflush(stdout);
	fflush(stderr);
	policy_session_end(sh);
	_exit(status & 0xff);
}

/* The text of a job for listings. */
static char *node_text(const struct node *n)
{
	struct strbuf sb;
	strbuf_init(&sb);
	if (!n) /* commands run by `command` and friends have no node */
		return strbuf_detach(&sb);
	ast_print_node(&sb, n);
	while (sb.len && (sb.data[sb.len - 1] == '\n' || sb.data[sb.len - 1] == ' ' || sb.data[sb.len - 1] == ';'))
		strbuf_truncate(&sb, sb.len - 1);
	return strbuf_detach(&sb);
}

/* Waits for a single foreground process (fast path without job control). */
static int wait_foreground_pid(struct shell *sh, pid_t pid, const struct node *n)
{
	if (sh->opt.monitor) {
		char *text = node_text(n);
		struct job *job = jobs_add(sh, pid, &pid, 1, text, false);
		free(text);
		jobs_set_terminal(sh, pid);
		return jobs_wait_foreground(sh, job);
	}
	int ws = jobs_wait_pid(sh, pid);
	if (ws == -1)
		return 127;
	if (WIFSIGNALED(ws)) {
		int sig = WTERMSIG(ws);
		if (sig == SIGINT && sh->opt.interactive) {
			sh->interrupted = true;
		} else if (sig != SIGINT && sig != SIGPIPE) {
			const char *d = strsignal(sig);
			fprintf(stderr, "%s%s\n", d ? d : "Killed", WCOREDUMP(ws) ? " (core dumped)" : "");
		}
	}
	return jobs_status_of(ws);
}

static void close_procsubs(struct shell *sh, size_t keep)
{
	while (sh->nprocsub_fds > keep)
		close(sh->procsub_fds[--sh->nprocsub_fds]);
}

/* ---- running commands ------------------------------------------------------ */

static int run_builtin(struct shell *sh, const struct builtin *b, int argc, char **argv)
{
	int status = b->fn(sh, argc, argv);
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno && errno != EPIPE)
			shell_error(sh, "%s: write error: %s", argv[0], strerror(errno));
		clearerr(stdout);
		if (status == 0)
			status = 1;
	}
	fflush(stderr);
	clearerr(stderr);
	return status;
}

/* Errors of these special builtins end a non-interactive shell under
 * set -o posix (POSIX 2.8.1, as dash does); bash carries on otherwise, and
 * so do we. */
static bool special_error_exits(const char *name)
{
	static const char *const names[] = {"export", "readonly", "set", "shift", "times", "unset"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

static int call_function(struct shell *sh, struct func *f, int argc, char **argv)
{
	if (sh->func_depth >= EXEC_MAX_DEPTH)
		return nesting_error(sh, argv[0]);
	funcs_hold(f);
	char **saved_pos = sh->positional;
	size_t saved_npos = sh->npositional;
	sh->positional = strv_copy(argv + 1);
	sh->npositional = (size_t)(argc - 1);
	unsigned saved_loops = sh->loop_depth;
	sh->loop_depth = 0;
	sh->func_depth++;
	/* bash says "environment" for a function that no file defined */
	shell_push_frame(sh, f->name, f->source ? f->source : "environment", sh->lineno);
	struct trap_frame traps;
	trap_enter_function(sh, &traps);
	/* A DEBUG trap the function sees (set -T) runs once as it starts. */
	if (trap_debug_set(sh))
		trap_run_debug(sh, f->body->line);

	int status = sh->jump == JUMP_NONE ? run_node(sh, f->body, 0) : sh->last_status;
	if (sh->jump == JUMP_RETURN) {
		sh->jump = JUMP_NONE;
		status = sh->last_status;
		sh->last_status = 0; /* what bash's RETURN trap sees after `return N` */
	}
	if (sh->jump != JUMP_EXIT)
		trap_run_return(sh);
	trap_leave_function(sh, &traps);
	shell_pop_frame(sh);

	sh->func_depth--;
	sh->loop_depth = saved_loops;
	strv_free(sh->positional);
	sh->positional = saved_pos;
	sh->npositional = saved_npos;
	funcs_release(f);
	/* errexit and ERR look at the call as a whole, whatever its last
	 * command was (an ERR trap inside, with -E, fires for both). */
	sh->status_flags = 0;
	return status;
}

/* A file without a #! line that execve refused is a script for a new
 * shell, run in this process as the one execve would have started: it
 * sees the exported variables only, no functions, aliases or traps, and
 * the options a shell starts with. Never returns. */
_Noreturn static void run_as_new_shell(struct shell *sh, const char *path, char **argv, const char *arg0)
{
	char **env = strv_copy(vars_environ(sh));
	vars_free(sh);
	vars_init(sh, env);
	strv_free(env);
	alias_clear(sh);
	funcs_clear(sh);
	trap_reset_for_subshell(sh);
	trap_forget_inherited(sh);
	bool posix = sh->opt.posix;
	unsigned noop = sh->opt.shopt_noop;
	memset(&sh->opt, 0, sizeof sh->opt);
	sh->opt.hashall = sh->opt.braceexpand = sh->opt.interactive_comments = true;
	sh->opt.globskipdots = sh->opt.expand_aliases = true;
	sh->opt.posix = posix;
	sh->opt.shopt_noop = noop;
	free(sh->arg0);
	sh->arg0 = xstrdup(arg0);
	int argc = (int)strv_len(argv);
	shell_set_positional(sh, argv + 1, (size_t)(argc > 0 ? argc - 1 : 0));
	sh->func_depth = sh->loop_depth = sh->source_depth = 0;
	shell_set_main_script(sh, path);
	int status = input_run_file(sh, path, true);
	exec_exit(sh, status);
}

/* The helper of seal_agent_scripts, in a process of its own that nothing
 * waits for (its parent has gone): leases on the scripts, then it waits
 * for a write to one (SIGIO) or for the program to end. Tells ready 'y'
 * when every lease is held, else says why on stderr. */
_Noreturn static void seal_helper(struct policy_seal seal, bool stdin_file, pid_t target, int ready)
{
	/* nothing of the shell's kept open: only stderr, for the message */
	syscall(SYS_close_range, 3, (unsigned)ready - 1, 0);
	syscall(SYS_close_range, (unsigned)ready + 1, ~0U, 0);
	sigset_t io;
	sigemptyset(&io);
	sigaddset(&io, SIGIO);
	sigprocmask(SIG_BLOCK, &io, NULL);
	int sfd = signalfd(-1, &io, SFD_CLOEXEC);
	int pidfd = (int)syscall(SYS_pidfd_open, target, 0);
	bool ok = sfd >= 0 && pidfd >= 0;
	for (size_t i = 0; ok && i < seal.n + (stdin_file ? 1 : 0); i++) {
		const struct classify_sealed *f = i < seal.n ? &seal.files[i] : NULL;
		const char *name = f ? f->path : "its standard input";
		int fd = f ? open(f->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
		           : open("/proc/self/fd/0", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) != 0) {
			fprintf(stderr, "sbsh: %s: %s: not run\n", name, strerror(errno));
			ok = false;
		} else if (f && (st.st_dev != f->dev || st.st_ino != f->ino || st.st_size != f->size ||
		                 st.st_ctim.tv_sec != f->ctime.tv_sec || st.st_ctim.tv_nsec != f->ctime.tv_nsec)) {
			fprintf(stderr, "sbsh: %s changed after it was judged: not run\n", name);
			ok = false;
		} else if (fcntl(fd, F_SETLEASE, F_RDLCK) != 0) {
			int err = errno;
			/* one nothing here can write needs no keeping */
			if (err == EAGAIN || !f || access(f->path, W_OK) == 0) {
				fprintf(stderr, "sbsh: %s cannot be kept from changing while it runs (%s): not run\n", name,
				        err == EAGAIN ? "another process has it open for writing" : strerror(err));
				ok = false;
			}
		}
	}
	char answer = ok ? 'y' : 'n';
	ssize_t told = write(ready, &answer, 1);
	close(ready);
	if (!ok || told != 1)
		_exit(0);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
	}
	struct pollfd pfd[2] = {{.fd = sfd, .events = POLLIN}, {.fd = pidfd, .events = POLLIN}};
	while (poll(pfd, 2, -1) < 0 && errno == EINTR) {
	}
	if ((pfd[0].revents & POLLIN) && !(pfd[1].revents & POLLIN)) {
		/* killed before the write is let through: nothing reads it */
		syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
		fprintf(stderr, "sbsh: a script the agent wrote was opened for writing while it ran (it was judged as it "
		                "was before): stopped\n");
	}
	_exit(0); /* the leases go with it */
}

/* A shell reads its script as it runs: an agent's script judged harmless
 * could append what it runs next (echo 'rm -rf data' >> "$0"). So the
 * scripts the check judged as shell code (policy_seal_of) are kept as
 * judged while the program about to start in this process runs: a helper
 * outside this process tree holds a read lease on each, so that opening
 * one to write it, or truncating it, waits and signals the helper, which
 * kills the program first. Returns 0 to go on, else the status to end with
 * (the helper said why). */
static int seal_agent_scripts(struct shell *sh)
{
	struct policy_seal seal = policy_seal_of(sh);
	struct stat st;
	bool stdin_file = seal.stdin_script && fstat(0, &st) == 0 && S_ISREG(st.st_mode);
	if (seal.n == 0 && !stdin_file)
		return 0;
	pid_t target = getpid();
	int ready[2];
	if (pipe2(ready, O_CLOEXEC) != 0) {
		shell_error(sh, "cannot keep the agent's script from changing while it runs: %s", strerror(errno));
		return STATUS_REFUSED;
	}
	fflush(stderr);
	pid_t mid = fork();
	if (mid == 0) {
		close(ready[0]);
		pid_t helper = fork();
		if (helper != 0)
			_exit(helper < 0);
		seal_helper(seal, stdin_file, target, ready[1]);
	}
	close(ready[1]);
	int status;
	while (mid > 0 && waitpid(mid, &status, 0) < 0 && errno == EINTR) {
	}
	char answer = 0;
	ssize_t got;
	while ((got = read(ready[0], &answer, 1)) < 0 && errno == EINTR) {
	}
	close(ready[0]);
	if (got == 1 && answer == 'y')
		return 0;
	if (got != 1)
		shell_error(sh, "cannot keep the agent's script from changing while it runs: not run");
	return STATUS_REFUSED;
}

static bool seal_pending(struct shell *sh)
{
	struct policy_seal seal = policy_seal_of(sh);
	return seal.n > 0 || seal.stdin_script;
}

/* Runs an external program in this process (a child, or the last command
 * of the shell). Never returns. */
_Noreturn static void exec_program(struct shell *sh, const char *path, char **argv)
{
	if (shell_guard_before_program(sh) != 0)
		exec_exit(sh, STATUS_NOEXEC);
	int sealed = seal_agent_scripts(sh);
	if (sealed != 0)
		exec_exit(sh, sealed);
	trap_reset_for_exec(sh);
	char **env = vars_environ(sh);
	execve(path, argv, env);
	int err = errno;
	if (err == ENOEXEC)
		run_as_new_shell(sh, path, argv, argv[0]); /* Not a binary: a script for this shell. */
	if (err == ENOENT && strchr(argv[0], '/') == NULL) {
		shell_error(sh, "%s: not found", argv[0]);
		_exit(STATUS_NOTFOUND);
	}
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		shell_error(sh, "%s: Is a directory", argv[0]);
	else
		shell_error(sh, "%s: %s", argv[0], strerror(err));
	_exit(err == ENOENT ? STATUS_NOTFOUND : STATUS_NOEXEC);
}

static void report_not_found(struct shell *sh, const char *name, int status)
{
	if (status == STATUS_NOEXEC)
		shell_error(sh, "%s: Permission denied", name);
	else
		shell_error(sh, "%s: not found", name);
}

static char *resolve_program(struct shell *sh, const char *name, const char *path_var, int *status)
{
	char *path = exec_find_command(sh, name, path_var, status);
	if (!path)
		report_not_found(sh, name, *status);
	return path;
}

int exec_replace(struct shell *sh, char **argv, const char *argv0)
{
	int status = 0;
	char *path = resolve_program(sh, argv[0], NULL, &status);
	if (!path)
		return status;
	status = policy_check_argv(sh, argv, path);
	if (status != 0) {
		free(path);
		return status;
	}
	char *saved = argv[0];
	if (argv0)
		argv[0] = (char *)argv0;
	if (shell_guard_before_program(sh) != 0) {
		argv[0] = saved;
		free(path);
		return STATUS_NOEXEC;
	}
	int sealed = seal_agent_scripts(sh);
	if (sealed != 0) {
		argv[0] = saved;
		free(path);
		return sealed;
	}
	fflush(stdout);
	fflush(stderr);
	trap_reset_for_exec(sh);
	if (sh->opt.monitor && sh->tty_fd >= 0)
		jobs_set_terminal(sh, 0);
	execve(path, argv, vars_environ(sh));
	int err = errno;
	argv[0] = saved;
	if (err == ENOEXEC) {
		/* A script: run it here, as the replaced process would. */
		run_as_new_shell(sh, path, argv, path);
	} else {
		shell_error(sh, "%s: %s", argv[0], strerror(err));
		free(path);
	}
	/* restore what trap_reset_for_exec undid */
	trap_setup_interactive(sh, sh->opt.interactive, sh->opt.monitor);
	return err == ENOENT ? STATUS_NOTFOUND : STATUS_NOEXEC;
}

/* An assignment before a command failed (`r=1 cmd` with r read-only):
 * whether the command still runs, as in bash; under set -o posix a
 * non-interactive shell exits instead, and an expansion error that
 * abandoned the line stops it. */
static bool temp_assign_failed(struct shell *sh)
{
	if (sh->jump != JUMP_NONE)
		return false;
	if (sh->opt.posix && !sh->opt.interactive) {
		sh->jump = JUMP_EXIT;
		sh->exit_status = 1;
		return false;
	}
	return true;
}

/* `v=1 export v` and `v=1 readonly v` (bash): a temporary that the
 * builtin named outlives the command, with the attribute it was given.
 * Pops the temporary scope. */
static void keep_declared_temporaries(struct shell *sh, const struct assign *assigns, size_t nassigns, int argc,
                                      char **argv)
{
	struct strvec names, values;
	strvec_init(&names);
	strvec_init(&values);
	for (size_t i = 0; i < nassigns; i++) {
		const char *name = assigns[i].name;
		size_t len = strlen(name);
		bool named = false;
		for (int k = 1; k < argc && !named; k++)
			named = strncmp(argv[k], name, len) == 0 && (argv[k][len] == '\0' || argv[k][len] == '=');
		const char *value = named ? vars_get(sh, name) : NULL;
		if (value) {
			strvec_push(&names, name);
			strvec_push(&values, value);
		}
	}
	vars_pop_scope(sh);
	unsigned flag = strcmp(argv[0], "readonly") == 0 ? VAR_READONLY : VAR_EXPORT;
	for (size_t i = 0; i < names.len; i++)
		if (vars_set(sh, names.items[i], values.items[i], 0) == 0)
			vars_set_flags(sh, names.items[i], flag, 0);
	strvec_free(&names);
	strvec_free(&values);
}

/* What a command name resolves to. */
struct resolved {
	const struct builtin *builtin;
	struct func *func;
};

static void resolve_name(struct shell *sh, const char *name, unsigned aflags, struct resolved *r)
{
	r->builtin = NULL;
	r->func = NULL;
	if (strchr(name, '/'))
		return;
	const struct builtin *b = builtin_find(name);
	if (aflags & EXEC_ARGV_BUILTIN_ONLY) {
		r->builtin = b;
		return;
	}
	/* POSIX order: special builtins, functions, other builtins, PATH. */
	if (b && (b->flags & BUILTIN_SPECIAL)) {
		r->builtin = b;
		return;
	}
	if (!(aflags & EXEC_ARGV_NO_FUNCS)) {
		r->func = funcs_find(sh, name);
		if (r->func)
			return;
	}
	r->builtin = b;
}

/* Runs an expanded command (argv[0] exists) with its assignments and
 * redirections. */
static int run_command(struct shell *sh, const struct node *n, int argc, char **argv,
                       const struct assign *assigns, size_t nassigns,
                       const struct redir *redirs, size_t nredirs, unsigned flags, unsigned aflags)
{
	struct resolved r;
	resolve_name(sh, argv[0], aflags, &r);
	int status = 0;
	/* Any other command in between re-arms the stopped-jobs warning. */
	if (sh->exit_warned && !(r.builtin && r.builtin->fn == builtin_exit))
		sh->exit_warned = false;

	if (r.builtin && (r.builtin->flags & BUILTIN_SPECIAL) && !(aflags & (EXEC_ARGV_NO_FUNCS | EXEC_ARGV_BUILTIN_ONLY))) {
		/* exec with only redirections (and maybe --) makes them permanent */
		bool is_exec = strcmp(argv[0], "exec") == 0;
		bool permanent = is_exec && (argc == 1 || (argc == 2 && strcmp(argv[1], "--") == 0));
		/* The assignments before a special builtin persist under set -o
		 * posix (POSIX 2.14, dash); bash makes them temporary as for any
		 * command, but keeps those that export or readonly then name.
		 * Those of `v=1 exec cmd` are the environment of cmd either way. */
		bool scoped = nassigns > 0 && (!sh->opt.posix || (is_exec && !permanent));
		if (scoped)
			vars_push_temp_scope(sh);
		if (assign_apply(sh, assigns, nassigns, scoped ? ASSIGN_TEMP : ASSIGN_PERSIST) != 0 &&
		    !(scoped && temp_assign_failed(sh))) {
			if (scoped)
				vars_pop_scope(sh);
			else
				shell_abandon_line(sh);
			return 1;
		}
		struct redir_saved save = {0};
		if (redir_apply(sh, redirs, nredirs, permanent ? NULL : &save) != 0) {
			redir_restore(&save);
			if (scoped)
				vars_pop_scope(sh);
			/* bash goes on after `: > /` or `exec 3< missing`; POSIX
			 * (and bash --posix) end a non-interactive shell. */
			if (sh->opt.posix && !sh->opt.interactive && sh->jump == JUMP_NONE) {
				sh->jump = JUMP_EXIT;
				sh->exit_status = 1;
			}
			return 1;
		}
		status = run_builtin(sh, r.builtin, argc, argv);
		redir_restore(&save);
		if (scoped && (r.builtin->flags & BUILTIN_DECLARATION))
			keep_declared_temporaries(sh, assigns, nassigns, argc, argv);
		else if (scoped)
			vars_pop_scope(sh);
		if (status != 0 && sh->opt.posix && !sh->opt.interactive && sh->jump == JUMP_NONE &&
		    special_error_exits(argv[0])) {
			/* dash's status for a special builtin's error */
			sh->jump = JUMP_EXIT;
			sh->exit_status = STATUS_SYNTAX;
		}
		return status;
	}

	if (r.func || r.builtin) {
		bool scoped = nassigns > 0;
		if (scoped) {
			vars_push_temp_scope(sh);
			if (assign_apply(sh, assigns, nassigns, ASSIGN_TEMP) != 0 && !temp_assign_failed(sh)) {
				vars_pop_scope(sh);
				return 1;
			}
		}
		struct redir_saved save = {0};
		if (redir_apply(sh, redirs, nredirs, &save) != 0) {
			redir_restore(&save);
			if (scoped)
				vars_pop_scope(sh);
			return 1;
		}
		if (r.func) {
			/* A function scope for `local`, on top of the temporaries. */
			vars_push_scope(sh);
			status = call_function(sh, r.func, argc, argv);
			vars_pop_scope(sh);
		} else {
			status = run_builtin(sh, r.builtin, argc, argv);
		}
		fflush(stdout);
		redir_restore(&save);
		if (scoped)
			vars_pop_scope(sh);
		return status;
	}

	if (aflags & EXEC_ARGV_BUILTIN_ONLY) {
		shell_error(sh, "builtin: %s: not a shell builtin", argv[0]);
		return 1;
	}

	/* An external program. Temporary assignments go in a scope so that a
	 * PATH=... assignment is used for the search, then into the child. */
	bool scoped = nassigns > 0;
	if (scoped) {
		vars_push_temp_scope(sh);
		if (assign_apply(sh, assigns, nassigns, ASSIGN_TEMP) != 0 && !temp_assign_failed(sh)) {
			vars_pop_scope(sh);
			return 1;
		}
	}
	const char *path_var = (aflags & EXEC_ARGV_DEFAULT_PATH) ? exec_default_path() : NULL;
	char *path = exec_find_command(sh, argv[0], path_var, &status);
	if (!path) {
		/* Redirections still happen (and may fail) for a missing command,
		 * and the message goes where they say. */
		struct redir_saved save = {0};
		if (redir_apply(sh, redirs, nredirs, &save) == 0)
			report_not_found(sh, argv[0], status);
		else
			status = 1;
		redir_restore(&save);
		if (scoped)
			vars_pop_scope(sh);
		return status;
	}

	/* The expanded argv is final here: what is judged is what runs, with
	 * the text a here-document gives it. */
	int verdict_status = sh->policy && redir_expand_stdin(sh, redirs, nredirs) != 0 ? 1 : 0;
	if (verdict_status == 0)
		verdict_status = policy_check_argv(sh, argv, path);
	if (verdict_status != 0) {
		redir_forget_stdin(sh);
		free(path);
		if (scoped)
			vars_pop_scope(sh);
		return verdict_status;
	}

	if ((flags & EX_LAST) && !trap_any_set(sh) && !sh->opt.monitor && !denial_may_hint(sh, argv) &&
	    !policy_protecting(sh)) {
		/* Nothing follows in this process: become the command. */
		if (redir_apply(sh, redirs, nredirs, NULL) != 0)
			exec_exit(sh, 1);
		exec_program(sh, path, argv);
	}
	if (nredirs == 0 && !sh->opt.monitor && !sh->opt.interactive && !trap_any_set(sh) && !seal_pending(sh)) {
		/* The common case, made cheap as dash does: posix_spawn (a vfork
		 * underneath), so the child does not copy the shell's page
		 * tables, and an exec error comes back as its result. Without
		 * traps or job control the child has nothing else to do. */
		if (shell_guard_before_program(sh) != 0) {
			free(path);
			if (scoped)
				vars_pop_scope(sh);
			return STATUS_NOEXEC;
		}
		char **env = vars_environ(sh);
		fflush(stdout);
		fflush(stderr);
		pid_t vpid = -1;
		int child_errno = posix_spawn(&vpid, path, NULL, NULL, argv, env);
		if (child_errno == 0) {
			free(path);
			if (scoped)
				vars_pop_scope(sh);
			int vstatus = wait_foreground_pid(sh, vpid, n);
			denial_hint_command(sh, argv, vstatus);
			return vstatus;
		}
		/* No process at all (EAGAIN, ENOMEM) is left to the general path. */
		if (child_errno != ENOEXEC && child_errno != EAGAIN && child_errno != ENOMEM) {
			/* The same messages exec_program gives. */
			struct stat st;
			if (child_errno == ENOENT && !strchr(argv[0], '/'))
				shell_error(sh, "%s: not found", argv[0]);
			else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
				shell_error(sh, "%s: Is a directory", argv[0]);
			else
				shell_error(sh, "%s: %s", argv[0], strerror(child_errno));
			free(path);
			if (scoped)
				vars_pop_scope(sh);
			return child_errno == ENOENT ? STATUS_NOTFOUND : STATUS_NOEXEC;
		}
		/* ENOEXEC (a script) or no process: the general path below. */
	}
	pid_t pid = fork_child(sh, 0, true);
	if (pid != 0)
		redir_forget_stdin(sh); /* the child's to use */
	if (pid < 0) {
		free(path);
		if (scoped)
			vars_pop_scope(sh);
		return 2;
	}
	if (pid == 0) {
		if (redir_apply(sh, redirs, nredirs, NULL) != 0)
			_exit(1);
		exec_program(sh, path, argv);
	}
	free(path);
	if (scoped)
		vars_pop_scope(sh);
	int status_done = wait_foreground_pid(sh, pid, n);
	denial_hint_command(sh, argv, status_done);
	return status_done;
}

/* $BASH_COMMAND: the command running, or the last one started when a
 * trap reads it; "" before any. */
char *exec_command_text(struct shell *sh)
{
	if (sh->current_command)
		return node_text(sh->current_command);
	return xstrdup(sh->last_command_text ? sh->last_command_text : "");
}

/* n starts: it is $BASH_COMMAND (not for the commands of a trap action).
 * A trap may read it after n's tree is gone, so then its text is kept. */
static const struct node *command_begin(struct shell *sh, const struct node *n)
{
	const struct node *outer = sh->current_command;
	if (trap_running(sh))
		return outer;
	sh->current_command = n;
	if (trap_any_set(sh)) {
		free(sh->last_command_text);
		sh->last_command_text = node_text(n);
	}
	return outer;
}

/* bash's DEBUG trap, before a command of n's kind runs (a pipeline ran
 * it already in the parent for a stage it then forked). */
static void debug_trap(struct shell *sh, const struct node *n)
{
	if (sh->debug_ran == n) {
		sh->debug_ran = NULL;
		return;
	}
	if (trap_debug_set(sh))
		trap_run_debug(sh, n->line);
}

static int run_simple(struct shell *sh, const struct node *n, unsigned flags)
{
	sh->lineno = n->line;
	const struct node *outer = command_begin(sh, n);
	int status = run_simple_command(sh, n, flags);
	sh->current_command = outer;
	return status;
}

static int run_simple_command(struct shell *sh, const struct node *n, unsigned flags)
{
	debug_trap(sh, n);
	if (sh->jump != JUMP_NONE)
		return sh->jump == JUMP_EXIT ? sh->exit_status : sh->last_status;
	struct strvec args;
	strvec_init(&args);
	unsigned cmdsubs_before = sh->cmdsub_count;
	bool *array_args = NULL;
	if (assign_expand_argv(sh, n->u.simple.words, n->u.simple.nwords, &args, &array_args) != 0) {
		strvec_free(&args);
		if (sh->jump == JUMP_NONE && !sh->opt.interactive && sh->opt.posix) {
			sh->jump = JUMP_EXIT;
			sh->exit_status = 1;
		}
		return 1;
	}
	if (sh->jump != JUMP_NONE) {
		free(array_args);
		strvec_free(&args);
		return sh->jump == JUMP_EXIT ? sh->exit_status : 1;
	}

	/* $_ is the last word as expanded; a command of assignments only empties it */
	free(sh->last_arg);
	sh->last_arg = args.len ? xstrdup(args.items[args.len - 1]) : NULL;
	if (array_args && args.len && array_args[args.len - 1])
		sh->last_arg[strcspn(sh->last_arg, "=+")] = '\0'; /* declare a=(1 2): $_ is a, as bash */
	int status;
	if (args.len == 0) {
		free(array_args); /* NULL: no declaration builtin */
		/* Assignments and redirections only. */
		if (assign_apply(sh, n->u.simple.assigns, n->u.simple.nassigns, ASSIGN_PERSIST) != 0) {
			strvec_free(&args);
			shell_abandon_line(sh);
			return 1;
		}
		status = sh->cmdsub_count != cmdsubs_before ? sh->last_status : 0;
		if (n->nredirs) {
			struct redir_saved save = {0};
			if (redir_apply(sh, n->redirs, n->nredirs, &save) != 0)
				status = 1;
			redir_restore(&save);
		}
		strvec_free(&args);
		return status;
	}
	if (sh->opt.xtrace)
		xtrace_argv(sh, args.items);
	const struct node *outer = sh->running_simple;
	const bool *outer_arrays = sh->decl_array_args;
	sh->running_simple = n;
	sh->decl_array_args = array_args;
	status = run_command(sh, n, (int)args.len, args.items, n->u.simple.assigns, n->u.simple.nassigns,
	                     n->redirs, n->nredirs, flags, 0);
	sh->running_simple = outer;
	sh->decl_array_args = outer_arrays;
	free(array_args);
	strvec_free(&args);
	return status;
}

int exec_argv_flags(struct shell *sh, char **argv, unsigned aflags)
{
	int argc = (int)strv_len(argv);
	if (argc == 0)
		return 0;
	return run_command(sh, NULL, argc, argv, NULL, 0, NULL, 0, 0, aflags);
}

/* ---- pipelines and lists --------------------------------------------------- */

/* A command that runs by itself, without commands inside it. */
static bool is_leaf(const struct node *n)
{
	return n->kind == NODE_SIMPLE || n->kind == NODE_COND || n->kind == NODE_ARITH;
}

static void timeval_sub(struct timeval *a, const struct timeval *b)
{
	a->tv_sec -= b->tv_sec;
	a->tv_usec -= b->tv_usec;
	if (a->tv_usec < 0) {
		a->tv_usec += 1000000;
		a->tv_sec--;
	}
}

static void print_time(struct strbuf *sb, const char *label, long sec, long usec)
{
	strbuf_addf(sb, "%s\t%ldm%ld.%03lds\n", label, sec / 60, sec % 60, usec / 1000);
}

static int run_pipeline_stages(struct shell *sh, const struct node *n, unsigned flags)
{
	size_t ncmds = n->u.pipeline.ncmds;
	if (ncmds == 1)
		return run_node(sh, n->u.pipeline.cmds[0], flags);
	/* the stages run in children: the shell's $_ is not any one of theirs */
	free(sh->last_arg);
	sh->last_arg = NULL;

	/* The stages run elsewhere: what an earlier command here left in the
	 * flags says nothing about this pipeline's status. */
	sh->status_flags = 0;
	pid_t *pids = xcalloc(ncmds, sizeof *pids);
	size_t npids = 0;
	pid_t pgid = 0;
	int prev_read = -1;
	int status = 0;
	bool lastpipe = sh->opt.lastpipe && !sh->opt.monitor;
	bool failed = false;
	for (size_t i = 0; i < ncmds; i++) {
		const struct node *cmd = n->u.pipeline.cmds[i];
		bool last = i + 1 == ncmds;
		int p[2] = {-1, -1};
		if (!last && pipe2(p, O_CLOEXEC) < 0) {
			shell_error(sh, "pipe: %s", strerror(errno));
			failed = true;
			break;
		}
		if (last && lastpipe) {
			struct redir_saved save = {0};
			if (prev_read >= 0) {
				int copy = fcntl(0, F_DUPFD_CLOEXEC, 10);
				if (copy < 0 && errno != EBADF) {
					/* Restoring would close stdin instead. */
					shell_error(sh, "pipe: cannot duplicate fd 0: %s",
					            strerror(errno == EINVAL ? EMFILE : errno));
					failed = true;
					break;
				}
				save.items = xcalloc(1, sizeof *save.items);
				save.cap = save.len = 1;
				save.items[0].fd = 0;
				save.items[0].saved = copy;
				dup2(prev_read, 0);
				close(prev_read);
				prev_read = -1;
			}
			const struct node *producer = sh->stdin_producer;
			sh->stdin_producer = i > 0 ? n->u.pipeline.cmds[i - 1] : NULL;
			status = run_node(sh, cmd, 0);
			sh->stdin_producer = producer;
			redir_restore(&save);
			break;
		}
		/* A command the stage runs by itself gets its DEBUG trap here, in
		 * the shell, before the fork, as in bash. */
		if (is_leaf(cmd) && trap_debug_set(sh)) {
			const struct node *outer = command_begin(sh, cmd);
			trap_run_debug(sh, cmd->line);
			sh->current_command = outer;
			if (sh->jump != JUMP_NONE) {
				if (p[0] >= 0) {
					close(p[0]);
					close(p[1]);
				}
				failed = true;
				break;
			}
			sh->debug_ran = cmd;
		}
		pid_t pid = fork_child(sh, pgid, true);
		if (pid != 0)
			sh->debug_ran = NULL;
		if (pid < 0) {
			if (p[0] >= 0) {
				close(p[0]);
				close(p[1]);
			}
			failed = true;
			break;
		}
		if (pid == 0) {
			if (prev_read >= 0) {
				dup2(prev_read, 0);
				close(prev_read);
			}
			sh->stdin_producer = i > 0 ? n->u.pipeline.cmds[i - 1] : NULL;
			/* bash forks a stage that is one command after its checks,
			 * so no ERR trap fires in the child for it, even with -E. */
			if (cmd->kind == NODE_SIMPLE)
				sh->errexit_ignored++;
			if (p[1] >= 0) {
				dup2(p[1], 1);
				if (n->u.pipeline.stderr_too && n->u.pipeline.stderr_too[i])
					dup2(p[1], 2);
				close(p[1]);
				close(p[0]);
			}
			exec_exit(sh, run_node(sh, cmd, EX_LAST));
		}
		if (!pgid)
			pgid = pid;
		pids[npids++] = pid;
		if (prev_read >= 0)
			close(prev_read);
		if (p[1] >= 0)
			close(p[1]);
		prev_read = p[0];
	}
	if (prev_read >= 0)
		close(prev_read);
	if (npids > 0) {
		struct job *job;
		if (sh->opt.monitor) {
			char *text = node_text(n);
			job = jobs_add(sh, pgid, pids, npids, text, false);
			free(text);
			jobs_set_terminal(sh, pgid);
		} else {
			job = jobs_add(sh, 0, pids, npids, NULL, false);
		}
		int st = jobs_wait_foreground(sh, job);
		if (lastpipe && !failed)
			jobs_pipestatus_push(sh, status, false);
		if (!lastpipe || failed)
			status = st;
		else if (sh->opt.pipefail && status == 0)
			status = st;
	}
	free(pids);
	return failed ? 1 : status;
}

static int run_pipeline(struct shell *sh, const struct node *n, unsigned flags)
{
	bool bang = n->u.pipeline.bang;
	struct timeval t0;
	struct rusage self0, kids0;
	if (n->u.pipeline.timed) {
		gettimeofday(&t0, NULL);
		getrusage(RUSAGE_SELF, &self0);
		getrusage(RUSAGE_CHILDREN, &kids0);
	}
	if (bang)
		sh->errexit_ignored++;
	int status = run_pipeline_stages(sh, n, (bang || n->u.pipeline.timed) ? 0 : flags);
	if (bang) {
		sh->errexit_ignored--;
		status = status == 0 ? 1 : 0;
	}
	if (n->u.pipeline.timed) {
		struct timeval t1;
		struct rusage self1, kids1;
		gettimeofday(&t1, NULL);
		getrusage(RUSAGE_SELF, &self1);
		getrusage(RUSAGE_CHILDREN, &kids1);
		timeval_sub(&t1, &t0);
		timeval_sub(&self1.ru_utime, &self0.ru_utime);
		timeval_sub(&self1.ru_stime, &self0.ru_stime);
		timeval_sub(&kids1.ru_utime, &kids0.ru_utime);
		timeval_sub(&kids1.ru_stime, &kids0.ru_stime);
		long us = self1.ru_utime.tv_sec * 1000000L + self1.ru_utime.tv_usec + kids1.ru_utime.tv_sec * 1000000L + kids1.ru_utime.tv_usec;
		long ss = self1.ru_stime.tv_sec * 1000000L + self1.ru_stime.tv_usec + kids1.ru_stime.tv_sec * 1000000L + kids1.ru_stime.tv_usec;
		struct strbuf sb;
		strbuf_init(&sb);
		strbuf_addc(&sb, '\n');
		print_time(&sb, "real", (long)t1.tv_sec, (long)t1.tv_usec);
		print_time(&sb, "user", us / 1000000, us % 1000000);
		print_time(&sb, "sys", ss / 1000000, ss % 1000000);
		shell_write_message(&sb);
		strbuf_free(&sb);
	}
	if (bang)
		sh->status_flags |= EXEC_STATUS_EXEMPT;
	return status;
}

static int run_async(struct shell *sh, const struct node *n)
{
	/* Scripts that start many jobs and never wait must not pile up
	 * zombies; statuses stay in the job table for a later wait. */
	if (!sh->opt.interactive)
		jobs_reap(sh);
	bool job_control = sh->opt.monitor;
	/* A shell that leads its session (sbsh -c on the broker's pty) hangs
	 * up its foreground process group when it exits: its jobs go in a
	 * group of their own so that they outlive it, as under a bash -c,
	 * which leads no session. */
	bool own_group = !job_control && sh->session_leader;
	if (is_leaf(n) && trap_debug_set(sh)) {
		const struct node *outer = command_begin(sh, n);
		trap_run_debug(sh, n->line);
		sh->current_command = outer;
		if (sh->jump != JUMP_NONE)
			return sh->last_status;
		sh->debug_ran = n;
	}
	pid_t pid = fork_child(sh, 0, false);
	if (pid != 0)
		sh->debug_ran = NULL;
	if (pid < 0)
		return 1;
	if (pid == 0) {
		if (n->kind == NODE_SIMPLE)
			sh->errexit_ignored++; /* as in a pipeline's stage */
		if (own_group)
			setpgid(0, 0); /* and in the parent: whichever runs first */
		if (!job_control) {
			/* POSIX: without job control, an async list ignores SIGINT and
			 * SIGQUIT and reads /dev/null unless redirected. */
			if (!trap_get(sh, SIGINT))
				signal(SIGINT, SIG_IGN);
			if (!trap_get(sh, SIGQUIT))
				signal(SIGQUIT, SIG_IGN);
			int fd = open("/dev/null", O_RDONLY);
			if (fd > 0) {
				dup2(fd, 0);
				close(fd);
			}
		}
		exec_exit(sh, run_node(sh, n, EX_LAST));
	}
	if (own_group)
		setpgid(pid, pid);
	sh->last_bg_pid = pid;
	char *text = node_text(n);
	struct job *job = jobs_add(sh, sh->opt.monitor ? pid : 0, &pid, 1, text, true);
	free(text);
	(void)job;
	if (sh->opt.interactive) {
		/* "[1] 12345", as interactive shells tell */
		jobs_reap(sh);
	}
	return 0;
}

static int run_list(struct shell *sh, const struct node *n, unsigned flags)
{
	int status = sh->last_status;
	size_t count = n->u.list.nitems;
	if (count == 0)
		return 0;
	for (size_t i = 0; i < count; i++) {
		const struct list_item *it = &n->u.list.items[i];
		bool last = i + 1 == count;
		if (it->async) {
			status = run_async(sh, it->node);
			sh->status_flags = 0;
		} else {
			status = run_node(sh, it->node, last ? flags : 0);
		}
		sh->last_status = status;
		if (sh->jump != JUMP_NONE || sh->interrupted)
			break;
	}
	return status;
}

/* `a && b || c ...` is a tree leaning left as deep as the list is long: its
 * left spine is walked in a loop, not recursed into, so a generated list of
 * any length runs in constant stack. Only the last operand gets flags. */
static int run_and_or(struct shell *sh, const struct node *n, unsigned flags)
{
	size_t depth = 1;
	for (const struct node *l = n->u.and_or.left; l->kind == NODE_AND_OR && l->nredirs == 0; l = l->u.and_or.left)
		depth++;
	const struct node **spine = xmalloc(depth * sizeof *spine);
	spine[0] = n;
	for (size_t i = 1; i < depth; i++)
		spine[i] = spine[i - 1]->u.and_or.left;
	sh->errexit_ignored++;
	int status = run_node(sh, spine[depth - 1]->u.and_or.left, 0);
	sh->errexit_ignored--;
	for (size_t i = depth; i-- > 0;) {
		if (sh->jump != JUMP_NONE || sh->interrupted)
			break;
		const struct node *s = spine[i];
		bool run_right = s->u.and_or.is_or ? status != 0 : status == 0;
		if (!run_right) {
			sh->status_flags |= EXEC_STATUS_EXEMPT;
			continue;
		}
		sh->last_status = status;
		if (i == 0) {
			status = run_node(sh, s->u.and_or.right, flags);
			break;
		}
		sh->errexit_ignored++;
		status = run_node(sh, s->u.and_or.right, 0);
		sh->errexit_ignored--;
		sh->last_status = status;
	}
	free(spine);
	return status;
}

static int run_subshell(struct shell *sh, const struct node *n, unsigned flags)
{
	if ((flags & EX_LAST) && !trap_any_set(sh) && !sh->opt.monitor) {
		/* This process ends afterwards anyway: no need for another. */
		sh->in_subshell = true;
		int status = run_node(sh, n->u.group.body, EX_LAST);
		if (sh->jump == JUMP_EXIT)
			status = sh->exit_status;
		exec_exit(sh, status);
	}
	pid_t pid = fork_child(sh, 0, true);
	if (pid < 0)
		return 2;
	if (pid == 0) {
		int status = run_node(sh, n->u.group.body, EX_LAST);
		if (sh->jump == JUMP_EXIT)
			status = sh->exit_status;
		exec_exit(sh, status);
	}
	int status = wait_foreground_pid(sh, pid, n);
	sh->status_flags = 0;
	return status;
}

/* Loop bodies: what a break or continue means here. Returns true when
 * the loop must end. */
static bool loop_should_end(struct shell *sh)
{
	if (sh->interrupted)
		return true;
	switch (sh->jump) {
	case JUMP_NONE:
		return false;
	case JUMP_BREAK:
		if (--sh->jump_count == 0)
			sh->jump = JUMP_NONE;
		return true;
	case JUMP_CONTINUE:
		if (--sh->jump_count == 0) {
			sh->jump = JUMP_NONE;
			return false;
		}
		return true;
	default:
		return true;
	}
}

/* One pass of a loop's body, its status in *status: true when the loop
 * must end. */
static bool run_loop_body(struct shell *sh, const struct node *body, int *status)
{
	*status = run_node(sh, body, 0);
	if (loop_should_end(sh))
		return true;
	trap_run_pending(sh);
	return false;
}

static int run_loop(struct shell *sh, const struct node *n)
{
	int status = 0;
	sh->loop_depth++;
	for (;;) {
		sh->errexit_ignored++;
		int cond = run_node(sh, n->u.loop.cond, 0);
		sh->errexit_ignored--;
		if (sh->jump != JUMP_NONE) {
			if (loop_should_end(sh))
				break;
			continue;
		}
		if (sh->interrupted)
			break;
		if ((cond == 0) == n->u.loop.until)
			break;
		if (run_loop_body(sh, n->u.loop.body, &status))
			break;
	}
	sh->loop_depth--;
	return status;
}

static int run_for(struct shell *sh, const struct node *n)
{
	struct strvec items;
	strvec_init(&items);
	sh->lineno = n->line;
	if (n->u.for_.has_in) {
		if (expand_words(sh, n->u.for_.words, n->u.for_.nwords, &items) != 0) {
			strvec_free(&items);
			return 1;
		}
	} else {
		for (size_t i = 0; i < sh->npositional; i++)
			strvec_push(&items, sh->positional[i]);
	}
	int status = 0;
	sh->loop_depth++;
	for (size_t i = 0; i < items.len; i++) {
		debug_trap(sh, n);
		if (sh->jump != JUMP_NONE)
			break;
		if (sh->opt.xtrace)
			xtrace_value(sh, items.items[i], "for %s in ", n->u.for_.var);
		if (vars_set(sh, n->u.for_.var, items.items[i], 0) != 0) {
			status = 1;
			break;
		}
		if (run_loop_body(sh, n->u.for_.body, &status))
			break;
	}
	sh->loop_depth--;
	strvec_free(&items);
	return status;
}

/* Evaluates an arithmetic word; -1 after reporting. */
static int eval_arith_word(struct shell *sh, const struct word *w, intmax_t *out)
{
	*out = 1;
	if (!w)
		return 0;
	char *s = expand_word_str(sh, w, EXPAND_NOTILDE);
	if (!s)
		return -1;
	int rc = arith_eval(sh, s, out);
	free(s);
	return rc;
}

/* One expression of a for (( )): its DEBUG trap, then its value; -1
 * after an error or when the trap ended the loop. */
static int arith_for_step(struct shell *sh, const struct node *n, const struct word *w, intmax_t *v)
{
	sh->lineno = n->line;
	debug_trap(sh, n);
	if (sh->jump != JUMP_NONE)
		return -1;
	sh->lineno = n->line;
	return eval_arith_word(sh, w, v);
}

static int run_arith_for(struct shell *sh, const struct node *n)
{
	intmax_t v;
	if (arith_for_step(sh, n, n->u.arith_for.init, &v) != 0)
		return 1;
	int status = 0;
	sh->loop_depth++;
	for (;;) {
		if (arith_for_step(sh, n, n->u.arith_for.cond, &v) != 0) {
			status = 1;
			break;
		}
		if (v == 0)
			break;
		if (run_loop_body(sh, n->u.arith_for.body, &status))
			break;
		if (arith_for_step(sh, n, n->u.arith_for.step, &v) != 0) {
			status = 1;
			break;
		}
	}
	sh->loop_depth--;
	return status;
}

static int run_case(struct shell *sh, const struct node *n, unsigned flags)
{
	sh->lineno = n->line;
	debug_trap(sh, n);
	if (sh->jump != JUMP_NONE)
		return sh->last_status;
	char *subject = expand_word_str(sh, n->u.case_.subject, 0);
	if (!subject)
		return 1;
	int status = 0;
	unsigned pflags = sh->opt.nocasematch ? PATTERN_NOCASE : 0;
	if (sh->opt.extglob)
		pflags |= PATTERN_EXTGLOB;
	bool fall = false;
	for (size_t i = 0; i < n->u.case_.nitems; i++) {
		const struct case_item *it = &n->u.case_.items[i];
		bool match = fall;
		for (size_t k = 0; !match && k < it->npatterns; k++) {
			char *pat = expand_word_str(sh, it->patterns[k], EXPAND_PATTERN);
			if (!pat) {
				free(subject);
				return 1;
			}
			match = pattern_match(pat, subject, pflags);
			free(pat);
		}
		if (!match)
			continue;
		bool more = it->terminator != CASE_BREAK && i + 1 < n->u.case_.nitems;
		status = it->body ? run_node(sh, it->body, more ? 0 : flags) : 0;
		if (sh->jump != JUMP_NONE || it->terminator == CASE_BREAK)
			break;
		fall = it->terminator == CASE_FALLTHROUGH;
	}
	free(subject);
	return status;
}

/* ---- [[ ]] and (( )) ---------------------------------------------------- */

static int run_cond(struct shell *sh, const struct node *n)
{
	sh->lineno = n->line;
	const struct node *outer = command_begin(sh, n);
	debug_trap(sh, n);
	sh->current_command = outer;
	if (sh->jump != JUMP_NONE)
		return sh->last_status;
	if (sh->opt.xtrace) {
		char *text = node_text(n);
		xtrace_text(sh, text);
		free(text);
	}
	return cond_eval(sh, n->u.cond.expr);
}

static int run_arith(struct shell *sh, const struct node *n)
{
	sh->lineno = n->line;
	const struct node *outer = command_begin(sh, n);
	debug_trap(sh, n);
	sh->current_command = outer;
	if (sh->jump != JUMP_NONE)
		return sh->last_status;
	char *s = expand_word_str(sh, n->u.arith.expr, EXPAND_NOTILDE);
	if (!s)
		return 1;
	if (sh->opt.xtrace) {
		char *t = xasprintf("(( %s ))", s);
		xtrace_text(sh, t);
		free(t);
	}
	intmax_t v;
	int rc = arith_eval(sh, s, &v);
	free(s);
	if (rc != 0)
		return 1;
	return v != 0 ? 0 : 1;
}

/* Under set -o posix a function needs a name that is a variable name and
 * no special builtin's, or a non-interactive shell exits (as bash --posix
 * and dash). */
static bool posix_function_name(struct shell *sh, const char *name)
{
	const struct builtin *b = builtin_find(name);
	if (vars_valid_name(name) && !(b && (b->flags & BUILTIN_SPECIAL)))
		return true;
	if (vars_valid_name(name))
		shell_error(sh, "`%s': is a special builtin", name);
	else
		shell_error(sh, "`%s': not a valid identifier", name);
	if (!sh->opt.interactive && sh->jump == JUMP_NONE) {
		sh->jump = JUMP_EXIT;
		sh->exit_status = STATUS_SYNTAX;
	}
	return false;
}

/* ---- the dispatcher ------------------------------------------------------ */

static int run_compound(struct shell *sh, const struct node *n, unsigned flags)
{
	switch (n->kind) {
	case NODE_PIPELINE:
		return run_pipeline(sh, n, flags);
	case NODE_AND_OR:
		return run_and_or(sh, n, flags);
	case NODE_LIST:
		return run_list(sh, n, flags);
	case NODE_SUBSHELL:
		return run_subshell(sh, n, flags);
	case NODE_BRACE_GROUP:
		return run_node(sh, n->u.group.body, flags);
	case NODE_IF: {
		sh->errexit_ignored++;
		int cond = run_node(sh, n->u.if_.cond, 0);
		sh->errexit_ignored--;
		if (sh->jump != JUMP_NONE || sh->interrupted)
			return cond;
		if (cond == 0)
			return run_node(sh, n->u.if_.then_part, flags);
		if (n->u.if_.else_part)
			return run_node(sh, n->u.if_.else_part, flags);
		sh->status_flags = 0;
		return 0;
	}
	case NODE_LOOP:
		return run_loop(sh, n);
	case NODE_FOR:
		return run_for(sh, n);
	case NODE_ARITH_FOR:
		return run_arith_for(sh, n);
	case NODE_CASE:
		return run_case(sh, n, flags);
	case NODE_FUNCDEF:
		sh->lineno = n->line;
		if (sh->opt.posix && !posix_function_name(sh, n->u.funcdef.name))
			return STATUS_SYNTAX;
		funcs_define(sh, n->u.funcdef.name, n->u.funcdef.body);
		return 0;
	case NODE_COND:
		return run_cond(sh, n);
	case NODE_ARITH:
		return run_arith(sh, n);
	case NODE_SIMPLE:
		break;
	}
	return 0;
}

static int run_node(struct shell *sh, const struct node *n, unsigned flags)
{
	if (!n)
		return 0;
	if (sh->opt.noexec && !sh->opt.interactive)
		return 0;
	if (stack_exhausted())
		return nesting_error(sh, NULL);
	size_t procsubs = sh->nprocsub_fds;
	int status;
	bool leaf = n->kind == NODE_SIMPLE || n->kind == NODE_COND || n->kind == NODE_ARITH || n->kind == NODE_FUNCDEF;
	if (leaf)
		sh->status_flags = 0;
	if (n->kind == NODE_SIMPLE) {
		status = run_simple(sh, n, flags);
	} else if (n->nredirs > 0 && n->kind != NODE_FUNCDEF) {
		/* In a process that ends after this command (a job, a subshell),
		 * the redirections are for good, as dash and bash make them:
		 * saved copies of the old descriptors would keep a caller's pipe
		 * open for as long as a job it never waits for runs. */
		bool for_good = (flags & EX_LAST) && !trap_any_set(sh) && !sh->opt.monitor && !policy_protecting(sh);
		struct redir_saved save = {0};
		if (redir_apply(sh, n->redirs, n->nredirs, for_good ? NULL : &save) != 0) {
			status = 1;
			sh->status_flags = 0; /* no command inside ran: errexit and ERR act here */
		} else {
			status = run_compound(sh, n, flags);
			fflush(stdout);
		}
		redir_restore(&save);
	} else {
		status = run_compound(sh, n, flags);
	}
	if (sh->nprocsub_fds > procsubs)
		close_procsubs(sh, procsubs);
	/* $PIPESTATUS: every simple command, [[ ]], (( )) and ( ) is a
	 * pipeline of one (pipelines of several set it when they wait). */
	if (leaf ? n->kind != NODE_FUNCDEF : n->kind == NODE_SUBSHELL)
		jobs_pipestatus_push(sh, status, true);
	sh->last_status = status;
	if (sh->jump != JUMP_NONE)
		return status;
	/* Ctrl-C at an interactive shell running only builtins (a busy loop)
	 * abandons the command line. */
	if (sh->opt.interactive && !trap_get(sh, SIGINT) && trap_take_sigint()) {
		sh->interrupted = true;
		fputc('\n', stderr);
		sh->last_status = status = 130;
	}
	trap_run_pending(sh);
	if (sh->jump != JUMP_NONE)
		return sh->last_status;
	sh->last_status = status;
	if (status != 0 && !(sh->status_flags & (EXEC_STATUS_EXEMPT | EXEC_STATUS_HANDLED)) &&
	    sh->errexit_ignored == 0 && n->kind != NODE_LIST && n->kind != NODE_AND_OR) {
		/* Functions do not see the ERR trap (bash without -E, trap.c):
		 * the call fails as a whole in its caller. */
		sh->status_flags |= EXEC_STATUS_HANDLED;
		sh->lineno = n->line ? n->line : sh->lineno;
		trap_run_err(sh);
		sh->last_status = status;
		if (sh->opt.errexit && sh->jump == JUMP_NONE) {
			sh->jump = JUMP_EXIT;
			sh->exit_status = status;
		}
	}
	return status;
}

int exec_node(struct shell *sh, const struct node *n)
{
	return run_node(sh, n, 0);
}

/* ---- running text ----------------------------------------------------------- */

int exec_catch_discard(struct shell *sh)
{
	int status = sh->exit_status ? sh->exit_status : 1;
	sh->jump = JUMP_NONE;
	sh->discard_text = false;
	sh->last_status = status;
	/* The abandoned line failed: set -e acts on it. */
	if (sh->opt.errexit && sh->errexit_ignored == 0) {
		sh->jump = JUMP_EXIT;
		sh->exit_status = status;
	}
	return status;
}

static bool only_blank_left(const char *text, size_t len, size_t off)
{
	while (off < len) {
		char c = text[off];
		if (c == '#') {
			while (off < len && text[off] != '\n')
				off++;
			continue;
		}
		if (c != ' ' && c != '\t' && c != '\n')
			return false;
		off++;
	}
	return true;
}

static int exec_text(struct shell *sh, const char *text, size_t len, const char *source_name,
                     unsigned first_line, bool may_exec)
{
	if (sh->eval_depth >= EXEC_MAX_DEPTH)
		return nesting_error(sh, NULL);
	/* Only the outermost text picks up after an abandoned command line. */
	bool top = sh->eval_depth == 0 && sh->func_depth == 0 && sh->source_depth == 0;
	sh->eval_depth++;
	struct parser_options o = {
		.source_name = source_name,
		.first_line = first_line ? first_line : 1,
		.alias_lookup = alias_lookup_for_parser,
		.alias_ctx = sh,
		.at_eof = true,
		.extglob = &sh->opt.extglob,
	};
	struct parser *p = parser_create(text, len, &o);
	int status = 0;
	for (;;) {
		struct node *node = NULL;
		int r = parser_next(p, &node);
		if (r == 0)
			break;
		if (r < 0) {
			shell_syntax_error(sh, parser_error(p));
			status = STATUS_SYNTAX;
			sh->last_status = status;
			/* POSIX (set -o posix, dash): a syntax error in eval's text
			 * ends a non-interactive shell; bash goes on. */
			if (!top && sh->opt.posix && !sh->opt.interactive) {
				sh->jump = JUMP_EXIT;
				sh->exit_status = status;
			}
			break;
		}
		bool last = may_exec && only_blank_left(text, len, parser_offset(p));
		policy_line_begin(sh, node);
		status = run_node(sh, node, last ? EX_LAST : 0);
		policy_line_end(sh);
		ast_node_free(node);
		if (top && !sh->opt.interactive)
			sh->interrupted = false;
		/* Some errors give up text given whole (-c, eval) as a whole,
		 * as in bash: its status is 1 (a -c shell exits); an
		 * interactive shell goes on with the next line. */
		if (sh->jump == JUMP_DISCARD) {
			bool whole = sh->discard_text && !sh->opt.interactive;
			status = exec_catch_discard(sh);
			if (whole)
				break;
		}
		if (sh->jump != JUMP_NONE || sh->interrupted)
			break;
	}
	parser_destroy(p);
	sh->eval_depth--;
	return status;
}

int exec_string(struct shell *sh, const char *text, size_t len, const char *source_name, unsigned first_line)
{
	const char *saved = sh->source_name;
	if (source_name)
		sh->source_name = source_name;
	int status = exec_text(sh, text, len, source_name, first_line, false);
	sh->source_name = saved;
	return status;
}

int exec_command_string(struct shell *sh, const char *text, size_t len)
{
	if (sh->opt.verbose) {
		fwrite(text, 1, len, stderr);
		fputc('\n', stderr);
	}
	return exec_text(sh, text, len, NULL, 1, true);
}

/* The one redirection of $(< file): a command that is only `< word`, with
 * no words or assignments. NULL for any other program. */
static const struct redir *cmdsub_file_redir(const struct node *n)
{
	if (n->kind == NODE_LIST && n->u.list.nitems == 1 && !n->u.list.items[0].async)
		n = n->u.list.items[0].node;
	if (n->kind != NODE_SIMPLE || n->u.simple.nwords != 0 || n->u.simple.nassigns != 0 || n->nredirs != 1)
		return NULL;
	const struct redir *r = &n->redirs[0];
	return r->op == REDIR_IN && r->fd <= 0 && !r->fd_var ? r : NULL;
}

/* $(< file): the child opens the file as the redirection would and copies
 * it to the substitution's pipe, so errors read as for `< file`. */
static int copy_redirected_file(struct shell *sh, const struct redir *r)
{
	if (redir_apply(sh, r, 1, NULL) != 0)
		return 1;
	char buf[8192];
	for (;;) {
		ssize_t n = read(0, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			shell_error(sh, "read error: %s", strerror(errno));
			return 1;
		}
		if (n == 0)
			return 0;
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(1, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return 1;
			done += w;
		}
	}
}

int exec_cmdsub(struct shell *sh, const struct node *program, struct strbuf *out)
{
	sh->cmdsub_count++;
	if (!program)
		return 0;
	if (sh->eval_depth >= EXEC_MAX_DEPTH)
		return nesting_error(sh, NULL);
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		shell_error(sh, "pipe: %s", strerror(errno));
		return 2;
	}
	pid_t pid = fork_child(sh, -1, false);
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return 2;
	}
	if (pid == 0) {
		close(p[0]);
		if (p[1] != 1) {
			dup2(p[1], 1);
			close(p[1]);
		} else {
			fcntl(1, F_SETFD, 0);
		}
		sh->eval_depth++;
		sh->cmdsub_depth++;
		/* bash clears -e in a command substitution; POSIX (set -o posix)
		 * and shopt -s inherit_errexit keep it, as dash does. */
		if (!sh->opt.posix && !sh->opt.inherit_errexit)
			sh->opt.errexit = false;
		const struct redir *file = cmdsub_file_redir(program);
		if (file)
			exec_exit(sh, copy_redirected_file(sh, file));
		int status = run_node(sh, program, EX_LAST);
		if (sh->jump == JUMP_EXIT)
			status = sh->exit_status;
		exec_exit(sh, status);
	}
	close(p[1]);
	/* Read straight into out: a buffer on the stack here would sit in
	 * every level of nested substitutions, which run inside this frame. */
	for (;;) {
		strbuf_reserve(out, 8192);
		ssize_t n = read(p[0], out->data + out->len, out->cap - out->len - 1);
		if (n > 0) {
			out->len += (size_t)n;
			out->data[out->len] = '\0';
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		break;
	}
	close(p[0]);
	int ws = jobs_wait_pid(sh, pid);
	return ws == -1 ? 127 : jobs_status_of(ws);
}

int exec_procsub(struct shell *sh, const struct node *program, bool output, char **path)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		shell_error(sh, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t pid = fork_child(sh, -1, false);
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		int mine = output ? p[0] : p[1];
		int target = output ? 0 : 1;
		dup2(mine, target);
		close(p[0]);
		close(p[1]);
		int status = run_node(sh, program, EX_LAST);
		if (sh->jump == JUMP_EXIT)
			status = sh->exit_status;
		exec_exit(sh, status);
	}
	int keep = output ? p[1] : p[0];
	close(output ? p[0] : p[1]);
	/* Visible to the command as /dev/fd/N, so inheritable. */
	int fd = fcntl(keep, F_DUPFD, 60);
	if (fd < 0 && errno == EINVAL)
		fd = fcntl(keep, F_DUPFD, 10); /* `ulimit -n` below 60 */
	close(keep);
	if (fd < 0) {
		shell_error(sh, "process substitution: %s", strerror(errno));
		return -1;
	}
	if (sh->nprocsub_fds == sh->procsub_cap) {
		sh->procsub_cap = sh->procsub_cap ? sh->procsub_cap * 2 : 4;
		sh->procsub_fds = xreallocarray(sh->procsub_fds, sh->procsub_cap, sizeof *sh->procsub_fds);
	}
	sh->procsub_fds[sh->nprocsub_fds++] = fd;
	sh->last_bg_pid = pid;
	*path = xasprintf("/dev/fd/%d", fd);
	return 0;
}
