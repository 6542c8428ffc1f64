### EXIT trap runs at the end
trap 'echo bye' EXIT
echo hello
--- stdout
hello
bye

### EXIT trap runs on exit with status kept
trap 'echo cleanup' EXIT
exit 3
--- stdout
cleanup
--- status
3

### EXIT trap with signal number 0
trap 'echo zero' 0
true
--- stdout
zero

### trap - resets
trap 'echo no' EXIT
trap - EXIT
echo done
--- stdout
done

### INT trap runs on kill -INT
trap 'echo caught' INT
kill -INT $$
echo after
--- stdout
caught
after

### TERM trap
trap 'echo term' TERM
kill -TERM $$
echo continuing
--- stdout
term
continuing

### ignored signal with empty trap
trap '' INT
kill -INT $$
echo survived
--- stdout
survived

### trap -p prints traps
trap 'echo x' INT
trap -p INT
--- tags bash
--- stdout
trap -- 'echo x' SIGINT

### trap with no arguments lists traps
trap 'echo hi' EXIT
trap
--- stdout
trap -- 'echo hi' EXIT
hi

### trap in a subshell is reset
trap 'echo parent' EXIT
(echo in subshell)
--- stdout
in subshell
parent

### EXIT trap in a subshell runs when the subshell exits
(trap 'echo sub exit' EXIT; echo body)
echo after
--- stdout
body
sub exit
after

### trap action sees $? of the last command
trap 'echo status $?' EXIT
false
--- stdout
status 1
--- status
1

### exit inside the EXIT trap sets the status
trap 'exit 5' EXIT
true
--- status
5

### trap USR1 with a function
handler() { echo handled $1; }
trap 'handler usr1' USR1
kill -USR1 $$
--- stdout
handled usr1

### signal names with SIG prefix
trap 'echo got it' SIGUSR2
kill -USR2 $$
--- tags bash
--- stdout
got it

### kill with default signal terminates a child
sleep 10 &
kill $!
wait $!
echo $?
--- stdout
143

### kill -l lists signals
kill -l | grep -c INT
--- stdout
1

### uncaught TERM kills the shell
kill -TERM $$
echo not reached
--- status
143

### trap invalid signal is an error
trap 'echo x' NOSUCHSIG
echo $?
--- stderr-nonempty
--- stdout
1

### multiple signals in one trap
trap 'echo multi' USR1 USR2
kill -USR1 $$
kill -USR2 $$
--- stdout
multi
multi

### trap while waiting for a foreground command
trap 'echo trapped' USR1
(sleep 0.2; kill -USR1 $$) &
sleep 1
wait
echo done
--- stdout
trapped
done

### trap is run after the command in a loop
trap 'echo tick' USR1
for i in 1 2; do kill -USR1 $$; echo loop $i; done
--- stdout
tick
loop 1
tick
loop 2

### kill -l knows signal 0 as EXIT
kill -l 0 INT
kill -l EXIT
--- tags bash
--- stdout
EXIT
2
0

### trap on KILL or STOP is accepted and does nothing
trap 'echo never' KILL
echo "status $?"
trap 'echo never' STOP
echo "status $?"
--- stdout
status 0
status 0

### DEBUG trap runs before each command, at its line, keeping $?
trap 'echo "debug $LINENO status $?"' DEBUG
false
echo one
x=1; [[ $x == 1 ]]
(( x++ ))
--- tags bash
--- stdout
debug 2 status 0
debug 3 status 1
one
debug 4 status 0
debug 4 status 0
debug 5 status 0

### DEBUG trap before each for iteration, case and arithmetic for step
trap 'echo "d $LINENO"' DEBUG
for v in a b; do :; done
case z in z) ;; esac
for ((i = 0; i < 1; i++)); do :; done
trap - DEBUG
--- tags bash
--- stdout
d 2
d 2
d 2
d 2
d 3
d 4
d 4
d 4
d 4
d 4
d 5

### DEBUG trap is not seen inside functions unless set -T
f() {
	echo in-f
}
trap 'echo "dbg $LINENO"' DEBUG
f
set -T
f
--- tags bash
--- stdout
dbg 5
in-f
dbg 6
dbg 7
dbg 1
dbg 2
in-f

### DEBUG trap for each stage of a pipeline runs in the shell first
trap 'echo "dbg $BASH_COMMAND"' DEBUG
echo piped | tr a-z A-Z
--- tags bash
--- stdout
dbg echo piped
dbg tr a-z A-Z
PIPED

### DEBUG trap is not run inside its own action nor in subshells
trap 'echo dbg; echo again' DEBUG
(echo sub)
x=$(echo cmdsub)
--- tags bash
--- stdout
sub
dbg
again

### RETURN trap set in a function fires as it returns and stays set
f() { trap 'echo "returning from ${FUNCNAME[0]}"' RETURN; echo body; }
g() { echo g-body; }
f
g
trap -p RETURN
--- tags bash
--- stdout
body
returning from f
g-body
trap -- 'echo "returning from ${FUNCNAME[0]}"' RETURN

### RETURN trap fires when a sourced file ends
echo 'echo in-lib; return 3; echo not-here' > lib.sh
trap 'echo source-done' RETURN
. ./lib.sh
echo "status $?"
--- tags bash
--- stdout
in-lib
source-done
status 3

### ERR trap is not seen in functions and subshells unless set -E
trap 'echo "err at $LINENO"' ERR
f() {
	false
	true
}
f
(false; true)
set -E
f
(false; true)
--- tags bash
--- stdout
err at 3
err at 10

### ERR trap with set -E fires inside a function and for the failed call
trap 'echo "err at $LINENO"' ERR
set -E
f() {
	true
	false
}
f
--- tags bash
--- stdout
err at 5
err at 7
--- status
1

### ERR trap fires for every failing pipeline, not only the first
trap 'echo "err ${PIPESTATUS[*]}"' ERR
false | false
echo x | grep -q y
echo y | grep -q z | cat
--- tags bash
--- stdout
err 1 1
err 0 1

### ERR trap fires when a compound command's redirection fails
trap 'echo err' ERR
false
{ echo hidden; } < ./missing-file
echo done
--- tags bash
--- stdout
err
err
done

### BASH_COMMAND in an ERR trap names the failed command
trap 'echo "failed: $BASH_COMMAND"' ERR
test -n ""
--- tags bash
--- stdout
failed: test -n ""
--- status
1

### trap in a subshell lists the parent's traps until one is changed
trap 'echo bye' EXIT
(trap)
echo "[$(trap)]"
(trap 'echo sub' INT; trap)
trap - EXIT
--- tags bash
--- stdout
trap -- 'echo bye' EXIT
[trap -- 'echo bye' EXIT]
trap -- 'echo sub' SIGINT
