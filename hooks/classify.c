/* The classifier's engine: the static walk over a command line's AST, the
 * resolution of words to what is known of them before anything runs, and
 * the dynamic check of a final argv. The rules themselves are in rules.c
 * and rules/. */
#include "hooks/classify.h"
#include "lib/gitconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shell/parser.h"
#include "hooks/identity.h"
#include "hooks/rules.h"
#include "lib/util.h"

/* Nesting of sh -c / eval / alias / function text judged inside a line. */
#define CLASSIFY_MAX_DEPTH 12

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_SAFE: return "SAFE";
	case VERDICT_ASK: return "ASK";
	case VERDICT_DELETE: return "DELETE";
	case VERDICT_PUBLISH: return "PUBLISH";
	case VERDICT_FORCE_PUSH: return "FORCE_PUSH";
	case VERDICT_ESCAPE: return "ESCAPE";
	}
	return "ASK";
}

void classify_result_init(struct classify_result *r)
{
	memset(r, 0, sizeof *r);
	r->verdict = VERDICT_SAFE;
}

void classify_result_free(struct classify_result *r)
{
	for (size_t i = 0; i < r->nitems; i++) {
		free(r->items[i].reason);
		free(r->items[i].command);
		free(r->items[i].word);
	}
	free(r->items);
	for (size_t i = 0; i < r->nbindings; i++) {
		free(r->bindings[i].stdin_text);
		free(r->bindings[i].procsubs);
	}
	free(r->bindings);
	free(r->bind_slots);
	for (size_t i = 0; i < r->nwritten; i++)
		free(r->written[i]);
	free(r->written);
	for (size_t i = 0; i < r->nwords; i++)
		free(r->words[i]);
	free(r->words);
	free(r->word_nodes);
	for (size_t i = 0; i < r->nsealed; i++)
		free(r->sealed[i].path);
	free(r->sealed);
	classify_result_init(r);
}

static size_t node_slot(const struct node *n, size_t nslots)
{
	uintptr_t h = (uintptr_t)n;
	h ^= h >> 17;
	h *= (uintptr_t)0x9e3779b97f4a7c15ULL;
	return (size_t)(h ^ (h >> 29)) & (nslots - 1);
}

/* A line may hold hundreds of thousands of commands: found by address in
 * constant time, not by a walk. */
const struct classify_binding *classify_binding_of(const struct classify_result *r, const struct node *n)
{
	if (!n || !r->nslots)
		return NULL;
	for (size_t s = node_slot(n, r->nslots);; s = (s + 1) & (r->nslots - 1)) {
		size_t k = r->bind_slots[s];
		if (k == 0)
			return NULL;
		if (r->bindings[k - 1].node == n)
			return &r->bindings[k - 1];
	}
}

static void bind_slots_put(struct classify_result *r, size_t index)
{
	size_t s = node_slot(r->bindings[index].node, r->nslots);
	while (r->bind_slots[s])
		s = (s + 1) & (r->nslots - 1);
	r->bind_slots[s] = index + 1;
}

/* Room for the bindings at most half full; true when they were all put
 * again (the newest among them). */
static bool bind_slots_grow(struct classify_result *r)
{
	if (r->nbindings * 2 < r->nslots)
		return false;
	free(r->bind_slots);
	r->nslots = r->nslots ? r->nslots * 2 : 16;
	r->bind_slots = xcalloc(r->nslots, sizeof *r->bind_slots);
	for (size_t i = 0; i < r->nbindings; i++)
		bind_slots_put(r, i);
	return true;
}

/* ---- git config cache ----------------------------------------------- */

struct git_cfg_file {
	char *path;
	bool exists;
	struct timespec mtime;
	off_t size;
	struct strvec aliases; /* name, value, name, value ... */
	bool forces_push;      /* remote.*.mirror = true, or remote.*.push = +x / :x */
	bool unread;           /* bigger than GIT_CFG_MAX: what it says is not known */
};

/* Bigger config files are not read (git's own are a few KB): a sparse
 * multi-GB file must not hold up the line that names it. */
#define GIT_CFG_MAX (4 << 20)
/* Marks an include among a file's aliases ("\001" is no alias name). */
#define GIT_CFG_INCLUDE "\001include"
/* git's own limit on nested includes */
#define GIT_CFG_MAX_INCLUDE 10

/* A rule from the config file (classifier_add_rule): the shape of the
 * built-in subcommand rules, for the programs it names. */
struct user_rule {
	char *program;             /* a glob for the program's basename */
	struct operand_rule rule;  /* its verdict, and its operand patterns */
	char *operands;            /* rule.operands: the patterns, space-separated */
	char *text;                /* as written, for the reason */
};

struct classifier {
	char *home, *xdg, *cwd;
	bool no_git_config;
	classify_lookup_fn *lookup; /* the shell's exported variables, or NULL: getenv */
	void *lookup_ctx;
	classify_approved_fn *approved; /* pre-approvals of commands inside text, or NULL */
	void *approved_ctx;
	classify_agent_file_fn *agent_file; /* program files that are the agent's text, or NULL */
	void *agent_file_ctx;
	struct git_cfg_file *files;
	size_t nfiles;
	struct user_rule *rules;
	size_t nrules;
	struct program_ids *ids; /* what programs in writable folders are */
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void classifier_set_env(struct classifier *cl, const struct classify_env *env)
{
	free(cl->home);
	free(cl->xdg);
	free(cl->cwd);
	cl->home = dup_or_null(env ? env->home : NULL);
	cl->xdg = dup_or_null(env ? env->xdg_config_home : NULL);
	cl->cwd = dup_or_null(env ? env->cwd : NULL);
	cl->no_git_config = env && env->no_git_config;
}

void classifier_set_writable(struct classifier *cl, char *const *folders)
{
	program_ids_set_writable(cl->ids, folders);
}

void classifier_set_approved(struct classifier *cl, classify_approved_fn *approved, void *ctx)
{
	cl->approved = approved;
	cl->approved_ctx = ctx;
}

void classifier_set_lookup(struct classifier *cl, classify_lookup_fn *lookup, void *ctx)
{
	cl->lookup = lookup;
	cl->lookup_ctx = ctx;
}

void classifier_set_agent_file(struct classifier *cl, classify_agent_file_fn *agent_file, void *ctx)
{
	cl->agent_file = agent_file;
	cl->agent_file_ctx = ctx;
}

static const char *process_env(const struct classifier *cl, const char *name)
{
	return cl->lookup ? cl->lookup(cl->lookup_ctx, name) : getenv(name);
}

struct classifier *classifier_create(const struct classify_env *env)
{
	struct classifier *cl = xcalloc(1, sizeof *cl);
	classifier_set_env(cl, env);
	cl->ids = program_ids_create(rules_name_known);
	return cl;
}

void classifier_destroy(struct classifier *cl)
{
	if (!cl)
		return;
	for (size_t i = 0; i < cl->nfiles; i++) {
		free(cl->files[i].path);
		strvec_free(&cl->files[i].aliases);
	}
	free(cl->files);
	for (size_t i = 0; i < cl->nrules; i++) {
		free(cl->rules[i].program);
		free(cl->rules[i].operands);
		free(cl->rules[i].text);
	}
	free(cl->rules);
	program_ids_destroy(cl->ids);
	free(cl->home);
	free(cl->xdg);
	free(cl->cwd);
	free(cl);
}

struct classifier *classifier_with_rules(char *const *rules)
{
	struct classifier *cl = classifier_create(NULL);
	for (char *const *r = rules; r && *r; r++) {
		char *why = NULL;
		classifier_add_rule(cl, *r, &why);
		free(why);
	}
	return cl;
}

int classifier_add_rule(struct classifier *cl, const char *spec, char **error)
{
	*error = NULL;
	struct strvec words;
	strvec_init(&words);
	for (const char *s = spec; *s;) {
		while (*s == ' ' || *s == '\t')
			s++;
		size_t n = strcspn(s, " \t");
		if (n)
			strvec_push_owned(&words, xstrndup(s, n));
		s += n;
	}
	static const enum verdict allowed[] = {VERDICT_ASK, VERDICT_DELETE, VERDICT_PUBLISH,
	                                       VERDICT_FORCE_PUSH, VERDICT_ESCAPE};
	int v = -1;
	for (size_t i = 0; words.len && i < sizeof allowed / sizeof allowed[0]; i++)
		if (strcmp(words.items[0], verdict_name(allowed[i])) == 0)
			v = (int)allowed[i];
	if (words.len && strcmp(words.items[0], "SAFE") == 0)
		*error = xstrdup("a rule cannot make a command SAFE (pre-approve it in allow.json instead)");
	else if (v < 0)
		*error = xstrdup("expected VERDICT PROGRAM [OPERAND...], VERDICT one of ASK, DELETE, "
		                 "PUBLISH, FORCE_PUSH, ESCAPE");
	else if (words.len < 2)
		*error = xstrdup("a rule needs the program it applies to");
	if (*error) {
		strvec_free(&words);
		return -1;
	}
	if (!cl) {
		strvec_free(&words);
		return 0;
	}
	/* the program by its basename, as the built-in rules see it */
	char *prog = words.items[1];
	const char *slash = strrchr(prog, '/');
	if (slash && slash[1])
		memmove(prog, slash + 1, strlen(slash + 1) + 1);
	struct strbuf operands;
	strbuf_init(&operands);
	for (size_t i = 2; i < words.len; i++) {
		if (i > 2)
			strbuf_addc(&operands, ' ');
		strbuf_adds(&operands, words.items[i]);
	}
	cl->rules = xreallocarray(cl->rules, cl->nrules + 1, sizeof *cl->rules);
	struct user_rule *r = &cl->rules[cl->nrules++];
	r->program = xstrdup(prog);
	r->operands = xstrndup(operands.data ? operands.data : "", operands.len);
	r->rule = (struct operand_rule){.verdict = (enum verdict)v, .operands = r->operands};
	r->text = xstrdup(spec);
	strbuf_free(&operands);
	strvec_free(&words);
	return 0;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* Keeps what the classifier needs of a config file: aliases and push
 * behaviour; everything else is skipped. */
static bool git_cfg_take(const struct gitconfig_entry *e, void *ctx)
{
	struct git_cfg_file *f = ctx;
	const char *value = e->value ? e->value : "true";
	if (strcmp(e->section, "alias") == 0 && !e->subsection) {
		strvec_push(&f->aliases, e->key);
		strvec_push(&f->aliases, value);
	} else if (strcmp(e->key, "path") == 0 && (strcmp(e->section, "include") == 0 ||
	                                           (strcmp(e->section, "includeif") == 0 && e->subsection))) {
		/* another file read at this point: kept in order with the aliases
		 * (an includeIf is followed whatever its condition) */
		strvec_push(&f->aliases, GIT_CFG_INCLUDE);
		strvec_push(&f->aliases, value);
	} else if (strcmp(e->section, "remote") == 0 && e->subsection) {
		if ((strcmp(e->key, "mirror") == 0 && strcmp(value, "false") != 0) ||
		    (strcmp(e->key, "push") == 0 && (value[0] == '+' || value[0] == ':')))
			f->forces_push = true;
	}
	return true;
}

static struct git_cfg_file *git_cfg_load(struct classifier *cl, const char *path)
{
	struct git_cfg_file *f = NULL;
	for (size_t i = 0; i < cl->nfiles; i++)
		if (strcmp(cl->files[i].path, path) == 0)
			f = &cl->files[i];
	struct stat st;
	bool exists = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	if (f && f->exists == exists &&
	    (!exists || (f->mtime.tv_sec == st.st_mtim.tv_sec && f->mtime.tv_nsec == st.st_mtim.tv_nsec &&
	                 f->size == st.st_size)))
		return f;
	if (!f) {
		cl->files = xreallocarray(cl->files, cl->nfiles + 1, sizeof *cl->files);
		f = &cl->files[cl->nfiles++];
		memset(f, 0, sizeof *f);
		f->path = xstrdup(path);
	}
	strvec_free(&f->aliases);
	f->forces_push = false;
	f->exists = exists;
	f->unread = exists && st.st_size > GIT_CFG_MAX;
	if (exists && !f->unread) {
		f->mtime = st.st_mtim;
		f->size = st.st_size;
		/* what the stat saw may have been swapped for a FIFO since: never
		 * wait on one (util_read_file reads only a regular file) */
		size_t len = 0;
		char *text = util_read_file(path, 0, GIT_CFG_MAX, &len);
		if (text) {
			/* git refuses a file with a syntax error: what follows
			 * one never counts */
			gitconfig_parse(text, len, git_cfg_take, f, NULL);
			free(text);
		}
	}
	return f;
}

/* The variables git finds its config files by, as the judged command
 * will see them (NULL: unset). */
struct git_cfg_env {
	const char *home, *xdg;
	const char *global, *system; /* GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM */
	bool nosystem;               /* GIT_CONFIG_NOSYSTEM */
};

/* The config files git would read, lowest priority first. */
static size_t git_cfg_paths(struct classifier *cl, const struct git_cfg_env *e, const char *dir,
                            const char *gitdir, char **paths)
{
	size_t n = 0;
	if (!e->nosystem)
		paths[n++] = xstrdup(e->system ? e->system : "/etc/gitconfig");
	if (e->global) {
		paths[n++] = xstrdup(e->global);
	} else {
		if (e->xdg && *e->xdg)
			paths[n++] = xasprintf("%s/git/config", e->xdg);
		else if (e->home)
			paths[n++] = xasprintf("%s/.config/git/config", e->home);
		if (e->home)
			paths[n++] = xasprintf("%s/.gitconfig", e->home);
	}

	char cwdbuf[4096];
	const char *cwd = cl->cwd;
	if (!cwd)
		cwd = getcwd(cwdbuf, sizeof cwdbuf);
	if (!cwd)
		return n;
	char *start;
	if (gitdir) {
		start = gitdir[0] == '/' || !dir ? xstrdup(gitdir) : xasprintf("%s/%s", dir, gitdir);
		if (start[0] != '/') {
			char *abs = xasprintf("%s/%s", cwd, start);
			free(start);
			start = abs;
		}
		paths[n++] = xasprintf("%s/config", start);
		free(start);
		return n;
	}
	if (dir)
		start = dir[0] == '/' ? xstrdup(dir) : xasprintf("%s/%s", cwd, dir);
	else
		start = xstrdup(cwd);
	/* Walk up to the repository, as git discovers it. */
	for (int guard = 0; guard < 64; guard++) {
		char *dotgit = xasprintf("%s/.git", start);
		struct stat st;
		if (stat(dotgit, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				paths[n++] = xasprintf("%s/config", dotgit);
			} else {
				/* A worktree or submodule: "gitdir: PATH". */
				FILE *fp = util_fopen_regular(dotgit);
				char buf[4096];
				if (fp && fgets(buf, sizeof buf, fp) && strncmp(buf, "gitdir:", 7) == 0) {
					char *p = trim(buf + 7);
					p[strcspn(p, "\n")] = '\0';
					paths[n++] = p[0] == '/' ? xasprintf("%s/config", p)
					                         : xasprintf("%s/%s/config", start, p);
				}
				if (fp)
					fclose(fp);
			}
			free(dotgit);
			break;
		}
		free(dotgit);
		char *slash = strrchr(start, '/');
		if (!slash || slash == start)
			break;
		*slash = '\0';
	}
	free(start);
	return n;
}

/* Reads one config file as git does, the files it includes at the point
 * of their include (relative to its folder, ~/ in HOME). Files are found
 * by index: loading another may move the cache. */
static void git_cfg_scan(struct classifier *cl, const struct git_cfg_env *e, size_t fi, const char *name,
                         const char **found, bool *forces_push, const char **unread, unsigned depth)
{
	struct git_cfg_file *f = &cl->files[fi];
	if (f->unread && !*unread)
		*unread = f->path;
	if (forces_push && f->forces_push)
		*forces_push = true;
	for (size_t k = 0; k + 1 < cl->files[fi].aliases.len; k += 2) {
		f = &cl->files[fi];
		const char *key = f->aliases.items[k], *value = f->aliases.items[k + 1];
		if (strcmp(key, GIT_CFG_INCLUDE) != 0) {
			if (name && strcasecmp(key, name) == 0)
				*found = value;
			continue;
		}
		if (depth >= GIT_CFG_MAX_INCLUDE) {
			*unread = *unread ? *unread : f->path; /* what git would read is not known */
			continue;
		}
		char *path;
		if (value[0] == '~' && value[1] == '/')
			path = e->home ? xasprintf("%s%s", e->home, value + 1) : NULL;
		else if (value[0] == '/')
			path = xstrdup(value);
		else {
			const char *slash = strrchr(f->path, '/');
			path = xasprintf("%.*s/%s", slash ? (int)(slash - f->path) : 1, slash ? f->path : ".", value);
		}
		if (!path)
			continue;
		size_t gi = (size_t)(git_cfg_load(cl, path) - cl->files);
		free(path);
		git_cfg_scan(cl, e, gi, name, found, forces_push, unread, depth + 1);
	}
}

/* *unread: the path of a file git would read that was too big to. */
static const char *git_alias_lookup(struct classifier *cl, const struct git_cfg_env *e, const char *dir,
                                    const char *gitdir, const char *name, bool *forces_push,
                                    const char **unread)
{
	*unread = NULL;
	if (cl->no_git_config)
		return NULL;
	char *paths[8];
	size_t n = git_cfg_paths(cl, e, dir, gitdir, paths);
	const char *found = NULL;
	for (size_t i = 0; i < n; i++) {
		size_t fi = (size_t)(git_cfg_load(cl, paths[i]) - cl->files);
		free(paths[i]);
		git_cfg_scan(cl, e, fi, name, &found, forces_push, unread, 0);
	}
	return found;
}

/* ---- the context of one classification ------------------------------- */

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, cap;
	char data[];
};

struct var_entry {
	char *name;
	char *value; /* NULL: not known */
};

struct func_entry {
	char *name;
	const struct node *body;
};

struct file_entry {
	char *name;
	char *text; /* NULL: written, content not known */
};

/* What earlier commands of the same line defined: constant variables,
 * functions, aliases, files written. */
struct line_state {
	struct var_entry *vars;
	size_t nvars;
	struct func_entry *funcs;
	size_t nfuncs;
	struct var_entry *aliases;
	size_t naliases;
	struct file_entry *files;
	size_t nfiles;
	struct var_entry *copies; /* a program copied on the line: its name, the system program's path */
	size_t ncopies;
	unsigned calls; /* function calls being judged, against recursion */
};

struct croot {
	struct classifier *cl;
	struct classify_result *res;
	struct arena_chunk *arena;
	struct node **asts; /* nested programs parsed on the way; sargs may point into them */
	size_t nasts;
	struct line_state **states;
	size_t nstates;
	bool dynamic;
	unsigned long steps; /* nodes visited: a bound on functions and aliases that multiply */
	const struct classify_facts *facts; /* the dynamic pass's, or NULL */
	/* The agent's program files read so far, with the depth each was
	 * read at: one that runs itself is judged once. */
	const char **agent_files;
	unsigned *agent_depths;
	size_t nagent;
	/* The dynamic pass: the argv the shell runs and the file its PATH
	 * search found (NULL for a builtin); names_only while it is judged
	 * again by the name of the file a symlink leads to. */
	const struct sarg *program_argv;
	const char *program_path;
	bool names_only;
};

/* Beyond this many nodes a line is ASK rather than judged forever. */
#define CLASSIFY_MAX_STEPS 200000UL

struct cctx {
	struct croot *root;
	bool quiet; /* re-reading a command already judged: record nothing */
	bool nested; /* inside text parsed on the way (sh -c, eval, aliases): its nodes never run */
	struct line_state *ls;
	unsigned depth;
	/* Positional parameters ($0 first); NULL when not known. */
	const struct sarg *pos;
	size_t npos;
	/* Inside a part of the text that may run or not, or more than once
	 * (a branch, a loop, the right of && or ||, a subshell): there a set
	 * or shift leaves the positional parameters unknown. */
	unsigned branch;
	/* Assignments in the environment of the command being judged, the
	 * commands it runs under included (later ones win). */
	const char *const *env_names;
	const struct sarg *env_values;
	size_t nenv;
};

static void *arena_alloc(struct croot *r, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	struct arena_chunk *ch = r->arena;
	if (!ch || ch->cap - ch->used < n) {
		size_t cap = n > 4000 ? n : 4000;
		ch = xmalloc(sizeof *ch + cap);
		ch->cap = cap;
		ch->used = 0;
		ch->next = r->arena;
		r->arena = ch;
	}
	void *p = ch->data + ch->used;
	ch->used += n;
	return p;
}

char *cl_strndup(struct cctx *c, const char *s, size_t n)
{
	char *p = arena_alloc(c->root, n + 1);
	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void *cl_alloc(struct cctx *c, size_t n)
{
	return arena_alloc(c->root, n);
}

char *cl_strdup(struct cctx *c, const char *s)
{
	return cl_strndup(c, s, strlen(s));
}

char *cl_printf(struct cctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	char *p = cl_strndup(c, sb.data, sb.len);
	strbuf_free(&sb);
	return p;
}

static struct line_state *state_new(struct croot *r)
{
	struct line_state *ls = xcalloc(1, sizeof *ls);
	r->states = xreallocarray(r->states, r->nstates + 1, sizeof(struct line_state *));
	r->states[r->nstates++] = ls;
	return ls;
}

static void var_entries_free(struct var_entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].value);
	}
	free(v);
}

