/* printf: POSIX printf plus the bash extensions agents use (%q, %(fmt)T,
 * -v var). Output is built in a buffer so -v can store it and so a
 * conversion error mid-way still prints what came before, as bash does. */
#include "builtins/builtins.h"
#include "shell/expand.h"
#include "shell/lexer.h"
#include "shell/vars.h"
#include "shell/arith.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct printf_state {
	struct shell *sh;
	char **args;      /* remaining arguments */
	int nargs;
	int next;         /* index of the next unused argument */
	bool failed;      /* an argument was not a valid number: status 1 */
	bool stop;        /* \c in %b: no more output at all */
	struct strbuf out;
};

/* Decodes one backslash escape starting at p (just after the backslash).
 * in_b selects %b rules (\0NNN, \c ends output) over format-string rules.
 * Returns the number of characters consumed after the backslash; sets
 * *stop for \c in %b. */
static size_t decode_escape(const char *p, bool in_b, struct strbuf *out, bool *stop)
{
	switch (*p) {
	case 'a': strbuf_addc(out, '\a'); return 1;
	case 'b': strbuf_addc(out, '\b'); return 1;
	case 'e':
	case 'E': strbuf_addc(out, '\033'); return 1;
	case 'f': strbuf_addc(out, '\f'); return 1;
	case 'n': strbuf_addc(out, '\n'); return 1;
	case 'r': strbuf_addc(out, '\r'); return 1;
	case 't': strbuf_addc(out, '\t'); return 1;
	case 'v': strbuf_addc(out, '\v'); return 1;
	case '\\': strbuf_addc(out, '\\'); return 1;
	case '"':
		if (in_b)
			break;
		strbuf_addc(out, '"');
		return 1;
	case '\'':
		if (in_b)
			break;
		strbuf_addc(out, '\'');
		return 1;
	case '?':
		if (in_b)
			break;
		strbuf_addc(out, '?');
		return 1;
	case 'c':
		if (!in_b)
			break;
		*stop = true;
		return 1;
	case 'x': {
		size_t n = 0;
		unsigned value = 0;
		for (int d; n < 2 && (d = hex_digit_value(p[1 + n])) >= 0; n++)
			value = value * 16 + (unsigned)d;
		if (n == 0)
			break;
		strbuf_addc(out, (char)value);
		return 1 + n;
	}
	case 'u':
	case 'U': {
		size_t max = *p == 'u' ? 4 : 8, n = 0;
		unsigned long code = 0;
		for (int d; n < max && (d = hex_digit_value(p[1 + n])) >= 0; n++)
			code = code * 16 + (unsigned long)d;
		if (n == 0)
			break;
		strbuf_add_utf8(out, code);
		return 1 + n;
	}
	default:
		if (*p >= '0' && *p <= '7') {
			/* Format: \NNN, 1-3 digits. %b: \0NNN (0 plus up to 3) or \NNN. */
			size_t start = in_b && *p == '0' ? 1 : 0;
			size_t n = start;
			unsigned value = 0;
			while (n < start + 3 && p[n] >= '0' && p[n] <= '7')
				value = value * 8 + (unsigned)(p[n++] - '0');
			strbuf_addc(out, (char)(value & 0xff));
			return n;
		}
		break;
	}
	/* Not an escape: keep the backslash and the character. */
	strbuf_addc(out, '\\');
	if (*p == '\0')
		return 0;
	strbuf_addc(out, *p);
	return 1;
}

static const char *next_arg(struct printf_state *st)
{
	if (st->next < st->nargs)
		return st->args[st->next++];
	return NULL;
}

/* A leading ' or " makes the value the code of the next character: its
 * code point when a UTF-8 sequence starts there (the shell's text is
 * UTF-8, as for ${#x}), else the byte. Like bash, the sequence is decoded
 * by its shape alone, so F4 91 84 91 gives 0x111111; overlong forms are
 * refused. */
static bool char_code_arg(const char *arg, intmax_t *value)
{
	if (arg[0] != '\'' && arg[0] != '"')
		return false;
	const unsigned char *s = (const unsigned char *)arg + 1;
	*value = s[0];
	int more = s[0] >= 0xF0 && s[0] < 0xF8 ? 3 : s[0] >= 0xE0 && s[0] < 0xF0 ? 2 : s[0] >= 0xC0 && s[0] < 0xE0 ? 1 : 0;
	intmax_t code = s[0] & (0x3F >> more);
	for (int i = 1; i <= more; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return true;
		code = code << 6 | (s[i] & 0x3F);
	}
	/* An overlong form is no character: the byte again. */
	static const intmax_t least[] = {0, 0x80, 0x800, 0x10000};
	if (more && code >= least[more])
		*value = code;
	return true;
}

