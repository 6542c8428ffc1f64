/* seccomp for the shell process: the network filter (what Landlock leaves
 * open) and the guard (no typing into an inherited terminal, no changing
 * the limits or scheduling of processes outside).
 * sandbox.c decides which and when. */
#include "sandbox/seccomp.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/fs.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/util.h"

/* seccomp closes what Landlock leaves open: MPTCP (which Landlock's TCP
 * rules do not see), io_uring (which bypasses the socket syscalls), raw
 * and packet sockets, and below ABI 4 all of TCP when the network is cut. */
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
		/* UDP is cut where no name needs resolving inside: --net=off, and
		 * a host allow-list without bare ports (the proxy resolves).
		 * With bare ports the supervisor lets it reach the nameservers. */
		bool bare_ports = false;
		for (size_t i = 0; i < cfg->nports; i++)
			bare_ports |= !cfg->port_local[i];
		bool cut_udp = cfg->net == SANDBOX_NET_OFF || !bare_ports;
		const int families[] = {AF_INET, AF_INET6};
		for (size_t i = 0; i < 2; i++) {
			/* MPTCP, and SCTP (connects by setsockopt too): Landlock's TCP
			 * rules see neither */
			rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2,
			                       SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[i]),
			                       SCMP_A2(SCMP_CMP_EQ, IPPROTO_MPTCP));
			rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2,
			                       SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[i]),
			                       SCMP_A2(SCMP_CMP_EQ, IPPROTO_SCTP));
			rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2,
			                       SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[i]),
			                       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_SEQPACKET));
			if (cut_tcp)
				rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2,
				                       SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[i]),
				                       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_STREAM));
			if (cut_udp)
				rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2,
				                       SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[i]),
				                       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_DGRAM));
		}
		/* Raw IP and packet sockets send what they like: forged
		 * connections, ARP. SOCK_PACKET on AF_INET is the old name of a
		 * packet socket. Root would need CAP_NET_RAW, dropped already;
		 * this holds whatever the capabilities. */
		const int raw_types[] = {SOCK_RAW, SOCK_PACKET};
		for (size_t i = 0; i < 2; i++)
			for (size_t t = 0; t < 2; t++)
				rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 2,
				                       SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[i]),
				                       SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, (scmp_datum_t)raw_types[t]));
		rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(socket), 1,
		                       SCMP_A0(SCMP_CMP_EQ, AF_PACKET));
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

/* The guard is a BPF program written by hand: loading one through
 * libseccomp cost 136 us here, more than the whole rest of the sandbox.
 * It is built from blocks whose jumps name labels, resolved at the end. */
enum { LBL_ALLOW = 0, LBL_DENY, LBL_FIRST_FREE, LBL_MAX = 200, PROG_MAX = 256 };
#define LBL_FALL 0xff /* no jump: the next instruction */

struct guard_prog {
	struct sock_filter ins[PROG_MAX];
	uint8_t jt[PROG_MAX], jf[PROG_MAX]; /* labels, or LBL_FALL */
	int at[LBL_MAX];                    /* instruction of each label, or -1 */
	size_t n;
	int labels;
	bool overflow;
};

static void emit(struct guard_prog *p, uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	if (p->n == PROG_MAX) {
		p->overflow = true;
		return;
	}
	p->ins[p->n] = (struct sock_filter){.code = code, .k = k};
	p->jt[p->n] = jt;
	p->jf[p->n] = jf;
	p->n++;
}

static int new_label(struct guard_prog *p)
{
	if (p->labels == LBL_MAX) {
		p->overflow = true;
		return LBL_ALLOW;
	}
	p->at[p->labels] = -1;
	return p->labels++;
}

static void place(struct guard_prog *p, int label)
{
	if (p->at[label] >= 0)
		p->overflow = true; /* a label placed twice is a bug of this file */
	p->at[label] = (int)p->n;
}

static void load_word(struct guard_prog *p, uint32_t offset)
{
	emit(p, BPF_LD | BPF_W | BPF_ABS, offset, LBL_FALL, LBL_FALL);
}

