/* `sbsh --doctor [--json]`: what the sandbox can do on this kernel and
 * terminal, and what still escapes it. */
#ifndef SBSH_DOCTOR_H
#define SBSH_DOCTOR_H

#include <stdbool.h>

struct sandbox_config;
struct strvec;

/* Prints the report for cfg (config_path: the config file read, or NULL;
 * allow_sockets: its allow-socket lines), in plain words or as JSON.
 * Returns the exit status. */
int doctor_main(const struct sandbox_config *cfg, const char *config_path, const struct strvec *allow_sockets,
                bool json, bool no_checkpoints);

#endif
