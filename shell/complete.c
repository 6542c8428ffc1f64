/* Completion candidates: what a word can become at the cursor. */
#include "shell/complete.h"

#include <dirent.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtins/builtins.h"
#include "shell/users.h"
#include "shell/vars.h"
#include "shell/funcs.h"
#include "shell/alias.h"
#include "shell/exec.h"
#include "shell/options.h"
#include "shell/trap.h"

#if defined(HAVE_READLINE)
#include <stdio.h>
#include <readline/readline.h>
#elif defined(HAVE_LIBEDIT)
#include <stdio.h>
#include <editline/readline.h>
#endif

bool complete_command_position(const char *line, size_t start)
{
	size_t i = start;
	while (i > 0 && (line[i - 1] == ' ' || line[i - 1] == '\t'))
		i--;
	if (i == 0)
		return true;
	char c = line[i - 1];
	if (strchr(";|&(`{!", c))
		return true;
	/* After a reserved word that starts a command: then, do, else... */
	static const char *const words[] = {"then", "do", "else", "elif", "if", "while", "until", "time"};
	for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
		size_t n = strlen(words[w]);
		if (i >= n && strncmp(line + i - n, words[w], n) == 0 &&
		    (i == n || strchr(" \t;|&(", line[i - n - 1])))
			return true;
	}
	return false;
}

struct collect {
	struct strvec *out;
	const char *prefix;
	size_t len;
	unsigned need; /* variables: the flags a listed one must have */
};

static void add(struct collect *c, const char *name)
{
	if (strncmp(name, c->prefix, c->len) == 0)
		strvec_push(c->out, name);
}

static void add_var(struct var *v, void *ctx)
{
	struct collect *c = ctx;
	/* Declared without a value (`export x`, `local x`) is not yet set. */
	if ((v->flags & VAR_NOVALUE) || (v->flags & c->need) != c->need)
		return;
	add(c, v->name);
}

static void add_func(const char *name, const struct node *body, void *ctx)
{
	(void)body;
	add(ctx, name);
}

static void add_alias(const char *name, const char *value, void *ctx)
{
	(void)value;
	add(ctx, name);
}

static int compare(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_programs(struct shell *sh, struct collect *c)
{
	const char *path = vars_get(sh, "PATH");
	if (!path)
		return;
	char *copy = xstrdup(path);
	for (char *dir = strtok(copy, ":"); dir; dir = strtok(NULL, ":")) {
		DIR *d = opendir(*dir ? dir : ".");
		if (!d)
			continue;
		struct dirent *e;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.' || strncmp(e->d_name, c->prefix, c->len) != 0)
				continue;
			if (faccessat(dirfd(d), e->d_name, X_OK, 0) != 0)
				continue;
			struct stat st;
			if (fstatat(dirfd(d), e->d_name, &st, 0) == 0 && S_ISREG(st.st_mode))
				strvec_push(c->out, e->d_name);
		}
		closedir(d);
	}
	free(copy);
}

static void add_users(struct collect *c, const char *before, const char *after)
{
	users_prepare();
	setpwent();
	struct passwd *pw;
	while ((pw = getpwent()))
		if (strncmp(pw->pw_name, c->prefix, c->len) == 0)
			strvec_push_owned(c->out, xasprintf("%s%s%s", before, pw->pw_name, after));
	endpwent();
}

static void add_groups(struct collect *c)
{
	users_prepare();
	setgrent();
	struct group *gr;
	while ((gr = getgrent()))
		add(c, gr->gr_name);
	endgrent();
}

/* As trap names them: EXIT, the signals by number with SIG, ERR. */
static void add_signals(struct collect *c)
{
	add(c, "EXIT");
	for (int sig = 1; sig < trap_signal_count(); sig++) {
		const char *name = trap_signal_name(sig);
		if (!name)
			continue;
		char *full = xasprintf("SIG%s", name);
		add(c, full);
		free(full);
	}
	add(c, "ERR");
}

/* The entries of the folder part of prefix whose names start with the
 * rest, written with that folder part; . and .. only when asked for by
 * name, as bash's compgen -f does. */
static void add_files(struct shell *sh, struct collect *c, bool dirs_only)
{
	const char *slash = strrchr(c->prefix, '/');
	size_t dirlen = slash ? (size_t)(slash - c->prefix) + 1 : 0;
	char *dir = dirlen ? xstrndup(c->prefix, dirlen) : xstrdup(".");
	if (dir[0] == '~') {
		/* A quoted ~/ or ~user/ (bash-completion passes them so): read
		 * that home folder, print the names with the ~ as written. */
		size_t n = strcspn(dir, "/");
		char *user = xstrndup(dir + 1, n - 1);
		const char *home_var = n == 1 ? vars_get(sh, "HOME") : NULL;
		char *home = n == 1 ? (home_var ? xstrdup(home_var) : NULL) : users_home(user);
		free(user);
		if (!home) {
			free(dir);
			return;
		}
		char *real = xasprintf("%s%s", home, dir + n);
		free(home);
		free(dir);
		dir = real;
	}
	const char *base = c->prefix + dirlen;
	size_t baselen = strlen(base);
	DIR *d = opendir(dir);
	free(dir);
	if (!d)
		return;
	size_t first = c->out->len;
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *n = e->d_name;
		if (strncmp(n, base, baselen) != 0)
			continue;
		if ((strcmp(n, ".") == 0 || strcmp(n, "..") == 0) && baselen == 0)
			continue;
		if (dirs_only) {
			struct stat st;
			if (fstatat(dirfd(d), n, &st, 0) != 0 || !S_ISDIR(st.st_mode))
				continue;
		}
		strvec_push_owned(c->out, xasprintf("%.*s%s", (int)dirlen, c->prefix, n));
	}
	closedir(d);
	/* readdir's order depends on the file system: sort for stable output. */
	if (c->out->len - first > 1)
		qsort(c->out->items + first, c->out->len - first, sizeof *c->out->items, compare);
}

