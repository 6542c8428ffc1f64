/* sbsh --review: the human's side of the checkpoints (docs/checkpoints.md).
 * Runs outside the sandbox, in sbsh-keeper; from inside one the store is
 * not writable and every command that changes something is refused. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/proc_status.h"
#include "lib/util.h"
#include "trusted/keeper.h"
#include "trusted/keeper_start.h"
#include "trusted/layer_review.h"
#include "trusted/store.h"

struct review_args {
	const char *cmd;
	struct strvec paths;
	bool json, force, interactive;
	unsigned n;
	const char *dir;
};

static const char *change_word(enum store_change c)
{
	switch (c) {
	case STORE_ADDED:
		return "added";
	case STORE_DELETED:
		return "deleted";
	case STORE_NOT_KEPT:
		return "not_kept";
	default:
		return "modified";
	}
}

static json_t *changes_json(const struct store_changes *c)
{
	json_t *a = json_array();
	for (size_t i = 0; i < c->len; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "path", json_string(c->items[i].path));
		json_object_set_new(o, "change", json_string(change_word(c->items[i].change)));
		if (c->items[i].why)
			json_object_set_new(o, "why", json_string(c->items[i].why));
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

/* The path relative to the folder the human stands in, when it is under it. */
static const char *under_here(const char *path, const char *here_rel)
{
	size_t n = strlen(here_rel);
	if (n == 0 || !path)
		return path;
	if (strncmp(path, here_rel, n) == 0 && path[n] == '/')
		return path + n + 1;
	return NULL;
}

static void print_changes(const struct store_changes *c, const char *here_rel, const char *indent)
{
	for (int pass = 0; pass < 2; pass++) {
		bool header = false;
		for (size_t i = 0; i < c->len; i++) {
			const char *local = under_here(c->items[i].path, here_rel);
			if ((pass == 0) != (local != NULL))
				continue;
			if (!header && *here_rel) {
				printf("%s%s\n", indent, pass == 0 ? "here:" : "elsewhere in the project:");
				header = true;
			}
			printf("%s  %-9s %s%s%s%s\n", indent, change_word(c->items[i].change), pass == 0 ? local : c->items[i].path,
			       c->items[i].why ? " (" : "", c->items[i].why ? c->items[i].why : "", c->items[i].why ? ")" : "");
		}
	}
}

static int usage(const char *msg)
{
	fprintf(stderr, "sbsh: --review: %s\n"
	                "usage: sbsh --review [status|log [N]|diff [PATH...]|accept [PATH...]|reject [PATH...] [--force]|\n"
	                "                      undo [N] [--force]] [--json] [-C DIR]\n"
	                "       sbsh --review -i   (each change in turn: accept, reject, skip, or hunk by hunk)\n"
	                "       sbsh --review --isolate NAME|list ...   (an isolated session's layer: see sbsh(1))\n",
	        msg);
	return 2;
}

static int parse_args(int argc, char **argv, struct review_args *a)
{
	strvec_init(&a->paths);
	a->cmd = "status";
	a->n = 1;
	bool have_cmd = false;
	for (int i = 0; i < argc; i++) {
		const char *s = argv[i];
		if (strcmp(s, "--json") == 0)
			a->json = true;
		else if (strcmp(s, "--force") == 0 || strcmp(s, "-f") == 0)
			a->force = true;
		else if (strcmp(s, "-i") == 0 || strcmp(s, "--interactive") == 0)
			a->interactive = true;
		else if (strcmp(s, "-C") == 0 && i + 1 < argc)
			a->dir = argv[++i];
		else if (strcmp(s, "--") == 0) {
			for (i++; i < argc; i++)
				strvec_push(&a->paths, argv[i]);
		} else if (s[0] == '-' && s[1]) {
			char *m = xasprintf("unknown option %s", s);
			usage(m);
			free(m);
			return -1;
		} else if (!have_cmd) {
			static const char *const cmds[] = {"status", "log", "diff", "accept", "reject", "undo"};
			bool known = false;
			for (size_t k = 0; k < sizeof cmds / sizeof *cmds; k++)
				known = known || strcmp(s, cmds[k]) == 0;
			if (!known) {
				char *m = xasprintf("unknown command %s", s);
				usage(m);
				free(m);
				return -1;
			}
			a->cmd = s;
			have_cmd = true;
		} else {
			strvec_push(&a->paths, s);
		}
	}
	if (strcmp(a->cmd, "log") == 0 || strcmp(a->cmd, "undo") == 0) {
		a->n = strcmp(a->cmd, "log") == 0 ? 20 : 1;
		if (a->paths.len > 1) {
			usage("one number at most");
			return -1;
		}
		if (a->paths.len == 1) {
			char *end;
			errno = 0;
			unsigned long v = strtoul(a->paths.items[0], &end, 10);
			if (*end || end == a->paths.items[0] || errno || v == 0 || v > 100000) {
				usage("N must be a number from 1 to 100000");
				return -1;
			}
			a->n = (unsigned)v;
			strvec_free(&a->paths);
			strvec_init(&a->paths);
		}
	}
	return 0;
}

