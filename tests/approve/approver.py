#!/usr/bin/env python3
"""`sbsh --approver`, with this script playing the human on the approver's
pty, and sbsh run the way agent tools run it: no terminal at all (stdin
/dev/null, pipes, a new session). Checks yes, no, session, no answer in
time, a vanished asker, a queue of two, escape with its typed code, CI
(nobody asked), an approver the broker must not trust, a second approver,
stopping and stale sockets, and that a sandboxed process cannot create the
approver's socket. Every outcome is checked from outside the sandbox."""
import os, pty, re, select, shutil, signal, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from report import check, check_sandboxed, summary  # noqa: E402
from approver_pty import Approver, finish, start_session, session as approver_session  # noqa: E402

SBSH = os.environ["SBSH"]
REFUSED = 121
TIMEOUT = 5  # approval-timeout of short_env, for the question nobody answers


def session(script, env, cwd, approver, answers, limit=30, enter=b"\r"):
    """Runs a session, answering each prompt on the approver in turn."""
    global last_pid
    status, out, err, seen, screen, last_pid = approver_session(script, env, cwd, approver, answers, limit, enter)
    return status, out, err, seen, screen


base = tempfile.mkdtemp(prefix=".sbsh-approver-", dir=os.environ.get("HOME", "/root"))
# Outside every folder the sandbox can write (not under /tmp, not in the
# project): the approver's folder must be one the sandbox cannot touch.
runtime = os.path.join(base, "run")
os.mkdir(runtime, 0o700)
project = os.path.join(base, "project")
outside = os.path.join(base, "outside")
home = os.path.join(base, "home")
conf = os.path.join(base, "config")
short = os.path.join(base, "config-short")
for d in (project, outside, home, os.path.join(conf, "sbsh"), os.path.join(short, "sbsh")):
    os.makedirs(d)
# The human answers within a minute however busy the machine.
with open(os.path.join(conf, "sbsh", "config"), "w") as f:
    f.write("approval-timeout = 60\n")
with open(os.path.join(short, "sbsh", "config"), "w") as f:
    f.write("approval-timeout = %d\n" % TIMEOUT)
env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=conf, XDG_RUNTIME_DIR=runtime, TERM="xterm")
env.pop("CI", None)
short_env = dict(env, XDG_CONFIG_HOME=short)
sock = os.path.join(runtime, "sbsh", "approver.sock")
victim = os.path.join(project, "victim")


def touch(path):
    with open(path, "w") as f:
        f.write("keep\n")


