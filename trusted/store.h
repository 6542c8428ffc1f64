/* DESIGN ONLY: not compiled in this tree (see docs/checkpoints.md). */
/* The checkpoint store: every state of a project the keeper saw, as an
 * ordinary bare git repository out of the sandbox's reach
 * ($XDG_STATE_HOME/sbsh/projects/KEY/store.git), written with libgit2.
 *
 * A checkpoint is a commit whose tree is the whole kept project (paths
 * relative to the project's top; tracked, untracked and ignored files,
 * modes, symlinks; never .git itself) and whose message is one subject
 * line and a JSON object (STORE_META, docs/checkpoints.md). Two refs:
 *   refs/sbsh/head      the newest checkpoint (a chain through parents)
 *   refs/sbsh/accepted  the state the human accepted (its own chain)
 * Both are moved with compare-and-swap, so the keeper and `sbsh --review`
 * can write at once: the loser reloads and tries again.
 *
 * Runs only outside the sandbox (the keeper, the review CLI). */
#ifndef SBSH_STORE_H
#define SBSH_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/util.h"

struct store; /* opaque: the repository, the project's top, the limits */

/* What a checkpoint says of one path. */
enum store_change {
	STORE_ADDED = 'A',
	STORE_MODIFIED = 'M', /* content, mode or link target */
	STORE_DELETED = 'D',
	STORE_NOT_KEPT = 'N', /* changed, but too large to keep (see below) */
};

struct store_path_change {
	char *path;          /* relative to the project's top */
	enum store_change change;
	const char *why;     /* for STORE_NOT_KEPT: "folder of 12000 files, ignored", ... (static) */
};

struct store_changes {
	struct store_path_change *items;
	size_t len, cap;
};

/* What a checkpoint records besides its tree. */
struct store_meta {
	const char *kind;     /* "start" (first sight, or what changed while no
	                       * session ran), "between" (between two lines: the
	                       * agent tool's own edits), "line", "end" (after the
	                       * session's last line: an exec'd last command),
	                       * "review" (accept/reject/undo by the human) */
	const char *line;     /* the command line as typed, or NULL */
	const char *session;  /* "PID-STARTTIME" of the session, or NULL */
	int64_t time;         /* seconds since the epoch */
	int status;           /* the line's exit status, or -1 */
	const char *undid;    /* for "review" by undo: the commits undone, space-separated hex */
};

/* Limits on what is kept, from the config (defaults in store.c). */
struct store_limits {
	uint64_t max_file_bytes;   /* a file larger is not kept */
	uint64_t max_folder_files; /* an ignored folder holding more files is not kept */
	uint64_t max_folder_bytes; /* ... or more bytes */
	unsigned keep_sessions;    /* the last N sessions' checkpoints are kept */
	uint64_t keep_bytes;       /* and at most this much store on disk */
};
void store_limits_default(struct store_limits *l);

/* Opens (creating when missing, with mode 0700) the store at git_dir for
 * the project whose top is root. Returns NULL with *err set (malloc'd,
 * without "sbsh: ") when it cannot. */
struct store *store_open(const char *git_dir, const char *root, const struct store_limits *l,
                         char **err);
void store_close(struct store *s);

/* ---- writing checkpoints (the keeper) ------------------------------- */

/* Whether root-relative folder path is kept (watched and stored); a folder
 * that is not gets *why set. Decided once per folder for the store's
 * lifetime (git's ignore rules, when the project is a git work tree, and
 * the folder's size). "" is the top. */
bool store_folder_kept(struct store *s, const char *path, const char **why);

/* Makes a checkpoint from the newest one and the current content of the
 * root-relative paths in dirty (files, links or folders; a folder is
 * compared whole, recursively; a path that is gone is deleted). Reads only
 * those paths. With all true dirty is ignored and the whole project is
 * compared (the first sight, an inotify overflow): files whose stat
 * matches the stat cache are not read again. When nothing differs no
 * commit is made and *changed stays empty. Otherwise *changed lists what
 * differs and out_hex (41 bytes) names the new commit. The first
 * checkpoint ever also becomes the accepted state. Returns 0 or -1 with
 * *err set. */
int store_checkpoint(struct store *s, const struct strvec *dirty, bool all,
                     const struct store_meta *meta, struct store_changes *changed,
                     char out_hex[41], char **err);

/* Saves the stat cache (at the keeper's exit: a cache that was not saved
 * costs only reading the files again). */
void store_save_cache(struct store *s);

/* Drops the oldest checkpoints past the limits (never the accepted state)
 * and the objects only they held; what was dropped is remembered for
 * store_log. Returns how many checkpoints were dropped. */
int store_prune(struct store *s, char **err);

/* ---- reading and reviewing (sbsh --review) --------------------------- */

struct store_entry {
	char hex[41];
	struct store_meta meta;  /* strings owned by the entry */
	char *line_owned, *session_owned, *kind_owned, *undid_owned;
	struct store_changes changes;
};

/* The checkpoints newest first, at most max (0: all), stopping at the
 * accepted state when since_accepted. */
int store_log(struct store *s, size_t max, bool since_accepted, struct store_entry **out,
              size_t *n, char **err);
void store_entries_free(struct store_entry *e, size_t n);
/* What is no longer recoverable (pruned), as lines for the human; may be empty. */
void store_pruned_note(struct store *s, struct strvec *out);

/* What differs between the accepted state and the newest checkpoint, and
 * (when unrecorded is not NULL) what differs on disk from the newest
 * checkpoint: a line still running, an editor. The disk is compared with
 * the stat cache saved by the keeper, so only files whose stat changed
 * are read. Makes no checkpoint. */
int store_status(struct store *s, struct store_changes *out, struct store_changes *unrecorded,
                 char **err);

/* A unified diff of path (or all, when NULL) between the accepted state
 * and the newest checkpoint; binary files are named, not dumped. */
int store_diff(struct store *s, const char *path, struct strbuf *out, char **err);

/* The accepted state takes the newest content of paths (all when NULL). */
int store_accept(struct store *s, char *const *paths, struct store_changes *done, char **err);

/* Puts paths (all when NULL) back as the accepted state has them: files
 * come back byte for byte with their modes, links as links, added ones
 * are removed (the store still holds them). A path whose content on disk
 * differs from the newest checkpoint (someone changed it since) is left
 * and listed in *skipped, unless force. Records a "review" checkpoint. */
int store_reject(struct store *s, char *const *paths, bool force, struct store_changes *done,
                 struct store_changes *skipped, char **err);

/* Reverts what the newest n "line", "between" and "end" checkpoints
 * changed (those not undone before), under the same rule as reject. */
int store_undo(struct store *s, unsigned n, bool force, struct store_changes *done,
               struct store_changes *skipped, char **err);

void store_changes_free(struct store_changes *c);

#endif