static void report_bad_number(struct printf_state *st, const char *arg, const char *end, int err)
{
	if (err == ERANGE) {
		/* bash only warns about overflow and keeps status 0. */
		shell_error(st->sh, "printf: warning: %s: %s", arg, strerror(ERANGE));
		if (*end == '\0')
			return;
	}
	shell_error(st->sh, "printf: %s: invalid number", arg);
	st->failed = true;
}

static intmax_t signed_arg(struct printf_state *st)
{
	const char *arg = next_arg(st);
	intmax_t value = 0;
	if (!arg || !*arg || char_code_arg(arg, &value))
		return value;
	char *end;
	errno = 0;
	value = strtoimax(arg, &end, 0);
	if (end == arg || *end != '\0' || errno == ERANGE)
		report_bad_number(st, arg, end, end == arg ? 0 : errno);
	return value;
}

static uintmax_t unsigned_arg(struct printf_state *st)
{
	const char *arg = next_arg(st);
	intmax_t code;
	if (!arg || !*arg)
		return 0;
	if (char_code_arg(arg, &code))
		return (uintmax_t)code;
	char *end;
	errno = 0;
	uintmax_t value = strtoumax(arg, &end, 0);
	if (end == arg || *end != '\0' || errno == ERANGE)
		report_bad_number(st, arg, end, end == arg ? 0 : errno);
	return value;
}

static long double float_arg(struct printf_state *st)
{
	const char *arg = next_arg(st);
	intmax_t code;
	if (!arg || !*arg)
		return 0;
	if (char_code_arg(arg, &code))
		return (long double)code;
	char *end;
	errno = 0;
	long double value = strtold(arg, &end);
	if (end == arg || *end != '\0') {
		shell_error(st->sh, "printf: %s: invalid number", arg);
		st->failed = true;
	}
	return value;
}

/* Appends s (len bytes) padded to width and cut to precision. */
static void add_padded(struct strbuf *out, const char *s, size_t len, bool left, long width, long precision)
{
	if (precision >= 0 && (size_t)precision < len)
		len = (size_t)precision;
	size_t pad = width > 0 && (size_t)width > len ? (size_t)width - len : 0;
	if (!left)
		for (size_t i = 0; i < pad; i++)
			strbuf_addc(out, ' ');
	strbuf_addmem(out, s, len);
	if (left)
		for (size_t i = 0; i < pad; i++)
			strbuf_addc(out, ' ');
}

/* Characters bash's %q leaves bare; # and ~ only where they are not first
 * (there they would start a comment or a tilde expansion). */
static bool needs_quoting(const char *s, const char *p)
{
	unsigned char c = (unsigned char)*p;
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80)
		return false;
	if (strchr("_-./:=+@%", c))
		return false;
	if ((c == '#' || c == '~') && p != s)
		return false;
	return true;
}

/* %q: quoted so the shell reads it back as the same word, in bash's style:
 * backslashes for printable specials, $'...' when control characters occur. */
static void quote_for_shell(struct strbuf *out, const char *s)
{
	if (*s == '\0') {
		strbuf_adds(out, "''");
		return;
	}
	bool has_control = false;
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			has_control = true;
	if (has_control) {
		lex_quote_dollar(out, s, strlen(s));
		return;
	}
	for (const char *p = s; *p; p++) {
		if (needs_quoting(s, p))
			strbuf_addc(out, '\\');
		strbuf_addc(out, *p);
	}
}

/* %(fmt)T: strftime of an epoch time; -1 (or no argument) is now, -2 the
 * shell's start. */
static void add_time(struct printf_state *st, const char *timefmt, bool left, long width, long precision)
{
	const char *arg = st->next < st->nargs ? st->args[st->next] : NULL;
	intmax_t when = arg && *arg ? signed_arg(st) : -1;
	if (arg && !*arg)
		st->next++;
	time_t t = when == -1 ? time(NULL) : when == -2 ? st->sh->start_time : (time_t)when;
	/* The zone is the exported TZ, as a child process would see it (the
	 * shell's environ is not kept in step with its variables). */
	const struct var *tz = vars_lookup(st->sh, "TZ");
	if (tz && (tz->flags & VAR_EXPORT) && tz->value)
		setenv("TZ", tz->value, 1);
	else
		unsetenv("TZ");
	tzset();
	struct tm tm;
	/* bash's buffer: a longer result prints nothing. */
	char buf[128];
	size_t len = 0;
	if (localtime_r(&t, &tm))
		len = strftime(buf, sizeof buf, *timefmt ? timefmt : "%X", &tm);
	add_padded(&st->out, buf, len, left, width, precision);
}

