/* Interpreters, shells and inline code: sh -c, python -c, node -e, awk,
 * eval, trap, source, editors, and the delete or shell calls in code. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>

#include "hooks/rules/internal.h"
#include "lib/util.h"

static struct judgement judge_script_as_tool(struct cctx *c, const struct sarg *a, size_t i, size_t n,
                                             const struct stdin_src *in);

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

static bool word_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* Case-insensitive search for a whole word followed by one of the next words. */
bool ci_word_then(const char *text, const char *w, const char *next_list)
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
bool data_destroying_text(const char *t)
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
			/* Strings that merely do not parse, or mention a variable, are
			 * not evidence: only a recognised dangerous command counts,
			 * and only its commands are recorded. */
			struct judgement j = cl_judge_text_quietly(c, cmd.data);
			if (j.v > VERDICT_ASK)
				best = judgement_max(best, cl_judge_text(c, cmd.data, NULL, 0, false));
		}
		strbuf_truncate(&cmd, 0);
		pending = false;
	}
	strbuf_free(&cmd);
	return best;
}

static struct judgement judge_code_text(struct cctx *c, const char *lang, const char *code)
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

struct judgement rules_judge_code(struct cctx *c, const char *lang, const char *code)
{
	/* As written, then with its literals joined ("r""m", "un"+"link",
	 * "\x72m"); what is still computed asks (code.c). */
	struct judgement j = judge_code_text(c, lang, code);
	if (j.v != VERDICT_SAFE)
		return j;
	const char *folded = code_fold(c, code);
	j = judge_code_text(c, lang, folded);
	if (j.v != VERDICT_SAFE)
		return j;
	return code_computed(c, lang, code, folded, shell_calls);
}

/* ---- code an interpreter loads from the agent's files ---------------------------- */

/* Code that imports a module of the folder it runs in, or that an option
 * or a variable makes the interpreter load first (python3 -c 'import
 * tidy', node -r ./x.js, perl -Mx, NODE_OPTIONS=--require): the module is
 * a program file like the script operand, so the agent's is judged as its
 * text, and what it loads in turn, a few levels deep. The human's modules
 * stay opaque project code (rule 10). */

#define LOADS_DEPTH 4

static bool ident_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* The quoted string starting at p (after blanks and an opening paren),
 * or NULL. */
static const char *quoted_at(struct cctx *c, const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '(')
		p++;
	if (*p != '"' && *p != '\'' && *p != '`')
		return NULL;
	char q = *p++;
	size_t len = strcspn(p, q == '"' ? "\"\n" : q == '\'' ? "'\n" : "`\n");
	return p[len] == q && len ? cl_strndup(c, p, len) : NULL;
}

/* The dotted name at p (after blanks), or NULL. */
static const char *dotted_at(struct cctx *c, const char *p, const char **end)
{
	while (*p == ' ' || *p == '\t')
		p++;
	size_t len = 0;
	while (ident_char(p[len]) || p[len] == '.' || (p[len] == ':' && p[len + 1] == ':'))
		len += p[len] == ':' ? 2 : 1;
	*end = p + len;
	return len && p[0] != '.' ? cl_strndup(c, p, len) : NULL;
}

/* The next whole-word occurrence of word in code from from, the text
 * after it; a keyword is not an attribute (x.import), a call may be one
 * (runpy.run_path). */
static const char *next_name(const char *code, const char *from, const char *word, bool attribute)
{
	size_t wl = strlen(word);
	for (const char *p = strstr(from, word); p; p = strstr(p + 1, word))
		if ((p == code || (!ident_char(p[-1]) && (attribute || p[-1] != '.'))) && !ident_char(p[wl]))
			return p + wl;
	return NULL;
}

static const char *next_word(const char *code, const char *from, const char *word)
{
	return next_name(code, from, word, false);
}

static struct judgement judge_loaded_file(struct cctx *c, const char *lang, const char *path, const char *why,
                                          unsigned depth);

/* The first of the candidate files (dir/name + each suffix) that exists:
 * judged when it is the agent's. */
static struct judgement judge_load_candidates(struct cctx *c, const char *lang, const char *dir, const char *name,
                                              const char *const *suffixes, const char *why, unsigned depth)
{
	for (size_t k = 0; suffixes[k]; k++) {
		const char *path = name[0] == '/' || !dir ? cl_printf(c, "%s%s", name, suffixes[k])
		                                          : cl_printf(c, "%s/%s%s", dir, name, suffixes[k]);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return judge_loaded_file(c, lang, path, why, depth);
	}
	return SAFE_J;
}

/* A Python module a.b.c from dir: a, a.b and a.b.c each run. */
static struct judgement judge_python_import(struct cctx *c, const char *dir, const char *mod, unsigned depth)
{
	static const char *const py[] = {".py", "/__init__.py", NULL};
	struct judgement j = SAFE_J;
	char *path = cl_strndup(c, mod, strlen(mod));
	for (char *p = path;; p++) {
		if (*p == '.' || !*p) {
			char saved = *p;
			*p = '\0';
			j = judgement_max(j, judge_load_candidates(c, "python", dir, path, py,
			                                            cl_printf(c, "imports %s", mod), depth));
			if (!saved)
				break;
			*p = '/';
		}
	}
	return j;
}

/* The folders a list variable names (PYTHONPATH, PERL5LIB, RUBYLIB,
 * NODE_PATH), as the command will see it. */
static void env_dirs(struct cctx *c, const char *var, struct strvec *out)
{
	bool known;
	const char *v = cl_env_get(c, var, &known);
	for (const char *p = v && known ? v : ""; *p;) {
		size_t len = strcspn(p, ":");
		if (len)
			strvec_push_owned(out, xstrndup(p, len));
		p += len + (p[len] == ':');
	}
}

