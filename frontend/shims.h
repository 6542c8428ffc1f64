/* `sbsh --shims DIR`: `bash` and `sh` scripts that re-enter sbsh, for tools
 * that hard-code `bash -lc "..."` instead of honouring SHELL. */
#ifndef SBSH_SHIMS_H
#define SBSH_SHIMS_H

/* Writes DIR/bash and DIR/sh (DIR is created when missing), each running
 * the sbsh binary that is running now, found through /proc/self/exe.
 * Prints an `export PATH=...` line for the caller to eval. Returns the exit
 * status: 0 written, 1 failed (reported), 2 no DIR given. */
int shims_main(const char *dir);

#endif
