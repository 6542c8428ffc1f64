### addition and multiplication precedence
echo $((1 + 2 * 3))
--- stdout
7

### parentheses
echo $(( (1 + 2) * 3 ))
--- stdout
9

### division and modulo
echo $((17 / 5)) $((17 % 5)) $((-17 / 5)) $((-17 % 5))
--- stdout
3 2 -3 -2

### unary operators
echo $((-3)) $((+3)) $((!0)) $((!5)) $((~0))
--- stdout
-3 3 1 0 -1

### comparison operators
echo $((1 < 2)) $((2 <= 1)) $((3 > 2)) $((3 >= 4)) $((1 == 1)) $((1 != 1))
--- stdout
1 0 1 0 1 0

### bitwise operators
echo $((6 & 3)) $((6 | 3)) $((6 ^ 3)) $((1 << 4)) $((256 >> 2))
--- stdout
2 7 5 16 64

### logical operators
echo $((1 && 0)) $((1 || 0)) $((0 || 0)) $((2 && 3))
--- stdout
0 1 0 1

### logical operators short-circuit
x=0
echo $((0 && (x = 1))) $x
echo $((1 || (x = 2))) $x
--- stdout
0 0
1 0

### ternary operator
echo $((1 ? 10 : 20)) $((0 ? 10 : 20))
--- stdout
10 20

### nested ternary
x=5
echo $((x < 3 ? 1 : x < 6 ? 2 : 3))
--- stdout
2

### variables without dollar
a=6 b=7
echo $((a * b))
--- stdout
42

### variables with dollar
a=6
echo $(($a + 1))
--- stdout
7

### unset variable is zero
unset u
echo $((u + 1))
--- stdout
1

### assignment operators
x=10
echo $((x += 5)) $((x -= 3)) $((x *= 2)) $((x /= 4)) $((x %= 4))
echo $x
--- stdout
15 12 24 6 2
2

### shift and bitwise assignments
x=1
echo $((x <<= 3)) $((x >>= 1)) $((x |= 1)) $((x &= 6)) $((x ^= 7))
--- stdout
8 4 5 4 3

### plain assignment in arithmetic
echo $((y = 42))
echo $y
--- stdout
42
42

### increment and decrement
i=5
echo $((i++)) $i $((++i)) $((i--)) $((--i))
--- tags bash
--- stdout
5 6 7 7 5

### comma operator
echo $((a = 1, b = 2, a + b))
--- tags bash
--- stdout
3

### hexadecimal and octal constants
echo $((0x1F)) $((010)) $((0X10))
--- stdout
31 8 16

### base notation
echo $((2#1010)) $((16#ff)) $((36#z))
--- tags bash
--- stdout
10 255 35

### exponent operator
echo $((2 ** 10))
--- tags bash
--- stdout
1024

### division by zero is an error
"$SHELL" -c 'echo $((1 / 0)); echo same line'
[ $? -ne 0 ] && echo failed
--- stderr-nonempty
--- stdout
failed

### division by zero in a subshell does not stop the parent
(echo $((5 % 0))) 2>/dev/null
echo parent
--- stdout
parent

### syntax error in arithmetic
"$SHELL" -c 'echo $((1 +)); echo same line'
[ $? -ne 0 ] && echo failed
--- stderr-nonempty
--- stdout
failed

### variable containing an expression
e='2 + 3'
echo $((e * 2))
--- tags bash
--- stdout
10

### large numbers are 64-bit
echo $((9223372036854775807)) $((1 << 62))
--- stdout
9223372036854775807 4611686018427387904

### overflow wraps
echo $((9223372036854775807 + 1))
--- stdout
-9223372036854775808

### whitespace and newlines inside arithmetic
echo $((  1
 + 2 ))
--- stdout
3

### arithmetic with command substitution
echo $(( $(echo 3) * 2 ))
--- stdout
6

### nested arithmetic expansion
echo $(( $((1 + 1)) * 3 ))
--- stdout
6

### arithmetic result is a word
x=$((3 + 4))
echo "$x"
--- stdout
7

### negative numbers and unary minus precedence
echo $((-2 * -3)) $((- -1)) $((2 - -2))
--- stdout
6 1 4

### precedence of shift versus addition
echo $((1 << 2 + 1))
--- stdout
8

### precedence of bitwise versus comparison
echo $((1 & 3 == 3))
--- stdout
1

### modulo of negative numbers
echo $((-7 % 3)) $((7 % -3))
--- stdout
-1 1

### arithmetic on a variable with leading zeros is octal
x=010
echo $((x))
--- stdout
8

### invalid number in a variable is an error
"$SHELL" -c 'x=12abc; echo $((x + 1)); echo same line'
[ $? -ne 0 ] && echo failed
--- stderr-nonempty
--- stdout
failed

### arithmetic expansion in a for loop counter
n=0
for i in 1 2 3 4; do n=$((n + i)); done
echo $n
--- stdout
10

### $[ ] is bash's old spelling of $(( ))
v=4
echo $[1 + 2] "$[v * 3]" $[v[0] + 1]
--- tags bash
--- stdout
3 12 5

### a carriage return in an arithmetic expression is an error
cr=$(printf '\r')
"$SHELL" -c "echo \$((1 +$cr 2))" 2>/dev/null || echo failed
--- stdout
failed
