/* The kernel's sock_diag answers about one unix socket, by its inode (the
 * socket's own, as fstat of a socket descriptor gives it): the file it is
 * bound to, and the socket at the other end of its connection. */
#include "trusted/unix_diag.h"

#include <errno.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* One request, one answer: the attributes of the socket with inode ino. */
static int query(uint64_t ino, uint32_t show, unsigned short want, void *out, size_t outlen)
{
	int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nl < 0)
		return -1;
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req req;
	} msg = {
		.nlh = {.nlmsg_len = sizeof msg, .nlmsg_type = SOCK_DIAG_BY_FAMILY, .nlmsg_flags = NLM_F_REQUEST},
		.req = {.sdiag_family = AF_UNIX, .udiag_states = ~0u, .udiag_ino = (uint32_t)ino, .udiag_show = show,
		        .udiag_cookie = {~0u, ~0u}},
	};
	int found = -1;
	if (send(nl, &msg, sizeof msg, 0) == (ssize_t)sizeof msg) {
		union {
			char bytes[8192];
			struct nlmsghdr align;
		} buf;
		ssize_t n = recv(nl, buf.bytes, sizeof buf.bytes, 0);
		struct nlmsghdr *h = &buf.align;
		if (n > 0 && NLMSG_OK(h, (size_t)n) && h->nlmsg_type == SOCK_DIAG_BY_FAMILY &&
		    h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct unix_diag_msg))) {
			struct unix_diag_msg *m = NLMSG_DATA(h);
			size_t left = h->nlmsg_len - NLMSG_LENGTH(sizeof *m);
			struct nlattr *a = (struct nlattr *)(m + 1);
			while (left >= sizeof *a && a->nla_len >= sizeof *a && a->nla_len <= left) {
				if ((a->nla_type & NLA_TYPE_MASK) == want && a->nla_len >= NLA_HDRLEN + outlen) {
					memcpy(out, (char *)a + NLA_HDRLEN, outlen);
					found = 0;
					break;
				}
				size_t step = NLA_ALIGN(a->nla_len);
				if (step > left)
					break;
				left -= step;
				a = (struct nlattr *)((char *)a + step);
			}
		}
	}
	close(nl);
	return found;
}

int unix_diag_bound_file(uint64_t sock_ino, dev_t *dev, uint64_t *ino32)
{
	struct unix_diag_vfs vfs;
	if (query(sock_ino, UDIAG_SHOW_VFS, UNIX_DIAG_VFS, &vfs, sizeof vfs) != 0)
		return -1;
	/* the kernel's dev_t (major << 20 | minor), as stat encodes it */
	*dev = makedev(vfs.udiag_vfs_dev >> 20, vfs.udiag_vfs_dev & 0xfffff);
	*ino32 = vfs.udiag_vfs_ino;
	return 0;
}

int unix_diag_peer(uint64_t sock_ino, uint64_t *peer_ino)
{
	uint32_t peer;
	if (query(sock_ino, UDIAG_SHOW_PEER, UNIX_DIAG_PEER, &peer, sizeof peer) != 0)
		return -1;
	*peer_ino = peer;
	return 0;
}
