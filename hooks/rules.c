/* The rules: which commands delete, publish, force-push or escape, and how
 * to see through the wrappers that hide them. Tables where a tool is just
 * "these subcommands, these flags"; a handler where a tool's arguments need
 * reading (git, find, sed, the shells and interpreters). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hooks/rules.h"
#include "lib/gitconfig.h"
#include "lib/util.h"

#define J(v, r, at) judgement_make((v), (r), (at))
#define SAFE_J J(VERDICT_SAFE, NULL, -1)

/* ---- small helpers ----------------------------------------------------- */

static bool eq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool kn(const struct sarg *a, const char *s)
{
	return a->known && strcmp(a->text, s) == 0;
}

/* Is s one of the "|"-separated words of list? */
static bool in_list(const char *list, const char *s, size_t slen)
{
	if (!list)
		return false;
	const char *p = list;
	while (*p) {
		const char *end = strchr(p, '|');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == slen && strncmp(p, s, len) == 0)
			return true;
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

static bool in_lists(const char *list, const char *s)
{
	return in_list(list, s, strlen(s));
}

/* Index of the first "--" at or after from, or n. */
static size_t dashdash(const struct sarg *a, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++)
		if (kn(&a[i], "--"))
			return i;
	return n;
}

/* Does the argument spell one of flags ("--long|-s")? Long flags match
 * exactly or as --long=value; a short one matches inside a cluster (-xvf)
 * unless shortok is false. */
static bool arg_is_flag(const struct sarg *a, const char *flags, bool clusters)
{
	if (!a->known || a->text[0] != '-' || a->text[1] == '\0')
		return false;
	const char *t = a->text;
	if (t[1] == '-') {
		size_t len = strcspn(t, "=");
		return in_list(flags, t, len);
	}
	if (in_lists(flags, t))
		return true;
	if (!clusters)
		return false;
	for (const char *p = t + 1; *p; p++) {
		char one[3] = {'-', *p, '\0'};
		if (in_list(flags, one, 2))
			return true;
		if (!isalnum((unsigned char)*p))
			return false;
	}
	return false;
}

/* Git accepts any unambiguous prefix of a long option (--forc, --ha): is
 * t[0..len) such a prefix (at least "--xy") of one of the long flags? */
static bool long_abbrev_of(const char *t, size_t len, const char *flags)
{
	if (len < 4 || t[0] != '-' || t[1] != '-')
		return false;
	const char *p = flags;
	while (*p) {
		size_t fl = strcspn(p, "|");
		if (fl >= len && strncmp(p, t, len) == 0 && p[0] == '-' && p[1] == '-')
			return true;
		p += fl;
		if (*p == '|')
			p++;
	}
	return false;
}

static bool arg_is_git_flag(const struct sarg *a, const char *flags)
{
	if (arg_is_flag(a, flags, true))
		return true;
	return a->known && long_abbrev_of(a->text, strcspn(a->text, "="), flags);
}

static int gfind(const struct sarg *a, size_t from, size_t n, const char *flags)
{
	size_t end = dashdash(a, from, n);
	for (size_t i = from; i < end; i++)
		if (arg_is_git_flag(&a[i], flags))
			return (int)i;
	return -1;
}

static bool ghas(const struct sarg *a, size_t from, size_t n, const char *flags)
{
	return gfind(a, from, n, flags) >= 0;
}

static int find_flag(const struct sarg *a, size_t from, size_t n, const char *flags)
{
	size_t end = dashdash(a, from, n);
	for (size_t i = from; i < end; i++)
		if (arg_is_flag(&a[i], flags, true))
			return (int)i;
	return -1;
}

static bool has_flag(const struct sarg *a, size_t from, size_t n, const char *flags)
{
	return find_flag(a, from, n, flags) >= 0;
}

/* A dry run counts only as the literal flag before "--", and the last of
 * --dry-run / --no-dry-run / --dry-run=false wins. */
static bool dry_run(const struct sarg *a, size_t from, size_t n, const char *flags)
{
	size_t end = dashdash(a, from, n);
	bool on = false;
	for (size_t i = from; i < end; i++) {
		if (!a[i].known)
			continue;
		const char *t = a[i].text;
		if (starts(t, "--no-dry-run") || eq(t, "--dry-run=false") || eq(t, "--dry-run=0") || eq(t, "--dry-run=none"))
			on = false;
		else if (arg_is_flag(&a[i], flags, true))
			on = true;
	}
	return on;
}

static int first_unknown(const struct sarg *a, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++)
		if (!a[i].known)
			return (int)i;
	return -1;
}

/* An argument that may expand to several words, none of them known. */
static int first_splitting_unknown(const struct sarg *a, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++)
		if (!a[i].known && a[i].splits && !*a[i].text)
			return (int)i;
	return -1;
}

static const char *base_name(const char *s)
{
	const char *b = strrchr(s, '/');
	return b && b[1] ? b + 1 : s;
}

/* Arguments joined with spaces: how sh -c, eval, watch and ssh see them. */
static const char *join_args(struct cctx *c, const struct sarg *a, size_t n)
{
	struct strbuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addc(&sb, ' ');
		strbuf_adds(&sb, a[i].text);
	}
	char *s = cl_strndup(c, sb.data, sb.len);
	strbuf_free(&sb);
	return s;
}

static bool all_known(const struct sarg *a, size_t n)
{
	return first_unknown(a, 0, n) < 0;
}

/* Known text around unknown parts: only a verdict above ASK counts, since
 * what is missing could change anything else. */
static struct judgement judge_partial_text(struct cctx *c, const char *what, const char *text, int at)
{
	if (!text || !*text)
		return SAFE_J;
	struct judgement j = cl_judge_text(c, text, NULL, 0, false);
	if (j.v <= VERDICT_ASK)
		return SAFE_J;
	j.reason = cl_printf(c, "%s: %s", what, j.reason ? j.reason : "");
	j.at = at;
	return j;
}

static struct judgement judge_code_partial(struct cctx *c, const char *lang, const char *code, int at)
{
	if (!code || !*code)
		return SAFE_J;
	struct judgement j = rules_judge_code(c, lang, code);
	if (j.v <= VERDICT_ASK)
		return SAFE_J;
	j.at = at;
	return j;
}

/* The verdict of text run by a shell, named for the reason. */
static struct judgement judge_shell_text(struct cctx *c, const char *what, const struct sarg *text,
                                         const struct sarg *pos, size_t npos, int at)
{
	if (!text->known) {
		/* The known beginning may already be decisive: sh -c "rm -rf $d". */
		struct judgement ask = J(VERDICT_ASK, cl_printf(c, "%s runs text that is not known before it runs", what), at);
		return judgement_max(ask, judge_partial_text(c, what, text->text, at));
	}
	struct judgement j = cl_judge_text(c, text->text, pos, npos, false);
	if (j.v != VERDICT_SAFE)
		j.reason = cl_printf(c, "%s: %s", what, j.reason ? j.reason : "");
	j.at = at;
	return j;
}

static struct judgement judge_rest(struct cctx *c, const char *what, const struct sarg *a, size_t n,
                                   const struct stdin_src *in, int at)
{
	if (n == 0)
		return SAFE_J;
	struct judgement j = cl_judge_argv(c, a, n, in);
	if (j.v != VERDICT_SAFE && what)
		j.reason = cl_printf(c, "%s %s", what, j.reason ? j.reason : "");
	j.at = at;
	return j;
}

static struct sarg placeholder_arg(struct cctx *c, const struct sarg *a, const char *repl);
static struct judgement judge_script_as_tool(struct cctx *c, const struct sarg *a, size_t i, size_t n,
                                             const struct stdin_src *in);

/* ---- inline code and SQL --------------------------------------------------- */

static bool contains(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

static bool word_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* Case-insensitive search for a whole word followed by one of the next words. */
static bool ci_word_then(const char *text, const char *w, const char *next_list)
{
	size_t wl = strlen(w);
	for (const char *p = text; *p; p++) {
		if (strncasecmp(p, w, wl) != 0 || (p > text && word_char(p[-1])) || word_char(p[wl]))
			continue;
		if (!next_list)
			return true;
		const char *q = p + wl;
		while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
			q++;
		size_t nl = 0;
		while (word_char(q[nl]))
			nl++;
		char buf[32];
		if (nl == 0 || nl >= sizeof buf)
			continue;
		for (size_t i = 0; i < nl; i++)
			buf[i] = (char)tolower((unsigned char)q[i]);
		buf[nl] = '\0';
		if (in_lists(next_list, buf))
			return true;
	}
	return false;
}

/* SQL, Mongo and Redis text that drops or flushes data. */
static bool data_destroying_text(const char *t)
{
	if (ci_word_then(t, "drop",
	                 "table|database|schema|view|index|collection|keyspace|user|role|owned|materialized|"
	                 "sequence|function|type|extension|trigger|column|constraint|procedure|if|tablespace|"
	                 "policy|publication|subscription|domain|aggregate|temporary|temp|foreign|event|"
	                 "partition|unique|primary|key|server"))
		return true;
	if (ci_word_then(t, "truncate", NULL) || ci_word_then(t, "delete", "from") ||
	    ci_word_then(t, "flushall", NULL) || ci_word_then(t, "flushdb", NULL))
		return true;
	static const char *const mongo[] = {"dropDatabase", ".drop(", "deleteMany", "deleteOne", ".remove(",
	                                    "dropCollection", "dropIndexes", "findOneAndDelete", NULL};
	for (size_t i = 0; mongo[i]; i++)
		if (contains(t, mongo[i]))
			return true;
	return false;
}

static const char *const delete_calls[] = {
	"rmtree", "os.remove", "os.unlink", "os.rmdir", "os.removedirs", ".unlink(", ".rmdir(",
	"unlinkSync", "rmSync", "rmdirSync", "fs.rm(", "fs.unlink(", "fs.rmdir(", "fs.promises.rm",
	"fsPromises.rm", "fsp.rm(", "fs.remove", "fse.remove", "emptyDirSync", "emptyDir(", "rimraf",
	"FileUtils.rm", "FileUtils.remove", "File.delete", "File.unlink", "Dir.rmdir", "Dir.delete",
	"rm_rf", "rm_r(", "remove_tree", "unlink(", "unlink ", "rmdir(", "rmdir ", "Files.delete",
	"deleteRecursively", "deleteIfExists", "Remove-Item", "os.RemoveAll", "os.Remove(",
	"Deno.remove", "del_tree", "promises.rm", "await rm(", "file.remove", "unlink_dir", "os.RemoveAll", "delete_file", "remove_dir_all",
	"remove_file", "fs::remove", "unlink:", NULL,
};

static const char *const shell_calls[] = {
	"system(", "system ", "os.system", "subprocess", "popen", "exec(", "execSync", "execFileSync",
	"spawnSync", "spawn(", "child_process", "`", "%x(", "%x{", "Process.spawn", "IO.popen",
	"shell_exec", "passthru", "proc_open", "Open3", "os.exec", "os.spawn", "check_call", "check_output",
	"getoutput", "getstatusoutput", "Deno.Command", "Deno.run", "Bun.spawn", "$`", "sh(", "qx",
	"do shell script", "Start-Process", "Invoke-Expression", "iex ", NULL,
};

/* Judges the string literals of code that shells out: ["rm", "-rf", "x"]
 * lists are joined, so are adjacent literals. */
static struct judgement judge_code_strings(struct cctx *c, const char *code)
{
	struct judgement best = SAFE_J;
	struct strbuf cmd;
	strbuf_init(&cmd);
	const char *p = code;
	bool pending = false;
	while (*p) {
		char q = *p;
		if (q == '\'' || q == '"' || q == '`') {
			struct strbuf lit;
			strbuf_init(&lit);
			p++;
			while (*p && *p != q) {
				if (*p == '\\' && p[1]) {
					p++;
					strbuf_addc(&lit, *p == 'n' ? '\n' : *p);
				} else {
					strbuf_addc(&lit, *p);
				}
				p++;
			}
			if (*p)
				p++;
			if (pending)
				strbuf_addc(&cmd, ' ');
			strbuf_addmem(&cmd, lit.data, lit.len);
			strbuf_free(&lit);
			pending = true;
			/* A list of literals continues after a comma. */
			const char *s = p;
			while (*s == ' ' || *s == ',' || *s == '\n' || *s == '\t')
				s++;
			if (*s == '\'' || *s == '"') {
				p = s;
				continue;
			}
		} else {
			p++;
			continue;
		}
		if (pending && cmd.len) {
			struct judgement j = cl_judge_text(c, cmd.data, NULL, 0, false);
			/* Strings that merely do not parse, or mention a variable, are
			 * not evidence: only a recognised dangerous command counts. */
			if (j.v > VERDICT_ASK)
				best = judgement_max(best, j);
		}
		strbuf_truncate(&cmd, 0);
		pending = false;
	}
	strbuf_free(&cmd);
	return best;
}

struct judgement rules_judge_code(struct cctx *c, const char *lang, const char *code)
{
	for (size_t i = 0; delete_calls[i]; i++)
		if (contains(code, delete_calls[i]))
			return J(VERDICT_DELETE, cl_printf(c, "%s code calls %s", lang, delete_calls[i]), -1);
	if (data_destroying_text(code) && (contains(code, "execute") || contains(code, "sql") ||
	                                   contains(code, "query") || contains(code, "db.")))
		return J(VERDICT_DELETE, cl_printf(c, "%s code drops or deletes data", lang), -1);
	for (size_t i = 0; shell_calls[i]; i++) {
		if (!contains(code, shell_calls[i]))
			continue;
		struct judgement j = judge_code_strings(c, code);
		if (j.v != VERDICT_SAFE) {
			j.reason = cl_printf(c, "%s code runs a command: %s", lang, j.reason ? j.reason : "");
			return j;
		}
		break;
	}
	return SAFE_J;
}

static struct judgement judge_code_arg(struct cctx *c, const char *lang, const struct sarg *a, int at)
{
	if (!a->known)
		return judgement_max(J(VERDICT_ASK, cl_printf(c, "%s code that is not known before it runs", lang), at),
		                     judge_code_partial(c, lang, a->text, at));
	struct judgement j = rules_judge_code(c, lang, a->text);
	j.at = at;
	return j;
}

static struct judgement judge_code_stdin(struct cctx *c, const char *lang, const struct stdin_src *in)
{
	switch (in->kind) {
	case STDIN_TEXT:
		return rules_judge_code(c, lang, in->text);
	case STDIN_UNKNOWN:
		return judgement_max(J(VERDICT_ASK, cl_printf(c, "%s runs code from standard input", lang), -1),
		                     judge_code_partial(c, lang, in->text, -1));
	default:
		return SAFE_J;
	}
}

/* ---- wrappers ------------------------------------------------------------------ */

/* An argument holding xargs' or find's placeholder: unknown when it is only
 * the placeholder, else the text with a stand-in file name (so that
 * sh -c 'rm {}' still reads as rm). */
static struct sarg placeholder_arg(struct cctx *c, const struct sarg *a, const char *repl)
{
	struct sarg r = *a;
	if (eq(a->text, repl)) {
		r.known = false;
		r.text = "";
		return r;
	}
	struct strbuf sb;
	strbuf_init(&sb);
	size_t rl = strlen(repl);
	for (const char *p = a->text; *p;) {
		if (strncmp(p, repl, rl) == 0) {
			strbuf_adds(&sb, "FILE");
			p += rl;
		} else {
			strbuf_addc(&sb, *p++);
		}
	}
	r.text = cl_strndup(c, sb.data, sb.len);
	strbuf_free(&sb);
	return r;
}

enum wrap_mode {
	WRAP_ARGV,     /* the rest is a command's argv */
	WRAP_TEXT,     /* the rest, joined with spaces, is shell text */
	WRAP_XARGS,    /* argv, plus arguments read from stdin */
	WRAP_DASHDASH, /* only after "--" (before it: the wrapper's own words) */
};

struct wrapper {
	const char *sub;         /* "run" for `poetry run`, or NULL */
	const char *short_arg;   /* short options taking an argument */
	const char *long_arg;    /* long options taking an argument ("--user|--group") */
	unsigned npos;           /* operands before the command (timeout: the duration) */
	enum wrap_mode mode;
	const char *text_opts;   /* options whose argument is shell text ("-c|--command") */
	const char *safe_opts;   /* options meaning no command runs ("-v|-V|-l") */
	const char *shell_opts;  /* options that make the rest shell text (sudo -s) */
};

static struct judgement judge_wrapper(struct cctx *c, const char *name, const struct wrapper *w,
                                      const struct sarg *a, size_t n, const struct stdin_src *in)
{
	size_t i = w->sub ? 2 : 1;
	unsigned npos = w->npos;
	struct judgement j = SAFE_J;
	bool text_mode = w->mode == WRAP_TEXT;
	bool saw_dashdash = false;
	const char *repl = NULL; /* xargs -I */
	while (i < n) {
		const struct sarg *x = &a[i];
		if (!x->known) {
			if (npos > 0) {
				npos--;
				i++;
				continue;
			}
			break;
		}
		const char *t = x->text;
		if (eq(t, "--")) {
			i++;
			saw_dashdash = true;
			break;
		}
		if (t[0] == '-' && t[1]) {
			if (t[1] == '-') {
				size_t len = strcspn(t, "=");
				bool has_eq = t[len] == '=';
				if (in_list(w->safe_opts, t, len) || eq(t, "--help") || eq(t, "--version"))
					return SAFE_J;
				if (in_list(w->shell_opts, t, len))
					text_mode = true;
				if (in_list(w->text_opts, t, len)) {
					struct sarg tmp = {.text = t + len + 1, .known = x->known, .word = x->word};
					const struct sarg *txt = has_eq ? &tmp : (i + 1 < n ? &a[i + 1] : NULL);
					if (txt) /* `su --command` alone has no text (and runs none) */
						j = judgement_max(j, judge_shell_text(c, name, txt, NULL, 0, (int)i));
					i += has_eq ? 1 : 2;
					continue;
				}
				if (in_list(w->long_arg, t, len) && !has_eq)
					i++;
				i++;
				continue;
			}
			bool took_next = false;
			for (const char *p = t + 1; *p; p++) {
				char one[3] = {'-', *p, '\0'};
				if (in_list(w->safe_opts, one, 2))
					return SAFE_J;
				if (in_list(w->shell_opts, one, 2))
					text_mode = true;
				if (in_list(w->text_opts, one, 2)) {
					struct sarg tmp = {.text = p + 1, .known = x->known, .word = x->word};
					const struct sarg *txt = p[1] ? &tmp : (i + 1 < n ? &a[i + 1] : NULL);
					if (txt)
						j = judgement_max(j, judge_shell_text(c, name, txt, NULL, 0, (int)i));
					took_next = !p[1];
					break;
				}
				if (w->short_arg && strchr(w->short_arg, *p)) {
					if (*p == 'I' && w->mode == WRAP_XARGS)
						repl = p[1] ? p + 1 : (i + 1 < n ? a[i + 1].text : NULL);
					took_next = !p[1];
					break;
				}
				if (*p == 'i' && w->mode == WRAP_XARGS)
					repl = p[1] ? p + 1 : "{}";
			}
			i += took_next ? 2 : 1;
			continue;
		}
		if (w->mode == WRAP_DASHDASH) {
			i++;
			continue;
		}
		if (npos > 0) {
			npos--;
			i++;
			continue;
		}
		break;
	}
	if (w->mode == WRAP_DASHDASH && !saw_dashdash)
		return j;
	if (i >= n)
		return j;
	if (text_mode) {
		struct sarg txt = {.text = join_args(c, a + i, n - i), .known = all_known(a + i, n - i), .word = a[i].word};
		return judgement_max(j, judge_shell_text(c, name, &txt, NULL, 0, (int)i));
	}
	if (w->mode == WRAP_XARGS) {
		/* The command gets more arguments from stdin; with -I they replace
		 * the placeholder. */
		struct sarg *v = xcalloc(n - i + 1, sizeof *v);
		size_t m = 0;
		for (size_t k = i; k < n; k++) {
			v[m] = a[k];
			if (repl && *repl && a[k].known && strstr(a[k].text, repl))
				v[m] = placeholder_arg(c, &a[k], repl);
			m++;
		}
		if (!repl) {
			v[m].text = "";
			v[m].known = false;
			m++;
		}
		struct stdin_src none = {STDIN_NONE, NULL};
		struct judgement k = judge_rest(c, NULL, v, m, &none, (int)i);
		free(v);
		return judgement_max(j, k);
	}
	return judgement_max(j, judge_rest(c, NULL, a + i, n - i, in, (int)i));
}

/* ---- the shells ------------------------------------------------------------------- */

static struct judgement judge_script_source(struct cctx *c, const char *what, const struct sarg *file,
                                            const struct stdin_src *in, int at)
{
	if (file) {
		if (file->procsub) {
			struct stdin_src src = cl_procsub_output(c, file->procsub);
			return judge_script_source(c, what, NULL, &src, at);
		}
		if (!file->known)
			return J(VERDICT_SAFE, NULL, at);
		if (eq(file->text, "/dev/stdin") || eq(file->text, "/dev/fd/0") || eq(file->text, "/proc/self/fd/0") ||
		    eq(file->text, "-"))
			return judge_script_source(c, what, NULL, in, at);
		const char *text = NULL;
		int w = cl_written_file(c, file->text, &text);
		if (w == 1) {
			struct sarg t = {.text = text, .known = true};
			return judge_shell_text(c, what, &t, NULL, 0, at);
		}
		if (w == 0)
			return J(VERDICT_ASK, cl_printf(c, "%s runs a script written on this line", what), at);
		return SAFE_J; /* opaque project code */
	}
	switch (in->kind) {
	case STDIN_TEXT: {
		struct sarg t = {.text = in->text, .known = true};
		return judge_shell_text(c, what, &t, NULL, 0, at);
	}
	case STDIN_UNKNOWN:
		return judgement_max(J(VERDICT_ASK, cl_printf(c, "%s runs a script from standard input that is not known", what), at),
		                     judge_partial_text(c, what, in->text, at));
	default:
		return SAFE_J;
	}
}

static struct judgement judge_shell(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                    const struct stdin_src *in)
{
	bool cmd = false, read_stdin = false;
	size_t i = 1;
	for (; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known)
			break;
		const char *t = x->text;
		if (eq(t, "--") || eq(t, "-")) {
			i++;
			break;
		}
		if (t[0] == '-' && t[1] == '-') {
			if (eq(t, "--help") || eq(t, "--version"))
				return SAFE_J;
			if (eq(t, "--rcfile") || eq(t, "--init-file"))
				i++;
			if (eq(t, "--classify") || eq(t, "--doctor"))
				return SAFE_J;
			continue;
		}
		if ((t[0] == '-' || t[0] == '+') && t[1]) {
			bool arg = false;
			for (const char *p = t + 1; *p; p++) {
				if (*p == 'c')
					cmd = true;
				else if (*p == 's')
					read_stdin = true;
				else if (*p == 'o' || *p == 'O')
					arg = true;
			}
			if (arg)
				i++;
			continue;
		}
		break;
	}
	if (cmd) {
		if (i >= n)
			return J(VERDICT_SAFE, NULL, -1);
		return judge_shell_text(c, cl_printf(c, "%s -c", name), &a[i], i + 1 < n ? a + i + 1 : NULL,
		                        i + 1 < n ? n - i - 1 : 0, (int)i);
	}
	if (i < n && !read_stdin)
		return judge_script_source(c, name, &a[i], in, (int)i);
	if (i < n && !a[i].known && !read_stdin)
		return SAFE_J;
	return judge_script_source(c, name, NULL, in, 0);
}

