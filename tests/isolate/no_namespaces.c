/* Test helper: runs a command where no namespace can be made, as under
 * Docker's default seccomp profile: unshare, setns and clone with a
 * namespace flag fail with EPERM, clone3 (whose flags a filter cannot
 * read) with ENOSYS, so that libc falls back to clone. The filter is
 * loaded without no_new_privs (root may), as Docker does.
 * Usage: no_namespaces COMMAND [ARGS...] */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* the CLONE_NEW* flags */
#endif
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: no_namespaces COMMAND [ARGS...]\n");
		return 2;
	}
	const unsigned long namespaces = CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWUTS |
	                                 CLONE_NEWIPC | CLONE_NEWCGROUP | CLONE_NEWTIME;
	/* clone with any namespace flag: one rule per flag, since a masked
	 * comparison with 0 would match the calls without one */
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return 1;
	int rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, geteuid() == 0 ? 0 : 1);
	rc = rc ? rc : seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 0);
	rc = rc ? rc : seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setns), 0);
	rc = rc ? rc : seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	for (unsigned long bit = 1; bit && rc == 0; bit <<= 1)
		if (namespaces & bit)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, bit, bit));
	if (rc != 0 || seccomp_load(ctx) != 0) {
		fprintf(stderr, "no_namespaces: cannot load the filter\n");
		return 1;
	}
	seccomp_release(ctx);
	execvp(argv[1], argv + 1);
	perror("no_namespaces: exec");
	return 127;
}
