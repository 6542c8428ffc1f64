#!/bin/bash
# What the sandbox takes from its user, root above all: every capability
# (no device nodes, no hostname, no immutable flag, no raw packets, no
# reading other processes' environment), and for every user the limits and
# scheduling of processes outside it (prlimit, renice, taskset, chrt,
# ionice of the warden's pid). Each check runs `sbsh --sandbox -c ...` and
# looks from outside: the node is absent, the outside process's limit,
# nice value, affinity and I/O class are what they were. Then builds that
# root runs every day (tar with foreign owners, cp -a, make with install)
# must still work. Root's checks are skipped when not run as root.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/report.sh"
SBSH=${1:-${SBSH:-./sbsh}}
SBSH=$(cd "$(dirname "$SBSH")" && pwd)/$(basename "$SBSH")
[ "$(landlock_abi)" -ge 1 ] || skip_all "Landlock is not available on this kernel: every check needs the sandbox"

# The test area lies outside every folder the sandbox makes writable.
base=$(mktemp -d "${SBSH_TEST_BASE:-${HOME:-/root}}/.sbsh-priv-test.XXXXXX") || exit 1
project=$base/project
home=$base/home
mkdir -p "$project" "$home"
chmod 755 "$base"
victims=()
cleanup() {
	for p in "${victims[@]}"; do kill "$p" 2>/dev/null; done
	chattr -i "$project/immutable" 2>/dev/null
	rm -rf "$base"
}
trap cleanup EXIT

# sb [sbsh options] -- SCRIPT: SCRIPT sandboxed in the project folder;
# its output in $base/out, its status in $st. SB_PREFIX runs sbsh under a
# wrapper (unshare, setpriv).
sb() {
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	(cd "$project" && env -i PATH="$PATH" HOME="$home" TMPDIR=/tmp CI=1 LANG=C.UTF-8 \
		${SB_PREFIX:-} timeout 60 "$SBSH" --sandbox "${opts[@]}" -c "$1") >"$base/out" 2>&1 </dev/null
	st=$?
}
out() { tail -n 8 "$base/out"; }
# refused NAME: the last sb failed.
refused() { if [ "$st" -ne 0 ]; then ok "$1"; else bad "$1" "it succeeded" "$(out)"; fi; }
# worked NAME: the last sb succeeded.
worked() { if [ "$st" -eq 0 ]; then ok "$1"; else bad "$1" "status $st" "$(out)"; fi; }

