/* `sbsh --setup TOOL`: the one step that makes an agent tool run its
 * commands through sbsh (docs/agent-tools.md). Claude Code takes its shell
 * from CLAUDE_CODE_SHELL only when the path holds "bash" or "zsh", so it
 * gets a shim named bash in a folder of sbsh's own, named in the "env" of
 * its settings.json. Codex takes the login shell from the password
 * database, known by its name, and has no setting for it: setup writes a
 * shim named bash and says how to make it the login shell of the account
 * Codex runs as, which it never does itself. */
#include "frontend/setup.h"

#include "frontend/shims.h"
#include "lib/proc_status.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WHO "--setup"
#define SHELL_KEY "CLAUDE_CODE_SHELL"
#define SETTINGS_MAX (16u << 20)

/* Where Claude Code's pieces and ours lie for this user. */
struct claude_paths {
	char *dir;      /* $CLAUDE_CONFIG_DIR or ~/.claude */
	char *settings; /* dir/settings.json */
	char *backup;   /* the settings as they were before the first setup */
	char *none;     /* marker: there were no settings before it */
	char *data;     /* $XDG_DATA_HOME/sbsh or ~/.local/share/sbsh */
	char *shim_dir; /* data/claude-code */
	char *shim;     /* shim_dir/bash: the path must hold "bash" */
};

static const char *home_dir(void)
{
	const char *home = getenv("HOME");
	if (home && *home == '/')
		return home;
	struct passwd *pw = getpwuid(getuid());
	return pw && pw->pw_dir && *pw->pw_dir == '/' ? pw->pw_dir : NULL;
}

static bool claude_paths(struct claude_paths *p)
{
	memset(p, 0, sizeof *p);
	const char *home = home_dir();
	if (!home)
		return false;
	const char *cfg = getenv("CLAUDE_CONFIG_DIR");
	p->dir = cfg && *cfg == '/' ? xstrdup(cfg) : xasprintf("%s/.claude", home);
	p->settings = xasprintf("%s/settings.json", p->dir);
	p->backup = xasprintf("%s.sbsh-backup", p->settings);
	p->none = xasprintf("%s.sbsh-none", p->settings);
	const char *xdg = getenv("XDG_DATA_HOME");
	p->data = xdg && *xdg == '/' ? xasprintf("%s/sbsh", xdg) : xasprintf("%s/.local/share/sbsh", home);
	p->shim_dir = xasprintf("%s/claude-code", p->data);
	p->shim = xasprintf("%s/bash", p->shim_dir);
	return true;
}

static void claude_paths_free(struct claude_paths *p)
{
	free(p->dir);
	free(p->settings);
	free(p->backup);
	free(p->none);
	free(p->data);
	free(p->shim_dir);
	free(p->shim);
}

/* The first executable NAME on PATH, or NULL. */
static char *find_program(const char *name)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path;;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char *cand = n ? xasprintf("%.*s/%s", (int)n, p, name) : xasprintf("./%s", name);
		struct stat sb;
		if (stat(cand, &sb) == 0 && S_ISREG(sb.st_mode) && access(cand, X_OK) == 0)
			return cand;
		free(cand);
		if (!colon)
			return NULL;
		p = colon + 1;
	}
}

/* Whether the file at path is the shim sbsh would write now: ours, and
 * running this very binary. */
static bool shim_runs_this_sbsh(const char *path, const char *expected)
{
	size_t len = 0;
	char *text = util_read_file(path, 0, 1u << 16, &len);
	bool same = text && expected && strcmp(text, expected) == 0 && access(path, X_OK) == 0;
	free(text);
	return same;
}

/* Why this process may not rewire a tool, or NULL. A sandboxed shell has
 * no_new_privs and a seccomp filter; letting it run setup would let the
 * agent point the tool at a shell of its choosing. */
static const char *inside_sandbox(void)
{
	struct proc_confinement self;
	if (!proc_confinement_of(0, &self) || !self.no_new_privs || self.seccomp_filters == 0)
		return NULL;
	return "this process has no_new_privs and a seccomp filter, as a sandboxed one does";
}

/* Reads path as a JSON object. *root: the object, or NULL when the file
 * does not exist; *bytes and *len its exact contents, for the backup.
 * Returns false after reporting. */
