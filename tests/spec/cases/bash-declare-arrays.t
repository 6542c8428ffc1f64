### declare -a with quoted elements keeps them whole
declare -a a=(x "y z" '' 'it'\''s')
echo ${#a[@]} "${a[1]}" "${a[3]}"
--- tags bash
--- stdout
4 y z it's

### declare -a with subscripts and spaces is reusable
declare -a a=([1]="two three" [3]=x)
declare -p a > saved
unset a
. ./saved
echo ${#a[@]} "${a[1]}" "${a[3]}"
--- tags bash
--- stdout
2 two three x

### declare -a splits "${b[@]}" into elements
b=(x "y z")
declare -a c=("${b[@]}" 'q r')
echo ${#c[@]} "${c[1]}" "${c[2]}"
--- tags bash
--- stdout
3 y z q r

### local -a with quoted elements
f() { local -a l=(1 "2 3"); echo ${#l[@]} "${l[1]}"; }
f
--- tags bash
--- stdout
2 2 3

### declare -p of an array with a tab is reusable
declare -a n=([2]=$'a\tb' ' ')
declare -p n > saved
unset n
. ./saved
printf '%s|' "${n[@]}"; echo
--- tags bash
--- stdout
a	b| |

### a quoted value that looks like an array stays a string
declare x='(a b)'
echo "[$x] ${#x[@]}"
local_test() { local y="(c d)"; echo "[$y]"; }
local_test
declare -a z='(1 2)'
echo "${#z[@]}"
--- tags bash
--- stdout
[(a b)] 1
[(c d)]
2

### readonly and export take array literals too
readonly r=(g h)
echo "${r[1]}"
readonly q+=(r e)
echo "${q[@]}"
--- tags bash
--- stdout
h
r e