/* The low half of argument i (little endian): pids, `which` and ioctl
 * commands are ints, and the kernel ignores the upper half. */
static uint32_t arg_lo(int i)
{
	return (uint32_t)offsetof(struct seccomp_data, args[0]) + (uint32_t)i * 8u;
}

static void jump_if(struct guard_prog *p, uint32_t k, int yes, int no)
{
	emit(p, BPF_JMP | BPF_JEQ | BPF_K, k, (uint8_t)yes, (uint8_t)no);
}

/* Resolves every label into a relative jump; -1 when one is missing or
 * too far (BPF jumps reach 255 instructions). */
static int resolve(struct guard_prog *p)
{
	if (p->overflow)
		return -1;
	for (size_t i = 0; i < p->n; i++) {
		if (BPF_CLASS(p->ins[i].code) != BPF_JMP)
			continue;
		uint8_t lbl[2] = {p->jt[i], p->jf[i]};
		uint8_t off[2] = {0, 0};
		for (int j = 0; j < 2; j++) {
			if (lbl[j] == LBL_FALL)
				continue;
			long d = (long)p->at[lbl[j]] - (long)i - 1;
			if (p->at[lbl[j]] < 0 || d < 0 || d > 255)
				return -1;
			off[j] = (uint8_t)d;
		}
		p->ins[i].jt = off[0];
		p->ins[i].jf = off[1];
	}
	return 0;
}

/* The system calls that change another process's limits or scheduling,
 * and what each allows. Landlock's signal scope does not cover them, and
 * the kernel asks only for the same uid. */
enum target_arg { PID_IN_A0, WHICH_WHO_PRIO, WHICH_WHO_IOPRIO };
struct guarded_call {
	uint32_t native;
	uint32_t i386;
	enum target_arg how;
};

#if defined(__x86_64__) || defined(__aarch64__)
static const struct guarded_call guarded_calls[] = {
	{__NR_prlimit64, 340, PID_IN_A0},
	{__NR_sched_setparam, 154, PID_IN_A0},
	{__NR_sched_setscheduler, 156, PID_IN_A0},
	{__NR_sched_setattr, 351, PID_IN_A0},
	{__NR_sched_setaffinity, 241, PID_IN_A0},
	{__NR_setpriority, 97, WHICH_WHO_PRIO},
	{__NR_ioprio_set, 289, WHICH_WHO_IOPRIO},
};
#endif

/* One arch's checks; the syscall number is in the accumulator. */
static void emit_checks(struct guard_prog *p, const uint32_t *ioctl_nrs, size_t n_ioctl, bool i386,
                        unsigned what)
{
	if (what & SANDBOX_GUARD_PROCESSES) {
		for (size_t i = 0; i < sizeof guarded_calls / sizeof guarded_calls[0]; i++) {
			const struct guarded_call *c = &guarded_calls[i];
			int next = new_label(p);
			int check = new_label(p);
			jump_if(p, i386 ? c->i386 : c->native, check, next);
			place(p, check);
			if (c->how != PID_IN_A0) {
				/* self is (PRIO_PROCESS, 0) or (IOPRIO_WHO_PROCESS, 0); a
				 * group or a user (who 0: our own) takes in the warden */
				load_word(p, arg_lo(0));
				jump_if(p, c->how == WHICH_WHO_PRIO ? 0u /* PRIO_PROCESS */ : 1u /* IOPRIO_WHO_PROCESS */,
				        LBL_FALL, LBL_DENY);
				load_word(p, arg_lo(1));
			} else {
				load_word(p, arg_lo(0));
			}
			jump_if(p, 0, LBL_ALLOW, LBL_DENY);
			place(p, next);
		}
	}
	if (what & SANDBOX_GUARD_TERMINAL) {
		int check = new_label(p);
		for (size_t i = 0; i < n_ioctl; i++)
			jump_if(p, ioctl_nrs[i], check, LBL_FALL);
		emit(p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW, LBL_FALL, LBL_FALL);
		place(p, check);
		load_word(p, arg_lo(1));
		jump_if(p, TIOCSTI, LBL_DENY, LBL_FALL);
		jump_if(p, TIOCLINUX, LBL_DENY, LBL_ALLOW);
	}
	emit(p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW, LBL_FALL, LBL_FALL);
}

