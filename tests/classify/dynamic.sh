#!/bin/bash
# Commands hidden by variables, functions, eval, sourced files, aliases and
# sh -c are judged on their final argv and refused headless: nothing
# happens (the file survives, the force-push is not made).
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/report.sh"
work=$(mktemp -d)
# HOME must not contain the work folder: the sandbox never grants an
# ancestor of $HOME (it would grant all of it). The config folder is not
# in it either: a folder holding sbsh's own is never the project.
home=$(mktemp -d "${HOME:-/root}/.sbsh-classify-test.XXXXXX")
trap 'rm -rf "$work" "$home"' EXIT
cd "$work" || exit 1
export CI=true HOME=$home XDG_CONFIG_HOME=$home/config

survives() { # name script
	echo keep >victim
	"$SBSH" -c "$2" >out 2>err
	local status=$?
	if [ -f victim ] && grep -q '^sbsh: .*refused DELETE (headless, nobody to approve): ' err; then
		ok "$1"
	else
		bad "$1" "status $status, $(cat err)"
	fi
}
# kept NAME VERDICT SCRIPT: as survives, refused with that verdict
kept() {
	echo keep >victim
	"$SBSH" -c "$3" >out 2>err
	local status=$?
	if [ -f victim ] && [ "$status" = 121 ] && grep -q "^sbsh: .*refused $2 (headless, nobody to approve): " err; then
		ok "$1"
	else
		bad "$1" "status $status, $(cat err)"
	fi
}
survives "plain rm" 'rm victim'
survives "rm through a variable" 'x=rm; $x victim'
survives "rm through a variable set earlier" 'cmd="rm -f"
$cmd victim'
survives "rm in a function" 'clean() { rm -f "$@"; }; clean victim'
survives "rm through eval" 'eval "r""m victim"'
survives "rm through an alias" 'alias del=rm
del victim'
survives "rm through sh -c" 'sh -c "rm victim"'
survives "rm through command and env" 'command env rm victim'
survives "rm through xargs" 'echo victim | xargs rm'
survives "find -delete" 'find . -name victim -delete'
survives "rm with a computed name" 'n=$(printf r)m; $n victim'
survives "a program in the project that is a symlink to rm" 'ln -sf "$(command -v rm)" myrm; ./myrm victim'
survives "... reached through PATH" 'mkdir -p bin; ln -sf "$(command -v rm)" bin/tidy; PATH=$PWD/bin:$PATH tidy victim'
echo 'rm victim' >sourced.sh
survives "rm in a sourced file" '. ./sourced.sh'
survives "rm in a trap" "trap 'rm victim' EXIT"
if command -v python3 >/dev/null; then
	survives "python reaches unlink by a joined name" "python3 -c 'import os; getattr(os, \"un\"+\"link\")(\"victim\")'"
	kept "python runs a command it assembles" ASK "python3 -c 'import os; os.system(chr(114)+chr(109)+\" victim\")'"
fi

# Exit status, set -e, and the rest of the script.
echo keep >victim
"$SBSH" -c 'rm victim; echo "status $?"' >out 2>err
if grep -q '^status 121$' out && [ -f victim ]; then ok "refusal status is 121, the script goes on"; else bad "refusal status" "$(cat out err)"; fi
"$SBSH" -c 'set -e; rm victim; echo after' >out 2>err
status=$?
if [ "$status" = 121 ] && ! grep -q after out; then ok "set -e stops at a refusal"; else bad "set -e stops at a refusal" "status $status"; fi

