### single quotes quote a pattern operand inside double quotes
x="a*b'c"
echo "${x#'a*'}" "${x%'c'}" "${x#*\'}"
--- tags bash
--- stdout
b'c a*b' c

### single quotes in a double-quoted replacement are removed
x='a b c d'
echo "${x//'c d'/'z z'}"
--- tags bash
--- stdout
a b z z

### single quotes stay in a double-quoted default word
echo "${undef-'c d'}" "${undef:+'x'}"
--- tags bash
--- stdout
'c d' 

### single quotes in a character class of a double-quoted pattern
x='a[[-]]b'
echo "${x//['[]']}"
--- tags bash
--- stdout
a-b

### dollar single quote in a double-quoted operand
x=abc
echo "${x%$'b'*}" "${undef-$'t\x41b'}"
--- tags bash
--- stdout
a tAb

### an unterminated single quote in a double-quoted pattern
x=a
echo "${x%a'}"
--- tags bash
--- status
2
--- stderr-nonempty

### attributes with @a
a=(1 2); declare -A h=([k]=v); declare -rx e=1; declare -il n=3; s=x
echo "${a@a} ${a[1]@a} ${h@a} ${e@a} ${n@a} [${s@a}] [${undef@a}] [${?@a}]"
echo "${a[@]@a}"
--- tags bash
--- stdout
a a A rx il [] [] []
a a

### assignment form with @A
s='it'"'"'s'; declare -ri n=2; a=(x 'y z'); declare -A h=([k]=v)
echo "${s@A}"; echo "${n@A}"; echo "${a[@]@A}"; echo "${h[@]@A}"
set -- p 'q r'; echo "${@@A}"; echo "[${undef@A}]"
--- tags bash
--- stdout
s='it'\''s'
declare -ir n='2'
declare -a a=([0]="x" [1]="y z")
declare -A h=([k]="v" )
set -- 'p' 'q r'
[]

### key and value pairs with @K and @k
a=(x 'y z'); s=v
echo "${a[@]@K}" "${s@K}"
printf '<%s>' "${a[@]@k}"; echo
--- tags bash
--- stdout
0 "x" 1 "y z" 'v'
<0><x><1><y z>

### prompt expansion with @P
x=val; p='x=$x \\ \q \[\]'
echo "${p@P}"
--- tags bash
--- stdout
x=val \ \q 

### a quoted star of an unset array is one empty word
f() { echo $#; }
f "${undef[*]}" "${undef[*]@Q}"
f "${undef[@]}"
--- tags bash
--- stdout
2
0

### quotes are removed from an associative key
declare -A h
h['a+1']=1; h["b c"]=2; h[\'d]=3; h[$'e']=4
for k in "${!h[@]}"; do echo "<$k>"; done | sort
echo "${h['a+1']}" "${h["b c"]}" ${h[\'d]} "${h[$'e']}"
h['a+1']+=x; echo "${h[a+1]}"
--- tags bash
--- stdout
<'d>
<a+1>
<b c>
<e>
1 2 3 4
1x

### a slash right after // is the pattern
x='/_/'; p=/foo/bar
echo ${x////c} "${x////c}" ${x///} "${x//\//c}" ${p////\\/}
--- tags bash
--- stdout
c_c c_c _ c_c \/foo\/bar

### a leading tilde in a pattern or replacement is expanded
h=$HOME/x; y=abc; z='a~b'
echo ${h#~} "${h/~/T}" "${undef:-~}" ${z/~/Q} ${z/\~/Q}
[ "${y/b/~}" = "a${HOME}c" ] && echo replaced
--- tags bash
--- stdout
/x T/x ~ a~b aQb
replaced

### ? in a pattern matches one UTF-8 character
export LC_ALL=C.UTF-8
v='μ-'; s='_μ_ and _μ_'
echo "${v#?}" "${s//_?_/x}" "${s/%_?_/y}"
LC_ALL=C
echo "${s//_?_/x}" "${s//_??_/x}"
--- tags bash
--- stdout
- x and x _μ_ and y
_μ_ and _μ_ x and x

### case conversion of non-ASCII letters
export LC_ALL=C.UTF-8
x='àÉ'; g='αβ ΔΕ'; c='привет МИР'
echo "${x^^}" "${x,,}" "${x^}" "${g^^}" "${g,,}" "${c^^}" "${c@L}"
--- tags bash
--- stdout
ÀÉ àé ÀÉ ΑΒ ΔΕ αβ δε ПРИВЕТ МИР привет мир

### a substring with no offset is a bad substitution
s=123
eval 'echo ${s:}' 2>/dev/null; [ $? -ne 0 ] && echo failed
echo "${s: }" "${s::1}" "[${s:1:}]"
--- tags bash
--- stdout
failed
123 1 []

### ? in a glob matches one UTF-8 character, a byte under LC_ALL=C
touch _x_ _μ_
LC_ALL=C.UTF-8; echo _?_
LC_ALL=C; echo _?_ _??_
--- tags bash
--- stdout
_x_ _μ_
_x_ _μ_
