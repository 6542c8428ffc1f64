### &> redirects stdout and stderr
{ echo out; echo err >&2; } &> both
sort both
--- tags bash
--- stdout
err
out

### &>> appends both
echo first > log
{ echo out; echo err >&2; } &>> log
sort log
--- tags bash
--- stdout
err
first
out

### |& pipes stderr too
{ echo out; echo err >&2; } |& sort
--- tags bash
--- stdout
err
out

### here string
cat <<< 'here string'
--- tags bash
--- stdout
here string

### here string with expansion
x=world
cat <<< "hello $x"
--- tags bash
--- stdout
hello world

### here string adds a newline
wc -c <<< abc
--- tags bash
--- stdout
4

### here string to read
read a b <<< "1 2"
echo $((a + b))
--- tags bash
--- stdout
3

### process substitution for input
cat <(echo from procsub)
--- tags bash
--- stdout
from procsub

### process substitution with diff
diff <(printf 'a\nb\n') <(printf 'a\nc\n') > /dev/null
echo $?
--- tags bash
--- stdout
1

### process substitution path is a file name
echo <(true) | grep -c '^/dev/fd/'
--- tags bash
--- stdout
1

### output process substitution
echo hidden > >(tr a-z A-Z)
wait
sleep 0.2
--- tags bash
--- stdout
HIDDEN

### process substitution in a while loop input
while read l; do echo "[$l]"; done < <(printf 'x\ny\n')
--- tags bash
--- stdout
[x]
[y]

### here string with an fd number
cat 0<<< 'fd zero'
--- tags bash
--- stdout
fd zero

### &> to /dev/null silences everything
ls /nonexistent_xyz &> /dev/null
echo $?
--- tags bash
--- stdout
2

### pipe with |& and a function
f() { echo to err >&2; }
f |& cat
--- tags bash
--- stdout
to err

### {name}> picks a descriptor of 10 or more and stores it
exec {out}> f
[ "$out" -ge 10 ] && echo picked
echo text >&$out
exec {out}>&-
cat f
echo more >&$out
echo "status $?"
--- tags bash
--- stderr-nonempty
--- stdout
picked
text
status 1

### {name} is a redirection only right before the operator
echo {v}>/dev/null x={w}
echo "${v:+set} [$w]"
echo x={v} {v} >/dev/null
echo {v} x
--- tags bash
--- stdout
x={w}
set []
{v} x
