/* sbsh's own options and config file, the one-shot modes, and confinement,
 * all before the shell reads a single line of user input. */
#include "frontend/startup.h"

#include "trusted/approver.h"
#include "trusted/broker.h"
#include "frontend/shims.h"
#include "trusted/baseline.h"
#include "trusted/protect_cli.h"
#include "trusted/warden.h"
#include "hooks/classify.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

/* Exit statuses of the front end (the shell's are in shell.h). */
enum { STARTUP_CONTINUE = -1, STARTUP_USAGE = 2, STARTUP_SANDBOX = 7 };

static char *config_file_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && *xdg == '/')
		return xasprintf("%s/sbsh/config", xdg);
	const char *home = getenv("HOME");
	if (home && *home)
		return xasprintf("%s/.config/sbsh/config", home);
	return NULL;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

static int parse_sandbox_mode(const char *v, enum sandbox_mode *mode)
{
	if (strcmp(v, "on") == 0 || strcmp(v, "required") == 0)
		*mode = SANDBOX_REQUIRED;
	else if (strcmp(v, "off") == 0)
		*mode = SANDBOX_OFF;
	else if (strcmp(v, "auto") == 0)
		*mode = SANDBOX_AUTO;
	else
		return -1;
	return 0;
}

/* The config file is `key = value` lines; `#` starts a comment. A line we
 * cannot read is an error naming the file and line: a typo must not quietly
 * turn a required sandbox into an optional one. */
static int read_config(struct startup *st, const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : (fprintf(stderr, "sbsh: %s: %s\n", path, strerror(errno)), -1);
	char line[4096];
	unsigned lineno = 0;
	int rc = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		char *s = trim(line);
		if (*s == '\0' || *s == '#')
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			fprintf(stderr, "sbsh: %s:%u: expected `key = value'\n", path, lineno);
			rc = -1;
			break;
		}
		*eq = '\0';
		char *key = trim(s), *value = trim(eq + 1);
		if (strcmp(key, "sandbox") == 0) {
			if (parse_sandbox_mode(value, &st->sandbox.mode) != 0) {
				fprintf(stderr, "sbsh: %s:%u: sandbox must be on, off or auto\n", path, lineno);
				rc = -1;
				break;
			}
		} else if (strcmp(key, "network") == 0 || strcmp(key, "net") == 0) {
			if (sandbox_parse_net(&st->sandbox, value) != 0) {
				fprintf(stderr, "sbsh: %s:%u: network must be on, off or allow:PORT[,PORT...]\n",
				        path, lineno);
				rc = -1;
				break;
			}
		} else if (strcmp(key, "allow-write") == 0) {
			if (*value != '/') {
				fprintf(stderr, "sbsh: %s:%u: allow-write needs an absolute path\n", path, lineno);
				rc = -1;
				break;
			}
			strvec_push(&st->sandbox.extra_write, value);
		} else if (strcmp(key, "approval-timeout") == 0) {
			char *end;
			long t = strtol(value, &end, 10);
			if (*value == '\0' || *end || t < 1 || t > 86400) {
				fprintf(stderr, "sbsh: %s:%u: approval-timeout must be a number of seconds\n",
				        path, lineno);
				rc = -1;
				break;
			}
			st->broker.timeout_s = (unsigned)t;
		} else if (strcmp(key, "protect") == 0) {
			if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0) {
				fprintf(stderr, "sbsh: %s:%u: protect must be on or off\n", path, lineno);
				rc = -1;
				break;
			}
			st->no_protect = strcmp(value, "off") == 0;
		} else if (strcmp(key, "protect-path") == 0) {
			if (protect_check_extra(value) != 0) {
				fprintf(stderr, "sbsh: %s:%u: protect-path must be a path inside the project, "
				        "relative to its top (no `..')\n", path, lineno);
				rc = -1;
				break;
			}
			strvec_push(&st->protect_extra, value);
		} else if (strcmp(key, "classify") == 0) {
			char *why = NULL;
			if (classifier_add_rule(NULL, value, &why) != 0) {
				fprintf(stderr, "sbsh: %s:%u: classify: %s\n", path, lineno, why);
				free(why);
				rc = -1;
				break;
			}
			strvec_push(&st->classify_rules, value);
		} else {
			/* Keys of later features are accepted so old shells read new files. */
			continue;
		}
	}
	fclose(f);
	return rc;
}

