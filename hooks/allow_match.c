/* Allow-list reading and entry matching, apart from approve.c (which
 * needs the broker and the shell) so the fuzzers can link just this. */
#include "hooks/approve.h"

#include <fnmatch.h>
#include <jansson.h>
#include <stdbool.h>
#include <string.h>

#include "lib/util.h"

/* strrchr-style basename, without touching the string. */
static const char *base_of(const char *s)
{
	const char *slash = strrchr(s, '/');
	return slash && slash[1] ? slash + 1 : s;
}

/* Splits an entry into words: blanks separate, '...' and "..." quote,
 * backslash escapes one character. */
static void split_entry(const char *s, struct strvec *out)
{
	struct strbuf w;
	strbuf_init(&w);
	bool in_word = false;
	for (const char *p = s; *p; p++) {
		char c = *p;
		if (c == ' ' || c == '\t' || c == '\n') {
			if (in_word)
				strvec_push_owned(out, strbuf_detach(&w));
			in_word = false;
			continue;
		}
		in_word = true;
		if (c == '\'' || c == '"') {
			const char *end = strchr(p + 1, c);
			if (!end)
				end = p + strlen(p);
			strbuf_addmem(&w, p + 1, (size_t)(end - p - 1));
			p = *end ? end : end - 1;
		} else if (c == '\\' && p[1]) {
			strbuf_addc(&w, *++p);
		} else {
			strbuf_addc(&w, c);
		}
	}
	if (in_word)
		strvec_push_owned(out, strbuf_detach(&w));
	strbuf_free(&w);
}

/* Whether a word a pattern matched leaves where the pattern points: `*`
 * matches `/` too, but `rm -r *` does not name `/`, `/etc` or `../other`
 * unless the pattern itself starts at `/` or climbs with `..`. */
