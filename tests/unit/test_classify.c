/* The classifier: rules, disguises, the dynamic pass, git config, and a
 * micro-benchmark that prints (never asserts) the cost per command line. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hooks/classify.h"
#include "shell/parser.h"

const char *rules_table_check(void);

static struct classifier *new_classifier(void)
{
	struct classify_env env = {.no_git_config = true};
	return classifier_create(&env);
}

static enum verdict judge(const char *text)
{
	struct classifier *cl = new_classifier();
	struct classify_result res;
	classify_result_init(&res);
	char *err = NULL;
	int rc = classify_text(cl, text, strlen(text), &res, &err);
	enum verdict v = res.verdict;
	if (rc != 0)
		v = VERDICT_ASK;
	free(err);
	classify_result_free(&res);
	classifier_destroy(cl);
	return v;
}

#define expect(text, v) cr_expect_eq(judge(text), (v), "%s: got %s, want %s", (text), verdict_name(judge(text)), verdict_name(v))

Test(classify, table_sorted)
{
	const char *bad = rules_table_check();
	cr_assert_null(bad, "rules/table.c tools[] must be sorted by name for bsearch, with one way to judge "
	                    "each row: see %s", bad);
}

static enum verdict judge_with_rule(const char *rule, const char *text)
{
	struct classifier *cl = new_classifier();
	char *why = NULL;
	cr_assert_eq(classifier_add_rule(cl, rule, &why), 0, "%s: %s", rule, why ? why : "");
	struct classify_result res;
	classify_result_init(&res);
	char *err = NULL;
	enum verdict v = classify_text(cl, text, strlen(text), &res, &err) == 0 ? res.verdict : VERDICT_ASK;
	free(err);
	classify_result_free(&res);
	classifier_destroy(cl);
	return v;
}

/* The config file's rules match operands as the built-in spec rules do. */
Test(classify, user_rules)
{
	cr_expect_eq(judge_with_rule("DELETE make clean", "make -k clean"), VERDICT_DELETE);
	cr_expect_eq(judge_with_rule("DELETE make clean", "make -- clean"), VERDICT_DELETE);
	cr_expect_eq(judge_with_rule("DELETE make clean", "make build clean"), VERDICT_SAFE);
	/* an operand not known before it runs does not match (nor ask) */
	cr_expect_eq(judge_with_rule("DELETE make clean", "make \"$x\""), VERDICT_SAFE);
	cr_expect_eq(judge_with_rule("PUBLISH /usr/bin/make bump* x", "make bumpver x"), VERDICT_PUBLISH);
	cr_expect_eq(judge_with_rule("PUBLISH make bump* x", "make bumpver y"), VERDICT_SAFE);
	cr_expect_eq(judge_with_rule("ASK np?", "npx eslint"), VERDICT_ASK);
	cr_expect_eq(judge_with_rule("ASK make", "sudo make"), VERDICT_ASK);
	cr_expect_eq(judge_with_rule("ASK rm", "rm x"), VERDICT_DELETE); /* never lowers */
	char *why = NULL;
	cr_expect_neq(classifier_add_rule(NULL, "SAFE rm", &why), 0);
	free(why);
}

Test(classify, verdict_names)
{
	cr_expect_str_eq(verdict_name(VERDICT_SAFE), "SAFE");
	cr_expect_str_eq(verdict_name(VERDICT_FORCE_PUSH), "FORCE_PUSH");
	cr_expect(VERDICT_ESCAPE > VERDICT_FORCE_PUSH && VERDICT_FORCE_PUSH > VERDICT_PUBLISH &&
	          VERDICT_PUBLISH > VERDICT_DELETE && VERDICT_DELETE > VERDICT_ASK && VERDICT_ASK > VERDICT_SAFE);
}