static bool load_settings(const char *path, json_t **root, char **bytes, size_t *len)
{
	*root = NULL;
	*bytes = util_read_file(path, 0, SETTINGS_MAX, len);
	if (!*bytes) {
		if (errno == ENOENT)
			return true;
		fprintf(stderr, "sbsh: %s: %s: %s\n", WHO, path, strerror(errno));
		return false;
	}
	json_error_t err;
	*root = json_loadb(*bytes, *len, 0, &err);
	if (!*root || !json_is_object(*root)) {
		fprintf(stderr, "sbsh: %s: %s: not a JSON object (%s); fix it first, nothing was changed\n", WHO, path,
		        *root ? "another JSON value" : err.text);
		json_decref(*root);
		*root = NULL;
		free(*bytes);
		*bytes = NULL;
		return false;
	}
	return true;
}

/* Writes len bytes to path through a temporary file beside it and a
 * rename, so the tool never reads half a file. mode: the file's. */
static bool write_atomic(const char *path, const char *data, size_t len, mode_t mode)
{
	char *tmp = xasprintf("%s.sbsh-tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	bool ok = fd >= 0;
	int saved = errno;
	if (ok && (!util_write_all(fd, data, len) || fchmod(fd, mode) != 0 || fsync(fd) != 0)) {
		ok = false;
		saved = errno;
	}
	if (fd >= 0 && close(fd) != 0 && ok) {
		ok = false;
		saved = errno;
	}
	if (ok && rename(tmp, path) != 0) {
		ok = false;
		saved = errno;
	}
	if (!ok) {
		fprintf(stderr, "sbsh: %s: cannot write %s: %s\n", WHO, path, strerror(saved));
		if (fd >= 0)
			unlink(tmp);
	}
	free(tmp);
	return ok;
}

static bool write_json(const char *path, json_t *root, mode_t mode)
{
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!text) {
		fprintf(stderr, "sbsh: %s: cannot serialise %s\n", WHO, path);
		return false;
	}
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_adds(&sb, text);
	strbuf_addc(&sb, '\n');
	free(text);
	bool ok = write_atomic(path, sb.data, sb.len, mode);
	strbuf_free(&sb);
	return ok;
}

/* The file a write to path must replace: a settings.json that is a
 * symlink (a dotfiles folder) keeps being one, its target rewritten. */
static char *write_target(const char *path)
{
	struct stat sb;
	char *real = lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode) ? realpath(path, NULL) : NULL;
	return real ? real : xstrdup(path);
}

static mode_t file_mode(const char *path, mode_t fallback)
{
	struct stat sb;
	return stat(path, &sb) == 0 ? sb.st_mode & 07777 : fallback;
}

/* The CLAUDE_CODE_SHELL a settings file sets, or NULL. Malloc'd. */
static char *shell_in(const char *path)
{
	json_error_t err;
	json_t *root = json_load_file(path, 0, &err);
	const char *v = json_string_value(json_object_get(json_object_get(root, "env"), SHELL_KEY));
	char *copy = v ? xstrdup(v) : NULL;
	json_decref(root);
	return copy;
}

/* A settings file that wins over the user's and names another shell for
 * the folder Claude Code would start in here: managed settings, or a
 * project's .claude/settings(.local).json from this folder up to its git
 * top (a repository can ship one). Returns the file, *value the shell. */
static char *claude_override(const char *shim, char **value)
{
	struct strvec files;
	strvec_init(&files);
	strvec_push(&files, "/etc/claude-code/managed-settings.json");
	char *dir = getcwd(NULL, 0);
	for (int depth = 0; dir && depth < 64; depth++) {
		strvec_push_owned(&files, xasprintf("%s/.claude/settings.local.json", dir));
		strvec_push_owned(&files, xasprintf("%s/.claude/settings.json", dir));
		char *git = xasprintf("%s/.git", dir);
		bool top = access(git, F_OK) == 0 || strcmp(dir, "/") == 0;
		free(git);
		if (top)
			break;
		char *slash = strrchr(dir, '/');
		if (slash == dir)
			slash[1] = '\0';
		else if (slash)
			*slash = '\0';
	}
	free(dir);
	char *found = NULL;
	*value = NULL;
	for (size_t i = 0; i < files.len && !found; i++) {
		char *v = shell_in(files.items[i]);
		if (v && strcmp(v, shim) != 0) {
			found = xstrdup(files.items[i]);
			*value = v;
		} else {
			free(v);
		}
	}
	strvec_free(&files);
	return found;
}

