#!/bin/bash
# Package caches that carry code out: what the human's npx, go build, cargo
# or mvn later runs outside the sandbox must not be writable inside it.
# A fresh HOME gets warm caches made outside (as the human would have them);
# then sandboxed command lines try to rewrite them in several ways, and the
# caches are compared from outside, file by file. The builds must still work
# inside, each tool then writing the sandbox's own private cache: go build
# from the human's warm module cache (read through a file:// proxy), npm
# install, cargo fetch + cargo build --offline, mvn and mvn -o.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/report.sh"
[ "$(landlock_abi)" -ge 1 ] || skip_all "Landlock is not available on this kernel: every case runs in the sandbox"

real_home=${HOME:-/root}
# Outside every folder the sandbox can write: not under a temp folder, and
# the projects not under HOME (the sandbox never grants HOME's ancestors).
home=$(mktemp -d "$real_home/.sbsh-caches-home.XXXXXX")
work=$(mktemp -d "$real_home/.sbsh-caches-work.XXXXXX")
# Go makes its module trees read-only.
trap 'chmod -R u+w "$home" "$work" 2>/dev/null; rm -rf "$home" "$work"' EXIT
[ -d "$real_home/.rustup" ] && export RUSTUP_HOME=${RUSTUP_HOME:-$real_home/.rustup}
private=$home/.cache/sbsh/sandbox-caches

# sb DIR SCRIPT [NAME=VALUE...]: SCRIPT sandboxed in DIR with the fresh HOME.
sb() {
	local dir=$1 script=$2
	shift 2
	(cd "$dir" && env -i PATH="$PATH" HOME="$home" TMPDIR=/tmp CI=1 LANG=C.UTF-8 \
		${RUSTUP_HOME:+RUSTUP_HOME="$RUSTUP_HOME"} "$@" \
		timeout 300 "$SBSH" --sandbox -c "$script") >"$work/out" 2>&1 </dev/null
}
# human CMD...: CMD outside the sandbox, as the human, with the fresh HOME.
human() {
	env -i PATH="$PATH" HOME="$home" TMPDIR=/tmp LANG=C.UTF-8 \
		${RUSTUP_HOME:+RUSTUP_HOME="$RUSTUP_HOME"} "$@" >"$work/out" 2>&1 </dev/null
}
why() { tail -n 15 "$work/out"; }
# snapshot DIR: every name below DIR with its content's hash (modes left
# out: chmod outside the writable folders is a known escape).
snapshot() {
	(cd "$1" && find . -print0 | sort -z | while IFS= read -r -d '' f; do
		if [ -L "$f" ]; then
			printf '%s -> %s\n' "$f" "$(readlink "$f")"
		elif [ -f "$f" ]; then
			printf '%s %s\n' "$f" "$(sha256sum <"$f" | cut -c1-16)"
		else
			printf '%s/\n' "$f"
		fi
	done)
}

mkdir -p "$work/proj"
# plant FILE CONTENT: a file of the human's cache, made outside.
plant() { mkdir -p "$(dirname "$1")" && printf '%s\n' "$2" >"$1"; }

