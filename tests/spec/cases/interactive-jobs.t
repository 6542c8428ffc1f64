### exit with stopped jobs warns once, then exits
# Needs a terminal: python3's pty runs an interactive shell.
command -v python3 >/dev/null 2>&1 || { echo 'python3 is needed for this case (./bootstrap installs it)'; exit 1; }
python3 - "$SHELL" <<'PY'
import os, pty, re, select, sys, time
import signal
shell = sys.argv[1]
pid, fd = pty.fork()
if pid == 0:
    for _s in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTSTP, signal.SIGPIPE, signal.SIGXFSZ): signal.signal(_s, signal.SIG_DFL)  # a terminal's session starts with them
    os.environ["PS1"] = "$ "
    args = [shell, "--norc", "--noprofile", "-i"] if "bash" in shell else [shell, "-i"]
    os.execv(shell, args)
out = b""
def drain(seconds):
    global out
    end = time.time() + seconds
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                out += os.read(fd, 4096)
            except OSError:
                return
def prompts():
    return out.count(b"$ ")
def wait_prompt(count, seconds=10):
    # Waits for the shell to show its next prompt: fixed sleeps are flaky
    # on a loaded machine.
    end = time.time() + seconds
    while time.time() < end and prompts() < count:
        drain(0.05)
wait_prompt(1)
for text in ["sleep 30\n", "\x1a", "exit\n", "echo still-here\n", "exit\n", "exit\n", "echo not-reached\n"]:
    before = prompts()
    try:
        os.write(fd, text.encode())
    except OSError:
        break
    if text == "sleep 30\n":
        drain(0.7)  # the job must be in the foreground before ^Z
    else:
        wait_prompt(before + 1, 3)
drain(0.5)
text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.decode(errors="replace"))
lines = text.replace("\r", "").split("\n")
seen = [l for l in lines if l in ("There are stopped jobs.", "still-here", "not-reached")]
for l in seen[:3]:
    print(l)
done = 0
for _ in range(200):
    done, _ = os.waitpid(pid, os.WNOHANG)
    if done == pid:
        break
    drain(0.05)
print("exited" if done == pid else "running")
PY
--- tags bash
--- stdout
There are stopped jobs.
still-here
There are stopped jobs.
exited
