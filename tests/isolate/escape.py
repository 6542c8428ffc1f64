#!/usr/bin/env python3
"""An approved escape in an isolated session, this script playing the human
on a pty: the command runs outside the sandbox but inside the view, so what
it writes in the project lands in the layer, never in the real folder,
while a folder outside the project is written as from any escape. The
session's prompt names the layer."""
import os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pty_human import play  # noqa: E402
from report import check, skip_all, summary  # noqa: E402

SBSH = os.environ["SBSH"]


def run(args, env, cwd, typed=b""):
    """sbsh on a pty, the escape's code typed when asked. (status, output)."""
    state = {"answered": False, "typed": False}

    def respond(out):
        m = re.search(rb"Type (\w{4}) and Enter", out)
        if m and not state["answered"]:
            state["answered"] = True
            return m.group(1) + b"\r"
        if typed and not state["typed"] and b"isolated:" in out:
            state["typed"] = True
            return typed
        return None

    _, status, out = play([SBSH] + args, respond, env, cwd, 30)
    return os.waitstatus_to_exitcode(status), out


def review(args, env, cwd):
    r = subprocess.run([SBSH, "--review", "--isolate"] + args, env=env, cwd=cwd, capture_output=True, text=True)
    return r.stdout


base = tempfile.mkdtemp(prefix="sbsh-isolate-escape-", dir=os.environ.get("SBSH_TEST_BASE", os.environ.get("HOME", "/root")))
project = os.path.join(base, "project")
outside = os.path.join(base, "outside")
os.makedirs(project)
os.makedirs(outside)
os.makedirs(os.path.join(base, "config", "sbsh"))
env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(base, "config"), XDG_STATE_HOME=os.path.join(base, "state"))
env.pop("CI", None)
try:
    doctor = subprocess.run([SBSH, "--doctor", "--json"], env=env, cwd=project, capture_output=True, text=True)
    if '"available": true' not in doctor.stdout.split('"isolation"')[-1]:
        skip_all("isolation is not available here")
    with open(os.path.join(project, "notes.txt"), "w") as f:
        f.write("real\n")
    inside = os.path.join(project, "escaped.txt")
    far = os.path.join(outside, "escaped.txt")
    status, out = run(["--isolate", "esc", "-c", "escape sh -c 'echo from-escape >%s; echo from-escape >%s'; echo status=$?" %
                       (inside, far)], env, project)
    check("status=0" in out, "an approved escape runs in an isolated session", out[-400:])
    check(not os.path.exists(inside), "what it writes in the project does not reach the real folder")
    check(os.path.exists(far), "what it writes outside the project is written, as from any escape")
    check("escaped.txt" in review(["esc", "status"], env, project), "it is in the layer instead")

    status, out = run(["--isolate", "esc", "-i"], env, project, b"cat escaped.txt; exit\r")
    check("[sb isolated:esc]" in out, "the interactive prompt names the layer", out[-400:])
    check("from-escape" in out, "the next session of the layer sees what the escape wrote", out[-400:])
finally:
    shutil.rmtree(base, ignore_errors=True)
summary()
