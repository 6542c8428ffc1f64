#!/bin/bash
# Scripts the agent wrote are the agent's text (policy rule 10, issue 18):
# a program file that differs from what the human accepted (new, or
# changed by a command since) is judged when it runs, like the line's own
# text, while the human's accepted code stays opaque. Judged from outside:
# the data folder is still there after a headless run (status 121), and
# is gone when the same script is the human's.
# Usage: tests/checkpoint/agent-scripts.sh [SBSH]. Prints "N passed, N failed".
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/report.sh"
SBSH=${1:-${SBSH:-./sbsh}}
SBSH=$(cd "$(dirname "$SBSH")" && pwd)/$(basename "$SBSH")
require git python3 make

# The state folder (the store) lies under $HOME, outside the folders the
# sandbox writes; the projects and scratch files under a temp folder.
base_parent=${SBSH_TEST_BASE:-${HOME:-/root}}
state=$(mktemp -d "$base_parent/.sbsh-agent-scripts.XXXXXX") || exit 1
base=$(mktemp -d "${TMPDIR:-/tmp}/sbsh-agent-scripts.XXXXXX") || exit 1
scratch=$base/scratch
mkdir "$scratch"
cleanup() {
	pkill -f "sbsh-keeper serve $base/" 2>/dev/null
	rm -rf "$base" "$state"
}
trap cleanup EXIT
export XDG_STATE_HOME=$state/state XDG_CONFIG_HOME=$state/config CI=1 SBSH_KEEPER_IDLE=2
unset GIT_DIR GIT_WORK_TREE GIT_CONFIG_COUNT SBSH_EVENTS
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com

n=0
# new_project [git|plain]: a project whose first session has made what the
# human had the accepted state.
new_project() {
	n=$((n + 1))
	p=$base/p$n
	mkdir -p "$p" && cd "$p" || exit 1
	[ "${1:-git}" = git ] && git init -q .
	echo 'int main(void) { return 0; }' >app.c
	echo 'echo human' >human.sh
	agent 'true'
}
data() { mkdir -p data && echo keep >data/f; }
kept() { [ -f data/f ] && echo kept || echo gone; }
agent() { "$SBSH" -c "$1" 2>"$scratch/err" </dev/null; }
review() { "$SBSH" --review "$@"; }

# refused NAME WRITE RUN: the agent writes with WRITE on one line and runs
# with RUN on the next; RUN is refused headless and data survives.
refused() {
	data
	agent "$2"
	agent "$3"
	local rc=$?
	if [ $rc -eq 121 ] && [ "$(kept)" = kept ]; then
		ok "$1"
	else
		bad "$1" "status $rc, data $(kept)" "$(cat "$scratch/err")"
	fi
}

# stopped NAME WRITE RUN: as refused, but the script judged harmless
# rewrites itself (or what it sources) as it runs: it is stopped before
# the text it adds is read, and data survives.
stopped() {
	data
	agent "$2"
	agent "$3"
	local rc=$?
	if [ $rc -ne 0 ] && [ "$(kept)" = kept ] && grep -q "opened for writing while it ran" "$scratch/err"; then
		ok "$1"
	else
		bad "$1" "status $rc, data $(kept)" "$(cat "$scratch/err")"
	fi
}

