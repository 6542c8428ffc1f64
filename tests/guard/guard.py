#!/usr/bin/env python3
"""The guard holds: what the static pass judged binds what runs. Each shape
below hides a deletion of data/ from the final argv (a here-document, a
here-string, a pipe into an interpreter, a <( ), /dev/stdin, a script
written earlier on the line, the command's environment); headless every
one is refused with status 121 and data/ is still there afterwards, judged
from outside. The same text made harmless still runs. At a terminal the
human is asked once, a no stops the command and a yes runs it; at the
approver (no terminal anywhere, as agent tools run sbsh) the same."""
import os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from approver_pty import Approver, session  # noqa: E402
from pty_human import answer_approvals, play  # noqa: E402
from report import check, summary  # noqa: E402

SBSH = os.environ["SBSH"]
REFUSED = 121

# {D} is the payload: a deletion, or a harmless command in its place.
SHAPES = [
    "bash <<EOF\n{D}\nEOF",
    "bash <<'EOF'\n{D}\nEOF",
    "sh <<-EOF\n\t{D}\n\tEOF",
    "sh -s <<< '{D}'",
    "bash <<< '{D}'",
    "bash <(echo '{D}')",
    "sh <(printf '%s\\n' '{D}')",
    "bash /dev/stdin <<< '{D}'",
    "bash /proc/self/fd/0 <<< '{D}'",
    "exec bash -s <<< '{D}'",
    "exec bash -c '{D}'",
    "echo '{D}' | sh",
    "echo '{D}' | bash -s",
    "printf '%s\\n' '{D}' | sh",
    "cat <<EOF | sh\n{D}\nEOF",
    "echo '{D}' > s.sh; sh s.sh",
    "printf '%s\\n' '{D}' > s.sh && bash ./s.sh",
    "echo '{D}' > s.sh; sh < s.sh",
    "command bash <<EOF\n{D}\nEOF",
    "time bash <<EOF\n{D}\nEOF",
    "{{ bash; }} <<EOF\n{D}\nEOF",
    "(sh) <<< '{D}'",
    "eval 'bash <<EOF\n{D}\nEOF'",
    "bash -s < <(echo '{D}')",
    "sh -c 'sh' <<< '{D}'",
    "timeout 5 bash <<< '{D}'",
    "nice bash <<< '{D}'",
    "env bash <<< '{D}'",
    "dash <<< '{D}'",
    "x='{D}'; bash <<< \"$x\"",
    "x='{D}'\nbash <<EOF\n$x\nEOF",
    "x='{D}'\nsh <<< \"$x $(true)\"",
    "f() {{ bash <<EOF\n{D}\nEOF\n}}; f",
    "find . -maxdepth 0 -exec sh -s \\; <<< '{D}'",
    "script -qc '{D}' /dev/null",
    "env 'BASH_FUNC_ls%%=() {{ {D}; }}' bash -c ls",
    "bash --rcfile <(echo '{D}') -i < /dev/null",
    "make -f <(printf 'all:\\n\\t{D}\\n')",
    "make -f - <<EOF\nall:\n\t{D}\nEOF",
    "awk -f <(echo 'BEGIN{{system(\"{D}\")}}')",
    "bash -c 'source /dev/stdin' <<< '{D}'",
    "bash -c '. /dev/stdin' <<< '{D}'",
    # Scripts written on the line by any program, not only by a redirection.
    "cp /dev/stdin s.sh <<< '{D}'; sh s.sh",
    "tee s.sh <<< '{D}' >/dev/null; sh s.sh",
    "printf '%s\\n' '{D}' | dd of=s.sh 2>/dev/null; bash s.sh",
    "python3 -c 'open(\"s.sh\", \"w\").write(\"{D}\\n\")'; sh s.sh",
    "echo '{D}' > x.sh; mv x.sh s.sh; sh s.sh",
    "echo '{D}' > s.sh; touch -d 2000-01-01 s.sh; sh s.sh",
    "printf 'all:\\n\\t{D}\\n' > Makefile; make",
    "cp /dev/stdin Makefile <<< $'all: x\\nx:\\n\\t{D}'; make",
    "printf '#!/bin/sh\\n{D}\\n' > t && chmod +x t && ./t",
    "python3 -c 'import sys; exec(sys.stdin.read())' <<< 'import os; os.system(\"{D}\")'",
    "perl -e 'eval join \"\", <STDIN>' <<< 'system(\"{D}\")'",
]

