/* Inline code that builds the names it calls or the text it runs (issue
 * 18): string literals are first joined as the language joins them
 * ("r" "m", "un" + "link", "rm" . "dir", "\x72m"), so the delete calls and
 * commands the rules look for show; what is still computed, a function
 * reached by a name that is not a literal, code evaluated from a value,
 * text decoded or assembled and then run, cannot be decided: ASK. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hooks/rules/internal.h"
#include "lib/util.h"

/* ---- string literals --------------------------------------------------- */

static bool ident_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static int hex_value(char ch)
{
	return hex_digit_value((unsigned char)ch);
}

/* The literal starting at p (after an optional prefix of string letters:
 * r, b, u, f): its value in *val, where it ends in *end, whether it holds
 * an interpolation in *computed. False when p starts no literal. */
static bool literal_at(const char *code, const char *p, struct strbuf *val, const char **end, bool *computed)
{
	const char *q = p;
	bool raw = false, fstring = false;
	bool after_name = p > code && ident_char(p[-1]);
	while (!after_name && q - p < 2 && *q && strchr("rRbBuUfF", *q)) {
		raw = raw || *q == 'r' || *q == 'R';
		fstring = fstring || *q == 'f' || *q == 'F';
		q++;
	}
	if (*q != '\'' && *q != '"' && *q != '`')
		return false;
	if (after_name && *q == '\'')
		return false; /* an apostrophe in a word (don't, it's) */
	char quote = *q;
	bool triple = q[1] == quote && q[2] == quote;
	q += triple ? 3 : 1;
	*computed = false;
	while (*q) {
		if (triple ? (q[0] == quote && q[1] == quote && q[2] == quote) : *q == quote)
			break;
		if ((fstring && *q == '{') || (quote == '`' && q[0] == '$' && q[1] == '{') ||
		    (quote == '"' && q[0] == '#' && q[1] == '{') ||
		    (quote == '"' && q[0] == '$' && (isalpha((unsigned char)q[1]) || q[1] == '{' || q[1] == '_')))
			*computed = true;
		if (*q == '\\' && q[1] && !raw) {
			q++;
			int h1, h2;
			if (*q == 'x' && (h1 = hex_value(q[1])) >= 0 && (h2 = hex_value(q[2])) >= 0) {
				strbuf_addc(val, (char)(h1 * 16 + h2));
				q += 3;
			} else if (*q == 'u' && hex_value(q[1]) >= 0 && hex_value(q[2]) >= 0 && hex_value(q[3]) >= 0 &&
			           hex_value(q[4]) >= 0) {
				unsigned cp = 0;
				for (int k = 1; k <= 4; k++)
					cp = cp * 16 + (unsigned)hex_value(q[k]);
				strbuf_addc(val, cp < 0x80 ? (char)cp : '?');
				q += 5;
			} else if (*q >= '0' && *q <= '7') {
				unsigned v = 0;
				for (int k = 0; k < 3 && *q >= '0' && *q <= '7'; k++, q++)
					v = v * 8 + (unsigned)(*q - '0');
				strbuf_addc(val, (char)v);
			} else {
				strbuf_addc(val, *q == 'n' ? '\n' : *q == 't' ? '\t' : *q);
				q++;
			}
			continue;
		}
		strbuf_addc(val, *q++);
	}
	*end = *q ? q + (triple ? 3 : 1) : q;
	return true;
}

/* After the literal that ends at p: the start of another one joined to it
 * (juxtaposed, or by +, ., .., <<), else NULL. */
static const char *joined_literal(const char *code, const char *p)
{
	const char *q = p;
	while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\\')
		q++;
	const char *op = q;
	if (q[0] == '.' && q[1] == '.')
		q += 2;
	else if (*q == '+' || *q == '.')
		q++;
	else if (q[0] == '<' && q[1] == '<')
		q += 2;
	if (q != op)
		while (*q == ' ' || *q == '\t' || *q == '\n')
			q++;
	struct strbuf probe;
	strbuf_init(&probe);
	const char *end;
	bool computed;
	bool lit = literal_at(code, q, &probe, &end, &computed);
	strbuf_free(&probe);
	return lit ? q : NULL; /* "a" + b: only literals are joined */
}

