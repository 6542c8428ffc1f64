/* Git's config syntax and the keys that run programs (see gitconfig.h). */
#include "lib/gitconfig.h"

#include <stdlib.h>
#include <string.h>

/* ---- reading ------------------------------------------------------------ */

/* A config text as git's parser sees it: "\r\n" is "\n", and past the end
 * every read is "\n" (then at > len). */
struct reader {
	const char *s;
	size_t len, at;
};

static int reader_next(struct reader *r)
{
	if (r->at >= r->len) {
		r->at = r->len + 1;
		return '\n';
	}
	int c = (unsigned char)r->s[r->at++];
	if (c == '\r' && r->at < r->len && r->s[r->at] == '\n') {
		r->at++;
		c = '\n';
	}
	return c;
}

/* A strbuf's text, "" before anything was added. */
static const char *text_of(const struct strbuf *sb)
{
	return sb->data ? sb->data : "";
}

static bool at_end(const struct reader *r)
{
	return r->at > r->len;
}

/* git's own character classes: ASCII only, and no \v or \f as spaces */
static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_keychar(int c)
{
	return is_alpha(c) || (c >= '0' && c <= '9') || c == '-';
}

static char to_lower(int c)
{
	return (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

/* After "[": the section's name, lowercased, into sec, and its subsection
 * into sub (has_sub set): quoted ([remote "origin"], case kept) or the old
 * dotted form ([remote.origin], lowercased). False on a syntax error. */
static bool read_section(struct reader *r, struct strbuf *sec, struct strbuf *sub, bool *has_sub)
{
	strbuf_truncate(sec, 0);
	strbuf_truncate(sub, 0);
	*has_sub = false;
	int c;
	for (;;) {
		c = reader_next(r);
		if (at_end(r) || c == '\n')
			return false;
		if (c == ']' || is_space(c))
			break;
		if (!is_keychar(c) && c != '.')
			return false;
		strbuf_addc(sec, to_lower(c));
	}
	if (sec->len == 0)
		return false;
	char *dot = strchr(sec->data, '.');
	if (dot) {
		strbuf_adds(sub, dot + 1);
		strbuf_truncate(sec, (size_t)(dot - sec->data));
		*has_sub = true;
	}
	if (c == ']')
		return sec->len > 0;
	while (is_space(c)) {
		if (c == '\n')
			return false;
		c = reader_next(r);
	}
	if (c != '"')
		return false;
	if (*has_sub)
		strbuf_addc(sub, '.');
	*has_sub = true;
	while ((c = reader_next(r)) != '"') {
		if (c == '\n')
			return false;
		if (c == '\\') {
			c = reader_next(r);
			if (c == '\n')
				return false;
		}
		strbuf_addc(sub, (char)c);
	}
	return reader_next(r) == ']';
}

/* After a key's first letter c: the key, lowercased, into key, and its
 * value, decoded as git decodes it, into value (*has_value false for a bare
 * key), up to the newline that ends it. False on a syntax error. */
static bool read_entry(struct reader *r, int c, struct strbuf *key, struct strbuf *value, bool *has_value)
{
	strbuf_truncate(key, 0);
	strbuf_truncate(value, 0);
	do {
		strbuf_addc(key, to_lower(c));
		c = reader_next(r);
	} while (!at_end(r) && is_keychar(c));
	while (c == ' ' || c == '\t')
		c = reader_next(r);
	*has_value = false;
	if (c == '\n')
		return true;
	if (c != '=')
		return false;
	*has_value = true;
	bool quote = false, comment = false;
	size_t spaces = 0; /* blanks seen since the last character kept */
	for (;;) {
		c = reader_next(r);
		if (c == '\n')
			return !quote; /* an open quote at the end of the line is an error */
		if (comment)
			continue;
		if (is_space(c) && !quote) {
			/* inner runs of blanks stay (as spaces), leading and trailing ones go */
			if (value->len)
				spaces++;
			continue;
		}
		if (!quote && (c == '#' || c == ';')) {
			comment = true;
			continue;
		}
		for (; spaces; spaces--)
			strbuf_addc(value, ' ');
		if (c == '"') {
			quote = !quote;
			continue;
		}
		if (c == '\\') {
			c = reader_next(r);
			switch (c) {
			case '\n':
				continue; /* the value goes on on the next line */
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'b':
				c = '\b';
				break;
			case '\\':
			case '"':
				break;
			default:
				return false;
			}
		}
		strbuf_addc(value, (char)c);
	}
}

int gitconfig_parse(const char *text, size_t len, gitconfig_entry_fn *fn, void *ctx, size_t *bad_at)
{
	struct reader r = {.s = text, .len = len};
	struct strbuf sec, sub, key, value;
	strbuf_init(&sec);
	strbuf_init(&sub);
	strbuf_init(&key);
	strbuf_init(&value);
	bool has_sub = false;
	int rc = 0;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		r.at = 3;
	for (;;) {
		size_t start = r.at;
		int c = reader_next(&r);
		if (at_end(&r))
			break;
		if (is_space(c))
			continue;
		if (c == '#' || c == ';') {
			while (reader_next(&r) != '\n')
				;
			continue;
		}
		bool ok, has_value = false;
		if (c == '[')
			ok = read_section(&r, &sec, &sub, &has_sub);
		else
			ok = is_alpha(c) && read_entry(&r, c, &key, &value, &has_value);
		if (!ok) {
			if (bad_at)
				*bad_at = start;
			rc = -1;
			break;
		}
		/* a key before any section is one git never looks up */
		if (c == '[' || !sec.len)
			continue;
		struct gitconfig_entry e = {
			.section = text_of(&sec),
			.subsection = has_sub ? text_of(&sub) : NULL,
			.key = text_of(&key),
			.value = has_value ? text_of(&value) : NULL,
			.begin = start,
			.end = r.at < len ? r.at : len,
		};
		if (!fn(&e, ctx))
			break;
	}
	strbuf_free(&sec);
	strbuf_free(&sub);
	strbuf_free(&key);
	strbuf_free(&value);
	return rc;
}

struct values_wanted {
	const char *section, *key;
	struct strvec *out;
};

static bool collect_value(const struct gitconfig_entry *e, void *ctx)
{
	struct values_wanted *w = ctx;
	if (strcmp(e->section, w->section) == 0 && strcmp(e->key, w->key) == 0)
		strvec_push(w->out, e->value ? e->value : "true");
	return true;
}

void gitconfig_values(const char *text, size_t len, const char *section, const char *key, struct strvec *out)
{
	struct values_wanted w = {section, key, out};
	gitconfig_parse(text, len, collect_value, &w, NULL);
}

/* ---- the keys that run programs ------------------------------------------ */

/* As git lowercases them. section "*" is any section; a NULL key any key
 * of the section (sections whose keys are mostly programs, or tools). */
struct key_effect {
	const char *section, *key;
	enum gitconfig_effect effect;
};

static const struct key_effect key_effects[] = {
	{.section = "core", .key = "hookspath", .effect = GITCONFIG_ELSEWHERE},
	{.section = "core", .key = "fsmonitor", .effect = GITCONFIG_RUNS},
	{.section = "core", .key = "sshcommand", .effect = GITCONFIG_RUNS},
	{.section = "core", .key = "pager", .effect = GITCONFIG_RUNS},
	{.section = "core", .key = "editor", .effect = GITCONFIG_RUNS},
	{.section = "core", .key = "askpass", .effect = GITCONFIG_RUNS},
	{.section = "core", .key = "gitproxy", .effect = GITCONFIG_RUNS},
	{.section = "core", .key = "alternaterefscommand", .effect = GITCONFIG_RUNS},
	{.section = "sequence", .key = "editor", .effect = GITCONFIG_RUNS},
	{.section = "diff", .key = "external", .effect = GITCONFIG_RUNS},
	{.section = "interactive", .key = "difffilter", .effect = GITCONFIG_RUNS},
	{.section = "uploadpack", .key = "packobjectshook", .effect = GITCONFIG_RUNS},
	{.section = "remote", .key = "vcs", .effect = GITCONFIG_RUNS},
	{.section = "gc", .key = "recentobjectshook", .effect = GITCONFIG_RUNS},
	{.section = "imap", .key = "tunnel", .effect = GITCONFIG_RUNS},
	{.section = "web", .key = "browser", .effect = GITCONFIG_RUNS},
	{.section = "protocol", .key = "allow", .effect = GITCONFIG_PROTOCOL},
	{.section = "include", .key = "path", .effect = GITCONFIG_ELSEWHERE},
	{.section = "includeif", .key = "path", .effect = GITCONFIG_ELSEWHERE},
	{.section = "extensions", .key = "worktreeconfig", .effect = GITCONFIG_ELSEWHERE},
	{.section = "init", .key = "templatedir", .effect = GITCONFIG_ELSEWHERE},
	{.section = "credential", .key = NULL, .effect = GITCONFIG_RUNS},
	{.section = "gpg", .key = NULL, .effect = GITCONFIG_RUNS},
	{.section = "pager", .key = NULL, .effect = GITCONFIG_RUNS},
	{.section = "hook", .key = NULL, .effect = GITCONFIG_RUNS},
	{.section = "sendemail", .key = NULL, .effect = GITCONFIG_RUNS},
	{.section = "difftool", .key = NULL, .effect = GITCONFIG_RUNS},
	{.section = "mergetool", .key = NULL, .effect = GITCONFIG_RUNS},
	{.section = "man", .key = NULL, .effect = GITCONFIG_RUNS},
	{.section = "browser", .key = NULL, .effect = GITCONFIG_RUNS},
	/* the drivers and tools of diff, merge, filter, remote, gpg... */
	{.section = "*", .key = "textconv", .effect = GITCONFIG_RUNS},
	{.section = "*", .key = "cmd", .effect = GITCONFIG_RUNS},
	{.section = "*", .key = "command", .effect = GITCONFIG_RUNS},
	{.section = "*", .key = "driver", .effect = GITCONFIG_RUNS},
	{.section = "*", .key = "clean", .effect = GITCONFIG_RUNS},
	{.section = "*", .key = "smudge", .effect = GITCONFIG_RUNS},
	{.section = "*", .key = "process", .effect = GITCONFIG_RUNS},
	{.section = "*", .key = "program", .effect = GITCONFIG_RUNS},
	{.section = "*", .key = "helper", .effect = GITCONFIG_RUNS},
	{.section = "*", .key = "uploadpack", .effect = GITCONFIG_RUNS},
	{.section = "*", .key = "receivepack", .effect = GITCONFIG_RUNS},
	{.section = "*", .key = "proxycommand", .effect = GITCONFIG_RUNS},
	{.section = "*", .key = "sshcommand", .effect = GITCONFIG_RUNS},
	{.section = "alias", .key = NULL, .effect = GITCONFIG_RUNS_BANG},
	{.section = "submodule", .key = "update", .effect = GITCONFIG_RUNS_BANG},
};

enum gitconfig_effect gitconfig_key_effect(const char *section, const char *subsection, const char *key)
{
	(void)subsection; /* credential.helper and credential.URL.helper alike */
	for (size_t i = 0; i < sizeof key_effects / sizeof key_effects[0]; i++) {
		const struct key_effect *k = &key_effects[i];
		if ((strcmp(k->section, "*") == 0 || strcmp(k->section, section) == 0) &&
		    (!k->key || strcmp(k->key, key) == 0))
			return k->effect;
	}
	return GITCONFIG_PLAIN;
}

enum gitconfig_effect gitconfig_name_effect(const char *name)
{
	const char *first = strchr(name, '.');
	const char *last = strrchr(name, '.');
	if (!first)
		return GITCONFIG_PLAIN;
	char *section = xstrndup(name, (size_t)(first - name));
	char *key = xstrdup(last + 1);
	for (char *p = section; *p; p++)
		*p = to_lower(*p);
	for (char *p = key; *p; p++)
		*p = to_lower(*p);
	char *sub = last > first ? xstrndup(first + 1, (size_t)(last - first - 1)) : NULL;
	enum gitconfig_effect e = gitconfig_key_effect(section, sub, key);
	free(section);
	free(key);
	free(sub);
	return e;
}

bool gitconfig_entry_runs(const char *section, const char *subsection, const char *key, const char *value)
{
	enum gitconfig_effect e = gitconfig_key_effect(section, subsection, key);
	if (e == GITCONFIG_RUNS_BANG)
		return value && value[0] == '!';
	return e != GITCONFIG_PLAIN;
}
