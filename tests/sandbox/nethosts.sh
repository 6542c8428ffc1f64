#!/bin/bash
# The host allow-list (--net=allow:HOST[:PORT],...; docs/sandbox.md, "Host
# allow-list"): listeners on loopback addresses stand for hosts, and names
# come from a hosts file bind-mounted in a mount namespace of the suite's
# own. Each case is judged from outside: what each listener's log got. An
# allowed host is reached through sbsh's proxy (plain HTTP and CONNECT);
# a host not listed gets the proxy's 403 naming sbsh, the host and the
# config line, and its listener gets nothing; going round the proxy
# (curl --noproxy, a raw connect) fails, and so does a raw connect to
# another address on the proxy's port or a localhost:PORT (the supervisor
# checks the address: connect, TCP Fast Open, IPv4-mapped IPv6, 0.0.0.0);
# localhost:PORT is reached directly; UDP gets nowhere with --net=off and
# with a host allow-list, only to the nameservers with a port allow-list;
# npm installs through the proxy from a registry stub; `net` events; a
# nested sbsh keeps the proxy; bad specs are refused.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/report.sh"
SBSH=${1:-${SBSH:-./sbsh}}
SBSH=$(cd "$(dirname "$SBSH")" && pwd)/$(basename "$SBSH")
lib=${top_srcdir:-$(dirname "$0")/../..}/tests/lib
[ "$(landlock_abi)" -ge 4 ] || skip_all "Landlock ABI 4 (TCP rules) is not available on this kernel"
require curl python3

base=$(mktemp -d "${SBSH_TEST_BASE:-${HOME:-/root}}/.sbsh-nethosts-test.XXXXXX") || exit 1
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$base"
}
trap cleanup EXIT
home=$base/home
project=$base/project
mkdir -p "$home" "$project"

# serve ADDRESS NAME: an HTTP listener on ADDRESS (a port the kernel
# picks, in $base/NAME.port) logging each request path to $base/NAME.log.
serve() {
	python3 - "$1" "$base/$2.port" "$base/$2.log" 2>/dev/null <<'EOF' &
import http.server, sys
log = open(sys.argv[3], "a")
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        log.write(self.path + "\n"); log.flush()
        body = b"hello from " + sys.argv[1].encode() + b"\n"
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
s = http.server.HTTPServer((sys.argv[1], 0), H)
open(sys.argv[2], "w").write(str(s.server_address[1]))
s.serve_forever()
EOF
	pids+=($!)
	for _ in $(seq 100); do [ -s "$base/$2.port" ] && break; sleep 0.05; done
	touch "$base/$2.log"
}
serve 127.0.0.2 a
serve 127.0.0.3 b
serve 127.0.0.1 local
serve 127.0.0.1 local2
pa=$(cat "$base/a.port") pb=$(cat "$base/b.port") pl=$(cat "$base/local.port") pl2=$(cat "$base/local2.port")

# sb NET SCRIPT: SCRIPT sandboxed headless in the project with --net=NET;
# stdout, stderr and the event stream in $base/out, err, events.
sb() {
	: >"$base/events"
	(cd "$project" && env -i PATH="$PATH" HOME="$home" TMPDIR=/tmp CI=1 LANG=C.UTF-8 \
		timeout 60 "$SBSH" --sandbox --net="$1" --events "$base/events" -c "$2") >"$base/out" 2>"$base/err" </dev/null
}
got() { grep -c "^$2\$" "$base/$1.log"; } # got LISTENER PATH: how many requests for PATH

# ---- addresses -------------------------------------------------------------
sb "allow:127.0.0.2:$pa" "curl -s http://127.0.0.2:$pa/plain; curl -s -p http://127.0.0.2:$pa/tunnel"
check "an allowed host is reached through the proxy (plain HTTP)" "1" "$(got a /plain)"
check "... and through a CONNECT tunnel" "1" "$(got a /tunnel)"
check_contains "... and the answers come back" "hello from 127.0.0.2" "$(cat "$base/out")"
sb "allow:127.0.0.2:$pa" "curl -s -w ' %{http_code}' http://127.0.0.3:$pb/refused; echo; curl -s -p http://127.0.0.3:$pb/refused-tunnel; echo rc=\$?"
check "a host not listed: its listener gets nothing" "0" "$(($(got b /refused) + $(got b /refused-tunnel)))"
out=$(cat "$base/out")
check_contains "... the agent reads a 403 naming sbsh and the host" \
	"sbsh: the sandbox refused a connection to 127.0.0.3:$pb: not on the network allow-list" "$out"