/* ---- interpreters ---------------------------------------------------------------- */

static struct judgement judge_python(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                     const struct stdin_src *in)
{
	(void)name;
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known)
			return SAFE_J;
		const char *t = x->text;
		if (eq(t, "-"))
			return judge_code_stdin(c, "python", in);
		if (eq(t, "--help") || eq(t, "--version") || eq(t, "-V") || eq(t, "-h"))
			return SAFE_J;
		if (t[0] == '-' && t[1] && t[1] != '-') {
			const char *cp = strpbrk(t + 1, "cmWX");
			if (!cp)
				continue;
			const char *rest = cp[1] ? cp + 1 : NULL;
			const struct sarg *val = NULL;
			struct sarg tmp = {.text = rest, .known = true, .word = x->word};
			if (rest)
				val = &tmp;
			else if (i + 1 < n)
				val = &a[i + 1];
			if (*cp == 'c')
				return val ? judge_code_arg(c, "python", val, (int)i) : SAFE_J;
			if (*cp == 'm') {
				if (!val)
					return SAFE_J;
				size_t next = rest ? i + 1 : i + 2;
				struct sarg *v = xcalloc(n - next + 1, sizeof *v);
				v[0] = *val;
				for (size_t k = next; k < n; k++)
					v[k - next + 1] = a[k];
				struct judgement j = judge_rest(c, "python -m", v, n - next + 1, in, (int)i);
				free(v);
				return j;
			}
			if (!rest)
				i++;
			continue;
		}
		if (t[0] == '-')
			continue;
		/* The script: opaque, except the well-known ones and those written
		 * on this line. */
		const char *written = NULL;
		int w = cl_written_file(c, t, &written);
		if (w == 1)
			return rules_judge_code(c, "python", written);
		if (w == 0)
			return J(VERDICT_ASK, "python runs a script written on this line", (int)i);
		const char *script = base_name(t);
		struct judgement tool = judge_script_as_tool(c, a, i, n, in);
		if (tool.v != VERDICT_SAFE)
			return tool;
		if (eq(script, "setup.py")) {
			for (size_t k = i + 1; k < n; k++)
				if (a[k].known && in_lists("upload|register|upload_docs|bdist_wheel_upload", a[k].text))
					return J(VERDICT_PUBLISH, "setup.py upload publishes to PyPI", (int)k);
		} else if (eq(script, "manage.py") || eq(script, "django-admin")) {
			for (size_t k = i + 1; k < n; k++)
				if (a[k].known && in_lists("flush|reset_db|drop_test_database|sqlflush_exec|reset_schema",
				                           a[k].text))
					return J(VERDICT_DELETE, cl_printf(c, "manage.py %s empties the database", a[k].text),
					         (int)k);
		}
		return SAFE_J;
	}
	return judge_code_stdin(c, "python", in);
}

/* An interpreter running a tool's own launcher (node .../npm-cli.js
 * publish, python3 /usr/bin/twine upload) is that tool. Scripts with other
 * names are opaque project code. */
static struct judgement judge_script_as_tool(struct cctx *c, const struct sarg *a, size_t i, size_t n,
                                             const struct stdin_src *in)
{
	const char *base = base_name(a[i].text);
	size_t len = strcspn(base, ".");
	char *name = cl_strndup(c, base, len);
	if (len > 4 && eq(name + len - 4, "-cli"))
		name[len - 4] = '\0';
	static const char *const launchers =
		"npm|npx|pnpm|pnpx|yarn|yarnpkg|bun|corepack|twine|poetry|flit|hatch|pdm|maturin|lerna|changeset|"
		"semantic-release|release-it|vsce|ovsx|gh-pages|surge|vercel|netlify|firebase|wrangler|rimraf|"
		"del-cli|np|jsr|cdk|serverless|sls|prisma|sequelize|typeorm|knex|pip|uv|pipx|gsutil|aws|az|gcloud|"
		"ansible";
	if (!in_lists(launchers, name))
		return SAFE_J;
	struct sarg *v = xcalloc(n - i, sizeof *v);
	for (size_t k = i; k < n; k++)
		v[k - i] = a[k];
	v[0].text = name;
	struct judgement j = judge_rest(c, NULL, v, n - i, in, (int)i);
	free(v);
	return j;
}

/* node, deno, bun, perl, ruby, php, lua, Rscript: code options and stdin. */
struct interp {
	const char *lang;
	const char *code_opts;  /* "-e|--eval|-p|--print" */
	const char *short_code; /* letters that end a cluster with code (perl -ne) */
	const char *arg_opts;   /* options taking a non-code argument */
};

static struct judgement judge_interp(struct cctx *c, const struct interp *ip, const struct sarg *a, size_t n,
                                     const struct stdin_src *in)
{
	struct judgement j = SAFE_J;
	bool had_code = false;
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known)
			return had_code ? j : SAFE_J;
		const char *t = x->text;
		if (eq(t, "-"))
			return judge_code_stdin(c, ip->lang, in);
		if (eq(t, "--"))
			break;
		if (eq(t, "--help") || eq(t, "--version") || eq(t, "-v"))
			return had_code ? j : SAFE_J;
		if (t[0] != '-' || !t[1]) {
			if (had_code)
				return j;
			const char *written = NULL;
			int w = cl_written_file(c, t, &written);
			if (w == 1)
				return rules_judge_code(c, ip->lang, written);
			if (w == 0)
				return J(VERDICT_ASK, cl_printf(c, "%s runs a script written on this line", ip->lang), (int)i);
			return judge_script_as_tool(c, a, i, n, in);
		}
		size_t len = strcspn(t, "=");
		if (in_list(ip->code_opts, t, len)) {
			struct sarg tmp = {.text = t + len + 1, .known = true, .word = x->word};
			const struct sarg *val = t[len] == '=' ? &tmp : (i + 1 < n ? &a[i + 1] : NULL);
			if (!t[len])
				i++;
			if (val) {
				j = judgement_max(j, judge_code_arg(c, ip->lang, val, (int)i));
				had_code = true;
			}
			continue;
		}
		if (in_list(ip->arg_opts, t, len)) {
			if (!t[len] && t[1] == '-')
				i++;
			else if (!t[2] && t[1] != '-')
				i++;
			continue;
		}
		if (t[1] != '-' && ip->short_code) {
			for (const char *p = t + 1; *p; p++) {
				if (strchr(ip->short_code, *p)) {
					struct sarg tmp = {.text = p + 1, .known = true, .word = x->word};
					const struct sarg *val = p[1] ? &tmp : (i + 1 < n ? &a[i + 1] : NULL);
					if (!p[1])
						i++;
					if (val) {
						j = judgement_max(j, judge_code_arg(c, ip->lang, val, (int)i));
						had_code = true;
					}
					break;
				}
				if (ip->arg_opts) {
					char one[3] = {'-', *p, '\0'};
					if (in_list(ip->arg_opts, one, 2)) {
						if (!p[1])
							i++;
						break;
					}
				}
			}
		}
	}
	if (had_code)
		return j;
	return judge_code_stdin(c, ip->lang, in);
}

static const struct interp interp_node = {"node", "-e|--eval|-p|--print", "e", "-r|--require|--import|--loader|-C|--conditions|--input-type"};
static const struct interp interp_perl = {"perl", NULL, "eE", "-I|-M|-m|-x|-i|-l|-0|-d|-D|-C"};
static const struct interp interp_ruby = {"ruby", NULL, "e", "-r|-I|-C|-E|-F|-x"};
static const struct interp interp_php = {"php", NULL, "rRBE", "-c|-d|-z|-f|-t|-F"};
static const struct interp interp_lua = {"lua", NULL, "e", "-l"};
static const struct interp interp_r = {"R", "-e|--expr", NULL, NULL};
static const struct interp interp_osa = {"osascript", NULL, "e", "-l"};
static const struct interp interp_pwsh = {"powershell", "-c|-Command|-command|-C", NULL, "-File|-file|-f|-ExecutionPolicy|-ep"};

/* awk: system() and pipes to sh inside the program text. */
static struct judgement judge_awk(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                  const struct stdin_src *in)
{
	(void)in;
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known)
			return J(VERDICT_SAFE, NULL, -1);
		const char *t = x->text;
		if (eq(t, "--"))
			continue;
		if (t[0] == '-' && t[1]) {
			if (eq(t, "-f") || starts(t, "--file"))
				return SAFE_J;
			if (eq(t, "-F") || eq(t, "-v") || eq(t, "-i") || eq(t, "-l"))
				i++;
			continue;
		}
		if (contains(t, "system") || contains(t, "| \"") || contains(t, "|\"") || contains(t, "getline")) {
			struct judgement j = judge_code_strings(c, t);
			if (j.v != VERDICT_SAFE)
				j.reason = cl_printf(c, "%s program runs: %s", name, j.reason ? j.reason : "");
			j.at = (int)i;
			return j;
		}
		return SAFE_J;
	}
	return SAFE_J;
}

/* sed: s///e and the e command execute text. */
static struct judgement judge_sed_script(struct cctx *c, const struct sarg *s, int at)
{
	if (!s->known)
		return SAFE_J;
	const char *p = s->text;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == ';' || *p == '\n' || *p == '{' || *p == '}')
			p++;
		/* Skip an address: numbers, $, /re/, ranges. */
		while (*p && (isdigit((unsigned char)*p) || *p == '$' || *p == ',' || *p == '!' || *p == '~' ||
		              *p == '+' || *p == ' ')) {
			p++;
		}
		if (*p == '\\' && !p[1])
			break;
		if (*p == '/' || *p == '\\') {
			char d = *p == '\\' ? p[1] : '/';
			p += *p == '\\' ? 2 : 1;
			while (*p && *p != d) {
				if (*p == '\\' && p[1])
					p++;
				p++;
			}
			if (*p)
				p++;
			continue;
		}
		if (*p == 's' && p[1] && !isalnum((unsigned char)p[1]) && p[1] != ' ' && p[1] != '\n') {
			char d = p[1];
			p += 2;
			const char *parts[2] = {NULL, NULL};
			size_t lens[2] = {0, 0};
			for (int k = 0; k < 2; k++) {
				parts[k] = p;
				while (*p && *p != d) {
					if (*p == '\\' && p[1])
						p++;
					p++;
				}
				lens[k] = (size_t)(p - parts[k]);
				if (*p)
					p++;
			}
			bool exec = false;
			while (*p && strchr("gpiIeEmM0123456789", *p)) {
				if (*p == 'e')
					exec = true;
				p++;
			}
			if (exec) {
				char *rep = cl_strndup(c, parts[1], lens[1]);
				if (strchr(rep, '&') || strchr(rep, '\\')) {
					/* Parts come from the input: judge what is written. */
					for (char *q = rep; *q; q++)
						if (*q == '&' || *q == '\\')
							*q = 'X';
					return judgement_max(J(VERDICT_ASK, "sed s///e runs text built from the input", at),
					                     judge_partial_text(c, "sed s///e", rep, at));
				}
				struct sarg t = {.text = rep, .known = true};
				struct judgement j = judge_shell_text(c, "sed s///e", &t, NULL, 0, at);
				if (j.v == VERDICT_SAFE)
					continue;
				return j;
			}
			continue;
		}
		if (*p == 'e' && (p[1] == ' ' || p[1] == '\0' || p[1] == ';' || p[1] == '\n')) {
			p++;
			while (*p == ' ')
				p++;
			size_t len = strcspn(p, "\n;");
			if (len == 0)
				return J(VERDICT_ASK, "sed e runs the input as commands", at);
			struct sarg t = {.text = cl_strndup(c, p, len), .known = true};
			struct judgement j = judge_shell_text(c, "sed e", &t, NULL, 0, at);
			if (j.v != VERDICT_SAFE)
				return j;
			p += len;
			continue;
		}
		/* Any other command: skip to its end. */
		while (*p && *p != ';' && *p != '\n')
			p++;
	}
	return SAFE_J;
}

static struct judgement judge_sed(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                  const struct stdin_src *in)
{
	(void)name;
	(void)in;
	struct judgement j = SAFE_J;
	bool had_e = false;
	int script_at = -1;
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known)
			continue;
		const char *t = x->text;
		if (eq(t, "-e") || eq(t, "--expression")) {
			if (i + 1 < n)
				j = judgement_max(j, judge_sed_script(c, &a[i + 1], (int)i + 1));
			had_e = true;
			i++;
		} else if (starts(t, "--expression=")) {
			struct sarg s = {.text = t + 13, .known = true, .word = x->word};
			j = judgement_max(j, judge_sed_script(c, &s, (int)i));
			had_e = true;
		} else if (eq(t, "-f") || eq(t, "--file") || eq(t, "-l")) {
			had_e = had_e || t[1] == 'f' || t[2] == 'f';
			i++;
		} else if (t[0] == '-' && t[1] && t[1] != '-' && strchr(t, 'e') && !strchr(t, 'i')) {
			struct sarg s = {.text = strchr(t, 'e') + 1, .known = true, .word = x->word};
			if (*s.text)
				j = judgement_max(j, judge_sed_script(c, &s, (int)i));
			else if (i + 1 < n) {
				i++;
				j = judgement_max(j, judge_sed_script(c, &a[i], (int)i));
			}
			had_e = true;
		} else if (t[0] != '-' && script_at < 0 && !had_e) {
			script_at = (int)i;
		}
	}
	if (script_at >= 0)
		j = judgement_max(j, judge_sed_script(c, &a[script_at], script_at));
	return j;
}

/* ---- find ----------------------------------------------------------------------------- */

static struct judgement judge_find(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                   const struct stdin_src *in)
{
	(void)in;
	static const char *const one_arg =
		"-name|-iname|-path|-ipath|-regex|-iregex|-type|-xtype|-newer|-anewer|-cnewer|-user|-group|"
		"-perm|-size|-mtime|-mmin|-atime|-amin|-ctime|-cmin|-maxdepth|-mindepth|-links|-inum|"
		"-samefile|-wholename|-iwholename|-lname|-ilname|-fprint|-fprint0|-printf|-fls|-used|-uid|"
		"-gid|-context|-files0-from|-regextype|-fstype|-D|-O";
	struct judgement j = SAFE_J;
	bool in_expr = false;
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known) {
			if (in_expr && j.v < VERDICT_ASK)
				j = J(VERDICT_ASK, "find with an expression that is not known", (int)i);
			continue;
		}
		const char *t = x->text;
		if (t[0] == '-' || eq(t, "(") || eq(t, "!") || eq(t, ")"))
			in_expr = in_expr || !(eq(t, "-H") || eq(t, "-L") || eq(t, "-P"));
		if (eq(t, "--help") || eq(t, "--version"))
			return SAFE_J;
		if (eq(t, "-delete")) {
			j = judgement_max(j, J(VERDICT_DELETE, "find -delete deletes files", (int)i));
			continue;
		}
		if (eq(t, "-exec") || eq(t, "-execdir") || eq(t, "-ok") || eq(t, "-okdir")) {
			size_t k = i + 1;
			while (k < n && !(kn(&a[k], ";") || kn(&a[k], "+")))
				k++;
			struct sarg *v = xcalloc(k - i, sizeof *v);
			size_t m = 0;
			for (size_t q = i + 1; q < k; q++) {
				v[m] = a[q];
				if (a[q].known && strstr(a[q].text, "{}"))
					v[m] = placeholder_arg(c, &a[q], "{}");
				m++;
			}
			struct stdin_src none = {STDIN_NONE, NULL};
			struct judgement e = judge_rest(c, cl_printf(c, "%s %s runs", name, t), v, m, &none, (int)i + 1);
			free(v);
			j = judgement_max(j, e);
			i = k;
			continue;
		}
		if (eq(t, "-fprintf")) {
			i += 2;
			continue;
		}
		if (in_lists(one_arg, t) || starts(t, "-newer"))
			i++;
	}
	return j;
}

static struct judgement judge_surge(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                    const struct stdin_src *in)
{
	(void)in;
	(void)c;
	(void)name;
	size_t i = 1;
	while (i < n && a[i].known && a[i].text[0] == '-') {
		if (in_lists("--help|-h|--version|-V", a[i].text))
			return SAFE_J;
		if (in_lists("--domain|-d|--project|-p|--endpoint|-e", a[i].text))
			i++;
		i++;
	}
	if (i < n && a[i].known && eq(a[i].text, "teardown"))
		return J(VERDICT_DELETE, "surge teardown takes a site down", (int)i);
	if (i < n && a[i].known &&
	    in_lists("list|login|logout|whoami|token|plus|ssl|encrypt|invite|revoke|stats|help|audit|files|dns|zone|config", a[i].text))
		return SAFE_J;
	return J(VERDICT_PUBLISH, "surge publishes a site", i < n ? (int)i : 0);
}

/* fd -x/-X CMD: runs CMD for the files found. */
static struct judgement judge_fd(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                 const struct stdin_src *in)
{
	(void)in;
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known)
			continue;
		const char *t = a[i].text;
		if (eq(t, "-x") || eq(t, "--exec") || eq(t, "-X") || eq(t, "--exec-batch")) {
			size_t k = i + 1;
			while (k < n && !kn(&a[k], ";"))
				k++;
			struct sarg *v = xcalloc(k - i + 1, sizeof *v);
			size_t m = 0;
			for (size_t q = i + 1; q < k; q++) {
				v[m] = a[q];
				if (a[q].known && strchr(a[q].text, '{'))
					v[m] = placeholder_arg(c, &a[q], strstr(a[q].text, "{}") ? "{}" : a[q].text);
				m++;
			}
			v[m].text = "";
			v[m].known = false;
			m++;
			struct stdin_src none = {STDIN_NONE, NULL};
			struct judgement j = judge_rest(c, cl_printf(c, "%s %s runs", name, t), v, m, &none, (int)i + 1);
			free(v);
			return j;
		}
	}
	return SAFE_J;
}

/* ---- git ---------------------------------------------------------------------------- */

static const char *const git_builtin_cmds =
	"add|am|annotate|apply|archive|bisect|blame|branch|bugreport|bundle|cat-file|check-attr|"
	"check-ignore|check-mailmap|check-ref-format|checkout|checkout-index|cherry|cherry-pick|citool|"
	"clean|clone|column|commit|commit-graph|commit-tree|config|count-objects|credential|describe|diff|"
	"diff-files|diff-index|diff-tree|difftool|fast-export|fast-import|fetch|fetch-pack|filter-branch|"
	"fmt-merge-msg|for-each-ref|for-each-repo|format-patch|fsck|gc|get-tar-commit-id|grep|gui|"
	"hash-object|help|hook|http-backend|index-pack|init|instaweb|interpret-trailers|log|ls-files|"
	"ls-remote|ls-tree|mailinfo|mailsplit|maintenance|merge|merge-base|merge-file|merge-index|"
	"merge-tree|mergetool|mktag|mktree|multi-pack-index|mv|name-rev|notes|pack-objects|pack-refs|"
	"patch-id|prune|prune-packed|pull|push|range-diff|read-tree|rebase|receive-pack|reflog|remote|"
	"repack|replace|request-pull|rerere|reset|restore|rev-list|rev-parse|revert|rm|send-email|"
	"send-pack|shortlog|show|show-branch|show-index|show-ref|sparse-checkout|stage|stash|status|"
	"stripspace|submodule|switch|symbolic-ref|tag|unpack-file|unpack-objects|update-index|"
	"update-ref|update-server-info|upload-archive|upload-pack|var|verify-commit|verify-pack|"
	"verify-tag|version|whatchanged|worktree|write-tree";

struct git_state {
	const struct sarg *aliases[16]; /* -c alias.X=... values, as sargs */
	size_t naliases;
	bool forces_push; /* from -c */
	const char *dir, *gitdir;
	/* a variable git finds its config by, set to something not known
	 * before it runs: aliases and push config are unknown too */
	const char *env_unknown;
};

static const char *git_lower_key(struct cctx *c, const char *kv, size_t len)
{
	char *k = cl_strndup(c, kv, len);
	/* Section and variable names are case-insensitive; subsections not. */
	char *first = strchr(k, '.');
	char *last = strrchr(k, '.');
	for (char *p = k; *p; p++)
		if ((!first || p < first || p > last) && *p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return k;
}

static struct judgement judge_git_config(struct cctx *c, struct git_state *gs, const struct sarg *x, int at)
{
	if (!x->known) {
		/* An unknown key=value could be an alias or a pager. */
		if (!*x->text || strchr(x->text, '=') == NULL)
			return J(VERDICT_ASK, "git -c with a setting that is not known", at);
	}
	const char *kv = x->text;
	size_t klen = strcspn(kv, "=");
	const char *key = git_lower_key(c, kv, klen);
	const char *val = kv[klen] == '=' ? kv + klen + 1 : "true";
	bool val_known = x->known;
	if (starts(key, "alias.")) {
		if (gs->naliases < 16)
			gs->aliases[gs->naliases++] = x;
		return SAFE_J;
	}
	if (starts(key, "remote.")) {
		const char *last = strrchr(key, '.');
		if (eq(last, ".mirror") && !eq(val, "false") && !eq(val, "0") && !eq(val, "no"))
			gs->forces_push = true;
		if (eq(last, ".push") && (!val_known || val[0] == '+' || val[0] == ':'))
			gs->forces_push = true;
	}
	if (starts(key, "push.")) {
		const char *var = key + 5;
		bool harmless = in_lists("autosetupremote|followtags|gpgsign|recursesubmodules|pushoption|"
		                         "useforceifincludes|usebitmaps|negotiate",
		                         var) ||
		                (eq(var, "default") && val_known &&
		                 in_lists("simple|current|upstream|nothing|tracking|matching", val));
		if (!harmless)
			gs->forces_push = true;
	}
	enum gitconfig_effect effect = gitconfig_name_effect(key);
	if (effect != GITCONFIG_PLAIN) {
		if (!val_known)
			return J(VERDICT_ASK, cl_printf(c, "git -c %s runs a command that is not known", key), at);
		if (eq(key, "core.hookspath"))
			return J(VERDICT_ASK, "git -c core.hooksPath runs hooks from another folder", at);
		if (effect == GITCONFIG_ELSEWHERE)
			return J(VERDICT_ASK, cl_printf(c, "git -c %s takes settings from another file", key), at);
		/* of the protocols, only ext:: runs a command */
		if (effect == GITCONFIG_PROTOCOL)
			return (eq(key, "protocol.allow") || eq(key, "protocol.ext.allow")) && eq(val, "always")
			               ? J(VERDICT_ASK, "git -c protocol.*.allow=always lets URLs run commands", at)
			               : SAFE_J;
		const char *cmd = val;
		/* credential helpers and submodule.*.update are git's own words
		 * unless they start with "!" */
		if (effect == GITCONFIG_RUNS_BANG || contains(key, "credential") || contains(key, "helper")) {
			if (cmd[0] != '!')
				return SAFE_J;
		}
		if (cmd[0] == '!')
			cmd++;
		struct sarg t = {.text = cmd, .known = true, .word = x->word};
		return judge_shell_text(c, cl_printf(c, "git -c %s", key), &t, NULL, 0, at);
	}
	return SAFE_J;
}

/* Splits a git alias value into words the way git does (quotes, backslash). */
static size_t git_split_alias(struct cctx *c, const char *v, struct sarg *out, size_t max)
{
	size_t n = 0;
	struct strbuf sb;
	strbuf_init(&sb);
	const char *p = v;
	while (*p && n < max) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		char q = 0;
		strbuf_truncate(&sb, 0);
		while (*p && (q || (*p != ' ' && *p != '\t' && *p != '\n'))) {
			if (q && *p == q) {
				q = 0;
			} else if (!q && (*p == '"' || *p == '\'')) {
				q = *p;
			} else if (*p == '\\' && p[1] && q != '\'') {
				p++;
				strbuf_addc(&sb, *p);
			} else {
				strbuf_addc(&sb, *p);
			}
			p++;
		}
		memset(&out[n], 0, sizeof out[n]);
		out[n].text = cl_strndup(c, sb.data ? sb.data : "", sb.len);
		out[n].known = true;
		n++;
	}
	strbuf_free(&sb);
	return n;
}

