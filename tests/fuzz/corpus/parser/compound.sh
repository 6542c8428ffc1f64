if a; then b; elif c; then d; else e; fi
while true; do break; done
for i in 1 2; do echo $i; done
for ((i=0;i<3;i++)); do :; done
case $x in a|b) echo;; (c) x;& *) y;;& esac
