#!/usr/bin/env python3
"""A generator of nested interpreter, here-document and pipe shapes around a
deletion or a harmless command, each judged twice: by `sbsh --classify`
(the static pass) and by running it headless (the run-time check). What
must hold, judged from outside:
  - a shape the static pass calls DELETE or worse is refused when it runs
    (status 121) and data/ is still there: the run-time verdict is never
    below the static one;
  - a deletion never happens, whatever the static pass said;
  - a harmless shape the static pass calls SAFE runs (no refusal).
GUARD_SEED and GUARD_CASES choose the cases (a failure prints its seed)."""
import os, random, shlex, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from report import check, summary  # noqa: E402

SBSH = os.environ["SBSH"]
SEED = int(os.environ.get("GUARD_SEED", "16"))
CASES = int(os.environ.get("GUARD_CASES", "150"))
q = shlex.quote

DELETES = ["rm -rf data", "find data -delete", "rm -r data/keep",
           "python3 -c 'import shutil; shutil.rmtree(\"data\")'"]
HARMLESS = ["echo hi", "ls data", "true", "cat data/keep"]


def wrappers(depth):
    """Ways to run shell text t; a here-document delimiter per depth."""
    d = "E%d" % depth
    return [
        lambda t: "bash -c %s" % q(t),
        lambda t: "sh -s <<< %s" % q(t),
        lambda t: "bash <<'%s'\n%s\n%s" % (d, t, d),
        lambda t: "sh <<%s\n%s\n%s" % (d, t.replace("\\", "\\\\").replace("$", "\\$").replace("`", "\\`"), d),
        lambda t: "echo %s | sh" % q(t),
        lambda t: "printf '%%s\\n' %s | bash" % q(t),
        lambda t: "bash <(echo %s)" % q(t),
        lambda t: "bash /dev/stdin <<< %s" % q(t),
        lambda t: "eval %s" % q(t),
        lambda t: "f%d() { %s\n}; f%d" % (depth, t, depth),
        lambda t: "timeout 20 sh -c %s" % q(t),
        lambda t: "env X=1 bash -c %s" % q(t),
        lambda t: "exec bash -c %s" % q(t),
        lambda t: "cat <<'%s' | sh\n%s\n%s" % (d, t, d),
        lambda t: "x=%s; bash -c \"$x\"" % q(t),
        lambda t: "echo %s > s%d.sh; sh s%d.sh" % (q(t), depth, depth),
        lambda t: "(%s)" % t,
        lambda t: "{ %s; }" % t,
        lambda t: "true && %s" % t,
        lambda t: "python3 -c %s" % q("import subprocess; subprocess.run(%r, shell=True)" % t),
    ]


def shape(rng, payload):
    text = payload
    for depth in range(rng.randint(1, 3)):
        text = rng.choice(wrappers(depth))(text)
    return text


def static_verdict(script, work):
    p = subprocess.run([SBSH, "--classify", "-c", script], cwd=work, capture_output=True, timeout=30)
    return p.stdout.decode(errors="replace").split(" ", 1)[0].strip()


def run(script, work):
    p = subprocess.run([SBSH, "-c", script], cwd=work, env=dict(os.environ, CI="1"),
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    return p.returncode, p.stderr.decode(errors="replace")


work = tempfile.mkdtemp(prefix="sbsh-shapes-")
rng = random.Random(SEED)
try:
    for case in range(CASES):
        dangerous = rng.random() < 0.6
        script = shape(rng, rng.choice(DELETES if dangerous else HARMLESS))
        name = "case %d (GUARD_SEED=%d): %s" % (case, SEED, script.replace("\n", "\u2424"))
        os.makedirs(os.path.join(work, "data"), exist_ok=True)
        with open(os.path.join(work, "data", "keep"), "w") as f:
            f.write("keep\n")
        static = static_verdict(script, work)
        status, err = run(script, work)
        intact = os.path.exists(os.path.join(work, "data", "keep"))
        if dangerous:
            check(intact, "never deleted: " + name, "static %s, status %d: %s" % (static, status, err))
        if static in ("DELETE", "PUBLISH", "FORCE_PUSH", "ESCAPE"):
            check(status == 121, "static %s binds the run: %s" % (static, name), "status %d: %s" % (status, err))
        if not dangerous and static == "SAFE":
            check(status != 121, "SAFE runs: " + name, err)
finally:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(summary())