# ---- the human's warm caches ---------------------------------------------------
npx_file=$home/.npm/_npx/0a1b2c3d4e5f6a7b/node_modules/lib/index.js
plant "$npx_file" "module.exports = 'good';"
plant "$home/.npm/_npx/0a1b2c3d4e5f6a7b/package.json" '{"dependencies":{"lib":"1.0.0"}}'
plant "$home/.npm/_cacache/index-v5/1a/2b/3c4d5e $home/.cargo/git/checkouts/bar-0123456789abcdef/abc1234/src/lib.rs" 'index entry'
idx=index.crates.io-1949cf8c6b5b557f
crate_src=$home/.cargo/registry/src/$idx/foo-1.0.0/src/lib.rs
plant "$crate_src" 'pub fn word() -> &'"'"'static str { "good" }'
plant "$home/.cargo/registry/cache/$idx/foo-1.0.0.crate" 'crate bytes'
plant "$home/.cargo/registry/index/$idx/.cache/3/f/foo" 'index cache'
plant "$home/.cargo/git/checkouts/bar-0123456789abcdef/abc1234/src/lib.rs" 'pub fn bar() {}'
# The human's Cargo config, still read inside through a link.
printf '[alias]\nsbsh-alias = "version"\n' >"$home/.cargo/config.toml"
cargo_config=$(cksum <"$home/.cargo/config.toml")
m2_pom=$home/.m2/repository/example/parent/1.0/parent-1.0.pom
plant "$m2_pom" '<project><modelVersion>4.0.0</modelVersion><groupId>example</groupId><artifactId>parent</artifactId><version>1.0</version><packaging>pom</packaging></project>'
plant "$home/.m2/repository/example/lib/1.0/lib-1.0.jar" 'jar bytes'
plant "$home/.gradle/caches/modules-2/files-2.1/example/lib/1.0/0123/lib-1.0.jar" 'jar bytes'
plant "$home/.gradle/wrapper/dists/gradle-8.0-bin/abc/gradle-8.0/bin/gradle" '#!/bin/sh'
plant "$home/.cache/pip/http-v2/a/b/c/d/e/0123456789" 'cached response'
plant "$home/.cache/pip/wheels/ab/cd/ef/pkg-1.0-py3-none-any.whl" 'wheel bytes'
plant "$home/.nuget/packages/foo/1.0.0/lib/net8.0/foo.dll" 'dll bytes'
plant "$home/.cache/uv/archive-v0/0123/pkg/__init__.py" 'print("good")'
plant "$home/.bun/install/cache/lib@1.0.0/index.js" 'module.exports = 1;'
plant "$home/.cache/yarn/v6/npm-lib-1.0.0/node_modules/lib/index.js" 'module.exports = 1;'

# Go: a module the human built with, from a local proxy, so that the module
# cache holds both the extracted tree and cache/download.
gomod=$home/go/pkg/mod
mkdir -p "$gomod"
if command -v go >/dev/null; then
	mkdir -p "$work/goproxy/example.com/lib/@v" "$work/gohuman"
	python3 - "$work/goproxy/example.com/lib/@v" <<'EOF'
import sys, zipfile
d = sys.argv[1]
open(d + "/list", "w").write("v1.0.0\n")
open(d + "/v1.0.0.info", "w").write('{"Version":"v1.0.0","Time":"2024-01-01T00:00:00Z"}\n')
mod = "module example.com/lib\n\ngo 1.19\n"
open(d + "/v1.0.0.mod", "w").write(mod)
with zipfile.ZipFile(d + "/v1.0.0.zip", "w") as z:
    z.writestr("example.com/lib@v1.0.0/go.mod", mod)
    z.writestr("example.com/lib@v1.0.0/lib.go", 'package lib\n\nfunc Word() string { return "good" }\n')
EOF
	printf 'module example.com/app\n\ngo 1.19\n\nrequire example.com/lib v1.0.0\n' >"$work/gohuman/go.mod"
	printf 'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/lib"\n)\n\nfunc main() { fmt.Println("go-" + lib.Word()) }\n' >"$work/gohuman/main.go"
	(cd "$work/gohuman" && human GOPROXY="file://$work/goproxy" GOSUMDB=off GOFLAGS=-mod=mod go build -o app .)
	if [ -f "$gomod/example.com/lib@v1.0.0/lib.go" ] && [ -f "$work/gohuman/go.sum" ]; then
		cp -r "$work/gohuman" "$work/goproj"
		rm -f "$work/goproj/app"
	else
		bad "go build outside fills the human's module cache" "$(why)"
	fi
fi
go_src=$gomod/example.com/lib@v1.0.0/lib.go
go_zip=$gomod/cache/download/example.com/lib/@v/v1.0.0.zip
plant "$home/.cache/go-build/ab/abcdef0123456789-d" 'build output'

# The shared caches, as the human has them now.
roots=".npm .cargo/registry .cargo/git .m2/repository .gradle/caches .gradle/wrapper .cache/pip
.nuget/packages .cache/go-build go/pkg/mod .cache/uv .bun/install/cache .cache/yarn"
for r in $roots; do snapshot "$home/$r" >"$work/before.${r//\//_}"; done

