/* Cloud, deploy and data: aws, gsutil/gcloud/az storage, surge, the
 * database clients (SQL that drops or deletes), HTTP DELETE, restores. */
#include <string.h>
#include <strings.h>

#include "hooks/rules/internal.h"
#include "lib/util.h"

struct judgement judge_surge(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                             const struct stdin_src *in)
{
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

/* ---- cloud storage ------------------------------------------------------------------------ */

struct judgement judge_aws(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                           const struct stdin_src *in)
{
	int idx[16];
	size_t nw = operand_indexes(a, n,
	                            "--profile|--region|--output|--endpoint-url|--query|--color|--ca-bundle|"
	                            "--cli-read-timeout|--cli-connect-timeout|--exclude|--include|--acl|--storage-class|"
	                            "--content-type|--cache-control|--sse|--expires|--metadata|--grants|--page-size|"
	                            "--bucket|--key|--cli-input-json|--cli-input-yaml|--body",
	                            idx, 16);
	if (has_flag(a, 1, n, "--help") || (nw > 0 && a[idx[nw - 1]].known && eq(a[idx[nw - 1]].text, "help")))
		return SAFE_J;
	if (nw < 2)
		return nw == 1 && !a[idx[0]].known && a[idx[0]].splits
		               ? J(VERDICT_ASK, "aws command that is not known before it runs", idx[0])
		               : SAFE_J;
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

struct judgement judge_gsutil(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                              const struct stdin_src *in)
{
	size_t s = skip_options(a, 1, n, "-o|-h|-u|-i");
	if (eq(name, "gcloud") || eq(name, "az")) {
		bool storage = s + 1 < n && kn(&a[s], "storage");
		if (!storage)
			return judge_spec(c, name, &spec_cloud, a, n);
		s++;
		if (eq(name, "az")) {
			/* az storage blob|file|fs ... upload, delete: the last word of
			 * the command before its options says what it does */
			for (size_t k = s; k < n && a[k].known && a[k].text[0] != '-'; k++) {
				if (in_lists("upload|upload-batch|sync", a[k].text))
					return J(VERDICT_PUBLISH, cl_printf(c, "az storage ... %s uploads to a bucket", a[k].text), (int)k);
				if (in_lists("delete|delete-batch|purge", a[k].text))
					return J(VERDICT_DELETE, cl_printf(c, "az storage ... %s deletes stored objects", a[k].text), (int)k);
			}
			return SAFE_J;
		}
	}
	struct judgement none;
	if (no_known_subcommand(c, name, a, s, n, &none))
		return none;
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

struct judgement judge_db(struct cctx *c, const char *name, const struct dbclient *d, const struct sarg *a,
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


/* curl -X DELETE, http DELETE: deletes on an HTTP API. */
struct judgement judge_http(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                            const struct stdin_src *in)
{
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known) {
			/* curl $ARGS: may split into -X DELETE; a method not known */
			bool method = i > 1 && a[i - 1].known && in_lists("-X|--request|--method", a[i - 1].text);
			if (a[i].splits || method || starts(a[i].text, "-X"))
				return J(VERDICT_ASK, cl_printf(c, "%s with a method that is not known (DELETE?)", name), (int)i);
			continue;
		}
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
struct judgement judge_restore(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                               const struct stdin_src *in)
{
	/* Exact spellings only: -Fc is a format, not -c. */
	for (size_t k = 1; k < dashdash(a, 1, n); k++)
		if (arg_is_flag(&a[k], "--clean|-c|--drop", false))
			return J(VERDICT_DELETE, cl_printf(c, "%s %s drops the existing data first", name, a[k].text), (int)k);
	return SAFE_J;
}

struct judgement judge_mysqladmin(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                  const struct stdin_src *in)
{
	int i = find_word(a, 1, n, "drop");
	return i >= 0 ? J(VERDICT_DELETE, cl_printf(c, "%s drop drops a database", name), i) : SAFE_J;
}
