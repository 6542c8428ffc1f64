/* The rules as data: every tool by name (a handler, a subcommand spec, a
 * wrapper or an interpreter), and those specs, wrappers, interpreters and
 * database clients. Sorted for bsearch; nothing here is read at run time. */
#include <stdlib.h>
#include <string.h>

#include "hooks/rules/internal.h"

static const struct interp interp_node = {"node", "-e|--eval|-p|--print", "e", "-r|--require|--import|--loader|-C|--conditions|--input-type"};
static const struct interp interp_perl = {"perl", NULL, "eE", "-I|-M|-m|-x|-i|-l|-0|-d|-D|-C"};
static const struct interp interp_ruby = {"ruby", NULL, "e", "-r|-I|-C|-E|-F|-x"};
const struct interp interp_php = {"php", NULL, "rRBE", "-c|-d|-z|-f|-t|-F"};
static const struct interp interp_lua = {"lua", NULL, "e", "-l"};
static const struct interp interp_r = {"R", "-e|--expr", NULL, NULL};
static const struct interp interp_osa = {"osascript", NULL, "e", "-l"};
static const struct interp interp_pwsh = {"powershell", "-c|-Command|-command|-C", NULL, "-File|-file|-f|-ExecutionPolicy|-ep"};

const struct dbclient db_psql = {"-c|--command", "-d|--dbname|-h|--host|-p|--port|-U|--username|-v|--set|--variable|-o|--output|-P|--pset|-F|-R|-T|-L|--log-file", "-f|--file", 0, false};
const struct dbclient db_mysql = {"-e|--execute", "-u|--user|-h|--host|-P|--port|-D|--database|-S|--socket|--defaults-file|--default-character-set|-p", NULL, 0, false};
const struct dbclient db_sqlite = {"-cmd", "-separator|-newline|-nullvalue|-init", "-init", 2, false};
const struct dbclient db_mongo = {"--eval", "--host|--port|-u|--username|-p|--password|--authenticationDatabase|--file|-f", "--file|-f", 0, false};
const struct dbclient db_redis = {NULL, "-h|-p|-a|-n|-u|-s|--user|--pass|-r|-i|-d|--tls-cert|--tls-key|--cacert", NULL, 1, true};
const struct dbclient db_clickhouse = {"-q|--query", "-h|--host|--port|-u|--user|--password|-d|--database|--format|-f", "--queries-file", 0, false};
const struct dbclient db_cql = {"-e|--execute", "-u|--username|-p|--password|-k|--keyspace|--cqlshrc", "-f|--file", 0, false};
const struct dbclient db_duckdb = {"-c|-cmd", "-separator|-newline|-nullvalue|-init", "-init", 2, false};

#define R_END {NULL, VERDICT_SAFE, NULL, NULL, NULL}
#define P(path, reason) {path, VERDICT_PUBLISH, reason, NULL, NULL}
#define PU(path, reason, unless) {path, VERDICT_PUBLISH, reason, unless, NULL}
#define D(path, reason) {path, VERDICT_DELETE, reason, NULL, NULL}
#define DU(path, reason, unless) {path, VERDICT_DELETE, reason, unless, NULL}
#define E(path, reason) {path, VERDICT_ESCAPE, reason, NULL, NULL}


static const struct subrule rules_cargo[] = {
	PU("publish", "cargo publish uploads to crates.io", "--dry-run|-n"),
	P("yank", "cargo yank changes what is published"),
	{"owner", VERDICT_PUBLISH, "cargo owner changes who can publish", NULL, "--add|-a|--remove|-r"},
	{"release", VERDICT_PUBLISH, "cargo release --execute publishes", NULL, "--execute|-x"},
	PU("workspaces publish", "cargo workspaces publish uploads crates", "--dry-run"),
	PU("ws publish", "cargo workspaces publish uploads crates", "--dry-run"),
	{"smart-release", VERDICT_PUBLISH, "cargo smart-release --execute publishes", NULL, "--execute|-e"},
	R_END};
static const struct tool_spec spec_cargo = {"pjZF", "--manifest-path|--registry|--token|--index|--config|--color|--target|--features|--package|--jobs", 0, rules_cargo};

static const struct subrule rules_gem[] = {
	P("push", "gem push publishes to RubyGems"),
	P("yank", "gem yank changes what is published"),
	{"owner", VERDICT_PUBLISH, "gem owner changes who can publish", NULL, "--add|-a|--remove|-r"},
	R_END};
static const struct tool_spec spec_gem = {"kC", "--key|--host|--otp|--config-file", 0, rules_gem};

static const struct subrule rules_pypi[] = {
	PU("upload", "uploads to a package index", "--dry-run"),
	PU("publish", "publishes to a package index", "--dry-run|--repository-url-dry-run"),
	P("register", "registers a project on a package index"),
	R_END};
const struct tool_spec spec_pypi = {"rupPC", "--repository|--repository-url|--username|--password|--token|--publish-url|--directory|--project|--python|--index|--check-url|--trusted-publishing|--config-file|--comment|--sign-with|--identity|--cert|--client-cert|--build", 0, rules_pypi};

static const struct subrule rules_nuget[] = {
	P("push", "nuget push publishes a package"),
	P("delete", "nuget delete removes a published package"),
	P("nuget push", "dotnet nuget push publishes a package"),
	P("nuget delete", "dotnet nuget delete removes a published package"),
	R_END};
static const struct tool_spec spec_nuget = {"skc", "--source|--api-key|--symbol-source|--configfile", 0, rules_nuget};