static struct judgement judge_git_argv(struct cctx *c, const struct sarg *a, size_t n, unsigned alias_depth);

static bool git_path_like(const char *t)
{
	if (eq(t, ".") || eq(t, "..") || eq(t, "*") || strchr(t, '*') || starts(t, "./") || starts(t, ":/"))
		return true;
	const char *slash = strrchr(t, '/');
	const char *dot = strrchr(slash ? slash : t, '.');
	if (!dot || dot == t || !dot[1])
		return false;
	for (const char *p = dot + 1; *p; p++)
		if (!isalpha((unsigned char)*p))
			return false;
	return true;
}

static struct judgement git_push(struct cctx *c, struct git_state *gs, const struct sarg *a, size_t s, size_t n)
{
	struct judgement j = SAFE_J;
	struct judgement unknown = SAFE_J;
	bool dry = false;
	size_t npositional = 0;
	bool opts_done = false;
	for (size_t i = s + 1; i < n; i++) {
		const struct sarg *x = &a[i];
		const char *t = x->text;
		if (!x->known) {
			if (t[0] == '+' || (t[0] == ':' && npositional >= 1))
				j = judgement_max(j, J(VERDICT_FORCE_PUSH,
				                       t[0] == '+' ? "git push +refspec force-updates the remote"
				                                   : "git push :ref deletes a remote ref",
				                       (int)i));
			else if (t[0] == '-' && !opts_done)
				; /* an option with an unknown value */
			else if (*t && !x->splits && npositional >= 1)
				; /* "HEAD:$b", "refs/heads/$b": cannot turn into +ref or :ref */
			else if (unknown.v == VERDICT_SAFE)
				unknown = J(VERDICT_ASK, "git push with a repository or refspec that is not known", (int)i);
			if (t[0] != '-' || opts_done)
				npositional++;
			continue;
		}
		if (!opts_done && eq(t, "--")) {
			opts_done = true;
			continue;
		}
		if (!opts_done && t[0] == '-' && t[1]) {
			if (t[1] == '-') {
				size_t len = strcspn(t, "=");
				if (in_list("--force|--force-with-lease|--mirror|--delete|--prune", t, len) ||
				    long_abbrev_of(t, len, "--force|--force-with-lease|--mirror|--delete|--prune"))
					j = judgement_max(j, J(VERDICT_FORCE_PUSH,
					                       cl_printf(c, "git push %.*s rewrites or deletes remote history",
					                                 (int)len, t),
					                       (int)i));
				else if (eq(t, "--dry-run")) /* only the literal flag counts */
					dry = true;
				else if (eq(t, "--no-dry-run"))
					dry = false;
				else if (eq(t, "--no-force-with-lease") && j.v == VERDICT_FORCE_PUSH && a[j.at].known &&
				         starts(a[j.at].text, "--force-with-lease"))
					j = SAFE_J;
				else if (in_list("--repo|--receive-pack|--exec|--push-option|--signed", t, len) && !t[len] &&
				         !eq(t, "--signed"))
					i++;
				continue;
			}
			for (const char *p = t + 1; *p; p++) {
				if (*p == 'f')
					j = judgement_max(j, J(VERDICT_FORCE_PUSH, "git push -f force-updates the remote", (int)i));
				else if (*p == 'd')
					j = judgement_max(j, J(VERDICT_FORCE_PUSH, "git push -d deletes a remote ref", (int)i));
				else if (*p == 'n')
					dry = true;
				else if (*p == 'o') {
					if (!p[1])
						i++;
					break;
				}
			}
			continue;
		}
		npositional++;
		if (npositional >= 2 || t[0] == '+' || t[0] == ':') {
			if (t[0] == '+')
				j = judgement_max(j, J(VERDICT_FORCE_PUSH, "git push +refspec force-updates the remote", (int)i));
			else if (t[0] == ':' && t[1])
				j = judgement_max(j, J(VERDICT_FORCE_PUSH, "git push :ref deletes a remote ref", (int)i));
		}
	}
	if (gs->forces_push)
		j = judgement_max(j, J(VERDICT_FORCE_PUSH, "git push with mirror or forced-refspec config", (int)s));
	else if (j.v == VERDICT_SAFE && gs->env_unknown)
		j = J(VERDICT_ASK, cl_printf(c, "git push reads its remote's config by %s, not known before it runs",
		                             gs->env_unknown), (int)s);
	const char *unread = NULL;
	if (j.v == VERDICT_SAFE && cl_git_config_forces_push(c, gs->dir, gs->gitdir, &unread))
		j = J(VERDICT_FORCE_PUSH, "git push to a remote configured as a mirror or with a forced refspec", (int)s);
	else if (j.v == VERDICT_SAFE && unread)
		j = J(VERDICT_ASK, cl_printf(c, "git push reads its remote's config from %s, too big to read", unread),
		      (int)s);
	if (dry)
		return SAFE_J;
	return judgement_max(j, unknown);
}

static struct judgement judge_git_sub(struct cctx *c, struct git_state *gs, const struct sarg *a, size_t s,
                                      size_t n)
{
	const char *sub = a[s].text;
	size_t f = s + 1;
	if (ghas(a, f, n, "--help|-h"))
		return SAFE_J;
#define DEL(reason, at) J(VERDICT_DELETE, reason, (int)(at))
	if (eq(sub, "push"))
		return git_push(c, gs, a, s, n);
	if (eq(sub, "reset")) {
		int k = gfind(a, f, n, "--hard");
		return k >= 0 ? DEL("git reset --hard discards uncommitted changes", k) : SAFE_J;
	}
	if (eq(sub, "checkout")) {
		if (ghas(a, f, n, "-b|-B|--orphan") && dashdash(a, f, n) == n)
			return SAFE_J;
		int k = gfind(a, f, n, "-f|--force|-p|--patch|--ours|--theirs");
		if (k >= 0)
			return DEL("git checkout overwrites uncommitted changes", k);
		size_t dd = dashdash(a, f, n);
		if (dd + 1 < n)
			return DEL("git checkout -- PATH discards changes to files", dd);
		for (size_t i = f; i < n; i++) {
			if (a[i].known && a[i].text[0] != '-' && git_path_like(a[i].text))
				return DEL("git checkout PATH discards changes to files", i);
		}
		return SAFE_J;
	}
	if (eq(sub, "restore")) {
		bool staged = ghas(a, f, n, "--staged|-S");
		bool worktree = ghas(a, f, n, "--worktree|-W");
		if (staged && !worktree)
			return SAFE_J;
		return DEL("git restore discards changes to files", s);
	}
	if (eq(sub, "switch")) {
		int k = gfind(a, f, n, "--discard-changes|-f|--force");
		return k >= 0 ? DEL("git switch --discard-changes discards uncommitted changes", k) : SAFE_J;
	}
	if (eq(sub, "stash")) {
		for (size_t i = f; i < n; i++) {
			if (!a[i].known)
				continue;
			if (eq(a[i].text, "drop") || eq(a[i].text, "clear"))
				return DEL(cl_printf(c, "git stash %s deletes stashed changes", a[i].text), i);
			if (a[i].text[0] != '-')
				break;
		}
		return SAFE_J;
	}
	if (eq(sub, "clean")) {
		if (dry_run(a, f, n, "--dry-run|-n"))
			return SAFE_J;
		return DEL("git clean deletes untracked files", s);
	}
	if (eq(sub, "branch")) {
		int d = gfind(a, f, n, "-D");
		if (d >= 0)
			return DEL("git branch -D deletes an unmerged branch", d);
		int del = gfind(a, f, n, "-d|--delete");
		int force = gfind(a, f, n, "-f|--force");
		if (del >= 0 && force >= 0)
			return DEL("git branch -d --force deletes an unmerged branch", del);
		return SAFE_J;
	}
	if (eq(sub, "tag")) {
		int k = gfind(a, f, n, "-d|--delete");
		return k >= 0 ? DEL("git tag -d deletes a tag", k) : SAFE_J;
	}
	if (eq(sub, "update-ref")) {
		int k = gfind(a, f, n, "-d|--stdin");
		return k >= 0 ? DEL("git update-ref -d deletes a ref", k) : SAFE_J;
	}
	if (eq(sub, "symbolic-ref")) {
		int k = gfind(a, f, n, "-d|--delete");
		return k >= 0 ? DEL("git symbolic-ref -d deletes a ref", k) : SAFE_J;
	}
	if (eq(sub, "reflog")) {
		for (size_t i = f; i < n; i++)
			if (kn(&a[i], "expire") || kn(&a[i], "delete"))
				return DEL(cl_printf(c, "git reflog %s drops recovery points", a[i].text), i);
		return SAFE_J;
	}
	if (eq(sub, "gc")) {
		for (size_t i = f; i < n; i++)
			if (a[i].known && strchr(a[i].text, '=') &&
			    long_abbrev_of(a[i].text, strcspn(a[i].text, "="), "--prune") && !strstr(a[i].text, "=2.weeks.ago"))
				return DEL("git gc --prune drops unreachable commits", i);
		return SAFE_J;
	}
	if (eq(sub, "prune")) {
		if (dry_run(a, f, n, "--dry-run|-n"))
			return SAFE_J;
		return DEL("git prune drops unreachable objects", s);
	}
	if (eq(sub, "rm")) {
		if (ghas(a, f, n, "--cached") || dry_run(a, f, n, "--dry-run|-n"))
			return SAFE_J;
		return DEL("git rm deletes files", s);
	}
	if (eq(sub, "filter-branch") || eq(sub, "filter-repo"))
		return DEL(cl_printf(c, "git %s rewrites history and drops the old", sub), s);
	if (eq(sub, "worktree")) {
		if (f < n && kn(&a[f], "remove") && ghas(a, f + 1, n, "-f|--force"))
			return DEL("git worktree remove --force deletes a working tree with its changes", f);
		return SAFE_J;
	}
	if (eq(sub, "submodule")) {
		for (size_t i = f; i < n; i++) {
			if (kn(&a[i], "deinit") && ghas(a, i + 1, n, "-f|--force"))
				return DEL("git submodule deinit --force discards submodule changes", i);
			if (kn(&a[i], "foreach")) {
				size_t k = i + 1;
				while (k < n && a[k].known && a[k].text[0] == '-')
					k++;
				if (k >= n)
					return SAFE_J;
				struct sarg t = {.text = join_args(c, a + k, n - k), .known = all_known(a + k, n - k), .word = a[k].word};
				return judge_shell_text(c, "git submodule foreach", &t, NULL, 0, (int)k);
			}
		}
		return SAFE_J;
	}
	if (eq(sub, "rebase")) {
		struct judgement j = SAFE_J;
		for (size_t i = f; i < n; i++) {
			if (kn(&a[i], "-x") || kn(&a[i], "--exec")) {
				if (i + 1 < n)
					j = judgement_max(j, judge_shell_text(c, "git rebase --exec", &a[i + 1], NULL, 0, (int)i + 1));
				i++;
			} else if (a[i].known && starts(a[i].text, "--exec=")) {
				struct sarg t = {.text = a[i].text + 7, .known = true, .word = a[i].word};
				j = judgement_max(j, judge_shell_text(c, "git rebase --exec", &t, NULL, 0, (int)i));
			}
		}
		return j;
	}
	if (eq(sub, "bisect")) {
		if (f < n && kn(&a[f], "run")) {
			struct stdin_src none = {STDIN_NONE, NULL};
			return judge_rest(c, "git bisect run", a + f + 1, n - f - 1, &none, (int)f + 1);
		}
		return SAFE_J;
	}
	if (eq(sub, "send-email"))
		return J(VERDICT_PUBLISH, "git send-email sends patches to a mailing list", (int)s);
	if (eq(sub, "lfs") && f < n && kn(&a[f], "prune"))
		return dry_run(a, f, n, "--dry-run|-d") ? SAFE_J : DEL("git lfs prune deletes local LFS objects", f);
	return SAFE_J;
#undef DEL
}

/* What git's environment adds to its configuration: GIT_DIR (the
 * repository whose config it reads), the variables that choose the other
 * config files, and GIT_CONFIG_COUNT's settings, judged as -c ones. */
static struct judgement judge_git_env(struct cctx *c, struct git_state *gs)
{
	static const char *const chooses[] = {"GIT_DIR", "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL",
	                                      "GIT_CONFIG_SYSTEM"};
	bool known;
	for (size_t k = 0; k < sizeof chooses / sizeof chooses[0]; k++)
		if (cl_env_get(c, chooses[k], &known) && !known && !gs->env_unknown)
			gs->env_unknown = chooses[k];
	const char *gitdir = cl_env_get(c, "GIT_DIR", &known);
	if (gitdir && known && *gitdir)
		gs->gitdir = gitdir;
	/* git's own encoding of -c for its children: not read here */
	if (cl_env_get(c, "GIT_CONFIG_PARAMETERS", &known) && !cl_env_inherited(c, "GIT_CONFIG_PARAMETERS") &&
	    !gs->env_unknown)
		gs->env_unknown = "GIT_CONFIG_PARAMETERS";
	const char *count = cl_env_get(c, "GIT_CONFIG_COUNT", &known);
	if (!count || (known && !*count))
		return SAFE_J;
	char *end = NULL;
	long total = known ? strtol(count, &end, 10) : -1;
	if (!known || *end || total < 0 || total > 64)
		return J(VERDICT_ASK, "git takes settings from GIT_CONFIG_COUNT that are not known", 0);
	struct judgement j = SAFE_J;
	for (long k = 0; k < total; k++) {
		bool kk, vk;
		const char *key = cl_env_get(c, cl_printf(c, "GIT_CONFIG_KEY_%ld", k), &kk);
		const char *val = cl_env_get(c, cl_printf(c, "GIT_CONFIG_VALUE_%ld", k), &vk);
		if (!key || !val || !kk || !vk)
			return judgement_max(j, J(VERDICT_ASK, "git takes settings from GIT_CONFIG_* that are not known", 0));
		struct sarg *kv = cl_alloc(c, sizeof *kv);
		*kv = (struct sarg){.text = cl_printf(c, "%s=%s", key, val), .known = true};
		struct judgement kj = judge_git_config(c, gs, kv, 0);
		/* Settings sbsh started with (its own core.hooksPath among them)
		 * are the human's: they still define aliases, never a verdict. */
		if (!cl_env_inherited(c, cl_printf(c, "GIT_CONFIG_KEY_%ld", k)) ||
		    !cl_env_inherited(c, cl_printf(c, "GIT_CONFIG_VALUE_%ld", k)))
			j = judgement_max(j, kj);
	}
	return j;
}

static struct judgement judge_git_argv(struct cctx *c, const struct sarg *a, size_t n, unsigned alias_depth)
{
	struct git_state gs;
	memset(&gs, 0, sizeof gs);
	struct judgement j = judge_git_env(c, &gs);
	size_t i = 1;
	for (; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known) {
			if (i > 1 && (kn(&a[i - 1], "-C") || kn(&a[i - 1], "--git-dir") || kn(&a[i - 1], "--work-tree")))
				continue;
			break;
		}
		const char *t = x->text;
		if (t[0] != '-')
			break;
		if (eq(t, "--help") || eq(t, "--version") || eq(t, "-h") || eq(t, "-v") || starts(t, "--list-cmds") ||
		    eq(t, "--exec-path") || eq(t, "--html-path") || eq(t, "--man-path") || eq(t, "--info-path"))
			return SAFE_J;
		if (eq(t, "-C")) {
			if (i + 1 < n)
				gs.dir = a[i + 1].known ? a[i + 1].text : NULL;
			i++;
		} else if (eq(t, "-c")) {
			if (i + 1 < n)
				j = judgement_max(j, judge_git_config(c, &gs, &a[i + 1], (int)i + 1));
			i++;
		} else if (starts(t, "--config-env")) {
			const char *v = t[12] == '=' ? t + 13 : (i + 1 < n ? a[++i].text : "");
			size_t klen = strcspn(v, "=");
			const char *key = git_lower_key(c, v, klen);
			if (gitconfig_name_effect(key) != GITCONFIG_PLAIN || starts(key, "alias.") || starts(key, "remote.") ||
			    starts(key, "push."))
				j = judgement_max(j, J(VERDICT_ASK, "git --config-env takes a setting from the environment", (int)i));
		} else if (eq(t, "--git-dir") || eq(t, "--work-tree") || eq(t, "--namespace") ||
		           eq(t, "--super-prefix") || eq(t, "--exec-path")) {
			if (eq(t, "--git-dir") && i + 1 < n && a[i + 1].known)
				gs.gitdir = a[i + 1].text;
			i++;
		} else if (starts(t, "--git-dir=")) {
			gs.gitdir = t + 10;
		}
	}
	if (i >= n)
		return j;
	if (!a[i].known)
		return judgement_max(j, J(VERDICT_ASK, "git subcommand is not known before it runs", (int)i));
	const char *sub = a[i].text;
	if (!in_lists(git_builtin_cmds, sub)) {
		/* Aliases never shadow git's own commands. */
		const char *alias = NULL;
		const struct sarg *alias_arg = NULL;
		for (size_t k = 0; k < gs.naliases; k++) {
			const char *kv = gs.aliases[k]->text;
			size_t klen = strcspn(kv, "=");
			if (klen > 6 && klen - 6 == strlen(sub) && strncasecmp(kv + 6, sub, klen - 6) == 0) {
				alias = kv[klen] ? kv + klen + 1 : "";
				alias_arg = gs.aliases[k];
			}
		}
		if (alias_arg && !alias_arg->known)
			return judgement_max(j, J(VERDICT_ASK, "git alias that is not known before it runs", (int)i));
		if (!alias && gs.env_unknown)
			return judgement_max(j, J(VERDICT_ASK, cl_printf(c, "git %s may be an alias, and %s is not known before it runs",
			                                                  sub, gs.env_unknown), (int)i));
		const char *unread = NULL;
		if (!alias)
			alias = cl_git_config_alias(c, gs.dir, gs.gitdir, sub, &unread);
		if (!alias && unread)
			return judgement_max(j, J(VERDICT_ASK, cl_printf(c, "git %s may be an alias in %s, too big to read",
			                                                  sub, unread), (int)i));
		if (alias) {
			if (alias_depth >= 8)
				return judgement_max(j, J(VERDICT_ASK, "git alias loop", (int)i));
			if (alias[0] == '!') {
				/* git runs it with sh -c 'ALIAS "$@"' ALIAS ARGS... */
				const char *text = cl_printf(c, "%s \"$@\"", alias + 1);
				struct sarg *pos = xcalloc(n - i, sizeof *pos);
				pos[0].text = alias + 1;
				pos[0].known = true;
				for (size_t k = i + 1; k < n; k++)
					pos[k - i] = a[k];
				struct sarg t = {.text = text, .known = true, .word = a[i].word};
				struct judgement aj = judge_shell_text(c, cl_printf(c, "git alias %s", sub), &t, pos, n - i, (int)i);
				free(pos);
				return judgement_max(j, aj);
			}
			struct sarg words[64];
			size_t nw = git_split_alias(c, alias, words, 64);
			struct sarg *v = xcalloc(i + nw + (n - i - 1) + 1, sizeof *v);
			size_t m = 0;
			for (size_t k = 0; k < i; k++)
				v[m++] = a[k];
			for (size_t k = 0; k < nw; k++)
				v[m++] = words[k];
			for (size_t k = i + 1; k < n; k++)
				v[m++] = a[k];
			struct judgement aj = judge_git_argv(c, v, m, alias_depth + 1);
			free(v);
			if (aj.v != VERDICT_SAFE)
				aj.reason = cl_printf(c, "git alias %s: %s", sub, aj.reason ? aj.reason : "");
			aj.at = (int)i;
			return judgement_max(j, aj);
		}
		if (eq(sub, "filter-repo"))
			return judgement_max(j, J(VERDICT_DELETE, "git filter-repo rewrites history and drops the old", (int)i));
		return j;
	}
	struct judgement sj = judge_git_sub(c, &gs, a, i, n);
	if (sj.v == VERDICT_SAFE &&
	    in_lists("reset|checkout|switch|stash|branch|tag|update-ref|symbolic-ref|reflog|gc|prune|rm|worktree|"
	             "submodule|clean|restore|lfs|filter-branch|rebase|bisect",
	             sub)) {
		/* An unquoted unknown argument may expand to --hard, -D, -- paths... */
		int u = first_splitting_unknown(a, i + 1, n);
		if (u >= 0)
			sj = J(VERDICT_ASK, cl_printf(c, "git %s with arguments that are not known", sub), u);
	}
	return judgement_max(j, sj);
}

static struct judgement judge_git(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                  const struct stdin_src *in)
{
	(void)name;
	(void)in;
	return judge_git_argv(c, a, n, 0);
}

/* ---- subcommand tables ------------------------------------------------------------- */

struct subrule {
	const char *path;     /* words after the options: "publish", "dist-tag add"; "" any; "^" none */
	enum verdict v;
	const char *reason;
	const char *unless;   /* flags that make it SAFE (the tool's dry runs) */
	const char *requires; /* flags without which the rule does not apply */
};

enum {
	SPEC_ANYWHERE = 1 << 0, /* rules match any word (make-like goals and tasks) */
	SPEC_TASKPATH = 1 << 1, /* words may be written :project:task */
};

struct tool_spec {
	const char *short_arg; /* options taking an argument */
	const char *long_arg;
	unsigned flags;
	const struct subrule *rules;
};

#define R_END {NULL, VERDICT_SAFE, NULL, NULL, NULL}
#define P(path, reason) {path, VERDICT_PUBLISH, reason, NULL, NULL}
#define PU(path, reason, unless) {path, VERDICT_PUBLISH, reason, unless, NULL}
#define D(path, reason) {path, VERDICT_DELETE, reason, NULL, NULL}
#define DU(path, reason, unless) {path, VERDICT_DELETE, reason, unless, NULL}
#define E(path, reason) {path, VERDICT_ESCAPE, reason, NULL, NULL}

static bool match_word(const char *pat, size_t plen, const char *w)
{
	if (plen && pat[plen - 1] == '*')
		return strncmp(pat, w, plen - 1) == 0;
	return strlen(w) == plen && strncmp(pat, w, plen) == 0;
}

