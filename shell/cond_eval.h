/* The evaluator of [[ ]]: its expression tree (ast.h) to a status. */
#ifndef SBSH_COND_EVAL_H
#define SBSH_COND_EVAL_H

#include "shell/ast.h"
#include "shell/shell.h"

/* 0 true, 1 false, 2 error (reported). =~ sets BASH_REMATCH. */
int cond_eval(struct shell *sh, const struct cond_expr *c);

#endif
