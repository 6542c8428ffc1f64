/* Files and disks: rm and its kind, rsync --delete, writes to a block
 * device, mkfs and partitioners, sed (whose e command runs text). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hooks/rules/internal.h"
#include "lib/util.h"

/* sed: s///e and the e command execute text. */
static struct judgement judge_sed_script(struct cctx *c, const struct sarg *s, int at)
{
	/* A script not known may hold the e command, which runs text; a
	 * substitution whose pattern is a value is taken as one. */
	if (!s->known)
		return s->text[0] == 's' && s->text[1] && !isalnum((unsigned char)s->text[1]) && !s->splits
		               ? SAFE_J
		               : J(VERDICT_ASK, "sed with a script that is not known (its e command runs text)", at);
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

struct judgement judge_sed(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                           const struct stdin_src *in)
{
	struct judgement j = SAFE_J;
	bool had_e = false;
	int script_at = -1;
	for (size_t i = 1; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known) {
			if (script_at < 0 && !had_e && (x->splits || x->text[0] != '-'))
				script_at = (int)i; /* sed "$SCRIPT" file, sed $ARGS file */
			continue;
		}
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
		} else if (eq(t, "-f") || eq(t, "--file") || starts(t, "--file=") || (starts(t, "-f") && t[2])) {
			/* a script file: the agent's is read as -e text (its e
			 * command, w and s///e run commands); the human's is opaque */
			had_e = true;
			struct sarg inline_file = {.text = t[1] == 'f' ? t + 2 : strchr(t, '=') ? strchr(t, '=') + 1 : NULL,
			                           .known = true};
			const struct sarg *file = inline_file.text && *inline_file.text ? &inline_file : i + 1 < n ? &a[++i] : NULL;
			const char *text = NULL;
			int w = file ? code_operand_text(c, file, in, &text) : -1;
			if (w == 0)
				j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s script that is not known", name), (int)i));
			if (w == 1) {
				struct sarg s = {.text = text, .known = true};
				j = judgement_max(j, judge_sed_script(c, &s, (int)i));
			}
		} else if (eq(t, "-l")) {
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

struct judgement judge_rm_like(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                               const struct stdin_src *in)
{
	if (find_word(a, 1, dashdash(a, 1, n), "--help|--version") >= 0)
		return SAFE_J;
	if (eq(name, "trash-empty") && has_flag(a, 1, n, "--dry-run"))
		return SAFE_J;
	return J(VERDICT_DELETE, cl_printf(c, "%s deletes files", name), 0);
}

/* Built code runs as the project's (./a.out, target/debug/app --port 80),
 * but an unknown binary called with rm's recursive or forcing options and
 * a file that exists may be rm changed past telling (policy rule 8). */
struct judgement rules_judge_unknown_binary(struct cctx *c, const struct sarg *a, size_t n)
{
	int shaped = -1;
	bool existing = false;
	size_t end = dashdash(a, 1, n);
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known)
			continue;
		const char *t = a[i].text;
		if (i < end && t[0] == '-' && t[1]) {
			/* -r, -R, -rf, -fR, -Rfv ...: a cluster of rm's letters with r */
			bool cluster = t[1] != '-' && strspn(t + 1, "rRfdivI") == strlen(t + 1) && strpbrk(t + 1, "rR");
			if (cluster || eq(t, "--recursive") || eq(t, "--force") || eq(t, "--no-preserve-root"))
				shaped = shaped < 0 ? (int)i : shaped;
			continue;
		}
		struct stat st;
		if (i >= end || t[0] != '-')
			existing = existing || lstat(t, &st) == 0;
	}
	if (shaped < 0 || !existing)
		return SAFE_J;
	return J(VERDICT_ASK,
	         cl_printf(c, "%s is an unknown program in a folder the sandbox can write, called the way rm is (%s)",
	                   a[0].text, a[shaped].text),
	         shaped);
}