static struct judgement judge_spec(struct cctx *c, const char *name, const struct tool_spec *sp,
                                   const struct sarg *a, size_t n)
{
	/* The words: arguments that are not options or their values. */
	int idx[64];
	size_t nw = 0;
	bool opts_done = false;
	for (size_t i = 1; i < n && nw < 64; i++) {
		const struct sarg *x = &a[i];
		const char *t = x->text;
		if (!opts_done && x->known && eq(t, "--")) {
			opts_done = true;
			continue;
		}
		if (!opts_done && x->known && t[0] == '-' && t[1]) {
			/* --version after a subcommand may be an option's name (cargo yank --version 1.0). */
			if (eq(t, "--help") || eq(t, "-h") || (eq(t, "--version") && nw == 0))
				return SAFE_J;
			size_t len = strcspn(t, "=");
			if (t[1] == '-') {
				if (!t[len] && in_list(sp->long_arg, t, len))
					i++;
			} else if (!t[2] && sp->short_arg && strchr(sp->short_arg, t[1])) {
				i++;
			} else if (in_list(sp->long_arg, t, len) && !t[len]) {
				i++; /* single-dash long options (-chdir, -Dx) */
			}
			continue;
		}
		idx[nw++] = (int)i;
	}
	if (nw > 0 && a[idx[0]].known && eq(a[idx[0]].text, "help"))
		return SAFE_J;

	struct judgement best = SAFE_J;
	for (const struct subrule *r = sp->rules; r->path; r++) {
		if (r->requires && !has_flag(a, 1, n, r->requires)) {
			/* The required flag could be hiding in an unquoted unknown argument. */
			int u = first_splitting_unknown(a, 1, n);
			if (u >= 0 && best.v < VERDICT_ASK)
				best = J(VERDICT_ASK, cl_printf(c, "%s with arguments that are not known", name), u);
			continue;
		}
		if (r->unless && dry_run(a, 1, n, r->unless))
			continue;
		if (eq(r->path, "^")) {
			if (nw == 0)
				best = judgement_max(best, J(r->v, r->reason, 0));
			continue;
		}
		if (sp->flags & SPEC_ANYWHERE) {
			for (size_t k = 0; k < nw; k++) {
				const struct sarg *x = &a[idx[k]];
				if (!x->known) {
					if (best.v < VERDICT_ASK)
						best = J(VERDICT_ASK, cl_printf(c, "%s with a target that is not known", name), idx[k]);
					continue;
				}
				const char *w = x->text;
				if (sp->flags & SPEC_TASKPATH) {
					const char *colon = strrchr(w, ':');
					if (colon && w[0] == ':')
						w = colon + 1;
				}
				if (match_word(r->path, strlen(r->path), w))
					best = judgement_max(best, J(r->v, r->reason, idx[k]));
			}
			continue;
		}
		/* Match the rule's words against the first words. */
		const char *p = r->path;
		size_t k = 0;
		bool ok = true;
		while (*p) {
			size_t len = strcspn(p, " ");
			if (k >= nw) {
				ok = false;
				break;
			}
			const struct sarg *x = &a[idx[k]];
			if (!x->known) {
				if (best.v < VERDICT_ASK)
					best = J(VERDICT_ASK, cl_printf(c, "%s subcommand is not known before it runs", name), idx[k]);
				ok = false;
				break;
			}
			if (!match_word(p, len, x->text)) {
				ok = false;
				break;
			}
			k++;
			p += len;
			while (*p == ' ')
				p++;
		}
		if (ok)
			best = judgement_max(best, J(r->v, r->reason, k ? idx[k - 1] : 0));
	}
	return best;
}


static const struct subrule rules_cargo[] = {
	PU("publish", "cargo publish uploads to crates.io", "--dry-run|-n"),
	P("yank", "cargo yank changes what is published"),
	{"owner", VERDICT_PUBLISH, "cargo owner changes who can publish", NULL, "--add|-a|--remove|-r"},
	{"release", VERDICT_PUBLISH, "cargo release --execute publishes", NULL, "--execute|-x"},
	PU("workspaces publish", "cargo workspaces publish uploads crates", "--dry-run"),
	PU("ws publish", "cargo workspaces publish uploads crates", "--dry-run"),
	{"smart-release", VERDICT_PUBLISH, "cargo smart-release --execute publishes", NULL, "--execute|-e"},
	R_END};
static const struct tool_spec spec_cargo = {"pjZF", "--manifest-path|--registry|--token|--index|--config|--color|--target|--features|--package|--jobs", 0, rules_cargo};

static const struct subrule rules_gem[] = {
	P("push", "gem push publishes to RubyGems"),
	P("yank", "gem yank changes what is published"),
	{"owner", VERDICT_PUBLISH, "gem owner changes who can publish", NULL, "--add|-a|--remove|-r"},
	R_END};
static const struct tool_spec spec_gem = {"kC", "--key|--host|--otp|--config-file", 0, rules_gem};

static const struct subrule rules_pypi[] = {
	PU("upload", "uploads to a package index", "--dry-run"),
	PU("publish", "publishes to a package index", "--dry-run|--repository-url-dry-run"),
	P("register", "registers a project on a package index"),
	R_END};
static const struct tool_spec spec_pypi = {"rupPC", "--repository|--repository-url|--username|--password|--token|--publish-url|--directory|--project|--python|--index|--check-url|--trusted-publishing|--config-file|--comment|--sign-with|--identity|--cert|--client-cert|--build", 0, rules_pypi};

static const struct subrule rules_nuget[] = {
	P("push", "nuget push publishes a package"),
	P("delete", "nuget delete removes a published package"),
	P("nuget push", "dotnet nuget push publishes a package"),
	P("nuget delete", "dotnet nuget delete removes a published package"),
	R_END};
static const struct tool_spec spec_nuget = {"skc", "--source|--api-key|--symbol-source|--configfile", 0, rules_nuget};

static const struct subrule rules_mvn[] = {
	P("deploy", "mvn deploy publishes artifacts"),
	P("deploy:*", "mvn deploy publishes artifacts"),
	P("release:perform", "mvn release:perform publishes a release"),
	P("nexus-staging:release", "publishes a staged release"),
	P("nexus-staging:deploy", "publishes artifacts"),
	P("jreleaser:*", "jreleaser publishes a release"),
	R_END};
static const struct tool_spec spec_mvn = {"fsbtlpPD", "--file|--settings|--projects|--threads|--log-file|--activate-profiles|--builder|--global-settings|--toolchains", SPEC_ANYWHERE, rules_mvn};

static const struct subrule rules_sbt[] = {
	P("publish", "sbt publish publishes artifacts"),
	P("+publish", "sbt publish publishes artifacts"),
	P("publishSigned", "sbt publishSigned publishes artifacts"),
	P("+publishSigned", "sbt publishSigned publishes artifacts"),
	P("sonatypeRelease", "publishes to Maven Central"),
	P("sonatypeBundleRelease", "publishes to Maven Central"),
	P("sonatypeBundleUpload", "uploads to Maven Central"),
	P("ci-release", "publishes a release"),
	P("release", "sbt release publishes a release"),
	R_END};
static const struct tool_spec spec_sbt = {NULL, NULL, SPEC_ANYWHERE, rules_sbt};

static const struct subrule rules_rake[] = {
	D("db:drop", "drops the database"), D("db:drop:*", "drops the database"),
	D("db:reset", "drops and recreates the database"), D("db:purge", "empties the database"),
	D("db:truncate_all", "empties the database"), D("db:migrate:reset", "drops and recreates the database"),
	D("db:schema:load", "replaces the database contents"), D("db:seed:replant", "empties the database"),
	D("db:structure:load", "replaces the database contents"),
	P("release", "rake release publishes the gem"), P("release:*", "rake release publishes the gem"),
	R_END};
static const struct tool_spec spec_rake = {"fCIreE", "--rakefile|--directory|--libdir|--require|--environment", SPEC_ANYWHERE, rules_rake};

static const struct subrule rules_mix[] = {
	PU("hex.publish", "mix hex.publish publishes to Hex", "--dry-run"),
	P("hex.retire", "mix hex.retire changes what is published"),
	P("hex.owner", "mix hex.owner changes who can publish"),
	D("ecto.drop", "drops the database"), D("ecto.reset", "drops and recreates the database"),
	R_END};
static const struct tool_spec spec_mix = {NULL, NULL, 0, rules_mix};

static const struct subrule rules_pod[] = {
	P("trunk push", "pod trunk push publishes a pod"), P("trunk delete", "pod trunk delete removes a published pod"),
	P("trunk deprecate", "pod trunk deprecate changes what is published"), P("repo push", "pod repo push publishes a spec"),
	R_END};
static const struct tool_spec spec_pod = {NULL, NULL, 0, rules_pod};

static const struct subrule rules_conan[] = {
	P("upload", "conan upload publishes packages"),
	{"remove", VERDICT_PUBLISH, "conan remove -r deletes packages from a remote", NULL, "-r|--remote"},
	{"rm", VERDICT_PUBLISH, "conan remove -r deletes packages from a remote", NULL, "-r|--remote"},
	R_END};
static const struct tool_spec spec_conan = {NULL, NULL, 0, rules_conan};

static const struct subrule rules_snapcraft[] = {
	P("upload", "snapcraft upload publishes a snap"), P("push", "snapcraft push publishes a snap"),
	P("release", "snapcraft release publishes a snap"), P("promote", "snapcraft promote publishes a snap"),
	P("close", "snapcraft close changes what is published"), P("register", "registers a snap name"),
	R_END};
static const struct tool_spec spec_snapcraft = {NULL, NULL, 0, rules_snapcraft};

static const struct subrule rules_upload[] = {
	P("upload", "uploads a package to its registry"), R_END};
static const struct tool_spec spec_upload = {NULL, NULL, 0, rules_upload};

static const struct subrule rules_dart[] = {
	PU("pub publish", "pub publish uploads to pub.dev", "--dry-run|-n"),
	PU("pub lish", "pub publish uploads to pub.dev", "--dry-run|-n"),
	R_END};
static const struct tool_spec spec_dart = {NULL, NULL, 0, rules_dart};

static const struct subrule rules_helm[] = {
	P("push", "helm push publishes a chart"), P("cm-push", "helm cm-push publishes a chart"),
	D("uninstall", "helm uninstall removes a release and its data"), D("delete", "helm delete removes a release"),
	D("del", "helm delete removes a release"), D("un", "helm uninstall removes a release"),
	PU("install", "helm install deploys to a cluster", "--dry-run"),
	PU("upgrade", "helm upgrade deploys to a cluster", "--dry-run"),
	R_END};
static const struct tool_spec spec_helm = {"n", "--namespace|--kube-context|--kubeconfig|--registry-config|--repository-config", 0, rules_helm};

static const struct subrule rules_terraform[] = {
	DU("destroy", "terraform destroy deletes the infrastructure", NULL),
	{"apply", VERDICT_DELETE, "terraform apply -destroy deletes the infrastructure", NULL, "-destroy|--destroy"},
	PU("apply", "terraform apply changes live infrastructure", "-destroy|--destroy"),
	D("state rm", "terraform state rm forgets resources"), D("workspace delete", "deletes a workspace's state"),
	D("run-all destroy", "terragrunt destroys the infrastructure"),
	P("run-all apply", "terragrunt apply changes live infrastructure"),
	R_END};
static const struct tool_spec spec_terraform = {NULL, "-chdir|-var|-var-file|-target|-state", 0, rules_terraform};

static const struct subrule rules_pulumi[] = {
	PU("up", "pulumi up changes live infrastructure", "--preview-only"),
	PU("update", "pulumi up changes live infrastructure", "--preview-only"),
	D("destroy", "pulumi destroy deletes the infrastructure"), D("down", "pulumi destroy deletes the infrastructure"),
	D("stack rm", "pulumi stack rm deletes a stack"),
	R_END};
static const struct tool_spec spec_pulumi = {"sC", "--stack|--cwd", 0, rules_pulumi};

static const struct subrule rules_deployers[] = {
	P("deploy", "deploys to a hosting service"), P("publish", "publishes"),
	P("hosting:channel:deploy", "deploys to a hosting channel"), P("hosting:disable", "takes a site offline"),
	P("pages deploy", "deploys to a hosting service"), P("pages publish", "deploys to a hosting service"),
	P("versions deploy", "deploys to a hosting service"), P("promote", "promotes a deployment to production"),
	D("destroy", "destroys deployed resources"), D("remove", "removes deployed resources"),
	D("rm", "removes deployed resources"), D("delete", "deletes deployed resources"),
	D("firestore:delete", "deletes database data"), D("database:remove", "deletes database data"),
	D("functions:delete", "deletes deployed functions"), D("apps destroy", "destroys an app"),
	D("apps:destroy", "destroys an app"), D("apps delete", "deletes an app"),
	D("volumes destroy", "destroys a volume and its data"), D("volumes delete", "deletes a volume and its data"),
	D("volume destroy", "destroys a volume and its data"), D("pg:reset", "empties a database"),
	D("sites:delete", "deletes a site"), D("teardown", "takes a site down"),
	D("kv key delete", "deletes stored data"), D("kv:key delete", "deletes stored data"),
	D("r2 object delete", "deletes stored data"), D("r2 bucket delete", "deletes stored data"),
	D("d1 delete", "deletes a database"),
	R_END};
static const struct tool_spec spec_deployers = {"acp", "--app|--config|--project|--only|--env|--site|--token|--dir|--region|--scope", 0, rules_deployers};

static const struct subrule rules_vercel[] = {
	{"", VERDICT_PUBLISH, "vercel --prod deploys to production", NULL, "--prod|--production"},
	P("promote", "vercel promote deploys to production"),
	D("remove", "vercel remove deletes deployments"), D("rm", "vercel remove deletes deployments"),
	R_END};
static const struct tool_spec spec_vercel = {"tAS", "--token|--scope|--local-config|--global-config", 0, rules_vercel};

static const struct subrule rules_netlify[] = {
	{"deploy", VERDICT_PUBLISH, "netlify deploy --prod deploys to production", NULL, "--prod|-p|--prod-if-unlocked"},
	D("sites:delete", "deletes a site"),
	R_END};
static const struct tool_spec spec_netlify = {NULL, NULL, 0, rules_netlify};

static const struct subrule rules_always_publish[] = {
	{"", VERDICT_PUBLISH, NULL, "--dry-run", NULL}, R_END};
static const struct tool_spec spec_always_publish = {NULL, NULL, 0, rules_always_publish};

static const struct subrule rules_release_tools[] = {
	{"", VERDICT_PUBLISH, NULL, "--dry-run|-d|--preview|--snapshot|--skip-publish|--skip=publish|--release-version|--changelog", NULL},
	R_END};
static const struct tool_spec spec_release_tools = {NULL, NULL, 0, rules_release_tools};

static const struct subrule rules_goreleaser[] = {
	{"^", VERDICT_PUBLISH, "goreleaser publishes a release", "--snapshot|--skip-publish|--skip=publish", NULL},
	{"release", VERDICT_PUBLISH, "goreleaser publishes a release", "--snapshot|--skip-publish|--skip=publish", NULL},
	R_END};
static const struct tool_spec spec_goreleaser = {NULL, NULL, 0, rules_goreleaser};

static const struct subrule rules_publish_sub[] = {
	PU("publish", "publishes a package", "--dry-run|--no-publish|--preview"),
	P("unpublish", "unpublishes a package"),
	P("full-release", "publishes a release"), P("release", "publishes a release"),
	P("deploy", "publishes a release"), P("upload", "uploads a release"),
	R_END};
static const struct tool_spec spec_publish_sub = {"p", "--pat|--registry|--token|--packagePath", 0, rules_publish_sub};

static const struct subrule rules_registry_images[] = {
	P("push", "pushes an image to a registry"), P("copy", "copies an image to a registry"),
	P("cp", "copies an image to a registry"), P("append", "pushes an image to a registry"),
	P("mutate", "pushes an image to a registry"), P("tag", "changes a tag in a registry"),
	P("rebase", "pushes an image to a registry"), P("flatten", "pushes an image to a registry"),
	P("attach", "pushes an artifact to a registry"), P("index append", "pushes an index to a registry"),
	P("manifest push", "pushes a manifest to a registry"),
	D("delete", "deletes an image from a registry"), D("manifest delete", "deletes an image from a registry"),
	D("blob delete", "deletes data from a registry"),
	R_END};
static const struct tool_spec spec_registry_images = {NULL, "--platform", 0, rules_registry_images};

static const struct subrule rules_ko[] = {
	{"build", VERDICT_PUBLISH, "ko build pushes images", "--local|-L|--push=false", NULL},
	{"publish", VERDICT_PUBLISH, "ko publish pushes images", "--local|-L|--push=false", NULL},
	{"apply", VERDICT_PUBLISH, "ko apply deploys", NULL, NULL},
	{"resolve", VERDICT_PUBLISH, "ko resolve pushes images", "--local|-L|--push=false", NULL},
	{"create", VERDICT_PUBLISH, "ko create deploys", NULL, NULL},
	R_END};
static const struct tool_spec spec_ko = {NULL, NULL, 0, rules_ko};

static const struct subrule rules_rclone[] = {
	DU("delete", "rclone delete removes files", "--dry-run|-n"),
	DU("deletefile", "rclone deletefile removes a file", "--dry-run|-n"),
	DU("purge", "rclone purge removes a path and its contents", "--dry-run|-n"),
	DU("rmdir", "rclone rmdir removes a directory", "--dry-run|-n"),
	DU("rmdirs", "rclone rmdirs removes directories", "--dry-run|-n"),
	DU("cleanup", "rclone cleanup empties the trash", "--dry-run|-n"),
	DU("sync", "rclone sync deletes files missing from the source", "--dry-run|-n"),
	DU("bisync", "rclone bisync deletes files", "--dry-run|-n"),
	DU("move", "rclone move deletes the source", "--dry-run|-n"),
	DU("moveto", "rclone moveto deletes the source", "--dry-run|-n"),
	DU("dedupe", "rclone dedupe deletes duplicates", "--dry-run|-n"),
	R_END};
static const struct tool_spec spec_rclone = {NULL, "--config|--exclude|--include|--filter|--transfers|--checkers|--bwlimit|--log-file|--backup-dir", 0, rules_rclone};

static const struct subrule rules_prisma[] = {
	D("migrate reset", "prisma migrate reset drops the database"),
	{"db push", VERDICT_DELETE, "prisma db push --force-reset drops the database", NULL, "--force-reset|--accept-data-loss"},
	D("db drop", "drops the database"),
	R_END};
static const struct tool_spec spec_prisma = {NULL, "--schema", 0, rules_prisma};

static const struct subrule rules_dbtools[] = {
	D("db:drop", "drops the database"), D("db:drop:*", "drops the database"), D("schema:drop", "drops the schema"),
	D("db reset", "drops and recreates the database"), D("migrate:fresh", "drops all tables"),
	D("migrate:reset", "rolls back every migration"), D("migrate:refresh", "rolls back every migration"),
	D("db:wipe", "drops all tables"), D("db:reset", "drops and recreates the database"),
	D("migrate:rollback", "rolls back migrations"),
	R_END};
static const struct tool_spec spec_dbtools = {NULL, NULL, 0, rules_dbtools};

static const struct subrule rules_datastores[] = {
	D("rm", "deletes stored objects"), D("rb", "deletes a bucket"), D("del", "deletes stored data"),
	D("delete", "deletes stored data"), D("destroy", "destroys stored data"), D("purge", "purges stored data"),
	D("forget", "forgets backups"), D("prune", "deletes backups"), D("remove", "deletes stored data"),
	D("kv delete", "deletes stored secrets"), D("kv destroy", "destroys stored secrets"),
	D("kv metadata delete", "deletes stored secrets"), D("secrets disable", "deletes a secrets engine and its data"),
	D("database delete", "deletes a database"), D("branch delete", "deletes a database branch"),
	D("db destroy", "destroys a database"), D("branches delete", "deletes a database branch"),
	{"mirror", VERDICT_DELETE, "mirror --remove deletes files at the destination", NULL, "--remove|--delete"},
	{"sync", VERDICT_DELETE, "sync deletes files at the destination", NULL, "--delete-removed|--delete-destination|--delete"},
	D("drop", "drops content"), D("gc", "deletes unused data"),
	R_END};
static const struct tool_spec spec_datastores = {NULL, "--config|--profile|--region|--endpoint|--address|--namespace|-r|--repo", 0, rules_datastores};

static const struct subrule rules_glab[] = {
	P("release create", "glab release create publishes a release"), P("release upload", "glab release upload publishes"),
	D("release delete", "glab release delete deletes a release"), D("repo delete", "glab repo delete deletes a repository"),
	{"repo create", VERDICT_PUBLISH, "glab repo create --public publishes a repository", NULL, "--public"},
	P("repo archive", "changes a published repository"),
	R_END};
static const struct tool_spec spec_glab = {"R", "--repo", 0, rules_glab};

static const struct subrule rules_kubectl[] = {
	{"delete", VERDICT_DELETE, "kubectl delete deletes cluster resources", "--dry-run", NULL},
	{"apply", VERDICT_PUBLISH, "kubectl apply deploys to a cluster", "--dry-run", NULL},
	{"create", VERDICT_PUBLISH, "kubectl create deploys to a cluster", "--dry-run", NULL},
	{"replace", VERDICT_PUBLISH, "kubectl replace deploys to a cluster", "--dry-run", NULL},
	{"drain", VERDICT_DELETE, "kubectl drain evicts workloads", "--dry-run", NULL},
	R_END};
static const struct tool_spec spec_kubectl = {"ncslf", "--namespace|--context|--cluster|--kubeconfig|--server|--user|--filename|--selector|--output|-o", 0, rules_kubectl};

static const struct subrule rules_compose[] = {
	{"down", VERDICT_DELETE, "compose down -v deletes volumes", NULL, "-v|--volumes"},
	{"rm", VERDICT_DELETE, "compose rm -v deletes volumes", NULL, "-v|--volumes"},
	P("push", "compose push pushes images"),
	R_END};
static const struct tool_spec spec_compose = {"fp", "--file|--project-name|--profile|--env-file|--project-directory", 0, rules_compose};

static const struct subrule rules_tmux[] = {
	E("send-keys", "tmux send-keys types into a shell outside the sandbox"), E("send", "tmux send-keys types into a shell outside the sandbox"),
	E("new-window", "tmux runs a command outside the sandbox"), E("neww", "tmux runs a command outside the sandbox"),
	E("new-session", "tmux runs a command outside the sandbox"), E("new", "tmux runs a command outside the sandbox"),
	E("split-window", "tmux runs a command outside the sandbox"), E("splitw", "tmux runs a command outside the sandbox"),
	E("respawn-pane", "tmux runs a command outside the sandbox"), E("respawnp", "tmux runs a command outside the sandbox"),
	E("respawn-window", "tmux runs a command outside the sandbox"), E("respawnw", "tmux runs a command outside the sandbox"),
	E("run-shell", "tmux runs a command outside the sandbox"), E("run", "tmux runs a command outside the sandbox"),
	E("if-shell", "tmux runs a command outside the sandbox"), E("if", "tmux runs a command outside the sandbox"),
	E("display-popup", "tmux runs a command outside the sandbox"), E("popup", "tmux runs a command outside the sandbox"),
	E("pipe-pane", "tmux runs a command outside the sandbox"), E("pipep", "tmux runs a command outside the sandbox"),
	E("source-file", "tmux runs commands outside the sandbox"), E("source", "tmux runs commands outside the sandbox"),
	E("set-hook", "tmux runs a command outside the sandbox"), E("command-prompt", "tmux runs a command outside the sandbox"),
	R_END};
static const struct tool_spec spec_tmux = {"LSfcT", NULL, 0, rules_tmux};

static const struct subrule rules_escape_always[] = {
	{"", VERDICT_ESCAPE, NULL, NULL, NULL}, R_END};
