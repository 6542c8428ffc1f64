echo `echo \`echo hi\``  $(( 1 + $(echo 2) )) $((echo a); (echo b)) <(ls) >(cat) $'\x41\t'
a=(1 "2 3" $(x)) declare -a b=(y z)
