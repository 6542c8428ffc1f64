/* Shell pattern matching: * ? [...] with backslash quoting. Linear
 * backtracking to the last star, so no pattern can take exponential time. */
#include "shell/shell.h"
#include "shell/pattern.h"

#include <ctype.h>
#include <string.h>

static unsigned char fold(unsigned char c, unsigned flags)
{
	return (flags & PATTERN_NOCASE) ? (unsigned char)tolower(c) : c;
}

static bool class_matches(const char *name, size_t len, unsigned char c)
{
	static const struct {
		const char *name;
		int (*fn)(int);
	} classes[] = {
		{"alnum", isalnum}, {"alpha", isalpha}, {"blank", isblank}, {"cntrl", iscntrl},
		{"digit", isdigit}, {"graph", isgraph}, {"lower", islower}, {"print", isprint},
		{"punct", ispunct}, {"space", isspace}, {"upper", isupper}, {"xdigit", isxdigit},
	};
	for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
		if (strlen(classes[i].name) == len && memcmp(classes[i].name, name, len) == 0)
			return classes[i].fn(c) != 0;
	}
	return false;
}

/* Reads one bracket-expression element at p (a char, \char, or [:class:]).
 * Returns the char (or -1 for a class, with cls and clslen set) and advances. */
static int bracket_char(const char **pp, const char **cls, size_t *clslen)
{
	const char *p = *pp;
	if (p[0] == '[' && p[1] == ':') {
		const char *end = strstr(p + 2, ":]");
		if (end) {
			*cls = p + 2;
			*clslen = (size_t)(end - (p + 2));
			*pp = end + 2;
			return -1;
		}
	}
	if (p[0] == '\\' && p[1] != '\0')
		p++;
	*pp = p + 1;
	return (unsigned char)*p;
}

/* Matches c against the bracket expression starting at p (just after '[').
 * Returns a pointer past the closing ']' and sets *matched, or NULL when
 * the bracket is not closed (then '[' is an ordinary character). */
static const char *match_bracket(const char *p, unsigned char c, unsigned flags, bool *matched)
{
	bool negate = false;
	if (*p == '!' || *p == '^') {
		negate = true;
		p++;
	}
	bool found = false;
	bool first = true;
	unsigned char fc = fold(c, flags);
	for (;;) {
		if (*p == '\0')
			return NULL;
		if (*p == ']' && !first)
			break;
		first = false;
		const char *cls = NULL;
		size_t clslen = 0;
		int lo = bracket_char(&p, &cls, &clslen);
		if (lo < 0) {
			if (class_matches(cls, clslen, c))
				found = true;
			continue;
		}
		if (p[0] == '-' && p[1] != ']' && p[1] != '\0') {
			p++;
			int hi = bracket_char(&p, &cls, &clslen);
			if (hi < 0) {
				/* a-[:alpha:] is not a range: treat both as listed */
				if (fold((unsigned char)lo, flags) == fc || class_matches(cls, clslen, c) ||
				    c == '-')
					found = true;
				continue;
			}
			if (c >= lo && c <= hi)
				found = true;
			if ((flags & PATTERN_NOCASE) &&
			    ((toupper(c) >= lo && toupper(c) <= hi) || (tolower(c) >= lo && tolower(c) <= hi)))
				found = true;
			continue;
		}
		if (fold((unsigned char)lo, flags) == fc)
			found = true;
	}
	*matched = found != negate;
	return p + 1;
}

bool pattern_match(const char *pattern, const char *string, unsigned flags)
{
	const char *p = pattern, *s = string;
	/* Where to resume after the most recent star: its pattern position and
	 * the string position it currently swallows up to. */
	const char *star_p = NULL, *star_s = NULL;

	if ((flags & PATTERN_PERIOD) && *s == '.') {
		const char *q = p;
		if (*q == '\\')
			q++;
		if (*q != '.')
			return false;
	}
	while (*s != '\0' || *p != '\0') {
		if (*p == '*') {
			while (*p == '*')
				p++;
			if (*p == '\0')
				return true;
			star_p = p;
			star_s = s;
			continue;
		}
		if (*s != '\0') {
			bool ok = false;
			const char *next = p + 1;
			if (*p == '?') {
				ok = true;
			} else if (*p == '[') {
				bool matched = false;
				const char *end = match_bracket(p + 1, (unsigned char)*s, flags, &matched);
				if (end) {
					ok = matched;
					next = end;
				} else {
					ok = *s == '[';
				}
			} else if (*p == '\\' && p[1] != '\0') {
				ok = fold((unsigned char)p[1], flags) == fold((unsigned char)*s, flags);
				next = p + 2;
			} else if (*p != '\0') {
				ok = fold((unsigned char)*p, flags) == fold((unsigned char)*s, flags);
			}
			if (ok) {
				p = next;
				s++;
				continue;
			}
		}
		if (star_p && *star_s != '\0') {
			p = star_p;
			s = ++star_s;
			continue;
		}
		return false;
	}
	return true;
}

bool pattern_has_magic(const char *pattern)
{
	for (const char *p = pattern; *p; p++) {
		if (*p == '\\') {
			if (p[1] == '\0')
				break;
			p++;
		} else if (*p == '*' || *p == '?') {
			return true;
		} else if (*p == '[' && p[1] != '\0' && strchr(p + 2, ']')) {
			return true;
		}
	}
	return false;
}

void pattern_unescape(char *s)
{
	char *out = s;
	for (char *p = s; *p; p++) {
		if (*p == '\\' && p[1] != '\0')
			p++;
		*out++ = *p;
	}
	*out = '\0';
}