static struct judgement judge_code_loads(struct cctx *c, const char *lang, const char *code, const char *base,
                                         char *const *dirs, unsigned depth)
{
	struct judgement j = SAFE_J;
	if (depth >= LOADS_DEPTH || !code)
		return j;
	struct strvec search;
	strvec_init(&search);
	strvec_push(&search, base ? base : ".");
	for (size_t i = 0; dirs && dirs[i]; i++)
		strvec_push(&search, dirs[i]);
	const char *end;
	if (starts(lang, "python")) {
		env_dirs(c, "PYTHONPATH", &search);
		for (const char *p = code; (p = next_word(code, p, "import"));) {
			/* import a.b, c as d | from a.b import x, y */
			const char *back = p - 6;
			const char *from = NULL;
			for (const char *q = back; q > code && q[-1] != '\n' && q[-1] != ';';) {
				q--;
				if (starts(q, "from") && (q == code || !ident_char(q[-1])))
					from = q + 4;
			}
			const char *mod = from ? dotted_at(c, from, &end) : NULL;
			for (const char *q = p;;) {
				while (*q == ' ' || *q == '\t' || *q == '(')
					q++;
				const char *name = dotted_at(c, q, &end);
				if (!name)
					break;
				const char *full = mod ? cl_printf(c, "%s.%s", mod, name) : name;
				for (size_t d = 0; d < search.len; d++)
					j = judgement_max(j, judge_python_import(c, search.items[d], full, depth));
				q = end;
				while (*q == ' ' || *q == '\t')
					q++;
				if (starts(q, "as ")) {
					dotted_at(c, q + 3, &end);
					q = end;
					while (*q == ' ' || *q == '\t')
						q++;
				}
				if (*q != ',')
					break;
				q++;
			}
			if (mod)
				for (size_t d = 0; d < search.len; d++)
					j = judgement_max(j, judge_python_import(c, search.items[d], mod, depth));
		}
		static const char *const by_name[] = {"__import__", "import_module", "run_module", NULL};
		for (size_t k = 0; by_name[k]; k++)
			for (const char *p = code; (p = next_name(code, p, by_name[k], true));) {
				const char *mod = quoted_at(c, p);
				for (size_t d = 0; mod && d < search.len; d++)
					j = judgement_max(j, judge_python_import(c, search.items[d], mod, depth));
			}
		static const char *const as_is[] = {"", NULL};
		for (const char *p = code; (p = next_name(code, p, "run_path", true));) {
			const char *file = quoted_at(c, p);
			if (file)
				j = judgement_max(j, judge_load_candidates(c, "python", base, file, as_is,
				                                            cl_printf(c, "runs %s", file), depth));
		}
	} else if (eq(lang, "node")) {
		static const char *const js[] = {"", ".js", ".cjs", ".mjs", "/index.js", NULL};
		static const char *const words[] = {"require", "import", "from", NULL};
		for (size_t k = 0; words[k]; k++)
			for (const char *p = code; (p = next_word(code, p, words[k]));) {
				const char *file = quoted_at(c, p);
				if (file && (file[0] == '.' || file[0] == '/'))
					j = judgement_max(j, judge_load_candidates(c, "node", base, file, js,
					                                            cl_printf(c, "loads %s", file), depth));
			}
	} else if (eq(lang, "perl") || eq(lang, "ruby")) {
		bool perl = eq(lang, "perl");
		env_dirs(c, perl ? "PERL5LIB" : "RUBYLIB", &search);
		static const char *const as_is[] = {"", NULL};
		static const char *const rb[] = {"", ".rb", NULL};
		static const char *const pm[] = {".pm", NULL};
		static const char *const files[] = {"do", "require", "load", "require_relative", NULL};
		for (size_t k = 0; files[k]; k++)
			for (const char *p = code; (p = next_word(code, p, files[k]));) {
				const char *file = quoted_at(c, p);
				if (!file)
					continue;
				bool relative = file[0] == '.' || file[0] == '/' || eq(files[k], "require_relative") ||
				                eq(files[k], "do") || eq(files[k], "load");
				for (size_t d = 0; d < (relative ? 1 : search.len); d++)
					j = judgement_max(j, judge_load_candidates(c, lang, relative ? (file[0] == '/' ? NULL : base)
					                                                           : search.items[d],
					                                            file, perl ? as_is : rb,
					                                            cl_printf(c, "loads %s", file), depth));
			}
		if (perl) {
			static const char *const mods[] = {"use", "require", NULL};
			for (size_t k = 0; mods[k]; k++)
				for (const char *p = code; (p = next_word(code, p, mods[k]));) {
					const char *mod = dotted_at(c, p, &end);
					if (!mod || eq(mod, "lib") || eq(mod, "strict") || eq(mod, "warnings"))
						continue;
					char *path = cl_strndup(c, mod, strlen(mod));
					for (char *q; (q = strstr(path, "::"));)
						memmove(q + 1, q + 2, strlen(q + 2) + 1), *q = '/';
					for (size_t d = 1; d < search.len; d++) /* not the folder itself: @INC has no "." */
						j = judgement_max(j, judge_load_candidates(c, lang, search.items[d], path, pm,
						                                            cl_printf(c, "loads %s", mod), depth));
				}
		}
	}
	strvec_free(&search);
	return j;
}

static struct judgement judge_loaded_file(struct cctx *c, const char *lang, const char *path, const char *why,
                                          unsigned depth)
{
	struct sarg file = {.text = path, .known = true};
	struct stdin_src none = {STDIN_NONE, NULL};
	const char *text = NULL;
	int w = code_operand_text(c, &file, &none, &text);
	if (w == 0)
		return J(VERDICT_ASK, cl_printf(c, "%s code %s, a file that is not known", lang, why), -1);
	if (w < 0)
		return SAFE_J; /* the human's module, or a package of the system */
	char *dir = cl_strndup(c, path, strlen(path));
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	struct judgement j = rules_judge_code(c, lang, text);
	j = judgement_max(j, judge_code_loads(c, lang, text, slash ? dir : NULL, NULL, depth + 1));
	if (j.v != VERDICT_SAFE)
		j.reason = cl_printf(c, "%s code %s (the agent's): %s", lang, why, j.reason ? j.reason : "");
	return j;
}

/* Inline code, with what it loads from the folder it runs in. */
static struct judgement judge_inline_code(struct cctx *c, const char *lang, const char *code)
{
	return judgement_max(rules_judge_code(c, lang, code), judge_code_loads(c, lang, code, NULL, NULL, 0));
}

