#!/bin/sh
# The real Claude Code CLI (from the npm registry, cached in the build
# tree between runs) against a scripted model on 127.0.0.1 that asks for
# one Bash command: without setup it runs in bash and writes outside the
# project; after `sbsh --setup claude-code` it runs in sbsh, the write is
# blocked, and the tool_result the model gets back carries sbsh's hint.
set -u
here=$(dirname "$0")
. "${top_srcdir:-$here/../..}/tests/integration/lib.sh"
require npm node python3
srcdir=${top_srcdir:-$here/../..}

export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
mkdir -p "$scratch/home"
cache=$(dirname "$SBSH")/tests/integration/claude-code-cache
find_claude() {
	for c in "$cache"/node_modules/@anthropic-ai/claude-code-linux-*/claude; do
		[ -x "$c" ] && HOME=$scratch/home "$c" --version >/dev/null 2>&1 && { echo "$c"; return 0; }
	done
	return 1
}
if ! claude=$(find_claude); then
	mkdir -p "$cache"
	npm install --prefix "$cache" --no-save @anthropic-ai/claude-code@2.1.197 >"$scratch/npm.log" 2>&1 ||
		skip_all "cannot install @anthropic-ai/claude-code from the npm registry: $(tail -n 3 "$scratch/npm.log")"
	claude=$(find_claude) || skip_all "the npm package has no native claude for this platform"
fi
ok "Claude Code $(HOME=$scratch/home "$claude" --version 2>&1 | head -n 1)"

home=$scratch/home
work=$scratch/work
mkdir -p "$home" "$work"
cd "$work" || exit 1
unset CLAUDE_CONFIG_DIR CLAUDE_CODE_SHELL XDG_DATA_HOME
escaped=$scratch/escaped
log=$scratch/requests.log
# One command, in the words a model would send: who runs it, then a write
# outside the project.
python3 "$srcdir/tests/integration/fake-anthropic.py" "$scratch/port" "$log" \
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

# run_claude: claude -p against the scripted model; prints what it printed.
run_claude() {
	: >"$log"
	HOME=$home ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=dummy \
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 \
		timeout 180 "$claude" -p "run the command" --allowedTools Bash </dev/null 2>&1
}

# tool_result: what the client sent back as the command's result.
tool_result() {
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    for m in json.loads(line)["body"].get("messages", []):
        if isinstance(m.get("content"), list):
            for b in m["content"]:
                if b.get("type") == "tool_result":
                    c = b["content"]
                    print(c if isinstance(c, str) else " ".join(x.get("text", "") for x in c))
                    sys.exit(0)' "$log"
}

# Without setup: bash runs it, and the write lands (the probe sees it).
out=$(run_claude)
check "without setup: claude -p finishes" "FAKE-DONE" "$out"
[ -e "$escaped" ] && ok "without setup: the command wrote outside the project (bash)" ||
	bad "without setup: the command wrote outside the project (bash)" "$(tool_result)"
check_contains "without setup: the model hears it ran in bash" "shell=/bin/bash" "$(tool_result)"
rm -f "$escaped"

if ! out=$(HOME=$home "$SBSH" --setup claude-code 2>&1); then
	bad "sbsh --setup claude-code" "$out"
	finish
fi
out=$(run_claude)
check "after setup: claude -p finishes" "FAKE-DONE" "$out"
result=$(tool_result)
check_contains "after setup: the command ran in sbsh" "shell=$SBSH" "$result"
if sandboxed "after setup: the write outside is blocked"; then
	[ ! -e "$escaped" ] && ok "after setup: the write outside is blocked" ||
		bad "after setup: the write outside is blocked" "$result"
	check_contains "after setup: the model gets sbsh's hint" "the sandbox blocked a write outside the project" "$result"
fi

out=$(cd "$work" && HOME=$home PATH="$(dirname "$claude"):$PATH" "$SBSH" --doctor 2>&1 | grep -A1 'claude-code:')
check_contains "after setup: the doctor finds claude and says it reaches sbsh" "claude-code: $claude; reaches sbsh" "$out"

# A project's own .claude/settings.json wins over the user's, as the
# doctor warns.
mkdir -p "$work/.claude"
printf '{"env": {"CLAUDE_CODE_SHELL": "/bin/bash"}}\n' > "$work/.claude/settings.json"
out=$(run_claude)
check_contains "a project naming bash: Claude Code runs bash" "shell=/bin/bash" "$(tool_result)"
check_contains "a project naming bash: the doctor says so" "does NOT reach sbsh" "$(HOME=$home "$SBSH" --doctor 2>&1 | grep -A1 'claude-code:')"
rm -rf "$work/.claude"
rm -f "$escaped"

HOME=$home "$SBSH" --setup --undo claude-code >/dev/null 2>&1
out=$(run_claude)
check_contains "after undo: bash again" "shell=/bin/bash" "$(tool_result)"
finish
