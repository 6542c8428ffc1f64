#!/bin/sh
# Adds up the case counts in the test logs into one closing line:
# "N passed, N failed". Criterion reports "Synthesis: Tested: .. | Passing: ..
# | Failing: .. | Crashing: ..", the other suites "N passed, N failed".
passed=0
failed=0
for log in "$@"; do
	[ -f "$log" ] || continue
	line=$(grep -E '^\[====\] Synthesis:|Synthesis: Tested:' "$log" | tail -n 1)
	if [ -n "$line" ]; then
		p=$(printf '%s\n' "$line" | sed -n 's/.*Passing: \([0-9]*\).*/\1/p')
		f=$(printf '%s\n' "$line" | sed -n 's/.*Failing: \([0-9]*\).*/\1/p')
		c=$(printf '%s\n' "$line" | sed -n 's/.*Crashing: \([0-9]*\).*/\1/p')
		passed=$((passed + ${p:-0}))
		failed=$((failed + ${f:-0} + ${c:-0}))
		continue
	fi
	for pair in $(grep -E '^[A-Za-z:]*[ ]*[0-9]+ passed, [0-9]+ failed' "$log" | sed 's/^[A-Za-z:]* *//; s/ passed, /:/; s/ failed.*//'); do
		passed=$((passed + ${pair%%:*}))
		failed=$((failed + ${pair##*:}))
	done
done
echo "$passed passed, $failed failed"
