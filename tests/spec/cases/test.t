### test string equality
test abc = abc && echo yes
test abc = abd || echo no
--- stdout
yes
no

### test string inequality
[ a != b ] && echo yes
--- stdout
yes

### test -n and -z
[ -n "x" ] && echo n
[ -z "" ] && echo z
[ -n "" ] || echo not n
--- stdout
n
z
not n

### test with one argument is true when non-empty
[ x ] && echo nonempty
[ "" ] || echo empty
--- stdout
nonempty
empty

### test with no arguments is false
[ ] || echo false
test || echo false
--- stdout
false
false

### integer comparisons
[ 1 -eq 1 ] && echo eq
[ 1 -ne 2 ] && echo ne
[ 3 -gt 2 ] && echo gt
[ 2 -ge 2 ] && echo ge
[ 1 -lt 2 ] && echo lt
[ 2 -le 2 ] && echo le
--- stdout
eq
ne
gt
ge
lt
le

### negative integers
[ -5 -lt -3 ] && echo yes
--- stdout
yes

### integers with surrounding blanks
[ ' 12 ' -eq 12 ] && echo yes
--- tags bash
--- stdout
yes

### non-integer is an error with status 2
[ abc -eq 1 ]
echo $?
--- stderr-nonempty
--- stdout
2

### missing closing bracket is an error
[ a = a
echo $?
--- stderr-nonempty
--- stdout
2

### negation
[ ! a = b ] && echo yes
[ ! -n "" ] && echo yes2
--- stdout
yes
yes2

### -a and -o
[ a -a b ] && echo and
[ "" -o b ] && echo or
[ "" -a b ] || echo not and
--- stdout
and
or
not and

### -a binds tighter than -o
[ a -o "" -a "" ] && echo true
--- stdout
true

### parentheses grouping
[ \( a -o "" \) -a \( b \) ] && echo grouped
--- stdout
grouped

### file tests
mkdir d
echo data > f
: > empty
[ -e f ] && echo e
[ -f f ] && echo f
[ -d d ] && echo d
[ -s f ] && echo s
[ -s empty ] || echo not s
[ -f d ] || echo d not f
[ -e missing ] || echo missing
--- stdout
e
f
d
s
not s
d not f
missing

### permission tests
echo x > f
chmod 644 f
[ -r f ] && echo r
[ -w f ] && echo w
[ -x f ] || echo not x
chmod +x f
[ -x f ] && echo x
--- stdout
r
w
not x
x

### symlink tests
touch target
ln -s target link
ln -s nowhere dangling
[ -L link ] && echo L
[ -h link ] && echo h
[ -L target ] || echo not L
[ -e dangling ] || echo dangling
[ -L dangling ] && echo dangling link
--- stdout
L
h
not L
dangling
dangling link

### special file tests
[ -c /dev/null ] && echo c
[ -b /dev/null ] || echo not b
mkfifo p
[ -p p ] && echo p
--- stdout
c
not b
p

### setuid setgid sticky
touch f
chmod u+s f
[ -u f ] && echo u
chmod g+s f
[ -g f ] && echo g
mkdir t
chmod +t t
[ -k t ] && echo k
--- stdout
u
g
k

### -t on a non-terminal
[ -t 0 ] || echo not a tty
--- stdout
not a tty

### owner tests
touch f
[ -O f ] && echo O
[ -G f ] && echo G
--- tags bash
--- stdout
O
G

### -nt and -ot
touch -d '2020-01-01' old
touch -d '2021-01-01' new
[ new -nt old ] && echo nt
[ old -ot new ] && echo ot
[ old -nt new ] || echo not nt
--- stdout
nt
ot
not nt

### -ef same file
touch f
ln f hard
ln -s f soft
[ f -ef hard ] && echo hard
[ f -ef soft ] && echo soft
touch g
[ f -ef g ] || echo different
--- stdout
hard
soft
different

### string ordering with < and >
[ a \< b ] && echo lt
[ b \> a ] && echo gt
[ b \< a ] || echo not lt
--- stdout
lt
gt
not lt

### == is accepted by [
[ a == a ] && echo eq
--- tags bash
--- stdout
eq

### -v tests if a variable is set
x=1
[ -v x ] && echo set
[ -v nosuchvar ] || echo unset
--- tags bash
--- stdout
set
unset

### -o tests an option
set -f
[ -o noglob ] && echo on
--- tags bash
--- stdout
on

### string that looks like an operator
x='-n'
[ "$x" = -n ] && echo operand
[ "$x" ] && echo nonempty
--- stdout
operand
nonempty

### two argument form with !
[ ! "" ] && echo yes
--- stdout
yes

### three argument form with parentheses
[ \( x \) ] && echo yes
--- stdout
yes

### four argument form with !
[ ! a = b ] && echo yes
[ ! a = a ] || echo no
--- stdout
yes
no

### unary operator expected error
[ a b ]
echo $?
--- stderr-nonempty
--- stdout
2

### test -d with empty string
[ -d "" ] || echo no
--- stdout
no

### -z with no operand is a one argument test
[ -z ] && echo true
--- stdout
true

### test as a command in a condition
if test -d /; then echo root is dir; fi
--- stdout
root is dir

### test with a large number error
[ 99999999999999999999 -gt 1 ]
echo $?
--- stderr-nonempty
--- tags bash
--- stdout
2

### equal sign alone
[ = ] && echo one arg
--- stdout
one arg

### five argument expression
[ a = a -a b = b ] && echo five
--- stdout
five

### nested parentheses
[ \( \( a \) \) ] && echo nested
--- stdout
nested

### -nt with a missing file
touch f
[ f -nt missing ] && echo newer
[ missing -ot f ] && echo older
--- tags bash
--- stdout
newer
older
