#!/bin/sh
# The command lines agent tools really send to their SHELL, run unchanged by
# sbsh: login shells, a snapshot of the user's functions and aliases, eval
# with stdin closed, `pwd -P >|` into a file; `bash` shims for tools that
# hard-code bash; git aliases and hooks under a sandboxed git.
set -u
here=$(dirname "$0")
. "${top_srcdir:-$here/../..}/tests/integration/lib.sh"

home=$scratch/home
work=$scratch/work
mkdir -p "$home" "$work"
cat > "$home/.profile" <<'SH'
export FROM_PROFILE=yes
SH
cd "$work" || exit 1

# Login shell, as tools that want the user's PATH send it.
out=$(HOME=$home "$SBSH" -l -c 'echo ok' 2>&1)
check "-l -c 'echo ok'" "ok" "$out"
out=$(HOME=$home "$SBSH" -lc 'echo "profile=$FROM_PROFILE"' 2>&1)
check "-lc reads ~/.profile" "profile=yes" "$out"
out=$(HOME=$home "$SBSH" -c -l 'echo "$FROM_PROFILE $0"' 2>&1)
check "-c -l (options after -c)" "yes $SBSH" "$out"

# A shell snapshot such as Claude Code writes: functions (some through
# base64 and eval), shell options, aliases, PATH.
greet_b64=$(printf 'greet () {\n  echo "hello, $1"\n}\n' | base64 | tr -d '\n')
cat > snapshot.sh <<SH
# Snapshot file
# Unset all aliases to avoid conflicts with functions
unalias -a 2>/dev/null || true
# Functions
eval "\$(echo '$greet_b64' | base64 -d)" > /dev/null 2>&1
mkcd () {
    mkdir -p -- "\$1" && cd -- "\$1"
}
__private_helper () { printf '%s\n' "\$*"; }
# Shell Options
shopt -u extglob 2>/dev/null || true
shopt -s expand_aliases
set +o vi 2>/dev/null || true
# Aliases
alias -- ll='ls -l'
alias -- say='__private_helper said:'
# Check for rg availability
if ! command -v rg >/dev/null 2>&1; then
  alias rg='grep -r'
fi
export PATH="\$PATH"
SH
rm -f "$scratch/cwd"
out=$("$SBSH" -c 'source '"$work"'/snapshot.sh && eval '"'"'greet agent; say it works; mkcd sub/dir && echo in $(basename "$PWD")'"'"' < /dev/null && pwd -P >| '"$scratch"'/cwd' 2>&1)
check "snapshot + eval '...' < /dev/null + pwd -P >| FILE" "hello, agent
said: it works
in dir" "$out"
check "... pwd -P written to the file" "$work/sub/dir" "$(cat "$scratch/cwd" 2>/dev/null)"

# The same with -c -l, as Claude Code sends it, and noclobber in force.
# (HOME is under /tmp here, so /tmp itself is not writable: the file goes
# into the project.)
echo old > "$work/cwd"
out=$(HOME=$home "$SBSH" -c -l "set -o noclobber; source $work/snapshot.sh && eval 'll -d . >/dev/null && say listed' \\< /dev/null && pwd -P >| $work/cwd" 2>&1)
check "-c -l, eval '...' \\< /dev/null, >| past noclobber" "said: listed" "$out"
check "... the file was overwritten" "$work" "$(cat "$work/cwd" 2>/dev/null)"

# Snapshots of a bash session list bash's own `set -o` options: each must
# be accepted, not end the script.
out=$("$SBSH" -c 'set -o braceexpand; set -o interactive-comments; set -o hashall; echo went on' 2>&1)
check "bash option names in a snapshot (set -o braceexpand ...)" "went on" "$out"

# eval with stdin closed must not read the caller's stdin.
out=$(echo leaked | "$SBSH" -c "eval 'cat' < /dev/null; echo done" 2>&1)
check "eval '...' < /dev/null reads nothing" "done" "$out"

# Gemini CLI style: a group, the status saved, a process listing, exit.
out=$("$SBSH" -c '{ echo gem; false; }; __code=$?; pgrep -g 0 >'"$scratch"'/pgrep.tmp 2>&1; exit $__code;' 2>&1; echo "status $?")
check "{ ...; }; __code=\$?; ...; exit \$__code" "gem
status 1" "$out"

