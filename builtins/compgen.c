/* compgen: bash's completion generator, for the scripts that call it
 * (bash-completion, agents' shell snapshots). It prints the matches of
 * the word one a line; the listings are the line editor's (complete.c). */
#include "builtins/builtins.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/ast.h"
#include "shell/complete.h"
#include "shell/expand.h"
#include "shell/parser.h"
#include "shell/pattern.h"
#include "shell/vars.h"

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
	ACT_GROUP = 1 << 9,
	ACT_SETOPT = 1 << 10,
	ACT_SIGNAL = 1 << 11,
	ACT_USER = 1 << 12,
	ACT_VARIABLE = 1 << 13,
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
	{"group", ACT_GROUP, COMPLETE_GROUPS},
	{"keyword", ACT_KEYWORD, COMPLETE_KEYWORDS},
	{"setopt", ACT_SETOPT, COMPLETE_SETOPT},
	{"signal", ACT_SIGNAL, COMPLETE_SIGNALS},
	{"user", ACT_USER, COMPLETE_USERS},
	{"variable", ACT_VARIABLE, COMPLETE_VARIABLES},
};
#define NACTIONS (sizeof actions / sizeof actions[0])

/* -o names bash accepts: plusdirs adds folders, dirnames and default
 * give folders or files when nothing else matched; the others only change
 * how an interactive completion is shown. */
static const char *const option_names[] = {
	"bashdefault", "default", "dirnames", "filenames", "noquote", "nosort", "nospace", "plusdirs",
};

