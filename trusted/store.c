/* The checkpoint store (trusted/store.h): libgit2 does the object store,
 * the trees and the diffs; this file decides what is kept, keeps the stat
 * cache honest and puts files back. */
#include "trusted/store.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HEAD_REF "refs/sbsh/head"
#define ACCEPTED_REF "refs/sbsh/accepted"

/* A folder's decision, kept for the store's lifetime. */
struct decision {
	char *rel;
	char *why; /* NULL: kept */
};

struct store {
	git_repository *repo;
	/* The same repository with an in-memory object store in front: a
	 * walk writing thousands of objects makes one pack of them instead of
	 * as many loose files (flush_bulk), and a status writes nothing. */
	git_repository *bulk;
	git_odb_backend *mempack;
	git_repository *w; /* where objects are written now: repo or bulk */
	git_repository *project; /* the project's own repository, for its ignore rules, or NULL */
	git_index *index;
	char *git_dir, *root, *index_path;
	int lock_fd, lock_depth;
	struct store_limits lim;
	struct decision *decided;
	size_t ndecided, capdecided;
	struct strvec not_kept; /* "PATH\x1fWHY" present now but not kept, sorted */
	bool not_kept_changed;
	struct store_changes *nk_changes; /* where a checkpoint notes not-kept changes */
	/* Permissions git does not keep (a file's other than 644 or 755): a
	 * path -> "600" object, recorded in every checkpoint's message. */
	json_t *modes;
	bool modes_changed;
	git_oid seen_head; /* head as this process last read or wrote it */
	struct store_changes *pending_notes; /* the checkpoint being made: its not-kept changes */
	/* The keeper owns the stat cache (sbsh.index, saved now and then and
	 * at its exit, with sbsh.index.head naming the checkpoint it mirrors);
	 * everyone else works on an index made from head's tree. */
	bool owns_index, index_dirty, have_index_head;
	bool withhold_list; /* store_withhold_list */
	git_oid index_head;
	/* The paths whose index entry a checkpoint changed (added, replaced,
	 * removed): its tree is head's with only those updated. */
	struct strvec touched;
	uint64_t files_seen;
};

/* Folders that are regenerated rather than written by hand: not kept
 * when large even outside a git work tree. */
static const char *const heavy_names[] = {
	"node_modules", ".venv", "venv", "target", "__pycache__", ".tox", ".gradle", ".next",
	".mypy_cache", ".pytest_cache", ".cache", "dist", "build",
};

void store_limits_default(struct store_limits *l)
{
	l->max_file_bytes = 64u << 20;
	l->max_folder_files = 2000;
	l->max_folder_bytes = 256u << 20;
	l->max_files = 200000;
	l->keep_sessions = 20;
	l->keep_bytes = 1024u << 20;
}

void store_changes_add(struct store_changes *c, const char *path, enum store_change change, const char *why)
{
	if (c->len == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->items = xreallocarray(c->items, c->cap, sizeof *c->items);
	}
	c->items[c->len++] = (struct store_path_change){xstrdup(path), change, why ? xstrdup(why) : NULL};
}

void store_changes_free(struct store_changes *c)
{
	for (size_t i = 0; i < c->len; i++) {
		free(c->items[i].path);
		free(c->items[i].why);
	}
	free(c->items);
	*c = (struct store_changes){0};
}

static char *git_err(const char *what)
{
	const git_error *e = git_error_last();
	return xasprintf("%s: %s", what, e && e->message ? e->message : "libgit2 failed");
}

static char *abs_path(const struct store *s, const char *rel)
{
	return *rel ? xasprintf("%s/%s", s->root, rel) : xstrdup(s->root);
}

static char *join_rel(const char *dir, const char *name)
{
	return *dir ? xasprintf("%s/%s", dir, name) : xstrdup(name);
}

/* Whether rel is prefix itself or lies under it. */
static bool rel_within(const char *rel, const char *prefix)
{
	size_t n = strlen(prefix);
	return n == 0 || (strncmp(rel, prefix, n) == 0 && (rel[n] == 0 || rel[n] == '/'));
}

static int ref_id(struct store *s, const char *name, git_oid *out);
static void load_not_kept(struct store *s);
static git_tree *commit_tree(struct store *s, const git_oid *commit_id);
static int diff_trees(struct store *s, git_tree *a, git_tree *b, char *const *paths, size_t npaths, git_diff **out);

/* The index becomes commit's tree, without stat: each file is read again
 * when next looked at. */
static uint32_t git_mode_of(const struct stat *st);

static void reset_index_to(struct store *s, const git_oid *commit)
{
	git_index_clear(s->index);
	git_tree *t = commit_tree(s, commit);
	if (t)
		git_index_read_tree(s->index, t);
	git_tree_free(t);
	git_oid_cpy(&s->index_head, commit);
	s->have_index_head = true;
	s->index_dirty = true;
}

/* The keeper's index follows head where someone else moved it: the paths
 * that differ take head's content, without stat. */
static void resync_index(struct store *s, const git_oid *head)
{
	git_tree *old = s->have_index_head ? commit_tree(s, &s->index_head) : NULL;
	git_tree *now = commit_tree(s, head);
	git_diff *d = NULL;
	if (!old || !now || diff_trees(s, old, now, NULL, 0, &d) != 0) {
		git_tree_free(old);
		git_tree_free(now);
		reset_index_to(s, head);
		return;
	}
	size_t n = git_diff_num_deltas(d);
	for (size_t i = 0; i < n; i++) {
		const git_diff_delta *dd = git_diff_get_delta(d, i);
		if (dd->status == GIT_DELTA_DELETED) {
			git_index_remove(s->index, dd->old_file.path, 0);
			continue;
		}
		git_index_entry e;
		memset(&e, 0, sizeof e);
		e.path = dd->new_file.path;
		e.mode = dd->new_file.mode;
		git_oid_cpy(&e.id, &dd->new_file.id);
		git_index_add(s->index, &e);
	}
	git_diff_free(d);
	git_tree_free(old);
	git_tree_free(now);
	git_oid_cpy(&s->index_head, head);
	s->have_index_head = true;
	s->index_dirty = true;
}

/* ---- the lock -------------------------------------------------------- */

static int store_lock(struct store *s, char **err)
{
	if (s->lock_depth++ > 0)
		return 0;
	while (flock(s->lock_fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			s->lock_depth = 0;
			*err = xasprintf("cannot lock the store: %s", strerror(errno));
			return -1;
		}
	}
	git_oid head;
	if (ref_id(s, HEAD_REF, &head) != 0) {
		git_index_clear(s->index);
		return 0;
	}
	/* The review, or another process, may have moved head. */
	if (!s->owns_index)
		reset_index_to(s, &head);
	else if (!s->have_index_head || !git_oid_equal(&s->index_head, &head))
		resync_index(s, &head);
	if (!git_oid_equal(&head, &s->seen_head))
		load_not_kept(s);
	return 0;
}

static void store_unlock(struct store *s)
{
	if (--s->lock_depth == 0)
		flock(s->lock_fd, LOCK_UN);
}

/* ---- opening ---------------------------------------------------------- */

static int mkdirs_private(const char *path)
{
	char *p = xstrdup(path);
	int rc = util_mkdir_private(p);
	free(p);
	return rc;
}