check_contains "... and the config line to add" "network = allow:127.0.0.2:$pa,127.0.0.3 in $home/.config/sbsh/config" "$out"
check_contains "... and a 403 status" " 403" "$out"
check_contains "a refused CONNECT fails the tunnel" "rc=56" "$out"
check_contains "a one-line hint on stderr" "sbsh: refused a connection to 127.0.0.3:$pb (not on the network allow-list" \
	"$(cat "$base/err")"
events=$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["event"] == "net":
        print(e["host"], e["port"], e["decision"], e["by"])' "$base/events" | sort -u)
check "net events: each decision, with its host, port and who took it" \
	"127.0.0.3 $pb refuse headless" "$events"
sb "allow:127.0.0.2:$pa" "curl -s http://127.0.0.2:$pa/evented"
check_contains "... an allowed connection is one too" "127.0.0.2 $pa allow allow-list" \
	"$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["event"] == "net":
        print(e["host"], e["port"], e["decision"], e["by"])' "$base/events")"
sb "allow:127.0.0.2:$pa" "curl -s --noproxy '*' http://127.0.0.2:$pa/around; echo rc=\$?
python3 -c 'import socket; socket.create_connection((\"127.0.0.2\", $pa)).sendall(b\"GET /raw HTTP/1.0\r\n\r\n\")'; echo raw=\$?"
check "going round the proxy fails: curl --noproxy '*', a raw connect" "0" "$(($(got a /around) + $(got a /raw)))"
check_contains "... with Landlock's refusal" "raw=1" "$(cat "$base/out")"
sb "allow:127.0.0.2:$pa" "i=0; while [ \$i -lt 150 ]; do curl -s -o /dev/null http://127.0.0.2:$pa/many; i=\$((i+1)); done"
check "150 connections in one session all go through (each relay's slot is given back)" "150" "$(got a /many)"
sb "allow:127.0.0.2:$pa:1" "curl -s http://127.0.0.2:$pa/wrong-port"
check "a host allowed on another port only: refused" "0" "$(got a /wrong-port)"
sb "allow:127.0.0.2:$pa" "$SBSH -c 'curl -s http://127.0.0.2:$pa/nested; curl -s http://127.0.0.3:$pb/nested'"
check "a nested sbsh keeps its session's proxy" "1" "$(got a /nested)"
check "... and its refusals" "0" "$(got b /nested)"
# ---- round the proxy, on an allowed port: the supervisor -----------------------
# listen tcp|udp ADDRESS PORT NAME: tests/lib/net_listen.py, its port in
# $base/NAME.port and what it got in $base/NAME.log, one line each.
listen() {
	rm -f "$base/$4.port"
	python3 "$lib/net_listen.py" "$1" "$2" "$3" "$base/$4.log" "$base/$4.port" 2>"$base/$4.err" &
	pids+=($!)
	for _ in $(seq 100); do [ -s "$base/$4.port" ] && break; sleep 0.02; done
	touch "$base/$4.log"
	echo "$1 $2" >"$base/$4.addr"
}
# lines NAME: what the listener got, once it has taken everything sent
# before: a marker sent from outside comes last (one connection or
# datagram at a time), so nothing waits for what never comes.
lines() {
	python3 - "$base/$1" <<'PY'
import socket, sys, time
base = sys.argv[1]
proto, addr = open(base + ".addr").read().split()
port = int(open(base + ".port").read())
if proto == "tcp":
    socket.create_connection((addr, port)).sendall(b"marker")
else:
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"marker", (addr, port))
for _ in range(500):
    got = open(base + ".log").read().splitlines()
    if "marker" in "".join(got):
        break
    time.sleep(0.01)
print(len([l for l in got if "marker" not in l]))
open(base + ".log", "w").close()
PY
}
try=$(cd "$lib" && pwd)/net_try.py
listen tcp 127.0.0.1 0 db
pt=$(cat "$base/db.port")
listen tcp 127.0.0.2 "$pt" db_elsewhere
listen tcp ::1 "$pt" db6
# The proxy's port is known only once sbsh runs: the script inside writes
# it and waits on a fifo until a listener on 127.0.0.2 (standing for any
# other host) holds that port too.
mkfifo "$project/go"
(cd "$project" && env -i PATH="$PATH" HOME="$home" TMPDIR=/tmp CI=1 LANG=C.UTF-8 TRY="$try" SBSH="$SBSH" \
	timeout 60 "$SBSH" --sandbox --net="allow:127.0.0.2:$pa,localhost:$pt" -c '
echo "$SBSH_NET_PROXY" >proxy.port; read go <go; p=$SBSH_NET_PROXY
for w in tcp fastopen fastopen-msg; do python3 "$TRY" $w 127.0.0.2 $p; python3 "$TRY" $w 127.0.0.2 '"$pt"'; done
python3 "$TRY" tcp ::ffff:127.0.0.2 $p; python3 "$TRY" tcp 0.0.0.0 $p; "$SBSH" -c "python3 $TRY tcp 127.0.0.2 $p"
python3 "$TRY" tcp 127.0.0.1 '"$pt"'; python3 "$TRY" fastopen 127.0.0.1 '"$pt"'; python3 "$TRY" tcp ::ffff:127.0.0.1 '"$pt"'
python3 "$TRY" tcp ::1 '"$pt"'
python3 -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM, 132)" 2>&1 | grep -o PermissionError | sed "s/^/sctp /"
curl -s http://127.0.0.2:'"$pa"'/beside') >"$base/out" 2>"$base/err" </dev/null &
inside=$!
for _ in $(seq 200); do [ -s "$project/proxy.port" ] && break; sleep 0.02; done
listen tcp 127.0.0.2 "$(cat "$project/proxy.port")" proxy_elsewhere
echo go >"$project/go"
wait "$inside"
rm -f "$project/go" "$project/proxy.port"
out=$(cat "$base/out")
check "a raw connect to another address on the proxy's port fails: its listener gets nothing (connect, TCP Fast Open by sendto and sendmsg, ::ffff:127.0.0.2, from a nested sbsh)" \
	"0" "$(lines proxy_elsewhere)"
