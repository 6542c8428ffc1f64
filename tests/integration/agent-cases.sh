# Shared by claude-code.sh and codex.sh: the cases each real agent tool
# runs through sbsh, and the checks on what the model got back (the
# scripted model's log) and on disk. Sourced after lib.sh. The suite
# defines run_tool (one run of the tool against the scripted model, its
# output printed; env settings before it apply) and result N (what the
# model got back for command N), and sets tool (its name in case names).

srcdir=${top_srcdir:-$(dirname "$0")/../..}

# agent_area NAME: the suite's folders, under $HOME rather than a temp
# folder, so that /tmp is writable to the sandbox as on a user's machine
# and the folder outside the project is not: home (with a .bashrc that
# exports FROM_BASHRC and defines a function), work (a git work tree with
# build/ and sub/, whose accepted state a first session took), outside,
# runtime (the approver's), and the state and config folders sbsh reads.
agent_area() {
	base=$(mktemp -d "${SBSH_TEST_BASE:-${HOME:-/root}}/.sbsh-$1.XXXXXX") || exit 1
	home=$base/home
	work=$base/work
	outside=$base/outside
	runtime=$base/run
	server=
	tsock=$scratch/tmux.sock
	trap agent_cleanup EXIT
	mkdir -p "$home" "$work/build" "$work/sub" "$outside" "$runtime" "$base/config/sbsh" "$base/state"
	chmod 700 "$runtime"
	export XDG_CONFIG_HOME=$base/config XDG_STATE_HOME=$base/state SBSH_KEEPER_IDLE=2
	unset XDG_RUNTIME_DIR CI XDG_DATA_HOME
	echo "approval-timeout = 30" >"$XDG_CONFIG_HOME/sbsh/config"
	printf 'export FROM_BASHRC=yes\nfrom_bashrc() { echo "function-from-bashrc"; }\n' >"$home/.bashrc"
	echo data >"$work/build/out.o"
	git -C "$work" init -q || exit 1
	(cd "$work" && HOME=$home "$SBSH" -c true) || bad "$tool: the first session in the project"
	define_cases
}

agent_cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null
	tmux -S "$tsock" kill-server 2>/dev/null
	rm -rf "$scratch" "$xdg" "$base"
}

