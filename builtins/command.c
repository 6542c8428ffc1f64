/* command, builtin, type, hash */
#include "builtins/builtins.h"
#include "shell/vars.h"
#include "shell/exec.h"
#include "shell/funcs.h"
#include "shell/cmdhash.h"
#include "shell/alias.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum describe_style {
	DESCRIBE_SHORT,   /* command -v */
	DESCRIBE_VERBOSE, /* command -V, type */
	DESCRIBE_TYPE,    /* type -t */
	DESCRIBE_PATH,    /* type -p / -P */
};

/* Prints what name is; returns false when it is nothing. all: every
 * match (type -a). */
static bool describe(struct shell *sh, const char *name, enum describe_style style, bool all, bool path_only,
                     bool default_path, bool no_funcs)
{
	bool found = false;
	if (!path_only) {
		const char *alias = alias_lookup(sh, name);
		if (alias) {
			found = true;
			if (style == DESCRIBE_SHORT) {
				printf("alias %s=", name);
				builtin_print_single_quoted(alias);
				putchar('\n');
			} else if (style == DESCRIBE_TYPE) {
				puts("alias");
			} else if (style == DESCRIBE_VERBOSE) {
				printf("%s is aliased to `%s'\n", name, alias);
			}
			if (!all)
				return true;
		}
		if (exec_is_keyword(name)) {
			found = true;
			if (style == DESCRIBE_SHORT)
				printf("%s\n", name);
			else if (style == DESCRIBE_TYPE)
				puts("keyword");
			else if (style == DESCRIBE_VERBOSE)
				printf("%s is a shell keyword\n", name);
			if (!all)
				return true;
		}
		const struct node *body = no_funcs ? NULL : funcs_lookup(sh, name);
		if (body) {
			found = true;
			if (style == DESCRIBE_SHORT) {
				printf("%s\n", name);
			} else if (style == DESCRIBE_TYPE) {
				puts("function");
			} else if (style == DESCRIBE_VERBOSE) {
				struct strbuf sb;
				strbuf_init(&sb);
				funcs_print(&sb, name, body);
				printf("%s is a function\n%s", name, sb.data);
				strbuf_free(&sb);
			}
			if (!all)
				return true;
		}
		const struct builtin *b = builtin_find(name);
		if (b) {
			found = true;
			if (style == DESCRIBE_SHORT)
				printf("%s\n", name);
			else if (style == DESCRIBE_TYPE)
				puts("builtin");
			else if (style == DESCRIBE_VERBOSE)
				printf("%s is a %sshell builtin\n", name, (b->flags & BUILTIN_SPECIAL) && sh->opt.posix ? "special " : "");
			if (!all)
				return true;
		}
	}
	if (strchr(name, '/')) {
		/* A directory has x permission too, but is no command. */
		struct stat st;
		if (stat(name, &st) == 0 && !S_ISDIR(st.st_mode) && access(name, X_OK) == 0) {
			if (style == DESCRIBE_TYPE)
				puts("file");
			else if (style == DESCRIBE_VERBOSE)
				printf("%s is %s\n", name, name);
			else
				printf("%s\n", name);
			return true;
		}
		return found;
	}
	if (all) {
		const char *path = default_path ? exec_default_path() : vars_get(sh, "PATH");
		const char *p = path ? path : "";
		while (path) {
			const char *colon = strchr(p, ':');
			size_t dlen = colon ? (size_t)(colon - p) : strlen(p);
			char *cand = dlen ? xasprintf("%.*s/%s", (int)dlen, p, name) : xstrdup(name);
			struct stat st;
			if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
				found = true;
				if (style == DESCRIBE_TYPE)
					puts("file");
				else if (style == DESCRIBE_VERBOSE)
					printf("%s is %s\n", name, cand);
				else
					printf("%s\n", cand);
			}
			free(cand);
			if (!colon)
				break;
			p = colon + 1;
		}
		return found;
	}
	char *path = exec_find_program(sh, name, default_path ? exec_default_path() : NULL);
	if (!path)
		return found;
	if (style == DESCRIBE_TYPE)
		puts("file");
	else if (style == DESCRIBE_VERBOSE)
		printf("%s is %s\n", name, path);
	else
		printf("%s\n", path);
	free(path);
	return true;
}