Test(classify, safe_everyday)
{
	const char *safe[] = {
		"ls -la", "git status", "git commit -m 'rm -rf x'", "make -j8", "npm test", "npm run build",
		"cargo build", "pytest -x", "grep -rn 'git push --force' .", "echo 'npm publish'", "cp a b",
		"mv -f a b", "sed -i s/a/b/ f", "truncate -s 0 log", "dd if=/dev/zero of=disk.img count=1",
		"git push origin main", "git fetch --prune", "git branch -d old", "git restore --staged x",
		"git rm --cached x", "git clean -n", "npm publish --dry-run", "cargo publish --dry-run",
		"docker build -t x .", "kubectl get pods", "terraform plan", "ls \"$dir\"", "cat <<'EOF'\nrm -rf /\nEOF",
		"python3 -c 'print(1)'", "node -e 'console.log(1)'", "command -v rm", "which rm", "rm --help",
		"git push --help", "pnpm deploy out", "cargo yank --help", "sudo -l", "psql -c 'select 1'",
		"redis-cli get k", "gh pr create --fill", "yarn add lodash", "pip uninstall -y x",
	};
	for (size_t i = 0; i < sizeof safe / sizeof safe[0]; i++)
		expect(safe[i], VERDICT_SAFE);
}

Test(classify, deletes)
{
	const char *del[] = {
		"rm x", "rm -rf build", "rmdir d", "unlink f", "shred -u f", "find . -delete",
		"find . -exec rm {} +", "git clean -fdx", "git reset --hard", "git checkout -- .", "git stash drop",
		"git branch -D x", "git tag -d v1", "git rm f", "git gc --prune=now", "git restore f",
		"git switch --discard-changes main", "git reflog expire --all", "docker volume rm v",
		"kubectl delete pod p", "terraform destroy", "aws s3 rm s3://b/k", "dropdb app",
		"psql -c 'DROP TABLE t'", "redis-cli FLUSHALL", "mongosh --eval 'db.dropDatabase()'",
		"dd if=x of=/dev/sda", "echo x > /dev/nvme0n1", "mkfs.ext4 /dev/sdb1", "wipefs -a /dev/sdb",
		"rsync -a --delete a/ b/", "python3 -c 'import shutil; shutil.rmtree(\"x\")'",
		"perl -e 'unlink \"x\"'", "cmake -E rm -rf build", "gh repo delete a/b --yes",
	};
	for (size_t i = 0; i < sizeof del / sizeof del[0]; i++)
		expect(del[i], VERDICT_DELETE);
}

Test(classify, publish_and_push)
{
	expect("npm publish", VERDICT_PUBLISH);
	expect("npm publish --dry-run --no-dry-run", VERDICT_PUBLISH);
	expect("npm publish -- --dry-run", VERDICT_PUBLISH);
	expect("pnpm -r publish", VERDICT_PUBLISH);
	expect("yarn npm publish", VERDICT_PUBLISH);
	expect("cargo publish", VERDICT_PUBLISH);
	expect("twine upload dist/*", VERDICT_PUBLISH);
	expect("python -m twine upload dist/*", VERDICT_PUBLISH);
	expect("docker push x/y:1", VERDICT_PUBLISH);
	expect("gh release create v1", VERDICT_PUBLISH);
	expect("mvn -B deploy", VERDICT_PUBLISH);
	expect("./gradlew :lib:publish", VERDICT_PUBLISH);
	expect("./gradlew publishToMavenLocal", VERDICT_SAFE);
	expect("npm run deploy", VERDICT_PUBLISH);
	expect("npm run release", VERDICT_SAFE);
	expect("git push -f", VERDICT_FORCE_PUSH);
	expect("git push -uf origin x", VERDICT_FORCE_PUSH);
	expect("git push origin +main", VERDICT_FORCE_PUSH);
	expect("git push origin :old", VERDICT_FORCE_PUSH);
	expect("git push --mirror", VERDICT_FORCE_PUSH);
	expect("git push --force --dry-run", VERDICT_SAFE);
	expect("git -c remote.origin.mirror=true push", VERDICT_FORCE_PUSH);
	expect("git -c push.default=current push", VERDICT_SAFE);
	expect("git push origin \"$b\"", VERDICT_ASK);
}

Test(classify, escape)
{
	expect("escape ls", VERDICT_ESCAPE);
	expect("echo escape", VERDICT_SAFE);
	expect("systemd-run --user make", VERDICT_ESCAPE);
	expect("tmux send-keys -t 0 'rm -rf x' Enter", VERDICT_ESCAPE);
	expect("tmux ls", VERDICT_SAFE);
	expect("docker run --privileged alpine", VERDICT_ESCAPE);
	expect("docker run -v /:/host alpine", VERDICT_ESCAPE);
	expect("docker run -v \"$PWD\":/src node npm test", VERDICT_SAFE);
	expect("ssh localhost make", VERDICT_ESCAPE);
	expect("at now -f job.sh", VERDICT_ESCAPE);
}

