/* sbsh's config file, $XDG_CONFIG_HOME/sbsh/config (else
 * ~/.config/sbsh/config): `key = value` lines read at startup, and
 * `sbsh --config set-sandbox|set-network VALUE`, which rewrites one. */
#ifndef SBSH_CONFIG_H
#define SBSH_CONFIG_H

struct startup;

/* The config file's path (malloc'd), or NULL when neither XDG_CONFIG_HOME
 * nor HOME names a place for it. */
char *config_file_path(void);

/* Reads the config file at path (none there is no error) into st's
 * settings. Returns 0, or -1 after naming the file and line it cannot
 * read. */
int config_read(struct startup *st, const char *path);

/* `sbsh --config set-KEY VALUE`, argv[i] being --config, for the file at
 * path. Returns the exit status. */
int config_main(const char *path, int argc, char **argv, int i);

#endif
