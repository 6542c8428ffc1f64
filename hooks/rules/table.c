/* The rules as data: every tool by name, and what it is (a handler that
 * reads its arguments, a subcommand spec, a wrapper, an interpreter or a
 * database client), with the specs, wrappers, interpreters and clients.
 * Static data, sorted for bsearch: nothing is read or parsed at run time.
 *
 * A spec's rule has the shape of the user's config line `classify =
 * VERDICT PROGRAM [OPERAND...]` (hooks/classify.h): a verdict and the
 * first operands, `*` a glob, for the tool the spec belongs to, matched
 * by the same code (rules_operands_match); the built-in rules add why
 * (.reason), the flags that make them SAFE (.unless, or the spec's
 * .dry_run for all of them) and the flags they need (.requires). Facts
 * about a tool's options (those taking a value, its dry runs) are the
 * spec's, written once for all its rules. */
#include <stdlib.h>
#include <string.h>

#include "hooks/rules/internal.h"

/* ---- interpreters: code options and standard input ---- */

static const struct interp interp_node = {
	.lang = "node",
	.code_opts = "-e|--eval|-p|--print",
	.short_code = "e",
	.arg_opts = "-r|--require|--import|--loader|-C|--conditions|--input-type",
};
static const struct interp interp_perl = {
	.lang = "perl",
	.short_code = "eE",
	.arg_opts = "-I|-M|-m|-x|-i|-l|-0|-d|-D|-C",
};
static const struct interp interp_ruby = {.lang = "ruby", .short_code = "e", .arg_opts = "-r|-I|-C|-E|-F|-x"};
const struct interp interp_php = {.lang = "php", .short_code = "rRBE", .arg_opts = "-c|-d|-z|-f|-t|-F"};
static const struct interp interp_lua = {.lang = "lua", .short_code = "e", .arg_opts = "-l"};
static const struct interp interp_r = {.lang = "R", .code_opts = "-e|--expr"};
static const struct interp interp_osa = {.lang = "osascript", .short_code = "e", .arg_opts = "-l"};
static const struct interp interp_pwsh = {
	.lang = "powershell",
	.code_opts = "-c|-Command|-command|-C",
	.arg_opts = "-File|-file|-f|-ExecutionPolicy|-ep",
};

/* ---- database clients: SQL in options, operands or standard input ---- */

const struct dbclient db_psql = {
	.sql_opts = "-c|--command",
	.arg_opts = "-d|--dbname|-h|--host|-p|--port|-U|--username|-v|--set|--variable|-o|--output|-P|"
		"--pset|-F|-R|-T|-L|--log-file",
	.file_opts = "-f|--file",
};
const struct dbclient db_mysql = {
	.sql_opts = "-e|--execute",
	.arg_opts = "-u|--user|-h|--host|-P|--port|-D|--database|-S|--socket|--defaults-file|"
		"--default-character-set|-p",
};
const struct dbclient db_sqlite = {
	.sql_opts = "-cmd",
	.arg_opts = "-separator|-newline|-nullvalue|-init",
	.file_opts = "-init",
	.sql_operand = 2,
};
const struct dbclient db_mongo = {
	.sql_opts = "--eval",
	.arg_opts = "--host|--port|-u|--username|-p|--password|--authenticationDatabase|--file|-f",
	.file_opts = "--file|-f",
};
const struct dbclient db_redis = {
	.arg_opts = "-h|-p|-a|-n|-u|-s|--user|--pass|-r|-i|-d|--tls-cert|--tls-key|--cacert",
	.sql_operand = 1,
	.words_are_command = true,
};
const struct dbclient db_clickhouse = {
	.sql_opts = "-q|--query",
	.arg_opts = "-h|--host|--port|-u|--user|--password|-d|--database|--format|-f",
	.file_opts = "--queries-file",
};
const struct dbclient db_cql = {
	.sql_opts = "-e|--execute",
	.arg_opts = "-u|--username|-p|--password|-k|--keyspace|--cqlshrc",
	.file_opts = "-f|--file",
};
const struct dbclient db_duckdb = {
	.sql_opts = "-c|-cmd",
	.arg_opts = "-separator|-newline|-nullvalue|-init",
	.file_opts = "-init",
	.sql_operand = 2,
};

/* ---- subcommand specs ---- */

static const struct tool_spec spec_cargo = {
	.short_arg = "pjZF",
	.long_arg = "--manifest-path|--registry|--token|--index|--config|--color|--target|--features|"
		"--package|--jobs",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "publish", .unless = "--dry-run|-n",
		 .reason = "cargo publish uploads to crates.io"},
		{.verdict = VERDICT_PUBLISH, .operands = "yank", .reason = "cargo yank changes what is published"},
		{.verdict = VERDICT_PUBLISH, .operands = "owner", .requires = "--add|-a|--remove|-r",
		 .reason = "cargo owner changes who can publish"},
		{.verdict = VERDICT_PUBLISH, .operands = "release", .requires = "--execute|-x",
		 .reason = "cargo release --execute publishes"},
		{.verdict = VERDICT_PUBLISH, .operands = "make *publish*", .reason = "a task named for publishing"},
		{.verdict = VERDICT_PUBLISH, .operands = "make *deploy*", .reason = "a task named for deploying"},
		{.verdict = VERDICT_PUBLISH, .operands = "make *upload*", .reason = "a task named for uploading"},
		{.verdict = VERDICT_PUBLISH, .operands = "make *release*", .reason = "a task named for releasing"},
		{.verdict = VERDICT_PUBLISH, .operands = "workspaces publish", .unless = "--dry-run",
		 .reason = "cargo workspaces publish uploads crates"},
		{.verdict = VERDICT_PUBLISH, .operands = "ws publish", .unless = "--dry-run",
		 .reason = "cargo workspaces publish uploads crates"},
		{.verdict = VERDICT_PUBLISH, .operands = "smart-release", .requires = "--execute|-e",
		 .reason = "cargo smart-release --execute publishes"},
		RULES_END,
	},
};

static const struct tool_spec spec_gem = {
	.short_arg = "kC",
	.long_arg = "--key|--host|--otp|--config-file",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "push", .reason = "gem push publishes to RubyGems"},
		{.verdict = VERDICT_PUBLISH, .operands = "yank", .reason = "gem yank changes what is published"},
		{.verdict = VERDICT_PUBLISH, .operands = "owner", .requires = "--add|-a|--remove|-r",
		 .reason = "gem owner changes who can publish"},
		RULES_END,
	},
};

const struct tool_spec spec_pypi = {
	.short_arg = "rupPC",
	.long_arg = "--repository|--repository-url|--username|--password|--token|--publish-url|"
		"--directory|--project|--python|--index|--check-url|--trusted-publishing|--config-file|"
		"--comment|--sign-with|--identity|--cert|--client-cert|--build",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "upload", .unless = "--dry-run",
		 .reason = "uploads to a package index"},
		{.verdict = VERDICT_PUBLISH, .operands = "publish",
		 .unless = "--dry-run|--repository-url-dry-run", .reason = "publishes to a package index"},
		{.verdict = VERDICT_PUBLISH, .operands = "register", .reason = "registers a project on a package index"},
		RULES_END,
	},
};

static const struct tool_spec spec_nuget = {
	.short_arg = "skc",
	.long_arg = "--source|--api-key|--symbol-source|--configfile",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "push", .reason = "nuget push publishes a package"},
		{.verdict = VERDICT_PUBLISH, .operands = "delete", .reason = "nuget delete removes a published package"},
		{.verdict = VERDICT_PUBLISH, .operands = "nuget push",
		 .reason = "dotnet nuget push publishes a package"},
		{.verdict = VERDICT_PUBLISH, .operands = "nuget delete",
		 .reason = "dotnet nuget delete removes a published package"},
		RULES_END,
	},
};

static const struct tool_spec spec_mvn = {
	.short_arg = "fsbtlpPD",
	.long_arg = "--file|--settings|--projects|--threads|--log-file|--activate-profiles|--builder|"
		"--global-settings|--toolchains",
	.flags = SPEC_ANYWHERE,
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "deploy", .reason = "mvn deploy publishes artifacts"},
		{.verdict = VERDICT_PUBLISH, .operands = "deploy:*", .reason = "mvn deploy publishes artifacts"},
		{.verdict = VERDICT_PUBLISH, .operands = "release:perform",
		 .reason = "mvn release:perform publishes a release"},
		{.verdict = VERDICT_PUBLISH, .operands = "nexus-staging:release",
		 .reason = "publishes a staged release"},
		{.verdict = VERDICT_PUBLISH, .operands = "nexus-staging:deploy", .reason = "publishes artifacts"},
		{.verdict = VERDICT_PUBLISH, .operands = "jreleaser:*", .reason = "jreleaser publishes a release"},
		RULES_END,
	},
};

static const struct tool_spec spec_sbt = {
	.flags = SPEC_ANYWHERE,
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "publish", .reason = "sbt publish publishes artifacts"},
		{.verdict = VERDICT_PUBLISH, .operands = "+publish", .reason = "sbt publish publishes artifacts"},
		{.verdict = VERDICT_PUBLISH, .operands = "publishSigned",
		 .reason = "sbt publishSigned publishes artifacts"},
		{.verdict = VERDICT_PUBLISH, .operands = "+publishSigned",
		 .reason = "sbt publishSigned publishes artifacts"},
		{.verdict = VERDICT_PUBLISH, .operands = "sonatypeRelease", .reason = "publishes to Maven Central"},
		{.verdict = VERDICT_PUBLISH, .operands = "sonatypeBundleRelease",
		 .reason = "publishes to Maven Central"},
		{.verdict = VERDICT_PUBLISH, .operands = "sonatypeBundleUpload", .reason = "uploads to Maven Central"},
		{.verdict = VERDICT_PUBLISH, .operands = "ci-release", .reason = "publishes a release"},
		{.verdict = VERDICT_PUBLISH, .operands = "release", .reason = "sbt release publishes a release"},
		RULES_END,
	},
};