static const struct subrule rules_mvn[] = {
	P("deploy", "mvn deploy publishes artifacts"),
	P("deploy:*", "mvn deploy publishes artifacts"),
	P("release:perform", "mvn release:perform publishes a release"),
	P("nexus-staging:release", "publishes a staged release"),
	P("nexus-staging:deploy", "publishes artifacts"),
	P("jreleaser:*", "jreleaser publishes a release"),
	R_END};
static const struct tool_spec spec_mvn = {"fsbtlpPD", "--file|--settings|--projects|--threads|--log-file|--activate-profiles|--builder|--global-settings|--toolchains", SPEC_ANYWHERE, rules_mvn};

static const struct subrule rules_sbt[] = {
	P("publish", "sbt publish publishes artifacts"),
	P("+publish", "sbt publish publishes artifacts"),
	P("publishSigned", "sbt publishSigned publishes artifacts"),
	P("+publishSigned", "sbt publishSigned publishes artifacts"),
	P("sonatypeRelease", "publishes to Maven Central"),
	P("sonatypeBundleRelease", "publishes to Maven Central"),
	P("sonatypeBundleUpload", "uploads to Maven Central"),
	P("ci-release", "publishes a release"),
	P("release", "sbt release publishes a release"),
	R_END};
static const struct tool_spec spec_sbt = {NULL, NULL, SPEC_ANYWHERE, rules_sbt};

static const struct subrule rules_rake[] = {
	D("db:drop", "drops the database"), D("db:drop:*", "drops the database"),
	D("db:reset", "drops and recreates the database"), D("db:purge", "empties the database"),
	D("db:truncate_all", "empties the database"), D("db:migrate:reset", "drops and recreates the database"),
	D("db:schema:load", "replaces the database contents"), D("db:seed:replant", "empties the database"),
	D("db:structure:load", "replaces the database contents"),
	P("release", "rake release publishes the gem"), P("release:*", "rake release publishes the gem"),
	R_END};
static const struct tool_spec spec_rake = {"fCIreE", "--rakefile|--directory|--libdir|--require|--environment", SPEC_ANYWHERE, rules_rake};

static const struct subrule rules_mix[] = {
	PU("hex.publish", "mix hex.publish publishes to Hex", "--dry-run"),
	P("hex.retire", "mix hex.retire changes what is published"),
	P("hex.owner", "mix hex.owner changes who can publish"),
	D("ecto.drop", "drops the database"), D("ecto.reset", "drops and recreates the database"),
	R_END};
static const struct tool_spec spec_mix = {NULL, NULL, 0, rules_mix};

static const struct subrule rules_pod[] = {
	P("trunk push", "pod trunk push publishes a pod"), P("trunk delete", "pod trunk delete removes a published pod"),
	P("trunk deprecate", "pod trunk deprecate changes what is published"), P("repo push", "pod repo push publishes a spec"),
	R_END};
static const struct tool_spec spec_pod = {NULL, NULL, 0, rules_pod};

static const struct subrule rules_conan[] = {
	P("upload", "conan upload publishes packages"),
	{"remove", VERDICT_PUBLISH, "conan remove -r deletes packages from a remote", NULL, "-r|--remote"},
	{"rm", VERDICT_PUBLISH, "conan remove -r deletes packages from a remote", NULL, "-r|--remote"},
	R_END};
static const struct tool_spec spec_conan = {NULL, NULL, 0, rules_conan};

static const struct subrule rules_snapcraft[] = {
	P("upload", "snapcraft upload publishes a snap"), P("push", "snapcraft push publishes a snap"),
	P("release", "snapcraft release publishes a snap"), P("promote", "snapcraft promote publishes a snap"),
	P("close", "snapcraft close changes what is published"), P("register", "registers a snap name"),
	R_END};
static const struct tool_spec spec_snapcraft = {NULL, NULL, 0, rules_snapcraft};

static const struct subrule rules_upload[] = {
	P("upload", "uploads a package to its registry"), R_END};
static const struct tool_spec spec_upload = {NULL, NULL, 0, rules_upload};

static const struct subrule rules_dart[] = {
	PU("pub publish", "pub publish uploads to pub.dev", "--dry-run|-n"),
	PU("pub lish", "pub publish uploads to pub.dev", "--dry-run|-n"),
	R_END};
static const struct tool_spec spec_dart = {NULL, NULL, 0, rules_dart};

static const struct subrule rules_helm[] = {
	P("push", "helm push publishes a chart"), P("cm-push", "helm cm-push publishes a chart"),
	D("uninstall", "helm uninstall removes a release and its data"), D("delete", "helm delete removes a release"),
	D("del", "helm delete removes a release"), D("un", "helm uninstall removes a release"),
	PU("install", "helm install deploys to a cluster", "--dry-run"),
	PU("upgrade", "helm upgrade deploys to a cluster", "--dry-run"),
	R_END};
static const struct tool_spec spec_helm = {"n", "--namespace|--kube-context|--kubeconfig|--registry-config|--repository-config", 0, rules_helm};

static const struct subrule rules_terraform[] = {
	DU("destroy", "terraform destroy deletes the infrastructure", NULL),
	{"apply", VERDICT_DELETE, "terraform apply -destroy deletes the infrastructure", NULL, "-destroy|--destroy"},
	PU("apply", "terraform apply changes live infrastructure", "-destroy|--destroy"),
	D("state rm", "terraform state rm forgets resources"), D("workspace delete", "deletes a workspace's state"),
	D("run-all destroy", "terragrunt destroys the infrastructure"),
	P("run-all apply", "terragrunt apply changes live infrastructure"),
	R_END};