/* What an option's value makes the interpreter load first: node -r
 * ./x.js, --import, --loader; perl -Mx with -I folders; ruby -r ./x. */
static struct judgement judge_load_option(struct cctx *c, const char *lang, const char *value, char *const *dirs)
{
	if (!value || !*value)
		return SAFE_J;
	const char *why = cl_printf(c, "loads %s first", value);
	if (eq(lang, "node")) {
		static const char *const js[] = {"", ".js", ".cjs", ".mjs", "/index.js", NULL};
		return value[0] == '.' || value[0] == '/' ? judge_load_candidates(c, lang, NULL, value, js, why, 0) : SAFE_J;
	}
	if (eq(lang, "ruby")) {
		static const char *const rb[] = {"", ".rb", NULL};
		if (value[0] == '.' || value[0] == '/')
			return judge_load_candidates(c, lang, NULL, value, rb, why, 0);
		struct judgement j = SAFE_J;
		for (size_t d = 0; dirs && dirs[d]; d++)
			j = judgement_max(j, judge_load_candidates(c, lang, dirs[d], value, rb, why, 0));
		return j;
	}
	if (eq(lang, "perl")) {
		static const char *const pm[] = {".pm", NULL};
		size_t len = strcspn(value, "=");
		char *path = cl_strndup(c, value[0] == '-' ? value + 1 : value, value[0] == '-' ? len - 1 : len);
		for (char *q; (q = strstr(path, "::"));)
			memmove(q + 1, q + 2, strlen(q + 2) + 1), *q = '/';
		struct judgement j = SAFE_J;
		for (size_t d = 0; dirs && dirs[d]; d++)
			j = judgement_max(j, judge_load_candidates(c, lang, dirs[d], path, pm, why, 0));
		return j;
	}
	return SAFE_J;
}

struct judgement rules_judge_env_loads(struct cctx *c, const char *name, const char *value)
{
	struct strvec dirs;
	strvec_init(&dirs);
	struct judgement j = SAFE_J;
	const char *lang = eq(name, "NODE_OPTIONS") ? "node" : eq(name, "PERL5OPT") ? "perl" : eq(name, "RUBYOPT") ? "ruby" : NULL;
	if (eq(name, "PYTHONPATH")) {
		/* every python started imports sitecustomize and usercustomize
		 * from it, before anything else */
		env_dirs(c, "PYTHONPATH", &dirs);
		static const char *const py[] = {".py", NULL};
		for (size_t d = 0; d < dirs.len; d++) {
			j = judgement_max(j, judge_load_candidates(c, "python", dirs.items[d], "sitecustomize", py,
			                                            "imports sitecustomize first", 0));
			j = judgement_max(j, judge_load_candidates(c, "python", dirs.items[d], "usercustomize", py,
			                                            "imports usercustomize first", 0));
		}
	} else if (lang) {
		env_dirs(c, eq(lang, "perl") ? "PERL5LIB" : "RUBYLIB", &dirs);
		/* -r X, --require=X, -MX ... in the variable's words */
		const char *opts = eq(lang, "node") ? "-r|--require|--import|--loader|--experimental-loader"
		                   : eq(lang, "perl") ? "-M|-m" : "-r";
		for (const char *p = value; *p;) {
			p += strspn(p, " \t");
			size_t len = strcspn(p, " \t");
			if (!len)
				break;
			char *word = cl_strndup(c, p, len);
			p += len;
			const char *v = NULL;
			size_t eqpos = strcspn(word, "=");
			if (in_list(opts, word, strlen(word))) {
				p += strspn(p, " \t");
				size_t vl = strcspn(p, " \t");
				v = cl_strndup(c, p, vl);
				p += vl;
			} else if (word[0] == '-' && word[1] == '-' && word[eqpos] == '=' && in_list(opts, word, eqpos)) {
				v = word + eqpos + 1;
			} else if (word[0] == '-' && word[1] && word[1] != '-' && strchr(eq(lang, "perl") ? "Mm" : "r", word[1]) &&
			           word[2]) {
				v = word + 2;
			}
			j = judgement_max(j, judge_load_option(c, lang, v, dirs.items));
		}
	}
	strvec_free(&dirs);
	if (j.v != VERDICT_SAFE)
		j.reason = cl_printf(c, "%s: %s", name, j.reason ? j.reason : "");
	return j;
}

static struct judgement judge_code_stdin(struct cctx *c, const char *lang, const struct stdin_src *in);

/* Inline code that runs what it reads from standard input as code
 * (exec(sys.stdin.read()), eval <STDIN>): then that input's verdict is its. */
static struct judgement judge_code_evaluating_stdin(struct cctx *c, const char *lang, const struct sarg *a,
                                                    const struct stdin_src *in, int at)
{
	static const char *const reads[] = {"stdin", "STDIN", "<>", "readFileSync(0", "gets", NULL};
	static const char *const evals[] = {"exec(", "eval", "compile(", "Function(", "runInThisContext", NULL};
	bool reading = false, evaluating = false;
	for (size_t i = 0; a->known && reads[i]; i++)
		reading = reading || contains(a->text, reads[i]);
	for (size_t i = 0; a->known && evals[i]; i++)
		evaluating = evaluating || contains(a->text, evals[i]);
	if (!reading || !evaluating)
		return SAFE_J;
	struct stdin_src unknown = {STDIN_UNKNOWN, NULL};
	struct judgement j = judge_code_stdin(c, lang, in->kind == STDIN_NONE || in->kind == STDIN_FILE ? &unknown : in);
	j.at = at;
	return j;
}

