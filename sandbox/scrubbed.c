/* Copies without their secrets, for the tools that stop working when a
 * config file of theirs is hidden: gh fails on a config folder it cannot
 * read, even with GH_TOKEN set, and npm quietly drops an unreadable
 * ~/.npmrc, and with it the registry the human set. Each is copied, its
 * tokens left out, into the sandbox's own caches folder, and the tool
 * pointed there by its variable, inside only. The copies are made again
 * at every start when they differ: what a session wrote in them does not
 * outlive it. */
#include "sandbox/scrubbed.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

/* The hidden entry path lies in, or NULL. */
const char *sandbox_hidden_match(char *const *hidden, size_t n, const char *path)
{
	char *real = realpath(path, NULL);
	if (!real)
		return NULL;
	const char *hit = NULL;
	for (size_t i = 0; i < n && !hit; i++) {
		size_t len = strlen(hidden[i]);
		if (strncmp(real, hidden[i], len) == 0 && (real[len] == '\0' || real[len] == '/'))
			hit = hidden[i];
	}
	free(real);
	return hit;
}

/* Whether the value (after the first `=` of an npmrc line, else the first
 * `:` of a YAML one) is only a variable (`${NPM_TOKEN}`, quoted or not),
 * which the sandbox sees anyway. */
static bool value_only_variable(const char *line, size_t len)
{
	const char *eq = memchr(line, '=', len);
	const char *colon = memchr(line, ':', len);
	const char *sep = eq ? eq : colon;
	if (!sep)
		return false;
	size_t v = (size_t)(sep - line);
	v++;
	while (v < len && (line[v] == ' ' || line[v] == '\t' || line[v] == '"' || line[v] == '\''))
		v++;
	while (len > v && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r' ||
	                   line[len - 1] == '"' || line[len - 1] == '\''))
		len--;
	if (len - v < 4 || line[v] != '$' || line[v + 1] != '{' || line[len - 1] != '}')
		return false;
	for (size_t i = v + 2; i < len - 1; i++)
		if (!(line[i] == '_' || (line[i] >= '0' && line[i] <= '9') || ((line[i] | 0x20) >= 'a' && (line[i] | 0x20) <= 'z')))
			return false;
	return true;
}

/* Whether a line names a secret key anywhere: npm's `_authToken`, `_auth`
 * and `_password` (bare, per registry, quoted: npm unquotes its keys),
 * gh's `oauth_token` (also in a YAML flow mapping). Case is ignored. */
static bool line_names_secret(const char *line, size_t len)
{
	static const char *const keys[] = {"_auth", "_password", "oauth_token"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		size_t n = strlen(keys[i]);
		for (size_t at = 0; at + n <= len; at++)
			if (strncasecmp(line + at, keys[i], n) == 0)
				return true;
	}
	return false;
}

static size_t indent_of(const char *line, size_t len)
{
	size_t i = 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	return i;
}

/* What a regular file at name in dir holds (at most max bytes), or NULL:
 * never through a link, never waiting on a FIFO, since the sandbox may
 * have left either there. */
