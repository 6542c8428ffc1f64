/* sbsh --review --isolate: the human's side of isolated sessions
 * (docs/isolation.md). Runs in sbsh-keeper (libgit2 makes the diffs),
 * outside the sandbox; from inside one, or inside an isolated view, it
 * changes nothing. */
#include "trusted/layer_review.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "sandbox/sandbox.h"
#include "trusted/isolate.h"
#include "trusted/keeper.h"
#include "trusted/layer.h"

struct layer_args {
	const char *name; /* NULL with list */
	const char *cmd;
	struct strvec paths;
	bool json, force;
	const char *dir;
};

static int usage(const char *msg)
{
	fprintf(stderr, "sbsh: --review --isolate: %s\n"
	                "usage: sbsh --review --isolate NAME [status|diff|accept|reject|discard] [PATH...] [--force] "
	                "[--json] [-C DIR]\n"
	                "       sbsh --review --isolate list [--json] [-C DIR]\n",
	        msg);
	return 2;
}

static int parse_args(int argc, char **argv, struct layer_args *a)
{
	strvec_init(&a->paths);
	a->cmd = "status";
	bool have_cmd = false, have_name = false;
	for (int i = 0; i < argc; i++) {
		const char *s = argv[i];
		if (strcmp(s, "--isolate") == 0) {
			if (have_name || i + 1 >= argc)
				return usage(have_name ? "--isolate given twice" : "--isolate needs a layer's name, or list");
			s = argv[++i];
			if (strcmp(s, "list") == 0) {
				a->cmd = "list";
				have_cmd = true;
			} else if (!isolate_name_valid(s)) {
				char *m = xasprintf("%s is not a layer's name", s);
				usage(m);
				free(m);
				return 2;
			} else {
				a->name = s;
			}
			have_name = true;
		} else if (strcmp(s, "--json") == 0) {
			a->json = true;
		} else if (strcmp(s, "--force") == 0 || strcmp(s, "-f") == 0) {
			a->force = true;
		} else if (strcmp(s, "-C") == 0 && i + 1 < argc) {
			a->dir = argv[++i];
		} else if (strcmp(s, "--") == 0) {
			for (i++; i < argc; i++)
				strvec_push(&a->paths, argv[i]);
		} else if (s[0] == '-' && s[1]) {
			char *m = xasprintf("unknown option %s", s);
			usage(m);
			free(m);
			return 2;
		} else if (!have_cmd) {
			static const char *const cmds[] = {"status", "diff", "accept", "reject", "discard"};
			bool known = false;
			for (size_t k = 0; k < sizeof cmds / sizeof *cmds; k++)
				known = known || strcmp(s, cmds[k]) == 0;
			if (!known) {
				char *m = xasprintf("unknown command %s", s);
				usage(m);
				free(m);
				return 2;
			}
			a->cmd = s;
			have_cmd = true;
		} else {
			strvec_push(&a->paths, s);
		}
	}
	if (!have_name)
		return usage("--isolate needs a layer's name, or list");
	if (a->paths.len && (strcmp(a->cmd, "list") == 0 || strcmp(a->cmd, "discard") == 0 ||
	                     strcmp(a->cmd, "status") == 0))
		return usage("this command takes no paths");
	if (a->force && strcmp(a->cmd, "accept") != 0)
		return usage("--force goes with accept only");
	return 0;
}

/* A path as the human typed it (relative to here) made relative to the
 * project's top, "" for the top itself; NULL when outside it. The disk is
 * not asked: the path may exist only in the layer. */
char *review_top_relative(const char *root, const char *cwd, const char *arg)
{
	char *abs = arg[0] == '/' ? xstrdup(arg) : xasprintf("%s/%s", cwd, arg);
	struct strvec parts;
	strvec_init(&parts);
	char *save = NULL;
	for (char *tok = strtok_r(abs, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (strcmp(tok, ".") == 0)
			continue;
		if (strcmp(tok, "..") == 0) {
			if (parts.len) {
				free(parts.items[--parts.len]);
				parts.items[parts.len] = NULL;
			}
			continue;
		}
		strvec_push(&parts, tok);
	}
	struct strbuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < parts.len; i++) {
		strbuf_addc(&sb, '/');
		strbuf_adds(&sb, parts.items[i]);
	}
	strvec_free(&parts);
	free(abs);
	char *full = sb.len ? strbuf_detach(&sb) : (strbuf_free(&sb), xstrdup("/"));
	size_t n = strcmp(root, "/") == 0 ? 0 : strlen(root);
	char *rel = NULL;
	if (strncmp(full, root, n) == 0 && (full[n] == '/' || full[n] == 0))
		rel = xstrdup(full[n] ? full + n + 1 : "");
	free(full);
	return rel;
}

