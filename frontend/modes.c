/* Every one-shot mode of sbsh, in one table: the option, where it may
 * stand, and what runs it (wherever that lives). None starts the shell. */
#include "frontend/modes.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "frontend/classify_cli.h"
#include "frontend/config.h"
#include "frontend/setup.h"
#include "frontend/shims.h"
#include "frontend/startup.h"
#include "hooks/classify.h"
#include "sandbox/doctor.h"
#include "trusted/approver.h"
#include "trusted/protect_cli.h"
#include "trusted/keeper_start.h"

/* --classify [--json] -c STRING: judges a command line without running
 * it: no sandbox, no broker, nothing else of the shell (classify_cli.c). */
static int run_classify(struct startup *st, int argc, char **argv, int at, bool modified)
{
	(void)at;
	(void)modified;
	return classify_main(argc, argv, st->classify_rules.items);
}

/* --doctor [--json]: what the sandbox can do here, with the settings of
 * the options around it (sandbox/doctor.c). */
static int run_doctor(struct startup *st, int argc, char **argv, int at, bool modified)
{
	(void)argc;
	(void)argv;
	(void)at;
	return doctor_main(&st->sandbox, st->config_path, &st->allow_sockets, modified, st->no_checkpoints);
}

/* --approver [--trust-multiplexer]: answers the prompts of every sbsh of
 * this user, unconfined (trusted/approver.c). */
static int run_approver(struct startup *st, int argc, char **argv, int at, bool modified)
{
	(void)st;
	(void)modified;
	bool trust_multiplexer = false;
	for (int i = at + 1; i < argc; i++) {
		if (strcmp(argv[i], "--trust-multiplexer") != 0) {
			fprintf(stderr, "sbsh: --approver: unknown option %s (only --trust-multiplexer)\n", argv[i]);
			return 2;
		}
		trust_multiplexer = true;
	}
	return approver_main(trust_multiplexer);
}

/* --shims DIR: bash and sh scripts that re-enter sbsh (shims.c). */
static int run_shims(struct startup *st, int argc, char **argv, int at, bool modified)
{
	(void)st;
	(void)modified;
	return shims_main(at + 1 < argc ? argv[at + 1] : NULL);
}

/* --setup [--undo] claude-code|codex: wires an agent tool to sbsh
 * through its own settings (setup.c). */
static int run_setup(struct startup *st, int argc, char **argv, int at, bool modified)
{
	(void)st;
	(void)modified;
	return setup_main(argc, argv, at);
}

/* --config set-sandbox|set-network VALUE: rewrites the config file
 * (config.c). */
static int run_config(struct startup *st, int argc, char **argv, int at, bool modified)
{
	(void)modified;
	return config_main(st->config_path, argc, argv, at);
}

/* --protect accept|status: the protected files' baseline
 * (trusted/protect_cli.c). */
static int run_protect(struct startup *st, int argc, char **argv, int at, bool modified)
{
	(void)modified;
	return protect_main(argc, argv, at, st->protect_extra.items);
}

/* --review [status|log|diff|accept|reject|undo] ...: the checkpoints, for
 * the human (trusted/review.c, in sbsh-keeper). */
static int run_review(struct startup *st, int argc, char **argv, int at, bool modified)
{
	(void)st;
	(void)modified;
	return keeper_exec_review(argc, argv, at);
}

static const struct mode modes[] = {
	{"--classify", MODE_FIRST, NULL, run_classify},
	{"--doctor", MODE_AFTER, "--json", run_doctor},
	{"--approver", MODE_AT_ONCE, NULL, run_approver},
	{"--shims", MODE_AT_ONCE, NULL, run_shims},
	{"--setup", MODE_AT_ONCE, NULL, run_setup},
	{"--config", MODE_AT_ONCE, NULL, run_config},
	{"--protect", MODE_AT_ONCE, NULL, run_protect},
	{"--review", MODE_AT_ONCE, NULL, run_review},
};

const struct mode *modes_first(int argc, char *const *argv)
{
	if (argc < 2)
		return NULL;
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (modes[i].place == MODE_FIRST && strcmp(argv[1], modes[i].option) == 0)
			return &modes[i];
	return NULL;
}

const struct mode *modes_find(const char *arg)
{
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (modes[i].place != MODE_FIRST && strcmp(arg, modes[i].option) == 0)
			return &modes[i];
	return NULL;
}

int modes_run(const struct mode_call *call, struct startup *st, int argc, char **argv)
{
	return call->mode->run(st, argc, argv, call->at, call->modified);
}
