#!/bin/sh
# Tab completion in an interactive sbsh driven by real tmux: command names
# (builtins, functions, programs on PATH), variables after $, ~user, and
# file names — with each line editor the build chose.
set -u
here=$(dirname "$0")
. "${top_srcdir:-$here/../..}/tests/integration/lib.sh"
require tmux

sock=$scratch/tmux.sock
home=$scratch/home
work=$scratch/work
mkdir -p "$home" "$work"
echo "PS1='sbsh-test> '" >"$home/.sbshrc"
echo 'mycompletedfunc() { echo func-ran; }' >>"$home/.sbshrc"
echo 'SBSH_COMPLETE_VARIABLE=var-value' >>"$home/.sbshrc"
: >"$work/zz-completion-file.txt"
user=$(id -un)

t() { tmux -S "$sock" "$@"; }
screen() { t capture-pane -p -J -t sbsh -S -100 2>/dev/null; }
cleanup() { t kill-server 2>/dev/null; rm -rf "$scratch" "$xdg"; }
trap cleanup EXIT
wait_for() {
	n=$(( ${2:-10} * 10 ))
	while [ "$n" -gt 0 ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
# type TEXT, press Tab, expect LINE on screen, then cancel the line
try() { # name typed expected
	t send-keys -t sbsh "$2" Tab
	if wait_for "$3" 5; then ok "$1"; else bad "$1" "screen:" "$(screen | tail -n 5)"; fi
	t send-keys -t sbsh C-c
	sleep 0.3
}

env -u CI -u TMUX SHELL=/bin/sh HOME="$home" TERM=xterm-256color \
	tmux -S "$sock" -f /dev/null new-session -d -s sbsh -x 120 -y 30 -c "$work" "exec '$SBSH'" || {
	bad "tmux: start a session"; finish; }
wait_for 'sbsh-test> ' 10 || { bad "tmux: sbsh shows its prompt" "$(screen)"; finish; }

try "a builtin name completes" 'readarr' 'sbsh-test> readarray'
try "a function name completes" 'mycompletedf' 'sbsh-test> mycompletedfunc'
try "a program on PATH completes" 'tmu' 'sbsh-test> tmux'
try "a variable after \$ completes" 'echo $SBSH_COMPLETE_VAR' 'echo $SBSH_COMPLETE_VARIABLE'
try "~user completes" "ls ~$(printf '%s' "$user" | cut -c1-2)" "ls ~$user/"
try "a file name completes" 'cat zz-compl' 'cat zz-completion-file.txt'
t send-keys -t sbsh 'echo readarr' Tab
sleep 0.7
if wait_for 'echo readarr' 3 && ! screen | grep -qF 'echo readarray'; then
	ok "an argument is not completed as a command name"
else
	bad "an argument is not completed as a command name" "$(screen | tail -n 3)"
fi
t send-keys -t sbsh C-c

# Prompt escapes: \u user, \W folder name, \$ # for root else $.
sleep 0.3
t send-keys -t sbsh "PS1='[\\u@\\W]\\$ '" Enter
sign='$'
[ "$(id -u)" = 0 ] && sign='#'
if wait_for "[$user@work]$sign " 5; then ok "PS1 escapes \\u \\W \\$"; else bad "PS1 escapes" "$(screen | tail -n 3)"; fi

# --version names the line editor and the Landlock ABI.
version=$("$SBSH" --version)
case $version in
"sbsh "*"line editor: "*"Landlock ABI "*) ok "--version: $version" ;;
*) bad "--version names the line editor and the Landlock ABI" "$version" ;;
esac
finish
