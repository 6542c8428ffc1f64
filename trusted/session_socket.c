#include "trusted/session_socket.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "trusted/approver_socket.h"
#include "lib/util.h"

/* $XDG_STATE_HOME/sbsh/sessions, made if missing; malloc'd, or NULL. */
static char *sessions_dir(void)
{
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	char *dir;
	if (state && state[0] == '/')
		dir = xasprintf("%s/sbsh/sessions", state);
	else if (home && home[0] == '/')
		dir = xasprintf("%s/.local/state/sbsh/sessions", home);
	else
		return NULL;
	struct stat sb;
	if (util_mkdir_private(dir) != 0 || lstat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode) ||
	    sb.st_uid != geteuid()) {
		free(dir);
		return NULL;
	}
	return dir;
}

/* Sockets whose broker was killed before it could remove them. */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end = NULL;
		long pid = strtol(e->d_name, &end, 10);
		if (pid <= 0 || !end || strcmp(end, ".sock") != 0)
			continue;
		if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
			unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

int session_socket_listen(pid_t broker, char **path)
{
	*path = NULL;
	char *dir = sessions_dir();
	if (!dir)
		return -1;
	remove_stale(dir);
	char *name = xasprintf("%s/%ld.sock", dir, (long)broker);
	free(dir);
	struct sockaddr_un addr;
	int fd = -1;
	if (approver_fill_address(&addr, name))
		fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		free(name);
		return -1;
	}
	/* A file of this name was left by an earlier process of the same pid,
	 * killed before it could remove it: the name is the pid's. */
	unlink(name);
	if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 || chmod(name, 0600) != 0 || listen(fd, 8) != 0) {
		unlink(name);
		close(fd);
		free(name);
		return -1;
	}
	*path = name;
	return fd;
}
