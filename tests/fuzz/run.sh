#!/bin/sh
# Runs the parser fuzzer for a fixed time on a scratch copy of the seed
# corpus (the source tree may be read-only, as in distcheck).
set -eu
seconds=${SBSH_FUZZ_SECONDS:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
cp "$top_srcdir"/tests/fuzz/corpus/parser/* "$work/corpus/" 2>/dev/null || true
./tests/fuzz/fuzz_parser -max_total_time="$seconds" -max_len=4096 -timeout=10 \
	-rss_limit_mb=2048 -artifact_prefix="$work/" "$work/corpus" 2>"$work/log" || {
	tail -n 60 "$work/log" >&2
	for f in "$work"/crash-* "$work"/timeout-* "$work"/leak-* "$work"/oom-*; do
		[ -f "$f" ] && { echo "input that failed ($f):" >&2; od -c "$f" | head -n 20 >&2; }
	done
	exit 1
}
grep -E '^#[0-9]+.*DONE' "$work/log" || tail -n 3 "$work/log"
echo "1 passed, 0 failed"