/* Says so when the folder setup runs in has settings of its own that
 * keep Claude Code from the shim. */
static void warn_override(const char *shim)
{
	char *value = NULL;
	char *over = claude_override(shim, &value);
	if (over)
		printf("But not in this folder: %s sets %s to %s, which wins over your settings.\n", over, SHELL_KEY, value);
	free(over);
	free(value);
}

static int setup_claude(void)
{
	struct claude_paths p;
	if (!claude_paths(&p)) {
		fprintf(stderr, "sbsh: %s: no home folder (HOME is not set)\n", WHO);
		return 1;
	}
	int rc = 1;
	json_t *root = NULL;
	char *bytes = NULL;
	size_t len = 0;
	char *script = shims_script(WHO);
	if (!script)
		goto out;
	if (!load_settings(p.settings, &root, &bytes, &len))
		goto out;
	bool existed = root != NULL;
	if (!root)
		root = json_object();
	json_t *env = json_object_get(root, "env");
	if (env && !json_is_object(env)) {
		fprintf(stderr, "sbsh: %s: %s: \"env\" is not an object; nothing was changed\n", WHO, p.settings);
		goto out;
	}

	char *dirs = xstrdup(p.shim_dir);
	int made = util_mkdir_private(dirs);
	free(dirs);
	if (made != 0) {
		fprintf(stderr, "sbsh: %s: cannot create %s: %s\n", WHO, p.shim_dir, strerror(errno));
		goto out;
	}
	if (shim_runs_this_sbsh(p.shim, script)) {
		printf("%s, a shim that runs this sbsh, is there already\n", p.shim);
	} else {
		if (shims_write(p.shim_dir, "bash", script, WHO) != 0)
			goto out;
		printf("wrote %s, a shim that runs this sbsh\n", p.shim);
	}

	const char *cur = json_string_value(json_object_get(env, SHELL_KEY));
	if (cur && strcmp(cur, p.shim) == 0) {
		printf("%s already sets %s to it: nothing else to do\n", p.settings, SHELL_KEY);
		rc = 0;
		goto undo_line;
	}
	/* The first setup keeps the original; a later one (after the user
	 * changed the key) must not replace it with our own writing. */
	if (access(p.backup, F_OK) != 0 && access(p.none, F_OK) != 0) {
		if (existed) {
			if (!write_atomic(p.backup, bytes, len, file_mode(p.settings, 0600)))
				goto out;
			printf("kept the original as %s\n", p.backup);
		} else {
			char *dir = xstrdup(p.dir);
			int dir_made = util_mkdir_private(dir);
			free(dir);
			if (dir_made != 0) {
				fprintf(stderr, "sbsh: %s: cannot create %s: %s\n", WHO, p.dir, strerror(errno));
				goto out;
			}
			if (!write_atomic(p.none, "", 0, 0600))
				goto out;
		}
	}
	if (!env) {
		env = json_object();
		json_object_set_new(root, "env", env);
	}
	json_object_set_new(env, SHELL_KEY, json_string(p.shim));
	char *target = write_target(p.settings);
	bool written = write_json(target, root, file_mode(target, 0600));
	free(target);
	if (!written)
		goto out;
	printf("set \"env\".%s in %s%s\n", SHELL_KEY, p.settings, existed ? ", every other key kept" : " (new file)");
	printf("Claude Code started from now on runs its commands with sbsh (sbsh --doctor checks it).\n");
	rc = 0;
undo_line:
	warn_override(p.shim);
	printf("To undo: sbsh --setup --undo claude-code\n");
out:
	json_decref(root);
	free(bytes);
	free(script);
	claude_paths_free(&p);
	return rc;
}

/* Puts env.CLAUDE_CODE_SHELL back as it was in before (NULL: there was
 * no file), dropping an "env" the setup added. */
static void revert_key(json_t *root, json_t *before)
{
	json_t *env = json_object_get(root, "env");
	if (!json_is_object(env))
		return;
	json_t *env_before = before ? json_object_get(before, "env") : NULL;
	json_t *prev = json_is_object(env_before) ? json_object_get(env_before, SHELL_KEY) : NULL;
	if (prev)
		json_object_set(env, SHELL_KEY, prev);
	else
		json_object_del(env, SHELL_KEY);
	if (json_object_size(env) == 0 && !env_before)
		json_object_del(root, "env");
}

