time ! a | b |& c && d || e &
{ a; b; } >x 2>&1 <<<"s"
(a; b) &
x=$( (sub) ) y=`a \`b\``
echo a\
b # comment
