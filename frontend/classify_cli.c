/* `sbsh --classify [--json] -c STRING | FILE | -`: the static verdict of a
 * command line, printed without running any of it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "frontend/classify_cli.h"
#include "hooks/classify.h"
#include "lib/util.h"

static int usage(void)
{
	fprintf(stderr, "usage: sbsh --classify [--json] -c STRING\n"
	                "       sbsh --classify [--json] FILE|-\n");
	return 2;
}

static char *read_all(FILE *fp, size_t *len)
{
	struct strbuf sb;
	strbuf_init(&sb);
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
		strbuf_addmem(&sb, buf, n);
	*len = sb.len;
	return strbuf_detach(&sb);
}

static json_t *range_json(const struct src_range *r)
{
	return json_pack("{s:{s:I,s:I,s:I},s:{s:I,s:I,s:I}}", "begin", "line", (json_int_t)r->begin.line, "col",
	                 (json_int_t)r->begin.col, "offset", (json_int_t)r->begin.offset, "end", "line",
	                 (json_int_t)r->end.line, "col", (json_int_t)r->end.col, "offset", (json_int_t)r->end.offset);
}

static void print_json(const struct classify_result *res, const char *error)
{
	json_t *root = json_object();
	json_object_set_new(root, "verdict", json_string(verdict_name(res->verdict)));
	json_t *cmds = json_array();
	for (size_t i = 0; i < res->nitems; i++) {
		const struct classify_item *it = &res->items[i];
		json_t *o = json_object();
		json_object_set_new(o, "verdict", json_string(verdict_name(it->verdict)));
		json_object_set_new(o, "reason", json_string(it->reason));
		json_object_set_new(o, "command", json_string(it->command));
		json_object_set_new(o, "depth", json_integer(it->depth));
		if (it->word)
			json_object_set_new(o, "word", json_string(it->word));
		if (it->has_range)
			json_object_set_new(o, "range", range_json(&it->range));
		json_array_append_new(cmds, o);
	}
	json_object_set_new(root, "commands", cmds);
	if (error)
		json_object_set_new(root, "error", json_string(error));
	char *s = json_dumps(root, JSON_INDENT(2) | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER);
	if (s) {
		puts(s);
		free(s);
	}
	json_decref(root);
}

static void print_text(const struct classify_result *res, const char *error)
{
	/* The first word of the first line is the verdict; a reason follows
	 * when the line is not SAFE. */
	const struct classify_item *top = NULL;
	for (size_t i = 0; i < res->nitems; i++)
		if (res->items[i].verdict == res->verdict && res->verdict != VERDICT_SAFE) {
			top = &res->items[i];
			break;
		}
	if (error)
		printf("%s %s\n", verdict_name(res->verdict), error);
	else if (top && top->reason[0])
		printf("%s %s\n", verdict_name(res->verdict), top->reason);
	else
		printf("%s\n", verdict_name(res->verdict));
	for (size_t i = 0; i < res->nitems; i++) {
		const struct classify_item *it = &res->items[i];
		printf("%*s%-10s %s", (int)(2 + 2 * it->depth), "", verdict_name(it->verdict), it->command);
		if (it->reason[0])
			printf("  # %s", it->reason);
		putchar('\n');
	}
}

int classify_main(int argc, char **argv, char *const *rules)
{
	bool json = false;
	const char *command = NULL;
	const char *file = NULL;
	int i = 2;
	for (; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			json = true;
		} else if (strcmp(argv[i], "-c") == 0) {
			if (i + 1 >= argc)
				return usage();
			command = argv[++i];
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "sbsh: --classify: unknown option %s\n", argv[i]);
			return usage();
		} else {
			break;
		}
	}
	if (!command) {
		if (i >= argc)
			return usage();
		file = argv[i];
	}

	char *text;
	size_t len;
	if (command) {
		text = xstrdup(command);
		len = strlen(text);
	} else {
		FILE *fp = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
		if (!fp) {
			fprintf(stderr, "sbsh: --classify: %s: %s\n", file, strerror(errno));
			return 2;
		}
		text = read_all(fp, &len);
		if (fp != stdin)
			fclose(fp);
	}

	struct classify_env env = {0};
	struct classifier *cl = classifier_create(&env);
	for (char *const *r = rules; r && *r; r++) {
		char *why = NULL;
		classifier_add_rule(cl, *r, &why); /* checked when the config was read */
		free(why);
	}
	struct classify_result res;
	classify_result_init(&res);
	char *error = NULL;
	int rc = classify_text(cl, text, len, &res, &error) == 0 ? 0 : 2;
	if (json)
		print_json(&res, error);
	else
		print_text(&res, error);
	if (error)
		fprintf(stderr, "sbsh: --classify: %s: %s\n", command ? "-c" : file, error);
	fflush(stdout);
	free(error);
	classify_result_free(&res);
	classifier_destroy(cl);
	free(text);
	return rc;
}
