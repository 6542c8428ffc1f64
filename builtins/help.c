/* help: a line of synopsis and what it does, for the builtins and the
 * keywords, as bash's help lists them (the details are in sbsh(1)). */
#include "builtins/builtins.h"
#include "shell/pattern.h"

#include <stdio.h>
#include <string.h>

struct help_topic {
	const char *name;
	const char *synopsis;
	const char *summary;
};

/* Sorted by name; keywords next to the builtins, as `help` lists them. */
static const struct help_topic topics[] = {
	{"!", "! pipeline", "Runs the pipeline and negates its status."},
	{"((", "(( expression ))", "Evaluates an arithmetic expression: status 0 when it is not zero."},
	{".", ". filename [arguments]", "Runs the commands of a file in this shell."},
	{":", ": [arguments]", "Does nothing, successfully."},
	{"[", "[ arg... ]", "Same as test, with a closing ]."},
	{"[[", "[[ expression ]]", "Evaluates a conditional expression: patterns, =~, file tests."},
	{"alias", "alias [-p] [name[=value] ...]", "Defines or lists aliases."},
	{"bg", "bg [job_spec ...]", "Resumes stopped jobs in the background."},
	{"break", "break [n]", "Leaves the n innermost for, while or until loops."},
	{"builtin", "builtin shell-builtin [arg ...]", "Runs a builtin, ignoring a function of that name."},
	{"case", "case WORD in [PATTERN [| PATTERN]...) COMMANDS ;;]... esac",
	 "Runs the commands of the first pattern that matches WORD."},
	{"cd", "cd [-L|-P] [dir]", "Changes the working directory ($HOME without an operand, $OLDPWD for -)."},
	{"command", "command [-pVv] command [arg ...]", "Runs or describes a command, ignoring functions."},
	{"compgen", "compgen [-abcdefgkuv] [-o option] [-A action] [-W wordlist] [-P prefix] [-S suffix] [word]",
	 "Lists the completions of word."},
	{"continue", "continue [n]", "Starts the next pass of the n-th enclosing loop."},
	{"declare", "declare [-aAfFgilnprtux] [name[=value] ...]", "Sets variables and their attributes, or shows them."},
	{"echo", "echo [-neE] [arg ...]", "Writes its arguments, separated by spaces, and a newline."},
	{"escape", "escape command [arg ...]",
	 "sbsh's own: asks the human to run one command outside the sandbox."},
	{"eval", "eval [arg ...]", "Runs its arguments, joined by spaces, as shell commands."},
	{"exec", "exec [-a name] [command [argument ...]] [redirection ...]",
	 "Replaces the shell with a command, or makes redirections permanent."},
	{"exit", "exit [n]", "Exits the shell with status n (the last status without it)."},
	{"export", "export [-fnp] [name[=value] ...]", "Marks variables to be passed to the commands the shell runs."},
	{"false", "false", "Fails: status 1."},
	{"fg", "fg [job_spec]", "Brings a job to the foreground."},
	{"for", "for NAME [in WORDS ... ] ; do COMMANDS; done", "Runs the commands once for each word."},
	{"function", "function name { COMMANDS ; } or name () { COMMANDS ; }", "Defines a shell function."},
	{"getopts", "getopts optstring name [arg ...]", "Parses the options of a script or function."},
	{"hash", "hash [-r] [name ...]", "Remembers or forgets where commands were found in PATH."},
	{"help", "help [pattern ...]", "Shows what the builtins and keywords matching pattern do."},
	{"if", "if COMMANDS; then COMMANDS; [ elif COMMANDS; then COMMANDS; ]... [ else COMMANDS; ] fi",
	 "Runs commands depending on the status of others."},
	{"jobs", "jobs [-lprs] [jobspec ...]", "Lists the jobs."},
	{"kill", "kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]",
	 "Sends a signal to processes or jobs."},
	{"let", "let arg [arg ...]", "Evaluates arithmetic expressions: status 0 when the last is not zero."},
	{"local", "local [option] name[=value] ...", "Makes variables local to the function running."},
	{"mapfile", "mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [array]",
	 "Reads lines into an indexed array (MAPFILE by default)."},
	{"printf", "printf [-v var] format [arguments]", "Writes its arguments under the control of a format."},
	{"pwd", "pwd [-LP]", "Prints the working directory."},
	{"read", "read [-ers] [-a array] [-d delim] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]",
	 "Reads a line from standard input and splits it into variables."},
	{"readarray", "readarray [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [array]",
	 "Same as mapfile."},
	{"readonly", "readonly [-afp] [name[=value] ...]", "Marks variables as not to be changed or unset."},
	{"return", "return [n]", "Returns from a function or sourced file with status n."},
	{"set", "set [-abefhmnuvxC] [-o option-name] [--] [arg ...]",
	 "Sets or unsets shell options and the positional parameters."},
	{"shift", "shift [n]", "Drops the first n positional parameters."},
	{"shopt", "shopt [-pqsu] [-o] [optname ...]", "Sets, unsets or shows bash's optional behaviours."},
	{"source", "source filename [arguments]", "Same as ."},
	{"test", "test [expr]", "Evaluates a conditional expression."},
	{"time", "time pipeline", "Runs the pipeline and reports the time it took."},
	{"times", "times", "Prints the user and system times of the shell and of its children."},
	{"trap", "trap [-lp] [[arg] signal_spec ...]", "Runs a command when the shell gets a signal or at EXIT, ERR, DEBUG, RETURN."},
	{"true", "true", "Succeeds: status 0."},
	{"type", "type [-afptP] name [name ...]", "Tells how each name would be run."},
	{"typeset", "typeset [-aAfFgilnprtux] [name[=value] ...]", "Same as declare."},
	{"ulimit", "ulimit [-SHa] [-cdefilmnqrstuvx] [limit]", "Shows or sets the shell's resource limits."},
	{"umask", "umask [-p] [-S] [mode]", "Shows or sets the file creation mask."},
	{"unalias", "unalias [-a] name [name ...]", "Removes aliases."},
	{"unset", "unset [-f] [-v] [-n] [name ...]", "Removes variables or functions."},
	{"until", "until COMMANDS; do COMMANDS; done", "Runs the body as long as the test fails."},
	{"wait", "wait [-n] [id ...]", "Waits for jobs or processes and returns their status."},
	{"while", "while COMMANDS; do COMMANDS; done", "Runs the body as long as the test succeeds."},
};

