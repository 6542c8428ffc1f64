/* `sbsh --shims DIR`: `bash` and `sh` scripts that re-enter sbsh, for tools
 * that hard-code `bash -lc "..."` instead of honouring SHELL. */
#ifndef SBSH_SHIMS_H
#define SBSH_SHIMS_H

#include <stdbool.h>

/* Writes DIR/bash and DIR/sh (DIR is created when missing), each running
 * the sbsh binary that is running now, found through /proc/self/exe.
 * Prints an `export PATH=...` line for the caller to eval. Returns the exit
 * status: 0 written, 1 failed (reported), 2 no DIR given. */
int shims_main(const char *dir);

/* The text of a shim that runs the sbsh running now (/proc/self/exe), or
 * NULL after reporting it as `sbsh: WHO: ...` (who NULL: quietly). Malloc'd. */
char *shims_script(const char *who);
/* The same for the `sh` shim: sbsh in POSIX mode (--posix). */
char *shims_sh_script(const char *who);

/* Writes DIR/NAME with script, atomically, replacing only a missing file
 * or one of our own shims. Returns 0, or 1 after reporting as WHO. */
int shims_write(const char *dir, const char *name, const char *script, const char *who);

/* Whether the file at path is a shim sbsh wrote (it carries the marker). */
bool shims_is_ours(const char *path);

#endif
