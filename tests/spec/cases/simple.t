### simple command with arguments
echo one two three
--- stdout
one two three

### assignment before a command is in its environment only
X=inner sh -c 'echo $X'
echo "[${X-unset}]"
--- stdout
inner
[unset]

### several assignments before a command
A=1 B=2 sh -c 'echo $A$B'
--- stdout
12

### assignment without command persists
A=1 B=2
echo $A $B
--- stdout
1 2

### assignments are done left to right
a=1 b=$a
echo $b
--- stdout
1

### assignment value is not field split
v="a b  c"
w=$v
echo "$w"
--- stdout
a b  c

### assignment value is not globbed
touch f1 f2
v=f*
echo "$v"
--- stdout
f*

### assignment-looking word after the command name is an argument
echo a=b
--- stdout
a=b

### command not found is 127
nosuchcommand_xyz
--- stderr-nonempty
--- status
127

### command not found with a slash is 127
./nosuchfile
--- stderr-nonempty
--- status
127

### non-executable file is 126
echo 'echo hi' > script.sh
./script.sh
--- stderr-nonempty
--- status
126

### directory as command is 126
mkdir d
./d
--- stderr-nonempty
--- status
126

### script without shebang runs in a shell
printf 'echo from script\n' > s
chmod +x s
./s
--- stdout
from script

### script with shebang runs with its interpreter
printf '#!/bin/sh\necho shebang $1\n' > s
chmod +x s
./s arg
--- stdout
shebang arg

### exit status of last command
false
echo $?
true
echo $?
--- stdout
1
0

### exit status of -c string is that of the last command
true
sh -c 'exit 3'
--- status
3

### exit with a status
exit 42
--- status
42

### exit without argument uses last status
false
exit
--- status
1

### exit status is modulo 256
exit 257
--- status
1

### redirection only command creates the file
> created
ls
--- stdout
created

### assignment with command substitution sets $?
x=$(exit 5)
echo $?
--- stdout
5

### empty command from expansion is no command
e=
$e
echo $?
--- stdout
0

### PATH search finds commands in order
mkdir b1 b2
printf '#!/bin/sh\necho one\n' > b1/cmd
printf '#!/bin/sh\necho two\n' > b2/cmd
chmod +x b1/cmd b2/cmd
PATH=$PWD/b2:$PWD/b1:$PATH
cmd
--- stdout
two

### temporary PATH applies to the lookup
mkdir bin
printf '#!/bin/sh\necho found\n' > bin/tool
chmod +x bin/tool
PATH=$PWD/bin:$PATH tool
--- stdout
found

### assignment before special builtin is temporary as in bash
x=1 :
echo "[$x]"
y=2 eval 'echo "in $y"'
echo "[$y]"
--- tags nodash
--- stdout
[]
in 2
[]

### assignment before special builtin persists under set -o posix
set -o posix
x=1 :
echo $x
--- tags bash
--- stdout
1

### assignment before export or readonly persists for the name it declares
v=1 export v
w=2 readonly w
u=3 export other=4
echo "$v $w [$u] $other"
sh -c 'echo "child $v"'
--- tags nodash
--- stdout
1 2 [] 4
child 1

### local under a temporary assignment declares in the function
f() {
	tmp= local a=1
	tmp= eval 'local b=2'
	echo "$a $b"
}
f
echo "[$a$b]"
--- tags bash
--- stdout
1 2
[]

### assignment before regular builtin does not persist
x=1 true
echo "[${x-unset}]"
--- stdout
[unset]

### exported variable reaches child
export V=exported
sh -c 'echo $V'
--- stdout
exported

### unexported variable does not reach child
V=local
sh -c 'echo "[${V-unset}]"'
--- stdout
[unset]

### long argument list
set -- $(seq 1 5000)
echo $#
--- stdout
5000

### argument with newline
echo "a
b" | wc -l
--- stdout
2

### a script without #! runs in a new shell: no unexported variables or functions
printf 'echo "v=$v e=$e"\ntype f >/dev/null 2>&1 || echo no-function\n' > noshebang
chmod +x noshebang
v=1
export e=2
f() { :; }
./noshebang
--- stdout
v= e=2
no-function
