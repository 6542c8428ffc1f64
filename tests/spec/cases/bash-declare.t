### declare a plain variable
declare x=1
echo $x
--- tags bash
--- stdout
1

### declare -i evaluates arithmetic on assignment
declare -i n
n=2+3
echo $n
n+=4
echo $n
--- tags bash
--- stdout
5
9

### declare -r makes readonly
declare -r c=1
(c=2) 2>/dev/null || echo readonly
--- tags bash
--- stdout
readonly

### declare -x exports
declare -x EXP=yes
sh -c 'echo $EXP'
--- tags bash
--- stdout
yes

### declare -a creates an array
declare -a arr=(one two)
echo ${arr[1]}
--- tags bash
--- stdout
two

### declare -p prints a variable in reusable form
x='a b "c" $d'
declare -p x > saved
unset x
. ./saved
echo "$x"
--- tags bash
--- stdout
a b "c" $d

### declare -p of an array is reusable
a=(1 'two three' '')
declare -p a > saved
unset a
. ./saved
echo ${#a[@]} "${a[1]}"
--- tags bash
--- stdout
3 two three

### declare -p of a scalar names it with --
x=1
declare -p x | grep -c '^declare -- x='
--- tags bash
--- stdout
1

### declare in a function is local
f() { declare v=inner; echo $v; }
v=outer
f
echo $v
--- tags bash
--- stdout
inner
outer

### declare -g in a function is global
f() { declare -g gv=global; }
f
echo $gv
--- tags bash
--- stdout
global

### declare -f prints a reusable function
f() { echo hi; }
declare -f f > def
unset -f f
. ./def
f
--- tags bash
--- stdout
hi

### declare -F lists function names
f() { :; }
g() { :; }
declare -F
--- tags bash
--- stdout
declare -f f
declare -f g

### declare -l and -u change case
declare -l lower=HeLLo
declare -u upper=HeLLo
echo $lower $upper
--- tags bash
--- stdout
hello HELLO

### typeset is declare
typeset t=typed
echo $t
--- tags bash
--- stdout
typed

### local outside a function is an error
local x=1
echo $?
--- stderr-nonempty
--- tags bash
--- stdout
1

### local -i in a function
f() { local -i n=3*4; echo $n; }
f
--- tags bash
--- stdout
12

### declare of a missing variable with -p fails
declare -p nosuchvar_xyz
echo $?
--- stderr-nonempty
--- tags bash
--- stdout
1

### declare +x removes export
declare -x E=1
declare +x E
sh -c 'echo "[${E-unset}]"'
--- tags bash
--- stdout
[unset]

### local shadows and unset reveals nothing
x=global
f() { local x=local; unset x; echo "[${x-unset}]"; }
f
echo $x
--- tags bash
--- stdout
[unset]
global

### let evaluates expressions
let a=2*3 b=a+1
echo $a $b
--- tags bash
--- stdout
6 7

### let status is 1 when the last value is zero
let 0
echo $?
let 1
echo $?
--- tags bash
--- stdout
1
0

### arithmetic command
(( 2 > 1 )) && echo greater
(( 0 )) || echo zero is false
--- tags bash
--- stdout
greater
zero is false

### arithmetic command assigns
(( x = 5, y = x * 2 ))
echo $x $y
--- tags bash
--- stdout
5 10

### arithmetic command increments
i=0
(( i++ ))
echo $? $i
(( i++ ))
echo $? $i
--- tags bash
--- stdout
1 1
0 2

### arithmetic for loop
for (( i = 0; i < 3; i++ )); do echo $i; done
--- tags bash
--- stdout
0
1
2

### arithmetic for loop with empty parts
i=0
for (( ; i < 2; )); do echo $i; (( i++ )); done
--- tags bash
--- stdout
0
1

### arithmetic error in (( )) is status 1
(( 1 / 0 ))
echo $?
--- stderr-nonempty
--- tags bash
--- stdout
1

### associative arrays: keys are strings, not arithmetic
declare -A m
m[b]=2; m[a]="x y"; m["c d"]=3; k=a
echo "${m[a]}|${m[b]}|${m["c d"]}|${m[$k]}|${#m[@]}"
for key in "${!m[@]}"; do echo "$key=${m[$key]}"; done | sort
x=1; m[x]=one; m[x+1]=two
echo "${m[x]} ${m[x+1]} ${m[2]-none}"
--- tags bash
--- stdout
x y|2|3|x y|3
a=x y
b=2
c d=3
one two none

### associative arrays: unset, append, defaults, -v, arithmetic
declare -A m=([a]=1 [b]="2 2")
unset 'm[a]'
echo "${#m[@]} ${m[a]-gone} ${m[b]}"
m[b]+=x; echo "${m[b]}"
echo "${m[q]:-default}"; : "${m[q]:=filled}"; echo "${m[q]}"
[[ -v m[b] ]] && echo has-b; [[ -v m[zz] ]] || echo no-zz
test -v 'm[q]' && echo test-v
(( m[n]++ )); (( m[n] += 5 )); echo "n=${m[n]} $(( m[n] * 2 ))"
--- tags bash
--- stdout
1 gone 2 2
2 2x
default
filled
has-b
no-zz
test-v
n=6 12

### associative arrays: compound assignment, key and value pairs, declare -p
declare -A z=([one]=1)
z+=([two]="2 2"); echo "${#z[@]} ${z[two]}"
z=(); echo "empty ${#z[@]}"
declare -A p; p=(k1 v1 k2); echo "${p[k1]}|${p[k2]}|${#p[@]}"
declare -A q=(["a b"]=1); declare -p q
declare -A e; declare -p e
--- tags bash
--- stdout
2 2 2
empty 0
v1||2
declare -A q=(["a b"]="1" )
declare -A e

### associative arrays: local, conversion and its refusal
f() { local -A l; l[x]=1; echo "local ${l[x]}"; }
f; echo "after [${l[x]}]"
s=5; declare -A s; declare -p s
i=(1); declare -A i; echo "indexed to assoc: $?"
declare -A u; declare -a u; echo "assoc to indexed: $?"
declare -Ai n; n[x]=2+3; echo "${n[x]}"
declare -A m; m=v; echo "${m[0]} ${m}"
--- tags bash
--- stderr-nonempty
--- stdout
local 1
after []
declare -A s=([0]="5" )
indexed to assoc: 1
assoc to indexed: 1
5
v v

### name references: every use goes to the named variable
declare -n r=a
r=5; echo "a=$a r=$r target=${!r}"
declare -p r
declare -n q; q=z; q=9; echo "z=$z"; declare -p q
x=7; declare -n rx=x; (( rx += 1 )); echo "x=$x"; [[ -v rx ]] && echo set
unset r; echo "a=${a-unset}"; declare -p r
unset -n rx; echo "x=$x rx=${rx-gone}"
--- tags bash
--- stdout
a=5 r=5 target=a
declare -n r="a"
z=9
declare -n q="z"
x=8
set
a=unset
declare -n r="a"
x=8 rx=gone

### name references: the function-argument idiom, arrays and maps
out_to() { local -n out=$1; out="done $2"; }
out_to res 1; echo "$res"
push() { local -n arr=$1; shift; arr+=("$@"); echo "${#arr[@]}"; }
L=(a); push L x "y z"; printf '[%s]' "${L[@]}"; echo
declare -n rl=L; echo "${!rl[@]} ${rl[2]}"
put() { local -n m=$1; m[$2]=$3; }
declare -A M; put M key val; echo "M=${M[key]}"
--- tags bash
--- stdout
done 1
3
[a][x][y z]
0 1 2 y z
M=val

### name references: refused targets and loops
declare -n s=s; echo "self $?"
declare -n bad=1; echo "bad $?"
declare -n c1=c2; declare -n c2=c1; echo "[${c1-}]"
--- tags bash
--- stderr-nonempty
--- stdout
self 1
bad 1
[]

### declare -f lays a function out as bash does
f() { echo a; if true; then echo x; fi; for i in 1; do echo $i; done; case $1 in a) echo A;; esac; local v=(1 2) w=3; echo b >/dev/null 2>&1; }
declare -f f
--- tags bash
--- stdout
f () 
{ 
    echo a;
    if true; then
        echo x;
    fi;
    for i in 1;
    do
        echo $i;
    done;
    case $1 in 
        a)
            echo A
        ;;
    esac;
    local v=(1 2) w=3;
    echo b > /dev/null 2>&1
}

### a function printed by declare -f reads back the same
f() {
	local a=(x "y z") b
	while read -r l; do echo "$l"; done < <(printf '1\n')
	cat <<END
body $a
END
	{ echo g; } 2>&1
	sleep 0 & wait
}
declare -f f > one
unset -f f
. ./one
declare -f f > two
cmp one two && echo same
f
--- tags bash
--- stdout
same
1
body x
g

### $_ after declaring an array is its name; export -n name=value
declare a=(1 2)
echo "[$_]"
export foo=old
export -n foo=new
echo "$foo $(env | grep -c '^foo=')"
--- tags bash
--- stdout
[a]
new 0
