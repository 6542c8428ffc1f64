/* Test helper: runs a command with the Landlock syscalls made to fail with
 * ENOSYS (as a kernel without Landlock, or a container's seccomp profile,
 * would), so that tests can check what sbsh does then.
 * Usage: no_landlock [--eopnotsupp] COMMAND [ARGS...] */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int err = ENOSYS;
	int first = 1;
	if (argc > 1 && strcmp(argv[1], "--eopnotsupp") == 0) {
		err = EOPNOTSUPP;
		first = 2;
	}
	if (first >= argc) {
		fprintf(stderr, "usage: no_landlock [--eopnotsupp] COMMAND [ARGS...]\n");
		return 2;
	}
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return 1;
	const int calls[] = {444, 445, 446}; /* create_ruleset, add_rule, restrict_self */
	for (int i = 0; i < 3; i++) {
		if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err), calls[i], 0) != 0) {
			fprintf(stderr, "no_landlock: seccomp_rule_add failed\n");
			return 1;
		}
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || seccomp_load(ctx) != 0) {
		fprintf(stderr, "no_landlock: cannot load the filter\n");
		return 1;
	}
	seccomp_release(ctx);
	execvp(argv[first], argv + first);
	perror("no_landlock: exec");
	return 127;
}