static void print_result(const struct review_args *a, const struct store_changes *done,
                         const struct store_changes *skipped, const char *here_rel)
{
	if (a->json) {
		json_t *o = json_object();
		json_object_set_new(o, "done", changes_json(done));
		json_object_set_new(o, "skipped", changes_json(skipped));
		print_json(o);
		return;
	}
	const char *verb = strcmp(a->cmd, "accept") == 0 ? "accepted" : strcmp(a->cmd, "reject") == 0 ? "rejected" : "undone";
	if (done->len == 0 && skipped->len == 0)
		printf("nothing to %s\n", a->cmd);
	if (done->len) {
		printf("%s:\n", verb);
		print_changes(done, here_rel, "");
	}
	if (skipped->len) {
		printf("left as they are:\n");
		print_changes(skipped, here_rel, "");
	}
}

/* Why this process may not change the checkpoints, or NULL. The store
 * is out of the sandbox's reach where the state folder should be; where
 * it is not (a state folder under /tmp), a process with no_new_privs and
 * a seccomp filter, as every sandboxed one has, must be vouched for by
 * the keeper, which compares what the kernel says of both. */
static const char *inside_sandbox(const char *state, const char *git_dir)
{
	if (access(git_dir, F_OK) == 0 && !store_writable(git_dir))
		return "the checkpoint store cannot be written from here";
	struct proc_confinement self;
	if (!proc_confinement_of(0, &self) || !self.no_new_privs || self.seccomp_filters == 0)
		return NULL;
	int outside = keeper_probe_outside(state);
	if (outside == 1)
		return NULL;
	return outside == 0 ? "the project's keeper says this process was made inside a sandbox"
	                    : "this process has no_new_privs and a seccomp filter, as a sandboxed one does, and the "
	                      "project's keeper cannot be reached from here to vouch for it";
}

/* One answer from the human: the first letter of a line on stdin, or 'q'
 * at its end. */
static char ask(const char *question, const char *allowed)
{
	for (;;) {
		printf("%s ", question);
		fflush(stdout);
		char line[128];
		if (!fgets(line, sizeof line, stdin))
			return 'q';
		char c = line[0];
		if (c && strchr(allowed, c))
			return c;
		printf("answer one of: %s\n", allowed);
	}
}

/* sbsh --review -i: each changed path, then (asked for) each hunk. */
static int review_interactive(struct store *s, const char *here_rel, char **err)
{
	struct store_changes all = {0};
	struct strvec patches;
	strvec_init(&patches);
	if (store_diff(s, NULL, 0, NULL, &all, &patches, err) != 0)
		return 1;
	int rc = 0;
	for (size_t i = 0; i < all.len; i++) {
		const char *path = all.items[i].path;
		const char *local = under_here(path, here_rel);
		printf("\n== %s %s (%zu of %zu)\n", change_word(all.items[i].change), local ? local : path, i + 1, all.len);
		fputs(i < patches.len ? patches.items[i] : "", stdout);
		struct strvec hunks;
		strvec_init(&hunks);
		bool by_hunk = store_file_hunks(s, path, &hunks, err) == 0 && hunks.len > 1;
		char c = ask(by_hunk ? "[a]ccept, [r]eject, [s]kip, [h]unk by hunk, [q]uit?" : "[a]ccept, [r]eject, [s]kip, [q]uit?",
		             by_hunk ? "arshq" : "arsq");
		struct store_changes done = {0}, skipped = {0};
		char *one[1] = {(char *)path};
		int r = 0;
		if (c == 'a')
			r = store_accept(s, one, 1, &done, err);
		else if (c == 'r')
			r = store_reject(s, one, 1, false, &done, &skipped, err);
		else if (c == 'h') {
			struct strbuf d;
			strbuf_init(&d);
			for (size_t h = 0; h < hunks.len; h++) {
				printf("\n-- hunk %zu of %zu\n%s", h + 1, hunks.len, hunks.items[h]);
				char hc = ask("[a]ccept, [r]eject, [s]kip, [q]uit?", "arsq");
				if (hc == 'q') {
					while (d.len < hunks.len)
						strbuf_addc(&d, 's');
					c = 'q';
					break;
				}
				strbuf_addc(&d, hc);
			}
			r = strchr(d.data ? d.data : "", 'a') || strchr(d.data ? d.data : "", 'r')
			        ? store_apply_hunks(s, path, d.data, err)
			        : 0;
			strbuf_free(&d);
		}
		if (r != 0) {
			fprintf(stderr, "sbsh: --review -i: %s\n", *err);
			free(*err);
			*err = NULL;
			rc = 1;
		}
		for (size_t k = 0; k < skipped.len; k++)
			printf("left as it is: %s (%s)\n", skipped.items[k].path, skipped.items[k].why);
		store_changes_free(&done);
		store_changes_free(&skipped);
		strvec_free(&hunks);
		if (c == 'q')
			break;
	}
	if (all.len == 0)
		printf("nothing changed since the accepted state\n");
	store_changes_free(&all);
	strvec_free(&patches);
	return rc;
}