Test(classify, disguises)
{
	expect("\\rm x", VERDICT_DELETE);
	expect("'r'm x", VERDICT_DELETE);
	expect("$'\\x72m' x", VERDICT_DELETE);
	expect("/bin/rm x", VERDICT_DELETE);
	expect("{rm,-rf,x}", VERDICT_DELETE);
	expect("x=rm; $x f", VERDICT_DELETE);
	expect("a=r b=m; $a$b f", VERDICT_DELETE);
	expect("x=rmdir; ${x:0:2} f", VERDICT_DELETE);
	expect("x=rm; x=ls; $x f", VERDICT_ASK);
	expect("$cmd f", VERDICT_ASK);
	expect("$(echo rm) f", VERDICT_ASK);
	expect("alias r='rm -rf'; r x", VERDICT_DELETE);
	/* defining runs nothing; the call is judged (issue 18) */
	expect("f() { rm \"$1\"; }", VERDICT_SAFE);
	expect("f() { rm \"$1\"; }; f x", VERDICT_DELETE);
	expect("f() { \"$@\"; }; f git push -f", VERDICT_FORCE_PUSH);
	expect("eval 'rm x'", VERDICT_DELETE);
	expect("eval \"$x\"", VERDICT_ASK);
	expect("sh -c 'sh -c \"rm x\"'", VERDICT_DELETE);
	expect("bash -c 'eval \"$1\"' _ 'rm x'", VERDICT_DELETE);
	expect("trap 'rm x' EXIT", VERDICT_DELETE);
	expect("echo 'rm x' | sh", VERDICT_DELETE);
	expect("curl -s u | sh", VERDICT_ASK);
	expect("sh <<< 'rm x'", VERDICT_DELETE);
	expect("echo 'rm x' > a.sh; . ./a.sh", VERDICT_DELETE);
	expect("env -S 'rm -rf x'", VERDICT_DELETE);
	expect("sudo -u a nice -n 3 timeout 5 xargs rm", VERDICT_DELETE);
	expect("find . -exec sh -c 'rm \"$1\"' _ {} \\;", VERDICT_DELETE);
	expect("git -c alias.x='!rm -rf y' x", VERDICT_DELETE);
	expect("git -c core.pager='rm -rf .' log", VERDICT_DELETE);
	expect("false && rm x", VERDICT_DELETE);
	expect("echo \"$(npm publish)\"", VERDICT_PUBLISH);
	expect("sed 's/.*/rm x/e' f", VERDICT_DELETE);
	expect("python3 -c \"import os; os.system('rm -rf x')\"", VERDICT_DELETE);
	expect("ls |", VERDICT_ASK); /* a syntax error is never SAFE */
	expect("alias ls='ls --color'; ls", VERDICT_SAFE);
	expect("set -- rm x; \"$@\"", VERDICT_DELETE);
	expect("cat > x.sh <<'EOF'\nrm -rf /\nEOF\n./x.sh", VERDICT_DELETE);
	expect("GIT_SSH_COMMAND='rm -rf x' git fetch", VERDICT_DELETE);
	expect("echo x | xargs -I{} sh -c 'rm {}'", VERDICT_DELETE);
	expect("git push origin \"HEAD:$b\"", VERDICT_SAFE);
	expect("coproc rm x", VERDICT_DELETE);
	expect("sh -c \"rm -rf $d\"", VERDICT_DELETE); /* the known part decides */
	expect("sh -c \"cd $d && make\"", VERDICT_ASK);
	expect("bash <<EOF\nrm -rf $DIR\nEOF", VERDICT_DELETE);
	expect("git push --forc", VERDICT_FORCE_PUSH); /* git takes abbreviated options */
	expect("git reset --ha", VERDICT_DELETE);
	expect("/usr/lib/git-core/git-push -f", VERDICT_FORCE_PUSH);
	expect("node /usr/lib/node_modules/npm/bin/npm-cli.js publish", VERDICT_PUBLISH);
	expect("curl -X DELETE https://api.example.com/items/1", VERDICT_DELETE);
	expect("pg_restore -Fc -d app dump", VERDICT_SAFE);
}

