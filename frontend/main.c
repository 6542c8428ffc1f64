/* sbsh's entry point: options, startup files, then one of the modes
 * (-c string, script file, stdin, interactive). */
#include "shell/shell.h"
#include "hooks/approve.h"
#include "shell/lineedit.h"
#include "sandbox/sandbox.h"
#include "frontend/startup.h"
#include "hooks/protect_client.h"
#include "shell/users.h"
#include "shell/vars.h"
#include "shell/options.h"
#include "builtins/builtins.h"
#include "shell/expand.h"
#include "shell/exec.h"
#include "shell/trap.h"
#include "shell/jobs.h"
#include "shell/input.h"
#include "trusted/session_socket.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1"
#endif

extern char **environ;

/* The name of process pid (its comm), or "" when it cannot be read. */
static void process_name(pid_t pid, char *out, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/comm", (long)pid);
	FILE *f = fopen(path, "re");
	out[0] = '\0';
	if (f) {
		if (fgets(out, (int)size, f))
			out[strcspn(out, "\n")] = '\0';
		fclose(f);
	}
}

/* The parent of pid, or 0. */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *close = strrchr(buf, ')'); /* comm may hold spaces */
	long ppid = 0;
	if (close && sscanf(close + 1, " %*c %ld", &ppid) != 1)
		ppid = 0;
	return (pid_t)ppid;
}

/* Whether this shell runs the project's own code rather than the agent's
 * text (policy rule 10): a recipe of make (its parent is make, which sets
 * MAKELEVEL), a package script (its parent is node or a package manager,
 * which sets npm_lifecycle_event), or any shell below a script file that
 * sbsh runs (SBSH_OPAQUE names that shell's pid, and it must be an
 * ancestor: an exported value alone lifts nothing). */
static bool opaque_parent(pid_t parent)
{
	char name[64];
	if (getenv("MAKELEVEL") || getenv("npm_lifecycle_event")) {
		process_name(parent, name, sizeof name);
		if (getenv("MAKELEVEL") && (strcmp(name, "make") == 0 || strcmp(name, "gmake") == 0))
			return true;
		if (getenv("npm_lifecycle_event") &&
		    (strncmp(name, "node", 4) == 0 || strncmp(name, "npm", 3) == 0 ||
		     strncmp(name, "yarn", 4) == 0 || strncmp(name, "pnpm", 4) == 0 ||
		     strncmp(name, "bun", 3) == 0))
			return true;
	}
	const char *marker = getenv("SBSH_OPAQUE");
	if (marker && *marker) {
		char *end;
		long want = strtol(marker, &end, 10);
		pid_t p = parent;
		for (int depth = 0; *end == '\0' && want > 1 && p > 1 && depth < 32; depth++) {
			if (p == (pid_t)want)
				return true;
			p = parent_of(p);
		}
	}
	return false;
}

static void usage(FILE *out)
{
	fputs("Usage: sbsh [-abCefhimnuvx] [-o option] [-c command [name [arg...]]]\n"
	      "       sbsh [options] [script [arg...]]\n"
	      "       sbsh [options] -s [arg...]\n"
	      "Options: -c run the command string; -s read commands from stdin;\n"
	      "         -i interactive; -l, --login run /etc/profile and ~/.profile;\n"
	      "         -o NAME / +o NAME set or unset an option (see `set -o`);\n"
	      "         --version, --help.\n"
	      "sbsh's own: --sandbox, --no-sandbox, --net=on|off|allow:PORTS, --allow-write DIR,\n"
	      "         --headless, --approver [--trust-multiplexer], --doctor [--json],\n"
	      "         --classify [--json] -c STRING,\n"
	      "         --config set-sandbox|set-network VALUE, --shims DIR, --events FILE,\n"
	      "         --setup [--undo] claude-code|codex,\n"
	      "         --protect accept|status, --no-protect,\n"
	      "         --review [status|log|diff|accept|reject|undo], --no-checkpoints, --ephemeral,\n"
	      "         --isolate [NAME], --review --isolate NAME|list [status|diff|accept|reject|discard]\n"
	      "         (see sbsh(1)).\n",
	      out);
}

