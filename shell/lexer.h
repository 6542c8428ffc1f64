/* The lexer: shell text to tokens, and the words in them to the parts of
 * ast.h (quoting, parameter expansions, $( ), $(( )), here-document
 * bodies...). The parser (parser.c) asks for one token at a time, because
 * what a token is depends on where the grammar is; it also asks for the
 * pieces that only it knows are coming (the body of (( )) and of
 * for (( )), the regex after =~). Where a word holds a program, the lexer
 * asks the grammar in turn, through the hooks of struct lex_grammar.
 *
 * Also the character-level helpers that the AST printer, expansion and
 * printf share with it: name syntax, $'...' escapes, here-document
 * delimiter quote removal. */
#ifndef SBSH_LEXER_H
#define SBSH_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "lib/util.h"
#include "shell/ast.h"
#include "shell/builder.h"
#include "shell/parser.h"

/* ---- characters --------------------------------------------------------- */

static inline bool lex_is_name_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool lex_is_name_char(int c)
{
	return lex_is_name_start(c) || (c >= '0' && c <= '9');
}

static inline bool lex_is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* Characters that end an unquoted word (besides EOF). */
static inline bool lex_is_word_break(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' ||
	       c == '<' || c == '>' || c == '(' || c == ')';
}

/* Decodes one escape of $'...' starting just after the backslash: s[0..n)
 * holds the rest of the quoted text. Appends the decoded bytes to out and
 * returns how many bytes of s were used (at least 1 when n > 0). */
size_t lex_decode_dollar_escape(const char *s, size_t n, struct strbuf *out);
/* Decodes every backslash escape of s (n bytes) as $'...' does, appending
 * to out: the body of a $'...' word, or ${x@E}. */
void lex_decode_dollar_text(const char *s, size_t n, struct strbuf *out);

/* Quote removal on the raw text of a here-document delimiter word; *quoted
 * tells whether any part of it was quoted (the body is then literal).
 * Backslash-newline pairs are dropped. Caller frees. */
char *lex_heredoc_delimiter(const char *raw, size_t len, bool *quoted);

/* Appends text as a $'...' quoted string that decodes back to the same bytes. */
void lex_quote_dollar(struct strbuf *out, const char *text, size_t len);

/* ---- tokens ------------------------------------------------------------- */

enum tok_kind {
	TK_EOF,
	TK_NEWLINE,
	TK_WORD,
	TK_IO_NUMBER,
	TK_SEMI,
	TK_DSEMI,
	TK_SEMI_AND,
	TK_DSEMI_AND,
	TK_AMP,
	TK_AND_IF,
	TK_PIPE,
	TK_OR_IF,
	TK_PIPE_AMP,
	TK_LPAREN,
	TK_RPAREN,
	TK_LESS,      /* the redirection operators run from here... */
	TK_GREAT,
	TK_DGREAT,
	TK_CLOBBER,
	TK_LESSGREAT,
	TK_LESSAND,
	TK_GREATAND,
	TK_DLESS,
	TK_DLESSDASH,
	TK_TLESS,
	TK_AND_GREAT,
	TK_AND_DGREAT, /* ...to here */
};

/* Plain words up to this length stay inside the token until taken, so the
 * keywords (`then`, `fi`, `done`...) never become struct words. */
#define TOKEN_TEXT_MAX 23

struct token {
	enum tok_kind kind;
	struct src_range range;
	/* TK_WORD (NULL for array assignments, and for a short plain word
	 * until lex_token_word() makes it: see `text`). */
	struct word *word;
	int io_number;
	/* TK_IO_NUMBER of the form {NAME}> (bash): the variable's name; it
	 * gets the descriptor the shell picks. io_number is then -1. */
	const char *io_name;
	/* A single unquoted literal: candidate reserved word or alias. */
	bool plain;
	bool alias_checked; /* the parser found no alias for it */
	/* It comes right after the text of an alias ending in a blank, so it
	 * is checked for an alias too, wherever it stands (bash). */
	bool after_blank_alias;
	/* A short plain word not made yet: its text. */
	bool lazy;
	char text[TOKEN_TEXT_MAX + 1];
	size_t text_len;
	/* lex_next_token() clears the fields from here on one by one: a new
	 * one needs its line there. */
	/* NAME=value / NAME[i]=value / NAME+=value: word holds the whole text;
	 * its first asg_prefix parts are the `NAME=` part, and the value
	 * starts at asg_value_begin. */
	bool is_asg;
	bool asg_append;
	bool asg_array;
	size_t asg_prefix;
	struct src_pos asg_value_begin;
	char *asg_name;
	struct word *asg_index;
	struct word **asg_elems;
	size_t asg_nelems;
	/* Where the raw text is, for here-document delimiters and messages. */
	size_t raw_frame;
	unsigned raw_frame_id;
	size_t raw_begin, raw_end;
};

