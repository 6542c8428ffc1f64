"""Shared by the pty tests: playing the human on a pty.

play() runs a program on a fresh pty and hands everything it printed so far
to respond() each time more arrives; whatever respond() returns (bytes) is
typed, as a human would, a moment later."""
import os, pty, re, select, time
import signal


def play(argv, respond, env=None, cwd=None, limit=30):
    """Returns (pid, wait status, output as text)."""
    pid, fd = pty.fork()
    if pid == 0:
        for _s in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTSTP, signal.SIGPIPE, signal.SIGXFSZ): signal.signal(_s, signal.SIG_DFL)  # a terminal's session starts with them
        if cwd:
            os.chdir(cwd)
        os.execve(argv[0], argv, env or os.environ)
    out = b""
    deadline = time.time() + limit
    while time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                data = os.read(fd, 4096)
            except OSError:
                break
            if not data:
                break
            out += data
            typed = respond(out)
            if typed:
                time.sleep(0.1)
                os.write(fd, typed)
    # Past the limit a program still running is killed: a hang fails the
    # case that caused it, never the whole suite.
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            deadline = time.time() + 5
            while done == 0 and time.time() < deadline:
                time.sleep(0.1)
                done, status = os.waitpid(pid, os.WNOHANG)
            if done == 0:
                os.kill(pid, 9)
                _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        status = 0
    os.close(fd)
    return pid, status, out.decode(errors="replace")



def answer_approvals(argv, answers, env=None, cwd=None, limit=30, repeat_last=False, enter=b"\r"):
    """Runs argv on a pty, answering its approval prompts in turn (with
    repeat_last, the last answer is given to every later one too).
    Returns (pid, wait status, how many prompts, output as text)."""
    answers = list(answers)
    seen = [0]

    def respond(out):
        prompts = len(re.findall(rb"Allow\? \[y\]es once", out))
        if prompts > seen[0]:
            seen[0] = prompts
            if answers:
                answer = answers[0] if repeat_last and len(answers) == 1 else answers.pop(0)
                return answer.encode() + enter
        return None

    pid, status, out = play(argv, respond, env, cwd, limit)
    return pid, status, seen[0], out
