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
export CI=true HOME=$home XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state SBSH_KEEPER_IDLE=2
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

# An entry's * stays where the entry points: "rm -r *" names no absolute
# path and no path climbing with .., though fnmatch's * matches '/'.
printf '%s\n' '{"allow": ["rm -r *"]}' >"$list"
mkdir -p inside outside/victim && echo x >outside/victim/file
mkdir -p inside/d && echo x >inside/d/file
for script in "rm -r $work/outside/victim" 'rm -r ../outside/victim' 'rm -r d/../../outside/victim'; do
	(cd inside && "$SBSH" -c "$script") >out 2>err
	status=$?
	if [ "$status" = 121 ] && [ -f outside/victim/file ]; then
		ok "allow 'rm -r *' does not cover: $script"
	else
		bad "allow 'rm -r *' does not cover: $script" "status $status, $(cat err)"
	fi
done
(cd inside && "$SBSH" -c 'rm -r d') >out 2>err
if [ ! -e inside/d ]; then ok "... and still covers rm -r d"; else bad "... and still covers rm -r d" "$(cat err)"; fi

# Nor through a link: with "rm -rf build/*", not build/link/ (or what is
# below it) where the link leads out of build, nor anything in build when
# build itself is a link; the link itself, and build's own files, are.
printf '%s\n' '{"allow": ["rm -rf build/*"]}' >"$list"
mkdir -p build/sub outside2 && echo x >outside2/file && ln -sfn ../outside2 build/link
for script in 'rm -rf build/link/' 'rm -rf build/link/file'; do
	"$SBSH" -c "$script" >out 2>err
	status=$?
	if [ "$status" = 121 ] && [ -f outside2/file ]; then
		ok "allow 'rm -rf build/*' does not cover: $script"
	else
		bad "allow 'rm -rf build/*' does not cover: $script" "status $status, $(cat err)"
	fi
done
"$SBSH" -c 'rm -rf build/sub && rm -rf build/link' >out 2>err
if [ ! -e build/sub ] && [ ! -L build/link ] && [ -f outside2/file ]; then
	ok "... and still covers build/sub and the link itself"
else
	bad "... and still covers build/sub and the link itself" "$(cat err)"
fi
rmdir build && ln -s outside2 build
"$SBSH" -c 'rm -rf build/file' >out 2>err
status=$?
if [ "$status" = 121 ] && [ -f outside2/file ]; then ok "... nor anything when build is a link"; else bad "build is a link" "status $status, $(cat err)"; fi
rm -rf build outside2

# An entry covers what its own text says, not what the agent's code the
# command runs adds: "make deploy" (PUBLISH by its name, above DELETE)
# does not pre-approve the rm -rf an agent's Makefile puts in the recipe,
# nor "sh deploy.sh" the one its script holds; the same entries still
# cover a recipe or script that needs nothing, and an entry whose own
# text holds the inner command covers it.
mk=$home/mk
mkdir -p "$mk"
printf '%s\n' '{"allow": ["make deploy", "sh deploy.sh", "sh -c '"'"'rm -rf keep'"'"'"]}' >"$list"
(cd "$mk" && "$SBSH" -c 'printf "deploy:\n\trm -rf keep\n" >Makefile; printf "rm -rf keep\n" >deploy.sh') 2>/dev/null
for script in 'make deploy' 'sh deploy.sh'; do
	if [ "$script" = 'make deploy' ] && ! command -v make >/dev/null; then
		missing "allow '$script' does not cover the agent's rm -rf" "make is not installed"
		continue
	fi
	mkdir -p "$mk/keep" && echo x >"$mk/keep/file"
	(cd "$mk" && "$SBSH" -c "$script") >out 2>err
	status=$?
	if [ "$status" = 121 ] && [ -f "$mk/keep/file" ] && grep -q 'runs: rm -rf keep' err; then
		ok "allow '$script' does not cover the rm -rf the agent's code adds, and the refusal names it"
	else
		bad "allow '$script' does not cover the rm -rf the agent's code adds, and the refusal names it" \
			"status $status, $(cat err)"
	fi
done
(cd "$mk" && "$SBSH" -c 'printf "deploy:\n\techo deployed\n" >Makefile; echo "echo deployed" >deploy.sh') 2>/dev/null
for script in 'make deploy' 'sh deploy.sh'; do
	command -v "${script%% *}" >/dev/null || continue
	(cd "$mk" && "$SBSH" -c "$script") >out 2>err
	if [ $? = 0 ] && grep -q deployed out; then
		ok "... '$script' still covers a recipe or script that needs nothing"
	else
		bad "... '$script' still covers a recipe or script that needs nothing" "$(cat err)"
	fi
