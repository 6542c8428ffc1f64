### output redirection creates a file
echo hi > f
cat f
--- stdout
hi

### output redirection truncates
echo long line > f
echo s > f
cat f
--- stdout
s

### append redirection
echo a > f
echo b >> f
cat f
--- stdout
a
b

### input redirection
echo content > f
cat < f
--- stdout
content

### redirection before the command
> f echo first
cat f
--- stdout
first

### redirection in the middle of arguments
echo a > f b
cat f
--- stdout
a b

### stderr redirection
ls /nonexistent_dir_xyz 2> err
[ -s err ] && echo has error
--- stdout
has error

### stderr to stdout
{ echo out; echo err >&2; } > both 2>&1
sort both
--- stdout
err
out

### order of redirections matters
{ echo err >&2; } 2>&1 > /dev/null
--- stdout
err

### redirect to /dev/null
echo gone > /dev/null
echo ok
--- stdout
ok

### numbered fd redirection
exec 3> f3
echo to three >&3
exec 3>&-
cat f3
--- stdout
to three

### read from a numbered fd
echo line > f
exec 4< f
read x <&4
echo $x
exec 4<&-
--- stdout
line

### closing stdout makes echo fail
echo x >&-
echo $?
--- stdout
1

### read write redirection
echo data > f
cat <> f
--- stdout
data

### read write creates the file
: <> newfile
ls
--- stdout
newfile

### noclobber refuses to overwrite
echo a > f
set -C
echo b > f
[ $? -ne 0 ] && echo failed
cat f
--- stdout
failed
a

### noclobber allows >|
echo a > f
set -C
echo b >| f
cat f
--- stdout
b

### noclobber allows appending
echo a > f
set -C
echo b >> f
cat f
--- stdout
a
b

### noclobber allows /dev/null
set -C
echo x > /dev/null
echo $?
--- stdout
0

### redirection target is expanded
name=target
echo x > $name.txt
cat target.txt
--- stdout
x

### redirection target is not field split in posix mode
(set -o posix) 2>/dev/null && set -o posix
name="a b"
echo x > $name
cat "a b"
--- stdout
x

### redirection target split in two fields is ambiguous
name="a b"
echo x > $name
echo "status $?"
e=
echo x > $e
echo "status $?"
echo x > a-{1,2}
echo "status $?"
ls
--- tags bash
--- stderr-nonempty
--- stdout
status 1
status 1
status 1

### redirection to a missing directory fails
echo x > nodir/f
[ $? -ne 0 ] && echo failed
--- stdout
failed

### input from a missing file fails and the command does not run
cat < missing && echo ran
[ $? -ne 0 ] && echo failed
--- stdout
failed

### redirection on a compound command
if true; then echo in if; fi > f
cat f
--- stdout
in if

### redirection on a while loop reads input
printf '1\n2\n' > f
while read n; do echo n=$n; done < f
--- stdout
n=1
n=2

### exec with only redirections is permanent
exec 3>&1
exec > f
echo into file
exec 1>&3
cat f
--- stdout
into file

### exec redirection of stdin
echo from file > f
exec < f
read line
echo $line
--- stdout
from file

### duplicating an fd to another
exec 3>&1
echo via3 >&3
--- stdout
via3

### redirection of a builtin is restored
echo a > f
echo b
cat f
--- stdout
b
a

### duplicate fd for input
echo hi > f
exec 5< f
cat <&5
--- stdout
hi

### here string with redirection order
cat > out <<EOF2
doc
EOF2
cat out
--- stdout
doc

### bad fd duplication is an error
echo x >&9
[ $? -ne 0 ] && echo failed
--- stdout
failed

### redirecting a subshell
(echo sub1; echo sub2) > f
wc -l < f
--- stdout
2

### redirection applies only to its command
echo a > f; echo b
cat f
--- stdout
b
a

### fd 0 redirect from /dev/null
cat < /dev/null
echo $?
--- stdout
0

### multiple output redirections: last one wins
echo x > a > b
cat a
echo ---
cat b
--- stdout
---
x

### 2>&1 inside command substitution
x=$(ls /nonexistent_xyz 2>&1)
[ -n "$x" ] && echo captured
--- stdout
captured

### redirection with digits needs no space
echo x 1>f
cat f
--- stdout
x

### word then digit is not an fd
echo a2>f
cat a2 2>/dev/null || echo no a2
ls
--- stdout
no a2
f

### >& with a file name
echo x >& f
cat f
--- tags bash
--- stdout
x

### append fd 2 to file
echo e1 2>>f >&2
echo e2 2>>f >&2
cat f
--- stdout
e1
e2

### a job's redirected group keeps no copy of the descriptors it replaced
{ sleep 2; true; } >/dev/null 2>&1 &
sleep 0.5
out=$(readlink /proc/$$/fd/1)
ls -l /proc/$!/fd/ | grep -cF -- "$out"
kill $!
--- stdout
0

### ... nor does a job's redirected subshell or loop
(sleep 2; true) >/dev/null 2>&1 &
a=$!
for i in 1; do sleep 2; done >/dev/null 2>&1 &
b=$!
sleep 0.5
out=$(readlink /proc/$$/fd/1)
ls -l /proc/$a/fd/ /proc/$b/fd/ | grep -cF -- "$out"
kill $a $b
--- stdout
0

### a failed redirection on a special builtin does not end the shell
: > /
echo "status $?"
exec 3< missing
echo "status $?"
--- tags nodash
--- stderr-nonempty
--- stdout
status 1
status 1

### a failed redirection on a special builtin ends a posix shell
set -o posix
: > /
echo not reached
--- tags bash
--- stderr-nonempty
--- status
1

### exec -- with only redirections makes them permanent
exec -- 3>&1
echo through >&3
--- tags nodash
--- stdout
through