static const struct tool_spec spec_rake = {
	.short_arg = "fCIreE",
	.long_arg = "--rakefile|--directory|--libdir|--require|--environment",
	.flags = SPEC_ANYWHERE,
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "*publish*", .reason = "a task named for publishing"},
		{.verdict = VERDICT_PUBLISH, .operands = "*deploy*", .reason = "a task named for deploying"},
		{.verdict = VERDICT_PUBLISH, .operands = "*upload*", .reason = "a task named for uploading"},
		{.verdict = VERDICT_DELETE, .operands = "db:drop", .reason = "drops the database"},
		{.verdict = VERDICT_DELETE, .operands = "db:drop:*", .reason = "drops the database"},
		{.verdict = VERDICT_DELETE, .operands = "db:reset", .reason = "drops and recreates the database"},
		{.verdict = VERDICT_DELETE, .operands = "db:purge", .reason = "empties the database"},
		{.verdict = VERDICT_DELETE, .operands = "db:truncate_all", .reason = "empties the database"},
		{.verdict = VERDICT_DELETE, .operands = "db:migrate:reset",
		 .reason = "drops and recreates the database"},
		{.verdict = VERDICT_DELETE, .operands = "db:schema:load", .reason = "replaces the database contents"},
		{.verdict = VERDICT_DELETE, .operands = "db:seed:replant", .reason = "empties the database"},
		{.verdict = VERDICT_DELETE, .operands = "db:structure:load", .reason = "replaces the database contents"},
		{.verdict = VERDICT_PUBLISH, .operands = "release", .reason = "rake release publishes the gem"},
		{.verdict = VERDICT_PUBLISH, .operands = "release:*", .reason = "rake release publishes the gem"},
		RULES_END,
	},
};

static const struct tool_spec spec_mix = {
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "hex.publish", .unless = "--dry-run",
		 .reason = "mix hex.publish publishes to Hex"},
		{.verdict = VERDICT_PUBLISH, .operands = "hex.retire",
		 .reason = "mix hex.retire changes what is published"},
		{.verdict = VERDICT_PUBLISH, .operands = "hex.owner", .reason = "mix hex.owner changes who can publish"},
		{.verdict = VERDICT_DELETE, .operands = "ecto.drop", .reason = "drops the database"},
		{.verdict = VERDICT_DELETE, .operands = "ecto.reset", .reason = "drops and recreates the database"},
		RULES_END,
	},
};

static const struct tool_spec spec_pod = {
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "trunk push", .reason = "pod trunk push publishes a pod"},
		{.verdict = VERDICT_PUBLISH, .operands = "trunk delete",
		 .reason = "pod trunk delete removes a published pod"},
		{.verdict = VERDICT_PUBLISH, .operands = "trunk deprecate",
		 .reason = "pod trunk deprecate changes what is published"},
		{.verdict = VERDICT_PUBLISH, .operands = "repo push", .reason = "pod repo push publishes a spec"},
		RULES_END,
	},
};

static const struct tool_spec spec_conan = {
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "upload", .reason = "conan upload publishes packages"},
		{.verdict = VERDICT_PUBLISH, .operands = "remove", .requires = "-r|--remote",
		 .reason = "conan remove -r deletes packages from a remote"},
		{.verdict = VERDICT_PUBLISH, .operands = "rm", .requires = "-r|--remote",
		 .reason = "conan remove -r deletes packages from a remote"},
		RULES_END,
	},
};

static const struct tool_spec spec_snapcraft = {
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "upload", .reason = "snapcraft upload publishes a snap"},
		{.verdict = VERDICT_PUBLISH, .operands = "push", .reason = "snapcraft push publishes a snap"},
		{.verdict = VERDICT_PUBLISH, .operands = "release", .reason = "snapcraft release publishes a snap"},
		{.verdict = VERDICT_PUBLISH, .operands = "promote", .reason = "snapcraft promote publishes a snap"},
		{.verdict = VERDICT_PUBLISH, .operands = "close", .reason = "snapcraft close changes what is published"},
		{.verdict = VERDICT_PUBLISH, .operands = "register", .reason = "registers a snap name"},
		RULES_END,
	},
};

static const struct tool_spec spec_upload = {
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "upload", .reason = "uploads a package to its registry"},
		RULES_END,
	},
};

/* Registries whose client publishes, takes back or retires with these
 * words (issue 18's survey): opam, pub, nimble, elm, spago, wasm-pack,
 * gleam, apm, rye, luarocks, zef, quarto, bal, raco, the conda uploaders. */
#define PUBLISH_WORD(w, why) {.verdict = VERDICT_PUBLISH, .operands = (w), .unless = "--dry-run", .reason = (why)}
static const struct tool_spec spec_registry_words = {
	.rules = (const struct operand_rule[]){
		PUBLISH_WORD("publish", "publishes a package to its registry"),
		PUBLISH_WORD("upload", "uploads a package to its registry"),
		PUBLISH_WORD("push", "pushes a package to its registry"),
		PUBLISH_WORD("unpublish", "takes back a published package"),
		PUBLISH_WORD("yank", "takes back a published version"),
		PUBLISH_WORD("retire", "retires a published version"),
		PUBLISH_WORD("deprecate", "deprecates a published package"),
		PUBLISH_WORD("pkg upload", "uploads a package to its registry"),
		PUBLISH_WORD("repo upload", "uploads a package to its channel"),
		PUBLISH_WORD("hex publish", "publishes a package to Hex"),
		PUBLISH_WORD("hex retire", "retires a published Hex version"),
		PUBLISH_WORD("hex revert", "takes back a published Hex version"),
		PUBLISH_WORD("hex cut", "tags and publishes a Hex version"),
		PUBLISH_WORD("hex owner add", "changes who can publish"),
		PUBLISH_WORD("hex owner remove", "changes who can publish"),
		PUBLISH_WORD("hex owner transfer", "changes who can publish"),
		RULES_END,
	},
};

/* Model and data hubs and app hosts that were missing (issue 18): Hugging
 * Face (hf, huggingface-cli), Kaggle, Ollama, PlatformIO, Railway. */
static const struct tool_spec spec_hubs = {
	.short_arg = "pmsecr",
	.long_arg = "--repo-type|--revision|--token|--commit-message|--commit-description|--include|--exclude|"
	            "--path|--project|--environment|--service|--message|--owner|--type|--registry|--profile",
	.rules = (const struct operand_rule[]){
		PUBLISH_WORD("upload", "uploads to a public hub"),
		PUBLISH_WORD("upload-large-folder", "uploads to a public hub"),
		{.verdict = VERDICT_DELETE, .operands = "repo delete", .reason = "deletes a repository on the hub"},
		PUBLISH_WORD("datasets create", "publishes a dataset on Kaggle"),
		PUBLISH_WORD("datasets version", "publishes a dataset version on Kaggle"),
		PUBLISH_WORD("kernels push", "publishes a notebook on Kaggle"),
		PUBLISH_WORD("models create", "publishes a model on Kaggle"),
		PUBLISH_WORD("models update", "changes a published model on Kaggle"),
		PUBLISH_WORD("models instances create", "publishes a model on Kaggle"),
		PUBLISH_WORD("models instances versions create", "publishes a model version on Kaggle"),
		PUBLISH_WORD("competitions submit", "submits to a Kaggle competition"),
		PUBLISH_WORD("push", "pushes a model to its registry"),
		PUBLISH_WORD("pkg publish", "publishes a package to its registry"),
		PUBLISH_WORD("pkg unpublish", "takes back a published package"),
		PUBLISH_WORD("up", "deploys to a hosting service"),
		PUBLISH_WORD("deploy", "deploys to a hosting service"),
		PUBLISH_WORD("redeploy", "deploys to a hosting service"),
		{.verdict = VERDICT_DELETE, .operands = "down", .reason = "removes the latest deployment"},
		RULES_END,
	},
};

/* anaconda (anaconda-client): upload, and remove or move what is on a channel. */
static const struct tool_spec spec_anaconda = {
	.short_arg = "tsu",
	.long_arg = "--token|--site|--user|--label|--channel",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "upload", .reason = "anaconda upload publishes to anaconda.org"},
		{.verdict = VERDICT_PUBLISH, .operands = "remove", .reason = "anaconda remove takes back a published package"},
		{.verdict = VERDICT_PUBLISH, .operands = "move", .reason = "anaconda move changes what a channel publishes"},
		{.verdict = VERDICT_PUBLISH, .operands = "copy", .reason = "anaconda copy publishes to another channel"},
		{.verdict = VERDICT_PUBLISH, .operands = "label", .requires = "--copy|--remove|--lock",
		 .reason = "anaconda label changes what a channel publishes"},
		RULES_END,
	},
};

/* Leiningen, and the Clojure CLI's usual deploy aliases. */
static const struct tool_spec spec_lein = {
	.short_arg = "o",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "deploy", .reason = "lein deploy publishes to a repository (Clojars)"},
		{.verdict = VERDICT_PUBLISH, .operands = "release", .reason = "lein release tags and deploys"},
		RULES_END,
	},
};

/* swift package-registry publish; jfrog rt upload/delete; heroku container:push;
 * cosign sign (uploads the signature); the other release and deploy front ends. */
