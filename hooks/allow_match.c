/* Allow-list entry matching, apart from approve.c (which needs jansson,
 * the broker and the shell) so the fuzzer can link just this. */
#include "approve.h"

#include <fnmatch.h>
#include <stdbool.h>
#include <string.h>

#include "util.h"

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
			ok = fnmatch(w, argv[i], 0) == 0;
		else
			ok = strcmp(w, argv[i]) == 0;
	}
	if (ok && argv[i])
		ok = false; /* whole commands only: never a prefix */
	strvec_free(&words);
	return ok;
}
