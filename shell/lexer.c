/* Character-level helpers shared by the parser and the AST printer. */
#include "shell/lexer.h"

#include <stdint.h>
#include <string.h>

size_t lex_decode_dollar_escape(const char *s, size_t n, struct strbuf *out)
{
	if (n == 0) {
		strbuf_addc(out, '\\');
		return 0;
	}
	unsigned char c = (unsigned char)s[0];
	switch (c) {
	case 'n': strbuf_addc(out, '\n'); return 1;
	case 't': strbuf_addc(out, '\t'); return 1;
	case 'r': strbuf_addc(out, '\r'); return 1;
	case 'a': strbuf_addc(out, '\a'); return 1;
	case 'b': strbuf_addc(out, '\b'); return 1;
	case 'f': strbuf_addc(out, '\f'); return 1;
	case 'v': strbuf_addc(out, '\v'); return 1;
	case 'e':
	case 'E': strbuf_addc(out, 033); return 1;
	case '\\':
	case '\'':
	case '"':
	case '?': strbuf_addc(out, (char)c); return 1;
	case 'c':
		if (n >= 2) {
			unsigned char x = (unsigned char)s[1];
			strbuf_addc(out, x == '?' ? 0x7f : (char)(x & 0x1f));
			return 2;
		}
		strbuf_addmem(out, "\\c", 2);
		return 1;
	case 'x':
	case 'u':
	case 'U': {
		size_t max = c == 'x' ? 2 : c == 'u' ? 4 : 8;
		size_t i = 1;
		uint32_t v = 0;
		while (i <= max && i < n && hex_digit_value((unsigned char)s[i]) >= 0) {
			v = v * 16 + (uint32_t)hex_digit_value((unsigned char)s[i]);
			i++;
		}
		if (i == 1) {
			/* No digits: keep the text as written. */
			strbuf_addc(out, '\\');
			strbuf_addc(out, (char)c);
			return 1;
		}
		if (c == 'x')
			strbuf_addc(out, (char)v);
		else
			strbuf_add_utf8(out, v);
		return i;
	}
	default:
		if (c >= '0' && c <= '7') {
			size_t i = 0;
			unsigned v = 0;
			while (i < 3 && i < n && s[i] >= '0' && s[i] <= '7') {
				v = v * 8 + (unsigned)(s[i] - '0');
				i++;
			}
			strbuf_addc(out, (char)(v & 0xff));
			return i;
		}
		strbuf_addc(out, '\\');
		strbuf_addc(out, (char)c);
		return 1;
	}
}

void lex_decode_dollar_text(const char *s, size_t n, struct strbuf *out)
{
	for (size_t i = 0; i < n;) {
		if (s[i] == '\\') {
			i++;
			i += lex_decode_dollar_escape(s + i, n - i, out);
		} else {
			strbuf_addc(out, s[i++]);
		}
	}
}

char *lex_heredoc_delimiter(const char *raw, size_t len, bool *quoted)
{
	struct strbuf sb;
	strbuf_init(&sb);
	*quoted = false;
	size_t i = 0;
	while (i < len) {
		char c = raw[i];
		if (c == '\\') {
			if (i + 1 < len && raw[i + 1] == '\n') {
				i += 2;
				continue;
			}
			*quoted = true;
			if (i + 1 < len)
				strbuf_addc(&sb, raw[i + 1]);
			i += 2;
		} else if (c == '\'') {
			*quoted = true;
			i++;
			while (i < len && raw[i] != '\'')
				strbuf_addc(&sb, raw[i++]);
			i++;
		} else if (c == '"') {
			*quoted = true;
			i++;
			while (i < len && raw[i] != '"') {
				if (raw[i] == '\\' && i + 1 < len &&
				    strchr("$`\"\\\n", raw[i + 1])) {
					if (raw[i + 1] != '\n')
						strbuf_addc(&sb, raw[i + 1]);
					i += 2;
					continue;
				}
				strbuf_addc(&sb, raw[i++]);
			}
			i++;
		} else if (c == '$' && i + 1 < len && (raw[i + 1] == '\'' || raw[i + 1] == '"')) {
			/* $'..' and $".." delimiters: bash takes the quoted text as is. */
			i++;
		} else {
			strbuf_addc(&sb, c);
			i++;
		}
	}
	return strbuf_detach(&sb);
}

void lex_quote_dollar(struct strbuf *out, const char *text, size_t len)
{
	strbuf_adds(out, "$'");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		switch (c) {
		case '\\': strbuf_adds(out, "\\\\"); break;
		case '\'': strbuf_adds(out, "\\'"); break;
		case '\n': strbuf_adds(out, "\\n"); break;
		case '\t': strbuf_adds(out, "\\t"); break;
		case '\r': strbuf_adds(out, "\\r"); break;
		case '\a': strbuf_adds(out, "\\a"); break;
		case '\b': strbuf_adds(out, "\\b"); break;
		case '\f': strbuf_adds(out, "\\f"); break;
		case '\v': strbuf_adds(out, "\\v"); break;
		case 033: strbuf_adds(out, "\\E"); break;
		default:
			if (c < 0x20 || c == 0x7f)
				strbuf_addf(out, "\\%03o", c);
			else
				strbuf_addc(out, (char)c);
		}
	}
	strbuf_addc(out, '\'');
}