approvers = []
try:
    # Refusals to start.
    for name, bad_env, why in (
        ("XDG_RUNTIME_DIR unset", {k: v for k, v in env.items() if k != "XDG_RUNTIME_DIR"}, "is not set"),
        ("XDG_RUNTIME_DIR writable by others", dict(env, XDG_RUNTIME_DIR=os.path.join(base, "open")),
         "writable by group or others"),
    ):
        os.makedirs(os.path.join(base, "open"), exist_ok=True)
        os.chmod(os.path.join(base, "open"), 0o777)
        a = Approver(bad_env)
        status = a.wait_exit()
        check(status not in (0, None) and why in a.text() and "sbsh: --approver: " in a.text(),
              "refuses to start: " + name, a.text())

    a = Approver(env)
    approvers.append(a)
    check(a.wait_for(rb"approver ready") is not None, "the approver starts", a.text())
    st = os.stat(os.path.join(runtime, "sbsh"))
    check(st.st_mode & 0o777 == 0o700 and st.st_uid == os.geteuid(), "its folder is 0700 and ours",
          oct(st.st_mode))
    check(os.path.exists(sock), "its socket exists")

    second = Approver(env)
    status = second.wait_exit()
    check(status not in (0, None) and "already running" in second.text(),
          "a second approver refuses to start while one runs", second.text())
    check(os.path.exists(sock), "... and leaves the first one's socket alone")

    # yes once
    touch(victim)
    status, out, err, seen, screen = session("echo ppid=$PPID; rm -f victim; echo status=$?", env, project, a, [b"y"])
    check(not os.path.exists(victim) and "status=0" in out and status == 0,
          "y on the approver: the command runs (no terminal anywhere)", screen + out + err)
    check(seen == 1 and "DELETE" in screen and "rm deletes files" in screen,
          "the prompt names the verdict and the reason", screen)
    check("\x1b[7mrm\x1b[27m -f victim" in screen, "the deciding word is in reverse video", screen)
    check(re.search(r"\x1b\[7mrm\x1b\[27m -f victim\r?\n    \^\^\r?\n", screen) is not None,
          "a caret line marks it without colours", screen)
    check("in: " + project in screen, "the prompt shows the folder", screen)
    # the broker asks: the shell's parent
    asker = re.search(r"ppid=(\d+)", out)
    check(asker is not None and "session: sbsh pid %s\r\n" % asker.group(1) in screen,
          "the prompt shows the asking session's pid", screen + out)

    # Without a terminal, sbsh -c whose text needs nobody forks no broker:
    # the shell is the very process started ($$). Text that may need the
    # human gets a broker, which asks the approver (the shell never asks it
    # itself: the approver answers no process made inside the sandbox), so
    # what needs approval only as it runs is refused, saying why.
    who = "read -r _ _ _ gp _ </proc/$PPID/stat; echo pid=$$ gp=$gp; "
    status, out, err, seen, screen = session(who, env, project, a, [])
    check(status == 0 and ("pid=%d " % last_pid in out or "gp=%d\n" % last_pid in out) and seen == 0,
          "with an approver, sbsh -c whose text needs nobody runs without a broker", screen + out + err)
    touch(victim)
    status, out, err, seen, screen = session(who + "rm -f victim", env, project, a, [b"y"])
    check(not os.path.exists(victim) and "pid=%d " % last_pid not in out and "gp=%d\n" % last_pid not in out
          and "pid=" in out and seen == 1,
          "... text that needs approval gets a broker (the shell is its child), which asks the approver",
          screen + out + err)
    repo = os.path.join(base, "gp")
    subprocess.run(["git", "init", "-q", repo], check=True)
    status, out, err, seen, screen = session("git config alias.fp 'push --force'; git fp origin main 2>/dev/null;"
                                             " echo status=$?", env, repo, a, [b"n"])
    check(seen == 0 and "status=%d" % REFUSED in out and "refused FORCE_PUSH (this sbsh -c has no broker" in err,
          "... a command judged only as it runs, in text that needed nobody, is refused saying why",
          screen + out + err)
    since = len(a.out)
    proc = start_session("echo pid=$$; escape true", env, project)
    m = a.wait_for(rb"Type (\w{4}) and Enter", since)
    if m:
        a.type(b"zzzz\r")
    status, out, err = finish(proc, a)
    check(m is not None and "pid=%d\n" % proc.pid not in out and "pid=" in out,
          "... text that names escape gets a broker (the shell is its child)", a.text(since) + out + err)

    # no
    touch(victim)
    status, out, err, seen, screen = session("rm -f victim; echo status=$?", env, project, a, [b"n"])
    check(os.path.exists(victim) and "status=%d" % REFUSED in out,
          "n: refused with status 121, the file survives", screen + out + err)
    check(re.search(r"^sbsh: .*refused DELETE \(the human said no\): rm -f victim", err, re.M) is not None,
          "n: the refusal line on stderr", err)
    # a bare n, no Enter: taken at once (a y still needs Enter)
    started = time.time()
    status, out, err, seen, screen = session("rm -f victim; echo status=$?", env, project, a, [b"n"], limit=8, enter=b"")
    check(os.path.exists(victim) and "status=%d" % REFUSED in out and "the human said no" in err
          and time.time() - started < 7, "n without Enter: refused at once", screen + out + err)
    status, out, err, seen, screen = session("rm -f victim; echo status=$?", env, project, a, [b"y"], limit=4, enter=b"")
    check(os.path.exists(victim) and "status=0" not in out, "y without Enter does not approve", screen + out + err)

    # session: a later identical command is not asked again; yes-once is.
    touch(victim)
    script = "rm -f victim\ntouch victim\nrm -f victim\necho status=$?"
    status, out, err, seen, screen = session(script, env, project, a, [b"s"])
    check(not os.path.exists(victim) and seen == 1 and "status=0" in out,
          "s: the same command later in the session is not asked again", screen + out + err)
    touch(victim)
    status, out, err, seen, screen = session(script, env, project, a, [b"y", b"y"])
    check(not os.path.exists(victim) and seen == 2, "y: the same command later is asked again", screen)

    # no answer in time
    touch(victim)
    t0 = time.time()
    status, out, err, seen, screen = session("rm -f victim; echo status=$?", short_env, project, a, [])
    check(os.path.exists(victim) and "status=%d" % REFUSED in out, "no answer in time: refused",
          screen + out + err)
    check(time.time() - t0 < TIMEOUT + 10, "the configured approval-timeout applies")
    check("sbsh: withdrawn (timed out)" in screen, "the approver withdraws the question", screen)
    check("nobody answered within %d s" % TIMEOUT in err and "the human said no" not in err,
          "a timeout is reported as a timeout, never as the human's no", err)

    # the asker goes away while its question is shown
    touch(victim)
    since = len(a.out)
    proc = start_session("rm -f victim", env, project)
    shown = a.wait_for(rb"Allow\? \[y\]es once", since)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    gone = a.wait_for(rb"withdrawn \(the session went away\)", since, limit=5)
    check(shown is not None and gone is not None, "a vanished session's question is withdrawn", a.text(since))
    a.type(b"y\r")  # nothing is asked: this answers nothing
    a.pump(0.5)
    check(os.path.exists(victim), "... and a late answer does nothing")

    # two sessions at once: one question at a time
    touch(victim)
    touch(victim + "2")
    since = len(a.out)
    p1 = start_session("rm -f victim", env, project)
    first = a.wait_for(rb"Allow\? \[y\]es once", since)
    p2 = start_session("rm -f victim2", env, project)
    time.sleep(1)
    a.pump(0.2)
    check(first is not None and len(re.findall(rb"Allow\?", a.out[since:])) == 1,
          "a second question waits while one is shown", a.text(since))
    a.type(b"y\r")
    second_q = a.wait_for(rb"Allow\? \[y\]es once", first.end() if first else since)
    a.type(b"y\r")
    s1 = finish(p1, a)[0]
    s2 = finish(p2, a)[0]
    check(second_q is not None and s1 == 0 and s2 == 0 and not os.path.exists(victim)
          and not os.path.exists(victim + "2"), "... and is shown when the first is answered", a.text(since))

    # escape through the approver: the same warning and the typed code
    target = os.path.join(outside, "escaped")
    since = len(a.out)
    proc = start_session("escape touch %s; echo status=$?" % target, env, project)
    m = a.wait_for(rb"Type (\w{4}) and Enter", since)
    if m:
        a.type(b"zzzz\r")
    status, out, err = finish(proc, a)
    check(m is not None and not os.path.exists(target) and "status=%d" % REFUSED in out,
          "escape on the approver: a wrong code refuses", a.text(since) + out + err)
    since = len(a.out)
    proc = start_session("escape touch %s; echo status=$?" % target, env, project)
    m = a.wait_for(rb"Type (\w{4}) and Enter", since)
    check(m is not None and b"OUTSIDE the sandbox" in a.out[since:], "escape on the approver: the same prompt",
          a.text(since))
    if m:
        a.type(m.group(1) + b"\r")
    status, out, err = finish(proc, a)
    check(os.path.exists(target) and "status=0" in out, "escape on the approver: the code approves",
          a.text(since) + out + err)

    # CI: nobody is asked, even with an approver running
    touch(victim)
    since = len(a.out)
    proc = subprocess.run([SBSH, "-c", "rm -f victim; echo status=$?"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, cwd=project, env=dict(env, CI="1"),
                          start_new_session=True, timeout=30)
    a.pump(0.5)
    check(os.path.exists(victim) and "status=%d" % REFUSED in proc.stdout and "headless" in proc.stderr
          and b"Allow?" not in a.out[since:], "CI=1: the approver is not asked", a.text(since) + proc.stderr)

    # An approver whose folder the sandbox can write is not used.
    inside = os.path.join(project, "run")
    os.mkdir(inside, 0o700)
    b2 = Approver(dict(env, XDG_RUNTIME_DIR=inside))
    approvers.append(b2)
    ready = b2.wait_for(rb"approver ready")
    status, out, err, seen, screen = session("rm -f victim; echo status=$?",
                                             dict(env, XDG_RUNTIME_DIR=inside), project, b2, [b"y"], limit=15)
    check_sandboxed(ready is not None and seen == 0 and os.path.exists(victim) and "status=%d" % REFUSED in out
                    and "a folder the sandbox can write" in err,
                    "an approver in a folder the sandbox can write is not trusted", screen + err)
    b2.type(b"\x03")
    b2.wait_exit()

    # Ctrl-C stops the approver and removes its socket.
    a.type(b"\x03")
    status = a.wait_exit()
    check(status == 0 and not os.path.exists(sock) and "approver stopped" in a.text(),
          "Ctrl-C stops the approver and removes its socket", a.text()[-300:])
    touch(victim)
    proc = subprocess.run([SBSH, "-c", "rm -f victim; echo status=$?"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, cwd=project, env=env, start_new_session=True,
                          timeout=30)
    check(os.path.exists(victim) and "status=%d" % REFUSED in proc.stdout and "headless" in proc.stderr,
          "no approver and no terminal: refused without asking", proc.stdout + proc.stderr)

    # A sandboxed process cannot create the approver's socket (Landlock
    # denies making a socket outside its folders); unsandboxed it can.
    binder = ("import socket, sys\n"
              "for p in sys.argv[1:]:\n"
              "    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)\n"
              "    try:\n"
              "        s.bind(p); s.listen(1); print('bound', p)\n"
              "    except OSError as e:\n"
              "        print('denied', p, e.strerror)\n")
    with open(os.path.join(project, "bind.py"), "w") as f:
        f.write(binder)
    other = os.path.join(runtime, "other.sock")
    proc = subprocess.run([SBSH, "--sandbox", "-c", 'python3 bind.py "$1" "$2"', "sbsh", sock, other],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=project,
                          env=dict(env, CI="1"), start_new_session=True, timeout=30)
    check_sandboxed(not os.path.exists(sock) and not os.path.exists(other)
                    and len(re.findall(r"^denied .*Permission denied$", proc.stdout, re.M)) == 2,
                    "a sandboxed process cannot create a socket in XDG_RUNTIME_DIR",
                    "%s%s exists: %s %s" % (proc.stdout, proc.stderr, os.path.exists(sock), os.path.exists(other)))
    proc = subprocess.run([sys.executable, os.path.join(project, "bind.py"), other], capture_output=True,
                          text=True, timeout=30)
    check(os.path.exists(other) and "bound" in proc.stdout, "(unsandboxed, the same bind works)", proc.stdout)
    os.unlink(other)

    # A stale socket (its approver died) is replaced; end of input stops it.
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.bind(sock)
    s.close()
    # Before that, sbsh takes the socket for an approver (it only looks),
    # and what needs approval is refused at once: nobody answers there.
    touch(victim)
    proc = start_session("rm -f victim; echo status=$?", env, project)
    out, err = proc.communicate(timeout=30)
    check(os.path.exists(victim) and b"status=%d" % REFUSED in out and b"refused" in err,
          "with a stale socket and no approver, what needs approval is refused at once",
          (out + err).decode(errors="replace"))
    c = Approver(env)
    approvers.append(c)
    check(c.wait_for(rb"approver ready") is not None, "a stale socket is replaced", c.text())
    touch(victim)
    status, out, err, seen, screen = session("rm -f victim; echo status=$?", env, project, c, [b"y"])
    check(not os.path.exists(victim) and status == 0, "... and the new approver answers", screen + err)
    c.type(b"\x04")
    status = c.wait_exit()
    check(status == 0 and not os.path.exists(sock), "Ctrl-D stops the approver and removes its socket",
          c.text()[-300:])
finally:
    for a in approvers:
        if a.status is None:
            try:
                os.kill(a.pid, signal.SIGKILL)
                os.waitpid(a.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
    shutil.rmtree(base, ignore_errors=True)

sys.exit(summary())