# ---- what --doctor says about them ------------------------------------------------
doctor_check() { # DIR: the tools whose cache --doctor, started in DIR, calls writable
	(cd "$1" && env -i PATH="$PATH" HOME="$home" "$SBSH" --doctor --json) | python3 -c '
import json, sys
d = json.load(sys.stdin)
home = sys.argv[1]
writable = [w["path"] for w in d["writable"]]
tools = d["caches"]["tools"]
need = {"npm", "Go modules", "Go build cache", "Cargo", "Maven", "Gradle", "pip", "NuGet", "uv", "Yarn", "Bun"}
missing = need - {t["tool"] for t in tools}
if missing:
    print("missing:", ",".join(sorted(missing)))
for t in tools:
    if not (t["shared"] or "").startswith(home + "/") or not t["own"].startswith(d["caches"]["private_root"] + "/"):
        print("misplaced:", t["tool"], t["shared"], t["own"])
    if t["shared"] in writable:
        print("granted:", t["tool"])
print(" ".join(sorted(t["tool"] for t in tools if t["shared_writable"])))
' "$home" 2>&1
}
check "--doctor lists each tool's shared cache (read-only) and its own" "" "$(doctor_check "$work/proj")"
check "--doctor says a shared cache beneath the project is writable anyway" "Go modules" "$(doctor_check "$home/go")"
out=$(cd "$home/go" && env -i PATH="$PATH" HOME="$home" "$SBSH" --doctor)
check_contains "--doctor's report names it" "Go modules: $home/go/pkg/mod is WRITABLE anyway" "$out"

# ---- rewriting them from inside ------------------------------------------------
# Each target with several disguises: append, overwrite, replace by rename,
# remove, truncate, sed -i, a hard link into the project, a new sibling.
targets="$npx_file $crate_src $home/.cargo/registry/cache/$idx/foo-1.0.0.crate $m2_pom
$home/.gradle/caches/modules-2/files-2.1/example/lib/1.0/0123/lib-1.0.jar
$home/.gradle/wrapper/dists/gradle-8.0-bin/abc/gradle-8.0/bin/gradle
$home/.cache/pip/http-v2/a/b/c/d/e/0123456789 $home/.nuget/packages/foo/1.0.0/lib/net8.0/foo.dll
$home/.cache/go-build/ab/abcdef0123456789-d $home/.cache/uv/archive-v0/0123/pkg/__init__.py
$home/.npm/_cacache/index-v5/1a/2b/3c4d5e $home/.cargo/git/checkouts/bar-0123456789abcdef/abc1234/src/lib.rs"
[ -f "$go_src" ] && targets="$targets $go_src $go_zip $gomod/cache/download/example.com/lib/@v/v1.0.0.ziphash"
for t in $targets; do
	sb "$work/proj" "
		chmod u+w '$t' 2>/dev/null
		echo evil >> '$t'
		printf evil > '$t'
		sed -i s/good/evil/ '$t'
		truncate -s 0 '$t'
		echo evil > /tmp/sbsh-evil.\$\$ && mv -f /tmp/sbsh-evil.\$\$ '$t'
		cp /etc/hostname '$t'
		ln -f '$t' hardlink && echo evil >> hardlink
		mv '$t' '$t.moved'
		rm -f '$t'
		echo evil > '$(dirname "$t")/planted'
		mkdir '$(dirname "$t")/planted-dir'
		rm -rf '$(dirname "$(dirname "$t")")'
		true"
	rm -f "$work/proj/hardlink"
done
# Through the tools' own variables, pointed back at the human's caches.
if [ -f "$go_src" ]; then
	sb "$work/goproj" "GOMODCACHE='$gomod' GOFLAGS=-modcacherw go clean -modcache; GOMODCACHE='$gomod' go mod download example.com/lib@v1.0.0"
