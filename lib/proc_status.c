#include "lib/proc_status.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"

char *proc_cwd(pid_t pid)
{
	char link[64], buf[4096];
	snprintf(link, sizeof link, "/proc/%ld/cwd", (long)pid);
	ssize_t n = readlink(link, buf, sizeof buf - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return xstrdup(buf);
}

char *proc_cmdline(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)pid);
	size_t len = 0;
	char *text = util_read_file(path, 0, 1u << 20, &len);
	if (!text)
		return NULL;
	for (size_t i = 0; i < len; i++)
		if (!text[i])
			text[i] = ' ';
	return text;
}

pid_t proc_parent(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* pid (comm) state ppid ...: comm may hold anything, so from the last ')' */
	const char *p = strrchr(buf, ')');
	long ppid = 0;
	if (!p || sscanf(p + 1, " %*c %ld", &ppid) != 1)
		return 0;
	return (pid_t)ppid;
}

bool proc_descends_from(pid_t pid, pid_t ancestor)
{
	for (int depth = 0; pid > 1 && depth < 128; depth++) {
		pid = proc_parent(pid);
		if (pid == ancestor)
			return true;
	}
	return false;
}

/* How many parents up ancestor is, or -1. */
static int depth_below(pid_t pid, pid_t ancestor)
{
	for (int depth = 1; pid > 1 && depth < 128; depth++) {
		pid = proc_parent(pid);
		if (pid == ancestor)
			return depth;
	}
	return -1;
}

static bool holds_socket(pid_t pid, const char *want)
{
	char dir[64];
	snprintf(dir, sizeof dir, "/proc/%ld/fd", (long)pid);
	DIR *d = opendir(dir);
	if (!d)
		return false;
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(d))) {
		char link[64];
		if (e->d_name[0] == '.' ||
		    readlinkat(dirfd(d), e->d_name, link, sizeof link - 1) != (ssize_t)strlen(want))
			continue;
		link[strlen(want)] = '\0';
		found = strcmp(link, want) == 0;
	}
	closedir(d);
	return found;
}

pid_t proc_deepest_holder(unsigned long long sock_ino, pid_t ancestor, pid_t skip)
{
	char want[48];
	snprintf(want, sizeof want, "socket:[%llu]", sock_ino);
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	pid_t best = 0;
	int best_depth = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (pid <= 1 || *end || (pid_t)pid == skip || !holds_socket((pid_t)pid, want))
			continue;
		int depth = depth_below((pid_t)pid, ancestor);
		if (depth > best_depth) {
			best = (pid_t)pid;
			best_depth = depth;
		}
	}
	closedir(d);
	return best;
}

bool proc_confinement_of(pid_t pid, struct proc_confinement *out)
{
	char path[64];
	if (pid)
		snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	else
		snprintf(path, sizeof path, "/proc/self/status");
	size_t len = 0;
	char *text = util_read_file(path, 0, 1u << 16, &len);
	if (!text)
		return false;
	*out = (struct proc_confinement){0};
	bool seen_nnp = false;
	for (char *line = text; line && *line;) {
		char *next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strncmp(line, "NoNewPrivs:", 11) == 0) {
			out->no_new_privs = atoi(line + 11) != 0;
			seen_nnp = true;
		} else if (strncmp(line, "Seccomp_filters:", 16) == 0) {
			out->seccomp_filters = atoi(line + 16);
		}
		line = next;
	}
	free(text);
	return seen_nnp;
}

bool proc_outside_sandbox_of(const struct proc_confinement *peer, const struct proc_confinement *self)
{
	if (self->no_new_privs && !peer->no_new_privs)
		return true;
	return peer->seccomp_filters < self->seccomp_filters;
}
