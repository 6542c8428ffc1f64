/* The approver's socket address, for the approver and its clients alike. */
#include "trusted/approver_socket.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "lib/util.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77 /* Linux 6.5; older headers lack it */
#endif

char *approver_dir(void)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	if (!rt || rt[0] != '/')
		return NULL;
	return xasprintf("%s/sbsh", rt);
}

bool approver_fill_address(struct sockaddr_un *addr, const char *path)
{
	memset(addr, 0, sizeof *addr);
	addr->sun_family = AF_UNIX;
	size_t len = strlen(path);
	if (len >= sizeof addr->sun_path)
		return false;
	memcpy(addr->sun_path, path, len + 1);
	return true;
}

int approver_connect_path(const char *path)
{
	struct sockaddr_un addr;
	if (!approver_fill_address(&addr, path))
		return -1;
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int r;
	do
		r = connect(fd, (struct sockaddr *)&addr, sizeof addr);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

bool approver_peer_of(int fd, pid_t *pid, struct proc_confinement *out)
{
	struct ucred cred;
	socklen_t len = sizeof cred;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != geteuid() || cred.pid <= 0)
		return false;
	int pidfd = -1;
	len = sizeof pidfd;
	bool has_pidfd = getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len) == 0 && pidfd >= 0;
	if (!has_pidfd && errno != ENOPROTOOPT && errno != EINVAL)
		return false; /* ESRCH: the peer is gone */
	bool ok = proc_confinement_of(cred.pid, out);
	/* Alive after the read: the pid was its own throughout. Without
	 * SO_PEERPIDFD (before 6.5) the pid is taken as it is. EPERM (a
	 * Landlock domain that may not signal it) is alive too. */
	if (has_pidfd) {
		ok = ok && (syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) == 0 || errno == EPERM);
		close(pidfd);
	}
	*pid = cred.pid;
	return ok;
}