static const struct tool_spec spec_escape_always = {NULL, NULL, 0, rules_escape_always};

static const struct subrule rules_dbus[] = {
	E("call", "calls a service outside the sandbox"), E("set-property", "changes a service outside the sandbox"),
	E("emit", "signals a service outside the sandbox"),
	R_END};
static const struct tool_spec spec_dbus = {NULL, NULL, 0, rules_dbus};

static const struct subrule rules_cloud[] = {
	D("delete", "deletes cloud resources"),
	D("purge", "purges cloud resources"), P("deploy", "deploys"), P("publish", "publishes"),
	R_END};
static const struct tool_spec spec_cloud = {NULL, "--project|--region|--zone|--account|--configuration|--format|--subscription|--resource-group|-g|--name|-n", SPEC_ANYWHERE, rules_cloud};

/* ---- package managers ------------------------------------------------------------------ */

static bool script_name_publishes(const char *s)
{
	char low[128];
	size_t i = 0;
	for (; s[i] && i + 1 < sizeof low; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[i] = '\0';
	return strstr(low, "publish") || strstr(low, "deploy");
}

/* npx, pnpm dlx, yarn dlx, npm exec, bunx, uvx, pipx run: the package's
 * binary with the rest of the arguments. */
static struct judgement judge_pkg_runner(struct cctx *c, const char *what, const struct sarg *a, size_t s, size_t n,
                                         const struct stdin_src *in)
{
	struct judgement j = SAFE_J;
	size_t i = s;
	for (; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known)
			break;
		const char *t = x->text;
		if (eq(t, "--")) {
			i++;
			break;
		}
		if (t[0] != '-' || !t[1])
			break;
		size_t len = strcspn(t, "=");
		if (in_list("-c|--call", t, len)) {
			struct sarg tmp = {.text = t + len + 1, .known = true, .word = x->word};
			const struct sarg *txt = t[len] ? &tmp : (i + 1 < n ? &a[i + 1] : NULL);
			if (!t[len])
				i++;
			if (txt)
				j = judgement_max(j, judge_shell_text(c, what, txt, NULL, 0, (int)i));
			continue;
		}
		if (in_list("-p|--package|--from|--spec|--with|--python|--node-options|--registry|--index-url|--index|"
		            "--cache|--userconfig|--prefix|-w|--workspace|--pip-args|--pip|--python-version",
		            t, len)) {
			if (!t[len])
				i++;
			continue;
		}
	}
	if (i >= n)
		return j;
	if (!a[i].known)
		return judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s runs a package that is not known", what), (int)i));
	/* "@scope/name@1.2" runs the binary "name"; "@scope/cli" usually the scope's. */
	const char *pkg = a[i].text;
	const char *bin = pkg;
	if (bin[0] == '@') {
		const char *slash = strchr(bin, '/');
		if (slash) {
			if (starts(slash + 1, "cli") && (slash[4] == '\0' || slash[4] == '@')) {
				size_t sl = (size_t)(slash - bin - 1);
				if (sl > 1 && bin[sl] == 's')
					sl--;
				bin = cl_strndup(c, bin + 1, sl);
			} else {
				bin = slash + 1;
			}
		}
	}
	const char *at = strchr(bin + (bin[0] == '@'), '@');
	if (at)
		bin = cl_strndup(c, bin, (size_t)(at - bin));
	const char *eqv = strstr(bin, "==");
	if (eqv)
		bin = cl_strndup(c, bin, (size_t)(eqv - bin));
	struct sarg *v = xcalloc(n - i, sizeof *v);
	for (size_t k = i; k < n; k++)
		v[k - i] = a[k];
	v[0].text = bin;
	struct judgement r = judge_rest(c, NULL, v, n - i, in, (int)i);
	free(v);
	return judgement_max(j, r);
}

static const char *const pm_builtins =
	"add|remove|rm|r|un|uninstall|unlink|install|i|ci|it|install-test|install-ci-test|update|up|upgrade|"
	"outdated|link|ln|why|info|view|v|show|list|ls|ll|la|init|create|cache|config|c|get|set|audit|"
	"licenses|pack|prune|rebuild|rb|store|env|setup|import|patch|patch-commit|patch-remove|fetch|dedupe|"
	"ddp|test|t|tst|start|stop|restart|build|version|login|logout|whoami|adduser|help|doctor|node|bin|"
	"global|plugin|constraints|check|generate-lock-entry|policies|autoclean|completion|explain|"
	"explore|find-dupes|fund|hook|edit|docs|home|bugs|repo|search|s|se|ping|prefix|profile|query|root|"
	"sbom|shrinkwrap|star|stars|unstar|team|token|org|diff|pkg|exec-env|recursive|licenses|"
	"upgrade-interactive|interactive|outdated|pm|x|dlx|exec|run|run-script|rum|urn|workspaces|"
	"workspace|npm|publish|unpublish|deprecate|undeprecate|dist-tag|dist-tags|tag|owner|author|access|"
	"set-script|sbom|approve-builds|ignored-builds|self-update|catalog";

static struct judgement judge_pm(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                 const struct stdin_src *in)
{
	bool is_npm = eq(name, "npm"), is_yarn = eq(name, "yarn") || eq(name, "yarnpkg"), is_bun = eq(name, "bun");
	const char *long_arg = "-w|--workspace|--prefix|-C|--dir|--registry|--userconfig|--cache|--otp|--tag|"
	                       "--access|--loglevel|--scope|--filter|-F|--reporter|--workspace-dir|--cwd|"
	                       "--modules-folder|--cache-folder|--network-timeout|--config|--test-name-pattern|-t";
	size_t s = 1;
	for (; s < n; s++) {
		const struct sarg *x = &a[s];
		if (!x->known)
			break;
		const char *t = x->text;
		if (t[0] != '-' || !t[1])
			break;
		if (eq(t, "--help") || eq(t, "-h") || eq(t, "--version") || eq(t, "-v"))
			return SAFE_J;
		size_t len = strcspn(t, "=");
		if (is_bun && in_list("-e|--eval|-p|--print", t, len)) {
			struct sarg tmp = {.text = t + len + 1, .known = true, .word = x->word};
			return judge_code_arg(c, "bun", t[len] ? &tmp : (s + 1 < n ? &a[s + 1] : &tmp), (int)s);
		}
		if (!t[len] && in_list(long_arg, t, len))
			s++;
	}
	if (s >= n)
		return SAFE_J;
	if (!a[s].known)
		return J(VERDICT_ASK, cl_printf(c, "%s subcommand is not known before it runs", name), (int)s);
	const char *sub = a[s].text;
	size_t f = s + 1;
	if (has_flag(a, f, n, "--help|-h"))
		return SAFE_J;
	bool dry = dry_run(a, 1, n, "--dry-run");
	/* The next word after the subcommand, skipping options. */
	size_t w = f;
	while (w < n && a[w].known && a[w].text[0] == '-')
		w++;
	const struct sarg *next = w < n ? &a[w] : NULL;

	if (eq(sub, "publish"))
		return dry ? SAFE_J : J(VERDICT_PUBLISH, cl_printf(c, "%s publish uploads a package to the registry", name), (int)s);
	if (eq(sub, "unpublish") || eq(sub, "deprecate") || eq(sub, "undeprecate"))
		return dry ? SAFE_J : J(VERDICT_PUBLISH, cl_printf(c, "%s %s changes what is published", name, sub), (int)s);
	if (eq(sub, "dist-tag") || eq(sub, "dist-tags") || eq(sub, "tag") || eq(sub, "owner") || eq(sub, "author") ||
	    eq(sub, "access")) {
		if (!next)
			return SAFE_J;
		if (!next->known)
			return J(VERDICT_ASK, cl_printf(c, "%s %s with an action that is not known", name, sub), (int)w);
		if (in_lists("add|rm|remove|set|grant|revoke|public|restricted|2fa-required|2fa-not-required", next->text))
			return dry ? SAFE_J : J(VERDICT_PUBLISH, cl_printf(c, "%s %s %s changes the registry", name, sub, next->text), (int)w);
		return SAFE_J;
	}
	if (eq(sub, "npm") && is_yarn) {
		if (next && next->known && eq(next->text, "publish"))
			return dry ? SAFE_J : J(VERDICT_PUBLISH, "yarn npm publish uploads a package to the registry", (int)w);
		if (next && next->known && eq(next->text, "tag") && w + 1 < n &&
		    in_lists("add|remove|rm", a[w + 1].text))
			return J(VERDICT_PUBLISH, "yarn npm tag changes the registry", (int)w);
		return SAFE_J;
	}
	if (eq(sub, "exec") || eq(sub, "x") || eq(sub, "dlx")) {
		if (is_npm || is_bun || eq(sub, "dlx") || eq(sub, "exec"))
			return judge_pkg_runner(c, cl_printf(c, "%s %s", name, sub), a, f, n, in);
	}
	if (eq(sub, "run") || eq(sub, "run-script") || eq(sub, "rum") || eq(sub, "urn")) {
		if (!next)
			return SAFE_J;
		if (!next->known)
			return J(VERDICT_ASK, cl_printf(c, "%s run with a script name that is not known", name), (int)w);
		if (script_name_publishes(next->text))
			return J(VERDICT_PUBLISH, cl_printf(c, "%s run %s: the script's name says it publishes", name, next->text), (int)w);
		if (!is_npm && !strchr(next->text, '/') && !strchr(next->text, '.')) {
			/* yarn/pnpm/bun run also run the package's binaries. */
			struct judgement b = judge_rest(c, NULL, a + w, n - w, in, (int)w);
			if (b.v > VERDICT_ASK)
				return b;
		}
		return SAFE_J;
	}
	if (is_yarn && eq(sub, "workspaces") && next && next->known && eq(next->text, "foreach")) {
		size_t k = w + 1;
		while (k < n && a[k].known && a[k].text[0] == '-') {
			if (in_lists("--include|--exclude|--from|--jobs|-j|--since", a[k].text))
				k++;
			k++;
		}
		if (k >= n)
			return SAFE_J;
		struct sarg *v = xcalloc(n - k + 1, sizeof *v);
		v[0] = a[0];
		for (size_t q = k; q < n; q++)
			v[q - k + 1] = a[q];
		struct judgement r = judge_pm(c, name, v, n - k + 1, in);
		free(v);
		if (r.v != VERDICT_SAFE)
			r.reason = cl_printf(c, "yarn workspaces foreach: %s", r.reason ? r.reason : "");
		r.at = (int)k;
		return r;
	}
	if (is_yarn && eq(sub, "workspace") && w + 1 < n) {
		struct sarg *v = xcalloc(n - w, sizeof *v);
		v[0] = a[0];
		for (size_t q = w + 1; q < n; q++)
			v[q - w] = a[q];
		struct judgement r = judge_pm(c, name, v, n - w, in);
		free(v);
		return r;
	}
	if (in_lists(pm_builtins, sub) || (eq(name, "pnpm") && eq(sub, "deploy")))
		return SAFE_J;
	if (is_npm)
		return SAFE_J;
	/* pnpm/yarn/bun run unknown words as scripts, then as binaries. */
	if (script_name_publishes(sub))
		return J(VERDICT_PUBLISH, cl_printf(c, "%s %s: the script's name says it publishes", name, sub), (int)s);
	if (strchr(sub, '/') || strchr(sub, '.'))
		return SAFE_J; /* bun file.ts: opaque project code */
	struct judgement b = judge_rest(c, NULL, a + s, n - s, in, (int)s);
	return b.v > VERDICT_ASK ? b : SAFE_J;
}

static struct judgement judge_npx(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                  const struct stdin_src *in)
{
	return judge_pkg_runner(c, name, a, 1, n, in);
}

/* pipx run / uv tool run / uv run / corepack. */
static struct judgement judge_pyrunner(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                       const struct stdin_src *in)
{
	size_t s = 1;
	while (s < n && a[s].known && a[s].text[0] == '-') {
		if (in_lists("--directory|--project|--python|-p|--config-file|--cache-dir|--color|--index|--index-url", a[s].text))
			s++;
		s++;
	}
	if (s >= n)
		return SAFE_J;
	if (!a[s].known)
		return J(VERDICT_ASK, cl_printf(c, "%s subcommand is not known before it runs", name), (int)s);
	const char *sub = a[s].text;
	if (eq(name, "pipx") && eq(sub, "run"))
		return judge_pkg_runner(c, "pipx run", a, s + 1, n, in);
	if (eq(name, "uv") && eq(sub, "tool") && s + 1 < n && kn(&a[s + 1], "run"))
		return judge_pkg_runner(c, "uv tool run", a, s + 2, n, in);
	if (eq(name, "uv") && eq(sub, "run")) {
		size_t k = s + 1;
		while (k < n && a[k].known && a[k].text[0] == '-') {
			if (eq(a[k].text, "--")) {
				k++;
				break;
			}
			size_t len = strcspn(a[k].text, "=");
			if (!a[k].text[len] && in_list("--with|--python|-p|--package|--extra|--group|--directory|--project|"
			                               "--env-file|--index|--with-requirements|--only-group|--no-group|-w",
			                               a[k].text, len))
				k++;
			k++;
		}
		return judge_rest(c, "uv run", a + k, n - k, in, (int)k);
	}
	if (eq(name, "uv") || eq(name, "pipx"))
		return judge_spec(c, name, &spec_pypi, a, n);
	if (eq(name, "corepack"))
		return judge_rest(c, NULL, a + s, n - s, in, (int)s);
	return SAFE_J;
}

/* ---- gradle ----------------------------------------------------------------------------- */

static struct judgement judge_gradle(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                     const struct stdin_src *in)
{
	(void)in;
	if (has_flag(a, 1, n, "--dry-run|-m|--help|-h|--version|-v"))
		return SAFE_J;
	struct judgement j = SAFE_J;
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known) {
			if (j.v < VERDICT_ASK)
				j = J(VERDICT_ASK, cl_printf(c, "%s with a task that is not known", name), (int)i);
			continue;
		}
		const char *t = a[i].text;
		if (t[0] == '-') {
			if (in_lists("-p|-b|-c|-g|-I|-x|--project-dir|--build-file|--settings-file|--gradle-user-home|"
			             "--init-script|--exclude-task|--console|--max-workers|--include-build",
			             t))
				i++;
			continue;
		}
		const char *task = strrchr(t, ':');
		task = task ? task + 1 : t;
		size_t len = strlen(task);
		bool local = len >= 12 && strcmp(task + len - 12, "ToMavenLocal") == 0;
		if (local || eq(task, "publishLocal"))
			continue;
		if (starts(task, "publish") || eq(task, "uploadArchives") || eq(task, "bintrayUpload") ||
		    starts(task, "closeAndRelease") || eq(task, "releaseRepository") || eq(task, "jreleaserDeploy") ||
		    eq(task, "jreleaserRelease") || eq(task, "jreleaserFullRelease"))
			j = judgement_max(j, J(VERDICT_PUBLISH, cl_printf(c, "%s %s publishes artifacts", name, t), (int)i));
	}
	return j;
}

/* ---- containers --------------------------------------------------------------------------- */

static bool host_path_escapes(const char *src)
{
	if (eq(src, "/") || src[0] == '~')
		return true;
	static const char *const roots[] = {"/etc", "/root", "/home", "/var", "/usr", "/bin", "/sbin", "/lib",
	                                    "/lib64", "/boot", "/dev", "/proc", "/sys", "/run", "/opt", "/srv", NULL};
	for (size_t i = 0; roots[i]; i++) {
		size_t len = strlen(roots[i]);
		if (strncmp(src, roots[i], len) == 0 && (src[len] == '\0' || src[len] == '/')) {
			/* A deeper path under /home or /var may be the project. */
			if ((eq(roots[i], "/home") || eq(roots[i], "/opt") || eq(roots[i], "/srv")) && src[len] == '/' &&
			    strchr(src + len + 1, '/'))
				return false;
			if (eq(roots[i], "/var") && !starts(src, "/var/run") && !eq(src, "/var") && !starts(src, "/var/lib/docker"))
				return false;
			return true;
		}
	}
	return strstr(src, "docker.sock") != NULL || strstr(src, "podman.sock") != NULL;
}

static const char *const docker_run_args =
	"-v|--volume|--mount|-e|--env|-w|--workdir|-p|--publish|--name|--network|--net|--entrypoint|-u|--user|"
	"-m|--memory|--env-file|-l|--label|--platform|--cpus|-h|--hostname|--add-host|--device|--dns|"
	"--cap-add|--cap-drop|--security-opt|--tmpfs|--ulimit|--gpus|--pull|--restart|--log-driver|--log-opt|"
	"--ipc|--pid|--shm-size|--stop-signal|--runtime|--cidfile|--group-add|--health-cmd|--expose|--link|"
	"--volumes-from|-a|--attach|--cgroupns|--uts|--userns|--isolation|--detach-keys|--stop-timeout|"
	"--memory-swap|--cpuset-cpus|--label-file|--network-alias|--mac-address|--ip|--ip6|--sysctl|"
	"--storage-opt|--annotation|--cpu-shares|-c|--blkio-weight|--pids-limit|--oom-score-adj|--init-path|"
	"--hooks-dir|--secret|--userns-uid-map|--arch|--os|--variant|--env-merge|--cgroup-parent";

static struct judgement judge_container_run(struct cctx *c, const char *name, const struct sarg *a, size_t s,
                                            size_t n, const struct stdin_src *in)
{
	struct judgement j = SAFE_J;
	size_t i = s;
	for (; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known) {
			if (i > s && a[i - 1].known && a[i - 1].text[0] == '-')
				continue;
			break;
		}
		const char *t = x->text;
		if (eq(t, "--")) {
			i++;
			break;
		}
		if (t[0] != '-' || !t[1])
			break;
		size_t len = strcspn(t, "=");
		const char *val = t[len] ? t + len + 1 : (i + 1 < n && a[i + 1].known ? a[i + 1].text : "");
		bool takes = in_list(docker_run_args, t, len);
		if (eq(t, "--privileged") || starts(t, "--privileged="))
			j = judgement_max(j, J(VERDICT_ESCAPE, cl_printf(c, "%s --privileged gets the host's devices and kernel", name), (int)i));
		if (in_list("--pid|--userns|--uts|--ipc|--cgroupns", t, len) && eq(val, "host") && !eq(t, "--ipc"))
			j = judgement_max(j, J(VERDICT_ESCAPE, cl_printf(c, "%s shares the host's namespaces", name), (int)i));
		if (in_list("--cap-add", t, len) && (strcasestr(val, "SYS_ADMIN") || strcasestr(val, "ALL")))
			j = judgement_max(j, J(VERDICT_ESCAPE, cl_printf(c, "%s --cap-add gives host-level powers", name), (int)i));
		if (in_list("-v|--volume", t, len)) {
			char *src = cl_strndup(c, val, strcspn(val, ":"));
			if (strchr(val, ':') && host_path_escapes(src))
				j = judgement_max(j, J(VERDICT_ESCAPE, cl_printf(c, "%s mounts the host's %s", name, src), (int)i));
		}
		if (in_list("--mount", t, len)) {
			const char *srcp = strstr(val, "source=");
			if (!srcp)
				srcp = strstr(val, "src=");
			if (srcp) {
				srcp = strchr(srcp, '=') + 1;
				char *src = cl_strndup(c, srcp, strcspn(srcp, ","));
				if (host_path_escapes(src))
					j = judgement_max(j, J(VERDICT_ESCAPE, cl_printf(c, "%s mounts the host's %s", name, src), (int)i));
			}
		}
		if (eq(t, "--device") && (starts(val, "/dev/sd") || starts(val, "/dev/nvme")))
			j = judgement_max(j, J(VERDICT_ESCAPE, cl_printf(c, "%s gets a host disk", name), (int)i));
		if (takes && !t[len])
			i++;
	}
	/* The image (or container), then the command run inside it. */
	if (i < n)
		i++;
	if (i < n) {
		struct judgement r = judge_rest(c, cl_printf(c, "%s runs", name), a + i, n - i, in, (int)i);
		if (r.v > VERDICT_ASK)
			j = judgement_max(j, r);
	}
	return j;
}

static struct judgement judge_docker(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                     const struct stdin_src *in)
{
	size_t s = 1;
	while (s < n && a[s].known && a[s].text[0] == '-') {
		const char *t = a[s].text;
		if (eq(t, "--help") || eq(t, "--version") || eq(t, "-v"))
			return SAFE_J;
		if (in_lists("-H|--host|--context|-c|--config|-l|--log-level|--tlscacert|--tlscert|--tlskey|--url|--connection|--root|--runroot|--storage-driver", t))
			s++;
		s++;
	}
	if (s >= n)
		return SAFE_J;
	if (!a[s].known)
		return J(VERDICT_ASK, cl_printf(c, "%s subcommand is not known before it runs", name), (int)s);
	const char *sub = a[s].text;
	size_t f = s + 1;
	if (has_flag(a, f, n, "--help"))
		return SAFE_J;
	const char *sub2 = f < n && a[f].known ? a[f].text : "";
	if (in_lists("container|image|volume|system|network|buildx|manifest|builder|plugin|context|compose|artifact", sub)) {
		if (eq(sub, "compose"))
			return judge_spec(c, cl_printf(c, "%s compose", name), &spec_compose, a + s, n - s);
		if (eq(sub, "volume") && in_lists("rm|remove|prune", sub2))
			return J(VERDICT_DELETE, cl_printf(c, "%s volume %s deletes volumes and their data", name, sub2), (int)f);
		if (eq(sub, "system") && eq(sub2, "prune"))
			return J(VERDICT_DELETE, cl_printf(c, "%s system prune deletes containers, images%s", name,
			                                   has_flag(a, f, n, "--volumes") ? " and volumes" : ""),
			         (int)f);
		if ((eq(sub, "image") || eq(sub, "manifest") || eq(sub, "artifact")) && eq(sub2, "push"))
			return J(VERDICT_PUBLISH, cl_printf(c, "%s %s push publishes to a registry", name, sub), (int)f);
		if (eq(sub, "container") && (eq(sub2, "run") || eq(sub2, "create") || eq(sub2, "exec")))
			return judge_container_run(c, name, a, f + 1, n, in);
		if ((eq(sub, "buildx") || eq(sub, "image") || eq(sub, "builder")) && (eq(sub2, "build") || eq(sub2, "b") || eq(sub2, "bake"))) {
			sub = "build";
			f++;
		} else if (eq(sub, "buildx") && eq(sub2, "imagetools") && f + 1 < n && kn(&a[f + 1], "create")) {
			return J(VERDICT_PUBLISH, "buildx imagetools create pushes to a registry", (int)f);
		} else {
			return SAFE_J;
		}
	}
	if (eq(sub, "push"))
		return J(VERDICT_PUBLISH, cl_printf(c, "%s push publishes an image to a registry", name), (int)s);
	if (eq(sub, "build") || eq(sub, "bake")) {
		for (size_t i = f; i < n; i++) {
			if (!a[i].known)
				continue;
			const char *t = a[i].text;
			if (eq(t, "--push"))
				return J(VERDICT_PUBLISH, cl_printf(c, "%s build --push publishes to a registry", name), (int)i);
			if (eq(t, "--output") || eq(t, "-o") || starts(t, "--output=") || starts(t, "-o")) {
				const char *v = strchr(t, '=') && starts(t, "--output=") ? t + 9
				                : (eq(t, "--output") || eq(t, "-o")) && i + 1 < n ? a[i + 1].text
				                                                                  : t + 2;
				if (strstr(v, "type=registry") || strstr(v, "push=true"))
					return J(VERDICT_PUBLISH, cl_printf(c, "%s build --output type=registry publishes", name), (int)i);
			}
		}
		return SAFE_J;
	}
	if (eq(sub, "run") || eq(sub, "create") || eq(sub, "exec"))
		return judge_container_run(c, name, a, f, n, in);
	return SAFE_J;
}

