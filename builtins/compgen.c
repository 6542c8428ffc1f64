/* compgen: bash's completion generator, for the scripts that call it
 * (bash-completion, agents' shell snapshots). It prints the matches of
 * the word one a line; the listings are the line editor's (complete.c). */
#include "builtins/builtins.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/complete.h"
#include "shell/expand.h"
#include "shell/pattern.h"

/* The actions, a bit each, in the order bash prints their matches. */
enum {
	ACT_ALIAS = 1 << 0,
	ACT_ARRAYVAR = 1 << 1,
	ACT_BUILTIN = 1 << 2,
	ACT_COMMAND = 1 << 3,
	ACT_DIRECTORY = 1 << 4,
	ACT_EXPORT = 1 << 5,
	ACT_FILE = 1 << 6,
	ACT_FUNCTION = 1 << 7,
	ACT_KEYWORD = 1 << 8,
	ACT_USER = 1 << 9,
	ACT_VARIABLE = 1 << 10,
};

static const struct action {
	const char *name;
	unsigned bit;
	enum complete_kind kind;
} actions[] = {
	{"alias", ACT_ALIAS, COMPLETE_ALIASES},
	{"arrayvar", ACT_ARRAYVAR, COMPLETE_ARRAYS},
	{"builtin", ACT_BUILTIN, COMPLETE_BUILTINS},
	{"command", ACT_COMMAND, COMPLETE_COMMANDS},
	{"directory", ACT_DIRECTORY, COMPLETE_DIRECTORIES},
	{"enabled", ACT_BUILTIN, COMPLETE_BUILTINS},
	{"export", ACT_EXPORT, COMPLETE_EXPORTS},
	{"file", ACT_FILE, COMPLETE_FILES},
	{"function", ACT_FUNCTION, COMPLETE_FUNCTIONS},
	{"keyword", ACT_KEYWORD, COMPLETE_KEYWORDS},
	{"user", ACT_USER, COMPLETE_USERS},
	{"variable", ACT_VARIABLE, COMPLETE_VARIABLES},
};
#define NACTIONS (sizeof actions / sizeof actions[0])

/* -o names bash accepts; plusdirs and dirnames add folders, the others
 * only change how an interactive completion is shown. */
static const char *const option_names[] = {
	"bashdefault", "default", "dirnames", "filenames", "noquote", "nosort", "nospace", "plusdirs",
};

static void usage(void)
{
	shell_warn("compgen: usage: compgen [-abcdefkuv] [-o option] [-A action] [-W wordlist] "
		   "[-X filterpat] [-P prefix] [-S suffix] [word]");
}

/* The -X pattern with each unquoted & made the word, as bash does. */
static char *filter_pattern(const char *pat, const char *word)
{
	struct strbuf sb;
	strbuf_init(&sb);
	for (const char *p = pat; *p; p++) {
		if (*p == '\\' && p[1] == '&') {
			strbuf_addc(&sb, '&');
			p++;
		} else if (*p == '&') {
			strbuf_adds(&sb, word);
		} else {
			strbuf_addc(&sb, *p);
		}
	}
	return strbuf_detach(&sb);
}

BUILTIN_FN(compgen)
{
	unsigned acts = 0;
	bool plusdirs = false;
	const char *wordlist = NULL, *prefix = "", *suffix = "", *filter = NULL;
	struct builtin_getopt g = {.index = 1};
	int c;
	while ((c = builtin_getopt(&g, argc, argv, "abcdefkuvA:W:P:S:X:o:G:F:C:", "compgen")) != -1) {
		switch (c) {
		case 'a': acts |= ACT_ALIAS; break;
		case 'b': acts |= ACT_BUILTIN; break;
		case 'c': acts |= ACT_COMMAND; break;
		case 'd': acts |= ACT_DIRECTORY; break;
		case 'e': acts |= ACT_EXPORT; break;
		case 'f': acts |= ACT_FILE; break;
		case 'k': acts |= ACT_KEYWORD; break;
		case 'u': acts |= ACT_USER; break;
		case 'v': acts |= ACT_VARIABLE; break;
		case 'A': {
			size_t i = 0;
			while (i < NACTIONS && strcmp(actions[i].name, g.arg) != 0)
				i++;
			if (i == NACTIONS) {
				shell_error(sh, "compgen: %s: invalid action name", g.arg);
				return 2;
			}
			acts |= actions[i].bit;
			break;
		}
		case 'o': {
			size_t i = 0, n = sizeof option_names / sizeof option_names[0];
			while (i < n && strcmp(option_names[i], g.arg) != 0)
				i++;
			if (i == n) {
				shell_error(sh, "compgen: %s: invalid option name", g.arg);
				return 2;
			}
			if (strcmp(g.arg, "plusdirs") == 0 || strcmp(g.arg, "dirnames") == 0)
				plusdirs = true;
			break;
		}
		case 'W': wordlist = g.arg; break;
		case 'P': prefix = g.arg; break;
		case 'S': suffix = g.arg; break;
		case 'X': filter = g.arg; break;
		case 'G':
		case 'F':
		case 'C':
			shell_error(sh, "compgen: -%c: not supported by sbsh", c);
			return 2;
		default:
			usage();
			return 2;
		}
	}
	/* bash matches against the first word and ignores the rest. */
	const char *word = g.index < argc ? argv[g.index] : "";
	if (acts == 0 && !wordlist && !plusdirs)
		return 0;

	struct strvec found;
	strvec_init(&found);
	for (size_t i = 0; i < NACTIONS; i++) {
		/* "enabled" shares builtin's bit: list builtins once */
		if ((acts & actions[i].bit) && strcmp(actions[i].name, "enabled") != 0)
			complete_add(sh, actions[i].kind, word, &found);
	}
	if (wordlist) {
		struct strvec words;
		strvec_init(&words);
		expand_split_ifs(sh, wordlist, &words);
		size_t len = strlen(word);
		for (size_t i = 0; i < words.len; i++)
			if (strncmp(words.items[i], word, len) == 0)
				strvec_push(&found, words.items[i]);
		strvec_free(&words);
	}

	char *pat = NULL;
	bool negate = false;
	if (filter) {
		/* -X drops what matches; with a leading !, what does not */
		negate = filter[0] == '!';
		pat = filter_pattern(filter + negate, word);
	}
	unsigned pflags = sh->opt.extglob ? PATTERN_EXTGLOB : 0;
	int status = 1;
	for (size_t i = 0; i < found.len; i++) {
		if (pat && pattern_match(pat, found.items[i], pflags) != negate)
			continue;
		printf("%s%s%s\n", prefix, found.items[i], suffix);
		status = 0;
	}
	free(pat);
	strvec_free(&found);
	if (plusdirs) {
		/* added after the filter and without -P/-S, as bash does */
		strvec_init(&found);
		complete_add(sh, COMPLETE_DIRECTORIES, word, &found);
		for (size_t i = 0; i < found.len; i++) {
			printf("%s\n", found.items[i]);
			status = 0;
		}
		strvec_free(&found);
	}
	return status;
}