static char *read_own(int dir, const char *name, size_t max, size_t *len)
{
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || (size_t)sb.st_size > max) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	char *buf = xmalloc((size_t)sb.st_size + 1);
	size_t got = 0;
	ssize_t n;
	while (got < (size_t)sb.st_size && (n = read(fd, buf + got, (size_t)sb.st_size - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* Makes the file name in dir hold src's clean lines, unless it does
 * already. Everything is done relative to dir and without following
 * links: what dir holds is the sandbox's to change, and sbsh runs here
 * with the human's rights. Returns whether name holds them now (or is
 * gone with src). */
static bool copy_clean(const char *src, int dir, const char *name)
{
	size_t len, old_len = 0;
	char *text = util_read_file(src, 0, 1 << 20, &len);
	if (!text)
		return errno == ENOENT && (unlinkat(dir, name, 0) == 0 || errno == ENOENT);
	struct strbuf out;
	strbuf_init(&out);
	/* A line naming a secret goes, and so do the lines indented below it
	 * (a YAML block scalar or mapping holding the token). */
	size_t dropped_indent = SIZE_MAX;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		const char *line = text + at;
		size_t ind = indent_of(line, n);
		bool blank = ind == n;
		if (dropped_indent != SIZE_MAX && (blank || ind > dropped_indent)) {
			at += n + 1;
			continue;
		}
		dropped_indent = SIZE_MAX;
		if (line_names_secret(line, n) && !value_only_variable(line, n)) {
			dropped_indent = ind;
		} else {
			strbuf_addmem(&out, line, n);
			strbuf_addc(&out, '\n');
		}
		at += n + 1;
	}
	free(text);
	char *old = read_own(dir, name, 1 << 20, &old_len);
	bool ok = old && old_len == out.len && memcmp(old, out.data ? out.data : "", out.len) == 0;
	free(old);
	if (!ok) {
		char *tmp = xasprintf(".%s.tmp", name);
		unlinkat(dir, tmp, 0);
		int fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		ok = fd >= 0 && (out.len == 0 || util_write_all(fd, out.data, out.len));
		if (fd >= 0 && close(fd) != 0)
			ok = false;
		ok = ok && renameat(dir, tmp, dir, name) == 0;
		if (!ok) {
			fprintf(stderr, "sbsh: the copy of %s without its tokens: %s\n", src, strerror(errno));
			unlinkat(dir, tmp, 0);
		}
		free(tmp);
	}
	strbuf_free(&out);
	return ok;
}

/* The folder name in root (made if missing), open; a link or a file the
 * sandbox put in its place is removed first. -1 on failure. */
static int own_dir(int root, const char *name)
{
	int fd = openat(root, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 || (errno != ENOENT && errno != ENOTDIR && errno != ELOOP))
		return fd;
	if (errno != ENOENT)
		unlinkat(root, name, 0);
	if (mkdirat(root, name, 0700) != 0 && errno != EEXIST)
		return -1;
	return openat(root, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static const char *env_abs(const char *name)
{
	const char *v = getenv(name);
	return v && v[0] == '/' ? v : NULL;
}

void sandbox_scrubbed_copies(struct sandbox_state *st)
{
	if (!st->hidden.len)
		return;
	const char *home = env_abs("HOME");
	const char *xdg_cache = env_abs("XDG_CACHE_HOME");
	char *root = xdg_cache ? xasprintf("%s/sbsh/sandbox-caches", xdg_cache)
	             : home    ? xasprintf("%s/.cache/sbsh/sandbox-caches", home)
	                       : NULL;
	/* The root itself is out of the sandbox's reach (its parent is not
	 * writable); what it holds is not. */
	int root_fd = root ? open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (root_fd < 0) {
		free(root);
		return;
	}
	char *const *hidden = st->hidden.items;
	size_t n = st->hidden.len;

	/* npm: the user config npm would read, as npm finds it */
	const char *upper = env_abs("NPM_CONFIG_USERCONFIG");
	const char *lower = env_abs("npm_config_userconfig");
	const char *set = lower ? lower : upper;
	char *npmrc = set ? xstrdup(set) : home ? xasprintf("%s/.npmrc", home) : NULL;
	/* Pointed at only when it holds what was computed now: a copy the
	 * sandbox changed and kept from being rewritten is not used. */
	if (npmrc && sandbox_hidden_match(hidden, n, npmrc) && copy_clean(npmrc, root_fd, "npmrc")) {
		strvec_push_owned(&st->env, xasprintf("npm_config_userconfig=%s/npmrc", root));
		if (upper)
			strvec_push_owned(&st->env, xasprintf("NPM_CONFIG_USERCONFIG=%s/npmrc", root));
	}
	free(npmrc);

	/* gh: its config folder, as gh finds it */
	const char *gh_set = env_abs("GH_CONFIG_DIR");
	const char *xdg_config = env_abs("XDG_CONFIG_HOME");
	char *gh = gh_set ? xstrdup(gh_set) : xdg_config ? xasprintf("%s/gh", xdg_config)
	                                     : home ? xasprintf("%s/.config/gh", home) : NULL;
	char *gh_hosts = gh ? xasprintf("%s/hosts.yml", gh) : NULL;
	if (gh && (sandbox_hidden_match(hidden, n, gh) || sandbox_hidden_match(hidden, n, gh_hosts))) {
		int dir = own_dir(root_fd, "gh");
		bool ok = dir >= 0;
		static const char *const files[] = {"config.yml", "hosts.yml"};
		for (size_t i = 0; ok && i < sizeof files / sizeof *files; i++) {
			char *src = xasprintf("%s/%s", gh, files[i]);
			ok = copy_clean(src, dir, files[i]);
			free(src);
		}
		if (ok)
			strvec_push_owned(&st->env, xasprintf("GH_CONFIG_DIR=%s/gh", root));
		if (dir >= 0)
			close(dir);
	}
	free(gh_hosts);
	free(gh);
	close(root_fd);
	free(root);
}