static int undo_claude(void)
{
	struct claude_paths p;
	if (!claude_paths(&p)) {
		fprintf(stderr, "sbsh: %s: no home folder (HOME is not set)\n", WHO);
		return 1;
	}
	int rc = 1;
	json_t *root = NULL, *before = NULL;
	char *bytes = NULL, *before_bytes = NULL;
	size_t len = 0, before_len = 0;
	if (!load_settings(p.settings, &root, &bytes, &len))
		goto out;
	bool had_none = access(p.none, F_OK) == 0;
	bool had_backup = access(p.backup, F_OK) == 0;
	if (had_backup && (!load_settings(p.backup, &before, &before_bytes, &before_len) || !before))
		goto out;
	const char *cur = root ? json_string_value(json_object_get(json_object_get(root, "env"), SHELL_KEY)) : NULL;
	bool ours = cur && strcmp(cur, p.shim) == 0;

	char *target = write_target(p.settings);
	if (root && ours) {
		revert_key(root, before);
		if (had_backup && json_equal(root, before)) {
			/* nothing else changed since: the original, byte for byte */
			if (!write_atomic(target, before_bytes, before_len, file_mode(p.backup, 0600))) {
				free(target);
				goto out;
			}
			printf("restored %s as it was before the setup\n", p.settings);
		} else if (had_none && json_object_size(root) == 0) {
			if (unlink(p.settings) != 0) {
				fprintf(stderr, "sbsh: %s: cannot remove %s: %s\n", WHO, p.settings, strerror(errno));
				free(target);
				goto out;
			}
			printf("removed %s (there was none before the setup)\n", p.settings);
		} else {
			if (!write_json(target, root, file_mode(target, 0600))) {
				free(target);
				goto out;
			}
			printf("put \"env\".%s in %s back as it was; the file changed since the setup, so the rest stays\n",
			       SHELL_KEY, p.settings);
		}
	} else if (had_backup) {
		/* the user took the key out (or the file): theirs to decide, so
		 * the original stays where they can find it */
		printf("%s no longer sets %s to sbsh's shim: left as it is; the file as it was before the setup "
		       "stays in %s\n",
		       p.settings, SHELL_KEY, p.backup);
		had_backup = false;
	} else if (had_none) {
		printf("%s no longer sets %s to sbsh's shim: left as it is\n", p.settings, SHELL_KEY);
	} else {
		printf("%s was not set up by sbsh: nothing to undo there\n", p.settings);
	}
	free(target);
	if (had_backup && unlink(p.backup) != 0 && errno != ENOENT)
		fprintf(stderr, "sbsh: %s: cannot remove %s: %s\n", WHO, p.backup, strerror(errno));
	if (had_none) {
		unlink(p.none);
		rmdir(p.dir); /* made by the setup; kept when anything else is in it */
	}
	if (shims_is_ours(p.shim)) {
		if (unlink(p.shim) != 0) {
			fprintf(stderr, "sbsh: %s: cannot remove %s: %s\n", WHO, p.shim, strerror(errno));
			goto out;
		}
		printf("removed the shim %s\n", p.shim);
	}
	/* the folders setup made for it, when nothing else lives there */
	rmdir(p.shim_dir);
	rmdir(p.data);
	rc = 0;
out:
	json_decref(root);
	json_decref(before);
	free(bytes);
	free(before_bytes);
	claude_paths_free(&p);
	return rc;
}

/* The names Codex knows a login shell by (it runs bash otherwise). */
static bool codex_knows_name(const char *shell)
{
	const char *base = strrchr(shell, '/');
	base = base ? base + 1 : shell;
	return strcmp(base, "bash") == 0 || strcmp(base, "zsh") == 0 || strcmp(base, "sh") == 0;
}

static char *codex_shim_dir(const struct claude_paths *p)
{
	return xasprintf("%s/codex", p->data);
}

/* The login shell of this user in the password database, or NULL. */
static const char *login_shell(const char **user)
{
	struct passwd *pw = getpwuid(getuid());
	*user = pw && pw->pw_name ? pw->pw_name : "USER";
	return pw && pw->pw_shell && *pw->pw_shell ? pw->pw_shell : NULL;
}

