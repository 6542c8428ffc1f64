/* The secrets the sandbox may not read. Landlock has no deny rule: a
 * folder is readable when a rule grants it or any folder above it. So a
 * hidden path is one no rule reaches, and the read rules (landlock.c) are
 * made by walking down from / towards each hidden path, granting every
 * other entry on the way. This file makes the list of rules that walk
 * follows; docs/sandbox.md says what it costs. */
#include "sandbox/hide.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

/* A bound on what the config file can make the walk carry. */
#define HIDE_MAX_RULES 512
/* Links followed from one named path, and ssh config files included. */
#define HIDE_MAX_LINKS 8
#define HIDE_MAX_INCLUDE_DEPTH 3

static const char *const why_default = "a default";
static const char *const why_ssh_keys = "a default: private keys in ~/.ssh";
static const char *const why_ssh_public = "a default: public files in ~/.ssh";
static const char *const why_identity = "IdentityFile in ~/.ssh/config";
static const char *const why_include = "Include in ~/.ssh/config";
static const char *const why_state = "sbsh's state folder (checkpoints, baselines, history)";
static const char *const why_env = "a default, named by the environment";
static const char *const why_config = "the config file";

static bool is_glob(const char *name)
{
	return strpbrk(name, "*?[") != NULL;
}

static bool within(const char *path, const char *dir, size_t n)
{
	if (n == 1 && dir[0] == '/')
		return path[0] == '/' && path[1] != '\0';
	return strncmp(path, dir, n) == 0 && path[n] == '/';
}

/* Whether rule r covers the whole of the earlier rule e: e then no longer
 * decides anything r does not. */
static bool covers(const struct hide_rule *r, const struct hide_rule *e)
{
	if (strcmp(r->dir, e->dir) == 0)
		return fnmatch(r->name, e->name, 0) == 0;
	size_t n = strlen(r->dir);
	if (!within(e->dir, r->dir, n))
		return false;
	const char *first = e->dir + (n == 1 ? 1 : n + 1);
	size_t len = strcspn(first, "/");
	char *name = xstrndup(first, len);
	bool hit = fnmatch(r->name, name, 0) == 0;
	free(name);
	return hit;
}

static void push_rule(struct hide_plan *p, char *dir, const char *name, bool hide, const char *why)
{
	if (p->len >= HIDE_MAX_RULES) {
		free(dir);
		return;
	}
	struct hide_rule r = {.dir = dir, .name = xstrdup(name), .hide = hide, .why = why};
	size_t kept = 0;
	for (size_t i = 0; i < p->len; i++) {
		if (covers(&r, &p->rules[i])) {
			free(p->rules[i].dir);
			free(p->rules[i].name);
		} else {
			p->rules[kept++] = p->rules[i];
		}
	}
	p->len = kept;
	if (p->len == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 32;
		p->rules = xreallocarray(p->rules, p->cap, sizeof *p->rules);
	}
	p->rules[p->len++] = r;
}

/* The plan being made, and the folders resolved so far: most rules sit
 * in a few folders ($HOME, ~/.ssh), and realpath() reads every link on
 * the way each time. */
struct plan_ctx {
	struct hide_plan *p;
	struct {
		char *dir, *real; /* real NULL: does not resolve */
	} memo[16];
	size_t nmemo;
};

/* realpath(dir), malloc'd, or NULL. */
static char *resolve_dir(struct plan_ctx *c, const char *dir)
{
	for (size_t i = 0; i < c->nmemo; i++)
		if (strcmp(c->memo[i].dir, dir) == 0)
			return c->memo[i].real ? xstrdup(c->memo[i].real) : NULL;
	char *real = realpath(dir, NULL);
	if (c->nmemo < sizeof c->memo / sizeof *c->memo) {
		c->memo[c->nmemo].dir = xstrdup(dir);
		c->memo[c->nmemo++].real = real ? xstrdup(real) : NULL;
	}
	return real;
}

static void add_path(struct plan_ctx *c, const char *path, bool hide, const char *why, int links);

/* A hidden glob's entries that are links: their targets are hidden too,
 * since the walk gives a link no rule and checks its target as itself. */
