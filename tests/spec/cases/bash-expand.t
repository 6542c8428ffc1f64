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