static void add_folded(struct strbuf *out, const char *s, size_t n)
{
	strbuf_addc(out, '"');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"' || s[i] == '\\')
			strbuf_addc(out, '\\');
		strbuf_addc(out, s[i] ? s[i] : ' ');
	}
	strbuf_addc(out, '"');
}

/* Perl's quote operators, q(...), qq{...} and qw/a b c/: one literal, or
 * a list of them. Returns where the operator ends, or NULL. */
static const char *perl_quote(const char *code, const char *p, struct strbuf *out)
{
	if ((p > code && ident_char(p[-1])) || p[0] != 'q')
		return NULL;
	bool words = p[1] == 'w';
	const char *d = p + (p[1] == 'w' || p[1] == 'q' ? 2 : 1);
	while (*d == ' ')
		d++;
	if (!*d || ident_char(*d) || *d == ',' || *d == ';' || *d == '=' || *d == ')' || *d == ' ')
		return NULL;
	const char *open = "([{<", *close = ")]}>";
	const char *which = strchr(open, *d);
	char end = which ? close[which - open] : *d;
	const char *e = strchr(d + 1, end);
	if (!e)
		return NULL;
	if (!words) {
		add_folded(out, d + 1, (size_t)(e - d - 1));
		return e + 1;
	}
	bool first = true;
	for (const char *w = d + 1; w < e;) {
		while (w < e && isspace((unsigned char)*w))
			w++;
		const char *we = w;
		while (we < e && !isspace((unsigned char)*we))
			we++;
		if (we > w) {
			if (!first)
				strbuf_adds(out, ", ");
			add_folded(out, w, (size_t)(we - w));
			first = false;
		}
		w = we;
	}
	return e + 1;
}

const char *code_fold(struct cctx *c, const char *code)
{
	struct strbuf out;
	strbuf_init(&out);
	for (const char *p = code; *p;) {
		const char *after = perl_quote(code, p, &out);
		if (after) {
			p = after;
			continue;
		}
		struct strbuf val;
		strbuf_init(&val);
		const char *end;
		bool computed = false, any = false;
		const char *at = p;
		while (literal_at(code, at, &val, &end, &computed)) {
			any = true;
			const char *next = joined_literal(code, end);
			p = end;
			if (!next)
				break;
			at = next;
		}
		if (!any) {
			strbuf_addc(&out, *p++);
			strbuf_free(&val);
			continue;
		}
		add_folded(&out, val.data ? val.data : "", val.len);
		strbuf_free(&val);
	}
	const char *folded = cl_strndup(c, out.data ? out.data : "", out.len);
	strbuf_free(&out);
	return folded;
}

/* ---- what the code computes ------------------------------------------- */

/* Calls and subscripts that reach a function, a module or code by a value:
 * which argument names it (1, 2; 0 for the subscript that follows), in
 * which languages (NULL: any). */
struct reach {
	const char *text;
	int arg;
	const char *langs;
};

static const struct reach reaches[] = {
	{"getattr(", 2, "py"}, {"__import__(", 1, "py"}, {"import_module(", 1, "py"}, {"attrgetter(", 1, "py"},
	{"methodcaller(", 1, "py"}, {"vars(", 0, "py"}, {"globals()", 0, "py"}, {"locals()", 0, "py"},
	{"__dict__", 0, "py"}, {"__builtins__", 0, "py"}, {"exec(", 1, "py"}, {"eval(", 1, "py js rb php"},
	{"compile(", 1, "py"}, {"Reflect.get(", 2, "js"}, {"Reflect.apply(", 1, "js"}, {"Function(", 1, "js"},
	{"runInThisContext(", 1, "js"}, {"runInNewContext(", 1, "js"}, {"require(", 1, "js lua"},
	{"import(", 1, "js"}, {"send(", 1, "rb"}, {"public_send(", 1, "rb"}, {"__send__(", 1, "rb"},
	{"method(", 1, "rb"}, {"const_get(", 1, "rb"}, {"instance_eval(", 1, "rb"}, {"class_eval(", 1, "rb"},
	{"module_eval(", 1, "rb"}, {"call_user_func(", 1, "php"}, {"call_user_func_array(", 1, "php"},
	{"create_function(", 1, "php"}, {"loadstring(", 1, "lua"}, {"load(", 1, "lua"}, {"dofile(", 1, "lua"},
	{"->can(", 1, "pl"}, {"_G[", 0, "lua"}, {"os[", 0, "lua"}, {"io[", 0, "lua"}, {"fs[", 0, "js"},
	{"fsp[", 0, "js"}, {"promises[", 0, "js"}, {"child_process[", 0, "js"}, {"process[", 0, "js"},
	{"globalThis[", 0, "js"}, {"Deno[", 0, "js"}, {"Bun[", 0, "js"},
};