static void follow_glob_links(struct plan_ctx *c, const char *dir, const char *pattern, const char *why,
                              int links)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    (e->d_type != DT_LNK && e->d_type != DT_UNKNOWN) || fnmatch(pattern, e->d_name, 0) != 0)
			continue;
		char *entry = xasprintf("%s/%s", strcmp(dir, "/") == 0 ? "" : dir, e->d_name);
		struct stat sb;
		if (lstat(entry, &sb) == 0 && S_ISLNK(sb.st_mode))
			add_path(c, entry, true, why, links + 1);
		free(entry);
	}
	closedir(d);
}

/* Adds the rule for an absolute path whose last name may be a glob. Only
 * what exists counts: a rule for nothing would make the walk list a folder
 * for nothing. A link is followed: its target is what reads reach. */
static void add_path(struct plan_ctx *c, const char *path, bool hide, const char *why, int links)
{
	if (path[0] != '/' || links > HIDE_MAX_LINKS)
		return;
	char *copy = xstrdup(path);
	size_t n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	char *slash = strrchr(copy, '/');
	const char *name = slash + 1;
	if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strchr(name, '/')) {
		/* `/`, or ending in . or ..: the folder it names, if not / */
		char *real = realpath(copy, NULL);
		if (real && strcmp(real, "/") != 0 && strcmp(real, copy) != 0)
			add_path(c, real, hide, why, links + 1);
		free(real);
		free(copy);
		return;
	}
	*slash = '\0';
	const char *dir = slash == copy ? "/" : copy;
	if (is_glob(name)) {
		char *rdir = resolve_dir(c, dir);
		if (rdir) {
			if (hide)
				follow_glob_links(c, rdir, name, why, links);
			push_rule(c->p, rdir, name, hide, why);
		}
		free(copy);
		return;
	}
	*slash = '/';
	struct stat sb;
	if (lstat(copy, &sb) != 0) {
		free(copy);
		return;
	}
	if (S_ISLNK(sb.st_mode)) {
		char *target = realpath(copy, NULL);
		if (target)
			add_path(c, target, hide, why, links + 1);
		free(target);
		free(copy);
		return;
	}
	*slash = '\0';
	char *rdir = resolve_dir(c, dir);
	if (rdir)
		push_rule(c->p, rdir, name, hide, why);
	free(copy);
}

static void add_home(struct plan_ctx *c, const char *home, const char *rel, bool hide, const char *why)
{
	char *path = xasprintf("%s/%s", home, rel);
	add_path(c, path, hide, why, 0);
	free(path);
}

static const char *env_abs(const char *name)
{
	const char *v = getenv(name);
	return v && v[0] == '/' ? v : NULL;
}

/* A path as ssh writes one: ~ and %d are the home folder; another token
 * (%h, %r, ${VAR}) is known only when ssh runs, and relative paths are
 * taken from wherever ssh runs: those are left (malloc'd or NULL). */
static char *ssh_path(const char *value, const char *home)
{
	if (strchr(value, '$') || (strchr(value, '%') && strncmp(value, "%d/", 3) != 0) ||
	    strchr(value + (value[0] == '%' ? 3 : 0), '%'))
		return NULL;
	if (value[0] == '~' && (value[1] == '/' || value[1] == '\0'))
		return xasprintf("%s%s", home, value + 1);
	if (strncmp(value, "%d/", 3) == 0)
		return xasprintf("%s%s", home, value + 2);
	return value[0] == '/' ? xstrdup(value) : NULL;
}

/* The next word of an ssh config line, unquoted; NULL at its end. */
static char *ssh_word(char **at)
{
	char *s = *at + strspn(*at, " \t=");
	if (!*s)
		return NULL;
	char *start = s, *end;
	if (*s == '"') {
		start = ++s;
		end = strchr(s, '"');
		if (!end)
			end = s + strlen(s);
	} else {
		end = s + strcspn(s, " \t");
	}
	*at = *end ? end + 1 : end;
	*end = '\0';
	return start;
}

/* The keys an ssh config file names (IdentityFile) are hidden wherever they
 * are; the files it includes are not keys, and ssh skips a config file it
 * cannot read without a word, so they are let through. */
