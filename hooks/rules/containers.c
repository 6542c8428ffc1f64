/* Containers and clusters: docker and its kind (run flags that reach the
 * host, push, volume rm), skopeo, kubectl. */
#include <string.h>

#include "hooks/rules/internal.h"

static bool host_path_escapes(const char *src)
{
	if (eq(src, "/") || src[0] == '~')
		return true;
	static const char *const roots[] = {"/etc", "/root", "/home", "/var", "/usr", "/bin", "/sbin", "/lib",
	                                    "/lib64", "/boot", "/dev", "/proc", "/sys", "/run", "/opt", "/srv", NULL};
	for (size_t i = 0; roots[i]; i++) {
		size_t len = strlen(roots[i]);
		if (strncmp(src, roots[i], len) == 0 && (src[len] == '\0' || src[len] == '/')) {
			/* A deeper path under /home or /var may be the project. */
			if ((eq(roots[i], "/home") || eq(roots[i], "/opt") || eq(roots[i], "/srv")) && src[len] == '/' &&
			    strchr(src + len + 1, '/'))
				return false;
			if (eq(roots[i], "/var") && !starts(src, "/var/run") && !eq(src, "/var") && !starts(src, "/var/lib/docker"))
				return false;
			return true;
		}
	}
	return strstr(src, "docker.sock") != NULL || strstr(src, "podman.sock") != NULL;
}

static const char *const docker_run_args =
	"-v|--volume|--mount|-e|--env|-w|--workdir|-p|--publish|--name|--network|--net|--entrypoint|-u|--user|"
	"-m|--memory|--env-file|-l|--label|--platform|--cpus|-h|--hostname|--add-host|--device|--dns|"
	"--cap-add|--cap-drop|--security-opt|--tmpfs|--ulimit|--gpus|--pull|--restart|--log-driver|--log-opt|"
	"--ipc|--pid|--shm-size|--stop-signal|--runtime|--cidfile|--group-add|--health-cmd|--expose|--link|"
	"--volumes-from|-a|--attach|--cgroupns|--uts|--userns|--isolation|--detach-keys|--stop-timeout|"
	"--memory-swap|--cpuset-cpus|--label-file|--network-alias|--mac-address|--ip|--ip6|--sysctl|"
	"--storage-opt|--annotation|--cpu-shares|-c|--blkio-weight|--pids-limit|--oom-score-adj|--init-path|"
	"--hooks-dir|--secret|--userns-uid-map|--arch|--os|--variant|--env-merge|--cgroup-parent";

static struct judgement judge_container_run(struct cctx *c, const char *name, const struct sarg *a, size_t s,
                                            size_t n, const struct stdin_src *in)
{
	struct judgement j = SAFE_J;
	size_t i = s;
	for (; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known) {
			if (i > s && a[i - 1].known && a[i - 1].text[0] == '-')
				continue;
			break;
		}
		const char *t = x->text;
		if (options_end(t, &i))
			break;
		size_t len = strcspn(t, "=");
		const char *val = t[len] ? t + len + 1 : (i + 1 < n && a[i + 1].known ? a[i + 1].text : "");
		bool takes = in_list(docker_run_args, t, len);
		if (eq(t, "--privileged") || starts(t, "--privileged="))
			j = judgement_max(j, J(VERDICT_ESCAPE, cl_printf(c, "%s --privileged gets the host's devices and kernel", name), (int)i));
		if (in_list("--pid|--userns|--uts|--ipc|--cgroupns", t, len) && eq(val, "host") && !eq(t, "--ipc"))
			j = judgement_max(j, J(VERDICT_ESCAPE, cl_printf(c, "%s shares the host's namespaces", name), (int)i));
		if (in_list("--cap-add", t, len) && (strcasestr(val, "SYS_ADMIN") || strcasestr(val, "ALL")))
			j = judgement_max(j, J(VERDICT_ESCAPE, cl_printf(c, "%s --cap-add gives host-level powers", name), (int)i));
		if (in_list("-v|--volume", t, len)) {
			char *src = cl_strndup(c, val, strcspn(val, ":"));
			if (strchr(val, ':') && host_path_escapes(src))
				j = judgement_max(j, J(VERDICT_ESCAPE, cl_printf(c, "%s mounts the host's %s", name, src), (int)i));
		}
		if (in_list("--mount", t, len)) {
			const char *srcp = strstr(val, "source=");
			if (!srcp)
				srcp = strstr(val, "src=");
			if (srcp) {
				srcp = strchr(srcp, '=') + 1;
				char *src = cl_strndup(c, srcp, strcspn(srcp, ","));
				if (host_path_escapes(src))
					j = judgement_max(j, J(VERDICT_ESCAPE, cl_printf(c, "%s mounts the host's %s", name, src), (int)i));
			}
		}
		if (eq(t, "--device") && (starts(val, "/dev/sd") || starts(val, "/dev/nvme")))
			j = judgement_max(j, J(VERDICT_ESCAPE, cl_printf(c, "%s gets a host disk", name), (int)i));
		if (takes && !t[len])
			i++;
	}
	/* The image (or container), then the command run inside it. */
	if (i < n)
		i++;
	if (i < n) {
		struct judgement r = judge_rest(c, cl_printf(c, "%s runs", name), a + i, n - i, in, (int)i);
		if (r.v > VERDICT_ASK)
			j = judgement_max(j, r);
	}
	return j;
}