int review_main(int argc, char **argv)
{
	/* an isolated session's layer (docs/isolation.md) */
	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], "--isolate") == 0)
			return layer_review_main(argc, argv);
	struct review_args a;
	memset(&a, 0, sizeof a);
	if (parse_args(argc, argv, &a) != 0)
		return 2;
	if (a.dir && chdir(a.dir) != 0) {
		fprintf(stderr, "sbsh: --review: -C %s: %s\n", a.dir, strerror(errno));
		return 2;
	}
	char *cwd = getcwd(NULL, 0);
	char *root = cwd ? keeper_project_root(cwd) : NULL;
	char *state = root ? keeper_state_dir(root) : NULL;
	if (!state) {
		fprintf(stderr, "sbsh: --review: no project here (checkpoints are not made in / or in $HOME itself)\n");
		free(cwd);
		free(root);
		return 1;
	}
	char *git_dir = xasprintf("%s/store.git", state);
	char *err = NULL;
	int rc = 0;
	bool changes_something = strcmp(a.cmd, "accept") == 0 || strcmp(a.cmd, "reject") == 0 ||
	                         strcmp(a.cmd, "undo") == 0 || a.interactive;
	struct store *s = NULL;
	const char *inside = changes_something ? inside_sandbox(state, git_dir) : NULL;
	if (inside) {
		fprintf(stderr, "sbsh: --review %s: refused: %s (only the human, outside the sandbox, may accept, "
		                "reject or undo)\n",
		        a.cmd, inside);
		rc = 1;
		goto out;
	}
	/* From inside the sandbox the store is hidden (sandbox/hide.c): it
	 * holds copies of every project's files, secrets included. */
	char *head = xasprintf("%s/HEAD", git_dir);
	int head_fd = open(head, O_RDONLY | O_CLOEXEC);
	int head_err = errno;
	free(head);
	if (head_fd >= 0)
		close(head_fd);
	else if (head_err == EACCES) {
		fprintf(stderr, "sbsh: --review %s: the checkpoint store is hidden from the sandbox (it holds copies of "
		                "the project's files, secrets included); run sbsh --review outside it\n",
		        a.cmd);
		rc = 1;
		goto out;
	}
	s = store_open(git_dir, root, NULL, false, &err);
	if (!s) {
		fprintf(stderr, "sbsh: --review: %s\n", err);
		rc = 1;
		goto out;
	}
	const char *here_rel = strlen(cwd) > strlen(root) ? cwd + strlen(root) + 1 : "";
	struct strvec rel;
	strvec_init(&rel);
	for (size_t i = 0; i < a.paths.len; i++) {
		char *r = review_top_relative(root, cwd, a.paths.items[i]);
		if (!r) {
			fprintf(stderr, "sbsh: --review: %s is not in the project %s\n", a.paths.items[i], root);
			rc = 2;
			strvec_free(&rel);
			goto out;
		}
		strvec_push_owned(&rel, r);
	}
	struct store_changes done = {0}, skipped = {0}, not_kept = {0};
	if (a.interactive) {
		rc = review_interactive(s, here_rel, &err);
	} else if (strcmp(a.cmd, "status") == 0) {
		if (store_status(s, &done, &skipped, &not_kept, &err) != 0)
			rc = 1;
		else if (a.json) {
			json_t *o = json_object();
			json_object_set_new(o, "project", json_string(root));
			json_object_set_new(o, "store", json_string(git_dir));
			json_object_set_new(o, "changes", changes_json(&done));
			json_object_set_new(o, "unrecorded", changes_json(&skipped));
			json_object_set_new(o, "not_kept", changes_json(&not_kept));
			print_json(o);
		} else {
			printf("project %s\n", root);
			if (done.len == 0)
				printf("nothing changed since the accepted state\n");
			else {
				printf("changed since the accepted state:\n");
				print_changes(&done, here_rel, "");
			}
			if (skipped.len) {
				printf("on disk but not recorded yet (a line still running, an editor):\n");
				print_changes(&skipped, here_rel, "");
			}
			if (not_kept.len) {
				printf("not kept (undo and reject cannot bring these back):\n");
				print_changes(&not_kept, here_rel, "");
			}
		}
	} else if (strcmp(a.cmd, "log") == 0) {
		struct store_entry *e = NULL;
		size_t n = 0;
		if (store_log(s, a.n, &e, &n, &err) != 0)
			rc = 1;
		else if (a.json) {
			json_t *arr = json_array();
			for (size_t i = 0; i < n; i++) {
				json_t *o = json_object();
				json_object_set_new(o, "id", json_string(e[i].hex));
				json_object_set_new(o, "kind", json_string(e[i].kind));
				if (e[i].line)
					json_object_set_new(o, "line", json_string(e[i].line));
				if (e[i].session)
					json_object_set_new(o, "session", json_string(e[i].session));
				if (e[i].undid)
					json_object_set_new(o, "undid", json_string(e[i].undid));
				json_object_set_new(o, "time", json_integer(e[i].time));
				json_object_set_new(o, "status", json_integer(e[i].status));
				json_object_set_new(o, "changes", changes_json(&e[i].changes));
				if (e[i].pruned) {
					json_t *pr = json_object();
					json_object_set_new(pr, "checkpoints", json_integer(e[i].pruned));
					json_object_set_new(pr, "until", json_integer(e[i].pruned_until));
					json_object_set_new(o, "pruned_before", pr);
				}
				json_array_append_new(arr, o);
			}
			json_t *o = json_object();
			json_object_set_new(o, "checkpoints", arr);
			print_json(o);
		} else {
			for (size_t i = 0; i < n; i++) {
				char when[32];
				time_t t = (time_t)e[i].time;
				struct tm tm;
				localtime_r(&t, &tm);
				strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
				printf("%.12s %s %-7s %s", e[i].hex, when, e[i].kind, e[i].line ? e[i].line : "");
				if (e[i].status > 0)
					printf("  (status %d)", e[i].status);
				printf("\n");
				print_changes(&e[i].changes, "", "   ");
				if (e[i].pruned) {
					time_t pt = (time_t)e[i].pruned_until;
					struct tm ptm;
					localtime_r(&pt, &ptm);
					strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &ptm);
					printf("(%lld older checkpoints, the newest of them from %s, were pruned to keep the "
					       "store bounded: what only they held cannot be brought back)\n",
					       (long long)e[i].pruned, when);
				}
			}
		}
		store_entries_free(e, n);
	} else if (strcmp(a.cmd, "diff") == 0) {
		struct strbuf out;
		strbuf_init(&out);
		struct strvec patches;
		strvec_init(&patches);
		if (store_diff(s, rel.items, rel.len, &out, a.json ? &done : NULL, &patches, &err) != 0)
			rc = 1;
		else if (a.json) {
			json_t *arr = json_array();
			for (size_t i = 0; i < done.len; i++) {
				json_t *o = json_object();
				json_object_set_new(o, "path", json_string(done.items[i].path));
				json_object_set_new(o, "change", json_string(change_word(done.items[i].change)));
				const char *p = i < patches.len ? patches.items[i] : "";
				json_object_set_new(o, "binary", json_boolean(strstr(p, "Binary files") != NULL));
				json_object_set_new(o, "patch", json_stringn(p, strlen(p)));
				json_array_append_new(arr, o);
			}
			json_t *o = json_object();
			json_object_set_new(o, "files", arr);
			print_json(o);
		} else {
			fwrite(out.data ? out.data : "", 1, out.len, stdout);
		}
		strbuf_free(&out);
		strvec_free(&patches);
	} else {
		int r;
		if (strcmp(a.cmd, "accept") == 0)
			r = store_accept(s, rel.items, rel.len, &done, &err);
		else if (strcmp(a.cmd, "reject") == 0)
			r = store_reject(s, rel.items, rel.len, a.force, &done, &skipped, &err);
		else
			r = store_undo(s, a.n, NULL, a.force, &done, &skipped, &err);
		if (r != 0)
			rc = 1;
		else
			print_result(&a, &done, &skipped, here_rel);
		if (r == 0 && skipped.len)
			rc = 3;
	}
	if (rc == 1 && err)
		fprintf(stderr, "sbsh: --review %s: %s\n", a.cmd, err);
	store_changes_free(&done);
	store_changes_free(&skipped);
	store_changes_free(&not_kept);
	strvec_free(&rel);
out:
	store_close(s);
	free(err);
	free(git_dir);
	free(state);
	free(root);
	free(cwd);
	strvec_free(&a.paths);
	return rc;
}
