/* Approvals: what happens to a command the classifier did not judge SAFE.
 * Order: the deny list, the allow list, an answer already given (this line
 * or this session), then the human through the broker; headless, a refusal
 * that says why and how to pre-approve. */
#include "hooks/approve.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hooks/broker_client.h"
#include "hooks/session_client.h"
#include "trusted/broker_proto.h"
#include "sandbox/denial.h"
#include "sandbox/sandbox.h"
#include "builtins/builtins.h"
#include "lib/events.h"
#include "hooks/protect_client.h"
#include "hooks/checkpoint_client.h"
#include "shell/ast.h"
#include "shell/vars.h"

#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

struct allow_list {
	char *path;
	struct strvec allow;
	struct strvec deny;
	/* The verdict of each entry's own text (entry_verdict), judged once
	 * at start-up, before any command of the session has run. */
	enum verdict *allow_v, *deny_v;
	/* Per allow entry, the commands inside its own text that need a
	 * decision ("VERDICT\tcommand"): what it says it runs besides itself. */
	struct strvec *allow_inner;
	bool sandbox_writable; /* then it may never pre-approve ESCAPE */
};

/* What a file a word of an answered command names was when the human
 * answered: a later command of the line may make the name another file
 * (the birth time tells a new file from one whose inode number it took). */
struct file_id {
	bool exists;
	dev_t dev;
	ino_t ino;
	long long btime_s;
	unsigned btime_ns;
};

/* A yes a line holds (given up front, or the session's, found when the
 * line began): the command as shown, in the folder shown, with the program
 * its first word ran as then and the files its words named then. */
struct bound_answer {
	char *command;
	char *cwd;
	char *program; /* realpath, "" for a builtin or nothing found */
	struct strvec words; /* empty when the command is not plain words */
	struct file_id *ids; /* one per word */
};

struct policy {
	struct classifier *cl;
	struct policy_options opts;
	struct allow_list user;    /* ~/.config/sbsh/allow.json */
	struct allow_list project; /* .agentcommands.json (protected: restored after every line) */
	struct strvec session_ok; /* session_key: the folder, the program, the command, the verdict */
	struct bound_answer *line_ok; /* the yeses this line holds (line_yes) */
	size_t nline_ok;
	struct strvec line_no;    /* ... and refused for it */
	unsigned line_depth;      /* nested lines (eval, source) share the outer decision */
	char *checkpoint_text;    /* the top-level line's text, for its checkpoint */
	/* The static pass over the top-level line being run: what it knew of
	 * each simple command binds that command's run-time check. */
	struct classify_result line;
	char **line_keys;           /* per item: the command as asked, NULL when SAFE */
	unsigned char *line_answer; /* per item: enum item_answer */
	bool up_front_unanswered;   /* the line's question timed out: not asked again */
	bool human_said_yes;        /* this line: the grants of the yes end with it */
	char session_why[256];      /* the session broker's reason for a refusal */
	struct timespec line_start; /* of the top-level line being run */
	struct timespec session_start; /* what a temp path made since is the session's own */
	char *hint;                 /* how to pre-approve, when not the usual words */
	/* The last program checked: the agent's scripts it reads as it runs
	 * (policy_seal_of, shell/exec.c). */
	struct classify_result seal;
	/* What the keeper said of program files, by what each file was then:
	 * a subshell (a pipeline's stage, a job, a $( )) cannot ask it. */
	struct agent_answer *answers;
	size_t nanswers;
	char *layer_upper; /* an isolated session's upper folder: what is there is the agent's */
};

struct agent_answer {
	char *path;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
	bool agents;
};

#define AGENT_ANSWERS_MAX 256

enum item_answer {
	ITEM_OPEN, /* not asked, or nobody could answer */
	ITEM_YES,  /* the human said yes up front, or for the session */
	ITEM_NO,   /* the human said no */
};

#define ALLOW_LIST_MAX (1u << 20) /* a list of commands; a sparse 100 GB file is not one */

/* Whether the sandbox could write this file: opening it to append (and
 * closing it at once) succeeds exactly when the rules allow writing it. */
static bool writable_here(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int load_allow_list(struct allow_list *l, const char *path)
{
	memset(l, 0, sizeof *l);
	strvec_init(&l->allow);
	strvec_init(&l->deny);
	if (access(path, F_OK) != 0)
		return 0;
	size_t len = 0;
	char *text = util_read_file(path, 0, ALLOW_LIST_MAX, &len);
	char *error = NULL;
	if (!text)
		error = xasprintf("%s: %s (nothing in it is trusted)", path,
		                  errno == EINVAL  ? "not a regular file"
		                  : errno == EFBIG ? "bigger than an allow-list can be (1 MiB)"
		                                   : strerror(errno));
	else
		allow_list_parse(text, len, path, &l->allow, &l->deny, &error);
	free(text);
	if (error) {
		fprintf(stderr, "sbsh: %s\n", error);
		free(error);
		return -1;
	}
	l->path = xstrdup(path);
	l->sandbox_writable = writable_here(path);
	return 0;
}

/* The project's list: .agentcommands.json at the top of the git work tree
 * the shell starts in (the one the warden protects), or, outside git, in
 * the starting folder itself. One the agent writes in a subfolder is never
 * honoured, not even by a nested sbsh started there (the warden takes it
 * away at the session's end). */
static char *project_allow_path(void)
{
	char dir[PATH_MAX], start[PATH_MAX];
	if (!getcwd(dir, sizeof dir))
		return NULL;
	snprintf(start, sizeof start, "%s", dir);
	const char *top = start;
	while (1) {
		size_t n = strlen(dir);
		char *git = xasprintf("%s/.git", n == 1 ? "" : dir);
		bool found = access(git, F_OK) == 0;
		free(git);
		if (found) {
			top = dir;
			break;
		}
		if (n == 1)
			break;
		char *slash = strrchr(dir, '/');
		if (slash == dir)
			dir[1] = '\0';
		else
			*slash = '\0';
	}
	char *candidate = xasprintf("%s/.agentcommands.json", strcmp(top, "/") == 0 ? "" : top);
	if (access(candidate, F_OK) == 0)
		return candidate; /* policy_init drops it when it lies in a shared folder */
	free(candidate);
	return NULL;
}

static char *user_allow_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && *xdg == '/')
		return xasprintf("%s/sbsh/allow.json", xdg);
	const char *home = getenv("HOME");
	return home && *home ? xasprintf("%s/.config/sbsh/allow.json", home) : NULL;
}

/* The verdict of an entry's own text, each word with `*`, `?` or `[` read
 * as a harmless word: an allow entry never pre-approves more than it says
 * (`git push origin *` is SAFE, so it covers no +refspec), a deny entry
 * denies what its text does (`git push --force *`: FORCE_PUSH). inner
 * (when not NULL) receives the commands inside the text that need a
 * decision, as "VERDICT\tcommand". */
static enum verdict entry_verdict(struct classifier *cl, const char *entry, struct strvec *inner)
{
	struct strvec words;
	strvec_init(&words);
	policy_entry_words(entry, &words);
	struct strbuf text;
	strbuf_init(&text);
	for (size_t i = 0; i < words.len; i++) {
		if (i)
			strbuf_addc(&text, ' ');
		vars_quote(&text, strpbrk(words.items[i], "*?[") ? "x" : words.items[i]);
	}
	strvec_free(&words);
	struct classify_result r;
	classify_result_init(&r);
	char *err = NULL;
	enum verdict v = VERDICT_SAFE;
	if (text.len && classify_text(cl, text.data, text.len, &r, &err) == 0)
		v = r.verdict;
	for (size_t i = 0; inner && v == r.verdict && i < r.nitems; i++)
		if (r.items[i].depth > 0 && r.items[i].verdict > VERDICT_SAFE && r.items[i].command)
			strvec_push_owned(inner, xasprintf("%d\t%s", (int)r.items[i].verdict, r.items[i].command));
	free(err);
	classify_result_free(&r);
	strbuf_free(&text);
	return v;
}

