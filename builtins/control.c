/* : true false break continue return exit */
#include "builtins/builtins.h"
#include "shell/jobs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

BUILTIN_FN(colon)
{
	(void)sh;
	(void)argc;
	(void)argv;
	return 0;
}

BUILTIN_FN(true)
{
	(void)sh;
	(void)argc;
	(void)argv;
	return 0;
}

BUILTIN_FN(false)
{
	(void)sh;
	(void)argc;
	(void)argv;
	return 1;
}

/* Parses a status or count operand; false when it is not a number. */
static bool parse_long(const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno)
		return false;
	*out = v;
	return true;
}

/* More operands than the one count or status: bash abandons the command
 * line, and -c or eval text whole (set -o posix: the shell exits). */
static int too_many_arguments(struct shell *sh, const char *name)
{
	shell_error(sh, "%s: too many arguments", name);
	shell_abandon_line(sh);
	sh->discard_text = sh->jump == JUMP_DISCARD;
	return 1;
}

static int loop_jump(struct shell *sh, int argc, char **argv, enum exec_jump kind)
{
	long n = 1;
	int i = 1;
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i + 1 < argc)
		return too_many_arguments(sh, argv[0]);
	if (i < argc) {
		if (!parse_long(argv[i], &n)) {
			/* bash ends a script here with status 128 (an interactive
			 * shell drops the line); going on would leave a `while
			 * true` loop with no way out */
			shell_error(sh, "%s: %s: numeric argument required", argv[0], argv[i]);
			if (sh->opt.interactive) {
				shell_abandon_line(sh);
			} else if (sh->jump == JUMP_NONE) {
				sh->jump = JUMP_EXIT;
			}
			sh->exit_status = 128;
			return 128;
		}
		if (n < 1) {
			shell_error(sh, "%s: %ld: loop count out of range", argv[0], n);
			return 1;
		}
	}
	if (sh->loop_depth == 0) {
		/* bash reports it and carries on with status 0; under set -o
		 * posix it is silent, as in dash (a function called in a loop
		 * does not break the caller's: loops are lexical) */
		if (!sh->opt.posix)
			shell_error(sh, "%s: only meaningful in a `for', `while', or `until' loop", argv[0]);
		return 0;
	}
	if ((unsigned long)n > sh->loop_depth)
		n = (long)sh->loop_depth;
	sh->jump = kind;
	sh->jump_count = (unsigned)n;
	return 0;
}

BUILTIN_FN(break)
{
	return loop_jump(sh, argc, argv, JUMP_BREAK);
}

BUILTIN_FN(continue)
{
	return loop_jump(sh, argc, argv, JUMP_CONTINUE);
}

BUILTIN_FN(return)
{
	long n = sh->last_status;
	int i = 1;
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i < argc && !parse_long(argv[i], &n)) {
		shell_error(sh, "return: %s: numeric argument required", argv[i]);
		n = 2;
	} else if (i + 1 < argc) {
		return too_many_arguments(sh, "return");
	}
	if (sh->func_depth == 0 && sh->source_depth == 0) {
		shell_error(sh, "return: can only `return' from a function or sourced script");
		return 2;
	}
	sh->jump = JUMP_RETURN;
	sh->last_status = (int)(n & 0xff);
	return (int)(n & 0xff);
}

BUILTIN_FN(exit)
{
	long n = sh->last_status;
	int i = 1;
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i < argc) {
		if (!parse_long(argv[i], &n)) {
			shell_error(sh, "exit: %s: numeric argument required", argv[i]);
			n = 2;
		} else if (i + 1 < argc) {
			return too_many_arguments(sh, "exit");
		}
	}
	if (sh->opt.interactive && !sh->in_subshell)
		fputs("exit\n", stderr);
	if (sh->opt.interactive && !sh->in_subshell && !sh->exit_warned && jobs_any_stopped(sh)) {
		/* bash: the first exit only warns; another one right after exits. */
		fputs("There are stopped jobs.\n", stderr);
		sh->exit_warned = true;
		return 1;
	}
	sh->jump = JUMP_EXIT;
	sh->exit_status = (int)(n & 0xff);
	return sh->exit_status;
}
