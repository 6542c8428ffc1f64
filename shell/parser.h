/* The parser: shell text to the AST in ast.h. Recursive descent, no globals,
 * no longjmp; the first error is kept with its position. */
#ifndef SBSH_PARSER_H
#define SBSH_PARSER_H

#include <stdbool.h>
#include <stddef.h>

#include "shell/ast.h"

/* Returns the replacement text for an alias, or NULL. Called only for words
 * in command position that are entirely unquoted literals. */
typedef const char *(*parser_alias_fn)(void *ctx, const char *name);

struct parse_error {
	char *message;      /* e.g. "unexpected `)'", "unterminated quoted string" */
	struct src_pos pos; /* where it was noticed */
	/* The text ended before the construct did (open quote, here-doc, `if`
	 * without `fi`, trailing `|` or `&&`...). An interactive or line-by-line
	 * reader appends more input and parses again. */
	bool incomplete;
	/* When incomplete: what more input must hold before parsing it again
	 * can end otherwise (a closing quote, `fi`, `)`), or with wait_line the
	 * whole line a here-document ends at (after its tabs if wait_strip).
	 * Empty: any input may. Lets a line-by-line reader stay linear. */
	char wait_for[32];
	bool wait_line, wait_strip;
	/* When incomplete with nothing open (wait_for empty): the text ended
	 * where a command must follow (`&&`, `||`, `|`), so a plain line that
	 * itself ends so cannot complete it either. */
	bool wait_command;
};

struct parser_options {
	const char *source_name; /* for messages; may be NULL */
	unsigned first_line;     /* line number of the text's first line (>= 1) */
	parser_alias_fn alias_lookup; /* NULL: no alias substitution */
	void *alias_ctx;
	bool posix;              /* reserved: refuse bash-only syntax */
	/* At the real end of input a here-document without its delimiter line
	 * ends at EOF (with a warning on stderr as bash does) instead of being
	 * reported as incomplete. */
	bool at_eof;
	unsigned max_depth;      /* nesting limit; 0 = default (1000) */
	/* The shell's shopt extglob, read as each word is lexed (a script may
	 * turn it on between commands); NULL: off. */
	const bool *extglob;
};

struct parser;

/* The parser keeps a pointer to text: it must outlive the parser. */
struct parser *parser_create(const char *text, size_t len, const struct parser_options *opts);
void parser_destroy(struct parser *p);

/* Parses the next complete command: a list up to an unquoted newline (with
 * its here-document bodies) or the end of the text. Blank lines and comments
 * are skipped.
 *   1: *out is a NODE_LIST (caller frees with ast_node_free)
 *   0: end of text, nothing more
 *  -1: syntax error, see parser_error(); the parser is not usable after it */
int parser_next(struct parser *p, struct node **out);
const struct parse_error *parser_error(const struct parser *p);
/* Byte offset just past what parser_next() has consumed. */
size_t parser_offset(const struct parser *p);
/* Line number at parser_offset(). */
unsigned parser_line(const struct parser *p);

/* Parses a whole text into one NODE_LIST (empty list for empty text).
 * Returns 0, or -1 with *err filled (free err->message). */
int parse_program(const char *text, size_t len, const struct parser_options *opts,
                  struct node **out, struct parse_error *err);

/* True when s is a valid shell variable name. */
bool parse_is_name(const char *s, size_t len);

#endif