/* TIOCSTI types into a terminal and TIOCLINUX pastes into a console; on
 * a terminal the sandbox inherited (the human's, when sbsh -c asks on it
 * itself) either would answer a prompt. prlimit64, setpriority and the
 * sched_* calls on the warden would starve or cripple it (no descriptors
 * left) before a hook is planted. The arch check comes first; on x86-64
 * the i386 and x32 entry points are covered too. */
static int load_guard(unsigned what)
{
#if defined(__x86_64__) || defined(__aarch64__)
	struct guard_prog p = {.n = 0, .labels = LBL_FIRST_FREE, .overflow = false};
	for (int i = 0; i < LBL_FIRST_FREE; i++)
		p.at[i] = -1;
	const uint32_t nr_at = (uint32_t)offsetof(struct seccomp_data, nr);
	load_word(&p, (uint32_t)offsetof(struct seccomp_data, arch));
#if defined(__x86_64__)
	int i386 = new_label(&p);
	jump_if(&p, AUDIT_ARCH_X86_64, LBL_FALL, i386);
	load_word(&p, nr_at);
	/* x32 numbers are x86-64's with bit 30 set; x32's ioctl is 514 */
	emit(&p, BPF_ALU | BPF_AND | BPF_K, ~0x40000000u, LBL_FALL, LBL_FALL);
	const uint32_t native_ioctl[] = {__NR_ioctl, 514};
	emit_checks(&p, native_ioctl, 2, false, what);
	place(&p, i386);
	jump_if(&p, AUDIT_ARCH_I386, LBL_FALL, LBL_ALLOW);
	load_word(&p, nr_at);
	const uint32_t i386_ioctl[] = {54};
	emit_checks(&p, i386_ioctl, 1, true, what);
#else
	jump_if(&p, AUDIT_ARCH_AARCH64, LBL_FALL, LBL_ALLOW);
	load_word(&p, nr_at);
	const uint32_t native_ioctl[] = {__NR_ioctl};
	emit_checks(&p, native_ioctl, 1, false, what);
#endif
	place(&p, LBL_ALLOW);
	emit(&p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW, LBL_FALL, LBL_FALL);
	place(&p, LBL_DENY);
	emit(&p, BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA), LBL_FALL, LBL_FALL);
	if (resolve(&p) != 0) {
		errno = EOVERFLOW;
		return -1;
	}
	struct sock_fprog fprog = {.len = (unsigned short)p.n, .filter = p.ins};
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) == 0 ? 0 : -1;
#else
	(void)what;
	errno = ENOSYS;
	return -1;
#endif
}

unsigned sandbox_guard_inherited(unsigned which)
{
	unsigned have = 0;
	int c = 0;
	/* A filter refuses both before it looks at the descriptor. */
	if ((which & SANDBOX_GUARD_TERMINAL) && ioctl(-1, TIOCSTI, &c) == -1 && errno == EPERM && ioctl(-1, TIOCLINUX, &c) == -1 &&
	    errno == EPERM)
		have |= SANDBOX_GUARD_TERMINAL;
	/* No process has pid -1: the kernel says ESRCH, the guard EPERM. */
	if ((which & SANDBOX_GUARD_PROCESSES) && syscall(SYS_prlimit64, -1, RLIMIT_NOFILE, NULL, NULL) == -1 &&
	    errno == EPERM)
		have |= SANDBOX_GUARD_PROCESSES;
	return have;
}

void sandbox_guard_loaded(struct sandbox_state *st)
{
	st->guard_pending = false;
	if (st->guard_want & SANDBOX_GUARD_TERMINAL)
		st->terminal_guarded = true;
	if (st->guard_want & SANDBOX_GUARD_PROCESSES)
		st->processes_guarded = true;
}