static void judge_entries(struct classifier *cl, struct allow_list *l)
{
	l->allow_v = xcalloc(l->allow.len ? l->allow.len : 1, sizeof *l->allow_v);
	l->deny_v = xcalloc(l->deny.len ? l->deny.len : 1, sizeof *l->deny_v);
	l->allow_inner = xcalloc(l->allow.len ? l->allow.len : 1, sizeof *l->allow_inner);
	for (size_t i = 0; i < l->allow.len; i++) {
		strvec_init(&l->allow_inner[i]);
		l->allow_v[i] = entry_verdict(cl, l->allow.items[i], &l->allow_inner[i]);
	}
	for (size_t i = 0; i < l->deny.len; i++)
		l->deny_v[i] = entry_verdict(cl, l->deny.items[i], NULL);
}

/* Whether the commands found inside what runs (r's items below the
 * command itself: a script, a Makefile's recipe, package scripts, -c
 * text) are all ones the entry's own text holds, at no higher verdict.
 * An entry for `make deploy` does not cover the `rm -rf keep` an agent's
 * Makefile puts in that recipe. */
static bool inner_covered(const struct strvec *inner, const struct classify_result *r)
{
	for (size_t i = 0; r && i < r->nitems; i++) {
		const struct classify_item *it = &r->items[i];
		if (it->depth == 0 || it->verdict == VERDICT_SAFE)
			continue;
		bool found = false;
		for (size_t k = 0; k < inner->len && !found; k++) {
			char *tab = strchr(inner->items[k], '\t');
			found = tab && it->command && atoi(inner->items[k]) >= (int)it->verdict &&
			        strcmp(tab + 1, it->command) == 0;
		}
		if (!found)
			return false;
	}
	return true;
}

/* The deny entry that refuses argv with verdict v, or NULL (*path: its
 * file): one matching it word for word, or one whose text is judged
 * DELETE or above and names the same program and operands (however the
 * command spells its options, wherever they stand) at that verdict or
 * above: `git push --force *` denies `git push origin +main`. */
static const char *list_denies(struct policy *p, char *const *argv, enum verdict v, const char **path)
{
	struct allow_list *lists[2] = {&p->user, &p->project};
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < lists[l]->deny.len; i++) {
			const char *e = lists[l]->deny.items[i];
			enum verdict ev = lists[l]->deny_v[i];
			if (policy_entry_matches(e, argv) ||
			    (ev >= VERDICT_DELETE && v >= ev && policy_entry_names(e, argv))) {
				*path = lists[l]->path;
				return e;
			}
		}
	return NULL;
}

/* Whether an allow entry pre-approves argv with verdict v: it matches, v
 * is no higher than the entry's own text's, and what r (when not NULL)
 * found inside what runs is in that text too; ESCAPE never from a list
 * the sandbox can write. */
static bool list_allows(struct policy *p, char *const *argv, enum verdict v, const struct classify_result *r)
{
	struct allow_list *lists[2] = {&p->user, &p->project};
	for (size_t l = 0; l < 2; l++) {
		if (v == VERDICT_ESCAPE && lists[l]->sandbox_writable)
			continue;
		for (size_t i = 0; i < lists[l]->allow.len; i++)
			if (v <= lists[l]->allow_v[i] && policy_entry_allows(lists[l]->allow.items[i], argv) &&
			    inner_covered(&lists[l]->allow_inner[i], r))
				return true;
	}
	return false;
}

/* What a command finds in its environment: the shell's exported variables. */
static const char *exported_value(void *ctx, const char *name)
{
	struct shell *sh = ctx;
	struct var *v = vars_lookup(sh, name);
	return v && (v->flags & VAR_EXPORT) ? vars_get(sh, name) : NULL;
}

/* Inside shell text: the allow-lists' word for one command, the deny
 * lists first; ESCAPE never from a list the sandbox can write. */
static bool allow_listed(void *ctx, char *const *argv, enum verdict v)
{
	struct policy *p = ctx;
	const char *path;
	return !list_denies(p, argv, v, &path) && list_allows(p, argv, v, NULL);
}

/* Only the human pre-approves: a list where any sandboxed session can
 * write, whatever its project, may have been planted by an agent. It is
 * dropped, and the refusals say why, where it matters. */
static void drop_if_shared(struct policy *p, struct allow_list *l, const char *instead)
{
	const char *shared = sandbox_shared_folder(l->path);
	if (!shared)
		return;
	free(p->hint);
	p->hint = xasprintf("%s (%s is not honoured: it lies in %s, which every sandboxed session can write)",
	                    instead, l->path, shared);
	strvec_free(&l->allow);
	strvec_free(&l->deny);
	free(l->path);
	l->path = NULL;
}

/* The project's list speaks for the human only as the human left it. The
 * warden puts back what a session changes, but a change made while no
 * session runs (a process the agent left behind, a session of a build
 * without the warden) would pass for the human's: so the keeper says
 * whether it is the content the human accepted; if not, the accepted
 * version is used (or none), and the agent is told. */
static void vet_project_list(struct policy *p, struct allow_list *l)
{
	if (!p->opts.checkpoints || p->opts.checkpoints->fd < 0)
		return;
	size_t len = 0;
	char *text = util_read_file(l->path, 0, ALLOW_LIST_MAX, &len);
	char *accepted = NULL;
	int verdict = text ? checkpoint_accepted(p->opts.checkpoints, l->path, text, len, &accepted) : -1;
	free(text);
	if (verdict != 0)
		return;
	strvec_free(&l->allow);
	strvec_free(&l->deny);
	strvec_init(&l->allow);
	strvec_init(&l->deny);
	char *error = NULL;
	if (accepted)
		allow_list_parse(accepted, strlen(accepted), l->path, &l->allow, &l->deny, &error);
	free(error);
	fprintf(stderr, "sbsh: %s changed after the human last accepted the project's files: %s (the human can "
	                "trust it with: sbsh --review accept %s)\n",
	        l->path, accepted ? "the accepted version is used" : "it is not honoured", l->path);
	free(accepted);
}

static bool since_session_start(const struct policy *p, const struct timespec *t)
{
	return t->tv_sec > p->session_start.tv_sec ||
	       (t->tv_sec == p->session_start.tv_sec && t->tv_nsec >= p->session_start.tv_nsec);
}

/* Whether a program file a command runs is the agent's, to be judged as
 * its text: in the project, when the keeper does not find it among what
 * the human accepted (when the keeper cannot tell, when it changed since
 * the session began); outside it, when it lies in a temp folder or the
 * sandbox's caches, which every session can write. */
