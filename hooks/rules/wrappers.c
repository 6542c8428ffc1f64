/* Wrappers, whose rest is another command: sudo, env, timeout, xargs,
 * find -exec, fd -x, parallel, watch, gdb --args... (the data-driven ones
 * are struct wrapper rows in table.c). */
#include <stdlib.h>
#include <string.h>

#include "hooks/rules/internal.h"
#include "lib/util.h"

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

struct judgement judge_wrapper(struct cctx *c, const char *name, const struct wrapper *w,
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

/* ---- find ----------------------------------------------------------------------------- */

struct judgement judge_find(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                            const struct stdin_src *in)
{
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
			/* in the expression, or words that may split into one
			 * (find . $FIND_ARGS): -delete, -exec? */
			if ((in_expr || x->splits || x->text[0] == '-') && j.v < VERDICT_ASK)
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
			/* What find runs reads find's own standard input. */
			struct judgement e = judge_rest(c, cl_printf(c, "%s %s runs", name, t), v, m, in, (int)i + 1);
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

/* fd -x/-X CMD: runs CMD for the files found. */
struct judgement judge_fd(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                          const struct stdin_src *in)
{
	int x = find_word(a, 1, n, "-x|--exec|-X|--exec-batch");
	if (x < 0)
		return SAFE_J;
	size_t i = (size_t)x, k = i + 1;
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
	struct judgement j = judge_rest(c, cl_printf(c, "%s %s runs", name, a[i].text), v, m, &none, (int)i + 1);
	free(v);
	return j;
}

/* ---- argv wrappers that need reading --------------------------------------------------- */

static struct judgement judge_env_args(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                       const struct stdin_src *in);

/* env NAME=VALUE... CMD: the assignments are in CMD's environment. */
struct judgement judge_env(struct cctx *c, const char *name, const struct sarg *a, size_t n,
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

struct judgement judge_busybox(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                               const struct stdin_src *in)
{
	if (n < 2 || (a[1].known && a[1].text[0] == '-'))
		return SAFE_J;
	return judge_rest(c, NULL, a + 1, n - 1, in, 1);
}

struct judgement judge_coreutils(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                 const struct stdin_src *in)
{
	for (size_t i = 1; i < n; i++) {
		if (a[i].known && (starts(a[i].text, "--coreutils-prog=") || starts(a[i].text, "--coreutils-prog-shebang="))) {
			return judge_as_command(c, strchr(a[i].text, '=') + 1, a, i, n, in);
		}
	}
	return SAFE_J;
}

struct judgement judge_parallel(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                const struct stdin_src *in)
{
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

struct judgement judge_watch(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                             const struct stdin_src *in)
{
	bool exec = false;
	for (size_t i = 1; i < n && a[i].known && a[i].text[0] == '-'; i++)
		if (eq(a[i].text, "-x") || eq(a[i].text, "--exec") || (a[i].text[1] != '-' && strchr(a[i].text, 'x')))
			exec = true;
	return judge_wrapper(c, name, exec ? &w_watch_argv : &w_watch_text, a, n, in);
}

struct judgement judge_nix(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                           const struct stdin_src *in)
{
	if (eq(name, "nix-shell")) {
		int i = find_word(a, 1, n, "--run|--command");
		if (i >= 0 && (size_t)i + 1 < n)
			return judge_shell_text(c, "nix-shell --run", &a[i + 1], NULL, 0, i + 1);
	} else if (eq(name, "nix")) {
		int i = find_word(a, 1, n, "-c|--command");
		if (i >= 0)
			return judge_rest(c, NULL, a + i + 1, n - (size_t)i - 1, in, i + 1);
	}
	return SAFE_J;
}

/* gdb --args CMD, perf stat|record CMD, hyperfine 'CMD'... */
struct judgement judge_runner_misc(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                   const struct stdin_src *in)
{
	if (eq(name, "gdb") || eq(name, "lldb")) {
		int i = find_word(a, 1, n, "--args|--");
		return i >= 0 ? judge_rest(c, NULL, a + i + 1, n - (size_t)i - 1, in, i + 1) : SAFE_J;
	}
	if (eq(name, "perf")) {
		if (n > 1 && kn(&a[1], "stat"))
			return judge_wrapper(c, name, &w_perf_stat, a, n, in);
		if (n > 1 && kn(&a[1], "record"))
			return judge_wrapper(c, name, &w_perf_record, a, n, in);
		if (n > 1 && kn(&a[1], "trace"))
			return judge_wrapper(c, name, &w_perf_trace, a, n, in);
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
