### eval runs its arguments
eval 'echo evaluated'
--- stdout
evaluated

### eval concatenates arguments with spaces
eval echo a b
--- stdout
a b

### eval sees current variables and can assign
x=1
eval 'x=$((x + 1))'
echo $x
--- stdout
2

### eval with a syntax error
eval 'if then'
echo status $?
--- stderr-nonempty
--- tags bash
--- stdout
status 2

### eval with no arguments
eval
echo $?
--- stdout
0

### eval indirection
name=value
var=name
eval "echo \$$var"
--- stdout
value

### dot runs a file in the current shell
echo 'x=sourced' > lib.sh
. ./lib.sh
echo $x
--- stdout
sourced

### dot with a missing file is an error
"$SHELL" -c '. ./missing.sh; echo no'
[ $? -ne 0 ] && echo failed
--- stderr-nonempty
--- tags nobash
--- stdout
failed

### return from a dot file
printf 'echo one\nreturn\necho two\n' > lib.sh
. ./lib.sh
echo after
--- stdout
one
after

### dot file status is its last command
echo false > lib.sh
. ./lib.sh
echo $?
--- stdout
1

### source with arguments
echo 'echo "args: $*"' > lib.sh
source ./lib.sh a b
--- tags bash
--- stdout
args: a b

### dot searches PATH
mkdir bin
echo 'echo found in path' > bin/lib.sh
PATH=$PWD/bin:$PATH
. lib.sh
--- stdout
found in path

### exec replaces the shell
exec echo replaced
echo not reached
--- stdout
replaced

### exec of a missing command fails and exits
"$SHELL" -c 'exec nosuchcmd_xyz; echo no'
echo $?
--- stderr-nonempty
--- stdout
127

### command -v finds builtins and programs
command -v echo
command -v sh
--- stdout
echo
/usr/bin/sh

### command -v of a missing command fails
command -v nosuchcmd_xyz
[ $? -ne 0 ] && echo failed
--- stdout
failed

### command -v of a function and alias
f() { :; }
alias a='echo a'
command -v f
command -v a
--- tags bash
--- stdout
f
alias a='echo a'

### command -V describes a builtin
command -V cd
--- tags bash
--- stdout
cd is a shell builtin

### command runs a builtin ignoring functions
cd() { echo fake; }
command cd /
pwd
--- stdout
/

### command -p uses the default path
PATH=/nonexistent
command -p ls / > /dev/null && echo ok
--- stdout
ok

### type of builtin keyword function and file
f() { :; }
type cd
type if
type f | head -1
type ls
--- tags bash
--- stdout
cd is a shell builtin
if is a shell keyword
f is a function
ls is /usr/bin/ls

### type of missing command
type nosuchcmd_xyz
echo $?
--- stderr-nonempty
--- tags bash
--- stdout
1

### type -t
f() { :; }
type -t f cd if ls
--- tags bash
--- stdout
function
builtin
keyword
file

### hash remembers a command
hash ls
hash | grep -c ls
--- tags bash
--- stdout
1

### hash -r clears the table
hash ls
hash -r
hash
--- tags bash
--- stdout
hash: hash table empty

### export makes variables visible to children
export A=1
B=2
export B
sh -c 'echo $A $B'
--- stdout
1 2

### export -p lists exported variables
export MYVAR=hello
export -p | grep -c "MYVAR=.hello"
--- stdout
1

### export -n unexports
export X=1
export -n X
sh -c 'echo "[${X-unset}]"'
echo $X
--- tags bash
--- stdout
[unset]
1

### readonly prevents assignment
readonly R=1
(R=2) 2>/dev/null || echo refused
echo $R
--- stdout
refused
1

### readonly prevents unset
readonly R=1
(unset R) 2>/dev/null || echo refused
--- stdout
refused

### assigning a readonly variable is an error
"$SHELL" -c 'readonly R=1; R=2; echo no'
[ $? -ne 0 ] && echo failed
--- stderr-nonempty
--- stdout
failed

### readonly -p lists readonly variables
readonly RO=x
readonly -p | grep -c "RO=.x"
--- stdout
1

### unset a variable
x=1
unset x
echo "[${x-unset}]"
--- stdout
[unset]

### unset -v and unset -f
f() { echo f; }
f=var
unset -v f
f
unset -f f
f 2>/dev/null || echo gone
--- stdout
f
gone

### unset a variable that does not exist is fine
unset nosuchvar_xyz
echo $?
--- stdout
0

### unset several variables
a=1 b=2
unset a b
echo "[$a$b]"
--- stdout
[]

### shift with a variable count
set -- a b c d
n=2
shift $n
echo $*
--- stdout
c d

### true and false and colon
true; echo $?
false; echo $?
:; echo $?
: ignored args; echo $?
--- stdout
0
1
0
0

### umask prints and sets the mask
umask 027
umask
--- stdout
0027

### umask affects created files
umask 077
: > f
ls -l f | cut -c1-10
--- stdout
-rw-------

### umask -S symbolic output
umask 022
umask -S
--- stdout
u=rwx,g=rx,o=rx

