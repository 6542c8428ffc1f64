/* What a program file is, where the agent could have made it (policy rule
 * 8): a copy of a system program is that program, whatever its name; a
 * script is run by the interpreter its #! line names. Programs outside the
 * folders the sandbox can write are what their names say, and cost one
 * realpath here; only files inside are read, and what was found is kept by
 * inode, size and times. */
#ifndef SBSH_IDENTITY_H
#define SBSH_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

struct program_ids;

/* What program_identity found; owned by the caller (program_identity_free). */
struct program_identity {
	bool writable;   /* a regular file in a folder the sandbox can write, or where
	                  * that cannot be told (a descriptor of a deleted file) */
	char **copy_of;  /* the system programs it is a copy of (paths, NULL-ended), or NULL */
	char *shebang;   /* its #! line as the kernel reads it (after "#!"), or NULL */
	bool binary;     /* not text, and a copy of nothing known: built code, or a
	                  * copy changed past telling */
};

/* known: the names of the system programs worth comparing with (those the
 * rules know); NULL compares with every program of the system's folders. */
struct program_ids *program_ids_create(bool (*known)(const char *name));
void program_ids_destroy(struct program_ids *ids);

/* The folders the sandbox lets the shell write (copied; resolved on first
 * need). Without a call, or with NULL: the project of the working folder,
 * the temp folders and the sandbox's package caches, as sandbox/writable.c
 * grants them. */
void program_ids_set_writable(struct program_ids *ids, char *const *folders);

/* path: the program as it will be exec'd (relative to the working folder). */
void program_identity(struct program_ids *ids, const char *path, struct program_identity *out);
void program_identity_free(struct program_identity *id);

/* The #! line of a program's text as the kernel reads it (at most 256
 * bytes, up to the newline, blanks trimmed), malloc'd; NULL when none. */
char *program_shebang(const char *text, size_t len);

/* The file a PATH search (path_var, as the command will see it) finds for
 * name, when it lies in a folder the sandbox can write; NULL when it is
 * found elsewhere or not at all. Costs nothing while no folder of path_var
 * is writable. Malloc'd. */
char *program_ids_search(struct program_ids *ids, const char *name, const char *path_var);

#endif