# What the line builds or writes and then runs as the project's own code
# still runs: only the agent's text is judged.
BUILDS = [
    "printf 'int main(void){return 0;}' > x.c && cc -o x x.c && ./x",
    "printf 'all:\\n\\ttrue\\nclean:\\n\\trm -rf data\\n' > Makefile && make",
    "printf '#!/usr/bin/env python3\\nprint(1)\\n' > t.py && chmod +x t.py && ./t.py",
    "git init -q sub && cd sub && printf 'rm -rf stale\\n' > build.sh && git add build.sh && cd .. && true",
]

# Shapes whose input is not known before it runs: refused (ASK) headless,
# whatever the payload.
UNKNOWN = [
    "echo cm0gLXJmIGRhdGEK | base64 -d | sh",
    "echo 'rm -rf data' | tee /dev/null | sh",
    "exec 3<<<'rm -rf data'; bash /dev/fd/3",
    "bash <<< \"$(echo rm -rf data)\"",
    "bash -c 'cat | sh' <<< 'rm -rf data'",
    "echo 'rm -rf data' | xargs -0 sh -c",
]

PYTHON = [
    "python3 <<EOF\nimport shutil; shutil.{P}('data')\nEOF",
    "python3 - <<'EOF'\nimport shutil; shutil.{P}('data')\nEOF",
    "python3 <(echo 'import shutil; shutil.{P}(\"data\")')",
    "cat > s.py <<'EOF' && python3 s.py\nimport shutil; shutil.{P}('data')\nEOF",
    "perl <<'EOF'\n{PERL}\nEOF",
]

# The command's environment makes git run text (in a repository with a change).
GIT_ENV = [
    "GIT_EXTERNAL_DIFF='{D};:' git diff",
    "export GIT_EXTERNAL_DIFF='{D};:'; git diff",
    "env GIT_EXTERNAL_DIFF='{D};:' git diff",
    "GIT_EDITOR='{D};:' git commit --allow-empty -q",
]