for kind in git plain; do
	new_project $kind
	stopped "sh FILE that appends to itself as it runs ($kind)" \
		'printf "echo start\necho \"rm -rf data\" >>clean.sh\n" >clean.sh' 'sh clean.sh'
	stopped "./FILE (#!/bin/sh) appending through \$0 ($kind)" \
		'printf "#!/bin/sh\necho start\necho \"rm -rf data\" >>\"\$0\"\n" >clean.sh; chmod +x clean.sh' './clean.sh'
	stopped "sh < FILE appending to itself ($kind)" \
		'printf "echo start\necho \"rm -rf data\" >>clean.sh\nsleep 0.2\n" >clean.sh' 'sh <clean.sh'
	stopped "bash FILE whose python rewrites what it sources next ($kind)" \
		'echo "echo lib" >lib.sh; printf "python3 -c \"open(\x27lib.sh\x27,\x27a\x27).write(\x27rm -rf data\\\\n\x27)\"\n. ./lib.sh\n" >clean.sh' \
		'bash clean.sh'
	rm -f clean.sh lib.sh
	refused "sh FILE the agent wrote on an earlier line is judged ($kind)" \
		'echo "rm -rf data" >clean.sh' 'sh clean.sh'
	refused "./FILE ($kind)" 'printf "#!/bin/sh\nrm -rf data\n" >clean.sh; chmod +x clean.sh' './clean.sh'
	refused "bash ./FILE, through env ($kind)" 'echo "rm -rf data" >clean.sh' 'env bash ./clean.sh'
	refused "source FILE ($kind)" 'echo "rm -rf data" >clean.sh' '. ./clean.sh'
	refused "sh < FILE ($kind)" 'echo "rm -rf data" >clean.sh' 'sh < clean.sh'
	refused "sh FILE in a pipeline's stage ($kind)" 'echo "rm -rf data" >clean.sh' 'true | sh clean.sh'
	refused "sh FILE in a \$( ) ($kind)" 'echo "rm -rf data" >clean.sh' 'out=$(sh clean.sh)'
	refused "sed -f the agent's script, in a pipeline ($kind)" 'printf "1e rm -rf data\n" >clean.sed' 'echo a | sed -f clean.sed'
	refused "sh <&3 from exec 3< FILE ($kind)" 'echo "rm -rf data" >clean.sh' 'exec 3<clean.sh; sh <&3'
	refused "{ sh; } < FILE ($kind)" 'echo "rm -rf data" >clean.sh' '{ sh; } < clean.sh'
	refused "a shell inside sh -c running it ($kind)" 'echo "rm -rf data" >clean.sh' 'bash -c "sh clean.sh"'
	refused "find -exec sh {} on it ($kind)" 'echo "rm -rf data" >clean.sh' 'find . -name clean.sh -exec sh {} \;'
	refused "a symlink to it ($kind)" 'echo "rm -rf data" >clean.sh; ln -sf clean.sh tidy' 'sh tidy'
	refused "python3 FILE ($kind)" 'printf "import shutil\nshutil.rmtree(\"data\")\n" >tidy.py' 'python3 tidy.py'
	refused "make with a Makefile the agent wrote ($kind)" 'printf "clean:\n\t\$(RM) -r data\n" >Makefile' 'make clean'
	refused "a recipe hidden in a make variable ($kind)" \
		'printf "define W\nrm -rf data\nendef\nclean:\n\t\$(W)\n" >Makefile' 'make clean'
	refused "npm run with a package.json the agent wrote ($kind)" \
		'printf "{\"name\":\"x\",\"version\":\"1.0.0\",\"scripts\":{\"wipe\":\"rm -rf data\"}}\n" >package.json' \
		'npm run wipe'
	refused "npm test runs the agent's pretest ($kind)" \
		'printf "{\"name\":\"x\",\"version\":\"1.0.0\",\"scripts\":{\"pretest\":\"rm -rf data\",\"test\":\"true\"}}\n" >package.json' \
		'npm test'
	refused "npm publish --dry-run runs the agent's prepublishOnly ($kind)" \
		'printf "{\"name\":\"x\",\"version\":\"1.0.0\",\"scripts\":{\"prepublishOnly\":\"rm -rf data\"}}\n" >package.json' \
		'npm publish --dry-run'
	refused "a human's script the agent changed ($kind)" 'echo "rm -rf data" >>human.sh' 'sh human.sh'
	refused "make -C into a folder with the agent's Makefile ($kind)" \
		'mkdir -p sub; printf "clean:\n\trm -rf ../data\n" >sub/Makefile' 'make -C sub clean'
	refused "npm --prefix a folder with the agent's package.json ($kind)" \
		'mkdir -p sub; printf "{\"scripts\":{\"w\":\"rm -rf ../data\"}}\n" >sub/package.json' 'npm run w --prefix sub'
	refused "make with the agent's Makefile including the agent's rules ($kind)" \
		'printf "include rules.mk\n" >Makefile; printf "clean:\n\trm -rf data\n" >rules.mk' 'make clean'
	refused "MAKEFILES naming the agent's makefile ($kind)" \
		'printf "wipe:\n\trm -rf data\n" >rules.mk' 'MAKEFILES=rules.mk make wipe'
	refused "make remaking its out-of-date Makefile first, whatever the goal ($kind)" \
		'printf "all:\n\ttrue\nMakefile: FORCE\n\trm -rf data\nFORCE:\n" >Makefile' 'make all'
	refused "make remaking ./Makefile, older than what it needs ($kind)" \
		'printf "all:\n\ttrue\n./Makefile: rules.in\n\trm -rf data\n" >Makefile; sleep 0.05; echo new >rules.in' 'make all'
	# An up-to-date Makefile is not remade: its rule for itself is not run.
	data
	agent 'echo old >rules.in; sleep 0.05; printf "all:\n\ttrue\nMakefile: rules.in\n\trm -rf data\n" >Makefile'
	if agent 'make all' && [ "$(kept)" = kept ]; then
		ok "an up-to-date Makefile's rule for itself is not judged ($kind)"
	else
		bad "an up-to-date Makefile's rule for itself is not judged ($kind)" "data $(kept)" "$(cat "$scratch/err")"
	fi
	refused "python3 -c importing a module the agent wrote ($kind)" \
		'printf "import shutil\nshutil.rmtree(\"data\")\n" >tidy.py' 'python3 -c "import tidy"'
	refused "python3 FILE importing the agent's module, which imports another ($kind)" \
		'printf "import tidy\n" >main.py; printf "import shutil\nshutil.rmtree(\"data\")\n" >tidy.py' 'python3 main.py'
	refused "runpy.run_path of the agent's file ($kind)" \
		'printf "import shutil\nshutil.rmtree(\"data\")\n" >tidy.py' 'python3 -c "import runpy; runpy.run_path(\"tidy.py\")"'
	refused "PYTHONPATH with the agent's sitecustomize.py ($kind)" \
		'printf "import shutil\nshutil.rmtree(\"data\")\n" >sitecustomize.py' 'PYTHONPATH=. python3 -c 1'
	refused "node -e requiring the agent's file ($kind)" \
		'printf "require(\"fs\").rmSync(\"data\",{recursive:true})\n" >nodetidy.js' 'node -e "require(\"./nodetidy\")"'
	refused "node -r the agent's file ($kind)" \
		'printf "require(\"fs\").rmSync(\"data\",{recursive:true})\n" >tidy.js' 'node -r ./tidy.js -e 1'
	refused "NODE_OPTIONS=--require the agent's file ($kind)" \
		'printf "require(\"fs\").rmSync(\"data\",{recursive:true})\n" >tidy.js' 'export NODE_OPTIONS="--require ./tidy.js"; node -e 1'
	refused "perl -I. -M the agent's module ($kind)" \
		'printf "package tidy; system(\"rm -rf data\"); 1;\n" >tidy.pm' 'perl -I. -Mtidy -e 1'
	refused "PERL5OPT=-M the agent's module ($kind)" \
		'printf "package tidy; system(\"rm -rf data\"); 1;\n" >tidy.pm' 'PERL5LIB=. PERL5OPT=-Mtidy perl -e 1'
	refused "perl -e do the agent's file ($kind)" \
		'printf "system(\"rm -rf data\");\n" >tidy.pl' 'perl -e "do \"./tidy.pl\""'
	refused "python3 -m a module the agent wrote ($kind)" \
		'printf "import shutil\nshutil.rmtree(\"data\")\n" >tidy.py' 'python3 -m tidy'
	rm -rf clean.sh tidy tidy.py Makefile package.json human.sh sub rules.mk rules.in main.py sitecustomize.py tidy.js nodetidy.js tidy.pm tidy.pl clean.sed