struct judgement judge_code_arg(struct cctx *c, const char *lang, const struct sarg *a, int at)
{
	if (!a->known)
		return judgement_max(J(VERDICT_ASK, cl_printf(c, "%s code that is not known before it runs", lang), at),
		                     judge_code_partial(c, lang, a->text, at));
	struct judgement j = judge_inline_code(c, lang, a->text);
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

/* Whether an operand names a descriptor or standard input rather than a
 * file: /dev/fd/N is another program's output (a <( ), a pipe). */
static bool names_stdin(const char *t)
{
	return eq(t, "/dev/stdin") || eq(t, "/dev/fd/0") || eq(t, "/proc/self/fd/0") || eq(t, "-");
}

static bool names_descriptor(const char *t)
{
	return cl_names_descriptor(t) || starts(t, "/dev/std");
}

/* The text of a program's code operand when it is not a file of the
 * project: a <( ), standard input by name, another descriptor, a file
 * written on this line. Returns 1 with *text, 0 when what it holds is not
 * known, -1 for a project file (or the terminal). */
int code_operand_text(struct cctx *c, const struct sarg *x, const struct stdin_src *in, const char **text)
{
	*text = NULL;
	if (x->procsub) {
		struct stdin_src src = cl_procsub_output(c, x->procsub);
		*text = src.text;
		return src.kind == STDIN_TEXT ? 1 : 0;
	}
	if (!x->known)
		return -1;
	if (names_stdin(x->text)) {
		*text = in->text;
		return in->kind == STDIN_TEXT ? 1 : in->kind == STDIN_UNKNOWN ? 0 : -1;
	}
	if (names_descriptor(x->text))
		return 0;
	return cl_written_file(c, x->text, text);
}

/* An interpreter's program operand that is not a file of the project
 * (code_operand_text): judged as that code. *handled says whether it was one. */
static struct judgement judge_code_operand(struct cctx *c, const char *lang, const struct sarg *x,
                                           const struct stdin_src *in, int at, bool *handled)
{
	const char *text;
	if (!x->known && !x->procsub) {
		*handled = true; /* as for a shell's script: judged once known */
		return J(VERDICT_ASK, cl_printf(c, "%s runs a program file that is not known before it runs", lang), at);
	}
	int w = code_operand_text(c, x, in, &text);
	*handled = w >= 0;
	if (w == 1) {
		/* with what it imports from its own folder */
		const char *base = NULL;
		const char *slash = x->known && !x->procsub ? strrchr(x->text, '/') : NULL;
		if (slash)
			base = slash == x->text ? "/" : cl_strndup(c, x->text, (size_t)(slash - x->text));
		return judgement_max(rules_judge_code(c, lang, text), judge_code_loads(c, lang, text, base, NULL, 1));
	}
	if (w < 0) {
		/* the project's own file: opaque, but its name counts (rule 10) */
		if (x->known && !x->procsub && name_says_publish(base_name(x->text), true)) {
			*handled = true;
			return J(VERDICT_PUBLISH, cl_printf(c, "%s %s: the script's name says it publishes", lang, x->text), at);
		}
		return SAFE_J;
	}
	struct stdin_src unknown = {STDIN_UNKNOWN, text};
	struct judgement j = judge_code_stdin(c, lang, &unknown);
	j.at = at;
	return j;
}

/* ---- the shells ------------------------------------------------------------------- */

struct judgement judge_script_source(struct cctx *c, const char *what, const struct sarg *file,
                                     const struct sarg *pos, size_t npos, const struct stdin_src *in, int at)
{
	if (file) {
		if (file->procsub) {
			struct stdin_src src = cl_procsub_output(c, file->procsub);
			return judge_script_source(c, what, NULL, NULL, 0, &src, at);
		}
		/* It may be a script the agent wrote: the run-time check reads it
		 * once known; under find -exec or xargs nothing does. */
		if (!file->known)
			return J(VERDICT_ASK, cl_printf(c, "%s runs a script that is not known before it runs", what), at);
		if (names_stdin(file->text))
			return judge_script_source(c, what, NULL, NULL, 0, in, at);
		if (names_descriptor(file->text)) {
			struct stdin_src unknown = {STDIN_UNKNOWN, NULL};
			return judge_script_source(c, what, NULL, NULL, 0, &unknown, at);
		}
		const char *text = NULL;
		int w = cl_written_file(c, file->text, &text);
		if (w == 1) {
			/* the shell reads it as it runs: judged as it is now, it
			 * must not change before it is read (self-appending) */
			cl_seal(c, file->text);
			struct sarg t = {.text = text, .known = true};
			return judge_shell_text_in(c, what, &t, pos, npos, at, in); /* "$@" is what it is given */
		}
		/* Its text is not known here, and the run-time check does not
		 * read scripts: this ASK binds. */
		if (w == 0)
			return J(VERDICT_ASK, cl_printf(c, "%s runs a script written on this line", what), at);
		return SAFE_J; /* opaque project code */
	}
	switch (in->kind) {
	case STDIN_TEXT: {
		cl_seal(c, ""); /* sh < FILE reads FILE as it runs */
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

struct judgement judge_shell(struct cctx *c, const char *name, const struct sarg *a, size_t n,
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
			if ((eq(t, "--rcfile") || eq(t, "--init-file")) && i + 1 < n) {
				/* Run first when interactive: code like any script. */
				i++;
				const char *text;
				int w = code_operand_text(c, &a[i], in, &text);
				if (w == 0)
					return J(VERDICT_ASK, cl_printf(c, "%s %s reads code that is not known", name, t), (int)i);
				if (w == 1) {
					cl_seal(c, a[i].text);
					struct sarg s = {.text = text, .known = true};
					struct judgement rj = judge_shell_text_in(c, cl_printf(c, "%s %s", name, t), &s, NULL, 0, (int)i, in);
					if (rj.v != VERDICT_SAFE)
						return rj;
				}
			}
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
		return judge_shell_text_in(c, cl_printf(c, "%s -c", name), &a[i], i + 1 < n ? a + i + 1 : NULL,
		                           i + 1 < n ? n - i - 1 : 0, (int)i, in);
	}
	if (i < n && !read_stdin) {
		struct judgement j = judge_script_source(c, name, &a[i], a + i, n - i, in, (int)i);
		if (a[i].known && name_says_publish(base_name(a[i].text), true))
			j = judgement_max(j, J(VERDICT_PUBLISH, cl_printf(c, "%s %s: the script's name says it publishes", name,
			                                                   a[i].text), (int)i));
		return j;
	}
	if (i < n && !a[i].known && !read_stdin)
		return SAFE_J;
	return judge_script_source(c, name, NULL, NULL, 0, in, 0);
}

/* ---- interpreters ---------------------------------------------------------------- */

/* python -m MOD: MOD.py or MOD/__main__.py of the current folder (where
 * Python looks first), judged as the agent's code when it is. */
static struct judgement judge_python_module(struct cctx *c, const char *mod, const struct stdin_src *in, int at,
                                            bool *handled)
{
	char *path = cl_strndup(c, mod, strlen(mod));
	for (char *p = path; *p; p++)
		if (*p == '.')
			*p = '/';
	const char *const forms[] = {"%s.py", "%s/__main__.py"};
	for (size_t k = 0; k < 2; k++) {
		struct sarg file = {.text = cl_printf(c, forms[k], path), .known = true};
		struct judgement j = judge_code_operand(c, "python", &file, in, at, handled);
		if (*handled)
			return j;
	}
	return SAFE_J;
}

struct judgement judge_python(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                              const struct stdin_src *in)
{
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known) {
			bool handled; /* it may name the program file */
			return judge_code_operand(c, "python", x, in, (int)i, &handled);
		}
		const char *t = x->text;
		if (eq(t, "-") || x->procsub) {
			bool handled;
			return judge_code_operand(c, "python", x, in, (int)i, &handled);
		}
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
				return val ? judgement_max(judge_code_arg(c, "python", val, (int)i),
				                           judge_code_evaluating_stdin(c, "python", val, in, (int)i))
				           : SAFE_J;
			if (*cp == 'm') {
				if (!val)
					return SAFE_J;
				/* A module of the current folder runs before an installed one. */
				bool handled = false;
				struct judgement mj = val->known ? judge_python_module(c, val->text, in, (int)i, &handled) : SAFE_J;
				if (handled)
					return mj;
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
		/* The script: opaque, except the well-known ones, those written on
		 * this line and those that are not files. */
		bool handled;
		struct judgement oj = judge_code_operand(c, "python", x, in, (int)i, &handled);
		if (handled)
			return oj;
		const char *script = base_name(t);
		struct judgement tool = judge_script_as_tool(c, a, i, n, in);
		if (tool.v != VERDICT_SAFE)
			return tool;
		if (eq(script, "setup.py")) {
			int k = find_word(a, i + 1, n, "upload|register|upload_docs|bdist_wheel_upload");
			if (k >= 0)
				return J(VERDICT_PUBLISH, "setup.py upload publishes to PyPI", k);
		} else if (eq(script, "manage.py") || eq(script, "django-admin")) {
			int k = find_word(a, i + 1, n, "flush|reset_db|drop_test_database|sqlflush_exec|reset_schema");
			if (k >= 0)
				return J(VERDICT_DELETE, cl_printf(c, "manage.py %s empties the database", a[k].text), k);
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
	return judge_as_command(c, name, a, i, n, in);
}


static struct judgement judge_interp_code(struct cctx *c, const struct interp *ip, const struct sarg *a, size_t n,
                                          const struct stdin_src *in, char *const *idirs);

/* node -r/--require/--import/--loader FILE, perl -MMOD -IDIR, ruby -rLIB
 * -IDIR: what the interpreter loads before the program. */
static struct judgement judge_interp_loads(struct cctx *c, const struct interp *ip, const struct sarg *a, size_t n,
                                           struct strvec *idirs)
{
	struct judgement j = SAFE_J;
	bool node = eq(ip->lang, "node"), perl = eq(ip->lang, "perl"), ruby = eq(ip->lang, "ruby");
	if (!node && !perl && !ruby)
		return j;
	env_dirs(c, perl ? "PERL5LIB" : "RUBYLIB", idirs);
	struct strvec loads;
	strvec_init(&loads);
	for (size_t i = 1; i < n && a[i].known; i++) {
		const char *t = a[i].text;
		if (eq(t, "--") || t[0] != '-' || !t[1])
			break;
		const char *next = i + 1 < n && a[i + 1].known ? a[i + 1].text : NULL;
		size_t eqp = strcspn(t, "=");
		if (node && in_list("-r|--require|--import|--loader|--experimental-loader", t, eqp)) {
			const char *v = t[eqp] == '=' ? t + eqp + 1 : next;
			if (v)
				strvec_push(&loads, v);
			if (!t[eqp])
				i++;
		} else if ((perl || ruby) && t[1] == 'I') {
			const char *v = t[2] ? t + 2 : next;
			if (v)
				strvec_push(idirs, v);
			if (!t[2])
				i++;
		} else if ((perl && (t[1] == 'M' || t[1] == 'm')) || (ruby && t[1] == 'r')) {
			const char *v = t[2] ? t + 2 : ruby ? next : NULL;
			if (v)
				strvec_push(&loads, v);
			if (!t[2] && ruby)
				i++;
		} else if (node && in_list(ip->code_opts, t, eqp)) {
			break;
		}
	}
	for (size_t k = 0; k < loads.len; k++)
		j = judgement_max(j, judge_load_option(c, ip->lang, loads.items[k], idirs->items));
	strvec_free(&loads);
	return j;
}

struct judgement judge_interp(struct cctx *c, const struct interp *ip, const struct sarg *a, size_t n,
                              const struct stdin_src *in)
{
	struct strvec idirs;
	strvec_init(&idirs);
	struct judgement loads = judge_interp_loads(c, ip, a, n, &idirs);
	struct judgement j = judge_interp_code(c, ip, a, n, in, idirs.items);
	strvec_free(&idirs);
	return judgement_max(j, loads);
}

static struct judgement judge_interp_code(struct cctx *c, const struct interp *ip, const struct sarg *a, size_t n,
                                          const struct stdin_src *in, char *const *idirs)
{
	struct judgement j = SAFE_J;
	bool had_code = false;
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known && !had_code) {
			bool handled; /* it may name the program file */
			return judge_code_operand(c, ip->lang, x, in, (int)i, &handled);
		}
		if (!x->known)
			return j;
		const char *t = x->text;
		if (eq(t, "-"))
			return judge_code_stdin(c, ip->lang, in);
		if (eq(t, "--"))
			break;
		if (eq(t, "--help") || eq(t, "--version") || eq(t, "-v"))
			return had_code ? j : SAFE_J;
		if (t[0] != '-' || !t[1] || x->procsub) {
			if (had_code)
				return j;
			bool handled;
			struct judgement oj = judge_code_operand(c, ip->lang, x, in, (int)i, &handled);
			if (handled)
				return oj;
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
				j = judgement_max(j, judge_code_evaluating_stdin(c, ip->lang, val, in, (int)i));
				if (val->known && idirs)
					j = judgement_max(j, judge_code_loads(c, ip->lang, val->text, NULL, idirs, 0));
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
						j = judgement_max(j, judge_code_evaluating_stdin(c, ip->lang, val, in, (int)i));
						if (val->known && idirs)
							j = judgement_max(j, judge_code_loads(c, ip->lang, val->text, NULL, idirs, 0));
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

/* awk: system() and pipes to sh inside the program text. */
/* Whether an awk program runs a command that is not a literal: system()
 * of a field or an expression, a pipe to or from one, or one assembled by
 * sprintf and the like (folded: its literals joined). */
static bool awk_builds_command(const char *folded)
{
	static const char *const builders[] = {"sprintf", "substr(", "toupper(", "tolower(", "%c", "gsub(", NULL};
	bool runs = false;
	for (const char *p = folded; *p; p++) {
		const char *q = NULL;
		if (starts(p, "system(") && (p == folded || !isalnum((unsigned char)p[-1])))
			q = p + 7;
		else if (*p == '|' && p[1] != '|' && (p == folded || p[-1] != '|'))
			q = p + 1;
		else if (starts(p, "getline") && p > folded) {
			/* CMD | getline: look back past the pipe */
			const char *b = p - 1;
			while (b > folded && (*b == ' ' || *b == '\t'))
				b--;
			if (*b == '|')
				runs = true;
			continue;
		}
		if (!q)
			continue;
		runs = true;
		while (*q == ' ' || *q == '\t' || *q == '(')
			q++;
		if (starts(q, "getline")) {
			/* EXPR | getline: a literal or a variable, else built */
			const char *b = p - 1;
			while (b > folded && (*b == ' ' || *b == '\t'))
				b--;
			while (b > folded && (isalnum((unsigned char)*b) || *b == '_'))
				b--;
			if (*b != '"' && !isalpha((unsigned char)b[1]) && b[1] != '_')
				return true;
			continue;
		}
		/* a literal, or a variable the program set (its literal is judged) */
		if (*q != '"' && !isalpha((unsigned char)*q) && *q != '_')
			return true;
		if (*q == '"' && q[1] == '"')
			return true; /* "" followed by what builds it */
	}
	for (size_t i = 0; runs && builders[i]; i++)
		if (contains(folded, builders[i]))
			return true;
	return false;
}

struct judgement judge_awk(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                           const struct stdin_src *in)
{
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known) {
			/* an option's value (-v x="$v", -F"$sep"), or the program */
			if (x->text[0] == '-' || (i > 1 && a[i - 1].known && in_lists("-F|-v|-i|-l|-f|--file", a[i - 1].text)))
				continue;
			return J(VERDICT_ASK, cl_printf(c, "%s program that is not known (system() runs text)", name), (int)i);
		}
		const char *t = x->text;
		if (eq(t, "--"))
			continue;
		if (t[0] == '-' && t[1]) {
			if (eq(t, "-f") || starts(t, "--file")) {
				/* A program file of the project is opaque; the agent's text is read. */
				struct sarg inline_file = {.text = strchr(t, '=') ? strchr(t, '=') + 1 : NULL, .known = true};
				const struct sarg *file = inline_file.text ? &inline_file : i + 1 < n ? &a[i + 1] : NULL;
				const char *text;
				int w = file ? code_operand_text(c, file, in, &text) : -1;
				if (w == 0)
					return J(VERDICT_ASK, cl_printf(c, "%s program that is not known", name), (int)i);
				if (w < 0)
					return SAFE_J;
				struct judgement j = judge_code_strings(c, text);
				if (j.v != VERDICT_SAFE)
					j.reason = cl_printf(c, "%s program runs: %s", name, j.reason ? j.reason : "");
				j.at = (int)i;
				return j;
			}
			if (eq(t, "-F") || eq(t, "-v") || eq(t, "-i") || eq(t, "-l"))
				i++;
			continue;
		}
		if (contains(t, "system") || contains(t, "|") || contains(t, "getline")) {
			/* "r" "m" is one string to awk */
			const char *folded = code_fold(c, t);
			struct judgement j = judgement_max(judge_code_strings(c, t), judge_code_strings(c, folded));
			if (j.v != VERDICT_SAFE)
				j.reason = cl_printf(c, "%s program runs: %s", name, j.reason ? j.reason : "");
			else if (awk_builds_command(folded))
				j = J(VERDICT_ASK, cl_printf(c, "%s program runs a command it builds: cannot be decided", name), -1);
			j.at = (int)i;
			return j;
		}
		return SAFE_J;
	}
	return SAFE_J;
}

/* ---- the shell's own builtins that run text ---------------------------------------------- */

/* Text the shell runs itself, sharing the line's state (eval, trap,
 * source): its verdict, the reason after what, at the word at. */
static struct judgement judge_builtin_text(struct cctx *c, const char *what, const char *text, size_t at)
{
	struct judgement j = cl_judge_text(c, text, NULL, 0, true);
	if (j.v != VERDICT_SAFE)
		j.reason = cl_printf(c, "%s: %s", what, j.reason ? j.reason : "");
	j.at = (int)at;
	return j;
}

struct judgement judge_eval(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                            const struct stdin_src *in)
{
	size_t s = builtin_operands(a, n);
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
	return judge_builtin_text(c, name, join_args(c, a + s, n - s), s);
}

struct judgement judge_trap(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                            const struct stdin_src *in)
{
	size_t s = builtin_operands(a, n);
	if (s + 1 >= n)
		return SAFE_J; /* trap, trap -p, trap -l, or trap ACTION without signals */
	const struct sarg *act = &a[s];
	if (act->known && (eq(act->text, "-") || !*act->text || eq(act->text, "-p") || eq(act->text, "-l") ||
	                   isdigit((unsigned char)act->text[0])))
		return SAFE_J;
	if (!act->known)
		return J(VERDICT_ASK, "trap action that is not known before it runs", (int)s);
	return judge_builtin_text(c, "trap action", act->text, s);
}

/* compgen -W expands each word of its list, so a $( ) there runs, as
 * in bash. The list is judged as the arguments of a command; one not
 * known before it runs may hold any such text. */
struct judgement judge_compgen(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                               const struct stdin_src *in)
{
	(void)name;
	(void)in;
	struct judgement j = SAFE_J;
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known || a[i].text[0] != '-' || !a[i].text[1])
			break; /* the word to match: options end */
		if (eq(a[i].text, "--"))
			break;
		for (const char *p = a[i].text + 1; *p; p++) {
			if (!strchr("AWPSXoGFC", *p))
				continue;
			/* the option's value: the rest of this word or the next one */
			const struct sarg *v = p[1] ? NULL : (i + 1 < n ? &a[++i] : NULL);
			if (*p == 'W' && v && !v->known)
				return J(VERDICT_ASK, "compgen -W list that is not known before it runs", (int)i);
			const char *text = v ? v->text : p + 1;
			if (*p == 'W' && *text)
				j = judgement_max(j, judge_builtin_text(c, "compgen -W", cl_printf(c, ": %s", text), i));
			break;
		}
	}
	return j;
}

struct judgement judge_source(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                              const struct stdin_src *in)
{
	size_t s = builtin_operands(a, n);
	if (s >= n)
		return SAFE_J;
	const char *text = NULL;
	if (!a[s].known || a[s].procsub) {
		struct stdin_src none = {STDIN_NONE, NULL};
		return a[s].procsub ? judge_script_source(c, name, &a[s], NULL, 0, &none, (int)s) : SAFE_J;
	}
	/* Sourced by this shell, the agent's file is judged command by command
	 * as it runs (one question each, showing what runs); read here only
	 * when another shell will run it, or when this line wrote it. */
	int w = cl_runs_here(c) && !names_stdin(a[s].text) && !names_descriptor(a[s].text)
	                ? cl_written_on_line(c, a[s].text, &text)
	                : code_operand_text(c, &a[s], in, &text);
	if (w == 1) {
		if (!cl_runs_here(c))
			cl_seal(c, a[s].text); /* another shell sources it as it runs */
		return judge_builtin_text(c, cl_printf(c, "%s %s", name, a[s].text), text, s);
	}
	if (w < 0 && name_says_publish(base_name(a[s].text), true))
		return J(VERDICT_PUBLISH, cl_printf(c, "%s %s: the script's name says it publishes", name, a[s].text), (int)s);
	if (w == 0)
		return J(VERDICT_ASK, cl_printf(c, "%s of text that is not known (a file written on this line, a pipe)", name),
		         (int)s);
	return SAFE_J;
}

/* Task runners, whose tasks the project names as make's targets (just,
 * go-task, invoke, fab, mage, ant, cap, gulp, grunt, poe, turbo, nx, tox
 * -e, nox -s): a task named for publishing is PUBLISH (policy rule 10),
 * but for the runner's own dry run. */
struct judgement judge_task_runner(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                   const struct stdin_src *in)
{
	static const char values[] =
		"-f|--file|--justfile|--taskfile|-d|--dir|--directory|--working-directory|-C|--root|-c|--collection|"
		"-r|--search-root|--config|-H|--hosts|-i|--identity|--filter|-p|--project|--projects|--exclude|"
		"-buildfile|-lib|-logfile|-propertyfile|--set|-w|--workdir|--output-logs|--concurrency|--cache-dir|"
		"--team|--token|--scope|-x|--exclude-task|--gulpfile|--gruntfile|--cwd|--base";
	static const char names[] = "-e|--env|-s|--session|--sessions|-t|--target|--targets|--task|--tasks";
	if (has_flag(a, 1, n, "--help|--version") || dry_run(a, 1, n, "--dry-run|--dry") ||
	    ((eq(name, "just") || eq(name, "task")) && has_flag(a, 1, n, "-n")))
		return SAFE_J;
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known)
			continue;
		const char *t = x->text;
		const char *task = NULL;
		int at = (int)i;
		if (t[0] == '-' && t[1]) {
			size_t len = strcspn(t, "=");
			if (in_list(names, t, len))
				task = t[len] ? t + len + 1 : i + 1 < n && a[i + 1].known ? a[++i].text : NULL;
			else if (in_list(values, t, len) && !t[len])
				i++;
			if (!task)
				continue;
		} else if (!strchr(t, '=')) {
			task = t;
		}
		if (task && name_says_publish(task, true))
			return J(VERDICT_PUBLISH, cl_printf(c, "%s %s: the task's name says it publishes", name, task), at);
	}
	return SAFE_J;
}

