/* `sbsh --setup TOOL` / `sbsh --setup --undo TOOL`: wires an agent tool
 * that will not run sbsh by name to a shim of sbsh's own, through the
 * tool's own settings, and puts back what was there. The doctor's report
 * of whether each tool will reach sbsh lives here too. */
#ifndef SBSH_SETUP_H
#define SBSH_SETUP_H

#include <stdbool.h>
#include <stddef.h>

/* What one agent tool will run its commands with, as found now. */
struct setup_tool_report {
	const char *tool;  /* "claude-code", "codex" */
	char *program;     /* the tool's program found, or NULL: not installed */
	bool reaches_sbsh; /* its commands will run under this sbsh */
	char *settings;    /* the file that decides, or NULL */
	char *shell;       /* the shell it names, or NULL */
	char *detail;      /* one line of why */
};

struct setup_report {
	struct setup_tool_report tools[2];
	size_t len;
};

/* Fills *out for every tool sbsh knows. */
void setup_report(struct setup_report *out);
void setup_report_free(struct setup_report *r);

/* Runs `sbsh --setup ...` with argv[at] the --setup option. Returns the
 * exit status. */
int setup_main(int argc, char **argv, int at);

#endif
