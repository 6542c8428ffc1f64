#!/bin/sh
# Adds up the case counts in the test logs into one closing line:
# "N passed, N failed, N skipped (N suites)". Criterion reports "Synthesis:
# Tested: .. | Passing: .. | Failing: .. | Crashing: ..", the other suites
# "N passed, N failed" (", N skipped" when some cases were). A suite that
# was skipped as a whole (exit 77: automake's .trs says SKIP) is named on a
# line of its own with its reason and counts as one skipped; a suite that
# failed without counting a failed case (it crashed, or stopped early)
# counts as one failed.
#   usage: tests/summarize.sh SUITE.log...
passed=0
failed=0
skipped=0
suites=0
for log in "$@"; do
	[ -f "$log" ] || continue
	suites=$((suites + 1))
	suite_failed=0
	line=$(grep -E '^\[====\] Synthesis:|Synthesis: Tested:' "$log" | tail -n 1)
	if [ -n "$line" ]; then
		p=$(printf '%s\n' "$line" | sed -n 's/.*Passing: \([0-9]*\).*/\1/p')
		f=$(printf '%s\n' "$line" | sed -n 's/.*Failing: \([0-9]*\).*/\1/p')
		c=$(printf '%s\n' "$line" | sed -n 's/.*Crashing: \([0-9]*\).*/\1/p')
		passed=$((passed + ${p:-0}))
		suite_failed=$((${f:-0} + ${c:-0}))
	else
		# "P:F:S" for each count line of the log.
		for counts in $(grep -E '^[A-Za-z:]*[ ]*[0-9]+ passed, [0-9]+ failed' "$log" |
			sed 's/^[A-Za-z:]* *//; s/ passed, /:/; s/ failed, \([0-9]*\) skipped.*/:\1/; s/ failed.*//'); do
			p=${counts%%:*}
			rest=${counts#*:}
			f=${rest%%:*}
			s=0
			case $rest in *:*) s=${rest#*:} ;; esac
			passed=$((passed + p))
			suite_failed=$((suite_failed + f))
			skipped=$((skipped + s))
		done
	fi
	result=$(sed -n 's/^:test-result: *//p' "${log%.log}.trs" 2>/dev/null | head -n 1)
	case $result in
	SKIP)
		skipped=$((skipped + 1))
		why=$(sed -n 's/^SKIP: *//p' "$log" | head -n 1)
		echo "skipped suite ${log%.log}: ${why:-no reason given}"
		;;
	FAIL | ERROR)
		[ "$suite_failed" -gt 0 ] || suite_failed=1
		;;
	esac
	failed=$((failed + suite_failed))
done
echo "$passed passed, $failed failed, $skipped skipped ($suites suites)"
