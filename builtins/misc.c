/* times, ulimit, umask, shopt */
#include "builtins/builtins.h"
#include "shell/options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <unistd.h>

BUILTIN_FN(times)
{
	(void)sh;
	(void)argc;
	(void)argv;
	struct rusage self, kids;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	const struct timeval *tv[4] = {&self.ru_utime, &self.ru_stime, &kids.ru_utime, &kids.ru_stime};
	for (int i = 0; i < 4; i++) {
		long sec = (long)tv[i]->tv_sec;
		printf("%ldm%ld.%03lds%c", sec / 60, sec % 60, (long)tv[i]->tv_usec / 1000, i % 2 ? '\n' : ' ');
	}
	return 0;
}

/* ---- ulimit ---------------------------------------------------------------- */

struct limit_desc {
	char opt;
	int resource;
	int unit; /* values are shown and given in these many bytes */
	const char *desc;
	const char *unit_name;
};

static const struct limit_desc limits[] = {
	{'c', RLIMIT_CORE, 1024, "core file size", "blocks"},
	{'d', RLIMIT_DATA, 1024, "data seg size", "kbytes"},
	{'e', RLIMIT_NICE, 1, "scheduling priority", NULL},
	{'f', RLIMIT_FSIZE, 1024, "file size", "blocks"},
	{'i', RLIMIT_SIGPENDING, 1, "pending signals", NULL},
	{'l', RLIMIT_MEMLOCK, 1024, "max locked memory", "kbytes"},
	{'m', RLIMIT_RSS, 1024, "max memory size", "kbytes"},
	{'n', RLIMIT_NOFILE, 1, "open files", NULL},
	{'q', RLIMIT_MSGQUEUE, 1, "POSIX message queues", "bytes"},
	{'r', RLIMIT_RTPRIO, 1, "real-time priority", NULL},
	{'s', RLIMIT_STACK, 1024, "stack size", "kbytes"},
	{'t', RLIMIT_CPU, 1, "cpu time", "seconds"},
	{'u', RLIMIT_NPROC, 1, "max user processes", NULL},
	{'v', RLIMIT_AS, 1024, "virtual memory", "kbytes"},
	{'x', RLIMIT_LOCKS, 1, "file locks", NULL},
};

static const struct limit_desc *find_limit(char opt)
{
	for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
		if (limits[i].opt == opt)
			return &limits[i];
	return NULL;
}

static void print_limit_value(rlim_t v, int unit)
{
	if (v == RLIM_INFINITY)
		puts("unlimited");
	else
		printf("%llu\n", (unsigned long long)(v / (rlim_t)unit));
}

BUILTIN_FN(ulimit)
{
	bool hard = false, soft = false, all = false;
	char which = 0;
	const char *value = NULL;
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1])
			break;
		for (const char *p = a + 1; *p; p++) {
			if (*p == 'H')
				hard = true;
			else if (*p == 'S')
				soft = true;
			else if (*p == 'a')
				all = true;
			else if (find_limit(*p))
				which = *p;
			else {
				shell_error(sh, "ulimit: -%c: invalid option", *p);
				shell_warn("ulimit: usage: ulimit [-SHa] [-cdefilmnqrstuvx] [limit]");
				return 2;
			}
		}
	}
	if (i < argc)
		value = argv[i++];
	if (!which)
		which = 'f';
	if (all) {
		for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
			struct rlimit rl;
			if (getrlimit(limits[k].resource, &rl) != 0)
				continue;
			char head[64];
			if (limits[k].unit_name)
				snprintf(head, sizeof head, "(%s, -%c)", limits[k].unit_name, limits[k].opt);
			else
				snprintf(head, sizeof head, "(-%c)", limits[k].opt);
			printf("%-28s%s ", limits[k].desc, head);
			print_limit_value(hard ? rl.rlim_max : rl.rlim_cur, limits[k].unit);
		}
		return 0;
	}
	const struct limit_desc *d = find_limit(which);
	struct rlimit rl;
	if (getrlimit(d->resource, &rl) != 0) {
		shell_error(sh, "ulimit: %s", strerror(errno));
		return 1;
	}
	if (!value) {
		print_limit_value(hard ? rl.rlim_max : rl.rlim_cur, d->unit);
		return 0;
	}
	rlim_t v;
	if (strcmp(value, "unlimited") == 0) {
		v = RLIM_INFINITY;
	} else if (strcmp(value, "hard") == 0) {
		v = rl.rlim_max;
	} else if (strcmp(value, "soft") == 0) {
		v = rl.rlim_cur;
	} else {
		char *end;
		errno = 0;
		unsigned long long n = strtoull(value, &end, 10);
		if (*value == '-' || *end || errno) {
			shell_error(sh, "ulimit: %s: invalid number", value);
			return 1;
		}
		/* Past what rlim_t holds in bytes: unlimited, as bash has it,
		 * not the product wrapped round to a tiny limit. */
		v = n > RLIM_INFINITY / (rlim_t)d->unit ? RLIM_INFINITY : (rlim_t)n * (rlim_t)d->unit;
	}
	/* Neither -H nor -S: both, as bash does. */
	if (!hard && !soft)
		hard = soft = true;
	if (hard)
		rl.rlim_max = v;
	if (soft)
		rl.rlim_cur = v;
	if (setrlimit(d->resource, &rl) != 0) {
		shell_error(sh, "ulimit: %s: cannot modify limit: %s", d->desc, strerror(errno));
		return 1;
	}
	return 0;
}