static struct judgement judge_skopeo(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                     const struct stdin_src *in)
{
	(void)in;
	(void)name;
	size_t s = 1;
	while (s < n && a[s].known && a[s].text[0] == '-')
		s++;
	if (s >= n || !a[s].known)
		return s >= n ? SAFE_J : J(VERDICT_ASK, "skopeo subcommand is not known", (int)s);
	const char *sub = a[s].text;
	if (eq(sub, "delete"))
		return J(VERDICT_DELETE, "skopeo delete removes an image from a registry", (int)s);
	if (eq(sub, "copy") || eq(sub, "sync")) {
		/* The destination is the last operand. */
		const struct sarg *dst = &a[n - 1];
		if (!dst->known || starts(dst->text, "docker://") || eq(sub, "sync"))
			return J(VERDICT_PUBLISH, cl_printf(c, "skopeo %s pushes to a registry", sub), (int)n - 1);
	}
	return SAFE_J;
}

/* ---- gh --------------------------------------------------------------------------------- */

static struct judgement judge_gh(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                 const struct stdin_src *in)
{
	(void)name;
	(void)in;
	int idx[8];
	size_t nw = 0;
	for (size_t i = 1; i < n && nw < 8; i++) {
		if (a[i].known && a[i].text[0] == '-') {
			if (in_lists("-R|--repo|--hostname", a[i].text))
				i++;
			continue;
		}
		idx[nw++] = (int)i;
		if (nw == 2)
			break;
	}
	if (has_flag(a, 1, n, "--help|-h|--version"))
		return SAFE_J;
	if (nw == 0)
		return SAFE_J;
	if (!a[idx[0]].known || (nw > 1 && !a[idx[1]].known && !eq(a[idx[0]].text, "api")))
		return J(VERDICT_ASK, "gh subcommand is not known before it runs", idx[0]);
	const char *g = a[idx[0]].text;
	const char *s = nw > 1 ? a[idx[1]].text : "";
	int at = nw > 1 ? idx[1] : idx[0];
	if (eq(g, "api")) {
		const char *method = NULL;
		bool fields = false;
		const char *endpoint = NULL;
		const char *query = NULL;
		for (size_t i = (size_t)idx[0] + 1; i < n; i++) {
			const char *t = a[i].text;
			if (!a[i].known) {
				if (i > 0 && a[i - 1].known && in_lists("-X|--method", a[i - 1].text))
					return J(VERDICT_ASK, "gh api with a method that is not known", (int)i);
				continue;
			}
			if (eq(t, "-X") || eq(t, "--method")) {
				method = i + 1 < n ? a[i + 1].text : "";
				i++;
			} else if (starts(t, "--method=")) {
				method = t + 9;
			} else if (starts(t, "-X") && t[2]) {
				method = t + 2;
			} else if (in_lists("-f|-F|--field|--raw-field|--input", t)) {
				fields = true;
				if (i + 1 < n && a[i + 1].known && starts(a[i + 1].text, "query="))
					query = a[i + 1].text;
				i++;
			} else if (starts(t, "--field=") || starts(t, "--raw-field=") || starts(t, "--input=")) {
				fields = true;
			} else if (in_lists("-H|--header|-q|--jq|-t|--template|--hostname|--cache|-p|--preview", t)) {
				i++;
			} else if (t[0] != '-' && !endpoint) {
				endpoint = t;
			}
		}
		if (method) {
			if (strcasecmp(method, "DELETE") == 0)
				return J(VERDICT_DELETE, "gh api -X DELETE deletes on GitHub", at);
			if (strcasecmp(method, "GET") != 0 && strcasecmp(method, "HEAD") != 0)
				return J(VERDICT_PUBLISH, cl_printf(c, "gh api -X %s changes GitHub", method), at);
			return SAFE_J;
		}
		if (fields) {
			if (endpoint && eq(endpoint, "graphql") && (!query || !contains(query, "mutation")))
				return SAFE_J;
			return J(VERDICT_PUBLISH, "gh api with fields sends a POST that changes GitHub", at);
		}
		return SAFE_J;
	}
	if (eq(g, "release")) {
		if (in_lists("create|upload|edit|publish", s))
			return J(VERDICT_PUBLISH, cl_printf(c, "gh release %s publishes a release", s), at);
		if (in_lists("delete|delete-asset", s))
			return J(VERDICT_DELETE, cl_printf(c, "gh release %s deletes a release", s), at);
		return SAFE_J;
	}
	if (eq(g, "repo")) {
		if (eq(s, "delete"))
			return J(VERDICT_DELETE, "gh repo delete deletes a repository", at);
		if (eq(s, "create") || eq(s, "fork")) {
			int k = find_flag(a, 1, n, "--public");
			return k >= 0 ? J(VERDICT_PUBLISH, "gh repo create --public publishes a repository", k) : SAFE_J;
		}
		if (eq(s, "edit")) {
			for (size_t i = 1; i < n; i++) {
				if (kn(&a[i], "--visibility") && i + 1 < n &&
				    (!a[i + 1].known || eq(a[i + 1].text, "public")))
					return J(VERDICT_PUBLISH, "gh repo edit --visibility public publishes a repository", (int)i);
				if (kn(&a[i], "--visibility=public"))
					return J(VERDICT_PUBLISH, "gh repo edit --visibility public publishes a repository", (int)i);
			}
			return SAFE_J;
		}
		if (eq(s, "sync") && has_flag(a, 1, n, "--force"))
			return J(VERDICT_FORCE_PUSH, "gh repo sync --force overwrites the branch's history", at);
		if (eq(s, "archive") || eq(s, "rename") || eq(s, "unarchive"))
			return J(VERDICT_PUBLISH, cl_printf(c, "gh repo %s changes a published repository", s), at);
		return SAFE_J;
	}
	if (eq(g, "gist")) {
		if (eq(s, "delete"))
			return J(VERDICT_DELETE, "gh gist delete deletes a gist", at);
		int k = find_flag(a, 1, n, "--public|-p");
		if ((eq(s, "create") || eq(s, "new")) && k >= 0)
			return J(VERDICT_PUBLISH, "gh gist create --public publishes", k);
		return SAFE_J;
	}
	if (eq(g, "pr") && eq(s, "close")) {
		int k = find_flag(a, 1, n, "--delete-branch|-d");
		return k >= 0 ? J(VERDICT_FORCE_PUSH, "gh pr close --delete-branch deletes an unmerged remote branch", k) : SAFE_J;
	}
	if (in_lists("secret|variable|label|issue|run|ssh-key|gpg-key|codespace|project|ruleset|environment", g) &&
	    in_lists("delete|remove|rm", s))
		return J(VERDICT_DELETE, cl_printf(c, "gh %s %s deletes on GitHub", g, s), at);
	return SAFE_J;
}

/* ---- cloud storage ------------------------------------------------------------------------ */

static struct judgement judge_aws(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                  const struct stdin_src *in)
{
	(void)name;
	(void)in;
	int idx[16];
	size_t nw = 0;
	for (size_t i = 1; i < n && nw < 16; i++) {
		if (a[i].known && a[i].text[0] == '-') {
			if (in_lists("--profile|--region|--output|--endpoint-url|--query|--color|--ca-bundle|"
			             "--cli-read-timeout|--cli-connect-timeout|--exclude|--include|--acl|--storage-class|"
			             "--content-type|--cache-control|--sse|--expires|--metadata|--grants|--page-size|"
			             "--bucket|--key|--cli-input-json|--cli-input-yaml|--body",
			             a[i].text))
				i++;
			continue;
		}
		idx[nw++] = (int)i;
	}
	if (has_flag(a, 1, n, "--help") || (nw > 0 && a[idx[nw - 1]].known && eq(a[idx[nw - 1]].text, "help")))
		return SAFE_J;
	if (nw < 2)
		return SAFE_J;
	if (!a[idx[0]].known || !a[idx[1]].known)
		return J(VERDICT_ASK, "aws command that is not known before it runs", idx[0]);
	const char *svc = a[idx[0]].text, *op = a[idx[1]].text;
	bool dry = has_flag(a, 1, n, "--dryrun|--dry-run");
	if (eq(svc, "s3")) {
		if (dry)
			return SAFE_J;
		if (eq(op, "rm") || eq(op, "rb"))
			return J(VERDICT_DELETE, cl_printf(c, "aws s3 %s deletes stored objects", op), idx[1]);
		if (eq(op, "sync") && has_flag(a, 1, n, "--delete"))
			return J(VERDICT_DELETE, "aws s3 sync --delete deletes objects missing from the source", find_flag(a, 1, n, "--delete"));
		if (in_lists("cp|sync|mv", op) && nw >= 4) {
			const struct sarg *src = &a[idx[2]], *dst = &a[idx[nw - 1]];
			if (eq(op, "mv") && (!src->known || starts(src->text, "s3://")))
				return J(VERDICT_DELETE, "aws s3 mv deletes the source objects", idx[2]);
			if (!dst->known || starts(dst->text, "s3://"))
				return J(VERDICT_PUBLISH, cl_printf(c, "aws s3 %s uploads to a bucket", op), idx[nw - 1]);
		}
		return SAFE_J;
	}
	if (dry)
		return SAFE_J;
	if (starts(op, "delete-") || starts(op, "remove-") || starts(op, "terminate-") || starts(op, "deregister-") ||
	    starts(op, "purge-") || starts(op, "batch-delete") || eq(op, "delete"))
		return J(VERDICT_DELETE, cl_printf(c, "aws %s %s deletes cloud resources", svc, op), idx[1]);
	if (eq(op, "deploy") || starts(op, "publish-") || eq(op, "update-function-code") || eq(op, "create-stack") ||
	    eq(op, "update-stack") || eq(op, "put-object"))
		return J(VERDICT_PUBLISH, cl_printf(c, "aws %s %s deploys or publishes", svc, op), idx[1]);
	return SAFE_J;
}

static struct judgement judge_gsutil(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                     const struct stdin_src *in)
{
	(void)in;
	size_t s = 1;
	while (s < n && a[s].known && a[s].text[0] == '-') {
		if (in_lists("-o|-h|-u|-i", a[s].text))
			s++;
		s++;
	}
	if (eq(name, "gcloud") || eq(name, "az")) {
		bool storage = s + 1 < n && kn(&a[s], "storage");
		if (!storage)
			return judge_spec(c, name, &spec_cloud, a, n);
		s++;
	}
	if (s >= n)
		return SAFE_J;
	if (!a[s].known)
		return J(VERDICT_ASK, cl_printf(c, "%s subcommand is not known before it runs", name), (int)s);
	const char *sub = a[s].text;
	if (in_lists("rm|rb|del|delete", sub))
		return J(VERDICT_DELETE, cl_printf(c, "%s %s deletes stored objects", name, sub), (int)s);
	if (eq(sub, "rsync") && (find_flag(a, s + 1, n, "-d") >= 0 || has_flag(a, s + 1, n, "--delete-unmatched-destination-objects")))
		return J(VERDICT_DELETE, cl_printf(c, "%s rsync -d deletes objects missing from the source", name), (int)s);
	if (in_lists("cp|mv|rsync", sub) && n - s >= 3) {
		const struct sarg *src = &a[s + 1], *dst = &a[n - 1];
		for (size_t k = s + 1; k < n; k++)
			if (a[k].known && a[k].text[0] != '-') {
				src = &a[k];
				break;
			}
		if (eq(sub, "mv") && (!src->known || starts(src->text, "gs://")))
			return J(VERDICT_DELETE, cl_printf(c, "%s mv deletes the source objects", name), (int)s);
		if (!dst->known || starts(dst->text, "gs://"))
			return J(VERDICT_PUBLISH, cl_printf(c, "%s %s uploads to a bucket", name, sub), (int)n - 1);
	}
	return SAFE_J;
}

/* ---- database clients ------------------------------------------------------------------------ */

struct dbclient {
	const char *sql_opts;   /* options whose argument is SQL / script text */
	const char *arg_opts;   /* other options with an argument */
	const char *file_opts;  /* options naming a script file (opaque) */
	unsigned sql_operand;   /* operands from this (1-based) on are SQL; 0 none */
	bool words_are_command; /* redis-cli: the operands are the command */
};

static const struct dbclient db_psql = {"-c|--command", "-d|--dbname|-h|--host|-p|--port|-U|--username|-v|--set|--variable|-o|--output|-P|--pset|-F|-R|-T|-L|--log-file", "-f|--file", 0, false};
static const struct dbclient db_mysql = {"-e|--execute", "-u|--user|-h|--host|-P|--port|-D|--database|-S|--socket|--defaults-file|--default-character-set|-p", NULL, 0, false};
static const struct dbclient db_sqlite = {"-cmd", "-separator|-newline|-nullvalue|-init", "-init", 2, false};
static const struct dbclient db_mongo = {"--eval", "--host|--port|-u|--username|-p|--password|--authenticationDatabase|--file|-f", "--file|-f", 0, false};
static const struct dbclient db_redis = {NULL, "-h|-p|-a|-n|-u|-s|--user|--pass|-r|-i|-d|--tls-cert|--tls-key|--cacert", NULL, 1, true};
static const struct dbclient db_clickhouse = {"-q|--query", "-h|--host|--port|-u|--user|--password|-d|--database|--format|-f", "--queries-file", 0, false};
static const struct dbclient db_cql = {"-e|--execute", "-u|--username|-p|--password|-k|--keyspace|--cqlshrc", "-f|--file", 0, false};
static const struct dbclient db_duckdb = {"-c|-cmd", "-separator|-newline|-nullvalue|-init", "-init", 2, false};

static struct judgement judge_db(struct cctx *c, const char *name, const struct dbclient *d, const struct sarg *a,
                                 size_t n, const struct stdin_src *in)
{
	struct judgement j = SAFE_J;
	bool had_sql = false, had_file = false;
	unsigned operand = 0;
	struct strbuf words;
	strbuf_init(&words);
	bool words_known = true;
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		const char *t = x->text;
		if (x->known && t[0] == '-' && t[1]) {
			if (eq(t, "--help") || eq(t, "--version") || eq(t, "-V"))
				return SAFE_J;
			size_t len = strcspn(t, "=");
			if (in_list(d->sql_opts, t, len)) {
				struct sarg tmp = {.text = t + len + 1, .known = true, .word = x->word};
				const struct sarg *v = t[len] ? &tmp : (i + 1 < n ? &a[i + 1] : NULL);
				if (!t[len])
					i++;
				if (v) {
					had_sql = true;
					if (!v->known)
						j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s runs SQL that is not known", name), (int)i));
					else if (data_destroying_text(v->text))
						j = judgement_max(j, J(VERDICT_DELETE, cl_printf(c, "%s drops or deletes data", name), (int)i));
				}
				continue;
			}
			if (in_list(d->file_opts, t, len))
				had_file = true;
			if (in_list(d->arg_opts, t, len) && !t[len] && !(t[1] != '-' && t[2]))
				i++;
			continue;
		}
		operand++;
		if (d->sql_operand && operand >= d->sql_operand) {
			had_sql = true;
			if (d->words_are_command) {
				if (words.len)
					strbuf_addc(&words, ' ');
				strbuf_adds(&words, t);
				words_known = words_known && x->known;
			} else if (!x->known) {
				j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s runs SQL that is not known", name), (int)i));
			} else if (data_destroying_text(x->text)) {
				j = judgement_max(j, J(VERDICT_DELETE, cl_printf(c, "%s drops or deletes data", name), (int)i));
			}
		}
	}
	if (d->words_are_command && words.len) {
		if (!words_known && (ci_word_then(words.data, "flushall", NULL) || true))
			j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s runs a command that is not known", name), 1));
		if (data_destroying_text(words.data) || ci_word_then(words.data, "del", NULL) ||
		    ci_word_then(words.data, "unlink", NULL))
			j = judgement_max(j, J(VERDICT_DELETE, cl_printf(c, "%s deletes data", name), 1));
		if (words_known && j.v == VERDICT_ASK)
			j = SAFE_J;
	}
	strbuf_free(&words);
	if (!had_sql && !had_file) {
		if ((in->kind == STDIN_TEXT || in->kind == STDIN_UNKNOWN) && in->text && data_destroying_text(in->text))
			j = judgement_max(j, J(VERDICT_DELETE, cl_printf(c, "%s reads SQL that drops or deletes data", name), 0));
		else if (in->kind == STDIN_UNKNOWN)
			j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s reads commands that are not known", name), 0));
	}
	return j;
}

#define DBH(fn, spec)                                                                                         \
	static struct judgement fn(struct cctx *c, const char *name, const struct sarg *a, size_t n,           \
	                           const struct stdin_src *in)                                                 \
	{                                                                                                       \
		return judge_db(c, name, &(spec), a, n, in);                                                    \
	}
DBH(judge_psql, db_psql)
DBH(judge_mysql, db_mysql)
DBH(judge_sqlite, db_sqlite)
DBH(judge_mongo, db_mongo)
DBH(judge_redis, db_redis)
DBH(judge_clickhouse, db_clickhouse)
DBH(judge_cql, db_cql)
DBH(judge_duckdb, db_duckdb)

/* curl -X DELETE, http DELETE: deletes on an HTTP API. */
static struct judgement judge_http(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                   const struct stdin_src *in)
{
	(void)in;
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known)
			continue;
		const char *t = a[i].text;
		const char *method = "";
		if ((eq(t, "-X") || eq(t, "--request") || eq(t, "--method")) && i + 1 < n && a[i + 1].known)
			method = a[i + 1].text;
		else if (starts(t, "-X") && t[2])
			method = t + 2;
		else if (starts(t, "--request=") || starts(t, "--method="))
			method = strchr(t, '=') + 1;
		else if (i == 1 && !eq(name, "curl") && !eq(name, "wget"))
			method = t; /* httpie, xh: http DELETE url */
		if (strcasecmp(method, "DELETE") == 0)
			return J(VERDICT_DELETE, cl_printf(c, "%s DELETE deletes on a remote API", name), (int)i);
	}
	return SAFE_J;
}

/* Restores that drop what is there first. */
static struct judgement judge_restore(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                      const struct stdin_src *in)
{
	(void)in;
	/* Exact spellings only: -Fc is a format, not -c. */
	for (size_t k = 1; k < dashdash(a, 1, n); k++)
		if (arg_is_flag(&a[k], "--clean|-c|--drop", false))
			return J(VERDICT_DELETE, cl_printf(c, "%s %s drops the existing data first", name, a[k].text), (int)k);
	return SAFE_J;
}

static struct judgement judge_mysqladmin(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                         const struct stdin_src *in)
{
	(void)in;
	for (size_t i = 1; i < n; i++)
		if (kn(&a[i], "drop"))
			return J(VERDICT_DELETE, cl_printf(c, "%s drop drops a database", name), (int)i);
	return SAFE_J;
}

/* ---- files and disks ------------------------------------------------------------------ */

static bool block_device(const char *p)
{
	static const char *const prefixes[] = {"/dev/sd", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/nvme", "/dev/mmcblk",
	                                       "/dev/loop", "/dev/md", "/dev/dm-", "/dev/mapper/", "/dev/disk/",
	                                       "/dev/nbd", "/dev/zd", "/dev/rbd", "/dev/root", "/dev/sr", NULL};
	for (size_t i = 0; prefixes[i]; i++)
		if (starts(p, prefixes[i]))
			return true;
	return false;
}

static struct judgement judge_rm_like(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                      const struct stdin_src *in)
{
	(void)in;
	size_t end = dashdash(a, 1, n);
	for (size_t i = 1; i < end; i++)
		if (kn(&a[i], "--help") || kn(&a[i], "--version"))
			return SAFE_J;
	if (eq(name, "trash-empty") && has_flag(a, 1, n, "--dry-run"))
		return SAFE_J;
	return J(VERDICT_DELETE, cl_printf(c, "%s deletes files", name), 0);
}

static struct judgement judge_rsync(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                    const struct stdin_src *in)
{
	(void)in;
	if (dry_run(a, 1, n, "--dry-run|-n|--list-only"))
		return SAFE_J;
	size_t end = dashdash(a, 1, n);
	for (size_t i = 1; i < end; i++) {
		if (!a[i].known)
			continue;
		if (starts(a[i].text, "--delete") || starts(a[i].text, "--del") || starts(a[i].text, "--remove-source-files") ||
		    eq(a[i].text, "--prune-empty-dirs"))
			return J(VERDICT_DELETE, cl_printf(c, "%s %s deletes files", name, a[i].text), (int)i);
	}
	if (n > 1 && a[n - 1].known && block_device(a[n - 1].text))
		return J(VERDICT_DELETE, cl_printf(c, "%s writes to a block device", name), (int)n - 1);
	int u = first_splitting_unknown(a, 1, n);
	if (u >= 0)
		return J(VERDICT_ASK, cl_printf(c, "%s with options that are not known (--delete?)", name), u);
	return SAFE_J;
}

/* cp, install, tee, dd, cat >: a write is not a delete, unless the target is a disk. */
static struct judgement judge_writer(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                     const struct stdin_src *in)
{
	(void)in;
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known)
			continue;
		const char *t = a[i].text;
		const char *target = NULL;
		if (eq(name, "dd")) {
			if (starts(t, "of="))
				target = t + 3;
		} else if (eq(name, "tee") || i == n - 1 || starts(t, "--target-directory=")) {
			target = starts(t, "--target-directory=") ? t + 19 : t;
		}
		if (target && block_device(target))
			return J(VERDICT_DELETE, cl_printf(c, "%s writes to the block device %s", name, target), (int)i);
	}
	return SAFE_J;
}

static struct judgement judge_disk(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                   const struct stdin_src *in)
{
	(void)in;
	if (has_flag(a, 1, n, "--help|--version|-V"))
		return SAFE_J;
	if (eq(name, "wipefs")) {
		if (has_flag(a, 1, n, "--no-act|-n") || !has_flag(a, 1, n, "-a|--all|-o|--offset|-t|--types|-f|--force"))
			return SAFE_J;
		return J(VERDICT_DELETE, "wipefs erases filesystem signatures", 0);
	}
	if (in_lists("fdisk|gdisk|cfdisk", name) && has_flag(a, 1, n, "-l|--list"))
		return SAFE_J;
	if (eq(name, "sfdisk") && has_flag(a, 1, n, "-l|--list|-d|--dump|-J|--json|-s|--show-size|-V|--verify|--no-act|-n"))
		return SAFE_J;
	if (eq(name, "sgdisk") && has_flag(a, 1, n, "-p|--print|-i|--info|-v|--verify|-P|--pretend"))
		return SAFE_J;
	if (eq(name, "parted")) {
		if (has_flag(a, 1, n, "-l|--list"))
			return SAFE_J;
		bool print = false;
		for (size_t i = 1; i < n; i++)
			if (kn(&a[i], "print") || kn(&a[i], "p"))
				print = true;
		if (print)
			return SAFE_J;
	}
	if (in_lists("zfs|zpool", name)) {
		for (size_t i = 1; i < n; i++)
			if (kn(&a[i], "destroy") || kn(&a[i], "labelclear"))
				return J(VERDICT_DELETE, cl_printf(c, "%s destroy deletes a dataset", name), (int)i);
		return SAFE_J;
	}
	if (eq(name, "cryptsetup")) {
		for (size_t i = 1; i < n; i++)
			if (a[i].known && in_lists("luksFormat|erase|luksErase|reencrypt|luksKillSlot|format", a[i].text))
				return J(VERDICT_DELETE, cl_printf(c, "cryptsetup %s destroys data", a[i].text), (int)i);
		return SAFE_J;
	}
	if (eq(name, "hdparm")) {
		for (size_t i = 1; i < n; i++)
			if (a[i].known && (starts(a[i].text, "--security-erase") || starts(a[i].text, "--trim-sector") ||
			                   starts(a[i].text, "--write-sector")))
				return J(VERDICT_DELETE, "hdparm erases a disk", (int)i);
		return SAFE_J;
	}
	if (eq(name, "nvme")) {
		for (size_t i = 1; i < n; i++)
			if (a[i].known && in_lists("format|sanitize|delete-ns|write-zeroes", a[i].text))
				return J(VERDICT_DELETE, cl_printf(c, "nvme %s erases a disk", a[i].text), (int)i);
		return SAFE_J;
	}
	return J(VERDICT_DELETE, cl_printf(c, "%s erases a disk or filesystem", name), 0);
}

