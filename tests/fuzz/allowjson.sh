#!/bin/sh
# The allow-list JSON fuzzer for SBSH_FUZZ_SECONDS (30 by default).
exec sh "$top_srcdir/tests/fuzz/run.sh" allowjson