static bool same_time(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/* The keeper's answer for the file as it is now, remembered by the shell
 * that asked: 1 the agent's, 0 the human's, -1 none (or it changed). */
static int remembered_answer(const struct policy *p, const char *real, const struct stat *st)
{
	for (size_t i = p->nanswers; i-- > 0;) {
		const struct agent_answer *a = &p->answers[i];
		if (strcmp(a->path, real) == 0)
			return a->dev == st->st_dev && a->ino == st->st_ino && a->size == st->st_size &&
			               same_time(&a->mtime, &st->st_mtim) && same_time(&a->ctime, &st->st_ctim)
			           ? a->agents
			           : -1;
	}
	return -1;
}

static void remember_answer(struct policy *p, const char *real, const struct stat *st, bool agents)
{
	if (p->nanswers == AGENT_ANSWERS_MAX) {
		free(p->answers[0].path);
		memmove(p->answers, p->answers + 1, (p->nanswers - 1) * sizeof *p->answers);
		p->nanswers--;
	}
	p->answers = xreallocarray(p->answers, p->nanswers + 1, sizeof *p->answers);
	p->answers[p->nanswers++] = (struct agent_answer){xstrdup(real), st->st_dev, st->st_ino, st->st_size,
	                                                  st->st_mtim, st->st_ctim, agents};
}

/* Whether rel (in the project) is in an isolated layer's upper folder:
 * a session of the layer wrote it (a whiteout is a deletion). stat needs
 * no right to read, so the hidden state folder is no obstacle. */
static bool in_layer(const char *upper, const char *rel)
{
	char *path = xasprintf("%s/%s", upper, rel);
	struct stat st;
	bool in = lstat(path, &st) == 0 && !(S_ISCHR(st.st_mode) && st.st_rdev == 0);
	free(path);
	return in;
}

static bool agent_program_file(void *ctx, const char *name)
{
	struct shell *sh = ctx;
	struct policy *p = sh->policy;
	char *real = realpath(name, NULL);
	if (!real)
		return false;
	const char *proj = sh->sandbox_project;
	size_t pn = proj ? strlen(proj) : 0;
	bool in_project = proj && strncmp(real, proj, pn) == 0 && real[pn] == '/';
	bool agents;
	struct stat st;
	const struct checkpoint_client *keeper = p->opts.checkpoints;
	if (in_project && p->layer_upper && in_layer(p->layer_upper, real + pn + 1)) {
		agents = true; /* written by a session of this isolated layer */
	} else if (!in_project) {
		agents = sandbox_shared_folder(real) != NULL;
	} else if (keeper && keeper->fd >= 0 && getpid() != keeper->pid) {
		/* A subshell cannot ask the keeper (its socket is the shell's):
		 * what the shell was told of the file as it still is, else the
		 * agent's, as the keeper says of what it has not accepted. */
		bool have = stat(real, &st) == 0;
		int known = have ? remembered_answer(p, real, &st) : -1;
		if (known < 0 && have && keeper->accepted_sec > 0)
			known = st.st_ctim.tv_sec > keeper->accepted_sec; /* changed after the accepted state */
		agents = known != 0;
	} else {
		/* No keeper to ask, or a path it does not keep (a large ignored
		 * folder): what changed since the session began is the agent's. */
		bool have = stat(real, &st) == 0;
		int accepted = checkpoint_program_accepted(p->opts.checkpoints, real);
		if (accepted < 0)
			agents = have && since_session_start(p, &st.st_ctim);
		else
			agents = accepted == 0;
		if (have && accepted >= 0)
			remember_answer(p, real, &st, agents);
	}
	free(real);
	return agents;
}

int policy_init(struct shell *sh, const struct policy_options *opts)
{
	struct policy *p = xcalloc(1, sizeof *p);
	p->opts = *opts;
	/* the coarse clock is what the kernel stamps inodes with */
	clock_gettime(CLOCK_REALTIME_COARSE, &p->session_start);
	const char *upper = getenv("SBSH_ISOLATED_UPPER");
	p->layer_upper = upper && upper[0] == '/' ? xstrdup(upper) : NULL;
	p->cl = opts->cl ? opts->cl : classifier_with_rules(opts->rules);
	classifier_set_lookup(p->cl, exported_value, sh);
	/* Programs there are judged by what they are (rule 8); without a
	 * sandbox, by the folders it would grant. */
	if (sh->sandbox_grants)
		classifier_set_writable(p->cl, sh->sandbox_grants);
	strvec_init(&p->session_ok);
	strvec_init(&p->line_no);
	sh->policy = p;
	char *path = user_allow_path();
	int rc = path ? load_allow_list(&p->user, path) : 0;
	if (!path) {
		strvec_init(&p->user.allow);
		strvec_init(&p->user.deny);
	} else if (p->user.path) {
		drop_if_shared(p, &p->user, "pre-approve in an allow.json outside the temp folders (XDG_CONFIG_HOME)");
	}
	free(path);
	path = project_allow_path();
	if ((path ? load_allow_list(&p->project, path) : 0) != 0)
		rc = -1;
	if (path && p->project.path)
		vet_project_list(p, &p->project);
	if (path && p->project.path)
		drop_if_shared(p, &p->project, "pre-approve in ~/.config/sbsh/allow.json");
	if (!path) {
		strvec_init(&p->project.allow);
		strvec_init(&p->project.deny);
	}
	/* It lives in the project, which the sandbox can write. */
	p->project.sandbox_writable = true;
	free(path);
	/* Before the lists approve anything inside shell text: an entry's own
	 * text is judged by the built-in rules alone. */
	judge_entries(p->cl, &p->user);
	judge_entries(p->cl, &p->project);
	classifier_set_approved(p->cl, allow_listed, p);
	classifier_set_agent_file(p->cl, agent_program_file, sh);
	return rc;
}

/* Only the shell itself makes the session's last check: a subshell or a
 * job it forked may become its last command (and must, so that it holds
 * no descriptor it saved for a redirection while that command runs: a
 * caller reading the pipe would wait for a job it never waited for). */
bool policy_protecting(struct shell *sh)
{
	struct policy *p = sh->policy;
	if (p && p->opts.checkpoints && p->opts.checkpoints->fd >= 0 && getpid() == p->opts.checkpoints->pid)
		return true; /* the last line's checkpoint comes after it */
	return p && p->opts.protect && p->opts.protect->fd >= 0 && getpid() == p->opts.protect->pid;
}

void policy_session_end(struct shell *sh)
{
	struct policy *p = sh->policy;
	if (!policy_protecting(sh))
		return;
	/* The last check, while the caller still waits on us (skipped when
	 * the shell's own watches saw nothing protected touched). */
	protect_session_end(p->opts.protect);
	checkpoint_session_end(p->opts.checkpoints);
}

void policy_set_opaque(struct shell *sh)
{
	if (sh->policy)
		sh->policy->opts.off = true;
}

/* argv as commands are shown and remembered; when marked is an index of
 * argv, *at and *len receive where that word is in the text. */
static char *normalise_marking(char *const *argv, size_t marked, size_t *at, size_t *len)
{
	struct strbuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			strbuf_addc(&sb, ' ');
		size_t start = sb.len;
		vars_quote(&sb, argv[i]);
		if (i == marked) {
			*at = start;
			*len = sb.len - start;
		}
	}
	return strbuf_detach(&sb);
}

static char *normalise(char *const *argv)
{
	return normalise_marking(argv, SIZE_MAX, NULL, NULL);
}

static bool contains(const struct strvec *v, const char *s)
{
	for (size_t i = 0; i < v->len; i++)
		if (strcmp(v->items[i], s) == 0)
			return true;
	return false;
}

/* The key of a yes for the session: the folder, the program (as
 * program_of or program_ran names it), the command and the verdict the
 * human was shown. */
static char *session_key(const char *command, const char *program, enum verdict v)
{
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		strcpy(cwd, "?");
	return xasprintf("%s\n%s\n%s\n%d", cwd, program, command, (int)v);
}

/* Whether a yes for the session covers command at verdict v: one given for
 * it at v or above (the same text may become worse: a git alias the agent
 * rewrote), never for ESCAPE. */
static bool session_holds(const struct policy *p, const char *command, const char *program, enum verdict v)
{
	for (enum verdict at = v; at < VERDICT_ESCAPE && v != VERDICT_ESCAPE; at++) {
		char *key = session_key(command, program, at);
		bool found = contains(&p->session_ok, key);
		free(key);
		if (found)
			return true;
	}
	return false;
}

/* The program a command run as name would be now, as realpath names it:
 * "" for a builtin, or when none is found. No hash: what PATH says. */
static char *program_of(struct shell *sh, const char *name)
{
	if (!name || !*name)
		return xstrdup("");
	if (strchr(name, '/')) {
		char *real = realpath(name, NULL);
		return real ? real : xstrdup(name);
	}
	if (builtin_find(name))
		return xstrdup("");
	const char *pv = vars_get(sh, "PATH");
	for (const char *d = pv ? pv : ""; pv;) {
		size_t n = strcspn(d, ":");
		char *cand = n ? xasprintf("%.*s/%s", (int)n, d, name) : xstrdup(name);
		struct stat st;
		bool found = access(cand, X_OK) == 0 && stat(cand, &st) == 0 && S_ISREG(st.st_mode);
		char *real = found ? realpath(cand, NULL) : NULL;
		free(cand);
		if (found)
			return real ? real : xstrdup("");
		if (!d[n])
			break;
		d += n + 1;
	}
	return xstrdup("");
}

/* The program about to run, named as program_of names it. */
static char *program_ran(const char *path)
{
	char *real = path ? realpath(path, NULL) : NULL;
	return real ? real : xstrdup(path ? path : "");
}

static void file_id_of(const char *word, struct file_id *id)
{
	struct statx stx;
	memset(id, 0, sizeof *id);
	if (!*word || statx(AT_FDCWD, word, AT_SYMLINK_NOFOLLOW | AT_STATX_DONT_SYNC, STATX_INO | STATX_BTIME,
	                    &stx) != 0)
		return;
	id->exists = true;
	id->dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	id->ino = stx.stx_ino;
	if (stx.stx_mask & STATX_BTIME) {
		id->btime_s = stx.stx_btime.tv_sec;
		id->btime_ns = stx.stx_btime.tv_nsec;
	}
}