static void usage(void)
{
	shell_warn("compgen: usage: compgen [-abcdefgkuv] [-o option] [-A action] [-W wordlist] "
		   "[-G globpat] [-X filterpat] [-P prefix] [-S suffix] [word]");
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

/* Splits the -W list at IFS characters outside quotes, $( ), ${ } and
 * ` `, as bash does before it expands each word. */
static void split_wordlist(const char *s, const char *ifs, struct strvec *out)
{
	struct strbuf w;
	strbuf_init(&w);
	bool single = false, dbl = false, back = false;
	int depth = 0;
	for (const char *p = s;; p++) {
		if (!*p || (!single && !dbl && !back && depth == 0 && strchr(ifs, *p))) {
			if (w.len)
				strvec_push(out, w.data);
			strbuf_free(&w);
			strbuf_init(&w);
			if (!*p)
				break;
			continue;
		}
		strbuf_addc(&w, *p);
		if (single) {
			single = *p != '\'';
		} else if (*p == '\\' && p[1]) {
			strbuf_addc(&w, *++p);
		} else if (*p == '\'' && !dbl) {
			single = true;
		} else if (*p == '"') {
			dbl = !dbl;
		} else if (*p == '`') {
			back = !back;
		} else if (*p == '$' && (p[1] == '(' || p[1] == '{')) {
			strbuf_addc(&w, *++p);
			depth++;
		} else if (depth > 0 && (*p == '(' || *p == '{')) {
			depth++;
		} else if (depth > 0 && (*p == ')' || *p == '}')) {
			depth--;
		}
	}
	strbuf_free(&w);
}

/* The fields one -W word expands to: parameters, command substitution,
 * arithmetic, splitting and quote removal, no pathname expansion. A word
 * that does not read as one word (an unquoted ; or |) stays as written.
 * Returns -1 when an expansion failed (reported). */
static int expand_list_word(struct shell *sh, const char *text, struct strvec *out)
{
	if (!strpbrk(text, "$`'\"\\~")) {
		strvec_push(out, text);
		return 0;
	}
	/* After `:` the word is an argument, also when it reads `if` or `!`. */
	char *line = xasprintf(": %s", text);
	struct parser_options opts = {.source_name = "compgen", .first_line = 1, .at_eof = true};
	struct node *prog = NULL;
	struct parse_error err = {0};
	int rc = 0;
	const struct node *cmd = NULL;
	if (parse_program(line, strlen(line), &opts, &prog, &err) == 0 && prog->kind == NODE_LIST &&
	    prog->u.list.nitems == 1 && !prog->u.list.items[0].async)
		cmd = prog->u.list.items[0].node;
	if (cmd && cmd->kind == NODE_SIMPLE && cmd->nredirs == 0 && cmd->u.simple.nassigns == 0 &&
	    cmd->u.simple.nwords == 2) {
		bool noglob = sh->opt.noglob;
		sh->opt.noglob = true;
		rc = expand_words(sh, cmd->u.simple.words + 1, 1, out);
		sh->opt.noglob = noglob;
	} else {
		strvec_push(out, text);
	}
	free(err.message);
	if (prog)
		ast_node_free(prog);
	free(line);
	return rc;
}

BUILTIN_FN(compgen)
{
	unsigned acts = 0;
	bool plusdirs = false, dirnames = false, files_default = false;
	const char *globpat = NULL, *wordlist = NULL, *prefix = "", *suffix = "", *filter = NULL;
	struct builtin_getopt g = {.index = 1};
	int c;
	while ((c = builtin_getopt(&g, argc, argv, "abcdefgkuvA:W:P:S:X:o:G:F:C:", "compgen")) != -1) {
		switch (c) {
		case 'a': acts |= ACT_ALIAS; break;
		case 'b': acts |= ACT_BUILTIN; break;
		case 'c': acts |= ACT_COMMAND; break;
		case 'd': acts |= ACT_DIRECTORY; break;
		case 'e': acts |= ACT_EXPORT; break;
		case 'f': acts |= ACT_FILE; break;
		case 'g': acts |= ACT_GROUP; break;
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
			plusdirs |= strcmp(g.arg, "plusdirs") == 0;
			dirnames |= strcmp(g.arg, "dirnames") == 0;
			files_default |= strcmp(g.arg, "default") == 0;
			break;
		}
		case 'W': wordlist = g.arg; break;
		case 'P': prefix = g.arg; break;
		case 'S': suffix = g.arg; break;
		case 'X': filter = g.arg; break;
		case 'G': globpat = g.arg; break;
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
	if (acts == 0 && !globpat && !wordlist && !plusdirs && !dirnames && !files_default)
		return 0;

	struct strvec found;
	strvec_init(&found);
	for (size_t i = 0; i < NACTIONS; i++) {
		/* "enabled" shares builtin's bit: list builtins once */
		if ((acts & actions[i].bit) && strcmp(actions[i].name, "enabled") != 0)
			complete_add(sh, actions[i].kind, word, &found);
	}
	if (globpat)
		expand_glob(sh, globpat, &found); /* bash does not match these to the word */
	if (wordlist) {
		struct strvec words;
		strvec_init(&words);
		const char *ifs = vars_get(sh, "IFS");
		split_wordlist(wordlist, ifs ? ifs : " \t\n", &words);
		struct strvec fields;
		strvec_init(&fields);
		int rc = 0;
		for (size_t i = 0; i < words.len && rc == 0; i++)
			rc = expand_list_word(sh, words.items[i], &fields);
		strvec_free(&words);
		size_t len = strlen(word);
		for (size_t i = 0; i < fields.len; i++)
			if (strncmp(fields.items[i], word, len) == 0)
				strvec_push(&found, fields.items[i]);
		strvec_free(&fields);
		if (rc != 0) {
			strvec_free(&found);
			return 1;
		}
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
	/* Folders and files come after the filter and without -P/-S, as in bash. */
	enum complete_kind more[2];
	size_t nmore = 0;
	if (plusdirs || (status != 0 && dirnames))
		more[nmore++] = COMPLETE_DIRECTORIES;
	if (status != 0 && files_default)
		more[nmore++] = COMPLETE_FILES;
	for (size_t k = 0; k < nmore; k++) {
		strvec_init(&found);
		complete_add(sh, more[k], word, &found);
		for (size_t i = 0; i < found.len; i++) {
			printf("%s\n", found.items[i]);
			status = 0;
		}
		strvec_free(&found);
	}
	return status;
}
