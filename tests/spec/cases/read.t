### read a line into a variable
echo hello | { read x; echo "$x"; }
--- stdout
hello

### read splits into several variables
echo 'a b c d' | { read x y; echo "$x|$y"; }
--- stdout
a|b c d

### read with more variables than fields
echo 'a' | { read x y; echo "$x|$y|"; }
--- stdout
a||

### read strips leading and trailing whitespace
echo '   spaced   ' | { read x; echo "[$x]"; }
--- stdout
[spaced]

### read with empty IFS keeps whitespace
echo '  keep  ' | { IFS= read -r x; echo "[$x]"; }
--- stdout
[  keep  ]

### read without -r handles backslashes
printf 'a\\tb\\\\c\n' | { read x; printf '%s\n' "$x"; }
--- stdout
atb\c

### read -r keeps backslashes
printf 'a\\tb\n' | { read -r x; printf '%s\n' "$x"; }
--- stdout
a\tb

### read backslash newline continuation
printf 'one \\\ntwo\n' | { read x; echo "$x"; }
--- stdout
one two

### read with -r does not continue lines
printf 'one \\\ntwo\n' | { read -r x; echo "$x"; }
--- stdout
one \

### read returns 1 at end of file
read x < /dev/null
echo $?
--- stdout
1

### read last line without newline returns 1 but sets the variable
printf 'partial' | { read x; echo "$? $x"; }
--- stdout
1 partial

### read into REPLY by default
echo reply | { read; echo "$REPLY"; }
--- tags bash
--- stdout
reply

### read with a custom IFS
echo 'a:b:c' | { IFS=: read x y z; echo "$z$y$x"; }
--- stdout
cba

### read loop over lines
printf '1\n2\n3\n' | while read n; do echo "line $n"; done
--- stdout
line 1
line 2
line 3

### read does not consume more than one line from a file
printf 'first\nsecond\n' > f
{ read a; read b; } < f
echo "$a $b"
--- stdout
first second

### read from a here string
read x y <<< 'hi there'
echo "$y $x"
--- tags bash
--- stdout
there hi

### read -a into an array
read -a arr <<< 'x y z'
echo ${arr[1]} ${#arr[@]}
--- tags bash
--- stdout
y 3

### read -d with a delimiter
read -d , x <<< 'a,b'
echo $x
--- tags bash
--- stdout
a

### read -n reads a number of characters
read -n 3 x <<< 'abcdef'
echo $x
--- tags bash
--- stdout
abc

### read -p prompt goes to stderr
read -p 'prompt> ' x <<< 'val' 2>/dev/null
echo $x
--- tags bash
--- stdout
val

### read with trailing IFS whitespace in last variable
echo 'a b  c  ' | { read x y; echo "[$y]"; }
--- stdout
[b  c]

### read last variable keeps inner separators
echo 'a:b:c:d' | { IFS=: read x y; echo "$y"; }
--- stdout
b:c:d

### read in a script sees the following lines of stdin
read line
this line is data
echo "read: $line"
--- mode stdin
--- tags bash
--- stdout
read: this line is data

### read -t with available input
read -t 1 x <<< 'quick'
echo $x
--- tags bash
--- stdout
quick

### read -u from an fd
echo viafd > f
exec 3< f
read -u 3 x
echo $x
--- tags bash
--- stdout
viafd

### read with no newline and -r
printf 'a b' | { read -r x y; echo "$x-$y"; }
--- stdout
a-b

### read -s silent still reads
read -s x <<< 'secret'
echo $x
--- tags bash
--- stdout
secret

### mapfile reads lines into an array
printf 'a\nb\nc\n' > f
mapfile -t lines < f
echo ${#lines[@]} ${lines[2]}
--- tags bash
--- stdout
3 c

### readarray is mapfile
printf 'x\ny\n' | { readarray -t a; echo "${a[*]}"; }
--- tags bash
--- stdout
x y

### mapfile without -t keeps newlines
printf 'a\nb\n' > f
mapfile arr < f
printf '[%s]' "${arr[@]}"
echo
--- tags bash
--- stdout
[a
][b
]

### mapfile default array name
printf 'm\n' > f
mapfile -t < f
echo ${MAPFILE[0]}
--- tags bash
--- stdout
m

### mapfile -n limits lines
seq 10 > f
mapfile -t -n 3 arr < f
echo ${arr[@]}
--- tags bash
--- stdout
1 2 3

### read -N puts the characters read, unsplit, in the first name
printf 'a b c\n' > f
read -N 4 x y < f
echo "[$x] [$y]"
--- tags bash
--- stdout
[a b ] []

### read -d removes a backslash-newline too
printf 'a b\\\nc d,' | { read -d , x; echo "[$x]"; }
--- tags bash
--- stdout
[a bc d]
