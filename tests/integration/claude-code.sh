#!/bin/sh
# The real Claude Code CLI (from the npm registry, cached in the build tree
# between runs) against a scripted model on 127.0.0.1 that sends it Bash
# commands. Without setup they run in bash and a write outside the project
# lands; after `sbsh --setup claude-code` they run in sbsh, and the cases of
# agent-cases.sh hold, judged from outside (files, and the tool_result the
# model got back): headless, then through `sbsh --approver` in tmux. A
# project's settings that name bash win, as the doctor says; undo puts bash
# back.
set -u
here=$(dirname "$0")
. "${top_srcdir:-$here/../..}/tests/integration/lib.sh"
. "${top_srcdir:-$here/../..}/tests/integration/agent-cases.sh"
require npm node python3 git
tool="Claude Code"

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

agent_area claude
cd "$work" || exit 1
unset CLAUDE_CONFIG_DIR CLAUDE_CODE_SHELL
agent_server fake-anthropic.py

# run_tool: claude -p against the scripted model; prints what it printed.
# Its own permission checks are off (as root that takes IS_SANDBOX): with
# Bash merely allowed it still asks before some commands (the planted
# hook's), and it is sbsh that is under test.
run_tool() {
	HOME=$home ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=dummy IS_SANDBOX=1 \
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 \
		timeout 180 "$claude" -p "run the commands" --permission-mode bypassPermissions </dev/null 2>&1
}

# result N: the tool_result Claude Code sent back for command N.
result() { python3 "$srcdir/tests/integration/fake-anthropic.py" --result "$log" "$1"; }

probe="echo \"shell=\$0\"; echo x > $outside/escaped; echo written=\$?"

# Without setup: bash runs it, and the write lands.
steps "$probe"
out=$(run_tool)
check "without setup: claude -p finishes" "FAKE-DONE" "$out"
[ -e "$outside/escaped" ] && ok "without setup: the command wrote outside the project (bash)" ||
	bad "without setup: the command wrote outside the project (bash)" "$(result 1)"
check_contains "without setup: the model hears it ran in bash" "shell=/bin/bash" "$(result 1)"
rm -f "$outside/escaped"

if ! out=$(HOME=$home "$SBSH" --setup claude-code 2>&1); then
	bad "sbsh --setup claude-code" "$out"
	finish
fi
out=$(cd "$work" && HOME=$home PATH="$(dirname "$claude"):$PATH" "$SBSH" --doctor 2>&1 | grep -A1 'claude-code:')
check_contains "after setup: the doctor finds claude and says it reaches sbsh" "claude-code: $claude; reaches sbsh" "$out"

if sandboxed "$tool through sbsh: the cases"; then
	# Claude Code keeps the folder between calls: cd, then the write. The
	# cd's call also tries Claude Code's settings (hooks there run outside
	# any sandbox): only its shell-snapshots folder is writable.
	settings=$(cat "$home/.claude/settings.json")
	headless_cases 'cd sub && pwd; echo "{}" > ~/.claude/settings.json; echo "settings=$?"' "$case_cd_write"
	r=$(case_result 10)
	seen "its own settings.json" "$r"
	check "$tool, its settings.json: unchanged" "$settings" "$(cat "$home/.claude/settings.json")"
	check_contains "$tool, its settings.json: the write is blocked, with the hint" \
		"the sandbox blocked a write outside the project $work ($home/.claude/settings.json)" "$r"
	check_contains "$tool, its settings.json: the command saw it fail" "settings=1" "$r"
	# Its wrapper evals the agent's text in the shell that sourced the
	# snapshot, so the rest of the text runs after a refusal.
	# Its snapshot brings the functions of the user's .bashrc (and PATH).
	check_contains "$tool, snapshot: a function of the user's .bashrc reaches the commands" \
		"function-from-bashrc" "$(case_result 7)"
	check_contains "$tool, headless: the rest of the text ran" "before" "$(case_result 3)"
	check_contains "$tool, headless: the message names the agent's line" "sbsh: -c:2: refused DELETE" "$(case_result 3)"
	approver_cases
fi

# A project's own .claude/settings.json wins over the user's, as the
# doctor warns.
mkdir -p "$work/.claude"
printf '{"env": {"CLAUDE_CODE_SHELL": "/bin/bash"}}\n' >"$work/.claude/settings.json"
steps "$probe"
out=$(run_tool)
check_contains "a project naming bash: Claude Code runs bash" "shell=/bin/bash" "$(result 1)"
check_contains "a project naming bash: the doctor says so" "does NOT reach sbsh" \
	"$(HOME=$home "$SBSH" --doctor 2>&1 | grep -A1 'claude-code:')"
rm -rf "$work/.claude"
rm -f "$outside/escaped"

HOME=$home "$SBSH" --setup --undo claude-code >/dev/null 2>&1
steps "$probe"
out=$(run_tool)
check_contains "after undo: bash again" "shell=/bin/bash" "$(result 1)"
finish
