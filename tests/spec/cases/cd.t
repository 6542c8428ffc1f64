### cd changes directory and PWD
mkdir -p sub/dir
cd sub/dir
echo ${PWD##*/}
pwd | sed 's,.*/,,'
--- stdout
dir
dir

### cd sets OLDPWD
start=$PWD
mkdir d
cd d
[ "$OLDPWD" = "$start" ] && echo oldpwd ok
--- stdout
oldpwd ok

### cd - returns and prints the directory
mkdir d
cd d
cd - > "$HOME/out.txt"
[ "$(cat out.txt)" = "$PWD" ] && echo printed
[ "$PWD" = "$HOME" ] && echo back
--- stdout
printed
back

### cd without arguments goes HOME
mkdir x
cd x
cd
[ "$PWD" = "$HOME" ] && echo home
--- stdout
home

### cd to a missing directory fails
cd /nonexistent_dir_xyz
[ $? -ne 0 ] && echo failed
--- stderr-nonempty
--- stdout
failed

### cd to a file fails
touch f
cd f
[ $? -ne 0 ] && echo failed
--- stderr-nonempty
--- stdout
failed

### cd .. goes up logically
mkdir -p a/b
cd a/b
cd ..
echo ${PWD##*/}
--- stdout
a

### pwd -L keeps symlinks and pwd -P resolves them
mkdir real
ln -s real link
cd link
echo ${PWD##*/}
pwd -L | sed 's,.*/,,'
pwd -P | sed 's,.*/,,'
--- stdout
link
link
real

### cd -P resolves symlinks
mkdir real
ln -s real link
cd -P link
echo ${PWD##*/}
--- stdout
real

### logical cd .. through a symlink
mkdir -p real/inner
ln -s real/inner link
cd link
cd ..
echo ${PWD##*/}
--- stdout
home

### physical cd .. through a symlink
mkdir -p real/inner
ln -s real/inner link
cd -P link
cd ..
echo ${PWD##*/}
--- stdout
real

### CDPATH is searched and the result printed
mkdir -p base/target
CDPATH=$PWD/base
cd target | sed 's,.*/,,'
cd target > /dev/null
echo ${PWD##*/}
--- stdout
target
target

### cd with a trailing slash
mkdir d
cd d/
echo ${PWD##*/}
--- stdout
d

### cd in a subshell does not change the parent
mkdir d
(cd d)
[ "$PWD" = "$HOME" ] && echo unchanged
--- stdout
unchanged

### pwd after cd to /
cd /
pwd
--- stdout
/

### cd with too many arguments fails
mkdir a b
cd a b
echo $?
--- tags bash
--- stderr-nonempty
--- stdout
1

### cd to an empty string
cd ''
echo $?
--- tags bash
--- stdout
0

### cd missing/.. fails although the text leads back here
cd missing/..
echo "status $?"
--- tags nodash
--- stderr-nonempty
--- stdout
status 1

### cd exports OLDPWD
mkdir d
cd d
env | grep -c '^OLDPWD='
--- stdout
1
