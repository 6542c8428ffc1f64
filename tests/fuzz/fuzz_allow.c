/* libFuzzer harness for the allow-list matcher: the first line is an
 * entry, the rest an argv (one word per line). Checks it never crashes and
 * that an entry only ever matches a command of as many words as it has. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hooks/approve.h"
#include "lib/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = xmalloc(size + 1);
	memcpy(copy, data, size);
	copy[size] = '\0';
	char *nl = strchr(copy, '\n');
	struct strvec argv;
	strvec_init(&argv);
	if (nl) {
		*nl = '\0';
		char *p = nl + 1;
		for (;;) {
			char *end = strchr(p, '\n');
			if (end)
				*end = '\0';
			strvec_push(&argv, p);
			if (!end)
				break;
			p = end + 1;
		}
	}
	char *none[] = {NULL};
	bool ok = policy_entry_matches(copy, argv.len ? argv.items : none);
	/* An entry of plain words (no quotes, escapes or patterns) matches
	 * exactly the argv of those words: never a prefix, never more. */
	if (ok && !strpbrk(copy, "'\"\\*?[") && argv.len > 0) {
		size_t words = 0;
		bool in = false;
		for (const char *c = copy; *c; c++) {
			bool blank = *c == ' ' || *c == '\t';
			if (!blank && !in)
				words++;
			in = !blank;
		}
		if (words != argv.len)
			abort();
	}
	/* The empty argv never matches, nor is it named by a deny entry. */
	if (policy_entry_matches(copy, none) || policy_entry_names(copy, none))
		abort();
	policy_entry_names(copy, argv.len ? argv.items : none);
	strvec_free(&argv);
	free(copy);
	return 0;
}
