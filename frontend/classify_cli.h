/* `sbsh --classify`: prints the verdict of a command line, runs nothing. */
#ifndef SBSH_CLASSIFY_CLI_H
#define SBSH_CLASSIFY_CLI_H

/* `sbsh --classify [--json] -c STRING` and `sbsh --classify [--json] FILE`:
 * argv[0] is "sbsh", argv[1] "--classify"; rules: the config file's
 * (classifier_add_rule), NULL-terminated, or NULL. Prints the verdict, runs nothing.
 * Returns 0 when it could judge, 2 on a syntax or usage error. */
int classify_main(int argc, char **argv, char *const *rules);

#endif