def fresh():
    # In $HOME, not a temp folder: a list in a temp folder (any session
    # could have written it) is not honoured.
    work = tempfile.mkdtemp(prefix="sbsh-guard-", dir=os.environ.get("HOME", "/root"))
    subprocess.run(["git", "init", "-q", work], check=True)
    with open(os.path.join(work, "f"), "w") as f:
        f.write("a\n")
    git = ["git", "-C", work, "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(git + ["add", "f"], check=True)
    subprocess.run(git + ["commit", "-qm", "i"], check=True)
    with open(os.path.join(work, "f"), "w") as f:
        f.write("b\n")
    return work


def plant(work):
    os.makedirs(os.path.join(work, "data"), exist_ok=True)
    with open(os.path.join(work, "data", "keep"), "w") as f:
        f.write("keep\n")


def kept(work):
    return os.path.exists(os.path.join(work, "data", "keep"))


def headless(script, work):
    env = dict(os.environ, CI="1", GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    p = subprocess.run([SBSH, "-c", script], cwd=work, env=env, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=30)
    return p.returncode, p.stderr.decode(errors="replace")


def disguises():
    for s in SHAPES + GIT_ENV:
        yield s.format(D="rm -rf data"), s.format(D="echo harmless")
    for s in PYTHON:
        yield (s.format(P="rmtree", PERL='system("rm -rf data");'),
               s.format(P="copy", PERL='print "harmless\\n";').replace("copy('data')", "which('ls')")
               .replace('copy("data")', 'which("ls")'))
    for s in UNKNOWN:
        yield s, None
    for s in BUILDS:
        yield None, s


work = fresh()
tried = through = 0
try:
    for bad, good in disguises():
        if bad is not None:
            plant(work)
            status, err = headless(bad, work)
            tried += 1
            through += not kept(work)
            check(kept(work) and status == REFUSED and "refused" in err,
                  "headless, refused and data/ kept: " + bad.replace("\n", "\u2424"), "status %d: %s" % (status, err))
        if good is None:
            continue
        plant(work)
        status, err = headless(good, work)
        check(status != REFUSED and "refused" not in err and kept(work),
              "the same made harmless still runs: " + good.replace("\n", "\u2424"), "status %d: %s" % (status, err))
    print("# %d disguised deletions tried headless, %d let through" % (tried, through))

    # A here-document is expanded once for the check and the command: its
    # substitutions run once, and what changes the shell is left to the
    # command's child, as bash does.
    p = subprocess.run([SBSH, "-c", "n=0; cat <<EOF\n$((n+=1)) ${y:=set} $(echo once >> subs.log)\nEOF\necho n=$n y=$y"],
                       cwd=work, capture_output=True, text=True, env=dict(os.environ, CI="1"))
    with open(os.path.join(work, "subs.log")) as f:
        subs = f.read()
    check(p.stdout == "1 set \nn=0 y=\n" and subs == "once\n", "a here-document is expanded once, in the child",
          p.stdout + p.stderr + subs)

    # An allow entry covers the same command inside shell text, and no more.
    with open(os.path.join(work, ".agentcommands.json"), "w") as f:
        f.write('{"allow": ["rm -r data"]}\n')
    # written between sessions: it counts once the human accepts it
    subprocess.run([SBSH, "--review", "accept", ".agentcommands.json"], cwd=work, capture_output=True)
    for script in ("bash -c 'rm -r data'", "sh <<EOF\nrm -r data\nEOF", "echo 'rm -r data' | sh"):
        plant(work)
        status, err = headless(script, work)
        check(not kept(work) and status == 0, "allowed rm -r data runs inside: " + script.replace("\n", "\u2424"), err)
    for script in ("bash -c 'rm -r data; rm -rf data'", "bash -c 'rm -rf data'", "sh <<EOF\nrm -r data/keep\nEOF"):
        plant(work)
        status, err = headless(script, work)
        check(kept(work) and status == REFUSED, "the entry allows no more inside: " + script.replace("\n", "\u2424"), err)
    os.unlink(os.path.join(work, ".agentcommands.json"))

    # Only the list at the top of the work tree counts: one in a subfolder
    # (the agent can write it) is not honoured there, not even by a shell
    # started in that subfolder.
    sub = os.path.join(work, "deep", "er")
    os.makedirs(os.path.join(sub, "data"), exist_ok=True)
    with open(os.path.join(sub, "data", "keep"), "w") as f:
        f.write("keep\n")
    with open(os.path.join(sub, ".agentcommands.json"), "w") as f:
        f.write('{"allow": ["rm -rf data"]}\n')
    status, err = headless("rm -rf data", sub)
    check(os.path.exists(os.path.join(sub, "data", "keep")) and status == REFUSED,
          "an allow-list in a subfolder of the work tree is not honoured", "status %d: %s" % (status, err))
    shutil.rmtree(os.path.join(work, "deep"), ignore_errors=True)

    # At a terminal: asked once; no means it does not run, yes runs it.
    term_env = dict(os.environ, TERM="xterm")
    term_env.pop("CI", None)

    def answering(script, answers, env):
        """sbsh -c script on a pty; the n-th question gets answers[n-1]
        (the last one from then on). Returns (questions, status, output)."""
        _, status, prompts, out = answer_approvals([SBSH, "-c", script], answers, env, work, 30, repeat_last=True)
        return prompts, status >> 8, out

    def at_terminal(script, answer):
        seen, _, out = answering(script, answer, term_env)
        return seen, out

    for script in ("bash <<EOF\nrm -rf data\nEOF", "python3 <<EOF\nimport shutil; shutil.rmtree('data')\nEOF",
                   "exec bash -c 'rm -r data'", "echo 'rm -rf data' | sh", "bash <(echo 'rm -rf data')",
                   "GIT_EXTERNAL_DIFF='rm -rf data;:' git diff", "bash <<< \"$(echo rm -rf data)\""):
        name = script.replace("\n", "\u2424")
        plant(work)
        prompts, out = at_terminal(script, "n")
        check(kept(work) and prompts == 1, "terminal, n: asked once, data/ kept: " + name, out)
        check("the human said no" in out and "nobody answered" not in out,
              "terminal, n: the refusal says the human said no: " + name, out)
        plant(work)
        prompts, out = at_terminal(script, "y")
        check(not kept(work) and prompts == 1, "terminal, y: asked once, and it ran: " + name, out)

    # A nested sbsh at a terminal (bash and sh are sbsh's shims, as agent
    # tools set them up) asks its session's broker, which asks the human:
    # one command, one question, whatever the depth. A later line is asked.
    tshims = tempfile.mkdtemp(prefix=".sbsh-guard-shims-", dir=os.environ.get("HOME", "/root"))
    try:
        subprocess.run([SBSH, "--shims", tshims], check=True, capture_output=True)
        nenv = dict(term_env, PATH=tshims + os.pathsep + os.environ["PATH"])

        def nested_at_terminal(script, answers):
            return answering(script, answers, nenv)

        for script in ("bash -c 'rm -r data'", "bash -c 'bash -c \"rm -r data\"'", "sh <<EOF\nrm -r data\nEOF",
                       "exec bash -c 'rm -r data'", "bash -c 'sh -c \"bash -c \\\"rm -r data\\\"\"'"):
            name = script.replace("\n", "\u2424")
            plant(work)
            prompts, status, out = nested_at_terminal(script, "yy")
            check(not kept(work) and prompts == 1, "terminal, nested sbsh, y: asked once in all, it ran: " + name, out)
            plant(work)
            prompts, status, out = nested_at_terminal(script, "ny")
            check(kept(work) and prompts == 1 and status == REFUSED,
                  "terminal, nested sbsh, n: asked once, refused, data/ kept: " + name, out)
        with open(os.path.join(work, "hidden.sh"), "w") as f:
            f.write("rm -r data\n")
        plant(work)
        prompts, status, out = nested_at_terminal("bash -c 'rm -r data'\nmkdir data; touch data/keep; bash < hidden.sh",
                                                  "yn")
        check(prompts == 2 and kept(work), "terminal: a yes does not carry over to the next line's nested sbsh", out)
        os.unlink(os.path.join(work, "hidden.sh"))

        # The agent points SBSH_SESSION at a stand-in of its own that
        # answers yes to anything, and runs the nested sbsh under it (the
        # stand-in is then an ancestor, as the real broker is): made inside
        # the sandbox, it is not trusted, gets no question, and nothing is
        # deleted. The stand-in writes down what it was sent.
        with open(os.path.join(work, "standin.py"), "w") as f:
            f.write("""import os, socket, struct, subprocess, sys, threading
path = os.path.abspath("standin.sock")
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.bind(path)
s.listen(8)
def serve():
    while True:
        c, _ = s.accept()
        c.settimeout(3)
        try:
            data = c.recv(70000)
            if data:
                open("standin.got", "ab").write(data)
                c.send(struct.pack("<IIiI", 0x53424252, 3, 1, 0))
        except OSError:
            pass
        c.close()
threading.Thread(target=serve, daemon=True).start()
sys.exit(subprocess.run(sys.argv[1:], env=dict(os.environ, SBSH_SESSION=path)).returncode)
""")
        with open(os.path.join(work, "run.sh"), "w") as f:
            f.write("#!/bin/sh\nexec bash -c 'rm -r data'\n")
        os.chmod(os.path.join(work, "run.sh"), 0o755)
        got = os.path.join(work, "standin.got")
        for line in ("python3 standin.py ./run.sh", "python3 standin.py sh ./run.sh"):
            plant(work)
            prompts, status, out = nested_at_terminal(line, "yy")
            check(kept(work) and not os.path.exists(got) and status != 0,
                  "a stand-in SBSH_SESSION is not trusted, and gets no question: " + line, out)
            for leftover in ("standin.sock", "standin.got"):
                if os.path.exists(os.path.join(work, leftover)):
                    os.unlink(os.path.join(work, leftover))

        # Inside a session, escape cannot leave the sandbox: it says so.
        # (`escape` in the outer text makes the outer sbsh fork its broker.)
        with open(os.path.join(work, "run.sh"), "w") as f:
            f.write("#!/bin/sh\nbash -c 'escape touch escaped.mark'\n")
        # The human's own script (accepted): opaque to the outer sbsh, so the
        # nested one meets the escape.
        subprocess.run([SBSH, "--review", "accept", "run.sh"], cwd=work, capture_output=True)
        _, status, out = nested_at_terminal("./run.sh; false && escape true", "yy")
        check(not os.path.exists(os.path.join(work, "escaped.mark")) and "inside a session" in out,
              "a nested sbsh refuses escape, saying why", out)
        for leftover in ("run.sh", "standin.py"):
            os.unlink(os.path.join(work, leftover))
    finally:
        shutil.rmtree(tshims, ignore_errors=True)

    # A command judged ESCAPE takes only the typed code, never y or s, and
    # is asked again each time. (A stand-in systemd-run leaves a mark.)
    fake = os.path.join(work, "fakebin")
    os.makedirs(fake, exist_ok=True)
    with open(os.path.join(fake, "systemd-run"), "w") as f:
        f.write("#!/bin/sh\necho ran >> escaped.log\n")
    os.chmod(os.path.join(fake, "systemd-run"), 0o755)
    esc_env = dict(term_env, PATH=fake + os.pathsep + os.environ["PATH"])
    for answer in ("y", "s"):
        seen = [0]

        def respond(out, answer=answer):
            n = len(re.findall(rb"Type [a-z0-9]+ and Enter", out))
            if n > seen[0]:
                seen[0] = n
                return answer.encode() + b"\r"
            return None
        _, _, out = play([SBSH, "-c", "systemd-run --user true"], respond, esc_env, work, 30)
        check(seen[0] == 1 and not os.path.exists(os.path.join(work, "escaped.log")) and "Allow?" not in out,
              "a command judged ESCAPE asks for the code, and %s refuses it" % answer, out)
    code_seen = [0]

    def type_code(out):
        codes = re.findall(rb"Type ([a-z0-9]+) and Enter", out)
        if len(codes) > code_seen[0]:
            code_seen[0] = len(codes)
            return codes[-1] + b"\r"
        return None
    _, _, out = play([SBSH, "-c", "systemd-run --user true; systemd-run --user true"], type_code, esc_env, work, 30)
    with open(os.path.join(work, "escaped.log")) if os.path.exists(os.path.join(work, "escaped.log")) else open(os.devnull) as f:
        ran = f.read().count("ran")
    check(code_seen[0] == 2 and ran == 2, "a command judged ESCAPE runs with the typed code, asked each time", out)

    # At the approver, as agent tools run sbsh: no terminal anywhere.
    base = tempfile.mkdtemp(prefix=".sbsh-guard-", dir=os.environ.get("HOME", "/root"))
    runtime = os.path.join(base, "run")
    os.mkdir(runtime, 0o700)
    conf = os.path.join(base, "config")
    os.makedirs(os.path.join(conf, "sbsh"))
    with open(os.path.join(conf, "sbsh", "config"), "w") as f:
        f.write("approval-timeout = 60\n")  # the human answers however busy the machine
    aenv = dict(os.environ, XDG_CONFIG_HOME=conf, XDG_RUNTIME_DIR=runtime, TERM="xterm")
    aenv.pop("CI", None)
    approver = Approver(aenv, SBSH)
    try:
        check(approver.wait_for(rb"approver ready") is not None, "the approver starts", approver.text())
        for script in ("exec bash -c 'rm -r data'", "bash <<EOF\nrm -rf data\nEOF", "echo 'rm -rf data' | sh"):
            name = script.replace("\n", "\u2424")
            plant(work)
            status, out, err, seen, screen, _ = session(script, aenv, work, approver, [b"n"])
            check(kept(work) and status == REFUSED and seen == 1,
                  "approver, n: asked once, refused, data/ kept: " + name, screen + err)
            plant(work)
            status, out, err, seen, screen, _ = session(script, aenv, work, approver, [b"y"])
            check(not kept(work) and seen == 1, "approver, y: asked once, and it ran: " + name, screen + err)

        # A nested sbsh (bash and sh are sbsh's shims, as agent tools set
        # them up) is not asked again what its session decided: one
        # command, one question, whatever the depth. A later line is.
        shims = os.path.join(base, "shims")
        subprocess.run([SBSH, "--shims", shims], check=True, capture_output=True)
        senv = dict(aenv, PATH=shims + os.pathsep + os.environ["PATH"])
        for script in ("bash -c 'rm -r data'", "bash -c 'bash -c \"rm -r data\"'", "sh <<EOF\nrm -r data\nEOF"):
            name = script.replace("\n", "\u2424")
            plant(work)
            status, out, err, seen, screen, _ = session(script, senv, work, approver, [b"y", b"y"])
            check(not kept(work) and seen == 1, "nested sbsh, y: asked once in all: " + name, screen + err)
            plant(work)
            status, out, err, seen, screen, _ = session(script, senv, work, approver, [b"n", b"y"])
            check(kept(work) and seen == 1 and status == REFUSED, "nested sbsh, n: refused, asked once: " + name,
                  screen + err)
        with open(os.path.join(work, "hidden.sh"), "w") as f:
            f.write("rm -r data\n")
        plant(work)
        status, out, err, seen, screen, _ = session("bash -c 'rm -r data'\nmkdir data; touch data/keep; sh < hidden.sh", senv, work,
                                                    approver, [b"y", b"n"])
        check(seen == 2 and status == REFUSED and kept(work), "a yes does not carry over to the next line's nested sbsh",
              screen + err)
    finally:
        os.write(approver.fd, b"\x04")
        approver.wait_exit()
        shutil.rmtree(base, ignore_errors=True)
finally:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(summary())