/* Reads a width or precision: digits, or * taking an argument. */
static long read_number_field(struct printf_state *st, const char **pp, bool *given)
{
	const char *p = *pp;
	*given = false;
	if (*p == '*') {
		*pp = p + 1;
		*given = true;
		intmax_t v = signed_arg(st);
		return v > 1000000 ? 1000000 : v < -1000000 ? -1000000 : (long)v;
	}
	long v = 0;
	while (*p >= '0' && *p <= '9') {
		*given = true;
		if (v < 1000000)
			v = v * 10 + (*p - '0');
		p++;
	}
	*pp = p;
	return v;
}

/* Runs one conversion starting just after '%'. Returns a pointer past it,
 * or NULL after reporting an invalid format (printing stops). */
static const char *convert(struct printf_state *st, const char *p)
{
	char flags[8];
	size_t nflags = 0;
	while (*p && strchr("-+ #0'", *p)) {
		if (nflags < sizeof flags - 1 && *p != '\'')
			flags[nflags++] = *p;
		p++;
	}
	flags[nflags] = '\0';
	bool given;
	long width = read_number_field(st, &p, &given);
	bool left = strchr(flags, '-') != NULL;
	if (width < 0) {
		left = true;
		width = -width;
	}
	long precision = -1;
	if (*p == '.') {
		p++;
		precision = read_number_field(st, &p, &given);
		if (precision < 0)
			precision = -1;
	}
	/* Length modifiers mean nothing here: values are intmax_t / long double. */
	while (*p && strchr("hlLjzt", *p))
		p++;

	char conv = *p;
	if (conv == '(') {
		const char *close = strstr(p + 1, ")T");
		if (!close) {
			shell_error(st->sh, "printf: `(': invalid format character");
			return NULL;
		}
		char *timefmt = xstrndup(p + 1, (size_t)(close - p - 1));
		add_time(st, timefmt, left, width, precision);
		free(timefmt);
		return close + 2;
	}

	/* A C format for the numeric conversions, width and precision as '*'. */
	char cfmt[32];
	switch (conv) {
	case 'd':
	case 'i': {
		intmax_t v = signed_arg(st);
		snprintf(cfmt, sizeof cfmt, "%%%s*.*j%c", flags, conv);
		strbuf_addf(&st->out, cfmt, (int)(left ? -width : width), (int)precision, v);
		return p + 1;
	}
	case 'o':
	case 'u':
	case 'x':
	case 'X': {
		uintmax_t v = unsigned_arg(st);
		snprintf(cfmt, sizeof cfmt, "%%%s*.*j%c", flags, conv);
		strbuf_addf(&st->out, cfmt, (int)(left ? -width : width), (int)precision, v);
		return p + 1;
	}
	case 'e':
	case 'E':
	case 'f':
	case 'F':
	case 'g':
	case 'G':
	case 'a':
	case 'A': {
		long double v = float_arg(st);
		snprintf(cfmt, sizeof cfmt, "%%%s*.*L%c", flags, conv);
		strbuf_addf(&st->out, cfmt, (int)(left ? -width : width), (int)precision, v);
		return p + 1;
	}
	case 'c': {
		/* A missing or empty argument prints a NUL byte, as bash does. */
		const char *arg = next_arg(st);
		char c = arg ? arg[0] : '\0';
		add_padded(&st->out, &c, 1, left, width, -1);
		return p + 1;
	}
	case 's': {
		const char *arg = next_arg(st);
		if (!arg)
			arg = "";
		add_padded(&st->out, arg, strlen(arg), left, width, precision);
		return p + 1;
	}
	case 'b': {
		const char *arg = next_arg(st);
		struct strbuf decoded;
		strbuf_init(&decoded);
		for (const char *q = arg ? arg : ""; *q && !st->stop; q++) {
			if (*q == '\\')
				q += decode_escape(q + 1, true, &decoded, &st->stop);
			else
				strbuf_addc(&decoded, *q);
		}
		add_padded(&st->out, decoded.data, decoded.len, left, width, precision);
		strbuf_free(&decoded);
		return p + 1;
	}
	case 'q': {
		const char *arg = next_arg(st);
		struct strbuf quoted;
		strbuf_init(&quoted);
		quote_for_shell(&quoted, arg ? arg : "");
		add_padded(&st->out, quoted.data, quoted.len, left, width, precision);
		strbuf_free(&quoted);
		return p + 1;
	}
	case '\0':
		shell_error(st->sh, "printf: `%%': missing format character");
		return NULL;
	default:
		shell_error(st->sh, "printf: `%c': invalid format character", conv);
		return NULL;
	}
}