# A heredoc commit message, as agents write them.
cat > "$scratch/heredoc.txt" <<'SH'
cat <<'EOF'
Fix the thing

Co-Authored-By: an agent <agent@example.com>
EOF
SH
out=$("$SBSH" -c "$(cat "$scratch/heredoc.txt")" 2>&1)
check "quoted heredoc in -c" "Fix the thing

Co-Authored-By: an agent <agent@example.com>" "$out"

# SHELL=sbsh for the tools that honour it: a child asking for $SHELL gets sbsh.
out=$(SHELL=$SBSH "$SBSH" -c '"$SHELL" -c "echo nested \$((2 + 3))"' 2>&1)
check "\$SHELL -c inside sbsh (nested)" "nested 5" "$out"

# Headless (CI): a refused command says why, the script goes on.
out=$(CI=1 "$SBSH" -c 'touch gone; rm gone; echo "status $?"' 2>&1)
check_contains "CI: rm refused with status 121" "status 121" "$out"
[ -e gone ] && ok "CI: the file stays" || bad "CI: the file stays"

# Tools that hard-code bash: shims first on PATH re-enter sbsh.
shims=$scratch/shims
if out=$("$SBSH" --shims "$shims" 2>&1); then
	check "--shims prints an export line" "export PATH='$shims'\":\$PATH\"" "$out"
	[ -x "$shims/bash" ] && [ -x "$shims/sh" ] && ok "--shims writes bash and sh" || bad "--shims writes bash and sh"
	out=$(eval "$out"; HOME=$home bash -lc 'echo "$0 $FROM_PROFILE"' 2>&1)
	check "bash -lc through the shim runs sbsh" "$SBSH yes" "$out"
	out=$(PATH="$shims:$PATH" CI=1 sh -c 'touch gone2; rm gone2; echo "status $?"' 2>&1)
	check_contains "sh -c through the shim is classified" "status 121" "$out"
	out=$(PATH="$shims:$PATH" env bash -c 'printf "%s|" "$@"' name 'a b' c 2>&1)
	check "arguments pass through the shim unchanged" "a b|c|" "$out"
	out=$("$SBSH" --shims "$shims" 2>&1) && ok "--shims again replaces its own shims" || bad "--shims again replaces its own shims" "$out"
	mkdir -p "$scratch/realbin" && cp /bin/true "$scratch/realbin/bash"
	if "$SBSH" --shims "$scratch/realbin" >/dev/null 2>&1; then
		bad "--shims never replaces a real bash"
	else
		cmp -s /bin/true "$scratch/realbin/bash" && ok "--shims never replaces a real bash" || bad "--shims never replaces a real bash" "it changed"
	fi
else
	bad "sbsh --shims DIR" "$out"
fi

# git aliases and hooks run by a git started from sbsh.
if command -v git >/dev/null 2>&1; then
	mkdir -p "$work/repo" && cd "$work/repo" || exit 1
	git init -q . && git config user.email t@example.com && git config user.name t
	git config alias.where '!echo "alias ran in $(pwd)"'
	probe=$HOME/.sbsh-hook-probe-$$
	printf '#!/bin/sh\necho hook ran >&2\necho x > "%s" 2>/dev/null && echo hook wrote home >&2\nexit 0\n' "$probe" > .git/hooks/pre-commit
	chmod +x .git/hooks/pre-commit
	out=$("$SBSH" -c 'git where' 2>&1)
	check "git: a ! alias runs" "alias ran in $work/repo" "$out"
	out=$("$SBSH" -c 'echo a > f && git add f && git commit -qm one && git log --format=%s' 2>&1)
	rm -f "$probe"
	check_contains "git: the pre-commit hook runs" "hook ran" "$out"
	check_contains "git: the commit is made" "one" "$out"
	if sandboxed "git: the hook is sandboxed"; then
		case $out in *"hook wrote home"*) bad "git: the hook is sandboxed" "$out" ;; *) ok "git: the hook is sandboxed" ;; esac
	fi
	cd "$work" || exit 1
else
	missing "git: aliases and hooks" "git is not installed (./bootstrap installs it)"
fi

finish