/* ---- umask ------------------------------------------------------------------ */

static void print_symbolic(mode_t mask)
{
	mode_t perm = ~mask & 0777;
	const char *who = "ugo";
	for (int i = 0; i < 3; i++) {
		int shift = 6 - 3 * i;
		printf("%c=", who[i]);
		if (perm & (4 << shift))
			putchar('r');
		if (perm & (2 << shift))
			putchar('w');
		if (perm & (1 << shift))
			putchar('x');
		putchar(i < 2 ? ',' : '\n');
	}
}

/* Applies a symbolic mode (u+x,go-w,a=r) to permission bits. An empty
 * mode or an empty clause (`u=,`) is an error, as in POSIX's grammar and
 * bash. */
static int apply_symbolic(const char *s, mode_t *perm)
{
	mode_t p = *perm;
	if (!*s)
		return -1;
	while (*s) {
		mode_t who = 0;
		for (; *s && strchr("ugoa", *s); s++) {
			if (*s == 'u')
				who |= 0700;
			else if (*s == 'g')
				who |= 0070;
			else if (*s == 'o')
				who |= 0007;
			else
				who |= 0777;
		}
		if (!who)
			who = 0777;
		if (!*s || !strchr("+-=", *s))
			return -1;
		while (*s && strchr("+-=", *s)) {
			char op = *s++;
			mode_t bits = 0;
			for (; *s && strchr("rwxXst", *s); s++) {
				if (*s == 'r')
					bits |= 0444;
				else if (*s == 'w')
					bits |= 0222;
				else if (*s == 'x' || *s == 'X')
					bits |= 0111;
			}
			if (*s && strchr("ugo", *s)) {
				/* copy from another class */
				mode_t src = *s == 'u' ? (p & 0700) >> 6 : *s == 'g' ? (p & 0070) >> 3 : p & 0007;
				bits = src * 0111;
				s++;
			}
			bits &= who;
			if (op == '+')
				p |= bits;
			else if (op == '-')
				p &= ~bits;
			else
				p = (p & ~who) | bits;
		}
		if (*s == ',' && s[1])
			s++;
		else if (*s)
			return -1;
	}
	*perm = p;
	return 0;
}

BUILTIN_FN(umask)
{
	struct builtin_getopt g = {.index = 1};
	bool symbolic = false, reusable = false;
	int c;
	while ((c = builtin_getopt(&g, argc, argv, "Sp", "umask")) != -1) {
		if (c == 'S')
			symbolic = true;
		else if (c == 'p')
			reusable = true;
		else {
			shell_warn("umask: usage: umask [-p] [-S] [mode]");
			return 2;
		}
	}
	mode_t mask = umask(0);
	umask(mask);
	if (g.index >= argc) {
		if (reusable)
			fputs("umask ", stdout);
		if (symbolic) {
			if (reusable)
				fputs("-S ", stdout);
			print_symbolic(mask);
		} else {
			printf("%04o\n", (unsigned)mask);
		}
		return 0;
	}
	const char *m = argv[g.index];
	if (*m >= '0' && *m <= '7') {
		char *end;
		unsigned long v = strtoul(m, &end, 8);
		if (*end || v > 07777) {
			shell_error(sh, "umask: %s: octal number out of range", m);
			return 1;
		}
		umask((mode_t)v & 0777);
		return 0;
	}
	mode_t perm = ~mask & 0777;
	if (apply_symbolic(m, &perm) != 0) {
		shell_error(sh, "umask: `%s': invalid symbolic mode operator", m);
		return 1;
	}
	umask(~perm & 0777);
	return 0;
}

