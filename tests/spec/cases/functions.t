### define and call a function
f() { echo in f; }
f
--- stdout
in f

### function arguments are positional parameters
f() { echo "$# $1 $2"; }
f a b
--- stdout
2 a b

### positional parameters restored after the call
set -- outer
f() { echo $1; }
f inner
echo $1
--- stdout
inner
outer

### function return status
f() { return 3; }
f
echo $?
--- stdout
3

### return without argument uses last status
f() { false; return; }
f
echo $?
--- stdout
1

### function status is last command status
f() { true; false; }
f
echo $?
--- stdout
1

### return stops the function
f() { echo a; return 0; echo b; }
f
--- stdout
a

### recursion
fact() { if [ $1 -le 1 ]; then echo 1; else echo $(( $1 * $(fact $(($1 - 1))) )); fi; }
fact 6
--- stdout
720

### function variables are global by default
f() { g=set; }
f
echo $g
--- stdout
set

### local variable in a function
x=global
f() { local x=local; echo $x; }
f
echo $x
--- stdout
local
global

### local is visible to called functions (dynamic scope)
f() { local v=fromf; g; }
g() { echo $v; }
f
--- stdout
fromf

### function redefinition
f() { echo one; }
f() { echo two; }
f
--- stdout
two

### function with a subshell body
f() ( x=inner; echo $x )
x=outer
f
echo $x
--- stdout
inner
outer

### function with redirection on the definition
f() { echo redirected; } > out
f
cat out
--- stdout
redirected

### $0 is unchanged in a function
f() { echo "${0##*/}"; }
f
--- mode file
--- stdout
script

### unset -f removes a function
f() { echo f; }
unset -f f
f 2>/dev/null || echo gone
--- stdout
gone

### function named like a command overrides it
ls() { echo my ls; }
ls
--- stdout
my ls

### command bypasses a function
echo() { printf 'func\n'; }
command echo real
--- stdout
real

### function keyword syntax
function f { echo kw; }
f
--- tags bash
--- stdout
kw

### function keyword with parens
function f() { echo kwp; }
f
--- tags bash
--- stdout
kwp

### function defined in a function
outer() { inner() { echo inner; }; }
outer
inner
--- stdout
inner

### $# in a function without arguments
set -- a b c
f() { echo $#; }
f
--- stdout
0

### "$@" passes arguments through
f() { g "$@"; }
g() { for a; do echo "[$a]"; done; }
f 'a b' c
--- stdout
[a b]
[c]

### deep recursion to 200 levels
f() { if [ $1 -gt 0 ]; then f $(($1 - 1)); else echo bottom; fi; }
f 200
--- stdout
bottom

### return in a loop in a function
f() { for i in 1 2 3; do if [ $i = 2 ]; then return $i; fi; done; }
f
echo $?
--- stdout
2

### function body can be any compound command
f() if true; then echo ifbody; fi
f
--- stdout
ifbody

### function with for loop body
f() for i in 1 2; do echo $i; done
f
--- stdout
1
2

### local without value
f() { local x; x=5; echo $x; }
x=1
f
echo $x
--- stdout
5
1

### local in a nested function call restores the value
f() { local x=f; g; echo $x; }
g() { local x=g; echo $x; }
x=top
f
echo $x
--- stdout
g
f
top

### exit inside a function exits the shell
f() { exit 4; }
f
echo not reached
--- status
4

### function in a pipeline
f() { echo piped; }
f | tr a-z A-Z
--- stdout
PIPED

### temporary assignment before a function call
f() { echo $v; }
v=temp f
--- stdout
temp

### BASH_SOURCE, FUNCNAME and BASH_LINENO follow functions and sourced files
mkdir sub
printf '%s\n' 'echo "src=${BASH_SOURCE[0]} n=${#BASH_SOURCE[@]} dir=$(dirname "${BASH_SOURCE[0]}")"' \
	'g() { echo "g: ${BASH_SOURCE[*]} | ${FUNCNAME[*]} | ${BASH_LINENO[*]}"; }' 'g' >sub/env.sh
printf '%s\n' 'source sub/env.sh' 'echo "top: ${BASH_SOURCE[*]} [${FUNCNAME-unset}]"' 'h() { g; }' 'h' >main.sh
"$SHELL" main.sh
"$SHELL" -c 'source sub/env.sh; echo "c: [${BASH_SOURCE[*]}] [${FUNCNAME-unset}]"'
--- tags bash
--- stdout
src=sub/env.sh n=2 dir=sub
g: sub/env.sh sub/env.sh main.sh | g source main | 3 1 0
top: main.sh [unset]
g: sub/env.sh main.sh main.sh | g h main | 3 4 0
src=sub/env.sh n=1 dir=sub
g: sub/env.sh sub/env.sh | g source | 3 1
c: [] [unset]
