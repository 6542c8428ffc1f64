/* sbsh --review --isolate (trusted/layer_review.c): status, diff, accept,
 * reject and discard of an isolated session's layer, and the list of a
 * project's layers. In sbsh-keeper, reached through review.c. */
#ifndef SBSH_LAYER_REVIEW_H
#define SBSH_LAYER_REVIEW_H

/* argv: the review's arguments, --isolate among them. Returns the exit
 * status: 0, 1 an error or refused, 2 a usage error, 3 paths were left. */
int layer_review_main(int argc, char **argv);


/* A path as the human typed it (relative to cwd) made relative to the
 * project's top root, "" for the top itself; NULL when outside it. "." and
 * ".." are folded without the disk: the path may be gone or only in a layer. */
char *review_top_relative(const char *root, const char *cwd, const char *arg);

#endif
