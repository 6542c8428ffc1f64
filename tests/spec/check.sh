#!/bin/sh
# make check entry for the spec suite: sbsh against the expected results,
# then the expectations themselves against bash and dash (differential), so
# a case cannot be wrong in the same way as the code.
set -u
run="$top_srcdir/tests/spec/run"
status=0
bash "$run" "$SBSH" || status=1
for ref in bash dash; do
	if command -v "$ref" >/dev/null 2>&1; then
		bash "$run" --check-reference "$ref" || status=1
	else
		echo "reference shell $ref is not installed: cannot check the expectations" >&2
		status=1
	fi
done
exit $status
