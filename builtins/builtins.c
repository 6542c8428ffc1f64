/* The builtin table, sorted by name for bsearch, builtin_getopt, and the
 * quoting that listings share. */
#include "builtins/builtins.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct builtin builtin_table[] = {
	{".", builtin_dot, BUILTIN_SPECIAL},
	{":", builtin_colon, BUILTIN_SPECIAL},
	{"[", builtin_test, 0},
	{"alias", builtin_alias, 0},
	{"bg", builtin_bg, 0},
	{"break", builtin_break, BUILTIN_SPECIAL},
	{"builtin", builtin_builtin, 0},
	{"cd", builtin_cd, 0},
	{"command", builtin_command, 0},
	{"compgen", builtin_compgen, 0},
	{"continue", builtin_continue, BUILTIN_SPECIAL},
	{"declare", builtin_declare, BUILTIN_DECLARATION},
	{"echo", builtin_echo, 0},
	{"escape", builtin_escape, 0},
	{"eval", builtin_eval, BUILTIN_SPECIAL},
	{"exec", builtin_exec, BUILTIN_SPECIAL},
	{"exit", builtin_exit, BUILTIN_SPECIAL},
	{"export", builtin_export, BUILTIN_SPECIAL | BUILTIN_DECLARATION},
	{"false", builtin_false, 0},
	{"fg", builtin_fg, 0},
	{"getopts", builtin_getopts, 0},
	{"hash", builtin_hash, 0},
	{"help", builtin_help, 0},
	{"jobs", builtin_jobs, 0},
	{"kill", builtin_kill, 0},
	{"let", builtin_let, 0},
	{"local", builtin_local, BUILTIN_DECLARATION},
	{"mapfile", builtin_mapfile, 0},
	{"printf", builtin_printf, 0},
	{"pwd", builtin_pwd, 0},
	{"read", builtin_read, 0},
	{"readarray", builtin_mapfile, 0},
	{"readonly", builtin_readonly, BUILTIN_SPECIAL | BUILTIN_DECLARATION},
	{"return", builtin_return, BUILTIN_SPECIAL},
	{"set", builtin_set, BUILTIN_SPECIAL},
	{"shift", builtin_shift, BUILTIN_SPECIAL},
	{"shopt", builtin_shopt, 0},
	{"source", builtin_dot, 0},
	{"test", builtin_test, 0},
	{"times", builtin_times, BUILTIN_SPECIAL},
	{"trap", builtin_trap, BUILTIN_SPECIAL},
	{"true", builtin_true, 0},
	{"type", builtin_type, 0},
	{"typeset", builtin_declare, BUILTIN_DECLARATION},
	{"ulimit", builtin_ulimit, 0},
	{"umask", builtin_umask, 0},
	{"unalias", builtin_unalias, 0},
	{"unset", builtin_unset, BUILTIN_SPECIAL},
	{"wait", builtin_wait, 0},
};

const size_t builtin_count = sizeof builtin_table / sizeof builtin_table[0];

static int compare_builtin(const void *key, const void *elem)
{
	return strcmp(key, ((const struct builtin *)elem)->name);
}

const struct builtin *builtin_find(const char *name)
{
	return bsearch(name, builtin_table, builtin_count, sizeof builtin_table[0], compare_builtin);
}

int builtin_getopt(struct builtin_getopt *g, int argc, char **argv, const char *optstring, const char *cmd)
{
	bool allow_plus = optstring[0] == '+';
	if (allow_plus)
		optstring++;
	g->arg = NULL;
	if (g->offset == 0) {
		if (g->index >= argc)
			return -1;
		const char *a = argv[g->index];
		if (strcmp(a, "--") == 0) {
			g->index++;
			return -1;
		}
		if (!((a[0] == '-' || (allow_plus && a[0] == '+')) && a[1] != '\0'))
			return -1;
		g->plus = a[0] == '+';
		g->offset = 1;
	}
	const char *a = argv[g->index];
	char c = a[g->offset++];
	const char *spec = c != ':' ? strchr(optstring, c) : NULL;
	bool last = a[g->offset] == '\0';
	if (!spec) {
		shell_warn("%s: %c%c: invalid option", cmd, g->plus ? '+' : '-', c);
		if (last) {
			g->index++;
			g->offset = 0;
		}
		g->opt = (unsigned char)c;
		return '?';
	}
	g->opt = (unsigned char)c;
	if (spec[1] == ':') {
		if (!last) {
			g->arg = (char *)a + g->offset;
		} else if (g->index + 1 < argc) {
			g->arg = argv[++g->index];
		} else {
			shell_warn("%s: -%c: option requires an argument", cmd, c);
			g->index++;
			g->offset = 0;
			return '?';
		}
		g->index++;
		g->offset = 0;
		return c;
	}
	if (last) {
		g->index++;
		g->offset = 0;
	}
	return c;
}

void builtin_print_single_quoted(const char *s)
{
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_add_single_quoted(&sb, s, strlen(s));
	fputs(sb.data, stdout);
	strbuf_free(&sb);
}