/* Codex has no setting that names the shell: it runs the login shell.
 * The setup writes the shim that shell can be and says how; changing a
 * login shell is the human's own step (every login of that account then
 * runs in sbsh, confined to the folder it starts in). */
static int setup_codex(void)
{
	struct claude_paths p;
	if (!claude_paths(&p)) {
		fprintf(stderr, "sbsh: %s: no home folder (HOME is not set)\n", WHO);
		return 1;
	}
	int rc = 1;
	char *dir = codex_shim_dir(&p);
	char *shim = xasprintf("%s/bash", dir);
	char *script = shims_script(WHO);
	char *dirs = xstrdup(dir);
	int made = script ? util_mkdir_private(dirs) : -1;
	free(dirs);
	if (!script) {
		goto out;
	} else if (made != 0) {
		fprintf(stderr, "sbsh: %s: cannot create %s: %s\n", WHO, dir, strerror(errno));
		goto out;
	}
	if (shim_runs_this_sbsh(shim, script)) {
		printf("%s, a shim that runs this sbsh, is there already\n", shim);
	} else {
		if (shims_write(dir, "bash", script, WHO) != 0)
			goto out;
		printf("wrote %s, a shim that runs this sbsh\n", shim);
	}
	const char *user;
	const char *current = login_shell(&user);
	if (current && strcmp(current, shim) == 0) {
		printf("It is the login shell of %s already: Codex run as %s runs its commands with sbsh.\n", user, user);
	} else {
		printf("Codex runs its commands with the login shell of the account it runs as (from the password\n"
		       "database, by its absolute path, known by its name); it reads neither SHELL nor PATH, and none\n"
		       "of its settings names the shell. sbsh never changes a login shell itself. To wire Codex,\n"
		       "make the shim the login shell of the account Codex runs as, best one kept for agents (every\n"
		       "login of it then runs in sbsh, confined to the folder it starts in):\n"
		       "    sudo usermod -s %s %s\n"
		       "(chsh takes it only once it is listed in /etc/shells). `sbsh --doctor` then says whether Codex\n"
		       "reaches sbsh.\n",
		       shim, user);
	}
	printf("To undo: give the account its login shell back, then sbsh --setup --undo codex\n");
	rc = 0;
out:
	free(script);
	free(shim);
	free(dir);
	claude_paths_free(&p);
	return rc;
}

static int undo_codex(void)
{
	struct claude_paths p;
	if (!claude_paths(&p)) {
		fprintf(stderr, "sbsh: %s: no home folder (HOME is not set)\n", WHO);
		return 1;
	}
	int rc = 1;
	char *dir = codex_shim_dir(&p);
	char *shim = xasprintf("%s/bash", dir);
	const char *user;
	const char *current = login_shell(&user);
	if (current && strcmp(current, shim) == 0) {
		fprintf(stderr,
		        "sbsh: %s: %s is still the login shell of %s: give it another first (sudo usermod -s /bin/bash %s); "
		        "nothing was removed\n",
		        WHO, shim, user, user);
		goto out;
	}
	if (shims_is_ours(shim)) {
		if (unlink(shim) != 0) {
			fprintf(stderr, "sbsh: %s: cannot remove %s: %s\n", WHO, shim, strerror(errno));
			goto out;
		}
		printf("removed the shim %s\n", shim);
	} else {
		printf("%s is not a shim of sbsh's: nothing to undo\n", shim);
	}
	rmdir(dir);
	rmdir(p.data);
	rc = 0;
out:
	free(shim);
	free(dir);
	claude_paths_free(&p);
	return rc;
}

int setup_main(int argc, char **argv, int at)
{
	bool undo = false;
	const char *tool = NULL;
	for (int i = at + 1; i < argc; i++) {
		if (strcmp(argv[i], "--undo") == 0) {
			undo = true;
		} else if (!tool && argv[i][0] != '-') {
			tool = argv[i];
		} else {
			tool = NULL;
			break;
		}
	}
	if (!tool || (strcmp(tool, "claude-code") != 0 && strcmp(tool, "codex") != 0)) {
		fprintf(stderr, "sbsh: usage: sbsh --setup [--undo] claude-code|codex\n");
		return 2;
	}
	const char *inside = inside_sandbox();
	if (inside) {
		fprintf(stderr, "sbsh: %s: refused: %s (only the human, outside the sandbox, may rewire an agent tool)\n", WHO,
		        inside);
		return 1;
	}
	if (strcmp(tool, "codex") == 0)
		return undo ? undo_codex() : setup_codex();
	return undo ? undo_claude() : setup_claude();
}