# A force-push against a local bare repository is not made.
if command -v git >/dev/null; then
	git init -q --bare remote.git
	git init -q repo
	(cd repo && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m one &&
		git remote add origin ../remote.git && git push -q origin HEAD:main 2>/dev/null &&
		git -c user.name=t -c user.email=t@t commit -q --amend --allow-empty -m rewritten)
	before=$(git -C remote.git rev-parse main)
	# push_refused NAME SCRIPT: run in repo, refused as FORCE_PUSH, the
	# remote's main unchanged.
	push_refused() {
		(cd repo && "$SBSH" -c "$2") >out 2>err
		if [ "$before" = "$(git -C remote.git rev-parse main)" ] && grep -q 'refused FORCE_PUSH' err; then
			ok "$1"
		else
			bad "$1" "$(cat err)"
		fi
	}
	push_refused "git push --force is refused, the remote is unchanged" 'b=main; git push --force origin "HEAD:$b"'
	push_refused "a push made destructive by -c remote.*.mirror is refused" 'git -c remote.origin.mirror=true push origin'
	(cd repo && "$SBSH" -c 'git push origin HEAD:refs/heads/other') >out 2>err
	if git -C remote.git rev-parse -q --verify other >/dev/null; then ok "a plain push still works"; else bad "a plain push" "$(cat err)"; fi
	# Aliases from the config git's environment names: another repository's
	# (GIT_DIR, on the line or exported by an earlier one), a global file
	# (GIT_CONFIG_GLOBAL), or GIT_CONFIG_COUNT entries exported earlier.
	git init -q other && git -C other config alias.fp 'push --force'
	for script in 'GIT_DIR=../other/.git git fp origin HEAD:main' \
		"export GIT_DIR=$work/other/.git"$'\n''git --work-tree=. fp origin HEAD:main' \
		"GIT_CONFIG_GLOBAL=$work/other/.git/config git fp origin HEAD:main" \
		'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.fp GIT_CONFIG_VALUE_0="push --force"'$'\n''git fp origin HEAD:main'; do
		push_refused "a force-push alias git finds through its environment is refused: ${script%%$'\n'*}" "$script"
	done
	(cd repo && "$SBSH" -c 'git fp origin HEAD:main') >out 2>err
	if grep -q "'fp' is not a git command" err && ! grep -q refused err; then
		ok "... and without that environment the same word is no alias: git runs and says so"
	else
		bad "git fp without the environment" "$(cat err)"
	fi
	# An alias in a file the repository's config includes (include.path
	# relative to the config's folder, includeIf whatever its condition),
	# and a mirror remote set there.
	printf '[alias]\n\twipe = !rm %s/victim\n' "$work" >inc.cfg
	printf '[include]\n\tpath = inc.cfg\n' >other.cfg
	git -C repo config include.path ../../other.cfg
	survives "a git alias in an included config file" 'git -C repo wipe'
	git -C repo config --unset include.path
	git -C repo config "includeIf.gitdir:$work/repo/.path" "$work/inc.cfg"
	survives "... in an includeIf file" 'git -C repo wipe'
	git -C repo config --remove-section "includeIf.gitdir:$work/repo/"
	printf '[remote "origin"]\n\tmirror = true\n' >inc.cfg
	git -C repo config include.path ../../inc.cfg
	push_refused "a mirror remote set in an included file" 'git push origin HEAD:main'
	git -C repo config --unset include.path
	rm -f inc.cfg other.cfg
else
	missing "git checks" "git is not installed (./bootstrap installs it)"
fi

# The user's allow-list pre-approves exact commands; the deny list wins.
mkdir -p "$XDG_CONFIG_HOME"/sbsh
echo '{"allow": ["rm victim", "rm -f *.tmp"], "deny": ["rm -f important.tmp"]}' >"$XDG_CONFIG_HOME"/sbsh/allow.json
echo keep >victim
"$SBSH" -c 'rm victim' 2>err
if [ ! -e victim ]; then ok "allow-list entry pre-approves"; else bad "allow-list entry" "$(cat err)"; fi
echo keep >victim
"$SBSH" -c 'rm -f victim' 2>err
if [ -f victim ]; then ok "allow-list matches whole commands only"; else bad "allow-list matched another command"; fi
echo x >a.tmp
echo x >important.tmp
"$SBSH" -c 'rm -f a.tmp; rm -f important.tmp' 2>err
if [ ! -e a.tmp ] && [ -f important.tmp ] && grep -q 'denied by' err; then ok "globs in entries; deny wins"; else bad "globs and deny" "$(cat err)"; fi
echo '{"allow": ["rm victim"' >"$XDG_CONFIG_HOME"/sbsh/allow.json
echo keep >victim
"$SBSH" -c 'rm victim' 2>err
if [ -f victim ] && grep -q 'allow.json:[0-9]*:[0-9]*:' err; then ok "a malformed allow-list is reported and not trusted"; else bad "malformed allow-list" "$(cat err)"; fi
# A sparse 2 GB allow-list (the agent can make .agentcommands.json) is
# refused at once, not read.
truncate -s 2G "$XDG_CONFIG_HOME"/sbsh/allow.json
timeout 10 "$SBSH" -c 'rm victim' 2>err
if [ -f victim ] && grep -q 'allow.json: bigger than an allow-list can be' err; then
	ok "a huge allow-list is refused unread"