static bool has_dotdot(const char *s)
{
	for (const char *p = strstr(s, ".."); p; p = strstr(p + 1, ".."))
		if ((p == s || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
			return true;
	return false;
}

static bool stays_within(const char *pattern, const char *word)
{
	if (word[0] == '/' && pattern[0] != '/')
		return false;
	return !has_dotdot(word) || has_dotdot(pattern);
}

char *policy_acted_path(const char *word)
{
	size_t n = strlen(word);
	if (n && word[n - 1] == '/')
		return realpath(word, NULL);
	char *copy = xstrdup(word);
	char *slash = strrchr(copy, '/');
	const char *dir = slash ? (slash == copy ? "/" : copy) : ".";
	const char *name = slash ? slash + 1 : copy;
	if (slash && slash != copy)
		*slash = '\0';
	char *rdir = *name && strcmp(name, ".") != 0 && strcmp(name, "..") != 0 ? realpath(dir, NULL) : NULL;
	char *out = rdir ? xasprintf("%s/%s", strcmp(rdir, "/") == 0 ? "" : rdir, name) : NULL;
	free(rdir);
	free(copy);
	return out;
}

/* The folder a pattern word names before its first wildcard ("build" for
 * "build/x*", "." for "*"), resolved, when that is where its text leads: a
 * link on the way makes it NULL (an entry names folders, not where links
 * point). *none: there is no such folder, so nothing to compare. */
static char *pattern_folder(const char *pattern, bool *none)
{
	*none = false;
	size_t lit = strcspn(pattern, "*?[");
	size_t cut = lit;
	while (cut > 0 && pattern[cut - 1] != '/')
		cut--;
	char *folder = cut ? xstrndup(pattern, cut) : xstrdup(".");
	char *real = realpath(folder, NULL);
	if (!real) {
		*none = true;
		free(folder);
		return NULL;
	}
	/* the lexical path: the working folder's, then the pattern's words */
	char *cwd = realpath(".", NULL);
	struct strbuf lex;
	strbuf_init(&lex);
	if (folder[0] != '/' && cwd)
		strbuf_adds(&lex, strcmp(cwd, "/") == 0 ? "" : cwd);
	for (const char *p = folder; *p;) {
		size_t len = strcspn(p, "/");
		if (len && !(len == 1 && p[0] == '.')) {
			strbuf_addc(&lex, '/');
			strbuf_addmem(&lex, p, len);
		}
		p += len;
		while (*p == '/')
			p++;
	}
	bool same = strcmp(lex.len ? lex.data : "/", real) == 0 || has_dotdot(folder);
	strbuf_free(&lex);
	free(cwd);
	free(folder);
	if (!same) {
		free(real);
		return NULL;
	}
	return real;
}

bool policy_entry_allows(const char *entry, char *const *argv)
{
	if (!policy_entry_matches(entry, argv))
		return false;
	struct strvec words;
	strvec_init(&words);
	split_entry(entry, &words);
	bool ok = true;
	for (size_t i = 0; ok && i < words.len; i++) {
		const char *w = words.items[i];
		if (i == 0 || !strpbrk(w, "*?[") || w[0] == '-')
			continue;
		bool none;
		char *folder = pattern_folder(w, &none);
		char *target = folder ? policy_acted_path(argv[i]) : NULL;
		size_t fl = folder ? strlen(folder) : 0;
		/* what the command acts on lies inside the folder the entry names */
		if (!none && (!folder || (target && !(strncmp(target, folder, fl) == 0 &&
		                                       (target[fl] == '/' || (fl == 1 && folder[0] == '/'))))))
			ok = false;
		free(folder);
		free(target);
	}
	strvec_free(&words);
	return ok;
}

void policy_entry_words(const char *entry, struct strvec *out)
{
	split_entry(entry, out);
}

bool policy_entry_matches(const char *entry, char *const *argv)
{
	struct strvec words;
	strvec_init(&words);
	split_entry(entry, &words);
	bool ok = words.len > 0;
	size_t i = 0;
	for (; ok && i < words.len; i++) {
		if (!argv[i]) {
			ok = false;
			break;
		}
		const char *w = words.items[i];
		if (strpbrk(w, "*?["))
			ok = fnmatch(w, argv[i], 0) == 0 && stays_within(w, argv[i]);
		else
			ok = strcmp(w, argv[i]) == 0;
	}
	if (ok && argv[i])
		ok = false; /* whole commands only: never a prefix */
	strvec_free(&words);
	return ok;
}

/* An operand as a deny entry compares it: without a refspec's forcing '+',
 * a leading "./" or a trailing '/', so `+main`, `./keep/` and `keep` are
 * the same name. */
static char *operand_form(const char *w)
{
	if (*w == '+')
		w++;
	while (w[0] == '.' && w[1] == '/')
		for (w += 2; *w == '/';)
			w++;
	char *s = xstrdup(w);
	for (size_t n = strlen(s); n > 1 && s[n - 1] == '/'; n--)
		s[n - 1] = '\0';
	return s;
}

static bool operand_equal(const char *pat, const char *word)
{
	char *p = operand_form(pat), *w = operand_form(word);
	bool glob = strpbrk(p, "*?[") != NULL;
	bool same = glob ? fnmatch(p, w, 0) == 0 : strcmp(p, w) == 0;
	/* A refspec names its source and its destination: either counts. */
	const char *colon = strchr(w, ':');
	if (!same && colon) {
		char *src = xstrndup(w, (size_t)(colon - w));
		char *dst = operand_form(colon + 1);
		same = glob ? fnmatch(p, src, 0) == 0 || fnmatch(p, dst, 0) == 0
		            : strcmp(p, src) == 0 || strcmp(p, dst) == 0;
		free(src);
		free(dst);
	}
	free(p);
	free(w);
	return same;
}

bool policy_entry_names(const char *entry, char *const *argv)
{
	struct strvec words;
	strvec_init(&words);
	split_entry(entry, &words);
	/* It must name its program: an entry of options and `*` names nothing. */
	bool ok = words.len > 0 && argv[0] && words.items[0][0] != '-' && strcmp(words.items[0], "*") != 0;
	size_t at = 0;
	for (size_t i = 0; ok && i < words.len; i++) {
		const char *w = words.items[i];
		/* Options are the verdict's business; a lone * names nothing. */
		if ((w[0] == '-' && w[1]) || strcmp(w, "*") == 0)
			continue;
		bool found = false;
		for (; argv[at] && !found; at++)
			found = i == 0 ? strcmp(w, argv[at]) == 0 || strcmp(base_of(w), base_of(argv[at])) == 0
			               : operand_equal(w, argv[at]);
		ok = found;
	}
	strvec_free(&words);
	return ok;
}

/* One of the lists: absent is empty; otherwise an array of strings. */
static int read_string_array(json_t *root, const char *key, struct strvec *out, const char *name,
                             char **error)
{
	json_t *arr = json_object_get(root, key);
	if (!arr)
		return 0;
	if (!json_is_array(arr)) {
		*error = xasprintf("%s: \"%s\" must be an array of command strings", name, key);
		return -1;
	}
	size_t i;
	json_t *v;
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v)) {
			*error = xasprintf("%s: \"%s\"[%zu] must be a command string", name, key, i);
			return -1;
		}
		strvec_push(out, json_string_value(v));
	}
	return 0;
}

int allow_list_parse(const char *text, size_t len, const char *name, struct strvec *allow,
                     struct strvec *deny, char **error)
{
	*error = NULL;
	json_error_t err;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
	if (!root) {
		*error = xasprintf("%s:%d:%d: %s (nothing in it is trusted)", name, err.line, err.column,
		                   err.text);
		return -1;
	}
	int rc = 0;
	if (!json_is_object(root)) {
		*error = xasprintf("%s: expected an object with \"allow\" and \"deny\" arrays"
		                   " (nothing in it is trusted)", name);
		rc = -1;
	} else if (read_string_array(root, "allow", allow, name, error) != 0 ||
	           read_string_array(root, "deny", deny, name, error) != 0) {
		rc = -1;
	}
	json_decref(root);
	if (rc != 0) {
		/* Nothing of a malformed list is kept, not even the entries read
		 * before the mistake. */
		strvec_free(allow);
		strvec_free(deny);
	}
	return rc;
}
