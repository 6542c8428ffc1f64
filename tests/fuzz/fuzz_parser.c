/* libFuzzer harness for the parser: any input must parse or fail cleanly,
 * and whatever parses must print, re-parse and copy without trouble.
 *   clang -fsanitize=fuzzer,address -I. tests/fuzz/fuzz_parser.c shell/parser.c \
 *         shell/cond_parse.c shell/lexer.c shell/builder.c shell/ast.c lib/util.c -o fuzz_parser
 *   ./fuzz_parser tests/fuzz/corpus/parser */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shell/ast.h"
#include "shell/parser.h"

static const char *fuzz_alias(void *ctx, const char *name)
{
	(void)ctx;
	if (strcmp(name, "ll") == 0)
		return "ls -l ";
	if (strcmp(name, "ls") == 0)
		return "ls -F";
	if (strcmp(name, "iff") == 0)
		return "if true; then";
	if (strcmp(name, "q") == 0)
		return "echo \"";
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct parser_options opts = {0};
	opts.alias_lookup = fuzz_alias;
	opts.at_eof = true;
	opts.max_depth = 200; /* sanitizer stack frames are big */
	struct node *tree = NULL;
	struct parse_error err;
	if (parse_program((const char *)data, size, &opts, &tree, &err) != 0) {
		free(err.message);
		return 0;
	}
	struct strbuf text;
	strbuf_init(&text);
	ast_print_node(&text, tree);
	struct node *copy = ast_node_copy(tree);
	ast_node_free(tree);
	/* The printed form must parse again (without aliases: they are
	 * already expanded in the tree). */
	opts.alias_lookup = NULL;
	opts.max_depth = 1000;
	struct node *again = NULL;
	if (parse_program(text.data ? text.data : "", text.len, &opts, &again, &err) == 0)
		ast_node_free(again);
	else
		free(err.message);
	ast_node_free(copy);
	strbuf_free(&text);

	/* Line by line, as the shell reads scripts. */
	opts.alias_lookup = fuzz_alias;
	opts.max_depth = 200;
	struct parser *p = parser_create((const char *)data, size, &opts);
	struct node *cmd;
	while (parser_next(p, &cmd) == 1)
		ast_node_free(cmd);
	parser_destroy(p);
	return 0;
}