fi
command -v npm >/dev/null && sb "$work/proj" "npm_config_cache='$home/.npm' npm cache clean --force"
sb "$work/proj" "CARGO_HOME='$home/.cargo' XDG_CACHE_HOME='$home/.npm' GOMODCACHE='$gomod' sh -c 'echo evil > \"\$CARGO_HOME/registry/src/$idx/foo-1.0.0/src/lib.rs\"'"
# A link planted in the sandbox's own cache, pointing back at the human's.
sb "$work/proj" "mkdir -p \"\$npm_config_cache\" && ln -sfn '$home/.npm/_npx' \"\$npm_config_cache/_npx\" &&
	echo evil >> \"\$npm_config_cache/_npx/0a1b2c3d4e5f6a7b/node_modules/lib/index.js\"
	rm -f \"\$npm_config_cache/_npx\"
	echo evil >> \"\$CARGO_HOME/config.toml\""
# A nested sbsh, started with variables that name the human's caches.
sb "$work/proj" "npm_config_cache='$home/.npm' GOMODCACHE='$gomod' CARGO_HOME='$home/.cargo' '$SBSH' --sandbox -c 'echo evil >> \"\$npm_config_cache/_npx/0a1b2c3d4e5f6a7b/node_modules/lib/index.js\"; echo evil >> \"\$CARGO_HOME/registry/src/$idx/foo-1.0.0/src/lib.rs\"'"

