### basic here-document
cat <<END
line one
line two
END
--- stdout
line one
line two

### here-document expands parameters
name=world
cat <<END
hello $name
END
--- stdout
hello world

### here-document expands command substitution and arithmetic
cat <<END
$(echo cmd) $((1+2))
END
--- stdout
cmd 3

### quoted delimiter disables expansion
name=world
cat <<'END'
hello $name $(echo x) \$
END
--- stdout
hello $name $(echo x) \$

### double-quoted delimiter disables expansion
cat <<"END"
$HOME
END
--- stdout
$HOME

### partly quoted delimiter disables expansion
x=1
cat <<E"N"D
$x
END
--- stdout
$x

### backslash in unquoted here-document
cat <<END
a\$b \\ \a "q" 'q'
END
--- stdout
a$b \ \a "q" 'q'

### backslash newline in unquoted here-document joins lines
cat <<END
ab\
cd
END
--- stdout
abcd

### backslash newline kept in quoted here-document
cat <<'END'
ab\
cd
END
--- stdout
ab\
cd

### tab stripping with <<-
cat <<-END
	indented
		twice
	END
--- stdout
indented
twice

### <<- does not strip spaces
cat <<-END
  spaces
END
--- stdout
  spaces

### two here-documents on one line
cat <<A; cat <<B
first
A
second
B
--- stdout
first
second

### two here-documents for one command
cat <<A 3<<B
to stdin
A
to three
B
--- stdout
to stdin

### here-document in a function
f() {
  cat <<END
in function $1
END
}
f arg
f again
--- stdout
in function arg
in function again

### here-document in a loop
for i in 1 2; do
  cat <<END
iteration $i
END
done
--- stdout
iteration 1
iteration 2

### here-document to a pipeline
cat <<END | tr a-z A-Z
shout
END
--- stdout
SHOUT

### here-document with command after on the same line
cat <<END && echo after
body
END
--- stdout
body
after

### empty here-document
cat <<END
END
echo done
--- stdout
done

### delimiter must be alone on the line
cat <<END
 END
END 
END
--- stdout
 END
END 

### here-document double quotes are literal
cat <<END
"quoted" 'single'
END
--- stdout
"quoted" 'single'

### here-document to read
read a b <<END
first second third
END
echo "$a|$b"
--- stdout
first|second third

### here-document with a numbered fd
cat 0<<END
zero
END
--- stdout
zero

### here-document in command substitution
x=$(cat <<END
captured
END
)
echo $x
--- stdout
captured

### unterminated here-document is accepted at end of input
cat <<END
no end
--- stdout
no end

### large here-document
{
  echo 'cat <<END'
  i=0
  while [ $i -lt 5000 ]; do echo "line $i"; i=$((i+1)); done
  echo END
} > gen.sh
sh gen.sh > /dev/null
. ./gen.sh | wc -l
--- stdout
5000

### here-document variable with braces and special parameters
set -- p1 p2
cat <<END
${1} $# $2
END
--- stdout
p1 2 p2

### here-document in an if branch
if true; then
  cat <<END
yes
END
fi
--- stdout
yes

### here-document delimiter with dash
cat <<-EOF-X
	ok
	EOF-X
--- stdout
ok
