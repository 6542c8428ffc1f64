#!/bin/sh
# Exit status 7: with the Landlock syscalls failing, --sandbox must run
# nothing and exit 7; the default mode must run the command unconfined.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/report.sh"
helper=./tests/sandbox/no_landlock
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The helper fakes a kernel without Landlock with a seccomp filter, which
# a kernel without seccomp cannot load.
if ! "$helper" true 2>"$work/err" && grep -q '^no_landlock: ' "$work/err"; then
	skip_all "no seccomp filter can be loaded here ($(head -n 1 "$work/err"))"
fi

for how in "" --eopnotsupp; do
	rm -f "$work/ran"
	$helper $how "$SBSH" --sandbox -c "echo ran > $work/ran" 2>"$work/err"
	status=$?
	[ "$status" = 7 ]; check_status $? "--sandbox without Landlock ${how:-(ENOSYS)} exits 7 (got $status)"
	[ ! -e "$work/ran" ]; check_status $? "--sandbox without Landlock ${how:-(ENOSYS)} runs nothing"
	grep -q '^sbsh: sandbox requested but unavailable: ' "$work/err"; check_status $? "--sandbox without Landlock ${how:-(ENOSYS)} says why"
	$helper $how "$SBSH" -c "echo ran > $work/ran" 2>"$work/err"
	status=$?
	[ "$status" = 0 ] && [ -f "$work/ran" ]; check_status $? "default mode without Landlock ${how:-(ENOSYS)} runs the command"
done
# On a terminal, text naming escape gets a broker, for which the writable
# folders are opened before the fork; with no sandbox to apply, the shell
# must still close its copies (they would leak into every builtin's view).
name="without Landlock, a shell with a broker keeps no folder descriptors open"
if command -v script >/dev/null 2>&1; then
	out=$(script -qec "$helper \"$SBSH\" -c 'true || escape true; n=0; for f in /proc/\$\$/fd/*; do [ -d \"\$f\" ] && n=\$((n + 1)); done; echo dirfds=\$n'" /dev/null </dev/null 2>&1)
	case $out in *dirfds=0*) r=0 ;; *) r=1 ;; esac
	check_status $r "$name ($(printf %s "$out" | tr -d '\r' | tail -n 1))"
else
	missing "$name" "script(1) is not installed (Debian's bsdutils has it)"
fi
# The config file can require it too.
mkdir -p "$work/config/sbsh"
echo "sandbox = on" >"$work/config/sbsh/config"
XDG_CONFIG_HOME=$work/config $helper "$SBSH" -c "echo ran > $work/ran2" 2>/dev/null
status=$?
[ "$status" = 7 ] && [ ! -e "$work/ran2" ]; check_status $? "sandbox = on in the config file without Landlock exits 7"
echo "sandbox = maybe" >"$work/config/sbsh/config"
XDG_CONFIG_HOME=$work/config "$SBSH" -c "echo ran > $work/ran3" 2>"$work/err"
status=$?
[ "$status" = 2 ] && [ ! -e "$work/ran3" ] && grep -q 'config:1:' "$work/err"; check_status $? "a bad config line is an error naming file:line"
# --doctor reports, never refuses.
$helper "$SBSH" --doctor --json >"$work/doctor.json"
status=$?
[ "$status" = 0 ] && grep -q '"available": false' "$work/doctor.json"; check_status $? "--doctor without Landlock reports it and exits 0"
finish
