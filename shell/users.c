/* Users' home folders. sbsh is linked statically where it can be
 * (configure.ac says why), and a static glibc cannot load the NSS modules
 * other than "files": the first lookup that reaches libnss_systemd
 * crashes. So a static sbsh pins NSS to the files, and asks getent(1), a
 * dynamically linked program, for a user the files do not list. */
#include "shell/users.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <nss.h>
#include <pwd.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static bool static_libc, pinned_to_files;

void users_static_libc(void)
{
	static_libc = true;
}

void users_prepare(void)
{
	if (!static_libc || pinned_to_files)
		return;
	__nss_configure_lookup("passwd", "files");
	__nss_configure_lookup("group", "files");
	pinned_to_files = true;
}

/* The sixth field of getent's "name:pw:uid:gid:gecos:dir:shell" line. */
static char *home_from_entry(const char *line)
{
	const char *p = line;
	for (int field = 0; field < 5; field++) {
		p = strchr(p, ':');
		if (!p)
			return NULL;
		p++;
	}
	size_t len = strcspn(p, ":\n");
	return len ? xstrndup(p, len) : NULL;
}

static char *home_from_getent(const char *name)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		return NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	char *argv[] = {"getent", "passwd", (char *)name, NULL};
	pid_t pid;
	int err = posix_spawnp(&pid, "getent", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (err != 0) {
		close(fds[0]);
		return NULL;
	}
	struct strbuf out;
	strbuf_init(&out);
	char buf[512];
	ssize_t n;
	while ((n = read(fds[0], buf, sizeof buf)) != 0) {
		if (n > 0)
			strbuf_addmem(&out, buf, (size_t)n);
		else if (errno != EINTR)
			break;
	}
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	char *text = strbuf_detach(&out);
	char *home = NULL;
	size_t nlen = strlen(name);
	if (strncmp(text, name, nlen) == 0 && text[nlen] == ':')
		home = home_from_entry(text);
	free(text);
	return home;
}

char *users_home(const char *name)
{
	users_prepare();
	struct passwd *pw = getpwnam(name);
	if (pw && pw->pw_dir)
		return xstrdup(pw->pw_dir);
	if (pinned_to_files && *name && !strchr(name, ':'))
		return home_from_getent(name);
	return NULL;
}