done
mkdir -p "$mk/keep"
(cd "$mk" && "$SBSH" -c "sh -c 'rm -rf keep'") >out 2>err
if [ ! -e "$mk/keep" ]; then ok "... and an entry whose text holds the rm -rf covers it"; else bad "sh -c entry" "$(cat err)"; fi

# Nobody but the human pre-approves. A list in a folder every sandboxed
# session can write (a temp folder) may have been planted by an agent: it
# is not honoured, whether it was written by hand or by a session started
# elsewhere, at a git work tree's top or in the starting folder.
rm -f "$list"
proj=$home/proj
mkdir -p "$proj" "$work/planted" "$work/gitplanted"
git init -q "$work/gitplanted"
(cd "$proj" && "$SBSH" -c "printf '{\"allow\": [\"rm victim\", \"git push -f origin master\"]}' >'$work/planted/.agentcommands.json'") 2>err
cp "$work/planted/.agentcommands.json" "$work/gitplanted/.agentcommands.json" 2>/dev/null
for dir in "$work/planted" "$work/gitplanted"; do
	echo keep >"$dir/victim"
	(cd "$dir" && "$SBSH" -c 'rm victim') >out 2>err
	status=$?
	if [ -f "$work/planted/.agentcommands.json" ] && [ "$status" = 121 ] && [ -f "$dir/victim" ] &&
		grep -q 'not honoured.*temp folder' err; then
		ok "a list planted in a temp folder is not honoured: ${dir##*/}"
	else
		bad "a list planted in a temp folder is not honoured: ${dir##*/}" "status $status, $(cat err)"
	fi
done
# The same in /dev/shm, in $TMPDIR, and as the user's own list when
# XDG_CONFIG_HOME lies in a temp folder.
shm=$(mktemp -d /dev/shm/sbsh-allow.XXXXXX)
mytmp=$(mktemp -d "$home/tmpdir.XXXXXX")
cp "$work/planted/.agentcommands.json" "$shm/"
cp "$work/planted/.agentcommands.json" "$mytmp/"
mkdir -p "$work/xdg/sbsh" && cp "$work/planted/.agentcommands.json" "$work/xdg/sbsh/allow.json"
for how in "shm:$shm" "TMPDIR:$mytmp" "XDG_CONFIG_HOME:$proj"; do
	dir=${how#*:}
	echo keep >"$dir/victim"
	case $how in
	TMPDIR:*) (cd "$dir" && TMPDIR=$mytmp "$SBSH" -c 'rm victim') >out 2>err ;;
	XDG_CONFIG_HOME:*) (cd "$dir" && XDG_CONFIG_HOME=$work/xdg "$SBSH" -c 'rm victim') >out 2>err ;;
	*) (cd "$dir" && "$SBSH" -c 'rm victim') >out 2>err ;;
	esac
	status=$?
	if [ "$status" = 121 ] && [ -f "$dir/victim" ] && grep -q 'not honoured.*temp folder' err; then
		ok "a list in a temp folder is not honoured: ${how%%:*}"
	else
		bad "a list in a temp folder is not honoured: ${how%%:*}" "status $status, $(cat err)"
	fi
done
rm -rf "$shm"
cp "$work/planted/.agentcommands.json" repo/.agentcommands.json
reset_remote
(cd repo && "$SBSH" -c 'git push -f origin master') >out 2>err
status=$?
if [ "$status" = 121 ] && [ "$before" = "$(git -C remote.git rev-parse master)" ]; then
	ok "... and the force-push it lists is refused, the remote kept"
else
	bad "... and the force-push it lists is refused, the remote kept" "status $status, $(cat err)"