static void report_claude(struct setup_tool_report *t, const char *expected)
{
	t->tool = "claude-code";
	t->program = find_program("claude");
	struct claude_paths p;
	if (!claude_paths(&p)) {
		t->detail = xstrdup("no home folder (HOME is not set)");
		return;
	}
	t->settings = xstrdup(p.settings);
	json_error_t err;
	json_t *root = json_load_file(p.settings, 0, &err);
	const char *shell = json_string_value(json_object_get(json_object_get(root, "env"), SHELL_KEY));
	if (shell)
		t->shell = xstrdup(shell);
	if (!root && access(p.settings, F_OK) == 0)
		t->detail = xasprintf("%s is not valid JSON (%s)", p.settings, err.text);
	else if (!shell)
		t->detail = xasprintf("%s does not set \"env\".%s: it runs bash or zsh unsandboxed (sbsh --setup claude-code)",
		                      p.settings, SHELL_KEY);
	else if (!strstr(shell, "bash") && !strstr(shell, "zsh"))
		t->detail = xasprintf("%s names %s, whose path holds neither \"bash\" nor \"zsh\": Claude Code ignores it",
		                      SHELL_KEY, shell);
	else if (access(shell, X_OK) != 0)
		t->detail = xasprintf("%s names %s, which cannot be run (%s)", SHELL_KEY, shell, strerror(errno));
	else if (!shim_runs_this_sbsh(shell, expected))
		t->detail = xasprintf("%s names %s, which is not a shim running this sbsh (sbsh --setup claude-code)",
		                      SHELL_KEY, shell);
	else {
		char *value = NULL;
		char *over = claude_override(shell, &value);
		if (over) {
			t->detail = xasprintf("%s sets %s to %s, which wins over %s here", over, SHELL_KEY, value, p.settings);
		} else {
			t->reaches_sbsh = true;
			t->detail = xasprintf("%s names %s, a shim running this sbsh", SHELL_KEY, shell);
		}
		free(over);
		free(value);
	}
	json_decref(root);
	claude_paths_free(&p);
}

static void report_codex(struct setup_tool_report *t, const char *expected)
{
	t->tool = "codex";
	t->program = find_program("codex");
	t->settings = xstrdup("/etc/passwd (the login shell)");
	struct passwd *pw = getpwuid(getuid());
	const char *shell = pw && pw->pw_shell && *pw->pw_shell ? pw->pw_shell : NULL;
	if (shell)
		t->shell = xstrdup(shell);
	bool shim = shell && shim_runs_this_sbsh(shell, expected);
	char *self = realpath("/proc/self/exe", NULL);
	char *real = shell ? realpath(shell, NULL) : NULL;
	bool itself = self && real && strcmp(self, real) == 0;
	free(self);
	free(real);
	if (shim && codex_knows_name(shell)) {
		t->reaches_sbsh = true;
		t->detail = xasprintf("the login shell %s is a shim running this sbsh", shell);
	} else if (shim || itself) {
		t->detail = xasprintf("the login shell %s runs this sbsh, but Codex knows a shell by its name (bash, zsh, "
		                      "sh) and runs bash instead (sbsh --setup codex writes one named bash)",
		                      shell);
	} else {
		t->detail = xasprintf("Codex runs the login shell %s by its absolute path (bash when it knows no such "
		                      "shell), and no setting of Codex changes it: not sbsh (sbsh --setup codex)",
		                      shell ? shell : "(none)");
	}
}

void setup_report(struct setup_report *out)
{
	memset(out, 0, sizeof *out);
	/* the shim as it would be written now: what "runs this sbsh" means */
	char *expected = shims_script(NULL);
	report_claude(&out->tools[out->len++], expected);
	report_codex(&out->tools[out->len++], expected);
	free(expected);
}

void setup_report_free(struct setup_report *r)
{
	for (size_t i = 0; i < r->len; i++) {
		free(r->tools[i].program);
		free(r->tools[i].settings);
		free(r->tools[i].shell);
		free(r->tools[i].detail);
	}
	r->len = 0;
}
