#!/bin/sh
# sbsh --doctor --json is valid JSON with every field the sandbox issue
# names (the supervisor's, and each gap that remains by name), and the
# plain report runs and exits 0.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/report.sh"
require python3
out=$("$SBSH" --doctor --json) || { bad "--doctor --json exited $?"; finish; }
# The fields missing or mistyped, one a line.
bad_fields=$(printf '%s\n' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
need = {
    "kernel": str, "landlock": dict, "mode": str, "applied": bool, "capabilities": dict,
    "writable": list, "network": dict, "human": dict, "config_files": list, "escapes": dict,
    "missing_features": list, "denial_hints": str, "caches": dict,
}
bad = [k for k, t in need.items() if not isinstance(d.get(k), t)]
caps = ["write_restriction", "cross_folder_rename", "truncate", "tcp_cut", "port_allow_list",
        "ioctl", "signal_scoping", "socket_scoping", "audit_logging", "seccomp", "terminal_guard"]
bad += ["capabilities." + c for c in caps if not isinstance(d["capabilities"].get(c), bool)]
bad += ["landlock." + k for k in ("abi", "errata") if not isinstance(d["landlock"].get(k), int)]
bad += ["network." + k for k in ("mode", "tcp_cut") if k not in d["network"]]
bad += ["human." + k for k in ("terminal", "ci", "can_ask") if k not in d["human"]]
bad += ["escapes." + k for k in ("unix_sockets", "udp", "metadata_changes", "gaps") if k not in d["escapes"]]
# each gap that remains is named, and the supervisor says whether it runs
bad += ["escapes.gaps: " + repr(g) for g in d["escapes"].get("gaps", [])
        if not isinstance(g.get("id"), str) or not isinstance(g.get("what"), str)]
sup = d.get("supervisor") or {}
bad += ["supervisor." + k for k in ("available", "outer", "yama_ptrace_scope", "note", "covers", "allowed_sockets")
        if k not in sup]
if not isinstance(sup.get("available"), bool):
    bad.append("supervisor.available")
# this kernel (6.18, no Yama) has user notification: with the sandbox
# applied the supervisor runs, and metadata and sockets leave the gaps
ids = [g.get("id") for g in d["escapes"].get("gaps", [])]
if d["applied"] and sup.get("available") is not True:
    bad.append("supervisor.available: not on where the sandbox applies: " + str(sup.get("note")))
if sup.get("available") and ("metadata" in ids or "unix_sockets" in ids or d["escapes"].get("metadata_changes")):
    bad.append("escapes: metadata or unix sockets listed although the supervisor covers them")
if not sup.get("available") and "metadata" not in ids:
    bad.append("escapes.gaps: metadata not listed while the supervisor is not available")
caches = d.get("caches") or {}
bad += ["caches." + k for k in ("private_root", "tools", "notes") if k not in caches]
for t in caches.get("tools", []):
    bad += ["caches.tools." + k for k in ("tool", "shared", "shared_writable", "own", "reads_shared") if k not in t]
# The terminal guard is a plain seccomp filter: it loads wherever Landlock does.
if d["applied"] and d["capabilities"].get("terminal_guard") is not True:
    bad.append("capabilities.terminal_guard: not loaded")
if not any(w.get("why") == "project" for w in d["writable"]) and d["applied"]:
    bad.append("writable: the project folder")
print("\n".join(bad))
' 2>&1) || { bad "--doctor --json is JSON" "$bad_fields"; finish; }
if [ -z "$bad_fields" ]; then
	ok "--doctor --json has every field"
else
	IFS='
'
	for field in $bad_fields; do bad "missing or mistyped: $field"; done
	unset IFS
fi
text=$("$SBSH" --doctor) || { bad "--doctor exited $?"; finish; }
ok "--doctor runs and exits 0"
case $text in
*"Supervisor: on"*"What still escapes:"*) ok "--doctor says the supervisor is on" ;;
*"Supervisor: NOT available: "*"What still escapes:"*"chmod, chown, timestamps"*) ok "--doctor says the supervisor is not available, and metadata escapes" ;;
*) bad "--doctor says whether the supervisor runs" "$(printf '%s' "$text" | tail -n 12)" ;;
esac
finish