/* Whether a mount point as mountinfo writes it (space, tab, newline and
 * backslash as \NNN) names path. */
static bool same_mount_point(const char *field, const char *path)
{
	for (;; field++, path++) {
		int c = (unsigned char)*field;
		if (c == '\\' && field[1] >= '0' && field[1] <= '3' && field[2] >= '0' && field[2] <= '7' && field[3] >= '0' &&
		    field[3] <= '7') {
			c = (field[1] - '0') * 64 + (field[2] - '0') * 8 + (field[3] - '0');
			field += 3;
		}
		if (c != (unsigned char)*path)
			return false;
		if (c == 0)
			return true;
	}
}

/* Whether the project folder here is itself an overlay mounted on it:
 * then this runs inside an isolated session, and the real folder is out
 * of sight. */
static bool inside_view(const char *root)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return false;
	char *line = NULL;
	size_t cap = 0;
	bool inside = false;
	while (!inside && getline(&line, &cap, f) > 0) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - FSTYPE SOURCE ... */
		char *save = NULL, *field = strtok_r(line, " ", &save);
		for (int i = 0; field && i < 4; i++)
			field = strtok_r(NULL, " ", &save);
		if (!field || !same_mount_point(field, root))
			continue;
		for (field = strtok_r(NULL, " ", &save); field && strcmp(field, "-") != 0;)
			field = strtok_r(NULL, " ", &save);
		field = field ? strtok_r(NULL, " ", &save) : NULL;
		inside = field && strcmp(field, "overlay") == 0;
	}
	free(line);
	fclose(f);
	return inside;
}

static const char *kind_word(enum layer_kind k)
{
	return k == LAYER_ADDED ? "added" : k == LAYER_DELETED ? "deleted" : "modified";
}

static const char *type_word(mode_t mode)
{
	return S_ISDIR(mode) ? "folder" : S_ISLNK(mode) ? "link" : S_ISREG(mode) ? "file" : "other";
}

static mode_t shown_mode(const struct layer_change *c)
{
	return c->kind == LAYER_DELETED ? c->real_mode : c->mode;
}

static json_t *changes_json(const struct layer_changes *c, bool with_why)
{
	json_t *a = json_array();
	for (size_t i = 0; i < c->len; i++) {
		const struct layer_change *e = &c->items[i];
		json_t *o = json_object();
		json_object_set_new(o, "path", json_string(e->path));
		json_object_set_new(o, "change", json_string(kind_word(e->kind)));
		json_object_set_new(o, "type", json_string(type_word(shown_mode(e))));
		if (e->protected_path)
			json_object_set_new(o, "protected", json_true());
		if (with_why && e->why)
			json_object_set_new(o, "why", json_string(e->why));
		json_array_append_new(a, o);
	}
	return a;
}

static void print_json(json_t *o)
{
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_SORT_KEYS);
	if (s)
		printf("%s\n", s);
	free(s);
	json_decref(o);
}

static void print_changes(const struct layer_changes *c)
{
	for (size_t i = 0; i < c->len; i++) {
		const struct layer_change *e = &c->items[i];
		bool dir = S_ISDIR(shown_mode(e));
		printf("  %-9s %s%s", kind_word(e->kind), e->path, dir ? "/" : "");
		if (e->why)
			printf(" (%s)", e->why);
		else if (e->protected_path)
			printf(" (protected: accepted only when named)");
		printf("\n");
	}
}

/* ---- diff ------------------------------------------------------------------ */

/* What a path holds for the diff: a file's bytes, a link's target. */
static char *content_of(const char *path, mode_t mode, size_t *len)
{
	*len = 0;
	if (S_ISLNK(mode)) {
		char buf[4096];
		ssize_t n = readlink(path, buf, sizeof buf - 1);
		if (n < 0)
			return NULL;
		*len = (size_t)n;
		return xstrndup(buf, (size_t)n);
	}
	if (!S_ISREG(mode))
		return NULL;
	return util_read_file(path, O_NOFOLLOW, (size_t)1 << 30, len);
}

