#!/bin/sh
# The real Codex CLI (from the npm registry, cached in the build tree
# between runs) against a scripted model on 127.0.0.1 that asks for one
# shell command. What `sbsh --doctor` and `sbsh --setup codex` say of it:
# Codex runs the login shell by absolute path, whatever SHELL and PATH say,
# so no setting wires it; run inside sbsh, its commands are confined by
# the sandbox sbsh's process is in.
set -u
here=$(dirname "$0")
. "${top_srcdir:-$here/../..}/tests/integration/lib.sh"
require npm node python3 getent
srcdir=${top_srcdir:-$here/../..}

export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# Codex writes below CODEX_HOME (else ~/.codex) even for --version.
mkdir -p "$scratch/home" "$scratch/codex-home"
export CODEX_HOME=$scratch/codex-home
cache=$(dirname "$SBSH")/tests/integration/codex-cache
find_codex() {
	for c in "$cache"/node_modules/@openai/codex-linux-*/vendor/*/bin/codex; do
		[ -x "$c" ] && HOME=$scratch/home "$c" --version >/dev/null 2>&1 && { echo "$c"; return 0; }
	done
	return 1
}
if ! codex=$(find_codex); then
	mkdir -p "$cache"
	npm install --prefix "$cache" --no-save @openai/codex@0.171.0 >"$scratch/npm.log" 2>&1 ||
		skip_all "cannot install @openai/codex from the npm registry: $(tail -n 3 "$scratch/npm.log")"
	codex=$(find_codex) || skip_all "the npm package has no native codex for this platform"
fi
ok "$(HOME=$scratch/home "$codex" --version 2>&1 | head -n 1)"

home=$scratch/home
work=$scratch/work
mkdir -p "$work"
cd "$work" || exit 1
login_shell=$(getent passwd "$(id -u)" | cut -d: -f7)
escaped=$scratch/escaped
log=$scratch/requests.log
python3 "$srcdir/tests/integration/fake-openai.py" "$scratch/port" "$log" \
	"echo \"shell=\$0\"; echo x > $escaped; echo written=\$?" &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$scratch" "$xdg"' EXIT
i=0
while [ ! -s "$scratch/port" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -s "$scratch/port" ] || skip_all "the scripted model did not start"
port=$(cat "$scratch/port")

# codex_args: codex exec against the scripted model; its own sandbox off,
# so what confines the command is only what this test sets up.
set -- exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox \
	-c model_provider=fake -c model=gpt-5 \
	-c "model_providers.fake={name=\"fake\",base_url=\"http://127.0.0.1:$port/v1\",wire_api=\"responses\",env_key=\"FAKE_KEY\"}" \
	"run the command"

# command_output: what Codex sent back to the model as the command's output.
command_output() {
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    for i in json.loads(line)["body"].get("input") or []:
        if isinstance(i, dict) and i.get("type") == "function_call_output":
            print(i["output"] if isinstance(i["output"], str) else json.dumps(i["output"]))
            sys.exit(0)' "$log"
}

: >"$log"
out=$(HOME=$home FAKE_KEY=dummy timeout 180 "$codex" "$@" </dev/null 2>&1)
check_contains "codex exec finishes" "FAKE-DONE" "$out"
check_contains "Codex runs the login shell ($login_shell)" "shell=$login_shell" "$(command_output)"
[ -e "$escaped" ] && ok "so the write outside the project lands" || bad "so the write outside the project lands" "$(command_output)"
rm -f "$escaped"

# SHELL and a bash shim first on PATH change nothing, as the doctor says.
shims=$scratch/shims
"$SBSH" --shims "$shims" >/dev/null 2>&1 || bad "sbsh --shims"
: >"$log"
HOME=$home FAKE_KEY=dummy SHELL=$shims/bash PATH="$shims:$PATH" timeout 180 "$codex" "$@" </dev/null >/dev/null 2>&1
check_contains "SHELL and PATH shims: still the login shell" "shell=$login_shell" "$(command_output)"
rm -f "$escaped"
out=$(HOME=$home SHELL=$shims/bash PATH="$(dirname "$codex"):$shims:$PATH" "$SBSH" --doctor 2>&1 | grep -A1 'codex:')
check_contains "the doctor finds codex and says it does not reach sbsh" "codex: $codex; does NOT reach sbsh" "$out"

# Codex inside sbsh: its commands inherit the sandbox (CODEX_HOME writable
# for its sessions), so the write outside the project is blocked.
if sandboxed "codex inside sbsh: the write outside is blocked"; then
	: >"$log"
	HOME=$home FAKE_KEY=dummy timeout 180 "$SBSH" --allow-write "$CODEX_HOME" -c '"$0" "$@"' "$codex" "$@" </dev/null >/dev/null 2>&1
	result=$(command_output)
	check_contains "codex inside sbsh: the command ran" "written=" "$result"
	[ ! -e "$escaped" ] && ok "codex inside sbsh: the write outside is blocked" ||
		bad "codex inside sbsh: the write outside is blocked" "$result"
fi
finish