/* Functions that delete, as code names them in a string. */
static const char delete_names[] =
	"unlink|remove|rmtree|rmdir|removedirs|rmSync|unlinkSync|rmdirSync|rm|rm_rf|rm_r|rm_f|remove_dir|"
	"remove_entry|remove_entry_secure|delete|remove_file|remove_dir_all|RemoveAll|emptyDirSync";

/* Text assembled or decoded, which a program may then run or call. */
static const char *const builders[] = {
	"chr(", "fromCharCode", "fromCodePoint", "fromhex", "b64decode", "base64", "atob(", "unhexlify",
	"a2b_", "codecs.", "rot13", "rot_13", "[::-1]", "reversed(", ".reverse(", "join(", "sprintf", "pack(",
	"hex2bin", "Buffer.from(", "unescape(", "decodeURI", ".replace(", ".translate(", "zlib", "decompress",
	"marshal.", "pickle.", "%c", ".format(", "String.raw", "gsub(", ".tr(", "f\"{", "f'{", "`${", "\"#{",
	"\"$", NULL,
};

/* The family of an interpreter's name: py, js, rb, pl, php, lua, or "". */
static const char *lang_family(const char *lang)
{
	if (starts(lang, "python") || starts(lang, "pypy"))
		return "py";
	if (starts(lang, "node") || eq(lang, "deno") || eq(lang, "bun") || eq(lang, "js"))
		return "js";
	if (contains(lang, "ruby"))
		return "rb";
	if (starts(lang, "perl"))
		return "pl";
	if (starts(lang, "php"))
		return "php";
	if (starts(lang, "lua"))
		return "lua";
	return "";
}

static bool family_in(const char *family, const char *langs)
{
	if (!langs)
		return true;
	size_t fl = strlen(family);
	for (const char *p = langs; fl && (p = strstr(p, family)) != NULL; p += fl)
		if ((p == langs || p[-1] == ' ') && (p[fl] == ' ' || !p[fl]))
			return true;
	return false;
}

/* Where the argument'th argument of the call whose "(" is at open
 * starts, or NULL. */
