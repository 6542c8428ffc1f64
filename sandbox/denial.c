/* Denials explained: after a command fails while the sandbox is in force,
 * a one-line hint when sbsh can tell that a write outside the writable
 * folders, or a read of a hidden secret, was the cause. Landlock does not tell a process why another
 * one failed (its audit records need privileges), so sbsh judges from what
 * it knows: its own redirections exactly, and for programs the paths they
 * were asked to write. No hint is better than a wrong one. */
#include "sandbox/denial.h"
#include "sandbox/hide.h"
#include "sandbox/scrubbed.h"
#include "shell/vars.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool under(const char *path, const char *root)
{
	size_t n = strlen(root);
	if (n == 1 && root[0] == '/')
		return true;
	return strncmp(path, root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* The folder a write to path would need, resolved: the path itself when it
 * exists, else its nearest existing parent. */
static char *resolve_target(const char *path)
{
	char *real = realpath(path, NULL);
	if (real)
		return real;
	char *copy = xstrdup(path);
	for (int i = 0; i < 64; i++) {
		char *parent = xstrdup(dirname(copy));
		free(copy);
		copy = parent;
		real = realpath(copy, NULL);
		if (real || strcmp(copy, "/") == 0 || strcmp(copy, ".") == 0)
			break;
	}
	free(copy);
	return real;
}

bool denial_outside(char *const *roots, const char *path)
{
	if (!roots || !path || !*path)
		return false;
	if (strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0)
		return false;
	char *real = resolve_target(path);
	if (!real)
		return false;
	bool inside = false;
	for (char *const *r = roots; *r && !inside; r++)
		inside = under(real, *r);
	free(real);
	return !inside;
}

/* Programs whose path operands are written to, and which of them. */
enum write_args {
	WRITE_ALL,  /* every operand: touch, mkdir, rm, tee... */
	WRITE_LAST, /* the last operand: cp, mv, ln, install */
};

struct writer {
	const char *name;
	enum write_args which;
};

static const struct writer writers[] = {
	{"cp", WRITE_LAST}, {"install", WRITE_LAST}, {"ln", WRITE_LAST},
	{"mkdir", WRITE_ALL}, {"mkfifo", WRITE_ALL}, {"mv", WRITE_LAST}, {"rm", WRITE_ALL},
	{"rmdir", WRITE_ALL}, {"rsync", WRITE_LAST}, {"shred", WRITE_ALL}, {"tee", WRITE_ALL},
	{"touch", WRITE_ALL}, {"truncate", WRITE_ALL}, {"unlink", WRITE_ALL},
};

static const char *base_name(const char *s)
{
	const char *slash = strrchr(s, '/');
	return slash ? slash + 1 : s;
}

char *const *denial_sandbox_roots(struct shell *sh)
{
	if (sh->sandbox_roots || !sh->sandbox_grants)
		return sh->sandbox_roots;
	struct strvec roots;
	strvec_init(&roots);
	for (char **g = sh->sandbox_grants; *g; g++) {
		char *real = realpath(*g, NULL);
		if (real)
			strvec_push_owned(&roots, real);
	}
	sh->sandbox_roots = strvec_detach(&roots);
	return sh->sandbox_roots;
}

static bool outside(struct shell *sh, const char *path)
{
	return denial_outside(denial_sandbox_roots(sh), path);
}

/* The path a program was asked to write that lies outside, or NULL. */
static const char *outside_write_target(struct shell *sh, char *const *argv)
{
	const char *name = base_name(argv[0]);
	if (strcmp(name, "dd") == 0) {
		for (size_t i = 1; argv[i]; i++)
			if (strncmp(argv[i], "of=", 3) == 0 && outside(sh, argv[i] + 3))
				return argv[i] + 3;
		return NULL;
	}
	if (strcmp(name, "sed") == 0 || strcmp(name, "perl") == 0) {
		bool in_place = false;
		for (size_t i = 1; argv[i]; i++)
			in_place |= strncmp(argv[i], "-i", 2) == 0 || strcmp(argv[i], "--in-place") == 0;
		if (!in_place)
			return NULL;
		for (size_t i = 1; argv[i]; i++)
			if (argv[i][0] != '-' && strchr(argv[i], '/') && outside(sh, argv[i]))
				return argv[i];
		return NULL;
	}
	/* -o FILE / --output FILE: compilers, curl, wget, sort, git archive */
	for (size_t i = 1; argv[i]; i++) {
		const char *a = argv[i];
		const char *target = NULL;
		if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 || strcmp(a, "-O") == 0) && argv[i + 1])
			target = argv[i + 1];
		else if (strncmp(a, "--output=", 9) == 0)
			target = a + 9;
		if (target && strcmp(target, "-") != 0 && outside(sh, target))
			return target;
	}
	for (size_t w = 0; w < sizeof writers / sizeof writers[0]; w++) {
		if (strcmp(name, writers[w].name) != 0)
			continue;
		const char *last = NULL;
		bool options_done = false;
		for (size_t i = 1; argv[i]; i++) {
			if (!options_done && strcmp(argv[i], "--") == 0) {
				options_done = true;
				continue;
			}
			if (!options_done && argv[i][0] == '-')
				continue;
			/* touch on a file that exists changes its times: the
			 * supervisor explains that refusal itself */
			struct stat st;
			if (writers[w].which == WRITE_ALL && outside(sh, argv[i]) &&
			    !(strcmp(name, "touch") == 0 && lstat(argv[i], &st) == 0))
				return argv[i];
			last = argv[i];
		}
		if (writers[w].which == WRITE_LAST && last && outside(sh, last))
			return last;
		return NULL;
	}
	return NULL;
}