/* Inline code: literals as the language joins them; names and text it
 * computes ask. */
Test(classify, code_builds_names)
{
	expect("python3 -c 'import os; os.system(\"\\x72m -rf x\")'", VERDICT_DELETE);
	expect("python3 -c 'import os; os.system(\"\"\"r\"\"\" \"m -rf x\")'", VERDICT_DELETE);
	expect("python3 -c 'import os; getattr(os, \"rem\" \"ove\")(\"x\")'", VERDICT_DELETE);
	expect("python3 -c 'import os; getattr(os, n)(\"x\")'", VERDICT_ASK);
	expect("python3 -c 'x = chr(114) + chr(109); import os; os.system(x + \" -rf d\")'", VERDICT_ASK);
	expect("python3 -c 'import re; print(re.compile(p).match(s))'", VERDICT_SAFE);
	expect("python3 -c 'print(self.__dict__[k])'", VERDICT_SAFE);
	expect("node -e 'require(path.join(__dirname, m))'", VERDICT_SAFE);
	expect("node -e 'require(m)'", VERDICT_ASK);
	expect("ruby -e 'obj.send(m)'", VERDICT_SAFE);
	expect("ruby -e 'FileUtils.send(m, \"d\")'", VERDICT_ASK);
	expect("awk '{ $0 | getline x }' f", VERDICT_ASK);
	expect("awk '{ \"date\" | getline x }' f", VERDICT_SAFE);
}

Test(classify, dynamic_argv)
{
	struct classifier *cl = new_classifier();
	struct classify_result res;
	classify_result_init(&res);
	char *ls[] = {"./ls", "-rf", "x", NULL};
	cr_expect_eq(classify_argv(cl, ls, "/usr/bin/rm", CLASSIFY_PROGRAM, &res), VERDICT_DELETE);
	char *f[] = {"rm", "x", NULL};
	cr_expect_eq(classify_argv(cl, f, NULL, CLASSIFY_FUNCTION, &res), VERDICT_SAFE);
	char *sh[] = {"sh", "-c", "git push --force", NULL};
	cr_expect_eq(classify_argv(cl, sh, "/bin/dash", CLASSIFY_PROGRAM, &res), VERDICT_FORCE_PUSH);
	char *ev[] = {"eval", "npm", "publish", NULL};
	cr_expect_eq(classify_argv(cl, ev, NULL, CLASSIFY_BUILTIN, &res), VERDICT_PUBLISH);
	char *esc[] = {"escape", "make", NULL};
	cr_expect_eq(classify_argv(cl, esc, NULL, CLASSIFY_BUILTIN, &res), VERDICT_ESCAPE);
	char *npm[] = {"npm", "publish", NULL};
	cr_expect_eq(classify_argv(cl, npm, "/usr/lib/node_modules/npm/bin/npm-cli.js", CLASSIFY_PROGRAM, &res),
	             VERDICT_PUBLISH, "a launcher script is judged by argv[0] too");
	char *bb[] = {"rm", "x", NULL};
	cr_expect_eq(classify_argv(cl, bb, "/bin/busybox", CLASSIFY_PROGRAM, &res), VERDICT_DELETE,
	             "a multicall binary is judged by argv[0] too");
	char *ok[] = {"git", "status", NULL};
	cr_expect_eq(classify_argv(cl, ok, "/usr/bin/git", CLASSIFY_PROGRAM, &res), VERDICT_SAFE);
	cr_expect_eq(res.verdict, VERDICT_ESCAPE);
	cr_expect_eq(res.nitems >= 6, true);
	classify_result_free(&res);
	classifier_destroy(cl);
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
}