static void ssh_config_keys(struct plan_ctx *c, const char *home, const char *file, int depth)
{
	size_t len;
	char *text = util_read_file(file, 0, 1 << 20, &len);
	if (!text)
		return;
	for (char *line = text; line && *line;) {
		char *next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *at = line;
		char *key = ssh_word(&at);
		if (key && strcasecmp(key, "IdentityFile") == 0) {
			char *value = ssh_word(&at);
			char *path = value ? ssh_path(value, home) : NULL;
			if (path)
				add_path(c, path, true, why_identity, 0);
			free(path);
		} else if (key && strcasecmp(key, "Include") == 0 && depth < HIDE_MAX_INCLUDE_DEPTH) {
			char *value;
			while ((value = ssh_word(&at)) != NULL) {
				char *path = value[0] == '/' || value[0] == '~' || value[0] == '%' ? ssh_path(value, home)
				                                                                 : xasprintf("%s/.ssh/%s", home, value);
				glob_t g;
				if (path && glob(path, 0, NULL, &g) == 0) {
					for (size_t i = 0; i < g.gl_pathc; i++) {
						add_path(c, g.gl_pathv[i], false, why_include, 0);
						ssh_config_keys(c, home, g.gl_pathv[i], depth + 1);
					}
					globfree(&g);
				}
				free(path);
			}
		}
		line = next;
	}
	free(text);
}

/* Whether path is in the sandbox's own package caches. */
static bool own_cache(const char *path)
{
	const char *shared = sandbox_shared_folder(path);
	return shared && strcmp(shared, "the sandbox's package caches") == 0;
}

static void add_defaults(struct plan_ctx *c, const char *home)
{
	if (home) {
		add_home(c, home, ".ssh/*", true, why_ssh_keys);
		static const char *const public[] = {".ssh/config", ".ssh/known_hosts*", ".ssh/authorized_keys*",
		                                     ".ssh/*.pub"};
		for (size_t i = 0; i < sizeof public / sizeof *public; i++)
			add_home(c, home, public[i], false, why_ssh_public);
		char *config = xasprintf("%s/.ssh/config", home);
		ssh_config_keys(c, home, config, 0);
		free(config);
		static const char *const secrets[] = {
			".aws", ".azure", ".config/gcloud", ".config/gh", ".gnupg", ".netrc", ".git-credentials",
			".config/git/credentials", ".docker/config.json", ".kube/config", ".pypirc",
			".cargo/credentials", ".cargo/credentials.toml", ".npmrc",
			/* the agent tools' own logins, and other tools' tokens */
			".claude/.credentials.json", ".codex/auth.json", ".config/containers/auth.json",
			".vault-token", ".terraform.d/credentials.tfrc.json", ".gem/credentials", ".config/hub",
			".kaggle/kaggle.json", ".huggingface/token", ".config/rclone/rclone.conf", ".s3cfg",
		};
		for (size_t i = 0; i < sizeof secrets / sizeof *secrets; i++)
			add_home(c, home, secrets[i], true, why_default);
	}
	/* The same secrets where the environment moves them. */
	static const char *const env_paths[][2] = {
		{"GNUPGHOME", ""}, {"AWS_SHARED_CREDENTIALS_FILE", ""}, {"AWS_CONFIG_FILE", ""},
		{"AZURE_CONFIG_DIR", ""}, {"CLOUDSDK_CONFIG", ""}, {"GH_CONFIG_DIR", ""},
		{"XDG_CONFIG_HOME", "/gh"}, {"XDG_CONFIG_HOME", "/gcloud"}, {"XDG_CONFIG_HOME", "/git/credentials"},
		{"DOCKER_CONFIG", "/config.json"}, {"NETRC", ""}, {"NPM_CONFIG_USERCONFIG", ""},
		{"npm_config_userconfig", ""}, {"CLAUDE_CONFIG_DIR", "/.credentials.json"}, {"CODEX_HOME", "/auth.json"},
		{"REGISTRY_AUTH_FILE", ""}, {"RCLONE_CONFIG", ""}, {"KAGGLE_CONFIG_DIR", "/kaggle.json"},
	};
	/* (A nested sbsh finds some of them pointing at the sandbox's own
	 * copies, in its caches: nothing of the human's is there.) */
	for (size_t i = 0; i < sizeof env_paths / sizeof *env_paths; i++) {
		const char *v = env_abs(env_paths[i][0]);
		if (v && !own_cache(v)) {
			char *path = xasprintf("%s%s", v, env_paths[i][1]);
			add_path(c, path, true, why_env, 0);
			free(path);
		}
	}
	const char *kube = getenv("KUBECONFIG");
	if (kube && *kube) {
		char *list = xstrdup(kube);
		for (char *save = NULL, *f = strtok_r(list, ":", &save); f; f = strtok_r(NULL, ":", &save))
			add_path(c, f, true, why_env, 0);
		free(list);
	}
	const char *cargo = env_abs("CARGO_HOME");
	if (cargo && !own_cache(cargo)) {
		for (int i = 0; i < 2; i++) {
			char *path = xasprintf("%s/credentials%s", cargo, i ? ".toml" : "");
			add_path(c, path, true, why_env, 0);
			free(path);
		}
	}
	/* Copies of the project's files (.env included) for every project, the
	 * baselines, the quarantine, the history. The shell opens what it
	 * needs there before it confines itself. */
	const char *state = env_abs("XDG_STATE_HOME");
	char *sbsh_state = state ? xasprintf("%s/sbsh", state) : home ? xasprintf("%s/.local/state/sbsh", home) : NULL;
	if (sbsh_state)
		add_path(c, sbsh_state, true, why_state, 0);
	free(sbsh_state);
}

