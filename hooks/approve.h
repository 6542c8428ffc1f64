/* The decision for every verdict but SAFE: a pre-approval list, an earlier
 * answer, the human through the broker, or a refusal when nobody can be
 * asked. The evaluator calls it; it never runs anything itself. */
#ifndef SBSH_APPROVE_H
#define SBSH_APPROVE_H

#include <stdbool.h>

#include "hooks/classify.h"
#include "shell/shell.h"

struct policy_options {
	bool headless;     /* nobody can be asked: refuse without asking */
	int broker_fd;     /* -1 when there is no broker */
	/* Why nobody can be asked, when it is not that nobody is there: an
	 * sbsh -c whose text needed no approval as written runs without a
	 * broker (frontend/startup.c). NULL: headless. */
	const char *nobody_why;
	/* A nested sbsh: its session's broker, which asks the human for it
	 * (hooks/session_client.h), or NULL. server: who listens there. */
	const char *session_socket;
	pid_t session_server;
	bool text_safe;    /* the -c text needs nobody as written: nothing to ask up front */
	unsigned approval_timeout_s;
	bool off;          /* classification turned off (--no-classify) */
	struct events *events;          /* lib/events.h, or NULL */
	struct protect_client *protect; /* trusted/warden_proto.h, or NULL */
	struct checkpoint_client *checkpoints; /* hooks/checkpoint_client.h, or NULL */
	char *const *rules;             /* the config file's classify rules, or NULL */
	struct classifier *cl;          /* one made with those rules already (taken), or NULL */
};

/* Creates sh->policy. Reads the user's allow-list; a malformed one is
 * reported and nothing in it is trusted. Returns 0, or -1 when a list was
 * malformed (the policy still exists, without that list). */
int policy_init(struct shell *sh, const struct policy_options *opts);
/* Opaque project code (a script file): no classification, no approvals;
 * protection and events go on. */
void policy_set_opaque(struct shell *sh);
/* Whether protected files are being checked (the shell then never execs
 * its last command: the final check must come after it, before exit). */
bool policy_protecting(struct shell *sh);
/* At exit of the top shell: the session's last protection check. */
void policy_session_end(struct shell *sh);

/* The static pass for one complete command line, before any of it runs:
 * with a human to ask, the commands that are decidable now are put to
 * them once, up front. Headless it does nothing (each command is refused
 * when reached). */
void policy_line_begin(struct shell *sh, const struct node *line);
void policy_line_end(struct shell *sh);

/* The dynamic pass: argv is final, path is the resolved program (NULL for
 * builtins). Returns 0 when it may run, or STATUS_REFUSED after printing
 * why it was refused. */
int policy_check_argv(struct shell *sh, char *const *argv, const char *path);
/* The agent's scripts the last check of a program judged as shell code,
 * which the program reads as it runs (sh FILE, what it sources, sh <
 * FILE: stdin_script): shell/exec.c keeps them from changing while it
 * runs, since what was judged must be what is read. */
struct policy_seal {
	const struct classify_sealed *files;
	size_t n;
	bool stdin_script;
};
struct policy_seal policy_seal_of(struct shell *sh);

/* Matches argv against an allow-list entry: the same number of words, each
 * equal or matching as a pattern where the entry has `*`, `?` or `[`. */
bool policy_entry_matches(const char *entry, char *const *argv);

/* policy_entry_matches, and each word a pattern matched acts, on disk,
 * inside the folder the pattern names before its wildcard: with the entry
 * `rm -rf build/` followed by `*`, not on build/link/ where build/link
 * leads out, nor on anything when build itself is a link. What allows
 * uses. */
bool policy_entry_allows(const char *entry, char *const *argv);

/* Where a command acting on word acts: the word's folder resolved, and
 * the name in it (a link itself, unless a trailing slash follows it, as
 * rm does); NULL when the folder does not exist. Malloc'd. */
char *policy_acted_path(const char *word);

/* An entry's words, as policy_entry_matches splits them. */
void policy_entry_words(const char *entry, struct strvec *out);

/* Whether argv names what a deny entry names: the entry's program (by
 * basename) and then each of its other words that is not an option, in
 * order, among argv's words, wherever they stand (a lone `*` names
 * nothing; `+main`, `HEAD:main`, `./main/` name main). Options are not
 * compared: the entry's verdict stands for them (approve.c). */
bool policy_entry_names(const char *entry, char *const *argv);

/* Reads an allow-list's JSON text ({"allow": [...], "deny": [...]}) into
 * allow and deny (empty strvecs). Returns 0, or -1 with *error a malloc'd
 * message that starts with name and says where: "name:LINE:COL: ..." for
 * bad JSON, the key and index for a wrong value. Both lists are then
 * empty: nothing in a malformed list is trusted. */
int allow_list_parse(const char *text, size_t len, const char *name, struct strvec *allow,
                     struct strvec *deny, char **error);

#endif