static void state_free(struct line_state *ls)
{
	var_entries_free(ls->vars, ls->nvars);
	var_entries_free(ls->aliases, ls->naliases);
	var_entries_free(ls->copies, ls->ncopies);
	for (size_t i = 0; i < ls->nfuncs; i++)
		free(ls->funcs[i].name);
	for (size_t i = 0; i < ls->nfiles; i++) {
		free(ls->files[i].name);
		free(ls->files[i].text);
	}
	free(ls->funcs);
	free(ls->files);
	free(ls);
}

static void root_init(struct croot *r, struct classifier *cl, struct classify_result *res, bool dynamic)
{
	memset(r, 0, sizeof *r);
	r->cl = cl;
	r->res = res;
	r->dynamic = dynamic;
}

static void root_free(struct croot *r)
{
	while (r->arena) {
		struct arena_chunk *next = r->arena->next;
		free(r->arena);
		r->arena = next;
	}
	for (size_t i = 0; i < r->nasts; i++)
		ast_node_free(r->asts[i]);
	free(r->asts);
	for (size_t i = 0; i < r->nstates; i++)
		state_free(r->states[i]);
	free(r->states);
}

/* Variables: set to a known constant, or marked unknown when assigned
 * something unknown or two different constants (branches are not pruned). */
static void var_set(struct line_state *ls, const char *name, const char *value)
{
	for (size_t i = 0; i < ls->nvars; i++) {
		struct var_entry *v = &ls->vars[i];
		if (strcmp(v->name, name) != 0)
			continue;
		if (v->value && (!value || strcmp(v->value, value) != 0)) {
			free(v->value);
			v->value = NULL;
		}
		return;
	}
	ls->vars = xreallocarray(ls->vars, ls->nvars + 1, sizeof *ls->vars);
	ls->vars[ls->nvars].name = xstrdup(name);
	ls->vars[ls->nvars].value = dup_or_null(value);
	ls->nvars++;
}

static bool var_assigned(struct line_state *ls, const char *name)
{
	for (size_t i = 0; i < ls->nvars; i++)
		if (strcmp(ls->vars[i].name, name) == 0)
			return true;
	return false;
}

static const char *var_get(struct line_state *ls, const char *name)
{
	for (size_t i = 0; i < ls->nvars; i++)
		if (strcmp(ls->vars[i].name, name) == 0)
			return ls->vars[i].value;
	return NULL;
}

static void alias_set(struct line_state *ls, const char *name, const char *value)
{
	for (size_t i = 0; i < ls->naliases; i++)
		if (strcmp(ls->aliases[i].name, name) == 0) {
			free(ls->aliases[i].value);
			ls->aliases[i].value = xstrdup(value);
			return;
		}
	ls->aliases = xreallocarray(ls->aliases, ls->naliases + 1, sizeof *ls->aliases);
	ls->aliases[ls->naliases].name = xstrdup(name);
	ls->aliases[ls->naliases].value = xstrdup(value);
	ls->naliases++;
}

static const char *alias_get(struct line_state *ls, const char *name)
{
	for (size_t i = 0; i < ls->naliases; i++)
		if (strcmp(ls->aliases[i].name, name) == 0)
			return ls->aliases[i].value;
	return NULL;
}

/* Removes an alias for the time of its own expansion; returns its value. */
static char *alias_take(struct line_state *ls, const char *name)
{
	for (size_t i = 0; i < ls->naliases; i++)
		if (strcmp(ls->aliases[i].name, name) == 0) {
			char *v = ls->aliases[i].value;
			free(ls->aliases[i].name);
			ls->aliases[i] = ls->aliases[--ls->naliases];
			return v;
		}
	return NULL;
}

static void alias_put_back(struct line_state *ls, const char *name, char *value)
{
	if (!value)
		return;
	if (alias_get(ls, name)) {
		free(value); /* redefined inside its own expansion: that one stays */
		return;
	}
	ls->aliases = xreallocarray(ls->aliases, ls->naliases + 1, sizeof *ls->aliases);
	ls->aliases[ls->naliases].name = xstrdup(name);
	ls->aliases[ls->naliases].value = value;
	ls->naliases++;
}

static void func_set(struct line_state *ls, const char *name, const struct node *body)
{
	for (size_t i = 0; i < ls->nfuncs; i++)
		if (strcmp(ls->funcs[i].name, name) == 0) {
			ls->funcs[i].body = body;
			return;
		}
	ls->funcs = xreallocarray(ls->funcs, ls->nfuncs + 1, sizeof *ls->funcs);
	ls->funcs[ls->nfuncs].name = xstrdup(name);
	ls->funcs[ls->nfuncs].body = body;
	ls->nfuncs++;
}

