/* eval, . and source, exec */
#include "builtins/builtins.h"
#include "shell/trap.h"
#include "shell/vars.h"
#include "shell/exec.h"
#include "shell/input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

BUILTIN_FN(eval)
{
	int i = 1;
	if (i < argc && strcmp(argv[i], "--") == 0) {
		i++;
	} else if (i < argc && argv[i][0] == '-' && argv[i][1]) {
		/* eval has no options: bash refuses them rather than run "-z" */
		shell_error(sh, "eval: %s: invalid option", argv[i]);
		shell_warn("eval: usage: eval [arg ...]");
		return 2;
	}
	struct strbuf text;
	strbuf_init(&text);
	for (; i < argc; i++) {
		if (text.len)
			strbuf_addc(&text, ' ');
		strbuf_adds(&text, argv[i]);
	}
	if (text.len == 0) {
		strbuf_free(&text);
		return 0;
	}
	int status = exec_string(sh, text.data, text.len, NULL, sh->lineno);
	strbuf_free(&text);
	return status;
}

/* `.` searches PATH for a name without a slash (POSIX); bash then also
 * tries the current directory. */
static char *find_sourced_file(struct shell *sh, const char *name)
{
	if (strchr(name, '/'))
		return xstrdup(name);
	const char *path = vars_get(sh, "PATH");
	if (path) {
		const char *p = path;
		for (;;) {
			const char *colon = strchr(p, ':');
			size_t dlen = colon ? (size_t)(colon - p) : strlen(p);
			char *cand = dlen ? xasprintf("%.*s/%s", (int)dlen, p, name) : xstrdup(name);
			struct stat st;
			if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, R_OK) == 0)
				return cand;
			free(cand);
			if (!colon)
				break;
			p = colon + 1;
		}
	}
	if (access(name, F_OK) == 0)
		return xstrdup(name);
	return NULL;
}

BUILTIN_FN(dot)
{
	int i = 1;
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i >= argc) {
		shell_error(sh, "%s: filename argument required", argv[0]);
		return 2;
	}
	errno = 0;
	char *path = find_sourced_file(sh, argv[i]);
	if (path && access(path, R_OK) != 0) {
		free(path);
		path = NULL;
	}
	if (!path) {
		if (strchr(argv[i], '/'))
			shell_error(sh, "%s: %s", argv[i], strerror(errno ? errno : ENOENT));
		else
			shell_error(sh, "%s: %s: file not found", argv[0], argv[i]);
		/* A special builtin's error ends a non-interactive shell, as in
		 * dash; `source` is bash's and is not special. */
		if (strcmp(argv[0], ".") == 0 && !sh->opt.interactive) {
			sh->jump = JUMP_EXIT;
			sh->exit_status = 1;
		}
		return 1;
	}
	if (sh->source_depth >= EXEC_MAX_DEPTH) {
		shell_error(sh, "%s: maximum nesting depth exceeded", argv[0]);
		sh->interrupted = true; /* the rest of the command line is abandoned, as in exec.c */
		free(path);
		return 2;
	}
	char **saved_pos = NULL;
	size_t saved_n = 0;
	bool with_args = i + 1 < argc;
	if (with_args) {
		saved_pos = sh->positional;
		saved_n = sh->npositional;
		sh->positional = strv_copy(argv + i + 1);
		sh->npositional = (size_t)(argc - i - 1);
	}
	sh->source_depth++;
	shell_push_frame(sh, "source", path, sh->lineno);
	int status = input_run_file(sh, path, true);
	if (sh->jump == JUMP_RETURN) {
		sh->jump = JUMP_NONE;
		status = sh->last_status;
	}
	if (sh->jump != JUMP_EXIT)
		trap_run_return(sh);
	shell_pop_frame(sh);
	sh->source_depth--;
	if (with_args) {
		strv_free(sh->positional);
		sh->positional = saved_pos;
		sh->npositional = saved_n;
	}
	if (status == STATUS_NOTFOUND || status == STATUS_NOEXEC)
		status = 1;
	free(path);
	return status;
}

BUILTIN_FN(exec)
{
	int i = 1;
	const char *name = NULL;
	while (i < argc && argv[i][0] == '-' && argv[i][1]) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "-a") == 0 && i + 1 < argc) {
			name = argv[i + 1];
			i += 2;
			continue;
		}
		if (strcmp(argv[i], "-c") == 0 || strcmp(argv[i], "-l") == 0) {
			i++; /* accepted, ignored */
			continue;
		}
		shell_error(sh, "exec: %s: invalid option", argv[i]);
		return 2;
	}
	if (i >= argc)
		return 0; /* redirections were made permanent by the evaluator */
	int status = exec_replace(sh, argv + i, name);
	if (!sh->opt.interactive) {
		sh->jump = JUMP_EXIT;
		sh->exit_status = status;
	}
	return status;
}
