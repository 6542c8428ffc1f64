#!/bin/sh
# Runs one fuzzer (default: the parser; classify.sh and the others name
# theirs) for a fixed time on a scratch copy of its seed corpus (the
# source tree may be read-only, as in distcheck). Every seed is a
# regression case: crashes once found are kept in the corpus.
set -eu
. "$top_srcdir/tests/lib/report.sh"
name=${1:-parser}
case $name in
parser) default=60 ;;
*) default=30 ;;
esac
seconds=${SBSH_FUZZ_SECONDS:-$default}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
cp "$top_srcdir"/tests/fuzz/corpus/"$name"/* "$work/corpus/" 2>/dev/null || true
./tests/fuzz/fuzz_"$name" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
	-rss_limit_mb=2048 -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" >"$work/log" 2>&1 || {
	tail -n 60 "$work/log" >&2
	for f in "$work"/crash-* "$work"/timeout-* "$work"/leak-* "$work"/oom-*; do
		[ -f "$f" ] && { echo "input that failed ($f):" >&2; od -c "$f" | head -n 20 >&2; }
	done
	bad "fuzz_$name for $seconds s"
	finish
}
grep -E '^#[0-9]+.*DONE' "$work/log" || tail -n 3 "$work/log"
grep -E '^stat::number_of_executed_units' "$work/log" || true
ok "fuzz_$name for $seconds s"
finish