check "... each refused with EACCES (the proxy's port and localhost's on 127.0.0.2, 0.0.0.0, nested)" "9" \
	"$(grep -Ec '^(tcp|fastopen|fastopen-msg) EACCES$' <<<"$out")"
check_contains "... and explained once on stderr" \
	"sbsh: the sandbox refused a connection to 127.0.0.2:$(cat "$base/proxy_elsewhere.port") (the listed hosts are reached through sbsh's proxy" \
	"$(cat "$base/err")"
check "localhost:PORT is not reached on another address" "0" "$(lines db_elsewhere)"
check_contains "... which stderr explains" "(localhost:$pt is allowed on 127.0.0.1 and ::1 only)" "$(cat "$base/err")"
check "... but on 127.0.0.1 (connect, Fast Open, ::ffff:127.0.0.1)" "3" "$(lines db)"
if [ -s "$base/db6.port" ]; then
	check "... and on ::1" "1" "$(lines db6)"
else
	missing "localhost:PORT on ::1" "no IPv6 loopback here"
fi
check_contains "an SCTP socket is refused (Landlock does not see SCTP)" "sctp PermissionError" "$out"
check "... and the proxy still works beside" "1" "$(got a /beside)"

# ---- UDP -------------------------------------------------------------------
listen udp 127.0.0.1 0 udp
pu=$(cat "$base/udp.port")
udp_all="for w in udp udp-connect udp-msg udp-mmsg; do python3 $try \$w 127.0.0.1 $pu; done"
for net in off "allow:127.0.0.2:$pa" "allow:localhost:$pt" "allow:$pa"; do
	sb "$net" "$udp_all"
	check "--net=$net: UDP to an arbitrary address gets nowhere (sendto, connect, sendmsg, sendmmsg)" "0" "$(lines udp)"
	check "... refused with EACCES" "4" "$(grep -c ' EACCES$' "$base/out")"
done
check_contains "... and explained (a port allow-list: the nameservers only)" \
	"sbsh: the sandbox refused UDP to 127.0.0.1:$pu (with a port allow-list UDP reaches only the nameservers" "$(cat "$base/err")"
