/* seccomp, as sandbox.c uses it to confine the shell process. Not for use
 * outside sandbox/ (the terminal guard's entry point, sandbox_guard_terminal,
 * is in sandbox.h). */
#ifndef SBSH_SECCOMP_H
#define SBSH_SECCOMP_H

#include <stdbool.h>
#include <stddef.h>

#include "sandbox/sandbox.h"

/* Loads the network filter for cfg: MPTCP, io_uring, raw and packet
 * sockets refused, and all of TCP when cut_tcp. Returns 0
 * (st->seccomp_applied) or -1. */
int sandbox_seccomp_network(const struct sandbox_config *cfg, struct sandbox_state *st, bool cut_tcp);

/* Of the parts of the guard in which (SANDBOX_GUARD_*), those an outer
 * sbsh already loaded: probed with calls that fail either way. */
unsigned sandbox_guard_inherited(unsigned which);

/* The filter's length in instructions (bench and --doctor), 0 if it
 * cannot be built here. */
size_t sandbox_supervisor_filter_size(void);

#endif
