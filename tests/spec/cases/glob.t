### star matches files
touch a.c b.c c.h
echo *.c
--- stdout
a.c b.c

### question mark matches one character
touch a1 a22 b1
echo a?
--- stdout
a1

### bracket expression
touch a b c d
echo [a-c]
--- stdout
a b c

### negated bracket expression
touch a b c d
echo [!a-c]
--- stdout
d

### no match leaves the pattern
echo *.nomatch
--- stdout
*.nomatch

### results are sorted
touch zeta alpha Mid beta
echo *
--- stdout
Mid alpha beta zeta

### hidden files are not matched by star
touch .hidden visible
echo *
--- stdout
visible

### dot pattern matches hidden files
touch .hidden visible
echo .h*
--- stdout
.hidden

### glob in subdirectory
mkdir d
touch d/x d/y
echo d/*
--- stdout
d/x d/y

### glob across directories
mkdir d1 d2
touch d1/f d2/f
echo */f
--- stdout
d1/f d2/f

### set -f disables globbing
touch a b
set -f
echo *
--- stdout
*

### quoted star is literal
touch a b
echo "*" '*'
--- stdout
* *

### glob from a variable is expanded
touch a1 a2
p='a*'
echo $p
--- stdout
a1 a2

### glob from a quoted variable is not expanded
touch a1 a2
p='a*'
echo "$p"
--- stdout
a*

### partly quoted glob
touch 'a*1' a21
echo 'a*'*
--- stdout
a*1

### backslash escapes glob character
touch 'a*' ab
echo a\*
--- stdout
a*

### character class
touch a 1 B
echo [[:digit:]] [[:upper:]]
--- stdout
1 B

### glob matches nothing and nullglob off keeps word
set -- *.none
echo $#
--- stdout
1

### nullglob removes unmatched patterns
shopt -s nullglob
set -- *.none
echo $#
--- tags bash
--- stdout
0

### slash must be matched literally
mkdir d
touch d/f
echo d*f
echo d?f
--- stdout
d*f
d?f

### bracket with a slash does not match slash
mkdir d
touch d/f
echo d[/]f
--- stdout
d[/]f

### glob in case is not pathname expansion
touch abc
case xyz in *) echo matched;; esac
--- stdout
matched

### glob with a dotfile explicitly
touch .a .b c
echo .[ab]
--- stdout
.a .b

### bracket expression with a right bracket first
touch ']' a
echo []a]
--- stdout
] a

### pattern with a directory that does not exist
echo nodir/*
--- stdout
nodir/*

### glob in assignment is not expanded
touch a1
x=a*
echo "$x"
--- stdout
a*

### glob in redirection target is not expanded in posix mode
(set -o posix) 2>/dev/null && set -o posix
touch only.txt
echo data > o*.txt
cat only.txt
ls
--- stdout
o*.txt
only.txt

### glob in redirection target names the one file it matches
touch only.txt
echo data > o*.txt
cat only.txt
ls
--- tags bash
--- stdout
data
only.txt

### glob in redirection target matching two files is ambiguous
touch a1 a2
echo data > a*
echo "status $?"
cat a1 a2
--- tags bash
--- stderr-nonempty
--- stdout
status 1

### many files
i=0
while [ $i -lt 200 ]; do : > f$i; i=$((i+1)); done
set -- f*
echo $#
--- stdout
200

### shopt -s globstar: ** matches zero or more folders, not through links
mkdir -p a/b c real .hid
touch a/b/x.txt y.txt real/r.txt .hid/h.txt c/.d.txt
ln -s real sl
shopt -s globstar
echo 1: **
echo 2: **/*.txt
echo 3: a/**
echo 4: **/
echo 5: a/**/x.txt x**
shopt -s dotglob
echo 6: **/*.txt
shopt -u globstar
echo 7: **/*.txt
--- tags bash
--- stdout
1: a a/b a/b/x.txt c real real/r.txt sl y.txt
2: a/b/x.txt real/r.txt y.txt
3: a/ a/b a/b/x.txt
4: a/ a/b/ c/ real/ sl/
5: a/b/x.txt x**
6: .hid/h.txt a/b/x.txt c/.d.txt real/r.txt y.txt
7: .hid/h.txt c/.d.txt real/r.txt sl/r.txt

### extglob groups in [[ == ]] need no option
[[ --help == --@(help|verbose) ]] && echo one
[[ --oops == --@(help|verbose) ]] || echo none
[[ abab == +(ab) ]] && echo plus
[[ '' == *(ab) ]] && echo star
[[ aba == +(ab) ]] || echo partial
--- tags bash
--- stdout
one
none
plus
star
partial

### shopt -s extglob: case, ${x%pat} and !( )
shopt -s extglob
case main.c in *.@(c|h)) echo source ;; *) echo other ;; esac
x=foofoobar
echo ${x##+(foo)} ${x%@(bar)} ${x//@(o|b)/_}
case ac in !(ab)) echo not-ab ;; esac
case ab in !(ab)) echo wrong ;; *) echo is-ab ;; esac
--- tags bash
--- stdout
source
bar foofoo f__f___ar
not-ab
is-ab

### shopt extglob can be queried and turned off
shopt -q extglob; echo $?
shopt -s extglob; shopt -q extglob; echo $?
shopt -u extglob; shopt -q extglob; echo $?
--- tags bash
--- stdout
1
0
1

### shopt -s extglob in a script file applies to the lines after it
shopt -s extglob
case lib.h in *.@(c|h)) echo header ;; esac
v=aaab
echo ${v##+(a)}
--- mode file
--- tags bash
--- stdout
header
b

### shopt -s extglob in a sourced file applies to its later lines
printf '%s\n' 'shopt -s extglob' 'case x.py in !(*.sh)) echo not-shell ;; esac' > lib.sh
. ./lib.sh
case y.sh in !(*.sh)) echo wrong ;; *) echo shell ;; esac
--- tags bash
--- stdout
not-shell
shell

### extglob groups match file names
shopt -s extglob
touch aa ab ac ba 'a b'
echo @(aa|ba)
echo !(a*)
echo a+([bc])
echo @(a b|zz)
shopt -s nullglob
echo x@(no|ne)
echo end
--- mode file
--- tags bash
--- stdout
aa ba
ba
ab ac
a b

end

### a quoted dash in a bracket expression is a plain character
touch x.- x.C x.E
echo x.[C\-E]
echo x.[C"-"E]
case - in [a\-z]) echo dash ;; esac
--- stdout
x.- x.C x.E
x.- x.C x.E
dash

### quoted extglob text in [[ == ]] is not a pattern
[[ cc == @(cc) ]] && echo group
[[ cc == '@(cc)' ]] || echo quoted
[[ '@(cc)' == '@(cc)' ]] && echo literal
--- tags bash
--- stdout
group
quoted
literal

### !( ) after == in [[ ]] needs no shopt
[[ --oops == --!(help|verbose) ]] && echo other
[[ --help == --!(help|verbose) ]] || echo listed
[[ !(x) ]] || echo negation
--- tags bash
--- stdout
other
listed
negation

### shopt -u globskipdots lets .* match . and ..
touch .h
echo .*
shopt -u globskipdots
echo .*
--- tags bash
--- stdout
.h
. .. .h

### two globstars in a row list each path once
shopt -s globstar
mkdir -p c/sub
touch top.md c/a.md c/sub/b.md
echo **/**/*.md
--- tags bash
--- stdout
c/a.md c/sub/b.md top.md