static const struct tool_spec spec_more_publishers = {
	.rules = (const struct operand_rule[]){
		PUBLISH_WORD("package-registry publish", "swift package-registry publish publishes a package"),
		PUBLISH_WORD("rt upload", "jfrog rt upload publishes to Artifactory"),
		PUBLISH_WORD("rt u", "jfrog rt upload publishes to Artifactory"),
		PUBLISH_WORD("rt delete", "jfrog rt delete removes published artifacts"),
		PUBLISH_WORD("rt del", "jfrog rt delete removes published artifacts"),
		PUBLISH_WORD("rt docker-push", "jfrog rt docker-push publishes an image"),
		PUBLISH_WORD("rt build-publish", "jfrog rt build-publish publishes build info"),
		PUBLISH_WORD("rt bp", "jfrog rt build-publish publishes build info"),
		PUBLISH_WORD("rt upload-build", "jfrog publishes a build"),
		PUBLISH_WORD("sign", "cosign sign uploads a signature to the registry"),
		PUBLISH_WORD("attest", "cosign attest uploads an attestation"),
		PUBLISH_WORD("release create", "creates a release on the forge"),
		PUBLISH_WORD("releases create", "creates a release on the forge"),
		PUBLISH_WORD("release delete", "deletes a published release"),
		PUBLISH_WORD("releases delete", "deletes a published release"),
		PUBLISH_WORD("gh-deploy", "mkdocs gh-deploy publishes the site"),
		PUBLISH_WORD("deploy", "deploys"),
		PUBLISH_WORD("register", "registers a package on its registry"),
		PUBLISH_WORD("unregister", "removes a package from its registry"),
		RULES_END,
	},
};

/* ghp-import publishes only with -p/--push. */
static const struct tool_spec spec_ghp_import = {
	.short_arg = "mrbc",
	.long_arg = "--message|--remote|--branch|--cname|--prefix",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "", .requires = "-p|--push",
		 .reason = "ghp-import --push publishes the site"},
		RULES_END,
	},
};

static const struct tool_spec spec_dart = {
	.dry_run = "--dry-run|-n",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "pub publish", .reason = "pub publish uploads to pub.dev"},
		{.verdict = VERDICT_PUBLISH, .operands = "pub lish", .reason = "pub publish uploads to pub.dev"},
		RULES_END,
	},
};

static const struct tool_spec spec_helm = {
	.short_arg = "n",
	.long_arg = "--namespace|--kube-context|--kubeconfig|--registry-config|--repository-config",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "push", .reason = "helm push publishes a chart"},
		{.verdict = VERDICT_PUBLISH, .operands = "cm-push", .reason = "helm cm-push publishes a chart"},
		{.verdict = VERDICT_DELETE, .operands = "uninstall",
		 .reason = "helm uninstall removes a release and its data"},
		{.verdict = VERDICT_DELETE, .operands = "delete", .reason = "helm delete removes a release"},
		{.verdict = VERDICT_DELETE, .operands = "del", .reason = "helm delete removes a release"},
		{.verdict = VERDICT_DELETE, .operands = "un", .reason = "helm uninstall removes a release"},
		{.verdict = VERDICT_PUBLISH, .operands = "install", .unless = "--dry-run",
		 .reason = "helm install deploys to a cluster"},
		{.verdict = VERDICT_PUBLISH, .operands = "upgrade", .unless = "--dry-run",
		 .reason = "helm upgrade deploys to a cluster"},
		RULES_END,
	},
};

const struct tool_spec spec_terraform = {
	.long_arg = "-chdir|-var|-var-file|-target|-state",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_DELETE, .operands = "destroy",
		 .reason = "terraform destroy deletes the infrastructure"},
		{.verdict = VERDICT_DELETE, .operands = "apply", .requires = "-destroy|--destroy",
		 .reason = "terraform apply -destroy deletes the infrastructure"},
		{.verdict = VERDICT_PUBLISH, .operands = "apply", .unless = "-destroy|--destroy",
		 .reason = "terraform apply changes live infrastructure"},
		{.verdict = VERDICT_DELETE, .operands = "state rm", .reason = "terraform state rm forgets resources"},
		{.verdict = VERDICT_DELETE, .operands = "workspace delete", .reason = "deletes a workspace's state"},
		{.verdict = VERDICT_DELETE, .operands = "run-all destroy",
		 .reason = "terragrunt destroys the infrastructure"},
		{.verdict = VERDICT_PUBLISH, .operands = "run-all apply",
		 .reason = "terragrunt apply changes live infrastructure"},
		RULES_END,
	},
};

static const struct tool_spec spec_pulumi = {
	.short_arg = "sC",
	.long_arg = "--stack|--cwd",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "up", .unless = "--preview-only",
		 .reason = "pulumi up changes live infrastructure"},
		{.verdict = VERDICT_PUBLISH, .operands = "update", .unless = "--preview-only",
		 .reason = "pulumi up changes live infrastructure"},
		{.verdict = VERDICT_DELETE, .operands = "destroy",
		 .reason = "pulumi destroy deletes the infrastructure"},
		{.verdict = VERDICT_DELETE, .operands = "down", .reason = "pulumi destroy deletes the infrastructure"},
		{.verdict = VERDICT_DELETE, .operands = "stack rm", .reason = "pulumi stack rm deletes a stack"},
		RULES_END,
	},
};

static const struct tool_spec spec_deployers = {
	.short_arg = "acp",
	.long_arg = "--app|--config|--project|--only|--env|--site|--token|--dir|--region|--scope",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "deploy", .reason = "deploys to a hosting service"},
		{.verdict = VERDICT_PUBLISH, .operands = "publish", .reason = "publishes"},
		{.verdict = VERDICT_PUBLISH, .operands = "hosting:channel:deploy",
		 .reason = "deploys to a hosting channel"},
		{.verdict = VERDICT_PUBLISH, .operands = "hosting:disable", .reason = "takes a site offline"},
		{.verdict = VERDICT_PUBLISH, .operands = "container:push", .reason = "pushes an image to the hosting service"},
		{.verdict = VERDICT_PUBLISH, .operands = "container:release", .reason = "releases an image to production"},
		{.verdict = VERDICT_PUBLISH, .operands = "releases:rollback", .reason = "changes what production runs"},
		{.verdict = VERDICT_PUBLISH, .operands = "pages deploy", .reason = "deploys to a hosting service"},
		{.verdict = VERDICT_PUBLISH, .operands = "pages publish", .reason = "deploys to a hosting service"},
		{.verdict = VERDICT_PUBLISH, .operands = "versions deploy", .reason = "deploys to a hosting service"},
		{.verdict = VERDICT_PUBLISH, .operands = "promote", .reason = "promotes a deployment to production"},
		{.verdict = VERDICT_DELETE, .operands = "destroy", .reason = "destroys deployed resources"},
		{.verdict = VERDICT_DELETE, .operands = "remove", .reason = "removes deployed resources"},
		{.verdict = VERDICT_DELETE, .operands = "rm", .reason = "removes deployed resources"},
		{.verdict = VERDICT_DELETE, .operands = "delete", .reason = "deletes deployed resources"},
		{.verdict = VERDICT_DELETE, .operands = "firestore:delete", .reason = "deletes database data"},
		{.verdict = VERDICT_DELETE, .operands = "database:remove", .reason = "deletes database data"},
		{.verdict = VERDICT_DELETE, .operands = "functions:delete", .reason = "deletes deployed functions"},
		{.verdict = VERDICT_DELETE, .operands = "apps destroy", .reason = "destroys an app"},
		{.verdict = VERDICT_DELETE, .operands = "apps:destroy", .reason = "destroys an app"},
		{.verdict = VERDICT_DELETE, .operands = "apps delete", .reason = "deletes an app"},
		{.verdict = VERDICT_DELETE, .operands = "volumes destroy", .reason = "destroys a volume and its data"},
		{.verdict = VERDICT_DELETE, .operands = "volumes delete", .reason = "deletes a volume and its data"},
		{.verdict = VERDICT_DELETE, .operands = "volume destroy", .reason = "destroys a volume and its data"},
		{.verdict = VERDICT_DELETE, .operands = "pg:reset", .reason = "empties a database"},
		{.verdict = VERDICT_DELETE, .operands = "sites:delete", .reason = "deletes a site"},
		{.verdict = VERDICT_DELETE, .operands = "teardown", .reason = "takes a site down"},
		{.verdict = VERDICT_DELETE, .operands = "kv key delete", .reason = "deletes stored data"},
		{.verdict = VERDICT_DELETE, .operands = "kv:key delete", .reason = "deletes stored data"},
		{.verdict = VERDICT_DELETE, .operands = "r2 object delete", .reason = "deletes stored data"},
		{.verdict = VERDICT_DELETE, .operands = "r2 bucket delete", .reason = "deletes stored data"},
		{.verdict = VERDICT_DELETE, .operands = "d1 delete", .reason = "deletes a database"},
		RULES_END,
	},
};

static const struct tool_spec spec_vercel = {
	.short_arg = "tAS",
	.long_arg = "--token|--scope|--local-config|--global-config",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "", .requires = "--prod|--production",
		 .reason = "vercel --prod deploys to production"},
		{.verdict = VERDICT_PUBLISH, .operands = "promote", .reason = "vercel promote deploys to production"},
		{.verdict = VERDICT_DELETE, .operands = "remove", .reason = "vercel remove deletes deployments"},
		{.verdict = VERDICT_DELETE, .operands = "rm", .reason = "vercel remove deletes deployments"},
		RULES_END,
	},
};

static const struct tool_spec spec_netlify = {
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "deploy", .requires = "--prod|-p|--prod-if-unlocked",
		 .reason = "netlify deploy --prod deploys to production"},
		{.verdict = VERDICT_DELETE, .operands = "sites:delete", .reason = "deletes a site"},
		RULES_END,
	},
};

static const struct tool_spec spec_always_publish = {
	.dry_run = "--dry-run",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = ""},
		RULES_END,
	},
};

static const struct tool_spec spec_release_tools = {
	.dry_run = "--dry-run|-d|--preview|--snapshot|--skip-publish|--skip=publish|--release-version|"
		"--changelog",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = ""},
		RULES_END,
	},
};

