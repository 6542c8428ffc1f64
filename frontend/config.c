/* sbsh's config file: read before anything else at startup, and rewritten
 * one key at a time by `sbsh --config`. */
#include "frontend/config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend/startup.h"
#include "hooks/classify.h"
#include "sandbox/sandbox.h"
#include "trusted/baseline.h"
#include "lib/util.h"

char *config_file_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && *xdg == '/')
		return xasprintf("%s/sbsh/config", xdg);
	const char *home = getenv("HOME");
	if (home && *home)
		return xasprintf("%s/.config/sbsh/config", home);
	return NULL;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

static int parse_sandbox_mode(const char *v, enum sandbox_mode *mode)
{
	if (strcmp(v, "on") == 0 || strcmp(v, "required") == 0)
		*mode = SANDBOX_REQUIRED;
	else if (strcmp(v, "off") == 0)
		*mode = SANDBOX_OFF;
	else if (strcmp(v, "auto") == 0)
		*mode = SANDBOX_AUTO;
	else
		return -1;
	return 0;
}

/* The config file is `key = value` lines; `#` starts a comment. A line we
 * cannot read is an error naming the file and line: a typo must not quietly
 * turn a required sandbox into an optional one. */
int config_read(struct startup *st, const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : (fprintf(stderr, "sbsh: %s: %s\n", path, strerror(errno)), -1);
	char line[4096];
	unsigned lineno = 0;
	int rc = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		char *s = trim(line);
		if (*s == '\0' || *s == '#')
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			fprintf(stderr, "sbsh: %s:%u: expected `key = value'\n", path, lineno);
			rc = -1;
			break;
		}
		*eq = '\0';
		char *key = trim(s), *value = trim(eq + 1);
		if (strcmp(key, "sandbox") == 0) {
			if (parse_sandbox_mode(value, &st->sandbox.mode) != 0) {
				fprintf(stderr, "sbsh: %s:%u: sandbox must be on, off or auto\n", path, lineno);
				rc = -1;
				break;
			}
		} else if (strcmp(key, "network") == 0 || strcmp(key, "net") == 0) {
			if (sandbox_parse_net(&st->sandbox, value) != 0) {
				fprintf(stderr, "sbsh: %s:%u: network must be on, off or allow:PORT|HOST[:PORT][,...]\n",
				        path, lineno);
				rc = -1;
				break;
			}
		} else if (strcmp(key, "allow-write") == 0) {
			if (*value != '/') {
				fprintf(stderr, "sbsh: %s:%u: allow-write needs an absolute path\n", path, lineno);
				rc = -1;
				break;
			}
			strvec_push(&st->sandbox.extra_write, value);
		} else if (strcmp(key, "hide") == 0 || strcmp(key, "unhide") == 0) {
			const char *bad = sandbox_check_hide_path(value);
			if (bad) {
				fprintf(stderr, "sbsh: %s:%u: %s %s\n", path, lineno, key, bad);
				rc = -1;
				break;
			}
			strvec_push_owned(&st->sandbox.hide_rules, xasprintf("%c%s", key[0], value));
		} else if (strcmp(key, "allow-socket") == 0) {
			/* a unix socket outside the writable folders that sandboxed
			 * programs may still reach (the supervisor's list) */
			if (*value != '/') {
				fprintf(stderr, "sbsh: %s:%u: allow-socket needs an absolute path\n", path, lineno);
				rc = -1;
				break;
			}
			strvec_push(&st->allow_sockets, value);
		} else if (strcmp(key, "approval-timeout") == 0) {
			char *end;
			long t = strtol(value, &end, 10);
			if (*value == '\0' || *end || t < 1 || t > 86400) {
				fprintf(stderr, "sbsh: %s:%u: approval-timeout must be a number of seconds\n",
				        path, lineno);
				rc = -1;
				break;
			}
			st->broker.timeout_s = (unsigned)t;
		} else if (strcmp(key, "protect") == 0) {
			if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0) {
				fprintf(stderr, "sbsh: %s:%u: protect must be on or off\n", path, lineno);
				rc = -1;
				break;
			}
			st->no_protect = strcmp(value, "off") == 0;
		} else if (strcmp(key, "checkpoints") == 0) {
			if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0) {
				fprintf(stderr, "sbsh: %s:%u: checkpoints must be on or off\n", path, lineno);
				rc = -1;
				break;
			}
			st->no_checkpoints = strcmp(value, "off") == 0;
		} else if (strcmp(key, "checkpoint-keep-sessions") == 0 || strcmp(key, "checkpoint-keep-mb") == 0) {
			char *end;
			long t = strtol(value, &end, 10);
			if (*value == '\0' || *end || t < 1 || t > 1000000) {
				fprintf(stderr, "sbsh: %s:%u: %s must be a number from 1 to 1000000\n", path, lineno, key);
				rc = -1;
				break;
			}
			if (strcmp(key, "checkpoint-keep-sessions") == 0)
				st->keep_sessions = (unsigned)t;
			else
				st->keep_mib = (unsigned)t;
		} else if (strcmp(key, "keeper-idle") == 0) {
			char *end;
			long t = strtol(value, &end, 10);
			if (*value == '\0' || *end || t < 1 || t > 86400L * 30) {
				fprintf(stderr, "sbsh: %s:%u: keeper-idle must be a number of seconds\n", path, lineno);
				rc = -1;
				break;
			}
			st->keeper_idle_s = (unsigned)t;
		} else if (strcmp(key, "protect-path") == 0) {
			if (protect_check_extra(value) != 0) {
				fprintf(stderr, "sbsh: %s:%u: protect-path must be a path inside the project, "
				        "relative to its top (no `..')\n", path, lineno);
				rc = -1;
				break;
			}
			strvec_push(&st->protect_extra, value);
		} else if (strcmp(key, "classify") == 0) {
			char *why = NULL;
			if (classifier_add_rule(NULL, value, &why) != 0) {
				fprintf(stderr, "sbsh: %s:%u: classify: %s\n", path, lineno, why);
				free(why);
				rc = -1;
				break;
			}
			strvec_push(&st->classify_rules, value);
		} else {
			/* Keys of later features are accepted so old shells read new files. */
			continue;
		}
	}
	fclose(f);
	return rc;
}