BUILTIN_FN(help)
{
	size_t ntopics = sizeof topics / sizeof topics[0];
	int i = 1;
	bool short_form = false; /* -s: the synopsis only */
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "-s") == 0 || strcmp(argv[i], "-d") == 0 || strcmp(argv[i], "-m") == 0) {
			short_form = argv[i][1] == 's';
			continue;
		}
		shell_error(sh, "help: %s: invalid option", argv[i]);
		shell_warn("help: usage: help [-dms] [pattern ...]");
		return 2;
	}
	if (i >= argc) {
		puts("sbsh: these shell commands are defined internally; `help name' tells more about one.");
		puts("The language and sbsh's own options are described in sbsh(1).\n");
		for (size_t t = 0; t < ntopics; t++)
			printf(" %s\n", topics[t].synopsis);
		return 0;
	}
	int status = 0;
	for (; i < argc; i++) {
		bool any = false;
		for (size_t t = 0; t < ntopics; t++) {
			if (strcmp(topics[t].name, argv[i]) != 0 && !pattern_match(argv[i], topics[t].name, 0))
				continue;
			any = true;
			if (short_form)
				printf("%s: %s\n", topics[t].name, topics[t].synopsis);
			else
				printf("%s: %s\n    %s\n", topics[t].name, topics[t].synopsis, topics[t].summary);
		}
		if (!any) {
			shell_error(sh, "help: no help topics match `%s'", argv[i]);
			status = 1;
		}
	}
	return status;
}
