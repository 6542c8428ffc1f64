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

static char *running_binary(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0) {
		fprintf(stderr, "sbsh: --shims: cannot find the running sbsh through /proc/self/exe: %s\n",
		        n < 0 ? strerror(errno) : "empty link");
		return NULL;
	}
	buf[n] = '\0';
	/* A binary replaced since it started would make shims that point nowhere. */
	if (access(buf, X_OK) != 0) {
		fprintf(stderr, "sbsh: --shims: %s: %s\n", buf, strerror(errno));
		return NULL;
	}
	return xstrdup(buf);
}

/* True when path is missing or is one of our shims; a real program is
 * never overwritten. */
static bool may_replace(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return errno == ENOENT;
	char line[256];
	bool ours = false;
	for (int i = 0; i < 3 && fgets(line, sizeof line, f); i++)
		if (strncmp(line, shim_marker, sizeof shim_marker - 1) == 0)
			ours = true;
	fclose(f);
	return ours;
}

static int write_shim(const char *dir, const char *name, const char *script)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *tmp = xasprintf("%s/.%s.sbsh-shim.%ld", dir, name, (long)getpid());
	int rc = 1;
	if (!may_replace(path)) {
		fprintf(stderr, "sbsh: --shims: %s exists and is not an sbsh shim; not replacing it\n",
		        path);
		goto out;
	}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (fd < 0) {
		fprintf(stderr, "sbsh: --shims: %s: %s\n", tmp, strerror(errno));
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
		fprintf(stderr, "sbsh: --shims: cannot write %s: %s\n", path, strerror(saved));
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
	char *sbsh = running_binary();
	if (!sbsh) {
		free(real_dir);
		return 1;
	}
	struct strbuf script;
	strbuf_init(&script);
	strbuf_addf(&script, "#!/bin/sh\n%s\n# Runs sbsh wherever a tool runs `bash` or `sh` by name.\nexec ",
	            shim_marker);
	strbuf_add_single_quoted(&script, sbsh, strlen(sbsh));
	strbuf_adds(&script, " \"$@\"\n");

	int rc = write_shim(real_dir, "bash", script.data);
	if (rc == 0)
		rc = write_shim(real_dir, "sh", script.data);
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
	strbuf_free(&script);
	free(sbsh);
	free(real_dir);
	return rc;
}