bool store_writable(const char *git_dir)
{
	char *probe = xasprintf("%s/.write-probe", git_dir);
	int fd = open(probe, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	bool ok = fd >= 0;
	if (ok) {
		close(fd);
		unlink(probe);
	}
	free(probe);
	return ok;
}

struct store *store_open(const char *git_dir, const char *root, const struct store_limits *l, bool create,
                         char **err)
{
	git_libgit2_init();
	struct store *s = xcalloc(1, sizeof *s);
	s->git_dir = xstrdup(git_dir);
	s->root = xstrdup(root);
	s->lock_fd = -1;
	strvec_init(&s->not_kept);
	strvec_init(&s->touched);
	if (l)
		s->lim = *l;
	else
		store_limits_default(&s->lim);
	struct stat st;
	bool exists = stat(git_dir, &st) == 0;
	if (!exists && !create) {
		*err = xasprintf("no checkpoints were recorded for %s (%s does not exist)", root, git_dir);
		store_close(s);
		return NULL;
	}
	if (!exists) {
		if (mkdirs_private(git_dir) != 0) {
			*err = xasprintf("cannot create %s: %s", git_dir, strerror(errno));
			store_close(s);
			return NULL;
		}
		if (git_repository_init(&s->repo, git_dir, 1) != 0) {
			*err = git_err("cannot create the store");
			store_close(s);
			return NULL;
		}
		/* Any name a Linux folder may hold is kept, as Linux spells it. */
		git_config *cfg = NULL;
		if (git_repository_config(&cfg, s->repo) == 0) {
			git_config_set_bool(cfg, "core.protectNTFS", 0);
			git_config_set_bool(cfg, "core.protectHFS", 0);
			git_config_set_bool(cfg, "gc.auto", 0);
			git_config_free(cfg);
		}
	} else if (git_repository_open_bare(&s->repo, git_dir) != 0) {
		*err = git_err("cannot open the store");
		store_close(s);
		return NULL;
	}
	char *lock = xasprintf("%s/store.lock", git_dir);
	s->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (s->lock_fd < 0)
		s->lock_fd = open(lock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	free(lock);
	if (s->lock_fd < 0) {
		*err = xasprintf("cannot open the store's lock in %s: %s", git_dir, strerror(errno));
		store_close(s);
		return NULL;
	}
	s->w = s->repo;
	git_odb *odb = NULL;
	if (git_repository_open_bare(&s->bulk, git_dir) == 0 && git_repository_odb(&odb, s->bulk) == 0 &&
	    git_mempack_new(&s->mempack) == 0 && git_odb_add_backend(odb, s->mempack, 1000) != 0) {
		s->mempack->free(s->mempack);
		s->mempack = NULL;
	}
	git_odb_free(odb);
	if (!s->mempack) {
		git_repository_free(s->bulk);
		s->bulk = NULL;
	}
	s->index_path = xasprintf("%s/sbsh.index", git_dir);
	if (git_index_new(&s->index) != 0) {
		*err = git_err("cannot make an index");
		store_close(s);
		return NULL;
	}
	char *dotgit = xasprintf("%s/.git", root);
	if (access(dotgit, F_OK) == 0 && git_repository_open_ext(&s->project, root, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) != 0)
		s->project = NULL;
	free(dotgit);
	load_not_kept(s);
	return s;
}

int store_own_index(struct store *s)
{
	git_index *file = NULL;
	if (git_index_open(&file, s->index_path) != 0)
		return -1;
	git_index_free(s->index);
	s->index = file;
	s->owns_index = true;
	char *head_path = xasprintf("%s.head", s->index_path);
	size_t text_len = 0;
	char *text = util_read_file(head_path, 0, 64, &text_len);
	free(head_path);
	s->have_index_head = text && git_oid_fromstrp(&s->index_head, text) == 0 && git_index_entrycount(s->index) > 0;
	free(text);
	return 0;
}

/* Entries recorded within the clock's grain of a change carry no stat (see
 * update_file), so every later walk reads those files again. At a pause,
 * each that is now old enough and still holds what was recorded gets its
 * stat back. */
static void settle_fresh(struct store *s)
{
	time_t now = time(NULL);
	size_t n = git_index_entrycount(s->index);
	for (size_t i = 0; i < n; i++) {
		const git_index_entry *e = git_index_get_byindex(s->index, i);
		if (!e || e->mtime.seconds != 0 || e->mode == GIT_FILEMODE_LINK)
			continue;
		char *abs = abs_path(s, e->path);
		struct stat st;
		git_oid id;
		if (lstat(abs, &st) == 0 && S_ISREG(st.st_mode) && st.st_mtim.tv_sec < now - 2 &&
		    git_mode_of(&st) == e->mode && git_odb_hashfile(&id, abs, GIT_OBJECT_BLOB) == 0 &&
		    git_oid_equal(&id, &e->id)) {
			git_index_entry copy = *e;
			char *path = xstrdup(e->path);
			copy.path = path;
			copy.file_size = (uint32_t)st.st_size;
			copy.ino = (uint32_t)st.st_ino;
			copy.dev = (uint32_t)st.st_dev;
			copy.ctime.seconds = (int32_t)st.st_ctim.tv_sec;
			copy.ctime.nanoseconds = (uint32_t)st.st_ctim.tv_nsec;
			copy.mtime.seconds = (int32_t)st.st_mtim.tv_sec;
			copy.mtime.nanoseconds = (uint32_t)st.st_mtim.tv_nsec;
			git_index_add(s->index, &copy);
			free(path);
			s->index_dirty = true;
		}
		free(abs);
	}
}

bool store_index_matches_head(struct store *s)
{
	if (!s->owns_index || !s->have_index_head || !s->index_dirty)
		return true;
	git_tree *t = commit_tree(s, &s->index_head);
	git_oid id;
	bool same = !t || (git_index_write_tree_to(&id, s->index, s->repo) == 0 && git_oid_equal(&id, git_tree_id(t)));
	git_tree_free(t);
	return same;
}

void store_save_index(struct store *s)
{
	if (!s->owns_index || !s->have_index_head)
		return;
	settle_fresh(s);
	if (!s->index_dirty)
		return;
	if (git_index_write(s->index) != 0)
		return;
	char hex[GIT_OID_HEXSZ + 2];
	git_oid_tostr(hex, sizeof hex, &s->index_head);
	strcat(hex, "\n");
	char *head_path = xasprintf("%s.head", s->index_path);
	char *tmp = xasprintf("%s.tmp", head_path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0 && util_write_all(fd, hex, strlen(hex)) && close(fd) == 0)
		rename(tmp, head_path);
	else if (fd >= 0)
		close(fd);
	free(tmp);
	free(head_path);
	s->index_dirty = false;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	store_save_index(s);
	git_index_free(s->index);
	git_repository_free(s->bulk); /* frees the mempack it owns */
	git_repository_free(s->repo);
	git_repository_free(s->project);
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	for (size_t i = 0; i < s->ndecided; i++) {
		free(s->decided[i].rel);
		free(s->decided[i].why);
	}
	free(s->decided);
	strvec_free(&s->not_kept);
	strvec_free(&s->touched);
	json_decref(s->modes);
	free(s->git_dir);
	free(s->root);
	free(s->index_path);
	free(s);
	git_libgit2_shutdown();
}

const char *store_root(const struct store *s)
{
	return s->root;
}

/* ---- commits and their metadata -------------------------------------- */

static int ref_id(struct store *s, const char *name, git_oid *out)
{
	return git_reference_name_to_id(out, s->repo, name) == 0 ? 0 : -1;
}

static git_tree *commit_tree(struct store *s, const git_oid *commit_id)
{
	git_commit *c = NULL;
	git_tree *t = NULL;
	if (git_commit_lookup(&c, s->repo, commit_id) == 0)
		git_commit_tree(&t, c);
	git_commit_free(c);
	return t;
}

static git_tree *ref_tree(struct store *s, const char *name)
{
	git_oid id;
	return ref_id(s, name, &id) == 0 ? commit_tree(s, &id) : NULL;
}

/* The JSON object of a commit's message, or NULL. */
static json_t *commit_meta(const git_commit *c)
{
	const char *msg = git_commit_message(c);
	const char *body = msg ? strstr(msg, "\n\n") : NULL;
	return body ? json_loads(body + 2, 0, NULL) : NULL;
}

static void load_not_kept(struct store *s)
{
	git_oid id;
	git_commit *c = NULL;
	for (size_t i = 0; i < s->not_kept.len; i++)
		free(s->not_kept.items[i]);
	s->not_kept.len = 0;
	json_decref(s->modes);
	s->modes = json_object();
	if (ref_id(s, HEAD_REF, &id) != 0 || git_commit_lookup(&c, s->repo, &id) != 0)
		return;
	git_oid_cpy(&s->seen_head, &id);
	json_t *meta = commit_meta(c);
	json_t *modes = meta ? json_object_get(meta, "modes") : NULL;
	if (json_is_object(modes))
		json_object_update(s->modes, modes);
	json_t *nk = meta ? json_object_get(meta, "not_kept") : NULL;
	const char *key;
	json_t *v;
	json_object_foreach(nk, key, v) {
		strvec_push_owned(&s->not_kept, xasprintf("%s\x1f%s", key, json_is_string(v) ? json_string_value(v) : ""));
	}
	json_decref(meta);
	git_commit_free(c);
}

/* A state to put paths back to: a checkpoint's tree and the permissions
 * its message records. */
struct target {
	git_tree *tree;
	json_t *modes;
};

static void target_load(struct store *s, const git_oid *commit_id, struct target *t)
{
	git_commit *c = NULL;
	t->tree = NULL;
	t->modes = NULL;
	if (git_commit_lookup(&c, s->repo, commit_id) != 0)
		return;
	git_commit_tree(&t->tree, c);
	json_t *meta = commit_meta(c);
	json_t *m = meta ? json_object_get(meta, "modes") : NULL;
	if (json_is_object(m))
		t->modes = json_incref(m);
	json_decref(meta);
	git_commit_free(c);
}

static void target_free(struct target *t)
{
	git_tree_free(t->tree);
	json_decref(t->modes);
}

static int make_commit(struct store *s, const git_oid *tree_id, const git_oid *parent, const struct store_meta *m,
                       json_t *modes, git_oid *out, char **err)
{
	git_tree *tree = NULL;
	git_commit *par = NULL;
	git_signature *sig = NULL;
	int rc = -1;
	if (git_tree_lookup(&tree, s->w, tree_id) != 0 || (parent && git_commit_lookup(&par, s->w, parent) != 0)) {
		*err = git_err("cannot read the store");
		goto out;
	}
	time_t now = time(NULL);
	if (git_signature_new(&sig, "sbsh", "sbsh@localhost", (git_time_t)now, 0) != 0) {
		*err = git_err("cannot sign a checkpoint");
		goto out;
	}
	json_t *o = json_object();
	json_object_set_new(o, "kind", json_string(m->kind));
	if (m->line)
		json_object_set_new(o, "line", json_stringn(m->line, strlen(m->line)));
	if (m->session)
		json_object_set_new(o, "session", json_string(m->session));
	json_object_set_new(o, "time", json_integer((json_int_t)now));
	json_object_set_new(o, "status", json_integer(m->status));
	if (m->undid)
		json_object_set_new(o, "undid", json_string(m->undid));
	json_t *nk = json_object();
	for (size_t i = 0; i < s->not_kept.len; i++) {
		const char *e = s->not_kept.items[i];
		const char *sep = strchr(e, '\x1f');
		char *path = xstrndup(e, (size_t)(sep - e));
		json_object_set_new(nk, path, json_string(sep + 1));
		free(path);
	}
	json_object_set_new(o, "not_kept", nk);
	/* what changed but was not kept: the log says so */
	if (s->pending_notes && s->pending_notes->len) {
		json_t *notes = json_object();
		for (size_t i = 0; i < s->pending_notes->len; i++)
			if (s->pending_notes->items[i].change == STORE_NOT_KEPT)
				json_object_set_new(notes, s->pending_notes->items[i].path,
				                    json_string(s->pending_notes->items[i].why ? s->pending_notes->items[i].why : ""));
		json_object_set_new(o, "not_kept_changes", notes);
	}
	json_object_set(o, "modes", modes ? modes : s->modes);
	char *js = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(o);
	struct strbuf msg;
	strbuf_init(&msg);
	strbuf_adds(&msg, m->kind);
	if (m->line) {
		strbuf_adds(&msg, ": ");
		size_t n = strcspn(m->line, "\n");
		strbuf_addmem(&msg, m->line, n > 72 ? 72 : n);
	}
	strbuf_adds(&msg, "\n\n");
	strbuf_adds(&msg, js ? js : "{}");
	strbuf_addc(&msg, '\n');
	free(js);
	const git_commit *parents[1] = {par};
	if (git_commit_create(out, s->w, NULL, sig, sig, NULL, msg.data, tree, par ? 1 : 0, parents) != 0)
		*err = git_err("cannot write a checkpoint");
	else
		rc = 0;
	strbuf_free(&msg);
out:
	git_signature_free(sig);
	git_commit_free(par);
	git_tree_free(tree);
	return rc;
}

/* At first sight of a project nested in another (sbsh_store_withhold_list):
 * *out becomes a commit of tree without its .agentcommands.json, which a
 * session of the outer project may have planted, so that only the human's
 * accept makes the list count. *out is left as it is when there is none. */
static void accepted_without_list(struct store *s, const git_oid *tree_id, const struct store_meta *m, git_oid *out)
{
	git_repository *was = s->w;
	s->w = s->repo; /* two objects: written loose, not into the bulk pack */
	git_tree *tree = NULL;
	git_tree_entry *te = NULL;
	if (git_tree_lookup(&tree, s->repo, tree_id) == 0 && git_tree_entry_bypath(&te, tree, ".agentcommands.json") == 0) {
		git_tree_update rm = {.action = GIT_TREE_UPDATE_REMOVE, .path = ".agentcommands.json"};
		git_oid without, made;
		char *err = NULL;
		if (git_tree_create_updated(&without, s->repo, tree, 1, &rm) == 0 &&
		    make_commit(s, &without, NULL, m, NULL, &made, &err) == 0)
			*out = made;
		free(err);
	}
	git_tree_entry_free(te);
	git_tree_free(tree);
	s->w = was;
}

void store_withhold_list(struct store *s)
{
	s->withhold_list = true;
}

static int move_ref(struct store *s, const char *name, const git_oid *id, const git_oid *expected, const char *why,
                    char **err)
{
	git_reference *ref = NULL;
	int e = git_reference_create_matching(&ref, s->repo, name, id, 1, expected, why);
	git_reference_free(ref);
	if (e == 0 && strcmp(name, HEAD_REF) == 0)
		git_oid_cpy(&s->seen_head, id);
	if (e != 0) {
		*err = git_err("cannot move the store's head");
		return -1;
	}
	return 0;
}

/* ---- what is kept ---------------------------------------------------- */

static struct decision *find_decision(struct store *s, const char *rel)
{
	for (size_t i = 0; i < s->ndecided; i++)
		if (strcmp(s->decided[i].rel, rel) == 0)
			return &s->decided[i];
	return NULL;
}

/* Counts files and bytes under abs, stopping past the limits. */
static void measure(const char *abs, uint64_t *files, uint64_t *bytes, const struct store_limits *l, int depth)
{
	DIR *d = opendir(abs);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d)) && *files <= l->max_folder_files && *bytes <= l->max_folder_bytes && depth < 64) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		struct stat st;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			char *sub = xasprintf("%s/%s", abs, de->d_name);
			measure(sub, files, bytes, l, depth + 1);
			free(sub);
		} else {
			(*files)++;
			*bytes += (uint64_t)st.st_size;
		}
	}
	closedir(d);
}

