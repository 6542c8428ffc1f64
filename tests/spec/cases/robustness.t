### unterminated dollar paren is a syntax error
echo $(echo
--- stderr-nonempty
--- status
2

### unterminated parameter expansion is a syntax error
echo ${x
--- stderr-nonempty
--- status
2

### unterminated arithmetic is a syntax error
echo $((1 + 2
--- stderr-nonempty
--- status
2

### unterminated subshell is a syntax error
(echo a
--- stderr-nonempty
--- status
2

### unterminated brace group is a syntax error
{ echo a
--- stderr-nonempty
--- status
2

### stray closing brace is a syntax error
echo a; }
--- stderr-nonempty
--- status
2

### double semicolon outside case is a syntax error
echo a;;
--- stderr-nonempty
--- status
2

### pipe without a command is a syntax error
| cat
--- stderr-nonempty
--- status
2

### dangling pipe at end is a syntax error
echo a |
--- stderr-nonempty
--- status
2

### and without a right side is a syntax error
true &&
--- stderr-nonempty
--- status
2

### redirection without a target is a syntax error
echo a >
--- stderr-nonempty
--- status
2

### then without if is a syntax error
then echo x
--- stderr-nonempty
--- status
2

### bad substitution is an error
"$SHELL" -c 'echo ${x!y}; echo same line'
[ $? -ne 0 ] && echo failed
--- stderr-nonempty
--- stdout
failed

### syntax error in a script file is status 2
printf 'echo a\nif then\n' > bad.sh
"$SHELL" bad.sh > /dev/null
echo $?
--- stderr-nonempty
--- stdout
2

### deeply nested unbalanced parentheses give a clean error
printf '( %.0s' $(seq 10000) > deep.sh
"$SHELL" deep.sh 2>/dev/null
s=$?
[ $s -ne 0 ] && [ $s -lt 128 ] && echo clean error
--- stdout
clean error

### deeply nested balanced parentheses run or fail cleanly
{ printf '( %.0s' $(seq 10000); echo 'echo x'; printf ') %.0s' $(seq 10000); echo; } > deep.sh
"$SHELL" deep.sh > out 2>/dev/null
s=$?
if [ $s -eq 0 ]; then cat out; elif [ $s -lt 128 ]; then echo x; fi
--- stdout
x

### deeply nested brace groups run or fail cleanly
{ printf '{ %.0s' $(seq 10000); echo 'echo x;'; printf '} %.0s' $(seq 10000); echo; } > deep.sh
"$SHELL" deep.sh > out 2>/dev/null
s=$?
if [ $s -eq 0 ]; then cat out; elif [ $s -lt 128 ]; then echo x; fi
--- stdout
x

### deeply nested command substitutions run or fail cleanly
{ printf 'echo %.0s' 1; printf '$(echo %.0s' $(seq 200); printf x; printf ')%.0s' $(seq 200); echo; } > deep.sh
"$SHELL" deep.sh > out 2>/dev/null
s=$?
if [ $s -eq 0 ]; then cat out; elif [ $s -lt 128 ]; then echo x; fi
--- stdout
x

### deeply nested arithmetic parentheses run or fail cleanly
{ printf 'echo $(('; printf '(%.0s' $(seq 5000); printf 1; printf ')%.0s' $(seq 5000); echo '))'; } > deep.sh
"$SHELL" deep.sh > out 2>/dev/null
s=$?
if [ $s -eq 0 ]; then cat out; elif [ $s -lt 128 ]; then echo 1; fi
--- stdout
1

### NUL bytes in a script do not crash the shell
printf 'echo a\necho b\0c\necho d\n' > nul.sh
"$SHELL" nul.sh > out 2>/dev/null
s=$?
if [ $s -eq 0 ]; then cat out; elif [ $s -lt 128 ]; then printf 'a\nbc\nd\n'; fi
--- stdout
a
bc
d

### invalid UTF-8 passes through
printf 'echo \377\376x | od -An -tx1\n' > u.sh
"$SHELL" u.sh | tr -s ' '
--- stdout
 ff fe 78 0a

### invalid UTF-8 in a variable and its length in bytes
x=$(printf '\377\376')
printf '%s' "$x" | wc -c
--- stdout
2

### a 1 MB line
head -c 1000000 /dev/zero | tr '\0' a > big
{ printf 'x='; cat big; printf '\necho ${#x}\n'; } > s.sh
"$SHELL" s.sh
--- stdout
1000000

### a 1 MB argument to a builtin and an external command
x=$(head -c 1000000 /dev/zero | tr '\0' b)
echo "$x" | wc -c
printf '%s\n' "$x" | wc -c
--- stdout
1000001
1000001

### a script with 20000 lines
i=0
{ while [ $i -lt 20000 ]; do echo "v$i=$i"; i=$((i+1)); done; echo 'echo $v19999'; } > many.sh
"$SHELL" many.sh
--- stdout
19999

### many functions defined
i=0
{ while [ $i -lt 2000 ]; do echo "f$i() { echo $i; }"; i=$((i+1)); done; echo 'f1999'; } > funcs.sh
"$SHELL" funcs.sh
--- stdout
1999

### a 100 stage pipeline
cmd='echo pipe'
i=0
while [ $i -lt 100 ]; do cmd="$cmd | cat"; i=$((i+1)); done
eval "$cmd"
--- stdout
pipe

### recursion to a moderate depth works
f() { if [ $1 -gt 0 ]; then f $(($1 - 1)); else echo bottom; fi; }
f 500
--- stdout
bottom

### carriage return is an ordinary character
printf 'echo a\r\n' > cr.sh
"$SHELL" cr.sh | od -An -c | tr -s ' '
--- stdout
 a \r \n

### script without a trailing newline
printf 'echo no newline' > nn.sh
"$SHELL" nn.sh
--- stdout
no newline

### empty script
: > empty.sh
"$SHELL" empty.sh
echo $?
--- stdout
0

### only comments
"$SHELL" -c '# just a comment'
echo $?
--- stdout
0

### a missing script file is 127
"$SHELL" ./nosuchscript.sh
echo $?
--- stderr-nonempty
--- tags nodash
--- stdout
127

### a directory as script fails
mkdir d
"$SHELL" d
[ $? -ne 0 ] && echo failed
--- stderr-nonempty
--- tags nodash
--- stdout
failed

### many here-documents
i=0
{ while [ $i -lt 300 ]; do printf 'cat <<E%d\nbody %d\nE%d\n' $i $i $i; i=$((i+1)); done; } > hd.sh
"$SHELL" hd.sh | tail -n 1
--- stdout
body 299

### large variable value in a loop
x=
i=0
while [ $i -lt 1000 ]; do x="$x.........."; i=$((i+1)); done
echo ${#x}
--- stdout
10000

### control characters in arguments
x=$(printf 'a\001b\002c')
printf '%s' "$x" | od -An -tx1 | tr -s ' '
--- stdout
 61 01 62 02 63

### a syntax error later in a script file ends it after the lines before ran
echo before
if then
echo never
--- mode file
--- stdout
before
--- stderr-nonempty
--- status
2

### a syntax error in a sourced file ends that file with status 2
printf '%s\n' 'echo in-lib' 'fi' 'echo not-reached' > lib.sh
. ./lib.sh
echo "back $?"
--- tags nodash
--- stdout
in-lib
back 2
--- stderr-nonempty