/* `sbsh --config set-KEY VALUE`: rewrites that key's line, keeping the rest. */
static int config_set(const char *path, const char *key, const char *value)
{
	if (!path) {
		fprintf(stderr, "sbsh: --config: neither XDG_CONFIG_HOME nor HOME is set\n");
		return 1;
	}
	struct strbuf out;
	strbuf_init(&out);
	bool replaced = false;
	FILE *f = fopen(path, "re");
	if (f) {
		char line[4096];
		while (fgets(line, sizeof line, f)) {
			char copy[4096];
			snprintf(copy, sizeof copy, "%s", line);
			char *s = trim(copy);
			char *eq = strchr(s, '=');
			if (eq && *s != '#') {
				*eq = '\0';
				if (strcmp(trim(s), key) == 0) {
					if (!replaced)
						strbuf_addf(&out, "%s = %s\n", key, value);
					replaced = true;
					continue;
				}
			}
			strbuf_adds(&out, line);
			if (out.len && out.data[out.len - 1] != '\n')
				strbuf_addc(&out, '\n');
		}
		fclose(f);
	}
	if (!replaced)
		strbuf_addf(&out, "%s = %s\n", key, value);

	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		char *parent = strrchr(dir, '/');
		if (parent) {
			*parent = '\0';
			mkdir(dir, 0700);
			*parent = '/';
		}
		mkdir(dir, 0700);
	}
	free(dir);
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	bool ok = fd >= 0 && write(fd, out.data, out.len) == (ssize_t)out.len;
	if (fd >= 0 && close(fd) != 0)
		ok = false;
	if (ok && rename(tmp, path) != 0)
		ok = false;
	if (!ok) {
		fprintf(stderr, "sbsh: cannot write %s: %s\n", path, strerror(errno));
		unlink(tmp);
	} else {
		printf("%s: %s = %s\n", path, key, value);
	}
	free(tmp);
	strbuf_free(&out);
	return ok ? 0 : 1;
}

int config_main(const char *path, int argc, char **argv, int i)
{
	if (i + 2 >= argc) {
		fprintf(stderr, "sbsh: usage: sbsh --config set-sandbox on|off|auto\n"
		                "       sbsh --config set-network on|off|allow:PORT|HOST[:PORT][,...]\n");
		return STARTUP_USAGE;
	}
	const char *what = argv[i + 1], *value = argv[i + 2];
	if (strcmp(what, "set-sandbox") == 0) {
		enum sandbox_mode m;
		if (parse_sandbox_mode(value, &m) != 0) {
			fprintf(stderr, "sbsh: --config set-sandbox: expected on, off or auto\n");
			return STARTUP_USAGE;
		}
		return config_set(path, "sandbox", value);
	}
	if (strcmp(what, "set-network") == 0) {
		struct sandbox_config probe;
		sandbox_config_init(&probe);
		int bad = sandbox_parse_net(&probe, value);
		sandbox_config_free(&probe);
		if (bad) {
			fprintf(stderr, "sbsh: --config set-network: expected on, off or allow:PORT|HOST[:PORT][,...]\n");
			return STARTUP_USAGE;
		}
		return config_set(path, "network", value);
	}
	fprintf(stderr, "sbsh: --config: unknown setting `%s'\n", what);
	return STARTUP_USAGE;
}
