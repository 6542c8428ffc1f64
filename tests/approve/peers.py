#!/usr/bin/env python3
"""Who the approver answers, and what its screen and keys can be made to
do by someone other than the human. A process inside sbsh's sandbox that
connects to approver.sock and asks is refused with its own answer, and the
human's screen shows nothing of it; so is a nested sbsh's broker (made
inside a sandbox). One process holding many connections and questions
does not starve a real broker, and a full approver says "busy", never
"the human said no". A key typed as the question on screen changes does
not answer the next one. A socket made inside a sandbox is not taken for
the approver, whatever folder it is in. `--approver` refuses to start in
tmux or screen unless told --trust-multiplexer. All judged from outside:
files still there, what the clients received, the approver's screen. The
sandbox's supervisor refuses a sandboxed connection to the approver's
socket first; with allow-socket naming it, the approver's own check is
what refuses, and both are tested."""
import os, pty, re, select, shutil, signal, socket, struct, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from report import check, check_sandboxed, missing, summary  # noqa: E402
from approver_pty import Approver, finish, start_session  # noqa: E402

SBSH = os.environ["SBSH"]
REFUSED = 121
MAGIC, ASK, RESULT = 0x53424252, 8, 3
NO, YES_ONCE, TIMEOUT, BUSY, ONLY_BROKERS = 0, 1, 3, 4, 5

# A question as a broker puts it (trusted/broker_proto.h), and what came back.
ASKER = r'''
import socket, struct, sys, time
MAGIC = 0x53424252
def question(command, timeout=30):
    parts = ["approval", "/", "DELETE", command, "rm deletes files", "", "", "", "", "", ""]  # BROKER_ASK_FIELDS (11)
    payload = b"".join(p.encode() + b"\0" for p in parts)
    return struct.pack("<IIiI", MAGIC, 8, timeout, len(payload)) + payload
def answer(s, limit=10):
    s.settimeout(limit)
    try:
        data = s.recv(20000)
    except OSError as e:
        return "error " + (e.strerror or str(e))
    if len(data) < 16:
        return "closed"
    magic, kind, value, _ = struct.unpack("<IIiI", data[:16])
    return "answer %d" % value if magic == MAGIC and kind == 3 else "garbage"
def ask(path, command, timeout=30):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        s.connect(path)
    except OSError as e:
        return s, "connect " + (e.strerror or str(e))
    try:
        s.send(question(command, timeout))
    except OSError:
        pass  # refused at once: its answer may still be there to read
    return s, None
if __name__ == "__main__":
    s, err = ask(sys.argv[1], sys.argv[2])
    print(err or answer(s), flush=True)
'''

# A fake approver: answers yes to everything, on the socket path given.
FAKE = r'''
import os, socket, struct, sys
path = sys.argv[1]
os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.bind(path); s.listen(8)
print("listening", flush=True)
while True:
    c, _ = s.accept()
    try:
        c.recv(20000)
        c.send(struct.pack("<IIiI", 0x53424252, 3, 1, 0))
    except OSError:
        pass
    c.close()
'''

base = tempfile.mkdtemp(prefix=".sbsh-peers-", dir=os.environ.get("HOME", "/root"))
runtime = os.path.join(base, "run")
os.mkdir(runtime, 0o700)
project = os.path.join(base, "project")
other = os.path.join(base, "other")
home = os.path.join(base, "home")
conf = os.path.join(base, "config")
for d in (project, other, home, os.path.join(conf, "sbsh")):
    os.makedirs(d)
with open(os.path.join(conf, "sbsh", "config"), "w") as f:
    f.write("approval-timeout = 60\n")  # the human answers however busy the machine
env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=conf, XDG_RUNTIME_DIR=runtime, TERM="xterm")
env.pop("CI", None)
for k in ("TMUX", "TMUX_PANE", "STY"):
    env.pop(k, None)