/* name as make opens it after its -C folders (dir, or NULL: here). */
static const char *make_path(struct cctx *c, const char *dir, const char *name)
{
	return dir && name[0] != '/' ? cl_printf(c, "%s/%s", dir, name) : name;
}

/* The recipes make runs from the agent's makefile text (with what it
 * includes), judged as shell text. */
static struct judgement judge_make_text(struct cctx *c, const char *name, const char *text, const char *dir,
                                        const char *file, const struct sarg *a, size_t n, int at)
{
	bool unknown = false;
	struct sarg s = {.text = make_recipes(c, text, dir, file, a, n, &unknown), .known = true};
	struct judgement j = judge_shell_text(c, cl_printf(c, "%s recipe (the agent's %s)", name, file ? file : "makefile"),
	                                      &s, NULL, 0, at);
	if (unknown)
		j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s: the agent's makefile includes one that is not known "
		                                                "before make runs", name), at));
	return j;
}

/* make runs the project's makefiles (opaque project code); a makefile that
 * is the agent's text (-f - <<EOF, -f <( ), one written on this line or
 * since the human accepted the project, --eval) is judged by its recipes. */
struct judgement judge_make(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                            const struct stdin_src *in)
{
	struct judgement j = SAFE_J;
	bool named = false;
	const char *dir = NULL; /* -C folders, joined in order, as make enters them */
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known)
			continue;
		const char *t = x->text, *text = NULL;
		const struct sarg *file = NULL;
		const char *cd = NULL;
		if ((eq(t, "-C") || eq(t, "--directory")) && i + 1 < n) {
			if (!a[++i].known)
				return judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s in a folder that is not known", name), (int)i));
			cd = a[i].text;
		} else if (starts(t, "--directory=") || (starts(t, "-C") && t[2])) {
			cd = t[1] == 'C' ? t + 2 : strchr(t, '=') + 1;
		}
		if (cd) {
			dir = cd[0] == '/' || !dir ? cd : cl_printf(c, "%s/%s", dir, cd);
			continue;
		}
		struct sarg inline_file = {.known = true, .word = x->word};
		int w = -1;
		if ((eq(t, "-f") || eq(t, "--file") || eq(t, "--makefile")) && i + 1 < n) {
			file = &a[++i];
		} else if ((starts(t, "-f") && t[2] && t[1] != '-') || starts(t, "--file=") || starts(t, "--makefile=")) {
			inline_file.text = t[1] == 'f' ? t + 2 : strchr(t, '=') + 1;
			file = &inline_file;
		} else if ((eq(t, "--eval") || eq(t, "-E")) && i + 1 < n) {
			i++;
			w = a[i].known ? 1 : 0;
			text = a[i].text;
		} else if (starts(t, "--eval=")) {
			w = 1;
			text = t + 7;
		}
		if (file) {
			named = true;
			struct sarg moved = *file;
			if (file->known && !file->procsub)
				moved.text = make_path(c, dir, file->text);
			w = code_operand_text(c, &moved, in, &text);
		}
		if (w == 0)
			j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s reads a makefile that is not known", name), (int)i));
		if (w == 1)
			j = judgement_max(j, judge_make_text(c, name, text, dir, file ? file->text : NULL, a, n, (int)i));
	}
	/* MAKEFILES: makefiles make reads before the others, set by the
	 * agent (not the session's own value) */
	bool mk_known;
	const char *mk = cl_env_get(c, "MAKEFILES", &mk_known);
	if (mk && *mk && !cl_env_inherited(c, "MAKEFILES")) {
		if (!mk_known)
			j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s reads MAKEFILES that are not known", name), 0));
		for (const char *q = mk_known ? mk : ""; *q;) {
			q += strspn(q, " \t");
			size_t wl = strcspn(q, " \t");
			if (!wl)
				break;
			struct sarg file = {.text = make_path(c, dir, cl_strndup(c, q, wl)), .known = true};
			const char *text = NULL;
			int w = code_operand_text(c, &file, in, &text);
			if (w == 0)
				j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s reads MAKEFILES that are not known", name), 0));
			if (w == 1)
				j = judgement_max(j, judge_make_text(c, name, text, dir, file.text, a, n, 0));
			q += wl;
		}
	}
	/* Its goals' names still count (policy rule 10), but for make's own dry run. */
	bool dry = dry_run(a, 1, n, "-n|--dry-run|--just-print|--recon");
	for (size_t i = 1; i < n && !dry; i++) {
		const struct sarg *x = &a[i];
		if (x->text[0] == '-' || strchr(x->text, '='))
			continue;
		if (i > 1 && a[i - 1].known &&
		    in_lists("-f|--file|--makefile|-C|--directory|-E|--eval|-I|--include-dir|-o|--old-file|-W|--what-if|"
		             "--new-file|--assume-new|--assume-old|-j|--jobs|-l|--load-average|-O|--output-sync",
		             a[i - 1].text))
			continue;
		if (!x->known) {
			/* make $TARGETS may split into goals (deploy?); a quoted one
			 * is decided when it runs */
			if (x->splits)
				j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s with targets that are not known", name), (int)i));
			continue;
		}
		if (name_says_publish(x->text, true))
			j = judgement_max(j, J(VERDICT_PUBLISH, cl_printf(c, "%s %s: the target's name says it publishes", name,
			                                                   x->text), (int)i));
	}
	/* The makefile make finds by itself (the first of these that exists),
	 * when it is the agent's: written on this line, or since the human
	 * accepted the project. */
	static const char *const defaults[] = {"GNUmakefile", "makefile", "Makefile", NULL};
	for (size_t k = 0; !named && defaults[k]; k++) {
		struct sarg file = {.text = make_path(c, dir, defaults[k]), .known = true};
		const char *text = NULL;
		int w = code_operand_text(c, &file, in, &text);
		if (w == 0)
			j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s reads a %s that is not known", name, file.text), 0));
		if (w == 1)
			j = judgement_max(j, judge_make_text(c, name, text, dir, defaults[k], a, n, 0));
		struct stat st;
		if (w >= 0 || lstat(file.text, &st) == 0)
			break;
	}
	return j;
}