struct main_options {
	bool want_c;
	bool want_s;
	bool want_i;
	bool login;
	bool monitor_set; /* -m or +m given explicitly */
	bool norc, noprofile;
	const char *rcfile; /* --rcfile FILE: read in place of ~/.sbshrc */
};

/* Returns the index of the first operand, or -1 after reporting. */
static int parse_options(struct shell *sh, int argc, char **argv, struct main_options *mo)
{
	int i = 1;
	while (i < argc) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0 || strcmp(a, "-") == 0) {
			i++;
			break;
		}
		if (a[0] == '-' && a[1] == '-') {
			if (strcmp(a, "--version") == 0) {
				struct sandbox_state probe = {0};
				sandbox_probe(&probe);
				printf("sbsh %s (line editor: %s; Landlock ABI %d%s)\n", PACKAGE_VERSION,
				       lineedit_name(), probe.abi, probe.abi ? "" : ", no sandbox here");
				exit(0);
			} else if (strcmp(a, "--help") == 0) {
				usage(stdout);
				exit(0);
			} else if (strcmp(a, "--login") == 0) {
				mo->login = true;
			} else if (strcmp(a, "--posix") == 0) {
				options_set_name(sh, "posix", true);
			} else if (strcmp(a, "--norc") == 0) {
				mo->norc = true;
			} else if (strcmp(a, "--noprofile") == 0) {
				mo->noprofile = true;
			} else if (strcmp(a, "--rcfile") == 0 || strcmp(a, "--init-file") == 0) {
				if (i + 1 >= argc) {
					shell_warn("%s: option requires an argument", a);
					return -1;
				}
				mo->rcfile = argv[++i];
			} else {
				shell_warn("%s: invalid option", a);
				usage(stderr);
				return -1;
			}
			i++;
			continue;
		}
		if ((a[0] != '-' && a[0] != '+') || a[1] == '\0')
			break;
		bool on = a[0] == '-';
		for (const char *p = a + 1; *p; p++) {
			switch (*p) {
			case 'c':
				/* bash reads +c as -c too */
				mo->want_c = true;
				break;
			case 's':
				mo->want_s = on;
				break;
			case 'i':
				mo->want_i = on;
				break;
			case 'l':
				mo->login = on;
				break;
			case 'o': {
				if (i + 1 >= argc) {
					/* like `set -o`: list */
					options_print(sh, !on);
					exit(0);
				}
				const char *name = argv[++i];
				if (options_set_name(sh, name, on) != 0) {
					shell_warn("%s: invalid option name", name);
					return -1;
				}
				if (strcmp(name, "monitor") == 0)
					mo->monitor_set = true;
				break;
			}
			case 'O': {
				/* -O name / +O name: shopt -s / -u before the script runs */
				if (i + 1 >= argc) {
					shell_warn("%cO: option requires an argument", a[0]);
					return -1;
				}
				char *sargv[] = {"shopt", on ? "-s" : "-u", argv[++i], NULL};
				if (builtin_shopt(sh, 3, sargv) != 0)
					return -1;
				break;
			}
			default:
				if (options_set_letter(sh, *p, on) != 0) {
					shell_warn("%c%c: invalid option", a[0], *p);
					usage(stderr);
					return -1;
				}
				if (*p == 'm')
					mo->monitor_set = true;
				break;
			}
		}
		i++;
	}
	return i;
}