static bool file_id_same(const struct file_id *a, const struct file_id *b)
{
	return a->exists == b->exists && a->dev == b->dev && a->ino == b->ino && a->btime_s == b->btime_s &&
	       a->btime_ns == b->btime_ns;
}

/* Records a yes for this line, bound to what the human was shown now. */
static void line_yes(struct shell *sh, struct policy *p, const char *command, char *const *words)
{
	p->line_ok = xreallocarray(p->line_ok, p->nline_ok + 1, sizeof *p->line_ok);
	struct bound_answer *a = &p->line_ok[p->nline_ok++];
	char cwd[PATH_MAX];
	a->command = xstrdup(command);
	a->cwd = xstrdup(getcwd(cwd, sizeof cwd) ? cwd : "?");
	a->program = program_of(sh, words ? words[0] : NULL);
	strvec_init(&a->words);
	for (size_t i = 0; words && words[i]; i++)
		strvec_push(&a->words, words[i]);
	a->ids = xcalloc(a->words.len ? a->words.len : 1, sizeof *a->ids);
	for (size_t i = 0; i < a->words.len; i++)
		file_id_of(a->words.items[i], &a->ids[i]);
}

static void line_yes_forget(struct policy *p)
{
	for (size_t i = 0; i < p->nline_ok; i++) {
		free(p->line_ok[i].command);
		free(p->line_ok[i].cwd);
		free(p->line_ok[i].program);
		strvec_free(&p->line_ok[i].words);
		free(p->line_ok[i].ids);
	}
	free(p->line_ok);
	p->line_ok = NULL;
	p->nline_ok = 0;
}

/* Whether a yes of this line covers command as it runs now: the same
 * folder, the same program (path: the one about to run, when argv is the
 * answered command's words; else found again), the same files. */
static bool line_yes_holds(struct shell *sh, const struct policy *p, const char *command, char *const *argv,
                           const char *path)
{
	char cwd[PATH_MAX];
	const char *here = getcwd(cwd, sizeof cwd) ? cwd : "?";
	for (size_t i = 0; i < p->nline_ok; i++) {
		const struct bound_answer *a = &p->line_ok[i];
		if (strcmp(a->command, command) != 0 || strcmp(a->cwd, here) != 0)
			continue;
		bool same_argv = argv && a->words.len == strv_len(argv);
		for (size_t w = 0; same_argv && w < a->words.len; w++)
			same_argv = strcmp(a->words.items[w], argv[w]) == 0;
		/* The same command whose glob or tilde now stands for other
		 * names: not what the human was shown. */
		bool expanded = false;
		for (size_t w = 0; !same_argv && argv && a->words.len && strcmp(a->words.items[0], argv[0]) == 0 &&
		                   w < a->words.len; w++)
			expanded = expanded || strpbrk(a->words.items[w], "*?[~");
		if (expanded)
			continue;
		char *program = same_argv ? program_ran(path) : program_of(sh, a->words.len ? a->words.items[0] : NULL);
		bool holds = strcmp(program, a->program) == 0;
		free(program);
		for (size_t w = 0; holds && w < a->words.len; w++) {
			struct file_id now;
			file_id_of(a->words.items[w], &now);
			holds = file_id_same(&now, &a->ids[w]);
		}
		if (holds)
			return true;
	}
	return false;
}

/* Splits an item's command, as the classifier shows it (plain words,
 * '...' quoting, backslash escapes), back into words; *decider is the
 * index of the word that made the verdict (SIZE_MAX when none). Returns
 * false for any other text. */
static bool split_item(const struct classify_item *it, struct strvec *out, size_t *decider)
{
	struct strbuf w;
	strbuf_init(&w);
	bool in_word = false, ok = true;
	*decider = SIZE_MAX;
	const char *s = it->command;
	for (const char *p = s; *p && ok; p++) {
		if (*p == ' ') {
			if (in_word)
				strvec_push_owned(out, strbuf_detach(&w));
			in_word = false;
			continue;
		}
		if (!in_word && it->word && (size_t)(p - s) == it->word_at)
			*decider = out->len;
		in_word = true;
		if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');
			ok = end != NULL;
			if (ok) {
				strbuf_addmem(&w, p + 1, (size_t)(end - p - 1));
				p = end;
			}
		} else if (*p == '\\' && p[1]) {
			strbuf_addc(&w, *++p);
		} else {
			ok = *p != '"';
			strbuf_addc(&w, *p);
		}
	}
	if (in_word)
		strvec_push_owned(out, strbuf_detach(&w));
	strbuf_free(&w);
	if (!ok || out->len == 0) {
		strvec_free(out);
		return false;
	}
	return true;
}

static void add_mark(struct strbuf *marks, size_t *count, size_t at, size_t len)
{
	if (len == 0 || *count >= BROKER_MARKS_MAX)
		return;
	strbuf_addf(marks, "%s%zu:%zu", *count ? "," : "", at, len);
	(*count)++;
}

/* The command the dynamic pass is about to ask about, and where in it the
 * deciding word of the item is: by the item's own words when they are
 * argv, else the first whole word of the text equal to it. */
static char *normalise_with_mark(char *const *argv, const struct classify_item *it, char **marks)
{
	struct strbuf mb;
	strbuf_init(&mb);
	size_t count = 0, at = 0, len = 0;
	struct strvec words;
	strvec_init(&words);
	size_t decider;
	char *command = NULL;
	if (it && split_item(it, &words, &decider) && decider != SIZE_MAX && words.len == strv_len(argv)) {
		bool same = true;
		for (size_t i = 0; i < words.len && same; i++)
			same = strcmp(words.items[i], argv[i]) == 0;
		if (same)
			command = normalise_marking(argv, decider, &at, &len);
	}
	strvec_free(&words);
	if (!command) {
		command = normalise(argv);
		size_t wlen = it && it->word ? strlen(it->word) : 0;
		for (const char *p = wlen ? strstr(command, it->word) : NULL; p && !len; p = strstr(p + 1, it->word))
			if ((p == command || p[-1] == ' ') && (p[wlen] == '\0' || p[wlen] == ' '))
				at = (size_t)(p - command), len = wlen;
	}
	add_mark(&mb, &count, at, len);
	*marks = strbuf_detach(&mb);
	return command;
}

/* Whether the up-front question can leave a command out: approved for the
 * session, or on a deny or allow list (then it is decided when reached,
 * as it would be without the question). */
static bool decided_without_asking(struct shell *sh, struct policy *p, const char *command, char *const *words,
                                   enum verdict v)
{
	char *program = program_of(sh, words ? words[0] : NULL);
	bool decided = session_holds(p, command, program, v);
	free(program);
	const char *path;
	return decided || (words && (list_denies(p, words, v, &path) || list_allows(p, words, v, NULL)));
}

static const char *pre_approve_hint(struct policy *p)
{
	return p->hint ? p->hint : "pre-approve in .agentcommands.json or ~/.config/sbsh/allow.json";
}

/* Whether a human can be asked: through the broker, which owns the
 * terminal the human answers on, or asks the approver (which answers no
 * process made inside the sandbox, so never the shell itself). */
static bool can_ask(const struct policy *p)
{
	return !p->opts.headless && (p->opts.broker_fd >= 0 || p->opts.session_socket);
}

/* Asks the human; as broker_request_approval. */
static int ask_human(struct shell *sh, const char *verdict, const char *command, const char *reason,
                     const char *marks, const char **why)
{
	struct policy *p = sh->policy;
	char cwd[PATH_MAX];
	struct approval_question q = {
		.folder = getcwd(cwd, sizeof cwd) ? cwd : "?", .verdict = verdict, .command = command,
		.reason = reason, .marks = marks ? marks : "", .program = "", .warning = "",
		.timeout_s = p->opts.approval_timeout_s ? p->opts.approval_timeout_s : 60,
	};
	int answer;
	if (p->opts.session_socket && !p->opts.session_server &&
	    !(p->opts.session_server = session_client_trust(p->opts.session_socket))) {
		answer = -1;
		*why = "the session's socket (SBSH_SESSION) is not its broker's: nobody to ask";
	} else if (p->opts.session_socket) {
		answer = session_client_ask(p->opts.session_socket, p->opts.session_server, &q, p->session_why,
		                            sizeof p->session_why);
		if (answer < 0)
			*why = p->session_why;
	} else {
		answer = broker_request_approval(p->opts.broker_fd, verdict, command, reason, marks, why);
	}
	if (answer == BROKER_YES_ONCE || answer == BROKER_YES_SESSION)
		p->human_said_yes = true;
	return answer;
}