struct judgement judge_rsync(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                             const struct stdin_src *in)
{
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

/* Archivers that delete what they pack (zip -m, 7z -sdel, rar m or -df),
 * and zip's -TT, a command it runs to test the archive. */
struct judgement judge_archiver(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                const struct stdin_src *in)
{
	bool zip = eq(name, "zip");
	if (eq(name, "rar") && n > 1 && kn(&a[1], "m"))
		return J(VERDICT_DELETE, "rar m moves the files into the archive", 1);
	for (size_t i = 1; i < dashdash(a, 1, n); i++) {
		const char *t = a[i].text;
		if (!a[i].known) {
			if (a[i].splits)
				return J(VERDICT_ASK, cl_printf(c, "%s with options that are not known", name), (int)i);
			continue;
		}
		if (zip && (eq(t, "-TT") || starts(t, "--unzip-command")) ) {
			struct sarg v = {.text = strchr(t, '=') ? strchr(t, '=') + 1 : "", .known = true, .word = a[i].word};
			const struct sarg *cmd = strchr(t, '=') ? &v : i + 1 < n ? &a[i + 1] : NULL;
			if (cmd)
				return judge_shell_text(c, "zip -TT", cmd, NULL, 0, (int)i);
		}
		if ((zip && (eq(t, "--move") || (t[0] == '-' && t[1] != '-' && t[1] != 'T' && strchr(t, 'm')))) ||
		    (!zip && (eq(t, "-sdel") || eq(t, "-df"))))
			return J(VERDICT_DELETE, cl_printf(c, "%s %s deletes the files it packs", name, t), (int)i);
		if (zip && in_lists("-b|-n|-t|-tt|-x|-i|-P|-O|--temp-path|--suffixes|--from-date|--before-date|--exclude|"
		                    "--include|--password|--output-file", t))
			i++; /* its value */
	}
	return SAFE_J;
}

/* cp, install, tee, dd, cat >: a write is not a delete, unless the target is a disk. */
struct judgement judge_writer(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                              const struct stdin_src *in)
{
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known) {
			/* dd of=$DEV, dd $ARGS: a disk? */
			if (eq(name, "dd") && (a[i].splits || starts(a[i].text, "of=")))
				return J(VERDICT_ASK, "dd with an output that is not known (a disk?)", (int)i);
			continue;
		}
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

struct judgement judge_disk(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                            const struct stdin_src *in)
{
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
		if (has_flag(a, 1, n, "-l|--list") || find_word(a, 1, n, "print|p") >= 0)
			return SAFE_J;
	}
	if (in_lists("zfs|zpool", name)) {
		int i = find_word(a, 1, n, "destroy|labelclear");
		return i >= 0 ? J(VERDICT_DELETE, cl_printf(c, "%s destroy deletes a dataset", name), i) : SAFE_J;
	}
	if (eq(name, "cryptsetup")) {
		int i = find_word(a, 1, n, "luksFormat|erase|luksErase|reencrypt|luksKillSlot|format");
		return i >= 0 ? J(VERDICT_DELETE, cl_printf(c, "cryptsetup %s destroys data", a[i].text), i) : SAFE_J;
	}
	if (eq(name, "hdparm")) {
		for (size_t i = 1; i < n; i++)
			if (a[i].known && (starts(a[i].text, "--security-erase") || starts(a[i].text, "--trim-sector") ||
			                   starts(a[i].text, "--write-sector")))
				return J(VERDICT_DELETE, "hdparm erases a disk", (int)i);
		return SAFE_J;
	}
	if (eq(name, "nvme")) {
		int i = find_word(a, 1, n, "format|sanitize|delete-ns|write-zeroes");
		return i >= 0 ? J(VERDICT_DELETE, cl_printf(c, "nvme %s erases a disk", a[i].text), i) : SAFE_J;
	}
	return J(VERDICT_DELETE, cl_printf(c, "%s erases a disk or filesystem", name), 0);
}

struct judgement judge_cmake(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                             const struct stdin_src *in)
{
	for (size_t i = 1; i + 1 < n; i++)
		if (kn(&a[i], "-E") && a[i + 1].known &&
		    in_lists("rm|remove|remove_directory|rmdir", a[i + 1].text))
			return J(VERDICT_DELETE, cl_printf(c, "cmake -E %s deletes files", a[i + 1].text), (int)i + 1);
	return SAFE_J;
}

/* ---- tar and rg: options that delete or run a command ----------------------------------- */

/* A tar option value that tar hands to a shell or runs as a program. */
static struct judgement tar_command(struct cctx *c, const char *opt, const struct sarg *v, int at)
{
	if (!v)
		return SAFE_J;
	return judge_shell_text(c, cl_printf(c, "tar %s", opt), v, NULL, 0, at);
}

