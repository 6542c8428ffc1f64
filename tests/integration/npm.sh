#!/bin/sh
# Real npm running package.json scripts with sbsh as the script shell, set in
# a project .npmrc (the user's own npm config is never changed) and per run
# with --script-shell.
set -u
here=$(dirname "$0")
. "${top_srcdir:-$here/../..}/tests/integration/lib.sh"
require npm node

export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
user_shell=$(cd / && npm config get script-shell 2>&1)
user_npmrc=$(cat "$HOME/.npmrc" 2>/dev/null | cksum)
cd "$scratch" && mkdir pkg && cd pkg || exit 1
cat > package.json <<'JSON'
{
  "name": "sbsh-npm-test",
  "version": "1.2.3",
  "private": true,
  "scripts": {
    "hello": "echo hello from $npm_package_name $npm_package_version",
    "which-shell": "echo \"$0\"",
    "bashy": "[[ $npm_lifecycle_event == bash* ]] && arr=(a b c) && echo \"event=$npm_lifecycle_event n=${#arr[@]}\"",
    "prebuild": "echo pre",
    "build": "mkdir -p dist && node -e \"console.log('built', 6 * 7)\" > dist/out.txt && cat dist/out.txt",
    "postbuild": "echo post",
    "args": "printf '<%s>' ",
    "nested": "npm run -s hello && echo nested ok",
    "fail": "exit 3",
    "clean": "rm -rf dist"
  }
}
JSON
printf 'script-shell=%s\n' "$SBSH" > .npmrc

out=$(npm run -s hello 2>&1)
check "npm: a script with package variables" "hello from sbsh-npm-test 1.2.3" "$out"

out=$(npm run -s which-shell 2>&1)
check "npm: scripts run by sbsh (.npmrc script-shell)" "$SBSH" "$out"

out=$(npm run -s bashy 2>&1)
check "npm: bash extensions in a script" "event=bashy n=3" "$out"

out=$(npm run -s build 2>&1)
check "npm: pre and post scripts around a build" "pre
built 42
post" "$out"
[ -f dist/out.txt ] && ok "npm: the build wrote into the project" || bad "npm: the build wrote into the project"

out=$(npm run -s args -- one 'two words' '$HOME' 2>&1)
check "npm: arguments after -- reach the script quoted" "<one><two words><\$HOME>" "$out"

out=$(npm run -s nested 2>&1)
check "npm: npm run inside an sbsh script" "hello from sbsh-npm-test 1.2.3
nested ok" "$out"

npm run -s fail >/dev/null 2>&1
check "npm: a failing script fails npm run" "3" "$?"

# Package scripts are the project's own code (policy rule 10): bounded by
# the sandbox, not judged one by one, so a clean script works headless.
out=$(CI=1 npm run -s clean 2>&1)
status=$?
check "npm: a deleting script runs headless (project code)" "0" "$status"
[ ! -d dist ] && ok "npm: dist was removed by the project's script" || bad "npm: dist was removed" "$out"

# Per run, without a .npmrc.
rm -f .npmrc
out=$(npm run -s --script-shell="$SBSH" which-shell 2>&1)
check "npm: --script-shell per run" "$SBSH" "$out"
out=$(cd / && npm config get script-shell 2>&1)
check "npm: the user's script-shell is unchanged" "$user_shell" "$out"
check "npm: the user's ~/.npmrc is unchanged" "$user_npmrc" "$(cat "$HOME/.npmrc" 2>/dev/null | cksum)"

finish