fi
rm -f repo/.agentcommands.json
# The human's own project, outside the temp folders (and outside git): its
# list counts once the human has accepted it (sbsh --review accept), as a
# list a session wrote there could otherwise pass for the human's.
printf '{"allow": ["rm victim"]}\n' >"$proj/.agentcommands.json"
echo keep >"$proj/victim"
(cd "$proj" && "$SBSH" --review accept .agentcommands.json) >/dev/null 2>&1
(cd "$proj" && "$SBSH" -c 'rm victim') >out 2>err
if [ ! -e "$proj/victim" ]; then ok "the list of a project outside the temp folders is honoured"; else bad "the list of a project outside the temp folders is honoured" "$(cat err)"; fi
# A list a session plants in a repository it makes inside its project,
# deeper than the warden's walk at the session's end reaches, is not the
# human's at that repository's first session: only the human's accept
# makes it count.
deep=$proj/$(printf 'd/%.0s' $(seq 1 26))sub
(cd "$proj" && "$SBSH" -c "mkdir -p $deep && cd $deep && git init -q && echo keep >victim &&
	printf '{\"allow\": [\"rm victim\"]}\n' >.agentcommands.json") >/dev/null 2>&1
(cd "$deep" && "$SBSH" -c 'rm victim') >out 2>err
status=$?
if [ "$status" = 121 ] && [ -f "$deep/victim" ] && grep -q 'not honoured' err; then
	ok "a list planted in a repository deep inside a project is not honoured at its first session"
else
	bad "a list planted in a repository deep inside a project is not honoured at its first session" \
		"status $status, $(cat err)"
fi
(cd "$deep" && "$SBSH" --review accept .agentcommands.json) >/dev/null 2>&1
(cd "$deep" && "$SBSH" -c 'rm victim') >out 2>err
if [ ! -e "$deep/victim" ]; then ok "... until the human accepts it"; else bad "... until the human accepts it" "$(cat err)"; fi

# sbsh's own folders, their parents and the dot-folders of $HOME are never
# the project: a session started there cannot write them.
if sandboxed "folders that are never the project"; then
	mkdir -p "$XDG_CONFIG_HOME/sbsh" "$XDG_STATE_HOME/sbsh" "$home/.cache/sbsh" "$home/.ssh" \
		"$home/.claude" "$home/.codex" "$home/.config/git" "$home/.local/share/x" "$home/.cache/sbsh/sandbox-caches"
	for dir in "$XDG_CONFIG_HOME/sbsh" "$XDG_CONFIG_HOME" "$XDG_STATE_HOME/sbsh" "$XDG_STATE_HOME" \
		"$home/.cache/sbsh" "$home/.ssh" "$home/.claude" "$home/.codex" \
		"$home/.config" "$home/.config/git" "$home/.local/share/x"; do
		rm -f "$dir/config" "$dir/allow.json"
		(cd "$dir" && "$SBSH" -c 'echo "sandbox = off" >config; echo "{\"allow\": [\"rm *\"]}" >allow.json') >out 2>err
		if [ ! -e "$dir/config" ] && [ ! -e "$dir/allow.json" ] && grep -q "^sbsh: ${dir//./\\.} is not made writable as the project: " err; then
			ok "never the project: ${dir#"$home"/}"
		else
			bad "never the project: ${dir#"$home"/}" "$(cat err)"
		fi
	done
	# A folder on PATH: what the agent puts there runs when the human
	# types its name. A project that holds one (its bin by direnv,
	# node_modules/.bin by npx) is still the project.
	mkdir -p "$home/bin" "$home/tools/bin"
	(cd "$home/bin" && PATH="$home/bin:$PATH" "$SBSH" -c 'echo planted >git') >out 2>err
	if [ ! -e "$home/bin/git" ] && grep -q "is not made writable as the project: it is a folder on PATH" err; then
		ok "never the project: a folder on PATH"
	else
		bad "never the project: a folder on PATH" "$(cat err)"
	fi
	(cd "$home/tools" && PATH="$home/tools/bin:$PATH" "$SBSH" -c 'echo made >probe') >out 2>err
	if [ -e "$home/tools/probe" ] && ! grep -q 'not made writable' err; then
		ok "a project holding a folder on PATH is still the project"
	else
		bad "a project holding a folder on PATH is still the project" "$(cat err)"
	fi
	# The system's folders: an agent tool may start a session in any
	# folder (Codex's workdir), and what lands in /etc or a site-packages
	# runs outside. Sources under /usr/src stay a project.
	for dir in /etc /usr/lib /var/lib; do
		probe=sbsh-allow-probe-$$
		(cd "$dir" && "$SBSH" -c "echo planted >$probe") >out 2>err
		if [ ! -e "$dir/$probe" ] && grep -q "is not made writable as the project: it is in .*, a system folder" err; then
			ok "never the project: $dir"
		else
			bad "never the project: $dir" "$(cat err)"
		fi
		rm -f "$dir/$probe"
	done
	if src=$(mktemp -d /usr/src/sbsh-allow.XXXXXX 2>/dev/null); then
		(cd "$src" && "$SBSH" -c 'echo made >probe') >out 2>err
		if [ "$(cat "$src/probe" 2>/dev/null)" = made ] && ! grep -q 'not made writable' err; then
			ok "a project in /usr/src is still the project"
		else
			bad "a project in /usr/src is still the project" "$(cat err)"
		fi
		rm -rf "$src"
	fi
	(cd "$proj" && "$SBSH" -c 'echo made >probe') >out 2>err
	if [ "$(cat "$proj/probe" 2>/dev/null)" = made ] && ! grep -q 'not made writable' err; then
		ok "a folder of \$HOME that is not a dot-folder is still the project"
	else
		bad "a folder of \$HOME that is not a dot-folder is still the project" "$(cat err)"
	fi
fi
finish
