/* Shell pattern matching: case, [[ == ]], ${x#pat}, pathname expansion. */
#ifndef SBSH_PATTERN_H
#define SBSH_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

/* Shell pattern matching (*, ?, [...], backslash quoting). */
enum pattern_flags {
	PATTERN_NOCASE = 1 << 0,
	PATTERN_PERIOD = 1 << 1, /* a leading . must be matched explicitly */
	PATTERN_EXTGLOB = 1 << 2, /* @( ) *( ) +( ) ?( ) !( ) groups (shopt extglob) */
	PATTERN_BYTES = 1 << 3,   /* ? matches a byte, not a UTF-8 character (LC_ALL=C) */
};
bool pattern_match(const char *pattern, const char *string, unsigned flags);
/* True when pattern has an unquoted *, ? or [. */
bool pattern_has_magic(const char *pattern);
/* True when pattern has an unquoted extglob group opening, like @( . */
bool pattern_has_extglob(const char *pattern);
/* Removes backslash quoting from a pattern-escaped string (in place). */
void pattern_unescape(char *s);

#endif
