/* The git config reader and the table of keys that run programs
 * (lib/gitconfig.c): git's syntax, and the verdicts both sides take from it. */
#include <criterion/criterion.h>

#include <string.h>

#include "lib/gitconfig.h"
#include "lib/util.h"

/* Every entry as "section|subsection|key|value|begin-end" lines. */
static bool show_entry(const struct gitconfig_entry *e, void *ctx)
{
	strbuf_addf(ctx, "%s|%s|%s|%s|%zu-%zu\n", e->section, e->subsection ? e->subsection : "-", e->key,
	            e->value ? e->value : "(none)", e->begin, e->end);
	return true;
}

static char *entries_of(const char *text, int *rc, size_t *bad_at)
{
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_adds(&sb, "");
	*bad_at = (size_t)-1;
	*rc = gitconfig_parse(text, strlen(text), show_entry, &sb, bad_at);
	return strbuf_detach(&sb);
}

static void expect_entries(const char *text, const char *want)
{
	int rc;
	size_t bad;
	char *got = entries_of(text, &rc, &bad);
	cr_expect_eq(rc, 0, "parse of %s failed at %zu", text, bad);
	cr_expect_str_eq(got, want, "for:\n%s\ngot:\n%s", text, got);
	free(got);
}

Test(gitconfig, sections_keys_and_case)
{
	expect_entries("[Core]\n\tPager = less\n[remote \"Origin\"]\n\tURL = x\n[Remote.Up]\nmirror\n",
	               "core|-|pager|less|8-21\n"
	               "remote|Origin|url|x|40-48\n"
	               "remote|up|mirror|(none)|60-67\n");
}

Test(gitconfig, values_as_git_decodes_them)
{
	expect_entries("[a]\nk = \"x  y\" # note\n", "a|-|k|x  y|4-22\n");
	expect_entries("[a]\nk =  one   two  \n", "a|-|k|one   two|4-21\n");
	expect_entries("[a]\nk = one; two\n", "a|-|k|one|4-17\n");
	expect_entries("[a]\nk = \"one; two\"\n", "a|-|k|one; two|4-19\n");
	expect_entries("[a]\nk = a\\tb\\\\c\\\"\n", "a|-|k|a\tb\\c\"|4-18\n");
	/* a backslash at the end of a line: the value goes on, and what
	 * looks like a section there is part of it */
	expect_entries("[a]\nk = one \\\n[core] pager = x\n", "a|-|k|one [core] pager = x|4-31\n");
	expect_entries("[a]\r\nk = v\r\n", "a|-|k|v|5-12\n");
	expect_entries("\xef\xbb\xbf[a]\nk\n", "a|-|k|(none)|7-9\n");
	expect_entries("[a \"sub \\\"q\\\"\"]\nk = v", "a|sub \"q\"|k|v|16-21\n");
	/* a key before any section is one git never looks up */
	expect_entries("k = v\n[a]\nj = w\n", "a|-|j|w|10-16\n");
}

static void expect_error(const char *text, size_t want_at)
{
	int rc;
	size_t bad;
	char *got = entries_of(text, &rc, &bad);
	cr_expect_eq(rc, -1, "%s parsed", text);
	cr_expect_eq(bad, want_at, "error of %s at %zu, not %zu", text, bad, want_at);
	free(got);
}

Test(gitconfig, syntax_errors)
{
	expect_error("[a]\nk = \"open\n", 4);
	expect_error("[a]\nk = bad\\q\n", 4);
	expect_error("[a\n", 0);
	expect_error("[a]\n=v\n", 4);
	expect_error("[a \"x\" ]\n", 0);
	expect_error("[a]\nk v\n", 4);
	/* entries before the error are reported */
	int rc;
	size_t bad;
	char *got = entries_of("[a]\nk = 1\n%\n", &rc, &bad);
	cr_expect_eq(rc, -1);
	cr_expect_str_eq(got, "a|-|k|1|4-10\n");
	free(got);
}

Test(gitconfig, values_of_a_key)
{
	struct strvec v;
	strvec_init(&v);
	const char *text = "[submodule \"a\"]\npath = lib\n[submodule \"b\"]\n\tPath = \"vendor/x\"\n[core]\nhooksPath\n";
	gitconfig_values(text, strlen(text), "submodule", "path", &v);
	gitconfig_values(text, strlen(text), "core", "hookspath", &v);
	cr_assert_eq(v.len, 3);
	cr_expect_str_eq(v.items[0], "lib");
	cr_expect_str_eq(v.items[1], "vendor/x");
	cr_expect_str_eq(v.items[2], "true");
	strvec_free(&v);
}

/* The keys the warden strips from a new submodule's config are the keys
 * the classifier judges: one table. */
Test(gitconfig, keys_that_run_programs)
{
	static const char *const runs[] = {
		"core.sshCommand", "core.alternateRefsCommand", "imap.tunnel", "core.fsmonitor", "core.pager",
		"core.editor", "sequence.editor", "diff.external", "diff.x.textconv", "diff.x.command",
		"merge.x.driver", "filter.lfs.smudge", "filter.x.process", "interactive.diffFilter",
		"uploadpack.packObjectsHook", "remote.origin.uploadpack", "remote.origin.receivepack",
		"gc.recentObjectsHook", "credential.helper", "credential.https://x.helper", "gpg.program",
		"gpg.ssh.program", "pager.log", "hook.lint.command", "sendemail.sendmailCmd", "difftool.x.cmd",
		"mergetool.x.path", "man.viewer", "browser.x.cmd", "web.browser", "core.gitProxy",
		"core.askPass",
	};
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
		cr_expect_eq(gitconfig_name_effect(runs[i]), GITCONFIG_RUNS, "%s", runs[i]);
	cr_expect_eq(gitconfig_name_effect("core.hooksPath"), GITCONFIG_ELSEWHERE);
	cr_expect_eq(gitconfig_name_effect("include.path"), GITCONFIG_ELSEWHERE);
	cr_expect_eq(gitconfig_name_effect("includeIf.gitdir:~/w/.path"), GITCONFIG_ELSEWHERE);
	cr_expect_eq(gitconfig_name_effect("protocol.ext.allow"), GITCONFIG_PROTOCOL);
	cr_expect_eq(gitconfig_name_effect("alias.st"), GITCONFIG_RUNS_BANG);
	cr_expect_eq(gitconfig_name_effect("submodule.lib.update"), GITCONFIG_RUNS_BANG);
	static const char *const plain[] = {"user.name", "core.bare", "remote.origin.url", "push.default",
	                                    "submodule.lib.path", "diff.tool", "nothing"};
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
		cr_expect_eq(gitconfig_name_effect(plain[i]), GITCONFIG_PLAIN, "%s", plain[i]);
	cr_expect(gitconfig_entry_runs("alias", NULL, "st", "!sh"));
	cr_expect(!gitconfig_entry_runs("alias", NULL, "co", "checkout"));
	cr_expect(!gitconfig_entry_runs("submodule", "lib", "update", "rebase"));
	cr_expect(gitconfig_entry_runs("core", NULL, "fsmonitor", NULL));
}