static const struct tool_spec spec_goreleaser = {
	.dry_run = "--snapshot|--skip-publish|--skip=publish",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "^", .reason = "goreleaser publishes a release"},
		{.verdict = VERDICT_PUBLISH, .operands = "release", .reason = "goreleaser publishes a release"},
		RULES_END,
	},
};

static const struct tool_spec spec_publish_sub = {
	.short_arg = "p",
	.long_arg = "--pat|--registry|--token|--packagePath",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "publish", .unless = "--dry-run|--no-publish|--preview",
		 .reason = "publishes a package"},
		{.verdict = VERDICT_PUBLISH, .operands = "unpublish", .reason = "unpublishes a package"},
		{.verdict = VERDICT_PUBLISH, .operands = "full-release", .reason = "publishes a release"},
		{.verdict = VERDICT_PUBLISH, .operands = "release", .reason = "publishes a release"},
		{.verdict = VERDICT_PUBLISH, .operands = "deploy", .reason = "publishes a release"},
		{.verdict = VERDICT_PUBLISH, .operands = "upload", .reason = "uploads a release"},
		RULES_END,
	},
};

static const struct tool_spec spec_registry_images = {
	.long_arg = "--platform",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "push", .reason = "pushes an image to a registry"},
		{.verdict = VERDICT_PUBLISH, .operands = "copy", .reason = "copies an image to a registry"},
		{.verdict = VERDICT_PUBLISH, .operands = "cp", .reason = "copies an image to a registry"},
		{.verdict = VERDICT_PUBLISH, .operands = "append", .reason = "pushes an image to a registry"},
		{.verdict = VERDICT_PUBLISH, .operands = "mutate", .reason = "pushes an image to a registry"},
		{.verdict = VERDICT_PUBLISH, .operands = "tag", .reason = "changes a tag in a registry"},
		{.verdict = VERDICT_PUBLISH, .operands = "rebase", .reason = "pushes an image to a registry"},
		{.verdict = VERDICT_PUBLISH, .operands = "flatten", .reason = "pushes an image to a registry"},
		{.verdict = VERDICT_PUBLISH, .operands = "attach", .reason = "pushes an artifact to a registry"},
		{.verdict = VERDICT_PUBLISH, .operands = "index append", .reason = "pushes an index to a registry"},
		{.verdict = VERDICT_PUBLISH, .operands = "manifest push", .reason = "pushes a manifest to a registry"},
		{.verdict = VERDICT_DELETE, .operands = "delete", .reason = "deletes an image from a registry"},
		{.verdict = VERDICT_DELETE, .operands = "manifest delete", .reason = "deletes an image from a registry"},
		{.verdict = VERDICT_DELETE, .operands = "blob delete", .reason = "deletes data from a registry"},
		RULES_END,
	},
};

static const struct tool_spec spec_ko = {
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "build", .unless = "--local|-L|--push=false",
		 .reason = "ko build pushes images"},
		{.verdict = VERDICT_PUBLISH, .operands = "publish", .unless = "--local|-L|--push=false",
		 .reason = "ko publish pushes images"},
		{.verdict = VERDICT_PUBLISH, .operands = "apply", .reason = "ko apply deploys"},
		{.verdict = VERDICT_PUBLISH, .operands = "resolve", .unless = "--local|-L|--push=false",
		 .reason = "ko resolve pushes images"},
		{.verdict = VERDICT_PUBLISH, .operands = "create", .reason = "ko create deploys"},
		RULES_END,
	},
};

static const struct tool_spec spec_rclone = {
	.long_arg = "--config|--exclude|--include|--filter|--transfers|--checkers|--bwlimit|--log-file|"
		"--backup-dir",
	.dry_run = "--dry-run|-n",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_DELETE, .operands = "delete", .reason = "rclone delete removes files"},
		{.verdict = VERDICT_DELETE, .operands = "deletefile", .reason = "rclone deletefile removes a file"},
		{.verdict = VERDICT_DELETE, .operands = "purge",
		 .reason = "rclone purge removes a path and its contents"},
		{.verdict = VERDICT_DELETE, .operands = "rmdir", .reason = "rclone rmdir removes a directory"},
		{.verdict = VERDICT_DELETE, .operands = "rmdirs", .reason = "rclone rmdirs removes directories"},
		{.verdict = VERDICT_DELETE, .operands = "cleanup", .reason = "rclone cleanup empties the trash"},
		{.verdict = VERDICT_DELETE, .operands = "sync",
		 .reason = "rclone sync deletes files missing from the source"},
		{.verdict = VERDICT_DELETE, .operands = "bisync", .reason = "rclone bisync deletes files"},
		{.verdict = VERDICT_DELETE, .operands = "move", .reason = "rclone move deletes the source"},
		{.verdict = VERDICT_DELETE, .operands = "moveto", .reason = "rclone moveto deletes the source"},
		{.verdict = VERDICT_DELETE, .operands = "dedupe", .reason = "rclone dedupe deletes duplicates"},
		RULES_END,
	},
};

static const struct tool_spec spec_prisma = {
	.long_arg = "--schema",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_DELETE, .operands = "migrate reset",
		 .reason = "prisma migrate reset drops the database"},
		{.verdict = VERDICT_DELETE, .operands = "db push",
		 .requires = "--force-reset|--accept-data-loss",
		 .reason = "prisma db push --force-reset drops the database"},
		{.verdict = VERDICT_DELETE, .operands = "db drop", .reason = "drops the database"},
		RULES_END,
	},
};

const struct tool_spec spec_dbtools = {
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "*publish*", .reason = "a task named for publishing"},
		{.verdict = VERDICT_PUBLISH, .operands = "*deploy*", .reason = "a task named for deploying"},
		{.verdict = VERDICT_PUBLISH, .operands = "*upload*", .reason = "a task named for uploading"},
		{.verdict = VERDICT_DELETE, .operands = "db:drop", .reason = "drops the database"},
		{.verdict = VERDICT_DELETE, .operands = "db:drop:*", .reason = "drops the database"},
		{.verdict = VERDICT_DELETE, .operands = "schema:drop", .reason = "drops the schema"},
		{.verdict = VERDICT_DELETE, .operands = "db reset", .reason = "drops and recreates the database"},
		{.verdict = VERDICT_DELETE, .operands = "migrate:fresh", .reason = "drops all tables"},
		{.verdict = VERDICT_DELETE, .operands = "migrate:reset", .reason = "rolls back every migration"},
		{.verdict = VERDICT_DELETE, .operands = "migrate:refresh", .reason = "rolls back every migration"},
		{.verdict = VERDICT_DELETE, .operands = "db:wipe", .reason = "drops all tables"},
		{.verdict = VERDICT_DELETE, .operands = "db:reset", .reason = "drops and recreates the database"},
		{.verdict = VERDICT_DELETE, .operands = "migrate:rollback", .reason = "rolls back migrations"},
		RULES_END,
	},
};

static const struct tool_spec spec_datastores = {
	.long_arg = "--config|--profile|--region|--endpoint|--address|--namespace|-r|--repo",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_DELETE, .operands = "rm", .reason = "deletes stored objects"},
		{.verdict = VERDICT_DELETE, .operands = "rb", .reason = "deletes a bucket"},
		{.verdict = VERDICT_DELETE, .operands = "del", .reason = "deletes stored data"},
		{.verdict = VERDICT_DELETE, .operands = "delete", .reason = "deletes stored data"},
		{.verdict = VERDICT_DELETE, .operands = "destroy", .reason = "destroys stored data"},
		{.verdict = VERDICT_DELETE, .operands = "purge", .reason = "purges stored data"},
		{.verdict = VERDICT_DELETE, .operands = "forget", .reason = "forgets backups"},
		{.verdict = VERDICT_DELETE, .operands = "prune", .reason = "deletes backups"},
		{.verdict = VERDICT_DELETE, .operands = "remove", .reason = "deletes stored data"},
		{.verdict = VERDICT_DELETE, .operands = "kv delete", .reason = "deletes stored secrets"},
		{.verdict = VERDICT_DELETE, .operands = "kv destroy", .reason = "destroys stored secrets"},
		{.verdict = VERDICT_DELETE, .operands = "kv metadata delete", .reason = "deletes stored secrets"},
		{.verdict = VERDICT_DELETE, .operands = "secrets disable",
		 .reason = "deletes a secrets engine and its data"},
		{.verdict = VERDICT_DELETE, .operands = "database delete", .reason = "deletes a database"},
		{.verdict = VERDICT_DELETE, .operands = "branch delete", .reason = "deletes a database branch"},
		{.verdict = VERDICT_DELETE, .operands = "db destroy", .reason = "destroys a database"},
		{.verdict = VERDICT_DELETE, .operands = "branches delete", .reason = "deletes a database branch"},
		{.verdict = VERDICT_DELETE, .operands = "mirror", .requires = "--remove|--delete",
		 .reason = "mirror --remove deletes files at the destination"},
		{.verdict = VERDICT_DELETE, .operands = "sync",
		 .requires = "--delete-removed|--delete-destination|--delete",
		 .reason = "sync deletes files at the destination"},
		{.verdict = VERDICT_DELETE, .operands = "drop", .reason = "drops content"},
		{.verdict = VERDICT_DELETE, .operands = "gc", .reason = "deletes unused data"},
		RULES_END,
	},
};

static const struct tool_spec spec_glab = {
	.short_arg = "R",
	.long_arg = "--repo",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_PUBLISH, .operands = "release create",
		 .reason = "glab release create publishes a release"},
		{.verdict = VERDICT_PUBLISH, .operands = "release upload", .reason = "glab release upload publishes"},
		{.verdict = VERDICT_DELETE, .operands = "release delete",
		 .reason = "glab release delete deletes a release"},
		{.verdict = VERDICT_DELETE, .operands = "repo delete",
		 .reason = "glab repo delete deletes a repository"},
		{.verdict = VERDICT_PUBLISH, .operands = "repo create", .requires = "--public",
		 .reason = "glab repo create --public publishes a repository"},
		{.verdict = VERDICT_PUBLISH, .operands = "repo archive", .reason = "changes a published repository"},
		RULES_END,
	},
};

