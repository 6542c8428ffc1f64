/* An isolated session's layer, read and applied from outside (layer.h).
 *
 * Reading: the upper folder is walked as OverlayFS merges it. A whiteout
 * (a character device 0/0, or a file marked overlay.whiteout) deletes the
 * real path; a folder marked overlay.opaque "y" hides the real folder's
 * entries; one marked overlay.redirect shows another real folder's (both
 * read as user.overlay.* or trusted.overlay.*). Only the folders the
 * upper folder holds are read in the real folder, save below opaque and
 * redirected ones.
 *
 * The human's newer edit: each change carries the birth time of the upper
 * entry that makes it (the copy up, the whiteout, the opaque folder). A
 * real path whose change time is not older was changed after the layer
 * took it over, and accept leaves it; so does a real file gone since the
 * layer copied it (overlay.origin). What accept itself wrote is recorded
 * (accepted.json: inode and change time), so that a later change of the
 * same path in the layer is not taken for a conflict with the accept. */
#include "trusted/layer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "lib/util.h"
#include "trusted/baseline.h"

int layer_open(const char *root, const char *state, const char *name, struct layer *l, char **why)
{
	memset(l, 0, sizeof *l);
	char *dir = xasprintf("%s/layers/%s", state, name);
	char *upper = xasprintf("%s/upper", dir);
	struct stat sb;
	if (lstat(upper, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		*why = xasprintf("no layer %s in this project (sbsh --review --isolate list shows them)", name);
		free(dir);
		free(upper);
		return -1;
	}
	l->name = xstrdup(name);
	l->root = xstrdup(root);
	l->dir = dir;
	l->upper = upper;
	return 0;
}

void layer_close(struct layer *l)
{
	free(l->name);
	free(l->root);
	free(l->dir);
	free(l->upper);
	memset(l, 0, sizeof *l);
}

void layer_changes_free(struct layer_changes *c)
{
	for (size_t i = 0; i < c->len; i++) {
		free(c->items[i].path);
		free(c->items[i].source);
		free(c->items[i].why);
	}
	free(c->items);
	memset(c, 0, sizeof *c);
}

static struct layer_change *push_change(struct layer_changes *c, const char *path, enum layer_kind kind)
{
	if (c->len == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 32;
		c->items = xreallocarray(c->items, c->cap, sizeof *c->items);
	}
	struct layer_change *e = &c->items[c->len++];
	memset(e, 0, sizeof *e);
	e->path = xstrdup(path);
	e->kind = kind;
	return e;
}

static void copy_change(struct layer_changes *to, const struct layer_change *c, const char *why)
{
	struct layer_change *e = push_change(to, c->path, c->kind);
	char *path = e->path;
	*e = *c;
	e->path = path;
	e->source = c->source ? xstrdup(c->source) : NULL;
	e->why = why ? xstrdup(why) : NULL;
}

/* ---- paths ---------------------------------------------------------------- */

static char *join(const char *dir, const char *name)
{
	return *dir ? xasprintf("%s/%s", dir, name) : xstrdup(name);
}

static char *in_upper(const struct layer *l, const char *rel)
{
	return *rel ? xasprintf("%s/%s", l->upper, rel) : xstrdup(l->upper);
}

static char *in_real(const struct layer *l, const char *rel)
{
	return *rel ? xasprintf("%s/%s", l->root, rel) : xstrdup(l->root);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in folder path, sorted; never following a link. -1 when it
 * cannot be read (errno). */
static int list_names(const char *path, struct strvec *out)
{
	strvec_init(out);
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		int saved = errno;
		if (fd >= 0)
			close(fd);
		errno = saved;
		return -1;
	}
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			strvec_push(out, e->d_name);
	closedir(d);
	if (out->len > 1)
		qsort(out->items, out->len, sizeof *out->items, compare_names);
	return 0;
}

static bool has_name(const struct strvec *names, const char *name)
{
	return names->len && bsearch(&name, names->items, names->len, sizeof *names->items, compare_names) != NULL;
}

/* ---- what OverlayFS wrote --------------------------------------------------- */

/* An overlay.NAME attribute of path, in the user namespace (what sbsh's
 * mounts use) or the trusted one. Its length, or -1 when absent. */
static ssize_t overlay_attr(const char *path, const char *name, char *buf, size_t size)
{
	static const char *const spaces[] = {"user.overlay.", "trusted.overlay."};
	for (size_t i = 0; i < 2; i++) {
		char key[64];
		snprintf(key, sizeof key, "%s%s", spaces[i], name);
		ssize_t n = lgetxattr(path, key, buf, size);
		if (n >= 0)
			return n;
	}
	return -1;
}

static bool is_whiteout(const char *path, const struct stat *st)
{
	if (S_ISCHR(st->st_mode) && st->st_rdev == makedev(0, 0))
		return true;
	char v[8];
	return S_ISREG(st->st_mode) && st->st_size == 0 && overlay_attr(path, "whiteout", v, sizeof v) >= 0;
}

static bool is_opaque(const char *path)
{
	char v[8];
	return overlay_attr(path, "opaque", v, sizeof v) == 1 && v[0] == 'y';
}

/* The real folder a redirected upper folder at rel shows, relative to
 * the top, or NULL: an absolute redirect is from the top, a relative one
 * a name beside rel. One that climbs out is not followed. */
static char *redirect_of(const char *path, const char *rel)
{
	char buf[4096];
	ssize_t n = overlay_attr(path, "redirect", buf, sizeof buf - 1);
	if (n <= 0)
		return NULL;
	buf[n] = 0;
	if (strstr(buf, "..") || strchr(buf, '\0') != buf + n)
		return NULL;
	if (buf[0] == '/') {
		const char *from = buf;
		while (*from == '/')
			from++;
		return xstrdup(from);
	}
	if (strchr(buf, '/'))
		return NULL;
	const char *slash = strrchr(rel, '/');
	return slash ? xasprintf("%.*s/%s", (int)(slash - rel), rel, buf) : xstrdup(buf);
}

/* When the entry at path was made: its birth, or where the filesystem
 * keeps none, its last change (which can only be later). */
static struct timespec born_at(const char *path, const struct stat *st)
{
	struct statx sx;
	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &sx) == 0 && (sx.stx_mask & STATX_BTIME))
		return (struct timespec){.tv_sec = sx.stx_btime.tv_sec, .tv_nsec = sx.stx_btime.tv_nsec};
	return st->st_ctim;
}