ci_env = dict(env, CI="1")
sock = os.path.join(runtime, "sbsh", "approver.sock")
# The supervisor refuses a sandboxed connection to the approver's socket
# (outside the writable folders) before the approver hears of it. With
# allow-socket naming that socket, the connection is made (by the
# supervisor, on the asker's behalf) and the approver's own check is what
# refuses: both are tested.
conf_allow = os.path.join(base, "config-allow")
os.makedirs(os.path.join(conf_allow, "sbsh"))
with open(os.path.join(conf_allow, "sbsh", "config"), "w") as f:
    f.write("approval-timeout = 10\nallow-socket = %s\n" % sock)
allow_env = dict(ci_env, XDG_CONFIG_HOME=conf_allow)
REACHED = ("the supervisor refuses the connection", "connect Permission denied",
           "the approver itself refuses (allow-socket)", "answer %d" % ONLY_BROKERS)
sys.path.insert(0, project)
with open(os.path.join(project, "asker.py"), "w") as f:
    f.write(ASKER)
with open(os.path.join(project, "fake_approver.py"), "w") as f:
    f.write(FAKE)
with open(os.path.join(project, "detach.py"), "w") as f:
    f.write("import os, subprocess, sys\n"
            "if os.fork() == 0:\n"
            "    os.setsid()\n"
            "    r = subprocess.run([sys.executable, 'asker.py', sys.argv[1], 'rm -rf data'], capture_output=True,"
            " text=True)\n"
            "    print(r.stdout, flush=True)\n")
import asker  # noqa: E402  (the same code, run here, outside any sandbox)


def plant(folder):
    os.makedirs(os.path.join(folder, "data"), exist_ok=True)
    with open(os.path.join(folder, "data", "keep"), "w") as f:
        f.write("keep\n")


def kept(folder):
    return os.path.exists(os.path.join(folder, "data", "keep"))


def sandboxed(script, cwd=project, limit=60):
    """script run by a headless sbsh -c: inside the sandbox, asking nobody."""
    return subprocess.run([SBSH, "-c", script], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          cwd=cwd, env=ci_env, start_new_session=True, timeout=limit)


