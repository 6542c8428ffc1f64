/* An isolated session's layer (docs/isolation.md), read and applied from
 * outside: what its upper folder changes in the project (whiteouts,
 * opaque and redirected folders read as OverlayFS reads them), the real
 * folder brought up to it path by path (accept), paths dropped from it
 * (reject), and the whole of it removed (discard). The layer is
 * STATE/layers/NAME: upper/ and work/ (OverlayFS's), lock, layer.json and
 * accepted.json. Runs outside the sandbox, in sbsh (the holder) and in
 * sbsh-keeper (the review). */
#ifndef SBSH_LAYER_H
#define SBSH_LAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

struct layer {
	char *name;
	char *root;  /* the project: the real folder */
	char *dir;   /* STATE/layers/NAME */
	char *upper; /* DIR/upper */
};

/* The layer name of the project at root (state: its state folder), which
 * must exist. Returns 0, or -1 with *why (malloc'd). */
int layer_open(const char *root, const char *state, const char *name, struct layer *l, char **why);
void layer_close(struct layer *l);

enum layer_kind { LAYER_ADDED, LAYER_MODIFIED, LAYER_DELETED };

/* One path the layer changes. */
struct layer_change {
	char *path;          /* relative to the project's top */
	enum layer_kind kind;
	mode_t mode;         /* the layer's type and permissions (added, modified) */
	mode_t real_mode;    /* the real folder's when the change was read (modified, deleted) */
	char *source;        /* where the new content is (added, modified): a path in the upper folder,
	                      * or in the real folder for what a redirected folder shows */
	bool source_real;
	bool copied_up;      /* the upper file was copied from a real one, which existed then */
	struct timespec since; /* when the layer took the path over: the birth of the upper entry
	                        * that carries the change (its change time where births are not kept) */
	bool protected_path; /* a file that steers what runs outside the sandbox (git hooks and
	                      * config, .agentcommands.json, agent tools' settings) */
	char *why;           /* accept: why it was left; status: a change in the real folder since */
};

struct layer_changes {
	struct layer_change *items;
	size_t len, cap;
};
void layer_changes_free(struct layer_changes *c);

/* What the layer changes, parents before what they hold and deleted
 * folders after theirs. Each change whose real path the human changed
 * since the layer took it over gets a why. Returns 0, or -1 with *err. */
int layer_status(const struct layer *l, struct layer_changes *out, char **err);

/* Whether change c (of list) is selected by one of paths (relative to the
 * top; "" is everything): the path itself or below it. */
bool layer_selected(const struct layer_change *c, char *const *paths, size_t npaths);

/* Applies the selected changes to the real folder: each file written
 * under a temporary name and renamed into place, folders made first and
 * removed last. A path the human changed since the layer took it over is
 * left (unless force), as is a protected file unless one of paths names
 * it or a folder above it, with its reason in why. in_use: a session has the layer mounted, so its
 * upper folder is not touched (what was accepted is recorded instead, and
 * tidied when the session ends). Returns 0, or -1 with *err; done and
 * left get copies of the changes. */
int layer_accept(const struct layer *l, const struct layer_changes *all, char *const *paths, size_t npaths,
                 bool in_use, bool force, struct layer_changes *done, struct layer_changes *left, char **err);

/* Drops the selected changes from the layer: the real folder's version
 * shows again. Only when no session has it mounted. */
int layer_reject(const struct layer *l, const struct layer_changes *all, char *const *paths, size_t npaths,
                 struct layer_changes *done, char **err);

/* Removes from the upper folder what only repeats the real folder (files
 * accepted since, copies that were never changed, whiteouts of what is
 * gone, opaque marks that hide nothing), and the records of accepts that
 * no longer matter. Only when no session has the layer mounted. */
void layer_tidy(const struct layer *l);

/* Removes the layer folder dir whole. Returns 0, or -1 with *err. */
int layer_discard(const char *dir, char **err);

/* The bytes the layer folder dir takes on disk. */
unsigned long long layer_disk_usage(const char *dir);

#endif
