# Shared by the integration tests: the counters and checks of
# tests/lib/report.sh, an absolute SBSH, and a scratch folder. Each test
# prints "N passed, N failed" last and exits 1 when any failed, 77
# (skipped) when the tool it drives is not installed (require).
: "${SBSH:?SBSH must name the sbsh binary}"
case $SBSH in /*) ;; *) SBSH=$(cd "$(dirname "$SBSH")" && pwd)/$(basename "$SBSH") ;; esac
export SBSH
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/report.sh"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/sbsh-it.XXXXXX")
# Nobody's own config or allow-list changes what the tests see. They lie
# outside the scratch folder: one holding sbsh's own folders is never the
# project.
xdg=$(mktemp -d "${TMPDIR:-/tmp}/sbsh-it-xdg.XXXXXX")
trap 'rm -rf "$scratch" "$xdg"' EXIT
export XDG_CONFIG_HOME="$xdg/config"
export XDG_STATE_HOME="$xdg/state"
mkdir -p "$XDG_CONFIG_HOME/sbsh" "$XDG_STATE_HOME"