const struct tool_spec spec_kubectl = {
	.short_arg = "ncslf",
	.long_arg = "--namespace|--context|--cluster|--kubeconfig|--server|--user|--filename|--selector|"
		"--output|-o",
	.dry_run = "--dry-run",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_DELETE, .operands = "delete", .reason = "kubectl delete deletes cluster resources"},
		{.verdict = VERDICT_PUBLISH, .operands = "apply", .reason = "kubectl apply deploys to a cluster"},
		{.verdict = VERDICT_PUBLISH, .operands = "create", .reason = "kubectl create deploys to a cluster"},
		{.verdict = VERDICT_PUBLISH, .operands = "replace", .reason = "kubectl replace deploys to a cluster"},
		{.verdict = VERDICT_DELETE, .operands = "drain", .reason = "kubectl drain evicts workloads"},
		RULES_END,
	},
};

const struct tool_spec spec_compose = {
	.short_arg = "fp",
	.long_arg = "--file|--project-name|--profile|--env-file|--project-directory",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_DELETE, .operands = "down", .requires = "-v|--volumes",
		 .reason = "compose down -v deletes volumes"},
		{.verdict = VERDICT_DELETE, .operands = "rm", .requires = "-v|--volumes",
		 .reason = "compose rm -v deletes volumes"},
		{.verdict = VERDICT_PUBLISH, .operands = "push", .reason = "compose push pushes images"},
		RULES_END,
	},
};

static const char tmux_runs[] = "tmux runs a command outside the sandbox";
static const struct tool_spec spec_tmux = {
	.short_arg = "LSfcT",
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_ESCAPE, .operands = "send-keys",
		 .reason = "tmux send-keys types into a shell outside the sandbox"},
		{.verdict = VERDICT_ESCAPE, .operands = "send",
		 .reason = "tmux send-keys types into a shell outside the sandbox"},
		{.verdict = VERDICT_ESCAPE, .operands = "new-window", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "neww", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "new-session", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "new", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "split-window", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "splitw", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "respawn-pane", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "respawnp", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "respawn-window", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "respawnw", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "run-shell", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "run", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "if-shell", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "if", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "display-popup", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "popup", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "pipe-pane", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "pipep", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "source-file",
		 .reason = "tmux runs commands outside the sandbox"},
		{.verdict = VERDICT_ESCAPE, .operands = "source", .reason = "tmux runs commands outside the sandbox"},
		{.verdict = VERDICT_ESCAPE, .operands = "set-hook", .reason = tmux_runs},
		{.verdict = VERDICT_ESCAPE, .operands = "command-prompt", .reason = tmux_runs},
		RULES_END,
	},
};

static const struct tool_spec spec_escape_always = {
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_ESCAPE, .operands = ""},
		RULES_END,
	},
};

static const struct tool_spec spec_dbus = {
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_ESCAPE, .operands = "call", .reason = "calls a service outside the sandbox"},
		{.verdict = VERDICT_ESCAPE, .operands = "set-property",
		 .reason = "changes a service outside the sandbox"},
		{.verdict = VERDICT_ESCAPE, .operands = "emit", .reason = "signals a service outside the sandbox"},
		RULES_END,
	},
};

const struct tool_spec spec_cloud = {
	.long_arg = "--project|--region|--zone|--account|--configuration|--format|--subscription|"
		"--resource-group|-g|--name|-n",
	.flags = SPEC_ANYWHERE,
	.rules = (const struct operand_rule[]){
		{.verdict = VERDICT_DELETE, .operands = "delete", .reason = "deletes cloud resources"},
		{.verdict = VERDICT_DELETE, .operands = "purge", .reason = "purges cloud resources"},
		{.verdict = VERDICT_PUBLISH, .operands = "deploy", .reason = "deploys"},
		{.verdict = VERDICT_PUBLISH, .operands = "publish", .reason = "publishes"},
		RULES_END,
	},
};

/* ---- wrappers: options, then another command ---- */

static const struct wrapper w_plain = {.mode = WRAP_ARGV};
static const struct wrapper w_command = {.safe_opts = "-v|-V"};
static const struct wrapper w_exec = {.short_arg = "a"};
static const struct wrapper w_nice = {.short_arg = "n", .long_arg = "--adjustment"};
static const struct wrapper w_stdbuf = {.short_arg = "ioe", .long_arg = "--input|--output|--error"};
static const struct wrapper w_timeout = {.short_arg = "sk", .long_arg = "--signal|--kill-after", .npos = 1};
static const struct wrapper w_time = {.short_arg = "of", .long_arg = "--output|--format"};
static const struct wrapper w_taskset = {.long_arg = "--cpu-list", .npos = 1, .safe_opts = "-p|--pid"};
static const struct wrapper w_flock = {
	.short_arg = "wEo",
	.long_arg = "--timeout|--wait|--conflict-exit-code",
	.npos = 1,
	.text_opts = "-c|--command",
};
static const struct wrapper w_sudo = {
	.short_arg = "ugpCDrtTUh",
	.long_arg = "--user|--group|--prompt|--close-from|--chdir|--role|--type|--command-timeout|"
		"--other-user|--host",
	.safe_opts = "-l|--list|-e|--edit|-v|--validate|-k|--reset-timestamp|-K|--remove-timestamp|-V",
	.shell_opts = "-s|--shell|-i|--login",
};
static const struct wrapper w_doas = {.short_arg = "uC", .shell_opts = "-s"};
static const struct wrapper w_pkexec = {.long_arg = "--user"};
static const struct wrapper w_su = {
	.short_arg = "sgGw",
	.long_arg = "--shell|--group|--supp-group|--whitelist-environment|--user",
	.mode = WRAP_DASHDASH,
	.text_opts = "-c|--command|--session-command",
};
static const struct wrapper w_runuser = {
	.short_arg = "ugGw",
	.long_arg = "--user|--group|--supp-group|--whitelist-environment",
	.text_opts = "-c|--command|--session-command",
};
static const struct wrapper w_chroot = {.long_arg = "--userspec|--groups", .npos = 1};
static const struct wrapper w_unshare = {
	.short_arg = "SGRwt",
	.long_arg = "--propagation|--setgroups|--map-user|--map-group|--map-users|--map-groups|--root|"
		"--wd|--setuid|--setgid|--load-interp",
};
static const struct wrapper w_strace = {
	.short_arg = "oeEpPsuSaIOXb",
	.long_arg = "--output|--trace|--signal|--status|--attach|--user|--env|--string-limit|"
		"--summary-sort-by|--columns|--decode-fds|--trace-path",
};
static const struct wrapper w_ltrace = {.short_arg = "oeEpsuSaAnlxL", .long_arg = "--output|--library"};
static const struct wrapper w_ionice = {
	.short_arg = "cn",
	.long_arg = "--class|--classdata",
	.safe_opts = "-p|--pid|-P|--pgid|-u|--uid",
};
static const struct wrapper w_chrt = {
	.short_arg = "T",
	.long_arg = "--sched-runtime|--sched-deadline|--sched-period",
	.npos = 1,
	.safe_opts = "-p|--pid",
};
static const struct wrapper w_cpulimit = {.short_arg = "lpe", .long_arg = "--limit|--pid|--exe"};
static const struct wrapper w_xvfb = {
	.short_arg = "nsfep",
	.long_arg = "--server-num|--server-args|--auth-file|--error-file|--xauth-protocol",
};
static const struct wrapper w_dbusrun = {.long_arg = "--config-file|--dbus-daemon"};
static const struct wrapper w_fakeroot = {.short_arg = "si"};
static const struct wrapper w_proxy = {.short_arg = "fupPa"};
static const struct wrapper w_faketime = {.long_arg = "--exclude-monotonic", .npos = 1};
static const struct wrapper w_numactl = {
	.short_arg = "NmCpiP",
	.long_arg = "--cpunodebind|--membind|--physcpubind|--preferred|--interleave",
	.safe_opts = "-s|--show|-H|--hardware",
};
static const struct wrapper w_inhibit = {.long_arg = "--what|--who|--why|--mode"};
static const struct wrapper w_sg = {.npos = 1, .mode = WRAP_TEXT, .text_opts = "-c"};
static const struct wrapper w_script = {
	.short_arg = "IOBTEm",
	.long_arg = "--log-in|--log-out|--log-io|--log-timing|--echo|--logging-format|--output-limit",
	.mode = WRAP_DASHDASH,
	.text_opts = "-c|--command",
};
static const struct wrapper w_entr = {.shell_opts = "-s"};
/* util-linux and friends that run a command with something changed */
static const struct wrapper w_setarch = {.npos = 1, .safe_opts = "--list"};
static const struct wrapper w_setpriv = {
	.long_arg = "--reuid|--regid|--ruid|--euid|--rgid|--egid|--groups|--inh-caps|--ambient-caps|--bounding-set|"
		"--securebits|--pdeathsig|--selinux-label|--apparmor-profile|--landlock-access|--landlock-rule|"
		"--seccomp-filter",
	.safe_opts = "-d|--dump|--list-caps",
};
static const struct wrapper w_prlimit = {.short_arg = "o", .long_arg = "--output", .safe_opts = "-p|--pid"};
static const struct wrapper w_choom = {.short_arg = "n", .long_arg = "--adjust", .safe_opts = "-p|--pid"};
static const struct wrapper w_daemonize = {.short_arg = "ceopluE"};
/* the dynamic loader runs the program it is given: ld.so ./prog args */
const struct wrapper w_ldso = {
	.long_arg = "--library-path|--inhibit-rpath|--audit|--preload|--argv0|--glibc-hwcaps-prepend|"
		"--glibc-hwcaps-mask",
	.safe_opts = "--list|--verify|--list-tunables|--list-diagnostics",
};
/* file watchers that run a command on each change */
static const struct wrapper w_watchexec = {
	.short_arg = "wefidsEW",
	.long_arg = "--watch|--exts|--filter|--ignore|--debounce|--signal|--shell|--env|--project-origin|--workdir|"
		"--delay-run|--on-busy-update|--stop-signal|--stop-timeout|--emit-events-to|--filter-file|"
		"--ignore-file|--notify|--color|--poll|--watch-non-recursive",
	.mode = WRAP_TEXT,
};
static const struct wrapper w_nodemon = {
	.short_arg = "wedVI",
	.long_arg = "--watch|--ext|--ignore|--delay|--signal|--config|--exitcrash",
	.mode = WRAP_DASHDASH,
	.text_opts = "-x|--exec",
};
static const struct wrapper w_xargs = {
	.short_arg = "adEILnPs",
	.long_arg = "--arg-file|--delimiter|--eof|--replace|--max-lines|--max-args|--max-procs|"
		"--max-chars|--process-slot-var",
	.mode = WRAP_XARGS,
};
static const struct wrapper w_run_sub = {
	.sub = "run",
	.short_arg = "nfpe",
	.long_arg = "--name|--prefix|--cwd|--env|--node|--npm|--yarn|--pnpm|--with|--python|-p",
};
static const struct wrapper w_exec_sub = {.sub = "exec", .long_arg = "--using|--gemfile"};
static const struct wrapper w_dashdash_sub = {
	.sub = "run",
	.short_arg = "f",
	.long_arg = "--env-file|--project|--config|--env|--token|-e",
	.mode = WRAP_DASHDASH,
	.text_opts = "--command",
};
static const struct wrapper w_aws_vault = {
	.sub = "exec",
	.short_arg = "d",
	.long_arg = "--duration|--region|--mfa-token|--server-port",
	.npos = 1,
};
/* direnv exec DIR CMD, nvm exec VERSION CMD */
static const struct wrapper w_exec_operand = {.sub = "exec", .npos = 1};
static const struct wrapper w_dotenv = {.short_arg = "evcp", .long_arg = "--env-file|--convention"};
static const struct wrapper w_mise = {
	.sub = "exec",
	.long_arg = "--cd|--jobs|-C|-j|--env|-E",
	.mode = WRAP_DASHDASH,
	.text_opts = "-c|--command",
};
static const struct wrapper w_vagrant = {.sub = "ssh", .mode = WRAP_DASHDASH, .text_opts = "-c|--command"};
/* watch runs its operands as shell text, or as an argv with -x */
#define WATCH_SHORT_ARGS "nq"
#define WATCH_LONG_ARGS "--interval|--equexit"
const struct wrapper w_watch_text = {
	.short_arg = WATCH_SHORT_ARGS,
	.long_arg = WATCH_LONG_ARGS,
	.mode = WRAP_TEXT,
};
const struct wrapper w_watch_argv = {.short_arg = WATCH_SHORT_ARGS, .long_arg = WATCH_LONG_ARGS};
/* perf stat|record|trace CMD */
#define PERF_SHORT_ARGS "eoptCcFrGIxmM"
#define PERF_LONG_ARGS "--event|--output|--pid|--tid|--cpu"
const struct wrapper w_perf_stat = {
	.sub = "stat",
	.short_arg = PERF_SHORT_ARGS,
	.long_arg = PERF_LONG_ARGS "|--repeat",
};
const struct wrapper w_perf_record = {
	.sub = "record",
	.short_arg = PERF_SHORT_ARGS,
	.long_arg = PERF_LONG_ARGS "|--freq|--call-graph",
};
const struct wrapper w_perf_trace = {.sub = "trace", .short_arg = PERF_SHORT_ARGS, .long_arg = PERF_LONG_ARGS};