sb on "$udp_all"
check "--net=on: UDP is not touched" "5" "$(lines udp)"
# A port allow-list resolves names: UDP reaches port 53 of the nameservers
# in /etc/resolv.conf (here one of the suite's own, 127.0.0.9), nothing else.
if command -v unshare >/dev/null && unshare -m true 2>/dev/null && listen dns 127.0.0.9 53 dns && [ -s "$base/dns.port" ]; then
	listen udp 127.0.0.9 0 dns_other
	printf 'nameserver 127.0.0.9\n' >"$base/resolv.conf"
	(cd "$project" && unshare -m sh -c 'mount --bind "$0" /etc/resolv.conf && exec "$@"' "$base/resolv.conf" \
		env -i PATH="$PATH" HOME="$home" TMPDIR=/tmp CI=1 timeout 60 "$SBSH" --sandbox --net="allow:$pa" -c "
for w in udp udp-connect udp-msg udp-mmsg udp-unspec; do python3 $try \$w 127.0.0.9 53; done
python3 $try udp 127.0.0.9 $(cat "$base/dns_other.port")
python3 -c 'import socket; print(\"resolved\", socket.gethostbyname(\"api.sbsh.test\"))'") >"$base/out" 2>"$base/err" </dev/null
	check "a port allow-list: UDP reaches port 53 of the nameservers (sendto, connect, sendmsg, sendmmsg's two, a lookup)" "6" "$(lines dns)"
	check_contains "... so names resolve" "resolved 127.0.0.2" "$(cat "$base/out")"
	check_contains "... and a connected socket is disconnected with AF_UNSPEC" "udp-unspec ok" "$(cat "$base/out")"
	check "... but no other port of theirs" "0" "$(lines dns_other)"
else
	missing "UDP to the nameservers with a port allow-list" "needs unshare -m and port 53 of 127.0.0.9 (root)"
fi

# ---- localhost:PORT, reached directly ----------------------------------------
sb "allow:localhost:$pl,127.0.0.2:$pa" "curl -s http://localhost:$pl/db; python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", $pl)).sendall(b\"GET /db-raw HTTP/1.0\r\n\r\n\")'; curl -s http://127.0.0.1:$pl2/other"
check "localhost:PORT is reached directly (curl through NO_PROXY, a raw connect)" "2" "$(($(got local /db) + $(got local /db-raw)))"
check "... a local port not listed is not" "0" "$(got local2 /other)"

# ---- names, from a hosts file of the suite's own ------------------------------
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	printf '127.0.0.1 localhost\n127.0.0.2 api.sbsh.test www.sbsh.test\n127.0.0.3 elsewhere.test sbsh.test\n' >"$base/hosts"
	names() {
		(cd "$project" && unshare -m sh -c 'mount --bind "$0" /etc/hosts && exec "$@"' "$base/hosts" \
			env -i PATH="$PATH" HOME="$home" TMPDIR=/tmp CI=1 timeout 60 "$SBSH" --sandbox --net="$1" -c "$2") \
			>"$base/out" 2>"$base/err" </dev/null
	}
	names "allow:*.sbsh.test" "curl -s http://api.sbsh.test:$pa/wild; curl -s -p http://www.sbsh.test:$pa/wild2; curl -s http://sbsh.test:$pb/apex; curl -s http://elsewhere.test:$pb/name"
	check "*.sbsh.test lets its names through (plain and CONNECT)" "2" "$(($(got a /wild) + $(got a /wild2)))"
	check "... not sbsh.test itself, nor another name" "0" "$(($(got b /apex) + $(got b /name)))"
	check_contains "... which the 403 names" "refused a connection to elsewhere.test:$pb" "$(cat "$base/out")"
	names "allow:api.sbsh.test:$pa" "curl -s http://API.sbsh.test.:$pa/case; curl -s http://www.sbsh.test:$pa/sibling"
	check "a name matches whatever its case and final dot" "1" "$(got a /case)"
	check "... and no other name on the same address" "0" "$(got a /sibling)"
else
	missing "host names through a hosts file" "unshare -m is not available here"
fi

# ---- npm through the proxy ---------------------------------------------------
if command -v npm >/dev/null; then
	python3 "$lib/npm_registry.py" 127.0.0.2 "$base/registry.port" "$base/registry.log" &
	pids+=($!)
	for _ in $(seq 100); do [ -s "$base/registry.port" ] && break; sleep 0.05; done
	pr=$(cat "$base/registry.port")
	echo '{"name":"through-proxy","version":"1.0.0","private":true}' >"$project/package.json"
	sb "allow:127.0.0.2:$pr" "npm_config_registry=http://127.0.0.2:$pr/ npm install --no-audit --no-fund tiny-hide-check"
	if [ -f "$project/node_modules/tiny-hide-check/index.js" ] && grep -q tiny-hide-check "$base/registry.log"; then
		ok "npm install through the proxy from a registry stub"
	else
		bad "npm install through the proxy from a registry stub" "$(tail -5 "$base/err")"
	fi
	rm -rf "${project:?}"/node_modules "$project"/package*.json
else
	missing "npm install through the proxy" "npm is not installed (./bootstrap installs it)"
fi

# ---- the spec --------------------------------------------------------------
for spec in allow:localhost allow:a..b allow:x.org, allow:x.org:0 'allow:*.' 'allow:a b' allow:-x.org allow:x.org:99999; do
	"$SBSH" --net="$spec" -c true 2>/dev/null
	check "--net=$spec is refused (2)" "2" "$?"
done
mkdir -p "$home/.config/sbsh"
printf 'network = allow:443,*.npmjs.org,github.com:443,localhost:5432\n' >"$home/.config/sbsh/config"
json=$(cd "$project" && env -i PATH="$PATH" HOME="$home" "$SBSH" --doctor --json | python3 -c '
import json, sys
n = json.load(sys.stdin)["network"]
print(n["mode"], n["allowed_ports"], [(h["host"], h["port"]) for h in n["allowed_hosts"]])')
check "network = allow:... in the config, as --doctor --json reports it" \
	"allow [443, 5432] [('*.npmjs.org', None), ('github.com', 443)]" "$json"
rm -f "$home/.config/sbsh/config"

finish
