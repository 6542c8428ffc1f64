#!/bin/bash
# Secrets hidden from the sandbox (docs/sandbox.md, "Hidden secrets"): in a
# scratch HOME holding a canary in each default secret, every way of
# reading one from inside fails (cat, python, a redirection, links in the
# project, a copy, /proc/self/root, O_PATH reopened, a nested sbsh), judged
# from outside by what reached the project or stdout; the ordinary dotfiles
# stay readable; the config's hide and unhide lines and --no-hide; the
# hint and --doctor; sbsh's checkpoint store unreadable from another
# project; and the tools that read beside the secrets still work: git over
# ssh through a real sshd and ssh-agent, npm install against a local
# registry stub (the token in ~/.npmrc never sent), pip install in a venv,
# gh with a token in the environment.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/report.sh"
SBSH=${1:-${SBSH:-./sbsh}}
SBSH=$(cd "$(dirname "$SBSH")" && pwd)/$(basename "$SBSH")
[ "$(landlock_abi)" -ge 1 ] || skip_all "Landlock is not available on this kernel: every case needs the sandbox"

# The test area lies outside every writable folder (a hidden file under
# /tmp would be readable through the temp folder's own rule).
base=$(mktemp -d "${SBSH_TEST_BASE:-${HOME:-/root}}/.sbsh-hide-test.XXXXXX") || exit 1
case $(cd "$base" && pwd -P) in
/tmp/* | /var/tmp/* | /dev/shm/*)
	echo "hide tests: $base is inside a writable temp folder; set SBSH_TEST_BASE" >&2
	rm -rf "$base"
	exit 1
	;;
esac
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$base"
}
trap cleanup EXIT

home=$base/home
project=$base/project
mkdir -p "$home" "$project"
canary=SBSH-CANARY-$$
# Each default secret, with a canary in it.
secrets=".ssh/id_ed25519 .ssh/id_work .aws/credentials .azure/accessTokens.json .config/gcloud/credentials.db
.config/gh/hosts.yml .gnupg/private-keys-v1.d/k.key .netrc .git-credentials .config/git/credentials
.docker/config.json .kube/config .pypirc .cargo/credentials .cargo/credentials.toml .npmrc keys/deploy_key
elsewhere/linked_key .local/state/sbsh/history .claude/.credentials.json .codex/auth.json .vault-token
.config/containers/auth.json .terraform.d/credentials.tfrc.json .kaggle/kaggle.json"
for f in $secrets; do
	mkdir -p "$home/$(dirname "$f")"
	echo "$canary $f" >"$home/$f"
done
printf 'github.com:\n    user: me\n    oauth_token: %s-gh\n    git_protocol: ssh\n' "$canary" >"$home/.config/gh/hosts.yml"
# A key kept outside ~/.ssh, named by ~/.ssh/config, and one linked in.
ln -s ../elsewhere/linked_key "$home/.ssh/id_linked"
mkdir -p "$home/.ssh/config.d"
printf 'Host work\n  IdentityFile ~/keys/deploy_key\nInclude config.d/*\n' >"$home/.ssh/config"
printf 'Host extra\n  User someone\n' >"$home/.ssh/config.d/extra"
# What must stay readable.
readable=".bashrc .gitconfig .ssh/config .ssh/config.d/extra .ssh/known_hosts .ssh/id_ed25519.pub
.ssh/authorized_keys keys/notes.txt .config/other/settings .cargo/config.toml .docker/other.json
.kube/cache/discovery .aws-notes elsewhere/readme .claude/settings.json .codex/config.toml"
for f in $readable; do
	mkdir -p "$home/$(dirname "$f")"
	[ -e "$home/$f" ] || echo "readable $f" >"$home/$f"
done
printf '[user]\n\tname = Hide Test\n\temail = hide@example.org\n' >"$home/.gitconfig"

# sb [VAR=VALUE...] [-- sbsh options --] SCRIPT: SCRIPT sandboxed in the
# project with the scratch HOME; stdout and stderr in $base/out, $base/err.
sb() {
	local vars=() opts=()
	while [ $# -gt 1 ] && [ "${1#*=}" != "$1" ] && [ "${1%%=*}" = "$(printf '%s' "${1%%=*}" | tr -cd 'A-Za-z0-9_')" ]; do
		vars+=("$1")
		shift
	done
	if [ "$1" = -- ]; then
		shift
		while [ "$1" != -- ]; do opts+=("$1"); shift; done
		shift
	fi
	(cd "$project" && env -i PATH="$PATH" HOME="$home" TMPDIR=/tmp CI=1 LANG=C.UTF-8 SBSH_KEEPER_IDLE=2 \
		"${vars[@]}" timeout 60 "$SBSH" --sandbox "${opts[@]}" -c "$1") >"$base/out" 2>"$base/err" </dev/null
}
# (a link the test made in the project is not followed: that would be the
# test reading the secret, outside)
leaked() { { grep -l "$canary" "$base/out"; find "$project" -type f -exec grep -l "$canary" {} +; } 2>/dev/null | head -3; }
# no_canary NAME: nothing of a secret reached stdout or the project
no_canary() {
	local where
	where=$(leaked)
	if [ -z "$where" ]; then ok "$1"; else bad "$1" "the canary reached: $where" "$(head -c 300 "$base/err")"; fi
	rm -rf "${project:?}"/*
}

# ---- each secret, read the plain ways -----------------------------------
for f in $secrets; do
	sb "cat ~/$f; python3 -c 'import sys; print(open(sys.argv[1]).read())' ~/$f; head -c 100 < ~/$f"
	no_canary "hidden: ~/$f (cat, python open, < redirection)"
done
sb 'for f in '"$(echo $readable)"'; do cat ~/$f || echo "FAILED $f"; done'
if [ ! -s "$base/err" ] && grep -q 'Hide Test' "$base/out" && grep -q 'User someone' "$base/out" &&
	! grep -q FAILED "$base/out"; then
	ok "readable: the ordinary dotfiles, ~/.ssh's config, known_hosts, *.pub, an Included file"
else
	bad "readable: the ordinary dotfiles" "$(cat "$base/out" "$base/err" | head -20)"
fi
sb 'ls ~/.ssh ~/.aws'
check_contains "hidden folders can still be listed (names only)" "credentials" "$(cat "$base/out")"

# ---- disguises ----------------------------------------------------------
sb 'ln -s ~/.aws/credentials creds; cat creds; cp ~/.aws/credentials copied; ln ~/.aws/credentials hard; cat hard'
no_canary "a link in the project, a cp, a hard link: nothing read"
sb 'cat /proc/self/root'"$home"'/.aws/credentials; cat '"$home"'/.config/../.aws/credentials; cd ~/.aws && cat ./credentials'
no_canary "through /proc/self/root, a .. path, cd into the hidden folder"
sb 'tar cf - ~/.aws ~/.ssh 2>/dev/null | tar xf - -O; dd if=$HOME/.ssh/id_ed25519 2>/dev/null; grep -r . ~/.gnupg ~/.config/gh'
no_canary "tar, dd, grep -r over hidden folders"
cat >"$base/opath.py" <<'EOF'
import ctypes, os, sys
fd = os.open(sys.argv[1], os.O_PATH)  # an O_PATH open needs no read right...
try:
    print(open("/proc/self/fd/%d" % fd).read())  # ...and reopening checks it
except OSError as e:
    print("reopen:", e.strerror)
libc = ctypes.CDLL(None, use_errno=True)
class Handle(ctypes.Structure):
    _fields_ = [("bytes", ctypes.c_uint), ("type", ctypes.c_int), ("f", ctypes.c_ubyte * 128)]
h = Handle(bytes=128)
mnt = ctypes.c_int()
if libc.name_to_handle_at(-100, sys.argv[1].encode(), ctypes.byref(h), ctypes.byref(mnt), 0) == 0:
    mfd = os.open("/", os.O_RDONLY)
    r = libc.open_by_handle_at(mfd, ctypes.byref(h), os.O_RDONLY)
    print("open_by_handle_at:", os.read(r, 200) if r >= 0 else os.strerror(ctypes.get_errno()))
EOF
sb "python3 $base/opath.py ~/.aws/credentials"
no_canary "an O_PATH descriptor reopened through /proc/self/fd, open_by_handle_at"
check_contains "... the reopen is refused" "reopen: Permission denied" "$(cat "$base/out")"
sb 'mv ~/.aws ~/aws-moved; mv ~/.aws/credentials .; mv ~/.ssh/id_ed25519 ~/.ssh/id_ed25519.pub'
if [ -f "$home/.aws/credentials" ] && [ ! -e "$home/aws-moved" ] && [ ! -e "$project/credentials" ] &&
	grep -q "$canary" "$home/.ssh/id_ed25519"; then
	ok "renaming a hidden folder or file (to unhide it) fails: \$HOME is not writable"
else
	bad "renaming a hidden folder or file fails" "$(cat "$base/err")"
fi
sb "$SBSH --no-hide -c 'cat ~/.aws/credentials'; HOME=/tmp $SBSH --no-hide -c 'cat $home/.netrc'"
no_canary "a nested sbsh with --no-hide or another HOME still cannot read them"

# ---- the hint and --doctor ------------------------------------------------
sb 'cat ~/.aws/credentials'
check_contains "a refused read says which file is hidden and how the human unhides it" \
	"sbsh: ~/.aws/credentials is hidden from the sandbox; only the human can let it be read, with unhide = ~/.aws/credentials in ~/.config/sbsh/config" \
	"$(cat "$base/err")"
sb 'ln -s ~/.ssh/id_ed25519 k; cat k; echo next'
check_contains "... also through a link in the project" "sbsh: ~/.ssh/id_ed25519 is hidden" "$(cat "$base/err")"
sb 'true < ~/.netrc'
check_contains "... and for sbsh's own < redirection" "sbsh: ~/.netrc is hidden" "$(cat "$base/err")"
sb 'cat ~/.bashrc ~/nonexistent'
check "no hint when what failed is not hidden" "" "$(grep 'is hidden' "$base/err")"
doctor=$(cd "$project" && env -i PATH="$PATH" HOME="$home" "$SBSH" --doctor 2>&1)
missing_in_doctor=""
for f in .ssh/id_ed25519 .ssh/id_work keys/deploy_key elsewhere/linked_key .aws .gnupg .npmrc .local/state/sbsh; do
	case $doctor in *"  ~/$f"*) ;; *) missing_in_doctor="$missing_in_doctor ~/$f" ;; esac
done
check "--doctor lists what is hidden" "" "$missing_in_doctor"
json=$(cd "$project" && env -i PATH="$PATH" HOME="$home" "$SBSH" --doctor --json 2>&1 |
	python3 -c 'import json,sys; h=json.load(sys.stdin)["hidden"]; print(h["on"], "'"$home"'/.aws" in h["paths"], "'"$home"'/.ssh/id_ed25519.pub" in h["paths"])')
check "--doctor --json: hidden.on, .aws in hidden.paths, no public key there" "True True False" "$json"

# ---- the config's hide and unhide, --no-hide ------------------------------
mkdir -p "$home/.config/sbsh"
printf 'unhide = ~/.aws/config\nhide = ~/keys\nunhide = ~/.ssh/id_work\n' >"$home/.config/sbsh/config"
echo "aws config" >"$home/.aws/config"
sb 'cat ~/.aws/config ~/.ssh/id_work; cat ~/keys/notes.txt || echo notes-hidden; cat ~/.aws/credentials'
out=$(cat "$base/out")
check_contains "unhide = a file in a hidden folder lets that one through" "aws config" "$out"
check_contains "unhide = one key lets it through" "$canary .ssh/id_work" "$out"
check_contains "hide = a folder hides what it holds" "notes-hidden" "$out"
case $out in *"$canary .aws/credentials"*) bad "... the rest of a folder stays hidden" ;; *) ok "... the rest of a folder stays hidden" ;; esac
printf 'unhide = ~/.ssh\n' >"$home/.config/sbsh/config"
sb 'cat ~/.ssh/id_ed25519'
check_contains "unhide = ~/.ssh lets its keys through (a later rule above wins)" "$canary .ssh/id_ed25519" "$(cat "$base/out")"
printf 'hide = relative/path\n' >"$home/.config/sbsh/config"
sb 'true'
check "a relative hide path is a config error (status 2)" "2" "$?"
check_contains "... naming the file and line" "config:1: hide needs an absolute path" "$(cat "$base/err")"
rm -f "$home/.config/sbsh/config"
sb -- --no-hide -- 'cat ~/.aws/credentials'
check_contains "--no-hide: secrets readable" "$canary .aws/credentials" "$(cat "$base/out")"
rm -rf "${project:?}"/*

# ---- the cost: entries made later in a listed folder ------------------------
mkfifo "$base/go" "$project/ready"
(cd "$project" && env -i PATH="$PATH" HOME="$home" TMPDIR=/tmp CI=1 timeout 60 "$SBSH" --sandbox -c \
	'echo r > ready; read x < '"$base"'/go; cat ~/.made-later || echo unreadable-now') >"$base/later" 2>&1 &
later=$!
read -r _ <"$project/ready"
echo later >"$home/.made-later"
echo go >"$base/go"
wait $later
rm -f "$project/ready"
check_contains "a file made in \$HOME after the start is unreadable until the next session (documented)" \
	"unreadable-now" "$(cat "$base/later")"
sb 'cat ~/.made-later'
check "... and readable in the next one" "later" "$(cat "$base/out")"

# ---- sbsh's own checkpoint store ------------------------------------------
other=$base/other
mkdir -p "$other"
(cd "$other" && git init -q . && echo "$canary env" >.env &&
	env -i PATH="$PATH" HOME="$home" TMPDIR=/tmp CI=1 SBSH_KEEPER_IDLE=2 "$SBSH" -c 'echo x >> .env') >/dev/null 2>&1
store=$(echo "$home"/.local/state/sbsh/projects/other-*/store.git)
if [ -d "$store" ] && git --git-dir="$store" log -p --all 2>/dev/null | grep -q "$canary"; then
	sb "git --git-dir=$store log -p --all; cat $store/HEAD; find $home/.local/state/sbsh -type f -exec cat {} +"
	no_canary "another project's checkpoint store (a copy of its .env) is unreadable"
	out=$(cd "$other" && env -i PATH="$PATH" HOME="$home" TMPDIR=/tmp CI=1 SBSH_KEEPER_IDLE=2 \
		"$SBSH" --sandbox -c "$SBSH --review diff" 2>&1)
	check_contains "sbsh --review inside says the store is hidden" "the checkpoint store is hidden from the sandbox" "$out"
	case $out in *"$canary"*) bad "... and shows none of it" ;; *) ok "... and shows none of it" ;; esac