static const struct node *func_get(struct line_state *ls, const char *name)
{
	for (size_t i = 0; i < ls->nfuncs; i++)
		if (strcmp(ls->funcs[i].name, name) == 0)
			return ls->funcs[i].body;
	return NULL;
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

static const char *strip_dot_slash(const char *s)
{
	while (s[0] == '.' && s[1] == '/')
		s += 2;
	return s;
}

static void file_written(struct line_state *ls, const char *name, const char *text)
{
	name = strip_dot_slash(name);
	for (size_t i = 0; i < ls->nfiles; i++)
		if (strcmp(ls->files[i].name, name) == 0) {
			free(ls->files[i].text);
			ls->files[i].text = NULL; /* written twice: content not known */
			return;
		}
	ls->files = xreallocarray(ls->files, ls->nfiles + 1, sizeof *ls->files);
	ls->files[ls->nfiles].name = xstrdup(name);
	ls->files[ls->nfiles].text = dup_or_null(text);
	ls->nfiles++;
}

/* A program copied (cp, ln, install, mv) earlier on the line: tool is the
 * system program it is (policy rule 8), NULL when it is something else. */
static void copy_set(struct line_state *ls, const char *name, const char *tool)
{
	name = strip_dot_slash(name);
	for (size_t i = 0; i < ls->ncopies; i++)
		if (strcmp(ls->copies[i].name, name) == 0) {
			free(ls->copies[i].value);
			ls->copies[i].value = dup_or_null(tool);
			return;
		}
	if (!tool)
		return;
	ls->copies = xreallocarray(ls->copies, ls->ncopies + 1, sizeof *ls->copies);
	ls->copies[ls->ncopies].name = xstrdup(name);
	ls->copies[ls->ncopies].value = xstrdup(tool);
	ls->ncopies++;
}

/* by_base: a command name PATH will look up; any copy of that name counts,
 * wherever the line put it (the PATH it sets may lead there). */
static const char *copy_get(const struct line_state *ls, const char *name, bool by_base)
{
	name = strip_dot_slash(name);
	for (size_t i = ls->ncopies; i-- > 0;) {
		const char *have = ls->copies[i].name;
		const char *slash = strrchr(have, '/');
		if (strcmp(have, name) == 0 || (by_base && slash && strcmp(slash + 1, name) == 0))
			return ls->copies[i].value;
	}
	return NULL;
}

/* The run-time check: a file written earlier on the line is read as it
 * is now, just before it runs. */
static bool named_on_line(const struct classify_facts *f, const char *name)
{
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	for (size_t i = 0; *base && i < f->nwords; i++)
		if (f->word_nodes[i] != f->self && strstr(f->words[i], base))
			return true;
	return false;
}

/* Text a program could be: no NUL byte (an ELF binary, an archive is
 * the project's built code, not a script). */
static bool looks_like_text(const char *t, size_t len)
{
	return memchr(t, '\0', len) == NULL;
}

/* Whether the first 4 KiB of a file too large to read whole hold a NUL
 * byte: a program, not a script. */
static bool text_head_is_binary(const char *name)
{
	int fd = util_open_regular(name, 0);
	if (fd < 0)
		return false;
	char head[4096];
	ssize_t got = read(fd, head, sizeof head);
	close(fd);
	return got > 0 && !looks_like_text(head, (size_t)got);
}

/* Whether the agent's file name is not being judged already, further up
 * (a script that runs itself, or two that run each other). */
static bool agent_file_first(struct cctx *c, const char *name)
{
	struct croot *r = c->root;
	char *real = realpath(name, NULL);
	const char *key = real ? real : name;
	for (size_t i = 0; i < r->nagent; i++)
		if (strcmp(r->agent_files[i], key) == 0 && r->agent_depths[i] < c->depth) {
			free(real);
			return false;
		}
	const char **files = arena_alloc(r, (r->nagent + 1) * sizeof *files);
	unsigned *depths = arena_alloc(r, (r->nagent + 1) * sizeof *depths);
	for (size_t i = 0; i < r->nagent; i++) {
		files[i] = r->agent_files[i];
		depths[i] = r->agent_depths[i];
	}
	files[r->nagent] = cl_strndup(c, key, strlen(key));
	depths[r->nagent] = c->depth;
	r->agent_files = files;
	r->agent_depths = depths;
	r->nagent++;
	free(real);
	return true;
}

/* The text of a program file that is the agent's (written before this
 * line, in the project or a shared folder): 1 with *text; 0 when it is
 * text too large to judge; -1 when it is the human's, or a binary. */
static int agent_file_text(struct cctx *c, const char *name, const char **text)
{
	struct classifier *cl = c->root->cl;
	struct stat st;
	if (!cl->agent_file || stat(name, &st) != 0 || !S_ISREG(st.st_mode) || !cl->agent_file(cl->agent_file_ctx, name))
		return -1;
	if (!agent_file_first(c, name))
		return -1; /* its text is being judged further up: what it runs is counted there */
	size_t len = 0;
	char *t = util_read_file(name, 0, 1u << 20, &len);
	if (!t)
		return text_head_is_binary(name) ? -1 : 0; /* a large binary is built code; large text is not known */
	bool script = looks_like_text(t, len);
	if (script)
		*text = cl_strndup(c, t, len);
	free(t);
	return script ? 1 : -1;
}

static int written_file_now(struct cctx *c, const char *name, const char **text, bool agents)
{
	const struct classify_facts *f = c->root->facts;
	bool written = false;
	for (size_t i = 0; f && i < f->nwritten && !written; i++)
		written = strcmp(strip_dot_slash(f->written[i]), name) == 0;
	struct stat st;
	if (!written && (!f || f->line_start.tv_sec == 0 || !named_on_line(f, name) || stat(name, &st) != 0 ||
	                 !S_ISREG(st.st_mode) ||
	                 st.st_ctim.tv_sec < f->line_start.tv_sec ||
	                 (st.st_ctim.tv_sec == f->line_start.tv_sec && st.st_ctim.tv_nsec < f->line_start.tv_nsec)))
		return agents ? agent_file_text(c, name, text) : -1;
	size_t len = 0;
	char *t = util_read_file(name, 0, 1u << 20, &len);
	if (!t && !written)
		return -1; /* too big for a script the line wrote: the project's */
	if (!t)
		return 0;
	bool script = looks_like_text(t, len);
	if (script)
		*text = cl_strndup(c, t, len);
	free(t);
	return script ? 1 : written ? 0 : -1;
}

static int written_file(struct cctx *c, const char *name, const char **text, bool agents)
{
	name = strip_dot_slash(name);
	if (!c->ls)
		return c->root->dynamic ? written_file_now(c, name, text, agents) : -1;
	for (size_t i = 0; i < c->ls->nfiles; i++)
		if (strcmp(c->ls->files[i].name, name) == 0) {
			*text = c->ls->files[i].text;
			return *text ? 1 : 0;
		}
	return agents ? agent_file_text(c, name, text) : -1;
}

void cl_seal(struct cctx *c, const char *name)
{
	struct classify_result *res = c->root->res;
	struct stat st;
	if (!c->root->dynamic || !name)
		return;
	if (!*name) {
		res->seal_stdin = true;
		return;
	}
	char *real = realpath(name, NULL);
	if (!real || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
		free(real);
		return;
	}
	for (size_t i = 0; i < res->nsealed; i++)
		if (strcmp(res->sealed[i].path, real) == 0) {
			free(real);
			return;
		}
	res->sealed = xreallocarray(res->sealed, res->nsealed + 1, sizeof *res->sealed);
	res->sealed[res->nsealed++] = (struct classify_sealed){
		.path = real, .dev = st.st_dev, .ino = st.st_ino, .size = st.st_size, .ctime = st.st_ctim};
}

int cl_written_file(struct cctx *c, const char *name, const char **text)
{
	return written_file(c, name, text, true);
}

int cl_written_on_line(struct cctx *c, const char *name, const char **text)
{
	return written_file(c, name, text, false);
}

bool cl_runs_here(const struct cctx *c)
{
	return !c->nested;
}

struct cl_env_mark cl_env_push(struct cctx *c, const char *const *names, const struct sarg *values, size_t n)
{
	struct cl_env_mark mark = {c->env_names, c->env_values, c->nenv};
	if (n == 0)
		return mark;
	const char **nn = arena_alloc(c->root, (c->nenv + n) * sizeof *nn);
	struct sarg *vv = arena_alloc(c->root, (c->nenv + n) * sizeof *vv);
	for (size_t i = 0; i < c->nenv; i++) {
		nn[i] = c->env_names[i];
		vv[i] = c->env_values[i];
	}
	for (size_t i = 0; i < n; i++) {
		nn[c->nenv + i] = names[i];
		vv[c->nenv + i] = values[i];
	}
	c->env_names = nn;
	c->env_values = vv;
	c->nenv += n;
	return mark;
}

void cl_env_pop(struct cctx *c, struct cl_env_mark mark)
{
	c->env_names = mark.names;
	c->env_values = mark.values;
	c->nenv = mark.n;
}

/* The value the judged command's own assignments or the line give name:
 * true when they set it (*value NULL: not known before it runs). */
static bool line_env_get(struct cctx *c, const char *name, const char **value)
{
	for (size_t i = c->nenv; i-- > 0;)
		if (strcmp(c->env_names[i], name) == 0) {
			*value = c->env_values[i].known ? c->env_values[i].text : NULL;
			return true;
		}
	if (c->ls && var_assigned(c->ls, name)) {
		*value = var_get(c->ls, name);
		return true;
	}
	return false;
}

const char *cl_env_get(struct cctx *c, const char *name, bool *known)
{
	const char *v;
	*known = true;
	if (line_env_get(c, name, &v)) {
		*known = v != NULL;
		return v ? v : "";
	}
	return process_env(c->root->cl, name);
}

bool cl_env_inherited(struct cctx *c, const char *name)
{
	const char *v;
	if (line_env_get(c, name, &v))
		return false;
	const char *now = process_env(c->root->cl, name), *start = getenv(name);
	return now == start || (now && start && strcmp(now, start) == 0);
}

/* git's config-finding variables for the command being judged. Unknown
 * values count as unset here: the rules ask before trusting these. */
static void git_cfg_env_for(struct cctx *c, struct git_cfg_env *e)
{
	struct classifier *cl = c->root->cl;
	bool k;
	memset(e, 0, sizeof *e);
	if (!line_env_get(c, "HOME", &e->home))
		e->home = cl->home ? cl->home : process_env(cl, "HOME");
	if (!line_env_get(c, "XDG_CONFIG_HOME", &e->xdg))
		e->xdg = cl->xdg ? cl->xdg : process_env(cl, "XDG_CONFIG_HOME");
	e->global = cl_env_get(c, "GIT_CONFIG_GLOBAL", &k);
	e->system = cl_env_get(c, "GIT_CONFIG_SYSTEM", &k);
	const char *nosys = cl_env_get(c, "GIT_CONFIG_NOSYSTEM", &k);
	e->nosystem = nosys && k && *nosys && strcmp(nosys, "0") != 0 && strcasecmp(nosys, "false") != 0 &&
	              strcasecmp(nosys, "no") != 0 && strcasecmp(nosys, "off") != 0;
}

const char *cl_git_config_alias(struct cctx *c, const char *dir, const char *gitdir, const char *name,
                                const char **unread)
{
	struct git_cfg_env e;
	git_cfg_env_for(c, &e);
	const char *found = git_alias_lookup(c->root->cl, &e, dir, gitdir, name, NULL, unread);
	*unread = *unread ? cl_strdup(c, *unread) : NULL;
	return found;
}

bool cl_git_config_forces_push(struct cctx *c, const char *dir, const char *gitdir, const char **unread)
{
	struct git_cfg_env e;
	git_cfg_env_for(c, &e);
	bool forces = false;
	git_alias_lookup(c->root->cl, &e, dir, gitdir, NULL, &forces, unread);
	*unread = *unread ? cl_strdup(c, *unread) : NULL;
	return forces;
}

/* ---- items ----------------------------------------------------------- */

static bool needs_quotes(const char *s)
{
	if (!*s)
		return true;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@%+,^", *s))
			return true;
	return false;
}

static void add_quoted(struct strbuf *sb, const char *s)
{
	if (!needs_quotes(s)) {
		strbuf_adds(sb, s);
		return;
	}
	strbuf_addc(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_adds(sb, "'\\''");
		else
			strbuf_addc(sb, *s);
	}
	strbuf_addc(sb, '\'');
}

static void add_arg_text(struct strbuf *sb, const struct sarg *a)
{
	if (a->known)
		add_quoted(sb, a->text);
	else if (a->word)
		ast_print_word(sb, a->word);
	else
		strbuf_adds(sb, "?");
}

/* A slot for a command's item, taken before judging it so that the items
 * of text nested inside it come after it. */
static size_t reserve_item(struct cctx *c)
{
	struct classify_result *res = c->root->res;
	if (c->quiet)
		return (size_t)-1;
	if (res->nitems == res->cap) {
		res->cap = res->cap ? res->cap * 2 : 8;
		res->items = xreallocarray(res->items, res->cap, sizeof *res->items);
	}
	struct classify_item *it = &res->items[res->nitems++];
	memset(it, 0, sizeof *it);
	return res->nitems - 1;
}

static void fill_item(struct cctx *c, size_t slot, struct judgement j, const struct sarg *a, size_t n)
{
	struct classify_result *res = c->root->res;
	if (slot == (size_t)-1)
		return;
	struct classify_item *it = &res->items[slot];
	it->verdict = j.v;
	it->reason = xstrdup(j.reason ? j.reason : "");
	it->depth = c->depth;
	struct strbuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addc(&sb, ' ');
		if (j.at >= 0 && (size_t)j.at == i)
			it->word_at = sb.len;
		add_arg_text(&sb, &a[i]);
		it->globbed = it->globbed || a[i].pattern || (a[i].known && a[i].text[0] == '~');
	}
	it->command = strbuf_detach(&sb);
	if (j.at >= 0 && (size_t)j.at < n) {
		strbuf_init(&sb);
		add_arg_text(&sb, &a[j.at]);
		it->word = strbuf_detach(&sb);
		if (a[j.at].word) {
			it->range = a[j.at].word->range;
			it->has_range = true;
		}
	}
	if (j.v > res->verdict)
		res->verdict = j.v;
}

