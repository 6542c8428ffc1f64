/* libFuzzer harness for the classifier: any command line must be judged
 * without trouble, a line that does not parse is never SAFE, and the
 * dynamic pass must take any argv (the input's lines). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hooks/classify.h"
#include "lib/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* No git config: the harness must not depend on the machine's files. */
	struct classify_env env = {.home = "/nonexistent", .xdg_config_home = "/nonexistent",
	                           .cwd = "/nonexistent", .no_git_config = true};
	struct classifier *cl = classifier_create(&env);

	struct classify_result res;
	classify_result_init(&res);
	char *error = NULL;
	if (classify_text(cl, (const char *)data, size, &res, &error) != 0 &&
	    res.verdict == VERDICT_SAFE)
		abort(); /* a line that cannot be read is never safe */
	for (size_t i = 0; i < res.nitems; i++)
		if (!res.items[i].reason || !res.items[i].command)
			abort();
	free(error);
	classify_result_free(&res);

	/* The same bytes as an argv, one word per line, for the dynamic pass. */
	char *copy = xmalloc(size + 1);
	memcpy(copy, data, size);
	copy[size] = '\0';
	struct strvec argv;
	strvec_init(&argv);
	char *save = NULL;
	for (char *w = strtok_r(copy, "\n", &save); w && argv.len < 64; w = strtok_r(NULL, "\n", &save))
		strvec_push(&argv, w);
	if (argv.len > 0) {
		static const enum classify_target targets[] = {CLASSIFY_PROGRAM, CLASSIFY_BUILTIN};
		for (size_t t = 0; t < 2; t++) {
			classify_result_init(&res);
			classify_argv(cl, argv.items, targets[t] == CLASSIFY_PROGRAM ? argv.items[0] : NULL,
			              targets[t], &res);
			classify_result_free(&res);
		}
	}
	strvec_free(&argv);
	free(copy);
	classifier_destroy(cl);
	return 0;
}
