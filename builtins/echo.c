/* echo: bash-compatible. Options -n -e -E are recognised only while every
 * leading argument consists solely of those letters, as bash does. */
#include "builtins/builtins.h"

#include <stdio.h>
#include <string.h>

/* True when arg is "-" followed only by n, e or E (e.g. "-neE"). */
static bool is_echo_option(const char *arg)
{
	if (arg[0] != '-' || arg[1] == '\0')
		return false;
	for (const char *p = arg + 1; *p; p++)
		if (*p != 'n' && *p != 'e' && *p != 'E')
			return false;
	return true;
}

static void put_utf8(unsigned long code)
{
	if (code < 0x80) {
		putchar((int)code);
	} else if (code < 0x800) {
		putchar((int)(0xc0 | (code >> 6)));
		putchar((int)(0x80 | (code & 0x3f)));
	} else if (code < 0x10000) {
		putchar((int)(0xe0 | (code >> 12)));
		putchar((int)(0x80 | ((code >> 6) & 0x3f)));
		putchar((int)(0x80 | (code & 0x3f)));
	} else {
		putchar((int)(0xf0 | ((code >> 18) & 0x07)));
		putchar((int)(0x80 | ((code >> 12) & 0x3f)));
		putchar((int)(0x80 | ((code >> 6) & 0x3f)));
		putchar((int)(0x80 | (code & 0x3f)));
	}
}

/* Writes arg with echo -e escapes. Returns false when \c was seen: all
 * further output, including the newline, is suppressed. */
static bool echo_escaped(const char *arg)
{
	for (const char *p = arg; *p; p++) {
		if (*p != '\\' || p[1] == '\0') {
			putchar(*p);
			continue;
		}
		p++;
		switch (*p) {
		case 'a': putchar('\a'); break;
		case 'b': putchar('\b'); break;
		case 'c': return false;
		case 'e':
		case 'E': putchar('\033'); break;
		case 'f': putchar('\f'); break;
		case 'n': putchar('\n'); break;
		case 'r': putchar('\r'); break;
		case 't': putchar('\t'); break;
		case 'v': putchar('\v'); break;
		case '\\': putchar('\\'); break;
		case '0': {
			/* \0NNN: up to three octal digits after the 0. */
			unsigned value = 0;
			for (int i = 0; i < 3 && p[1] >= '0' && p[1] <= '7'; i++)
				value = value * 8 + (unsigned)(*++p - '0');
			putchar((int)(value & 0xff));
			break;
		}
		case 'x': {
			int d = hex_digit_value(p[1]);
			if (d < 0) {
				/* No digits: bash prints the sequence unchanged. */
				putchar('\\');
				putchar('x');
				break;
			}
			unsigned value = (unsigned)d;
			p++;
			d = hex_digit_value(p[1]);
			if (d >= 0) {
				value = value * 16 + (unsigned)d;
				p++;
			}
			putchar((int)value);
			break;
		}
		case 'u':
		case 'U': {
			/* \uHHHH and \UHHHHHHHH: a Unicode code point, written as UTF-8. */
			int max_digits = *p == 'u' ? 4 : 8;
			unsigned long code = 0;
			int n = 0;
			for (int d; n < max_digits && (d = hex_digit_value(p[1])) >= 0; n++, p++)
				code = code * 16 + (unsigned long)d;
			if (n == 0) {
				putchar('\\');
				putchar(*p);
			} else {
				put_utf8(code);
			}
			break;
		}
		default:
			putchar('\\');
			putchar(*p);
			break;
		}
	}
	return true;
}

int builtin_echo(struct shell *sh, int argc, char **argv)
{
	bool newline = true;
	/* shopt -s xpg_echo makes escapes the default, as in bash. */
	bool escapes = sh->opt.xpg_echo;
	int i = 1;
	for (; i < argc && is_echo_option(argv[i]); i++) {
		for (const char *p = argv[i] + 1; *p; p++) {
			if (*p == 'n')
				newline = false;
			else if (*p == 'e')
				escapes = true;
			else
				escapes = false;
		}
	}
	for (; i < argc; i++) {
		if (escapes) {
			if (!echo_escaped(argv[i]))
				return 0;
		} else {
			fputs(argv[i], stdout);
		}
		if (i + 1 < argc)
			putchar(' ');
	}
	if (newline)
		putchar('\n');
	return 0;
}
