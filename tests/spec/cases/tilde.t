### tilde expands to HOME
HOME=/home/someone
echo ~
--- stdout
/home/someone

### tilde slash path
HOME=/h
echo ~/dir/file
--- stdout
/h/dir/file

### quoted tilde is literal
HOME=/h
echo "~" '~' \~
--- stdout
~ ~ ~

### tilde in the middle of a word is literal
HOME=/h
echo a~ a~/b
--- stdout
a~ a~/b

### tilde after colon in assignment
HOME=/h
x=a:~/b:~
echo $x
--- stdout
a:/h/b:/h

### tilde after equals in assignment
HOME=/h
x=~/y
echo $x
--- stdout
/h/y

### tilde of root user
echo ~root
--- stdout
/root

### tilde of unknown user stays literal
echo ~nosuchuser_xyz
--- stdout
~nosuchuser_xyz

### tilde with empty HOME
HOME=
echo "[$(echo ~)]"
--- stdout
[]

### tilde result is not field split
HOME='/a b'
set -- ~
echo $#
--- stdout
1

### tilde in an argument that looks like an assignment
HOME=/h
echo x=~
--- tags bash
--- stdout
x=/h

### tilde plus is PWD
cd /
echo ~+
--- tags bash
--- stdout
/

### tilde in for list
HOME=/h
for d in ~ ~/x; do echo $d; done
--- stdout
/h
/h/x

### tilde in case pattern
HOME=/h
case /h in ~) echo match;; esac
--- stdout
match

### tilde in redirection target
echo hi > ~/f
cat "$HOME/f"
--- stdout
hi

### tilde followed by quoted slash
HOME=/h
echo ~"/x"
--- stdout
~/x