/* One pass over the format. Returns false when printing must stop (an
 * invalid format, or \c). */
static bool run_format(struct printf_state *st, const char *fmt)
{
	for (const char *p = fmt; *p; p++) {
		if (*p == '\\') {
			p += decode_escape(p + 1, false, &st->out, &st->stop);
			if (!*p)
				break;
		} else if (*p == '%' && p[1] == '%') {
			strbuf_addc(&st->out, '%');
			p++;
		} else if (*p == '%') {
			const char *after = convert(st, p + 1);
			if (!after)
				return false;
			if (st->stop)
				return false;
			p = after - 1;
		} else {
			strbuf_addc(&st->out, *p);
		}
	}
	return true;
}

/* printf -v: NAME, or NAME[subscript] as an element of an indexed or
 * associative array. Returns the status: 2 for a bad name, as bash. */
static int store_output(struct shell *sh, const char *target, const char *value)
{
	size_t name_len = strcspn(target, "[");
	bool name_ok = name_len > 0 && lex_is_name_start((unsigned char)target[0]);
	for (size_t i = 1; name_ok && i < name_len; i++)
		name_ok = lex_is_name_char((unsigned char)target[i]);
	size_t len = strlen(target);
	if (!name_ok || (name_len < len && (len < name_len + 3 || target[len - 1] != ']'))) {
		shell_error(sh, "printf: `%s': not a valid identifier", target);
		return 2;
	}
	if (name_len == len)
		return vars_set(sh, target, value, 0) == 0 ? 0 : 1;
	char *name = xstrndup(target, name_len);
	char *text = xstrndup(target + name_len + 1, len - name_len - 2);
	char *subscript = expand_subscript_text(sh, text); /* printf -v 'a["k"]' */
	free(text);
	int r;
	const struct var *v = vars_lookup(sh, name);
	if (v && (v->flags & VAR_ASSOC)) {
		r = vars_assoc_set(sh, name, subscript, value, false);
	} else {
		intmax_t index;
		r = arith_eval(sh, subscript, &index);
		if (r == 0)
			r = vars_set_element(sh, name, (long)index, value);
	}
	free(name);
	free(subscript);
	return r == 0 ? 0 : 1;
}

int builtin_printf(struct shell *sh, int argc, char **argv)
{
	struct builtin_getopt g = {.index = 1};
	const char *var_name = NULL;
	int opt;
	while ((opt = builtin_getopt(&g, argc, argv, "v:", "printf")) != -1) {
		if (opt == '?') {
			shell_warn("printf: usage: printf [-v var] format [arguments]");
			return 2;
		}
		var_name = g.arg;
	}
	if (g.index >= argc) {
		shell_warn("printf: usage: printf [-v var] format [arguments]");
		return 2;
	}
	const char *fmt = argv[g.index];
	struct printf_state st = {
		.sh = sh,
		.args = argv + g.index + 1,
		.nargs = argc - g.index - 1,
	};
	strbuf_init(&st.out);
	bool ok = true;
	/* The format is reused while arguments remain, but only if it consumes
	 * some: otherwise extra arguments would loop forever. */
	do {
		int before = st.next;
		if (!run_format(&st, fmt)) {
			ok = st.stop;
			break;
		}
		if (st.next == before)
			break;
	} while (st.next < st.nargs);

	int status = ok && !st.failed ? 0 : 1;
	if (var_name) {
		int stored = store_output(sh, var_name, st.out.data ? st.out.data : "");
		if (stored != 0)
			status = stored;
	} else if (st.out.len > 0) {
		fwrite(st.out.data, 1, st.out.len, stdout);
	}
	strbuf_free(&st.out);
	return status;
}
