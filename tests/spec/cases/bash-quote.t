### dollar single quote escapes
echo $'a\tb' | od -An -c | tr -s ' '
--- tags bash
--- stdout
 a \t b \n

### dollar single quote newline
echo $'line1\nline2'
--- tags bash
--- stdout
line1
line2

### dollar single quote quotes and backslash
echo $'it\'s' $'back\\slash' $'dq\"'
--- tags bash
--- stdout
it's back\slash dq"

### dollar single quote octal and hex
echo $'\101\x42\x43'
--- tags bash
--- stdout
ABC

### dollar single quote unicode
export LC_ALL=C.UTF-8
echo $'\u00e9' | od -An -tx1 | tr -d ' '
--- tags bash
--- stdout
c3a90a

### dollar single quote control character
echo $'\cA' | od -An -tx1 | tr -d ' '
--- tags bash
--- stdout
010a

### dollar single quote escape character
echo $'\e' | od -An -tx1 | tr -d ' '
--- tags bash
--- stdout
1b0a

### dollar single quote inside double quotes is literal
echo "$'x'"
--- tags bash
--- stdout
$'x'

### dollar single quote does not expand variables
x=1
echo $'$x'
--- tags bash
--- stdout
$x

### dollar single quote as one word with adjacent text
set -- a$'\t'b
echo ${#1}
--- tags bash
--- stdout
3

### dollar single quote in an assignment
IFS=$'\n'
x='a b
c'
set -- $x
echo $#
--- tags bash
--- stdout
2

### dollar single quote in a case pattern
case $'\t' in $'\t') echo tab;; esac
--- tags bash
--- stdout
tab

### dollar double quote is like double quote
x=v
echo $"hello $x"
--- tags bash
--- stdout
hello v