/* `sbsh --config set-KEY VALUE`: rewrites that key's line, keeping the rest. */
static int config_set(const char *path, const char *key, const char *value)
{
	if (!path) {
		fprintf(stderr, "sbsh: --config: neither XDG_CONFIG_HOME nor HOME is set\n");
		return 1;
	}
	struct strbuf out;
	strbuf_init(&out);
	bool replaced = false;
	FILE *f = fopen(path, "re");
	if (f) {
		char line[4096];
		while (fgets(line, sizeof line, f)) {
			char copy[4096];
			snprintf(copy, sizeof copy, "%s", line);
			char *s = trim(copy);
			char *eq = strchr(s, '=');
			if (eq && *s != '#') {
				*eq = '\0';
				if (strcmp(trim(s), key) == 0) {
					if (!replaced)
						strbuf_addf(&out, "%s = %s\n", key, value);
					replaced = true;
					continue;
				}
			}
			strbuf_adds(&out, line);
			if (out.len && out.data[out.len - 1] != '\n')
				strbuf_addc(&out, '\n');
		}
		fclose(f);
	}
	if (!replaced)
		strbuf_addf(&out, "%s = %s\n", key, value);

	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		char *parent = strrchr(dir, '/');
		if (parent) {
			*parent = '\0';
			mkdir(dir, 0700);
			*parent = '/';
		}
		mkdir(dir, 0700);
	}
	free(dir);
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	bool ok = fd >= 0 && write(fd, out.data, out.len) == (ssize_t)out.len;
	if (fd >= 0 && close(fd) != 0)
		ok = false;
	if (ok && rename(tmp, path) != 0)
		ok = false;
	if (!ok) {
		fprintf(stderr, "sbsh: cannot write %s: %s\n", path, strerror(errno));
		unlink(tmp);
	} else {
		printf("%s: %s = %s\n", path, key, value);
	}
	free(tmp);
	strbuf_free(&out);
	return ok ? 0 : 1;
}

static int config_main(const char *path, int argc, char **argv, int i)
{
	if (i + 2 >= argc) {
		fprintf(stderr, "sbsh: usage: sbsh --config set-sandbox on|off|auto\n"
		                "       sbsh --config set-network on|off|allow:PORT[,PORT...]\n");
		return STARTUP_USAGE;
	}
	const char *what = argv[i + 1], *value = argv[i + 2];
	if (strcmp(what, "set-sandbox") == 0) {
		enum sandbox_mode m;
		if (parse_sandbox_mode(value, &m) != 0) {
			fprintf(stderr, "sbsh: --config set-sandbox: expected on, off or auto\n");
			return STARTUP_USAGE;
		}
		return config_set(path, "sandbox", value);
	}
	if (strcmp(what, "set-network") == 0) {
		struct sandbox_config probe;
		sandbox_config_init(&probe);
		int bad = sandbox_parse_net(&probe, value);
		sandbox_config_free(&probe);
		if (bad) {
			fprintf(stderr, "sbsh: --config set-network: expected on, off or allow:PORT[,PORT...]\n");
			return STARTUP_USAGE;
		}
		return config_set(path, "network", value);
	}
	fprintf(stderr, "sbsh: --config: unknown setting `%s'\n", what);
	return STARTUP_USAGE;
}

/* An interactive shell keeps its history in $XDG_STATE_HOME/sbsh/history,
 * a folder the sandbox must not write (the protection baselines live
 * beside it): the file is opened here, before confinement, and written
 * through that descriptor. */
static int open_history(void)
{
	if (!isatty(0) || !isatty(2))
		return -1;
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	char *dir;
	if (state && state[0] == '/')
		dir = xasprintf("%s/sbsh", state);
	else if (home && *home)
		dir = xasprintf("%s/.local/state/sbsh", home);
	else
		return -1;
	for (char *p = dir + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0700);
			*p = '/';
		}
	}
	mkdir(dir, 0700);
	char *path = xasprintf("%s/history", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	free(path);
	free(dir);
	return fd;
}

/* A controlling terminal that stdin, stdout or stderr is on: a human is
 * there. Under an agent tool whose own UI holds the terminal, stdio are
 * pipes, and prompting on /dev/tty would fight that UI. */
