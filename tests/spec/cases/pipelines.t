### simple pipeline
echo hello | tr a-z A-Z
--- stdout
HELLO

### three stage pipeline
printf 'c\nb\na\n' | sort | head -n 2
--- stdout
a
b

### pipeline status is the last command
false | true
echo $?
true | false
echo $?
--- stdout
0
1

### bang negates status
! true
echo $?
! false
echo $?
--- stdout
1
0

### bang negates a pipeline
! false | false
echo $?
--- stdout
0

### pipeline stages run in subshells
x=1
echo | x=2
echo $x
--- stdout
1

### and list runs second on success
true && echo yes
false && echo no
echo end
--- stdout
yes
end

### or list runs second on failure
false || echo yes
true || echo no
echo end
--- stdout
yes
end

### and or are left associative with equal precedence
false && echo a || echo b
true || echo c && echo d
--- stdout
b
d

### and or status
false && true
echo $?
false || false
echo $?
--- stdout
1
1

### semicolon sequential list
echo a; echo b; echo c
--- stdout
a
b
c

### newline separated list
echo a
echo b
--- stdout
a
b

### background command and wait
echo bg > out &
wait
cat out
--- stdout
bg

### $! is set by a background command
sleep 0 &
pid=$!
wait $pid
echo $?
case $pid in ''|*[!0-9]*) echo bad;; *) echo numeric;; esac
--- stdout
0
numeric

### wait returns the status of a background job
(exit 7) &
wait $!
echo $?
--- stdout
7

### wait without arguments waits for all
(sleep 0.1; echo one) &
(sleep 0.2; echo two) &
wait
echo done
--- stdout
one
two
done

### background and foreground ordering with wait
{ sleep 0.1; echo late; } &
echo early
wait
--- stdout
early
late

### pipeline with a compound command
for i in 1 2 3; do echo $i; done | while read x; do echo "got $x"; done
--- stdout
got 1
got 2
got 3

### pipeline with brace group input
{ echo a; echo b; } | wc -l
--- stdout
2

### pipeline to head closes early writers
yes | head -n 3
--- stdout
y
y
y

### long pipeline
echo x | cat | cat | cat | cat | cat | cat | cat | cat | cat
--- stdout
x

### pipe continues over a newline
echo abc |
tr a-z A-Z
--- stdout
ABC

### and list continues over a newline
true &&
echo next
--- stdout
next

### ampersand followed by more commands on the line
sleep 0 & echo after
wait
--- stdout
after

### stderr is not piped by default
{ echo out; echo err >&2; } 2>/dev/null | cat
--- stdout
out

### 2>&1 in a pipeline
{ echo out; echo err >&2; } 2>&1 | sort
--- stdout
err
out

### wait for an unknown pid fails
wait 99999
--- status
127

### status of a negated pipeline with multiple failures
! false | true
echo $?
--- stdout
1
