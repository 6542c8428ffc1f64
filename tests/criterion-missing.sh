#!/bin/sh
# Stands in for the unit tests when configure found no Criterion: a missing
# test framework must fail the run, not shrink it.
echo "Criterion was not found by configure: the unit tests cannot run." >&2
echo "Install it with: apt-get install libcriterion-dev (./bootstrap does this)" >&2
exit 1