int sandbox_guard_terminal(struct sandbox_state *st)
{
	/* the supervisor first: its filter holds the guard too (the
	 * supervise call says so with sandbox_guard_loaded) */
	int r = 0;
	if (st->supervise_pending) {
		st->supervise_pending = false;
		r = st->supervise ? st->supervise(st->supervise_ctx) : 0;
	}
	if (st->guard_pending) {
		if (load_guard(st->guard_want) != 0)
			return -1;
		sandbox_guard_loaded(st);
	}
	return r;
}

/* ---- the supervisor's filter ---------------------------------------------
 * The calls Landlock ABI 7 leaves open are sent to the supervisor
 * (trusted/supervisor.c), which reads their arguments and answers: pathname
 * unix sockets and inet addresses (connect, and sendto/sendmsg/sendmmsg
 * with an address, which needs reading memory: every sendmsg), and metadata (chmod, chown, times,
 * extended attributes, the inode flags of chattr); and bind, only for the
 * supervisor to note which sockets the session made. Everything else
 * is allowed in the filter, so nothing else ever waits on the supervisor.
 * io_uring would reach the same calls without a system call of each; it is
 * refused. The i386 and x32 entry points are refused the covered calls
 * (EPERM): the supervisor reads only the native layouts. */

#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_setxattrat
#define __NR_setxattrat 463
#endif
#ifndef __NR_removexattrat
#define __NR_removexattrat 466
#endif
#ifndef __NR_file_setattr
#define __NR_file_setattr 469
#endif

#define FS_IOC32_SETFLAGS_NR 0x40046602u
#define FS_IOC32_SETVERSION_NR 0x40047602u

/* What the filter does with one system call number. */
enum sv_action { SV_NOTIFY, SV_ADDR_LEN /* connect, bind: by the address's length */, SV_SENDTO, SV_IOCTL,
	SV_NOSYS, SV_DENY, SV_GUARD_PID, SV_GUARD_PRIO, SV_GUARD_IOPRIO /* the guard's: by their target */,
	SV_ACTIONS };

struct sv_entry {
	uint32_t nr;
	enum sv_action act;
};

#if defined(__x86_64__) || defined(__aarch64__)
/* The native calls, each with what decides it; sorted by number when the
 * program is built. Sent always: those whose path or message header in
 * memory decides. */
static const struct sv_entry native_calls[] = {
#ifdef __NR_chmod
	{__NR_chmod, SV_NOTIFY}, {__NR_chown, SV_NOTIFY}, {__NR_lchown, SV_NOTIFY}, {__NR_utime, SV_NOTIFY},
	{__NR_utimes, SV_NOTIFY}, {__NR_futimesat, SV_NOTIFY},
#endif
	{__NR_fchmod, SV_NOTIFY}, {__NR_fchmodat, SV_NOTIFY}, {__NR_fchmodat2, SV_NOTIFY}, {__NR_fchown, SV_NOTIFY},
	{__NR_fchownat, SV_NOTIFY}, {__NR_utimensat, SV_NOTIFY}, {__NR_setxattr, SV_NOTIFY},
	{__NR_lsetxattr, SV_NOTIFY}, {__NR_fsetxattr, SV_NOTIFY}, {__NR_removexattr, SV_NOTIFY},
	{__NR_lremovexattr, SV_NOTIFY}, {__NR_fremovexattr, SV_NOTIFY}, {__NR_setxattrat, SV_NOTIFY},
	{__NR_removexattrat, SV_NOTIFY}, {__NR_file_setattr, SV_NOTIFY}, {__NR_sendmsg, SV_NOTIFY},
	{__NR_sendmmsg, SV_NOTIFY}, {__NR_connect, SV_ADDR_LEN}, {__NR_bind, SV_ADDR_LEN}, {__NR_sendto, SV_SENDTO},
	{__NR_ioctl, SV_IOCTL}, {__NR_io_uring_setup, SV_NOSYS}, {__NR_io_uring_enter, SV_NOSYS},
	{__NR_io_uring_register, SV_NOSYS},
};
#endif