static inline bool lex_is_redir_token(enum tok_kind k)
{
	return k >= TK_LESS && k <= TK_AND_DGREAT;
}

/* A word of one unquoted literal. */
static inline bool lex_word_is_plain(const struct word *w)
{
	return w && w->nparts == 1 && w->parts[0].kind == WORD_LITERAL &&
	       w->parts[0].u.literal.quote == QUOTE_NONE;
}

/* The text of a plain word token, else NULL. */
static inline const char *lex_token_plain(const struct token *t)
{
	if (!t->plain)
		return NULL;
	return t->lazy ? t->text : t->word->parts[0].u.literal.text;
}

/* The token is the plain word kw (a reserved word, in the right place). */
static inline bool lex_token_is_kw(const struct token *t, const char *kw)
{
	const char *s = t->kind == TK_WORD ? lex_token_plain(t) : NULL;
	return s && s[0] == kw[0] && strcmp(s, kw) == 0;
}

/* ---- the lexer ---------------------------------------------------------- */

struct lexer;

/* A place in the raw text being read (the text itself, or an alias value). */
struct lex_mark {
	size_t frame;
	unsigned frame_id;
	size_t pos;
};

/* What the lexer needs from the grammar: command substitutions hold whole
 * programs. ctx is the grammar_ctx given to lex_init(). Errors are left in
 * the lexer (see `failed`). */
struct lex_grammar {
	/* $( ) and <( ): the commands from the cursor up to the `)` that
	 * closes them, which is consumed; *close gets where it stands. NULL
	 * for an empty body or on error. */
	struct node *(*subprogram)(void *ctx, struct lex_mark *close);
	/* The unescaped body of `...`, which started at `at`, as a program of
	 * its own. NULL for an empty body or on error. */
	struct node *(*text_program)(void *ctx, const char *text, size_t len, struct src_pos at);
	/* A lexer, with a grammar behind it, for text extracted from this
	 * one (an unquoted here-document body) that started at `at` and
	 * nests one level deeper; text_lexer_free(sub's grammar_ctx) frees
	 * it. */
	struct lexer *(*text_lexer)(void *ctx, const char *text, size_t len, struct src_pos at);
	void (*text_lexer_free)(void *sub_ctx);
};

struct lex_frame;
struct lex_heredoc;

/* The owner (the parser) reads `failed`, `err` and `depth`, and sets
 * `arena`; the rest is the lexer's. */
struct lexer {
	/* Where words (and the parser's nodes) are built. */
	struct ast_arena *arena;
	/* Scratch arrays, for the lexer and its owner. */
	struct scratch scratch;
	/* The first error; after it every function returns NULL/false. */
	bool failed;
	struct parse_error err;
	/* Set by the parser: the closing word of the compound command being
	 * read (`fi`, `done`, `}`...), for err.wait_for at the end of input. */
	const char *expect;
	/* Nesting of constructs, against the limit (lex_enter). */
	unsigned depth, max_depth;

	const struct lex_grammar *grammar;
	void *grammar_ctx;
	const char *source_name;
	unsigned first_line;
	bool at_eof;
	/* Input: the text at the bottom, alias values being re-read above. */
	struct lex_frame *frames;
	size_t nframes, capframes;
	unsigned next_frame_id;
	/* Position tracking of the text. */
	unsigned line;
	size_t line_start;
	size_t base_offset; /* added to offsets (text extracted from another) */
	unsigned first_col; /* column of the first byte of the text */
	/* Here-documents whose bodies start after the next newline. */
	struct lex_heredoc *hd;
	size_t nhd, caphd;
	/* Literal text being gathered; nested words stack theirs on top. */
	struct strbuf lit;
	/* Extglob groups are words' parts: with the option on, and inside
	 * [[ ]] (!( ) only in a pattern after == or !=), as bash reads them. */
	const bool *extglob;
	bool in_cond;
	bool cond_pattern; /* lexing the pattern after [[ x == */
	/* Whether the next word may be a command's assignment, where a
	 * subscript may hold blanks (a[i + 1]=v): true but while the parser
	 * reads a simple command's arguments. */
	bool cmd_prefix;
};

