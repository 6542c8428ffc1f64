#!/bin/sh
# Real GNU make with SHELL=sbsh: recipes, variables, multi-line recipes,
# $(shell ...), a tiny C project, and recipes as opaque project code.
set -u
here=$(dirname "$0")
. "${top_srcdir:-$here/../..}/tests/integration/lib.sh"
require make cc
# the outer make of `make check` must not leak its flags into ours
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES GNUMAKEFLAGS

cd "$scratch" || exit 1
mkdir recipes && cd recipes || exit 1
cat > Makefile <<'MK'
NAME = world
GREETING := $(shell echo hello from $$0 | sed 's/ from .*//')
COUNT = $(words a b c)

all: vars multi shellfn bashisms

vars:
	@echo "name=$(NAME) count=$(COUNT)"

multi:
	@for i in 1 2 3; do \
		if [ $$i -eq 2 ]; then \
			echo "two"; \
		else \
			echo "item $$i"; \
		fi; \
	done
	@x=$$(printf '%s' abc | tr a-c A-C) && \
	  echo "upper $$x"

shellfn:
	@echo "greeting=$(GREETING)"

bashisms:
	@[[ "$(NAME)" == w* ]] && echo "glob match"; arr=(x y z); echo "$${arr[1]} $${#arr[@]}"

which-shell:
	@echo "$$0"

outside:
	@echo hi > "$$HOME/.sbsh-make-probe-$$PPID"

delete:
	@touch victim
	rm victim
	@echo "not reached"
MK
out=$(make -s SHELL="$SBSH" vars multi shellfn bashisms 2>&1)
check "make: variables, multi-line recipes, \$(shell), bash extensions" \
"name=world count=3
item 1
two
item 3
upper ABC
greeting=hello
glob match
y 3" "$out"

out=$(make -s SHELL="$SBSH" which-shell 2>&1)
check "make: recipes run by sbsh" "$SBSH" "$out"

# The sandbox holds inside make's recipes: $HOME is not writable.
if sandboxed "make: a write outside the project is blocked"; then
	out=$(make -s SHELL="$SBSH" outside 2>&1)
	status=$?
	rm -f "$HOME"/.sbsh-make-probe-* 2>/dev/null
	if [ "$status" -ne 0 ]; then
		check_contains "make: a write outside the project is blocked" "Permission denied" "$out"
	else
		bad "make: a write outside the project is blocked" "make succeeded: $out"
	fi
fi

# Recipes are the project's own code (policy rule 10): the sandbox bounds
# them, they are not judged one by one, so a build's `rm -f` works headless.
# The agent's own command line (here `make delete`) is judged, and SAFE.
out=$(CI=1 "$SBSH" -c 'make -s SHELL="$SBSH" delete' 2>&1)
status=$?
[ ! -e victim ] && ok "make: a recipe's rm runs headless (project code)" || bad "make: a recipe's rm runs headless" "$out"
check "make: exits 0" "0" "$status"
echo keep >victim
out=$(CI=1 "$SBSH" -c 'rm victim' 2>&1)
[ -e victim ] && ok "make: the same rm typed by the agent is refused" || bad "make: the same rm typed by the agent is refused" "$out"

# A tiny C project built with make SHELL=sbsh.
cd "$scratch" && mkdir cproj && cd cproj || exit 1
cat > util.h <<'C'
int twice(int x);
C
cat > util.c <<'C'
#include "util.h"
int twice(int x) { return 2 * x; }
C
cat > main.c <<'C'
#include <stdio.h>
#include "util.h"
int main(void) { printf("twice 21 is %d\n", twice(21)); return 0; }
C
cat > Makefile <<'MK'
CC ?= cc
CFLAGS = -O2 -Wall
OBJS = main.o util.o
SRCS := $(wildcard *.c)
VERSION := $(shell printf '1.%s' "$$(echo $(SRCS) | wc -w | tr -d ' ')")

app: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $(OBJS)
	@echo "built app $(VERSION)"

%.o: %.c util.h
	$(CC) $(CFLAGS) -c $< -o $@

check: app
	@out=$$(./app); \
	test "$$out" = "twice 21 is 42" && echo "check ok"

.PHONY: check
MK
out=$(make SHELL="$SBSH" -j2 check 2>&1)
status=$?
check "make: C project builds (status)" "0" "$status"
check_contains "make: C project version from \$(shell)" "built app 1.2" "$out"
check_contains "make: C project runs" "check ok" "$out"
[ -x app ] && [ -f main.o ] && [ -f util.o ] && ok "make: C project outputs exist" || bad "make: C project outputs exist"
out=$(make SHELL="$SBSH" -q app 2>&1; echo "status $?")
check "make: up to date afterwards" "status 0" "$out"

finish
