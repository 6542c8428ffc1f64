#!/bin/bash
# Allow-lists, headless: an allow entry never pre-approves more than its
# own text says (a force-push matched by "git push origin *" is refused and
# a real local remote keeps its ref), a deny entry catches its verdict
# however the command spells it.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/report.sh"
require git
work=$(mktemp -d)
# HOME (and the user's allow.json in it) lies outside the project.
home=$(mktemp -d "${HOME:-/root}/.sbsh-allow-test.XXXXXX")
trap 'rm -rf "$work" "$home"' EXIT
export CI=true HOME=$home XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state
mkdir -p "$XDG_CONFIG_HOME/sbsh"
list=$XDG_CONFIG_HOME/sbsh/allow.json
cd "$work" || exit 1

g() { git -c user.name=t -c user.email=t@t "$@"; }
git init -q --bare remote.git
git init -q -b master repo
(cd repo && g commit -q --allow-empty -m one && git remote add origin ../remote.git &&
	git push -q origin master 2>/dev/null && g commit -q --amend --allow-empty -m rewritten &&
	git tag v1 && git push -q origin v1 2>/dev/null)
git -C remote.git config receive.advertisePushOptions true
before=$(git -C remote.git rev-parse master)
# Puts the remote back as it was before each case.
reset_remote() { git -C remote.git update-ref refs/heads/master "$before" && git -C remote.git tag -f v1 "$before" >/dev/null; }

# kept NAME LIST SCRIPT [NEEDLE]: with LIST as the user's allow.json, SCRIPT
# run in repo is refused (status 121, NEEDLE on stderr when given) and the
# remote's master and v1 are what they were.
kept() {
	printf '%s\n' "$2" >"$list"
	reset_remote
	(cd repo && "$SBSH" -c "$3") >out 2>err
	local status=$?
	if [ "$status" = 121 ] && [ "$before" = "$(git -C remote.git rev-parse master)" ] &&
		git -C remote.git rev-parse -q --verify v1 >/dev/null && grep -q "${4:-refused FORCE_PUSH}" err; then
		ok "$1"
	else
		bad "$1" "status $status, $(cat err)"
	fi
}

only_push='{"allow": ["git push origin *"], "deny": ["git push --force *"]}'
kept "allow 'git push origin *' does not cover git push origin +master" "$only_push" 'git push origin +master'
kept "... nor +HEAD:master" "$only_push" 'git push origin +HEAD:master'
kept "... nor --force standing after the remote" "$only_push" 'git push origin --force'
kept "... nor -f" "$only_push" 'git push origin -f'
kept "... nor --force-with-lease" "$only_push" 'git push origin --force-with-lease'
kept "... nor --mirror" "$only_push" 'git push origin --mirror'
kept "... nor a :ref deletion" "$only_push" 'git push origin :v1'
kept "... nor --delete" "$only_push" 'git push origin --delete=v1' 'refused'
kept "... nor a forcing refspec from GIT_CONFIG_COUNT" "$only_push" \
	'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.push GIT_CONFIG_VALUE_0=+refs/heads/*:refs/heads/* git push origin master'
kept "... nor one exported on an earlier line" "$only_push" \
	'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.mirror GIT_CONFIG_VALUE_0=true
git push origin master'
kept "... nor the same inside sh -c" "$only_push" "sh -c 'git push origin +master'"
kept "... nor through a variable" "$only_push" 'r=+master; git push origin "$r"'
kept "allow 'git push * * *' does not cover git push --force origin master" '{"allow": ["git push * * *"]}' 'git push --force origin master'

# Deny entries: the verdict of the entry's text, for the same program and
# operands, however the flag is spelled or wherever it stands.
force_ok='{"allow": ["git push -f origin *", "git push * * *", "git push * * * *"], "deny": ["git push --force *"]}'
for script in 'git push -f origin master' 'git push origin master -f' 'git push origin +master' \
	'git push --force-with-lease origin master' 'git push -o ci.skip origin +master' \
	'git push origin --force master' 'env git push -f origin master' "sh -c 'git push -f origin master'" \
	'echo master | xargs git push -f origin' 'git -C . push --force origin master' 'git push --mirror origin'; do
	kept "deny 'git push --force *' catches: $script" "$force_ok" "$script" 'denied by'
done

# The allow entry still pre-approves what it says, and its deny leaves the
# rest alone: a -f push allowed by "git push -f origin *" rewrites master.
printf '%s\n' '{"allow": ["git push -f origin *"], "deny": ["git push --force origin v*"]}' >"$list"
reset_remote
(cd repo && "$SBSH" -c 'git push -f origin master') >out 2>err
status=$?
if [ "$status" = 0 ] && [ "$before" != "$(git -C remote.git rev-parse master)" ]; then
	ok "allow 'git push -f origin *' pre-approves git push -f origin master"
else
	bad "allow 'git push -f origin *' pre-approves git push -f origin master" "status $status, $(cat err)"
fi

# rm: an entry for one -r deletion covers deletions, a deny for a folder
# catches its flags in any order or spelling.
printf '%s\n' '{"allow": ["rm * *", "rm * * *"], "deny": ["rm -rf keep"]}' >"$list"
for script in 'rm -fr keep' 'rm keep -rf' 'rm -r -f keep' 'rm --recursive --force keep' 'rm -rf ./keep/' ; do
	mkdir -p keep && echo x >keep/file
	"$SBSH" -c "$script" >out 2>err
	status=$?
	if [ "$status" = 121 ] && [ -f keep/file ] && grep -q 'denied by' err; then
		ok "deny 'rm -rf keep' catches: $script"
	else
		bad "deny 'rm -rf keep' catches: $script" "status $status, $(cat err)"
	fi
done
mkdir -p other && echo x >other/file
"$SBSH" -c 'rm -rf other' >out 2>err
if [ ! -e other ]; then ok "... and leaves rm -rf other to the allow entry"; else bad "rm -rf other" "$(cat err)"; fi
finish
