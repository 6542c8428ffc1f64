### PIPESTATUS after a simple command
false
echo ${PIPESTATUS[@]}
--- tags bash
--- stdout
1

### PIPESTATUS holds every stage of a pipeline
true | false | (exit 3)
echo ${PIPESTATUS[@]} ${#PIPESTATUS[@]}
--- tags bash
--- stdout
0 1 3 3

### PIPESTATUS keeps the raw statuses under !
! false | true
echo ${PIPESTATUS[@]} $?
--- tags bash
--- stdout
1 0 1

### PIPESTATUS is the last pipeline inside a compound command
if false; then :; fi
echo ${PIPESTATUS[@]}
{ false | true; }
echo ${PIPESTATUS[@]}
for i in 1; do true | false; done
echo ${PIPESTATUS[@]}
--- tags bash
--- stdout
1
1 0
0 1

### PIPESTATUS after an assignment, a subshell and a function call
x=$(exit 4)
echo ${PIPESTATUS[@]}
(exit 6)
echo ${PIPESTATUS[0]}
f() { false | true; return 5; }
f
echo ${PIPESTATUS[@]}
--- tags bash
--- stdout
4
6
5

### PIPESTATUS with lastpipe and pipefail
shopt -s lastpipe
true | (exit 7)
echo ${PIPESTATUS[@]}
set -o pipefail
false | true
echo $? ${PIPESTATUS[@]}
--- tags bash
--- stdout
0 7
1 1 0

### PIPESTATUS after (( )) and [[ ]]
(( 0 ))
echo ${PIPESTATUS[@]}
[[ a = a ]]
echo ${PIPESTATUS[@]}
--- tags bash
--- stdout
1
0
