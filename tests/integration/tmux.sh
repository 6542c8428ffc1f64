#!/bin/sh
# Real tmux driving an interactive sbsh, as a person would: a command and its
# output, Tab completion, Ctrl-C, job control, and an approval prompt answered
# yes and no.
set -u
here=$(dirname "$0")
. "${top_srcdir:-$here/../..}/tests/integration/lib.sh"
require tmux

# a socket of our own, removed with the scratch folder
sock=$scratch/tmux.sock
home=$scratch/home
work=$scratch/work
mkdir -p "$home" "$work"
# a prompt no command output can be mistaken for; ~/.sbshrc is read
echo "PS1='sbsh-test> '" > "$home/.sbshrc"
echo "approval-timeout = 20" > "$XDG_CONFIG_HOME/sbsh/config"

t() { tmux -S "$sock" "$@"; }
cleanup() { t kill-server 2>/dev/null; rm -rf "$scratch" "$xdg"; }
trap cleanup EXIT

screen() { t capture-pane -p -J -t sbsh -S -300 2>/dev/null; }
# wait_for TEXT [SECONDS]: until the pane shows TEXT; false after the time.
wait_for() {
	n=$(( ${2:-10} * 10 ))
	while [ "$n" -gt 0 ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
prompts() { screen | grep -c '^sbsh-test> '; }
# wait_prompt N: until the Nth prompt is shown (the shell is ready again).
wait_prompt() {
	n=100
	while [ "$n" -gt 0 ]; do
		[ "$(prompts)" -ge "$1" ] && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
# expect NAME TEXT [SECONDS]
expect() {
	if wait_for "$2" "${3:-10}"; then ok "$1"; else bad "$1" "not on the screen: $2" "screen:" "$(screen | tail -n 15)"; fi
}

# CI makes sbsh headless: the interactive shell must not see it. The server
# runs its command with /bin/sh, whatever the caller's SHELL.
env -u CI -u TMUX SHELL=/bin/sh HOME="$home" TERM=xterm-256color \
	tmux -S "$sock" -f /dev/null new-session -d -s sbsh -x 120 -y 30 -c "$work" "exec '$SBSH'" || {
	bad "tmux: start a session"; finish; }
t set-option -t sbsh remain-on-exit off >/dev/null 2>&1

if wait_prompt 1; then ok "tmux: sbsh shows its prompt (~/.sbshrc read)"; else bad "tmux: sbsh shows its prompt" "$(screen)"; fi

t send-keys -t sbsh 'echo "out-$((6 * 7))"' Enter
expect "tmux: a typed command and its output" "out-42"

printf 'completed-content\n' > "$work/uniquefile-abc.txt"
wait_prompt 2
t send-keys -t sbsh 'cat uniq' Tab
expect "tmux: Tab completes a file name" "cat uniquefile-abc.txt"
t send-keys -t sbsh Enter
expect "tmux: the completed command runs" "completed-content"

# Ctrl-C cancels the line being typed.
wait_prompt 3
t send-keys -t sbsh 'echo never-ru' 'n'
wait_for 'echo never-run' 3
t send-keys -t sbsh C-c
wait_prompt 4
t send-keys -t sbsh 'echo "after-$((1 + 1))"' Enter
expect "tmux: the shell goes on after Ctrl-C on a line" "after-2"
if screen | grep -qx 'never-run'; then bad "tmux: Ctrl-C dropped the line" "it ran"; else ok "tmux: Ctrl-C dropped the line"; fi

# Ctrl-C cancels a running command.
wait_prompt 5
start=$(date +%s)
t send-keys -t sbsh 'sleep 30' Enter
sleep 0.5
t send-keys -t sbsh C-c
wait_prompt 6
t send-keys -t sbsh 'echo "sleep-status-$?"' Enter
expect "tmux: Ctrl-C cancels sleep 30 (status 130)" "sleep-status-130"
[ $(( $(date +%s) - start )) -lt 20 ] && ok "tmux: ... at once" || bad "tmux: ... at once" "took $(( $(date +%s) - start )) s"

# Job control: C-z stops, jobs lists, bg resumes, fg brings back, C-c ends.
wait_prompt 7
t send-keys -t sbsh 'sleep 30' Enter
sleep 0.5
t send-keys -t sbsh C-z
expect "tmux: C-z stops the job" "Stopped"
wait_prompt 8
t send-keys -t sbsh 'jobs' Enter
wait_prompt 9
if screen | grep -A1 '^sbsh-test> jobs$' | grep -q 'Stopped.*sleep 30'; then ok "tmux: jobs shows it Stopped"; else bad "tmux: jobs shows it Stopped" "$(screen | tail -n 8)"; fi
t send-keys -t sbsh 'bg' Enter
wait_prompt 10
t send-keys -t sbsh 'jobs' Enter
wait_prompt 11
if screen | grep -q 'Running.*sleep 30'; then ok "tmux: bg resumes it"; else bad "tmux: bg resumes it" "$(screen | tail -n 8)"; fi
t send-keys -t sbsh 'fg' Enter
sleep 0.5
t send-keys -t sbsh C-c
wait_prompt 12
t send-keys -t sbsh 'echo "fg-status-$?"; jobs; echo jobs-listed' Enter
expect "tmux: fg then C-c ends it" "fg-status-130"
wait_for jobs-listed 5
if screen | tail -n 4 | grep -q 'sleep 30'; then bad "tmux: no job left" "$(screen | tail -n 4)"; else ok "tmux: no job left"; fi

# An approval prompt answered yes: the file is removed.
wait_prompt 13
touch "$work/victim-yes" "$work/victim-no"
t send-keys -t sbsh 'rm victim-yes; echo "rm-yes-status-$?"' Enter
expect "tmux: the approval prompt appears" "Allow? [y]es once, yes for this [s]ession, [n]o (20 s)"
t send-keys -t sbsh 'y' Enter
expect "tmux: answered yes, rm ran" "rm-yes-status-0"
[ ! -e "$work/victim-yes" ] && ok "tmux: ... and the file is gone" || bad "tmux: ... and the file is gone"

# ... and answered no: the file stays, the status is 121.
wait_prompt 14
t send-keys -t sbsh 'rm victim-no; echo "rm-no-status-$?"' Enter
wait_for "rm victim-no" 5
sleep 0.3
# The question is on a screen of its own (the alternate screen): the
# first one is gone from it, and this one names the other file.
if wait_for "Allow?" 5 && screen | grep -q '^    rm victim-no'; then ok "tmux: asked again for another file"; else bad "tmux: asked again for another file" "$(screen | tail -n 8)"; fi
t send-keys -t sbsh 'n' Enter
expect "tmux: answered no, status 121" "rm-no-status-121"
expect "tmux: the refusal is reported" "refused DELETE (the human said no): rm victim-no"
[ -e "$work/victim-no" ] && ok "tmux: ... and the file stays" || bad "tmux: ... and the file stays"

# exit ends the session, and the history was kept.
wait_prompt 15
t send-keys -t sbsh 'exit' Enter
n=50
while [ "$n" -gt 0 ] && t has-session -t sbsh 2>/dev/null; do sleep 0.1; n=$((n - 1)); done
if t has-session -t sbsh 2>/dev/null; then bad "tmux: exit ends the shell" "$(screen | tail -n 5)"; else ok "tmux: exit ends the shell"; fi
hist=$XDG_STATE_HOME/sbsh/history
# libedit writes its own format, with blanks as \040.
if [ -f "$hist" ] && sed 's/\\040/ /g' "$hist" | grep -qF 'echo "out-$((6 * 7))"'; then ok "tmux: history kept in \$XDG_STATE_HOME/sbsh/history"; else bad "tmux: history kept in \$XDG_STATE_HOME/sbsh/history" "$(ls -la "$XDG_STATE_HOME/sbsh" 2>&1)"; fi

finish
