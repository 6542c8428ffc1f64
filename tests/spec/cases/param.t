### simple parameter and braces
x=val
echo $x ${x} ${x}suffix
--- stdout
val val valsuffix

### unset variable expands to nothing
echo "[$nosuch]"
--- stdout
[]

### default value with colon for unset and empty
unset u; e=
echo ${u:-def} ${e:-def}
--- stdout
def def

### default value without colon only for unset
unset u; e=
echo "[${u-def}]" "[${e-def}]"
--- stdout
[def] []

### default does not assign
unset u
echo ${u:-def}
echo "[${u}]"
--- stdout
def
[]

### assign default with colon
unset u
echo ${u:=assigned}
echo $u
--- stdout
assigned
assigned

### assign default without colon keeps empty
e=
echo "[${e=new}]"
--- stdout
[]

### alternative value
x=set; e=; unset u
echo "[${x:+alt}]" "[${e:+alt}]" "[${u:+alt}]" "[${e+alt}]"
--- stdout
[alt] [] [] [alt]

### error if unset prints message and exits
"$SHELL" -c 'unset u; echo ${u?is missing}; echo not reached'
[ $? -ne 0 ] && echo failed
--- stderr-nonempty
--- stdout
failed

### error if null with colon
e=
(echo ${e:?empty}) 2>/dev/null
[ $? -ne 0 ] && echo failed
--- stdout
failed

### error without colon allows empty
e=
echo "[${e?unset}]"
--- stdout
[]

### string length
x=hello
echo ${#x}
--- stdout
5

### length of empty and unset
e=; unset u
echo ${#e} ${#u}
--- stdout
0 0

### remove shortest suffix
f=file.tar.gz
echo ${f%.*}
--- stdout
file.tar

### remove longest suffix
f=file.tar.gz
echo ${f%%.*}
--- stdout
file

### remove shortest prefix
p=/usr/local/bin
echo ${p#*/}
--- stdout
usr/local/bin

### remove longest prefix
p=/usr/local/bin
echo ${p##*/}
--- stdout
bin

### prefix removal with no match leaves value
x=abc
echo ${x#z} ${x%z}
--- stdout
abc abc

### quoted pattern in removal is literal
x='a*b*c'
echo ${x#"a*"} ${x#a*}
--- stdout
b*c *b*c

### pattern from variable in removal
x=foobar; p=foo
echo ${x#$p}
--- stdout
bar

### bracket pattern in removal
x=abc123
echo ${x%%[0-9]*}
--- stdout
abc

### default value word is expanded
unset u; d=dflt
echo ${u:-$d-x}
--- stdout
dflt-x

### default value word with spaces is field split when unquoted
unset u
set -- ${u:-a b c}
echo $#
--- stdout
3

### default value quoted inside
unset u
set -- ${u:-"a b"}
echo $#
--- stdout
1

### nested default
unset a b
echo ${a:-${b:-inner}}
--- stdout
inner

### assign default to positional parameter fails
"$SHELL" -c '${1=x}; echo same line'
[ $? -ne 0 ] && echo failed
--- stderr-nonempty
--- stdout
failed

### parameter followed by brackets text
x=1
echo $x[0] ${x}[0]
--- tags nobash
--- stdout
1[0] 1[0]

### braces needed for names followed by letters
var=v
echo $varx "${var}x"
--- stdout
vx

### positional above nine needs braces
set -- 1 2 3 4 5 6 7 8 9 ten
echo ${10} $10
--- stdout
ten 10

### special characters in removal patterns
x='a.b.c'
echo ${x%.*} ${x##*.}
--- stdout
a.b c

### length of positional parameter
set -- hello
echo ${#1}
--- stdout
5

### number of positional parameters via ${#}
set -- a b c
echo ${#}
--- stdout
3

### nounset in expansion with default is fine
set -u
echo ${nosuch:-ok}
--- stdout
ok

### unset variable with set -u is an error
"$SHELL" -c 'set -u; echo $nosuch; echo not reached'
[ $? -ne 0 ] && echo failed
--- stderr-nonempty
--- stdout
failed

### removing prefix from each positional with $@
set -- a.x b.x
echo "${@%.x}"
--- tags bash
--- stdout
a b

### question mark error message in subshell does not kill the parent
unset u
( : ${u?gone} ) 2>/dev/null
echo parent alive
--- stdout
parent alive

### alternative is expanded only when set
x=1
echo ${x:+$(echo expanded)}
--- stdout
expanded

### double quotes inside braces
x=
echo "${x:-"a b"}"
--- stdout
a b

### single quotes inside braces in double quotes are literal
unset x
echo "${x:-'a'}"
--- stdout
'a'

### dollar-brace with special parameters
set -- a b
echo ${#} ${@} ${*} ${1}
--- stdout
2 a b a b a

### ${#} versus ${#*}
set -- a bb ccc
echo ${#*} ${#@}
--- tags bash
--- stdout
3 3

### long pattern removal with star in middle
x=aXbXc
echo ${x#*X} ${x##*X} ${x%X*} ${x%%X*}
--- stdout
bXc c aXb a
