### echo joins arguments with spaces
echo a   b c
--- stdout
a b c

### echo with no arguments prints a newline
echo
echo end
--- stdout

end

### echo -n suppresses the newline
echo -n abc
echo def
--- stdout
abcdef

### echo does not interpret escapes by default
echo 'a\tb'
--- tags bash
--- stdout
a\tb

### echo -e interprets escapes
echo -e 'a\tb\nc'
--- tags bash
--- stdout
a	b
c

### echo -e octal and hex escapes
echo -e '\0101\x42'
--- tags bash
--- stdout
AB

### echo -e \c stops output
echo -e 'abc\cdef'
echo next
--- tags bash
--- stdout
abcnext

### echo -E disables escapes
echo -E 'a\nb'
--- tags bash
--- stdout
a\nb

### echo combined options
echo -ne 'x\ty'
echo
--- tags bash
--- stdout
x	y

### echo with an unknown option prints it
echo -x foo
--- stdout
-x foo

### echo -- is printed
echo -- a
--- tags bash
--- stdout
-- a

### echo a lone dash
echo -
--- stdout
-

### echo -e backslash backslash
echo -e 'a\\b'
--- tags bash
--- stdout
a\b

### echo option after a word is literal
echo a -n
--- stdout
a -n

### echo -e escape character
echo -e '\e' | od -An -c | tr -d ' '
--- tags bash
--- stdout
033\n

### echo -e unicode escape
export LC_ALL=C.UTF-8
echo -e '\u00e9' | od -An -tx1 | tr -d ' '
--- tags bash
--- stdout
c3a90a

### echo -e unknown escape is kept
echo -e '\q'
--- tags bash
--- stdout
\q

### echo -nn repeated option letters
echo -nn x
echo
--- tags bash
--- stdout
x