# A process outside the sandbox, as the warden is: started here, before
# sbsh, in a process group of its own.
victim() {
	setsid ${SB_PREFIX:-} sleep 600 &
	victims+=($!)
	vpid=$!
	# it is ready once it is sleep, with setpriv's uid change behind it
	local i=0
	while [ "$(ps -o comm= -p "$vpid")" != sleep ] && [ $i -lt 400 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# Read as the victim's own user: this machine refuses root that for another's.
nofile_of() { ${SB_PREFIX:-} prlimit --pid "$1" --nofile -o SOFT,HARD --raw --noheadings 2>/dev/null; }
nice_of() { ps -o ni= -p "$1" | tr -d ' '; }
affinity_of() { taskset -p "$1" 2>/dev/null | sed 's/.*: //'; }
policy_of() { chrt -p "$1" 2>/dev/null | head -n 1 | sed 's/.*: //'; }
ioclass_of() { ionice -p "$1" 2>/dev/null; }

# ---- other processes: limits and scheduling (every user) ---------------------
# other_processes WHO: the checks, for the user the sandbox runs as.
other_processes() {
	local who=$1
	victim
	local before
	before=$(nofile_of "$vpid")
	sb -- "prlimit --pid $vpid --nofile=0:0"
	refused "$who: prlimit --pid OUTSIDE --nofile=0:0 fails"
	check "$who: the outside process keeps its open-file limit" "$before" "$(nofile_of "$vpid")"
	if command -v python3 >/dev/null; then
		sb -- "python3 -c 'import resource; resource.prlimit($vpid, resource.RLIMIT_NOFILE, (0, 0))'"
		refused "$who: python resource.prlimit(OUTSIDE) fails"
		sb -- "python3 -c 'import resource; resource.prlimit($vpid, resource.RLIMIT_CPU, (1, 1))'"
		refused "$who: python prlimit(OUTSIDE, RLIMIT_CPU) fails"
		check "$who: the outside process keeps its limits" "$before" "$(nofile_of "$vpid")"
		# The pid is an int: high bits that the kernel ignores do not hide it.
		sb -- "python3 -c 'import ctypes, os; l=ctypes.CDLL(None); l.syscall.restype=ctypes.c_long; nr={\"x86_64\": 302, \"aarch64\": 261}[os.uname().machine]; lim=(ctypes.c_ulong*2)(0, 0); r=l.syscall(nr, ctypes.c_long((1<<32)|$vpid), 7, lim, None); exit(r != 0)'"
		refused "$who: prlimit64 with the pid in the low half of a wider argument fails"
	else
		missing "$who: python prlimit" "python3 is not installed"
	fi

	# x86-64 runs i386 system calls too (int 0x80), with numbers of their own.
	if [ -n "$int80" ]; then
		cp "$int80" "$project/int80"
		sb -- "./int80 $vpid"
		refused "$who: prlimit64 through int 0x80 (the i386 entry) fails"
		check "$who: the outside process keeps its limit after int 0x80" "$before" "$(nofile_of "$vpid")"
	elif [ "$(uname -m)" != x86_64 ]; then
		skip "$who: prlimit64 through int 0x80" "not x86-64"
	else
		missing "$who: prlimit64 through int 0x80" "no C compiler"
	fi

	# A user namespace of its own gives the shell every capability there,
	# none over the processes outside, and the guard still holds.
	if unshare -r true 2>/dev/null; then
		sb -- "unshare -r prlimit --pid $vpid --nofile=0:0"
		refused "$who: prlimit --pid OUTSIDE from a new user namespace fails"
		check "$who: the outside process keeps its limit after unshare -r" "$before" "$(nofile_of "$vpid")"
	else
		missing "$who: prlimit from a new user namespace" "unshare -r is not allowed here"
	fi
	local oom0
	oom0=$(cat "/proc/$vpid/oom_score_adj")
	sb -- "echo 1000 > /proc/$vpid/oom_score_adj"
	refused "$who: writing the outside process's oom_score_adj fails"
	check "$who: the outside process keeps its oom_score_adj" "$oom0" "$(cat "/proc/$vpid/oom_score_adj")"

	local nice0
	nice0=$(nice_of "$vpid")
	sb -- "renice -n 5 -p $vpid"
	refused "$who: renice -p OUTSIDE fails"
	sb -- "renice -n 7 -g $vpid"
	refused "$who: renice -g (the outside process's group) fails"
	# Only sbsh's group and user are at stake when these checks fail:
	# root's processes are the whole machine's.
	local prefix=${SB_PREFIX:-}
	SB_PREFIX="setsid $prefix"
	sb -- "renice -n 7 -g 0"
	refused "$who: renice -g 0 (the shell's own group, which holds the warden) fails"
	SB_PREFIX=$prefix
	if [ "$(id -u)" != 0 ] || [ -n "$prefix" ]; then
		sb -- "renice -n 7 -u $(${SB_PREFIX:-} id -u)"
		refused "$who: renice -u (every process of the user) fails"
		sb -- "ionice -c 3 -u $(${SB_PREFIX:-} id -u)"
		refused "$who: ionice -u (every process of the user) fails"
	fi
	check "$who: the outside process keeps its nice value" "$nice0" "$(nice_of "$vpid")"

	if ! command -v taskset >/dev/null; then
		missing "$who: taskset -p OUTSIDE" "taskset is not installed"
	elif [ "$(nproc)" -lt 2 ]; then
		skip "$who: taskset -p OUTSIDE" "one CPU: no affinity to change"
	else
		local aff0
		aff0=$(affinity_of "$vpid")
		sb -- "taskset -p 1 $vpid"
		refused "$who: taskset -p OUTSIDE fails"
		check "$who: the outside process keeps its CPUs" "$aff0" "$(affinity_of "$vpid")"
	fi
	local pol0
	pol0=$(policy_of "$vpid")
	sb -- "chrt -i -p 0 $vpid"
	refused "$who: chrt -i -p OUTSIDE (sched_setscheduler) fails"
	sb -- "chrt -b -p 0 $vpid"
	refused "$who: chrt -b -p OUTSIDE fails"
	check "$who: the outside process keeps its scheduling policy" "$pol0" "$(policy_of "$vpid")"
	if command -v python3 >/dev/null; then
		sb -- "python3 -c 'import os; os.sched_setparam($vpid, os.sched_param(0))'"
		refused "$who: sched_setparam(OUTSIDE) fails"
	fi
	local io0
	io0=$(ioclass_of "$vpid")
	sb -- "ionice -c 3 -p $vpid"
	refused "$who: ionice -p OUTSIDE fails"
	check "$who: the outside process keeps its I/O class" "$io0" "$(ioclass_of "$vpid")"

	# The same calls on the shell itself (pid 0) keep working.
	sb -- 'ulimit -n 100 && test "$(ulimit -n)" = 100 && sh -c "ulimit -n 90; ulimit -n" | grep -qx 90'
	worked "$who: ulimit -n inside"
	sb -- 'nice -n 5 true && test "$(nice -n 5 nice)" = 5'
	worked "$who: nice -n 5 inside"
	sb -- 'prlimit --nofile=64:64 sh -c "ulimit -n" | grep -qx 64'
	worked "$who: prlimit --nofile=... COMMAND inside"
	sb -- 'ionice -c 3 true && chrt -b 0 true'
	worked "$who: ionice and chrt of a command inside"
	if command -v taskset >/dev/null; then
		sb -- 'taskset -c 0 true'
		worked "$who: taskset -c 0 COMMAND inside"
	fi
	sb -- "cat /proc/$vpid/environ"
	refused "$who: the outside process's environ cannot be read"
	sb -- 'renice -n 3 -p $$ >/dev/null; nice -n 2 sh -c "exit 0"'
	worked "$who: a refused renice of the shell's own pid does not end the session"
}
int80=
if [ "$(uname -m)" = x86_64 ] && command -v cc >/dev/null &&
	cc -O0 -no-pie -o "$base/int80" "${top_srcdir:-$(dirname "$0")/../..}/tests/sandbox/int80_prlimit.c" 2>/dev/null; then
	chmod 755 "$base/int80"
	int80=$base/int80
fi
other_processes "$(id -un)"

# Capabilities in the sandbox: none effective, permitted or ambient, for
# anybody (root's bounding set is emptied too, below).
sb -- 'grep "^Cap" /proc/self/status'
if [ "$st" -eq 0 ] && ! grep -E '^Cap(Inh|Prm|Eff|Amb):' "$base/out" | grep -qv '0000000000000000'; then
	ok "$(id -un): no capability in the sandbox"
else
	bad "$(id -un): no capability in the sandbox" "$(out)"
fi

# ---- a user who is not root ------------------------------------------------------
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	# Its own area, since root's HOME is closed to others; the temp folder
	# is fine here, nothing checks writes outside the project.
	root_project=$project root_home=$home
	nbase=$(mktemp -d /tmp/sbsh-priv-nobody.XXXXXX)
	project=$nbase/project home=$nbase/home
	mkdir -p "$project" "$home"
	chmod 755 "$nbase"
	chown -R 65534:65534 "$project" "$home"
	SB_PREFIX="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all"
	sb -- 'echo hi > nobody.txt && grep "^CapEff" /proc/self/status'
	if [ "$st" -eq 0 ] && [ -f "$project/nobody.txt" ] && grep -q 0000000000000000 "$base/out"; then
		ok "nobody: the sandbox starts, drops nothing it did not have, and works"
	else
		bad "nobody: the sandbox starts and works" "$(out)"
	fi
	other_processes nobody
	SB_PREFIX=
	rm -rf "$nbase"
	project=$root_project home=$root_home
else
	skip "nobody: the same checks as another user" "not root, or no setpriv"
fi

# ---- root ---------------------------------------------------------------------------
if [ "$(id -u)" != 0 ]; then
	skip "root's capabilities" "not running as root"
	finish
fi

sb -- 'grep "^CapBnd" /proc/self/status'
check "root: the bounding set is empty" "CapBnd:	0000000000000000" "$(cat "$base/out")"
sb -- "$SBSH -c 'grep ^Cap /proc/self/status' | grep -cx 'Cap...:.0000000000000000'"
check "root: a nested sbsh starts, still without capabilities" "5" "$(cat "$base/out")"
sb -- 'grep "^Seccomp:" /proc/self/status; python3 -c "import os; os.setuid(0); os.execvp(\"grep\", [\"grep\", \"^CapEff\", \"/proc/self/status\"])"'
check_contains "root: a program root runs gets no capability back" "CapEff:	0000000000000000" "$(cat "$base/out")"

sb -- 'mknod blk b 7 0'
refused "root: mknod of a block device fails"
if [ -e "$project/blk" ]; then bad "root: no block device in the project" "$(ls -l "$project/blk")"; else ok "root: no block device in the project"; fi
sb -- 'mknod chr c 1 3'
refused "root: mknod of a character device fails"
sb -- "python3 -c 'import os, stat; os.mknod(\"/tmp/sbsh-priv-blk-$$\", stat.S_IFBLK | 0o600, os.makedev(7, 0))'"
refused "root: os.mknod of a block device in /tmp fails"
if [ -e "/tmp/sbsh-priv-blk-$$" ]; then bad "root: no block device in /tmp"; rm -f "/tmp/sbsh-priv-blk-$$"; else ok "root: no block device in /tmp"; fi
sb -- 'mkfifo fifo && test -p fifo'
worked "root: mkfifo still works"

# hostname and addresses in namespaces of their own: a failing check must
# not rename this machine.
if command -v unshare >/dev/null && unshare --uts --net true 2>/dev/null; then
	# sbsh in the namespaces, the names looked at by a shell outside it.
	(cd "$project" && unshare --uts --net sh -c 'ip link set lo up
		env -i PATH="$PATH" HOME="$1" timeout 60 "$2" --sandbox -c "hostname sbsh-was-here" && echo hostname-worked
		env -i PATH="$PATH" HOME="$1" timeout 60 "$2" --sandbox -c "ip addr add 10.99.0.1/32 dev lo" && echo ip-worked
		hostname; ip -o addr show dev lo' sh "$home" "$SBSH") >"$base/out" 2>&1 </dev/null
	if ! grep -q 'hostname-worked' "$base/out"; then ok "root: hostname NAME fails"; else bad "root: hostname NAME fails" "$(out)"; fi
	if ! grep -q sbsh-was-here "$base/out"; then ok "root: the hostname is unchanged"; else bad "root: the hostname is unchanged" "$(out)"; fi
	if ! grep -q 'ip-worked\|10.99.0.1' "$base/out"; then ok "root: ip addr add fails"; else bad "root: ip addr add fails" "$(out)"; fi
else
	missing "root: hostname and ip addr" "unshare --uts --net is not available"
fi

echo data >"$project/immutable"
if chattr +i "$project/immutable" 2>/dev/null && chattr -i "$project/immutable"; then
	sb -- 'chattr +i immutable'
	refused "root: chattr +i fails"
	if lsattr "$project/immutable" 2>/dev/null | cut -d' ' -f1 | grep -q i; then
		bad "root: the file is not immutable"
	else
		ok "root: the file is not immutable"
	fi
else
	missing "root: chattr +i" "this filesystem has no immutable flag"
fi

# Environments of other processes: the sandbox's own stays readable.
victim
sb -- "cat /proc/1/environ"
refused "root: cat /proc/1/environ fails"
sb -- "cat /proc/$vpid/environ"
refused "root: another process's environ fails"
sb -- 'cat /proc/self/environ | tr "\0" "\n" | grep -q ^HOME= && sh -c "cat /proc/\$PPID/environ" | tr "\0" "\n" | grep -q ^HOME='
worked "root: the sandbox reads its own processes' environ"

# Raw packets: no capability for them anywhere, and refused by seccomp
# with the network cut.
for net in off allow:443 on; do
	for sock in "AF_INET, socket.SOCK_RAW, 1" "AF_INET6, socket.SOCK_RAW, 58" \
		"AF_PACKET, socket.SOCK_RAW, 0" "AF_PACKET, socket.SOCK_DGRAM, 0" "AF_INET, 10, 768"; do
		sb --net=$net -- "python3 -c 'import socket; socket.socket(socket.$sock)'"
		refused "root --net=$net: socket($sock) fails"
	done
done
if unshare -r true 2>/dev/null; then
	sb --net=off -- "unshare -rn python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_RAW, 1)'"
	refused "root --net=off: a raw socket from a new user and network namespace fails"
fi
sb --net=off -- "python3 -c 'import socket; socket.socket(socket.AF_UNIX).close()'"
worked "root --net=off: unix sockets still open"
sb --net=off -- "python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM)'"
refused "root --net=off: a UDP socket fails (UDP is cut)"
sb -- "python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_RAW, 1)' 2>&1 | grep -q 'Operation not permitted'"
worked "root: a raw socket fails with a plain EPERM, not a kill"

# ---- root's everyday builds -------------------------------------------------------
mkdir -p "$base/src/pkg/sub"
echo one >"$base/src/pkg/a.txt"
echo two >"$base/src/pkg/sub/b.txt"
tar -C "$base/src" --owner=1234 --group=1234 -cf "$project/foreign.tar" pkg
tar -C "$base/src" --owner=1234 --group=1234 -czf "$project/foreign.tgz" pkg
sb -- 'mkdir sub && tar xf foreign.tar && tar xzf foreign.tgz -C sub'
if [ "$st" -eq 0 ] && [ "$(cat "$project/pkg/sub/b.txt")" = two ] && [ -f "$project/sub/pkg/a.txt" ]; then
	ok "root: tar xf of an archive with foreign owners"
else
	bad "root: tar xf of an archive with foreign owners" "$(out)"
fi
SB_PREFIX="env TAR_OPTIONS=--warning=no-timestamp"
sb -- 'mkdir own && tar xf foreign.tar -C own && test -f own/pkg/a.txt'
SB_PREFIX=
worked "root: tar xf with the caller's own TAR_OPTIONS"
sb -- 'cp -a pkg pkg-copy && cp -a foreign.tar copy.tar && cmp foreign.tar copy.tar'
worked "root: cp -a"
# A file another user owns is still copied, by root, as anybody copies it
# (cp says it could not keep the owner: root has no CAP_CHOWN left).
echo theirs >"$project/theirs"
chown 1234:1234 "$project/theirs"
sb -- 'cp -a theirs theirs-copy; cp -r pkg pkg-r && cp -a --no-preserve=ownership theirs theirs-n && cat theirs-copy'
if grep -qx theirs "$base/out" && [ -f "$project/pkg-r/sub/b.txt" ]; then
	ok "root: cp -a and cp -r of files another user owns copy them"
else
	bad "root: cp of files another user owns" "$(out)"
fi
mkdir -p "$project/cproj"
cat >"$project/cproj/hello.c" <<'EOF'
#include <stdio.h>
int main(void) { puts("hello"); return 0; }
EOF
printf 'all: hello\nhello: hello.c\n\t$(CC) -o $@ hello.c\ninstall: hello\n\tinstall -d $(DESTDIR)/usr/bin\n\tinstall -m 755 hello $(DESTDIR)/usr/bin/hello\n\tinstall -m 644 -o root -g root hello.c $(DESTDIR)/usr/share/hello.c -D\n' >"$project/cproj/Makefile"
if command -v cc >/dev/null; then
	sb -- 'cd cproj && make CC=cc && make install DESTDIR=$PWD/stage && stage/usr/bin/hello'
	if [ "$st" -eq 0 ] && [ -x "$project/cproj/stage/usr/bin/hello" ] && grep -qx hello "$base/out"; then
		ok "root: make and make install with install -m"
	else
		bad "root: make and make install" "$(out)"
	fi
else
	missing "root: make and make install" "no C compiler"
fi
finish
