/* The package caches inside the sandbox (see caches.h and docs/sandbox.md,
 * "Package caches"). None of the human's is left writable: each tool trusts
 * something in its cache that the sandbox could forge. npm's _cacache index
 * names the content it checks; Go trusts cache/download's .ziphash and
 * never rechecks an extracted tree; Cargo reuses a .crate that is already
 * there unchecked, and its extracted sources; Maven, Gradle, pip and NuGet
 * check nothing they read back. */
#include "sandbox/caches.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* a, sep and b end to end: the plan makes ~40 such strings at every
 * start, and a printf for each costs more than the rest of it. */
static char *join(const char *a, const char *sep, const char *b)
{
	size_t na = strlen(a), ns = strlen(sep), nb = strlen(b);
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_reserve(&sb, na + ns + nb + 1);
	strbuf_addmem(&sb, a, na);
	strbuf_addmem(&sb, sep, ns);
	strbuf_addmem(&sb, b, nb);
	return strbuf_detach(&sb);
}

static const char *env_set(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* The tool's variable when set, else dflt below base (NULL without a base). */
static char *where(const char *var, const char *base, const char *dflt)
{
	const char *set = env_set(var);
	return set ? xstrdup(set) : base ? join(base, "/", dflt) : NULL;
}

/* Whether path lies at or below dir, as strings: the sandbox's own caches
 * are named the same way in a nested sbsh, through the same variables. */
static bool beneath(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return path && strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* A path that a list-valued variable (GOPROXY, MAVEN_OPTS) cannot carry. */
static bool listable(const char *path)
{
	return path[0] == '/' && !strpbrk(path, " \t\n,|%'\"\\*?[");
}

static struct sandbox_cache *add(struct sandbox_caches *c, const char *tool, char *shared, const char *sub)
{
	struct sandbox_cache *e = &c->items[c->len++];
	e->tool = tool;
	e->own = join(c->root, "/", sub);
	if (shared && beneath(shared, c->root)) {
		free(shared); /* a nested sbsh: the outer one's private cache is ours too */
		shared = NULL;
	}
	e->shared = shared;
	e->reads_shared = NULL;
	return e;
}

static void setenv_to(struct sandbox_caches *c, const char *var, const char *value)
{
	strvec_push_owned(&c->env, join(var, "=", value));
}

/* What `go env -w` wrote in Go's env file, which the variables override. */
struct go_env_file {
	char *proxy, *modcache, *gopath;
};

static void read_go_env(struct go_env_file *g, const char *home)
{
	memset(g, 0, sizeof *g);
	const char *goenv = env_set("GOENV");
	if (goenv && strcmp(goenv, "off") == 0)
		return;
	const char *xdg = env_set("XDG_CONFIG_HOME");
	char *path = goenv ? xstrdup(goenv)
	             : xdg ? join(xdg, "/", "go/env")
	             : home ? join(home, "/", ".config/go/env")
	                    : NULL;
	FILE *f = path ? fopen(path, "re") : NULL;
	free(path);
	if (!f)
		return;
	char line[4096];
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		char **slot = strncmp(line, "GOPROXY=", 8) == 0      ? &g->proxy
		              : strncmp(line, "GOMODCACHE=", 11) == 0 ? &g->modcache
		              : strncmp(line, "GOPATH=", 7) == 0      ? &g->gopath
		                                                      : NULL;
		const char *value = slot ? strchr(line, '=') + 1 : NULL;
		if (slot && *value && !*slot)
			*slot = xstrdup(value);
	}
	fclose(f);
}

static void free_go_env(struct go_env_file *g)
{
	free(g->proxy);
	free(g->modcache);
	free(g->gopath);
}

/* Where the human's go keeps its modules: GOMODCACHE, else the first
 * GOPATH entry's pkg/mod, each from the variable or else the env file. */
static char *go_mod_cache(const struct go_env_file *g, const char *home)
{
	const char *gomod = env_set("GOMODCACHE");
	gomod = gomod ? gomod : g->modcache;
	if (gomod)
		return xstrdup(gomod);
	const char *gopath = env_set("GOPATH");
	gopath = gopath ? gopath : g->gopath;
	if (gopath) {
		char *first = xstrndup(gopath, strcspn(gopath, ":"));
		char *p = join(first, "/", "pkg/mod");
		free(first);
		return p;
	}
	return home ? join(home, "/", "go/pkg/mod") : NULL;
}

static void plan_go(struct sandbox_caches *c, const char *home, const char *cache)
{
	struct go_env_file g;
	read_go_env(&g, home);
	struct sandbox_cache *e = add(c, "Go modules", go_mod_cache(&g, home), "go/mod");
	setenv_to(c, "GOMODCACHE", e->own);
	/* The human's downloaded zips, served read-only as the first proxy:
	 * go hashes what it fetches and checks it against go.sum or the
	 * checksum database, unlike what is already in its own cache. */
	if (e->shared && listable(e->shared)) {
		const char *proxy = getenv("GOPROXY");
		proxy = proxy && *proxy ? proxy : g.proxy ? g.proxy : "https://proxy.golang.org,direct";
		strvec_push_owned(&c->env, xasprintf("GOPROXY=file://%s/cache/download,%s", e->shared, proxy));
		e->reads_shared = "through GOPROXY=file://.../cache/download, checked against go.sum";
	} else if (e->shared) {
		strvec_push_owned(&c->notes, xasprintf("Go modules: %s cannot be named in GOPROXY", e->shared));
	}
	free_go_env(&g);
	e = add(c, "Go build cache", where("GOCACHE", cache, "go-build"), "go/build");
	setenv_to(c, "GOCACHE", e->own);
}

static void plan_java(struct sandbox_caches *c, const char *home)
{
	struct sandbox_cache *e =
		add(c, "Maven", home ? join(home, "/", ".m2/repository") : NULL, "maven/repository");
	const char *opts = env_set("MAVEN_OPTS");
	if (opts && strstr(opts, "-Dmaven.repo.local=") && strstr(opts, c->root)) {
		free(e->shared); /* set by an outer sbsh */
		e->shared = NULL;
	} else if (listable(e->own)) {
		/* mvn splits MAVEN_OPTS on blanks; the tail (Maven 3.9) is read only. */
		char *tail = e->shared && listable(e->shared) ? xasprintf(" -Dmaven.repo.local.tail=%s", e->shared)
		                                                : xstrdup("");
		strvec_push_owned(&c->env, xasprintf("MAVEN_OPTS=%s%s-Dmaven.repo.local=%s%s", opts ? opts : "",
		                                     opts ? " " : "", e->own, tail));
		if (*tail)
			e->reads_shared = "as maven.repo.local.tail (Maven 3.9 and later)";
		free(tail);
	} else {
		strvec_push_owned(&c->notes, xasprintf("Maven: %s cannot be named in MAVEN_OPTS", e->own));
	}
	/* The Maven wrapper's downloaded distributions (~/.m2/wrapper), which
	 * the human's ./mvnw would run. */
	char *wrapper = join(c->root, "/", "maven");
	setenv_to(c, "MAVEN_USER_HOME", wrapper);
	free(wrapper);

	e = add(c, "Gradle", where("GRADLE_USER_HOME", home, ".gradle"), "gradle");
	setenv_to(c, "GRADLE_USER_HOME", e->own);
	if (e->shared && !env_set("GRADLE_RO_DEP_CACHE")) {
		char *ro = join(e->shared, "/", "caches");
		setenv_to(c, "GRADLE_RO_DEP_CACHE", ro);
		free(ro);
		e->reads_shared = "as GRADLE_RO_DEP_CACHE";
	}
}

static void plan_js(struct sandbox_caches *c, const char *home, const char *cache)
{
	const char *npm = env_set("npm_config_cache");
	npm = npm ? npm : env_set("NPM_CONFIG_CACHE");
	struct sandbox_cache *e =
		add(c, "npm", npm ? xstrdup(npm) : home ? join(home, "/", ".npm") : NULL, "npm");
	setenv_to(c, "npm_config_cache", e->own);
	if (env_set("NPM_CONFIG_CACHE"))
		setenv_to(c, "NPM_CONFIG_CACHE", e->own); /* npm would take either */

	e = add(c, "Yarn", where("YARN_CACHE_FOLDER", cache, "yarn"), "yarn/cache");
	setenv_to(c, "YARN_CACHE_FOLDER", e->own);
	char *global = join(c->root, "/", "yarn/global");
	setenv_to(c, "YARN_GLOBAL_FOLDER", global);
	free(global);

	const char *bun_home = env_set("BUN_INSTALL");
	char *bun_base = bun_home ? xstrdup(bun_home) : home ? join(home, "/", ".bun") : NULL;
	e = add(c, "Bun", where("BUN_INSTALL_CACHE_DIR", bun_base, "install/cache"), "bun");
	setenv_to(c, "BUN_INSTALL_CACHE_DIR", e->own);
	free(bun_base);
}

void sandbox_caches_plan(struct sandbox_caches *c)
{
	memset(c, 0, sizeof *c);
	strvec_init(&c->env);
	strvec_init(&c->notes);
	const char *home = env_set("HOME");
	const char *xdg = env_set("XDG_CACHE_HOME");
	if (xdg && xdg[0] != '/')
		xdg = NULL; /* the XDG spec ignores a relative one */
	char *cache = xdg ? xstrdup(xdg) : home ? join(home, "/", ".cache") : NULL;
	if (!cache) {
		strvec_push(&c->notes, "no $XDG_CACHE_HOME or $HOME: the tools keep their caches, read-only");
		return;
	}
	c->root = join(cache, "/", "sbsh/sandbox-caches");

	plan_js(c, home, cache);
	plan_go(c, home, cache);

	struct sandbox_cache *e = add(c, "Cargo", where("CARGO_HOME", home, ".cargo"), "cargo");
	setenv_to(c, "CARGO_HOME", e->own);

	plan_java(c, home);

	e = add(c, "pip", where("PIP_CACHE_DIR", cache, "pip"), "pip");
	setenv_to(c, "PIP_CACHE_DIR", e->own);
	e = add(c, "uv", where("UV_CACHE_DIR", cache, "uv"), "uv");
	setenv_to(c, "UV_CACHE_DIR", e->own);

	e = add(c, "NuGet", where("NUGET_PACKAGES", home, ".nuget/packages"), "nuget/packages");
	setenv_to(c, "NUGET_PACKAGES", e->own);
	char *http = join(c->root, "/", "nuget/http-cache");
	setenv_to(c, "NUGET_HTTP_CACHE_PATH", http);
	free(http);
	if (e->shared) {
		const char *more = env_set("NUGET_FALLBACK_PACKAGES");
		strvec_push_owned(&c->env, xasprintf("NUGET_FALLBACK_PACKAGES=%s%s%s", e->shared, more ? ";" : "",
		                                     more ? more : ""));
		e->reads_shared = "as NUGET_FALLBACK_PACKAGES";
	}
	/* A private .NET CLI home, so ~/.dotnet (global tools) stays read-only. */
	char *dotnet = join(c->root, "/", "dotnet");
	setenv_to(c, "DOTNET_CLI_HOME", dotnet);
	free(dotnet);
	free(cache);
}

/* Links in the tool's private folder to the human's config files beside
 * its cache; only when the folder is new, so a start costs one mkdir. */
static void link_config(const struct sandbox_cache *e, const char *const names[], size_t n)
{
	if (!e->shared || mkdir(e->own, 0700) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		char *target = xasprintf("%s/%s", e->shared, names[i]);
		char *link = xasprintf("%s/%s", e->own, names[i]);
		/* Read-only through the link: the target is outside the grants. */
		if (symlink(target, link) != 0 && errno != EEXIST)
			fprintf(stderr, "sbsh: %s: %s\n", link, strerror(errno));
		free(target);
		free(link);
	}
}

void sandbox_caches_prepare(const struct sandbox_caches *c)
{
	const char *const cargo[] = {"config.toml", "config"};
	const char *const gradle[] = {"gradle.properties", "init.d"};
	for (size_t i = 0; i < c->len; i++) {
		if (strcmp(c->items[i].tool, "Cargo") == 0)
			link_config(&c->items[i], cargo, 2);
		else if (strcmp(c->items[i].tool, "Gradle") == 0)
			link_config(&c->items[i], gradle, 2);
	}
}

void sandbox_caches_free(struct sandbox_caches *c)
{
	for (size_t i = 0; i < c->len; i++) {
		free(c->items[i].shared);
		free(c->items[i].own);
	}
	free(c->root);
	strvec_free(&c->env);
	strvec_free(&c->notes);
	memset(c, 0, sizeof *c);
}