bool store_folder_kept(struct store *s, const char *rel, const char **why)
{
	const char *name = strrchr(rel, '/');
	name = name ? name + 1 : rel;
	if (strcmp(name, ".git") == 0) {
		*why = "git's own folder";
		return false;
	}
	struct decision *d = find_decision(s, rel);
	if (d) {
		*why = d->why;
		return d->why == NULL;
	}
	bool heavy = false;
	for (size_t i = 0; i < sizeof heavy_names / sizeof *heavy_names; i++)
		heavy = heavy || strcmp(name, heavy_names[i]) == 0;
	int ignored = 0;
	if (!heavy && s->project) {
		char *dir = xasprintf("%s/", rel);
		if (git_ignore_path_is_ignored(&ignored, s->project, dir) != 0)
			ignored = 0;
		free(dir);
	}
	char *verdict = NULL;
	if (heavy || ignored) {
		uint64_t files = 0, bytes = 0;
		char *abs = abs_path(s, rel);
		measure(abs, &files, &bytes, &s->lim, 0);
		free(abs);
		const char *what = ignored ? "ignored" : "a regenerable folder";
		if (files > s->lim.max_folder_files)
			verdict = xasprintf("%s of more than %llu files: reinstall or rebuild it", what,
			                    (unsigned long long)s->lim.max_folder_files);
		else if (bytes > s->lim.max_folder_bytes)
			verdict = xasprintf("%s of more than %llu MiB: reinstall or rebuild it", what,
			                    (unsigned long long)(s->lim.max_folder_bytes >> 20));
	}
	if (s->ndecided == s->capdecided) {
		s->capdecided = s->capdecided ? s->capdecided * 2 : 16;
		s->decided = xreallocarray(s->decided, s->capdecided, sizeof *s->decided);
	}
	s->decided[s->ndecided++] = (struct decision){xstrdup(rel), verdict};
	*why = verdict;
	return verdict == NULL;
}

static bool nk_find(struct store *s, const char *rel, size_t *at)
{
	size_t n = strlen(rel);
	for (size_t i = 0; i < s->not_kept.len; i++) {
		const char *e = s->not_kept.items[i];
		if (strncmp(e, rel, n) == 0 && e[n] == '\x1f') {
			*at = i;
			return true;
		}
	}
	return false;
}

static void nk_note(struct store *s, const char *rel, const char *why)
{
	size_t at;
	if (nk_find(s, rel, &at))
		return;
	strvec_push_owned(&s->not_kept, xasprintf("%s\x1f%s", rel, why));
	s->not_kept_changed = true;
	if (s->nk_changes)
		store_changes_add(s->nk_changes, rel, STORE_NOT_KEPT, why);
}

/* Forgets not-kept entries at or under rel that are gone from disk. */
static void nk_forget_gone(struct store *s, const char *rel)
{
	for (size_t i = 0; i < s->not_kept.len;) {
		char *e = s->not_kept.items[i];
		char *sep = strchr(e, '\x1f');
		*sep = 0;
		bool under = rel_within(e, rel);
		struct stat st;
		char *abs = under ? abs_path(s, e) : NULL;
		bool gone = under && lstat(abs, &st) != 0;
		free(abs);
		if (gone && s->nk_changes) {
			char *why = xasprintf("deleted, and it was not kept (%s)", sep + 1);
			store_changes_add(s->nk_changes, e, STORE_NOT_KEPT, why);
			free(why);
		}
		*sep = '\x1f';
		if (gone) {
			free(e);
			memmove(&s->not_kept.items[i], &s->not_kept.items[i + 1], (s->not_kept.len - i - 1) * sizeof(char *));
			s->not_kept.items[--s->not_kept.len] = NULL;
			s->not_kept_changed = true;
		} else {
			i++;
		}
	}
}

/* ---- the stat cache and the walk ------------------------------------ */

static bool stat_matches(const git_index_entry *e, const struct stat *st)
{
	return e->mtime.seconds == (int32_t)st->st_mtim.tv_sec && e->mtime.nanoseconds == (uint32_t)st->st_mtim.tv_nsec &&
	       e->ctime.seconds == (int32_t)st->st_ctim.tv_sec && e->ctime.nanoseconds == (uint32_t)st->st_ctim.tv_nsec &&
	       e->file_size == (uint32_t)st->st_size && e->ino == (uint32_t)st->st_ino && e->dev == (uint32_t)st->st_dev;
}

static uint32_t git_mode_of(const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		return GIT_FILEMODE_LINK;
	return (st->st_mode & 0111) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
}

/* From now on objects go to memory, to be written as one pack. */
static void start_bulk(struct store *s)
{
	if (s->bulk)
		s->w = s->bulk;
}

static void drop_bulk(struct store *s)
{
	if (s->w == s->bulk && s->mempack)
		git_mempack_reset(s->mempack);
	s->w = s->repo;
}

/* Both handles see the packs written since they last looked. */
static void refresh_odbs(struct store *s)
{
	git_repository *repos[2] = {s->repo, s->bulk};
	for (int i = 0; i < 2; i++) {
		git_odb *odb = NULL;
		if (repos[i] && git_repository_odb(&odb, repos[i]) == 0)
			git_odb_refresh(odb);
		git_odb_free(odb);
	}
}

/* Writes what is in memory as one pack in the store. */
static int flush_bulk(struct store *s, char **err)
{
	if (s->w != s->bulk || !s->mempack)
		return 0;
	git_buf pack = {0};
	git_odb *odb = NULL;
	git_odb_writepack *wp = NULL;
	git_indexer_progress stats;
	memset(&stats, 0, sizeof stats);
	int rc = -1;
	if (git_mempack_dump(&pack, s->bulk, s->mempack) != 0 || git_repository_odb(&odb, s->repo) != 0) {
		*err = git_err("cannot pack the checkpoint");
		goto out;
	}
	/* a pack of no objects is a 12-byte header and a 20-byte sum */
	if (pack.size > 32 && (git_odb_write_pack(&wp, odb, NULL, NULL) != 0 || wp->append(wp, pack.ptr, pack.size, &stats) != 0 ||
	                       wp->commit(wp, &stats) != 0)) {
		*err = git_err("cannot write the checkpoint's pack");
		goto out;
	}
	refresh_odbs(s);
	rc = 0;
out:
	if (wp)
		wp->free(wp);
	git_odb_free(odb);
	git_buf_dispose(&pack);
	git_mempack_reset(s->mempack);
	s->w = s->repo;
	return rc;
}

static void touch(struct store *s, const char *rel)
{
	strvec_push(&s->touched, rel);
}

static void index_remove_noted(struct store *s, const char *rel)
{
	if (git_index_get_bypath(s->index, rel, 0)) {
		touch(s, rel);
		git_index_remove(s->index, rel, 0);
	}
}

/* Removes the entries under folder rel ("" : all), noting each. */
static void index_remove_dir_noted(struct store *s, const char *rel)
{
	size_t pos = 0;
	char *prefix = *rel ? xasprintf("%s/", rel) : xstrdup("");
	if (!*prefix || git_index_find_prefix(&pos, s->index, prefix) == 0) {
		size_t n = git_index_entrycount(s->index), plen = strlen(prefix);
		for (size_t i = pos; i < n; i++) {
			const git_index_entry *e = git_index_get_byindex(s->index, i);
			if (!e || strncmp(e->path, prefix, plen) != 0)
				break;
			touch(s, e->path);
		}
	}
	free(prefix);
	if (*rel)
		git_index_remove_directory(s->index, rel, 0);
	else
		git_index_clear(s->index);
}

/* Records one file or link from its stat. Returns 0, or -1 with *err. */
static int update_file(struct store *s, const char *rel, const struct stat *st, char **err)
{
	const git_index_entry *old = git_index_get_bypath(s->index, rel, 0);
	uint32_t mode = git_mode_of(st);
	s->files_seen++;
	if (old && old->mode == mode && stat_matches(old, st))
		return 0;
	char perm[8];
	unsigned bits = (unsigned)(st->st_mode & 07777);
	snprintf(perm, sizeof perm, "%o", bits);
	json_t *had = json_object_get(s->modes, rel);
	if (S_ISREG(st->st_mode) && bits != 0644 && bits != 0755) {
		if (!json_is_string(had) || strcmp(json_string_value(had), perm) != 0) {
			json_object_set_new(s->modes, rel, json_string(perm));
			s->modes_changed = true;
			if (s->nk_changes && old)
				store_changes_add(s->nk_changes, rel, STORE_MODIFIED, NULL);
		}
	} else if (had) {
		json_object_del(s->modes, rel);
		s->modes_changed = true;
	}
	if (S_ISREG(st->st_mode) && (uint64_t)st->st_size > s->lim.max_file_bytes) {
		if (old)
			index_remove_noted(s, rel);
		char *why = xasprintf("a file of %llu MiB, above checkpoint_max_file",
		                      (unsigned long long)((uint64_t)st->st_size >> 20));
		nk_note(s, rel, why);
		free(why);
		return 0;
	}
	git_index_entry e;
	memset(&e, 0, sizeof e);
	char *abs = abs_path(s, rel);
	int rc = -1;
	if (S_ISLNK(st->st_mode)) {
		char target[4096];
		ssize_t n = readlink(abs, target, sizeof target);
		if (n >= 0 && git_blob_create_from_buffer(&e.id, s->w, target, (size_t)n) == 0)
			rc = 0;
	} else if (git_blob_create_from_disk(&e.id, s->w, abs) == 0) {
		rc = 0;
	}
	free(abs);
	if (rc != 0) {
		/* Gone or unreadable since the stat: the next look decides. */
		if (old)
			index_remove_noted(s, rel);
		return 0;
	}
	e.mode = mode;
	e.path = rel;
	e.file_size = (uint32_t)st->st_size;
	e.ino = (uint32_t)st->st_ino;
	e.dev = (uint32_t)st->st_dev;
	e.ctime.seconds = (int32_t)st->st_ctim.tv_sec;
	e.ctime.nanoseconds = (uint32_t)st->st_ctim.tv_nsec;
	e.mtime.seconds = (int32_t)st->st_mtim.tv_sec;
	e.mtime.nanoseconds = (uint32_t)st->st_mtim.tv_nsec;
	/* A file changed within the clock's grain of now may change again
	 * with the same stat: such an entry is read again next time. */
	if (st->st_mtim.tv_sec >= time(NULL) - 2)
		e.mtime.seconds = 0;
	bool same = old && old->mode == e.mode && git_oid_equal(&old->id, &e.id);
	if (!same)
		touch(s, rel);
	if (git_index_add(s->index, &e) != 0) {
		/* A name git cannot hold: recorded as not kept. */
		nk_note(s, rel, "a name git cannot store");
		(void)err;
	}
	return 0;
}

static void modes_forget(struct store *s, const char *rel)
{
	const char *key;
	json_t *v;
	void *tmp;
	json_object_foreach_safe(s->modes, tmp, key, v) {
		if (rel_within(key, rel)) {
			json_object_del(s->modes, key);
			s->modes_changed = true;
		}
	}
}

static void remove_under(struct store *s, const char *rel)
{
	modes_forget(s, rel);
	if (*rel)
		index_remove_noted(s, rel);
	index_remove_dir_noted(s, rel);
}

/* Drops index entries under rel whose file is gone, or is no longer a
 * file or link, or now lies in a folder that is not kept. */
