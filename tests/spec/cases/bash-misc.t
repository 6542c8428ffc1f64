### source is like dot
echo 'v=sourced' > lib
source ./lib
echo $v
--- tags bash
--- stdout
sourced

### RANDOM is in range
r=$RANDOM
[ "$r" -ge 0 ] && [ "$r" -le 32767 ] && echo in range
--- tags bash
--- stdout
in range

### RANDOM changes
a=$RANDOM$RANDOM$RANDOM
b=$RANDOM$RANDOM$RANDOM
[ "$a" != "$b" ] && echo differs
--- tags bash
--- stdout
differs

### RANDOM seeding gives a repeatable sequence
RANDOM=42; a=$RANDOM
RANDOM=42; b=$RANDOM
[ "$a" = "$b" ] && echo repeatable
--- tags bash
--- stdout
repeatable

### SECONDS is a number
case $SECONDS in *[!0-9]*) echo bad;; *) echo number;; esac
--- tags bash
--- stdout
number

### shopt -s and -q
shopt -s nullglob
shopt -q nullglob && echo on
shopt -u nullglob
shopt -q nullglob || echo off
--- tags bash
--- stdout
on
off

### shopt dotglob
touch .hidden visible
shopt -s dotglob
echo *
--- tags bash
--- stdout
.hidden visible

### nocaseglob
touch ABC
shopt -s nocaseglob
echo ab*
--- tags bash
--- stdout
ABC

### failglob makes an unmatched glob an error
shopt -s failglob
echo *.none
echo $?
--- stderr-nonempty
--- tags bash
--- stdout
1

### nocasematch for case and [[
shopt -s nocasematch
case ABC in abc) echo case ok;; esac
[[ ABC == abc ]] && echo cond ok
--- tags bash
--- stdout
case ok
cond ok

### pipefail with set -e
set -eo pipefail
false | true
echo not reached
--- tags bash
--- status
1

### function keyword with local
function f { local x=1; echo $x; }
f
--- tags bash
--- stdout
1

### PPID is a number
case $PPID in ''|*[!0-9]*) echo bad;; *) echo number;; esac
--- stdout
number

### let with multiple expressions and increments
i=1
let i++ i*=10
echo $i
--- tags bash
--- stdout
20

### lastpipe is not needed for while read in a subshell pipeline
n=0
printf 'a\nb\n' | while read l; do n=$((n+1)); done
echo $n
--- stdout
0

### time keyword writes to stderr
time true
--- stderr-nonempty
--- tags bash

### unset removes array element with quotes
a=(1 2 3)
unset 'a[0]'
echo ${a[@]}
--- tags bash
--- stdout
2 3

### source a file with functions
echo 'greet() { echo "hi $1"; }' > lib
source lib
greet there
--- tags bash
--- stdout
hi there

### type -t keyword
type -t '[['
--- tags bash
--- stdout
keyword

### exit status of a command not found in a pipeline with pipefail
set -o pipefail
nosuchcmd_xyz 2>/dev/null | true
echo $?
--- tags bash
--- stdout
127

### BASH_REMATCH is cleared on failure
[[ abc =~ b ]]
[[ abc =~ z ]]
echo "${#BASH_REMATCH[@]}"
--- tags bash
--- stdout
0

### EPOCHSECONDS and EPOCHREALTIME follow the clock; assignments are lost
a=$EPOCHSECONDS
EPOCHSECONDS=5
d=$((EPOCHSECONDS - a))
[ "$d" -ge 0 ] && [ "$d" -le 2 ] && echo seconds ok
case $EPOCHREALTIME in "$a".[0-9][0-9][0-9][0-9][0-9][0-9] | [0-9]*.[0-9][0-9][0-9][0-9][0-9][0-9]) echo realtime ok ;; esac
--- tags bash
--- stdout
seconds ok
realtime ok

### BASHPID is this process, a subshell's own; declare -F NAME prints the name
[ "$BASHPID" = "$$" ] && echo same
(o=$BASHPID; [ "$o" != "$$" ] && echo differs); true
f() { :; }
declare -F f
--- tags bash
--- stdout
same
differs
f
