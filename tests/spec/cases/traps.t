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
