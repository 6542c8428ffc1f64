/* set -x: each command about to run, after $PS4, on stderr. */
#include "shell/xtrace.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "shell/expand.h"
#include "shell/vars.h"

static bool needs_quotes(const char *s)
{
	if (!*s)
		return true;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("_./:=@%+,-", c) || c >= 0x80))
			return true;
	}
	return false;
}

static void add_word(struct strbuf *sb, const char *s)
{
	if (needs_quotes(s))
		vars_quote(sb, s);
	else
		strbuf_adds(sb, s);
}

static void add_words(struct strbuf *sb, char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addc(sb, ' ');
		add_word(sb, words[i]);
	}
}

/* A new line in sb, with the expanded $PS4 in front. */
static void line_begin(struct shell *sh, struct strbuf *sb)
{
	strbuf_init(sb);
	const char *ps4 = vars_get(sh, "PS4");
	if (!ps4)
		return;
	/* PS4 expansion must not trace itself. */
	bool saved = sh->opt.xtrace;
	sh->opt.xtrace = false;
	char *p = expand_prompt(sh, ps4);
	sh->opt.xtrace = saved;
	/* bash repeats PS4's first character once per command substitution */
	for (unsigned i = 0; p[0] && i < sh->cmdsub_depth; i++)
		strbuf_addc(sb, p[0]);
	strbuf_adds(sb, p);
	free(p);
}

static void line_end(struct strbuf *sb)
{
	shell_write_message(sb);
	strbuf_free(sb);
}

void xtrace_argv(struct shell *sh, char *const *argv)
{
	struct strbuf sb;
	line_begin(sh, &sb);
	add_words(&sb, argv, strv_len(argv));
	strbuf_addc(&sb, '\n');
	line_end(&sb);
}

void xtrace_text(struct shell *sh, const char *text)
{
	struct strbuf sb;
	line_begin(sh, &sb);
	strbuf_adds(&sb, text);
	strbuf_addc(&sb, '\n');
	line_end(&sb);
}

void xtrace_value(struct shell *sh, const char *value, const char *head_fmt, ...)
{
	struct strbuf sb;
	line_begin(sh, &sb);
	va_list ap;
	va_start(ap, head_fmt);
	strbuf_vaddf(&sb, head_fmt, ap);
	va_end(ap);
	add_word(&sb, value);
	strbuf_addc(&sb, '\n');
	line_end(&sb);
}

void xtrace_array(struct shell *sh, const char *name, bool append, char *const *vals, size_t n)
{
	struct strbuf sb;
	line_begin(sh, &sb);
	strbuf_addf(&sb, "%s%s=(", name, append ? "+" : "");
	add_words(&sb, vals, n);
	strbuf_adds(&sb, ")\n");
	line_end(&sb);
}