const struct tool_spec spec_terraform = {NULL, "-chdir|-var|-var-file|-target|-state", 0, rules_terraform};

static const struct subrule rules_pulumi[] = {
	PU("up", "pulumi up changes live infrastructure", "--preview-only"),
	PU("update", "pulumi up changes live infrastructure", "--preview-only"),
	D("destroy", "pulumi destroy deletes the infrastructure"), D("down", "pulumi destroy deletes the infrastructure"),
	D("stack rm", "pulumi stack rm deletes a stack"),
	R_END};
static const struct tool_spec spec_pulumi = {"sC", "--stack|--cwd", 0, rules_pulumi};

static const struct subrule rules_deployers[] = {
	P("deploy", "deploys to a hosting service"), P("publish", "publishes"),
	P("hosting:channel:deploy", "deploys to a hosting channel"), P("hosting:disable", "takes a site offline"),
	P("pages deploy", "deploys to a hosting service"), P("pages publish", "deploys to a hosting service"),
	P("versions deploy", "deploys to a hosting service"), P("promote", "promotes a deployment to production"),
	D("destroy", "destroys deployed resources"), D("remove", "removes deployed resources"),
	D("rm", "removes deployed resources"), D("delete", "deletes deployed resources"),
	D("firestore:delete", "deletes database data"), D("database:remove", "deletes database data"),
	D("functions:delete", "deletes deployed functions"), D("apps destroy", "destroys an app"),
	D("apps:destroy", "destroys an app"), D("apps delete", "deletes an app"),
	D("volumes destroy", "destroys a volume and its data"), D("volumes delete", "deletes a volume and its data"),
	D("volume destroy", "destroys a volume and its data"), D("pg:reset", "empties a database"),
	D("sites:delete", "deletes a site"), D("teardown", "takes a site down"),
	D("kv key delete", "deletes stored data"), D("kv:key delete", "deletes stored data"),
	D("r2 object delete", "deletes stored data"), D("r2 bucket delete", "deletes stored data"),
	D("d1 delete", "deletes a database"),
	R_END};
static const struct tool_spec spec_deployers = {"acp", "--app|--config|--project|--only|--env|--site|--token|--dir|--region|--scope", 0, rules_deployers};

static const struct subrule rules_vercel[] = {
	{"", VERDICT_PUBLISH, "vercel --prod deploys to production", NULL, "--prod|--production"},
	P("promote", "vercel promote deploys to production"),
	D("remove", "vercel remove deletes deployments"), D("rm", "vercel remove deletes deployments"),
	R_END};
static const struct tool_spec spec_vercel = {"tAS", "--token|--scope|--local-config|--global-config", 0, rules_vercel};

static const struct subrule rules_netlify[] = {
	{"deploy", VERDICT_PUBLISH, "netlify deploy --prod deploys to production", NULL, "--prod|-p|--prod-if-unlocked"},
	D("sites:delete", "deletes a site"),
	R_END};
static const struct tool_spec spec_netlify = {NULL, NULL, 0, rules_netlify};

static const struct subrule rules_always_publish[] = {
	{"", VERDICT_PUBLISH, NULL, "--dry-run", NULL}, R_END};
static const struct tool_spec spec_always_publish = {NULL, NULL, 0, rules_always_publish};

static const struct subrule rules_release_tools[] = {
	{"", VERDICT_PUBLISH, NULL, "--dry-run|-d|--preview|--snapshot|--skip-publish|--skip=publish|--release-version|--changelog", NULL},
	R_END};
static const struct tool_spec spec_release_tools = {NULL, NULL, 0, rules_release_tools};

static const struct subrule rules_goreleaser[] = {
	{"^", VERDICT_PUBLISH, "goreleaser publishes a release", "--snapshot|--skip-publish|--skip=publish", NULL},
	{"release", VERDICT_PUBLISH, "goreleaser publishes a release", "--snapshot|--skip-publish|--skip=publish", NULL},
	R_END};
static const struct tool_spec spec_goreleaser = {NULL, NULL, 0, rules_goreleaser};

static const struct subrule rules_publish_sub[] = {
	PU("publish", "publishes a package", "--dry-run|--no-publish|--preview"),
	P("unpublish", "unpublishes a package"),
	P("full-release", "publishes a release"), P("release", "publishes a release"),
	P("deploy", "publishes a release"), P("upload", "uploads a release"),
	R_END};
static const struct tool_spec spec_publish_sub = {"p", "--pat|--registry|--token|--packagePath", 0, rules_publish_sub};

static const struct subrule rules_registry_images[] = {
	P("push", "pushes an image to a registry"), P("copy", "copies an image to a registry"),
	P("cp", "copies an image to a registry"), P("append", "pushes an image to a registry"),
	P("mutate", "pushes an image to a registry"), P("tag", "changes a tag in a registry"),
	P("rebase", "pushes an image to a registry"), P("flatten", "pushes an image to a registry"),
	P("attach", "pushes an artifact to a registry"), P("index append", "pushes an index to a registry"),
	P("manifest push", "pushes a manifest to a registry"),
	D("delete", "deletes an image from a registry"), D("manifest delete", "deletes an image from a registry"),
	D("blob delete", "deletes data from a registry"),
	R_END};
static const struct tool_spec spec_registry_images = {NULL, "--platform", 0, rules_registry_images};

static const struct subrule rules_ko[] = {
	{"build", VERDICT_PUBLISH, "ko build pushes images", "--local|-L|--push=false", NULL},
	{"publish", VERDICT_PUBLISH, "ko publish pushes images", "--local|-L|--push=false", NULL},
	{"apply", VERDICT_PUBLISH, "ko apply deploys", NULL, NULL},
	{"resolve", VERDICT_PUBLISH, "ko resolve pushes images", "--local|-L|--push=false", NULL},
	{"create", VERDICT_PUBLISH, "ko create deploys", NULL, NULL},
	R_END};