static bool not_before(struct timespec a, struct timespec b)
{
	return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec >= b.tv_nsec);
}

/* The files that steer what runs outside the sandbox later: git's hooks,
 * config and attributes (the project's, its modules' and those of any
 * repository below the top), the allow-list and the agent tools' own
 * settings. Folders themselves are not. */
static bool protected_rel(const char *rel)
{
	if (strcmp(rel, ".git/config") == 0 || strcmp(rel, ".git/info/attributes") == 0 ||
	    strncmp(rel, ".git/hooks/", 11) == 0)
		return true;
	if (strncmp(rel, ".git/modules/", 13) == 0)
		return strstr(rel, "/hooks/") != NULL || strcmp(strrchr(rel, '/'), "/config") == 0;
	const char *base = strrchr(rel, '/');
	base = base ? base + 1 : rel;
	if (strcmp(base, ".agentcommands.json") == 0)
		return true;
	for (const char *at = strchr(rel, '/'); at; at = strchr(at + 1, '/'))
		if (strncmp(at, "/.git", 5) == 0 && (at[5] == '/' || at[5] == 0))
			return true; /* a repository below the top: its .git file or folder */
	return protect_is_agent_file(rel);
}

/* Whether rel is a .git folder or in one: what accept never deletes
 * unless named (a layer's `rm -rf .git` would take the repository). */
static bool in_git_folder(const char *rel)
{
	for (const char *at = rel; at; at = strchr(at, '/'), at = at ? at + 1 : NULL)
		if (strncmp(at, ".git", 4) == 0 && (at[4] == '/' || at[4] == 0))
			return true;
	return false;
}

/* ---- comparing ---------------------------------------------------------- */

