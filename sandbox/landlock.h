/* Landlock, as sandbox.c uses it to confine the shell process: the UAPI
 * values, the rights each ABI knows, and the rules. Not for use outside
 * sandbox/. */
#ifndef SBSH_LANDLOCK_H
#define SBSH_LANDLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sandbox/sandbox.h"

/* Landlock UAPI values (Debian 12's header stops at ABI 2). */
enum {
	LL_FS_EXECUTE = 1ULL << 0,
	LL_FS_WRITE_FILE = 1ULL << 1,
	LL_FS_READ_FILE = 1ULL << 2,
	LL_FS_READ_DIR = 1ULL << 3,
	LL_FS_REMOVE_DIR = 1ULL << 4,
	LL_FS_REMOVE_FILE = 1ULL << 5,
	LL_FS_MAKE_CHAR = 1ULL << 6,
	LL_FS_MAKE_DIR = 1ULL << 7,
	LL_FS_MAKE_REG = 1ULL << 8,
	LL_FS_MAKE_SOCK = 1ULL << 9,
	LL_FS_MAKE_FIFO = 1ULL << 10,
	LL_FS_MAKE_BLOCK = 1ULL << 11,
	LL_FS_MAKE_SYM = 1ULL << 12,
	LL_FS_REFER = 1ULL << 13,      /* ABI 2 */
	LL_FS_TRUNCATE = 1ULL << 14,   /* ABI 3 */
	LL_FS_IOCTL_DEV = 1ULL << 15,  /* ABI 5 */
	LL_FS_RESOLVE_UNIX = 1ULL << 16, /* ABI 9 */
};
enum {
	LL_NET_BIND_TCP = 1ULL << 0,   /* ABI 4 */
	LL_NET_CONNECT_TCP = 1ULL << 1,
};
enum {
	LL_SCOPE_ABSTRACT_UNIX_SOCKET = 1ULL << 0, /* ABI 6 */
	LL_SCOPE_SIGNAL = 1ULL << 1,
};
enum {
	LL_RESTRICT_LOG_SAME_EXEC_OFF = 1U << 0, /* ABI 7 */
	LL_RESTRICT_LOG_NEW_EXEC_ON = 1U << 1,
	LL_RESTRICT_LOG_SUBDOMAINS_OFF = 1U << 2,
	LL_RESTRICT_TSYNC = 1U << 3,             /* ABI 8 */
};

/* The rights each ABI knows, cumulatively. */
uint64_t sandbox_fs_rights_for_abi(int abi);
uint64_t sandbox_scopes_for_abi(int abi);
/* Rights that make sense on a non-directory (others give EINVAL there). */
uint64_t sandbox_file_rights(uint64_t rights);

/* A ruleset handling st's fs_handled, net_handled and scoped, sized for
 * st->abi. Returns its descriptor, or -1 with errno. */
int sandbox_landlock_ruleset(const struct sandbox_state *st);

/* Adds the rules of a ruleset: the grants (all rights but device ioctls;
 * a grant that cannot be added goes to st->skipped), read and execute
 * everywhere but /dev, and the allowed TCP ports. The grants' descriptors
 * are then -1 (and closed here when own_fds). Returns 0, or -1 with errno. */
int sandbox_landlock_add_rules(int ruleset, const struct sandbox_config *cfg, struct sandbox_state *st,
                               struct sandbox_grant *grants, size_t ngrants, bool own_fds);

/* The shell's own terminal, when the broker gave it a pty of its own:
 * full use, ioctls included, since nothing of the human's is behind it. */
void sandbox_landlock_add_own_terminal(int ruleset, const char *pty_path, uint64_t handled);

/* Reading and running beneath path (a folder the hidden paths hold that
 * the shell needs: the baseline's hooks). */
void sandbox_landlock_add_readable(int ruleset, const char *path, uint64_t handled);

/* Confines the calling process with ruleset. A kernel that refuses flags
 * is asked again without them (*flags is then 0). Returns 0, or -1 with
 * errno. */
long sandbox_landlock_confine(int ruleset, uint32_t *flags);

#endif
