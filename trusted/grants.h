/* The human's yes, remembered for what runs inside the command it let
 * run: a nested sbsh (an agent tool's wrapper, `bash -c` through the
 * shims) asking again about the same commands gets the same answer, so
 * one command is one question whatever the depth. Kept by the broker of
 * a session, which every nested sbsh of the session asks (the approver
 * answers only brokers, so it never sees a nested question). */
#ifndef SBSH_GRANTS_H
#define SBSH_GRANTS_H

#include <stdint.h>
#include <sys/types.h>

#define GRANTS_MAX 16
/* A grant lasts this long at most, and only while its asker lives; the
 * asker's next line ends it (a release). */
#define GRANT_MS 120000

struct grant {
	pid_t pid;       /* the asker the human answered (from the kernel) */
	char *folder;    /* its working folder then (from the kernel) */
	char *commands;  /* what it was shown, "; " between commands */
	char *cmdline;   /* its command line then: an asker that exec'd since is inside */
	int64_t until_ms;
};

struct grant_table {
	struct grant grants[GRANTS_MAX];
};

/* The human said yes to commands asked by pid: remembered, in place of
 * the oldest grant. Never for what needs a typed code (callers check). */
void grants_remember(struct grant_table *t, pid_t pid, const char *commands);

/* The grant that already answers pid asking about commands: pid runs
 * inside the granted asker's command (a descendant, or the asker itself
 * after an exec) in the same folder, and asks only what was granted.
 * NULL when none does. */
const struct grant *grants_find(struct grant_table *t, pid_t pid, const char *commands);

/* pid's line is over: its grants end. */
void grants_release(struct grant_table *t, pid_t pid);

void grants_clear(struct grant_table *t);

#endif