/* ---- shopt ------------------------------------------------------------------ */

static bool *shopt_flag(struct shell *sh, const char *name)
{
	if (strcmp(name, "nullglob") == 0)
		return &sh->opt.nullglob;
	if (strcmp(name, "failglob") == 0)
		return &sh->opt.failglob;
	if (strcmp(name, "dotglob") == 0)
		return &sh->opt.dotglob;
	if (strcmp(name, "nocaseglob") == 0)
		return &sh->opt.nocaseglob;
	if (strcmp(name, "globstar") == 0)
		return &sh->opt.globstar;
	if (strcmp(name, "nocasematch") == 0)
		return &sh->opt.nocasematch;
	if (strcmp(name, "expand_aliases") == 0)
		return &sh->opt.expand_aliases;
	if (strcmp(name, "lastpipe") == 0)
		return &sh->opt.lastpipe;
	if (strcmp(name, "xpg_echo") == 0)
		return &sh->opt.xpg_echo;
	if (strcmp(name, "extglob") == 0)
		return &sh->opt.extglob;
	if (strcmp(name, "extdebug") == 0)
		return &sh->opt.extdebug;
	if (strcmp(name, "globskipdots") == 0)
		return &sh->opt.globskipdots;
	if (strcmp(name, "inherit_errexit") == 0)
		return &sh->opt.inherit_errexit;
	return NULL;
}

/* bash options that session snapshots and rc files set, accepted without
 * effect so those files run unchanged; each has a bit in opt.shopt_noop. */
static const char *const shopt_noop_names[] = {
	"autocd", "cdable_vars", "checkhash", "checkjobs", "checkwinsize", "cmdhist",
	"complete_fullquote", "direxpand", "dirspell", "extquote", "force_fignore",
	"globasciiranges", "histappend", "histreedit", "histverify", "hostcomplete",
	"interactive_comments", "lithist", "progcomp", "promptvars", "sourcepath",
};

static bool *shopt_noop_flag(struct shell *sh, const char *name, bool *storage)
{
	for (size_t i = 0; i < sizeof shopt_noop_names / sizeof shopt_noop_names[0]; i++) {
		if (strcmp(shopt_noop_names[i], name) == 0) {
			*storage = (sh->opt.shopt_noop >> i) & 1;
			return storage;
		}
	}
	return NULL;
}

static void shopt_noop_store(struct shell *sh, const char *name, bool on)
{
	for (size_t i = 0; i < sizeof shopt_noop_names / sizeof shopt_noop_names[0]; i++) {
		if (strcmp(shopt_noop_names[i], name) == 0) {
			if (on)
				sh->opt.shopt_noop |= 1u << i;
			else
				sh->opt.shopt_noop &= ~(1u << i);
		}
	}
}

static const char *const shopt_names[] = {
	"dotglob", "expand_aliases", "extdebug", "extglob", "failglob", "globskipdots", "globstar",
	"inherit_errexit", "lastpipe", "nocaseglob", "nocasematch", "nullglob", "xpg_echo",
};

/* Inserts name into a sorted vector. */
static void push_sorted(struct strvec *v, const char *name)
{
	size_t at = v->len;
	while (at > 0 && strcmp(v->items[at - 1], name) > 0)
		at--;
	strvec_push(v, name);
	for (size_t i = v->len - 1; i > at; i--) {
		char *tmp = v->items[i];
		v->items[i] = v->items[i - 1];
		v->items[i - 1] = tmp;
	}
}