static void drop_stale(struct store *s, const char *rel)
{
	size_t pos = 0;
	char *prefix = *rel ? xasprintf("%s/", rel) : xstrdup("");
	if (*prefix && git_index_find_prefix(&pos, s->index, prefix) != 0) {
		free(prefix);
		return;
	}
	struct strvec gone;
	strvec_init(&gone);
	size_t n = git_index_entrycount(s->index);
	for (size_t i = pos; i < n; i++) {
		const git_index_entry *e = git_index_get_byindex(s->index, i);
		if (!e || strncmp(e->path, prefix, strlen(prefix)) != 0)
			break;
		struct stat st;
		char *abs = abs_path(s, e->path);
		bool keep = lstat(abs, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode));
		free(abs);
		if (keep) {
			/* under a folder decided not kept? */
			char *p = xstrdup(e->path);
			for (char *slash = strrchr(p, '/'); slash && keep; slash = strrchr(p, '/')) {
				*slash = 0;
				const char *why;
				if (rel_within(p, rel) && !store_folder_kept(s, p, &why))
					keep = false;
			}
			free(p);
		}
		if (!keep)
			strvec_push(&gone, e->path);
	}
	for (size_t i = 0; i < gone.len; i++)
		index_remove_noted(s, gone.items[i]);
	strvec_free(&gone);
	free(prefix);
}

static int walk(struct store *s, const char *rel, int depth, char **err)
{
	char *abs = abs_path(s, rel);
	DIR *d = opendir(abs);
	free(abs);
	if (!d)
		return 0;
	int rc = 0;
	struct dirent *de;
	while (rc == 0 && (de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		struct stat st;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		char *child = join_rel(rel, de->d_name);
		if (S_ISDIR(st.st_mode)) {
			const char *why = NULL;
			if (store_folder_kept(s, child, &why)) {
				if (depth < 256)
					rc = walk(s, child, depth + 1, err);
			} else if (strcmp(de->d_name, ".git") != 0) {
				nk_note(s, child, why);
			}
		} else if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) {
			rc = update_file(s, child, &st, err);
			if (s->files_seen > s->lim.max_files) {
				*err = xasprintf("more than %llu files to keep (checkpoint_max_files): no checkpoints here",
				                 (unsigned long long)s->lim.max_files);
				rc = -1;
			}
		}
		free(child);
	}
	closedir(d);
	return rc;
}

/* Brings the index up to date with one path (or everything under it). */
static int refresh_path(struct store *s, const char *rel, char **err)
{
	if (*rel) {
		/* Under a folder that is not kept, or a .git: not ours to look at. */
		char *p = xstrdup(rel);
		bool skip = false;
		for (char *slash = strrchr(p, '/'); slash && !skip; slash = strrchr(p, '/')) {
			*slash = 0;
			const char *why;
			skip = !store_folder_kept(s, p, &why);
		}
		free(p);
		if (skip)
			return 0;
	}
	char *abs = abs_path(s, rel);
	struct stat st;
	int r = lstat(abs, &st);
	free(abs);
	nk_forget_gone(s, rel);
	if (r != 0) {
		remove_under(s, rel);
		return 0;
	}
	if (S_ISDIR(st.st_mode)) {
		const char *why = NULL;
		if (*rel && !store_folder_kept(s, rel, &why)) {
			remove_under(s, rel);
			const char *name = strrchr(rel, '/');
			if (strcmp(name ? name + 1 : rel, ".git") != 0)
				nk_note(s, rel, why);
			return 0;
		}
		index_remove_noted(s, rel); /* a file that became a folder */
		start_bulk(s);
		s->files_seen = 0;
		int rc = walk(s, rel, 0, err);
		drop_stale(s, rel);
		return rc;
	}
	if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) {
		if (*rel)
			index_remove_dir_noted(s, rel); /* a folder that became a file */
		return update_file(s, rel, &st, err);
	}
	remove_under(s, rel);
	return 0;
}

/* ---- diffs between trees --------------------------------------------- */

static int diff_trees(struct store *s, git_tree *a, git_tree *b, char *const *paths, size_t npaths,
                      git_diff **out)
{
	git_diff_options o;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.pathspec.strings = (char **)paths;
	o.pathspec.count = npaths;
	return git_diff_tree_to_tree(out, s->repo, a, b, &o);
}

static void changes_of_diff(git_diff *d, struct store_changes *out)
{
	size_t n = git_diff_num_deltas(d);
	for (size_t i = 0; i < n; i++) {
		const git_diff_delta *dd = git_diff_get_delta(d, i);
		enum store_change c = dd->status == GIT_DELTA_ADDED     ? STORE_ADDED
		                      : dd->status == GIT_DELTA_DELETED ? STORE_DELETED
		                                                        : STORE_MODIFIED;
		const char *path = dd->status == GIT_DELTA_DELETED ? dd->old_file.path : dd->new_file.path;
		/* a file that became a link (or back) is one change, not two */
		if (i > 0 && out->len && strcmp(out->items[out->len - 1].path, path) == 0) {
			out->items[out->len - 1].change = STORE_MODIFIED;
			continue;
		}
		store_changes_add(out, path, c, NULL);
	}
}

/* Adds a MODIFIED change for each path (under one of paths, or any when
 * npaths is 0) whose recorded permissions differ between a and b and that
 * out does not list yet. */
static void add_mode_changes(json_t *a, json_t *b, char *const *paths, size_t npaths, struct store_changes *out)
{
	json_t *sides[2] = {a, b};
	for (int side = 0; side < 2; side++) {
		const char *key;
		json_t *v;
		json_object_foreach(sides[side], key, v) {
			if (json_equal(json_object_get(a, key), json_object_get(b, key)))
				continue;
			bool selected = npaths == 0;
			for (size_t i = 0; i < npaths && !selected; i++)
				selected = rel_within(key, paths[i]);
			bool listed = false;
			for (size_t i = 0; i < out->len && !listed; i++)
				listed = strcmp(out->items[i].path, key) == 0;
			if (selected && !listed)
				store_changes_add(out, key, STORE_MODIFIED, NULL);
		}
	}
}

/* ---- checkpoints ---------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Head's tree with the touched paths as the index has them now; *changes
 * gets what differs. Returns 0, or -1 (then the index's tree is written). */
static int touched_tree(struct store *s, git_tree *head_tree, git_oid *out, struct store_changes *changes)
{
	size_t n = s->touched.len;
	qsort(s->touched.items, n, sizeof *s->touched.items, cmp_str);
	git_tree_update *ups = xcalloc(n + 1, sizeof *ups);
	size_t nu = 0;
	for (size_t i = 0; i < n; i++) {
		const char *path = s->touched.items[i];
		if (i > 0 && strcmp(path, s->touched.items[i - 1]) == 0)
			continue;
		const git_index_entry *e = git_index_get_bypath(s->index, path, 0);
		git_tree_entry *te = NULL;
		bool in_head = git_tree_entry_bypath(&te, head_tree, path) == 0;
		bool head_blob = in_head && git_tree_entry_type(te) == GIT_OBJECT_BLOB;
		bool same = e && head_blob && git_oid_equal(&e->id, git_tree_entry_id(te)) &&
		            (uint32_t)git_tree_entry_filemode(te) == e->mode;
		git_tree_entry_free(te);
		if (same || (!e && !in_head))
			continue;
		if (in_head && !head_blob) {
			/* a folder in head becomes a file: not for an update */
			free(ups);
			return -1;
		}
		if (e) {
			ups[nu] = (git_tree_update){.action = GIT_TREE_UPDATE_UPSERT, .filemode = (git_filemode_t)e->mode,
			                            .path = path};
			git_oid_cpy(&ups[nu].id, &e->id);
			store_changes_add(changes, path, in_head ? STORE_MODIFIED : STORE_ADDED, NULL);
		} else {
			ups[nu] = (git_tree_update){.action = GIT_TREE_UPDATE_REMOVE, .path = path};
			store_changes_add(changes, path, STORE_DELETED, NULL);
		}
		nu++;
	}
	int rc = 0;
	if (nu == 0)
		git_oid_cpy(out, git_tree_id(head_tree));
	else if (git_tree_create_updated(out, s->repo, head_tree, nu, ups) != 0)
		rc = -1;
	free(ups);
	return rc;
}

int store_checkpoint(struct store *s, char *const *dirty, size_t ndirty, bool all, const struct store_meta *meta,
                     struct store_changes *changed, bool *made, char out_hex[41], char **err)
{
	*made = false;
	if (store_lock(s, err) != 0)
		return -1;
	int rc = -1;
	git_oid head, tree_id;
	bool have_head = ref_id(s, HEAD_REF, &head) == 0;
	git_tree *head_tree = have_head ? commit_tree(s, &head) : NULL;
	if (have_head && !head_tree) {
		*err = git_err("the store's head is unreadable");
		goto out;
	}
	struct store_changes nk = {0};
	s->nk_changes = &nk;
	s->not_kept_changed = false;
	s->modes_changed = false;
	s->files_seen = 0;
	for (size_t i = 0; i < s->touched.len; i++)
		free(s->touched.items[i]);
	s->touched.len = 0;
	int r = 0;
	if (all || !have_head || ndirty > 64)
		start_bulk(s);
	if (all || !have_head) {
		r = refresh_path(s, "", err);
	} else {
		for (size_t i = 0; i < ndirty && r == 0; i++)
			r = refresh_path(s, dirty[i], err);
	}
	s->nk_changes = NULL;
	if (r != 0) {
		store_changes_free(&nk);
		if (have_head)
			reset_index_to(s, &head); /* what was half done is dropped */
		drop_bulk(s);
		goto out;
	}
	/* A line's few paths: head's tree with them updated. A walk of the
	 * whole project (or an update libgit2 refuses): the index's tree. */
	struct store_changes inc = {0};
	bool incremental = have_head && !all && s->w == s->repo && touched_tree(s, head_tree, &tree_id, &inc) == 0;
	if (!incremental)
		store_changes_free(&inc);
	if (!incremental && git_index_write_tree_to(&tree_id, s->index, s->w) != 0) {
		*err = git_err("cannot write a tree");
		store_changes_free(&nk);
		if (have_head)
			reset_index_to(s, &head);
		drop_bulk(s);
		goto out;
	}
	bool same = head_tree && git_oid_equal(&tree_id, git_tree_id(head_tree));
	if (same && !s->not_kept_changed && !s->modes_changed) {
		store_changes_free(&inc);
		drop_bulk(s); /* every object of head's tree is in the store already */
		s->index_dirty = true; /* stats refreshed */
		store_changes_free(&nk);
		rc = 0;
		goto out;
	}
	git_oid commit;
	s->pending_notes = &nk;
	int made_commit = make_commit(s, &tree_id, have_head ? &head : NULL, meta, NULL, &commit, err);
	s->pending_notes = NULL;
	if (made_commit == 0)
		made_commit = flush_bulk(s, err);
	if (made_commit != 0 ||
	    move_ref(s, HEAD_REF, &commit, have_head ? &head : NULL, meta->kind, err) != 0) {
		store_changes_free(&nk);
		store_changes_free(&inc);
		if (have_head)
			reset_index_to(s, &head);
		drop_bulk(s);
		goto out;
	}
	git_oid_cpy(&s->index_head, &commit);
	s->have_index_head = true;
	s->index_dirty = true;
	git_oid acc;
	if (ref_id(s, ACCEPTED_REF, &acc) != 0) {
		git_oid first = commit;
		if (s->withhold_list)
			accepted_without_list(s, &tree_id, meta, &first);
		move_ref(s, ACCEPTED_REF, &first, NULL, "first sight", err);
	}
	if (changed && incremental) {
		*changed = inc;
		inc = (struct store_changes){0};
	} else if (changed) {
		git_tree *new_tree = commit_tree(s, &commit);
		git_diff *d = NULL;
		if (diff_trees(s, head_tree, new_tree, NULL, 0, &d) == 0)
			changes_of_diff(d, changed);
		git_diff_free(d);
		git_tree_free(new_tree);
	}
	store_changes_free(&inc);
	if (changed) {
		size_t from_trees = changed->len;
		for (size_t i = 0; i < nk.len; i++) {
			bool dup = false;
			for (size_t j = 0; j < from_trees && !dup; j++)
				dup = strcmp(changed->items[j].path, nk.items[i].path) == 0;
			if (!dup)
				store_changes_add(changed, nk.items[i].path, nk.items[i].change, nk.items[i].why);
		}
	}
	store_changes_free(&nk);
	git_oid_tostr(out_hex, 41, &commit);
	*made = true;
	rc = 0;
out:
	git_tree_free(head_tree);
	store_unlock(s);
	return rc;
}