static void record(struct cctx *c, struct judgement j, const struct sarg *a, size_t n)
{
	fill_item(c, reserve_item(c), j, a, n);
}

static void record_text(struct cctx *c, struct judgement j, const char *command, const struct src_range *range)
{
	if (c->quiet)
		return;
	struct sarg a = {.text = command, .known = true};
	record(c, judgement_make(j.v, j.reason, -1), &a, 1);
	struct classify_item *it = &c->root->res->items[c->root->res->nitems - 1];
	if (range) {
		it->range = *range;
		it->has_range = true;
	}
}

/* ---- words ------------------------------------------------------------ */

struct sargv {
	struct sarg *v;
	size_t n, cap;
};

static void sargv_push(struct sargv *av, struct sarg a)
{
	if (av->n == av->cap) {
		av->cap = av->cap ? av->cap * 2 : 16;
		av->v = xreallocarray(av->v, av->cap, sizeof *av->v);
	}
	av->v[av->n++] = a;
}

/* One word being resolved into fields. */
struct wres {
	struct cctx *c;
	const struct word *word;
	struct sargv *out;
	struct strbuf cur;
	bool known;
	bool have; /* a field is open (even an empty quoted one) */
	size_t prefix; /* length known when the field became unknown */
	bool splits;   /* an unquoted unknown part is in the field */
	bool pattern;  /* an unquoted glob character is in the field */
	size_t bracket; /* 1 + where an unquoted '[' is in cur, else 0: a glob only if a ']' follows */
	struct judgement j; /* of the programs inside the word */
};

static struct judgement walk_node(struct cctx *c, const struct node *n, const struct stdin_src *in);
static void walk_word(struct cctx *c, const struct word *w, struct judgement *j);

static void wres_close(struct wres *r)
{
	if (!r->have)
		return;
	struct sarg a;
	a.known = r->known;
	a.text = cl_strndup(r->c, r->cur.data, r->known ? r->cur.len : r->prefix);
	a.word = r->word;
	a.procsub = NULL;
	a.splits = r->splits;
	/* A '[' with no ']' after it matches itself: `[ -f x ]`'s name is "[". */
	a.pattern = r->pattern || (r->bracket && (!r->known || memchr(r->cur.data + r->bracket, ']',
	                                                              r->cur.len - r->bracket)));
	sargv_push(r->out, a);
	strbuf_truncate(&r->cur, 0);
	r->known = true;
	r->have = false;
	r->splits = false;
	r->pattern = false;
	r->bracket = 0;
}

static void wres_unknown(struct wres *r, bool quoted)
{
	if (r->known)
		r->prefix = r->cur.len;
	r->known = false;
	r->have = true;
	if (!quoted)
		r->splits = true;
}

/* Adds an expansion's value; unquoted, it is split at blanks. */
static void wres_value(struct wres *r, const char *v, bool quoted)
{
	/* A line that sets IFS splits unquoted values where we cannot tell. */
	if (!quoted && r->c->ls && var_assigned(r->c->ls, "IFS")) {
		wres_unknown(r, quoted);
		return;
	}
	if (quoted) {
		strbuf_adds(&r->cur, v);
		r->have = true;
		return;
	}
	for (; *v; v++) {
		if (*v == ' ' || *v == '\t' || *v == '\n') {
			wres_close(r);
			continue;
		}
		strbuf_addc(&r->cur, *v);
		r->have = true;
	}
}

static const struct sarg *positional(struct cctx *c, const char *name)
{
	char *end;
	long k = strtol(name, &end, 10);
	if (*end || !c->pos || k < 0 || (size_t)k >= c->npos)
		return NULL;
	return &c->pos[k];
}

static bool literal_long(const struct word *w, long *out)
{
	char *s;
	if (!w || !ast_word_literal_value(w, &s))
		return false;
	char *end;
	*out = strtol(s, &end, 10);
	bool ok = *s && !*end;
	free(s);
	return ok;
}

/* The value of a parameter when the line itself fixes it, else NULL. */
static const char *param_value(struct cctx *c, const struct word_param *p)
{
	if (p->index || p->indirect)
		return NULL;
	const char *base = NULL;
	if (p->name[0] >= '0' && p->name[0] <= '9') {
		const struct sarg *a = positional(c, p->name);
		if (a && a->known)
			base = a->text;
		else if (!a && c->pos && strcmp(p->name, "0") != 0)
			base = ""; /* known to be unset */
	} else if (strcmp(p->name, "#") == 0 && c->pos) {
		base = cl_printf(c, "%zu", c->npos ? c->npos - 1 : 0);
	} else if (c->ls && parse_is_name(p->name, strlen(p->name))) {
		base = var_get(c->ls, p->name);
	}
	if (!base)
		return NULL;
	switch (p->op) {
	case PARAM_PLAIN:
		return base;
	case PARAM_LENGTH:
		return cl_printf(c, "%zu", strlen(base));
	case PARAM_SUBSTRING: {
		long off, len = -1;
		if (!literal_long(p->arg, &off) || (p->arg2 && !literal_long(p->arg2, &len)))
			return NULL;
		long blen = (long)strlen(base);
		if (off < 0)
			off += blen;
		if (off < 0 || off > blen)
			return "";
		if (len < 0 || off + len > blen)
			len = p->arg2 ? (len < 0 ? blen - off + len : blen - off) : blen - off;
		if (len < 0)
			return NULL;
		return cl_strndup(c, base + off, (size_t)len);
	}
	default:
		return NULL;
	}
}

static void wres_parts(struct wres *r, const struct word *w, bool quoted);

static void wres_part(struct wres *r, const struct word_part *p, bool quoted)
{
	struct cctx *c = r->c;
	switch (p->kind) {
	case WORD_LITERAL: {
		size_t at = r->cur.len;
		strbuf_addmem(&r->cur, p->u.literal.text, p->u.literal.len);
		r->have = true;
		if (!quoted && p->u.literal.quote == QUOTE_NONE) {
			const char *lit = cl_strndup(c, p->u.literal.text, p->u.literal.len);
			if (strpbrk(lit, "*?"))
				r->pattern = true;
			const char *br = strchr(lit, '[');
			if (br && !r->bracket)
				r->bracket = at + (size_t)(br - lit) + 1;
		}
		break;
	}
	case WORD_DQUOTE:
		r->have = true;
		wres_parts(r, p->u.dquote, true);
		break;
	case WORD_PARAM: {
		const struct word_param *pp = p->u.param;
		if (pp->arg)
			walk_word(c, pp->arg, &r->j);
		if (pp->arg2)
			walk_word(c, pp->arg2, &r->j);
		if (pp->index)
			walk_word(c, pp->index, &r->j);
		if ((strcmp(pp->name, "@") == 0 || strcmp(pp->name, "*") == 0) && pp->op == PARAM_PLAIN &&
		    !pp->index && c->pos) {
			for (size_t i = 1; i < c->npos; i++) {
				if (i > 1) {
					if (quoted && pp->name[0] == '*')
						strbuf_addc(&r->cur, ' ');
					else
						wres_close(r);
				}
				if (c->pos[i].known)
					wres_value(r, c->pos[i].text, quoted);
				else
					wres_unknown(r, quoted);
				r->have = true;
			}
			break;
		}
		const char *v = param_value(c, pp);
		if (v)
			wres_value(r, v, quoted);
		else /* "$@" not known: as many words as it has */
			wres_unknown(r, quoted && !(strcmp(pp->name, "@") == 0 && pp->op == PARAM_PLAIN && !pp->index));
		break;
	}
	case WORD_CMDSUB:
	case WORD_PROCSUB: {
		/* $( ) and <( ): the program is judged; the word it makes is not known */
		const struct node *program = p->kind == WORD_CMDSUB ? p->u.cmdsub->program : p->u.procsub->program;
		if (program) {
			struct stdin_src none = {STDIN_NONE, NULL};
			r->j = judgement_max(r->j, walk_node(c, program, &none));
		}
		wres_unknown(r, quoted);
		break;
	}
	case WORD_ARITH:
		if (p->u.arith.expr)
			walk_word(c, p->u.arith.expr, &r->j);
		wres_unknown(r, quoted);
		break;
	}
}

static void wres_parts(struct wres *r, const struct word *w, bool quoted)
{
	for (size_t i = 0; i < w->nparts; i++)
		wres_part(r, &w->parts[i], quoted);
}

/* Brace expansion of the unquoted {a,b} parts of a literal word: mask[i]
 * is true where value[i] was unquoted. Emits at most *budget fields. */
static void brace_expand(struct cctx *c, const char *v, const char *mask, size_t len, const struct word *w,
                         struct sargv *out, int *budget)
{
	if (*budget <= 0) {
		*budget = -1; /* more fields than were judged */
		return;
	}
	size_t open = len, close = len;
	for (size_t i = 0; i < len && close == len; i++) {
		if (!mask[i] || v[i] != '{')
			continue;
		int depth = 0;
		bool comma = false;
		for (size_t k = i; k < len; k++) {
			if (!mask[k])
				continue;
			if (v[k] == '{')
				depth++;
			else if (v[k] == '}' && --depth == 0) {
				if (comma) {
					open = i;
					close = k;
				}
				break;
			} else if (v[k] == ',' && depth == 1)
				comma = true;
		}
	}
	if (close == len) {
		(*budget)--;
		struct sarg a = {.text = cl_strndup(c, v, len), .known = true, .word = w};
		sargv_push(out, a);
		return;
	}
	/* Each alternative between open and close, at depth 1. */
	size_t start = open + 1;
	int depth = 0;
	for (size_t k = open + 1; k <= close; k++) {
		if (mask[k] && v[k] == '{')
			depth++;
		else if (mask[k] && v[k] == '}' && depth > 0 && k != close)
			depth--;
		if (*budget < 0)
			return;
		if (k == close || (mask[k] && v[k] == ',' && depth == 0)) {
			size_t alen = k - start;
			size_t nlen = open + alen + (len - close - 1);
			char *nv = xmalloc(nlen + 1);
			char *nm = xmalloc(nlen + 1);
			memcpy(nv, v, open);
			memcpy(nm, mask, open);
			memcpy(nv + open, v + start, alen);
			memcpy(nm + open, mask + start, alen);
			memcpy(nv + open + alen, v + close + 1, len - close - 1);
			memcpy(nm + open + alen, mask + close + 1, len - close - 1);
			brace_expand(c, nv, nm, nlen, w, out, budget);
			free(nv);
			free(nm);
			start = k + 1;
		}
	}
}

/* A literal word with unquoted braces: expanded; true when handled. */
static bool resolve_braces(struct cctx *c, const struct word *w, struct sargv *out)
{
	bool braces = false;
	for (size_t i = 0; i < w->nparts; i++) {
		const struct word_part *p = &w->parts[i];
		if (p->kind == WORD_DQUOTE)
			continue;
		if (p->kind != WORD_LITERAL)
			return false;
		if (p->u.literal.quote == QUOTE_NONE && memchr(p->u.literal.text, '{', p->u.literal.len))
			braces = true;
	}
	if (!braces)
		return false;
	struct strbuf v, m;
	strbuf_init(&v);
	strbuf_init(&m);
	for (size_t i = 0; i < w->nparts; i++) {
		const struct word_part *p = &w->parts[i];
		if (p->kind == WORD_DQUOTE) {
			for (size_t k = 0; k < p->u.dquote->nparts; k++) {
				const struct word_part *q = &p->u.dquote->parts[k];
				if (q->kind != WORD_LITERAL) {
					strbuf_free(&v);
					strbuf_free(&m);
					return false;
				}
				strbuf_addmem(&v, q->u.literal.text, q->u.literal.len);
				for (size_t z = 0; z < q->u.literal.len; z++)
					strbuf_addc(&m, 0);
			}
			continue;
		}
		strbuf_addmem(&v, p->u.literal.text, p->u.literal.len);
		for (size_t z = 0; z < p->u.literal.len; z++)
			strbuf_addc(&m, p->u.literal.quote == QUOTE_NONE);
	}
	int budget = 256;
	size_t first = out->n;
	brace_expand(c, v.data, m.data, v.len, w, out, &budget);
	/* Empty alternatives vanish, as in the shell. */
	size_t k = first;
	for (size_t i = first; i < out->n; i++)
		if (out->v[i].text[0])
			out->v[k++] = out->v[i];
	out->n = k;
	if (budget < 0) {
		/* Past the fields judged: the rest are not known (a capable
		 * tool asks), and none is the program. */
		struct sarg rest = {.text = "", .known = false, .splits = true, .word = w};
		sargv_push(out, rest);
	}
	strbuf_free(&v);
	strbuf_free(&m);
	return true;
}

/* Resolves one word to zero or more fields, judging the programs inside it. */
static void resolve_word(struct cctx *c, const struct word *w, struct sargv *out, struct judgement *j)
{
	struct wres r;
	memset(&r, 0, sizeof r);
	r.c = c;
	r.word = w;
	r.out = out;
	r.known = true;
	r.j = judgement_make(VERDICT_SAFE, NULL, -1);
	if (resolve_braces(c, w, out))
		return;
	strbuf_init(&r.cur);
	size_t first = out->n;
	wres_parts(&r, w, false);
	if (w->nparts == 0)
		r.have = true;
	wres_close(&r);
	strbuf_free(&r.cur);
	if (w->nparts == 1 && w->parts[0].kind == WORD_PROCSUB && out->n == first + 1 &&
	    !w->parts[0].u.procsub->output)
		out->v[first].procsub = w->parts[0].u.procsub->program;
	*j = judgement_max(*j, r.j);
}

