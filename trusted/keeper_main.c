/* sbsh-keeper: the checkpoint keeper and the review CLI, the parts of sbsh
 * that link libgit2. sbsh starts it (`serve`, before its confinement) and
 * runs it for `sbsh --review` (`review`); nobody needs to type it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trusted/keeper.h"

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "review") == 0)
		return review_main(argc - 2, argv + 2);
	if (argc == 5 && strcmp(argv[1], "serve") == 0) {
		char *end;
		unsigned long idle = strtoul(argv[4], &end, 10);
		if (*end || idle == 0)
			idle = 600;
		/* fd 3 is the starter's pipe: one byte when the socket listens */
		return keeper_serve(argv[2], argv[3], 3, (unsigned)idle);
	}
	fprintf(stderr, "usage: sbsh-keeper serve ROOT STATE_DIR IDLE_SECONDS | sbsh-keeper review ARGS\n"
	                "(started by sbsh; see sbsh --review)\n");
	return 2;
}