else
	bad "a huge allow-list is refused unread" "$(cat err)"
fi

# A sparse 3 GB git config file (one the agent made, named by an exported
# GIT_CONFIG_GLOBAL) is not read: what it could say makes an unknown git
# command and a push ASK, at once; git's own commands stay SAFE.
truncate -s 3G huge.gitconfig
out=$(GIT_CONFIG_GLOBAL=$PWD/huge.gitconfig timeout 10 "$SBSH" --classify -c 'git st; git push origin main; git status' 2>&1)
if [[ $out == ASK*"git st may be an alias in $PWD/huge.gitconfig, too big to read"* &&
	$out == *"ASK        git push origin main  # git push reads its remote's config from $PWD/huge.gitconfig, too big to read"* &&
	$out == *"SAFE       git status"* ]]; then
	ok "a huge git config file is not read; what it could say is asked"
else
	bad "a huge git config file is not read; what it could say is asked" "$out"
fi
rm -f huge.gitconfig

rm -f "$XDG_CONFIG_HOME"/sbsh/allow.json

# git options whose value git runs through the shell, and a patch made by
# another program (git diff --no-index FILE /dev/null makes one that
# removes FILE, tracked or not).
if command -v git >/dev/null; then
	survives "git ls-remote --upload-pack runs its value" "git ls-remote --upload-pack='rm victim' ."
	survives "... abbreviated, as git takes it" "git -C repo fetch --upload-p='rm ../victim' ."
	kept "a patch from git diff --no-index, piped to git apply" ASK 'git diff --no-index victim /dev/null | git apply'
fi

# The project's .agentcommands.json pre-approves too, but never ESCAPE (the
# sandbox can write it). The project lies outside the temp folders, where
# no list is honoured (tests/approve/allow.sh).
mkdir -p "$home/proj" && cd "$home/proj" || exit 1
echo '{"allow": ["rm victim", "systemd-run --user true"]}' >.agentcommands.json
echo keep >victim
"$SBSH" -c 'rm victim' 2>err
if [ ! -e victim ]; then ok ".agentcommands.json pre-approves"; else bad ".agentcommands.json" "$(cat err)"; fi
"$SBSH" -c 'systemd-run --user true' 2>err
if grep -q 'refused ESCAPE' err; then ok ".agentcommands.json cannot pre-approve ESCAPE"; else bad ".agentcommands.json and ESCAPE" "$(cat err)"; fi
cd "$work" || exit 1

# Rules from the config file: a project's own deploy script becomes
# PUBLISH, also through a variable and sudo-style wrappers; other commands
# keep their verdicts; a rule cannot lower one.
mkdir -p "$XDG_CONFIG_HOME"/sbsh
printf 'classify = PUBLISH deploy.sh\nclassify = DELETE make wipe-*\n' >"$XDG_CONFIG_HOME"/sbsh/config
printf '#!/bin/sh\necho deployed >deployed\n' >deploy.sh
chmod +x deploy.sh
"$SBSH" -c 'd=./deploy.sh; env $d --prod' >out 2>err
if [ ! -e deployed ] && grep -q 'refused PUBLISH' err; then ok "a config rule makes a script PUBLISH (refused headless)"; else bad "config rule PUBLISH" "$(cat err)"; fi
"$SBSH" --classify -c 'make -k wipe-db' >out 2>err
if grep -q '^DELETE' out && grep -q 'your rule: classify = DELETE make wipe-\*' out; then ok "a config rule matches operands past options"; else bad "config rule operands" "$(cat out err)"; fi
"$SBSH" --classify -c 'make wipe' >out 2>err
if grep -q '^SAFE' out; then ok "a config rule leaves other operands alone"; else bad "config rule other operands" "$(cat out)"; fi
printf 'classify = SAFE rm\n' >"$XDG_CONFIG_HOME"/sbsh/config
echo keep >victim
"$SBSH" -c 'rm victim' >out 2>err
status=$?
if [ -f victim ] && [ "$status" = 2 ] && grep -q 'config:1: classify: a rule cannot make a command SAFE' err; then ok "a config rule cannot lower a verdict"; else bad "config rule SAFE" "status $status $(cat err)"; fi
rm -f "$XDG_CONFIG_HOME"/sbsh/config deploy.sh

