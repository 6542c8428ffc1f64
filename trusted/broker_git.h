/* What an escaped command's git would read: the configuration of the
 * repository it finds from the escape's folder (and, for git itself, its
 * -C, --git-dir and GIT_DIR), the files those include, the user's and the
 * system's. Inside the sandbox a key that runs a program (core.pager, an
 * alias with "!", core.sshCommand...) runs there; outside it, it must not
 * come from a file the agent could have written. The broker refuses such
 * an escape (trusted/broker.c). */
#ifndef SBSH_BROKER_GIT_H
#define SBSH_BROKER_GIT_H

#include <stdbool.h>

/* Where the escape runs and what it may trust. */
struct escape_git_view {
	char *const *argv;    /* the escape's argv */
	const char *program;  /* its resolved program */
	char *const *env;     /* the environment it runs with */
	const char *cwd;      /* the folder it runs in (resolved) */
	/* whether the sandbox can write path (resolved) */
	bool (*writable)(void *ctx, const char *path);
	void *ctx;
	/* the project's git folder, whose config the warden has just put back
	 * as the human left it (resolved), or NULL */
	const char *restored_gitdir;
};

/* The first entry that would make git run a program, taken from a config
 * file the sandbox can write (other than the restored ones), as "FILE,
 * which the agent can write, sets KEY" (malloc'd); NULL when there is none. core.hooksPath and
 * core.fsmonitor are not counted: the escape pins them. */
char *escape_git_plant(const struct escape_git_view *v);

#endif