static const char *call_arg(const char *open, int argument)
{
	int depth = 0, index = 1;
	for (const char *p = open + 1; *p; p++) {
		if (index == argument && depth == 0) {
			while (*p == ' ' || *p == '\t' || *p == '\n')
				p++;
			return p;
		}
		if (*p == '"') { /* folded literals have only \" and \\ escapes */
			for (p++; *p && *p != '"'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				return NULL;
			continue;
		}
		if (*p == '(' || *p == '[' || *p == '{')
			depth++;
		else if (*p == ')' || *p == ']' || *p == '}') {
			if (depth-- == 0)
				return NULL;
		} else if (*p == ',' && depth == 0)
			index++;
	}
	return NULL;
}

/* The literal at p (folded), when the whole argument is one: a string, or
 * a Ruby symbol. */
static const char *whole_literal(struct cctx *c, const char *p)
{
	const char *start, *end;
	if (*p == ':' && (isalpha((unsigned char)p[1]) || p[1] == '_')) {
		start = p + 1;
		for (end = start; ident_char(*end); end++)
			;
	} else if (*p == '"') {
		start = p + 1;
		for (end = start; *end && *end != '"'; end++)
			if (*end == '\\' && end[1])
				end++;
		if (*end != '"')
			return NULL;
	} else {
		return NULL;
	}
	const char *after = *end == '"' ? end + 1 : end;
	while (*after == ' ' || *after == '\t')
		after++;
	if (*after != ',' && *after != ')' && *after != ']' && *after != '}')
		return NULL;
	return cl_strndup(c, start, (size_t)(end - start));
}


static bool line_builds(const char *from, const char *to)
{
	for (size_t i = 0; builders[i]; i++) {
		const char *t = builders[i];
		size_t tl = strlen(t);
		for (const char *p = from; p + tl <= to; p++)
			if (strncmp(p, t, tl) == 0)
				return true;
	}
	return false;
}

/* Whether a call that runs a command is given text the code assembles or
 * decodes: a builder on the call's own line, or on the line that sets the
 * variable it is given. Lines, not the whole file: a script may join
 * strings in one place and run git in another. */
static bool runs_built_text(struct cctx *c, const char *code, const char *const *runs, const char *family)
{
	for (size_t i = 0; runs[i]; i++) {
		const char *t = runs[i];
		if (eq(family, "js") && (t[0] == '`' || starts(t, "$`")))
			continue;
		for (const char *p = strstr(code, t); p; p = strstr(p + 1, t)) {
			if (isalpha((unsigned char)t[0]) && p > code && ident_char(p[-1]))
				continue;
			const char *ls = p, *le = p;
			while (ls > code && ls[-1] != '\n' && ls[-1] != ';')
				ls--;
			while (*le && *le != '\n' && *le != ';')
				le++;
			if (line_builds(ls, le))
				return true;
			/* run(cmd): the line that sets cmd */
			const char *open = strchr(p, '(');
			const char *arg = open && open < le ? call_arg(open, 1) : NULL;
			if (arg && *arg == '[')
				arg = NULL;
			size_t len = 0;
			while (arg && (ident_char(arg[len]) || arg[len] == '$'))
				len++;
			if (!len)
				continue;
			const char *name = cl_strndup(c, arg, len);
			for (const char *q = strstr(code, name); q; q = strstr(q + 1, name)) {
				const char *e = q + len;
				while (*e == ' ')
					e++;
				if ((q > code && ident_char(q[-1])) || e[0] != '=' || e[1] == '=')
					continue;
				const char *qe = e;
				while (*qe && *qe != '\n' && *qe != ';')
					qe++;
				if (line_builds(e, qe))
					return true;
			}
		}
	}
	return false;
}

/* Whether the statement from p on reads standard input: code evaluated
 * from there is judged as that input (interp.c), not asked about here. */
static bool reads_stdin(const char *p)
{
	static const char *const readers[] = {"stdin", "STDIN", "<>", "readFileSync(0", "gets", NULL};
	const char *end = p;
	while (*end && *end != '\n' && *end != ';')
		end++;
	for (size_t i = 0; readers[i]; i++) {
		const char *f = strstr(p, readers[i]);
		if (f && f < end)
			return true;
	}
	return false;
}

/* The modules and classes whose functions delete or run commands. */
static const char capable[] = "os|shutil|subprocess|pathlib|posix|builtins|__builtins__|importlib|pty|ctypes|"
                              "FileUtils|File|Dir|Kernel|Object|IO|Process|Open3|Pathname";

/* Whether a reach by a value (not a literal) may get at a delete function:
 * getattr of a capable module or of one imported by a value, send to a
 * capable class; require of a value that is no path of the project. */
static bool reach_may_delete(const char *folded, const char *at, const struct reach *re, const char *arg)
{
	if (eq(re->text, "getattr(")) {
		const char *r = call_arg(at + strlen(re->text) - 1, 1);
		if (!r)
			return true;
		size_t len = 0;
		while (ident_char(r[len]))
			len++;
		const char *after = r + len;
		while (*after == ' ')
			after++;
		return *after == '(' || (*after == ',' && len && in_list(capable, r, len));
	}
	if (eq(re->text, "vars(")) {
		const char *r = at + 5;
		size_t len = 0;
		while (ident_char(r[len]))
			len++;
		return r[len] == ')' && in_list(capable, r, len);
	}
	if (eq(re->text, "__dict__")) {
		/* os.__dict__[n], not self.__dict__[n] */
		if (at == folded || at[-1] != '.')
			return true;
		const char *b = at - 1;
		while (b > folded && ident_char(b[-1]))
			b--;
		return in_list(capable, b, (size_t)(at - 1 - b));
	}
	if (eq(re->text, "send(") || eq(re->text, "public_send(") || eq(re->text, "__send__(")) {
		if (at == folded || at[-1] != '.')
			return true; /* send(:x) to self: Kernel */
		const char *b = at - 1;
		while (b > folded && ident_char(b[-1]))
			b--;
		return in_list(capable, b, (size_t)(at - 1 - b));
	}
	if (eq(re->text, "require("))
		return !starts(arg, "path.") && !starts(arg, "__dirname") && !starts(arg, "\"./") &&
		       !starts(arg, "\"../");
	return true;
}

struct judgement code_computed(struct cctx *c, const char *lang, const char *code, const char *folded,
                               const char *const *runs)
{
	const char *family = lang_family(lang);
	struct judgement ask = SAFE_J;
	for (size_t r = 0; r < sizeof reaches / sizeof *reaches; r++) {
		const struct reach *re = &reaches[r];
		if (!family_in(family, re->langs))
			continue;
		size_t tl = strlen(re->text);
		for (const char *p = strstr(folded, re->text); p; p = strstr(p + 1, re->text)) {
			/* a longer name (thegetattr(), or a method (re.compile(),
			 * json.load()) where the language's own function is meant */
			if (p > folded && (ident_char(p[-1]) || (p[-1] == '.' && re->arg > 0 && !eq(family, "rb") &&
			                                         !starts(re->text, "Reflect"))))
				continue;
			const char *arg;
			if (re->arg > 0) {
				arg = call_arg(p + tl - 1, re->arg);
			} else {
				/* the subscript that follows: vars(os)["unlink"], os["remove"] */
				const char *q = p + tl;
				if (q[-1] == '(') {
					int depth = 1;
					while (*q && depth)
						depth += *q == '(' ? 1 : *q == ')' ? -1 : 0, q++;
				}
				if (q[-1] != '[' && *q != '[')
					continue;
				arg = q[-1] == '[' ? q : q + 1;
			}
			if (!arg || *arg == ')' || reads_stdin(arg))
				continue;
			const char *lit = whole_literal(c, arg);
			if (!lit && !reach_may_delete(folded, p, re, arg))
				continue;
			if (lit && in_lists(delete_names, lit))
				return J(VERDICT_DELETE, cl_printf(c, "%s code reaches %s through %.*s", lang, lit, (int)tl, re->text),
				         -1);
			if (!lit && ask.v == VERDICT_SAFE)
				ask = J(VERDICT_ASK,
				        cl_printf(c, "%s code reaches a function or code by a value (%.*s): cannot be decided", lang,
				                  (int)tl, re->text),
				        -1);
		}
	}
	if (ask.v != VERDICT_SAFE)
		return ask;
	/* PHP's $f(...), Perl's &$f and $obj->$m: a call by a variable */
	for (const char *p = folded; *p; p++) {
		if (eq(family, "php") && p[0] == '$' && (isalpha((unsigned char)p[1]) || p[1] == '_')) {
			const char *q = p + 1;
			while (ident_char(*q))
				q++;
			while (*q == ' ')
				q++;
			if (*q == '(')
				return J(VERDICT_ASK, cl_printf(c, "%s code calls a function by a variable: cannot be decided", lang), -1);
		}
		if (eq(family, "pl") && ((p[0] == '&' && (p[1] == '$' || p[1] == '{')) || (p[0] == '-' && p[1] == '>' && p[2] == '$')))
			return J(VERDICT_ASK, cl_printf(c, "%s code calls a function by a variable: cannot be decided", lang), -1);
	}
	if (eq(family, "pl")) {
		/* a string eval: eval "..." is in the text; eval $x is not */
		for (const char *p = strstr(folded, "eval"); p; p = strstr(p + 1, "eval")) {
			const char *q = p + 4;
			if ((p > folded && ident_char(p[-1])) || ident_char(*q))
				continue;
			while (*q == ' ' || *q == '(')
				q++;
			/* eval $x, eval decode_base64(...): not eval {...}, "...", /re/ */
			if ((*q == '$' || *q == '@' || isalpha((unsigned char)*q)) && !reads_stdin(q))
				return J(VERDICT_ASK, cl_printf(c, "%s code evaluates a string it builds: cannot be decided", lang), -1);
		}
	}
	/* Text assembled or decoded for a command the code runs. */
	if (runs_built_text(c, code, runs, family) || runs_built_text(c, folded, runs, family))
		return J(VERDICT_ASK, cl_printf(c, "%s code builds the text of a command it runs: cannot be decided", lang),
		         -1);
	return SAFE_J;
}