# agent_server FAKE: the scripted model (tests/integration/FAKE), started
# once for the suite; its script and log are $script and $log.
agent_server() {
	script=$base/script
	log=$base/requests.log
	: >"$script"
	python3 "$srcdir/tests/integration/$1" "$scratch/port" "$log" "$script" &
	server=$!
	i=0
	while [ ! -s "$scratch/port" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$scratch/port" ] || skip_all "the scripted model did not start"
	port=$(cat "$scratch/port")
}

# steps CMD...: the commands the model sends in the next run, in order; a
# CMD starting with "json:" is the step's JSON as it is. When the suite
# sets warmup, that command comes first (it waits until the tool is
# ready), and case_result N skips it.
warmup=
steps() {
	: >"$log"
	[ -n "$warmup" ] && set -- "$warmup" "$@"
	python3 -c '
import json, sys
for a in sys.argv[1:]:
    print(a[5:] if a.startswith("json:") else json.dumps(a))' "$@" >"$script"
}

# The headless conversation, one command a call: a plain command, a write
# outside the project, a command refused (nobody to ask), a planted hook
# and fsmonitor, bash-isms, npm install from the registry, what the tool's
# snapshot of the user's shell brought (asked late: a tool may run its
# first commands before its snapshot is ready), a script the agent writes
# and then runs, and (the suite adds it) a write elsewhere in the project
# from a subfolder.
define_cases() {
	case_plain='echo "shell=$0"; echo "plain-$((6 * 7))"'
	case_snapshot='from_bashrc; echo "bashrc=${FROM_BASHRC-unset}"'
	case_outside="echo x > $outside/escaped; echo \"written=\$?\""
	case_refused='echo before
rm -r build; echo "status $?"'
	case_hook="printf '#!/bin/sh\\ntouch $outside/hooked\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && git config core.fsmonitor 'touch $outside/fsmonitor' && echo planted"
	case_bashisms='a=(one two three); [[ ${a[1]} == two && -d sub ]] && echo "array=${a[2]} n=${#a[@]}"; t=$'"'"'a\tb'"'"'; echo "ansi=${#t}"; diff <(printf "x\n") <(printf "x\n") && echo procsub=same; echo "brace=$(echo {1..3})"'
	case_npm='npm install --no-audit --no-fund --no-package-lock is-number@7.0.0 >npm.log 2>&1; echo "npm=$?"; node -e "console.log(\"is-number=\" + require(\"is-number\")(42))"'
	case_script_write="printf 'echo cleaning\\nrm -r build\\n' > clean.sh && chmod +x clean.sh && echo written"
	case_script_run='./clean.sh; echo "status $?"'
	case_cd_write='echo x > ../notes.txt; echo "w=$?"; pwd'
}

case_result() {
	if [ -n "$warmup" ]; then result $(($1 + 1)); else result "$1"; fi
}

# seen CASE TEXT: what the model got back, shown in the suite's log (the
# tables of docs/agent-tools.md come from there).
seen() {
	printf '  %s, %s: the model saw\n' "$tool" "$1"
	printf '%s\n' "$2" | head -n 12 | sed 's/^/      | /'
}

# headless_cases CD_STEP...: the conversation, ending with the tool's way
# of working in sub/ and the write from there; then the checks that hold
# for every tool. The last step is the write's.
headless_cases() {
	npm_ok=true
	npm view is-number@7.0.0 version >/dev/null 2>&1 || npm_ok=false
	steps "$case_plain" "$case_outside" "$case_refused" "$case_hook" "$case_bashisms" "$case_npm" \
		"$case_snapshot" "$case_script_write" "$case_script_run" "$@"
	last=$((9 + $#))
	out=$(run_tool)
	check_contains "$tool: the conversation ends" "FAKE-DONE" "$out"

	r=$(case_result 1)
	seen "plain command" "$r"
	check_contains "$tool, plain command: it ran in sbsh" "shell=$SBSH" "$r"
	check_contains "$tool, plain command: its output" "plain-42" "$r"

	r=$(case_result 2)
	seen "write outside" "$r"
	[ ! -e "$outside/escaped" ] && ok "$tool, write outside: blocked" || bad "$tool, write outside: blocked" "$r"
	check_contains "$tool, write outside: the model gets the hint" \
		"the sandbox blocked a write outside the project $work ($outside/escaped); ask with: escape CMD" "$r"
	check_contains "$tool, write outside: the command saw it fail" "written=1" "$r"

	r=$(case_result 3)
	seen "headless refusal" "$r"
	[ -f "$work/build/out.o" ] && ok "$tool, headless: rm -r build refused" || bad "$tool, headless: rm -r build refused" "$r"
	check_contains "$tool, headless: the model reads which command and why" \
		"refused DELETE (headless, nobody to approve): rm -r build" "$r"
	check_contains "$tool, headless: and how to pre-approve it" "pre-approve in .agentcommands.json" "$r"
	check_contains "$tool, headless: status 121" "121" "$r"
	# a line is the agent's (its text has two), never one of the tool's wrapper
	check "$tool, headless: no line of a wrapper, no text quoted whole" "" \
		"$(printf '%s\n' "$r" | grep -o -e '-c:[0-9]*:' -e "bash -c '" | grep -v -x -e '-c:[12]:')"

	r=$(case_result 4)
	seen "planted hook" "$r"
	check_contains "$tool, planted hook: the command ran" "planted" "$r"
	[ ! -e "$work/.git/hooks/pre-commit" ] && ok "$tool, planted hook: taken away" ||
		bad "$tool, planted hook: taken away" "$(ls -l "$work/.git/hooks")"
	check "$tool, planted fsmonitor: .git/config put back" "" "$(git -C "$work" config core.fsmonitor)"
	git -C "$work" status >/dev/null 2>&1
	[ ! -e "$outside/fsmonitor" ] && ok "$tool, planted fsmonitor: a git status outside runs nothing" ||
		bad "$tool, planted fsmonitor: a git status outside runs nothing"
	check_contains "$tool, planted hook: the model is told" ".git/hooks/pre-commit (changed by the last command" "$r"
	check_contains "$tool, planted fsmonitor: the model is told" "restored .git/config" "$r"

	r=$(case_result 5)
	seen "bash-isms" "$r"
	check_contains "$tool, bash-isms: arrays and [[ ]]" "array=three n=3" "$r"
	check_contains "$tool, bash-isms: \$'..'" "ansi=3" "$r"
	check_contains "$tool, bash-isms: process substitution" "procsub=same" "$r"
	check_contains "$tool, bash-isms: brace expansion" "brace=1 2 3" "$r"

	r=$(case_result 6)
	seen "npm install" "$r"
	if $npm_ok; then
		check_contains "$tool, npm install from the registry: it succeeds" "npm=0" "$r"
		check_contains "$tool, npm install: the package works" "is-number=true" "$r"
		[ -f "$work/node_modules/is-number/package.json" ] && ok "$tool, npm install: in the project's node_modules" ||
			bad "$tool, npm install: in the project's node_modules" "$(cat "$work/npm.log" 2>/dev/null)"
	else
		missing "$tool, npm install from the registry" "the npm registry cannot be reached"
	fi

	seen "snapshot" "$(case_result 7)"

	check_contains "$tool, agent's script: written" "written" "$(case_result 8)"
	r=$(case_result 9)
	seen "agent's script run next" "$r"
	[ -f "$work/build/out.o" ] && ok "$tool, agent's script run next: refused, build kept" ||
		bad "$tool, agent's script run next: refused, build kept" "$r"
	check_contains "$tool, agent's script: the model reads the command inside it and its line there" \
		"refused DELETE (headless, nobody to approve): rm -r build, on line 2 of what clean.sh runs (none of it ran)" "$r"
	check_contains "$tool, agent's script: status 121" "121" "$r"

	r=$(case_result "$last")
	seen "write from sub/" "$r"
	[ -f "$work/notes.txt" ] && ok "$tool, from sub/: a write elsewhere in the project lands" ||
		bad "$tool, from sub/: a write elsewhere in the project lands" "$r"
	check_contains "$tool, from sub/: the command ran there" "w=0
$work/sub" "$r"
}

# approver_start: `sbsh --approver` in a tmux pane of the suite's own, as
# a human keeps it; all it prints is logged, to count its questions.
approver_start() {
	alog=$scratch/approver.log
	: >"$alog"
	env -u TMUX HOME="$home" XDG_RUNTIME_DIR="$runtime" TERM=xterm SHELL=/bin/sh \
		tmux -S "$tsock" -f /dev/null new-session -d -s ap -x 160 -y 40 \
		"exec '$SBSH' --approver --trust-multiplexer" || return 1
	tmux -S "$tsock" pipe-pane -t ap -o "cat >> '$alog'"
	i=0
	while [ $i -lt 100 ]; do
		tmux -S "$tsock" capture-pane -p -t ap 2>/dev/null | grep -q 'approver ready' && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# questions: how many the approver has put so far.
questions() { grep -c 'needs your approval' "$alog"; }

# answer PID KEY...: while PID (the tool) runs, answers each question the
# approver puts with the next KEY (y with Enter; n is taken alone), as a
# human does: not in the moment it appears, when keys are ignored.
answer() {
	answer_pid=$1
	shift
	asked=0
	while kill -0 "$answer_pid" 2>/dev/null; do
		n=$(questions)
		if [ "$n" -gt "$asked" ]; then
			asked=$n
			if [ $# -gt 0 ]; then
				sleep 1
				if [ "$1" = y ]; then
					tmux -S "$tsock" send-keys -t ap y Enter
				else
					tmux -S "$tsock" send-keys -t ap "$1"
				fi
				shift
			fi
		fi
		sleep 0.2
	done
	wait "$answer_pid"
}

# approver_cases: through the approver, one command a call, each asked
# once: rm -r ask1 answered n, rm -r ask2 answered y.
approver_cases() {
	if ! command -v tmux >/dev/null 2>&1; then
		missing "$tool, through the approver" "tmux is not installed"
		return
	fi
	if ! approver_start; then
		bad "$tool: sbsh --approver starts in tmux" "$(tmux -S "$tsock" capture-pane -p -t ap 2>&1)"
		return
	fi
	mkdir -p "$work/ask1" "$work/ask2"
	steps 'rm -r ask1; echo "status $?"' 'rm -r ask2; echo "status $?"'
	XDG_RUNTIME_DIR=$runtime run_tool >"$scratch/approver-run.out" 2>&1 &
	answer $! n y
	check_contains "$tool, approver: the conversation ends" "FAKE-DONE" "$(cat "$scratch/approver-run.out")"
	check "$tool, approver: one question per command" "2" "$(questions)"
	check_contains "$tool, approver: the human sees the command the agent sent" "rm -r ask1" \
		"$(sed 's/\x1b\[[0-9;]*m//g' "$alog")"
	r=$(case_result 1)
	seen "approver, n" "$r"
	[ -d "$work/ask1" ] && ok "$tool, approver: n binds (ask1 kept)" || bad "$tool, approver: n binds (ask1 kept)" "$r"
	check_contains "$tool, approver: n, and the model is told" "refused DELETE (the human said no): rm -r ask1" "$r"
	check_contains "$tool, approver: n, status 121" "121" "$r"
	r=$(case_result 2)
	seen "approver, y" "$r"
	[ ! -e "$work/ask2" ] && ok "$tool, approver: y runs (ask2 removed)" || bad "$tool, approver: y runs (ask2 removed)" "$r"
	check_contains "$tool, approver: y, status 0" "status 0" "$r"
}
