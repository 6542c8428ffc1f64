/* What the kernel says about a process (/proc): its folder, command line,
 * parent, and how confined it is. Used where sbsh must not take a peer's
 * own word for who it is (the approver, the broker's session socket). */
#ifndef SBSH_PROC_STATUS_H
#define SBSH_PROC_STATUS_H

#include <stdbool.h>
#include <sys/types.h>

/* Its working folder: malloc'd, or NULL. */
char *proc_cwd(pid_t pid);

/* Its command line, NULs shown as spaces: malloc'd, or NULL. */
char *proc_cmdline(pid_t pid);

/* Its parent, or 0 when gone. */
pid_t proc_parent(pid_t pid);

/* Whether ancestor is pid's parent, grandparent, ... */
bool proc_descends_from(pid_t pid, pid_t ancestor);

/* Of the processes below ancestor that hold the socket with inode
 * sock_ino (a descriptor /proc shows as socket:[sock_ino]), skip aside,
 * the one furthest below it, or 0. */
pid_t proc_deepest_holder(unsigned long long sock_ino, pid_t ancestor, pid_t skip);

/* How confined a process is. Landlock needs no_new_privs (nobody inside
 * the sandbox holds CAP_SYS_ADMIN), and sbsh's sandbox always adds a
 * seccomp filter; neither can be undone, so a process made inside a
 * sandbox has at least the filters of the process that made it. */
struct proc_confinement {
	bool no_new_privs;
	int seccomp_filters; /* 0 where the kernel does not say */
};

/* Fills *out from /proc/PID/status (pid 0: this process). */
bool proc_confinement_of(pid_t pid, struct proc_confinement *out);

/* Whether peer was made outside the sandbox that confines self: it lacks
 * no_new_privs where self has it, or it has fewer seccomp filters. */
bool proc_outside_sandbox_of(const struct proc_confinement *peer, const struct proc_confinement *self);

#endif