const char *sandbox_check_hide_path(const char *value)
{
	if (!(value[0] == '/' || (value[0] == '~' && (value[1] == '/' || value[1] == '\0'))))
		return "needs an absolute path or one starting with ~/";
	if (strspn(value, "/") == strlen(value))
		return "cannot hide / (nothing would run)";
	return NULL;
}

void hide_plan_make(const struct sandbox_config *cfg, struct hide_plan *plan)
{
	memset(plan, 0, sizeof *plan);
	if (cfg->no_hide)
		return;
	const char *home = getenv("HOME");
	if (home && home[0] != '/')
		home = NULL;
	struct plan_ctx c = {.p = plan, .nmemo = 0};
	add_defaults(&c, home);
	for (size_t i = 0; i < cfg->hide_rules.len; i++) {
		const char *rule = cfg->hide_rules.items[i];
		const char *value = rule + 1;
		if (sandbox_check_hide_path(value))
			continue;
		char *path = value[0] == '~' ? (home ? xasprintf("%s%s", home, value + 1) : NULL) : xstrdup(value);
		if (path)
			add_path(&c, path, rule[0] == 'h', why_config, 0);
		free(path);
	}
	for (size_t i = 0; i < c.nmemo; i++) {
		free(c.memo[i].dir);
		free(c.memo[i].real);
	}
}

void hide_plan_free(struct hide_plan *plan)
{
	for (size_t i = 0; i < plan->len; i++) {
		free(plan->rules[i].dir);
		free(plan->rules[i].name);
	}
	free(plan->rules);
	memset(plan, 0, sizeof *plan);
}

void hide_folder_at(const struct hide_plan *plan, const char *path, struct hide_folder *f)
{
	memset(f, 0, sizeof *f);
	if (!plan->len)
		return;
	f->here = xcalloc(plan->len, sizeof *f->here);
	f->below = xcalloc(plan->len, sizeof *f->below);
	f->below_len = xcalloc(plan->len, sizeof *f->below_len);
	size_t n = strlen(path);
	for (size_t i = 0; i < plan->len; i++) {
		const char *dir = plan->rules[i].dir;
		if (strcmp(dir, path) == 0) {
			f->here[f->nhere++] = i;
		} else if (within(dir, path, n)) {
			const char *first = dir + (n == 1 ? 1 : n + 1);
			f->below[f->nbelow] = first;
			f->below_len[f->nbelow++] = strcspn(first, "/");
		}
	}
}

void hide_folder_free(struct hide_folder *f)
{
	free(f->here);
	free(f->below);
	free(f->below_len);
	memset(f, 0, sizeof *f);
}

bool hide_folder_hides(const struct hide_plan *plan, const struct hide_folder *f, const char *name,
                       bool folder_hidden)
{
	bool hidden = folder_hidden;
	for (size_t i = 0; i < f->nhere; i++) {
		const struct hide_rule *r = &plan->rules[f->here[i]];
		if (strcmp(r->name, name) == 0 || (is_glob(r->name) && fnmatch(r->name, name, 0) == 0))
			hidden = r->hide;
	}
	return hidden;
}

bool hide_folder_below(const struct hide_folder *f, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < f->nbelow; i++)
		if (f->below_len[i] == n && memcmp(f->below[i], name, n) == 0)
			return true;
	return false;
}

char *hide_home_short(const char *path)
{
	const char *home = getenv("HOME");
	char *real = home && *home ? realpath(home, NULL) : NULL;
	size_t n = real ? strlen(real) : 0;
	char *out = real && n > 1 && strncmp(path, real, n) == 0 && path[n] == '/' ? xasprintf("~%s", path + n)
	                                                                          : xstrdup(path);
	free(real);
	return out;
}
