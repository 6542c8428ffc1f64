/* Arithmetic expansion: $(( )), (( )), let, declare -i. */
#ifndef SBSH_ARITH_H
#define SBSH_ARITH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shell/shell.h"

/* Evaluates an arithmetic expression (C operators, variables, assignment).
 * Returns 0, or -1 after reporting. */
int arith_eval(struct shell *sh, const char *expr, intmax_t *result);
/* Writes value in decimal into buf (at least ARITH_FORMAT_SIZE bytes);
 * returns the length. Cheaper than snprintf on hot paths. */
enum { ARITH_FORMAT_SIZE = 24 };
size_t arith_format(intmax_t value, char *buf);

#endif
