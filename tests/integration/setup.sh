#!/bin/sh
# sbsh --setup TOOL in a scratch HOME: Claude Code's settings.json gets
# "env".CLAUDE_CODE_SHELL naming a shim of sbsh's own whose path holds
# "bash", every other key kept; a second setup changes nothing; --undo puts
# the original back byte for byte; from inside the sandbox it is refused;
# --doctor says before and after whether each tool reaches sbsh. For Codex
# a shim named bash, for the login shell the human sets.
set -u
here=$(dirname "$0")
. "${top_srcdir:-$here/../..}/tests/integration/lib.sh"
require python3

home=$scratch/home
work=$scratch/work
mkdir -p "$home/.claude" "$work"
cd "$work" || exit 1
unset CLAUDE_CONFIG_DIR CLAUDE_CODE_SHELL XDG_DATA_HOME
export HOME="$home"
settings=$home/.claude/settings.json
shim=$home/.local/share/sbsh/claude-code/bash

# doctor_field TOOL FIELD: one field of --doctor --json's agent_tools.
doctor_field() {
	"$SBSH" --doctor --json 2>/dev/null | python3 -c '
import json, sys
for t in json.load(sys.stdin)["agent_tools"]:
    if t["tool"] == sys.argv[1]:
        print(json.dumps(t[sys.argv[2]]))' "$1" "$2"
}

# A settings file such as a user has: hooks, permissions, an env of its own,
# formatted its own way.
cat > "$settings" <<'JSON'
{
    "permissions": {"allow": ["Bash(npm test)"]},
    "env": {"FOO": "bar"},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi"}]}]
    }
}
JSON
cp "$settings" "$scratch/original.json"

check "doctor before: claude-code does not reach sbsh" "false" "$(doctor_field claude-code reaches_sbsh)"
out=$("$SBSH" --doctor 2>&1)
check_contains "doctor before (text): says so" "claude-code: " "$out"
check_contains "doctor before (text): does NOT reach" "does NOT reach sbsh" "$out"

# From inside the sandbox: refused, nothing written.
if sandboxed "setup refused inside the sandbox"; then
	out=$("$SBSH" -c "\"$SBSH\" --setup claude-code" 2>&1)
	status=$?
	check_contains "inside the sandbox: refused" "refused" "$out"
	[ "$status" -ne 0 ] && ok "inside the sandbox: a failing status" || bad "inside the sandbox: a failing status" "$out"
	cmp -s "$settings" "$scratch/original.json" && ok "inside the sandbox: settings.json unchanged" ||
		bad "inside the sandbox: settings.json unchanged" "$(cat "$settings")"
	[ ! -e "$shim" ] && ok "inside the sandbox: no shim written" || bad "inside the sandbox: no shim written"
	out=$("$SBSH" -c "\"$SBSH\" --setup --undo claude-code" 2>&1)
	check_contains "inside the sandbox: undo refused too" "refused" "$out"
fi

out=$("$SBSH" --setup claude-code 2>&1)
check_status $? "--setup claude-code succeeds"
check_contains "--setup prints how to undo" "sbsh --setup --undo claude-code" "$out"
[ -x "$shim" ] && ok "the shim is written and runnable" || bad "the shim is written and runnable" "$out"
case $shim in *bash*) ok "the shim's path holds \"bash\"" ;; *) bad "the shim's path holds \"bash\"" ;; esac
merged=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["env"]["CLAUDE_CODE_SHELL"])
print(d["env"]["FOO"])
print(d["permissions"]["allow"][0])
print(d["hooks"]["PreToolUse"][0]["hooks"][0]["command"])
print(" ".join(d))' "$settings" 2>&1)
check "settings.json: the key set, every other key kept" "$shim
bar
Bash(npm test)
echo hi
permissions env hooks" "$merged"
cmp -s "$settings.sbsh-backup" "$scratch/original.json" && ok "the original is kept as settings.json.sbsh-backup" ||
	bad "the original is kept as settings.json.sbsh-backup"
out=$("$shim" -c 'echo "$0 ran $((6 * 7))"' 2>&1)
check "the shim runs sbsh" "$SBSH ran 42" "$out"
out=$(CI=1 "$shim" -c 'touch gone; rm gone; echo "status $?"' 2>&1)
check_contains "a command through the shim is classified" "status 121" "$out"
rm -f gone

check "doctor after: claude-code reaches sbsh" "true" "$(doctor_field claude-code reaches_sbsh)"
check "doctor after: the shell it names" "\"$shim\"" "$(doctor_field claude-code shell)"
out=$("$SBSH" --doctor 2>&1)
check_contains "doctor after (text): reaches sbsh" "reaches sbsh
    CLAUDE_CODE_SHELL names $shim" "$out"