static struct judgement judge_cmake(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                    const struct stdin_src *in)
{
	(void)name;
	(void)in;
	for (size_t i = 1; i + 1 < n; i++)
		if (kn(&a[i], "-E") && a[i + 1].known &&
		    in_lists("rm|remove|remove_directory|rmdir", a[i + 1].text))
			return J(VERDICT_DELETE, cl_printf(c, "cmake -E %s deletes files", a[i + 1].text), (int)i + 1);
	return SAFE_J;
}

/* ---- host bridges ----------------------------------------------------------------------- */

static struct judgement judge_at(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                 const struct stdin_src *in)
{
	(void)in;
	if (eq(name, "at") && has_flag(a, 1, n, "-l|-d|-r|-c|-V|--help"))
		return SAFE_J;
	if (eq(name, "crontab") && (has_flag(a, 1, n, "-l|-V|--help") || n == 1))
		return n == 1 ? J(VERDICT_ESCAPE, "crontab installs jobs that run outside the sandbox", 0) : SAFE_J;
	return J(VERDICT_ESCAPE, cl_printf(c, "%s schedules a job that runs outside the sandbox", name), 0);
}

static struct judgement judge_screen(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                     const struct stdin_src *in)
{
	(void)name;
	(void)in;
	(void)c;
	bool detached = false;
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known)
			continue;
		const char *t = a[i].text;
		if (eq(t, "-X") || eq(t, "-Q"))
			return J(VERDICT_ESCAPE, "screen -X sends a command to a session outside the sandbox", (int)i);
		if (in_lists("-ls|-list|-r|-R|-x|-v|--version|--help|-wipe", t))
			return SAFE_J;
		if (t[0] == '-' && strchr(t, 'd') && strchr(t, 'm'))
			detached = true;
		if (in_lists("-S|-c|-e|-h|-L|-Logfile|-p|-T|-t", t)) {
			i++;
			continue;
		}
		if (t[0] != '-' && detached)
			return J(VERDICT_ESCAPE, "screen -dm runs a command in a session outside the sandbox", (int)i);
	}
	return SAFE_J;
}

static struct judgement judge_systemctl(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                        const struct stdin_src *in)
{
	(void)in;
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known)
			return J(VERDICT_ASK, cl_printf(c, "%s with a verb that is not known", name), (int)i);
		const char *t = a[i].text;
		if (t[0] == '-') {
			if (in_lists("-H|--host|-M|--machine|-t|--type|-p|--property|-n|--lines|-o|--output|--state|--root|-s|--signal|--job-mode|--kill-whom|--what|--timestamp", t))
				i++;
			if (eq(t, "--help") || eq(t, "--version"))
				return SAFE_J;
			continue;
		}
		if (in_lists("status|show|cat|help|is-active|is-enabled|is-failed|is-system-running|get-default|"
		             "show-environment|list-units|list-unit-files|list-sockets|list-timers|list-jobs|"
		             "list-dependencies|list-machines|list-automounts|list-paths|show-environment",
		             t))
			return SAFE_J;
		return J(VERDICT_ESCAPE, cl_printf(c, "%s %s acts on services outside the sandbox", name, t), (int)i);
	}
	return SAFE_J;
}

static bool local_host(const char *h)
{
	const char *at = strrchr(h, '@');
	if (at)
		h = at + 1;
	return eq(h, "localhost") || starts(h, "127.") || eq(h, "::1") || eq(h, "[::1]") || eq(h, "0.0.0.0") ||
	       eq(h, "localhost.localdomain") || starts(h, "localhost:");
}

static struct judgement judge_ssh(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                  const struct stdin_src *in)
{
	(void)in;
	size_t i = 1;
	for (; i < n; i++) {
		if (!a[i].known)
			break;
		const char *t = a[i].text;
		if (t[0] != '-')
			break;
		if (t[1] && !t[2] && strchr("bcDEeFIiJLlmOopQRSWw", t[1]))
			i++;
	}
	if (i >= n)
		return SAFE_J;
	if (!a[i].known)
		return J(VERDICT_ASK, cl_printf(c, "%s to a host that is not known", name), (int)i);
	if (local_host(a[i].text))
		return J(VERDICT_ESCAPE, cl_printf(c, "%s to this machine runs outside the sandbox", name), (int)i);
	if (i + 1 < n) {
		struct sarg t = {.text = join_args(c, a + i + 1, n - i - 1), .known = all_known(a + i + 1, n - i - 1), .word = a[i + 1].word};
		struct judgement j = judge_shell_text(c, cl_printf(c, "%s %s runs", name, a[i].text), &t, NULL, 0, (int)i + 1);
		return j.v > VERDICT_ASK ? j : SAFE_J;
	}
	return SAFE_J;
}

/* ---- argv wrappers that need reading --------------------------------------------------- */

static struct judgement judge_env_args(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                       const struct stdin_src *in);

/* env NAME=VALUE... CMD: the assignments are in CMD's environment. */
static struct judgement judge_env(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                  const struct stdin_src *in)
{
	struct cl_env_mark mark = cl_env_push(c, NULL, NULL, 0);
	struct judgement j = judge_env_args(c, name, a, n, in);
	cl_env_pop(c, mark);
	return j;
}

static struct judgement judge_env_args(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                       const struct stdin_src *in)
{
	(void)name;
	size_t i = 1;
	for (; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known) {
			if (i > 1 && a[i - 1].known && in_lists("-u|-C|--unset|--chdir", a[i - 1].text))
				continue;
			break;
		}
		const char *t = x->text;
		if (eq(t, "--")) {
			i++;
			break;
		}
		if (eq(t, "--help") || eq(t, "--version"))
			return SAFE_J;
		if (eq(t, "-S") || starts(t, "--split-string") || (starts(t, "-S") && t[2]) ||
		    (t[0] == '-' && t[1] != '-' && strchr(t, 'S'))) {
			/* -S splits one string into more arguments. */
			const char *s = NULL;
			const struct sarg *sx = NULL;
			const char *sp = strchr(t, 'S');
			if (starts(t, "--split-string=")) {
				s = t + 15;
			} else if (t[1] != '-' && sp && sp[1]) {
				s = sp + 1;
			} else if (i + 1 < n) {
				sx = &a[++i];
				s = sx->text;
			}
			if (sx && !sx->known)
				return J(VERDICT_ASK, "env -S with a string that is not known", (int)i);
			if (!s)
				return SAFE_J;
			struct sarg words[64];
			size_t nw = git_split_alias(c, s, words, 64);
			struct sarg *v = xcalloc(nw + n - i, sizeof *v);
			v[0] = a[0];
			for (size_t k = 0; k < nw; k++)
				v[k + 1] = words[k];
			for (size_t k = i + 1; k < n; k++)
				v[nw + 1 + k - i - 1] = a[k];
			struct judgement j = judge_env(c, name, v, nw + n - i, in);
			free(v);
			return j;
		}
		if (t[0] == '-' && t[1]) {
			size_t len = strcspn(t, "=");
			if (!t[len] && in_list("-u|--unset|-C|--chdir|-P|--block-signal|--default-signal|--ignore-signal", t, len) &&
			    !starts(t, "--block") && !starts(t, "--default") && !starts(t, "--ignore"))
				i++;
			continue;
		}
		if (strchr(t, '=') && t[0] != '=') {
			/* NAME=VALUE; some values are commands the program runs. */
			const char *eqs = strchr(t, '=');
			struct sarg val = {.text = eqs + 1, .known = true, .word = x->word};
			const char *var = cl_strndup(c, t, (size_t)(eqs - t));
			cl_env_push(c, &var, &val, 1); /* popped by judge_env */
			struct judgement ej = rules_judge_env_assignment(c, var, &val);
			if (ej.v != VERDICT_SAFE) {
				ej.at = (int)i;
				struct judgement rest = judge_env(c, name, a + i, n - i, in);
				return judgement_max(ej, rest);
			}
			continue;
		}
		break;
	}
	return judge_rest(c, NULL, a + i, n - i, in, (int)i);
}

static struct judgement judge_busybox(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                      const struct stdin_src *in)
{
	(void)name;
	if (n < 2 || (a[1].known && a[1].text[0] == '-'))
		return SAFE_J;
	return judge_rest(c, NULL, a + 1, n - 1, in, 1);
}

static struct judgement judge_coreutils(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                        const struct stdin_src *in)
{
	(void)name;
	for (size_t i = 1; i < n; i++) {
		if (a[i].known && (starts(a[i].text, "--coreutils-prog=") || starts(a[i].text, "--coreutils-prog-shebang="))) {
			struct sarg *v = xcalloc(n - i, sizeof *v);
			for (size_t k = i; k < n; k++)
				v[k - i] = a[k];
			v[0].text = strchr(a[i].text, '=') + 1;
			struct judgement j = judge_rest(c, NULL, v, n - i, in, (int)i);
			free(v);
			return j;
		}
	}
	return SAFE_J;
}

static struct judgement judge_parallel(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                       const struct stdin_src *in)
{
	(void)in;
	size_t i = 1;
	for (; i < n; i++) {
		if (!a[i].known)
			break;
		const char *t = a[i].text;
		if (t[0] != '-' || eq(t, ":::") || eq(t, "::::"))
			break;
		if (eq(t, "--help") || eq(t, "--version"))
			return SAFE_J;
		if (in_lists("-j|--jobs|-a|--arg-file|-S|--sshlogin|--colsep|-d|--delimiter|-E|-I|--results|--joblog|"
		             "--tmpdir|--workdir|--wd|-N|--halt|--timeout|--retries|--delay|--memfree|--load|-P|"
		             "--max-args|-n|-L|--max-lines|--sshloginfile|--slf|--tag-string|--tagstring|--env|"
		             "--basefile|--bf|--transferfile|--tf|--return|--cleanup|--shebang-wrap",
		             t))
			i++;
	}
	size_t end = i;
	while (end < n && !(a[end].known && (starts(a[end].text, ":::") || starts(a[end].text, "::::"))))
		end++;
	struct judgement j = SAFE_J;
	if (end > i) {
		struct sarg t = {.text = join_args(c, a + i, end - i), .known = all_known(a + i, end - i), .word = a[i].word};
		j = judge_shell_text(c, name, &t, NULL, 0, (int)i);
	} else {
		/* No command: the arguments are the commands. */
		for (size_t k = end + 1; k < n; k++)
			if (!(a[k].known && starts(a[k].text, ":::")))
				j = judgement_max(j, judge_shell_text(c, name, &a[k], NULL, 0, (int)k));
	}
	return j;
}

static struct judgement judge_watch(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                    const struct stdin_src *in)
{
	static const struct wrapper w_text = {NULL, "nq", "--interval|--equexit", 0, WRAP_TEXT, NULL, NULL, NULL};
	static const struct wrapper w_argv = {NULL, "nq", "--interval|--equexit", 0, WRAP_ARGV, NULL, NULL, NULL};
	bool exec = false;
	for (size_t i = 1; i < n && a[i].known && a[i].text[0] == '-'; i++)
		if (eq(a[i].text, "-x") || eq(a[i].text, "--exec") || (a[i].text[1] != '-' && strchr(a[i].text, 'x')))
			exec = true;
	return judge_wrapper(c, name, exec ? &w_argv : &w_text, a, n, in);
}

static struct judgement judge_nix(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                  const struct stdin_src *in)
{
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known)
			continue;
		const char *t = a[i].text;
		if (eq(name, "nix-shell") && (eq(t, "--run") || eq(t, "--command")) && i + 1 < n)
			return judge_shell_text(c, "nix-shell --run", &a[i + 1], NULL, 0, (int)i + 1);
		if (eq(name, "nix") && (eq(t, "-c") || eq(t, "--command")))
			return judge_rest(c, NULL, a + i + 1, n - i - 1, in, (int)i + 1);
	}
	return SAFE_J;
}

static struct judgement judge_kubectl(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                      const struct stdin_src *in)
{
	bool exec = false;
	for (size_t i = 1; i < n; i++)
		if (kn(&a[i], "exec") || kn(&a[i], "run") || kn(&a[i], "debug"))
			exec = true;
	size_t dd = dashdash(a, 1, n);
	struct judgement j = judge_spec(c, name, &spec_kubectl, a, dd);
	if (exec && dd < n) {
		struct judgement r = judge_rest(c, cl_printf(c, "%s exec runs", name), a + dd + 1, n - dd - 1, in, (int)dd + 1);
		if (r.v > VERDICT_ASK)
			j = judgement_max(j, r);
	}
	return j;
}

/* ---- the shell's own builtins that run text ---------------------------------------------- */

static struct judgement judge_eval(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                   const struct stdin_src *in)
{
	(void)in;
	size_t s = 1;
	if (s < n && kn(&a[s], "--"))
		s++;
	if (s >= n)
		return SAFE_J;
	if (!all_known(a + s, n - s)) {
		/* The words up to the first unknown one, and its known beginning. */
		int u = first_unknown(a, s, n);
		struct strbuf sb;
		strbuf_init(&sb);
		for (size_t k = s; k <= (size_t)u; k++) {
			if (k > s)
				strbuf_addc(&sb, ' ');
			strbuf_adds(&sb, a[k].text);
		}
		struct judgement part = judge_partial_text(c, name, sb.data, u);
		strbuf_free(&sb);
		return judgement_max(J(VERDICT_ASK, "eval of text that is not known before it runs", u), part);
	}
	struct judgement j = cl_judge_text(c, join_args(c, a + s, n - s), NULL, 0, true);
	if (j.v != VERDICT_SAFE)
		j.reason = cl_printf(c, "%s: %s", name, j.reason ? j.reason : "");
	j.at = (int)s;
	return j;
}

static struct judgement judge_trap(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                   const struct stdin_src *in)
{
	(void)in;
	(void)name;
	size_t s = 1;
	if (s < n && kn(&a[s], "--"))
		s++;
	if (s + 1 >= n)
		return SAFE_J; /* trap, trap -p, trap -l, or trap ACTION without signals */
	const struct sarg *act = &a[s];
	if (act->known && (eq(act->text, "-") || !*act->text || eq(act->text, "-p") || eq(act->text, "-l") ||
	                   isdigit((unsigned char)act->text[0])))
		return SAFE_J;
	if (!act->known)
		return J(VERDICT_ASK, "trap action that is not known before it runs", (int)s);
	struct judgement j = cl_judge_text(c, act->text, NULL, 0, true);
	if (j.v != VERDICT_SAFE)
		j.reason = cl_printf(c, "trap action: %s", j.reason ? j.reason : "");
	j.at = (int)s;
	return j;
}

static struct judgement judge_source(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                     const struct stdin_src *in)
{
	(void)in;
	size_t s = 1;
	if (s < n && kn(&a[s], "--"))
		s++;
	if (s >= n)
		return SAFE_J;
	const char *text = NULL;
	if (!a[s].known || a[s].procsub) {
		struct stdin_src none = {STDIN_NONE, NULL};
		return a[s].procsub ? judge_script_source(c, name, &a[s], &none, (int)s) : SAFE_J;
	}
	int w = cl_written_file(c, a[s].text, &text);
	if (w == 1) {
		struct judgement j = cl_judge_text(c, text, NULL, 0, true);
		if (j.v != VERDICT_SAFE)
			j.reason = cl_printf(c, "%s %s: %s", name, a[s].text, j.reason ? j.reason : "");
		j.at = (int)s;
		return j;
	}
	if (w == 0)
		return J(VERDICT_ASK, cl_printf(c, "%s of a file written on this line", name), (int)s);
	return SAFE_J;
}

static struct judgement judge_escape(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                     const struct stdin_src *in)
{
	(void)in;
	(void)a;
	(void)name;
	if (n < 2)
		return SAFE_J;
	return J(VERDICT_ESCAPE, cl_printf(c, "escape runs a command outside the sandbox"), 0);
}

static struct judgement judge_deno(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                   const struct stdin_src *in)
{
	(void)name;
	size_t s = 1;
	while (s < n && a[s].known && a[s].text[0] == '-')
		s++;
	if (s >= n)
		return SAFE_J;
	if (kn(&a[s], "eval"))
		return s + 1 < n ? judge_code_arg(c, "deno", &a[s + 1], (int)s + 1) : SAFE_J;
	if (kn(&a[s], "publish"))
		return dry_run(a, s, n, "--dry-run") ? SAFE_J : J(VERDICT_PUBLISH, "deno publish publishes to JSR", (int)s);
	if (kn(&a[s], "run") || kn(&a[s], "x")) {
		size_t k = s + 1;
		while (k < n && a[k].known && a[k].text[0] == '-')
			k++;
		if (k < n && a[k].known && (starts(a[k].text, "npm:") || starts(a[k].text, "jsr:") || kn(&a[s], "x"))) {
			struct sarg *v = xcalloc(n - k, sizeof *v);
			for (size_t q = k; q < n; q++)
				v[q - k] = a[q];
			v[0].text = strchr(a[k].text, ':') ? strchr(a[k].text, ':') + 1 : a[k].text;
			struct judgement j = judge_pkg_runner(c, "deno run", v, 0, n - k, in);
			free(v);
			return j;
		}
		return SAFE_J;
	}
	if (!a[s].known)
		return J(VERDICT_ASK, "deno subcommand is not known before it runs", (int)s);
	return SAFE_J;
}

static struct judgement judge_php(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                  const struct stdin_src *in)
{
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known)
			break;
		if (a[i].text[0] == '-')
			continue;
		if (eq(base_name(a[i].text), "artisan") || eq(base_name(a[i].text), "console"))
			return judge_spec(c, "artisan", &spec_dbtools, a + i, n - i);
		break;
	}
	(void)name;
	return judge_interp(c, &interp_php, a, n, in);
}

/* Editors run shell commands with :!cmd. */
static struct judgement judge_editor(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                     const struct stdin_src *in)
{
	(void)in;
	struct judgement j = SAFE_J;
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		const char *cmd = NULL;
		if ((kn(x, "-c") || kn(x, "--cmd")) && i + 1 < n)
			x = &a[++i];
		else if (!(x->known && x->text[0] == '+'))
			continue;
		if (!x->known)
			return J(VERDICT_ASK, cl_printf(c, "%s runs an editor command that is not known", name), (int)i);
		cmd = x->text + (x->text[0] == '+');
		while (*cmd == ':' || *cmd == ' ')
			cmd++;
		const char *bang = strchr(cmd, '!');
		if (bang && (bang == cmd || starts(cmd, "silent") || starts(cmd, "exe") || starts(cmd, "r") || starts(cmd, "w"))) {
			struct sarg t = {.text = bang + 1, .known = true, .word = x->word};
			j = judgement_max(j, judge_shell_text(c, cl_printf(c, "%s :!", name), &t, NULL, 0, (int)i));
		}
		if (starts(cmd, "call delete") || starts(cmd, "call system") || contains(cmd, "delete("))
			j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s runs editor code", name), (int)i));
	}
	return j;
}

/* gdb --args CMD, perf stat|record CMD, hyperfine 'CMD'... */
static struct judgement judge_runner_misc(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                          const struct stdin_src *in)
{
	if (eq(name, "gdb") || eq(name, "lldb")) {
		for (size_t i = 1; i < n; i++)
			if (kn(&a[i], "--args") || kn(&a[i], "--"))
				return judge_rest(c, NULL, a + i + 1, n - i - 1, in, (int)i + 1);
		return SAFE_J;
	}
	if (eq(name, "perf")) {
		static const struct wrapper w = {"stat", "eoptCcFrGIxmM", "--event|--output|--pid|--tid|--cpu|--repeat", 0, WRAP_ARGV, NULL, NULL, NULL};
		static const struct wrapper wr = {"record", "eoptCcFrGIxmM", "--event|--output|--pid|--tid|--cpu|--freq|--call-graph", 0, WRAP_ARGV, NULL, NULL, NULL};
		static const struct wrapper wt = {"trace", "eoptCcFrGIxmM", "--event|--output|--pid|--tid|--cpu", 0, WRAP_ARGV, NULL, NULL, NULL};
		if (n > 1 && kn(&a[1], "stat"))
			return judge_wrapper(c, name, &w, a, n, in);
		if (n > 1 && kn(&a[1], "record"))
			return judge_wrapper(c, name, &wr, a, n, in);
		if (n > 1 && kn(&a[1], "trace"))
			return judge_wrapper(c, name, &wt, a, n, in);
		return SAFE_J;
	}
	/* hyperfine: every operand, and the setup/prepare/cleanup options, are shell text. */
	struct judgement j = SAFE_J;
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		if (x->known && x->text[0] == '-') {
			if (in_lists("-p|--prepare|-c|--cleanup|-s|--setup|--conclude", x->text) && i + 1 < n) {
				j = judgement_max(j, judge_shell_text(c, name, &a[i + 1], NULL, 0, (int)i + 1));
				i++;
			} else if (in_lists("-w|--warmup|-r|--runs|-m|--min-runs|-M|--max-runs|-S|--shell|-n|--command-name|"
			                    "--export-json|--export-csv|--export-markdown|--style|-u|--time-unit|-i|--input|--output",
			                    x->text)) {
				i++;
			} else if (in_lists("-L|--parameter-list|-P|--parameter-scan", x->text)) {
				i += 2;
			}
			continue;
		}
		j = judgement_max(j, judge_shell_text(c, name, x, NULL, 0, (int)i));
	}
	return j;
}

/* Terminal multiplexers and terminals driven from the command line. */
static struct judgement judge_terminal(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                       const struct stdin_src *in)
{
	(void)in;
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known)
			continue;
		const char *t = a[i].text;
		if (eq(t, "@") || eq(t, "cli") || eq(t, "run") || eq(t, "action") ||
		    in_lists("launch|send-text|spawn|send-key|write-chars|new-pane|new-tab|remote", t))
			return J(VERDICT_ESCAPE, cl_printf(c, "%s %s runs or types a command outside the sandbox", name, t), (int)i);
	}
	return SAFE_J;
}

/* ---- wrappers as data --------------------------------------------------------------------- */