static const struct tool_spec spec_ko = {NULL, NULL, 0, rules_ko};

static const struct subrule rules_rclone[] = {
	DU("delete", "rclone delete removes files", "--dry-run|-n"),
	DU("deletefile", "rclone deletefile removes a file", "--dry-run|-n"),
	DU("purge", "rclone purge removes a path and its contents", "--dry-run|-n"),
	DU("rmdir", "rclone rmdir removes a directory", "--dry-run|-n"),
	DU("rmdirs", "rclone rmdirs removes directories", "--dry-run|-n"),
	DU("cleanup", "rclone cleanup empties the trash", "--dry-run|-n"),
	DU("sync", "rclone sync deletes files missing from the source", "--dry-run|-n"),
	DU("bisync", "rclone bisync deletes files", "--dry-run|-n"),
	DU("move", "rclone move deletes the source", "--dry-run|-n"),
	DU("moveto", "rclone moveto deletes the source", "--dry-run|-n"),
	DU("dedupe", "rclone dedupe deletes duplicates", "--dry-run|-n"),
	R_END};
static const struct tool_spec spec_rclone = {NULL, "--config|--exclude|--include|--filter|--transfers|--checkers|--bwlimit|--log-file|--backup-dir", 0, rules_rclone};

static const struct subrule rules_prisma[] = {
	D("migrate reset", "prisma migrate reset drops the database"),
	{"db push", VERDICT_DELETE, "prisma db push --force-reset drops the database", NULL, "--force-reset|--accept-data-loss"},
	D("db drop", "drops the database"),
	R_END};
static const struct tool_spec spec_prisma = {NULL, "--schema", 0, rules_prisma};

static const struct subrule rules_dbtools[] = {
	D("db:drop", "drops the database"), D("db:drop:*", "drops the database"), D("schema:drop", "drops the schema"),
	D("db reset", "drops and recreates the database"), D("migrate:fresh", "drops all tables"),
	D("migrate:reset", "rolls back every migration"), D("migrate:refresh", "rolls back every migration"),
	D("db:wipe", "drops all tables"), D("db:reset", "drops and recreates the database"),
	D("migrate:rollback", "rolls back migrations"),
	R_END};
const struct tool_spec spec_dbtools = {NULL, NULL, 0, rules_dbtools};

static const struct subrule rules_datastores[] = {
	D("rm", "deletes stored objects"), D("rb", "deletes a bucket"), D("del", "deletes stored data"),
	D("delete", "deletes stored data"), D("destroy", "destroys stored data"), D("purge", "purges stored data"),
	D("forget", "forgets backups"), D("prune", "deletes backups"), D("remove", "deletes stored data"),
	D("kv delete", "deletes stored secrets"), D("kv destroy", "destroys stored secrets"),
	D("kv metadata delete", "deletes stored secrets"), D("secrets disable", "deletes a secrets engine and its data"),
	D("database delete", "deletes a database"), D("branch delete", "deletes a database branch"),
	D("db destroy", "destroys a database"), D("branches delete", "deletes a database branch"),
	{"mirror", VERDICT_DELETE, "mirror --remove deletes files at the destination", NULL, "--remove|--delete"},
	{"sync", VERDICT_DELETE, "sync deletes files at the destination", NULL, "--delete-removed|--delete-destination|--delete"},
	D("drop", "drops content"), D("gc", "deletes unused data"),
	R_END};
static const struct tool_spec spec_datastores = {NULL, "--config|--profile|--region|--endpoint|--address|--namespace|-r|--repo", 0, rules_datastores};

static const struct subrule rules_glab[] = {
	P("release create", "glab release create publishes a release"), P("release upload", "glab release upload publishes"),
	D("release delete", "glab release delete deletes a release"), D("repo delete", "glab repo delete deletes a repository"),
	{"repo create", VERDICT_PUBLISH, "glab repo create --public publishes a repository", NULL, "--public"},
	P("repo archive", "changes a published repository"),
	R_END};
static const struct tool_spec spec_glab = {"R", "--repo", 0, rules_glab};

static const struct subrule rules_kubectl[] = {
	{"delete", VERDICT_DELETE, "kubectl delete deletes cluster resources", "--dry-run", NULL},
	{"apply", VERDICT_PUBLISH, "kubectl apply deploys to a cluster", "--dry-run", NULL},
	{"create", VERDICT_PUBLISH, "kubectl create deploys to a cluster", "--dry-run", NULL},
	{"replace", VERDICT_PUBLISH, "kubectl replace deploys to a cluster", "--dry-run", NULL},
	{"drain", VERDICT_DELETE, "kubectl drain evicts workloads", "--dry-run", NULL},
	R_END};
const struct tool_spec spec_kubectl = {"ncslf", "--namespace|--context|--cluster|--kubeconfig|--server|--user|--filename|--selector|--output|-o", 0, rules_kubectl};

static const struct subrule rules_compose[] = {
	{"down", VERDICT_DELETE, "compose down -v deletes volumes", NULL, "-v|--volumes"},
	{"rm", VERDICT_DELETE, "compose rm -v deletes volumes", NULL, "-v|--volumes"},
	P("push", "compose push pushes images"),
	R_END};
const struct tool_spec spec_compose = {"fp", "--file|--project-name|--profile|--env-file|--project-directory", 0, rules_compose};

