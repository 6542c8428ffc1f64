#!/usr/bin/env python3
"""The network proxy asks the human, through `sbsh --approver` (this
script plays the human on its pty), about a host not on the allow-list:
yes once (asked again next time), yes for the session (asked once), no
(refused, and not asked again). Judged from outside by what each
listener's log got."""
import os, re, shutil, subprocess, sys, tempfile, threading, time
import http.server

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from report import check, skip_all, summary  # noqa: E402
from approver_pty import Approver, finish  # noqa: E402

SBSH = os.environ["SBSH"]


def landlock_abi():
    out = subprocess.run([SBSH, "--doctor", "--json"], capture_output=True, text=True).stdout
    m = re.search(r'"abi": (\d+)', out)
    return int(m.group(1)) if m else 0


if landlock_abi() < 4:
    skip_all("Landlock ABI 4 (TCP rules) is not available on this kernel")
if not shutil.which("curl"):
    skip_all("curl is not installed (./bootstrap installs it)")

logs = {}


def serve(address):
    got = logs.setdefault(address, [])

    class H(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            got.append(self.path)
            self.send_response(200)
            self.send_header("Content-Length", "3")
            self.end_headers()
            self.wfile.write(b"ok\n")

    s = http.server.HTTPServer((address, 0), H)
    threading.Thread(target=s.serve_forever, daemon=True).start()
    return s.server_address[1]


allowed_port = serve("127.0.0.2")
asked_port = serve("127.0.0.3")
other_port = serve("127.0.0.4")

base = tempfile.mkdtemp(prefix=".sbsh-netask-", dir=os.environ.get("HOME", "/root"))
runtime = os.path.join(base, "run")
os.mkdir(runtime, 0o700)
project = os.path.join(base, "project")
home = os.path.join(base, "home")
for d in (project, home):
    os.makedirs(d)
env = dict(os.environ, HOME=home, XDG_RUNTIME_DIR=runtime, TERM="xterm")
env.pop("CI", None)
events = os.path.join(base, "events")
net = "--net=allow:127.0.0.2:%d" % allowed_port


def run(script, answers):
    """sbsh -c as an agent tool runs it (no terminal), answering each
    question on the approver in turn: (status, out, err, questions seen,
    screen)."""
    since = len(approver.out)
    proc = subprocess.Popen([SBSH, "--sandbox", net, "--events", events, "-c", script], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=project, env=env,
                            start_new_session=True)
    answers = list(answers)
    seen = 0
    end = time.time() + 60
    while proc.poll() is None and time.time() < end:
        approver.pump(0.1)
        asked = len(re.findall(rb"Allow\? \[y\]es once", approver.out[since:]))
        if asked > seen:
            seen = asked
            if answers:
                approver.type(answers.pop(0).encode() + b"\r")
    status, out, err = finish(proc, approver, 5)
    approver.pump(0.3)
    return status, out, err, seen, approver.text(since)


def curl(host, port, path):
    return "curl -s -o /dev/null -w '%%{http_code}\\n' http://%s:%d%s" % (host, port, path)


approver = Approver(env)
try:
    approver.wait_for(rb"approver ready")
    status, out, err, seen, screen = run(
        curl("127.0.0.3", asked_port, "/once") + "; " + curl("127.0.0.3", asked_port, "/once-again"), ["y", "n"])
    check(seen == 2 and "connect 127.0.0.3:%d" % asked_port in screen and "not on the network allow-list" in screen,
          "a host not listed: the human is asked, naming host and port", screen[-600:])
    check(logs["127.0.0.3"] == ["/once"], "yes once lets that connection through, and asks again for the next",
          repr(logs["127.0.0.3"]) + err)

    status, out, err, seen, screen = run(
        curl("127.0.0.4", other_port, "/s1") + "; " + curl("127.0.0.4", other_port, "/s2"), ["s"])
    check(seen == 1 and logs["127.0.0.4"] == ["/s1", "/s2"], "yes for the session: asked once, both through",
          "seen=%d %r %s" % (seen, logs["127.0.0.4"], err))

    status, out, err, seen, screen = run(
        curl("127.0.0.3", asked_port, "/no1") + "; " + curl("127.0.0.3", asked_port, "/no2"), ["n"])
    check(seen == 1 and "/no1" not in logs["127.0.0.3"] and "/no2" not in logs["127.0.0.3"],
          "no: refused, and not asked again in the session", "seen=%d %r" % (seen, logs["127.0.0.3"]))
    check(out.split() == ["403", "403"], "... the agent reads the proxy's 403 both times", out)

    decisions = []
    with open(events) as f:
        for line in f:
            if '"event":"net"' in line:
                decisions.append(re.search(r'"decision":"(\w+)","by":"(\w+)"', line).groups())
    check(("allow", "human") in decisions and ("refuse", "human") in decisions and ("allow", "session") in decisions
          and ("refuse", "session") in decisions, "net events say the human decided, then the session's answer",
          repr(decisions))
finally:
    os.kill(approver.pid, 2)
    approver.wait_exit()
    shutil.rmtree(base, ignore_errors=True)
sys.exit(summary())
