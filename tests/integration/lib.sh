# Shared by the integration tests: counters, checks and a scratch folder.
# Each test prints "N passed, N failed" last and exits 1 when any failed,
# 77 (skipped) when the tool it drives is not installed.
: "${SBSH:?SBSH must name the sbsh binary}"
case $SBSH in /*) ;; *) SBSH=$(cd "$(dirname "$SBSH")" && pwd)/$(basename "$SBSH") ;; esac
export SBSH

passed=0
failed=0
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sbsh-it.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# Nobody's own config or allow-list changes what the tests see.
export XDG_CONFIG_HOME="$scratch/config"
export XDG_STATE_HOME="$scratch/state"
mkdir -p "$XDG_CONFIG_HOME/sbsh" "$XDG_STATE_HOME"

ok() { passed=$((passed + 1)); echo "ok   $1"; }
not_ok() { failed=$((failed + 1)); echo "FAIL $1"; shift; for l in "$@"; do printf '       %s\n' "$l"; done; }

# check NAME EXPECTED ACTUAL
check() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "expected: $(printf '%s' "$2" | head -c 600)" "actual:   $(printf '%s' "$3" | head -c 600)"
	fi
}

# check_contains NAME NEEDLE HAYSTACK
check_contains() {
	case $3 in
	*"$2"*) ok "$1" ;;
	*) not_ok "$1" "expected to contain: $2" "actual: $(printf '%s' "$3" | tail -c 1200)" ;;
	esac
}

require() {
	for tool in "$@"; do
		if ! command -v "$tool" >/dev/null 2>&1; then
			echo "SKIP: $tool is not installed (./bootstrap installs it)"
			echo "0 passed, 0 failed"
			exit 77
		fi
	done
}

finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}
