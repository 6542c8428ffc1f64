/* Shell pattern matching: * ? [...] with backslash quoting. Linear
 * backtracking to the last star, so no plain pattern can take exponential
 * time; extglob groups (when asked for) go through a recursive matcher. */
#include "shell/shell.h"
#include "shell/pattern.h"

#include <ctype.h>
#include <string.h>

static unsigned char fold(unsigned char c, unsigned flags)
{
	return (flags & PATTERN_NOCASE) ? (unsigned char)tolower(c) : c;
}

/* The length of the UTF-8 character at s (1 for a stray byte), not
 * past se: `?` matches a whole character, as bash does in a UTF-8
 * locale. */
static size_t char_len(const char *s, const char *se)
{
	size_t n = 1;
	if ((unsigned char)*s >= 0xc0)
		while (s + n < se && n < 4 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n++;
	return n;
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

static bool is_extglob_at(const char *p, const char *pe)
{
	return p + 1 < pe && p[1] == '(' && strchr("@*+?!", *p) != NULL;
}

/* Just past the `)` closing the group whose `(` is at p, or NULL. */
static const char *group_end(const char *p, const char *pe)
{
	int depth = 0;
	for (; p < pe; p++) {
		if (*p == '\\' && p + 1 < pe) {
			p++;
		} else if (*p == '[') {
			/* a bracket expression may hold ( ) | as plain characters */
			const char *q = p + 1;
			if (q < pe && (*q == '!' || *q == '^'))
				q++;
			if (q < pe && *q == ']')
				q++;
			while (q < pe && *q != ']')
				q++;
			if (q < pe)
				p = q;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			if (--depth == 0)
				return p + 1;
		}
	}
	return NULL;
}

/* Next top-level `|` or the end of an alternative list [p, pe). */
static const char *alt_end(const char *p, const char *pe)
{
	int depth = 0;
	for (; p < pe; p++) {
		if (*p == '\\' && p + 1 < pe)
			p++;
		else if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == '|' && depth == 0)
			return p;
	}
	return pe;
}

static bool xmatch(const char *p, const char *pe, const char *s, const char *se, unsigned flags);

/* Whether one of the alternatives of the group body [b, be) matches [s, se). */
static bool any_alt(const char *b, const char *be, const char *s, const char *se, unsigned flags)
{
	for (const char *a = b;;) {
		const char *e = alt_end(a, be);
		if (xmatch(a, e, s, se, flags))
			return true;
		if (e >= be)
			return false;
		a = e + 1;
	}
}

/* The matcher for patterns with extglob groups: recursive, with explicit
 * ends, because a group's alternatives have to be tried at every length.
 * Only such patterns take this slower path. */
static bool xmatch(const char *p, const char *pe, const char *s, const char *se, unsigned flags)
{
	while (p < pe) {
		if (is_extglob_at(p, pe)) {
			const char *end = group_end(p + 1, pe);
			if (end) {
				char op = *p;
				const char *b = p + 2, *be = end - 1;
				switch (op) {
				case '@':
				case '?':
					if (op == '?' && xmatch(end, pe, s, se, flags))
						return true;
					for (const char *k = s; k <= se; k++)
						if (any_alt(b, be, s, k, flags) && xmatch(end, pe, k, se, flags))
							return true;
					return false;
				case '*':
				case '+':
					if (op == '*' && xmatch(end, pe, s, se, flags))
						return true;
					/* one non-empty repetition, then the group again as *( ) */
					for (const char *k = s + 1; k <= se; k++) {
						if (!any_alt(b, be, s, k, flags))
							continue;
						if (xmatch(end, pe, k, se, flags))
							return true;
						/* more repetitions: for + the first one is done */
						if (k < se && xmatch(p, pe, k, se, flags))
							return true;
					}
					return op == '+' && any_alt(b, be, s, s, flags) && xmatch(end, pe, s, se, flags);
				default: /* '!' */
					for (const char *k = s; k <= se; k++)
						if (!any_alt(b, be, s, k, flags) && xmatch(end, pe, k, se, flags))
							return true;
					return false;
				}
			}
		}
		if (*p == '*') {
			while (p < pe && *p == '*' && !is_extglob_at(p, pe))
				p++;
			for (const char *k = s; k <= se; k++)
				if (xmatch(p, pe, k, se, flags))
					return true;
			return false;
		}
		if (s >= se)
			return false;
		const char *next = p + 1;
		bool ok;
		size_t adv = 1;
		if (*p == '?') {
			ok = true;
			adv = (flags & PATTERN_BYTES) ? 1 : char_len(s, se);
		} else if (*p == '[') {
			bool matched = false;
			const char *end = match_bracket(p + 1, (unsigned char)*s, flags, &matched);
			if (end && end <= pe) {
				ok = matched;
				next = end;
			} else {
				ok = *s == '[';
			}
		} else if (*p == '\\' && p + 1 < pe) {
			ok = fold((unsigned char)p[1], flags) == fold((unsigned char)*s, flags);
			next = p + 2;
		} else {
			ok = fold((unsigned char)*p, flags) == fold((unsigned char)*s, flags);
		}
		if (!ok)
			return false;
		p = next;
		s += adv;
	}
	return s == se;
}

bool pattern_has_extglob(const char *pattern)
{
	const char *pe = pattern + strlen(pattern);
	for (const char *p = pattern; *p; p++) {
		if (*p == '\\') {
			if (p[1] == '\0')
				break;
			p++;
		} else if (is_extglob_at(p, pe) && group_end(p + 1, pe)) {
			return true;
		}
	}
	return false;
}

bool pattern_match(const char *pattern, const char *string, unsigned flags)
{
	if ((flags & PATTERN_EXTGLOB) && pattern_has_extglob(pattern)) {
		if ((flags & PATTERN_PERIOD) && *string == '.' && *pattern != '.' &&
		    !(pattern[0] == '\\' && pattern[1] == '.'))
			return false;
		return xmatch(pattern, pattern + strlen(pattern), string, string + strlen(string),
		              flags);
	}
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
			size_t adv = 1;
			if (*p == '?') {
				ok = true;
				adv = (flags & PATTERN_BYTES) ? 1 : char_len(s, s + strlen(s));
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
				s += adv;
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
		} else if (*p == '*' || *p == '?' || (p[1] == '(' && (*p == '@' || *p == '+' || *p == '!'))) {
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
