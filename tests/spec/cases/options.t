### set -e exits on failure
set -e
echo before
false
echo after
--- stdout
before
--- status
1

### set -e ignores failure in if condition
set -e
if false; then echo no; fi
echo survived
--- stdout
survived

### set -e ignores failure in while condition
set -e
while false; do :; done
echo survived
--- stdout
survived

### set -e ignores failure left of && and ||
set -e
false && echo no
false || echo rescued
echo survived
--- stdout
rescued
survived

### set -e exits on failure at the end of an and-or list
set -e
true && false
echo not reached
--- status
1

### set -e ignores negated commands
set -e
! true
echo survived
--- stdout
survived

### set -e with a failing pipeline uses the last status
set -e
false | true
echo survived
true | false
echo not reached
--- stdout
survived
--- status
1

### set -e exits from a failing subshell
set -e
(false)
echo not reached
--- status
1

### set -e inside a subshell exits only the subshell
(set -e; false; echo no)
echo status $?
--- stdout
status 1

### set -e and a failing command substitution in an assignment
set -e
x=$(false)
echo not reached
--- status
1

### set -e in function called in a condition is ignored
set -e
f() { false; echo in f; }
if f; then echo f ok; fi
--- stdout
in f
f ok

### set +e turns errexit off
set -e
set +e
false
echo survived
--- stdout
survived

### set -e exits with the failing status
set -e
sh -c 'exit 3'
echo no
--- status
3

### set -u errors on unset variables
"$SHELL" -c 'set -u; echo "$undefined_var"; echo no'
[ $? -ne 0 ] && echo failed
--- stderr-nonempty
--- stdout
failed

### set -u allows $@ and $* with no parameters
set -u
set --
echo "[$@][$*]"
--- stdout
[][]

### set -u allows default expansions
set -u
echo ${undefined_var-dflt}
--- stdout
dflt

### set -f disables pathname expansion
touch a
set -f
echo *
set +f
echo *
--- stdout
*
a

### set -a exports assignments
set -a
V=auto
sh -c 'echo $V'
--- stdout
auto

### set -C noclobber
echo 1 > f
set -C
(echo 2 > f) 2>/dev/null || echo refused
cat f
--- stdout
refused
1

### set -x traces commands to stderr
set -x
echo hi
--- stderr
+ echo hi
--- stdout
hi

### set -x traces assignments and expanded words
set -x
x=1
echo $x "a b"
--- tags bash
--- stderr
+ x=1
+ echo 1 'a b'
--- stdout
1 a b

### PS4 is used for xtrace
PS4='>> '
set -x
echo traced
--- stderr
>> echo traced
--- stdout
traced

### set +x stops tracing
set -x
set +x
echo quiet
--- stderr
+ set +x
--- stdout
quiet

### set -v prints input lines
set -v
echo verbose
--- mode stdin
--- stderr
echo verbose
--- stdout
verbose

### set -n reads without executing
set -n
echo not run

### set -n still detects syntax errors
set -n
if then
--- stderr-nonempty
--- status
2

### set -o lists option state
set -o | grep -E '^(errexit|noglob)[[:space:]]' | tr -s ' \t' ' '
--- tags bash
--- stdout
errexit off
noglob off

### set -o name turns an option on
set -o noglob
case $- in *f*) echo on;; esac
--- stdout
on

### set +o prints reusable commands
set -e
set +o | grep errexit
--- tags bash
--- stdout
set -o errexit

### set -o pipefail
set -o pipefail
false | true
echo $?
true | true
echo $?
--- tags bash
--- stdout
1
0

### pipefail reports the last failing stage
set -o pipefail
(exit 2) | (exit 3) | true
echo $?
--- tags bash
--- stdout
3

### invalid option to set is an error
(set -o nosuchoption)
echo $?
--- stderr-nonempty
--- stdout
2

### $- reflects set -e and -u
set -eu
case $- in *e*u*|*u*e*) echo both;; esac
--- stdout
both

### errexit does not apply to commands in && chains except the last
set -e
false && true
echo survived
--- stdout
survived

### LINENO counts lines
echo $LINENO
echo $LINENO

echo $LINENO
--- tags bash
--- stdout
1
2
4

### LINENO in a script file
echo $LINENO
f() {
  echo $LINENO
}
f
--- mode file
--- tags bash
--- stdout
1
3

### xtrace of a pipeline and a builtin with quoting
set -x
echo 'it''s'
--- stderr
+ echo its
--- tags bash
--- stdout
its

### set -- with options after
set -- -x -e
echo $1 $2
case $- in *x*) echo traced;; *) echo not traced;; esac
--- stdout
-x -e
not traced

### set - resets x and v
set -x
set -
echo quiet
--- stderr
+ set -
--- tags bash
--- stdout
quiet

### set -e is not triggered by a failing command in a function used with ||
set -e
f() { false; echo continued; }
f || true
echo end
--- stdout
continued
end

### set -e triggered inside a function called normally
set -e
f() { false; echo continued; }
f
echo end
--- status
1

### posix mode: trap and alias listings in POSIX's format
(set -o posix) 2>/dev/null && set -o posix
trap 'echo bye' INT
trap
alias ll='ls -l'
alias
--- stdout
trap -- 'echo bye' INT
ll='ls -l'

### posix mode: ~ after = in an ordinary argument stays
(set -o posix) 2>/dev/null && set -o posix
HOME=/home/u
echo a=~/x
v=b:~/y
echo $v
--- stdout
a=~/x
b:/home/u/y

### bash expands ~ after = in an argument that looks like an assignment
HOME=/home/u
echo a=~/x
--- tags nodash
--- stdout
a=/home/u/x

### posix mode: a command substitution keeps set -e
(set -o posix) 2>/dev/null && set -o posix
set -e
x=$(false; echo still)
echo "not reached [$x]"
--- stdout
--- status
1

### bash clears set -e in a command substitution unless inherit_errexit
set -e
x=$(false; echo still)
echo "[$x]"
shopt -s inherit_errexit
y=$(false; echo still)
echo not reached
--- tags bash
--- stdout
[still]
--- status
1

### posix mode: shifting past the parameters is an error that ends the shell
(set -o posix) 2>/dev/null && set -o posix
shift 3
echo not reached
--- tags nobash
--- stderr-nonempty
--- status
2

### posix mode: break in a function called in a loop is silent and does not break it
(set -o posix) 2>/dev/null && set -o posix
f() { break; }
for i in 1 2; do f; echo $i; done
--- stdout
1
2

### posix mode: a syntax error in eval ends the shell
(set -o posix) 2>/dev/null && set -o posix
eval 'if'
echo not reached
--- stderr-nonempty
--- status
2

### posix mode: a function name must be a name
(set -o posix) 2>/dev/null && set -o posix
eval 'foo-bar() { :; }'
echo not reached
--- stderr-nonempty
--- status
2

### run by the name sh the shell is in POSIX mode
ln -s "$SHELL" sh
./sh -c 'trap "echo x" TERM; trap'
--- stdout
trap -- 'echo x' TERM

### an interactive shell drops the rest of a line after an unbound variable
"$SHELL" -i -c 'set -u; echo before; echo $nope; echo dropped
echo next' 2>/dev/null
--- tags bash
--- stdout
before
next

### $- lists B for brace expansion, as bash does
case $- in *B*) echo has-B ;; esac
set +B
case $- in *B*) echo still ;; *) echo no-B ;; esac
--- tags bash
--- stdout
has-B
no-B