/* ---- reads of hidden secrets ---- */

/* The hidden entry that path lies strictly in, or that path is when it is
 * not a folder (reading a hidden folder lists it: that works), resolved;
 * NULL otherwise. */
static char *hidden_target(const struct shell *sh, const char *path)
{
	size_t n = strv_len(sh->sandbox_hidden);
	const char *entry = sandbox_hidden_match(sh->sandbox_hidden, n, path);
	if (!entry)
		return NULL;
	char *real = realpath(path, NULL);
	struct stat sb;
	if (real && strcmp(real, entry) == 0 && stat(real, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		free(real);
		return NULL;
	}
	return real;
}

/* Whether word may name a hidden path, judged from its text alone, as
 * before every command: one of its names is the last name of a hidden
 * entry, or it is relative and the shell's folder lies in one. */
static bool may_be_hidden(const struct shell *sh, const char *word, const char *pwd)
{
	for (char *const *h = sh->sandbox_hidden; *h; h++) {
		const char *base = strrchr(*h, '/');
		base = base ? base + 1 : *h;
		size_t n = strlen(base);
		for (const char *p = word; (p = strstr(p, base)) != NULL; p++)
			if ((p == word || p[-1] == '/') && (p[n] == '\0' || p[n] == '/'))
				return true;
		size_t hn = strlen(*h);
		if (word[0] != '/' && pwd && strncmp(pwd, *h, hn) == 0 && (pwd[hn] == '/' || pwd[hn] == '\0'))
			return true;
	}
	return false;
}

/* The first operand of argv (a word, or an --option=VALUE's value) that
 * names a hidden path, resolved (malloc'd), or NULL. With resolve false,
 * only whether one may, in *may (no system call). */
static char *hidden_operand(struct shell *sh, char *const *argv, bool resolve, bool *may)
{
	const char *pwd = vars_get(sh, "PWD");
	unsigned resolved = 0;
	for (size_t i = 1; argv[i]; i++) {
		const char *w = argv[i];
		if (w[0] == '-') {
			const char *eq = strchr(w, '=');
			if (!eq)
				continue;
			w = eq + 1;
		}
		if (!*w)
			continue;
		if (!resolve) {
			if (may_be_hidden(sh, w, pwd)) {
				*may = true;
				return NULL;
			}
			continue;
		}
		/* After a failure every operand is resolved (a link in the
		 * project names nothing hidden in its text), up to a bound. */
		if (++resolved > 64)
			return NULL;
		char *real = hidden_target(sh, w);
		if (real)
			return real;
	}
	return NULL;
}

static void print_read_hint(const struct shell *sh, const char *real)
{
	char *shown = hide_home_short(real);
	char *config = sh->sandbox_config ? hide_home_short(sh->sandbox_config) : xstrdup("sbsh's config file");
	char *line = xasprintf("sbsh: %s is hidden from the sandbox; only the human can let it be read, "
	                       "with unhide = %s in %s\n",
	                       shown, shown, config);
	fflush(stdout);
	ssize_t ignored = write(2, line, strlen(line));
	(void)ignored;
	free(line);
	free(config);
	free(shown);
}

void denial_hint_read(struct shell *sh, const char *path, int err)
{
	if (!sh->sandbox_hidden || err != EACCES || !path)
		return;
	char *real = hidden_target(sh, path);
	if (real)
		print_read_hint(sh, real);
	free(real);
}

static void print_hint(const struct shell *sh, const char *what, char *const *argv)
{
	struct strbuf sb;
	strbuf_init(&sb);
	if (sh->sandbox_project)
		strbuf_addf(&sb, "sbsh: the sandbox blocked a write outside the project %s (%s); ask with: escape",
		            sh->sandbox_project, what);
	else
		strbuf_addf(&sb, "sbsh: the sandbox blocked a write outside the project (%s); ask with: escape", what);
	if (!argv)
		strbuf_adds(&sb, " CMD");
	for (size_t i = 0; argv && argv[i]; i++) {
		strbuf_addc(&sb, ' ');
		vars_quote(&sb, argv[i]);
	}
	strbuf_addc(&sb, '\n');
	fflush(stdout);
	ssize_t ignored = write(2, sb.data, sb.len);
	(void)ignored;
	strbuf_free(&sb);
}

bool denial_may_hint(struct shell *sh, char *const *argv)
{
	if (!sh->sandbox_grants || !argv || !argv[0])
		return false;
	bool may = false;
	if (sh->sandbox_hidden)
		hidden_operand(sh, argv, false, &may);
	return may || outside_write_target(sh, argv);
}

void denial_hint_command(struct shell *sh, char *const *argv, int status)
{
	if (!sh->sandbox_grants || status == 0 || status >= 126 || !argv || !argv[0])
		return;
	bool may = false;
	char *hidden = sh->sandbox_hidden ? hidden_operand(sh, argv, true, &may) : NULL;
	if (hidden) {
		print_read_hint(sh, hidden);
		free(hidden);
		return;
	}
	const char *target = outside_write_target(sh, argv);
	if (target)
		print_hint(sh, target, argv);
}

void denial_hint_redirect(struct shell *sh, const char *path, int err)
{
	if (!sh->sandbox_grants || (err != EACCES && err != EPERM && err != EROFS))
		return;
	if (denial_outside(denial_sandbox_roots(sh), path))
		print_hint(sh, path, NULL);
}

/* Sockets whose name says what is behind them: what a refused connection
 * would have reached. */
const char *denial_socket_kind(const char *path)
{
	static const struct {
		const char *prefix, *suffix, *kind;
	} known[] = {
		{"/run/user/", "/bus", "D-Bus session bus"},
		{"/run/dbus/system_bus_socket", "", "D-Bus system bus"},
		{"/var/run/dbus/system_bus_socket", "", "D-Bus system bus"},
		{"/run/docker.sock", "", "Docker daemon: root on the host"},
		{"/var/run/docker.sock", "", "Docker daemon: root on the host"},
		{"/run/user/", "/docker.sock", "Docker daemon (rootless)"},
		{"/run/podman/podman.sock", "", "Podman service"},
		{"/run/user/", "/podman/podman.sock", "Podman service"},
		{"/run/containerd/containerd.sock", "", "containerd"},
		{"/tmp/.X11-unix/", "", "X11 display"},
		{"/run/user/", "/wayland-0", "Wayland display"},
		{"/run/user/", "/pulse/native", "PulseAudio"},
		{"/run/user/", "/pipewire-0", "PipeWire"},
		{"/run/user/", "/systemd/private", "the user's systemd"},
		{"/run/systemd/private", "", "systemd"},
		{"/run/systemd/journal/", "", "the system journal"},
		{"/dev/log", "", "the system log"},
		{"/tmp/tmux-", "", "a tmux server"},
		{"/run/screen/", "", "a screen session"},
		{"/run/user/", "/gnupg/S.gpg-agent", "gpg agent"},
		{"/run/user/", "/keyring/", "GNOME keyring"},
		{"/run/user/", "/sbsh/approver.sock", "sbsh's approver"},
	};
	for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
		size_t pl = strlen(known[i].prefix), sl = strlen(known[i].suffix), n = strlen(path);
		if (strncmp(path, known[i].prefix, pl) != 0)
			continue;
		if (!sl || (n >= pl + sl && strstr(path + pl, known[i].suffix) != NULL))
			return known[i].kind;
	}
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (strncmp(base, "agent.", 6) == 0 || strstr(path, "ssh-agent") || strstr(base, "S.gpg-agent.ssh"))
		return "an ssh agent";
	if (strncmp(base, "S.gpg-agent", 11) == 0)
		return "gpg agent";
	return NULL;
}

char *denial_socket_message(const char *path, const char *project, bool shared)
{
	const char *kind = denial_socket_kind(path);
	if (kind)
		return xasprintf("sbsh: the sandbox blocked a connection to %s (%s)\n", path, kind);
	if (shared)
		return xasprintf("sbsh: the sandbox blocked a connection to %s (a unix socket in a shared folder that "
		                 "no process of this session listens on; allow-socket = PATH in the config allows one)\n",
		                 path);
	return xasprintf("sbsh: the sandbox blocked a connection to %s (a unix socket outside the project%s%s; "
	                 "allow-socket = PATH in the config allows one)\n",
	                 path, project ? " " : "", project ? project : "");
}

char *denial_metadata_message(const char *call, const char *path, const char *project)
{
	if (project)
		return xasprintf("sbsh: the sandbox blocked a change of metadata (%s) outside the project %s (%s); "
		                 "ask with: escape CMD\n",
		                 call, project, path);
	return xasprintf("sbsh: the sandbox blocked a change of metadata (%s) outside the writable folders (%s); "
	                 "ask with: escape CMD\n",
	                 call, path);
}
