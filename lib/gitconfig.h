/* Git's configuration: one reader of its file syntax, and the one table of
 * the keys that make git run a program or read settings from elsewhere.
 * The classifier (judging `git -c KEY=VALUE`, aliases, push settings) and
 * the warden (cleaning a config that appeared during a session) both use
 * them, so they can never disagree about what a key does. Pure: text in,
 * entries out; it opens no file. */
#ifndef SBSH_GITCONFIG_H
#define SBSH_GITCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"

/* One "key = value" of a config text, as git names it. */
struct gitconfig_entry {
	const char *section;    /* lowercased ("remote") */
	const char *subsection; /* as written ("origin"), or NULL */
	const char *key;        /* lowercased ("pushurl") */
	const char *value;      /* decoded (quotes, escapes, comments gone); NULL for a bare key */
	size_t begin, end;      /* the entry's bytes in the text: its key up to past its newline */
};

/* Called for each entry that stands in a section, in order; return false
 * to stop reading. */
typedef bool gitconfig_entry_fn(const struct gitconfig_entry *e, void *ctx);

/* Reads text as git's own parser does: "\r\n" is a newline, a backslash at
 * the end of a line continues the value, a UTF-8 byte order mark is skipped,
 * section names and keys are case-insensitive. Returns 0 when it read to the
 * end (or fn stopped it), or -1 at a syntax error, where git would refuse
 * the whole file: *bad_at (if not NULL) is the offset of the construct that
 * failed, and no entry from there on was reported. */
int gitconfig_parse(const char *text, size_t len, gitconfig_entry_fn *fn, void *ctx, size_t *bad_at);

/* The values of section.[any subsection.]key, in order, appended to out
 * (a bare key gives "true"). */
void gitconfig_values(const char *text, size_t len, const char *section, const char *key, struct strvec *out);

/* What git does with a key's value. */
enum gitconfig_effect {
	GITCONFIG_PLAIN,     /* nothing of the kind below */
	GITCONFIG_RUNS,      /* runs the value as a command or program (core.pager, imap.tunnel) */
	GITCONFIG_RUNS_BANG, /* runs it in a shell only when it starts with "!" (alias.*,
	                      * submodule.*.update, credential helpers) */
	GITCONFIG_ELSEWHERE, /* takes settings or hooks from another file or folder
	                      * (include.path, core.hooksPath, extensions.worktreeConfig) */
	GITCONFIG_PROTOCOL,  /* protocol.allow: "always" lets URLs such as ext:: run commands */
};

/* The effect of section.subsection.key (section and key lowercased;
 * subsection NULL when there is none). A section whose keys are mostly
 * programs (credential, gpg, pager, sendemail, difftool...) counts whole. */
enum gitconfig_effect gitconfig_key_effect(const char *section, const char *subsection, const char *key);

/* The same for a key written as git's command line takes it ("Core.SSHCommand",
 * "diff.Tool X.textconv"): split at the first and the last dot. */
enum gitconfig_effect gitconfig_name_effect(const char *name);

/* Whether an entry with this value makes git run something or read
 * settings from elsewhere (every effect but PLAIN; RUNS_BANG only with a
 * leading "!"). value NULL: a bare key. */
bool gitconfig_entry_runs(const char *section, const char *subsection, const char *key, const char *value);

#endif