static int diff_one(const struct layer *l, const struct layer_change *c, struct strbuf *patch)
{
	if (S_ISDIR(shown_mode(c)) && (c->kind != LAYER_MODIFIED || S_ISDIR(c->real_mode))) {
		strbuf_addf(patch, "%s folder %s/\n", kind_word(c->kind), c->path);
		return 0;
	}
	char *real = xasprintf("%s/%s", l->root, c->path);
	char *src = c->kind == LAYER_DELETED ? NULL
	            : c->source_real         ? xasprintf("%s/%s", l->root, c->source)
	                                     : xasprintf("%s/%s", l->upper, c->source);
	size_t olen = 0, nlen = 0;
	char *old = c->kind == LAYER_ADDED || !c->real_mode ? NULL : content_of(real, c->real_mode, &olen);
	char *new = src ? content_of(src, c->mode, &nlen) : NULL;
	git_patch *p = NULL;
	git_diff_options opts;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	int rc = git_patch_from_buffers(&p, old, olen, c->path, new, nlen, c->path, &opts);
	if (rc == 0) {
		git_buf out = GIT_BUF_INIT;
		if (git_patch_to_buf(&out, p) == 0) {
			if (out.size == 0 && (c->mode & 07777) != (c->real_mode & 07777))
				strbuf_addf(patch, "mode of %s: %o -> %o\n", c->path, (unsigned)(c->real_mode & 07777),
				            (unsigned)(c->mode & 07777));
			strbuf_addmem(patch, out.ptr, out.size);
		}
		git_buf_dispose(&out);
		git_patch_free(p);
	}
	free(old);
	free(new);
	free(src);
	free(real);
	return rc;
}

