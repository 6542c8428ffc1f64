### array assignment and element access
a=(x y z)
echo ${a[0]} ${a[2]}
--- tags bash
--- stdout
x z

### all elements and count
a=(x y z)
echo ${a[@]} ${#a[@]}
--- tags bash
--- stdout
x y z 3

### $a is element zero
a=(first second)
echo $a
--- tags bash
--- stdout
first

### append to an array
a=(x)
a+=(y z)
echo ${a[@]} ${#a[@]}
--- tags bash
--- stdout
x y z 3

### sparse array assignment
a=(x)
a[5]=y
echo ${#a[@]} ${!a[@]}
--- tags bash
--- stdout
2 0 5

### unset an element
a=(x y z)
unset 'a[1]'
echo ${a[@]} ${#a[@]} ${!a[@]}
--- tags bash
--- stdout
x z 2 0 2

### quoted "${a[@]}" keeps elements
a=('a b' c)
for e in "${a[@]}"; do echo "[$e]"; done
--- tags bash
--- stdout
[a b]
[c]

### "${a[*]}" joins with IFS
a=(x y z)
IFS=,
echo "${a[*]}"
--- tags bash
--- stdout
x,y,z

### element length
a=(abc de)
echo ${#a[0]} ${#a[1]}
--- tags bash
--- stdout
3 2

### array index is arithmetic
a=(x y z)
i=1
echo ${a[i+1]} ${a[$i]}
--- tags bash
--- stdout
z y

### negative index counts from the end
a=(x y z)
echo ${a[-1]}
--- tags bash
--- stdout
z

### array in a for loop
a=(1 2 3)
sum=0
for v in "${a[@]}"; do sum=$((sum + v)); done
echo $sum
--- tags bash
--- stdout
6

### array from a glob
touch f1 f2
a=(f*)
echo ${#a[@]}
--- tags bash
--- stdout
2

### array from command substitution
a=($(echo one two three))
echo ${a[1]}
--- tags bash
--- stdout
two

### array slice
a=(a b c d e)
echo ${a[@]:1:3}
--- tags bash
--- stdout
b c d

### empty array
a=()
echo ${#a[@]}
for e in "${a[@]}"; do echo no; done
--- tags bash
--- stdout
0

### assign element to a new array
b[2]=two
echo ${b[2]} ${#b[@]}
--- tags bash
--- stdout
two 1

### array with explicit indices
a=([2]=two [0]=zero)
echo ${a[@]}
--- tags bash
--- stdout
zero two

### unset the whole array
a=(1 2)
unset a
echo ${#a[@]}
--- tags bash
--- stdout
0

### array element append
a=(x)
a[0]+=y
echo ${a[0]}
--- tags bash
--- stdout
xy

### local array in a function
f() { local a=(in func); echo ${a[1]}; }
a=(out)
f
echo ${a[0]}
--- tags bash
--- stdout
func
out

### indices of an array
a=(a b c)
echo ${!a[@]}
--- tags bash
--- stdout
0 1 2

### array element with spaces unquoted splits
a=('x y')
set -- ${a[0]}
echo $#
--- tags bash
--- stdout
2

### array pattern removal on each element
a=(a.txt b.txt)
echo ${a[@]%.txt}
--- tags bash
--- stdout
a b

### a huge array index is refused, not left to exhaust memory
"$SHELL" -c 'a[99999999999]=1; echo not reached'
echo "status $?"
--- tags bash nobash
--- stderr-nonempty
--- stdout
status 1

### set -u spares ${a[@]} of empty and unset arrays, not ${#a[@]} of an unset one
set -u
a=()
echo "n=${#a[@]} k=${!a[@]} v=${a[@]} u=${nope[@]}|${!nope[@]}"
"$SHELL" -c 'set -u; echo "${#nope[@]}"; echo not reached'
echo "status $?"
--- tags bash
--- stderr-nonempty
--- stdout
n=0 k= v= u=|
status 1

### values of an array literal are expanded before it changes
declare -A m=([k]=one)
m=([k]="${m[k]} two")
a=(x y)
a=([1]="${a[0]}" [0]="${a[1]}")
echo "${m[k]}" "${a[@]}"
--- tags bash
--- stdout
one two y x

### an element of an array literal can append
a=([2]=x [2]+=y)
a+=([2]+=z)
declare -A m=([k]=1); m+=([k]+=2)
echo "${a[2]}" "${m[k]}"
--- tags bash
--- stdout
xyz 12

### a negative subscript before the first element is empty
a=(1 2)
echo "[${a[-5]}]" "${a[-1]}"
echo next
--- tags bash
--- stdout
[] 2
next
--- stderr-nonempty

### a slice of a sparse array counts from subscripts
a=([1]=a [5]=b [9]=c)
echo "${a[@]:2}|${a[@]: -4}|${a[@]:2:1}|${a[@]:10}|"
set -- x y z
echo "${@: -1}|${*: -2:1}"
--- tags bash
--- stdout
b c|c|b||
z|y

### a negative slice length of an array is an error
a=(1 2 3 4 5)
echo "${a[@]: 1: -3}"; echo not reached
--- tags bash
--- status
1
--- stderr-nonempty

### the subscript of an indirect reference is expanded
declare -A m=([k]=val); key=k; a=(x y); i=1
r='m["k"]'; echo "${!r}"
r='m[$key]'; echo "${!r}"
r='a[$i]'; echo "${!r}"
r='a[i-1]'; echo "${!r}"
--- tags bash
--- stdout
val
val
y
x

### blanks in the subscript of an assignment
i=(0 1 2)
a[1 * 1]=x
a[ i[1] + 1 ]=z
b[0 + 1]=y c[ 2 ]=w
echo "${a[@]}" "${b[1]}" "${c[2]}"
printf '<%s>' a[3 + 4]=; echo
--- tags bash
--- stdout
x z y w
<a[3><+><4]=>

### an element assignment before a command is refused
a=(0 1)
a[1]=x true; echo "$? ${a[@]}"
f() { echo "in f ${a[1]}"; }
a[1]=y f
--- tags bash
--- stdout
0 0 1
in f 1
--- stderr-nonempty

### a name reference to an array element
a=(1 2 3); declare -A m=([k]=v); key=k
declare -n r='a[1]' q='m[$key]'
echo "$r" "$q"
r=X; q+=w
echo "${a[@]}" "${m[k]}"
--- tags bash
--- stdout
2 v
1 X 3 vw

### "${a[@]+w}" of an empty array is no word
f() { echo $#; }
empty=()
f "${empty[@]+plus}"; f "${empty[*]+plus}"
set --; f "${@+x}"; f "${u+x}"
--- tags bash
--- stdout
0
1
0
1

### a subscript given as text to unset, printf -v and test -v is expanded
declare -A m=([k]=1 [e]=)
key=k
test -v 'm[$key]' && echo set
printf -v 'm["$key"]' '<%s>' new
echo "${m[k]}"
unset -v 'm["$key"]'
test -v 'm[$key]' || echo gone
a=(x y z)
i=1
unset 'a[$i]'
echo "${a[@]}"
--- tags bash
--- stdout
set
<new>
gone
x z

### unset of an associative element whose key holds brackets
declare -A d
key='1],a[1'
d["$key"]=foo
unset -v 'd["$key"]'
echo "${#d[@]}"
--- tags bash
--- stdout
0

### quotes around an associative key inside (( )) are removed
declare -A m=([spam]=42)
(( x = m['spam'] ))
(( m["eggs"] = 7 ))
echo "$x ${m[eggs]}"
--- tags bash
--- stdout
42 7
