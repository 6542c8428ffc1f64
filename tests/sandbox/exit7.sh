#!/bin/sh
# Exit status 7: with the Landlock syscalls failing, --sandbox must run
# nothing and exit 7; the default mode must run the command unconfined.
set -u
helper=./tests/sandbox/no_landlock
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); echo "ok   $2"; else failed=$((failed + 1)); echo "FAIL $2"; fi; }

for how in "" --eopnotsupp; do
	rm -f "$work/ran"
	$helper $how "$SBSH" --sandbox -c "echo ran > $work/ran" 2>"$work/err"
	status=$?
	[ "$status" = 7 ]; check $? "--sandbox without Landlock ${how:-(ENOSYS)} exits 7 (got $status)"
	[ ! -e "$work/ran" ]; check $? "--sandbox without Landlock ${how:-(ENOSYS)} runs nothing"
	grep -q '^sbsh: sandbox requested but unavailable: ' "$work/err"; check $? "--sandbox without Landlock ${how:-(ENOSYS)} says why"
	$helper $how "$SBSH" -c "echo ran > $work/ran" 2>"$work/err"
	status=$?
	[ "$status" = 0 ] && [ -f "$work/ran" ]; check $? "default mode without Landlock ${how:-(ENOSYS)} runs the command"
done
# On a terminal, text naming escape gets a broker, for which the writable
# folders are opened before the fork; with no sandbox to apply, the shell
# must still close its copies (they would leak into every builtin's view).
out=$(script -qec "$helper \"$SBSH\" -c 'true || escape true; n=0; for f in /proc/\$\$/fd/*; do [ -d \"\$f\" ] && n=\$((n + 1)); done; echo dirfds=\$n'" /dev/null </dev/null 2>&1)
case $out in *dirfds=0*) r=0 ;; *) r=1 ;; esac
check $r "without Landlock, a shell with a broker keeps no folder descriptors open ($(printf %s "$out" | tr -d '\r' | tail -n 1))"
# The config file can require it too.
mkdir -p "$work/config/sbsh"
echo "sandbox = on" >"$work/config/sbsh/config"
XDG_CONFIG_HOME=$work/config $helper "$SBSH" -c "echo ran > $work/ran2" 2>/dev/null
status=$?
[ "$status" = 7 ] && [ ! -e "$work/ran2" ]; check $? "sandbox = on in the config file without Landlock exits 7"
echo "sandbox = maybe" >"$work/config/sbsh/config"
XDG_CONFIG_HOME=$work/config "$SBSH" -c "echo ran > $work/ran3" 2>"$work/err"
status=$?
[ "$status" = 2 ] && [ ! -e "$work/ran3" ] && grep -q 'config:1:' "$work/err"; check $? "a bad config line is an error naming file:line"
# --doctor reports, never refuses.
$helper "$SBSH" --doctor --json >"$work/doctor.json"
status=$?
[ "$status" = 0 ] && grep -q '"available": false' "$work/doctor.json"; check $? "--doctor without Landlock reports it and exits 0"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
