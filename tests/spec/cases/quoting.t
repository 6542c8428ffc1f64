### backslash escapes a space
echo a\ b
--- stdout
a b

### backslash escapes special characters
echo \$HOME \`x\` \"q\" \'s\' \\ \; \& \| \< \> \( \)
--- stdout
$HOME `x` "q" 's' \ ; & | < > ( )

### backslash before ordinary character is removed
echo \a\b\c
--- stdout
abc

### backslash newline is a line continuation
echo ab\
cd
--- stdout
abcd

### line continuation inside a word and between words
ec\
ho one \
two
--- stdout
one two

### single quotes keep everything literal
printf '%s\n' 'a $HOME `x` \n \ "q"'
--- stdout
a $HOME `x` \n \ "q"

### single quote cannot appear inside single quotes
echo 'it'\''s'
--- stdout
it's

### double quotes keep spaces
x="a   b"
echo "$x"
echo $x
--- stdout
a   b
a b

### backslash in double quotes only escapes $ ` " \ newline
printf '%s\n' "\$ \` \" \\ \a \n"
--- stdout
$ ` " \ \a \n

### backslash newline inside double quotes is removed
echo "ab\
cd"
--- stdout
abcd

### single quotes inside double quotes are literal
x=v
echo "'$x'"
--- stdout
'v'

### double quotes inside single quotes are literal
echo '"$x"'
--- stdout
"$x"

### adjacent quoted parts form one word
set -- 'a'"b"c\ d
echo $#
echo "$1"
--- stdout
1
abc d

### empty quotes make an empty argument
set -- '' "" a
echo $#
--- stdout
3

### unquoted empty variable vanishes
e=
set -- $e a $e
echo $#
--- stdout
1

### quoted empty variable stays
e=
set -- "$e" a
echo $#
--- stdout
2

### comment at start of line
# this is a comment
echo visible
--- stdout
visible

### comment after a command
echo a # b c
--- stdout
a

### hash inside a word is not a comment
echo a#b
--- stdout
a#b

### hash quoted is not a comment
echo '#x' "#y" \#z
--- stdout
#x #y #z

### comment ending in backslash does not continue
# comment \
echo next
--- stdout
next

### dollar at end of word is literal
echo $ a$ "$"
--- stdout
$ a$ $

### double quote spanning lines
echo "a
b"
--- stdout
a
b

### single quote spanning lines
echo 'a
b'
--- stdout
a
b

### nested quotes in command substitution inside double quotes
echo "$(echo "inner $(echo 'deep')")"
--- stdout
inner deep

### quoted glob characters are literal
touch ab ac
echo "a*" 'a?' a\*
--- stdout
a* a? a*

### operators need no spaces
echo a;echo b&&echo c||echo d
--- stdout
a
b
c

### quoted operators are words
echo ';' '&&' "|"
--- stdout
; && |

### backslash-quoted reserved word is not reserved
\if true 2>/dev/null
echo status $?
--- stdout
status 127

### unterminated single quote is a syntax error
echo 'abc
--- stderr-nonempty
--- status
2

### unterminated double quote is a syntax error
echo "abc
--- stderr-nonempty
--- status
2

### unterminated backquote is a syntax error
echo `abc
--- stderr-nonempty
--- status
2

### syntax error on a later line of -c stops there
echo before
if then
--- stderr-nonempty
--- stdout
before
--- status
2

### quoting in assignment value needs no quotes for spaces from expansion
a="x   y"
b=$a
echo "$b"
--- stdout
x   y

### tab and multiple spaces separate words
echo a	b    c
--- stdout
a b c

### backslash at end of -c string
echo a\
--- stdout
a
