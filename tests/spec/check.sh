#!/bin/sh
# make check entry for the spec suite: sbsh against the expected results,
# then the expectations themselves against bash and dash (differential), so
# a case cannot be wrong in the same way as the code.
set -u
. "$top_srcdir/tests/lib/report.sh"
run="$top_srcdir/tests/spec/run"
status=0
bash "$run" "$SBSH" || status=1
for ref in bash dash; do
	if command -v "$ref" >/dev/null 2>&1; then
		bash "$run" --check-reference "$ref" || status=1
	else
		missing "the expectations checked against $ref" "$ref is not installed (./bootstrap installs it)"
	fi
done
# The runs print their own counts; this line counts what was skipped here.
if [ "$skipped" -gt 0 ] || [ "$failed" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ] || status=1
fi
exit $status
