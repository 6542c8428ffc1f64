/* sbsh-keeper: the checkpoint keeper and the review CLI, the parts of sbsh
 * that link libgit2. sbsh starts it (`serve`, before its confinement) and
 * runs it for `sbsh --review` (`review`); nobody needs to type it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trusted/keeper.h"

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "review") == 0)
		return review_main(argc - 2, argv + 2);
	if (argc == 7 && strcmp(argv[1], "serve") == 0) {
		unsigned long v[3];
		unsigned long fallback[3] = {600, 20, 1024};
		for (int i = 0; i < 3; i++) {
			char *end;
			v[i] = strtoul(argv[4 + i], &end, 10);
			if (*end || v[i] == 0 || v[i] > 1000000)
				v[i] = fallback[i];
		}
		/* fd 3 is the starter's pipe: one byte when the socket listens */
		return keeper_serve(argv[2], argv[3], 3, (unsigned)v[0], (unsigned)v[1], (uint64_t)v[2] << 20);
	}
	fprintf(stderr, "usage: sbsh-keeper serve ROOT STATE_DIR IDLE_SECONDS KEEP_SESSIONS KEEP_MIB | sbsh-keeper review ARGS\n"
	                "(started by sbsh; see sbsh --review)\n");
	return 2;
}