/* The ioctls that change an inode's flags, version or encryption. */
static const uint32_t notified_ioctls[] = {
	FS_IOC_SETFLAGS, FS_IOC32_SETFLAGS_NR, FS_IOC_SETVERSION, FS_IOC32_SETVERSION_NR,
	FS_IOC_FSSETXATTR, FS_IOC_SET_ENCRYPTION_POLICY,
};

#if defined(__x86_64__)
/* i386 (int 0x80 from any program): the same calls, refused; socketcall
 * (102) and ioctl (54) by their first and second argument. */
static const struct sv_entry i386_calls[] = {
	{15, SV_DENY} /* chmod */, {16, SV_DENY} /* lchown */, {30, SV_DENY} /* utime */, {54, SV_IOCTL},
	{94, SV_DENY} /* fchmod */, {95, SV_DENY} /* fchown */, {102, SV_SENDTO} /* socketcall */,
	{182, SV_DENY} /* chown */, {198, SV_DENY}, {207, SV_DENY}, {212, SV_DENY} /* *chown32 */,
	{226, SV_DENY}, {227, SV_DENY}, {228, SV_DENY} /* set*xattr */, {235, SV_DENY}, {236, SV_DENY},
	{237, SV_DENY} /* remove*xattr */, {271, SV_DENY} /* utimes */, {298, SV_DENY} /* fchownat */,
	{299, SV_DENY} /* futimesat */, {306, SV_DENY} /* fchmodat */, {320, SV_DENY} /* utimensat */,
	{345, SV_DENY} /* sendmmsg */, {362, SV_DENY} /* connect */, {369, SV_DENY} /* sendto */,
	{370, SV_DENY} /* sendmsg */, {412, SV_DENY} /* utimensat_time64 */, {425, SV_NOSYS}, {426, SV_NOSYS},
	{427, SV_NOSYS} /* io_uring */, {452, SV_DENY}, {463, SV_DENY}, {466, SV_DENY}, {469, SV_DENY},
};
#endif

enum { LBL_NOTIFY = LBL_FIRST_FREE, LBL_NOSYS, LBL_SUPERVISOR_FREE };