/* The command of an item as questions show it and answers remember it:
 * as the dynamic pass normalises argv when the item's words are plain, so
 * the answer is found again when the command runs; *at and *len mark the
 * deciding word. words receives those words (empty when not plain). */
static char *item_key(const struct classify_item *it, struct strvec *words, size_t *at, size_t *len)
{
	size_t decider;
	*at = *len = 0;
	if (split_item(it, words, &decider))
		return normalise_marking(words->items, decider, at, len);
	char *command = xstrdup(it->command);
	if (it->word && it->word_at + strlen(it->word) <= strlen(command) &&
	    strncmp(command + it->word_at, it->word, strlen(it->word)) == 0)
		*at = it->word_at, *len = strlen(it->word);
	return command;
}

static void line_forget(struct policy *p)
{
	for (size_t i = 0; p->line_keys && i < p->line.nitems; i++)
		free(p->line_keys[i]);
	free(p->line_keys);
	free(p->line_answer);
	p->line_keys = NULL;
	p->line_answer = NULL;
	classify_result_free(&p->line);
}

/* Marks every item asked as key with the human's answer. */
static void line_answer_all(struct policy *p, const char *key, enum item_answer a)
{
	for (size_t i = 0; i < p->line.nitems; i++)
		if (p->line_keys[i] && strcmp(p->line_keys[i], key) == 0)
			p->line_answer[i] = (unsigned char)a;
}

/* Whether a command's text, as the static pass prints it, still holds an
 * expansion: a $ or ` outside single quotes (a backslash before one counts
 * too). A known word is printed in single quotes, so the $ of the text a
 * tool's wrapper gives bash -c is none: asking about that command at run
 * time too was a second question for one command (issue 22, item 5). */
static bool holds_expansion(const char *s)
{
	bool single = false, dbl = false;
	for (; *s; s++) {
		if (single) {
			single = *s != '\'';
		} else if (*s == '$' || *s == '`') {
			return true;
		} else if (*s == '\\') {
			if (s[1] == '$' || s[1] == '`')
				return true;
			if (s[1])
				s++;
		} else if (*s == '"') {
			dbl = !dbl;
		} else if (*s == '\'' && !dbl) {
			single = true;
		}
	}
	return false;
}

/* Whether a command of the static pass is to be asked as it runs rather
 * than up front: its words still hold expansions, or a glob or a tilde
 * (the static text shows `b*` and `~/x` quoted, and an earlier command of
 * the line may make `b*` match another folder). A ? or * inside a known
 * word (`bash -c 'rm x; echo "$?"'`) is no pattern: the classifier says
 * which words are. */
static bool not_decidable_now(const struct classify_item *it)
{
	return holds_expansion(it->command) || it->globbed;
}

void policy_line_begin(struct shell *sh, const struct node *line)
{
	struct policy *p = sh->policy;
	if (p && p->line_depth == 0)
		events_line_begin(p->opts.events, line);
	if (p && p->line_depth == 0 && p->opts.checkpoints && p->opts.checkpoints->fd >= 0) {
		checkpoint_line_begin(p->opts.checkpoints);
		free(p->checkpoint_text);
		p->checkpoint_text = ast_line_text(line);
	}
	if (!p || p->opts.off || p->line_depth++ > 0)
		return;
	line_yes_forget(p);
	strvec_free(&p->line_no);
	line_forget(p);
	p->up_front_unanswered = false;
	/* The clock file times come from (the coarse one): a file changed by
	 * the line is never taken for one from before it. */
	clock_gettime(CLOCK_REALTIME_COARSE, &p->line_start);
	if (p->opts.text_safe)
		return; /* judged whole at startup: nothing in it binds above SAFE */
	/* The static pass runs headless too: what it knows binds each
	 * command's check when the command runs. */
	struct classify_result *r = &p->line;
	classify_static(p->cl, line, r);
	p->line_keys = xcalloc(r->nitems ? r->nitems : 1, sizeof *p->line_keys);
	p->line_answer = xcalloc(r->nitems ? r->nitems : 1, 1);
	for (size_t i = 0; i < r->nitems; i++) {
		struct classify_item *it = &r->items[i];
		if (it->verdict == VERDICT_SAFE || !it->command)
			continue;
		struct strvec words;
		strvec_init(&words);
		size_t at, len;
		p->line_keys[i] = item_key(it, &words, &at, &len);
		char *program = program_of(sh, words.len ? words.items[0] : NULL);
		if (session_holds(p, p->line_keys[i], program, it->verdict)) {
			/* Held for this line as a yes up front is: bound to what
			 * the words name now. */
			p->line_answer[i] = ITEM_YES;
			line_yes(sh, p, p->line_keys[i], words.len ? words.items : NULL);
		}
		free(program);
		strvec_free(&words);
	}
	if (!can_ask(p))
		return; /* each command is refused when it is reached */
	/* Only what is decidable now is asked up front; ASK waits for the
	 * expanded argv. The escape builtin asks for itself. */
	struct strbuf cmds, reasons, marks;
	strbuf_init(&cmds);
	strbuf_init(&reasons);
	strbuf_init(&marks);
	size_t nmarks = 0;
	enum verdict worst = VERDICT_SAFE;
	struct strvec asked;
	strvec_init(&asked);
	struct strvec *asked_words = NULL; /* per asked command: its words, or none */
	/* per asked command: its verdict (at most one per item) */
	enum verdict *asked_v = xcalloc(r->nitems ? r->nitems : 1, sizeof *asked_v);
	/* A command of the line holding one that is not decidable now (sh
	 * clean.sh whose script runs rm -rf "$(...)") is asked as it runs,
	 * whole: asked now, the question would show only `sh clean.sh`. */
	bool *later = xcalloc(r->nitems ? r->nitems : 1, sizeof *later);
	for (size_t k = 0; k < r->nbindings; k++) {
		const struct classify_binding *b = &r->bindings[k];
		bool open = false;
		for (size_t i = b->first; i < b->end && i < r->nitems && !open; i++)
			open = r->items[i].verdict > VERDICT_SAFE &&
			       (r->items[i].verdict == VERDICT_ASK || !r->items[i].command ||
			        not_decidable_now(&r->items[i]));
		for (size_t i = b->first; open && i < b->end && i < r->nitems; i++)
			later[i] = true;
	}
	for (size_t i = 0; i < r->nitems; i++) {
		struct classify_item *it = &r->items[i];
		if (later[i])
			continue;
		/* ESCAPE is asked where it runs, each time, for the typed code. */
		if (it->verdict <= VERDICT_ASK || it->verdict == VERDICT_ESCAPE || !it->command ||
		    p->line_answer[i] == ITEM_YES)
			continue;
		if (strncmp(it->command, "escape ", 7) == 0 || strcmp(it->command, "escape") == 0)
			continue;
		/* A command whose words still hold expansions is asked when it
		 * runs, so the human sees what will really run. */
		if (not_decidable_now(it))
			continue;
		struct strvec words;
		strvec_init(&words);
		size_t at, len;
		char *command = item_key(it, &words, &at, &len);
		/* `. FILE`, `source FILE` and `eval TEXT` run what they hold
		 * through this shell, each command checked as it runs; what is
		 * decidable in it is asked as commands of its own. */
		bool runs_here = words.len && (strcmp(words.items[0], ".") == 0 || strcmp(words.items[0], "source") == 0 ||
		                               strcmp(words.items[0], "eval") == 0);
		size_t dup = SIZE_MAX;
		for (size_t k = 0; k < asked.len && dup == SIZE_MAX; k++)
			if (strcmp(asked.items[k], command) == 0)
				dup = k;
		if (dup != SIZE_MAX && it->verdict > asked_v[dup])
			asked_v[dup] = it->verdict;
		bool skip = runs_here || dup != SIZE_MAX ||
		            decided_without_asking(sh, p, command, words.len ? words.items : NULL, it->verdict);
		if (skip) {
			strvec_free(&words);
			free(command);
			continue;
		}
		asked_words = xreallocarray(asked_words, asked.len + 1, sizeof *asked_words);
		asked_words[asked.len] = words;
		asked_v[asked.len] = it->verdict;
		if (cmds.len)
			strbuf_adds(&cmds, "; ");
		add_mark(&marks, &nmarks, cmds.len + at, len);
		strbuf_adds(&cmds, command);
		strvec_push_owned(&asked, command);
		const char *why = it->reason && *it->reason ? it->reason : verdict_name(it->verdict);
		if (!strstr(reasons.data ? reasons.data : "", why)) {
			if (reasons.len)
				strbuf_adds(&reasons, "; ");
			strbuf_adds(&reasons, why);
		}
		if (it->verdict > worst)
			worst = it->verdict;
	}
	if (asked.len) {
		const char *why = NULL;
		int answer = ask_human(sh, verdict_name(worst), cmds.data, reasons.data, marks.data, &why);
		/* Nobody could answer, or not in time: each command is refused
		 * with the reason when it is reached. */
		/* asked_words holds one entry per asked command. */
		size_t n = answer < 0 || answer == BROKER_TIMEOUT || !asked_words ? 0 : asked.len;
		if (n == 0)
			p->up_front_unanswered = answer == BROKER_TIMEOUT;
		bool yes = answer == BROKER_YES_ONCE || answer == BROKER_YES_SESSION;
		for (size_t i = 0; i < n; i++) {
			char *const *words = asked_words[i].len ? asked_words[i].items : NULL;
			if (yes)
				line_yes(sh, p, asked.items[i], words);
			else
				strvec_push(&p->line_no, asked.items[i]);
			line_answer_all(p, asked.items[i], yes ? ITEM_YES : ITEM_NO);
			if (answer == BROKER_YES_SESSION) {
				char *program = program_of(sh, words ? words[0] : NULL);
				strvec_push_owned(&p->session_ok, session_key(asked.items[i], program, asked_v[i]));
				free(program);
			}
		}
	}
	for (size_t i = 0; asked_words && i < asked.len; i++)
		strvec_free(&asked_words[i]);
	free(asked_words);
	free(asked_v);
	free(later);
	strvec_free(&asked);
	strbuf_free(&cmds);
	strbuf_free(&reasons);
	strbuf_free(&marks);
}

