/* sbsh --review --isolate (trusted/layer_review.c): status, diff, accept,
 * reject and discard of an isolated session's layer, and the list of a
 * project's layers. In sbsh-keeper, reached through review.c. */
#ifndef SBSH_LAYER_REVIEW_H
#define SBSH_LAYER_REVIEW_H

/* argv: the review's arguments, --isolate among them. Returns the exit
 * status: 0, 1 an error or refused, 2 a usage error, 3 paths were left. */
int layer_review_main(int argc, char **argv);

#endif