int store_accepted_content(struct store *s, const char *rel, const char *content, size_t len, bool *same,
                           char **accepted, size_t *accepted_len)
{
	*same = false;
	*accepted = NULL;
	*accepted_len = 0;
	git_tree *acc = ref_tree(s, ACCEPTED_REF);
	git_tree_entry *te = NULL;
	int rc = 0;
	if (acc && git_tree_entry_bypath(&te, acc, rel) == 0 && git_tree_entry_type(te) == GIT_OBJECT_BLOB &&
	    git_tree_entry_filemode(te) != GIT_FILEMODE_LINK) {
		git_oid id;
		git_blob *b = NULL;
		rc = 1;
		if (git_odb_hash(&id, content, len, GIT_OBJECT_BLOB) == 0 && git_oid_equal(&id, git_tree_entry_id(te)))
			*same = true;
		else if (git_blob_lookup(&b, s->repo, git_tree_entry_id(te)) == 0) {
			*accepted_len = (size_t)git_blob_rawsize(b);
			*accepted = xmalloc(*accepted_len + 1);
			memcpy(*accepted, git_blob_rawcontent(b), *accepted_len);
			(*accepted)[*accepted_len] = 0;
		} else {
			rc = 0;
		}
		git_blob_free(b);
	}
	git_tree_entry_free(te);
	git_tree_free(acc);
	return rc;
}

bool store_not_kept(const struct store *s, const char *rel)
{
	for (size_t i = 0; i < s->not_kept.len; i++) {
		const char *e = s->not_kept.items[i];
		size_t n = strcspn(e, "\x1f");
		if (strncmp(rel, e, n) == 0 && (rel[n] == '\0' || rel[n] == '/'))
			return true;
	}
	return false;
}

int64_t store_accepted_time(struct store *s)
{
	git_oid id;
	git_commit *cm = NULL;
	int64_t t = 0;
	if (ref_id(s, ACCEPTED_REF, &id) == 0 && git_commit_lookup(&cm, s->repo, &id) == 0)
		t = (int64_t)git_commit_time(cm);
	git_commit_free(cm);
	return t;
}

bool store_accepted_has(struct store *s, const char *rel)
{
	git_tree *acc = ref_tree(s, ACCEPTED_REF);
	git_tree_entry *te = NULL;
	bool has = acc && git_tree_entry_bypath(&te, acc, rel) == 0 && git_tree_entry_type(te) == GIT_OBJECT_BLOB;
	git_tree_entry_free(te);
	git_tree_free(acc);
	return has;
}

/* ---- pruning ---------------------------------------------------------- */

/* The bytes the store's objects take on disk. */
static uint64_t objects_bytes(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	uint64_t total = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		struct stat st;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth < 2) {
			char *sub = xasprintf("%s/%s", dir, de->d_name);
			total += objects_bytes(sub, depth + 1);
			free(sub);
		} else if (S_ISREG(st.st_mode)) {
			total += (uint64_t)st.st_blocks * 512;
		}
	}
	closedir(d);
	return total;
}

uint64_t store_bytes(struct store *s)
{
	char *dir = xasprintf("%s/objects", s->git_dir);
	uint64_t n = objects_bytes(dir, 0);
	free(dir);
	return n;
}

/* Rewrites the hex ids listed in undid through the old -> new map. */
static char *map_undid(const char *undid, struct strvec *old_ids, struct strvec *new_ids)
{
	struct strbuf sb;
	strbuf_init(&sb);
	char *copy = xstrdup(undid);
	for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
		const char *to = NULL;
		for (size_t i = 0; i < old_ids->len && !to; i++)
			if (strcmp(old_ids->items[i], tok) == 0)
				to = new_ids->items[i];
		if (!to)
			continue; /* pruned itself: nothing to say of it */
		if (sb.len)
			strbuf_addc(&sb, ' ');
		strbuf_adds(&sb, to);
	}
	free(copy);
	char *out = strbuf_detach(&sb);
	return out ? out : xstrdup("");
}

/* Writes one pack of everything head and the accepted state reach, and
 * removes every other pack and loose object. */
static int repack(struct store *s, char **err)
{
	git_packbuilder *pb = NULL;
	git_revwalk *walk = NULL;
	int rc = -1;
	char *pack_dir = xasprintf("%s/objects/pack", s->git_dir);
	if (git_packbuilder_new(&pb, s->repo) != 0 || git_revwalk_new(&walk, s->repo) != 0 ||
	    git_revwalk_push_ref(walk, HEAD_REF) != 0 || git_revwalk_push_ref(walk, ACCEPTED_REF) != 0 ||
	    git_packbuilder_insert_walk(pb, walk) != 0 || git_packbuilder_write(pb, pack_dir, 0, NULL, NULL) != 0) {
		*err = git_err("cannot repack the store");
		goto out;
	}
	char keep[GIT_OID_HEXSZ + 1];
	git_oid_tostr(keep, sizeof keep, git_packbuilder_hash(pb));
	DIR *d = opendir(pack_dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "pack-", 5) == 0 && !strstr(de->d_name, keep))
			unlinkat(dirfd(d), de->d_name, 0);
	}
	if (d)
		closedir(d);
	char *objects = xasprintf("%s/objects", s->git_dir);
	d = opendir(objects);
	while (d && (de = readdir(d))) {
		if (strlen(de->d_name) != 2 || !isxdigit((unsigned char)de->d_name[0]))
			continue;
		char *sub = xasprintf("%s/%s", objects, de->d_name);
		DIR *sd = opendir(sub);
		struct dirent *se;
		while (sd && (se = readdir(sd)))
			if (se->d_name[0] != '.')
				unlinkat(dirfd(sd), se->d_name, 0);
		if (sd)
			closedir(sd);
		rmdir(sub);
		free(sub);
	}
	if (d)
		closedir(d);
	free(objects);
	refresh_odbs(s);
	rc = 0;
out:
	git_revwalk_free(walk);
	git_packbuilder_free(pb);
	free(pack_dir);
	return rc;
}

int store_prune(struct store *s, char **err)
{
	if (store_lock(s, err) != 0)
		return -1;
	int rc = -1, dropped = 0;
	git_oid head;
	git_commit **chain = NULL;
	size_t n = 0, cap = 0;
	struct strvec sessions, old_ids, new_ids;
	strvec_init(&sessions);
	strvec_init(&old_ids);
	strvec_init(&new_ids);
	if (ref_id(s, HEAD_REF, &head) != 0) {
		rc = 0;
		goto out;
	}
	/* the chain, newest first */
	git_commit *c = NULL;
	if (git_commit_lookup(&c, s->repo, &head) != 0) {
		*err = git_err("cannot read the store");
		goto out;
	}
	while (c) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			chain = xreallocarray(chain, cap, sizeof *chain);
		}
		chain[n++] = c;
		git_commit *p = NULL;
		if (git_commit_parentcount(c) == 0 || git_commit_parent(&p, c, 0) != 0)
			p = NULL;
		c = p;
	}
	/* keep: the checkpoints of the newest keep_sessions sessions */
	size_t cut = n;
	for (size_t i = 0; i < n && cut == n; i++) {
		json_t *meta = commit_meta(chain[i]);
		json_t *sv = json_object_get(meta, "session");
		const char *sid = json_is_string(sv) ? json_string_value(sv) : NULL;
		bool known = false;
		for (size_t j = 0; sid && j < sessions.len && !known; j++)
			known = strcmp(sessions.items[j], sid) == 0;
		if (sid && !known) {
			if (sessions.len >= s->lim.keep_sessions)
				cut = i;
			else
				strvec_push(&sessions, sid);
		}
		json_decref(meta);
	}
	/* and at most keep_bytes: the older half goes while the store is larger */
	if (cut == n && n > 2 && store_bytes(s) > s->lim.keep_bytes)
		cut = (n + 1) / 2;
	if (cut >= n || cut == 0) {
		rc = 0;
		goto out;
	}
	dropped = (int)(n - cut);
	int64_t until = (int64_t)git_commit_time(chain[cut]);
	/* the kept ones again, oldest first, the oldest without a parent */
	git_oid parent;
	bool have_parent = false;
	for (size_t i = cut; i-- > 0;) {
		git_commit *k = chain[i];
		json_t *meta = commit_meta(k);
		if (!meta)
			meta = json_object();
		if (i == cut - 1) {
			json_t *pr = json_object();
			json_object_set_new(pr, "checkpoints", json_integer(dropped));
			json_object_set_new(pr, "until", json_integer((json_int_t)until));
			json_t *was = json_object_get(meta, "pruned");
			if (json_is_object(was) && json_is_integer(json_object_get(was, "checkpoints")))
				json_object_set_new(pr, "checkpoints",
				                    json_integer(dropped + json_integer_value(json_object_get(was, "checkpoints"))));
			json_object_set_new(meta, "pruned", pr);
		}
		json_t *undid = json_object_get(meta, "undid");
		if (json_is_string(undid)) {
			char *mapped = map_undid(json_string_value(undid), &old_ids, &new_ids);
			json_object_set_new(meta, "undid", json_string(mapped));
			free(mapped);
		}
		char *js = json_dumps(meta, JSON_COMPACT | JSON_SORT_KEYS);
		json_decref(meta);
		const char *msg = git_commit_message(k);
		const char *body = msg ? strstr(msg, "\n\n") : NULL;
		char *text = xasprintf("%.*s\n\n%s\n", body ? (int)(body - msg) : 0, msg ? msg : "", js ? js : "{}");
		free(js);
		git_tree *t = NULL;
		git_commit *par = NULL;
		git_oid made;
		const git_signature *author = git_commit_author(k);
		int e = git_commit_tree(&t, k);
		if (e == 0 && have_parent)
			e = git_commit_lookup(&par, s->repo, &parent);
		const git_commit *parents[1] = {par};
		if (e == 0)
			e = git_commit_create(&made, s->repo, NULL, author, author, NULL, text, t, have_parent ? 1 : 0, parents);
		git_tree_free(t);
		git_commit_free(par);
		free(text);
		if (e != 0) {
			*err = git_err("cannot rewrite the kept checkpoints");
			goto out;
		}
		char old_hex[GIT_OID_HEXSZ + 1], new_hex[GIT_OID_HEXSZ + 1];
		git_oid_tostr(old_hex, sizeof old_hex, git_commit_id(k));
		git_oid_tostr(new_hex, sizeof new_hex, &made);
		strvec_push(&old_ids, old_hex);
		strvec_push(&new_ids, new_hex);
		git_oid_cpy(&parent, &made);
		have_parent = true;
	}
	if (move_ref(s, HEAD_REF, &parent, &head, "prune", err) != 0)
		goto out;
	/* the index mirrors the same tree under its new name */
	if (s->have_index_head && git_oid_equal(&s->index_head, &head))
		git_oid_cpy(&s->index_head, &parent);
	rc = repack(s, err) == 0 ? dropped : -1;
out:
	for (size_t i = 0; i < n; i++)
		git_commit_free(chain[i]);
	free(chain);
	strvec_free(&sessions);
	strvec_free(&old_ids);
	strvec_free(&new_ids);
	store_unlock(s);
	return rc;
}

