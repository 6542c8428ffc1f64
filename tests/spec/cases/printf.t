### printf with a string
printf '%s\n' hello
--- stdout
hello

### printf reuses the format
printf '%s-' a b c
echo
--- stdout
a-b-c-

### printf missing arguments are empty or zero
printf '%s|%d|\n'
--- stdout
|0|

### printf integers
printf '%d %i %o %x %X %u\n' 42 -7 8 255 255 3
--- stdout
42 -7 10 ff FF 3

### printf width and precision
printf '[%5s][%-5s][%.2s][%5.1f]\n' ab ab abc 3.14159
--- stdout
[   ab][ab   ][ab][  3.1]

### printf star width
printf '[%*d][%-*d]\n' 4 7 4 7
--- tags bash
--- stdout
[   7][7   ]

### printf flags
printf '%+d % d %05d %#x %#o\n' 5 5 42 255 8
--- stdout
+5  5 00042 0xff 010

### printf character code argument
printf '%d %d\n' "'A" '"a'
--- stdout
65 97

### printf hex and octal arguments
printf '%d %d\n' 0x10 010
--- stdout
16 8

### printf invalid number
printf '%d\n' abc
echo $?
--- stderr-nonempty
--- stdout
0
1

### printf partly invalid number prints the prefix
printf '%d\n' 12abc
echo $?
--- stderr-nonempty
--- stdout
12
1

### printf continues after an invalid number
printf '%d %s\n' x y
echo $?
--- stderr-nonempty
--- stdout
0 y
1

### printf %b interprets escapes
printf '%b\n' 'a\tb\101'
--- stdout
a	bA

### printf %b with \c stops output
printf '%b|%s\n' 'stop\chere' more
echo
--- stdout
stop

### printf escapes in the format
printf 'a\tb\\c\101\n'
--- stdout
a	b\cA

### printf %% prints a percent
printf '100%%\n'
--- stdout
100%

### printf %c prints the first character
printf '%c%c\n' hello world
--- stdout
hw

### printf floats
printf '%.3f %e %g\n' 2.5 12345.678 0.0001
--- stdout
2.500 1.234568e+04 0.0001

### printf %q quotes for the shell
printf '%q\n' 'a b' "it's" '$x'
--- tags bash
--- stdout
a\ b
it\'s
\$x

### printf -v assigns to a variable
printf -v out '%03d' 7
echo $out
--- tags bash
--- stdout
007

### printf with no format is an error
printf
echo $?
--- stderr-nonempty
--- tags bash
--- stdout
2

### printf format without conversions ignores extra args
printf 'fixed\n' a b
--- stdout
fixed

### printf unsigned of negative
printf '%u\n' -1
--- stdout
18446744073709551615

### printf with an empty string argument
printf '[%s]\n' ''
--- stdout
[]

### printf output has no implicit newline
printf abc
printf def
echo
--- stdout
abcdef

### printf with -- before the format
printf -- '-%s\n' x
--- stdout
-x

### printf large width
printf '%20s|\n' right
--- stdout
               right|

### printf %s with numbers
printf '%s %s\n' 1 2 3
--- stdout
1 2
3 

### printf octal escape with three digits
printf '\101\102\n'
--- stdout
AB

### printf %x of a character
printf '%x\n' "'a"
--- stdout
61

### printf -v stores into an array element
a=(x y z)
printf -v 'a[1]' '%s-' b
i=2
printf -v 'a[i]' %s c
declare -A m
printf -v 'm[k 1]' %s v
echo "${a[@]} ${m[k 1]}"
--- tags bash
--- stdout
x b- c v

### printf -v refuses a bad name with status 2
printf -v 'a[' %s x
echo "status $?"
printf -v 1x %s x
echo "status $?"
--- tags bash
--- stderr-nonempty
--- stdout
status 2
status 2

### printf character code of a UTF-8 character is its code point
LC_ALL=C.UTF-8
printf '%x %d\n' "'μ" "'三"
printf '%x\n' "'$(printf '\316\316')" "'$(printf '\301\201')"
--- tags bash
--- stdout
3bc 19977
ce
c1

### printf %T follows the exported TZ only
unset TZ
TZ=Asia/Tokyo
printf '%(%H)T\n' 0
export TZ
printf '%(%H)T\n' 0
unset TZ
printf '%(%H)T\n' 0
--- tags bash
--- stdout
00
09
00

### printf %T prints nothing when the result passes 127 bytes
printf '[%(%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y)T]\n' 0
printf '%(%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y%Y)T\n' 0 | wc -c
--- tags bash
--- stdout
[]
125