/* Judges the programs inside a word whose value does not matter. */
static void walk_word(struct cctx *c, const struct word *w, struct judgement *j)
{
	struct sargv tmp = {0};
	resolve_word(c, w, &tmp, j);
	free(tmp.v);
}

/* The word's single known value, or NULL. */
static const char *word_value(struct cctx *c, const struct word *w, struct judgement *j)
{
	struct sargv tmp = {0};
	resolve_word(c, w, &tmp, j);
	const char *v = NULL;
	if (tmp.n == 1 && tmp.v[0].known)
		v = tmp.v[0].text;
	else if (tmp.n == 0)
		v = "";
	free(tmp.v);
	return v;
}

/* The word's text with its unknown parts left out: enough to recognise
 * `rm -rf $dir` in a here-document. Programs inside are not judged again. */
static void partial_parts(struct cctx *c, const struct word *w, struct strbuf *sb)
{
	for (size_t i = 0; i < w->nparts; i++) {
		const struct word_part *p = &w->parts[i];
		switch (p->kind) {
		case WORD_LITERAL:
			strbuf_addmem(sb, p->u.literal.text, p->u.literal.len);
			break;
		case WORD_DQUOTE:
			partial_parts(c, p->u.dquote, sb);
			break;
		case WORD_PARAM: {
			const char *v = param_value(c, p->u.param);
			strbuf_adds(sb, v ? v : "X");
			break;
		}
		default:
			strbuf_addc(sb, 'X');
			break;
		}
	}
}

static const char *partial_text(struct cctx *c, const struct word *w)
{
	struct strbuf sb;
	strbuf_init(&sb);
	partial_parts(c, w, &sb);
	char *s = cl_strndup(c, sb.data ? sb.data : "", sb.len);
	strbuf_free(&sb);
	return s;
}

/* ---- nested text -------------------------------------------------------- */

/* Parses text as a whole program (its first line is line 1); errors name
 * source_name. Returns parse_program's result. */
static int parse_whole_text(const char *source_name, const char *text, size_t len, struct node **prog,
                            struct parse_error *err)
{
	struct parser_options opts;
	memset(&opts, 0, sizeof opts);
	opts.source_name = source_name;
	opts.first_line = 1;
	opts.at_eof = true;
	*prog = NULL;
	memset(err, 0, sizeof *err);
	return parse_program(text, len, &opts, prog, err);
}

struct judgement cl_judge_text(struct cctx *c, const char *text, const struct sarg *pos, size_t npos,
                               bool share_state)
{
	struct stdin_src none = {STDIN_NONE, NULL};
	return cl_judge_text_in(c, text, pos, npos, share_state, &none);
}

struct judgement cl_judge_text_quietly(struct cctx *c, const char *text)
{
	struct cctx sub = *c;
	sub.quiet = true;
	return cl_judge_text(&sub, text, NULL, 0, false);
}

struct judgement cl_judge_text_in(struct cctx *c, const char *text, const struct sarg *pos, size_t npos,
                                  bool share_state, const struct stdin_src *in)
{
	if (c->depth >= CLASSIFY_MAX_DEPTH)
		return judgement_make(VERDICT_ASK, "nested too deeply to judge", -1);
	struct node *prog;
	struct parse_error err;
	if (parse_whole_text("classify", text, strlen(text), &prog, &err) != 0) {
		/* A shell reads text line by line and stops at the line that does
		 * not parse: the lines before it run, and are what is judged. */
		size_t cut = 0;
		for (unsigned line = 1; line < err.pos.line && text[cut]; cut++)
			line += text[cut] == '\n';
		free(err.message);
		if (cut == 0 || parse_whole_text("classify", text, cut, &prog, &err) != 0) {
			if (cut)
				free(err.message);
			return judgement_make(VERDICT_ASK, "shell text that does not parse", -1);
		}
	}
	struct croot *r = c->root;
	r->asts = xreallocarray(r->asts, r->nasts + 1, sizeof(struct node *));
	r->asts[r->nasts++] = prog;
	struct cctx sub = *c;
	sub.depth = c->depth + 1;
	sub.nested = true;
	if (!share_state || !sub.ls)
		sub.ls = state_new(r);
	if (!share_state) {
		sub.pos = pos;
		sub.npos = npos;
	}
	return walk_node(&sub, prog, in);
}

/* ---- the static walk ------------------------------------------------------ */