/* ---- the log ------------------------------------------------------- */

void store_entries_free(struct store_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].kind);
		free(e[i].line);
		free(e[i].session);
		free(e[i].undid);
		store_changes_free(&e[i].changes);
	}
	free(e);
}

static char *meta_string(json_t *meta, const char *key)
{
	json_t *v = json_object_get(meta, key);
	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

static void fill_entry(struct store *s, git_commit *c, struct store_entry *e)
{
	memset(e, 0, sizeof *e);
	git_oid_tostr(e->hex, sizeof e->hex, git_commit_id(c));
	json_t *meta = commit_meta(c);
	e->kind = meta_string(meta, "kind");
	if (!e->kind)
		e->kind = xstrdup("?");
	e->line = meta_string(meta, "line");
	e->session = meta_string(meta, "session");
	e->undid = meta_string(meta, "undid");
	json_t *pr = json_object_get(meta, "pruned");
	if (json_is_object(pr)) {
		e->pruned = json_integer_value(json_object_get(pr, "checkpoints"));
		e->pruned_until = json_integer_value(json_object_get(pr, "until"));
	}
	json_t *st = json_object_get(meta, "status");
	e->status = json_is_integer(st) ? (int)json_integer_value(st) : -1;
	e->time = (int64_t)git_commit_time(c);
	git_tree *t = NULL, *pt = NULL;
	git_commit *parent = NULL;
	git_commit_tree(&t, c);
	if (git_commit_parentcount(c) > 0 && git_commit_parent(&parent, c, 0) == 0)
		git_commit_tree(&pt, parent);
	git_diff *d = NULL;
	if (diff_trees(s, pt, t, NULL, 0, &d) == 0)
		changes_of_diff(d, &e->changes);
	git_diff_free(d);
	/* permissions alone: the messages' modes differ */
	json_t *pmeta = parent ? commit_meta(parent) : NULL;
	add_mode_changes(json_object_get(pmeta, "modes"), json_object_get(meta, "modes"), NULL, 0, &e->changes);
	const char *nkey;
	json_t *nv;
	json_object_foreach(json_object_get(meta, "not_kept_changes"), nkey, nv) {
		store_changes_add(&e->changes, nkey, STORE_NOT_KEPT, json_is_string(nv) ? json_string_value(nv) : NULL);
	}
	json_decref(pmeta);
	json_decref(meta);
	git_tree_free(t);
	git_tree_free(pt);
	git_commit_free(parent);
}

int store_log(struct store *s, size_t max, struct store_entry **out, size_t *n, char **err)
{
	*out = NULL;
	*n = 0;
	git_oid id;
	if (ref_id(s, HEAD_REF, &id) != 0)
		return 0;
	size_t cap = 0;
	git_commit *c = NULL;
	if (git_commit_lookup(&c, s->repo, &id) != 0) {
		*err = git_err("cannot read the store");
		return -1;
	}
	while (c && (max == 0 || *n < max)) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 32;
			*out = xreallocarray(*out, cap, sizeof **out);
		}
		fill_entry(s, c, &(*out)[(*n)++]);
		git_commit *parent = NULL;
		if (git_commit_parentcount(c) == 0 || git_commit_parent(&parent, c, 0) != 0)
			parent = NULL;
		git_commit_free(c);
		c = parent;
	}
	git_commit_free(c);
	return 0;
}

/* ---- status and diff --------------------------------------------------- */

int store_status(struct store *s, struct store_changes *out, struct store_changes *unrecorded,
                 struct store_changes *not_kept, char **err)
{
	git_tree *acc = ref_tree(s, ACCEPTED_REF), *head = ref_tree(s, HEAD_REF);
	int rc = -1;
	git_diff *d = NULL;
	if (diff_trees(s, acc, head, NULL, 0, &d) != 0) {
		*err = git_err("cannot compare checkpoints");
		goto out;
	}
	changes_of_diff(d, out);
	git_diff_free(d);
	d = NULL;
	git_oid acc_id, head_id;
	struct target at = {0}, ht = {0};
	if (ref_id(s, ACCEPTED_REF, &acc_id) == 0)
		target_load(s, &acc_id, &at);
	if (ref_id(s, HEAD_REF, &head_id) == 0)
		target_load(s, &head_id, &ht);
	add_mode_changes(at.modes, ht.modes, NULL, 0, out);
	target_free(&at);
	target_free(&ht);
	for (size_t i = 0; not_kept && i < s->not_kept.len; i++) {
		char *e = xstrdup(s->not_kept.items[i]);
		char *sep = strchr(e, '\x1f');
		*sep = 0;
		store_changes_add(not_kept, e, STORE_NOT_KEPT, sep + 1);
		free(e);
	}
	/* What is on disk against head: a walk with the keeper's stat cache
	 * when it saved one (its entries say what a file held at that stat,
	 * whichever checkpoint it mirrors), read and thrown away. */
	if (unrecorded) {
		if (store_lock(s, err) != 0)
			goto out;
		git_index *mine = s->index, *file = NULL;
		if (git_index_open(&file, s->index_path) == 0 && git_index_entrycount(file) > 0)
			s->index = file;
		s->files_seen = 0;
		char *werr = NULL;
		git_oid tid;
		git_tree *now = NULL;
		start_bulk(s);
		if (refresh_path(s, "", &werr) == 0 && git_index_write_tree_to(&tid, s->index, s->w) == 0 &&
		    git_tree_lookup(&now, s->w, &tid) == 0 && git_diff_tree_to_tree(&d, s->w, head, now, NULL) == 0)
			changes_of_diff(d, unrecorded);
		free(werr);
		git_diff_free(d);
		d = NULL;
		git_tree_free(now);
		drop_bulk(s); /* a status records nothing */
		s->index = mine;
		git_index_free(file);
		if (head)
			reset_index_to(s, &head_id);
		store_unlock(s);
	}
	rc = 0;
out:
	git_tree_free(acc);
	git_tree_free(head);
	return rc;
}

static int print_line(const git_diff_delta *delta, const git_diff_hunk *hunk, const git_diff_line *line, void *payload)
{
	(void)delta;
	(void)hunk;
	struct strbuf *sb = payload;
	if (line->origin == GIT_DIFF_LINE_CONTEXT || line->origin == GIT_DIFF_LINE_ADDITION ||
	    line->origin == GIT_DIFF_LINE_DELETION)
		strbuf_addc(sb, line->origin);
	strbuf_addmem(sb, line->content, line->content_len);
	return 0;
}

int store_diff(struct store *s, char *const *paths, size_t npaths, struct strbuf *out, struct store_changes *files,
               struct strvec *patches, char **err)
{
	git_tree *acc = ref_tree(s, ACCEPTED_REF), *head = ref_tree(s, HEAD_REF);
	git_diff *d = NULL;
	int rc = -1;
	if (diff_trees(s, acc, head, paths, npaths, &d) != 0) {
		*err = git_err("cannot compare checkpoints");
		goto out;
	}
	if (!files) {
		git_diff_print(d, GIT_DIFF_FORMAT_PATCH, print_line, out);
	} else {
		changes_of_diff(d, files);
		size_t n = git_diff_num_deltas(d);
		for (size_t i = 0; i < n; i++) {
			git_patch *p = NULL;
			git_buf b = {0};
			if (git_patch_from_diff(&p, d, i) == 0 && p && git_patch_to_buf(&b, p) == 0)
				strvec_push_owned(patches, xstrndup(b.ptr ? b.ptr : "", b.size));
			else
				strvec_push(patches, "");
			git_buf_dispose(&b);
			git_patch_free(p);
		}
	}
	rc = 0;
out:
	git_diff_free(d);
	git_tree_free(acc);
	git_tree_free(head);
	return rc;
}

/* ---- accept ------------------------------------------------------------ */

struct add_payload {
	git_index *idx;
	const char *base;
};

static int add_tree_entry(const char *root, const git_tree_entry *te, void *payload)
{
	struct add_payload *ap = payload;
	if (git_tree_entry_type(te) != GIT_OBJECT_BLOB)
		return 0;
	char *path = xasprintf("%s/%s%s", ap->base, root, git_tree_entry_name(te));
	git_index_entry e;
	memset(&e, 0, sizeof e);
	e.path = path;
	e.mode = git_tree_entry_filemode(te);
	git_oid_cpy(&e.id, git_tree_entry_id(te));
	git_index_add(ap->idx, &e);
	free(path);
	return 0;
}

/* Copies what tree `from` has at rel (a file, a link, a folder, or
 * nothing) over what idx has there. */
static void take_path(git_index *idx, git_tree *from, const char *rel)
{
	git_index_remove(idx, rel, 0);
	git_index_remove_directory(idx, rel, 0);
	git_tree_entry *te = NULL;
	if (!from || git_tree_entry_bypath(&te, from, rel) != 0)
		return;
	if (git_tree_entry_type(te) == GIT_OBJECT_TREE) {
		git_tree *sub = NULL;
		if (git_tree_lookup(&sub, git_tree_owner(from), git_tree_entry_id(te)) == 0) {
			struct add_payload ap = {idx, rel};
			git_tree_walk(sub, GIT_TREEWALK_PRE, add_tree_entry, &ap);
		}
		git_tree_free(sub);
	} else {
		git_index_entry e;
		memset(&e, 0, sizeof e);
		e.path = rel;
		e.mode = git_tree_entry_filemode(te);
		git_oid_cpy(&e.id, git_tree_entry_id(te));
		git_index_add(idx, &e);
	}
	git_tree_entry_free(te);
}

/* Which of the changes between a and b paths select (all when none). */
static int selected_changes(struct store *s, git_tree *a, git_tree *b, char *const *paths, size_t npaths,
                            struct store_changes *out, char **err)
{
	git_diff *d = NULL;
	git_diff_options o;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.pathspec.strings = (char **)paths;
	o.pathspec.count = npaths;
	if (git_diff_tree_to_tree(&d, s->repo, a, b, &o) != 0) {
		*err = git_err("cannot compare checkpoints");
		return -1;
	}
	changes_of_diff(d, out);
	git_diff_free(d);
	return 0;
}

/* What is on disk at paths (all when none) is recorded first: the human
 * accepts what they see, not only what the last checkpoint holds. A whole
 * walk uses the keeper's saved stat cache, so only changed files are read. */
static int record_disk(struct store *s, char *const *paths, size_t npaths, char **err)
{
	struct store_meta m = {.kind = "review", .line = "accept: what was on disk", .status = -1};
	bool made;
	char hex[41];
	if (npaths)
		return store_checkpoint(s, paths, npaths, false, &m, NULL, &made, hex, err);
	git_index *mine = s->index, *file = NULL;
	if (!s->owns_index && git_index_open(&file, s->index_path) == 0 && git_index_entrycount(file) > 0)
		s->index = file;
	int rc = store_checkpoint(s, NULL, 0, true, &m, NULL, &made, hex, err);
	if (s->index == file) {
		s->index = mine;
		git_oid head;
		if (ref_id(s, HEAD_REF, &head) == 0)
			reset_index_to(s, &head);
	}
	git_index_free(file);
	return rc;
}

