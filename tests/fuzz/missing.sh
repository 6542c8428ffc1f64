#!/bin/sh
# Stands in for the libFuzzer harnesses when configure found no clang that
# links -fsanitize=fuzzer: the fuzz suites are reported as skipped (a
# failure under SBSH_TEST_STRICT) instead of vanishing from the run.
. "$top_srcdir/tests/lib/report.sh"
skip_all "the libFuzzer harnesses are not built: configure found no clang that links -fsanitize=fuzzer, or was given --disable-fuzz (Debian: apt-get install clang libclang-rt-14-dev; ./bootstrap does this)"