static void run_startup_files(struct shell *sh, const struct main_options *mo, bool interactive)
{
	const char *home = vars_get(sh, "HOME");
	if (mo->login && !mo->noprofile) {
		input_run_optional_file(sh, "/etc/profile");
		if (sh->jump == JUMP_EXIT)
			return;
		if (home && *home) {
			char *p = xasprintf("%s/.profile", home);
			input_run_optional_file(sh, p);
			free(p);
			if (sh->jump == JUMP_EXIT)
				return;
		}
	}
	if (!interactive || mo->norc)
		return;
	const char *env = vars_get(sh, "ENV");
	if (env && *env) {
		char *path = expand_prompt(sh, env);
		if (*path)
			input_run_optional_file(sh, path);
		free(path);
		if (sh->jump == JUMP_EXIT)
			return;
	}
	home = vars_get(sh, "HOME");
	if (mo->rcfile) {
		input_run_optional_file(sh, mo->rcfile);
	} else if (home && *home) {
		char *p = xasprintf("%s/.sbshrc", home);
		input_run_optional_file(sh, p);
		free(p);
	}
	/* startup files may `return`; that ends only them */
	if (sh->jump != JUMP_EXIT)
		sh->jump = JUMP_NONE;
}

int main(int argc, char **argv)
{
	struct startup st;
	/* who started sbsh: the shell itself may run below a warden */
	pid_t started_by = getppid();
#ifdef SBSH_STATIC_LIBC
	users_static_libc();
#endif
	int rc = startup_run(&st, &argc, &argv);
	/* exit(), not return, as exec_exit does: what st and sh hold lives
	 * until the process ends, and stays reachable from this frame. */
	if (rc >= 0)
		exit(rc);

	struct shell sh;
	shell_init(&sh, environ);
	/* The session's socket is its broker's to name. A tool that replays a
	 * snapshot of an earlier shell's exports (Codex) would otherwise point
	 * the sbsh this shell execs at that shell's session, gone since, and a
	 * yes given here would not reach it (issue 22, item 5). The variable
	 * stays assignable: such a snapshot is sourced under set -e. */
	const char *session_env = getenv(SESSION_SOCKET_ENV);
	if (session_env)
		sh.pinned_env = xasprintf("%s=%s", SESSION_SOCKET_ENV, session_env);
	sh.broker_fd = st.broker_fd;
	sh.quiet = st.quiet;
	sh.nested_session = st.session_socket != NULL;
	sh.session_leader = st.pty_path != NULL;
	sh.history_fd = st.history_fd;
	sh.pending_guard = st.state.guard_pending || st.state.supervise_pending ? &st.state : NULL;
	if (st.state.landlock_applied) {
		/* Resolved only when a hint needs them (denial.c): a realpath per
		 * folder costs more than the rest of a `sbsh -c true`. */
		struct strvec grants;
		strvec_init(&grants);
		for (size_t r = 0; r < st.state.ngrants; r++) {
			strvec_push(&grants, st.state.grants[r].path);
			if (!sh.sandbox_project && strcmp(st.state.grants[r].why, "project") == 0)
				sh.sandbox_project = st.state.grants[r].path;
		}
		sh.sandbox_grants = strvec_detach(&grants);
		if (st.state.hidden.len)
			sh.sandbox_hidden = strv_copy(st.state.hidden.items);
		sh.sandbox_config = st.config_path;
	}
	struct policy_options po = {.headless = st.headless, .broker_fd = st.broker_fd, .events = st.events, .protect = &st.protect.shell,
	                             .checkpoints = &st.checkpoints,
	                             .rules = st.classify_rules.items, .cl = st.classifier,
	                             .nobody_why = st.quiet ? QUIET_NOBODY_WHY : NULL, .session_socket = st.session_socket,
	                             .text_safe = st.text_safe, .approval_timeout_s = st.broker.timeout_s};
	policy_init(&sh, &po);
	protect_client_settle(&st.protect.shell);
	sh.opt.expand_aliases = true;

	struct main_options mo = {0};
	if (argv[0] && argv[0][0] == '-')
		mo.login = true;
	/* Run by the name sh (a link), POSIX mode is on, as in bash. */
	if (argv[0]) {
		const char *base = strrchr(argv[0], '/');
		base = base ? base + 1 : argv[0];
		if (strcmp(base, "sh") == 0 || strcmp(base, "-sh") == 0)
			options_set_name(&sh, "posix", true);
	}
	int i = parse_options(&sh, argc, argv, &mo);
	if (i < 0)
		exit(STATUS_SYNTAX);

	const char *command = NULL;
	const char *script = NULL;
	if (mo.want_c) {
		if (i >= argc) {
			shell_warn("-c: option requires an argument");
			exit(STATUS_SYNTAX);
		}
		command = argv[i++];
		free(sh.arg0);
		sh.arg0 = xstrdup(i < argc ? argv[i++] : argv[0]);
	} else if (!mo.want_s && i < argc) {
		script = argv[i++];
		free(sh.arg0);
		sh.arg0 = xstrdup(script);
	} else if (argv[0]) {
		free(sh.arg0);
		sh.arg0 = xstrdup(argv[0]);
	}
	shell_set_positional(&sh, argv + i, (size_t)(argc - i));

	/* A script file is opaque project code (policy rule 10): its commands,
	 * and those of shells it starts (configure's sub-shells), are bounded
	 * by the sandbox, not classified one by one. The agent's own text (-c,
	 * stdin, what it sources or evals from there) is. The marker cannot
	 * lift anything: the shell that would pass it on to a classified
	 * command judges that command first. */
	if (script || opaque_parent(started_by)) {
		policy_set_opaque(&sh);
		char pid[32];
		snprintf(pid, sizeof pid, "%ld", (long)getpid());
		vars_set(&sh, "SBSH_OPAQUE", pid, VAR_EXPORT);
	}

	bool interactive = mo.want_i || (!command && !script && isatty(0) && isatty(2));
	sh.opt.cmd_string = command != NULL;
	sh.opt.stdin_mode = !command && !script;
	sh.opt.interactive = interactive;
	sh.opt.history = interactive;
	/* An interactive bash edits lines emacs-style unless told vi. */
	if (interactive && !sh.opt.vi)
		sh.opt.emacs = true;
	if (interactive && !getenv("PS1")) {
		/* The default prompt says what confines this shell. */
		const char *tag = !st.state.landlock_applied ? "no sandbox"
		                  : st.sandbox.net == SANDBOX_NET_OFF ? "sb net-off"
		                  : st.sandbox.net == SANDBOX_NET_ALLOW ? "sb net-allow" : "sb";
		char *ps1 = st.isolate.name ? xasprintf("[%s isolated:%s] \\$ ", tag, st.isolate.name)
		                            : xasprintf("[%s] \\$ ", tag);
		vars_set(&sh, "PS1", ps1, 0);
		free(ps1);
	}
	if (interactive && !vars_get(&sh, "HISTFILE")) {
		/* Where the history goes, as bash tells (the file was opened
		 * before confinement: setting HISTFILE changes nothing). */
		char *hist = util_history_path(vars_get(&sh, "XDG_STATE_HOME"), vars_get(&sh, "HOME"));
		if (hist)
			vars_set(&sh, "HISTFILE", hist, 0);
		free(hist);
	}
	sh.opt.login = mo.login;
	if (interactive && !mo.monitor_set)
		sh.opt.monitor = true;
	if (interactive)
		trap_setup_interactive(&sh, true, false);
	if (sh.opt.monitor) {
		sh.opt.monitor = false;
		jobs_set_monitor(&sh, true);
	}

	run_startup_files(&sh, &mo, interactive);

	int status = 0;
	if (sh.jump == JUMP_EXIT) {
		status = sh.exit_status;
	} else if (command) {
		status = exec_command_string(&sh, command, strlen(command));
	} else if (script) {
		shell_set_main_script(&sh, script);
		status = input_run_file(&sh, script, true);
	} else if (interactive) {
		status = input_run_interactive(&sh);
	} else {
		status = input_run_fd(&sh, 0, NULL);
	}
	if (sh.jump == JUMP_EXIT)
		status = sh.exit_status;
	sh.jump = JUMP_NONE;
	exec_exit(&sh, status);
}