int store_accept(struct store *s, char *const *paths, size_t npaths, struct store_changes *done, char **err)
{
	if (store_lock(s, err) != 0)
		return -1;
	if (record_disk(s, paths, npaths, err) != 0) {
		store_unlock(s);
		return -1;
	}
	int rc = -1;
	git_oid head, acc;
	git_tree *acc_tree = NULL, *head_tree = NULL;
	json_t *acc_modes = NULL, *head_modes = NULL;
	git_index *idx = NULL;
	if (ref_id(s, HEAD_REF, &head) != 0 || ref_id(s, ACCEPTED_REF, &acc) != 0) {
		rc = 0; /* nothing recorded yet */
		goto out;
	}
	struct target acc_t, head_t;
	target_load(s, &acc, &acc_t);
	target_load(s, &head, &head_t);
	acc_tree = acc_t.tree;
	head_tree = head_t.tree;
	acc_t.tree = head_t.tree = NULL;
	acc_modes = acc_t.modes ? acc_t.modes : json_object();
	head_modes = head_t.modes ? head_t.modes : json_object();
	if (selected_changes(s, acc_tree, head_tree, paths, npaths, done, err) != 0)
		goto out;
	add_mode_changes(acc_modes, head_modes, paths, npaths, done);
	if (done->len == 0) {
		rc = 0;
		goto out;
	}
	if (npaths == 0) {
		rc = move_ref(s, ACCEPTED_REF, &head, &acc, "accept", err);
		goto out;
	}
	git_oid tree_id, commit;
	if (git_index_new(&idx) != 0 || git_index_read_tree(idx, acc_tree) != 0) {
		*err = git_err("cannot read the accepted state");
		goto out;
	}
	for (size_t i = 0; i < done->len; i++) {
		const char *p = done->items[i].path;
		take_path(idx, head_tree, p);
		json_t *m = json_object_get(head_modes, p);
		if (m)
			json_object_set(acc_modes, p, m);
		else
			json_object_del(acc_modes, p);
	}
	struct store_meta m = {.kind = "accept", .status = -1};
	if (git_index_write_tree_to(&tree_id, idx, s->repo) != 0) {
		*err = git_err("cannot write a tree");
		goto out;
	}
	if (make_commit(s, &tree_id, &acc, &m, acc_modes, &commit, err) != 0)
		goto out;
	rc = move_ref(s, ACCEPTED_REF, &commit, &acc, "accept", err);
out:
	json_decref(acc_modes);
	json_decref(head_modes);
	git_index_free(idx);
	git_tree_free(acc_tree);
	git_tree_free(head_tree);
	store_unlock(s);
	return rc;
}

/* ---- putting files back ---------------------------------------------- */

/* Whether what is on disk at rel is what tree t has there (both absent
 * counts). */
static bool disk_is(struct store *s, git_tree *t, const char *rel)
{
	git_tree_entry *te = NULL;
	bool in_tree = t && git_tree_entry_bypath(&te, t, rel) == 0 && git_tree_entry_type(te) == GIT_OBJECT_BLOB;
	char *abs = abs_path(s, rel);
	struct stat st;
	bool on_disk = lstat(abs, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode));
	bool same = false;
	if (!in_tree || !on_disk) {
		same = in_tree == on_disk;
	} else if (git_mode_of(&st) == (uint32_t)git_tree_entry_filemode(te)) {
		git_oid id;
		if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t n = readlink(abs, target, sizeof target);
			same = n >= 0 && git_odb_hash(&id, target, (size_t)n, GIT_OBJECT_BLOB) == 0 &&
			       git_oid_equal(&id, git_tree_entry_id(te));
		} else {
			same = git_odb_hashfile(&id, abs, GIT_OBJECT_BLOB) == 0 && git_oid_equal(&id, git_tree_entry_id(te));
		}
	}
	free(abs);
	git_tree_entry_free(te);
	return same;
}

static int make_parents(struct store *s, const char *rel)
{
	char *p = xstrdup(rel);
	int rc = 0;
	for (char *slash = strchr(p, '/'); slash && rc == 0; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		char *abs = abs_path(s, p);
		struct stat st;
		if (lstat(abs, &st) != 0)
			rc = mkdir(abs, 0755) == 0 || errno == EEXIST ? 0 : -1;
		else if (!S_ISDIR(st.st_mode))
			rc = -1;
		free(abs);
		*slash = '/';
	}
	free(p);
	return rc;
}

static void remove_empty_parents(struct store *s, const char *rel)
{
	char *p = xstrdup(rel);
	for (char *slash = strrchr(p, '/'); slash; slash = strrchr(p, '/')) {
		*slash = 0;
		char *abs = abs_path(s, p);
		int r = rmdir(abs);
		free(abs);
		if (r != 0)
			break;
	}
	free(p);
}

/* Makes rel on disk what target tg has there (or removes it). Returns NULL,
 * or why it could not (static or malloc'd into *owned). */
