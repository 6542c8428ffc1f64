/* The protected-file baseline: what runs later outside the sandbox (git
 * hooks, git's config, sbsh's own .agentcommands.json), found in the project
 * as git finds it, scanned before confinement, compared with the live files
 * and put back where they differ. A submodule added during a session joins
 * the set at the next check: its hooks keep only git's samples, its config
 * loses the keys that run programs. The baseline is also persisted under
 * $XDG_STATE_HOME/sbsh/projects/KEY/ (out of the sandbox's reach), with a
 * marker per running session, so a session killed mid-command cannot hand
 * its changes to the next one. Used by the warden (trusted/warden.c) and by
 * `sbsh --protect` (trusted/protect_cli.c); everything here runs outside
 * the sandbox. */
#ifndef SBSH_BASELINE_H
#define SBSH_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "lib/util.h"

struct events;

/* A protected file: its baseline, and what the live one looked like. */
struct pfile {
	char *name;
	bool present;      /* in the baseline */
	bool unheld;       /* present, but too big to keep a copy of: never touched */
	mode_t mode;       /* baseline type and permissions */
	struct timespec mtime;
	char *data;        /* contents, or a symlink's target */
	size_t len;
	bool loaded;       /* data is here; else it is read from the mirror when needed */
	struct stat seen;  /* the live file when last found equal; st_ino 0: unknown */
};

/* A protected folder: the whole of it (`all`), or the named files in it. */
struct pdir {
	char *rel;         /* "." (project), a path below it, or an absolute path */
	char *name;        /* the name in the parent (roots: the absolute path) */
	int parent;        /* index, -1 for a root */
	bool all;          /* every entry is protected (hooks folders) */
	bool present;
	mode_t mode;
	int fd;            /* the live folder, O_RDONLY|O_DIRECTORY, or -1 */
	struct stat seen;  /* its dev/ino, and mtime/ctime when last read */
	bool listed;       /* seen's times are those of the last full listing */
	bool fresh;        /* recreated by the check in progress: its files are not listed one by one */
	struct pfile *files;
	size_t nfiles, cap;
};

/* The protected set: folders in the order they were found (a parent
 * before what is below it), live descriptors on those present. */
struct protect {
	struct pdir *dirs;
	size_t ndirs, cap;
	char *root;        /* the project folder, absolute */
	char *hooks_rel;   /* the folder git runs hooks from, when inside the project */
	char *state;       /* $XDG_STATE_HOME/sbsh/projects/KEY */
	struct events *ev;
	unsigned counter;  /* temporary names */
	bool moved;        /* protect_load_mirror: the live files' metadata differ from the manifest's */
	bool grown;        /* modules joined the set since the baseline was last written */
	bool rewatch;      /* a folder the watches do not cover was opened by the last check */
	unsigned failed;   /* restores that failed in the checks so far (the caller resets it) */
	char *qdir;        /* this process's quarantine folder, once made */
	int qfd;
};


/* A protect-path value: 0 when it is a path relative to the project's top
 * that stays inside it, else -1. */
int protect_check_extra(const char *rel);

/* The agent tools' own files in a project that make them run a program
 * outside the sandbox; protected like the hooks (NULL-terminated). */
extern const char *const protect_agent_files[];
/* Whether rel is one of them, inside one or the folder of one, at the top
 * or below it. */
bool protect_is_agent_file(const char *rel);

/* The protected folders and files of the project here, before any scan;
 * NULL when there is nothing to protect. extra: more paths to protect
 * (NULL-terminated, relative to the project's top; a folder is protected
 * whole), or NULL. */
struct protect *protect_discover(char *const *extra);
void protect_free(struct protect *p);

/* The live state becomes the baseline. */
void protect_scan(struct protect *p);

/* Puts back what differs from the baseline (module git dirs that appeared
 * join the set first); the paths go to restored, when given. */
void protect_check(struct protect *p, struct strvec *restored);

