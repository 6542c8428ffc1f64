"""`sbsh --approver` on a pty, for the suites that play the human there:
its screen so far, and the keyboard."""
import os, pty, re, select, signal, subprocess, time


class Approver:
    """An `sbsh --approver` on a pty: its screen so far, and the keyboard."""

    # The suites may run inside tmux or screen, where --approver refuses
    # to start unless told the multiplexer is trusted (nothing sandboxed
    # reaches it in these tests).
    def __init__(self, env, sbsh=None, args=("--trust-multiplexer",)):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            for _s in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTSTP, signal.SIGPIPE, signal.SIGXFSZ): signal.signal(_s, signal.SIG_DFL)  # a terminal's session starts with them
            sbsh = sbsh or os.environ["SBSH"]
            os.execve(sbsh, [sbsh, "--approver"] + list(args), env)
        self.out = b""
        self.status = None

    def pump(self, seconds=0.05):
        end = time.time() + seconds
        while True:
            r, _, _ = select.select([self.fd], [], [], max(0.0, end - time.time()))
            if not r:
                return
            try:
                data = os.read(self.fd, 4096)
            except OSError:
                return
            if not data:
                return
            self.out += data

    def wait_for(self, pattern, since=0, limit=15):
        end = time.time() + limit
        while time.time() < end:
            m = re.compile(pattern).search(self.out, since)
            if m:
                return m
            self.pump(0.1)
        return None

    def type(self, text):
        """Types as a human does: not within the moment after a question
        appears, when the approver drops keys (half a second, counted from
        before it wrote the question: a second is room for a busy machine)."""
        time.sleep(1.0)
        os.write(self.fd, text)

    def wait_exit(self, limit=10):
        end = time.time() + limit
        while time.time() < end:
            self.pump(0.1)
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        return None

    def text(self, since=0):
        return self.out[since:].decode(errors="replace")


def start_session(script, env, cwd):
    """sbsh -c as an agent tool runs it: no terminal anywhere."""
    return subprocess.Popen([os.environ["SBSH"], "-c", script], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=cwd, env=env, start_new_session=True)


def finish(proc, approver, limit=30):
    end = time.time() + limit
    while proc.poll() is None and time.time() < end:
        approver.pump(0.1)
    if proc.poll() is None:
        proc.kill()
    out, err = proc.communicate()
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def session(script, env, cwd, approver, answers, limit=30, enter=b"\r"):
    """Runs a session, answering each prompt that appears on the approver
    in turn. Returns (status, stdout, stderr, prompts seen, screen, pid)."""
    since = len(approver.out)
    proc = start_session(script, env, cwd)
    answers = list(answers)
    seen = 0
    end = time.time() + limit
    while proc.poll() is None and time.time() < end:
        approver.pump(0.1)
        prompts = len(re.findall(rb"Allow\? \[y\]es once", approver.out[since:]))
        if prompts > seen:
            seen = prompts
            if answers:
                approver.type(answers.pop(0) + enter)
    status, out, err = finish(proc, approver, 5)
    approver.pump(0.3)
    return status, out, err, seen, approver.text(since), proc.pid