struct judgement judge_deno(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                            const struct stdin_src *in)
{
	size_t s = skip_options(a, 1, n, NULL);
	if (s >= n)
		return SAFE_J;
	if (kn(&a[s], "eval"))
		return s + 1 < n ? judge_code_arg(c, "deno", &a[s + 1], (int)s + 1) : SAFE_J;
	if (kn(&a[s], "publish"))
		return dry_run(a, s, n, "--dry-run") ? SAFE_J : J(VERDICT_PUBLISH, "deno publish publishes to JSR", (int)s);
	if (kn(&a[s], "run") || kn(&a[s], "x")) {
		size_t k = skip_options(a, s + 1, n, NULL);
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
		return judge_unknown_subcommand(c, "deno", s);
	return SAFE_J;
}

struct judgement judge_php(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                           const struct stdin_src *in)
{
	size_t i = skip_options(a, 1, n, NULL);
	if (i < n && a[i].known && (eq(base_name(a[i].text), "artisan") || eq(base_name(a[i].text), "console")))
		return judge_spec(c, "artisan", &spec_dbtools, a + i, n - i);
	return judge_interp(c, &interp_php, a, n, in);
}

/* Editors run shell commands with :!cmd. */
struct judgement judge_editor(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                              const struct stdin_src *in)
{
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
