#!/bin/sh
# The real Codex CLI (from the npm registry, cached in the build tree
# between runs) against a scripted model on 127.0.0.1 that sends it shell
# commands. Codex runs the login shell by its absolute path, whatever SHELL
# and PATH say, so without setup bash runs them and a write outside the
# project lands. `sbsh --setup codex` writes a shim named bash; the test
# plays the human who makes it the login shell (a copy of /etc/passwd
# bound over it in a mount namespace of its own), and the cases of
# agent-cases.sh hold, judged from outside (files, and the output the
# model got back): headless, then through `sbsh --approver` in tmux. Codex
# run inside sbsh, the other way, has its commands confined too.
set -u
here=$(dirname "$0")
. "${top_srcdir:-$here/../..}/tests/integration/lib.sh"
. "${top_srcdir:-$here/../..}/tests/integration/agent-cases.sh"
require npm node python3 getent git unshare
tool=Codex

export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# Codex writes below CODEX_HOME (else ~/.codex) even for --version.
mkdir -p "$scratch/home" "$scratch/codex-home"
cache=$(dirname "$SBSH")/tests/integration/codex-cache
find_codex() {
	for c in "$cache"/node_modules/@openai/codex-linux-*/vendor/*/bin/codex; do
		[ -x "$c" ] && HOME=$scratch/home CODEX_HOME=$scratch/codex-home "$c" --version >/dev/null 2>&1 &&
			{ echo "$c"; return 0; }
	done
	return 1
}
if ! codex=$(find_codex); then
	mkdir -p "$cache"
	npm install --prefix "$cache" --no-save @openai/codex@0.171.0 >"$scratch/npm.log" 2>&1 ||
		skip_all "cannot install @openai/codex from the npm registry: $(tail -n 3 "$scratch/npm.log")"
	codex=$(find_codex) || skip_all "the npm package has no native codex for this platform"
fi
ok "$(HOME=$scratch/home CODEX_HOME=$scratch/codex-home "$codex" --version 2>&1 | head -n 1)"

agent_area codex
export CODEX_HOME=$base/codex-home
mkdir -p "$CODEX_HOME"
cd "$work" || exit 1
login_shell=$(getent passwd "$(id -u)" | cut -d: -f7)
agent_server fake-openai.py
passwd=

# codex_exec: codex exec against the scripted model; its own sandbox and
# approvals off, so what confines the commands is only what this test sets
# up. With $passwd set, in a mount namespace where that file is
# /etc/passwd: the login shell the human chose.
codex_exec() {
	set -- exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox \
		-c model_provider=fake -c model=gpt-5 \
		-c "model_providers.fake={name=\"fake\",base_url=\"http://127.0.0.1:$port/v1\",wire_api=\"responses\",env_key=\"FAKE_KEY\"}" \
		"run the commands"
	rm -f "$CODEX_HOME"/shell_snapshots/* # an earlier run's, if one was left
	if [ -n "$passwd" ]; then
		HOME=$home FAKE_KEY=dummy timeout 180 unshare -m sh -c 'mount --bind "$0" /etc/passwd && exec "$@"' \
			"$passwd" "$codex" "$@" </dev/null 2>&1
	else
		HOME=$home FAKE_KEY=dummy timeout 180 "$codex" "$@" </dev/null 2>&1
	fi
}
run_tool() { codex_exec; }

# result N: what Codex sent back to the model as command N's output.
result() { python3 "$srcdir/tests/integration/fake-openai.py" --result "$log" "$1"; }

probe="echo \"shell=\$0\"; echo x > $outside/escaped; echo written=\$?"

steps "$probe"
out=$(run_tool)
check_contains "without setup: codex exec finishes" "FAKE-DONE" "$out"
check_contains "without setup: Codex runs the login shell ($login_shell)" "shell=$login_shell" "$(result 1)"
[ -e "$outside/escaped" ] && ok "without setup: so the write outside the project lands" ||
	bad "without setup: so the write outside the project lands" "$(result 1)"
rm -f "$outside/escaped"

# SHELL and a bash shim first on PATH change nothing, as the doctor says.
shims=$scratch/shims
"$SBSH" --shims "$shims" >/dev/null 2>&1 || bad "sbsh --shims"
steps "$probe"
SHELL=$shims/bash PATH="$shims:$PATH" run_tool >/dev/null
check_contains "SHELL and PATH shims: still the login shell" "shell=$login_shell" "$(result 1)"
rm -f "$outside/escaped"
out=$(HOME=$home SHELL=$shims/bash PATH="$(dirname "$codex"):$shims:$PATH" "$SBSH" --doctor 2>&1 | grep -A1 'codex:')
check_contains "the doctor finds codex and says it does not reach sbsh" "codex: $codex; does NOT reach sbsh" "$out"

# The setup writes the shim; the human makes it the login shell.
out=$(HOME=$home "$SBSH" --setup codex 2>&1) || bad "sbsh --setup codex" "$out"
shim=$home/.local/share/sbsh/codex/bash
check_contains "sbsh --setup codex: says how to make the shim the login shell" "usermod -s $shim" "$out"
passwd=$base/passwd
sed "s#^\([^:]*:[^:]*:$(id -u):.*\):[^:]*\$#\1:$shim#" /etc/passwd >"$passwd"
if ! unshare -m sh -c 'mount --bind "$0" /etc/passwd' "$passwd" 2>/dev/null; then
	missing "$tool through sbsh: the cases" "a mount namespace (unshare -m, as root) stands for the human's usermod"
	finish
fi
out=$(HOME=$home PATH="$(dirname "$codex"):$PATH" unshare -m sh -c 'mount --bind "$0" /etc/passwd && exec "$@"' \
	"$passwd" "$SBSH" --doctor 2>&1 | grep -A1 'codex:')
check_contains "the shim as login shell: the doctor says Codex reaches sbsh" "codex: $codex; reaches sbsh" "$out"

if sandboxed "$tool through sbsh: the cases"; then
	# Codex makes its snapshot of the login shell as it starts and uses it
	# once it is there: each conversation first waits for it, so that the
	# commands after run in its wrapper.
	warmup='until ls "$CODEX_HOME"/shell_snapshots/*.sh >/dev/null 2>&1; do sleep 0.1; done; echo ready'
	# A call tries Codex's own config (MCP servers and notify commands
	# there run outside any sandbox): wired through the login shell,
	# CODEX_HOME stays out of the agent's reach. Each call starts in the
	# folder the model names (workdir).
	echo 'model = "gpt-5"' >"$CODEX_HOME/config.toml"
	headless_cases 'echo "notify = ["touch", "/tmp/x"]" >> "$CODEX_HOME/config.toml"; echo "config=$?"' \
		"json:{\"cmd\": $(python3 -c 'import json, sys; print(json.dumps(sys.argv[1]))' "$case_cd_write"), \"workdir\": \"$work/sub\"}"
	r=$(case_result 10)
	seen "its own config.toml" "$r"
	check "$tool, its config.toml: unchanged" 'model = "gpt-5"' "$(cat "$CODEX_HOME/config.toml")"
	check_contains "$tool, its config.toml: the write is blocked, with the hint" \
		"the sandbox blocked a write outside the project $work ($CODEX_HOME/config.toml)" "$r"
	check_contains "$tool, its config.toml: the command saw it fail" "config=1" "$r"
	# Its snapshot brings the exports of the user's .bashrc (compgen -e);
	# functions stay in the shell that execs bash -c, as with bash.
	check_contains "$tool, snapshot: the user's .bashrc exports reach the commands (compgen -e)" \
		"bashrc=yes" "$(case_result 7)"
	# Its wrapper execs bash -c with the agent's text: refused, none of it
	# runs, and the model reads the command and its line there.
	r=$(case_result 3)
	check_contains "$tool, headless: the process's status is 121" "Process exited with code 121" "$r"
	check_contains "$tool, headless: the command and its line in the agent's text" \
		"rm -r build, on line 2 of what bash runs (none of it ran)" "$r"
	case $r in *before*) bad "$tool, headless: none of the text ran" "$r" ;; *) ok "$tool, headless: none of the text ran" ;; esac
	approver_cases
	check_contains "$tool, approver: n, in its wrapper: none of the text ran" \
		"refused DELETE (the human said no): rm -r ask1, on line 1 of what bash runs (none of it ran)" \
		"$(case_result 1)"
fi

# Codex inside sbsh, the way that needs no login shell: its commands
# inherit the sandbox (CODEX_HOME writable for its sessions), so the write
# outside the project is blocked, though they are not judged one by one.
passwd=
warmup=
if sandboxed "codex inside sbsh: the write outside is blocked"; then
	steps "$probe"
	HOME=$home FAKE_KEY=dummy timeout 180 "$SBSH" --allow-write "$CODEX_HOME" -c '"$0" "$@"' "$codex" exec \
		--skip-git-repo-check --dangerously-bypass-approvals-and-sandbox -c model_provider=fake -c model=gpt-5 \
		-c "model_providers.fake={name=\"fake\",base_url=\"http://127.0.0.1:$port/v1\",wire_api=\"responses\",env_key=\"FAKE_KEY\"}" \
		"run the commands" </dev/null >/dev/null 2>&1
	r=$(result 1)
	check_contains "codex inside sbsh: the command ran" "written=" "$r"
	[ ! -e "$outside/escaped" ] && ok "codex inside sbsh: the write outside is blocked" ||
		bad "codex inside sbsh: the write outside is blocked" "$r"
fi

HOME=$home "$SBSH" --setup --undo codex >/dev/null 2>&1
[ ! -e "$shim" ] && ok "sbsh --setup --undo codex removes the shim" || bad "sbsh --setup --undo codex removes the shim"
finish
