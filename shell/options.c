/* Shell options: the single letters of `set -abC...`, the long names of
 * `set -o name`, $- and the `set -o` / `set +o` listings. */
#include "shell/shell.h"
#include "shell/options.h"

#include <stdio.h>
#include <string.h>

struct option_def {
	const char *name; /* NULL: letter only */
	char letter;      /* 0: name only */
	size_t offset;    /* of the bool in struct shell_options */
};

#define OPT(name, letter, field) {name, letter, offsetof(struct shell_options, field)}

/* Sorted by name: `set -o` lists them in this order. */
static const struct option_def option_defs[] = {
	OPT("allexport", 'a', allexport),
	OPT("braceexpand", 'B', braceexpand),
	OPT("emacs", 0, emacs),
	OPT("errexit", 'e', errexit),
	OPT("errtrace", 'E', errtrace),
	OPT("functrace", 'T', functrace),
	OPT("hashall", 'h', hashall),
	OPT("histexpand", 'H', histexpand),
	OPT("history", 0, history),
	OPT("ignoreeof", 0, ignoreeof),
	OPT("interactive-comments", 0, interactive_comments),
	OPT("keyword", 'k', keyword),
	OPT("monitor", 'm', monitor),
	OPT("noclobber", 'C', noclobber),
	OPT("noexec", 'n', noexec),
	OPT("noglob", 'f', noglob),
	OPT("nolog", 0, nolog),
	OPT("notify", 'b', notify),
	OPT("nounset", 'u', nounset),
	OPT("onecmd", 't', onecmd),
	OPT("physical", 'P', physical),
	OPT("pipefail", 0, pipefail),
	OPT("posix", 0, posix),
	OPT("privileged", 'p', privileged),
	OPT("verbose", 'v', verbose),
	OPT("vi", 0, vi),
	OPT("xtrace", 'x', xtrace),
};

static const size_t noption_defs = sizeof option_defs / sizeof option_defs[0];

static bool *option_field(struct shell *sh, const struct option_def *d)
{
	return (bool *)((char *)&sh->opt + d->offset);
}

/* vi and emacs exclude each other, as in bash. */
static void set_option(struct shell *sh, const struct option_def *d, bool on)
{
	*option_field(sh, d) = on;
	if (on && d->offset == offsetof(struct shell_options, vi))
		sh->opt.emacs = false;
	else if (on && d->offset == offsetof(struct shell_options, emacs))
		sh->opt.vi = false;
}

int options_set_letter(struct shell *sh, char letter, bool on)
{
	for (size_t i = 0; i < noption_defs; i++) {
		if (option_defs[i].letter == letter) {
			set_option(sh, &option_defs[i], on);
			return 0;
		}
	}
	return -1;
}

int options_set_name(struct shell *sh, const char *name, bool on)
{
	for (size_t i = 0; i < noption_defs; i++) {
		if (strcmp(option_defs[i].name, name) == 0) {
			set_option(sh, &option_defs[i], on);
			return 0;
		}
	}
	return -1;
}

int options_get_name(struct shell *sh, const char *name)
{
	for (size_t i = 0; i < noption_defs; i++) {
		if (strcmp(option_defs[i].name, name) == 0)
			return *option_field(sh, &option_defs[i]) ? 1 : 0;
	}
	return -1;
}

const char *options_name_at(size_t i)
{
	return i < noption_defs ? option_defs[i].name : NULL;
}

char *options_dollar_dash(struct shell *sh)
{
	struct strbuf sb;
	strbuf_init(&sb);
	/* bash's order: lower-case letters, then upper-case, then s / c. */
	static const char order[] = "abefhikmnptuvxBCEHPT";
	for (const char *p = order; *p; p++) {
		if (*p == 'i') {
			if (sh->opt.interactive)
				strbuf_addc(&sb, 'i');
			continue;
		}
		for (size_t i = 0; i < noption_defs; i++) {
			if (option_defs[i].letter == *p && *option_field(sh, &option_defs[i]))
				strbuf_addc(&sb, *p);
		}
	}
	if (sh->opt.stdin_mode)
		strbuf_addc(&sb, 's');
	if (sh->opt.cmd_string)
		strbuf_addc(&sb, 'c');
	return strbuf_detach(&sb);
}

void options_print(struct shell *sh, bool reusable)
{
	for (size_t i = 0; i < noption_defs; i++) {
		bool on = *option_field(sh, &option_defs[i]);
		if (reusable)
			printf("set %co %s\n", on ? '-' : '+', option_defs[i].name);
		else
			printf("%-15s\t%s\n", option_defs[i].name, on ? "on" : "off");
	}
}

char *options_enabled_names(struct shell *sh)
{
	struct strbuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < noption_defs; i++) {
		if (!*option_field(sh, &option_defs[i]))
			continue;
		if (sb.len)
			strbuf_addc(&sb, ':');
		strbuf_adds(&sb, option_defs[i].name);
	}
	return strbuf_detach(&sb);
}

void options_import(struct shell *sh, const char *list)
{
	const char *p = list;
	while (*p) {
		size_t n = strcspn(p, ":");
		char name[32];
		if (n > 0 && n < sizeof name) {
			memcpy(name, p, n);
			name[n] = '\0';
			/* Job control and the line editor follow the terminal, not
			 * what a parent had. */
			if (strcmp(name, "monitor") != 0 && strcmp(name, "vi") != 0 && strcmp(name, "emacs") != 0)
				options_set_name(sh, name, true);
		}
		p += n;
		if (*p == ':')
			p++;
	}
}
