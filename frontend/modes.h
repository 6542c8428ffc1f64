/* The one-shot modes: options that make sbsh do one thing and exit instead
 * of starting the shell. Every one is in the table in modes.c, with where
 * its option may stand and the function that runs it. */
#ifndef SBSH_MODES_H
#define SBSH_MODES_H

#include <stdbool.h>

struct startup;

/* Where a mode's option may stand, and so when the mode runs. */
enum mode_place {
	MODE_FIRST,   /* only as argv[1]: runs before sbsh's options are read */
	MODE_AT_ONCE, /* among sbsh's options: runs when reached, those after it unread */
	MODE_AFTER,   /* among sbsh's options: runs once all of them are read */
};

struct mode {
	const char *option;   /* "--doctor" */
	enum mode_place place;
	const char *modifier; /* an option of sbsh's only after this one ("--json"), or NULL */
	/* Runs the mode: at is where its option stood in argv (MODE_AFTER: -1,
	 * it was taken out), modified whether its modifier was given. Returns
	 * the exit status. */
	int (*run)(struct startup *st, int argc, char **argv, int at, bool modified);
};

/* A mode found in argv, to run once the options before it are read. */
struct mode_call {
	const struct mode *mode; /* NULL: none */
	int at;
	bool modified;
};

/* The MODE_FIRST mode argv[1] names, or NULL. */
const struct mode *modes_first(int argc, char *const *argv);

/* The MODE_AT_ONCE or MODE_AFTER mode the option arg names, or NULL. */
const struct mode *modes_find(const char *arg);

/* Runs call's mode. Returns its exit status. */
int modes_run(const struct mode_call *call, struct startup *st, int argc, char **argv);

#endif