done

# A makefile whose rules make a wide graph, all up to date (8 rules a
# layer, each needing the whole next layer, 14 layers: 8^14 paths): make
# would not remake it, and judging so looks at each rule once.
new_project git
data
agent 'python3 -c "
L, W = 14, 8
n = lambda l, w: \"n%d_%d\" % (l, w)
f = open(\"Makefile\", \"w\")
f.write(\"all:\\n\\ttrue\\nMakefile: \" + \" \".join(n(0, w) for w in range(W)) + \"\\n\\trm -rf data\\n\")
for l in range(L - 1):
    for w in range(W):
        f.write(\"%s: %s\\n\\ttrue\\n\" % (n(l, w), \" \".join(n(l + 1, x) for x in range(W))))
f.close()
for l in reversed(range(L)):
    for w in range(W):
        open(n(l, w), \"w\").close()
"; sleep 0.05; touch Makefile'
timeout 60 "$SBSH" -c 'make -s all' 2>"$scratch/err" </dev/null
check "a wide graph of up-to-date rules is judged at once, and make runs" "0 kept" "$? $(kept)"
rm -f Makefile n*_*

# A script in a temp folder is every session's to write: always judged.
new_project git
refused "a script in a temp folder" "echo 'rm -rf $p/data' >$scratch/t.sh" "sh $scratch/t.sh"
refused "a script in a temp folder given what to delete" "echo 'rm -rf \"\$1\"' >$scratch/t.sh" "sh $scratch/t.sh $p/data"
# A wrapper there is judged with the operands it is given: "$@" is known.
printf '#!/bin/sh\nexec python3 "$@"\n' >"$scratch/py"
chmod +x "$scratch/py"
out=$(agent "$scratch/py -c 'print(6 * 7)'; sh $scratch/py -c 'print(6 * 8)'")
check "a wrapper script in a temp folder, exec python3 \"\$@\", runs its known operands" "42 48" "$(echo $out)"

# The human's accepted code stays opaque: it runs without a question.
new_project git
data
printf 'clean:\n\trm -rf data\n' >Makefile
echo 'rm -rf data' >clean.sh
review accept Makefile clean.sh >/dev/null
agent 'sh clean.sh'
check "a script the human accepted runs without a question" "0 gone" "$? $(kept)"
data
agent 'make clean >/dev/null'
check "so does make with the human's Makefile" "0 gone" "$? $(kept)"
# written before the project's first session: accepted as the human's
n=$((n + 1))
p=$base/p$n
mkdir -p "$p" && cd "$p" && git init -q . || exit 1
data
printf '#!/bin/sh\nrm -rf data\n' >configure && chmod +x configure
agent './configure'
check "an untouched project's ./configure runs without a question" "0 gone" "$? $(kept)"
data
agent './configure 2>&1 | cat; sh ./configure & wait'
check "... and so it does in a pipeline's stage or as a job" "0 gone" "$? $(kept)"

# After the agent edits it, the human's accept makes it opaque again.
new_project git
agent 'echo "rm -rf data" >clean.sh'
review accept clean.sh >/dev/null
data
agent 'sh clean.sh'
check "an agent's script runs once the human accepts it" "0 gone" "$? $(kept)"

# No false alarms: what agents write to build and test still runs.
new_project git
agent 'printf "CFLAGS=-O2\nall: app\napp: app.c\n\t\$(CC) \$(CFLAGS) -o \$@ app.c\n" >Makefile'
agent 'make >/dev/null'
check "make with the agent's Makefile of \$(CC) rules builds" "0 yes" "$? $([ -x app ] && echo yes || echo no)"
agent 'printf "echo testing\nfor f in *.c; do test -f \"\$f\" && echo \"\$f\"; done\n" >t.sh'
check "the agent's harmless script runs" "testing app.c" "$(agent 'sh t.sh' | tr '\n' ' ' | sed 's/ $//')"
agent 'printf "n=\${1:-3}\nif [ \$n -gt 0 ]; then sh ./r.sh \$((n - 1)); fi\necho \$n\n" >r.sh'
check "a script that runs itself is judged once, and runs" "0 1 2 3" "$(agent 'sh r.sh' | tr '\n' ' ' | sed 's/ $//')"
agent 'printf "{\"name\":\"x\",\"version\":\"1.0.0\",\"scripts\":{\"hello\":\"echo hello\"}}\n" >package.json'
check_contains "npm run of the agent's harmless script" "hello" "$(agent 'npm run hello' 2>&1)"

finish