Test(classify, git_config_aliases_and_mirror)
{
	char dir[] = "/tmp/sbsh-classify-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof path, "%s/.git", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/.git/config", dir);
	write_file(path, "[core]\n\tbare = false\n[alias]\n\tnuke = reset --hard\n\tpf = push --force\n"
	                 "\tsh = \"!rm -rf build\"\n");
	struct classify_env env = {.home = dir, .xdg_config_home = dir, .cwd = dir};
	struct classifier *cl = classifier_create(&env);
	const char *cases[][2] = {{"git nuke", "DELETE"}, {"git pf origin", "FORCE_PUSH"}, {"git sh", "DELETE"},
	                          {"git status", "SAFE"}, {"git push", "SAFE"}};
	for (size_t i = 0; i < 5; i++) {
		struct classify_result res;
		classify_result_init(&res);
		classify_text(cl, cases[i][0], strlen(cases[i][0]), &res, NULL);
		cr_expect_str_eq(verdict_name(res.verdict), cases[i][1], "%s", cases[i][0]);
		classify_result_free(&res);
	}
	/* A changed file is read again (cache by mtime and size). */
	write_file(path, "[remote \"origin\"]\n\turl = x\n\tmirror = true\n");
	struct timespec ts[2] = {{0, UTIME_NOW}, {time(NULL) + 5, 0}};
	utimensat(AT_FDCWD, path, ts, 0);
	struct classify_result res;
	classify_result_init(&res);
	classify_text(cl, "git push", 8, &res, NULL);
	cr_expect_eq(res.verdict, VERDICT_FORCE_PUSH);
	classify_result_free(&res);
	classifier_destroy(cl);
	unlink(path);
	snprintf(path, sizeof path, "%s/.git", dir);
	rmdir(path);
	rmdir(dir);
}

/* A copy of from at to, with a byte appended or one patched at patch_at
 * (-1: neither), executable. */
static void copy_program(const char *from, const char *to, bool append, long patch_at)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	cr_assert(in && out, "%s -> %s", from, to);
	char buf[65536];
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, in)) > 0)
		cr_assert_eq(fwrite(buf, 1, got, out), got);
	if (append)
		fputc('x', out);
	if (patch_at >= 0) {
		fseek(out, patch_at, SEEK_SET);
		fputc(0x5a, out);
	}
	fclose(in);
	fclose(out);
	chmod(to, 0755);
}

static enum verdict judge_program(struct classifier *cl, const char *dir, const char *file, char **argv)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	struct classify_result res;
	classify_result_init(&res);
	enum verdict v = classify_argv(cl, argv, path, CLASSIFY_PROGRAM, &res);
	classify_result_free(&res);
	return v;
}

/* Policy rule 8: what a program in a writable folder is, by its bytes and
 * its #! line; one outside them is what its name says. */