/* ---- the tools, sorted by name (strcmp order): looked up with bsearch ---- */

static const struct tool tools[] = {
	{.name = ".", .fn = judge_source},
	{.name = "7z", .fn = judge_archiver},
	{.name = "7za", .fn = judge_archiver},
	{.name = "7zr", .fn = judge_archiver},
	{.name = "R", .interp = &interp_r},
	{.name = "Rscript", .interp = &interp_r},
	{.name = "anaconda", .spec = &spec_anaconda},
	{.name = "ant", .fn = judge_task_runner},
	{.name = "apm", .spec = &spec_registry_words},
	{.name = "artisan", .spec = &spec_dbtools},
	{.name = "asdf", .wrap = &w_exec_sub},
	{.name = "ash", .fn = judge_shell},
	{.name = "at", .fn = judge_at},
	{.name = "awk", .fn = judge_awk},
	{.name = "aws", .fn = judge_aws},
	{.name = "aws-vault", .wrap = &w_aws_vault},
	{.name = "az", .fn = judge_gsutil},
	{.name = "azcopy", .spec = &spec_datastores},
	{.name = "b2", .spec = &spec_datastores},
	{.name = "bal", .spec = &spec_registry_words},
	{.name = "ballerina", .spec = &spec_registry_words},
	{.name = "bash", .fn = judge_shell},
	{.name = "batch", .fn = judge_at},
	{.name = "blkdiscard", .fn = judge_disk},
	{.name = "borg", .spec = &spec_datastores},
	{.name = "bower", .spec = &spec_more_publishers},
	{.name = "bsdtar", .fn = judge_tar},
	{.name = "buildah", .fn = judge_docker},
	{.name = "builtin", .wrap = &w_plain},
	{.name = "bun", .fn = judge_pm},
	{.name = "bundle", .wrap = &w_exec_sub},
	{.name = "bundler", .wrap = &w_exec_sub},
	{.name = "bunx", .fn = judge_npx},
	{.name = "busctl", .spec = &spec_dbus},
	{.name = "busybox", .fn = judge_busybox},
	{.name = "cabal", .spec = &spec_upload},
	{.name = "cap", .fn = judge_task_runner},
	{.name = "cargo", .spec = &spec_cargo},
	{.name = "catchsegv", .wrap = &w_plain},
	{.name = "ccache", .wrap = &w_plain},
	{.name = "cdk", .spec = &spec_deployers},
	{.name = "cfdisk", .fn = judge_disk},
	{.name = "changeset", .spec = &spec_publish_sub},
	{.name = "changesets", .spec = &spec_publish_sub},
	{.name = "choom", .wrap = &w_choom},
	{.name = "chroot", .wrap = &w_chroot},
	{.name = "chrt", .wrap = &w_chrt},
	{.name = "clickhouse-client", .db = &db_clickhouse},
	{.name = "cmake", .fn = judge_cmake},
	{.name = "command", .wrap = &w_command},
	{.name = "compgen", .fn = judge_compgen},
	{.name = "conan", .spec = &spec_conan},
	{.name = "conda", .wrap = &w_run_sub, .spec = &spec_registry_words},
	{.name = "consul", .spec = &spec_datastores},
	{.name = "coproc", .wrap = &w_plain},
	{.name = "corepack", .fn = judge_pyrunner},
	{.name = "coreutils", .fn = judge_coreutils},
	{.name = "cosign", .spec = &spec_more_publishers},
	{.name = "cp", .fn = judge_writer},
	{.name = "cpan-upload", .spec = &spec_always_publish},
	{.name = "cpulimit", .wrap = &w_cpulimit},
	{.name = "cqlsh", .db = &db_cql},
	{.name = "cr", .spec = &spec_registry_words},
	{.name = "crane", .spec = &spec_registry_images},
	{.name = "crontab", .fn = judge_at},
	{.name = "cryptsetup", .fn = judge_disk},
	{.name = "curl", .fn = judge_http},
	{.name = "curlie", .fn = judge_http},
	{.name = "daemonize", .wrap = &w_daemonize},
	{.name = "dart", .spec = &spec_dart},
	{.name = "dash", .fn = judge_shell},
	{.name = "dbus-launch", .wrap = &w_plain},
	{.name = "dbus-run-session", .wrap = &w_dbusrun},
	{.name = "dbus-send", .spec = &spec_dbus},
	{.name = "dd", .fn = judge_writer},
	{.name = "del", .fn = judge_rm_like},
	{.name = "del-cli", .fn = judge_rm_like},
	{.name = "deno", .fn = judge_deno},
	{.name = "devbox", .wrap = &w_run_sub},
	{.name = "direnv", .wrap = &w_exec_operand},
	{.name = "distcc", .wrap = &w_plain},
	{.name = "distrobox-host-exec", .spec = &spec_escape_always},
	{.name = "dmsetup", .fn = judge_disk},
	{.name = "doas", .wrap = &w_doas},
	{.name = "docker", .fn = judge_docker},
	{.name = "docker-compose", .spec = &spec_compose},
	{.name = "doppler", .wrap = &w_dashdash_sub},
	{.name = "dotenv", .wrap = &w_dotenv},
	{.name = "dotenvx", .wrap = &w_dashdash_sub},
	{.name = "dotnet", .spec = &spec_nuget},
	{.name = "dropdb", .fn = judge_rm_like},
	{.name = "dropuser", .fn = judge_rm_like},
	{.name = "duckdb", .db = &db_duckdb},
	{.name = "dumb-init", .wrap = &w_plain},
	{.name = "dvc", .spec = &spec_datastores},
	{.name = "eatmydata", .wrap = &w_plain},
	{.name = "elm", .spec = &spec_registry_words},
	{.name = "entr", .wrap = &w_entr},
	{.name = "env", .fn = judge_env},
	{.name = "escape", .fn = judge_escape},
	{.name = "etcdctl", .spec = &spec_datastores},
	{.name = "eval", .fn = judge_eval},
	{.name = "ex", .fn = judge_editor},
	{.name = "exec", .wrap = &w_exec},
	{.name = "fab", .fn = judge_task_runner},
	{.name = "fakeroot", .wrap = &w_fakeroot},
	{.name = "faketime", .wrap = &w_faketime},
	{.name = "fd", .fn = judge_fd},
	{.name = "fdfind", .fn = judge_fd},
	{.name = "fdisk", .fn = judge_disk},
	{.name = "finch", .fn = judge_docker},
	{.name = "find", .fn = judge_find},
	{.name = "firebase", .spec = &spec_deployers},
	{.name = "firejail", .wrap = &w_plain},
	{.name = "fish", .fn = judge_shell},
	{.name = "flatpak-spawn", .spec = &spec_escape_always},
	{.name = "flit", .spec = &spec_pypi},
	{.name = "flock", .wrap = &w_flock},
	{.name = "flutter", .spec = &spec_dart},
	{.name = "fly", .spec = &spec_deployers},
	{.name = "flyctl", .spec = &spec_deployers},
	{.name = "fnm", .wrap = &w_exec_sub},
	{.name = "gawk", .fn = judge_awk},
	{.name = "gcloud", .fn = judge_gsutil},
	{.name = "gcp", .fn = judge_writer},
	{.name = "gcrane", .spec = &spec_registry_images},
	{.name = "gdb", .fn = judge_runner_misc},
	{.name = "gdbus", .spec = &spec_dbus},
	{.name = "gdisk", .fn = judge_disk},
	{.name = "gem", .spec = &spec_gem},
	{.name = "gfind", .fn = judge_find},
	{.name = "gh", .fn = judge_gh},
	{.name = "gh-pages", .spec = &spec_always_publish},
	{.name = "ghp-import", .spec = &spec_ghp_import},
	{.name = "git", .fn = judge_git},
	{.name = "git-annex", .spec = &spec_datastores},
	{.name = "glab", .spec = &spec_glab},
	{.name = "gleam", .spec = &spec_registry_words},
	{.name = "gmake", .fn = judge_make},
	{.name = "goreleaser", .spec = &spec_goreleaser},
	{.name = "gradle", .fn = judge_gradle},
	{.name = "gradlew", .fn = judge_gradle},
	{.name = "grunt", .fn = judge_task_runner},
	{.name = "gsed", .fn = judge_sed},
	{.name = "gsutil", .fn = judge_gsutil},
	{.name = "gtar", .fn = judge_tar},
	{.name = "gtimeout", .wrap = &w_timeout},
	{.name = "gulp", .fn = judge_task_runner},
	{.name = "hatch", .spec = &spec_pypi},
	{.name = "hdparm", .fn = judge_disk},
	{.name = "helm", .spec = &spec_helm},
	{.name = "heroku", .spec = &spec_deployers},
	{.name = "hf", .spec = &spec_hubs},
	{.name = "host-spawn", .spec = &spec_escape_always},
	{.name = "http", .fn = judge_http},
	{.name = "https", .fn = judge_http},
	{.name = "hub", .fn = judge_git},
	{.name = "huggingface-cli", .spec = &spec_hubs},
	{.name = "hugo", .spec = &spec_more_publishers},
	{.name = "hyperfine", .fn = judge_runner_misc},
	{.name = "i386", .wrap = &w_plain},
	{.name = "infisical", .wrap = &w_dashdash_sub},
	{.name = "install", .fn = judge_writer},
	{.name = "inv", .fn = judge_task_runner},
	{.name = "invoke", .fn = judge_task_runner},
	{.name = "ionice", .wrap = &w_ionice},
	{.name = "jf", .spec = &spec_more_publishers},
	{.name = "jfrog", .spec = &spec_more_publishers},
	{.name = "jreleaser", .spec = &spec_publish_sub},
	{.name = "jruby", .interp = &interp_ruby},
	{.name = "jsr", .spec = &spec_publish_sub},
	{.name = "just", .fn = judge_task_runner},
	{.name = "k3s", .fn = judge_kubectl},
	{.name = "kaggle", .spec = &spec_hubs},
	{.name = "keydb-cli", .db = &db_redis},
	{.name = "kitten", .fn = judge_terminal},
	{.name = "kitty", .fn = judge_terminal},
	{.name = "knex", .spec = &spec_dbtools},
	{.name = "ko", .spec = &spec_ko},
	{.name = "ksh", .fn = judge_shell},
	{.name = "kubectl", .fn = judge_kubectl},
	{.name = "ld.so", .wrap = &w_ldso},
	{.name = "lein", .spec = &spec_lein},
	{.name = "lerna", .spec = &spec_publish_sub},
	{.name = "linux32", .wrap = &w_plain},
	{.name = "linux64", .wrap = &w_plain},
	{.name = "litecli", .db = &db_sqlite},
	{.name = "lldb", .fn = judge_runner_misc},
	{.name = "loksh", .fn = judge_shell},
	{.name = "ltrace", .wrap = &w_ltrace},
	{.name = "lua", .interp = &interp_lua},
	{.name = "luajit", .interp = &interp_lua},
	{.name = "luarocks", .spec = &spec_registry_words},
	{.name = "lvremove", .fn = judge_disk},
	{.name = "mage", .fn = judge_task_runner},
	{.name = "make", .fn = judge_make},
	{.name = "mamba", .wrap = &w_run_sub, .spec = &spec_registry_words},
	{.name = "mariadb", .db = &db_mysql},
	{.name = "mariadb-admin", .fn = judge_mysqladmin},
	{.name = "maturin", .spec = &spec_pypi},
	{.name = "mawk", .fn = judge_awk},
	{.name = "mc", .spec = &spec_datastores},
	{.name = "microk8s.kubectl", .fn = judge_kubectl},
	{.name = "micromamba", .wrap = &w_run_sub},
	{.name = "mise", .wrap = &w_mise},
	{.name = "mix", .spec = &spec_mix},
	{.name = "mkdocs", .spec = &spec_more_publishers},
	{.name = "mkdosfs", .fn = judge_disk},
	{.name = "mke2fs", .fn = judge_disk},
	{.name = "mkexfatfs", .fn = judge_disk},
	{.name = "mkfs", .fn = judge_disk},
	{.name = "mkntfs", .fn = judge_disk},
	{.name = "mksh", .fn = judge_shell},
	{.name = "mkswap", .fn = judge_disk},
	{.name = "mongo", .db = &db_mongo},
	{.name = "mongorestore", .fn = judge_restore},
	{.name = "mongosh", .db = &db_mongo},
	{.name = "mvn", .spec = &spec_mvn},
	{.name = "mvnw", .spec = &spec_mvn},
	{.name = "mycli", .db = &db_mysql},
	{.name = "mysql", .db = &db_mysql},
	{.name = "mysqladmin", .fn = judge_mysqladmin},
	{.name = "nawk", .fn = judge_awk},
	{.name = "neonctl", .spec = &spec_datastores},
	{.name = "nerdctl", .fn = judge_docker},
	{.name = "netlify", .spec = &spec_netlify},
	{.name = "netlify-cli", .spec = &spec_deployers},
	{.name = "nice", .wrap = &w_nice},
	{.name = "nimble", .spec = &spec_registry_words},
	{.name = "nix", .fn = judge_nix},
	{.name = "nix-shell", .fn = judge_nix},
	{.name = "nocache", .wrap = &w_plain},
	{.name = "node", .interp = &interp_node},
	{.name = "nodejs", .interp = &interp_node},
	{.name = "nodemon", .wrap = &w_nodemon},
	{.name = "nodenv", .wrap = &w_exec_sub},
	{.name = "nohup", .wrap = &w_plain},
	{.name = "nox", .fn = judge_task_runner},
	{.name = "np", .spec = &spec_always_publish},
	{.name = "npm", .fn = judge_pm},
	{.name = "npx", .fn = judge_npx},
	{.name = "nsenter", .spec = &spec_escape_always},
	{.name = "nuget", .spec = &spec_nuget},
	{.name = "numactl", .wrap = &w_numactl},
	{.name = "nvim", .fn = judge_editor},
	{.name = "nvm", .wrap = &w_exec_operand},
	{.name = "nvme", .fn = judge_disk},
	{.name = "nx", .fn = judge_task_runner},
	{.name = "oc", .fn = judge_kubectl},
	{.name = "oksh", .fn = judge_shell},
	{.name = "ollama", .spec = &spec_hubs},
	{.name = "op", .wrap = &w_dashdash_sub},
	{.name = "opam", .spec = &spec_registry_words},
	{.name = "oras", .spec = &spec_registry_images},
	{.name = "osascript", .interp = &interp_osa},
	{.name = "ovsx", .spec = &spec_publish_sub},
	{.name = "parallel", .fn = judge_parallel},
	{.name = "parted", .fn = judge_disk},
	{.name = "pdm", .spec = &spec_pypi},
	{.name = "perf", .fn = judge_runner_misc},
	{.name = "perl", .interp = &interp_perl},
	{.name = "pg_dropcluster", .fn = judge_rm_like},
	{.name = "pg_restore", .fn = judge_restore},
	{.name = "pgcli", .db = &db_psql},
	{.name = "php", .fn = judge_php},
	{.name = "pio", .spec = &spec_hubs},
	{.name = "pipenv", .wrap = &w_run_sub},
	{.name = "pipx", .fn = judge_pyrunner},
	{.name = "pixi", .spec = &spec_registry_words},
	{.name = "pkexec", .wrap = &w_pkexec},
	{.name = "platformio", .spec = &spec_hubs},
	{.name = "pnpm", .fn = judge_pm},
	{.name = "pnpx", .fn = judge_npx},
	{.name = "pod", .spec = &spec_pod},
	{.name = "podman", .fn = judge_docker},
	{.name = "podman-compose", .spec = &spec_compose},
	{.name = "poe", .fn = judge_task_runner},
	{.name = "poetry", .spec = &spec_pypi},
	{.name = "posh", .fn = judge_shell},
	{.name = "powershell", .interp = &interp_pwsh},
	{.name = "prisma", .spec = &spec_prisma},
	{.name = "prlimit", .wrap = &w_prlimit},
	{.name = "proxychains", .wrap = &w_proxy},
	{.name = "proxychains4", .wrap = &w_proxy},
	{.name = "pscale", .spec = &spec_datastores},
	{.name = "psql", .db = &db_psql},
	{.name = "pub", .spec = &spec_registry_words},
	{.name = "pulumi", .spec = &spec_pulumi},
	{.name = "pvremove", .fn = judge_disk},
	{.name = "pwsh", .interp = &interp_pwsh},
	{.name = "pyenv", .wrap = &w_exec_sub},
	{.name = "pypy", .fn = judge_python},
	{.name = "pypy3", .fn = judge_python},
	{.name = "python", .fn = judge_python},
	{.name = "python2", .fn = judge_python},
	{.name = "python3", .fn = judge_python},
	{.name = "python3.10", .fn = judge_python},
	{.name = "python3.11", .fn = judge_python},
	{.name = "python3.12", .fn = judge_python},
	{.name = "python3.13", .fn = judge_python},
	{.name = "python3.14", .fn = judge_python},
	{.name = "python3.8", .fn = judge_python},
	{.name = "python3.9", .fn = judge_python},
	{.name = "quarto", .spec = &spec_registry_words},
	{.name = "raco", .spec = &spec_registry_words},
	{.name = "rails", .spec = &spec_rake},
	{.name = "railway", .spec = &spec_hubs},
	{.name = "rake", .spec = &spec_rake},
	{.name = "rar", .fn = judge_archiver},
	{.name = "rattler-build", .spec = &spec_registry_words},
	{.name = "rbash", .fn = judge_shell},
	{.name = "rbenv", .wrap = &w_exec_sub},
	{.name = "rclone", .spec = &spec_rclone},
	{.name = "rebar3", .spec = &spec_registry_words},
	{.name = "redis-cli", .db = &db_redis},
	{.name = "regctl", .spec = &spec_registry_images},
	{.name = "release-it", .spec = &spec_release_tools},
	{.name = "restic", .spec = &spec_datastores},
	{.name = "rg", .fn = judge_rg},
	{.name = "rimraf", .fn = judge_rm_like},
	{.name = "rlwrap", .wrap = &w_plain},
	{.name = "rm", .fn = judge_rm_like},
	{.name = "rmdir", .fn = judge_rm_like},
	{.name = "rsync", .fn = judge_rsync},
	{.name = "rtx", .wrap = &w_mise},
	{.name = "ruby", .interp = &interp_ruby},
	{.name = "run-one", .wrap = &w_plain},
	{.name = "run0", .spec = &spec_escape_always},
	{.name = "runuser", .wrap = &w_runuser},
	{.name = "rye", .wrap = &w_run_sub, .spec = &spec_registry_words},
	{.name = "s3cmd", .spec = &spec_datastores},
	{.name = "sam", .spec = &spec_more_publishers},
	{.name = "sbsh", .fn = judge_shell},
	{.name = "sbt", .spec = &spec_sbt},
	{.name = "screen", .fn = judge_screen},
	{.name = "script", .wrap = &w_script},
	{.name = "sed", .fn = judge_sed},
	{.name = "semantic-release", .spec = &spec_release_tools},
	{.name = "sequelize", .spec = &spec_dbtools},
	{.name = "sequelize-cli", .spec = &spec_dbtools},
	{.name = "serverless", .spec = &spec_deployers},
	{.name = "setarch", .wrap = &w_setarch},
	{.name = "setpriv", .wrap = &w_setpriv},
	{.name = "setsid", .wrap = &w_plain},
	{.name = "sfdisk", .fn = judge_disk},
	{.name = "sg", .wrap = &w_sg},
	{.name = "sgdisk", .fn = judge_disk},
	{.name = "sh", .fn = judge_shell},
	{.name = "shred", .fn = judge_rm_like},
	{.name = "skopeo", .fn = judge_skopeo},
	{.name = "sls", .spec = &spec_deployers},
	{.name = "snapcraft", .spec = &spec_snapcraft},
	{.name = "source", .fn = judge_source},
	{.name = "spago", .spec = &spec_registry_words},
	{.name = "sqlite", .db = &db_sqlite},
	{.name = "sqlite3", .db = &db_sqlite},
	{.name = "srm", .fn = judge_rm_like},
	{.name = "ssh", .fn = judge_ssh},
	{.name = "ssh-agent", .wrap = &w_plain},
	{.name = "stack", .spec = &spec_upload},
	{.name = "stdbuf", .wrap = &w_stdbuf},
	{.name = "strace", .wrap = &w_strace},
	{.name = "su", .wrap = &w_su},
	{.name = "sudo", .wrap = &w_sudo},
	{.name = "supabase", .spec = &spec_dbtools},
	{.name = "surge", .fn = judge_surge},
	{.name = "swift", .spec = &spec_more_publishers},
	{.name = "systemctl", .fn = judge_systemctl},
	{.name = "systemd-inhibit", .wrap = &w_inhibit},
	{.name = "systemd-run", .spec = &spec_escape_always},
	{.name = "systemd-run0", .spec = &spec_escape_always},
	{.name = "tar", .fn = judge_tar},
	{.name = "task", .fn = judge_task_runner},
	{.name = "taskset", .wrap = &w_taskset},
	{.name = "tea", .spec = &spec_more_publishers},
	{.name = "tee", .fn = judge_writer},
	{.name = "terraform", .spec = &spec_terraform},
	{.name = "terragrunt", .spec = &spec_terraform},
	{.name = "time", .wrap = &w_time},
	{.name = "timeout", .wrap = &w_timeout},
	{.name = "tini", .wrap = &w_plain},
	{.name = "tmux", .spec = &spec_tmux},
	{.name = "tofu", .spec = &spec_terraform},
	{.name = "torsocks", .wrap = &w_proxy},
	{.name = "tox", .fn = judge_task_runner},
	{.name = "toybox", .fn = judge_busybox},
	{.name = "trap", .fn = judge_trap},
	{.name = "trash-empty", .fn = judge_rm_like},
	{.name = "trash-rm", .fn = judge_rm_like},
	{.name = "tsocks", .wrap = &w_proxy},
	{.name = "turbo", .fn = judge_task_runner},
	{.name = "turso", .spec = &spec_datastores},
	{.name = "twine", .spec = &spec_pypi},
	{.name = "typeorm", .spec = &spec_dbtools},
	{.name = "uname26", .wrap = &w_plain},
	{.name = "unbuffer", .wrap = &w_plain},
	{.name = "unlink", .fn = judge_rm_like},
	{.name = "unshare", .wrap = &w_unshare},
	{.name = "uv", .fn = judge_pyrunner},
	{.name = "uvx", .fn = judge_npx},
	{.name = "vagrant", .wrap = &w_vagrant},
	{.name = "valgrind", .wrap = &w_plain},
	{.name = "valkey-cli", .db = &db_redis},
	{.name = "vault", .spec = &spec_datastores},
	{.name = "vercel", .spec = &spec_vercel},
	{.name = "vgremove", .fn = judge_disk},
	{.name = "vi", .fn = judge_editor},
	{.name = "view", .fn = judge_editor},
	{.name = "vim", .fn = judge_editor},
	{.name = "volta", .wrap = &w_run_sub},
	{.name = "vsce", .spec = &spec_publish_sub},
	{.name = "wasm-pack", .spec = &spec_registry_words},
	{.name = "watch", .fn = judge_watch},
	{.name = "watchexec", .wrap = &w_watchexec},
	{.name = "wezterm", .fn = judge_terminal},
	{.name = "wget", .fn = judge_http},
	{.name = "wipe", .fn = judge_rm_like},
	{.name = "wipefs", .fn = judge_disk},
	{.name = "wrangler", .spec = &spec_deployers},
	{.name = "x86_64", .wrap = &w_plain},
	{.name = "xargs", .wrap = &w_xargs},
	{.name = "xh", .fn = judge_http},
	{.name = "xhs", .fn = judge_http},
	{.name = "xvfb-run", .wrap = &w_xvfb},
	{.name = "yadm", .fn = judge_git},
	{.name = "yarn", .fn = judge_pm},
	{.name = "yarnpkg", .fn = judge_pm},
	{.name = "yash", .fn = judge_shell},
	{.name = "zef", .spec = &spec_registry_words},
	{.name = "zellij", .fn = judge_terminal},
	{.name = "zfs", .fn = judge_disk},
	{.name = "zip", .fn = judge_archiver},
	{.name = "zpool", .fn = judge_disk},
	{.name = "zsh", .fn = judge_shell},
};

static int tool_compare(const void *key, const void *elem)
{
	return strcmp(key, ((const struct tool *)elem)->name);
}

const struct tool *rules_tool_find(const char *name)
{
	return bsearch(name, tools, sizeof tools / sizeof tools[0], sizeof tools[0], tool_compare);
}

const char *rules_table_check(void)
{
	size_t ntools = sizeof tools / sizeof tools[0];
	for (size_t i = 0; i < ntools; i++) {
		const struct tool *t = &tools[i];
		if (i > 0 && strcmp(tools[i - 1].name, t->name) >= 0)
			return t->name;
		int ways = !!t->fn + !!t->spec + !!t->wrap + !!t->interp + !!t->db;
		/* a wrapper with a subcommand (conda run) may have a spec for the rest */
		if (ways != 1 && !(ways == 2 && t->spec && t->wrap && t->wrap->sub))
			return t->name;
		for (const struct operand_rule *r = t->spec ? t->spec->rules : NULL; r && r->operands; r++)
			if (r->unless && t->spec->dry_run)
				return t->name;
	}
	return NULL;
}
