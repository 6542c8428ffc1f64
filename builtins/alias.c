/* alias and unalias. */
#include "builtins/builtins.h"
#include "shell/alias.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* bash always single-quotes alias values in listings; under set -o posix
 * without -p, as dash, without the leading `alias '. */
static void print_alias(const char *name, const char *value, void *ctx)
{
	const bool *bare = ctx;
	printf(bare && *bare ? "%s=" : "alias %s=", name);
	builtin_print_single_quoted(value);
	putchar('\n');
}

BUILTIN_FN(alias)
{
	int i = 1;
	bool bare = sh->opt.posix;
	if (i < argc && strcmp(argv[i], "-p") == 0) {
		bare = false;
		i++;
	}
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i >= argc) {
		alias_foreach(sh, print_alias, &bare);
		return 0;
	}
	int status = 0;
	for (; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (eq && eq != argv[i]) {
			char *name = xstrndup(argv[i], (size_t)(eq - argv[i]));
			alias_define(sh, name, eq + 1);
			free(name);
			continue;
		}
		const char *value = alias_lookup(sh, argv[i]);
		if (value) {
			print_alias(argv[i], value, &bare);
		} else {
			shell_error(sh, "alias: %s: not found", argv[i]);
			status = 1;
		}
	}
	return status;
}

BUILTIN_FN(unalias)
{
	struct builtin_getopt g = {.index = 1};
	bool all = false;
	int c;
	while ((c = builtin_getopt(&g, argc, argv, "a", "unalias")) != -1) {
		if (c == '?') {
			shell_warn("unalias: usage: unalias [-a] name [name ...]");
			return 2;
		}
		all = true;
	}
	if (all) {
		alias_clear(sh);
		return 0;
	}
	if (g.index >= argc) {
		shell_warn("unalias: usage: unalias [-a] name [name ...]");
		return 2;
	}
	int status = 0;
	for (int i = g.index; i < argc; i++) {
		if (alias_remove(sh, argv[i]) != 0) {
			shell_error(sh, "unalias: %s: not found", argv[i]);
			status = 1;
		}
	}
	return status;
}
