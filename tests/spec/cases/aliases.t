### alias defined on one line applies to later lines
alias say='echo said'
say hello
--- stdout
said hello

### alias used on the same line is not expanded yet
alias hi='echo hi'; hi 2>/dev/null || echo notfound
--- stdout
notfound

### alias in a script file
alias ll='echo listing'
ll one
--- mode file
--- stdout
listing one

### alias ending in a space expands the next word
alias run='echo '
alias word='expanded'
run word
--- stdout
expanded

### alias without trailing space does not expand next word
alias run='echo'
alias word='expanded'
run word
--- stdout
word

### recursive alias does not loop
alias echo='echo X'
echo y
--- stdout
X y

### alias expanding to another alias
alias a1='a2 first'
alias a2='echo second'
a1
--- stdout
second first

### alias only in command position
alias foo='echo bar'
echo foo
--- stdout
foo

### quoted name is not alias-expanded
alias foo='echo bar'
'foo' 2>/dev/null || echo notfound
--- stdout
notfound

### alias builtin prints a definition
alias x='echo hi'
alias x
--- tags bash
--- stdout
alias x='echo hi'

### alias for a missing name fails
alias nosuchalias
--- stderr-nonempty
--- status
1

### unalias removes an alias
alias x='echo hi'
unalias x
x 2>/dev/null || echo gone
--- stdout
gone

### unalias -a removes all
alias x='echo hi' y='echo yo'
unalias -a
alias
echo done
--- stdout
done

### alias containing a semicolon
alias two='echo one; echo two'
two
--- stdout
one
two

### alias can contain a reserved word
alias loop='for i in 1 2; do echo $i; done'
loop
--- stdout
1
2

### alias inside a function body is expanded at definition
alias greet='echo hello'
f() { greet; }
unalias greet
f
--- stdout
hello

### an alias ending in a blank checks the word after its text, not its own second word
alias e_='echo one '
alias one='ONE '
alias two='TWO '
e_ two three
alias hi='echo hello '
alias punct='!!!'
hi punct
--- stdout
one TWO three
hello !!!

### the word after a blank-ending alias may be the same alias
x=x
alias ex='echo $x '
ex ex
--- stdout
x echo x

### a blank-ending alias reaches the words of a for loop
alias FOR1='for '
alias FOR2='FOR1 '
alias eye1='i '
alias eye2='eye1 '
alias IN='in '
FOR2 eye2 IN 1 2; do echo $i; done
--- tags nodash
--- stdout
1
2

### alias defined in a sourced file applies to its later lines
printf '%s\n' "alias greet='echo hello from'" 'greet lib' > lib.sh
. ./lib.sh
greet caller
--- stdout
hello from lib
hello from caller