static int by_nr(const void *a, const void *b)
{
	const struct sv_entry *x = a, *y = b;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/* A binary search over entries (sorted) on the number in the accumulator:
 * the seccomp cache replays the filter for every number at load, and the
 * kernel runs it on every call, so the path must be short (a linear list
 * of ~30 tests cost ~100 us more per load here). Each entry jumps to
 * targets[act]. */
static void emit_search(struct guard_prog *p, const struct sv_entry *e, size_t n, const int *targets)
{
	if (n <= 3) {
		for (size_t i = 0; i < n; i++)
			jump_if(p, e[i].nr, targets[e[i].act], i + 1 < n ? LBL_FALL : LBL_ALLOW);
		return;
	}
	size_t mid = n / 2;
	int high = new_label(p);
	emit(p, BPF_JMP | BPF_JGE | BPF_K, e[mid].nr, (uint8_t)high, LBL_FALL);
	emit_search(p, e, mid, targets);
	place(p, high);
	emit_search(p, e + mid, n - mid, targets);
}

/* The accumulator is argument i's low half; jumps to yes when it lies in
 * [lo, hi] (unsigned, as an int the kernel would refuse when negative). */
static void jump_in_range(struct guard_prog *p, int i, uint32_t lo, uint32_t hi, int yes, int no)
{
	load_word(p, arg_lo(i));
	int above_lo = new_label(p);
	emit(p, BPF_JMP | BPF_JGE | BPF_K, lo, (uint8_t)above_lo, (uint8_t)no);
	place(p, above_lo);
	emit(p, BPF_JMP | BPF_JGT | BPF_K, hi, (uint8_t)no, (uint8_t)yes);
}

/* A unix socket address is 3 to 110 bytes (sun_family and at least one
 * byte of path, up to sizeof(struct sockaddr_un)); an inet one 16 to 128
 * (the kernel copies no more than a sockaddr_storage, and an IPv4 address
 * may come with the rest of one). Other lengths the kernel refuses, or
 * they name no destination (AF_UNSPEC: a disconnect), so need no look. */
enum { ADDR_MIN = 3, ADDR_MAX = 128 };

/* The guard's calls (guarded_calls: limits and scheduling of other
 * processes), as entries of the search, for the native, x32 or i386
 * numbers. */
static size_t guard_entries(struct sv_entry *out, bool i386)
{
	size_t n = 0;
#if defined(__x86_64__) || defined(__aarch64__)
	for (size_t i = 0; i < sizeof guarded_calls / sizeof *guarded_calls; i++) {
		const struct guarded_call *c = &guarded_calls[i];
		out[n++] = (struct sv_entry){i386 ? c->i386 : c->native,
		                             c->how == PID_IN_A0         ? SV_GUARD_PID
		                             : c->how == WHICH_WHO_PRIO ? SV_GUARD_PRIO
		                                                        : SV_GUARD_IOPRIO};
	}
#else
	(void)out;
	(void)i386;
#endif
	return n;
}

/* ioctl: the terminal guard's requests refused (when it is wanted), the
 * inode-flag ones sent (fs: LBL_NOTIFY) or refused. */
static void emit_ioctl_checks(struct guard_prog *p, int fs, bool terminal)
{
	load_word(p, arg_lo(1));
	if (terminal) {
		jump_if(p, TIOCSTI, LBL_DENY, LBL_FALL);
		jump_if(p, TIOCLINUX, LBL_DENY, LBL_FALL);
	}
	size_t n = sizeof notified_ioctls / sizeof *notified_ioctls;
	for (size_t i = 0; i < n; i++)
		jump_if(p, notified_ioctls[i], fs, i + 1 < n ? LBL_FALL : LBL_ALLOW);
}

/* The guard's checks of a target (shared by every entry point: the
 * arguments lie at the same offsets). */
static void emit_guard_blocks(struct guard_prog *p, int pid, int prio, int ioprio)
{
	place(p, pid);
	load_word(p, arg_lo(0));
	jump_if(p, 0, LBL_ALLOW, LBL_DENY);
	/* self is (PRIO_PROCESS, 0) or (IOPRIO_WHO_PROCESS, 0); a group or a
	 * user (who 0: our own) takes in the warden */
	place(p, prio);
	int who = new_label(p);
	load_word(p, arg_lo(0));
	jump_if(p, 0 /* PRIO_PROCESS */, who, LBL_DENY);
	place(p, ioprio);
	load_word(p, arg_lo(0));
	jump_if(p, 1 /* IOPRIO_WHO_PROCESS */, who, LBL_DENY);
	place(p, who);
	load_word(p, arg_lo(1));
	jump_if(p, 0, LBL_ALLOW, LBL_DENY);
}

/* The supervisor's program; with guard (SANDBOX_GUARD_*), the guard's
 * checks too, so that the shell loads one filter, not two (each load
 * replays the program for every call number: ~100 us apiece here). */
static int build_supervisor(struct guard_prog *p, unsigned guard)
{
#if defined(__x86_64__) || defined(__aarch64__)
	for (int i = 0; i < LBL_SUPERVISOR_FREE; i++)
		p->at[i] = -1;
	p->labels = LBL_SUPERVISOR_FREE;
	bool terminal = (guard & SANDBOX_GUARD_TERMINAL) != 0, processes = (guard & SANDBOX_GUARD_PROCESSES) != 0;
	enum { GUARD_MAX = 16 };
	struct sv_entry native[sizeof native_calls / sizeof *native_calls + GUARD_MAX];
	size_t nn = sizeof native_calls / sizeof *native_calls;
	memcpy(native, native_calls, sizeof native_calls);
	if (processes)
		nn += guard_entries(native + nn, false);
	qsort(native, nn, sizeof *native, by_nr);
	const uint32_t nr_at = (uint32_t)offsetof(struct seccomp_data, nr);
	int g_pid = new_label(p), g_prio = new_label(p), g_ioprio = new_label(p);
	load_word(p, (uint32_t)offsetof(struct seccomp_data, arch));
#if defined(__x86_64__)
	int i386 = new_label(p);
	int x32 = new_label(p);
	jump_if(p, AUDIT_ARCH_X86_64, LBL_FALL, i386);
	load_word(p, nr_at);
	emit(p, BPF_JMP | BPF_JSET | BPF_K, 0x40000000u, (uint8_t)x32, LBL_FALL);
#else
	jump_if(p, AUDIT_ARCH_AARCH64, LBL_FALL, LBL_ALLOW);
	load_word(p, nr_at);
#endif
	int l_addr = new_label(p), l_sendto = new_label(p), l_sendto_len = new_label(p), l_sendto_hi = new_label(p),
	    l_ioctl = new_label(p);
	int native_targets[SV_ACTIONS] = {[SV_NOTIFY] = LBL_NOTIFY, [SV_ADDR_LEN] = l_addr, [SV_SENDTO] = l_sendto,
	                                  [SV_IOCTL] = l_ioctl, [SV_NOSYS] = LBL_NOSYS, [SV_DENY] = LBL_DENY,
	                                  [SV_GUARD_PID] = g_pid, [SV_GUARD_PRIO] = g_prio,
	                                  [SV_GUARD_IOPRIO] = g_ioprio};
	emit_search(p, native, nn, native_targets);
	place(p, l_addr);
	jump_in_range(p, 2, ADDR_MIN, ADDR_MAX, LBL_NOTIFY, LBL_ALLOW);
	/* sendto with an address: a NULL one is send() */
	place(p, l_sendto);
	load_word(p, arg_lo(4));
	jump_if(p, 0, l_sendto_hi, l_sendto_len);
	place(p, l_sendto_hi);
	load_word(p, arg_lo(4) + 4);
	jump_if(p, 0, LBL_ALLOW, l_sendto_len);
	place(p, l_sendto_len);
	jump_in_range(p, 5, ADDR_MIN, ADDR_MAX, LBL_NOTIFY, LBL_ALLOW);
	place(p, l_ioctl);
	emit_ioctl_checks(p, LBL_NOTIFY, terminal);
#if defined(__x86_64__)
	/* x32: the x86-64 numbers with bit 30, and its own for sendmsg (518),
	 * sendmmsg (538) and ioctl (514): the covered calls refused, the
	 * guard's checked as natively */
	place(p, x32);
	emit(p, BPF_ALU | BPF_AND | BPF_K, ~0x40000000u, LBL_FALL, LBL_FALL);
	struct sv_entry x32_calls[sizeof native / sizeof *native + 3];
	size_t nx = 0;
	for (size_t i = 0; i < nn; i++) {
		enum sv_action a = native[i].act;
		if (native[i].nr == __NR_bind || native[i].nr == __NR_ioctl)
			continue;
		if (a == SV_NOTIFY || a == SV_ADDR_LEN || a == SV_SENDTO)
			a = SV_DENY;
		x32_calls[nx++] = (struct sv_entry){native[i].nr, a};
	}
	x32_calls[nx++] = (struct sv_entry){514, SV_IOCTL};
	x32_calls[nx++] = (struct sv_entry){518, SV_DENY};
	x32_calls[nx++] = (struct sv_entry){538, SV_DENY};
	qsort(x32_calls, nx, sizeof *x32_calls, by_nr);
	int refused_ioctl = new_label(p);
	int x32_targets[SV_ACTIONS] = {[SV_NOTIFY] = LBL_DENY, [SV_ADDR_LEN] = LBL_DENY, [SV_SENDTO] = LBL_DENY,
	                               [SV_IOCTL] = refused_ioctl, [SV_NOSYS] = LBL_NOSYS, [SV_DENY] = LBL_DENY,
	                               [SV_GUARD_PID] = g_pid, [SV_GUARD_PRIO] = g_prio,
	                               [SV_GUARD_IOPRIO] = g_ioprio};
	emit_search(p, x32_calls, nx, x32_targets);
	place(p, i386);
	jump_if(p, AUDIT_ARCH_I386, LBL_FALL, LBL_ALLOW);
	load_word(p, nr_at);
	struct sv_entry i386s[sizeof i386_calls / sizeof *i386_calls + GUARD_MAX];
	size_t ni = sizeof i386_calls / sizeof *i386_calls;
	memcpy(i386s, i386_calls, sizeof i386_calls);
	if (processes)
		ni += guard_entries(i386s + ni, true);
	qsort(i386s, ni, sizeof *i386s, by_nr);
	int socketcall = new_label(p);
	int i386_targets[SV_ACTIONS] = {[SV_NOTIFY] = LBL_DENY, [SV_ADDR_LEN] = LBL_DENY, [SV_SENDTO] = socketcall,
	                                [SV_IOCTL] = refused_ioctl, [SV_NOSYS] = LBL_NOSYS, [SV_DENY] = LBL_DENY,
	                                [SV_GUARD_PID] = g_pid, [SV_GUARD_PRIO] = g_prio,
	                                [SV_GUARD_IOPRIO] = g_ioprio};
	emit_search(p, i386s, ni, i386_targets);
	place(p, socketcall);
	/* socketcall's first argument names the call: connect 3, sendto 11,
	 * sendmsg 16, sendmmsg 20 */
	load_word(p, arg_lo(0));
	jump_if(p, 3, LBL_DENY, LBL_FALL);
	jump_if(p, 11, LBL_DENY, LBL_FALL);
	jump_if(p, 16, LBL_DENY, LBL_FALL);
	jump_if(p, 20, LBL_DENY, LBL_ALLOW);
	place(p, refused_ioctl);
	emit_ioctl_checks(p, LBL_DENY, terminal);
#endif
	emit_guard_blocks(p, g_pid, g_prio, g_ioprio);
	place(p, LBL_ALLOW);
	emit(p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW, LBL_FALL, LBL_FALL);
	place(p, LBL_NOTIFY);
	emit(p, BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF, LBL_FALL, LBL_FALL);
	place(p, LBL_DENY);
	emit(p, BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA), LBL_FALL, LBL_FALL);
	place(p, LBL_NOSYS);
	emit(p, BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA), LBL_FALL, LBL_FALL);
	return resolve(p);