static const char *put_back(struct store *s, const struct target *tg, const char *rel, char **owned)
{
	git_tree *t = tg->tree;
	git_tree_entry *te = NULL;
	bool want = t && git_tree_entry_bypath(&te, t, rel) == 0;
	char *abs = abs_path(s, rel);
	const char *why = NULL;
	struct stat st;
	bool exists = lstat(abs, &st) == 0;
	if (!want) {
		if (exists && S_ISDIR(st.st_mode)) {
			if (rmdir(abs) != 0)
				why = "a folder that is not empty is there now";
		} else if (exists && unlink(abs) != 0) {
			why = *owned = xasprintf("cannot remove it: %s", strerror(errno));
		}
		if (!why)
			remove_empty_parents(s, rel);
		goto out;
	}
	if (git_tree_entry_type(te) != GIT_OBJECT_BLOB) {
		why = "a folder in the checkpoint";
		goto out;
	}
	git_blob *blob = NULL;
	if (git_blob_lookup(&blob, s->repo, git_tree_entry_id(te)) != 0) {
		why = "its content is no longer in the store";
		goto out;
	}
	if (make_parents(s, rel) != 0) {
		why = "a file stands where its folder should be";
		git_blob_free(blob);
		goto out;
	}
	if (exists && S_ISDIR(st.st_mode) && rmdir(abs) != 0) {
		why = "a folder that is not empty is there now";
		git_blob_free(blob);
		goto out;
	}
	char *tmp = xasprintf("%s.sbsh-restore-%d", abs, (int)getpid());
	unlink(tmp);
	int ok = 0;
	const char *data = git_blob_rawcontent(blob);
	size_t len = (size_t)git_blob_rawsize(blob);
	if (git_tree_entry_filemode(te) == GIT_FILEMODE_LINK) {
		char *target = xstrndup(data, len);
		ok = symlink(target, tmp) == 0;
		free(target);
	} else {
		mode_t mode = git_tree_entry_filemode(te) == GIT_FILEMODE_BLOB_EXECUTABLE ? 0755 : 0644;
		json_t *perm = tg->modes ? json_object_get(tg->modes, rel) : NULL;
		if (json_is_string(perm)) {
			unsigned long v = strtoul(json_string_value(perm), NULL, 8);
			if (v <= 07777)
				mode = (mode_t)v & 01777; /* never setuid or setgid */
		}
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
		ok = fd >= 0 && util_write_all(fd, data, len) && fchmod(fd, mode) == 0;
		if (fd >= 0 && close(fd) != 0)
			ok = 0;
	}
	if (!ok || rename(tmp, abs) != 0) {
		why = *owned = xasprintf("cannot write it: %s", strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	git_blob_free(blob);
out:
	git_tree_entry_free(te);
	free(abs);
	return why;
}

/* Puts each path of changes back as target has it, unless the disk
 * differs from head there (and not force); then records a review. */
static int apply_targets(struct store *s, git_tree *head_tree, struct store_changes *changes,
                         struct target **targets, bool force, const char *undid, struct store_changes *done,
                         struct store_changes *skipped, char **err)
{
	struct strvec touched;
	strvec_init(&touched);
	for (size_t i = 0; i < changes->len; i++) {
		const char *rel = changes->items[i].path;
		if (changes->items[i].change == STORE_NOT_KEPT) {
			store_changes_add(skipped, rel, STORE_NOT_KEPT, "it was not kept: reinstall or rebuild it");
			continue;
		}
		if (!force && !disk_is(s, head_tree, rel)) {
			store_changes_add(skipped, rel, changes->items[i].change,
			                  "it changed after it was recorded (another program, an editor): left as it is; --force puts it back anyway");
			continue;
		}
		char *owned = NULL;
		const char *why = put_back(s, targets[i], rel, &owned);
		if (why) {
			store_changes_add(skipped, rel, changes->items[i].change, why);
		} else {
			store_changes_add(done, rel, changes->items[i].change, NULL);
			strvec_push(&touched, rel);
		}
		free(owned);
	}
	int rc = 0;
	if (touched.len) {
		struct store_meta m = {.kind = "review", .status = -1, .undid = undid, .line = undid ? "undo" : "reject"};
		bool made;
		char hex[41];
		rc = store_checkpoint(s, touched.items, touched.len, false, &m, NULL, &made, hex, err);
	}
	strvec_free(&touched);
	return rc;
}

int store_reject(struct store *s, char *const *paths, size_t npaths, bool force, struct store_changes *done,
                 struct store_changes *skipped, char **err)
{
	if (store_lock(s, err) != 0)
		return -1;
	int rc = -1;
	git_tree *head = ref_tree(s, HEAD_REF);
	struct target acc = {0};
	git_oid acc_id;
	if (ref_id(s, ACCEPTED_REF, &acc_id) == 0)
		target_load(s, &acc_id, &acc);
	struct store_changes sel = {0};
	struct target **targets = NULL;
	if (!head) {
		rc = 0;
		goto out;
	}
	if (selected_changes(s, acc.tree, head, paths, npaths, &sel, err) != 0)
		goto out;
	/* what only the permissions of differ is not in the trees' diff */
	add_mode_changes(acc.modes, s->modes, paths, npaths, &sel);
	targets = xcalloc(sel.len + 1, sizeof *targets);
	for (size_t i = 0; i < sel.len; i++)
		targets[i] = &acc;
	rc = apply_targets(s, head, &sel, targets, force, NULL, done, skipped, err);
out:
	free(targets);
	store_changes_free(&sel);
	target_free(&acc);
	git_tree_free(head);
	store_unlock(s);
	return rc;
}

static bool hex_listed(const char *list, const char *hex)
{
	size_t n = strlen(hex);
	for (const char *p = list ? strstr(list, hex) : NULL; p; p = strstr(p + 1, hex))
		if ((p == list || p[-1] == ' ') && (p[n] == 0 || p[n] == ' '))
			return true;
	return false;
}

int store_undo(struct store *s, unsigned n, const char *session, bool force, struct store_changes *done,
               struct store_changes *skipped, char **err)
{
	if (store_lock(s, err) != 0)
		return -1;
	int rc = -1;
	struct store_entry *log = NULL;
	size_t nlog = 0;
	struct store_changes sel = {0};
	struct strbuf undid;
	strbuf_init(&undid);
	struct target **targets = NULL, *parents = NULL;
	git_tree *head = ref_tree(s, HEAD_REF);
	if (store_log(s, 0, &log, &nlog, err) != 0)
		goto out;
	/* what review checkpoints say was undone already */
	struct strbuf already;
	strbuf_init(&already);
	for (size_t i = 0; i < nlog; i++)
		if (log[i].undid) {
			strbuf_adds(&already, log[i].undid);
			strbuf_addc(&already, ' ');
		}
	parents = xcalloc(nlog + 1, sizeof *parents);
	unsigned picked = 0;
	for (size_t i = 0; i < nlog && picked < n; i++) {
		const char *k = log[i].kind;
		bool undoable = strcmp(k, "line") == 0 || strcmp(k, "between") == 0 || strcmp(k, "end") == 0;
		if (!undoable || hex_listed(already.data, log[i].hex) || i + 1 >= nlog)
			continue;
		if (session && (!log[i].session || strcmp(log[i].session, session) != 0))
			continue;
		git_oid id;
		git_commit *c = NULL;
		if (git_oid_fromstr(&id, log[i].hex) == 0 && git_commit_lookup(&c, s->repo, &id) == 0 &&
		    git_commit_parentcount(c) > 0)
			target_load(s, git_commit_parent_id(c, 0), &parents[i]);
		git_commit_free(c);
		picked++;
		if (undid.len)
			strbuf_addc(&undid, ' ');
		strbuf_adds(&undid, log[i].hex);
		/* newest first: a path's target is its content before the oldest picked change */
		for (size_t j = 0; j < log[i].changes.len; j++) {
			const struct store_path_change *pc = &log[i].changes.items[j];
			size_t at = sel.len;
			for (size_t k2 = 0; k2 < sel.len; k2++)
				if (strcmp(sel.items[k2].path, pc->path) == 0)
					at = k2;
			if (at == sel.len) {
				store_changes_add(&sel, pc->path, pc->change, NULL);
				targets = xreallocarray(targets, sel.len, sizeof *targets);
			}
			targets[at] = &parents[i];
		}
	}
	strbuf_free(&already);
	if (sel.len == 0) {
		rc = 0;
		goto out;
	}
	rc = apply_targets(s, head, &sel, targets, force, undid.data, done, skipped, err);
out:
	for (size_t i = 0; parents && i < nlog; i++)
		target_free(&parents[i]);
	free(parents);
	free(targets);
	store_entries_free(log, nlog);
	store_changes_free(&sel);
	strbuf_free(&undid);
	git_tree_free(head);
	store_unlock(s);
	return rc;
}

/* ---- per hunk (sbsh --review -i) ----------------------------------------- */

/* The accepted and head blobs of a path, and their patch (3 lines of
 * context, as the diff shows). Returns 0, or -1 (not a text file changed
 * on both sides: decided whole). */
static int file_patch(struct store *s, const char *path, git_blob **acc_blob, git_blob **head_blob,
                      uint32_t *head_mode, git_patch **patch)
{
	*acc_blob = *head_blob = NULL;
	*patch = NULL;
	git_tree *acc = ref_tree(s, ACCEPTED_REF), *head = ref_tree(s, HEAD_REF);
	git_tree_entry *ae = NULL, *he = NULL;
	int rc = -1;
	if (!acc || !head || git_tree_entry_bypath(&ae, acc, path) != 0 || git_tree_entry_bypath(&he, head, path) != 0 ||
	    git_tree_entry_filemode(ae) == GIT_FILEMODE_LINK || git_tree_entry_filemode(he) == GIT_FILEMODE_LINK ||
	    git_tree_entry_type(ae) != GIT_OBJECT_BLOB || git_tree_entry_type(he) != GIT_OBJECT_BLOB)
		goto out;
	if (git_blob_lookup(acc_blob, s->repo, git_tree_entry_id(ae)) != 0 ||
	    git_blob_lookup(head_blob, s->repo, git_tree_entry_id(he)) != 0 || git_blob_is_binary(*acc_blob) ||
	    git_blob_is_binary(*head_blob))
		goto out;
	*head_mode = (uint32_t)git_tree_entry_filemode(he);
	if (git_patch_from_blobs(patch, *acc_blob, path, *head_blob, path, NULL) != 0)
		goto out;
	rc = 0;
out:
	if (rc != 0) {
		git_blob_free(*acc_blob);
		git_blob_free(*head_blob);
		*acc_blob = *head_blob = NULL;
	}
	git_tree_entry_free(ae);
	git_tree_entry_free(he);
	git_tree_free(acc);
	git_tree_free(head);
	return rc;
}

int store_file_hunks(struct store *s, const char *path, struct strvec *hunks, char **err)
{
	git_blob *a, *h;
	git_patch *p;
	uint32_t mode;
	(void)err;
	if (file_patch(s, path, &a, &h, &mode, &p) != 0)
		return -1;
	size_t n = git_patch_num_hunks(p);
	for (size_t i = 0; i < n; i++) {
		const git_diff_hunk *hunk;
		size_t lines;
		struct strbuf sb;
		strbuf_init(&sb);
		if (git_patch_get_hunk(&hunk, &lines, p, i) == 0) {
			strbuf_addmem(&sb, hunk->header, hunk->header_len);
			for (size_t j = 0; j < lines; j++) {
				const git_diff_line *l;
				if (git_patch_get_line_in_hunk(&l, p, i, j) != 0)
					continue;
				if (l->origin != GIT_DIFF_LINE_CONTEXT && l->origin != GIT_DIFF_LINE_ADDITION &&
				    l->origin != GIT_DIFF_LINE_DELETION) {
					strbuf_adds(&sb, "\\ No newline at end of file\n");
					continue;
				}
				strbuf_addc(&sb, l->origin);
				strbuf_addmem(&sb, l->content, l->content_len);
				if (l->content_len == 0 || l->content[l->content_len - 1] != '\n')
					strbuf_addc(&sb, '\n');
			}
		}
		strvec_push_owned(hunks, strbuf_detach(&sb));
	}
	git_patch_free(p);
	git_blob_free(a);
	git_blob_free(h);
	return 0;
}

/* old with the hunks `take` says yes to applied ('a' or 'r' as chosen). */
static char *apply_some(const char *old, size_t old_len, git_patch *p, const char *decisions, bool (*take)(char),
                        size_t *out_len)
{
	struct strbuf out;
	strbuf_init(&out);
	/* where each old line starts */
	size_t nl = 0, cap = 64;
	size_t *starts = xmalloc(cap * sizeof *starts);
	for (size_t i = 0; i < old_len;) {
		if (nl == cap) {
			cap *= 2;
			starts = xreallocarray(starts, cap, sizeof *starts);
		}
		starts[nl++] = i;
		const char *e = memchr(old + i, '\n', old_len - i);
		i = e ? (size_t)(e - old) + 1 : old_len;
	}
	size_t pos = 0; /* the next old line to copy, 0-based */
	size_t nh = git_patch_num_hunks(p);
	for (size_t i = 0; i < nh; i++) {
		const git_diff_hunk *hunk;
		size_t lines;
		if (git_patch_get_hunk(&hunk, &lines, p, i) != 0)
			continue;
		size_t first = hunk->old_lines ? (size_t)hunk->old_start - 1 : (size_t)hunk->old_start;
		for (; pos < first && pos < nl; pos++)
			strbuf_addmem(&out, old + starts[pos], (pos + 1 < nl ? starts[pos + 1] : old_len) - starts[pos]);
		bool apply = take(decisions[i]);
		for (size_t j = 0; j < lines; j++) {
			const git_diff_line *l;
			if (git_patch_get_line_in_hunk(&l, p, i, j) != 0)
				continue;
			bool keep = l->origin == GIT_DIFF_LINE_CONTEXT || (apply && l->origin == GIT_DIFF_LINE_ADDITION) ||
			            (!apply && l->origin == GIT_DIFF_LINE_DELETION);
			if (keep)
				strbuf_addmem(&out, l->content, l->content_len);
		}
		pos = first + (size_t)hunk->old_lines;
	}
	for (; pos < nl; pos++)
		strbuf_addmem(&out, old + starts[pos], (pos + 1 < nl ? starts[pos + 1] : old_len) - starts[pos]);
	free(starts);
	*out_len = out.len;
	char *r = strbuf_detach(&out);
	return r ? r : xstrdup("");
}

static bool take_accepted(char d)
{
	return d == 'a';
}

static bool take_not_rejected(char d)
{
	return d != 'r';
}

int store_apply_hunks(struct store *s, const char *path, const char *decisions, char **err)
{
	if (store_lock(s, err) != 0)
		return -1;
	int rc = -1;
	git_blob *a = NULL, *h = NULL;
	git_patch *p = NULL;
	git_tree *head_tree = ref_tree(s, HEAD_REF);
	uint32_t mode = GIT_FILEMODE_BLOB;
	char *to_accept = NULL, *to_disk = NULL;
	if (file_patch(s, path, &a, &h, &mode, &p) != 0) {
		*err = xasprintf("%s: not a text file changed on both sides: accept or reject it whole", path);
		goto out;
	}
	if (strlen(decisions) != git_patch_num_hunks(p)) {
		*err = xasprintf("%s: %zu decisions for %zu hunks", path, strlen(decisions), git_patch_num_hunks(p));
		goto out;
	}
	if (!disk_is(s, head_tree, path)) {
		*err = xasprintf("%s changed after it was recorded: left as it is", path);
		goto out;
	}
	const char *old = git_blob_rawcontent(a);
	size_t old_len = (size_t)git_blob_rawsize(a), acc_len, disk_len;
	to_accept = apply_some(old, old_len, p, decisions, take_accepted, &acc_len);
	to_disk = apply_some(old, old_len, p, decisions, take_not_rejected, &disk_len);
	/* the accepted state takes the accepted hunks */
	if (strchr(decisions, 'a')) {
		git_oid acc_id, blob_id, tree_id, commit;
		git_index *idx = NULL;
		git_tree *acc_tree = NULL;
		struct target at;
		if (ref_id(s, ACCEPTED_REF, &acc_id) != 0) {
			*err = xstrdup("no accepted state");
			goto out;
		}
		target_load(s, &acc_id, &at);
		acc_tree = at.tree;
		at.tree = NULL;
		git_index_entry e;
		memset(&e, 0, sizeof e);
		int ok = git_blob_create_from_buffer(&blob_id, s->repo, to_accept, acc_len) == 0 && git_index_new(&idx) == 0 &&
		         git_index_read_tree(idx, acc_tree) == 0;
		if (ok) {
			const git_index_entry *old_e = git_index_get_bypath(idx, path, 0);
			e.path = path;
			e.mode = old_e ? old_e->mode : mode;
			git_oid_cpy(&e.id, &blob_id);
			struct store_meta m = {.kind = "accept", .status = -1, .line = "accept hunks"};
			ok = git_index_add(idx, &e) == 0 && git_index_write_tree_to(&tree_id, idx, s->repo) == 0 &&
			     make_commit(s, &tree_id, &acc_id, &m, at.modes ? at.modes : json_object(), &commit, err) == 0 &&
			     move_ref(s, ACCEPTED_REF, &commit, &acc_id, "accept hunks", err) == 0;
		}
		git_index_free(idx);
		git_tree_free(acc_tree);
		target_free(&at);
		if (!ok) {
			if (!*err)
				*err = git_err("cannot accept the hunks");
			goto out;
		}
	}
	/* the disk loses the rejected ones */
	if (strchr(decisions, 'r')) {
		char *abs = abs_path(s, path);
		char *tmp = xasprintf("%s.sbsh-restore-%d", abs, (int)getpid());
		struct stat st;
		mode_t perm = lstat(abs, &st) == 0 ? (st.st_mode & 07777) : 0644;
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, perm);
		bool ok = fd >= 0 && util_write_all(fd, to_disk, disk_len) && fchmod(fd, perm) == 0;
		if (fd >= 0 && close(fd) != 0)
			ok = false;
		if (!ok || rename(tmp, abs) != 0) {
			*err = xasprintf("cannot write %s: %s", path, strerror(errno));
			unlink(tmp);
			free(tmp);
			free(abs);
			goto out;
		}
		free(tmp);
		free(abs);
		char *one[1] = {(char *)path};
		struct store_meta m = {.kind = "review", .status = -1, .line = "reject hunks"};
		bool made;
		char hex[41];
		if (store_checkpoint(s, one, 1, false, &m, NULL, &made, hex, err) != 0)
			goto out;
	}
	rc = 0;
out:
	free(to_accept);
	free(to_disk);
	git_patch_free(p);
	git_blob_free(a);
	git_blob_free(h);
	git_tree_free(head_tree);
	store_unlock(s);
	return rc;
}
