### getopts parses simple options
set -- -a -b
while getopts ab opt; do echo "opt $opt"; done
echo "OPTIND $OPTIND"
--- stdout
opt a
opt b
OPTIND 3

### getopts with an argument
set -- -f file -v rest
while getopts f:v opt; do
  case $opt in
    f) echo "file=$OPTARG";;
    v) echo verbose;;
  esac
done
shift $((OPTIND - 1))
echo "rest=$1"
--- stdout
file=file
verbose
rest=rest

### getopts with bundled options
set -- -abc
while getopts abc opt; do echo $opt; done
--- stdout
a
b
c

### getopts with attached argument
set -- -ofile
getopts o: opt
echo "$opt $OPTARG"
--- stdout
o file

### getopts invalid option prints a message and sets ?
set -- -z
getopts ab opt
echo "$opt"
--- stderr-nonempty
--- stdout
?

### getopts silent mode with leading colon
set -- -z
getopts :ab opt
echo "$opt $OPTARG"
--- stdout
? z

### getopts missing argument in silent mode
set -- -f
getopts :f: opt
echo "$opt $OPTARG"
--- stdout
: f

### getopts missing argument normal mode
set -- -f
getopts f: opt
echo "$opt"
echo "[${OPTARG-unset}]"
--- stderr-nonempty
--- stdout
?
[unset]

### getopts stops at --
set -- -a -- -b
while getopts ab opt; do echo $opt; done
echo $OPTIND
--- stdout
a
3

### getopts stops at a non-option
set -- -a file -b
while getopts ab opt; do echo $opt; done
echo $OPTIND
--- stdout
a
2

### getopts returns false at the end
set --
getopts a opt
echo $?
--- stdout
1

### getopts with explicit arguments
getopts xy opt -y
echo $opt
--- stdout
y

### resetting OPTIND restarts parsing
set -- -a
getopts a opt; echo $opt
OPTIND=1
getopts a opt; echo $opt
--- stdout
a
a

### getopts in a function
f() {
  local OPTIND=1 o
  while getopts n: o; do echo "n=$OPTARG"; done
}
f -n 1
f -n 2
--- tags bash
--- stdout
n=1
n=2

### getopts sets opt to ? at the end
set -- -a
getopts a opt
getopts a opt
echo "$? $opt"
--- stdout
1 ?

### OPTIND left past new, shorter arguments stops at $# + 1
set -- -a -b c d
while getopts ab opt; do :; done
echo $OPTIND
set -- x
getopts ab opt; echo $? $OPTIND
set --
getopts ab opt; echo $? $OPTIND
--- tags bash
--- stdout
3
1 2
1 1