approvers = []
procs = []
try:
    # --approver in tmux or screen: refused, unless told it is trusted.
    for name, extra in (("TMUX is set", {"TMUX": "/tmp/tmux-0/default,1,0"}), ("STY is set", {"STY": "1.pts-0"}),
                        ("TERM is screen", {"TERM": "screen-256color"}), ("ZELLIJ is set", {"ZELLIJ": "0"}),
                        ("WezTerm's mux", {"WEZTERM_UNIX_SOCKET": "/run/user/0/wezterm/sock"}),
                        ("kitty listening for remote control", {"KITTY_LISTEN_ON": "unix:/tmp/kitty"})):
        a = Approver(dict(env, **extra), args=[])
        status = a.wait_exit()
        check(status not in (0, None) and "--trust-multiplexer" in a.text() and not os.path.exists(sock),
              "--approver refuses to start inside a terminal multiplexer: " + name, a.text())
    # ... and with its variables unset, a zellij among its parents.
    fakebin = os.path.join(base, "fakebin")
    os.makedirs(fakebin)
    shutil.copy("/bin/sh", os.path.join(fakebin, "zellij"))
    wrapper = os.path.join(base, "in-zellij")
    with open(wrapper, "w") as f:
        f.write("#!/bin/sh\nexec %s -c '\"$0\" \"$@\"; exit $?' %s \"$@\"\n" % (os.path.join(fakebin, "zellij"), SBSH))
    os.chmod(wrapper, 0o755)
    a = Approver(env, sbsh=wrapper, args=[])
    status = a.wait_exit()
    check(status not in (0, None) and "zellij" in a.text() and not os.path.exists(sock),
          "--approver refuses to start with a zellij among its parents", a.text())
    a = Approver(dict(env, TMUX="/tmp/tmux-0/default,1,0"), args=["--trust-multiplexer"])
    approvers.append(a)
    check(a.wait_for(rb"approver ready") is not None and b"tmux" in a.out,
          "... --trust-multiplexer starts it anyway, and says why that is unsafe", a.text())
    a.type(b"\x04")
    a.wait_exit()
    if shutil.which("tmux"):
        tsock = os.path.join(base, "tmux.sock")
        log = os.path.join(base, "tmux.log")
        subprocess.run(["tmux", "-S", tsock, "new-session", "-d", "-x", "100", "-y", "20",
                        "env -u TMUX -u TMUX_PANE %s --approver > %s 2>&1; echo exit=$? >> %s; sleep 30"
                        % (SBSH, log, log)], env=env, check=True)
        text = ""
        for _ in range(100):
            time.sleep(0.1)
            text = open(log).read() if os.path.exists(log) else ""
            if "exit=" in text:
                break
        subprocess.run(["tmux", "-S", tsock, "kill-server"], capture_output=True)
        check("exit=0" not in text and "exit=" in text and "tmux" in text and not os.path.exists(sock),
              "... in a tmux pane with TMUX unset too (the terminal's owner is looked at)", text)
    else:
        missing("--approver refuses in a tmux pane with TMUX unset", "tmux is not installed")

    a = Approver(env)
    approvers.append(a)
    check(a.wait_for(rb"approver ready") is not None, "the approver starts", a.text())

    # A sandboxed process asks directly: refused with its own answer, and
    # the human sees nothing. Disguises: a child that outlives its parent,
    # a symlink to the socket in the project, a question of a real pid.
    os.symlink(sock, os.path.join(project, "link.sock"))
    for name, script in (
        ("python", 'python3 asker.py "$1" "rm -rf data"'),
        ("a detached child", 'python3 detach.py "$1"; sleep 3'),
        ("through a symlink", 'python3 asker.py link.sock "rm -rf data"'),
    ):
        for how, e, expected in ((REACHED[0], ci_env, REACHED[1]), (REACHED[2], allow_env, REACHED[3])):
            since = len(a.out)
            p = subprocess.run([SBSH, "-c", script, "sbsh", sock], stdin=subprocess.DEVNULL, capture_output=True,
                               text=True, cwd=project, env=e, start_new_session=True, timeout=60)
            a.pump(1.0)
            check_sandboxed(expected in p.stdout and b"Allow?" not in a.out[since:]
                            and b"rm -rf data" not in a.out[since:],
                            "a sandboxed process asking the approver is refused, nothing shown: %s, %s" % (name, how),
                            p.stdout + p.stderr + a.text(since))

    # A nested sbsh (inside the sandbox) forks a broker there: refused too,
    # and its refusal never reads as the human's no.
    plant(project)
    since = len(a.out)
    with open(os.path.join(project, "nested.py"), "w") as f:
        f.write("import os, subprocess, sys\n"
                "e = dict(os.environ); e.pop('CI', None)\n"
                "r = subprocess.run([sys.argv[1], '-c', 'rm -rf data'], env=e, stdin=subprocess.DEVNULL,"
                " capture_output=True, text=True)\n"
                "print('status', r.returncode); print(r.stderr)\n")
    p = sandboxed('python3 nested.py "%s"' % SBSH)
    a.pump(1.0)
    print("     (the nested sbsh said: %s)" % " | ".join(p.stdout.split("\n"))[:300])
    # (A nested sbsh that asks its outer session instead says something
    # else; never the human's no.)
    check_sandboxed(kept(project) and "status %d" % REFUSED in p.stdout and "the human said no" not in p.stdout
                    and b"Allow?" not in a.out[since:],
                    "a nested sbsh's broker is refused: data/ kept, nothing shown, not 'the human said no'",
                    p.stdout + p.stderr + a.text(since))

    # One process floods it: 40 silent connections, then 32 questions. A
    # real broker (a sbsh at a pty) is still shown and answered.
    plant(project)
    since = len(a.out)
    silent = []
    for _ in range(40):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        s.connect(sock)
        silent.append(s)
    asking = [asker.ask(sock, "echo fake %d" % i) for i in range(32)]
    answers = [err or asker.answer(s, 5) for s, err in asking]
    busy = sum(1 for x in answers if x == "answer %d" % BUSY)
    check(busy >= 30 and not any(x == "answer %d" % NO for x in answers),
          "beyond a few connections of one process, the approver answers busy, not no",
          " ".join(answers))
    typed = []

    def answer_real():
        if not typed and re.search(rb"Allow\?", a.out[since:]) and b"-rf data" in a.out[since:]:
            typed.append(True)
            a.type(b"y\r")
    status, out = None, ""
    pid, fd = pty.fork()
    if pid == 0:
        for _s in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTSTP, signal.SIGPIPE, signal.SIGXFSZ): signal.signal(_s, signal.SIG_DFL)  # a terminal's session starts with them
        os.chdir(project)
        os.execve(SBSH, [SBSH, "-c", "rm -rf data; echo status=$?"], env)
    end = time.time() + 40
    while time.time() < end:
        a.pump(0.05)
        answer_real()
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                out += os.read(fd, 4096).decode(errors="replace")
            except OSError:
                pass
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            status = st
            break
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(fd)
    check(typed and not kept(project) and "status=0" in out and b"echo fake" not in a.out[since:],
          "... a real broker's question is shown, answered, and the command runs", out + a.text(since))
    for s in silent:
        s.close()
    for s, _ in asking:
        s.close()

    # Full (every slot held, by many processes): a real broker hears busy,
    # and says so; never "the human said no".
    plant(project)
    hogs = []
    for _ in range(12):
        hogs.append(subprocess.Popen([sys.executable, "-c",
                                      "import socket, sys, time\nkeep = []\n"
                                      "for _ in range(4):\n"
                                      "    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)\n"
                                      "    s.connect(sys.argv[1]); keep.append(s)\n"
                                      "print('held', flush=True)\nsys.stdin.read()", sock],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
    for h in hogs:
        h.stdout.readline()
    since = len(a.out)
    proc = start_session("rm -rf data; echo status=$?", env, project)
    status, out, err = finish(proc, a, 30)
    for h in hogs:
        h.stdin.close()
        h.wait()
    check(kept(project) and "status=%d" % REFUSED in out and "the approver is busy" in err
          and "the human said no" not in err, "a full approver: refused as busy, never as the human's no",
          out + err + a.text(since))

    # A question withdrawn as the human answers it: the key does not land
    # on the next one (keys are ignored a moment after the question changes).
    plant(project)
    since = len(a.out)
    fake, _ = asker.ask(sock, "echo withdrawn question")
    check(a.wait_for(rb"echo withdrawn question", since) is not None, "a question is shown", a.text(since))
    proc = start_session("rm -rf data; echo status=$?", env, project)
    # The real question is queued once its broker's connection is open.
    apid = a.pid
    before = len(os.listdir("/proc/%d/fd" % apid))
    for _ in range(100):
        if len(os.listdir("/proc/%d/fd" % apid)) > before:
            break
        time.sleep(0.1)
    time.sleep(0.5)
    fake.close()
    m = a.wait_for(rb"-rf data", since)
    os.write(a.fd, b"y\r")  # the human's y, meant for the withdrawn question
    a.pump(1.5)
    late = len(a.out)
    a.type(b"n\r")
    status, out, err = finish(proc, a, 30)
    check(m is not None and kept(project) and "status=%d" % REFUSED in out and "the human said no" in err
          and b"approved" not in a.out[since:late] and b"what was typed is ignored" in a.out[since:late],
          "a y typed as a withdrawn question gives way does not approve the next; a later n answers it",
          out + err + a.text(since))

    # A socket made inside a sandbox, in a folder the asking session's own
    # list does not have (another project's): not taken for the approver.
    fake_runtime = os.path.join(project, "run")
    fake_sock = os.path.join(fake_runtime, "sbsh", "approver.sock")
    fake_proc = subprocess.Popen([SBSH, "-c", 'exec python3 fake_approver.py "$1"', "sbsh", fake_sock],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 cwd=project, env=ci_env, start_new_session=True)
    procs.append(fake_proc)
    line = fake_proc.stdout.readline().decode()
    plant(other)
    p = subprocess.run([SBSH, "-c", "rm -rf data; echo status=$?"], stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, cwd=other, env=dict(env, XDG_RUNTIME_DIR=fake_runtime), start_new_session=True,
                       timeout=60)
    check_sandboxed("listening" in line and kept(other) and "status=%d" % REFUSED in p.stdout
                    and "made inside a sandbox" in p.stderr,
                    "a socket a sandboxed process made, outside the session's folders, is not the approver",
                    line + p.stdout + p.stderr)

    a.type(b"\x04")
    a.wait_exit()

    # Under no_new_privs throughout (docker's no-new-privileges, a systemd
    # unit's NoNewPrivileges=yes): brokers are told apart by their seccomp
    # filters. A broker started more confined than the approver is refused,
    # saying so.
    if shutil.which("setpriv"):
        nnp = os.path.join(base, "nnp-sbsh")
        with open(nnp, "w") as f:
            f.write('#!/bin/sh\nexec setpriv --no-new-privs "%s" "$@"\n' % SBSH)
        os.chmod(nnp, 0o755)
        n = Approver(env, nnp)
        approvers.append(n)
        check(n.wait_for(rb"approver ready") is not None, "no_new_privs: the approver starts", n.text())
        plant(project)
        since = len(n.out)
        proc = subprocess.Popen([nnp, "-c", "rm -rf data; echo status=$?"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=project, env=env,
                                start_new_session=True)
        shown = n.wait_for(rb"-rf data", since)
        if shown:
            n.type(b"y\r")
        status, out, err = finish(proc, n, 30)
        check(shown is not None and not kept(project) and "status=0" in out,
              "no_new_privs: a broker's question is shown and answered", out + err + n.text(since))
        for how, e, expected in ((REACHED[0], ci_env, REACHED[1]), (REACHED[2], allow_env, REACHED[3])):
            since = len(n.out)
            p = subprocess.run([nnp, "-c", 'python3 asker.py "$1" "rm -rf data"', "sbsh", sock],
                               stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=project, env=e,
                               start_new_session=True, timeout=60)
            n.pump(1.0)
            check_sandboxed(expected in p.stdout and b"-rf data" not in n.out[since:],
                            "no_new_privs: a sandboxed process (more seccomp filters) is refused, nothing shown: "
                            + how, p.stdout + p.stderr + n.text(since))
        n.type(b"\x04")
        n.wait_exit()
        a = Approver(env)
        approvers.append(a)
        a.wait_for(rb"approver ready")
        plant(project)
        since = len(a.out)
        proc = subprocess.Popen([nnp, "-c", "rm -rf data; echo status=$?"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=project, env=env,
                                start_new_session=True)
        status, out, err = finish(proc, a, 30)
        check(kept(project) and "status=%d" % REFUSED in out and "answers only sbsh's brokers" in err
              and "the human said no" not in err and b"-rf data" not in a.out[since:],
              "a broker under no_new_privs the approver lacks is refused, saying so", out + err + a.text(since))
        a.type(b"\x04")
        a.wait_exit()
    else:
        missing("no_new_privs: brokers told apart by their seccomp filters", "setpriv is not installed")
finally:
    for p in procs:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    for a in approvers:
        if a.status is None:
            try:
                os.kill(a.pid, signal.SIGKILL)
                os.waitpid(a.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
    shutil.rmtree(base, ignore_errors=True)

sys.exit(summary())
