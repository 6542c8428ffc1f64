/* Shim scripts for tools that run `bash` or `sh` by name: put first on PATH,
 * they hand the same arguments to sbsh, so the command still runs sandboxed
 * and classified. */
#include "frontend/shims.h"

#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The line that tells our own shims from a real bash someone put there:
 * only files carrying it are ever replaced. */
static const char shim_marker[] = "# sbsh shim: written by `sbsh --shims`";

static char *running_binary(const char *who)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0) {
		if (who)
			fprintf(stderr, "sbsh: %s: cannot find the running sbsh through /proc/self/exe: %s\n", who,
			        n < 0 ? strerror(errno) : "empty link");
		return NULL;
	}
	buf[n] = '\0';
	/* A binary replaced since it started would make shims that point nowhere. */
	if (access(buf, X_OK) != 0) {
		if (who)
			fprintf(stderr, "sbsh: %s: %s: %s\n", who, buf, strerror(errno));
		return NULL;
	}
	return xstrdup(buf);
}

bool shims_is_ours(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	char line[256];
	bool ours = false;
	for (int i = 0; i < 3 && fgets(line, sizeof line, f); i++)
		if (strncmp(line, shim_marker, sizeof shim_marker - 1) == 0)
			ours = true;
	fclose(f);
	return ours;
}

/* True when path is missing or is one of our shims; a real program is
 * never overwritten. */
static bool may_replace(const char *path)
{
	return access(path, F_OK) != 0 ? errno == ENOENT : shims_is_ours(path);
}

static char *shim_text(const char *who, bool posix)
{
	char *sbsh = running_binary(who);
	if (!sbsh)
		return NULL;
	struct strbuf script;
	strbuf_init(&script);
	strbuf_addf(&script, "#!/bin/sh\n%s\n# Runs sbsh wherever a tool runs `bash` or `sh` by name.\nexec ",
	            shim_marker);
	strbuf_add_single_quoted(&script, sbsh, strlen(sbsh));
	/* Run as sh, a shell is in POSIX mode, as bash is (and dash always) */
	strbuf_adds(&script, posix ? " --posix \"$@\"\n" : " \"$@\"\n");
	free(sbsh);
	return strbuf_detach(&script);
}

char *shims_script(const char *who)
{
	return shim_text(who, false);
}

char *shims_sh_script(const char *who)
{
	return shim_text(who, true);
}

int shims_write(const char *dir, const char *name, const char *script, const char *who)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *tmp = xasprintf("%s/.%s.sbsh-shim.%ld", dir, name, (long)getpid());
	int rc = 1;
	if (!may_replace(path)) {
		fprintf(stderr, "sbsh: %s: %s exists and is not an sbsh shim; not replacing it\n", who,
		        path);
		goto out;
	}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (fd < 0) {
		fprintf(stderr, "sbsh: %s: %s: %s\n", who, tmp, strerror(errno));
		goto out;
	}
	size_t len = strlen(script);
	bool ok = write(fd, script, len) == (ssize_t)len;
	int saved = errno;
	/* the umask must not leave a shim nobody can run */
	if (ok && fchmod(fd, 0755) != 0) {
		ok = false;
		saved = errno;
	}
	if (close(fd) != 0 && ok) {
		ok = false;
		saved = errno;
	}
	if (ok && rename(tmp, path) != 0) {
		ok = false;
		saved = errno;
	}
	if (!ok) {
		fprintf(stderr, "sbsh: %s: cannot write %s: %s\n", who, path, strerror(saved));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(tmp);
	free(path);
	return rc;
}

int shims_main(const char *dir)
{
	if (!dir || !*dir) {
		fprintf(stderr, "sbsh: usage: sbsh --shims DIR\n");
		return 2;
	}
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "sbsh: --shims: cannot create %s: %s\n", dir, strerror(errno));
		return 1;
	}
	char *real_dir = realpath(dir, NULL);
	if (!real_dir) {
		fprintf(stderr, "sbsh: --shims: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	char *script = shims_script("--shims");
	if (!script) {
		free(real_dir);
		return 1;
	}
	char *sh_script = shims_sh_script("--shims");
	int rc = sh_script ? shims_write(real_dir, "bash", script, "--shims") : 1;
	if (rc == 0)
		rc = shims_write(real_dir, "sh", sh_script, "--shims");
	free(sh_script);
	if (rc == 0) {
		/* stdout is an eval-able line: eval "$(sbsh --shims DIR)" */
		struct strbuf line;
		strbuf_init(&line);
		strbuf_adds(&line, "export PATH=");
		strbuf_add_single_quoted(&line, real_dir, strlen(real_dir));
		strbuf_adds(&line, "\":$PATH\"\n");
		fputs(line.data, stdout);
		strbuf_free(&line);
		if (fflush(stdout) != 0)
			rc = 1;
	}
	free(script);
	free(real_dir);
	return rc;
}