# A project's .claude/settings.json wins over the user's: the doctor says
# so there, and only there.
mkdir -p "$work/proj/.claude"
printf '{"env": {"CLAUDE_CODE_SHELL": "/bin/bash"}}\n' > "$work/proj/.claude/settings.json"
check "a project naming another shell: doctor there says not reached" "false" "$(cd "$work/proj" && doctor_field claude-code reaches_sbsh)"
check_contains "a project naming another shell: doctor names the file" "$work/proj/.claude/settings.json sets CLAUDE_CODE_SHELL to /bin/bash" "$(cd "$work/proj" && doctor_field claude-code detail)"
check "a project naming another shell: elsewhere still reached" "true" "$(doctor_field claude-code reaches_sbsh)"
rm -rf "$work/proj"

# A second setup is idempotent: the same bytes, the backup untouched.
cp "$settings" "$scratch/after-first.json"
cp "$shim" "$scratch/shim-first"
out=$("$SBSH" --setup claude-code 2>&1)
check_status $? "a second --setup succeeds"
check_contains "a second --setup says there is nothing to do" "nothing else to do" "$out"
cmp -s "$settings" "$scratch/after-first.json" && ok "a second --setup leaves settings.json as it was" ||
	bad "a second --setup leaves settings.json as it was"
cmp -s "$settings.sbsh-backup" "$scratch/original.json" && ok "a second --setup keeps the first backup" ||
	bad "a second --setup keeps the first backup"

# A shim that runs another program is no longer sbsh's: the doctor says so.
printf '#!/bin/sh\nexec /bin/bash "$@"\n' > "$scratch/other-bash"
chmod +x "$scratch/other-bash"
cp "$settings" "$scratch/keep.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); d["env"]["CLAUDE_CODE_SHELL"] = sys.argv[2]
json.dump(d, open(sys.argv[1], "w"))' "$settings" "$scratch/other-bash"
check "doctor: a shell that is not sbsh does not reach it" "false" "$(doctor_field claude-code reaches_sbsh)"
cp "$scratch/keep.json" "$settings"

# Undo: the original, byte for byte; the shim and its folders gone.
out=$("$SBSH" --setup --undo claude-code 2>&1)
check_status $? "--setup --undo claude-code succeeds"
cmp -s "$settings" "$scratch/original.json" && ok "undo restores settings.json byte for byte" ||
	bad "undo restores settings.json byte for byte" "$(diff "$scratch/original.json" "$settings")"
[ ! -e "$settings.sbsh-backup" ] && ok "undo removes the backup" || bad "undo removes the backup"
[ ! -e "$home/.local/share/sbsh" ] && ok "undo removes the shim and sbsh's folder" || bad "undo removes the shim and sbsh's folder"
check "doctor after undo: claude-code does not reach sbsh" "false" "$(doctor_field claude-code reaches_sbsh)"

# Edited after the setup: undo puts back only the key, the user's edit stays.
"$SBSH" --setup claude-code >/dev/null 2>&1
python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); d["model"] = "opus"
json.dump(d, open(sys.argv[1], "w"), indent=1)' "$settings"
"$SBSH" --setup --undo claude-code >/dev/null 2>&1
edited=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["model"], d["env"], "CLAUDE_CODE_SHELL" in d["env"])' "$settings" 2>&1)
check "undo after an edit: the edit stays, the key goes" "opus {'FOO': 'bar'} False" "$edited"

# No settings before: setup makes the file, undo removes it and ~/.claude.
rm -rf "$home/.claude" "$home/.local"
"$SBSH" --setup claude-code >/dev/null 2>&1
check "no settings before: setup writes them" "$shim" "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["env"]["CLAUDE_CODE_SHELL"])' "$settings" 2>&1)"
"$SBSH" --setup --undo claude-code >/dev/null 2>&1
[ ! -e "$home/.claude" ] && ok "no settings before: undo removes what setup made" || bad "no settings before: undo removes what setup made" "$(ls -la "$home/.claude")"

# A settings.json that is a symlink (a dotfiles folder) stays one: the
# target is rewritten, then restored byte for byte.
mkdir -p "$home/.claude" "$scratch/dotfiles"
cp "$scratch/original.json" "$scratch/dotfiles/settings.json"
ln -s "$scratch/dotfiles/settings.json" "$settings"
"$SBSH" --setup claude-code >/dev/null 2>&1
[ -L "$settings" ] && ok "symlinked settings: still a symlink after setup" || bad "symlinked settings: still a symlink after setup"
check "symlinked settings: the target gets the key" "$shim" "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["env"]["CLAUDE_CODE_SHELL"])' "$scratch/dotfiles/settings.json" 2>&1)"
"$SBSH" --setup --undo claude-code >/dev/null 2>&1
[ -L "$settings" ] && ok "symlinked settings: still a symlink after undo" || bad "symlinked settings: still a symlink after undo"
cmp -s "$scratch/dotfiles/settings.json" "$scratch/original.json" && ok "symlinked settings: the target restored byte for byte" ||
	bad "symlinked settings: the target restored byte for byte"
rm -f "$settings"

