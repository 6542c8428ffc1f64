cat <<EOF; cat <<-"X"
hello $x $(date)
EOF
	quoted $y
	X
x=$(cat <<E
inner
E
)