static bool is_block_device(const char *p)
{
	static const char *const prefixes[] = {
		"/dev/sd", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/nvme", "/dev/mmcblk", "/dev/loop",
		"/dev/md", "/dev/dm-", "/dev/mapper/", "/dev/disk/", "/dev/sr", "/dev/nbd", "/dev/zd",
		"/dev/rbd", "/dev/bcache", "/dev/root", NULL,
	};
	for (size_t i = 0; prefixes[i]; i++)
		if (strncmp(p, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* A redirection's target as bash opens it outside posix mode: a pattern
 * is globbed, so `> /dev/s[d]a` writes the disk. Any pattern a disk's name
 * matches counts, whether or not that disk is here. */
static bool target_is_block_device(const char *t)
{
	if (is_block_device(t))
		return true;
	if (!strpbrk(t, "*?["))
		return false;
	static const char *const disks[] = {
		"/dev/sda", "/dev/sdb", "/dev/hda", "/dev/vda", "/dev/xvda", "/dev/nvme0n1", "/dev/nvme0n1p1",
		"/dev/mmcblk0", "/dev/loop0", "/dev/md0", "/dev/dm-0", "/dev/sr0", "/dev/nbd0", "/dev/root", NULL,
	};
	for (size_t i = 0; disks[i]; i++)
		if (fnmatch(t, disks[i], FNM_PATHNAME) == 0)
			return true;
	glob_t g;
	bool hit = false;
	if (glob(t, GLOB_NOSORT, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && !hit; i++)
			hit = is_block_device(g.gl_pathv[i]);
		globfree(&g);
	}
	return hit;
}

/* printf FORMAT ARGS... as far as a script read from it needs: %s %b %d
 * %c take the next argument, \n \t are decoded, the format is reused
 * while arguments remain. */
static void printf_text(struct strbuf *sb, const char *fmt, const struct sarg *args, size_t nargs)
{
	size_t next = 0;
	do {
		for (const char *p = fmt; *p; p++) {
			if (*p == '\\' && p[1]) {
				p++;
				strbuf_addc(sb, *p == 'n' ? '\n' : *p == 't' ? '\t' : *p);
			} else if (*p == '%' && p[1] == '%') {
				strbuf_addc(sb, '%');
				p++;
			} else if (*p == '%') {
				while (p[1] && strchr("-+ #0123456789.", p[1]))
					p++;
				if (p[1])
					p++;
				if (next < nargs)
					strbuf_adds(sb, args[next++].text);
			} else {
				strbuf_addc(sb, *p);
			}
		}
	} while (next < nargs && next > 0);
}

/* What a pipeline stage writes, when it is a constant: echo/printf of
 * literals, cat of a here-doc. */
static struct stdin_src producer_output(struct cctx *outer, const struct node *n)
{
	struct cctx quiet = *outer;
	quiet.quiet = true;
	struct cctx *c = &quiet;
	struct stdin_src unknown = {STDIN_UNKNOWN, NULL};
	if (!n || n->kind != NODE_SIMPLE || n->u.simple.nwords == 0)
		return unknown;
	struct sargv av = {0};
	struct judgement j = judgement_make(VERDICT_SAFE, NULL, -1);
	for (size_t i = 0; i < n->u.simple.nwords; i++)
		resolve_word(c, n->u.simple.words[i], &av, &j);
	struct stdin_src out = unknown;
	bool known = av.n > 0;
	for (size_t i = 0; i < av.n; i++)
		known = known && av.v[i].known;
	if (known) {
		const char *name = strrchr(av.v[0].text, '/');
		name = name ? name + 1 : av.v[0].text;
		struct strbuf sb;
		strbuf_init(&sb);
		if (strcmp(name, "echo") == 0) {
			size_t i = 1;
			while (i < av.n && (strcmp(av.v[i].text, "-n") == 0 || strcmp(av.v[i].text, "-e") == 0))
				i++;
			for (size_t k = i; k < av.n; k++) {
				if (k > i)
					strbuf_addc(&sb, ' ');
				strbuf_adds(&sb, av.v[k].text);
			}
			strbuf_addc(&sb, '\n');
			out.kind = STDIN_TEXT;
		} else if (strcmp(name, "printf") == 0 && av.n >= 2) {
			size_t first = 1;
			if (strcmp(av.v[1].text, "--") == 0)
				first = 2;
			if (first < av.n) {
				printf_text(&sb, av.v[first].text, av.v + first + 1, av.n - first - 1);
				out.kind = STDIN_TEXT;
			}
		} else if (strcmp(name, "cat") == 0 && av.n == 1) {
			for (size_t i = 0; i < n->nredirs; i++) {
				const struct redir *rd = &n->redirs[i];
				if (rd->op == REDIR_HEREDOC || rd->op == REDIR_HEREDOC_STRIP) {
					const char *t = rd->heredoc ? word_value(c, rd->heredoc, &j) : "";
					if (t) {
						strbuf_adds(&sb, t);
						out.kind = STDIN_TEXT;
					}
				} else if (rd->op == REDIR_HERESTRING) {
					const char *t = word_value(c, rd->target, &j);
					if (t) {
						strbuf_adds(&sb, t);
						strbuf_addc(&sb, '\n');
						out.kind = STDIN_TEXT;
					}
				}
			}
		}
		if (out.kind == STDIN_TEXT)
			out.text = cl_strndup(c, sb.data, sb.len);
		strbuf_free(&sb);
	}
	free(av.v);
	return out;
}

bool classify_producer_output(struct classifier *cl, const struct node *producer, char **text)
{
	struct classify_result res;
	classify_result_init(&res);
	struct croot root;
	root_init(&root, cl, &res, true);
	struct cctx c;
	memset(&c, 0, sizeof c);
	c.root = &root;
	struct stdin_src out = cl_procsub_output(&c, producer);
	*text = out.kind == STDIN_TEXT && out.text ? xstrdup(out.text) : NULL;
	root_free(&root);
	classify_result_free(&res);
	return *text != NULL;
}

struct stdin_src cl_procsub_output(struct cctx *c, const struct node *program)
{
	const struct node *n = program;
	while (n && n->kind == NODE_LIST && n->u.list.nitems == 1)
		n = n->u.list.items[0].node;
	if (n && n->kind == NODE_PIPELINE && n->u.pipeline.ncmds == 1)
		n = n->u.pipeline.cmds[0];
	return producer_output(c, n);
}

/* Redirections: programs inside their words, block devices written, files
 * written (remembered for a later `. file`), and what stdin will be. */
static struct judgement walk_redirs(struct cctx *c, const struct node *n, struct stdin_src *in,
                                    const struct sargv *args)
{
	struct judgement j = judgement_make(VERDICT_SAFE, NULL, -1);
	for (size_t i = 0; i < n->nredirs; i++) {
		const struct redir *rd = &n->redirs[i];
		switch (rd->op) {
		case REDIR_HEREDOC:
		case REDIR_HEREDOC_STRIP: {
			const char *t = rd->heredoc ? word_value(c, rd->heredoc, &j) : "";
			if (rd->fd <= 0) {
				in->kind = t ? STDIN_TEXT : STDIN_UNKNOWN;
				in->text = t ? t : partial_text(c, rd->heredoc);
			}
			break;
		}
		case REDIR_HERESTRING: {
			const char *t = word_value(c, rd->target, &j);
			if (rd->fd <= 0) {
				in->kind = t ? STDIN_TEXT : STDIN_UNKNOWN;
				in->text = cl_printf(c, "%s\n", t ? t : partial_text(c, rd->target));
			}
			break;
		}
		case REDIR_IN:
		case REDIR_RDWR: {
			struct sargv tv = {0};
			resolve_word(c, rd->target, &tv, &j);
			if (rd->fd <= 0) {
				if (tv.n == 1 && tv.v[0].procsub) {
					*in = cl_procsub_output(c, tv.v[0].procsub);
				} else if (tv.n == 1 && tv.v[0].known) {
					const char *t = NULL;
					int w = cl_written_file(c, tv.v[0].text, &t);
					in->kind = w == 1 ? STDIN_TEXT : w == 0 ? STDIN_UNKNOWN : STDIN_FILE;
					in->text = t;
				} else {
					in->kind = STDIN_UNKNOWN;
					in->text = NULL;
				}
			}
			if (rd->op == REDIR_RDWR && tv.n == 1 && tv.v[0].known && target_is_block_device(tv.v[0].text))
				j = judgement_max(j, judgement_make(VERDICT_DELETE, "writes to a block device", -1));
			free(tv.v);
			break;
		}
		case REDIR_OUT:
		case REDIR_CLOBBER:
		case REDIR_APPEND:
		case REDIR_OUT_ERR:
		case REDIR_APPEND_ERR:
		case REDIR_DUP_OUT: {
			struct sargv tv = {0};
			resolve_word(c, rd->target, &tv, &j);
			if (tv.n == 1 && tv.v[0].known) {
				const char *t = tv.v[0].text;
				if (target_is_block_device(t)) {
					j = judgement_max(j, judgement_make(VERDICT_DELETE, "writes to a block device", -1));
					record_text(c, judgement_make(VERDICT_DELETE, "writes to a block device", -1), t,
					            &rd->target->range);
				} else if (rd->op != REDIR_DUP_OUT || !(t[0] >= '0' && t[0] <= '9')) {
					/* Remember what echo/printf/cat <<EOF put there, for `. file`. */
					const char *text = NULL;
					if (args && (rd->fd < 0 || rd->fd == 1) && c->ls) {
						struct stdin_src prod = producer_output(c, n);
						if (prod.kind == STDIN_TEXT)
							text = prod.text;
					}
					if (c->ls)
						file_written(c->ls, t, (rd->op == REDIR_APPEND || rd->op == REDIR_APPEND_ERR) ? NULL : text);
				}
			}
			free(tv.v);
			break;
		}
		case REDIR_DUP_IN: {
			walk_word(c, rd->target, &j);
			/* What another descriptor holds (exec 3<FILE earlier) is not
			 * known here; <&0 changes nothing, <&- leaves nothing. */
			char *t = NULL;
			if (rd->fd <= 0 && !(ast_word_literal_value(rd->target, &t) && (strcmp(t, "0") == 0 || strcmp(t, "-") == 0))) {
				in->kind = STDIN_UNKNOWN;
				in->text = NULL;
			} else if (rd->fd <= 0 && strcmp(t, "-") == 0) {
				in->kind = STDIN_NONE;
				in->text = NULL;
			}
			free(t);
			break;
		}
		}
	}
	return j;
}

static bool word_is_plain_literal(const struct word *w, char **out)
{
	for (size_t i = 0; i < w->nparts; i++)
		if (w->parts[i].kind != WORD_LITERAL || w->parts[i].u.literal.quote != QUOTE_NONE)
			return false;
	return ast_word_literal_value(w, out);
}

/* Records assignments of declaration builtins and bare assignments. */
/* set [options] [--] a b c: new positional parameters, kept for this
 * line. In a part that may not run, other values than those known leave
 * them unknown, as a variable given two values; so does an operand that
 * may split into several. */
static void note_set_positional(struct cctx *c, const struct sargv *av)
{
	size_t from = 0;
	for (size_t i = 1; i < av->n && !from; i++) {
		const struct sarg *x = &av->v[i];
		if (!x->known) { /* an option or an operand: cannot be told */
			c->pos = NULL;
			c->npos = 0;
			return;
		}
		if (strcmp(x->text, "--") == 0 || strcmp(x->text, "-") == 0)
			from = i + 1;
		else if ((x->text[0] == '-' || x->text[0] == '+') && x->text[1]) {
			if (strchr(x->text, 'o') && i + 1 < av->n && x->text[strlen(x->text) - 1] == 'o')
				i++; /* -o NAME */
		} else {
			from = i;
		}
	}
	if (!from)
		return; /* options only: the parameters stay */
	size_t npos = av->n - from + 1;
	bool splits = false;
	for (size_t i = from; i < av->n; i++)
		splits = splits || (!av->v[i].known && av->v[i].splits);
	if (c->pos && c->branch > 0) {
		bool same = c->npos == npos && !splits;
		for (size_t i = 1; same && i < npos; i++)
			same = c->pos[i].known && av->v[from + i - 1].known &&
			       strcmp(c->pos[i].text, av->v[from + i - 1].text) == 0;
		if (!same) {
			c->pos = NULL;
			c->npos = 0;
		}
		return;
	}
	if (splits || (c->branch > 0 && !c->pos)) {
		c->pos = NULL;
		c->npos = 0;
		return;
	}
	struct sarg *pos = arena_alloc(c->root, npos * sizeof *pos);
	memset(&pos[0], 0, sizeof pos[0]);
	pos[0].text = c->pos && c->npos ? c->pos[0].text : "sbsh";
	pos[0].known = true;
	for (size_t i = from; i < av->n; i++)
		pos[i - from + 1] = av->v[i];
	c->pos = pos;
	c->npos = npos;
}

/* What a command does to the positional parameters: set and shift (also
 * behind command or builtin) change them as this walk follows; eval's text
 * and a sourced file may too, where the walk does not carry it back, so
 * after them they are unknown. True when the command was one of these. */
static bool positional_effect(struct cctx *c, const struct sargv *av)
{
	size_t off = 0;
	while (off + 1 < av->n && av->v[off].known &&
	       (strcmp(av->v[off].text, "command") == 0 || strcmp(av->v[off].text, "builtin") == 0))
		off++;
	const struct sarg *cmd = &av->v[off];
	if (!cmd->known)
		return false;
	struct sargv view = {.v = av->v + off, .n = av->n - off};
	if (strcmp(cmd->text, "set") == 0) {
		note_set_positional(c, &view);
		return true;
	}
	if (strcmp(cmd->text, "shift") == 0 && off > 0) {
		c->pos = NULL; /* rare enough to give up on */
		c->npos = 0;
		return true;
	}
	bool evals = strcmp(cmd->text, "eval") == 0 || strcmp(cmd->text, ".") == 0 || strcmp(cmd->text, "source") == 0;
	if (evals) {
		c->pos = NULL;
		c->npos = 0;
	}
	return false;
}

static void note_assignment_word(struct cctx *c, const struct sarg *a)
{
	if (!c->ls)
		return;
	const char *eq = strchr(a->text, '=');
	if (!eq || !parse_is_name(a->text, (size_t)(eq - a->text)))
		return;
	char *name = xstrndup(a->text, (size_t)(eq - a->text));
	var_set(c->ls, name, a->known ? eq + 1 : NULL);
	free(name);
}

/* The system program a file a command copies is (policy rule 8): a copy
 * made earlier on the line, a system program by its path, or a file in a
 * writable folder that is a copy of one; NULL when it is none of these. */
static const char *copied_program(struct cctx *c, const char *src)
{
	const char *tool = copy_get(c->ls, src, false);
	if (tool)
		return tool;
	const char *path = strchr(src, '/') ? src : cl_printf(c, "./%s", src);
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !(st.st_mode & 0111))
		return NULL;
	struct program_identity id;
	program_identity(c->root->cl->ids, path, &id);
	const char *out = NULL;
	if (!id.writable) {
		char *real = realpath(path, NULL);
		out = real ? cl_strdup(c, real) : NULL;
		free(real);
	} else if (id.copy_of) {
		out = cl_strdup(c, id.copy_of[0]);
	}
	program_identity_free(&id);
	return out;
}

/* cp, ln, install or mv of a program: what it makes is that program for
 * the rest of the line (cp /bin/rm ./cleanup; ./cleanup -rf data). */
static void note_copy(struct cctx *c, const char *tool_name, const struct sargv *av)
{
	const char *value_letters = strcmp(tool_name, "install") == 0 ? "tSmog" : "tS";
	const char *dir = NULL;
	const char **ops = arena_alloc(c->root, av->n * sizeof *ops);
	size_t nops = 0;
	bool options_done = false, symbolic = false;
	for (size_t i = 1; i < av->n; i++) {
		const struct sarg *w = &av->v[i];
		if (!w->known || w->procsub)
			return; /* which file it makes is not known */
		const char *t = w->text;
		if (!options_done && strcmp(t, "--") == 0) {
			options_done = true;
		} else if (!options_done && t[0] == '-' && t[1] == '-') {
			if (strncmp(t, "--target-directory=", 19) == 0)
				dir = t + 19;
			else if (strcmp(t, "--target-directory") == 0 && i + 1 < av->n)
				dir = av->v[++i].text;
			else if (strcmp(t, "--symbolic") == 0)
				symbolic = true;
			else if (!strchr(t, '=') && (strcmp(t, "--suffix") == 0 || strcmp(t, "--mode") == 0 ||
			                             strcmp(t, "--owner") == 0 || strcmp(t, "--group") == 0))
				i++;
		} else if (!options_done && t[0] == '-' && t[1]) {
			symbolic = symbolic || (strcmp(tool_name, "install") != 0 && strchr(t, 's'));
			const char *value = strpbrk(t + 1, value_letters);
			if (value && value[1])
				dir = value[0] == 't' ? value + 1 : dir;
			else if (value && i + 1 < av->n) {
				i++;
				dir = value[0] == 't' ? av->v[i].text : dir;
			}
		} else {
			ops[nops++] = t;
		}
	}
	if (!dir && nops < 2)
		return;
	size_t nsrc = dir ? nops : nops - 1;
	const char *last = dir ? dir : ops[nops - 1];
	size_t lastlen = strlen(last);
	while (lastlen > 1 && last[lastlen - 1] == '/')
		lastlen--;
	for (size_t i = 0; i < nsrc; i++) {
		/* ln -s with a relative target names a file beside the link */
		const char *tool = symbolic && ops[i][0] != '/' ? NULL : copied_program(c, ops[i]);
		const char *base = strrchr(ops[i], '/');
		base = base ? base + 1 : ops[i];
		/* into a folder, or onto a file: both names, when the text alone
		 * cannot tell which */
		copy_set(c->ls, cl_printf(c, "%.*s/%s", (int)lastlen, last, base), tool);
		if (!dir && nsrc == 1)
			copy_set(c->ls, last, tool);
	}
}

static struct judgement judge_function_call(struct cctx *c, const struct node *body, const struct sarg *a,
                                            size_t n)
{
	if (c->ls->calls >= 4 || c->depth >= CLASSIFY_MAX_DEPTH)
		return judgement_make(VERDICT_SAFE, "recursive function (body judged at its definition)", -1);
	struct cctx sub = *c;
	sub.depth = c->depth + 1;
	sub.pos = a;
	sub.npos = n;
	c->ls->calls++;
	struct stdin_src none = {STDIN_NONE, NULL};
	struct judgement j = walk_node(&sub, body, &none);
	c->ls->calls--;
	if (j.v != VERDICT_SAFE)
		j.reason = cl_printf(c, "function %s: %s", a[0].text, j.reason ? j.reason : "");
	j.at = 0;
	return j;
}

/* The words of the line's commands (text inside them included), for the
 * run-time check's question of whether the line names a file. */
#define CLASSIFY_WORDS_MAX 4096
static void note_words(struct cctx *c, const struct node *n, const struct sargv *av)
{
	struct classify_result *res = c->root->res;
	if (c->quiet || c->root->dynamic)
		return;
	for (size_t i = 0; i < av->n && res->nwords < CLASSIFY_WORDS_MAX; i++) {
		if (!av->v[i].known || !av->v[i].text[0])
			continue;
		res->words = xreallocarray(res->words, res->nwords + 1, sizeof *res->words);
		res->word_nodes = xreallocarray(res->word_nodes, res->nwords + 1, sizeof *res->word_nodes);
		res->word_nodes[res->nwords] = n;
		res->words[res->nwords++] = xstrdup(av->v[i].text);
	}
}

/* Remembers, for the run-time check, what the static pass knew of a
 * command of the line itself that its argv will not show. A node judged
 * twice (a function body at its definition and at a call) keeps what its
 * first judgement found, and the higher verdict. */
static void bind_node(struct cctx *c, const struct node *n, struct judgement j, const struct stdin_src *in,
                      const struct sargv *av, size_t first)
{
	struct classify_result *res = c->root->res;
	if (c->quiet || c->nested || c->root->dynamic)
		return;
	struct classify_binding *b = (struct classify_binding *)classify_binding_of(res, n);
	if (b) {
		if (j.v > b->verdict) {
			b->verdict = j.v;
			b->first = first;
			b->end = res->nitems;
		}
		return;
	}
	if (res->nbindings == res->bcap) {
		res->bcap = res->bcap ? res->bcap * 2 : 8;
		res->bindings = xreallocarray(res->bindings, res->bcap, sizeof *res->bindings);
	}
	b = &res->bindings[res->nbindings++];
	memset(b, 0, sizeof *b);
	b->node = n;
	b->verdict = j.v;
	b->stdin_kind = in->kind;
	b->stdin_text = in->text ? xstrdup(in->text) : NULL;
	for (size_t i = 0; av && i < av->n; i++)
		if (av->v[i].procsub) {
			b->procsubs = xreallocarray(b->procsubs, b->nprocsubs + 1, sizeof *b->procsubs);
			b->procsubs[b->nprocsubs++] = av->v[i].procsub;
		}
	b->first = first;
	b->end = res->nitems;
	if (!bind_slots_grow(res))
		bind_slots_put(res, res->nbindings - 1);
}

/* Whether a command of nested text, all of its words known, is
 * pre-approved by the shell's allow-lists. */
static bool nested_approved(struct cctx *c, const struct sargv *av, enum verdict v)
{
	const struct classifier *cl = c->root->cl;
	if (!cl->approved || av->n == 0)
		return false;
	char **argv = xcalloc(av->n + 1, sizeof *argv);
	bool known = true;
	for (size_t i = 0; i < av->n && known; i++) {
		known = av->v[i].known && !av->v[i].procsub;
		argv[i] = (char *)av->v[i].text;
	}
	bool ok = known && cl->approved(cl->approved_ctx, argv, v);
	free(argv);
	return ok;
}

static struct judgement judge_simple(struct cctx *c, const struct node *n, const struct stdin_src *pipe_in)
{
	struct judgement j = judgement_make(VERDICT_SAFE, NULL, -1);
	size_t first = c->root->res->nitems;
	struct sargv av = {0};
	for (size_t i = 0; i < n->u.simple.nwords; i++)
		resolve_word(c, n->u.simple.words[i], &av, &j);

	/* Assignments: their values' programs, and constants for later words;
	 * with a command, its environment. */
	size_t nassigns = n->u.simple.nassigns, nenv = 0;
	const char **env_names = nassigns ? arena_alloc(c->root, nassigns * sizeof *env_names) : NULL;
	struct sarg *env_values = nassigns ? arena_alloc(c->root, nassigns * sizeof *env_values) : NULL;
	for (size_t i = 0; i < n->u.simple.nassigns; i++) {
		const struct assign *as = &n->u.simple.assigns[i];
		if (as->index)
			walk_word(c, as->index, &j);
		const char *v = NULL;
		if (as->value)
			v = word_value(c, as->value, &j);
		for (size_t k = 0; k < as->narray; k++)
			walk_word(c, as->array[k], &j);
		if (n->u.simple.nwords == 0 && c->ls)
			var_set(c->ls, as->name, (as->is_array || as->append || as->index) ? NULL : v);
		if (n->u.simple.nwords > 0 && !as->is_array) {
			env_names[nenv] = as->name;
			env_values[nenv++] = (struct sarg){.text = v ? v : "", .known = (v != NULL || !as->value) && !as->append && !as->index,
			                                   .word = as->value};
		}
		if (n->u.simple.nwords > 0 && as->value && !as->is_array) {
			struct sarg val = {.text = v ? v : "", .known = v != NULL, .word = as->value};
			struct judgement ej = rules_judge_env_assignment(c, as->name, &val);
			if (ej.v != VERDICT_SAFE) {
				record_text(c, ej, as->name, &as->range);
				j = judgement_max(j, ej);
			}
		}
	}

	struct stdin_src in = *pipe_in;
	j = judgement_max(j, walk_redirs(c, n, &in, &av));

	if (av.n == 0) {
		free(av.v);
		return j;
	}

	struct judgement cj;
	char *aname = NULL;
	size_t slot = reserve_item(c);
	struct cl_env_mark env_mark = cl_env_push(c, env_names, env_values, nenv);
	const struct node *fbody;
	const char *aval;
	if (c->ls && word_is_plain_literal(n->u.simple.words[0], &aname) &&
	    (aval = alias_get(c->ls, aname)) != NULL && c->depth < CLASSIFY_MAX_DEPTH) {
		/* An alias defined earlier on the line: judged as if expanded. */
		struct strbuf sb;
		strbuf_init(&sb);
		strbuf_adds(&sb, aval);
		for (size_t i = 1; i < n->u.simple.nwords; i++) {
			strbuf_addc(&sb, ' ');
			ast_print_word(&sb, n->u.simple.words[i]);
		}
		/* As in the shell, an alias is not expanded again inside its own
		 * expansion (alias ls='ls --color'). */
		char *saved = alias_take(c->ls, aname);
		cj = cl_judge_text(c, sb.data, NULL, 0, true);
		alias_put_back(c->ls, aname, saved);
		c->pos = NULL; /* its text may set or shift them, out of this walk's sight */
		c->npos = 0;
		strbuf_free(&sb);
		if (cj.v != VERDICT_SAFE)
			cj.reason = cl_printf(c, "alias %s: %s", aname, cj.reason ? cj.reason : "");
		cj.at = 0;
	} else if (c->ls && av.v[0].known && (fbody = func_get(c->ls, av.v[0].text)) != NULL) {
		cj = judge_function_call(c, fbody, av.v, av.n);
	} else {
		cj = cl_judge_argv(c, av.v, av.n, &in);
	}
	cl_env_pop(c, env_mark);
	free(aname);
	if (c->nested && cj.v > VERDICT_ASK && nested_approved(c, &av, cj.v))
		cj = judgement_make(VERDICT_SAFE, "pre-approved", -1);
	fill_item(c, slot, cj, av.v, av.n);
	j = judgement_max(j, cj);
	bind_node(c, n, j, &in, &av, first);
	note_words(c, n, &av);

	/* Side effects on what later commands of the line mean. */
	if (c->ls && av.v[0].known) {
		const char *name = av.v[0].text;
		if (strcmp(name, "alias") == 0) {
			for (size_t i = 1; i < av.n; i++) {
				const char *eq = av.v[i].known ? strchr(av.v[i].text, '=') : NULL;
				if (eq) {
					char *an = xstrndup(av.v[i].text, (size_t)(eq - av.v[i].text));
					alias_set(c->ls, an, eq + 1);
					free(an);
				}
			}
		} else if (strcmp(name, "export") == 0 || strcmp(name, "local") == 0 ||
		           strcmp(name, "declare") == 0 || strcmp(name, "typeset") == 0 ||
		           strcmp(name, "readonly") == 0) {
			for (size_t i = 1; i < av.n; i++)
				note_assignment_word(c, &av.v[i]);
		} else if (positional_effect(c, &av)) {
			/* handled: set, shift, and what runs them out of sight */
		} else if (strcmp(name, "shift") == 0) {
			/* In a loop or a branch the walk does not know whether or how
			 * often it runs: what follows cannot be told. */
			char *end = NULL;
			long k = av.n < 2 ? 1 : av.v[1].known ? strtol(av.v[1].text, &end, 10) : -1;
			bool exact = c->branch == 0 && c->pos && k >= 0 && (!end || !*end) && av.n <= 2;
			if (exact && (size_t)k < c->npos) {
				struct sarg *pos = arena_alloc(c->root, (c->npos - (size_t)k) * sizeof *pos);
				pos[0] = c->pos[0];
				for (size_t i = 1; i + (size_t)k < c->npos; i++)
					pos[i] = c->pos[i + (size_t)k];
				c->pos = pos;
				c->npos -= (size_t)k;
			} else if (!exact) {
				c->pos = NULL;
				c->npos = 0;
			} /* shifting more than there are fails and changes nothing */
		} else if (strcmp(base_of(name), "cp") == 0 || strcmp(base_of(name), "ln") == 0 ||
		           strcmp(base_of(name), "install") == 0 || strcmp(base_of(name), "mv") == 0) {
			note_copy(c, base_of(name), &av);
		} else if (strcmp(name, "read") == 0 || strcmp(name, "unset") == 0 ||
		           strcmp(name, "mapfile") == 0 || strcmp(name, "readarray") == 0 ||
		           strcmp(name, "getopts") == 0 || strcmp(name, "printf") == 0) {
			for (size_t i = 1; i < av.n; i++)
				if (av.v[i].known && parse_is_name(av.v[i].text, strlen(av.v[i].text)))
					var_set(c->ls, av.v[i].text, NULL);
		}
	}
	free(av.v);
	return j;
}

static void walk_cond(struct cctx *c, const struct cond_expr *e, struct judgement *j)
{
	if (!e)
		return;
	if (e->lhs)
		walk_word(c, e->lhs, j);
	if (e->rhs)
		walk_word(c, e->rhs, j);
	walk_cond(c, e->left, j);
	walk_cond(c, e->right, j);
}

static struct judgement walk_node(struct cctx *c, const struct node *n, const struct stdin_src *in)
{
	struct judgement j = judgement_make(VERDICT_SAFE, NULL, -1);
	if (!n)
		return j;
	if (++c->root->steps > CLASSIFY_MAX_STEPS)
		return judgement_make(VERDICT_ASK, "too complex to judge", -1);
	/* A compound command's own redirections apply to all of it. */
	struct stdin_src rin = *in;
	if (n->kind != NODE_SIMPLE && n->nredirs)
		j = walk_redirs(c, n, &rin, NULL);
	in = &rin;
	switch (n->kind) {
	case NODE_SIMPLE:
		j = judgement_max(j, judge_simple(c, n, in));
		break;
	case NODE_PIPELINE:
		c->branch += n->u.pipeline.ncmds > 1; /* stages are subshells */
		for (size_t i = 0; i < n->u.pipeline.ncmds; i++) {
			struct stdin_src src = i == 0 ? *in : producer_output(c, n->u.pipeline.cmds[i - 1]);
			j = judgement_max(j, walk_node(c, n->u.pipeline.cmds[i], &src));
		}
		c->branch -= n->u.pipeline.ncmds > 1;
		break;
	case NODE_AND_OR: {
		/* a && b && c leans left, and a line may hold 200,000 of them:
		 * walked along the spine, in order, not by recursion. */
		size_t depth = 1;
		for (const struct node *l = n->u.and_or.left; l->kind == NODE_AND_OR && l->nredirs == 0;
		     l = l->u.and_or.left)
			depth++;
		const struct node **spine = xmalloc(depth * sizeof *spine);
		spine[0] = n;
		for (size_t i = 1; i < depth; i++)
			spine[i] = spine[i - 1]->u.and_or.left;
		j = judgement_max(j, walk_node(c, spine[depth - 1]->u.and_or.left, in));
		c->branch++;
		for (size_t i = depth; i-- > 0;)
			j = judgement_max(j, walk_node(c, spine[i]->u.and_or.right, in));
		c->branch--;
		free(spine);
		break;
	}
	case NODE_LIST:
		for (size_t i = 0; i < n->u.list.nitems; i++)
			j = judgement_max(j, walk_node(c, n->u.list.items[i].node, in));
		break;
	case NODE_SUBSHELL:
	case NODE_BRACE_GROUP:
		c->branch += n->kind == NODE_SUBSHELL;
		j = judgement_max(j, walk_node(c, n->u.group.body, in));
		c->branch -= n->kind == NODE_SUBSHELL;
		break;
	case NODE_IF:
		j = judgement_max(j, walk_node(c, n->u.if_.cond, in));
		c->branch++;
		j = judgement_max(j, walk_node(c, n->u.if_.then_part, in));
		j = judgement_max(j, walk_node(c, n->u.if_.else_part, in));
		c->branch--;
		break;
	case NODE_LOOP:
		c->branch++;
		j = judgement_max(j, walk_node(c, n->u.loop.cond, in));
		j = judgement_max(j, walk_node(c, n->u.loop.body, in));
		c->branch--;
		break;
	case NODE_FOR:
		for (size_t i = 0; i < n->u.for_.nwords; i++)
			walk_word(c, n->u.for_.words[i], &j);
		if (c->ls)
			var_set(c->ls, n->u.for_.var, NULL);
		c->branch++;
		j = judgement_max(j, walk_node(c, n->u.for_.body, in));
		c->branch--;
		break;
	case NODE_ARITH_FOR:
		if (n->u.arith_for.init)
			walk_word(c, n->u.arith_for.init, &j);
		if (n->u.arith_for.cond)
			walk_word(c, n->u.arith_for.cond, &j);
		if (n->u.arith_for.step)
			walk_word(c, n->u.arith_for.step, &j);
		c->branch++;
		j = judgement_max(j, walk_node(c, n->u.arith_for.body, in));
		c->branch--;
		break;
	case NODE_CASE:
		walk_word(c, n->u.case_.subject, &j);
		for (size_t i = 0; i < n->u.case_.nitems; i++) {
			const struct case_item *ci = &n->u.case_.items[i];
			for (size_t k = 0; k < ci->npatterns; k++)
				walk_word(c, ci->patterns[k], &j);
			c->branch++;
			j = judgement_max(j, walk_node(c, ci->body, in));
			c->branch--;
		}
		break;
	case NODE_FUNCDEF: {
		/* Defining a function runs nothing: its body is judged at each
		 * call, on this line with the call's arguments (func_set), later
		 * command by command as it runs. */
		if (c->ls)
			func_set(c->ls, n->u.funcdef.name, n->u.funcdef.body);
		break;
	}
	case NODE_COND:
		walk_cond(c, n->u.cond.expr, &j);
		break;
	case NODE_ARITH:
		if (n->u.arith.expr) {
			walk_word(c, n->u.arith.expr, &j);
			/* ((X)) is arithmetic to sbsh, but two subshells to dash and
			 * the other POSIX shells text inside a line may be handed to:
			 * there, what X would do as a command counts too. */
			if (c->nested) {
				struct judgement sub = cl_judge_text(c, partial_text(c, n->u.arith.expr), NULL, 0, false);
				if (sub.v > VERDICT_ASK)
					j = judgement_max(j, sub);
			}
		}
		break;
	}
	return j;
}

/* ---- entry points ---------------------------------------------------------- */

enum verdict classify_static(struct classifier *cl, const struct node *program, struct classify_result *out)
{
	struct croot root;
	root_init(&root, cl, out, false);
	struct cctx c;
	memset(&c, 0, sizeof c);
	c.root = &root;
	c.ls = state_new(&root);
	struct stdin_src none = {STDIN_NONE, NULL};
	struct judgement j = walk_node(&c, program, &none);
	if (j.v > out->verdict)
		out->verdict = j.v;
	for (size_t s = 0; s < root.nstates; s++)
		for (size_t i = 0; i < root.states[s]->nfiles; i++) {
			out->written = xreallocarray(out->written, out->nwritten + 1, sizeof *out->written);
			out->written[out->nwritten++] = xstrdup(root.states[s]->files[i].name);
		}
	root_free(&root);
	return out->verdict;
}

int classify_text(struct classifier *cl, const char *text, size_t len, struct classify_result *out,
                  char **err_message)
{
	struct node *prog;
	struct parse_error err;
	if (parse_whole_text("-c", text, len, &prog, &err) != 0) {
		if (err_message)
			*err_message = xasprintf("%u:%u: %s", err.pos.line, err.pos.col,
			                         err.message ? err.message : "syntax error");
		free(err.message);
		if (out->verdict < VERDICT_ASK)
			out->verdict = VERDICT_ASK;
		return -1;
	}
	classify_static(cl, prog, out);
	ast_node_free(prog);
	return 0;
}

/* The tool a resolved path names: its basename without a script
 * extension or a -cli suffix (npm-cli.js is npm). */
static char *program_name(const char *path)
{
	const char *base = strrchr(path, '/');
	char *name = xstrdup(base ? base + 1 : path);
	static const char *const exts[] = {".js", ".cjs", ".mjs", ".py", ".sh", ".rb", ".pl", ".exe", NULL};
	size_t len = strlen(name);
	for (size_t i = 0; exts[i]; i++) {
		size_t el = strlen(exts[i]);
		if (len > el && strcmp(name + len - el, exts[i]) == 0) {
			name[len - el] = '\0';
			len -= el;
			break;
		}
	}
	if (len > 4 && strcmp(name + len - 4, "-cli") == 0)
		name[len - 4] = '\0';
	return name;
}

enum verdict classify_argv(struct classifier *cl, char *const *argv, const char *resolved_path,
                           enum classify_target target, struct classify_result *out)
{
	return classify_argv_facts(cl, argv, resolved_path, target, NULL, out);
}

bool cl_names_descriptor(const char *s)
{
	return strncmp(s, "/dev/fd/", 8) == 0 || strncmp(s, "/proc/self/fd/", 14) == 0 ||
	       strncmp(s, "/proc/thread-self/fd/", 21) == 0;
}

enum verdict classify_argv_facts(struct classifier *cl, char *const *argv, const char *resolved_path,
                                 enum classify_target target, const struct classify_facts *facts,
                                 struct classify_result *out)
{
	size_t n = strv_len(argv);
	if (n == 0)
		return VERDICT_SAFE;
	struct croot root;
	root_init(&root, cl, out, true);
	root.facts = facts;
	struct cctx c;
	memset(&c, 0, sizeof c);
	c.root = &root;
	struct sarg *a = xcalloc(n, sizeof *a);
	size_t nproc = 0;
	for (size_t i = 0; i < n; i++) {
		a[i].text = argv[i];
		a[i].known = true;
		/* The k-th /dev/fd/N operand reads the k-th <( ) of the command. */
		if (i > 0 && facts && cl_names_descriptor(argv[i]) && nproc < facts->nprocsubs)
			a[i].procsub = facts->procsubs[nproc++];
	}
	struct judgement j;
	root.program_argv = a;
	root.program_path = target == CLASSIFY_PROGRAM && resolved_path && *resolved_path ? resolved_path : NULL;
	if (target == CLASSIFY_FUNCTION) {
		j = judgement_make(VERDICT_SAFE, "shell function (its commands are judged as they run)", -1);
	} else {
		/* Standard input as the static pass found it, or the executor. */
		struct stdin_src in = {STDIN_NONE, NULL};
		if (facts)
			in = facts->in;
		j = cl_judge_argv(&c, a, n, &in);
		if (target == CLASSIFY_PROGRAM && resolved_path && *resolved_path) {
			/* The program that will run names the tool too: a ./ls that
			 * links to rm is rm. Both names are judged, because multicall
			 * binaries (busybox) and script launchers (npm-cli.js) only
			 * say what they are through argv[0]. */
			char *real = program_name(resolved_path);
			/* A program that is a symlink is the program it names: one
			 * lstat for every program, a realpath for links only. */
			struct stat lst;
			if (lstat(resolved_path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
				char *linked = realpath(resolved_path, NULL);
				if (linked) {
					free(real);
					real = program_name(linked);
					free(linked);
				}
			}
			const char *argv0 = strrchr(argv[0], '/');
			argv0 = argv0 ? argv0 + 1 : argv[0];
			if (strcmp(real, argv0) != 0) {
				a[0].text = real;
				root.names_only = true; /* the file itself was read above */
				j = judgement_max(j, cl_judge_argv(&c, a, n, &in));
				root.names_only = false;
				a[0].text = argv[0];
			}
			free(real);
		}
		if (target == CLASSIFY_PROGRAM)
			j = judgement_max(j, rules_judge_environment(&c));
	}
	record(&c, j, a, n);
	free(a);
	root_free(&root);
	return j.v;
}

/* The config file's rules on top of the built-in ones: they only raise.
 * Their operands are the arguments that do not start with "-", up to a
 * "--" (they know nothing of a program's options that take a value). */
static struct judgement apply_user_rules(struct cctx *c, const char *base, const struct sarg *a,
                                         size_t n, struct judgement j)
{
	const struct classifier *cl = c->root->cl;
	int *idx = NULL;
	size_t nw = 0;
	for (size_t r = 0; cl && r < cl->nrules; r++) {
		const struct user_rule *u = &cl->rules[r];
		if (u->rule.verdict <= j.v || fnmatch(u->program, base, 0) != 0)
			continue;
		if (!idx) {
			idx = cl_alloc(c, n * sizeof *idx);
			bool options_done = false;
			for (size_t i = 1; i < n; i++) {
				if (!options_done && a[i].known && strcmp(a[i].text, "--") == 0)
					options_done = true;
				else if (options_done || a[i].text[0] != '-')
					idx[nw++] = (int)i;
			}
		}
		int at;
		if (rules_match_operands(&u->rule, a, idx, nw, &at) == OPERANDS_MATCH)
			j = judgement_make(u->rule.verdict, cl_printf(c, "your rule: classify = %s", u->text), 0);
	}
	return j;
}

/* A program the line wrote, run by its path: shell text, or the code of
 * the interpreter its #! line names; anything else is opaque. */
static struct judgement judge_shebang(struct cctx *c, const char *line, const char *script, const struct sarg *a,
                                      size_t n, const struct stdin_src *in);

static struct judgement judge_written_program(struct cctx *c, const char *script, const struct sarg *a, size_t n,
                                              const struct stdin_src *in)
{
	if (strncmp(script, "#!", 2) != 0) {
		cl_seal(c, a[0].text); /* a shell reads it as it runs */
		return cl_judge_text(c, script, a, n, false);
	}
	size_t len = strcspn(script + 2, "\n");
	char *line = cl_strndup(c, script + 2, len);
	char *save = NULL;
	char *word = strtok_r(line, " \t", &save);
	const char *base = word ? strrchr(word, '/') : NULL;
	base = base ? base + 1 : word ? word : "";
	bool env_options = false;
	if (strcmp(base, "env") == 0)
		for (word = strtok_r(NULL, " \t", &save); word && word[0] == '-'; word = strtok_r(NULL, " \t", &save))
			env_options = true; /* env -S, env -i: the interpreter is the first operand */
	if (strcmp(base, "env") == 0)
		base = word ? word : "";
	struct judgement j = judgement_make(VERDICT_SAFE, NULL, -1);
	bool read = false;
	static const char *const shells[] = {"sh", "bash", "dash", "ash", "ksh", "zsh", "sbsh", "mksh", NULL};
	for (size_t i = 0; shells[i] && !read; i++)
		if (strcmp(base, shells[i]) == 0) {
			cl_seal(c, a[0].text);
			j = cl_judge_text(c, script, a, n, false);
			read = true;
		}
	if (!read && (strncmp(base, "python", 6) == 0 || strcmp(base, "perl") == 0 || strcmp(base, "ruby") == 0 ||
	              strcmp(base, "node") == 0)) {
		j = rules_judge_code(c, base, script);
		read = true;
	}
	/* Any other interpreter, or env given more to run: what the kernel
	 * runs (#!/bin/rm -rf, #!/usr/bin/env -S rm -rf). */
	char *shebang = read && !env_options ? NULL : program_shebang(script, strlen(script));
	if (shebang)
		j = judgement_max(j, judge_shebang(c, cl_strdup(c, shebang), a[0].text, a, n, in));
	free(shebang);
	return j;
}

/* The argv judged as the system program a copy is (path: that program's). */
static struct judgement judge_as_copy(struct cctx *c, const struct sarg *a, size_t n, const struct stdin_src *in,
                                      const char *path)
{
	char *real = realpath(path, NULL);
	char *tool = program_name(real ? real : path);
	free(real);
	struct judgement j = judgement_make(VERDICT_SAFE, NULL, -1);
	if (strcmp(tool, base_of(a[0].text)) != 0) {
		struct sarg *v = cl_alloc(c, n * sizeof *v);
		memcpy(v, a, n * sizeof *v);
		v[0].text = cl_strdup(c, tool);
		j = apply_user_rules(c, v[0].text, v, n, rules_judge(c, v[0].text, v, n, in));
		if (j.v != VERDICT_SAFE)
			j.reason = cl_printf(c, "%s is a copy of %s: %s", a[0].text, path, j.reason ? j.reason : "");
		j.at = 0;
	}
	free(tool);
	return j;
}

/* What the kernel runs for a script: its #! interpreter, the one argument
 * the line gives it, the script's path as exec'd, then the arguments
 * (#!/bin/rm -rf makes ./x.sh data into /bin/rm -rf ./x.sh data). */
static struct judgement judge_shebang(struct cctx *c, const char *line, const char *script, const struct sarg *a,
                                      size_t n, const struct stdin_src *in)
{
	if (c->depth >= CLASSIFY_MAX_DEPTH)
		return judgement_make(VERDICT_ASK, "#! interpreters nested too deep to judge", 0);
	size_t len = strcspn(line, " \t");
	const char *rest = line + len + strspn(line + len, " \t");
	struct sarg *v = cl_alloc(c, (n + 2) * sizeof *v);
	size_t k = 0;
	/* an interpreter without a slash is a file of the working folder */
	const char *interp = cl_strndup(c, line, len);
	v[k++] = (struct sarg){.text = strchr(interp, '/') ? interp : cl_printf(c, "./%s", interp), .known = true};
	if (*rest)
		v[k++] = (struct sarg){.text = rest, .known = true};
	v[k++] = (struct sarg){.text = script, .known = true};
	for (size_t i = 1; i < n; i++)
		v[k++] = a[i];
	struct cctx sub = *c;
	sub.depth = c->depth + 1;
	struct judgement j = cl_judge_argv(&sub, v, k, in);
	if (j.v != VERDICT_SAFE)
		j.reason = cl_printf(c, "%s runs as #!%s: %s", a[0].text, line, j.reason ? j.reason : "");
	j.at = 0;
	return j;
}

/* Policy rule 8: a program is judged as what it is. The file it runs (by
 * its path, or found on PATH as the shell will find it), when it lies in a
 * folder the sandbox can write, is read: a copy of a system program is
 * that program, a script adds its #! line, and a binary that is neither
 * called the way rm is called asks. text_judged: its text was judged as a
 * script written on the line. */
static struct judgement judge_program_identity(struct cctx *c, const struct sarg *a, size_t n,
                                               const struct stdin_src *in, bool text_judged)
{
	struct croot *r = c->root;
	struct judgement j = judgement_make(VERDICT_SAFE, NULL, -1);
	if (r->names_only)
		return j;
	const char *name = a[0].text;
	const char *path = NULL;
	char *found = NULL;
	if (a == r->program_argv) {
		path = r->program_path;
	} else {
		bool known = false;
		const char *pv = strchr(name, '/') ? NULL : cl_env_get(c, "PATH", &known);
		/* Statically only a PATH the line sets says where a name leads. */
		bool path_set = !strchr(name, '/') && !cl_env_inherited(c, "PATH");
		const char *copy = c->ls ? copy_get(c->ls, name, path_set) : NULL;
		if (copy)
			j = judge_as_copy(c, a, n, in, copy);
		if (strchr(name, '/'))
			path = name;
		else if (pv && known && (r->dynamic || path_set))
			path = found = program_ids_search(r->cl->ids, name, pv);
	}
	if (!path)
		return j;
	struct program_identity id;
	program_identity(r->cl->ids, path, &id);
	for (char **p = id.copy_of; p && *p; p++)
		j = judgement_max(j, judge_as_copy(c, a, n, in, *p));
	if (id.shebang && !text_judged)
		j = judgement_max(j, judge_shebang(c, id.shebang, path, a, n, in));
	if (id.binary)
		j = judgement_max(j, rules_judge_unknown_binary(c, a, n));
	program_identity_free(&id);
	free(found);
	return j;
}

struct judgement cl_judge_argv(struct cctx *c, const struct sarg *a, size_t n, const struct stdin_src *in)
{
	if (n == 0)
		return judgement_make(VERDICT_SAFE, NULL, -1);
	if (!a[0].known)
		return judgement_make(VERDICT_ASK, "the command name is not known before it runs", 0);
	if (a[0].pattern)
		return judgement_make(VERDICT_ASK, "the command name is a pattern that expands to file names", 0);
	const char *name = a[0].text;
	const char *script = NULL;
	int written = strchr(name, '/') ? cl_written_file(c, name, &script) : -1;
	struct judgement id = judge_program_identity(c, a, n, in, written == 1);
	if (written == 0)
		return judgement_max(judgement_make(VERDICT_ASK, "runs a script written on this line", 0), id);
	const char *base = strrchr(name, '/');
	base = base && base[1] ? base + 1 : name;
	if (written == 1) {
		struct judgement j = judge_written_program(c, script, a, n, in);
		if (j.v != VERDICT_SAFE)
			j.reason = cl_printf(c, "%s: %s", name, j.reason ? j.reason : "");
		j.at = 0;
		return apply_user_rules(c, base, a, n, judgement_max(j, id));
	}
	struct judgement j = judgement_max(rules_judge(c, base, a, n, in), id);
	return apply_user_rules(c, base, a, n, j);
}