# The user took the key out after the setup: undo leaves the file and
# keeps the original where they can find it.
cp "$scratch/original.json" "$settings"
"$SBSH" --setup claude-code >/dev/null 2>&1
printf '{"mine": true}\n' > "$settings"
out=$("$SBSH" --setup --undo claude-code 2>&1)
check "key taken out by the user: undo leaves the file" '{"mine": true}' "$(cat "$settings")"
cmp -s "$settings.sbsh-backup" "$scratch/original.json" && ok "key taken out by the user: the original stays in the backup" ||
	bad "key taken out by the user: the original stays in the backup" "$out"
rm -f "$settings" "$settings.sbsh-backup"

# Settings that are not JSON are left alone.
mkdir -p "$home/.claude"
printf '{ "broken": ' > "$settings"
out=$("$SBSH" --setup claude-code 2>&1)
[ $? -ne 0 ] && ok "settings that are not JSON: setup fails" || bad "settings that are not JSON: setup fails" "$out"
check "settings that are not JSON: left as they were" '{ "broken": ' "$(cat "$settings")"
rm -f "$settings"

# CLAUDE_CONFIG_DIR moves the settings, as it does for Claude Code.
CLAUDE_CONFIG_DIR=$scratch/cfg "$SBSH" --setup claude-code >/dev/null 2>&1
[ -f "$scratch/cfg/settings.json" ] && ok "CLAUDE_CONFIG_DIR: the settings go there" || bad "CLAUDE_CONFIG_DIR: the settings go there"
check "CLAUDE_CONFIG_DIR: the doctor reads them there" "true" "$(CLAUDE_CONFIG_DIR=$scratch/cfg doctor_field claude-code reaches_sbsh)"
CLAUDE_CONFIG_DIR=$scratch/cfg "$SBSH" --setup --undo claude-code >/dev/null 2>&1

# Codex: no setting names its shell, it runs the login shell, known by
# its name. Setup writes a shim named bash, says how to make it the login
# shell, and changes no login shell; the doctor reads the password
# database (a copy bound over /etc/passwd, in a mount namespace of the
# test's own, stands for the human's usermod).
codex_shim=$home/.local/share/sbsh/codex/bash
login_before=$(getent passwd "$(id -u)")
out=$("$SBSH" --setup codex 2>&1)
[ $? -eq 0 ] && ok "--setup codex succeeds" || bad "--setup codex succeeds" "$out"
check_contains "--setup codex wrote the shim" "wrote $codex_shim" "$out"
check_contains "--setup codex says how to make it the login shell" "usermod -s $codex_shim" "$out"
check "--setup codex changes no login shell" "$login_before" "$(getent passwd "$(id -u)")"
check "a shim runs this sbsh" "exec '$SBSH' \"\$@\"" "$(tail -n 1 "$codex_shim")"
check "doctor: codex does not reach sbsh yet" "false" "$(doctor_field codex reaches_sbsh)"
# in_passwd SHELL CMD...: CMD with SHELL as this user's login shell.
in_passwd() {
	login=$1
	shift
	sed "s#^\([^:]*:[^:]*:$(id -u):.*\):[^:]*\$#\1:$login#" /etc/passwd >"$scratch/passwd"
	unshare -m sh -c 'mount --bind "$0" /etc/passwd && exec "$@"' "$scratch/passwd" "$@"
}
if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
	missing "doctor: codex with the shim as login shell" "needs root and unshare -m"
else
	check "doctor: the shim as login shell: codex reaches sbsh" "true" "$(in_passwd "$codex_shim" "$SBSH" --doctor --json |
		python3 -c 'import json, sys; print(json.dumps([t for t in json.load(sys.stdin)["agent_tools"] if t["tool"] == "codex"][0]["reaches_sbsh"]))')"
	out=$(in_passwd "$SBSH" "$SBSH" --doctor 2>&1 | grep -A1 'codex:')
	check_contains "doctor: sbsh itself as login shell: Codex would run bash" "knows a shell by its name" "$out"
	out=$(in_passwd "$codex_shim" "$SBSH" --setup --undo codex 2>&1)
	[ $? -ne 0 ] && ok "--setup --undo codex refused while the shim is the login shell" ||
		bad "--setup --undo codex refused while the shim is the login shell" "$out"
	[ -f "$codex_shim" ] && ok "... and the shim stays" || bad "... and the shim stays"
fi
out=$("$SBSH" --setup --undo codex 2>&1)
check_contains "--setup --undo codex removes the shim" "removed the shim $codex_shim" "$out"
[ ! -e "$codex_shim" ] && [ ! -e "$home/.local/share/sbsh" ] && ok "... and its folders" || bad "... and its folders" "$(find "$home/.local")"

out=$("$SBSH" --setup 2>&1)
[ $? -eq 2 ] && ok "--setup without a tool: usage" || bad "--setup without a tool: usage" "$out"
out=$("$SBSH" --setup vim 2>&1)
check_contains "--setup of an unknown tool: usage" "usage: sbsh --setup" "$out"

finish