static bool same_bytes(const char *a, const char *b)
{
	int fa = open(a, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), fb = open(b, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	bool same = fa >= 0 && fb >= 0;
	char ba[65536], bb[65536];
	while (same) {
		ssize_t na = read(fa, ba, sizeof ba);
		if (na <= 0) {
			same = na == 0 && read(fb, bb, 1) == 0;
			break;
		}
		ssize_t got = 0;
		while (got < na) {
			ssize_t nb = read(fb, bb + got, (size_t)(na - got));
			if (nb <= 0)
				break;
			got += nb;
		}
		same = got == na && memcmp(ba, bb, (size_t)na) == 0;
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

static char *link_target(const char *path)
{
	char buf[4096];
	ssize_t n = readlink(path, buf, sizeof buf - 1);
	if (n < 0)
		return NULL;
	buf[n] = 0;
	return xstrdup(buf);
}

/* Whether the non-folder at a (stat as) shows what b does: type,
 * permissions, and bytes or link target. */
static bool same_entry(const char *a, const struct stat *as, const char *b, const struct stat *bs)
{
	if ((as->st_mode & S_IFMT) != (bs->st_mode & S_IFMT) || (as->st_mode & 07777) != (bs->st_mode & 07777))
		return false;
	if (S_ISREG(as->st_mode))
		return as->st_size == bs->st_size && same_bytes(a, b);
	if (S_ISLNK(as->st_mode)) {
		char *ta = link_target(a), *tb = link_target(b);
		bool same = ta && tb && strcmp(ta, tb) == 0;
		free(ta);
		free(tb);
		return same;
	}
	return true;
}

/* ---- the walk --------------------------------------------------------------- */

struct scan {
	const struct layer *l;
	struct layer_changes *out;
	char *err;
};

/* The real rel and all it holds, deleted: what it holds first. */
static void deleted_tree(struct scan *s, const char *rel, const struct stat *rs, struct timespec since)
{
	if (S_ISDIR(rs->st_mode)) {
		char *path = in_real(s->l, rel);
		struct strvec names;
		if (list_names(path, &names) == 0)
			for (size_t i = 0; i < names.len; i++) {
				char *child = join(rel, names.items[i]);
				char *cp = in_real(s->l, child);
				struct stat cs;
				if (lstat(cp, &cs) == 0)
					deleted_tree(s, child, &cs, since);
				free(cp);
				free(child);
			}
		strvec_free(&names);
		free(path);
	}
	struct layer_change *c = push_change(s->out, rel, LAYER_DELETED);
	c->real_mode = rs->st_mode;
	c->since = since;
}

/* What the view shows at dst from the real src (below a redirected
 * folder), against the real dst (none unless dst_here: the real folder
 * above it is a folder, reached without a link). */
static void compare_real(struct scan *s, const char *src, const char *dst, bool dst_here, struct timespec since)
{
	char *sp = in_real(s->l, src), *dp = in_real(s->l, dst);
	struct stat ss, ds;
	bool have_dst = dst_here && lstat(dp, &ds) == 0;
	if (lstat(sp, &ss) != 0)
		goto out;
	struct layer_change *c = NULL;
	if (!have_dst)
		c = push_change(s->out, dst, LAYER_ADDED);
	else if (S_ISDIR(ss.st_mode) ? !S_ISDIR(ds.st_mode) || (ss.st_mode & 07777) != (ds.st_mode & 07777)
	                             : !same_entry(sp, &ss, dp, &ds))
		c = push_change(s->out, dst, LAYER_MODIFIED);
	if (c) {
		c->mode = ss.st_mode;
		c->real_mode = have_dst ? ds.st_mode : 0;
		c->source = xstrdup(src);
		c->source_real = true;
		c->since = since;
	}
	struct strvec sn, dn;
	strvec_init(&sn);
	strvec_init(&dn);
	if (S_ISDIR(ss.st_mode) && list_names(sp, &sn) == 0)
		for (size_t i = 0; i < sn.len; i++) {
			char *a = join(src, sn.items[i]), *b = join(dst, sn.items[i]);
			compare_real(s, a, b, have_dst && S_ISDIR(ds.st_mode), since);
			free(a);
			free(b);
		}
	if (have_dst && S_ISDIR(ds.st_mode) && list_names(dp, &dn) == 0)
		for (size_t i = 0; i < dn.len; i++) {
			if (S_ISDIR(ss.st_mode) && has_name(&sn, dn.items[i]))
				continue;
			char *b = join(dst, dn.items[i]);
			char *bp = in_real(s->l, b);
			struct stat bs;
			if (lstat(bp, &bs) == 0)
				deleted_tree(s, b, &bs, since);
			free(bp);
			free(b);
		}
	strvec_free(&sn);
	strvec_free(&dn);
out:
	free(sp);
	free(dp);
}

static void scan_dir(struct scan *s, const char *rel, const char *lower, bool real_here, struct timespec since);

/* An upper non-folder at rel, against the real one (none unless
 * real_here: the real folder above it is a folder, reached without a link). */
static void scan_file(struct scan *s, const char *rel, const char *up, const struct stat *us, const char *lower,
                      bool real_here, struct timespec born)
{
	char *rp = in_real(s->l, rel);
	struct stat rs;
	bool real = real_here && lstat(rp, &rs) == 0;
	char attr[8];
	/* metacopy (never made by sbsh's mounts): the data is the real file's */
	char *data_from = NULL;
	if (overlay_attr(up, "metacopy", attr, sizeof attr) >= 0) {
		char *redirect = redirect_of(up, rel);
		const char *slash = strrchr(rel, '/');
		data_from = redirect ? redirect : lower ? join(lower, slash ? slash + 1 : rel) : NULL;
	}
	bool changed;
	if (!real)
		changed = true;
	else if (S_ISDIR(rs.st_mode) || (us->st_mode & S_IFMT) != (rs.st_mode & S_IFMT))
		changed = true;
	else if (data_from) {
		char *dp = in_real(s->l, data_from);
		struct stat ds;
		changed = (us->st_mode & 07777) != (rs.st_mode & 07777) || lstat(dp, &ds) != 0 ||
		          !same_entry(dp, &ds, rp, &rs);
		free(dp);
	} else
		changed = !same_entry(up, us, rp, &rs);
	if (changed) {
		struct layer_change *c = push_change(s->out, rel, real ? LAYER_MODIFIED : LAYER_ADDED);
		c->mode = us->st_mode;
		c->real_mode = real ? rs.st_mode : 0;
		c->source = data_from ? xstrdup(data_from) : xstrdup(rel);
		c->source_real = data_from != NULL;
		/* copied from the real file at this very path: not below a
		 * redirected folder, whose origins are elsewhere */
		const char *slash = strrchr(rel, '/');
		bool same_place = lower && strlen(lower) == (size_t)(slash ? slash - rel : 0) &&
		                  strncmp(lower, rel, strlen(lower)) == 0;
		c->copied_up = same_place && overlay_attr(up, "origin", attr, 0) >= 0;
		c->since = born;
		c->protected_path = protected_rel(rel);
		if (real && S_ISDIR(rs.st_mode)) {
			/* a file in a folder's place: what the folder held goes too */
			struct strvec names;
			if (list_names(rp, &names) == 0)
				for (size_t i = 0; i < names.len; i++) {
					char *child = join(rel, names.items[i]);
					char *cp = in_real(s->l, child);
					struct stat cs;
					if (lstat(cp, &cs) == 0)
						deleted_tree(s, child, &cs, born);
					free(cp);
					free(child);
				}
			strvec_free(&names);
		}
	}
	free(data_from);
	free(rp);
}

/* An upper folder at rel (below the upper folder rel's parent). */
static void scan_subdir(struct scan *s, const char *rel, const char *name, const char *up, const struct stat *us,
                        const char *lower, bool real_here, struct timespec born)
{
	char *rp = in_real(s->l, rel);
	struct stat rs;
	bool real = real_here && lstat(rp, &rs) == 0;
	char *shows = redirect_of(up, rel);
	if (!shows && !is_opaque(up) && lower) {
		/* a folder of the same name below shows through, if it is a folder */
		char *candidate = join(lower, name);
		char *cp = in_real(s->l, candidate);
		struct stat cs;
		if (lstat(cp, &cs) == 0 && S_ISDIR(cs.st_mode))
			shows = candidate;
		else
			free(candidate);
		free(cp);
	}
	struct layer_change *c = NULL;
	if (!real)
		c = push_change(s->out, rel, LAYER_ADDED);
	else if (!S_ISDIR(rs.st_mode) || (us->st_mode & 07777) != (rs.st_mode & 07777))
		c = push_change(s->out, rel, LAYER_MODIFIED);
	if (c) {
		c->mode = us->st_mode;
		c->real_mode = real ? rs.st_mode : 0;
		c->source = xstrdup(rel);
		c->copied_up = real && S_ISDIR(rs.st_mode);
		c->since = born;
	}
	scan_dir(s, rel, shows, real && S_ISDIR(rs.st_mode), born);
	free(shows);
	free(rp);
}

/* The folder rel of the view, held by the upper folder. lower: the real
 * folder whose entries show through below it (rel itself; another, when
 * redirected; NULL when opaque or new). since: when the upper folder was
 * made, for the real entries it hides. */
static void scan_dir(struct scan *s, const char *rel, const char *lower, bool real_here, struct timespec since)
{
	char *up = in_upper(s->l, rel);
	struct strvec names;
	if (list_names(up, &names) != 0) {
		if (!s->err)
			s->err = xasprintf("cannot read %s: %s", up, strerror(errno));
		free(up);
		return;
	}
	for (size_t i = 0; i < names.len; i++) {
		char *child = join(rel, names.items[i]);
		char *cu = in_upper(s->l, child);
		struct stat us;
		if (lstat(cu, &us) == 0) {
			struct timespec born = born_at(cu, &us);
			if (is_whiteout(cu, &us)) {
				char *cr = in_real(s->l, child);
				struct stat rs;
				if (real_here && lstat(cr, &rs) == 0)
					deleted_tree(s, child, &rs, born);
				free(cr);
			} else if (S_ISDIR(us.st_mode)) {
				scan_subdir(s, child, names.items[i], cu, &us, lower, real_here, born);
			} else {
				scan_file(s, child, cu, &us, lower, real_here, born);
			}
		}
		free(cu);
		free(child);
	}
	if (!lower || strcmp(lower, rel) != 0) {
		/* what the real folder has here that the view does not show,
		 * and what a redirect shows from elsewhere */
		struct strvec shown;
		strvec_init(&shown);
		char *lp = lower ? in_real(s->l, lower) : NULL;
		if (lp && list_names(lp, &shown) == 0)
			for (size_t i = 0; i < shown.len; i++) {
				if (has_name(&names, shown.items[i]))
					continue;
				char *a = join(lower, shown.items[i]), *b = join(rel, shown.items[i]);
				compare_real(s, a, b, real_here, since);
				free(a);
				free(b);
			}
		char *rp = in_real(s->l, rel);
		struct strvec real_names;
		strvec_init(&real_names);
		if (real_here && list_names(rp, &real_names) == 0)
			for (size_t i = 0; i < real_names.len; i++) {
				const char *n = real_names.items[i];
				if (has_name(&names, n) || has_name(&shown, n))
					continue;
				char *child = join(rel, n);
				char *cr = in_real(s->l, child);
				struct stat rs;
				if (lstat(cr, &rs) == 0)
					deleted_tree(s, child, &rs, since);
				free(cr);
				free(child);
			}
		strvec_free(&real_names);
		strvec_free(&shown);
		free(rp);
		free(lp);
	}
	strvec_free(&names);
	free(up);
}

/* ---- the records of what accept wrote ------------------------------------ */

static char *records_path(const struct layer *l)
{
	return xasprintf("%s/accepted.json", l->dir);
}

static json_t *records_load(const struct layer *l)
{
	char *path = records_path(l);
	json_t *o = json_load_file(path, 0, NULL);
	free(path);
	if (!json_is_object(o)) {
		json_decref(o);
		o = json_object();
	}
	return o;
}

static void records_save(const struct layer *l, json_t *o)
{
	char *path = records_path(l), *tmp = xasprintf("%s.tmp", path);
	if (json_object_size(o) == 0)
		unlink(path);
	else if (json_dump_file(o, tmp, JSON_COMPACT) == 0 && rename(tmp, path) != 0)
		unlink(tmp);
	free(tmp);
	free(path);
}

static void record_real(const struct layer *l, json_t *records, const char *rel)
{
	char *rp = in_real(l, rel);
	struct stat rs;
	if (lstat(rp, &rs) == 0)
		json_object_set_new(records, rel,
		                    json_pack("[I, I, I]", (json_int_t)rs.st_ino, (json_int_t)rs.st_ctim.tv_sec,
		                              (json_int_t)rs.st_ctim.tv_nsec));
	else
		json_object_del(records, rel);
	free(rp);
}

/* Whether the real path is as an accept left it. */
static bool as_accepted(json_t *records, const char *rel, const struct stat *rs)
{
	json_t *r = json_object_get(records, rel);
	return json_is_array(r) && json_array_size(r) == 3 &&
	       json_integer_value(json_array_get(r, 0)) == (json_int_t)rs->st_ino &&
	       json_integer_value(json_array_get(r, 1)) == (json_int_t)rs->st_ctim.tv_sec &&
	       json_integer_value(json_array_get(r, 2)) == (json_int_t)rs->st_ctim.tv_nsec;
}

/* ---- the human's newer edits --------------------------------------------- */

/* Whether something in the real folder below path changed at or after since. */
static bool tree_changed_since(const char *path, struct timespec since, int depth)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return false;
	if (not_before(st.st_ctim, since))
		return true;
	if (!S_ISDIR(st.st_mode) || depth > 256)
		return false;
	struct strvec names;
	bool changed = false;
	if (list_names(path, &names) == 0)
		for (size_t i = 0; i < names.len && !changed; i++) {
			char *child = xasprintf("%s/%s", path, names.items[i]);
			changed = tree_changed_since(child, since, depth + 1);
			free(child);
		}
	strvec_free(&names);
	return changed;
}

/* Why the real path must not be overwritten (or deleted): the human
 * changed it after the layer took it over. NULL when it may. */
static const char *human_changed(const struct layer *l, const struct layer_change *c, json_t *records)
{
	char *rp = in_real(l, c->path);
	struct stat rs;
	bool real = lstat(rp, &rs) == 0;
	const char *why = NULL;
	if (real && as_accepted(records, c->path, &rs))
		why = NULL;
	else if (c->kind == LAYER_DELETED) {
		if (real && !S_ISDIR(rs.st_mode) && not_before(rs.st_ctim, c->since))
			why = "changed in the real folder after the layer deleted it";
	} else if (S_ISDIR(c->mode)) {
		if (real && !S_ISDIR(rs.st_mode) && not_before(rs.st_ctim, c->since))
			why = "changed in the real folder after the layer made a folder in its place";
	} else if (real && S_ISDIR(rs.st_mode)) {
		if (tree_changed_since(rp, c->since, 0))
			why = "the real folder it replaces changed after the layer took it over";
	} else if (real && not_before(rs.st_ctim, c->since)) {
		why = "changed in the real folder after the layer took its own copy";
	} else if (!real && (c->copied_up || c->kind == LAYER_MODIFIED)) {
		why = "deleted in the real folder after the layer took its own copy";
	}
	free(rp);
	return why;
}

int layer_status(const struct layer *l, struct layer_changes *out, char **err)
{
	memset(out, 0, sizeof *out);
	struct scan s = {.l = l, .out = out};
	scan_dir(&s, "", "", true, (struct timespec){0, 0});
	if (s.err) {
		*err = s.err;
		layer_changes_free(out);
		return -1;
	}
	json_t *records = records_load(l);
	for (size_t i = 0; i < out->len; i++) {
		const char *why = human_changed(l, &out->items[i], records);
		out->items[i].why = why ? xstrdup(why) : NULL;
		if (out->items[i].kind == LAYER_DELETED)
			out->items[i].protected_path = in_git_folder(out->items[i].path) ||
			                               (!S_ISDIR(out->items[i].real_mode) && protected_rel(out->items[i].path));
	}
	json_decref(records);
	return 0;
}

bool layer_selected(const struct layer_change *c, char *const *paths, size_t npaths)
{
	if (npaths == 0)
		return true;
	for (size_t i = 0; i < npaths; i++) {
		size_t n = strlen(paths[i]);
		if (n == 0 || (strncmp(c->path, paths[i], n) == 0 && (c->path[n] == 0 || c->path[n] == '/')))
			return true;
	}
	return false;
}

/* Whether one of paths names c or a folder above it (not the whole project). */
static bool named(const struct layer_change *c, char *const *paths, size_t npaths)
{
	for (size_t i = 0; i < npaths; i++) {
		size_t n = strlen(paths[i]);
		if (n && strncmp(c->path, paths[i], n) == 0 && (c->path[n] == 0 || c->path[n] == '/'))
			return true;
	}
	return false;
}

/* ---- writing the real folder ---------------------------------------------- */

/* The parent of rel below the folder top, opened one name at a time
 * without following a link (a link the human has in the real folder, or
 * one the layer put in a folder's place, never leads elsewhere). With
 * make, folders missing on the way are made with the layer's permissions.
 * Returns an O_PATH descriptor and sets *base to the last name, or -1
 * with errno. */
static int open_parent(const struct layer *l, const char *top, const char *rel, bool make, const char **base)
{
	const char *slash = strrchr(rel, '/');
	*base = slash ? slash + 1 : rel;
	int fd = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !slash)
		return fd;
	char *dir = xstrndup(rel, (size_t)(slash - rel));
	for (char *comp = dir, *next; fd >= 0 && comp; comp = next) {
		next = strchr(comp, '/');
		if (next)
			*next++ = 0;
		int sub = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 && errno == ENOENT && make) {
			char *so_far = xstrndup(rel, (size_t)(comp - dir) + strlen(comp));
			char *up = in_upper(l, so_far);
			struct stat us;
			mode_t mode = lstat(up, &us) == 0 && S_ISDIR(us.st_mode) ? us.st_mode & 07777 : 0755;
			free(up);
			free(so_far);
			if (mkdirat(fd, comp, mode) == 0 || errno == EEXIST)
				sub = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		int saved = errno;
		close(fd);
		fd = sub;
		errno = saved;
	}
	free(dir);
	return fd;
}

static int open_real_parent(const struct layer *l, const char *rel, const char **base)
{
	return open_parent(l, l->root, rel, true, base);
}

/* A name in a folder that nothing uses, for a file on its way. */
static char *temp_name(void)
{
	unsigned char r[6];
	if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r)
		memset(r, (int)(util_now_ms() & 0xff), sizeof r);
	return xasprintf(".sbsh-accept-%02x%02x%02x%02x%02x%02x", r[0], r[1], r[2], r[3], r[4], r[5]);
}

