#!/bin/bash
# Real builds inside the sandbox, each with HOME a fresh folder so the
# package caches are created on first use: npm install from the registry
# and npm test, cargo build --offline, go build and go test, a venv with
# pip installing a local package, and sbsh's own ./configure && make.
# Every check runs `sbsh --sandbox -c ...` and looks at the result from
# outside. A toolchain that is missing is skipped, and a failure under
# SBSH_TEST_STRICT: ./bootstrap installs them all.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/report.sh"
[ "$(landlock_abi)" -ge 1 ] || skip_all "Landlock is not available on this kernel: every build runs in the sandbox"

real_home=${HOME:-/root}
# The fresh HOME must not contain the projects (the sandbox never grants an
# ancestor of HOME) nor lie under a temp folder (that would make it writable).
home=$(mktemp -d "$real_home/.sbsh-builds-home.XXXXXX")
work=$(mktemp -d "$real_home/.sbsh-builds-work.XXXXXX")
trap 'rm -rf "$home" "$work"' EXIT

# sb DIR SCRIPT: runs SCRIPT sandboxed in DIR with the fresh HOME.
sb() {
	(cd "$1" && env -i PATH="$PATH" HOME="$home" TMPDIR=/tmp CI=1 LANG=C.UTF-8 \
		${RUSTUP_HOME:+RUSTUP_HOME="$RUSTUP_HOME"} \
		timeout 600 "$SBSH" --sandbox -c "$2") >"$work/out" 2>&1
}
why() { tail -n 15 "$work/out"; }

# ---- npm ----------------------------------------------------------------------
if command -v npm >/dev/null; then
	mkdir -p "$work/npm"
	cat >"$work/npm/package.json" <<'EOF'
{ "name": "sbsh-npm-check", "version": "1.0.0", "private": true,
  "scripts": { "test": "node -e \"require('is-number')(3) || process.exit(1); console.log('npm-test-ok')\"" } }
EOF
	if sb "$work/npm" 'npm install --no-audit --no-fund is-number@7.0.0 && npm test' &&
		grep -q npm-test-ok "$work/out" && [ -d "$work/npm/node_modules/is-number" ] &&
		[ -d "$home/.cache/sbsh/sandbox-caches/npm/_cacache" ] && [ ! -e "$home/.npm" ]; then
		ok "npm install from the registry and npm test"
	else
		bad "npm install and npm test" "$(why)"
	fi
else
	missing "npm install and npm test" "npm is not installed (./bootstrap installs it)"
fi

# ---- cargo --------------------------------------------------------------------
if command -v cargo >/dev/null; then
	# rustup's cargo finds its toolchains through RUSTUP_HOME, which the
	# fresh HOME would hide.
	[ -d "$real_home/.rustup" ] && export RUSTUP_HOME=${RUSTUP_HOME:-$real_home/.rustup}
	mkdir -p "$work/cargo/src"
	printf '[package]\nname = "sbshcheck"\nversion = "0.1.0"\nedition = "2018"\n\n[dependencies]\n' >"$work/cargo/Cargo.toml"
	printf 'fn main() { println!("cargo-ok"); }\n' >"$work/cargo/src/main.rs"
	if sb "$work/cargo" 'cargo build --offline && ./target/debug/sbshcheck' && grep -q cargo-ok "$work/out"; then
		ok "cargo build --offline"
	else
		bad "cargo build --offline" "$(why)"
	fi
else
	missing "cargo build --offline" "cargo is not installed (./bootstrap installs it)"
fi

# ---- go -----------------------------------------------------------------------
if command -v go >/dev/null; then
	mkdir -p "$work/go"
	printf 'module example.com/sbshcheck\n\ngo 1.19\n' >"$work/go/go.mod"
	printf 'package main\n\nimport "fmt"\n\nfunc Add(a, b int) int { return a + b }\n\nfunc main() { fmt.Println("go-ok", Add(1, 2)) }\n' >"$work/go/main.go"
	printf 'package main\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal("add")\n\t}\n}\n' >"$work/go/main_test.go"
	if sb "$work/go" 'go build -o check . && ./check && go test ./...' && grep -q 'go-ok 3' "$work/out" &&
		grep -q '^ok' "$work/out"; then
		ok "go build and go test"
	else
		bad "go build and go test" "$(why)"
	fi
else
	missing "go build and go test" "go is not installed (./bootstrap installs golang-go)"
fi

# ---- python venv + pip --------------------------------------------------------------
py=/usr/bin/python3
if [ -x "$py" ] && "$py" -c 'import venv, ensurepip' 2>/dev/null; then
	mkdir -p "$work/py/sbshcheck"
	printf 'def hello():\n    return "py-ok"\n' >"$work/py/sbshcheck/__init__.py"
	printf 'from setuptools import setup\nsetup(name="sbshcheck", version="0.1", packages=["sbshcheck"])\n' >"$work/py/setup.py"
	if sb "$work/py" "$py -m venv .venv && .venv/bin/pip install --no-index --no-build-isolation . && .venv/bin/python -c 'import sbshcheck; print(sbshcheck.hello())'" &&
		grep -q py-ok "$work/out"; then
		ok "python3 -m venv and pip install of a local package"
	else
		bad "python3 venv and pip install" "$(why)"
	fi
else
	missing "python3 venv and pip install" "python3-venv is not installed (./bootstrap installs it)"
fi

# ---- sbsh's own configure && make ----------------------------------------------------
src=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
mkdir -p "$work/self"
# Times are kept (-p): with configure older than aclocal.m4 make would remake
# the Makefile through config.status, a script written in the session.
if [ -d "$src/.git" ] && command -v git >/dev/null; then
	git -C "$src" ls-files -z | (cd "$src" && xargs -0 cp -p --parents -t "$work/self")
	cp -p "$src/configure" "$src/Makefile.in" "$src/config.h.in" "$src/aclocal.m4" "$work/self/" 2>/dev/null
	cp -rp "$src/build-aux" "$work/self/" 2>/dev/null
else
	cp -rp "$src/." "$work/self/"
fi
chmod -R u+w "$work/self" # distcheck's source tree is read-only
if [ -x "$work/self/configure" ]; then
	# configure runs under sbsh itself (CONFIG_SHELL) and make uses sbsh as
	# its SHELL; the config.h it writes must equal the one dash writes.
	cp -r "$work/self" "$work/self-dash"
	(cd "$work/self-dash" && CONFIG_SHELL=/bin/dash dash ./configure -q >/dev/null 2>&1)
	if sb "$work/self" "CONFIG_SHELL=\"$SBSH\" \"$SBSH\" ./configure -q && make -j2 SHELL=\"$SBSH\" sbsh && ./sbsh --no-sandbox -c 'echo self-build-ok'" &&
		grep -q self-build-ok "$work/out"; then
		ok "sbsh's own configure (run by sbsh) and make SHELL=sbsh, in the sandbox"
	else
		bad "sbsh's own configure && make" "$(why)"
	fi
	if [ -f "$work/self-dash/config.h" ] && cmp -s "$work/self/config.h" "$work/self-dash/config.h"; then
		ok "configure under sbsh writes the same config.h as under dash"
	else
		bad "configure under sbsh writes the same config.h as under dash" "$(diff "$work/self/config.h" "$work/self-dash/config.h" 2>&1 | head -5)"
	fi
else
	bad "sbsh's own ./configure && make" "no configure script in $src (run ./bootstrap)"
fi

finish
