/* Variables: scopes, attributes, arrays, name references, the environment. */
#ifndef SBSH_VARS_H
#define SBSH_VARS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"
#include "shell/shell.h"

enum var_flags {
	VAR_EXPORT = 1 << 0,
	VAR_READONLY = 1 << 1,
	VAR_INTEGER = 1 << 2,  /* declare -i: assignments are evaluated */
	VAR_ARRAY = 1 << 3,    /* indexed array */
	VAR_LOWER = 1 << 4,    /* declare -l */
	VAR_UPPER = 1 << 5,    /* declare -u */
	VAR_NOVALUE = 1 << 6,  /* declared (export x, local x) but never given a value */
	VAR_ASSOC = 1 << 7,    /* declare -A: an associative array (VAR_ARRAY is set too) */
	VAR_NAMEREF = 1 << 8,  /* declare -n: value is the name every use goes to */
};

struct var {
	char *name;
	char *value;      /* scalar value; NULL for arrays and VAR_NOVALUE */
	char **array;     /* VAR_ARRAY: elements; NULL entries are unset. VAR_ASSOC:
	                   * the values, in the order their keys came, no NULLs */
	size_t array_len; /* one past the highest index (VAR_ASSOC: the count) */
	char **keys;      /* VAR_ASSOC: the keys, parallel to array */
	unsigned flags;
};

void vars_init(struct shell *sh, char **envp); /* imports envp, sets IFS, PS1.., PPID, PWD */
void vars_free(struct shell *sh);
/* s is a variable name: a letter or `_`, then letters, digits and `_`. */
bool vars_valid_name(const char *s);
/* The visible variable of that name (innermost scope), or NULL. */
struct var *vars_lookup(struct shell *sh, const char *name);
/* The scalar value (element 0 of an array); dynamic ones (RANDOM, SECONDS,
 * LINENO) computed. NULL when unset. The pointer is valid until the next
 * change to variables. */
const char *vars_get(struct shell *sh, const char *name);
/* Set a scalar (in the scope where the variable lives, else the global
 * one). Applies VAR_INTEGER/LOWER/UPPER and allexport; `flags` are added.
 * Returns 0, or -1 after shell_error() when readonly or not a valid name. */
int vars_set(struct shell *sh, const char *name, const char *value, unsigned flags);
int vars_set_array(struct shell *sh, const char *name, char *const *values, size_t n, bool append);
int vars_set_element(struct shell *sh, const char *name, long index, const char *value);
/* Whether v was named by a failed declare -A (then says so; v may be NULL). */
/* Associative arrays (declare -A). vars_declare_assoc makes name one (a
 * scalar's value becomes key "0"; an indexed array cannot be converted:
 * -1 after reporting). Keys stay in the order they were first set. */
int vars_declare_assoc(struct shell *sh, const char *name);
const char *vars_assoc_get(const struct var *v, const char *key);
/* Sets (append: appends to) the value of key in the associative array name. */
int vars_assoc_set(struct shell *sh, const char *name, const char *key, const char *value, bool append);
int vars_assoc_unset(struct shell *sh, const char *name, const char *key);
/* Name references (declare -n). Every vars_* call on a reference acts on
 * the variable it names (followed up to 8 deep; a loop is reported), but
 * these: vars_lookup_ref sees the reference itself, vars_set_nameref
 * makes name one (target NULL: none yet; the first assignment names it),
 * vars_unset_ref (unset -n) removes it. */
struct var *vars_lookup_ref(struct shell *sh, const char *name);
/* When name is a reference to an array element (declare -n r='a[i]'):
 * its target text, else NULL. */
const char *vars_ref_element(struct shell *sh, const char *name);
int vars_set_nameref(struct shell *sh, const char *name, const char *target);
int vars_unset_ref(struct shell *sh, const char *name);
/* Returns 0 (also when not set), -1 after shell_error() when readonly. */
int vars_unset(struct shell *sh, const char *name);
int vars_unset_element(struct shell *sh, const char *name, long index);
/* Scopes: a function call pushes one for `local`; a simple command with
 * assignments before a builtin or function pushes a temporary one. */
void vars_push_scope(struct shell *sh);
/* The scope of a command's temporary assignments: `local` under it
 * declares in the function's scope. */
void vars_push_temp_scope(struct shell *sh);
void vars_pop_scope(struct shell *sh);
/* Declares name in the innermost scope (local). Returns -1 outside a function. */
int vars_make_local(struct shell *sh, const char *name);
/* Sets a variable in the innermost scope (for `FOO=x builtin`). */
int vars_set_temp(struct shell *sh, const char *name, const char *value);
/* NAME=VALUE strings of exported variables, for execve (owned by vars.c,
 * valid until the next change). */
char **vars_environ(struct shell *sh);
/* Calls fn for every visible variable, sorted by name. */
void vars_foreach(struct shell *sh, void (*fn)(struct var *v, void *ctx), void *ctx);
/* The attribute letters of v as declare -p and ${x@a} give them, in
 * bash's order (a A i n r x l u); buf holds at least 10 bytes. */
void vars_attr_letters(const struct var *v, char *buf);
/* Whether text is taken as UTF-8: unless the shell's LC_ALL, else
 * LC_CTYPE, else LANG names a locale without UTF-8 in it (C, POSIX). */
bool vars_utf8_locale(struct shell *sh);
/* Prints a value quoted for reuse as shell input. */
void vars_quote(struct strbuf *out, const char *value);
/* Prints value as $'...', with control characters as escapes. */
void vars_quote_ansi_c(struct strbuf *out, const char *value);
/* Adds and removes attributes (VAR_EXPORT, VAR_READONLY, VAR_INTEGER,
 * VAR_ARRAY...) of the visible variable, creating it without a value in
 * the global scope when there is none (export x, declare -i x). Returns 0,
 * or -1 after shell_error() (removing readonly, bad name). */
int vars_set_flags(struct shell *sh, const char *name, unsigned set, unsigned clear);

#endif