/* Where the sweep below needs to look, as the project's keeper knows it
 * (trusted/keeper.c): folders looked at alone (each holds a name
 * protect_sweep_name accepts, or something in it changed since the
 * session began) and folders walked whole (made or moved in since then,
 * or not watched). Paths relative to the project's top, "" for the top. */
struct sweep_plan {
	struct strvec alone;
	struct strvec whole;
};

/* Whether a name, in any folder below the top, is one the sweep acts on:
 * .git, .agentcommands.json, or an agent tool's file or folder. */
bool protect_sweep_name(const char *name);

/* At a session's end: repositories below the project that the session
 * made or changed (since: its start) are pinned, .git files and nested
 * .agentcommands.json it wrote go to the quarantine; see baseline.c.
 * plan: only where it says, or NULL: the whole project is walked; then,
 * once stop_fd (when not -1) is readable, or after a few folders, the
 * walk stops where it is and *stopped is set. False when the walk stopped at its bound (too many
 * folders).
 *
 * The caller waits for the first PROTECT_SWEEP_WAITED folders only: past
 * them the walk forks and goes on in the child, *background set there
 * (it reports what it finds itself, then exits), while the parent returns
 * with what it found so far. background may be NULL: all of it waited for. */
#define PROTECT_SWEEP_WAITED 256
bool protect_sweep(struct protect *p, struct timespec since, const struct sweep_plan *plan, int stop_fd,
                   struct strvec *restored, bool *background, bool *stopped);

/* Whether NAME in folder di is in the set, as a file or a folder. */
bool protect_known_name(struct protect *p, int di, const char *name);

/* Whether folder di is a modules/ folder, or part of a submodule's name
 * below one: any new name in it may be a new module git dir. */
bool protect_modules_folder(struct protect *p, int di);

/* Reads every content the baseline lacks from the mirror; false when one
 * could not be read. */
bool protect_need_all_data(struct protect *p);

/* Whether the saved set holds every folder and file the live discovery
 * found (a new protect-path, a hook's reference, husky's folder). */
bool protect_covers(struct protect *saved, struct protect *live);

/* Whether two scans hold the same files. */
bool protect_same_baseline(struct protect *a, struct protect *b);

/* ---- persistence: STATE/baseline/{manifest,tree/} ---- */

/* The state folder of the project at key_path, or NULL without a home. */
char *protect_state_dir(const char *key_path);
/* The same in the folder projects (STATE/sbsh/projects). */
char *protect_state_in(const char *projects, const char *key_path);

/* Takes the state folder's lock (STATE/lock), waiting for it: the fd, or
 * -1. protect_open_state makes the folder the first time. */
int protect_lock_state(const char *state);
int protect_open_state(const char *state);

/* Loads STATE/baseline; NULL when there is none (or it is damaged). */
struct protect *protect_load_mirror(const char *state);

/* Writes the baseline (copies and manifest) and swaps it in; or only the
 * manifest, when the contents are the same and the metadata moved.
 * Return 0 or -1. */
int protect_write_mirror(struct protect *p);
int protect_write_manifest(struct protect *p);

/* Where the saved baseline keeps its copy of rel (a folder of the set). */
char *protect_saved_path(const struct protect *p, const char *rel);

/* ---- restores that failed: STATE/dirty, one path a line ---- */

/* Writes the paths of the failed entries of restored (WARDEN_NOTE_FAILED)
 * as STATE/dirty, or removes it when there are none. */
void protect_set_dirty(const char *state, const struct strvec *restored);
bool protect_is_dirty(const char *state);

/* ---- sessions: STATE/sessions/<warden pid>, locked while it lives ---- */

int protect_marker_prepare(const char *state, char **tmp_name);
void protect_marker_publish(const char *state, char *tmp_name, int fd, pid_t pid);
void protect_remove_marker(const char *state, pid_t pid);
void protect_sessions(const char *state, int *nlive, int *ndead, struct strvec *live);

#endif
