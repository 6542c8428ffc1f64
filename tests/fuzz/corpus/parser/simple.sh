echo hello "world $x" >out 2>&1 | cat && a=1 b[2]+=x ls || true &
