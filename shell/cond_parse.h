/* The grammar of [[ ]]: its expression tree (ast.h), for parser.c. */
#ifndef SBSH_COND_PARSE_H
#define SBSH_COND_PARSE_H

#include "shell/ast.h"
#include "shell/grammar.h"

/* At the `[[` token: the NODE_COND up to and with `]]`. NULL on error. */
struct node *parse_cond_command(struct parser *p);

#endif
