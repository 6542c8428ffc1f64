### errors in a script read from stdin name the line
echo a
{ no_such_command_xyz; } 2>&1 | sed 's/^[^:]*: //; s/: .*//'

( echo $((1+)) ) 2>&1 | sed 's/^[^:]*: //; s/: .*//'
--- mode stdin
--- tags bash
--- stdout
a
line 2
line 4

### a syntax error in a script read from stdin names its line
echo a
echo b
)
--- mode stdin
--- tags bash
--- stdout
a
b
--- stderr-nonempty
--- status
2