else
	bad "another project's checkpoint store (a copy of its .env) is unreadable" "no store with the canary at $store"
fi

# ---- git, ssh and the agent ---------------------------------------------
sb 'git config --global user.name'
check "git reads ~/.gitconfig" "Hide Test" "$(cat "$base/out")"
sshd=/usr/sbin/sshd
if [ -x "$sshd" ] && command -v ssh-agent >/dev/null && command -v ssh-keygen >/dev/null; then
	rm -f "$home/.ssh/id_ed25519" "$home/.ssh/id_ed25519.pub"
	ssh-keygen -q -t ed25519 -N '' -C hide-test -f "$home/.ssh/id_ed25519"
	ssh-keygen -q -t ed25519 -N '' -f "$base/host_key"
	cp "$home/.ssh/id_ed25519.pub" "$base/authorized_keys"
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	cat >"$base/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $base/host_key
AuthorizedKeysFile $base/authorized_keys
PidFile $base/sshd.pid
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
EOF
	mkdir -p /run/sshd
	"$sshd" -D -e -f "$base/sshd_config" 2>"$base/sshd.log" &
	pids+=($!)
	echo "[127.0.0.1]:$port $(cat "$base/host_key.pub")" >"$home/.ssh/known_hosts"
	eval "$(ssh-agent -s)" >/dev/null
	pids+=("$SSH_AGENT_PID")
	ssh-add -q "$home/.ssh/id_ed25519" 2>/dev/null
	git init -q --bare "$base/remote.git"
	(cd "$base" && git clone -q remote.git seed 2>/dev/null && cd seed && echo hi >f && git add f &&
		git -c user.name=t -c user.email=t@e commit -qm one && git push -q origin HEAD:refs/heads/main) 2>/dev/null
	for _ in $(seq 50); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break; sleep 0.1; done
	# ssh finds ~/.ssh from the password file, not $HOME: named here
	sb SSH_AUTH_SOCK="$SSH_AUTH_SOCK" \
		GIT_SSH_COMMAND="ssh -F $home/.ssh/config -o UserKnownHostsFile=$home/.ssh/known_hosts -i $home/.ssh/id_ed25519" \
		'cat ~/.ssh/id_ed25519; ssh-add -l; git clone -q -b main ssh://root@127.0.0.1:'"$port$base"'/remote.git cloned && cat cloned/f'
	out=$(cat "$base/out")
	check_contains "ssh-add -l lists the key through the agent socket" "hide-test" "$out"
	if [ -f "$project/cloned/f" ] && ! grep -q OPENSSH "$base/out"; then
		ok "git clone over ssh through the agent, the private key unreadable"
	else
		bad "git clone over ssh through the agent" "$(tail -5 "$base/err")" "$(tail -5 "$base/sshd.log")"
	fi
	rm -rf "${project:?}"/*
else
	missing "git over ssh through the agent" "sshd, ssh-agent or ssh-keygen is missing (./bootstrap installs openssh-server)"
fi

# ---- npm against a local registry stub: the token stays home ----------------
if command -v npm >/dev/null; then
	python3 "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/npm_registry.py" 127.0.0.1 "$base/registry.port" "$base/registry.log" &
	pids+=($!)
	for _ in $(seq 50); do [ -s "$base/registry.port" ] && break; sleep 0.1; done
	rport=$(cat "$base/registry.port")
	printf 'registry=http://127.0.0.1:%s/\n//127.0.0.1:%s/:_authToken=%s-npm-token\nfund=false\n' "$rport" "$rport" "$canary" >"$home/.npmrc"
	echo '{"name":"hide-npm","version":"1.0.0","private":true}' >"$project/package.json"
	sb 'npm install --no-audit --no-fund tiny-hide-check && node -e "console.log(require(\"tiny-hide-check\"))"'
	if [ -f "$project/node_modules/tiny-hide-check/index.js" ] && grep -q '^42$' "$base/out"; then
		ok "npm install from the registry ~/.npmrc names (read from its copy without tokens)"
	else
		bad "npm install from the registry ~/.npmrc names" "$(tail -8 "$base/err")"
	fi
	if grep -q tiny-hide-check "$base/registry.log" && ! grep -q "$canary" "$base/registry.log"; then
		ok "... and the token in ~/.npmrc never reached the registry"
	else
		bad "... and the token in ~/.npmrc never reached the registry" "$(cat "$base/registry.log")"
	fi
	sb 'cat "$npm_config_userconfig"'
	check_contains "the copy keeps the registry line" "registry=http://127.0.0.1:$rport/" "$(cat "$base/out")"
	no_canary "... and not the token"
	# The copies lie in a folder the sandbox writes: what it leaves there
	# (a changed copy, links to the human's files, a FIFO) must neither
	# steer the next session nor make sbsh write through a link.
	before=$(cat "$home/.bashrc" "$home"/.config/gh/* | cksum)
	sb 'c=$HOME/.cache/sbsh/sandbox-caches; echo registry=http://evil.invalid/ > $c/npmrc
		mv $c/gh $c/gh.old 2>/dev/null; ln -s $HOME/.config/gh $c/gh; ln -s $HOME/.bashrc $c/.npmrc.tmp
		ln -s $HOME/.bashrc $c/gh.old/.hosts.yml.tmp 2>/dev/null; true'
	sb 'npm config get registry'
	check "a copy changed inside is made again at the next start" "http://127.0.0.1:$rport/" "$(cat "$base/out")"
	check "... and links left in its place are not written through (~/.bashrc, ~/.config/gh unchanged)" \
		"$before" "$(cat "$home/.bashrc" "$home"/.config/gh/* | cksum)"
	sb 'c=$HOME/.cache/sbsh/sandbox-caches; mv $c/npmrc $c/npmrc.old; mkfifo $c/npmrc'
	sb 'npm config get registry'
	check "... nor a FIFO left in its place makes sbsh wait" "http://127.0.0.1:$rport/" "$(cat "$base/out")"
else
	missing "npm install with ~/.npmrc hidden" "npm is not installed (./bootstrap installs it)"
fi

# ---- pip in a venv ---------------------------------------------------------
py=/usr/bin/python3
if [ -x "$py" ] && "$py" -c 'import venv, ensurepip' 2>/dev/null; then
	"$py" - "$base/wheels" <<'EOF'
import base64, hashlib, os, sys, zipfile
out = sys.argv[1]; os.makedirs(out, exist_ok=True)
files = {"tinyhide/__init__.py": b"VALUE = 7\n",
         "tinyhide-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: tinyhide\nVersion: 1.0\n",
         "tinyhide-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
record = "".join("%s,sha256=%s,%d\n" % (n, base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b"=").decode(), len(d)) for n, d in files.items())
record += "tinyhide-1.0.dist-info/RECORD,,\n"
with zipfile.ZipFile(os.path.join(out, "tinyhide-1.0-py3-none-any.whl"), "w") as z:
    for n, d in files.items(): z.writestr(n, d)
    z.writestr("tinyhide-1.0.dist-info/RECORD", record)
EOF
	sb "$py -m venv v && v/bin/pip install -q --no-index --find-links $base/wheels tinyhide && v/bin/python -c 'import tinyhide; print(tinyhide.VALUE)'"
	check "pip install in a venv (~/.netrc, ~/.pypirc hidden)" "7" "$(cat "$base/out")"
	rm -rf "${project:?}"/*
else
	missing "pip install in a venv" "python3-venv is not installed (./bootstrap installs it)"
fi

# ---- gh with a token in the environment ------------------------------------
if command -v gh >/dev/null; then
	printf 'git_protocol: ssh\n' >"$home/.config/gh/config.yml"
	sb GH_TOKEN=token-from-env 'gh config get git_protocol; gh auth token; cat ~/.config/gh/hosts.yml "$GH_CONFIG_DIR/hosts.yml"'
	check "gh runs with GH_TOKEN: its config read from a copy, the token the environment's" \
		"ssh
token-from-env
github.com:
    user: me
    git_protocol: ssh" "$(cat "$base/out")"
	no_canary "... and gh's stored token is not in the copy"
else
	missing "gh with a token in the environment" "gh is not installed (./bootstrap installs it)"
fi

# ---- the copies without tokens, whatever the spelling ----------------------
# npm unquotes its keys and expands ${VAR} inside a value; YAML holds a
# token in a flow mapping, a quoted key or a block below its key.
cp "$home/.npmrc" "$base/npmrc.saved"
cp "$home/.config/gh/hosts.yml" "$base/hosts.saved"
printf '"//r1.example/:_authToken"=%s-q1\n//r2.example/:_authToken=${NPM_TOKEN}%s-q2\n' "$canary" "$canary" >"$home/.npmrc"
printf "//r3.example/:_PASSWORD = '%s-q3'\n//r4.example/:_authToken=\${NPM_TOKEN}\nregistry=https://r.example/\n" "$canary" >>"$home/.npmrc"
printf 'github.com: {oauth_token: %s-f1, user: a}\nghe.example:\n    oauth_token: >-\n        %s-f2\n    "oauth_token": %s-f3\n    user: b\n' \
	"$canary" "$canary" "$canary" >"$home/.config/gh/hosts.yml"
sb 'cat "$npm_config_userconfig" "$GH_CONFIG_DIR/hosts.yml"'
check "the copies keep what names no token (a registry, a token that is only \${VAR}, a host)" \
	"//r4.example/:_authToken=\${NPM_TOKEN}
registry=https://r.example/
ghe.example:
    user: b" "$(cat "$base/out")"
no_canary "... and no token, quoted, after a variable, in a flow mapping or a block scalar"
cp "$base/npmrc.saved" "$home/.npmrc"
cp "$base/hosts.saved" "$home/.config/gh/hosts.yml"

finish