Test(classify, program_identity)
{
	char dir[] = "/tmp/sbsh-identity-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char *writable[] = {dir, NULL};
	struct classifier *cl = new_classifier();
	classifier_set_writable(cl, writable);
	char path[512];
	const char *files[] = {"cleanup", "appended", "patched", "x.sh", "env.sh", "lister", "built"};
	snprintf(path, sizeof path, "%s/cleanup", dir);
	copy_program("/usr/bin/rm", path, false, -1);
	snprintf(path, sizeof path, "%s/appended", dir);
	copy_program("/usr/bin/rm", path, true, -1);
	snprintf(path, sizeof path, "%s/patched", dir);
	copy_program("/usr/bin/rm", path, false, 20000);
	snprintf(path, sizeof path, "%s/x.sh", dir);
	write_file(path, "#!/bin/rm -rf\n");
	snprintf(path, sizeof path, "%s/env.sh", dir);
	write_file(path, "#!/usr/bin/env -S rm -rf\n");
	snprintf(path, sizeof path, "%s/lister", dir);
	copy_program("/usr/bin/ls", path, false, -1);
	snprintf(path, sizeof path, "%s/built", dir); /* no tool the rules know: a build product */
	copy_program("/usr/bin/true", path, false, -1);

	char *cleanup[] = {"./cleanup", "-rf", "data", NULL};
	cr_expect_eq(judge_program(cl, dir, "cleanup", cleanup), VERDICT_DELETE, "a copy of rm is rm");
	char *appended[] = {"appended", "data", NULL};
	cr_expect_eq(judge_program(cl, dir, "appended", appended), VERDICT_DELETE, "bytes after the ELF's end");
	char *patched[] = {"patched", "data", NULL};
	cr_expect_eq(judge_program(cl, dir, "patched", patched), VERDICT_DELETE, "a block patched");
	char *script[] = {"./x.sh", "data", NULL};
	cr_expect_eq(judge_program(cl, dir, "x.sh", script), VERDICT_DELETE, "#!/bin/rm -rf");
	char *env[] = {"./env.sh", "data", NULL};
	cr_expect_eq(judge_program(cl, dir, "env.sh", env), VERDICT_DELETE, "#!/usr/bin/env -S rm -rf");
	char *lister[] = {"./lister", "-la", NULL};
	cr_expect_eq(judge_program(cl, dir, "lister", lister), VERDICT_SAFE, "a copy of ls is ls");
	char *built[] = {"./built", "--port", "80", NULL};
	cr_expect_eq(judge_program(cl, dir, "built", built), VERDICT_SAFE, "a build product runs");
	char *shaped[] = {"./built", "-rf", dir, NULL};
	cr_expect_eq(judge_program(cl, dir, "built", shaped), VERDICT_ASK, "an unknown binary called as rm is");
	/* found on PATH inside a command: env, with a PATH naming the folder */
	snprintf(path, sizeof path, "%s/ls", dir);
	copy_program("/usr/bin/rm", path, false, -1);
	snprintf(path, sizeof path, "PATH=%s:/usr/bin", dir);
	char *wrapped[] = {"env", path, "ls", "-rf", "data", NULL};
	struct classify_result res;
	classify_result_init(&res);
	cr_expect_eq(classify_argv(cl, wrapped, "/usr/bin/env", CLASSIFY_PROGRAM, &res), VERDICT_DELETE,
	             "a copy of rm named ls first on env's PATH");
	classify_result_free(&res);

	/* Outside the writable folders a program is not read. */
	char *elsewhere[] = {"/nonexistent-root", NULL};
	classifier_set_writable(cl, elsewhere);
	cr_expect_eq(judge_program(cl, dir, "cleanup", cleanup), VERDICT_SAFE);
	classifier_destroy(cl);
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/ls", dir);
	unlink(path);
	rmdir(dir);
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Prints the cost; a timing assertion would only make CI flaky. */
Test(classify, benchmark)
{
	const char *lines[] = {
		"git status",
		"git diff --stat HEAD~1",
		"npm test -- --watch=false",
		"make -j8 && ./build/sbsh --version",
		"grep -rn 'TODO' src/ | head -20",
		"cd packages/core && npm run build",
		"git add -A && git commit -m 'parser: handle heredocs'",
		"python3 -m pytest -x -k parser tests/",
		"find . -name '*.o' -exec rm {} +",
		"for f in src/*.c; do clang-format -i \"$f\"; done",
		"cargo build --release 2>&1 | tail -n 50",
		"git push -u origin feature/parser",
	};
	size_t nlines = sizeof lines / sizeof lines[0];
	struct classifier *cl = new_classifier();
	struct node *progs[16];
	struct parser_options opts = {0};
	opts.first_line = 1;
	for (size_t i = 0; i < nlines; i++) {
		struct parse_error err = {0};
		cr_assert_eq(parse_program(lines[i], strlen(lines[i]), &opts, &progs[i], &err), 0, "%s", lines[i]);
	}
	const int rounds = 3000;
	double t0 = now_us();
	for (int r = 0; r < rounds; r++) {
		for (size_t i = 0; i < nlines; i++) {
			struct classify_result res;
			classify_result_init(&res);
			classify_static(cl, progs[i], &res);
			classify_result_free(&res);
		}
	}
	double static_us = (now_us() - t0) / (rounds * (double)nlines);
	t0 = now_us();
	for (int r = 0; r < rounds; r++) {
		for (size_t i = 0; i < nlines; i++) {
			struct classify_result res;
			classify_result_init(&res);
			classify_text(cl, lines[i], strlen(lines[i]), &res, NULL);
			classify_result_free(&res);
		}
	}
	double text_us = (now_us() - t0) / (rounds * (double)nlines);
	char *argv[] = {"git", "commit", "-m", "x", NULL};
	t0 = now_us();
	for (int r = 0; r < rounds * 10; r++) {
		struct classify_result res;
		classify_result_init(&res);
		classify_argv(cl, argv, "/usr/bin/git", CLASSIFY_PROGRAM, &res);
		classify_result_free(&res);
	}
	double argv_us = (now_us() - t0) / (rounds * 10.0);
	fprintf(stderr,
	        "classify benchmark: %.2f us per typical command line (static pass on the AST), "
	        "%.2f us with parsing, %.2f us per dynamic argv check\n",
	        static_us, text_us, argv_us);
	for (size_t i = 0; i < nlines; i++)
		ast_node_free(progs[i]);
	classifier_destroy(cl);
}
