### dollar paren command substitution
echo $(echo hi)
--- stdout
hi

### backquote command substitution
echo `echo hi`
--- stdout
hi

### trailing newlines are removed
x=$(printf 'a\n\n\n')
echo "[$x]"
--- stdout
[a]

### inner newlines are kept when quoted
x=$(printf 'a\nb')
echo "$x"
--- stdout
a
b

### unquoted substitution is field split
set -- $(echo a b c)
echo $#
--- stdout
3

### quoted substitution is one field
set -- "$(echo a b c)"
echo $#
--- stdout
1

### nested dollar paren
echo $(echo $(echo $(echo deep)))
--- stdout
deep

### nested backquotes with escaping
echo `echo \`echo inner\``
--- stdout
inner

### quotes inside dollar paren inside double quotes
echo "$(echo "a  b")"
--- stdout
a  b

### case statement inside command substitution
x=$(case a in a) echo matched;; esac)
echo $x
--- stdout
matched

### parenthesis in a comment inside command substitution
x=$(echo ok # comment )
)
echo $x
--- stdout
ok

### backslash in backquotes
echo `echo '\$x'`
--- stdout
$x

### dollar in backquotes
x=val
echo `echo $x`
--- stdout
val

### command substitution status
x=$(false)
echo $?
--- stdout
1

### command substitution in a command's arguments keeps last status
echo $(exit 3) >/dev/null
echo $?
--- stdout
0

### subshell variables do not leak from command substitution
x=1
y=$(x=2; echo $x)
echo $x $y
--- stdout
1 2

### command substitution with a here-document
x=$(cat <<END
heredoc in subst
END
)
echo "$x"
--- stdout
heredoc in subst

### empty command substitution
x=$(true)
echo "[$x]"
--- stdout
[]

### command substitution output only newlines
x=$(printf '\n\n')
echo "[$x]"
--- stdout
[]

### command substitution glob result is expanded
touch a1 a2
echo $(echo 'a*')
--- stdout
a1 a2

### command substitution in assignment is not split
x=$(echo 'a   b')
echo "$x"
--- stdout
a   b

### arithmetic inside command substitution
echo $(echo $((2*3)))
--- stdout
6

### subshell in command substitution
echo $( (echo sub) )
--- stdout
sub

### command substitution in a here-document delimiter line context
cat <<END
$(echo one)
`echo two`
END
--- stdout
one
two

### large command substitution output
x=$(i=0; while [ $i -lt 10000 ]; do echo line; i=$((i+1)); done)
echo ${#x}
--- stdout
49999

### command substitution with stderr not captured
x=$(echo out; echo err >&2)
echo "[$x]"
--- stderr
err
--- stdout
[out]

### unterminated command substitution is a syntax error
echo $(echo hi
--- stderr-nonempty
--- status
2

### exit in command substitution only leaves the subshell
x=$(exit 5; echo no)
echo "status $? [$x]"
--- stdout
status 5 []

### single quote in command substitution in double quotes
echo "$(echo 'it is')"
--- stdout
it is

### command substitution with pipeline and loop
echo $(for i in 1 2 3; do echo $i; done | tr '\n' ,)
--- stdout
1,2,3,

### $(< file) gives the file's contents
printf 'one\ntwo\n\n' > f
x=$(< f)
echo "[$x]"
y=`<f`
echo "[$y]"
--- tags bash
--- stdout
[one
two]
[one
two]

### $(< file) of a missing file fails as the redirection would
x=$(< missing)
echo "status=$? [$x]"
--- tags bash
--- stderr-nonempty
--- stdout
status=1 []
