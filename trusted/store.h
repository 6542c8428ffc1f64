/* The checkpoint store: every state of a project the keeper saw, as an
 * ordinary bare git repository out of the sandbox's reach
 * ($XDG_STATE_HOME/sbsh/projects/KEY/store.git), written with libgit2.
 *
 * A checkpoint is a commit whose tree is the whole kept project (paths
 * relative to the project's top; tracked, untracked and ignored files,
 * the executable bit, symlinks; never a .git folder) and whose message is
 * a subject line, a blank line and a JSON object (docs/checkpoints.md).
 * Two refs: refs/sbsh/head (the newest checkpoint, a chain through first
 * parents) and refs/sbsh/accepted (the state the human accepted). A git
 * index beside them (sbsh.index) mirrors head's tree with each file's
 * stat, so a checkpoint reads only files whose stat changed. Every writer
 * holds store.lock (flock) from reading head to moving it.
 *
 * Linked only into sbsh-keeper, which runs outside the sandbox. */
#ifndef SBSH_STORE_H
#define SBSH_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

struct store;

/* What a checkpoint (or a review) says of one path. */
enum store_change {
	STORE_ADDED = 'A',
	STORE_MODIFIED = 'M', /* content, executable bit, mode or link target */
	STORE_DELETED = 'D',
	STORE_NOT_KEPT = 'N', /* too large to keep: recorded, not copied */
};

struct store_path_change {
	char *path;
	enum store_change change;
	char *why; /* NOT_KEPT: why; a skipped path: why it was left; or NULL */
};

struct store_changes {
	struct store_path_change *items;
	size_t len, cap;
};
void store_changes_add(struct store_changes *c, const char *path, enum store_change change,
                       const char *why);
void store_changes_free(struct store_changes *c);

/* What a checkpoint records besides its tree. */
struct store_meta {
	const char *kind;    /* "start", "between", "line", "end", "review" */
	const char *line;    /* the command line, or NULL */
	const char *session; /* "PID-STARTTIME" of the session, or NULL */
	int status;          /* the line's exit status, or -1 */
	const char *undid;   /* review by undo: the checkpoints undone, space-separated hex */
};

/* Limits on what is kept (config keys checkpoint_*). */
struct store_limits {
	uint64_t max_file_bytes;   /* a larger file is not kept */
	uint64_t max_folder_files; /* a heavy or ignored folder holding more files is not kept */
	uint64_t max_folder_bytes; /* ... or more bytes */
	uint64_t max_files;        /* a project with more kept files gets no checkpoints */
	unsigned keep_sessions;    /* checkpoints of the last N sessions are kept */
	uint64_t keep_bytes;       /* and at most this much store */
};
void store_limits_default(struct store_limits *l);

/* Opens the store at git_dir (created, mode 0700, when create) for the
 * project whose top is root. NULL with *err (malloc'd) when it cannot. */
struct store *store_open(const char *git_dir, const char *root, const struct store_limits *l,
                         bool create, char **err);
void store_close(struct store *s);
const char *store_root(const struct store *s);

/* Whether the root-relative folder (not "") is kept: a folder named
 * .git never is; one that git ignores or that is a known regenerable
 * tree (node_modules, .venv, target, ...) is not when it holds more than
 * the limits. *why says why not. Decided once per folder. */
bool store_folder_kept(struct store *s, const char *rel, const char **why);

/* Makes a checkpoint of the current content of the root-relative paths in
 * dirty (a folder is compared whole; a path that is gone is deleted), or
 * of the whole project when all. Reads only files whose stat differs from
 * the index. When nothing differs from head no commit is made and
 * *made is false. *changed (may be NULL) gets what differs. The first
 * checkpoint also becomes the accepted state. Takes store.lock. */
int store_checkpoint(struct store *s, char *const *dirty, size_t ndirty, bool all,
                     const struct store_meta *meta, struct store_changes *changed, bool *made,
                     char out_hex[41], char **err);

/* What the accepted state holds at rel: 1 and *same when content is it,
 * 1 and a copy in *accepted (malloc'd, *len) when it holds other content,
 * 0 when it holds no file there. */
int store_accepted_content(struct store *s, const char *rel, const char *content, size_t len, bool *same,
                           char **accepted, size_t *accepted_len);

