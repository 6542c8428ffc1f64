/* Command search: PATH lookup and the hash of programs found. */
#ifndef SBSH_CMDHASH_H
#define SBSH_CMDHASH_H

#include "shell/shell.h"

/* A malloc'd path for a program name, using and filling the hash table;
 * NULL when not found. */
char *exec_find_program(struct shell *sh, const char *name, const char *path_var);
/* The program a command name runs: name itself when it has a slash, else
 * as exec_find_program finds it; NULL with *status set when there is none
 * (STATUS_NOTFOUND, or STATUS_NOEXEC for a file found but not executable). */
char *exec_find_command(struct shell *sh, const char *name, const char *path_var, int *status);
void exec_hash_clear(struct shell *sh);
/* A PATH that finds the standard utilities (command -p). */
const char *exec_default_path(void);
/* The command hash, for the hash builtin: name, path, hits. */
void exec_hash_foreach(struct shell *sh, void (*fn)(const char *name, const char *path, unsigned hits, void *ctx), void *ctx);

#endif