void complete_add(struct shell *sh, enum complete_kind kind, const char *prefix, struct strvec *out)
{
	struct collect c = {out, prefix, strlen(prefix), 0};
	switch (kind) {
	case COMPLETE_ALIASES:
		alias_foreach(sh, add_alias, &c);
		break;
	case COMPLETE_BUILTINS:
		for (size_t i = 0; i < builtin_count; i++)
			add(&c, builtin_table[i].name);
		break;
	case COMPLETE_FUNCTIONS:
		funcs_foreach(sh, add_func, &c);
		break;
	case COMPLETE_KEYWORDS:
		for (const char *const *k = exec_keyword_list(); *k; k++)
			add(&c, *k);
		break;
	case COMPLETE_PROGRAMS:
		add_programs(sh, &c);
		break;
	case COMPLETE_COMMANDS:
		/* bash's order: aliases, reserved words, functions, builtins, PATH */
		complete_add(sh, COMPLETE_ALIASES, prefix, out);
		complete_add(sh, COMPLETE_KEYWORDS, prefix, out);
		complete_add(sh, COMPLETE_FUNCTIONS, prefix, out);
		complete_add(sh, COMPLETE_BUILTINS, prefix, out);
		complete_add(sh, COMPLETE_PROGRAMS, prefix, out);
		break;
	case COMPLETE_VARIABLES:
		vars_foreach(sh, add_var, &c);
		break;
	case COMPLETE_EXPORTS:
		c.need = VAR_EXPORT;
		vars_foreach(sh, add_var, &c);
		break;
	case COMPLETE_ARRAYS:
		c.need = VAR_ARRAY;
		vars_foreach(sh, add_var, &c);
		break;
	case COMPLETE_USERS:
		add_users(&c, "", "");
		break;
	case COMPLETE_GROUPS:
		add_groups(&c);
		break;
	case COMPLETE_SIGNALS:
		add_signals(&c);
		break;
	case COMPLETE_SETOPT:
		for (size_t i = 0; options_name_at(i); i++)
			add(&c, options_name_at(i));
		break;
	case COMPLETE_FILES:
		add_files(sh, &c, false);
		break;
	case COMPLETE_DIRECTORIES:
		add_files(sh, &c, true);
		break;
	}
}

char **complete_candidates(struct shell *sh, const char *text, bool command_position)
{
	struct strvec out;
	strvec_init(&out);
	if (text[0] == '$') {
		/* ${name or $name: variables, keeping what was typed before the name */
		size_t skip = text[1] == '{' ? 2 : 1;
		complete_add(sh, COMPLETE_VARIABLES, text + skip, &out);
		for (size_t i = 0; i < out.len; i++) {
			char *full = xasprintf("%.*s%s%s", (int)skip, text, out.items[i], skip == 2 ? "}" : "");
			free(out.items[i]);
			out.items[i] = full;
		}
	} else if (text[0] == '~' && !strchr(text, '/')) {
		/* ~user: the home folders of the users whose names match */
		struct collect c = {&out, text + 1, strlen(text + 1), 0};
		add_users(&c, "~", "/");
	} else if (command_position && !strchr(text, '/')) {
		complete_add(sh, COMPLETE_BUILTINS, text, &out);
		complete_add(sh, COMPLETE_FUNCTIONS, text, &out);
		complete_add(sh, COMPLETE_ALIASES, text, &out);
		complete_add(sh, COMPLETE_PROGRAMS, text, &out);
	} else {
		return NULL;
	}
	if (out.len == 0) {
		strvec_free(&out);
		return NULL;
	}
	qsort(out.items, out.len, sizeof *out.items, compare);
	size_t kept = 0;
	for (size_t i = 0; i < out.len; i++) {
		if (kept && strcmp(out.items[kept - 1], out.items[i]) == 0)
			free(out.items[i]);
		else
			out.items[kept++] = out.items[i];
	}
	out.len = kept;
	out.items[kept] = NULL;
	return strvec_detach(&out);
}

#if defined(HAVE_READLINE) || defined(HAVE_LIBEDIT)
static struct shell *completion_shell;
static char **completion_list;
static size_t completion_next;

static char *next_candidate(const char *text, int state)
{
	(void)text;
	if (!completion_list || !completion_list[completion_next])
		return NULL;
	(void)state;
	/* The line editor frees what it gets with free(). */
	return strdup(completion_list[completion_next++]);
}

static char **attempt_completion(const char *text, int start, int end)
{
	(void)end;
	strv_free(completion_list);
	completion_next = 0;
	bool command = complete_command_position(rl_line_buffer, (size_t)start);
	if (start > 0 && rl_line_buffer[start - 1] == '$') {
		/* The editor breaks words at `$`: complete the name after it. */
		char *with = xasprintf("$%s", text);
		completion_list = complete_candidates(completion_shell, with, false);
		free(with);
		for (size_t i = 0; completion_list && completion_list[i]; i++)
			memmove(completion_list[i], completion_list[i] + 1, strlen(completion_list[i]));
	} else {
		completion_list = complete_candidates(completion_shell, text, command);
	}
	/* ~user/ goes on into the folder: no space after it */
	rl_completion_append_character = text[0] == '~' ? '\0' : ' ';
	if (!completion_list)
		return NULL; /* file names and ~user: the editor's own completer */
	return rl_completion_matches(text, next_candidate);
}

void complete_install(struct shell *sh)
{
	completion_shell = sh;
	rl_attempted_completion_function = attempt_completion;
}
#else
void complete_install(struct shell *sh)
{
	(void)sh;
}
#endif
