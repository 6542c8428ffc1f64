/* Character-level helpers shared by the parser and the AST printer: name
 * syntax, $'...' escape decoding and here-document delimiter quote removal. */
#ifndef SBSH_LEXER_H
#define SBSH_LEXER_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"

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

#endif