# Policy rule 13, for what the session made: its own temp folder goes
# headless (the cleanup trap agents write), what was in /tmp before it, a
# link out of it and a .. out of it do not.
"$SBSH" -c 'tmp=$(mktemp -d); echo x >"$tmp/f"; trap '"'"'rm -rf "$tmp"'"'"' EXIT; echo "$tmp" >made' >out 2>err
status=$?
if [ "$status" = 0 ] && [ -s made ] && [ ! -e "$(cat made)" ] && ! grep -q refused err; then
	ok "a session removes the temp folder it made (rm -rf in an EXIT trap)"
else
	bad "a session removes the temp folder it made" "status $status $(cat err)"
fi
old=$(mktemp -d) && echo keep >"$old/f"
sleep 0.05
for script in "rm -rf $old" "d=\$(mktemp -d); rm -rf \$d/../${old##*/}" "d=\$(mktemp -d); ln -s $work \$d/l; rm -rf \$d/l/" \
	"d=\$(mktemp -d); cp /bin/rm \$d/rm; \$d/rm -rf \$d; rm -rf $old"; do
	echo keep >victim
	"$SBSH" -c "$script" >out 2>err
	if [ -f "$old/f" ] && [ -f victim ] && grep -q 'refused DELETE' err; then
		ok "not the session's own temp: $script"
	else
		bad "not the session's own temp: $script" "$(cat err)"
	fi
done
rm -rf "$old"

# Policy rule 8: a program in a folder the sandbox can write is judged as
# what it is. A copy of rm however named, placed or changed, and a script
# whose #! line runs rm, are refused headless (the victim stays); the
# project's scripts, a copy of a harmless tool and a build product run.
rm_path=$(command -v rm)
survives "a copy of rm under another name" "cp $rm_path cleanup; ./cleanup victim"
survives "... named ls, first on the PATH" "mkdir -p bin2; cp $rm_path bin2/ls; PATH=\$PWD/bin2:\$PATH; ls victim"
survives "... with a byte appended" "cp $rm_path c2; printf x >>c2; ./c2 victim"
survives "... with a byte patched" "cp $rm_path c3; printf x | dd of=c3 bs=1 seek=20000 conv=notrunc 2>/dev/null; ./c3 victim"
survives "... behind find -exec" "cp $rm_path c4; find . -name victim -exec ./c4 {} +"
survives "a script whose #! line is rm" "printf '#!$rm_path -f\\n' >x.sh; chmod +x x.sh; ./x.sh victim"
survives "... #!/usr/bin/env -S rm -f" "printf '#!/usr/bin/env -S rm -f\\n' >x.sh; chmod +x x.sh; ./x.sh victim"
cp "$rm_path" tidy
printf '#!%s -f\n' "$rm_path" >old.sh
chmod +x old.sh
survives "a copy of rm made before the line" './tidy victim'
survives "a script made before the line whose #! line is rm" 'env ./old.sh victim'
rm -f cleanup c2 c3 c4 x.sh tidy old.sh; rm -rf bin2
cc=${CC:-cc}
if command -v "$cc" >/dev/null; then
	printf '#include <unistd.h>\nint main(int c, char **v) { (void)c; execv("%s", v); return 1; }\n' "$rm_path" >zap.c
	printf 'int main(void) { return 0; }\n' >hello.c
	"$cc" -o zap zap.c && "$cc" -o hello hello.c || bad "build the test programs" "$cc failed"
	echo keep >victim
	"$SBSH" -c './zap -rf victim' >out 2>err
	status=$?
	if [ -f victim ] && [ "$status" = 121 ] && grep -q 'refused ASK (headless' err; then
		ok "an unknown binary called the way rm is asks (refused headless)"
	else
		bad "an unknown binary called the way rm is asks" "status $status $(cat err)"
	fi
	"$SBSH" -c './hello --port 8080 victim && echo ran' >out 2>err
	if grep -q '^ran$' out && ! grep -q refused err; then ok "a build product runs"; else bad "a build product runs" "$(cat out err)"; fi
	rm -f zap zap.c hello hello.c
else
	missing "unknown binaries" "no C compiler ($cc)"
fi
printf '#!/bin/sh\necho configured "$@"\n' >configure
chmod +x configure
"$SBSH" -c "cp $(command -v ls) lister; ./configure --prefix=/usr && ./lister victim" >out 2>err
if grep -q '^configured --prefix=/usr$' out && grep -q '^victim$' out && ! grep -q refused err; then
	ok "the project's script and a copy of ls run"
else
	bad "the project's script and a copy of ls run" "$(cat out err)"
fi
rm -f configure lister

finish