check "the human's ~/.cargo/config.toml is unchanged by the sandbox" "$cargo_config" "$(cksum <"$home/.cargo/config.toml")"
for r in $roots; do
	snapshot "$home/$r" >"$work/after"
	if cmp -s "$work/before.${r//\//_}" "$work/after"; then
		ok "the human's ~/$r is unchanged by the sandbox"
	else
		bad "the human's ~/$r is unchanged by the sandbox" "$(diff "$work/before.${r//\//_}" "$work/after" | head -n 8)"
	fi
done

# ---- odd settings: a clear outcome, never a crash ------------------------------
# say [NAME=VALUE...] -- TEXT: what TEXT prints in the sandbox.
say() {
	local vars=()
	while [ "$1" != -- ]; do vars+=("$1"); shift; done
	(cd "$work/proj" && env -i PATH="$PATH" "${vars[@]}" "$SBSH" --sandbox -c "$2" 2>&1)
}
check "a GOMODCACHE that GOPROXY cannot carry: no file proxy, a private module cache" \
	"|$private/go/mod" "$(say HOME="$home" GOMODCACHE="$home/a,b" -- 'echo "${GOPROXY-}|$GOMODCACHE"')"
check "the human's MAVEN_OPTS are kept" \
	"-Xmx1g -Dmaven.repo.local=$private/maven/repository -Dmaven.repo.local.tail=$home/.m2/repository" \
	"$(say HOME="$home" MAVEN_OPTS=-Xmx1g -- 'echo "$MAVEN_OPTS"')"
check "a relative XDG_CACHE_HOME is ignored" "$private/npm" \
	"$(say HOME="$home" XDG_CACHE_HOME=rel -- 'echo "$npm_config_cache"')"
check "no HOME: the tools are left alone" "ok unset" "$(say -- 'echo ok ${npm_config_cache-unset}')"
outer=$(say HOME="$home" -- 'echo "$GOPROXY $MAVEN_OPTS $GOMODCACHE"')
check "a nested sbsh keeps the outer one's caches and proxy" "$outer" \
	"$(say HOME="$home" -- "'$SBSH' --sandbox -c 'echo \"\$GOPROXY \$MAVEN_OPTS \$GOMODCACHE\"'")"

# ---- the builds still work inside, in the sandbox's own caches ----------------
if ! command -v go >/dev/null; then
	missing "go build inside from the human's module cache" "go is not installed (./bootstrap installs golang-go)"
elif [ -d "$work/goproj" ]; then
	# GOPROXY=off: the module can only come from the human's cache.
	if sb "$work/goproj" 'go build -o app . && ./app' GOPROXY=off && grep -q go-good "$work/out" &&
		[ -f "$private/go/mod/example.com/lib@v1.0.0/lib.go" ]; then
		ok "go build inside, the module read from the human's cache into the sandbox's"
	else
		bad "go build inside from the human's module cache" "$(why)"
	fi
	if sb "$work/goproj" "rm -f app; '$SBSH' --sandbox -c 'go build -o app . && ./app'" GOPROXY=off &&
		grep -q go-good "$work/out"; then
		ok "go build in a nested sbsh"
	else
		bad "go build in a nested sbsh" "$(why)"
	fi
fi

if command -v npm >/dev/null; then
	mkdir -p "$work/npm"
	printf '{ "name": "sbsh-caches-check", "version": "1.0.0", "private": true }\n' >"$work/npm/package.json"
	if sb "$work/npm" 'npm install --no-audit --no-fund is-number@7.0.0 && node -e "require(\"is-number\")"' &&
		[ -d "$work/npm/node_modules/is-number" ] && [ -d "$private/npm/_cacache" ]; then
		ok "npm install inside, into the sandbox's own npm cache"
	else
		bad "npm install inside" "$(why)"
	fi
else
	missing "npm install inside" "npm is not installed (./bootstrap installs it)"
fi

if command -v cargo >/dev/null; then
	mkdir -p "$work/cargo/src"
	printf '[package]\nname = "sbshcaches"\nversion = "0.1.0"\nedition = "2018"\n\n[dependencies]\nitoa = "=1.0.11"\n' >"$work/cargo/Cargo.toml"
	printf 'fn main() { let mut b = itoa::Buffer::new(); println!("cargo-{}", b.format(42)); }\n' >"$work/cargo/src/main.rs"
	if sb "$work/cargo" 'cargo sbsh-alias' && grep -q '^cargo ' "$work/out"; then
		ok "the human's ~/.cargo/config.toml is read inside (an alias)"
	else
		bad "the human's ~/.cargo/config.toml is read inside" "$(why)"
	fi
	if sb "$work/cargo" 'cargo fetch && cargo build --offline && ./target/debug/sbshcaches' &&
		grep -q cargo-42 "$work/out" && [ -d "$private/cargo/registry" ]; then
		ok "cargo fetch, then cargo build --offline inside, in the sandbox's own CARGO_HOME"
	else
		bad "cargo fetch and cargo build --offline inside" "$(why)"
	fi
else
	missing "cargo build --offline inside" "cargo is not installed (./bootstrap installs it)"
fi

if command -v mvn >/dev/null; then
	pom() { # DIR GROUP ARTIFACT VERSION: a project whose parent is that POM
		mkdir -p "$1"
		printf '<project><modelVersion>4.0.0</modelVersion><parent><groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version><relativePath/></parent><artifactId>check</artifactId><packaging>pom</packaging></project>\n' "$2" "$3" "$4" >"$1/pom.xml"
	}
	pom "$work/mvn-online" org.apache apache 33
	if sb "$work/mvn-online" 'mvn -B -q validate && mvn -B -q -o validate' &&
		[ -f "$private/maven/repository/org/apache/apache/33/apache-33.pom" ]; then
		ok "mvn, then mvn -o inside, in the sandbox's own local repository"
	else
		bad "mvn and mvn -o inside" "$(why)"
	fi
	mvn_version=$(mvn -B -v 2>/dev/null | grep -o 'Maven [0-9]*\.[0-9]*' | head -n 1)
	mvn_version=${mvn_version#Maven }
	pom "$work/mvn-warm" example parent 1.0
	if [ "${mvn_version%%.*}" -gt 3 ] 2>/dev/null || [ "${mvn_version#*.}" -ge 9 ] 2>/dev/null; then
		if sb "$work/mvn-warm" 'mvn -B -q -o validate'; then
			ok "mvn -o inside, its parent read from the human's repository (maven.repo.local.tail)"
		else
			bad "mvn -o inside from the human's repository" "$(why)"
		fi
	else
		skip "mvn -o inside from the human's repository" "Maven $mvn_version reads one local repository; 3.9 reads the human's as maven.repo.local.tail"
	fi
else
	missing "mvn inside" "mvn is not installed (./bootstrap installs maven)"
fi

# After the builds, the human's caches are still as they were.
changed=
for r in $roots; do
	snapshot "$home/$r" >"$work/after"
	cmp -s "$work/before.${r//\//_}" "$work/after" || changed="$changed ~/$r"
done
check "the builds inside wrote none of the human's caches" "" "$changed"

finish
