### compgen -A function and -A alias list the names that start with the word
zqf2() { :; }
zqf1() { :; }
other() { :; }
alias zqa=x zqb=y
compgen -A function zq
compgen -A alias zq
compgen -a zqb
--- tags bash
--- stdout
zqf1
zqf2
zqa
zqb
zqb

### compgen -b and -A builtin list builtins
compgen -b ec
compgen -A builtin re
--- tags bash
--- stdout
echo
read
readarray
readonly
return

### compgen -c lists aliases, functions and builtins among commands
alias zqcmd_a=x
zqcmd_f() { :; }
compgen -c zqcmd
compgen -A command ech | sort -u
--- tags bash
--- stdout
zqcmd_a
zqcmd_f
echo

### compgen -k lists reserved words in bash's order
compgen -k e
compgen -A keyword d
--- tags bash
--- stdout
else
elif
esac
do
done

### compgen -v and -e: set variables, exported ones
zqv1=1
export zqv2=2
declare zqv3
export zqv4
zqarr=(a b)
compgen -v zq
echo --
compgen -A export zq
echo --
compgen -A variable zqv2
--- tags bash
--- stdout
zqarr
zqv1
zqv2
--
zqv2
--
zqv2

### compgen -f and -d list files and folders by the word's folder part
mkdir dir dir/sub
touch file dir/inner .hidden
compgen -f fi
compgen -A file dir/
compgen -f dir/i
compgen -d
compgen -A directory di
compgen -f . | sort
--- tags bash
--- stdout
file
dir/inner
dir/sub
dir/inner
dir
dir
.
..
.hidden

### compgen -W splits by IFS and filters by the word
compgen -W 'alpha beta  alpine' al
IFS=,
compgen -W 'x y,z'
--- tags bash
--- stdout
alpha
alpine
x y
z

### compgen -W expands each word, without pathname expansion
touch f1 f2
v='p q'
compgen -W '$v "r s" $(echo t) *'
[ "$(compgen -W '~')" = "$HOME" ] && echo tilde
--- tags bash
--- stdout
p
q
r s
t
*
tilde

### compgen -P -S add text, -X drops what matches, !-X what does not
compgen -W 'ab ac b' -P '<' -S '>' a
compgen -W 'ab ac b' -X 'a*'
compgen -W 'ab ac b' -X '!a*'
compgen -W 'ab ac b' -X '&c' a
--- tags bash
--- stdout
<ab>
<ac>
b
ab
ac
ab

### compgen -u lists users
compgen -u roo
--- tags bash
--- stdout
root

### compgen exits 1 when nothing matches
compgen -W 'a b' c; echo $?
compgen -f nosuchfile; echo $?
compgen -A function nosuchfunc; echo $?
compgen -W a -X '*'; echo $?
--- tags bash
--- stdout
1
1
1
1

### compgen rejects an unknown action
compgen -A nosuchaction
--- tags bash
--- stderr-nonempty
--- status
2

### compgen -o plusdirs adds folders after the matches
mkdir qdir
compgen -o plusdirs -W 'qword other' q
--- tags bash
--- stdout
qword
qdir

### compgen -G lists what a pattern matches, not matched to the word
touch a1 a2 b1
compgen -G 'a*' b | sort
compgen -G 'z*'; echo $?
--- tags bash
--- stdout
a1
a2
1

### compgen -A signal, -A setopt and -g list signals, set -o names, groups
compgen -A signal SIGT
compgen -A setopt nou
compgen -A setopt pi
compgen -g roo
--- tags bash
--- stdout
SIGTRAP
SIGTERM
SIGTSTP
SIGTTIN
SIGTTOU
nounset
pipefail
root

### compgen -f reads a quoted ~/ in the home folder and keeps the ~
mkdir zqsub
touch zqsub/zqfile
compgen -d '~/zq'
compgen -f '~/zqsub/'
--- tags bash
--- stdout
~/zqsub
~/zqsub/zqfile

### compgen -o dirnames and -o default list folders or files when nothing matched
mkdir qdir
touch qfile
compgen -o dirnames -W 'qword' q
echo --
compgen -o dirnames -W 'other' q
echo --
compgen -o default -W 'other' qf
echo --
compgen -o dirnames -X 'q*' -W 'qword' q
--- tags bash
--- stdout
qword
--
qdir
--
qfile
--
qdir