/* ---- list ------------------------------------------------------------------ */

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void human_size(unsigned long long bytes, char *out, size_t size)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double v = (double)bytes;
	size_t u = 0;
	while (v >= 1024 && u + 1 < sizeof units / sizeof *units) {
		v /= 1024;
		u++;
	}
	snprintf(out, size, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

static void human_age(time_t then, char *out, size_t size)
{
	long long s = (long long)(time(NULL) - then);
	if (s < 0)
		s = 0;
	if (s < 120)
		snprintf(out, size, "%llds ago", s);
	else if (s < 7200)
		snprintf(out, size, "%lldm ago", s / 60);
	else if (s < 172800)
		snprintf(out, size, "%lldh ago", s / 3600);
	else
		snprintf(out, size, "%lldd ago", s / 86400);
}

static int list_layers(const char *root, const char *state, bool json)
{
	char *layers = isolate_layers_dir(state);
	DIR *d = opendir(layers);
	struct strvec names;
	strvec_init(&names);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (isolate_name_valid(e->d_name))
			strvec_push(&names, e->d_name);
	if (d)
		closedir(d);
	if (names.len > 1)
		qsort(names.items, names.len, sizeof *names.items, compare_names);
	json_t *arr = json_array();
	if (!json)
		printf("layers of %s:\n", root);
	for (size_t i = 0; i < names.len; i++) {
		char *dir = xasprintf("%s/%s", layers, names.items[i]);
		char *meta = xasprintf("%s/layer.json", dir), *lock = xasprintf("%s/lock", dir);
		json_t *m = json_load_file(meta, 0, NULL);
		time_t created = (time_t)json_integer_value(json_object_get(m, "created"));
		json_decref(m);
		struct stat ls;
		time_t used = stat(lock, &ls) == 0 ? ls.st_mtime : created;
		int fd = open(lock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		bool in_use = fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
		if (fd >= 0)
			close(fd);
		unsigned long long bytes = layer_disk_usage(dir);
		if (json) {
			json_t *o = json_object();
			json_object_set_new(o, "name", json_string(names.items[i]));
			json_object_set_new(o, "created", json_integer((json_int_t)created));
			json_object_set_new(o, "used", json_integer((json_int_t)used));
			json_object_set_new(o, "bytes", json_integer((json_int_t)bytes));
			json_object_set_new(o, "in_use", json_boolean(in_use));
			json_array_append_new(arr, o);
		} else {
			char age[32], last[32], size[32];
			human_age(created, age, sizeof age);
			human_age(used, last, sizeof last);
			human_size(bytes, size, sizeof size);
			printf("  %-28s made %-9s used %-9s %10s%s\n", names.items[i], age, last, size,
			       in_use ? "  (in use)" : "");
		}
		free(dir);
		free(meta);
		free(lock);
	}
	if (json) {
		json_t *o = json_object();
		json_object_set_new(o, "project", json_string(root));
		json_object_set_new(o, "layers", arr);
		print_json(o);
	} else {
		json_decref(arr);
		if (names.len == 0)
			printf("  (none)\n");
	}
	strvec_free(&names);
	free(layers);
	return 0;
}

/* ---- the commands ------------------------------------------------------------ */

/* Takes what a command that changes something needs: the review lock
 * (one review at a time) and, when free, the layer's own lock (no session
 * starts meanwhile). *in_use: a session holds it (*holder). Returns the
 * review lock's descriptor, or -1 after saying why (refused). */
static int take_locks(const struct layer *l, const char *cmd, int *layer_lock, bool *in_use, pid_t *holder)
{
	*layer_lock = -1;
	*in_use = false;
	char *path = xasprintf("%s/review.lock", l->dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	free(path);
	if (fd < 0) {
		fprintf(stderr, "sbsh: --review --isolate %s: refused: the layer cannot be written from here (%s): only "
		                "the human, outside the sandbox, may accept, reject or discard\n",
		        cmd, strerror(errno));
		return -1;
	}
	while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
		continue;
	*layer_lock = isolate_lock(l->dir, true, holder);
	if (*layer_lock < 0) {
		if (errno != EWOULDBLOCK) {
			fprintf(stderr, "sbsh: --review --isolate %s: cannot lock %s: %s\n", cmd, l->dir, strerror(errno));
			close(fd);
			return -1;
		}
		*in_use = true;
	}
	return fd;
}

static int run_command(const struct layer_args *a, const struct layer *l, char **rel, size_t nrel)
{
	bool changes = strcmp(a->cmd, "accept") == 0 || strcmp(a->cmd, "reject") == 0 ||
	               strcmp(a->cmd, "discard") == 0;
	int review_lock = -1, layer_lock = -1;
	bool in_use = false;
	pid_t holder = 0;
	if (changes) {
		review_lock = take_locks(l, a->cmd, &layer_lock, &in_use, &holder);
		if (review_lock < 0)
			return 1;
		if (in_use && strcmp(a->cmd, "accept") != 0) {
			fprintf(stderr, "sbsh: --review --isolate %s: the layer %s is in use by a session (pid %ld): end it "
			                "first\n",
			        a->cmd, l->name, (long)holder);
			close(review_lock);
			return 1;
		}
	} else {
		int fd = open(l->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		char *lock = xasprintf("%s/lock", l->dir);
		int lfd = open(lock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		in_use = lfd >= 0 && flock(lfd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
		if (lfd >= 0)
			close(lfd);
		free(lock);
		if (fd >= 0)
			close(fd);
	}
	int rc = 0;
	char *err = NULL;
	if (strcmp(a->cmd, "discard") == 0) {
		if (layer_discard(l->dir, &err) != 0) {
			fprintf(stderr, "sbsh: --review --isolate discard: %s\n", err);
			rc = 1;
		} else if (a->json) {
			json_t *o = json_object();
			json_object_set_new(o, "discarded", json_string(l->name));
			print_json(o);
		} else {
			printf("discarded the layer %s\n", l->name);
		}
		goto out;
	}
	struct layer_changes all;
	if (layer_status(l, &all, &err) != 0) {
		fprintf(stderr, "sbsh: --review --isolate %s: %s\n", a->cmd, err);
		rc = 1;
		goto out;
	}
	if (strcmp(a->cmd, "status") == 0) {
		if (a->json) {
			json_t *o = json_object();
			json_object_set_new(o, "layer", json_string(l->name));
			json_object_set_new(o, "project", json_string(l->root));
			json_object_set_new(o, "in_use", json_boolean(in_use));
			json_object_set_new(o, "changes", changes_json(&all, true));
			print_json(o);
		} else {
			printf("layer %s of %s%s\n", l->name, l->root, in_use ? " (in use by a session)" : "");
			if (all.len == 0)
				printf("nothing changed in the layer\n");
			else {
				printf("changed in the layer:\n");
				print_changes(&all);
			}
		}
	} else if (strcmp(a->cmd, "diff") == 0) {
		json_t *files = json_array();
		for (size_t i = 0; i < all.len; i++) {
			const struct layer_change *c = &all.items[i];
			if (!layer_selected(c, rel, nrel))
				continue;
			struct strbuf patch;
			strbuf_init(&patch);
			if (diff_one(l, c, &patch) != 0) {
				const git_error *ge = git_error_last();
				fprintf(stderr, "sbsh: --review --isolate diff: %s: %s\n", c->path, ge ? ge->message : "failed");
				rc = 1;
			}
			const char *text = patch.data ? patch.data : "";
			if (a->json) {
				json_t *o = json_object();
				json_object_set_new(o, "path", json_string(c->path));
				json_object_set_new(o, "change", json_string(kind_word(c->kind)));
				json_object_set_new(o, "binary", json_boolean(strstr(text, "Binary files") != NULL));
				json_object_set_new(o, "patch", json_stringn(text, patch.len));
				json_array_append_new(files, o);
			} else {
				fwrite(text, 1, patch.len, stdout);
			}
			strbuf_free(&patch);
		}
		if (a->json) {
			json_t *o = json_object();
			json_object_set_new(o, "files", files);
			print_json(o);
		} else {
			json_decref(files);
		}
	} else {
		struct layer_changes done, left;
		bool accepting = strcmp(a->cmd, "accept") == 0;
		if (accepting && a->force)
			for (size_t i = 0; i < all.len; i++) {
				free(all.items[i].why);
				all.items[i].why = NULL;
			}
		int r = accepting ? layer_accept(l, &all, rel, nrel, in_use, a->force, &done, &left, &err)
		                  : layer_reject(l, &all, rel, nrel, &done, &err);
		if (!accepting)
			memset(&left, 0, sizeof left);
		if (r != 0) {
			fprintf(stderr, "sbsh: --review --isolate %s: %s\n", a->cmd, err);
			rc = 1;
		}
		if (a->json) {
			json_t *o = json_object();
			json_object_set_new(o, "done", changes_json(&done, false));
			json_object_set_new(o, "skipped", changes_json(&left, true));
			print_json(o);
		} else {
			if (done.len == 0 && left.len == 0 && r == 0)
				printf("nothing to %s\n", a->cmd);
			if (done.len) {
				printf("%s:\n", accepting ? "accepted into the real folder" : "rejected (dropped from the layer)");
				print_changes(&done);
			}
			if (left.len) {
				printf("left as they are:\n");
				print_changes(&left);
			}
		}
		if (rc == 0 && left.len)
			rc = 3;
		layer_changes_free(&done);
		layer_changes_free(&left);
	}
	layer_changes_free(&all);
out:
	free(err);
	if (layer_lock >= 0)
		close(layer_lock);
	if (review_lock >= 0)
		close(review_lock);
	return rc;
}

int layer_review_main(int argc, char **argv)
{
	struct layer_args a;
	memset(&a, 0, sizeof a);
	int rc = parse_args(argc, argv, &a);
	if (rc != 0) {
		strvec_free(&a.paths);
		return rc;
	}
	if (a.dir && chdir(a.dir) != 0) {
		fprintf(stderr, "sbsh: --review --isolate: -C %s: %s\n", a.dir, strerror(errno));
		strvec_free(&a.paths);
		return 2;
	}
	char *cwd = getcwd(NULL, 0);
	char *root = cwd ? keeper_project_root(cwd) : NULL;
	char *state = root ? keeper_state_dir(root) : NULL;
	struct strvec rel;
	strvec_init(&rel);
	struct layer l = {0};
	char *why = NULL;
	const char *shared = state ? sandbox_shared_folder(state) : NULL;
	if (!state) {
		fprintf(stderr, "sbsh: --review --isolate: no project here (not / or $HOME itself)\n");
		rc = 1;
	} else if (shared) {
		fprintf(stderr, "sbsh: --review --isolate: the state folder %s is in %s, which the sandbox may write: its "
		                "layers are not trusted\n",
		        state, shared);
		rc = 1;
	} else if (inside_view(root)) {
		fprintf(stderr, "sbsh: --review --isolate: refused inside an isolated session: the real folder is out of "
		                "sight here; review it from outside\n");
		rc = 1;
	} else if (strcmp(a.cmd, "list") == 0) {
		rc = list_layers(root, state, a.json);
	} else if (layer_open(root, state, a.name, &l, &why) != 0) {
		fprintf(stderr, "sbsh: --review --isolate: %s\n", why);
		rc = 1;
	} else {
		for (size_t i = 0; i < a.paths.len && rc == 0; i++) {
			char *r = review_top_relative(root, cwd, a.paths.items[i]);
			if (!r) {
				fprintf(stderr, "sbsh: --review --isolate: %s is not in the project %s\n", a.paths.items[i], root);
				rc = 2;
			} else {
				strvec_push_owned(&rel, r);
			}
		}
		if (rc == 0) {
			git_libgit2_init();
			rc = run_command(&a, &l, rel.items, rel.len);
			git_libgit2_shutdown();
		}
	}
	layer_close(&l);
	strvec_free(&rel);
	free(why);
	free(state);
	free(root);
	free(cwd);
	strvec_free(&a.paths);
	return rc;
}
