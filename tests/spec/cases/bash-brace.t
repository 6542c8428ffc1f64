### brace expansion with a list
echo {a,b,c}
--- tags bash
--- stdout
a b c

### brace expansion with prefix and suffix
echo pre{1,2}post
--- tags bash
--- stdout
pre1post pre2post

### numeric sequence
echo {1..5}
--- tags bash
--- stdout
1 2 3 4 5

### descending sequence
echo {5..1}
--- tags bash
--- stdout
5 4 3 2 1

### letter sequence
echo {a..e}
--- tags bash
--- stdout
a b c d e

### sequence with a step
echo {1..10..3}
--- tags bash
--- stdout
1 4 7 10

### zero padded sequence
echo {01..05}
--- tags bash
--- stdout
01 02 03 04 05

### nested brace expansion
echo {a,b{1,2}}
--- tags bash
--- stdout
a b1 b2

### two brace expansions multiply
echo {a,b}{1,2}
--- tags bash
--- stdout
a1 a2 b1 b2

### single item braces are literal
echo {a} {}
--- tags bash
--- stdout
{a} {}

### quoted braces are literal
echo "{a,b}" '{1..3}'
--- tags bash
--- stdout
{a,b} {1..3}

### unbalanced brace is literal
echo {a,b
--- tags bash
--- stdout
{a,b

### brace expansion before variable expansion
x=1
echo {$x,2}
--- tags bash
--- stdout
1 2

### brace expansion with empty element
echo a{,b}
--- tags bash
--- stdout
a ab

### brace expansion in for loop
for i in {1..3}; do echo n$i; done
--- tags bash
--- stdout
n1
n2
n3

### brace expansion is not done in assignments
x={a,b}
echo "$x"
--- tags bash
--- stdout
{a,b}

### negative sequence
echo {-2..2}
--- tags bash
--- stdout
-2 -1 0 1 2

### brace expansion creates files
touch f{1,2,3}
ls
--- tags bash
--- stdout
f1
f2
f3

### escaped comma
echo {a\,b,c}
--- tags bash
--- stdout
a,b c

### invalid sequence is literal
echo {1..a}
--- tags bash
--- stdout
{1..a}
