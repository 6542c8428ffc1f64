# Shared by the shell suites: counting cases, and the closing line that
# tests/summarize.sh adds up, "N passed, N failed" (", N skipped" when some
# were). POSIX sh; source it before the first case:
#   . "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/report.sh"
# A suite that cannot run its subject here (a tool or kernel feature is
# missing) calls skip_all and exits 77, automake's SKIP. With
# SBSH_TEST_STRICT set (.ci/run sets it), what would be skipped for a
# missing tool or feature fails instead: CI must not pass an empty run.
passed=0 failed=0 skipped=0

report_strict() {
	case ${SBSH_TEST_STRICT:-} in '' | 0 | false | no) return 1 ;; esac
	return 0
}

ok() { passed=$((passed + 1)); echo "ok   $1"; }

# bad NAME [DETAIL...]: each DETAIL is printed under the name, indented.
bad() {
	failed=$((failed + 1))
	echo "FAIL $1"
	shift
	for report_detail in "$@"; do
		[ -n "$report_detail" ] && printf '%s\n' "$report_detail" | sed 's/^/     /'
	done
	return 0
}

# check_status STATUS NAME: ok when STATUS (a test's $?) is 0.
check_status() { if [ "$1" = 0 ]; then ok "$2"; else bad "$2"; fi; }

# check NAME EXPECTED ACTUAL
check() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		bad "$1" "expected: $(printf '%s' "$2" | head -c 600)" "actual:   $(printf '%s' "$3" | head -c 600)"
	fi
}

# check_contains NAME NEEDLE HAYSTACK
check_contains() {
	case $3 in
	*"$2"*) ok "$1" ;;
	*) bad "$1" "expected to contain: $2" "actual: $(printf '%s' "$3" | tail -c 1200)" ;;
	esac
}

# skip NAME WHY: a case that does not apply to this run (not root, a kernel
# below the ABI the case needs): counted as skipped, even under strict.
skip() { skipped=$((skipped + 1)); echo "skip $1 ($2)"; }

# missing NAME WHY: a case whose tool or kernel feature is missing here:
# skipped, or a failure under SBSH_TEST_STRICT.
missing() {
	if report_strict; then
		bad "$1" "$2; SBSH_TEST_STRICT is set: what is missing fails"
	else
		skip "$1" "$2"
	fi
}

# skip_all WHY: the whole suite cannot run here. One line says why; the
# exit status is 77 (SKIP), or 1 under SBSH_TEST_STRICT.
skip_all() {
	if report_strict; then
		echo "FAIL: $1; SBSH_TEST_STRICT is set: a suite that cannot run fails"
		echo "$passed passed, $((failed + 1)) failed"
		exit 1
	fi
	echo "SKIP: $1"
	exit 77
}

# require TOOL...: skip_all unless every TOOL is on PATH.
require() {
	for report_tool in "$@"; do
		command -v "$report_tool" >/dev/null 2>&1 ||
			skip_all "$report_tool is not installed (./bootstrap installs it)"
	done
}

# landlock_abi: the Landlock ABI $SBSH finds on this kernel (0: none).
landlock_abi() {
	report_abi=$("$SBSH" --doctor --json 2>/dev/null | sed -n 's/.*"abi": \([0-9]*\).*/\1/p' | head -n 1)
	echo "${report_abi:-0}"
}

# sandboxed NAME: true when $SBSH can confine itself here; otherwise the
# case NAME is missing (see missing), and false.
sandboxed() {
	[ "$(landlock_abi)" -ge 1 ] && return 0
	missing "$1" "Landlock is not available on this kernel: the case needs the sandbox"
	return 1
}

# finish: the closing line; exits 1 when a case failed, else 0.
finish() {
	if [ "$skipped" -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ "$failed" -eq 0 ]
	exit $?
}
