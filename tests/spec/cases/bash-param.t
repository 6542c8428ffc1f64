### replace first match
x=hello
echo ${x/l/L}
--- tags bash
--- stdout
heLlo

### replace all matches
x=hello
echo ${x//l/L}
--- tags bash
--- stdout
heLLo

### replace with a pattern
x=abc123def
echo ${x//[0-9]/#}
--- tags bash
--- stdout
abc###def

### replace anchored at start
x=aaa
echo ${x/#a/b} ${x/#x/y}
--- tags bash
--- stdout
baa aaa

### replace anchored at end
x=aaa
echo ${x/%a/b}
--- tags bash
--- stdout
aab

### delete matches with empty replacement
x=a-b-c
echo ${x//-}
echo ${x//-/}
--- tags bash
--- stdout
abc
abc

### insert at start and end with empty pattern
x=mid
echo ${x/#/pre-} ${x/%/-post}
--- tags bash
--- stdout
pre-mid mid-post

### replacement with a star pattern is greedy
x=aXbXc
echo ${x/X*/Y}
--- tags bash
--- stdout
aY

### replacement of a quoted pattern is literal
x='a*b'
echo ${x/'*'/-}
--- tags bash
--- stdout
a-b

### replacement from variables
x=foo; p=o; r=0
echo ${x//$p/$r}
--- tags bash
--- stdout
f00

### substring with offset
x=abcdef
echo ${x:2}
--- tags bash
--- stdout
cdef

### substring with offset and length
x=abcdef
echo ${x:1:3}
--- tags bash
--- stdout
bcd

### substring with negative offset
x=abcdef
echo ${x: -2} ${x:(-3):2}
--- tags bash
--- stdout
ef de

### substring with negative length
x=abcdef
echo ${x:1:-2}
--- tags bash
--- stdout
bcd

### substring beyond the end
x=abc
echo "[${x:5}]" "[${x:1:10}]"
--- tags bash
--- stdout
[] [bc]

### substring with arithmetic
x=abcdef; n=2
echo ${x:n:n+1}
--- tags bash
--- stdout
cde

### substring of positional parameters
set -- a b c d
echo ${@:2} / ${@:2:2}
--- tags bash
--- stdout
b c d / b c

### uppercase all and first
x=hello
echo ${x^^} ${x^}
--- tags bash
--- stdout
HELLO Hello

### lowercase all and first
x=HELLO
echo ${x,,} ${x,}
--- tags bash
--- stdout
hello hELLO

### indirect expansion
name=target
target=value
echo ${!name}
--- tags bash
--- stdout
value

### replacement on each positional parameter
set -- a1 b1
echo "${@/1/2}"
--- tags bash
--- stdout
a2 b2

### case conversion on arrays
a=(ab cd)
echo ${a[@]^^}
--- tags bash
--- stdout
AB CD

### replace with a slash in the replacement
x=a-b
echo ${x/-/\/}
--- tags bash
--- stdout
a/b

### substring of an empty variable
e=
echo "[${e:0:2}]"
--- tags bash
--- stdout
[]

### length of a unicode-free string with special chars
x='a b*c'
echo ${#x}
--- tags bash
--- stdout
5

### transformations: quote, escapes, case
x="a b'c"
y=$'a\tb'
e='1\t2'
z=
echo "${x@Q}" "${y@Q}" "[${z@Q}]" "[${unset_var@Q}]"
echo "${e@E}" ${x@U} ${x@u} ${x@L}
--- tags bash
--- stdout
'a b'\''c' $'a\tb' [''] []
1	2 A B'C A b'c a b'c

### transformations on lists, and @Q read back by eval
a=(1 "2 3" "it's")
set -- "p q" r
echo "${a[@]@Q}" / "${@@U}"
eval "set -- ${a[@]@Q}"
echo $# "$3"
--- tags bash
--- stdout
'1' '2 3' 'it'\''s' / P Q R
3 it's

### an unknown transformation is a bad substitution
"$SHELL" -c 'x=1; echo "${x@Z}"; echo not reached'
[ $? -ne 0 ] && echo failed
--- tags bash
--- stderr-nonempty
--- stdout
failed

### ${#s} counts bytes in the C locale and characters in UTF-8
s=$'\xce\xbc'
LC_ALL=C
echo ${#s}
LC_ALL=C.UTF-8
echo ${#s}
t=$'\xe2\x82'
echo ${#t}
--- tags bash
--- stdout
2
1
2