void policy_line_end(struct shell *sh)
{
	struct policy *p = sh->policy;
	if (p && p->line_depth <= 1) { /* the end of a top-level line */
		protect_line_end(p->opts.protect);
		events_line_end(p->opts.events, sh->last_status);
		if (p->checkpoint_text) {
			checkpoint_line_end(p->opts.checkpoints, p->checkpoint_text, sh->last_status);
			free(p->checkpoint_text);
			p->checkpoint_text = NULL;
		}
	}
	if (p && p->line_depth > 0 && --p->line_depth == 0) {
		line_yes_forget(p);
		strvec_free(&p->line_no);
		line_forget(p);
		/* The yes answered what ran inside this line, no more. */
		if (p->human_said_yes && p->opts.session_socket)
			session_client_release(p->opts.session_socket, p->opts.session_server);
		else if (p->human_said_yes && p->opts.broker_fd >= 0)
			broker_request_release(p->opts.broker_fd);
		p->human_said_yes = false;
	}
}

static char *nobody_in_time(const struct policy *p)
{
	return xasprintf("nobody answered within %u s", p->opts.approval_timeout_s ? p->opts.approval_timeout_s : 60);
}

/* The command that made argv's verdict v when it lies in the text argv
 * runs (bash -c TEXT, a script the agent wrote) rather than in argv: the
 * index of the first item of verdict v that holds no command of that
 * verdict itself. -1 when argv's own words decided. */
static ssize_t inner_decider(const struct classify_result *r, enum verdict v)
{
	for (size_t i = 0; i < r->nitems; i++) {
		const struct classify_item *it = &r->items[i];
		if (it->verdict != v)
			continue;
		bool holds = false;
		for (size_t j = i + 1; j < r->nitems && r->items[j].depth > it->depth && !holds; j++)
			holds = r->items[j].verdict == v;
		if (!holds)
			return it->depth > 0 && it->command ? (ssize_t)i : -1;
	}
	return -1;
}

/* How a refusal names a command found inside argv's text: the command
 * itself and its line in the text that holds it (the program whose text
 * that is: the item just above it, argv itself at the top), not the whole
 * text (a tool's wrapper quotes all of it), and that none of it ran. */
static char *inner_refusal(char *const *argv, const struct classify_result *r, enum verdict v)
{
	ssize_t at = inner_decider(r, v);
	if (at < 0)
		return NULL;
	const struct classify_item *it = &r->items[at];
	char *program = NULL;
	for (ssize_t i = at - 1; i >= 0 && !program; i--) {
		const struct classify_item *up = &r->items[i];
		if (up->depth + 1 == it->depth && up->depth > 0 && up->command)
			program = xstrndup(up->command, strcspn(up->command, " \t\n"));
	}
	if (!program)
		program = xstrdup(argv[0]);
	const char *base = strrchr(program, '/');
	base = base && base[1] ? base + 1 : program;
	char *out = it->has_range && it->range.begin.line > 0
	                    ? xasprintf("%s, on line %u of what %s runs (none of it ran)", it->command,
	                                it->range.begin.line, base)
	                    : xasprintf("%s, in what %s runs (none of it ran)", it->command, base);
	free(program);
	return out;
}

/* inner: what inner_refusal says, shown instead of the command; then the
 * position in the -c text (a tool's wrapper around the agent's text) is
 * left out, a script file's kept. */
static int refuse(struct shell *sh, enum verdict v, const char *command, const char *why,
                  const char *hint, const char *inner)
{
	if (inner && sh->opt.cmd_string && !sh->source_name)
		shell_warn("refused %s (%s): %s%s%s", verdict_name(v), why, inner, hint ? " — " : "", hint ? hint : "");
	else
		shell_error(sh, "refused %s (%s): %s%s%s", verdict_name(v), why, inner ? inner : command,
		            hint ? " — " : "", hint ? hint : "");
	return STATUS_REFUSED;
}

/* Standard input when nothing on the line says where it comes from: the
 * shell's own, or a pipeline's. What a program would read as code from a
 * pipe, a socket or a file is not known; a terminal is the human's. */
static enum stdin_kind inherited_stdin(void)
{
	struct stat st;
	if (fstat(0, &st) != 0 || S_ISCHR(st.st_mode))
		return STDIN_NONE;
	return STDIN_UNKNOWN;
}

/* What the run-time check is told besides the argv: what the static pass
 * knew of this command, or, for a command it did not see (a function
 * defined on an earlier line, eval'd text), its own redirections. *owned
 * receives text to free. */
