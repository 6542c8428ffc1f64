/* seccomp for the shell process: the network filter (what Landlock leaves
 * open) and the terminal guard (no typing into an inherited terminal).
 * sandbox.c decides which and when. */
#include "sandbox/seccomp.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

/* seccomp closes what Landlock leaves open: MPTCP (which Landlock's TCP
 * rules do not see), io_uring (which bypasses the socket syscalls), and
 * below ABI 4 all of TCP when the network is cut. */
int sandbox_seccomp_network(const struct sandbox_config *cfg, struct sandbox_state *st, bool cut_tcp)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return -1;
	int rc = 0;
	rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(io_uring_setup), 0);
	rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(io_uring_enter), 0);
	rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(io_uring_register), 0);
	if (cfg->net != SANDBOX_NET_ON) {
		const int families[] = {AF_INET, AF_INET6};
		for (size_t i = 0; i < 2; i++) {
			rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2,
			                       SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[i]),
			                       SCMP_A2(SCMP_CMP_EQ, IPPROTO_MPTCP));
			if (cut_tcp) {
				/* Everything but datagrams: TCP, SCTP, MPTCP. UDP keeps DNS. */
				rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2,
				                       SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[i]),
				                       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_STREAM));
				rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2,
				                       SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[i]),
				                       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_SEQPACKET));
			}
		}
		/* With a port allow-list TCP sockets exist, and listen() on an
		 * unbound socket autobinds past Landlock's bind rule. */
		if (cfg->net == SANDBOX_NET_ALLOW && !cut_tcp)
			rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(listen), 0);
	}
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc != 0)
		return -1;
	st->seccomp_applied = true;
	return 0;
}

/* TIOCSTI types into a terminal and TIOCLINUX pastes into a console; on
 * a terminal the sandbox inherited (the human's, when sbsh -c asks on it
 * itself) either would answer a prompt. Written as BPF by hand: loading it
 * through libseccomp cost 136 us here, more than the whole rest of the
 * sandbox, for thirteen instructions. The arch check comes first; on
 * x86-64 the i386 and x32 entry points of ioctl are covered too. */
static int guard_terminal(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
	const uint32_t deny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
	/* The command is an unsigned int: the low half of args[1] (little endian). */
	const uint32_t cmd_at = (uint32_t)offsetof(struct seccomp_data, args[1]);
	struct sock_filter prog[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
#if defined(__x86_64__)
		/* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 3),
		/* 2 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		/* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 4, 0),
		/* 4 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 514 | 0x40000000u /* x32 */, 3, 6),
		/* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 0, 5),
		/* 6 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		/* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 54 /* i386 ioctl */, 0, 3),
#else
		/* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_AARCH64, 0, 5),
		/* 2 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		/* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 3),
#endif
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, cmd_at),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCSTI, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCLINUX, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, deny),
	};
	struct sock_fprog fprog = {.len = (unsigned short)(sizeof prog / sizeof prog[0]), .filter = prog};
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) == 0 ? 0 : -1;
#else
	errno = ENOSYS;
	return -1;
#endif
}

int sandbox_guard_terminal(struct sandbox_state *st)
{
	if (!st->guard_pending)
		return 0;
	if (guard_terminal() != 0)
		return -1;
	st->guard_pending = false;
	st->terminal_guarded = true;
	return 0;
}