static const struct subrule rules_tmux[] = {
	E("send-keys", "tmux send-keys types into a shell outside the sandbox"), E("send", "tmux send-keys types into a shell outside the sandbox"),
	E("new-window", "tmux runs a command outside the sandbox"), E("neww", "tmux runs a command outside the sandbox"),
	E("new-session", "tmux runs a command outside the sandbox"), E("new", "tmux runs a command outside the sandbox"),
	E("split-window", "tmux runs a command outside the sandbox"), E("splitw", "tmux runs a command outside the sandbox"),
	E("respawn-pane", "tmux runs a command outside the sandbox"), E("respawnp", "tmux runs a command outside the sandbox"),
	E("respawn-window", "tmux runs a command outside the sandbox"), E("respawnw", "tmux runs a command outside the sandbox"),
	E("run-shell", "tmux runs a command outside the sandbox"), E("run", "tmux runs a command outside the sandbox"),
	E("if-shell", "tmux runs a command outside the sandbox"), E("if", "tmux runs a command outside the sandbox"),
	E("display-popup", "tmux runs a command outside the sandbox"), E("popup", "tmux runs a command outside the sandbox"),
	E("pipe-pane", "tmux runs a command outside the sandbox"), E("pipep", "tmux runs a command outside the sandbox"),
	E("source-file", "tmux runs commands outside the sandbox"), E("source", "tmux runs commands outside the sandbox"),
	E("set-hook", "tmux runs a command outside the sandbox"), E("command-prompt", "tmux runs a command outside the sandbox"),
	R_END};
static const struct tool_spec spec_tmux = {"LSfcT", NULL, 0, rules_tmux};

static const struct subrule rules_escape_always[] = {
	{"", VERDICT_ESCAPE, NULL, NULL, NULL}, R_END};
static const struct tool_spec spec_escape_always = {NULL, NULL, 0, rules_escape_always};

static const struct subrule rules_dbus[] = {
	E("call", "calls a service outside the sandbox"), E("set-property", "changes a service outside the sandbox"),
	E("emit", "signals a service outside the sandbox"),
	R_END};
static const struct tool_spec spec_dbus = {NULL, NULL, 0, rules_dbus};

static const struct subrule rules_cloud[] = {
	D("delete", "deletes cloud resources"),
	D("purge", "purges cloud resources"), P("deploy", "deploys"), P("publish", "publishes"),
	R_END};
const struct tool_spec spec_cloud = {NULL, "--project|--region|--zone|--account|--configuration|--format|--subscription|--resource-group|-g|--name|-n", SPEC_ANYWHERE, rules_cloud};

/* ---- wrappers as data --------------------------------------------------------------------- */