static int remove_tree_at(int at, const char *name, int depth)
{
	if (unlinkat(at, name, 0) == 0 || errno == ENOENT)
		return 0;
	if ((errno != EISDIR && errno != EPERM) || depth > 256)
		return -1;
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) == 0 && (st.st_mode & 0700) != 0700)
		fchmod(fd, st.st_mode | 0700); /* a folder left read-only cannot be emptied */
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	struct strvec names;
	strvec_init(&names);
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			strvec_push(&names, e->d_name);
	int rc = 0;
	for (size_t i = 0; i < names.len; i++)
		if (remove_tree_at(dirfd(d), names.items[i], depth + 1) != 0)
			rc = -1;
	strvec_free(&names);
	closedir(d);
	if (rc == 0 && unlinkat(at, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
		rc = -1;
	return rc;
}

static int copy_bytes(int from, int to)
{
	for (;;) {
		ssize_t n = copy_file_range(from, NULL, to, NULL, 1 << 30, 0);
		if (n == 0)
			return 0;
		if (n > 0)
			continue;
		if (errno == EINTR)
			continue;
		if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
			return -1;
		break;
	}
	char buf[65536];
	for (;;) {
		ssize_t n = read(from, buf, sizeof buf);
		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (!util_write_all(to, buf, (size_t)n))
			return -1;
	}
}

/* Puts the entry made at tmp in place of base in parentfd: a rename, or,
 * where a folder is on one side only, an exchange and the removal of what
 * was there (now at tmp). */
static int put_in_place(int parentfd, const char *tmp, const char *base, bool new_is_dir)
{
	struct stat old;
	bool have_old = fstatat(parentfd, base, &old, AT_SYMLINK_NOFOLLOW) == 0;
	if (have_old && (S_ISDIR(old.st_mode) || new_is_dir)) {
		if (renameat2(parentfd, tmp, parentfd, base, RENAME_EXCHANGE) != 0)
			return -1;
		return remove_tree_at(parentfd, tmp, 0);
	}
	return renameat(parentfd, tmp, parentfd, base);
}

/* Moves the layer's own file src into place when it can: no session has
 * the layer, the real folder is on the same filesystem, nothing else
 * links the file (another name in the layer would then write the real
 * file), and no folder stands in its place. One rename, atomic as the
 * copy's, with no copy made and nothing left in the layer to tidy. 1 when
 * moved, 0 when it must be copied, -1 on an error (errno). */
static int move_from_layer(const char *src, int parentfd, const char *base, mode_t perms, bool have_old,
                           const struct stat *old)
{
	int fd = open(src, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st, dir;
	if (fd < 0 || fstat(fd, &st) != 0 || fstat(parentfd, &dir) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    st.st_dev != dir.st_dev || (have_old && S_ISDIR(old->st_mode))) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	/* what OverlayFS noted on the file is the layer's, not the project's */
	char names[4096];
	ssize_t n = flistxattr(fd, names, sizeof names);
	for (ssize_t i = 0; n > 0 && i < n; i += (ssize_t)strlen(names + i) + 1)
		if (strncmp(names + i, "user.overlay.", 13) == 0 || strncmp(names + i, "trusted.overlay.", 16) == 0)
			fremovexattr(fd, names + i);
	int rc = fchmod(fd, perms) == 0 && renameat(AT_FDCWD, src, parentfd, base) == 0 ? 1 : -1;
	int saved = errno;
	close(fd);
	errno = saved;
	return rc;
}

/* Whether every folder above rel in the upper folder lets the real one
 * show through (not opaque, not redirected): only then may the layer's
 * own entry at rel go without the path vanishing from the view. */
static bool shows_real_above(const struct layer *l, const char *rel)
{
	bool shows = true;
	char *dir = xstrdup(rel);
	for (char *slash = strrchr(dir, '/'); shows && slash; slash = strrchr(dir, '/')) {
		*slash = 0;
		char *up = in_upper(l, dir);
		char *redirect = redirect_of(up, dir);
		shows = !redirect && !is_opaque(up);
		free(redirect);
		free(up);
	}
	free(dir);
	return shows;
}

/* Writes the layer's version of c into the real folder (moving the
 * layer's file there when may_move allows; *moved then). Returns 0, or -1
 * with errno. */
static int write_change(const struct layer *l, const struct layer_change *c, bool may_move, bool *moved)
{
	*moved = false;
	const char *base;
	int parentfd = open_real_parent(l, c->path, &base);
	if (parentfd < 0)
		return -1;
	char *src = c->source_real ? in_real(l, c->source) : in_upper(l, c->source);
	char *tmp = temp_name();
	mode_t perms = c->mode & 0777; /* never a setuid or setgid bit */
	int rc = -1, saved = 0;
	struct stat old;
	bool have_old = fstatat(parentfd, base, &old, AT_SYMLINK_NOFOLLOW) == 0;
	int r = may_move && !c->source_real && S_ISREG(c->mode) && shows_real_above(l, c->path)
	            ? move_from_layer(src, parentfd, base, perms, have_old, &old)
	            : 0;
	if (r != 0) {
		*moved = r > 0;
		rc = r > 0 ? 0 : -1;
		saved = errno;
	} else if (S_ISDIR(c->mode)) {
		if (have_old && S_ISDIR(old.st_mode)) {
			int fd = openat(parentfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			rc = fd >= 0 ? fchmod(fd, c->mode & 07777) : -1;
			if (fd >= 0)
				close(fd);
		} else if (!have_old) {
			rc = mkdirat(parentfd, base, c->mode & 07777) == 0 || errno == EEXIST ? 0 : -1;
		} else if (mkdirat(parentfd, tmp, c->mode & 07777) == 0) {
			rc = put_in_place(parentfd, tmp, base, true);
		}
	} else if (S_ISREG(c->mode)) {
		int in = open(src, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		struct stat ist;
		int out = -1;
		if (in >= 0 && fstat(in, &ist) == 0) {
			if (S_ISREG(ist.st_mode))
				out = openat(parentfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
			else
				errno = EINVAL; /* changed since it was read */
		}
		if (out >= 0) {
			struct timespec times[2] = {{.tv_nsec = UTIME_OMIT}, ist.st_mtim};
			bool ok = copy_bytes(in, out) == 0 && fchmod(out, perms) == 0 && futimens(out, times) == 0;
			saved = errno;
			if (close(out) != 0 && ok) {
				ok = false;
				saved = errno;
			}
			rc = ok ? put_in_place(parentfd, tmp, base, false) : -1;
			if (rc != 0) {
				saved = saved ? saved : errno;
				unlinkat(parentfd, tmp, 0);
			}
		}
		if (in >= 0) {
			saved = saved ? saved : errno;
			close(in);
		}
	} else if (S_ISLNK(c->mode)) {
		char *target = link_target(src);
		if (target && symlinkat(target, parentfd, tmp) == 0) {
			rc = put_in_place(parentfd, tmp, base, false);
			if (rc != 0) {
				saved = errno;
				unlinkat(parentfd, tmp, 0);
			}
		}
		free(target);
	} else {
		errno = EOPNOTSUPP;
	}
	if (rc != 0 && saved)
		errno = saved;
	saved = errno;
	free(tmp);
	free(src);
	close(parentfd);
	errno = saved;
	return rc;
}

/* Deletes the real path of c: a file, or a folder the deletions before
 * it emptied. 1 when it held what the layer does not delete. */
static int delete_change(const struct layer *l, const struct layer_change *c)
{
	const char *base;
	int parentfd = open_real_parent(l, c->path, &base);
	if (parentfd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	struct stat st;
	int rc = 0;
	if (fstatat(parentfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (unlinkat(parentfd, base, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0) != 0)
			rc = errno == ENOTEMPTY || errno == EEXIST ? 1 : errno == ENOENT ? 0 : -1;
	}
	int saved = errno;
	close(parentfd);
	errno = saved;
	return rc;
}

int layer_accept(const struct layer *l, const struct layer_changes *all, char *const *paths, size_t npaths,
                 bool in_use, bool force, struct layer_changes *done, struct layer_changes *left, char **err)
{
	memset(done, 0, sizeof *done);
	memset(left, 0, sizeof *left);
	json_t *records = records_load(l);
	/* what is written first, parents before what they hold; then what is
	 * deleted, what a folder held before the folder: halfway, a renamed
	 * folder is in both places, never in neither. A write that failed
	 * stops every deletion (what it was to write may be what they take). */
	bool write_failed = false;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < all->len; i++) {
			const struct layer_change *c = &all->items[i];
			if ((c->kind == LAYER_DELETED) != (pass == 1) || !layer_selected(c, paths, npaths))
				continue;
			const char *why = NULL;
			if (pass == 1 && write_failed)
				why = "not deleted: a write before it failed";
			else if (c->protected_path && !named(c, paths, npaths))
				why = c->kind == LAYER_DELETED && in_git_folder(c->path)
				          ? "a deletion in a .git folder: accept it by naming it"
				          : "it steers what runs outside the sandbox (git hooks or config, an allow-list, an "
				            "agent tool's settings): accept it by naming it";
			else if (!force)
				why = human_changed(l, c, records);
			if (why) {
				copy_change(left, c, why);
				continue;
			}
			bool moved = false;
			int r = pass == 0 ? write_change(l, c, !in_use, &moved) : delete_change(l, c);
			if (r == 0) {
				copy_change(done, c, NULL);
				if (!moved)
					record_real(l, records, c->path);
			} else if (r > 0) {
				copy_change(left, c, "the real folder holds what the layer does not delete");
			} else {
				char *m = xasprintf("cannot %s it: %s", pass == 0 ? "write" : "delete", strerror(errno));
				copy_change(left, c, m);
				free(m);
				write_failed = write_failed || pass == 0;
			}
		}
	records_save(l, records);
	json_decref(records);
	if (!in_use)
		layer_tidy(l);
	(void)err;
	return 0;
}

/* ---- rejecting --------------------------------------------------------------- */

/* Makes the upper folder rel (new, or in place of a whiteout) show the
 * real folder's entries but keep the others away: a whiteout for each
 * real name but keep. */
static int upper_dir_hiding_all_but(const struct layer *l, const char *rel, const char *keep)
{
	char *up = in_upper(l, rel), *rp = in_real(l, rel);
	struct stat rs;
	int rc = -1;
	if (lstat(rp, &rs) == 0 && (mkdir(up, rs.st_mode & 07777) == 0 || errno == EEXIST)) {
		lremovexattr(up, "user.overlay.opaque");
		lremovexattr(up, "trusted.overlay.opaque");
		struct strvec real_names;
		rc = list_names(rp, &real_names);
		for (size_t i = 0; rc == 0 && i < real_names.len; i++) {
			if (strcmp(real_names.items[i], keep) == 0)
				continue;
			char *w = xasprintf("%s/%s", up, real_names.items[i]);
			struct stat ws;
			if (lstat(w, &ws) != 0 && mknod(w, S_IFCHR | 0, makedev(0, 0)) != 0)
				rc = -1;
			free(w);
		}
		strvec_free(&real_names);
	}
	free(up);
	free(rp);
	return rc;
}

/* Makes the real rel show in the view again, and nothing else the layer
 * hides: each whiteout or opaque folder above it gives way to the name on
 * the way down only. */
static int reveal(const struct layer *l, const char *rel)
{
	char *copy = xstrdup(rel);
	int rc = 0;
	struct strbuf cur;
	strbuf_init(&cur);
	strbuf_adds(&cur, "");
	for (char *comp = copy, *next; comp && rc == 0; comp = next) {
		next = strchr(comp, '/');
		if (next)
			*next++ = 0;
		const char *parent = cur.data ? cur.data : "";
		char *here = join(parent, comp);
		char *up = in_upper(l, here), *pu = in_upper(l, parent);
		struct stat us;
		bool present = lstat(up, &us) == 0;
		if (!present && is_opaque(pu))
			rc = upper_dir_hiding_all_but(l, parent, comp);
		if (rc == 0 && present && is_whiteout(up, &us)) {
			rc = unlink(up);
			present = false;
		}
		if (rc == 0 && next && !present) {
			/* below, only the rest of the path comes back */
			char *rest_first = xstrndup(next, strcspn(next, "/"));
			rc = upper_dir_hiding_all_but(l, here, rest_first);
			free(rest_first);
			present = true;
		} else if (rc == 0 && next && present && !S_ISDIR(us.st_mode)) {
			errno = ENOTDIR;
			rc = -1;
		}
		strbuf_truncate(&cur, 0);
		strbuf_adds(&cur, here);
		free(here);
		free(up);
		free(pu);
		if (!present)
			break;
	}
	strbuf_free(&cur);
	free(copy);
	return rc;
}

int layer_reject(const struct layer *l, const struct layer_changes *all, char *const *paths, size_t npaths,
                 struct layer_changes *done, char **err)
{
	memset(done, 0, sizeof *done);
	struct strvec failed;
	strvec_init(&failed);
	for (size_t i = 0; i < all->len; i++) {
		const struct layer_change *c = &all->items[i];
		if (!layer_selected(c, paths, npaths))
			continue;
		int r = 0;
		if (c->kind != LAYER_DELETED && c->source_real) {
			errno = EXDEV; /* shown by a redirected folder above it */
		} else if (c->kind != LAYER_DELETED) {
			const char *base;
			int pfd = open_parent(l, l->upper, c->path, false, &base);
			r = pfd >= 0 ? remove_tree_at(pfd, base, 0) : errno == ENOENT ? 0 : -1;
			if (pfd >= 0)
				close(pfd);
			char *rp = in_real(l, c->path);
			struct stat rs;
			if (r == 0 && lstat(rp, &rs) == 0)
				r = reveal(l, c->path);
			free(rp);
		} else {
			r = reveal(l, c->path);
		}
		if (r == 0 && !(c->kind != LAYER_DELETED && c->source_real))
			copy_change(done, c, NULL);
		else
			strvec_push_owned(&failed, xasprintf("%s: %s", c->path, strerror(errno)));
	}
	int rc = 0;
	if (failed.len) {
		struct strbuf sb;
		strbuf_init(&sb);
		for (size_t i = 0; i < failed.len; i++)
			strbuf_addf(&sb, "%s%s", i ? "; " : "", failed.items[i]);
		*err = strbuf_detach(&sb);
		rc = -1;
	}
	strvec_free(&failed);
	return rc;
}

/* ---- tidying ------------------------------------------------------------------ */

/* Below the upper folder rel: drops what the real folder already shows.
 * shows_real: the real rel shows through here (no opaque or redirected
 * folder above, and rel is a folder in both). */
static void tidy_dir(const struct layer *l, const char *rel, bool shows_real, json_t *records, int depth)
{
	char *up = in_upper(l, rel), *rp = in_real(l, rel);
	struct strvec names, real_names;
	strvec_init(&real_names);
	if (depth > 256 || list_names(up, &names) != 0) {
		free(up);
		free(rp);
		return;
	}
	bool real_dir = list_names(rp, &real_names) == 0;
	if (shows_real && real_dir && is_opaque(up)) {
		/* an opaque folder that hides nothing the view lacks */
		bool hides = false;
		for (size_t i = 0; i < real_names.len && !hides; i++)
			hides = !has_name(&names, real_names.items[i]);
		if (!hides) {
			lremovexattr(up, "user.overlay.opaque");
			lremovexattr(up, "trusted.overlay.opaque");
		}
	}
	bool here = shows_real && real_dir && !is_opaque(up);
	for (size_t i = 0; i < names.len; i++) {
		char *child = join(rel, names.items[i]);
		char *cu = in_upper(l, child), *cr = in_real(l, child);
		struct stat us, rs;
		bool real = lstat(cr, &rs) == 0;
		if (lstat(cu, &us) == 0) {
			char attr[8];
			if (is_whiteout(cu, &us)) {
				if (!real)
					unlink(cu);
			} else if (S_ISDIR(us.st_mode)) {
				char *redirect = redirect_of(cu, child);
				if (!redirect) {
					bool below = here && real && S_ISDIR(rs.st_mode) && (us.st_mode & 07777) == (rs.st_mode & 07777);
					tidy_dir(l, child, below, records, depth + 1);
					if (below && !is_opaque(cu))
						rmdir(cu); /* only when emptied */
				}
				free(redirect);
			} else if (here && real && overlay_attr(cu, "metacopy", attr, sizeof attr) < 0 &&
			           same_entry(cu, &us, cr, &rs)) {
				unlink(cu);
			}
		}
		if (json_object_get(records, child) && lstat(cu, &us) != 0)
			json_object_del(records, child);
		free(cu);
		free(cr);
		free(child);
	}
	strvec_free(&names);
	strvec_free(&real_names);
	free(up);
	free(rp);
}

void layer_tidy(const struct layer *l)
{
	json_t *records = records_load(l);
	tidy_dir(l, "", true, records, 0);
	/* records of paths no longer in the upper folder at all */
	const char *key;
	json_t *value;
	void *tmp;
	json_object_foreach_safe(records, tmp, key, value)
	{
		char *cu = in_upper(l, key);
		struct stat us;
		if (lstat(cu, &us) != 0)
			json_object_del(records, key);
		free(cu);
		(void)value;
	}
	records_save(l, records);
	json_decref(records);
}

/* ---- the whole layer ----------------------------------------------------------- */

int layer_discard(const char *dir, char **err)
{
	/* out of the way first, so that a removal cut short leaves no half
	 * layer under its name */
	char *parent = xstrdup(dir);
	char *slash = strrchr(parent, '/');
	if (!slash) {
		free(parent);
		*err = xasprintf("%s: not a layer folder", dir);
		return -1;
	}
	*slash = 0;
	char *gone = xasprintf(".discarded-%s-%ld", slash + 1, (long)getpid());
	int pfd = open(parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int rc = -1;
	if (pfd >= 0 && renameat(pfd, slash + 1, pfd, gone) == 0)
		rc = remove_tree_at(pfd, gone, 0);
	if (rc != 0)
		*err = xasprintf("cannot remove %s: %s", dir, strerror(errno));
	if (pfd >= 0)
		close(pfd);
	free(gone);
	free(parent);
	return rc;
}

static unsigned long long usage_of(const char *path, int depth)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return 0;
	unsigned long long total = (unsigned long long)st.st_blocks * 512;
	struct strvec names;
	if (!S_ISDIR(st.st_mode) || depth > 256 || list_names(path, &names) != 0)
		return total;
	for (size_t i = 0; i < names.len; i++) {
		char *child = xasprintf("%s/%s", path, names.items[i]);
		total += usage_of(child, depth + 1);
		free(child);
	}
	strvec_free(&names);
	return total;
}

unsigned long long layer_disk_usage(const char *dir)
{
	return usage_of(dir, 0);
}