/* The lexer keeps a pointer to text: it must outlive the lexer. From opts
 * it takes source_name, first_line, at_eof and max_depth. */
void lex_init(struct lexer *lx, const char *text, size_t len, const struct parser_options *opts,
              const struct lex_grammar *grammar, void *grammar_ctx);
/* Text extracted from a larger one, whose first byte stood at `at` there
 * (its line number comes through opts->first_line): offsets and the first
 * line's columns count from there, and depth levels are used already. */
void lex_place(struct lexer *lx, struct src_pos at, unsigned depth);
/* Frees what the lexer holds (not the arena). */
void lex_free(struct lexer *lx);

/* The next token; after a newline (or at the end) the bodies of pending
 * here-documents are read too. */
void lex_next_token(struct lexer *lx, struct token *t);
/* A token's words are in the arena: dropping it frees nothing. */
void lex_token_clear(struct token *t);
/* A short plain word kept in the token, made into a struct word. */
struct word *lex_token_word(struct lexer *lx, const struct token *t);
/* The token as written, for messages and here-document delimiters
 * (caller frees). */
char *lex_token_text(const struct lexer *lx, const struct token *t);
/* Where the token starts in the raw text. */
struct lex_mark lex_token_mark(const struct token *t);
/* An array assignment token (t->asg_array) as one word NAME=(e1 e2 ...),
 * as the declaration builtins take it; its elements move into the word. */
struct word *lex_array_word(struct lexer *lx, struct token *t);
/* A here-document with the delimiter word t: its body is read after the
 * next newline into the returned word (in the arena). */
struct word *lex_add_heredoc(struct lexer *lx, const struct token *t, bool strip, bool *quoted);

/* Right after a `(` token: whether the next character is a second `(`
 * that opens arithmetic, i.e. the parentheses close as `))`, as bash
 * decides before falling back to a subshell. */
bool lex_at_arith(const struct lexer *lx);
/* Right after that `(` token: the second `(`, the expression, and `))`. */
bool lex_arith_command(struct lexer *lx, struct word **expr);
/* Right after the `(` token of `for ((`: the three expressions (NULL when
 * blank) and `))`. */
bool lex_arith_for(struct lexer *lx, struct word **init, struct word **cond, struct word **step);
/* After =~ in [[ ]]: blanks, then the regex word (NULL on error). */
struct word *lex_regex_word(struct lexer *lx);
/* The next character, line continuations skipped (-1 at the end). */
int lex_peek(const struct lexer *lx);

/* Where the cursor is. */
struct src_pos lex_pos(const struct lexer *lx);
/* Byte offset in the text, and its line, just past what has been read. */
size_t lex_offset(const struct lexer *lx);
unsigned lex_line(const struct lexer *lx);
/* The text ends in an unescaped backslash-newline: a line-by-line reader
 * must read more before running the command. */
bool lex_ends_with_continuation(const struct lexer *lx);

/* Re-reads an alias's value in place of its name (copied). */
void lex_push_alias(struct lexer *lx, const char *name, const char *value);
/* name's value is being re-read already (no recursion). */
bool lex_alias_active(const struct lexer *lx, const char *name);

/* Records the first error (message as printf formats it). */
void lex_fail_at(struct lexer *lx, struct src_pos pos, bool incomplete, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* "unexpected EOF while looking for matching `what'", at the cursor. */
void lex_fail_eof(struct lexer *lx, const char *what);
/* The error just recorded by lex_fail_at waits for text (see struct
 * parse_error's wait_for); one too long to keep waits for anything. */
void lex_fail_wait(struct lexer *lx, const char *text, bool line, bool strip);
/* One level deeper; false (and the error recorded) past the limit. */
bool lex_enter(struct lexer *lx);
void lex_leave(struct lexer *lx);

#endif
