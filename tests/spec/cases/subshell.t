### variables set in a subshell do not leak
x=1
(x=2)
echo $x
--- stdout
1

### exit in a subshell leaves only the subshell
(exit 4; echo no)
echo "after $?"
--- stdout
after 4

### functions defined in a subshell do not leak
(f() { echo f; })
f 2>/dev/null || echo no f
--- stdout
no f

### umask in a subshell does not leak
umask 022
(umask 077)
umask
--- stdout
0022

### set options in a subshell do not leak
(set -f)
case $- in *f*) echo leaked;; *) echo clean;; esac
--- stdout
clean

### subshell inherits variables
x=inherited
(echo $x)
--- stdout
inherited

### subshell inherits functions
f() { echo from f; }
(f)
--- stdout
from f

### nested subshells
(echo 1; (echo 2; (echo 3)))
--- stdout
1
2
3

### subshell output redirected as a whole
(echo a; echo b) | wc -l
--- stdout
2

### $$ in a subshell is the parent's
p=$$
(q=$$; [ "$p" = "$q" ] && echo same)
--- stdout
same

### BASH_SUBSHELL-like depth is not needed but subshell sees positional parameters
set -- a b
(echo $#)
--- stdout
2

### background subshell and wait
(sleep 0.1; echo bg) &
wait
--- stdout
bg

### exported changes in a subshell do not leak
export E=1
(export E=2)
echo $E
--- stdout
1

### trap in subshell does not affect parent
(trap 'echo x' EXIT)
echo parent
--- stdout
x
parent

### cd in subshell pipeline stage
mkdir d
cd d | true
echo ${PWD##*/} | grep -c d
--- stdout
0
--- status
1

### subshell with redirected input
echo input > f
(read l; echo "got $l") < f
--- stdout
got input