### umask with symbolic mode
umask 077
umask g+rx
umask
--- stdout
0027

### ulimit -n prints a number
ulimit -n | grep -c '^[0-9][0-9]*$'
--- stdout
1

### ulimit -n can lower the limit in a subshell
(ulimit -n 100; ulimit -n)
--- stdout
100

### times prints and returns 0
times > /dev/null
echo $?
--- stdout
0

### wait with no children returns 0
wait
echo $?
--- stdout
0

### builtin runs a builtin
builtin echo via builtin
--- tags bash
--- stdout
via builtin

### break outside a loop is harmless
break 2>/dev/null
echo continued
--- stdout
continued

### return outside a function is an error
return 2>/dev/null
echo $?
--- tags bash
--- stdout
2

### exit in a pipeline stage only exits that stage
exit 3 | true
echo $?
--- stdout
0

### special builtin error exits the shell under set -o posix
"$SHELL" -c 'set -o posix; set -o nosuchopt; echo survived'
[ $? -ne 0 ] && echo exited
--- stderr-nonempty
--- tags bash nobash
--- stdout
exited

### special builtin error is reported but not fatal outside posix mode
set -o nosuchopt 2>/dev/null || echo failed
shift 7 2>/dev/null
echo survived
--- tags bash
--- stdout
failed
survived

### shopt -o speaks of the set -o options
shopt -po nounset
set -o nounset
shopt -po nounset
shopt -o nounset
shopt -qo noglob; echo q=$?
shopt -so noglob; shopt -qo noglob; echo q=$?
shopt -o nosuchopt 2>/dev/null; echo bad=$?
--- tags bash
--- stdout
set +o nounset
set -o nounset
nounset        	on
q=1
q=0
bad=1

### shopt -s xpg_echo makes echo expand escapes
shopt -s xpg_echo
echo 'a\tb'
shopt -u xpg_echo
echo 'a\tb'
--- tags bash
--- stdout
a	b
a\tb

### regular builtin error does not exit the shell
cd /nonexistent_xyz 2>/dev/null
echo survived
--- stdout
survived

### umask refuses an empty mode and an empty clause
umask 022
umask ''
echo "status $?"
umask u=,
echo "status $?"
umask
--- stderr-nonempty
--- tags nodash
--- stdout
status 1
status 1
0022

### eval refuses an option
eval -z
echo "status $?"
eval -- 'echo ran'
--- tags bash
--- stderr-nonempty
--- stdout
status 2
ran

### command -v does not take a directory for a command
mkdir d
command -v ./d
echo "status $?"
--- tags nodash
--- stdout
status 1

### an assignment before exec with a command is in its environment
v=value exec "$SHELL" -c 'echo "v=$v"'
--- stdout
v=value

### ulimit with a limit past what fits in bytes is unlimited
ulimit -f unlimited
ulimit -f 4611686018427387905
ulimit -f
--- tags bash
--- stdout
unlimited

### type -f skips functions, type -ap lists files despite a builtin
mkdir bin
printf '#!/bin/sh\n' > bin/pwd
chmod +x bin/pwd
PATH=$PWD/bin:$PATH
pwd() { echo func; }
type -f pwd
type -ap pwd | head -n 1 | sed "s|^$PWD/||"
type -p pwd
--- tags bash
--- stdout
pwd is a shell builtin
bin/pwd

### declare -F with shopt -s extdebug tells where a function was defined
f() { :; }
shopt -s extdebug
declare -F f
shopt -u extdebug
declare -F f
--- tags bash
--- stdout
f 1 environment
f

### help describes a builtin and fails for an unknown topic
help cd >/dev/null
echo "status $?"
help no-such-topic 2>/dev/null
echo "status $?"
--- tags bash
--- stdout
status 0
status 1

### continue with more than one operand abandons the line
for i in 1 2; do echo "i$i"; continue 1 extra; done; echo same-line
echo next
--- mode file
--- tags nodash
--- stdout
i1
next
--- stderr-nonempty

### wait -n for something that is no job is status 127
wait -n no-such-job 2>/dev/null
echo "status $?"
--- tags bash
--- stdout
status 127

### wait reports a background job killed by a signal
sleep 5 &
kill -KILL $!
wait $! 2>err
echo "status $?"
grep -c Killed err
--- tags bash
--- stdout
status 137
1

### test with more than four operands groups parentheses first
test 0 -eq 0 -a '(' = ')'; echo $?
test '(' = ')'; echo $?
[ x -a ! = y ] 2>/dev/null; echo $?
--- stdout
0
1
2

### type -ap of a function is found
f() { :; }
type -ap f
echo "status $?"
--- tags bash
--- stdout
status 0

### break with a word that is no number ends the script
x=oops
while true; do
	echo once
	break $x
done
echo not-reached
--- mode file
--- tags nodash
--- stdout
once
--- stderr-nonempty
--- status
128

### readonly -A makes a read-only associative array
readonly -A m=([k]=v)
echo "${m[k]}"
m[j]=w 2>/dev/null
echo "${#m[@]}"
--- tags bash
--- stdout
v
1