struct judgement judge_docker(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                              const struct stdin_src *in)
{
	size_t s = 1;
	while (s < n && a[s].known && a[s].text[0] == '-') {
		const char *t = a[s].text;
		if (eq(t, "--help") || eq(t, "--version") || eq(t, "-v"))
			return SAFE_J;
		if (in_lists("-H|--host|--context|-c|--config|-l|--log-level|--tlscacert|--tlscert|--tlskey|--url|--connection|--root|--runroot|--storage-driver", t))
			s++;
		s++;
	}
	struct judgement none;
	if (no_known_subcommand(c, name, a, s, n, &none))
		return none;
	const char *sub = a[s].text;
	size_t f = s + 1;
	if (has_flag(a, f, n, "--help"))
		return SAFE_J;
	const char *sub2 = f < n && a[f].known ? a[f].text : "";
	if (in_lists("container|image|volume|system|network|buildx|manifest|builder|plugin|context|compose|artifact", sub)) {
		if (eq(sub, "compose"))
			return judge_spec(c, cl_printf(c, "%s compose", name), &spec_compose, a + s, n - s);
		if (eq(sub, "volume") && in_lists("rm|remove|prune", sub2))
			return J(VERDICT_DELETE, cl_printf(c, "%s volume %s deletes volumes and their data", name, sub2), (int)f);
		if (eq(sub, "system") && eq(sub2, "prune"))
			return J(VERDICT_DELETE, cl_printf(c, "%s system prune deletes containers, images%s", name,
			                                   has_flag(a, f, n, "--volumes") ? " and volumes" : ""),
			         (int)f);
		if ((eq(sub, "image") || eq(sub, "manifest") || eq(sub, "artifact")) && eq(sub2, "push"))
			return J(VERDICT_PUBLISH, cl_printf(c, "%s %s push publishes to a registry", name, sub), (int)f);
		if (eq(sub, "container") && (eq(sub2, "run") || eq(sub2, "create") || eq(sub2, "exec")))
			return judge_container_run(c, name, a, f + 1, n, in);
		if ((eq(sub, "buildx") || eq(sub, "image") || eq(sub, "builder")) && (eq(sub2, "build") || eq(sub2, "b") || eq(sub2, "bake"))) {
			sub = "build";
			f++;
		} else if (eq(sub, "buildx") && eq(sub2, "imagetools") && f + 1 < n && kn(&a[f + 1], "create")) {
			return J(VERDICT_PUBLISH, "buildx imagetools create pushes to a registry", (int)f);
		} else {
			return SAFE_J;
		}
	}
	if (eq(sub, "push"))
		return J(VERDICT_PUBLISH, cl_printf(c, "%s push publishes an image to a registry", name), (int)s);
	if (eq(sub, "build") || eq(sub, "bake")) {
		for (size_t i = f; i < n; i++) {
			if (!a[i].known)
				continue;
			const char *t = a[i].text;
			if (eq(t, "--push"))
				return J(VERDICT_PUBLISH, cl_printf(c, "%s build --push publishes to a registry", name), (int)i);
			if (eq(t, "--output") || eq(t, "-o") || starts(t, "--output=") || starts(t, "-o")) {
				const char *v = strchr(t, '=') && starts(t, "--output=") ? t + 9
				                : (eq(t, "--output") || eq(t, "-o")) && i + 1 < n ? a[i + 1].text
				                                                                  : t + 2;
				if (strstr(v, "type=registry") || strstr(v, "push=true"))
					return J(VERDICT_PUBLISH, cl_printf(c, "%s build --output type=registry publishes", name), (int)i);
			}
		}
		return SAFE_J;
	}
	if (eq(sub, "run") || eq(sub, "create") || eq(sub, "exec"))
		return judge_container_run(c, name, a, f, n, in);
	return SAFE_J;
}

struct judgement judge_skopeo(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                              const struct stdin_src *in)
{
	size_t s = skip_options(a, 1, n, NULL);
	if (s >= n || !a[s].known)
		return s >= n ? SAFE_J : J(VERDICT_ASK, "skopeo subcommand is not known", (int)s);
	const char *sub = a[s].text;
	if (eq(sub, "delete"))
		return J(VERDICT_DELETE, "skopeo delete removes an image from a registry", (int)s);
	if (eq(sub, "copy") || eq(sub, "sync")) {
		/* The destination is the last operand. */
		const struct sarg *dst = &a[n - 1];
		if (!dst->known || starts(dst->text, "docker://") || eq(sub, "sync"))
			return J(VERDICT_PUBLISH, cl_printf(c, "skopeo %s pushes to a registry", sub), (int)n - 1);
	}
	return SAFE_J;
}

struct judgement judge_kubectl(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                               const struct stdin_src *in)
{
	bool exec = find_word(a, 1, n, "exec|run|debug") >= 0;
	size_t dd = dashdash(a, 1, n);
	struct judgement j = judge_spec(c, name, &spec_kubectl, a, dd);
	if (exec && dd < n) {
		struct judgement r = judge_rest(c, cl_printf(c, "%s exec runs", name), a + dd + 1, n - dd - 1, in, (int)dd + 1);
		if (r.v > VERDICT_ASK)
			j = judgement_max(j, r);
	}
	return j;
}