static void command_facts(struct shell *sh, const struct classify_binding *b, struct classify_facts *f,
                          char **owned, const struct node ***procsubs)
{
	struct policy *p = sh->policy;
	memset(f, 0, sizeof *f);
	*owned = NULL;
	f->written = p->line.written;
	f->nwritten = p->line.nwritten;
	f->line_start = p->line_start;
	f->words = p->line.words;
	f->nwords = p->line.nwords;
	f->word_nodes = p->line.word_nodes;
	f->self = sh->running_simple;
	f->in.kind = STDIN_NONE;
	if (b) {
		f->in.kind = b->stdin_kind;
		f->in.text = b->stdin_text;
		f->procsubs = b->procsubs;
		f->nprocsubs = b->nprocsubs;
	} else if (sh->running_simple) {
		const struct node *n = sh->running_simple;
		/* Its <( ) words, in order: what its /dev/fd/N operands read. */
		for (size_t i = 0; i < n->u.simple.nwords; i++) {
			const struct word *w = n->u.simple.words[i];
			if (w->nparts == 1 && w->parts[0].kind == WORD_PROCSUB && !w->parts[0].u.procsub->output) {
				*procsubs = xreallocarray(*procsubs, f->nprocsubs + 1, sizeof **procsubs);
				(*procsubs)[f->nprocsubs++] = w->parts[0].u.procsub->program;
			}
		}
		f->procsubs = *procsubs;
		for (size_t i = 0; i < n->nredirs; i++) {
			const struct redir *rd = &n->redirs[i];
			bool here = rd->op == REDIR_HEREDOC || rd->op == REDIR_HEREDOC_STRIP;
			if (rd->fd > 0 || !(here || rd->op == REDIR_HERESTRING || rd->op == REDIR_IN ||
			                    rd->op == REDIR_RDWR || rd->op == REDIR_DUP_IN))
				continue;
			free(*owned);
			*owned = NULL;
			char *text = NULL;
			if (here && !rd->heredoc)
				text = xstrdup("");
			else if ((here && ast_word_literal_value(rd->heredoc, &text)) ||
			         (rd->op == REDIR_HERESTRING && ast_word_literal_value(rd->target, &text))) {
				if (rd->op == REDIR_HERESTRING) {
					char *t = xasprintf("%s\n", text);
					free(text);
					text = t;
				}
			} else {
				text = NULL;
			}
			*owned = text;
			f->in.text = text;
			f->in.kind = text ? STDIN_TEXT : rd->op == REDIR_IN || rd->op == REDIR_RDWR ? STDIN_FILE : STDIN_UNKNOWN;
		}
		/* A pipeline stage the static pass did not see: what the stage
		 * before it writes, when that is a constant. */
		if (f->in.kind == STDIN_NONE && sh->stdin_producer) {
			char *text;
			f->in.kind = STDIN_UNKNOWN;
			if (classify_producer_output(p->cl, sh->stdin_producer, &text)) {
				*owned = text;
				f->in.kind = STDIN_TEXT;
				f->in.text = text;
			}
		}
	}
	/* A here-document or here-string expanded just now: its text is known. */
	if (sh->expanded_stdin.redir && sh->expanded_stdin.body) {
		f->in.kind = STDIN_TEXT;
		f->in.text = sh->expanded_stdin.body;
	}
	if (f->in.kind == STDIN_NONE)
		f->in.kind = inherited_stdin();
}

/* Whether every question the line asked up front about this command was
 * answered yes (*said_no: one was answered no). */
static bool answered_up_front(struct shell *sh, const struct policy *p, const struct classify_binding *b,
                              char *const *argv, const char *path, bool *said_no)
{
	bool all = b != NULL && b->verdict > VERDICT_SAFE;
	*said_no = false;
	for (size_t i = b ? b->first : 0; b && i < b->end && i < p->line.nitems; i++) {
		if (p->line.items[i].verdict == VERDICT_SAFE)
			continue;
		if (p->line_answer[i] == ITEM_NO)
			*said_no = true;
		else if (p->line_answer[i] != ITEM_YES || !line_yes_holds(sh, p, p->line_keys[i], argv, path))
			all = false; /* not asked, or no longer what the human was shown */
	}
	return all && !*said_no;
}

/* Whether path (resolved) lies strictly inside a temp folder. */
static bool inside_temp(const char *real)
{
	const char *shared = sandbox_shared_folder(real);
	if (!shared || strncmp(shared, "a temp folder", 13) != 0)
		return false;
	static const char *const roots[] = {"/tmp", "/var/tmp", "/dev/shm"};
	for (size_t i = 0; i < sizeof roots / sizeof *roots; i++)
		if (strcmp(real, roots[i]) == 0)
			return false;
	const char *tmpdir = getenv("TMPDIR");
	char *t = tmpdir && *tmpdir ? realpath(tmpdir, NULL) : NULL;
	bool root = t && strcmp(t, real) == 0;
	free(t);
	return !root;
}

/* rm, rmdir or unlink, the system's (not one in a folder the sandbox can
 * write): what the delete rules below may call SAFE. */
static bool system_delete_program(char *const *argv, const char *path)
{
	if (!path)
		return false;
	const char *base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	if (strcmp(base, "rm") != 0 && strcmp(base, "rmdir") != 0 && strcmp(base, "unlink") != 0)
		return false;
	char *prog = realpath(path, NULL);
	bool system = prog && (strncmp(prog, "/usr/bin/", 9) == 0 || strncmp(prog, "/bin/", 5) == 0) &&
	              strcmp(strrchr(prog, '/') + 1, base) == 0;
	free(prog);
	return system;
}

static bool in_project(const struct shell *sh, const char *real)
{
	const char *proj = sh->sandbox_project;
	size_t pn = proj ? strlen(proj) : 0;
	return proj && real && strncmp(real, proj, pn) == 0 && (real[pn] == '/' || real[pn] == '\0');
}

/* The agent's own scratch: an operand inside a temp folder, outside the
 * project, made since this session started (in the same tick of the
 * kernel's coarse clock counts), or absent, as in `tmp=$(mktemp -d);
 * trap 'rm -rf "$tmp"' EXIT`. Whatever was moved there from the project
 * is in the checkpoints. */
static bool own_temp_operand(const struct shell *sh, const struct policy *p, const char *real)
{
	/* a project that lies in /tmp is the project, not scratch */
	bool ok = real && !in_project(sh, real) && inside_temp(real);
	struct statx sx;
	if (ok && statx(AT_FDCWD, real, AT_SYMLINK_NOFOLLOW, STATX_BTIME | STATX_CTIME, &sx) == 0) {
		struct statx_timestamp t = (sx.stx_mask & STATX_BTIME) ? sx.stx_btime : sx.stx_ctime;
		ok = t.tv_sec > p->session_start.tv_sec ||
		     (t.tv_sec == p->session_start.tv_sec && (long)t.tv_nsec >= p->session_start.tv_nsec);
	} else if (ok) {
		ok = errno == ENOENT; /* nothing there to lose */
	}
	return ok;
}

#define OVERLAYFS_SUPER_MAGIC_VALUE 0x794c7630L

/* Whether the shell runs in an isolated session's view: a layer is named
 * and the project is itself the top of an OverlayFS mount (another device
 * than its parent), which nothing inside a sandbox can make. A container
 * whose root is OverlayFS has the project on it, not at its top. */
static bool in_isolated_view(const struct shell *sh, const struct policy *p)
{
	const char *proj = sh->sandbox_project;
	if (!p->layer_upper || !proj || strcmp(proj, "/") == 0)
		return false;
	struct statfs sf;
	struct stat top, parent;
	char *up = xasprintf("%s/..", proj);
	bool view = statfs(proj, &sf) == 0 && sf.f_type == OVERLAYFS_SUPER_MAGIC_VALUE && stat(proj, &top) == 0 &&
	            stat(up, &parent) == 0 && top.st_dev != parent.st_dev;
	free(up);
	return view;
}

/* Policy rule 13: a system delete that loses nothing of the human's. Each
 * operand (resolved as rm acts on it) is the session's scratch, or, in an
 * isolated session, in the project, where a delete removes only the
 * layer's copy: discard or reject undoes it, and accept never applies a
 * deletion inside .git (docs/isolation.md). */
static bool harmless_delete(const struct shell *sh, const struct policy *p, char *const *argv, const char *path)
{
	if (!system_delete_program(argv, path))
		return false;
	bool view = in_isolated_view(sh, p);
	bool options_done = false;
	size_t operands = 0;
	for (size_t i = 1; argv[i]; i++) {
		const char *a = argv[i];
		if (!options_done && strcmp(a, "--") == 0) {
			options_done = true;
			continue;
		}
		if (!options_done && a[0] == '-' && a[1])
			continue;
		operands++;
		char *real = policy_acted_path(a);
		bool ok = own_temp_operand(sh, p, real) || (view && in_project(sh, real));
		free(real);
		if (!ok)
			return false;
	}
	return operands > 0;
}

struct policy_seal policy_seal_of(struct shell *sh)
{
	struct policy *p = sh->policy;
	struct policy_seal none = {0};
	if (!p || p->opts.off)
		return none;
	return (struct policy_seal){p->seal.sealed, p->seal.nsealed, p->seal.seal_stdin};
}