static struct judgement judge_tar_args(struct cctx *c, const struct sarg *a, size_t n)
{
	const char *runs_long = "--to-command|--use-compress-program|--info-script|--new-volume-script";
	const char *short_val = "bCfFgHIKLNTVX"; /* letters that take an argument */
	struct judgement j = SAFE_J;
	size_t i = 1;
	/* Old style (tar cIf zstd x.tar): each letter that takes an argument
	 * takes the next word, in order. */
	if (n > 1 && a[1].known && a[1].text[0] != '-' && a[1].text[0]) {
		size_t next = 2;
		for (const char *p = a[1].text; *p; p++) {
			if (!strchr(short_val, *p))
				continue;
			const struct sarg *v = next < n ? &a[next] : NULL;
			if (*p == 'I' || *p == 'F')
				j = judgement_max(j, tar_command(c, *p == 'I' ? "-I" : "-F", v, (int)next));
			next++;
		}
		i = next;
	}
	for (; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known) {
			if (j.v < VERDICT_ASK)
				j = J(VERDICT_ASK, "tar with an option that is not known before it runs", (int)i);
			continue;
		}
		const char *t = x->text;
		if (eq(t, "--"))
			break;
		if (t[0] != '-' || !t[1])
			continue;
		if (t[1] == '-') {
			size_t len = strcspn(t, "=");
			const struct sarg *v = NULL;
			struct sarg tmp = {.text = t + len + 1, .known = true, .word = x->word};
			if (t[len])
				v = &tmp;
			if (long_abbrev_of(t, len, "--remove-files")) {
				j = judgement_max(j, J(VERDICT_DELETE, "tar --remove-files deletes the files it archives", (int)i));
			} else if (long_abbrev_of(t, len, "--recursive-unlink") && len > 4) {
				/* extracting a folder empties the folder there first */
				j = judgement_max(j, J(VERDICT_DELETE, "tar --recursive-unlink removes folders before extracting",
				                       (int)i));
			} else if (long_abbrev_of(t, len, runs_long) && !long_abbrev_of(t, len, "--to-stdout")) {
				if (!v && i + 1 < n)
					v = &a[++i];
				j = judgement_max(j, tar_command(c, cl_strndup(c, t, len), v, (int)i));
			} else if (long_abbrev_of(t, len, "--checkpoint-action") && v) {
				/* exec=CMD runs CMD at each checkpoint. */
				if (starts(v->text, "exec=")) {
					struct sarg cmd = {.text = v->text + 5, .known = true, .word = x->word};
					j = judgement_max(j, tar_command(c, "--checkpoint-action=exec", &cmd, (int)i));
				}
			}
			continue;
		}
		for (const char *p = t + 1; *p; p++) {
			if (!strchr(short_val, *p))
				continue;
			struct sarg tmp = {.text = p + 1, .known = true, .word = x->word};
			const struct sarg *v = p[1] ? &tmp : (i + 1 < n ? &a[i + 1] : NULL);
			if (!p[1])
				i++;
			if (*p == 'I' || *p == 'F')
				j = judgement_max(j, tar_command(c, *p == 'I' ? "-I" : "-F", v, (int)i));
			break;
		}
	}
	return j;
}

struct judgement judge_tar(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                           const struct stdin_src *in)
{
	(void)in;
	struct judgement j = judge_tar_args(c, a, n);
	/* GNU tar reads more options from TAR_OPTIONS, before its own. */
	bool known;
	const char *env = cl_env_get(c, "TAR_OPTIONS", &known);
	if (!env || cl_env_inherited(c, "TAR_OPTIONS"))
		return j;
	if (!known)
		return judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s takes options from TAR_OPTIONS, not known before it runs",
		                                                 name), 0));
	struct sarg *v = xcalloc(strlen(env) / 2 + 2, sizeof *v);
	size_t m = 0;
	v[m++] = a[0];
	char *copy = cl_strdup(c, env);
	char *save = NULL;
	for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
		v[m++] = (struct sarg){.text = w, .known = true};
	struct judgement e = judge_tar_args(c, v, m);
	free(v);
	if (e.v != VERDICT_SAFE) {
		e.reason = cl_printf(c, "TAR_OPTIONS: %s", e.reason ? e.reason : "");
		e.at = 0;
	}
	return judgement_max(j, e);
}

/* rg --pre CMD runs CMD with each file searched as its operand. */
struct judgement judge_rg(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                          const struct stdin_src *in)
{
	const struct sarg *pre = NULL;
	int at = -1, unknown = -1;
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known) {
			/* rg $RGARGS: may split into --pre CMD */
			if (unknown < 0 && (a[i].splits || starts(a[i].text, "--pr")))
				unknown = (int)i;
			continue;
		}
		const char *t = a[i].text;
		if (eq(t, "--"))
			break;
		if (eq(t, "--no-pre")) {
			pre = NULL;
		} else if (eq(t, "--pre") && i + 1 < n) {
			pre = &a[++i];
			at = (int)i;
		} else if (starts(t, "--pre=")) {
			struct sarg *v = cl_alloc(c, sizeof *v);
			*v = a[i];
			v->text = t + 6;
			pre = v;
			at = (int)i;
		}
	}
	/* a config file rg reads may hold --pre too */
	bool known;
	if (cl_env_get(c, "RIPGREP_CONFIG_PATH", &known) && !cl_env_inherited(c, "RIPGREP_CONFIG_PATH"))
		return J(VERDICT_ASK, cl_printf(c, "%s reads options (maybe --pre) from RIPGREP_CONFIG_PATH", name), 0);
	if (pre && !pre->known)
		return J(VERDICT_ASK, cl_printf(c, "%s --pre runs a program that is not known before it runs", name), at);
	if ((!pre || !pre->text[0]) && unknown >= 0)
		return J(VERDICT_ASK, cl_printf(c, "%s with options that are not known (--pre?)", name), unknown);
	if (!pre || !pre->text[0])
		return SAFE_J;
	struct sarg v[2] = {*pre, {.text = "file", .known = true, .word = pre->word}};
	struct judgement j = judge_rest(c, cl_printf(c, "%s --pre runs it on every file:", name), v, 2, in, at);
	return j;
}
