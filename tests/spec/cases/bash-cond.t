### [[ ]] string equality
[[ abc == abc ]] && echo eq
[[ abc = abd ]] || echo ne
--- tags bash
--- stdout
eq
ne

### [[ ]] pattern matching on the right side
[[ hello == h*o ]] && echo match
[[ hello == "h*o" ]] || echo quoted literal
--- tags bash
--- stdout
match
quoted literal

### [[ ]] != with pattern
[[ abc != a* ]] || echo matches
--- tags bash
--- stdout
matches

### [[ ]] no word splitting
x='a b'
[[ $x == 'a b' ]] && echo no split
--- tags bash
--- stdout
no split

### [[ ]] no globbing
touch afile
[[ a* == a* ]] && echo literal star
--- tags bash
--- stdout
literal star

### [[ ]] regex match and BASH_REMATCH
[[ abc123 =~ ([a-z]+)([0-9]+) ]] && echo "${BASH_REMATCH[0]} ${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
--- tags bash
--- stdout
abc123 abc 123

### [[ ]] regex failure
[[ abc =~ ^[0-9]+$ ]] || echo no digits
--- tags bash
--- stdout
no digits

### [[ ]] quoted regex is literal
[[ 'a.c' =~ "a.c" ]] && echo literal
[[ 'abc' =~ "a.c" ]] || echo not literal
--- tags bash
--- stdout
literal
not literal

### [[ ]] regex from a variable
re='^[a-z]+$'
[[ abc =~ $re ]] && echo var regex
--- tags bash
--- stdout
var regex

### [[ ]] && || and ! and parentheses
[[ -n a && -z "" ]] && echo and
[[ -z a || -n a ]] && echo or
[[ ! -z a ]] && echo not
[[ ( -n a || -n "" ) && -n b ]] && echo grouped
--- tags bash
--- stdout
and
or
not
grouped

### [[ ]] integer comparisons
[[ 10 -gt 9 ]] && echo gt
[[ 1+1 -eq 2 ]] && echo arith
--- tags bash
--- stdout
gt
arith

### [[ ]] string ordering
[[ a < b ]] && echo lt
[[ b > a ]] && echo gt
--- tags bash
--- stdout
lt
gt

### [[ ]] file tests
touch f
mkdir d
[[ -f f && -d d && ! -e missing ]] && echo files
--- tags bash
--- stdout
files

### [[ ]] -v
x=1
[[ -v x ]] && echo set
[[ -v nosuchvar ]] || echo unset
--- tags bash
--- stdout
set
unset

### [[ ]] empty variable without quotes
e=
[[ -z $e ]] && echo empty
[[ $e == '' ]] && echo equal empty
--- tags bash
--- stdout
empty
equal empty

### [[ ]] -o option
set -o pipefail
[[ -o pipefail ]] && echo pipefail on
--- tags bash
--- stdout
pipefail on

### [[ ]] status 1 when false
[[ a == b ]]
echo $?
--- tags bash
--- stdout
1

### [[ ]] pattern with bracket and question mark
[[ b5 == [a-c]? ]] && echo yes
--- tags bash
--- stdout
yes

### [[ ]] with a single word
[[ word ]] && echo true
[[ '' ]] || echo false
--- tags bash
--- stdout
true
false

### [[ ]] unterminated is a syntax error
[[ a == b
--- stderr-nonempty
--- tags bash
--- status
2

### [[ ]] with newlines inside
[[ a == a &&
   b == b ]] && echo multiline
--- tags bash
--- stdout
multiline

### [[ ]] regex with partial match
[[ 'foo bar' =~ o+ ]] && echo "${BASH_REMATCH[0]}"
--- tags bash
--- stdout
oo

### [[ ]] pattern from variable is a pattern
p='a*'
[[ abc == $p ]] && echo pattern
[[ abc == "$p" ]] || echo literal
--- tags bash
--- stdout
pattern
literal

### [[ -v ]] and test -v agree: an array counts by its element 0, a map by key 0
a=([1]=x)
[[ -v a ]] && echo cond-yes || echo cond-no
test -v a && echo test-yes || echo test-no
[[ -v a[1] ]] && echo elem-yes
declare b; [[ -v b ]] || echo b-no
c=; [[ -v c ]] && echo c-yes
--- tags bash
--- stdout
cond-no
test-no
elem-yes
b-no
c-yes

### [[ -f == ]] tests a file named ==, [[ -z ]] is a syntax error
[[ -f == ]]; echo $?
[[ -n == ]]; echo $?
eval '[[ -z ]]' 2>/dev/null; echo $?
--- tags bash
--- stdout
1
0
2

### a tilde at the start of the =~ pattern expands and matches as text
HOME='^a$'
[[ $HOME =~ ~ ]] && echo literal
HOME=/h
[[ /h/x =~ ~/x ]] && echo prefix
--- tags bash
--- stdout
literal
prefix