BUILTIN_FN(command)
{
	struct builtin_getopt g = {.index = 1};
	bool p = false, v = false, V = false;
	int c;
	while ((c = builtin_getopt(&g, argc, argv, "pvV", "command")) != -1) {
		switch (c) {
		case 'p':
			p = true;
			break;
		case 'v':
			v = true;
			break;
		case 'V':
			V = true;
			break;
		default:
			shell_warn("command: usage: command [-pVv] command [arg ...]");
			return 2;
		}
	}
	if (g.index >= argc)
		return 0;
	if (v || V) {
		int status = 0;
		for (int i = g.index; i < argc; i++) {
			if (!describe(sh, argv[i], V ? DESCRIBE_VERBOSE : DESCRIBE_SHORT, false, false, p, false)) {
				if (V)
					shell_error(sh, "command: %s: not found", argv[i]);
				status = 1;
			}
		}
		return status;
	}
	return exec_argv_flags(sh, argv + g.index, EXEC_ARGV_NO_FUNCS | (p ? EXEC_ARGV_DEFAULT_PATH : 0));
}

BUILTIN_FN(builtin)
{
	int i = 1;
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i >= argc)
		return 0;
	return exec_argv_flags(sh, argv + i, EXEC_ARGV_BUILTIN_ONLY);
}

BUILTIN_FN(type)
{
	struct builtin_getopt g = {.index = 1};
	bool t = false, p = false, P = false, a = false, f = false;
	int c;
	while ((c = builtin_getopt(&g, argc, argv, "tpPaf", "type")) != -1) {
		switch (c) {
		case 't':
			t = true;
			break;
		case 'p':
			p = true;
			break;
		case 'P':
			P = true;
			break;
		case 'a':
			a = true;
			break;
		case 'f':
			f = true;
			break;
		default:
			shell_warn("type: usage: type [-afptP] name [name ...]");
			return 2;
		}
	}
	int status = 0;
	for (int i = g.index; i < argc; i++) {
		bool ok;
		if (P || p) {
			/* -p: only when the name would run a file (-a: every file
			 * in PATH anyway); -P: search anyway */
			bool other = !P && (alias_lookup(sh, argv[i]) || exec_is_keyword(argv[i]) ||
			                    (!f && funcs_lookup(sh, argv[i])) || builtin_find(argv[i]));
			if (other && !a)
				continue;
			ok = describe(sh, argv[i], DESCRIBE_PATH, a, true, false, f) || other;
		} else {
			/* -f: functions are not looked up */
			ok = describe(sh, argv[i], t ? DESCRIBE_TYPE : DESCRIBE_VERBOSE, a, false, false, f);
		}
		if (!ok) {
			if (!t && !p && !P)
				shell_error(sh, "type: %s: not found", argv[i]);
			status = 1;
		}
	}
	return status;
}

static void print_hash_entry(const char *name, const char *path, unsigned hits, void *ctx)
{
	bool *header = ctx;
	(void)name;
	if (!*header) {
		puts("hits\tcommand");
		*header = true;
	}
	printf("%4u\t%s\n", hits, path);
}

BUILTIN_FN(hash)
{
	struct builtin_getopt g = {.index = 1};
	int c;
	bool reset = false;
	while ((c = builtin_getopt(&g, argc, argv, "r", "hash")) != -1) {
		if (c == '?') {
			shell_warn("hash: usage: hash [-r] [name ...]");
			return 2;
		}
		reset = true;
	}
	if (reset)
		exec_hash_clear(sh);
	if (g.index >= argc) {
		if (reset)
			return 0;
		bool header = false;
		exec_hash_foreach(sh, print_hash_entry, &header);
		if (!header)
			puts("hash: hash table empty"); /* bash prints it on stdout */
		return 0;
	}
	int status = 0;
	for (int i = g.index; i < argc; i++) {
		if (strchr(argv[i], '/') || builtin_find(argv[i]) || funcs_lookup(sh, argv[i]))
			continue;
		char *path = exec_find_program(sh, argv[i], NULL);
		if (!path) {
			shell_error(sh, "hash: %s: not found", argv[i]);
			status = 1;
		}
		free(path);
	}
	return status;
}