static const struct wrapper w_plain = {NULL, NULL, NULL, 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_command = {NULL, NULL, NULL, 0, WRAP_ARGV, NULL, "-v|-V", NULL};
static const struct wrapper w_exec = {NULL, "a", NULL, 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_nice = {NULL, "n", "--adjustment", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_stdbuf = {NULL, "ioe", "--input|--output|--error", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_timeout = {NULL, "sk", "--signal|--kill-after", 1, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_time = {NULL, "of", "--output|--format", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_taskset = {NULL, NULL, "--cpu-list", 1, WRAP_ARGV, NULL, "-p|--pid", NULL};
static const struct wrapper w_flock = {NULL, "wEo", "--timeout|--wait|--conflict-exit-code", 1, WRAP_ARGV, "-c|--command", NULL, NULL};
static const struct wrapper w_sudo = {NULL, "ugpCDrtTUh", "--user|--group|--prompt|--close-from|--chdir|--role|--type|--command-timeout|--other-user|--host", 0, WRAP_ARGV, NULL, "-l|--list|-e|--edit|-v|--validate|-k|--reset-timestamp|-K|--remove-timestamp|-V", "-s|--shell|-i|--login"};
static const struct wrapper w_doas = {NULL, "uC", NULL, 0, WRAP_ARGV, NULL, NULL, "-s"};
static const struct wrapper w_pkexec = {NULL, NULL, "--user", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_su = {NULL, "sgGw", "--shell|--group|--supp-group|--whitelist-environment|--user", 0, WRAP_DASHDASH, "-c|--command|--session-command", NULL, NULL};
static const struct wrapper w_runuser = {NULL, "ugGw", "--user|--group|--supp-group|--whitelist-environment", 0, WRAP_ARGV, "-c|--command|--session-command", NULL, NULL};
static const struct wrapper w_chroot = {NULL, NULL, "--userspec|--groups", 1, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_unshare = {NULL, "SGRwt", "--propagation|--setgroups|--map-user|--map-group|--map-users|--map-groups|--root|--wd|--setuid|--setgid|--load-interp", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_strace = {NULL, "oeEpPsuSaIOXb", "--output|--trace|--signal|--status|--attach|--user|--env|--string-limit|--summary-sort-by|--columns|--decode-fds|--trace-path", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_ltrace = {NULL, "oeEpsuSaAnlxL", "--output|--library", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_ionice = {NULL, "cn", "--class|--classdata", 0, WRAP_ARGV, NULL, "-p|--pid|-P|--pgid|-u|--uid", NULL};
static const struct wrapper w_chrt = {NULL, "T", "--sched-runtime|--sched-deadline|--sched-period", 1, WRAP_ARGV, NULL, "-p|--pid", NULL};
static const struct wrapper w_cpulimit = {NULL, "lpe", "--limit|--pid|--exe", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_xvfb = {NULL, "nsfep", "--server-num|--server-args|--auth-file|--error-file|--xauth-protocol", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_dbusrun = {NULL, NULL, "--config-file|--dbus-daemon", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_fakeroot = {NULL, "si", NULL, 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_proxy = {NULL, "fupPa", NULL, 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_faketime = {NULL, NULL, "--exclude-monotonic", 1, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_numactl = {NULL, "NmCpiP", "--cpunodebind|--membind|--physcpubind|--preferred|--interleave", 0, WRAP_ARGV, NULL, "-s|--show|-H|--hardware", NULL};
static const struct wrapper w_inhibit = {NULL, NULL, "--what|--who|--why|--mode", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_sg = {NULL, NULL, NULL, 1, WRAP_TEXT, "-c", NULL, NULL};
static const struct wrapper w_script = {NULL, "IOBTEm", "--log-in|--log-out|--log-io|--log-timing|--echo|--logging-format|--output-limit", 0, WRAP_DASHDASH, "-c|--command", NULL, NULL};
static const struct wrapper w_entr = {NULL, NULL, NULL, 0, WRAP_ARGV, NULL, NULL, "-s"};
static const struct wrapper w_xargs = {NULL, "adEILnPs", "--arg-file|--delimiter|--eof|--replace|--max-lines|--max-args|--max-procs|--max-chars|--process-slot-var", 0, WRAP_XARGS, NULL, NULL, NULL};
static const struct wrapper w_run_sub = {"run", "nfpe", "--name|--prefix|--cwd|--env|--node|--npm|--yarn|--pnpm|--with|--python|-p", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_exec_sub = {"exec", NULL, "--using|--gemfile", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_dashdash_sub = {"run", "f", "--env-file|--project|--config|--env|--token|-e", 0, WRAP_DASHDASH, "--command", NULL, NULL};
static const struct wrapper w_aws_vault = {"exec", "d", "--duration|--region|--mfa-token|--server-port", 1, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_direnv = {"exec", NULL, NULL, 1, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_nvm = {"exec", NULL, NULL, 1, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_dotenv = {NULL, "evcp", "--env-file|--convention", 0, WRAP_ARGV, NULL, NULL, NULL};
static const struct wrapper w_mise = {"exec", NULL, "--cd|--jobs|-C|-j|--env|-E", 0, WRAP_DASHDASH, "-c|--command", NULL, NULL};
static const struct wrapper w_vagrant = {"ssh", NULL, NULL, 0, WRAP_DASHDASH, "-c|--command", NULL, NULL};
static const struct wrapper w_firejail = {NULL, NULL, NULL, 0, WRAP_ARGV, NULL, NULL, NULL};

#define H(name, fn) {name, fn, NULL, NULL, NULL}
#define S(name, spec) {name, NULL, &(spec), NULL, NULL}
#define W(name, w) {name, NULL, NULL, &(w), NULL}
#define I(name, ip) {name, NULL, NULL, NULL, &(ip)}

/* Sorted by name (strcmp order): looked up with bsearch. */
static const struct tool tools[] = {
	H(".", judge_source),
	I("R", interp_r),
	I("Rscript", interp_r),
	S("artisan", spec_dbtools),
	W("asdf", w_exec_sub),
	H("ash", judge_shell),
	H("at", judge_at),
	H("awk", judge_awk),
	H("aws", judge_aws),
	W("aws-vault", w_aws_vault),
	H("az", judge_gsutil),
	S("azcopy", spec_datastores),
	S("b2", spec_datastores),
	H("bash", judge_shell),
	H("batch", judge_at),
	H("blkdiscard", judge_disk),
	S("borg", spec_datastores),
	H("buildah", judge_docker),
	W("builtin", w_plain),
	H("bun", judge_pm),
	W("bundle", w_exec_sub),
	W("bundler", w_exec_sub),
	H("bunx", judge_npx),
	S("busctl", spec_dbus),
	H("busybox", judge_busybox),
	S("cabal", spec_upload),
	S("cargo", spec_cargo),
	W("catchsegv", w_plain),
	W("ccache", w_plain),
	S("cdk", spec_deployers),
	H("cfdisk", judge_disk),
	S("changeset", spec_publish_sub),
	S("changesets", spec_publish_sub),
	W("chroot", w_chroot),
	W("chrt", w_chrt),
	H("clickhouse-client", judge_clickhouse),
	H("cmake", judge_cmake),
	W("command", w_command),
	S("conan", spec_conan),
	W("conda", w_run_sub),
	S("consul", spec_datastores),
	W("coproc", w_plain),
	H("corepack", judge_pyrunner),
	H("coreutils", judge_coreutils),
	H("cp", judge_writer),
	W("cpulimit", w_cpulimit),
	H("cqlsh", judge_cql),
	S("crane", spec_registry_images),
	H("crontab", judge_at),
	H("cryptsetup", judge_disk),
	H("curl", judge_http),
	H("curlie", judge_http),
	S("dart", spec_dart),
	H("dash", judge_shell),
	W("dbus-launch", w_plain),
	W("dbus-run-session", w_dbusrun),
	S("dbus-send", spec_dbus),
	H("dd", judge_writer),
	H("del", judge_rm_like),
	H("del-cli", judge_rm_like),
	H("deno", judge_deno),
	W("devbox", w_run_sub),
	W("direnv", w_direnv),
	W("distcc", w_plain),
	S("distrobox-host-exec", spec_escape_always),
	H("dmsetup", judge_disk),
	W("doas", w_doas),
	H("docker", judge_docker),
	S("docker-compose", spec_compose),
	W("doppler", w_dashdash_sub),
	W("dotenv", w_dotenv),
	W("dotenvx", w_dashdash_sub),
	S("dotnet", spec_nuget),
	H("dropdb", judge_rm_like),
	H("dropuser", judge_rm_like),
	H("duckdb", judge_duckdb),
	W("dumb-init", w_plain),
	S("dvc", spec_datastores),
	W("eatmydata", w_plain),
	W("entr", w_entr),
	H("env", judge_env),
	H("escape", judge_escape),
	S("etcdctl", spec_datastores),
	H("eval", judge_eval),
	H("ex", judge_editor),
	W("exec", w_exec),
	W("fakeroot", w_fakeroot),
	W("faketime", w_faketime),
	H("fd", judge_fd),
	H("fdfind", judge_fd),
	H("fdisk", judge_disk),
	H("finch", judge_docker),
	H("find", judge_find),
	S("firebase", spec_deployers),
	W("firejail", w_firejail),
	H("fish", judge_shell),
	S("flatpak-spawn", spec_escape_always),
	S("flit", spec_pypi),
	W("flock", w_flock),
	S("flutter", spec_dart),
	S("fly", spec_deployers),
	S("flyctl", spec_deployers),
	W("fnm", w_exec_sub),
	H("gawk", judge_awk),
	H("gcloud", judge_gsutil),
	H("gcp", judge_writer),
	S("gcrane", spec_registry_images),
	H("gdb", judge_runner_misc),
	S("gdbus", spec_dbus),
	H("gdisk", judge_disk),
	S("gem", spec_gem),
	H("gfind", judge_find),
	H("gh", judge_gh),
	S("gh-pages", spec_always_publish),
	H("git", judge_git),
	S("git-annex", spec_datastores),
	S("glab", spec_glab),
	S("goreleaser", spec_goreleaser),
	H("gradle", judge_gradle),
	H("gradlew", judge_gradle),
	H("gsed", judge_sed),
	H("gsutil", judge_gsutil),
	W("gtimeout", w_timeout),
	S("hatch", spec_pypi),
	H("hdparm", judge_disk),
	S("helm", spec_helm),
	S("heroku", spec_deployers),
	S("host-spawn", spec_escape_always),
	H("http", judge_http),
	H("https", judge_http),
	H("hub", judge_git),
	H("hyperfine", judge_runner_misc),
	W("infisical", w_dashdash_sub),
	H("install", judge_writer),
	W("ionice", w_ionice),
	S("jreleaser", spec_publish_sub),
	I("jruby", interp_ruby),
	S("jsr", spec_publish_sub),
	H("k3s", judge_kubectl),
	H("keydb-cli", judge_redis),
	H("kitten", judge_terminal),
	H("kitty", judge_terminal),
	S("knex", spec_dbtools),
	S("ko", spec_ko),
	H("ksh", judge_shell),
	H("kubectl", judge_kubectl),
	S("lerna", spec_publish_sub),
	H("litecli", judge_sqlite),
	H("lldb", judge_runner_misc),
	H("loksh", judge_shell),
	W("ltrace", w_ltrace),
	I("lua", interp_lua),
	I("luajit", interp_lua),
	H("lvremove", judge_disk),
	W("mamba", w_run_sub),
	H("mariadb", judge_mysql),
	H("mariadb-admin", judge_mysqladmin),
	S("maturin", spec_pypi),
	H("mawk", judge_awk),
	S("mc", spec_datastores),
	H("microk8s.kubectl", judge_kubectl),
	W("micromamba", w_run_sub),
	W("mise", w_mise),
	S("mix", spec_mix),
	H("mkdosfs", judge_disk),
	H("mke2fs", judge_disk),
	H("mkexfatfs", judge_disk),
	H("mkfs", judge_disk),
	H("mkntfs", judge_disk),
	H("mksh", judge_shell),
	H("mkswap", judge_disk),
	H("mongo", judge_mongo),
	H("mongorestore", judge_restore),
	H("mongosh", judge_mongo),
	S("mvn", spec_mvn),
	S("mvnw", spec_mvn),
	H("mycli", judge_mysql),
	H("mysql", judge_mysql),
	H("mysqladmin", judge_mysqladmin),
	H("nawk", judge_awk),
	S("neonctl", spec_datastores),
	H("nerdctl", judge_docker),
	S("netlify", spec_netlify),
	S("netlify-cli", spec_deployers),
	W("nice", w_nice),
	H("nix", judge_nix),
	H("nix-shell", judge_nix),
	W("nocache", w_plain),
	I("node", interp_node),
	I("nodejs", interp_node),
	W("nodenv", w_exec_sub),
	W("nohup", w_plain),
	S("np", spec_always_publish),
	H("npm", judge_pm),
	H("npx", judge_npx),
	S("nsenter", spec_escape_always),
	S("nuget", spec_nuget),
	W("numactl", w_numactl),
	H("nvim", judge_editor),
	W("nvm", w_nvm),
	H("nvme", judge_disk),
	H("oc", judge_kubectl),
	H("oksh", judge_shell),
	W("op", w_dashdash_sub),
	S("oras", spec_registry_images),
	I("osascript", interp_osa),
	S("ovsx", spec_publish_sub),
	H("parallel", judge_parallel),
	H("parted", judge_disk),
	S("pdm", spec_pypi),
	H("perf", judge_runner_misc),
	I("perl", interp_perl),
	H("pg_dropcluster", judge_rm_like),
	H("pg_restore", judge_restore),
	H("pgcli", judge_psql),
	H("php", judge_php),
	W("pipenv", w_run_sub),
	H("pipx", judge_pyrunner),
	W("pkexec", w_pkexec),
	H("pnpm", judge_pm),
	H("pnpx", judge_npx),
	S("pod", spec_pod),
	H("podman", judge_docker),
	S("podman-compose", spec_compose),
	S("poetry", spec_pypi),
	H("posh", judge_shell),
	I("powershell", interp_pwsh),
	S("prisma", spec_prisma),
	W("proxychains", w_proxy),
	W("proxychains4", w_proxy),
	S("pscale", spec_datastores),
	H("psql", judge_psql),
	S("pulumi", spec_pulumi),
	H("pvremove", judge_disk),
	I("pwsh", interp_pwsh),
	W("pyenv", w_exec_sub),
	H("pypy", judge_python),
	H("pypy3", judge_python),
	H("python", judge_python),
	H("python2", judge_python),
	H("python3", judge_python),
	H("python3.10", judge_python),
	H("python3.11", judge_python),
	H("python3.12", judge_python),
	H("python3.13", judge_python),
	H("python3.14", judge_python),
	H("python3.8", judge_python),
	H("python3.9", judge_python),
	S("rails", spec_rake),
	S("rake", spec_rake),
	H("rbash", judge_shell),
	W("rbenv", w_exec_sub),
	S("rclone", spec_rclone),
	H("redis-cli", judge_redis),
	S("regctl", spec_registry_images),
	S("release-it", spec_release_tools),
	S("restic", spec_datastores),
	H("rimraf", judge_rm_like),
	W("rlwrap", w_plain),
	H("rm", judge_rm_like),
	H("rmdir", judge_rm_like),
	H("rsync", judge_rsync),
	W("rtx", w_mise),
	I("ruby", interp_ruby),
	W("run-one", w_plain),
	S("run0", spec_escape_always),
	W("runuser", w_runuser),
	W("rye", w_run_sub),
	S("s3cmd", spec_datastores),
	H("sbsh", judge_shell),
	S("sbt", spec_sbt),
	H("screen", judge_screen),
	W("script", w_script),
	H("sed", judge_sed),
	S("semantic-release", spec_release_tools),
	S("sequelize", spec_dbtools),
	S("sequelize-cli", spec_dbtools),
	S("serverless", spec_deployers),
	W("setsid", w_plain),
	H("sfdisk", judge_disk),
	W("sg", w_sg),
	H("sgdisk", judge_disk),
	H("sh", judge_shell),
	H("shred", judge_rm_like),
	H("skopeo", judge_skopeo),
	S("sls", spec_deployers),
	S("snapcraft", spec_snapcraft),
	H("source", judge_source),
	H("sqlite", judge_sqlite),
	H("sqlite3", judge_sqlite),
	H("srm", judge_rm_like),
	H("ssh", judge_ssh),
	W("ssh-agent", w_plain),
	S("stack", spec_upload),
	W("stdbuf", w_stdbuf),
	W("strace", w_strace),
	W("su", w_su),
	W("sudo", w_sudo),
	S("supabase", spec_dbtools),
	H("surge", judge_surge),
	H("systemctl", judge_systemctl),
	W("systemd-inhibit", w_inhibit),
	S("systemd-run", spec_escape_always),
	S("systemd-run0", spec_escape_always),
	W("taskset", w_taskset),
	H("tee", judge_writer),
	S("terraform", spec_terraform),
	S("terragrunt", spec_terraform),
	W("time", w_time),
	W("timeout", w_timeout),
	W("tini", w_plain),
	S("tmux", spec_tmux),
	S("tofu", spec_terraform),
	W("torsocks", w_proxy),
	H("toybox", judge_busybox),
	H("trap", judge_trap),
	H("trash-empty", judge_rm_like),
	H("trash-rm", judge_rm_like),
	W("tsocks", w_proxy),
	S("turso", spec_datastores),
	S("twine", spec_pypi),
	S("typeorm", spec_dbtools),
	W("unbuffer", w_plain),
	H("unlink", judge_rm_like),
	W("unshare", w_unshare),
	H("uv", judge_pyrunner),
	H("uvx", judge_npx),
	W("vagrant", w_vagrant),
	W("valgrind", w_plain),
	H("valkey-cli", judge_redis),
	S("vault", spec_datastores),
	S("vercel", spec_vercel),
	H("vgremove", judge_disk),
	H("vi", judge_editor),
	H("view", judge_editor),
	H("vim", judge_editor),
	W("volta", w_run_sub),
	S("vsce", spec_publish_sub),
	H("watch", judge_watch),
	H("wezterm", judge_terminal),
	H("wget", judge_http),
	H("wipe", judge_rm_like),
	H("wipefs", judge_disk),
	S("wrangler", spec_deployers),
	W("xargs", w_xargs),
	H("xh", judge_http),
	H("xhs", judge_http),
	W("xvfb-run", w_xvfb),
	H("yadm", judge_git),
	H("yarn", judge_pm),
	H("yarnpkg", judge_pm),
	H("yash", judge_shell),
	H("zellij", judge_terminal),
	H("zfs", judge_disk),
	H("zpool", judge_disk),
	H("zsh", judge_shell),
};

static int tool_compare(const void *key, const void *elem)
{
	return strcmp(key, ((const struct tool *)elem)->name);
}

const struct tool *rules_tool_find(const char *name)
{
	return bsearch(name, tools, sizeof tools / sizeof tools[0], sizeof tools[0], tool_compare);
}

bool rules_table_sorted(void)
{
	for (size_t i = 1; i < sizeof tools / sizeof tools[0]; i++)
		if (strcmp(tools[i - 1].name, tools[i].name) >= 0)
			return false;
	return true;
}
