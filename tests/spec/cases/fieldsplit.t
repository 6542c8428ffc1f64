### default IFS splits on blanks and newlines
x='a  b
c	d'
set -- $x
echo $#
--- stdout
4

### leading and trailing whitespace is dropped
x='   a b   '
set -- $x
echo "$#:$1:$2"
--- stdout
2:a:b

### non-whitespace IFS characters delimit empty fields
IFS=:
x='a::b'
set -- $x
echo $#
for f; do echo "[$f]"; done
--- stdout
3
[a]
[]
[b]

### trailing non-whitespace delimiter does not make an empty field
IFS=:
x='a:b:'
set -- $x
echo $#
--- stdout
2

### leading non-whitespace delimiter makes an empty field
IFS=:
x=':a'
set -- $x
echo $#
echo "[$1]"
--- stdout
2
[]

### whitespace around non-whitespace delimiter is absorbed
IFS=' :'
x='a : b'
set -- $x
echo $#
echo "[$1][$2]"
--- stdout
2
[a][b]

### empty IFS disables splitting
IFS=
x='a b c'
set -- $x
echo $#
--- stdout
1

### unset IFS behaves like default
unset IFS
x='a b'
set -- $x
echo $#
--- stdout
2

### quoted expansion is not split
x='a b'
set -- "$x"
echo $#
--- stdout
1

### literal text is not split by IFS
IFS=a
echo banana
--- stdout
banana

### splitting applies to command substitution
IFS=,
set -- $(echo 'x,y,z')
echo $2
--- stdout
y

### splitting applies to arithmetic results
IFS=1
set -- $((515))
echo $#
echo "$1|$2"
--- stdout
2
5|5

### empty expansion produces no field
e=
set -- $e
echo $#
--- stdout
0

### expansion of only IFS whitespace produces no field
x='   '
set -- $x
echo $#
--- stdout
0

### IFS with a newline only
IFS='
'
x='a b
c d'
set -- $x
echo $#
echo "$1"
--- stdout
2
a b

### adjacent quoted and unquoted parts
x='1 2'
set -- a$x"b c"
echo $#
echo "$1|$2"
--- stdout
2
a1|2b c

### IFS is used by read
IFS=: read a b <<END
one:two:three
END
echo "$a|$b"
--- stdout
one|two:three

### changing IFS in a function
f() { local IFS=,; set -- $1; echo $#; }
f 'a,b,c'
x='a,b'
set -- $x
echo $#
--- stdout
3
1

### multiple non-whitespace delimiters
IFS=':;'
x='a;b:c'
set -- $x
echo $# $3
--- stdout
3 c

### splitting of $@ elements
set -- 'a b' 'c'
set -- $@
echo $#
--- stdout
3

### IFS as assignment before a command does not affect expansion of that command
x='a:b'
IFS=: set -- $x
echo $#
--- tags nobash
--- stdout
1

### empty field in the middle with whitespace IFS
IFS=' '
x='a  b'
set -- $x
echo $#
--- stdout
2

### unquoted $@ with a non-blank IFS drops empty parameters
set -- one "" two
IFS=x
for i in $@; do printf '[%s]' "$i"; done; echo
IFS=' '
for i in $@; do printf '[%s]' "$i"; done; echo
--- tags nobash
--- stdout
[one][two]
[one][two]

### a multibyte IFS character separates as a whole
LC_ALL=C.UTF-8
x=aébçc
IFS=ç
printf '[%s]' $x; echo
--- tags bash
--- stdout
[aéb][c]
