### $# counts positional parameters
set -- a b c
echo $#
--- stdout
3

### $@ and $* unquoted
set -- 'a b' c
for x in $@; do echo "[$x]"; done
for x in $*; do echo "[$x]"; done
--- stdout
[a]
[b]
[c]
[a]
[b]
[c]

### "$@" keeps arguments
set -- 'a b' c
for x in "$@"; do echo "[$x]"; done
--- stdout
[a b]
[c]

### "$*" joins with first IFS character
set -- a b c
IFS=:
echo "$*"
--- stdout
a:b:c

### "$*" with empty IFS joins without separator
set -- a b c
IFS=
echo "$*"
--- stdout
abc

### "$*" with unset IFS joins with space
set -- a b c
unset IFS
echo "$*"
--- stdout
a b c

### "$@" with no parameters is no field
set --
for x in "$@"; do echo word; done
set -- "$@"
echo $#
--- stdout
0

### "$@" with prefix and suffix
set -- a b c
for x in "x$@y"; do echo "[$x]"; done
--- stdout
[xa]
[b]
[cy]

### "$@" with empty arguments kept
set -- '' ''
set -- "$@"
echo $#
--- stdout
2

### $? is the last status
false
echo $?
echo $?
--- stdout
1
0

### $$ is a number and same in subshell
a=$$
b=$(echo $$)
[ "$a" = "$b" ] && echo same
case $a in *[!0-9]*) echo bad;; *) echo numeric;; esac
--- stdout
same
numeric

### $0 with -c is the shell's name
[ "$0" = "$SHELL" ] && echo same
--- stdout
same

### $- contains set options
set -f
case $- in *f*) echo has f;; esac
set +f
case $- in *f*) echo still f;; *) echo no f;; esac
--- stdout
has f
no f

### -c with a name and arguments sets $0 and positionals
"$SHELL" -c 'echo "$0 $1 $2 $#"' name a b
--- stdout
name a b 2

### shift moves parameters
set -- a b c
shift
echo $# $1
shift 2
echo $#
--- stdout
2 b
0

### shift too far ends the shell under set -o posix
set -o posix
set -- a
shift 2
echo $?
--- tags bash nobash
--- status
2

### shift too far fails with status 1 otherwise
set -- a
shift 2 2>/dev/null
echo $?
--- tags bash
--- stdout
1

### set -- clears parameters
set -- a b
set --
echo $#
--- stdout
0

### set with words sets parameters
set x y z
echo $2
--- stdout
y

### $! unset before any background job
echo "[$!]"
--- stdout
[]

### $@ in a word in double quotes with spaces
set -- one two
echo "args: $@"
--- stdout
args: one two

### $* unquoted with IFS set
set -- 'a:b' c
IFS=:
for x in $*; do echo "[$x]"; done
--- stdout
[a]
[b]
[c]

### "${@:-default}" with no parameters
set --
echo "${@:-default}"
--- stdout
default

### $10 is $1 followed by 0
set -- a b c d e f g h i j
echo $10
--- stdout
a0

### $@ unquoted with empty parameters drops them
set -- a '' b
set -- $@
echo $#
--- stdout
2

### $# after function call restored
set -- a b c
f() { echo $#; }
f x
echo $#
--- stdout
1
3

### quoted "$1" keeps spaces
set -- '  spaced  '
echo "[$1]"
--- stdout
[  spaced  ]

### $_ is the last word of the previous simple command
name=world
echo "hi $name"
echo "[$_]"
: a 'b'"c"
echo "[$_]"
x='with spaces'
: $x
echo "[$_]"
--- stdout
hi world
[hi world]
[bc]
[spaces]
--- tags bash

### $_ through && and loops, and emptied by an assignment
echo one && echo "and=$_"
for i in 1 2; do echo "prev=$_"; done
v=1
echo "[$_]"
--- stdout
one
and=one
prev=and=one
prev=prev=and=one
[]
--- tags bash

### $_ is set under set -u
set -u
echo "${_+set}"
--- stdout
set
--- tags bash

### $_ is read the same by arithmetic and indirection
: 5
echo $((_ + 1))
n=_
: abc
echo "${!n}"
--- stdout
6
abc
--- tags bash

### assigning a read-only variable abandons the rest of the line only
readonly x=1
x=2; echo same-line
echo "next $?"
f() { x=4; echo in-f; }
f; echo after-f
eval 'x=5'; echo "eval $?"
--- mode file
--- tags nodash
--- stdout
next 1
eval 1
--- stderr-nonempty

### an assignment to a read-only variable before a command still runs it
readonly x=1
x=3 echo ran
--- tags nodash
--- stdout
ran
--- stderr-nonempty

### a read-only assignment under set -e ends the script
set -e
readonly x=1
x=2
echo not-reached
--- mode file
--- tags nodash
--- stderr-nonempty
--- status
1

### under set -o posix a read-only assignment ends the script
set -o posix
readonly x=1
x=2
echo not-reached
--- mode file
--- tags bash
--- stdout
--- stderr-nonempty
--- status
1

### in -c text a read-only assignment abandons its line, the next one runs
"$SHELL" -c 'readonly x=1
x=2; echo same-line
echo next-line' 2>/dev/null
echo "status $?"
--- tags nodash
--- stdout
next-line
status 0

### extra operands to continue give up -c text as a whole
"$SHELL" -c 'for i in 1; do continue 1 2; done
echo not-reached' 2>/dev/null
echo "status $?"
--- tags nodash
--- stdout
status 1