int policy_check_argv(struct shell *sh, char *const *argv, const char *path)
{
	struct policy *p = sh->policy;
	if (!p || p->opts.off || !argv[0])
		return 0;
	const struct classify_binding *b =
		p->line_keys ? classify_binding_of(&p->line, sh->running_simple) : NULL;
	struct classify_facts facts;
	char *facts_text;
	const struct node **procsubs = NULL;
	command_facts(sh, b, &facts, &facts_text, &procsubs);
	struct classify_result r;
	classify_result_init(&r);
	enum verdict v = classify_argv_facts(p->cl, argv, path, path ? CLASSIFY_PROGRAM : CLASSIFY_BUILTIN,
	                                     &facts, &r);
	if (path) {
		/* what this program reads as it runs, whatever is decided */
		classify_result_free(&p->seal);
		p->seal.sealed = r.sealed;
		p->seal.nsealed = r.nsealed;
		p->seal.seal_stdin = r.seal_stdin;
		r.sealed = NULL;
		r.nsealed = 0;
	}
	/* Deny always wins, even over a yes given up front: the argv, or a
	 * command the classifier found in it (behind a wrapper, in sh -c). */
	const char *deny_path = NULL;
	const char *denied = NULL;
	if (v != VERDICT_SAFE && !(!path && strcmp(argv[0], "escape") == 0)) {
		denied = list_denies(p, argv, v, &deny_path);
		for (size_t i = 0; i < r.nitems && !denied; i++) {
			struct strvec words;
			strvec_init(&words);
			size_t decider;
			if (r.items[i].verdict > VERDICT_SAFE && split_item(&r.items[i], &words, &decider))
				denied = list_denies(p, words.items, r.items[i].verdict, &deny_path);
			strvec_free(&words);
		}
	}
	if (denied) {
		char *command = normalise(argv);
		char *why = xasprintf("denied by %s: %s", deny_path, denied);
		char *inner = inner_refusal(argv, &r, v);
		int rc = refuse(sh, v, command, why, NULL, inner);
		free(inner);
		events_command(p->opts.events, argv, verdict_name(v), "refuse", "deny-list");
		free(why);
		free(command);
		classify_result_free(&r);
		free(facts_text);
		free(procsubs);
		return rc;
	}
	if (v == VERDICT_DELETE && harmless_delete(sh, p, argv, path))
		v = VERDICT_SAFE; /* policy rule 13: the session's scratch, a layer's copy; a deny entry still won */
	bool said_no = false;
	/* What the human was shown up front and said yes to runs, unless the
	 * run-time check finds more; a no binds the command whatever its argv. */
	if (v != VERDICT_SAFE && b && answered_up_front(sh, p, b, argv, path, &said_no) && v <= b->verdict) {
		events_command(p->opts.events, argv, verdict_name(v), "allow", "human");
		classify_result_free(&r);
		free(facts_text);
		free(procsubs);
		return 0;
	}
	if (said_no && !(!path && strcmp(argv[0], "escape") == 0)) {
		char *command = normalise(argv);
		enum verdict shown = v > VERDICT_SAFE ? v : b->verdict;
		char *inner = inner_refusal(argv, &r, shown);
		int rc = refuse(sh, shown, command, "the human said no", NULL, inner);
		free(inner);
		events_command(p->opts.events, argv, verdict_name(v), "refuse", "human");
		free(command);
		classify_result_free(&r);
		free(facts_text);
		free(procsubs);
		return rc;
	}
	if (v == VERDICT_SAFE || (!path && strcmp(argv[0], "escape") == 0)) {
		/* the escape builtin puts it to the human itself, with a code */
		if (v == VERDICT_SAFE)
			events_command(p->opts.events, argv, "SAFE", "allow", "safe");
		else
			events_escape(p->opts.events, argv + 1,
			              p->opts.nobody_why ? "no broker" : !can_ask(p) ? "headless refusal" : "asked", -1);
		classify_result_free(&r);
		free(facts_text);
		free(procsubs);
		return 0;
	}
	const char *by = "human";
	char *reason = NULL;
	const struct classify_item *decider = NULL;
	for (size_t i = 0; i < r.nitems; i++) {
		if (r.items[i].verdict != v)
			continue;
		if (!decider)
			decider = &r.items[i];
		if (!reason && r.items[i].reason && *r.items[i].reason)
			reason = xstrdup(r.items[i].reason);
	}

	int rc = 0;
	char *marks = NULL;
	/* plain: the argv as answers of this line are found again by (the
	 * up-front question's keys); command: what the human is shown. */
	char *plain = normalise_with_mark(argv, decider, &marks);
	char *command = xstrdup(plain);
	char *inner = inner_refusal(argv, &r, v);
	/* Raised by what the argv does not show (its standard input, a <( ),
	 * a script written on the line, its environment): then neither an
	 * answer remembered for the argv nor an allow entry for the program
	 * covers it, and the human is shown the text it will read. */
	struct classify_result r0;
	classify_result_init(&r0);
	bool raised = classify_argv(p->cl, argv, path, path ? CLASSIFY_PROGRAM : CLASSIFY_BUILTIN, &r0) < v;
	classify_result_free(&r0);
	if (raised && facts.in.kind == STDIN_TEXT && facts.in.text) {
		char *shown = xasprintf("%s <<'EOF'\n%s%sEOF", command, facts.in.text,
		                        *facts.in.text && facts.in.text[strlen(facts.in.text) - 1] != '\n' ? "\n" : "");
		free(command);
		command = shown;
	}
	/* What runs inside it and needs a decision, when the text shown so
	 * far does not hold it (a script's, a Makefile recipe's, a package
	 * script's commands): the human sees those too, never only `sh x.sh`. */
	struct strbuf runs;
	strbuf_init(&runs);
	for (size_t i = 0; i < r.nitems; i++) {
		const struct classify_item *it = &r.items[i];
		if (it->depth == 0 || it->verdict == VERDICT_SAFE || !it->command || strstr(command, it->command) ||
		    (runs.len && strstr(runs.data, it->command)))
			continue;
		strbuf_adds(&runs, runs.len ? "; " : " — runs: ");
		strbuf_adds(&runs, it->command);
	}
	if (runs.len) {
		char *shown = xasprintf("%s%s", command, runs.data);
		free(command);
		command = shown;
	}
	strbuf_free(&runs);
	/* An entry covers a verdict raised by what the argv does not show
	 * only when its own text is judged as high, and what runs inside only
	 * when its own text holds that too (list_allows). */
	bool listed = list_allows(p, argv, v, &r);
	classify_result_free(&r);
	char *key = NULL;
	if (listed) {
		by = "allow-list";
		goto done;
	}
	char *program = program_ran(path);
	key = session_key(command, program, v);
	bool held = session_holds(p, command, program, v);
	free(program);
	if (!raised && v != VERDICT_ESCAPE && (held || line_yes_holds(sh, p, plain, argv, path)))
		goto done;
	if (contains(&p->line_no, plain)) {
		rc = refuse(sh, v, command, "the human said no", NULL, inner);
		goto done;
	}
	if (!can_ask(p)) {
		by = p->opts.nobody_why ? "no broker" : "headless";
		rc = refuse(sh, v, command, p->opts.nobody_why ? p->opts.nobody_why : "headless, nobody to approve",
		            pre_approve_hint(p), inner);
		goto done;
	}
	if (p->up_front_unanswered) {
		/* The line's question went unanswered: not put again, once per command. */
		by = "timeout";
		char *late = nobody_in_time(p);
		rc = refuse(sh, v, command, late, pre_approve_hint(p), inner);
		free(late);
		goto done;
	}
	fflush(stdout);
	const char *why = NULL;
	int answer = ask_human(sh, verdict_name(v), command, reason ? reason : verdict_name(v), marks, &why);
	if (answer < 0)
		by = p->opts.nobody_why ? "no broker" : "headless";
	if (answer == BROKER_TIMEOUT)
		by = "timeout";
	if (answer == BROKER_YES_SESSION) {
		if (!raised && v != VERDICT_ESCAPE)
			strvec_push(&p->session_ok, key);
	} else if (answer != BROKER_YES_ONCE) {
		char *late = answer == BROKER_TIMEOUT ? nobody_in_time(p) : NULL;
		rc = refuse(sh, v, command, answer < 0 ? why : late ? late : "the human said no",
		            answer < 0 || late ? pre_approve_hint(p) : NULL, inner);
		free(late);
		if (answer == BROKER_NO)
			strvec_push(&p->line_no, plain);
	}
done:
	events_command(p->opts.events, argv, verdict_name(v), rc ? "refuse" : "allow", by);
	free(reason);
	free(inner);
	free(marks);
	free(key);
	free(command);
	free(plain);
	free(facts_text);
	free(procsubs);
	return rc;
}