static bool stdio_is_terminal(void)
{
	/* TIOCGSID (what tcgetsid() asks) fails unless fd is our controlling
	 * terminal. Asked directly so the answer starts initialised: valgrind
	 * does not know this ioctl writes it. */
	for (int fd = 0; fd <= 2; fd++) {
		pid_t sid = -1;
		if (isatty(fd) && ioctl(fd, TIOCGSID, &sid) == 0 && sid != -1)
			return true;
	}
	return false;
}

/* The text of `sbsh -c TEXT` from the shell options left in argv (main.c
 * parses them again, the same way), or NULL when the shell will run
 * anything else first or instead: a script, stdin, -i, a login shell's
 * profiles. */
static const char *command_text(int argc, char **argv)
{
	bool want_c = false, want_i = false, login = argv[0] && argv[0][0] == '-';
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0 || strcmp(a, "-") == 0) {
			i++;
			break;
		}
		if (a[0] == '-' && a[1] == '-') {
			login = login || strcmp(a, "--login") == 0;
			continue;
		}
		if ((a[0] != '-' && a[0] != '+') || a[1] == '\0')
			break;
		for (const char *p = a + 1; *p; p++) {
			if (*p == 'c')
				want_c = a[0] == '-';
			else if (*p == 'i')
				want_i = a[0] == '-';
			else if (*p == 'l')
				login = a[0] == '-';
			else if (*p == 'o' && i + 1 < argc)
				i++;
		}
	}
	return want_c && !want_i && !login && i < argc ? argv[i] : NULL;
}

/* Whether -c text may need the human: a command the classifier does not
 * judge SAFE as written (escape included, and whatever is unknown until
 * it runs), a sourced file (judged only as it runs), or a cd before a git
 * command (git aliases are the folder's, and the classifier reads those of
 * the starting folder). Text it cannot parse, or very long text, may too.
 * cl is the shell's own classifier (config rules and all), so its git
 * config cache serves the commands as they run. */
static bool text_needs_human(struct classifier *cl, const char *text, bool *may_escape)
{
	size_t len = strlen(text);
	/* escape anywhere: a command, a function, an alias, a string eval'd */
	*may_escape = len > 65536 || strstr(text, "escape");
	if (len > 65536 ||
	    (strstr(text, "git") && (strstr(text, "cd") || strstr(text, "pushd") || strstr(text, "popd"))))
		return true;
	struct classify_result r;
	classify_result_init(&r);
	char *err = NULL;
	bool unparsed = classify_text(cl, text, len, &r, &err) != 0;
	bool needs = unparsed || r.verdict != VERDICT_SAFE;
	free(err);
	for (size_t i = 0; i < r.nitems; i++) {
		const char *c = r.items[i].command ? r.items[i].command : "";
		if (strncmp(c, ". ", 2) == 0 || strncmp(c, "source ", 7) == 0)
			needs = *may_escape = true; /* what the file holds is judged as it runs */
	}
	*may_escape = *may_escape || unparsed;
	classify_result_free(&r);
	return needs;
}

static void remove_args(int *argc, char **argv, int at, int count)
{
	for (int j = at; j + count <= *argc; j++)
		argv[j] = argv[j + count];
	*argc -= count;
}

