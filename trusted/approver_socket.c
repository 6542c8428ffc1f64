/* The approver's socket address, for the approver and its clients alike. */
#include "trusted/approver_socket.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "lib/util.h"

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