#else
	(void)p;
	(void)guard;
	errno = ENOSYS;
	return -1;
#endif
}

int sandbox_supervisor_load(int *listener, unsigned guard)
{
	*listener = -1;
	struct guard_prog *p = xcalloc(1, sizeof *p);
	p->labels = LBL_FIRST_FREE;
	if (build_supervisor(p, guard) != 0) {
		free(p);
		if (errno != ENOSYS)
			errno = EOVERFLOW;
		return -1;
	}
	struct sock_fprog fprog = {.len = (unsigned short)p->n, .filter = p->ins};
	/* WAIT_KILLABLE_RECV: once the supervisor has the call, only a fatal
	 * signal ends the wait, so a call it is completing on the caller's
	 * behalf is never restarted and done twice. */
	long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	                  SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, &fprog);
	int saved = errno;
	free(p);
	if (fd < 0) {
		errno = saved;
		return -1;
	}
	*listener = (int)fd;
	return 0;
}

size_t sandbox_supervisor_filter_size(void)
{
	struct guard_prog *p = xcalloc(1, sizeof *p);
	p->labels = LBL_FIRST_FREE;
	size_t n = build_supervisor(p, SANDBOX_GUARD_TERMINAL | SANDBOX_GUARD_PROCESSES) == 0 ? p->n : 0;
	free(p);
	return n;
}
