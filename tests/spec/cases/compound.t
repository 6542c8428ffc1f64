### if then
if true; then echo yes; fi
--- stdout
yes

### if else
if false; then echo yes; else echo no; fi
--- stdout
no

### if elif else
x=2
if [ $x = 1 ]; then echo one; elif [ $x = 2 ]; then echo two; else echo other; fi
--- stdout
two

### if without a true branch returns 0
if false; then echo no; fi
echo $?
--- stdout
0

### if status is the status of the branch run
if true; then (exit 3); fi
echo $?
--- stdout
3

### if condition is a list
if false; true; then echo ran; fi
--- stdout
ran

### while loop counts
i=0
while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done
--- stdout
0
1
2

### until loop
i=0
until [ $i -ge 3 ]; do echo $i; i=$((i+1)); done
--- stdout
0
1
2

### while false never runs and status is 0
while false; do echo no; done
echo $?
--- stdout
0

### for loop over words
for w in a b c; do echo $w; done
--- stdout
a
b
c

### for loop over an expansion is field split
list="x y z"
for w in $list; do echo $w; done
--- stdout
x
y
z

### for loop without in uses positional parameters
set -- p q
for a; do echo $a; done
--- stdout
p
q

### for loop over empty list does nothing
for a in; do echo no; done
echo end
--- stdout
end

### for loop variable keeps last value
for v in 1 2 3; do :; done
echo $v
--- stdout
3

### for loop over glob
touch f1 f2 f3
for f in f*; do echo $f; done
--- stdout
f1
f2
f3

### for with newline before do
for i in a b
do
  echo $i
done
--- stdout
a
b

### break leaves the loop
for i in 1 2 3 4; do
  if [ $i = 3 ]; then break; fi
  echo $i
done
--- stdout
1
2

### continue skips to next iteration
for i in 1 2 3 4; do
  if [ $i = 2 ]; then continue; fi
  echo $i
done
--- stdout
1
3
4

### break with a count leaves nested loops
for i in 1 2; do
  for j in a b; do
    echo $i$j
    break 2
  done
done
echo out
--- stdout
1a
out

### continue with a count
for i in 1 2; do
  for j in a b; do
    echo $i$j
    continue 2
  done
done
--- stdout
1a
2a

### break in while loop
i=0
while true; do i=$((i+1)); [ $i -gt 3 ] && break; done
echo $i
--- stdout
4

### case matches a literal
case abc in abc) echo match;; esac
--- stdout
match

### case matches the first pattern
case abc in a*) echo first;; *c) echo second;; esac
--- stdout
first

### case with alternatives
case b in a|b|c) echo alt;; esac
--- stdout
alt

### case default pattern
case zzz in a) echo a;; *) echo default;; esac
--- stdout
default

### case with no match returns 0
false
case x in y) echo no;; esac
echo $?
--- stdout
0

### case with bracket expression and question mark
case b7 in [a-c]?) echo yes;; esac
--- stdout
yes

### case with quoted pattern is literal
case 'a*' in "a*") echo literal;; esac
case abc in "a*") echo no;; *) echo nomatch;; esac
--- stdout
literal
nomatch

### case pattern from a variable is a pattern
p='a*'
case abc in $p) echo pattern;; esac
--- stdout
pattern

### case with parenthesised pattern
case x in (x) echo open;; esac
--- stdout
open

### case last item without double semicolon
case x in x) echo last
esac
--- stdout
last

### case with fallthrough
case a in a) echo one;& b) echo two;; c) echo three;; esac
--- tags bash
--- stdout
one
two

### case with continue matching
case ab in a*) echo one;;& *b) echo two;; *) echo three;; esac
--- tags bash
--- stdout
one
two

### case word is expanded
v=hello
case $v in hel*) echo ok;; esac
--- stdout
ok

### case on empty string
case "" in "") echo empty;; *) echo other;; esac
--- stdout
empty

### case status is that of the last command run
case a in a) (exit 4);; esac
echo $?
--- stdout
4

### subshell runs commands
(echo in subshell)
--- stdout
in subshell

### subshell variables do not leak
x=1
(x=2; echo $x)
echo $x
--- stdout
2
1

### subshell cd does not leak
mkdir sub
(cd sub; pwd | sed 's,.*/,,')
pwd | sed 's,.*/,,'
--- stdout
sub
home

### brace group runs in the current shell
x=1
{ x=2; }
echo $x
--- stdout
2

### brace group needs a terminator
{ echo a; echo b; }
--- stdout
a
b

### brace group redirection
{ echo a; echo b; } > out
cat out
--- stdout
a
b

### nested compound commands
for i in 1 2; do
  case $i in
    1) if true; then echo one; fi;;
    2) while true; do echo two; break; done;;
  esac
done
--- stdout
one
two

### subshell exit status
(exit 3)
echo $?
--- stdout
3

### empty brace group is a syntax error
{ }
--- stderr-nonempty
--- status
2

### missing fi is a syntax error
if true; then echo x
--- stderr-nonempty
--- status
2

### missing done is a syntax error
while true; do echo x
--- stderr-nonempty
--- status
2

### missing esac is a syntax error
case x in x) echo x;;
--- stderr-nonempty
--- status
2

### unexpected closing paren is a syntax error
echo a )
--- stderr-nonempty
--- status
2

### reserved word in argument position is a word
echo if then fi do done
--- stdout
if then fi do done

### reserved words recognised after semicolon
true; if true; then echo y; fi
--- stdout
y

### while loop reading lines
printf 'a\nb\n' | while read l; do echo "[$l]"; done
--- stdout
[a]
[b]

### loop output redirected
for i in 1 2; do echo $i; done > out
cat out
--- stdout
1
2

### until with break
n=0
until false; do n=$((n+1)); if [ $n = 5 ]; then break; fi; done
echo $n
--- stdout
5