static const struct wrapper w_plain = {NULL, NULL, NULL, 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_command = {NULL, NULL, NULL, 0, WRAP_ARGV, NULL, "-v|-V", NULL};
static const struct wrapper w_exec = {NULL, "a", NULL, 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_nice = {NULL, "n", "--adjustment", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_stdbuf = {NULL, "ioe", "--input|--output|--error", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_timeout = {NULL, "sk", "--signal|--kill-after", 1, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_time = {NULL, "of", "--output|--format", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_taskset = {NULL, NULL, "--cpu-list", 1, WRAP_ARGV, NULL, "-p|--pid", NULL};
static const struct wrapper w_flock = {NULL, "wEo", "--timeout|--wait|--conflict-exit-code", 1, WRAP_ARGV, "-c|--command", NULL, NULL};
static const struct wrapper w_sudo = {NULL, "ugpCDrtTUh", "--user|--group|--prompt|--close-from|--chdir|--role|--type|--command-timeout|--other-user|--host", 0, WRAP_ARGV, NULL, "-l|--list|-e|--edit|-v|--validate|-k|--reset-timestamp|-K|--remove-timestamp|-V", "-s|--shell|-i|--login"};
static const struct wrapper w_doas = {NULL, "uC", NULL, 0, WRAP_ARGV, NULL, NULL, "-s"};
static const struct wrapper w_pkexec = {NULL, NULL, "--user", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_su = {NULL, "sgGw", "--shell|--group|--supp-group|--whitelist-environment|--user", 0, WRAP_DASHDASH, "-c|--command|--session-command", NULL, NULL};
static const struct wrapper w_runuser = {NULL, "ugGw", "--user|--group|--supp-group|--whitelist-environment", 0, WRAP_ARGV, "-c|--command|--session-command", NULL, NULL};
static const struct wrapper w_chroot = {NULL, NULL, "--userspec|--groups", 1, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_unshare = {NULL, "SGRwt", "--propagation|--setgroups|--map-user|--map-group|--map-users|--map-groups|--root|--wd|--setuid|--setgid|--load-interp", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_strace = {NULL, "oeEpPsuSaIOXb", "--output|--trace|--signal|--status|--attach|--user|--env|--string-limit|--summary-sort-by|--columns|--decode-fds|--trace-path", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_ltrace = {NULL, "oeEpsuSaAnlxL", "--output|--library", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_ionice = {NULL, "cn", "--class|--classdata", 0, WRAP_ARGV, NULL, "-p|--pid|-P|--pgid|-u|--uid", NULL};
static const struct wrapper w_chrt = {NULL, "T", "--sched-runtime|--sched-deadline|--sched-period", 1, WRAP_ARGV, NULL, "-p|--pid", NULL};
static const struct wrapper w_cpulimit = {NULL, "lpe", "--limit|--pid|--exe", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_xvfb = {NULL, "nsfep", "--server-num|--server-args|--auth-file|--error-file|--xauth-protocol", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_dbusrun = {NULL, NULL, "--config-file|--dbus-daemon", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_fakeroot = {NULL, "si", NULL, 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_proxy = {NULL, "fupPa", NULL, 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_faketime = {NULL, NULL, "--exclude-monotonic", 1, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_numactl = {NULL, "NmCpiP", "--cpunodebind|--membind|--physcpubind|--preferred|--interleave", 0, WRAP_ARGV, NULL, "-s|--show|-H|--hardware", NULL};
static const struct wrapper w_inhibit = {NULL, NULL, "--what|--who|--why|--mode", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_sg = {NULL, NULL, NULL, 1, WRAP_TEXT, "-c", NULL, NULL};
static const struct wrapper w_script = {NULL, "IOBTEm", "--log-in|--log-out|--log-io|--log-timing|--echo|--logging-format|--output-limit", 0, WRAP_DASHDASH, "-c|--command", NULL, NULL};
static const struct wrapper w_entr = {NULL, NULL, NULL, 0, WRAP_ARGV, NULL, NULL, "-s"};
static const struct wrapper w_xargs = {NULL, "adEILnPs", "--arg-file|--delimiter|--eof|--replace|--max-lines|--max-args|--max-procs|--max-chars|--process-slot-var", 0, WRAP_XARGS, NULL, NULL, NULL};
static const struct wrapper w_run_sub = {"run", "nfpe", "--name|--prefix|--cwd|--env|--node|--npm|--yarn|--pnpm|--with|--python|-p", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_exec_sub = {"exec", NULL, "--using|--gemfile", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_dashdash_sub = {"run", "f", "--env-file|--project|--config|--env|--token|-e", 0, WRAP_DASHDASH, "--command", NULL, NULL};
static const struct wrapper w_aws_vault = {"exec", "d", "--duration|--region|--mfa-token|--server-port", 1, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_direnv = {"exec", NULL, NULL, 1, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_nvm = {"exec", NULL, NULL, 1, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_dotenv = {NULL, "evcp", "--env-file|--convention", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_mise = {"exec", NULL, "--cd|--jobs|-C|-j|--env|-E", 0, WRAP_DASHDASH, "-c|--command", NULL, NULL};
static const struct wrapper w_vagrant = {"ssh", NULL, NULL, 0, WRAP_DASHDASH, "-c|--command", NULL, NULL};
static const struct wrapper w_firejail = {NULL, NULL, NULL, 0, WRAP_ARGV, NULL, NULL, NULL};

/* ---- the table ------------------------------------------------------------------------------ */

typedef struct judgement tool_fn(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                 const struct stdin_src *in);

struct tool {
	const char *name;
	tool_fn *fn;
	const struct tool_spec *spec;
	const struct wrapper *wrap;
	const struct interp *interp;
};

#define H(name, fn) {name, fn, NULL, NULL, NULL}
#define S(name, spec) {name, NULL, &(spec), NULL, NULL}
#define W(name, w) {name, NULL, NULL, &(w), NULL}
#define I(name, ip) {name, NULL, NULL, NULL, &(ip)}

/* Sorted by name (strcmp order): looked up with bsearch. */
static const struct tool tools[] = {
	H(".", judge_source),
	I("R", interp_r),
	I("Rscript", interp_r),
	S("artisan", spec_dbtools),
	W("asdf", w_exec_sub),
	H("ash", judge_shell),
	H("at", judge_at),
	H("awk", judge_awk),
	H("aws", judge_aws),
	W("aws-vault", w_aws_vault),
	H("az", judge_gsutil),
	S("azcopy", spec_datastores),
	S("b2", spec_datastores),
	H("bash", judge_shell),
	H("batch", judge_at),
	H("blkdiscard", judge_disk),
	S("borg", spec_datastores),
	H("buildah", judge_docker),
	W("builtin", w_plain),
	H("bun", judge_pm),
	W("bundle", w_exec_sub),
	W("bundler", w_exec_sub),
	H("bunx", judge_npx),
	S("busctl", spec_dbus),
	H("busybox", judge_busybox),
	S("cabal", spec_upload),
	S("cargo", spec_cargo),
	W("catchsegv", w_plain),
	W("ccache", w_plain),
	S("cdk", spec_deployers),
	H("cfdisk", judge_disk),
	S("changeset", spec_publish_sub),
	S("changesets", spec_publish_sub),
	W("chroot", w_chroot),
	W("chrt", w_chrt),
	H("clickhouse-client", judge_clickhouse),
	H("cmake", judge_cmake),
	W("command", w_command),
	S("conan", spec_conan),
	W("conda", w_run_sub),
	S("consul", spec_datastores),
	W("coproc", w_plain),
	H("corepack", judge_pyrunner),
	H("coreutils", judge_coreutils),
	H("cp", judge_writer),
	W("cpulimit", w_cpulimit),
	H("cqlsh", judge_cql),
	S("crane", spec_registry_images),
	H("crontab", judge_at),
	H("cryptsetup", judge_disk),
	H("curl", judge_http),
	H("curlie", judge_http),
	S("dart", spec_dart),
	H("dash", judge_shell),
	W("dbus-launch", w_plain),
	W("dbus-run-session", w_dbusrun),
	S("dbus-send", spec_dbus),
	H("dd", judge_writer),
	H("del", judge_rm_like),
	H("del-cli", judge_rm_like),
	H("deno", judge_deno),
	W("devbox", w_run_sub),
	W("direnv", w_direnv),
	W("distcc", w_plain),
	S("distrobox-host-exec", spec_escape_always),
	H("dmsetup", judge_disk),
	W("doas", w_doas),
	H("docker", judge_docker),
	S("docker-compose", spec_compose),
	W("doppler", w_dashdash_sub),
	W("dotenv", w_dotenv),
	W("dotenvx", w_dashdash_sub),
	S("dotnet", spec_nuget),
	H("dropdb", judge_rm_like),
	H("dropuser", judge_rm_like),
	H("duckdb", judge_duckdb),
	W("dumb-init", w_plain),
	S("dvc", spec_datastores),
	W("eatmydata", w_plain),
	W("entr", w_entr),
	H("env", judge_env),
	H("escape", judge_escape),
	S("etcdctl", spec_datastores),
	H("eval", judge_eval),
	H("ex", judge_editor),
	W("exec", w_exec),
	W("fakeroot", w_fakeroot),
	W("faketime", w_faketime),
	H("fd", judge_fd),
	H("fdfind", judge_fd),
	H("fdisk", judge_disk),
	H("finch", judge_docker),
	H("find", judge_find),
	S("firebase", spec_deployers),
	W("firejail", w_firejail),
	H("fish", judge_shell),
	S("flatpak-spawn", spec_escape_always),
	S("flit", spec_pypi),
	W("flock", w_flock),
	S("flutter", spec_dart),
	S("fly", spec_deployers),
	S("flyctl", spec_deployers),
	W("fnm", w_exec_sub),
	H("gawk", judge_awk),
	H("gcloud", judge_gsutil),
	H("gcp", judge_writer),
	S("gcrane", spec_registry_images),
	H("gdb", judge_runner_misc),
	S("gdbus", spec_dbus),
	H("gdisk", judge_disk),
	S("gem", spec_gem),
	H("gfind", judge_find),
	H("gh", judge_gh),
	S("gh-pages", spec_always_publish),
	H("git", judge_git),
	S("git-annex", spec_datastores),
	S("glab", spec_glab),
	S("goreleaser", spec_goreleaser),
	H("gradle", judge_gradle),
	H("gradlew", judge_gradle),
	H("gsed", judge_sed),
	H("gsutil", judge_gsutil),
	W("gtimeout", w_timeout),
	S("hatch", spec_pypi),
	H("hdparm", judge_disk),
	S("helm", spec_helm),
	S("heroku", spec_deployers),
	S("host-spawn", spec_escape_always),
	H("http", judge_http),
	H("https", judge_http),
	H("hub", judge_git),
	H("hyperfine", judge_runner_misc),
	W("infisical", w_dashdash_sub),
	H("install", judge_writer),
	W("ionice", w_ionice),
	S("jreleaser", spec_publish_sub),
	I("jruby", interp_ruby),
	S("jsr", spec_publish_sub),
	H("k3s", judge_kubectl),
	H("keydb-cli", judge_redis),
	H("kitten", judge_terminal),
	H("kitty", judge_terminal),
	S("knex", spec_dbtools),
	S("ko", spec_ko),
	H("ksh", judge_shell),
	H("kubectl", judge_kubectl),
	S("lerna", spec_publish_sub),
	H("litecli", judge_sqlite),
	H("lldb", judge_runner_misc),
	H("loksh", judge_shell),
	W("ltrace", w_ltrace),
	I("lua", interp_lua),
	I("luajit", interp_lua),
	H("lvremove", judge_disk),
	W("mamba", w_run_sub),
	H("mariadb", judge_mysql),
	H("mariadb-admin", judge_mysqladmin),
	S("maturin", spec_pypi),
	H("mawk", judge_awk),
	S("mc", spec_datastores),
	H("microk8s.kubectl", judge_kubectl),
	W("micromamba", w_run_sub),
	W("mise", w_mise),
	S("mix", spec_mix),
	H("mkdosfs", judge_disk),
	H("mke2fs", judge_disk),
	H("mkexfatfs", judge_disk),
	H("mkfs", judge_disk),
	H("mkntfs", judge_disk),
	H("mksh", judge_shell),
	H("mkswap", judge_disk),
	H("mongo", judge_mongo),
	H("mongorestore", judge_restore),
	H("mongosh", judge_mongo),
	S("mvn", spec_mvn),
	S("mvnw", spec_mvn),
	H("mycli", judge_mysql),
	H("mysql", judge_mysql),
	H("mysqladmin", judge_mysqladmin),
	H("nawk", judge_awk),
	S("neonctl", spec_datastores),
	H("nerdctl", judge_docker),
	S("netlify", spec_netlify),
	S("netlify-cli", spec_deployers),
	W("nice", w_nice),
	H("nix", judge_nix),
	H("nix-shell", judge_nix),
	W("nocache", w_plain),
	I("node", interp_node),
	I("nodejs", interp_node),
	W("nodenv", w_exec_sub),
	W("nohup", w_plain),
	S("np", spec_always_publish),
	H("npm", judge_pm),
	H("npx", judge_npx),
	S("nsenter", spec_escape_always),
	S("nuget", spec_nuget),
	W("numactl", w_numactl),
	H("nvim", judge_editor),
	W("nvm", w_nvm),
	H("nvme", judge_disk),
	H("oc", judge_kubectl),
	H("oksh", judge_shell),
	W("op", w_dashdash_sub),
	S("oras", spec_registry_images),
	I("osascript", interp_osa),
	S("ovsx", spec_publish_sub),
	H("parallel", judge_parallel),
	H("parted", judge_disk),
	S("pdm", spec_pypi),
	H("perf", judge_runner_misc),
	I("perl", interp_perl),
	H("pg_dropcluster", judge_rm_like),
	H("pg_restore", judge_restore),
	H("pgcli", judge_psql),
	H("php", judge_php),
	W("pipenv", w_run_sub),
	H("pipx", judge_pyrunner),
	W("pkexec", w_pkexec),
	H("pnpm", judge_pm),
	H("pnpx", judge_npx),
	S("pod", spec_pod),
	H("podman", judge_docker),
	S("podman-compose", spec_compose),
	S("poetry", spec_pypi),
	H("posh", judge_shell),
	I("powershell", interp_pwsh),
	S("prisma", spec_prisma),
	W("proxychains", w_proxy),
	W("proxychains4", w_proxy),
	S("pscale", spec_datastores),
	H("psql", judge_psql),
	S("pulumi", spec_pulumi),
	H("pvremove", judge_disk),
	I("pwsh", interp_pwsh),
	W("pyenv", w_exec_sub),
	H("pypy", judge_python),
	H("pypy3", judge_python),
	H("python", judge_python),
	H("python2", judge_python),
	H("python3", judge_python),
	H("python3.10", judge_python),
	H("python3.11", judge_python),
	H("python3.12", judge_python),
	H("python3.13", judge_python),
	H("python3.14", judge_python),
	H("python3.8", judge_python),
	H("python3.9", judge_python),
	S("rails", spec_rake),
	S("rake", spec_rake),
	H("rbash", judge_shell),
	W("rbenv", w_exec_sub),
	S("rclone", spec_rclone),
	H("redis-cli", judge_redis),
	S("regctl", spec_registry_images),
	S("release-it", spec_release_tools),
	S("restic", spec_datastores),
	H("rimraf", judge_rm_like),
	W("rlwrap", w_plain),
	H("rm", judge_rm_like),
	H("rmdir", judge_rm_like),
	H("rsync", judge_rsync),
	W("rtx", w_mise),
	I("ruby", interp_ruby),
	W("run-one", w_plain),
	S("run0", spec_escape_always),
	W("runuser", w_runuser),
	W("rye", w_run_sub),
	S("s3cmd", spec_datastores),
	H("sbsh", judge_shell),
	S("sbt", spec_sbt),
	H("screen", judge_screen),
	W("script", w_script),
	H("sed", judge_sed),
	S("semantic-release", spec_release_tools),
	S("sequelize", spec_dbtools),
	S("sequelize-cli", spec_dbtools),
	S("serverless", spec_deployers),
	W("setsid", w_plain),
	H("sfdisk", judge_disk),
	W("sg", w_sg),
	H("sgdisk", judge_disk),
	H("sh", judge_shell),
	H("shred", judge_rm_like),
	H("skopeo", judge_skopeo),
	S("sls", spec_deployers),
	S("snapcraft", spec_snapcraft),
	H("source", judge_source),
	H("sqlite", judge_sqlite),
	H("sqlite3", judge_sqlite),
	H("srm", judge_rm_like),
	H("ssh", judge_ssh),
	W("ssh-agent", w_plain),
	S("stack", spec_upload),
	W("stdbuf", w_stdbuf),
	W("strace", w_strace),
	W("su", w_su),
	W("sudo", w_sudo),
	S("supabase", spec_dbtools),
	H("surge", judge_surge),
	H("systemctl", judge_systemctl),
	W("systemd-inhibit", w_inhibit),
	S("systemd-run", spec_escape_always),
	S("systemd-run0", spec_escape_always),
	W("taskset", w_taskset),
	H("tee", judge_writer),
	S("terraform", spec_terraform),
	S("terragrunt", spec_terraform),
	W("time", w_time),
	W("timeout", w_timeout),
	W("tini", w_plain),
	S("tmux", spec_tmux),
	S("tofu", spec_terraform),
	W("torsocks", w_proxy),
	H("toybox", judge_busybox),
	H("trap", judge_trap),
	H("trash-empty", judge_rm_like),
	H("trash-rm", judge_rm_like),
	W("tsocks", w_proxy),
	S("turso", spec_datastores),
	S("twine", spec_pypi),
	S("typeorm", spec_dbtools),
	W("unbuffer", w_plain),
	H("unlink", judge_rm_like),
	W("unshare", w_unshare),
	H("uv", judge_pyrunner),
	H("uvx", judge_npx),
	W("vagrant", w_vagrant),
	W("valgrind", w_plain),
	H("valkey-cli", judge_redis),
	S("vault", spec_datastores),
	S("vercel", spec_vercel),
	H("vgremove", judge_disk),
	H("vi", judge_editor),
	H("view", judge_editor),
	H("vim", judge_editor),
	W("volta", w_run_sub),
	S("vsce", spec_publish_sub),
	H("watch", judge_watch),
	H("wezterm", judge_terminal),
	H("wget", judge_http),
	H("wipe", judge_rm_like),
	H("wipefs", judge_disk),
	S("wrangler", spec_deployers),
	W("xargs", w_xargs),
	H("xh", judge_http),
	H("xhs", judge_http),
	W("xvfb-run", w_xvfb),
	H("yadm", judge_git),
	H("yarn", judge_pm),
	H("yarnpkg", judge_pm),
	H("yash", judge_shell),
	H("zellij", judge_terminal),
	H("zfs", judge_disk),
	H("zpool", judge_disk),
	H("zsh", judge_shell),
};

static int tool_compare(const void *key, const void *elem)
{
	return strcmp(key, ((const struct tool *)elem)->name);
}

/* For the unit tests: the table must stay sorted for bsearch. */
bool rules_table_sorted(void);
bool rules_table_sorted(void)
{
	for (size_t i = 1; i < sizeof tools / sizeof tools[0]; i++)
		if (strcmp(tools[i - 1].name, tools[i].name) >= 0)
			return false;
	return true;
}

static const char *default_reason(struct cctx *c, const char *name, enum verdict v)
{
	switch (v) {
	case VERDICT_DELETE: return cl_printf(c, "%s deletes data", name);
	case VERDICT_PUBLISH: return cl_printf(c, "%s publishes", name);
	case VERDICT_FORCE_PUSH: return cl_printf(c, "%s rewrites remote history", name);
	case VERDICT_ESCAPE: return cl_printf(c, "%s runs outside the sandbox", name);
	case VERDICT_ASK: return cl_printf(c, "%s: cannot be decided before it runs", name);
	default: return NULL;
	}
}

struct judgement rules_judge(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                             const struct stdin_src *in)
{
	const struct tool *t = bsearch(name, tools, sizeof tools / sizeof tools[0], sizeof tools[0], tool_compare);
	struct judgement j = SAFE_J;
	if (!t) {
		if (starts(name, "git-") && name[4]) {
			/* git-push, /usr/lib/git-core/git-reset: git's own subcommands. */
			struct sarg *v = xcalloc(n + 1, sizeof *v);
			v[0].text = "git";
			v[0].known = true;
			v[1] = a[0];
			v[1].text = name + 4;
			for (size_t k = 1; k < n; k++)
				v[k + 1] = a[k];
			j = judge_git(c, "git", v, n + 1, in);
			free(v);
		} else if (starts(name, "mkfs.") || starts(name, "mkfs"))
			j = judge_disk(c, name, a, n, in);
		else if (starts(name, "python") || starts(name, "pypy"))
			j = judge_python(c, name, a, n, in);
		else if (starts(name, "terraform"))
			j = judge_spec(c, name, &spec_terraform, a, n);
	} else if (t->fn) {
		j = t->fn(c, name, a, n, in);
	} else if (t->wrap && t->wrap->sub) {
		if (n > 1 && kn(&a[1], t->wrap->sub))
			j = judge_wrapper(c, name, t->wrap, a, n, in);
		else if (n > 1 && !a[1].known)
			j = J(VERDICT_ASK, cl_printf(c, "%s subcommand is not known before it runs", name), 1);
		else if (t->spec)
			j = judge_spec(c, name, t->spec, a, n);
	} else if (t->wrap) {
		j = judge_wrapper(c, name, t->wrap, a, n, in);
	} else if (t->spec) {
		j = judge_spec(c, name, t->spec, a, n);
	} else if (t->interp) {
		j = judge_interp(c, t->interp, a, n, in);
	}
	if (j.v != VERDICT_SAFE && !j.reason)
		j.reason = default_reason(c, name, j.v);
	return j;
}

/* Environment variables whose value a program runs as a command. */
struct judgement rules_judge_env_assignment(struct cctx *c, const char *name, const struct sarg *value)
{
	static const char *const runs =
		"GIT_PAGER|PAGER|GIT_EDITOR|EDITOR|VISUAL|GIT_SEQUENCE_EDITOR|GIT_SSH_COMMAND|GIT_SSH|"
		"GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|GIT_PROXY_COMMAND|LESSOPEN|LESSCLOSE|"
		"BROWSER|MANPAGER|SYSTEMD_PAGER|PROMPT_COMMAND|BASH_ENV|ENV|GIT_CONFIG_PARAMETERS|"
		"RSYNC_RSH|RSYNC_CONNECT_PROG|CVS_RSH|FCEDIT|TERMINAL|DIFF|NPM_CONFIG_SCRIPT_SHELL|"
		"npm_config_script_shell|npm_config_git|GIT_EXEC_PATH";
	if (!in_lists(runs, name))
		return SAFE_J;
	if (!value->known)
		return J(VERDICT_ASK, cl_printf(c, "%s set to a command that is not known", name), -1);
	if (eq(name, "GIT_CONFIG_PARAMETERS") || eq(name, "GIT_EXEC_PATH"))
		return J(VERDICT_ASK, cl_printf(c, "%s changes what git runs", name), -1);
	if (eq(name, "BASH_ENV") || eq(name, "ENV")) {
		struct stdin_src none = {STDIN_NONE, NULL};
		return judge_script_source(c, name, value, &none, -1);
	}
	struct judgement j = judge_shell_text(c, name, value, NULL, 0, -1);
	return j.v > VERDICT_ASK ? j : SAFE_J;
}
