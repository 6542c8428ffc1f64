/* libFuzzer harness for the allow-list reader (allow_list_parse in
 * hooks/allow_match.c): the input is the text of an .agentcommands.json or
 * allow.json. Checks against jansson read on its own: bad JSON yields an
 * error naming the file, line and column; a well-formed list yields exactly
 * its strings; anything else an error naming the file; and whenever there
 * is an error, no entry at all is trusted. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hooks/approve.h"
#include "lib/util.h"

static const char name[] = "fuzz/.agentcommands.json";

/* -1: not a well-formed list (the reader must refuse it); otherwise the
 * number of strings in key (0 when absent), which must all be in got. */
static long expected_list(json_t *root, const char *key, const struct strvec *got)
{
	json_t *arr = json_object_get(root, key);
	if (!arr)
		return got->len == 0 ? 0 : -2;
	if (!json_is_array(arr))
		return -1;
	size_t i;
	json_t *v;
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v))
			return -1;
		if (i < got->len && strcmp(got->items[i], json_string_value(v)) != 0)
			return -2;
	}
	return (long)json_array_size(arr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strvec allow, deny;
	strvec_init(&allow);
	strvec_init(&deny);
	char *error = NULL;
	int rc = allow_list_parse((const char *)data, size, name, &allow, &deny, &error);
	if ((rc == 0) != (error == NULL))
		abort(); /* an error always comes with its message, and only then */
	if (rc != 0 && (allow.len != 0 || deny.len != 0))
		abort(); /* nothing in a malformed list is trusted */
	if (error && strncmp(error, name, sizeof name - 1) != 0)
		abort(); /* the message names the file */

	json_error_t jerr;
	json_t *root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		/* Bad JSON: refused, with the position jansson found. */
		char *where = xasprintf("%s:%d:%d: ", name, jerr.line, jerr.column);
		if (rc == 0 || strncmp(error, where, strlen(where)) != 0)
			abort();
		free(where);
	} else if (!json_is_object(root)) {
		if (rc == 0)
			abort();
	} else {
		long na = expected_list(root, "allow", &allow);
		long nd = expected_list(root, "deny", &deny);
		if (na == -2 || nd == -2)
			abort(); /* an entry that is not in the file */
		if (na < 0 || nd < 0) {
			if (rc == 0)
				abort();
		} else if (rc != 0 || allow.len != (size_t)na || deny.len != (size_t)nd) {
			abort(); /* a good list read wrong */
		}
	}
	json_decref(root);

	/* What was read goes to the matcher as the shell would use it. */
	char *argv[] = {"git", "status", "--short", NULL};
	for (size_t i = 0; i < allow.len; i++)
		policy_entry_matches(allow.items[i], argv);
	for (size_t i = 0; i < deny.len; i++)
		policy_entry_matches(deny.items[i], argv + 1);
	free(error);
	strvec_free(&allow);
	strvec_free(&deny);
	return 0;
}
