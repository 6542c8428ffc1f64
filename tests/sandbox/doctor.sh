#!/bin/sh
# sbsh --doctor --json is valid JSON with every field the sandbox issue
# names, and the plain report runs and exits 0.
set -u
out=$("$SBSH" --doctor --json) || { echo "FAIL --doctor --json exited $?"; echo "0 passed, 1 failed"; exit 1; }
printf '%s\n' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
need = {
    "kernel": str, "landlock": dict, "mode": str, "applied": bool, "capabilities": dict,
    "writable": list, "network": dict, "human": dict, "config_files": list, "escapes": dict,
    "missing_features": list, "denial_hints": str,
}
bad = [k for k, t in need.items() if not isinstance(d.get(k), t)]
caps = ["write_restriction", "cross_folder_rename", "truncate", "tcp_cut", "port_allow_list",
        "ioctl", "signal_scoping", "socket_scoping", "audit_logging", "seccomp", "terminal_guard"]
bad += ["capabilities." + c for c in caps if not isinstance(d["capabilities"].get(c), bool)]
bad += ["landlock." + k for k in ("abi", "errata") if not isinstance(d["landlock"].get(k), int)]
bad += ["network." + k for k in ("mode", "tcp_cut") if k not in d["network"]]
bad += ["human." + k for k in ("terminal", "ci", "can_ask") if k not in d["human"]]
bad += ["escapes." + k for k in ("unix_sockets", "udp") if k not in d["escapes"]]
# The terminal guard is a plain seccomp filter: it loads wherever Landlock does.
if d["applied"] and d["capabilities"].get("terminal_guard") is not True:
    bad.append("capabilities.terminal_guard: not loaded")
if not any(w.get("why") == "project" for w in d["writable"]) and d["applied"]:
    bad.append("writable: the project folder")
for k in bad:
    print("FAIL missing or mistyped:", k)
print("%d passed, %d failed" % (1 if not bad else 0, len(bad)))
sys.exit(1 if bad else 0)
' || exit 1
"$SBSH" --doctor >/dev/null || { echo "FAIL --doctor exited $?"; exit 1; }
echo "1 passed, 0 failed"
