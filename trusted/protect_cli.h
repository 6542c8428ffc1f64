/* `sbsh --protect accept|status`: the protected-file baseline, from the
 * command line (trusted/baseline.h). */
#ifndef SBSH_PROTECT_CLI_H
#define SBSH_PROTECT_CLI_H

/* `sbsh --protect accept|status`: run outside the sandbox. argv[i] is
 * "--protect". extra: more paths to protect, as for protect_start. */
int protect_main(int argc, char **argv, int i, char *const *extra);

#endif