/* Whether rel is, or lies in, a path the store notes as not kept (too
 * large, a regenerable or ignored folder): it cannot tell its history. */
bool store_not_kept(const struct store *s, const char *rel);

/* Whether the accepted state has a file or link at rel. */
bool store_accepted_has(struct store *s, const char *rel);

/* The project lies inside another that has a store: a session of that
 * one could have planted its .agentcommands.json, so the first accepted
 * state (the first checkpoint's) leaves it out. */
void store_withhold_list(struct store *s);

/* When the accepted state was recorded (its commit's time, seconds), or 0. */
int64_t store_accepted_time(struct store *s);

/* The keeper's: the stat cache is its own, loaded from sbsh.index and
 * saved by store_save_index (now and then, and by store_close). */
int store_own_index(struct store *s);
void store_save_index(struct store *s);

/* Whether the stat cache still says what head's tree holds (a line's
 * checkpoint updates the tree path by path); when not, the next
 * checkpoint must compare everything. */
bool store_index_matches_head(struct store *s);

/* Drops the oldest checkpoints past the limits (the accepted state and
 * what it needs are always kept), by making the oldest one kept a root
 * (its message says how many went before it, and until when) and
 * writing the newer ones again above it; then repacks, so what only the
 * dropped ones held is gone. Returns how many were dropped, or -1. */
int store_prune(struct store *s, char **err);

/* The bytes the store's objects take on disk. */
uint64_t store_bytes(struct store *s);

/* ---- the review (sbsh --review) ------------------------------------ */

struct store_entry {
	char hex[41];
	char *kind, *line, *session, *undid;
	int64_t time;
	int status;
	struct store_changes changes;
	int64_t pruned, pruned_until; /* on the oldest kept: how many went before it, the newest's time */
};
void store_entries_free(struct store_entry *e, size_t n);

/* The checkpoints newest first, at most max (0: all). */
int store_log(struct store *s, size_t max, struct store_entry **out, size_t *n, char **err);

/* What differs between the accepted state and head (*out), and what on
 * disk differs from head (*unrecorded, may be NULL: a line still running,
 * an editor, an agent tool's edit after its last line), and what is not
 * kept now (*not_kept, may be NULL). */
int store_status(struct store *s, struct store_changes *out, struct store_changes *unrecorded,
                 struct store_changes *not_kept, char **err);

/* A unified diff between the accepted state and head of paths (all when
 * npaths is 0); binary files are named, not dumped. With files not NULL,
 * each file's own patch goes there instead (one entry per path). */
int store_diff(struct store *s, char *const *paths, size_t npaths, struct strbuf *out,
               struct store_changes *files, struct strvec *patches, char **err);

/* The accepted state takes head's content of paths (all when npaths 0). */
int store_accept(struct store *s, char *const *paths, size_t npaths, struct store_changes *done,
                 char **err);

/* Puts paths (all that differ when npaths is 0) back as the accepted state
 * has them; a path whose content on disk differs from head (changed since
 * it was recorded) is left and listed in *skipped, unless force. Records
 * a "review" checkpoint. */
int store_reject(struct store *s, char *const *paths, size_t npaths, bool force,
                 struct store_changes *done, struct store_changes *skipped, char **err);

/* Reverts what the newest n checkpoints not undone before changed ("line",
 * "between", "end"; with session not NULL only that session's), under
 * reject's rule. */
int store_undo(struct store *s, unsigned n, const char *session, bool force,
               struct store_changes *done, struct store_changes *skipped, char **err);

/* sbsh --review -i: the hunks of one text file modified between the
 * accepted state and head, as text for the human (each with its @@
 * header); -1 when it is decided whole (binary, added, deleted, a link). */
int store_file_hunks(struct store *s, const char *path, struct strvec *hunks, char **err);

/* One decision per hunk of store_file_hunks: 'a' (the accepted state takes
 * it), 'r' (the file on disk loses it), 's' (left for later). */
int store_apply_hunks(struct store *s, const char *path, const char *decisions, char **err);

/* Whether this process may write the store: from inside a sandbox it may
 * not (the state folder is not writable there). */
bool store_writable(const char *git_dir);

#endif