char *shopt_enabled_names(struct shell *sh)
{
	struct strvec on;
	strvec_init(&on);
	for (size_t i = 0; i < sizeof shopt_names / sizeof shopt_names[0]; i++)
		if (*shopt_flag(sh, shopt_names[i]))
			push_sorted(&on, shopt_names[i]);
	for (size_t i = 0; i < sizeof shopt_noop_names / sizeof shopt_noop_names[0]; i++)
		if ((sh->opt.shopt_noop >> i) & 1)
			push_sorted(&on, shopt_noop_names[i]);
	struct strbuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < on.len; i++) {
		if (i)
			strbuf_addc(&sb, ':');
		strbuf_adds(&sb, on.items[i]);
	}
	strvec_free(&on);
	return strbuf_detach(&sb);
}

static void shopt_show(struct shell *sh, const char *name, bool reusable)
{
	bool on = *shopt_flag(sh, name);
	if (reusable)
		printf("shopt %s %s\n", on ? "-s" : "-u", name);
	else
		printf("%-15s\t%s\n", name, on ? "on" : "off");
}

static void setopt_show(const char *name, bool on, bool reusable)
{
	if (reusable)
		printf("set %co %s\n", on ? '-' : '+', name);
	else
		printf("%-15s\t%s\n", name, on ? "on" : "off");
}

/* shopt -o: the same verbs over the `set -o` names, as bash has it. */
static int shopt_setopts(struct shell *sh, int n, char **names, bool set, bool unset, bool print,
                         bool quiet)
{
	if (n == 0) {
		const char *name;
		for (size_t i = 0; (name = options_name_at(i)) != NULL; i++) {
			bool on = options_get_name(sh, name) == 1;
			if ((set && !on) || (unset && on))
				continue;
			if (!quiet)
				setopt_show(name, on, print);
		}
		return 0;
	}
	int status = 0;
	for (int i = 0; i < n; i++) {
		int on = options_get_name(sh, names[i]);
		if (on < 0) {
			shell_error(sh, "shopt: %s: invalid option name", names[i]);
			status = 1;
			continue;
		}
		if (set || unset) {
			options_set_name(sh, names[i], set);
			continue;
		}
		if (!quiet)
			setopt_show(names[i], on == 1, print);
		if (on == 0)
			status = 1;
	}
	return status;
}

BUILTIN_FN(shopt)
{
	struct builtin_getopt g = {.index = 1};
	bool set = false, unset = false, print = false, quiet = false, setopts = false;
	int c;
	while ((c = builtin_getopt(&g, argc, argv, "supqo", "shopt")) != -1) {
		switch (c) {
		case 's':
			set = true;
			break;
		case 'u':
			unset = true;
			break;
		case 'p':
			print = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'o':
			setopts = true;
			break;
		default:
			shell_warn("shopt: usage: shopt [-pqsu] [-o] [optname ...]");
			return 2;
		}
	}
	if (set && unset) {
		shell_error(sh, "shopt: cannot set and unset shell options simultaneously");
		return 1;
	}
	if (setopts)
		return shopt_setopts(sh, argc - g.index, argv + g.index, set, unset, print, quiet);
	size_t nnames = sizeof shopt_names / sizeof shopt_names[0];
	if (g.index >= argc) {
		for (size_t i = 0; i < nnames; i++) {
			bool on = *shopt_flag(sh, shopt_names[i]);
			if ((set && !on) || (unset && on))
				continue;
			if (!quiet)
				shopt_show(sh, shopt_names[i], print || set || unset ? print : false);
		}
		return 0;
	}
	int status = 0;
	for (int i = g.index; i < argc; i++) {
		/* The two name sets are disjoint; the no-op ones are looked up
		 * first (clang-analyzer misreads a NULL flag as a NULL sh). */
		bool noop_value;
		bool *noop = shopt_noop_flag(sh, argv[i], &noop_value);
		bool *flag = noop ? NULL : shopt_flag(sh, argv[i]);
		if (noop) {
			if (set || unset)
				shopt_noop_store(sh, argv[i], set);
			else if (!quiet)
				printf("%-15s\t%s\n", argv[i], *noop ? "on" : "off");
			if (!set && !unset && !*noop)
				status = 1;
			continue;
		}
		if (!flag) {
			/* Unsetting an option we do not have is no error. */
			if (unset)
				continue;
			shell_error(sh, "shopt: %s: invalid shell option name", argv[i]);
			status = 1;
			continue;
		}
		if (set) {
			*flag = true;
		} else if (unset) {
			*flag = false;
		} else {
			if (!quiet)
				shopt_show(sh, argv[i], print);
			if (!*flag)
				status = 1;
		}
	}
	return status;
}