int startup_run(struct startup *st, int *argc, char ***argvp)
{
	char **argv = *argvp;
	/* jansson seeds its hash tables from /dev/urandom (an open, a read, a
	 * close) unless given a seed: the kernel's per-exec random bytes serve. */
	const unsigned char *random16 = (const unsigned char *)getauxval(AT_RANDOM);
	if (random16) {
		uint32_t seed;
		memcpy(&seed, random16 + 8, sizeof seed);
		json_object_seed(seed ? seed : 1);
	}
	memset(st, 0, sizeof *st);
	st->broker_fd = -1;
	st->history_fd = -1;
	st->protect.shell.fd = -1;
	st->protect.shell.inotify = -1;
	st->protect.broker_fd = -1;
	strvec_init(&st->protect_extra);
	strvec_init(&st->classify_rules);
	const char *events_spec = getenv("SBSH_EVENTS");
	sandbox_config_init(&st->sandbox);
	st->config_path = config_file_path();
	if (st->config_path && read_config(st, st->config_path) != 0)
		return STARTUP_USAGE;

	bool doctor = false, json = false;
	const char *ci = getenv("CI");
	st->headless = ci && *ci && strcmp(ci, "0") != 0 && strcmp(ci, "false") != 0;

	/* --classify judges a command line without running it: no sandbox,
	 * no broker, nothing else of the shell. */
	if (*argc > 1 && strcmp(argv[1], "--classify") == 0)
		return classify_main(*argc, argv, st->classify_rules.items);

	/* sbsh's own options may stand among the shell's, up to the first
	 * operand (the script, or the -c string). */
	for (int i = 1; i < *argc;) {
		char *a = argv[i];
		if (strcmp(a, "--") == 0 || (a[0] != '-' && a[0] != '+') || strcmp(a, "-") == 0)
			break;
		if (strcmp(a, "--sandbox") == 0) {
			st->sandbox.mode = SANDBOX_REQUIRED;
		} else if (strcmp(a, "--no-sandbox") == 0) {
			st->sandbox.mode = SANDBOX_OFF;
		} else if (strcmp(a, "--headless") == 0) {
			st->headless = true;
		} else if (strcmp(a, "--audit") == 0) {
			st->sandbox.audit = true;
		} else if (strcmp(a, "--doctor") == 0) {
			doctor = true;
		} else if (strcmp(a, "--json") == 0 && doctor) {
			json = true;
		} else if (strncmp(a, "--net=", 6) == 0 || strcmp(a, "--net") == 0) {
			const char *spec = a[5] == '=' ? a + 6 : (i + 1 < *argc ? argv[i + 1] : "");
			if (sandbox_parse_net(&st->sandbox, spec) != 0) {
				fprintf(stderr, "sbsh: --net: expected on, off or allow:PORT[,PORT...]\n");
				return STARTUP_USAGE;
			}
			if (a[5] != '=')
				remove_args(argc, argv, i, 1);
		} else if (strncmp(a, "--allow-write=", 14) == 0 || strcmp(a, "--allow-write") == 0) {
			const char *dir = a[13] == '=' ? a + 14 : (i + 1 < *argc ? argv[i + 1] : NULL);
			if (!dir || !*dir) {
				fprintf(stderr, "sbsh: --allow-write: needs a folder\n");
				return STARTUP_USAGE;
			}
			strvec_push(&st->sandbox.extra_write, dir);
			if (a[13] != '=')
				remove_args(argc, argv, i, 1);
		} else if (strcmp(a, "--approver") == 0) {
			return approver_main();
		} else if (strcmp(a, "--shims") == 0) {
			return shims_main(i + 1 < *argc ? argv[i + 1] : NULL);
		} else if (strcmp(a, "--config") == 0) {
			return config_main(st->config_path, *argc, argv, i);
		} else if (strcmp(a, "--protect") == 0) {
			return protect_main(*argc, argv, i, st->protect_extra.items);
		} else if (strcmp(a, "--no-protect") == 0) {
			st->no_protect = true;
		} else if (strncmp(a, "--events=", 9) == 0 || strcmp(a, "--events") == 0) {
			events_spec = a[8] == '=' ? a + 9 : (i + 1 < *argc ? argv[i + 1] : "");
			if (a[8] != '=')
				remove_args(argc, argv, i, 1);
		} else {
			/* a shell option: -o NAME takes the next word with it */
			if ((strcmp(a, "-o") == 0 || strcmp(a, "+o") == 0) && i + 1 < *argc)
				i++;
			i++;
			continue;
		}
		remove_args(argc, argv, i, 1);
	}

	if (doctor)
		return doctor_main(&st->sandbox, st->config_path, json);
	/* Who is asked: an approver when one runs, else the terminal stdio is
	 * on; nobody with CI or --headless. Without a terminal, one lstat of
	 * the approver's socket decides whether a broker is forked. */
	bool terminal = !st->headless && stdio_is_terminal();
	st->terminal = terminal;
	if (!st->headless && !terminal && !approver_present())
		st->headless = true;

	if (events_spec && *events_spec) {
		const char *err = NULL;
		st->events = events_open(events_spec, &err);
		if (!st->events) {
			fprintf(stderr, "sbsh: --events %s: %s\n", events_spec, err);
			return STARTUP_USAGE;
		}
	}
	/* sbsh -c whose text needs nobody as written forks no broker, on a
	 * terminal or with an approver listening (a fork, a pty and a relay
	 * cost more than the rest of sbsh -c here): its commands keep the
	 * terminal, as under bash, and the human is never asked on it; seccomp
	 * stops them typing into it (TIOCSTI). What turns out to need approval
	 * only as it runs goes to the approver when one runs, else is refused,
	 * saying why. Text that may need the human gets the broker (and on a
	 * terminal its pty). */
	const char *text = command_text(*argc, argv);
	bool may_escape = true;
	if (!st->headless && text) {
		st->classifier = classifier_with_rules(st->classify_rules.items);
		st->quiet = st->text_safe = !text_needs_human(st->classifier, text, &may_escape);
	}
	/* Without a terminal the human answers on the approver's, which the
	 * shell can ask itself: then a broker is needed only to run escape. */
	if (!st->headless && !terminal && text && !may_escape)
		st->quiet = true;
	st->ask_approver = !st->headless;
	bool want_broker = !st->headless && !st->quiet;

	/* The rules are made before anything is forked: a fork makes each
	 * page written after it a copy (~100 us of faults for these). */
	if (want_broker)
		sandbox_collect(&st->sandbox); /* for the shell's rules and the broker's list */
	int r = sandbox_prepare(&st->sandbox, &st->state);
	if (r < 0) {
		fprintf(stderr, "sbsh: sandbox requested but unavailable: %s\n", st->state.reason);
		return STARTUP_SANDBOX;
	}

	/* Protected files: the baseline is taken (or enforced) and its warden
	 * started before the broker, so neither the broker's terminal nor the
	 * shell's sandbox is ever in its hands. Only a few stat() calls when
	 * there is no project here. */
	/* Headless, the warden alone keeps the baseline: the shell makes the
	 * session's last check itself before it exits (it never execs its last
	 * command while protecting), so no broker is forked just for that. */
	if (!st->no_protect)
		protect_start(st->events, want_broker, st->protect_extra.items, &st->protect);

	/* The broker is forked before confinement when a human can be asked. */
	st->broker_fd = -1;
	if (want_broker) {
		st->broker.pty = terminal && (isatty(0) || isatty(1) || isatty(2));
		if (st->broker.timeout_s == 0)
			st->broker.timeout_s = 60;
		st->broker.sandbox = &st->sandbox;
		st->broker.terminal = terminal;
		st->broker.protect_fd = st->protect.broker_fd;
		st->broker.protect_shell_fd = st->protect.shell.fd;
		st->broker.events = st->events;
		st->broker_fd = broker_start(&st->broker, &st->pty_path);
		st->sandbox.own_pty = st->pty_path;
		if (st->headless && st->broker_fd >= 0) {
			/* nobody to ask: requests are refused in the shell, as before */
			close(st->broker_fd);
			st->broker_fd = -1;
		}
	}
	if (st->protect.broker_fd >= 0) {
		/* the shell (or a shell without a broker) never uses the broker's end */
		close(st->protect.broker_fd);
		st->protect.broker_fd = -1;
	}
	st->protect.shell.pid = getpid();
	/* A job that detaches itself (a double fork, `(cmd &)`) would go to
	 * init, out of the warden's sight, and could plant a hook after the
	 * session. Headless, the shell adopts such orphans (the broker does,
	 * when there is one), so the session's last check finds them. */
	if (st->protect.shell.fd >= 0 && st->broker_fd < 0)
		prctl(PR_SET_CHILD_SUBREAPER, 1);

	if (!text)
		st->history_fd = open_history();
	/* Any terminal the sandbox inherits: no command in it may type there. */
	st->sandbox.guard_terminal = isatty(0) || isatty(1) || isatty(2);
	if (r == 0)
		r = sandbox_commit(&st->sandbox, &st->state);
	if (r < 0) {
		fprintf(stderr, "sbsh: sandbox requested but unavailable: %s\n", st->state.reason);
		return STARTUP_SANDBOX;
	}
	if (r > 0)
		sandbox_close_collected(&st->sandbox); /* nothing was applied: no commit closed them */
	if (r > 0 && isatty(0) && isatty(2) && !st->headless)
		fprintf(stderr, "sbsh: running without a sandbox: %s\n", st->state.reason);
	for (size_t i = 0; i < st->state.env.len; i++)
		putenv(st->state.env.items[i]);
	/* Every git the shell starts runs the baseline's hooks, never one
	 * planted earlier in the same command line. */
	for (size_t i = 0; i < st->protect.env.len; i++)
		putenv(st->protect.env.items[i]);
	events_session_start(st->events, &st->sandbox, &st->state, st->headless, st->protect.root);
	return STARTUP_CONTINUE;
}
