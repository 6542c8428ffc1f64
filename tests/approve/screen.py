#!/usr/bin/env python3
"""What the human sees is what runs: each question is put on a real
terminal emulator (tmux), its screen captured at the moment of the
question, and a careful human played from that screen alone. The human
approves unless what is legible on the screen names the danger (or says
that part of the command is not shown); the verdict is judged from
outside: the file outside the sandbox was not created, the folder was not
deleted, and the screen showed the real command.

The agent's tricks: output before the question that forges a prompt and
hides the real one (clear + scroll region, origin mode, concealed text,
colours, charsets, an unterminated OSC/DCS string, autowrap off), a job an
earlier sbsh -c left holding the terminal that draws once the question is
up (it is paused until the answer), commands
padded so their dangerous part leaves the screen (spaces, no-break spaces,
tabs, long words, many words, a long folder), input that is not the
terminal (here-document, pipe, file), and terminals too small for the
question; on the session's own terminal and on `sbsh --approver`."""
import os, re, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from report import check, missing, skip_all, summary  # noqa: E402

SBSH = os.environ["SBSH"]
if not shutil.which("tmux"):
    skip_all("tmux is not installed (./bootstrap installs it)")

base = tempfile.mkdtemp(prefix=".sbsh-screen-", dir=os.environ.get("HOME", "/root"))
home = os.path.join(base, "home")
work = os.path.join(base, "work")
conf = os.path.join(base, "config")
runtime = os.path.join(base, "run")
for d in (home, work, os.path.join(conf, "sbsh")):
    os.makedirs(d)
os.mkdir(runtime, 0o700)
with open(os.path.join(conf, "sbsh", "config"), "w") as f:
    f.write("approval-timeout = 30\n")
with open(os.path.join(home, ".sbshrc"), "w") as f:
    f.write("PS1='sbsh-test> '\n")
subprocess.run(["git", "init", "-q", work], check=True)
SOCK = os.path.join(base, "tmux.sock")
ENV = dict(os.environ, HOME=home, XDG_CONFIG_HOME=conf, TERM="xterm-256color", SHELL="/bin/sh")
for k in ("CI", "TMUX", "XDG_RUNTIME_DIR"):
    ENV.pop(k, None)
OUTSIDE = os.path.join(home, "ESCAPED")
ESC = "\x1b"


def tmux(*args):
    return subprocess.run(["tmux", "-S", SOCK, "-f", "/dev/null"] + list(args), env=ENV,
                          capture_output=True, text=True, errors="replace")


def capture(name, attrs=False):
    return tmux("capture-pane", "-p", "-t", name, *(["-e"] if attrs else [])).stdout


def legible(screen_e):
    """The text a human can read on a screen captured with -e: what is
    concealed (SGR 8) or drawn in its own background colour is dropped."""
    out, conceal, fg, bg = [], False, None, None
    i = 0
    while i < len(screen_e):
        m = re.match(r"\x1b\[([0-9;:]*)m", screen_e[i:])
        if m:
            params = [p for p in re.split("[;:]", m.group(1))] or ["0"]
            j = 0
            while j < len(params):
                p = int(params[j]) if params[j] else 0
                if p == 0:
                    conceal, fg, bg = False, None, None
                elif p == 8:
                    conceal = True
                elif p == 28:
                    conceal = False
                elif 30 <= p <= 37 or 90 <= p <= 97:
                    fg = p % 10 + (8 if p >= 90 else 0)
                elif 40 <= p <= 47 or 100 <= p <= 107:
                    bg = p % 10 + (8 if p >= 100 else 0)
                elif p == 39:
                    fg = None
                elif p == 49:
                    bg = None
                elif p in (38, 48) and j + 1 < len(params):
                    n = 3 if params[j + 1] == "2" else 1
                    val = ":".join(params[j + 2:j + 2 + n])
                    if params[j + 1] == "5" and val.isdigit() and int(val) < 16:
                        val = int(val)
                    if p == 38:
                        fg = val
                    else:
                        bg = val
                    j += 1 + n
                j += 1
            i += m.end()
            continue
        m = re.match(r"\x1b[\[\]()][^A-Za-z]*[A-Za-z]?", screen_e[i:])
        if m:  # another sequence tmux adds (charset, hyperlink): not text
            i += m.end()
            continue
        c = screen_e[i]
        if c == "\n" or (not conceal and not (fg is not None and fg == bg)):
            out.append(c)
        elif c != "\n":
            out.append(" ")
        i += 1
    return "".join(out)


def wait_screen(name, pattern, limit=20):
    end = time.time() + limit
    while time.time() < end:
        s = capture(name)
        if re.search(pattern, s):
            return s
        time.sleep(0.1)
    return None


def raw_has(path, pattern):
    try:
        with open(path, "rb") as f:
            return re.search(pattern, f.read()) is not None
    except OSError:
        return False


QUESTION = rb"and Enter|Allow\?|does not fit"


def settled(name, raw, limit=20):
    """The screen once the question has been written and drawn."""
    end = time.time() + limit
    while time.time() < end and not raw_has(raw, QUESTION):
        time.sleep(0.1)
    last = None
    end = time.time() + limit
    while time.time() < end:
        time.sleep(0.2)
        s = capture(name, True)
        if s == last:
            return s
        last = s
    return last or ""


def human(name, screen_e, danger):
    """Answers from the screen alone, as a careful human would: no when it
    shows the danger or hides part of the command; else the code, or y."""
    text = legible(screen_e)
    if any(d in text for d in danger) or "more characters" in text:
        tmux("send-keys", "-t", name, "-l", "n")
    else:
        codes = re.findall(r"Type (\w{4}) and Enter", text)
        tmux("send-keys", "-t", name, "-l", codes[-1] if codes else ("y" if "Allow?" in text else "n"))
    tmux("send-keys", "-t", name, "Enter")
    return text


serial = [0]


def terminal_case(title, agent, danger, shown, cols=80, rows=24, files=(), cwd=None, gone=OUTSIDE,
                  exists=None, refused_for_size=False):
    """An interactive sbsh in a tmux pane of cols x rows sources agent.sh
    (so the command line typed is not on the screen); returns nothing,
    checks everything."""
    serial[0] += 1
    name = "c%d" % serial[0]
    if os.environ.get("SCREEN_ONLY", "") not in title:
        return
    cwd = cwd or work
    for fname, data in files:
        with open(os.path.join(cwd, fname), "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
    with open(os.path.join(cwd, "agent.sh"), "w") as f:
        f.write(agent + "\necho END-$?\n")
    raw = os.path.join(base, name + ".raw")
    r = tmux("new-session", "-d", "-s", name, "-x", str(cols), "-y", str(rows), "-c", cwd, "exec '%s'" % SBSH)
    if r.returncode != 0:
        check(False, title + ": tmux starts sbsh", r.stderr)
        return
    tmux("pipe-pane", "-t", name, "-o", "cat >> '%s'" % raw)
    if not wait_screen(name, r"sbsh-test>"):
        check(False, title + ": sbsh shows its prompt", capture(name))
        tmux("kill-session", "-t", name)
        return
    tmux("send-keys", "-t", name, "-l", ". ./agent.sh")
    tmux("send-keys", "-t", name, "Enter")
    screen_e = settled(name, raw)
    text = human(name, screen_e, danger)
    after = wait_screen(name, r"END-\d+") or capture(name)
    tmux("kill-session", "-t", name)
    if os.environ.get("SCREEN_DEBUG"):
        print("---", title, "\n" + text)
    if gone:
        check(not os.path.exists(gone), title + ": nothing ran outside", text)
    if exists:
        check(os.path.exists(exists), title + ": the folder is still there", text)
    for s in shown:
        check(s in text, title + ": the screen at the question shows " + repr(s), text)
    if refused_for_size:
        check(raw_has(raw, rb"does not fit") and not raw_has(raw, rb"Type \w+ and Enter|Allow\?"),
              title + ": a question taller than the screen is refused, not shown in part", text)
        check(not raw_has(raw, rb"the human said no") and raw_has(raw, rb"too small"),
              title + ": the agent is told the terminal is too small, not that the human said no", text)
    check("END-" in after, title + ": the shell goes on after the question", after)
    if gone and os.path.exists(gone):
        os.unlink(gone)


# A job an earlier sbsh -c left on the terminal (that sbsh needed nobody,
# so it had no broker and its jobs hold the terminal itself): once told
# the question is up (the file go), it draws "git status" over the
# question's command, blanks the lines up to row $1, and puts a program
# line at row $2, leaving the code in place.
HOLDER_JOB = r"""echo $$ > job.pid
while [ ! -e go ]; do sleep 0.05; done
printf '\033[2;1H\033[2K    git status'
i=3; while [ $i -le $1 ]; do printf '\033[%d;1H\033[2K' $i; i=$((i+1)); done
printf '\033[%d;1H  program: /usr/bin/git (argv[0]: git)' $2
: > drawn
"""


def holder_drew_or_paused(cwd, limit=20):
    """Waits until the holder has drawn (file drawn) or is paused."""
    end = time.time() + limit
    while time.time() < end:
        if os.path.exists(os.path.join(cwd, "drawn")):
            return "drew"
        try:
            pid = open(os.path.join(cwd, "job.pid")).read().strip()
            with open("/proc/%s/stat" % pid) as f:
                if f.read().rsplit(")", 1)[1].split()[0] in ("T", "t"):
                    return "paused"
        except (OSError, IndexError, ValueError):
            pass
        time.sleep(0.05)
    return "neither"


def holder_case(title, approver=False):
    """Item 1, drawn after the question is up: a sandboxed job holding the
    terminal the question is shown on must not draw over it."""
    serial[0] += 1
    name = "h%d" % serial[0]
    if os.environ.get("SCREEN_ONLY", "") not in title:
        return
    for f in ("go", "drawn", "job.pid"):
        if os.path.exists(os.path.join(work, f)):
            os.unlink(os.path.join(work, f))
    with open(os.path.join(work, "job.sh"), "w") as f:
        f.write(HOLDER_JOB)
    raw = os.path.join(base, name + ".raw")
    rows = (9, 7) if approver else (8, 6)
    leave = "'%s' -c 'sh job.sh %d %d &'" % (SBSH, rows[0], rows[1])
    aenv = dict(ENV, XDG_RUNTIME_DIR=runtime)
    if approver:
        then = "exec env XDG_RUNTIME_DIR='%s' '%s' --approver --trust-multiplexer" % (runtime, SBSH)
    else:
        then = "exec '%s'" % SBSH
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", work, leave + "; " + then)
    tmux("pipe-pane", "-t", name, "-o", "cat >> '%s'" % raw)
    proc = None
    if approver:
        end = time.time() + 10
        while time.time() < end and not os.path.exists(os.path.join(runtime, "sbsh", "approver.sock")):
            time.sleep(0.1)
        proc = subprocess.Popen([SBSH, "-c", TOUCH], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=work, env=aenv, start_new_session=True)
    else:
        wait_screen(name, r"sbsh-test>")
        with open(os.path.join(work, "agent.sh"), "w") as f:
            f.write(TOUCH + "\necho END-$?\n")
        tmux("send-keys", "-t", name, "-l", ". ./agent.sh")
        tmux("send-keys", "-t", name, "Enter")
    settled(name, raw)
    open(os.path.join(work, "go"), "w").close()
    what = holder_drew_or_paused(work)
    screen_e = settled(name, raw)
    text = human(name, screen_e, ["touch"])
    if proc:
        try:
            proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
    else:
        wait_screen(name, r"END-\d+")
    tmux("kill-session", "-t", name)
    check(what != "neither", title + ": the job holding the terminal drew or was paused", what)
    check(not os.path.exists(OUTSIDE), title + ": nothing ran outside", what + "\n" + text)
    check("touch ~/ESCAPED" in text, title + ": the screen at the question shows the real command", text)
    if os.path.exists(OUTSIDE):
        os.unlink(OUTSIDE)


FAKE_ESCAPE = ("\x1b[2J\x1b[H\nsbsh: the agent asks to run a command OUTSIDE the sandbox:\n    git status\n"
               "  program: /usr/bin/git\n  in: " + work + "\n")
TOUCH = "escape sh -c 'touch ~/ESCAPED'"

try:
    tmux("new-session", "-d", "-s", "keep", "-x", "80", "-y", "24", "exec sleep 100000")
    # 1. What ran before the question forges it.
    terminal_case("scroll region + fake prompt", "cat evil; " + TOUCH, ["touch"], ["touch ~/ESCAPED"],
                  files=[("evil", FAKE_ESCAPE + "\x1b[6;7r\x1b[6;1H")])
    terminal_case("origin mode in a scroll region", "cat evil; " + TOUCH, ["touch"], ["touch ~/ESCAPED"],
                  files=[("evil", FAKE_ESCAPE + "\x1b[7;8r\x1b[?6h\x1b[1;1H")])
    terminal_case("concealed text (SGR 8)", "cat evil; " + TOUCH, ["touch"], ["touch ~/ESCAPED"],
                  files=[("evil", FAKE_ESCAPE + "Type abcd and Enter to run it\x1b[8m")])
    terminal_case("text in its background colour", "cat evil; " + TOUCH, ["touch"], ["touch ~/ESCAPED"],
                  files=[("evil", FAKE_ESCAPE + "\x1b[30;40m")])
    terminal_case("256-colour text on the same colour", "cat evil; " + TOUCH, ["touch"], ["touch ~/ESCAPED"],
                  files=[("evil", FAKE_ESCAPE + "\x1b[38;5;17;48;5;17m")])
    terminal_case("an unterminated OSC swallows the question", "cat evil; " + TOUCH, ["touch"],
                  ["touch ~/ESCAPED"], files=[("evil", FAKE_ESCAPE + "\x1b]2;")])
    terminal_case("an unterminated DCS swallows the question", "cat evil; " + TOUCH, ["touch"],
                  ["touch ~/ESCAPED"], files=[("evil", FAKE_ESCAPE + "\x1bP")])
    terminal_case("DEC graphics charset (G0)", "cat evil; " + TOUCH, ["touch"], ["touch ~/ESCAPED"],
                  files=[("evil", FAKE_ESCAPE + "\x1b(0")])
    terminal_case("DEC graphics in G1, shifted out", "cat evil; " + TOUCH, ["touch"], ["touch ~/ESCAPED"],
                  files=[("evil", FAKE_ESCAPE + "\x1b)0\x0e")])
    terminal_case("autowrap off, the danger past the right edge", "cat evil; escape sh -c '" + "true; " * 14 +
                  "touch ~/ESCAPED'", ["touch"], ["touch ~/ESCAPED"], files=[("evil", "\x1b[?7l")])
    terminal_case("insert mode and a fake in the middle of a CSI", "cat evil; " + TOUCH, ["touch"],
                  ["touch ~/ESCAPED"], files=[("evil", FAKE_ESCAPE + "\x1b[4h\x1b[6;7r\x1b[6;1H\x1b[1")])
    terminal_case("a scroll region set with the C1 CSI", "cat evil; " + TOUCH, ["touch"], ["touch ~/ESCAPED"],
                  files=[("evil", FAKE_ESCAPE + "\u009b6;7r\u009b6;1H")])
    terminal_case("the agent already on the alternate screen", "cat evil; " + TOUCH, ["touch"],
                  ["touch ~/ESCAPED"], files=[("evil", "\x1b[?1049h" + FAKE_ESCAPE + "\x1b[6;7r\x1b[6;1H")])
    terminal_case("an unterminated APC", "cat evil; " + TOUCH, ["touch"], ["touch ~/ESCAPED"],
                  files=[("evil", FAKE_ESCAPE + "\x1b_")])
    terminal_case("an unterminated OSC after a scroll region", "cat evil; " + TOUCH, ["touch"],
                  ["touch ~/ESCAPED"], files=[("evil", FAKE_ESCAPE + "\x1b[6;7r\x1b[6;1H\x1b]8;;")])
    os.makedirs(os.path.join(work, "src"), exist_ok=True)
    fake_approval = ("\x1b[2J\x1b[H\nsbsh: the agent wants to run a command that needs your approval:\n"
                     "    rm -rf build/tmp\n    ^^\n  verdict: DELETE\n  in: " + work + "\n\x1b[6;7r\x1b[6;1H")
    terminal_case("an approval forged: rm -rf src shown as build/tmp", "cat evil; rm -rf src", ["src"],
                  ["rm -rf src"], files=[("evil", fake_approval)], gone=None, exists=os.path.join(work, "src"))
    terminal_case("an approval, concealed", "cat evil; rm -rf src", ["src"], ["rm -rf src"],
                  files=[("evil", "\x1b[2J\x1b[H\x1b[8m")], gone=None, exists=os.path.join(work, "src"))
    # ... and what an earlier sbsh -c left holding the terminal draws once
    # the question is up.
    holder_case("a job left holding the terminal draws over the question")
    holder_case("approver: a job left holding its terminal draws over the question", approver=True)

    # 2. What is shown is all of what runs.
    with open(os.path.join(work, "pad.txt"), "w") as f:
        f.write(" " * 4096)
    with open(os.path.join(work, "apad.txt"), "w") as f:
        f.write("a" * 4096)
    gitx = os.path.join(home, "X")
    fsm = "-c 'core.fsmonitor=touch ~/X;false'"
    terminal_case("4 KB of spaces after the danger", "escape git %s -c \"a.b=$(cat pad.txt)\" status" % fsm,
                  ["fsmonitor"], ["core.fsmonitor=touch ~/X;false", "git", "status"], gone=gitx)
    terminal_case("4 KB of no-break spaces", "escape git %s -c \"a.b=$(sed 's/ /\u00a0/g' pad.txt)\" status" % fsm,
                  ["fsmonitor"], ["core.fsmonitor=touch ~/X;false"], gone=gitx)
    terminal_case("4 KB of tabs", "escape git %s -c \"a.b=$(tr ' ' '\\t' < pad.txt)\" status" % fsm,
                  ["fsmonitor"], ["core.fsmonitor=touch ~/X;false"], gone=gitx)
    terminal_case("4 KB of newlines", "escape git %s -c \"x$(tr ' ' '\\n' < pad.txt)x\" status" % fsm,
                  ["fsmonitor"], ["core.fsmonitor=touch ~/X;false"], gone=gitx)
    terminal_case("a 4 KB word after the danger", "escape git %s -c \"a.b=$(cat apad.txt)\" status" % fsm,
                  ["fsmonitor"], ["core.fsmonitor=touch ~/X;false"], gone=gitx)
    terminal_case("the danger between two 4 KB words",
                  "escape git -c \"a.b=$(cat apad.txt)\" %s -c \"a.c=$(cat apad.txt)\" status" % fsm,
                  ["fsmonitor"], ["more characters", "argv[0]: git"], gone=gitx)
    terminal_case("the danger after 120 words", "set --; i=0; while [ $i -lt 120 ]; do set -- \"$@\" -c a.b=1;"
                  " i=$((i+1)); done; escape git \"$@\" %s status" % fsm,
                  ["fsmonitor"], ["core.fsmonitor=touch ~/X;false"], gone=gitx)
    terminal_case("the danger after 100 long words", "set --; i=0; while [ $i -lt 100 ]; do set -- \"$@\""
                  " -c a.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb=1; i=$((i+1)); done; escape git \"$@\" %s status" % fsm,
                  ["fsmonitor"], ["more characters", "argv[0]: git"], gone=gitx)
    deep = work
    while len(deep) < 3000:
        deep = os.path.join(deep, "d" * 200)
    os.makedirs(deep)
    terminal_case("a 3000-character folder", TOUCH, ["touch"], ["touch ~/ESCAPED", "more characters"], cwd=deep)
    terminal_case("an approval padded with 4 KB of spaces", "rm -rf \"$(cat pad.txt)\" src", ["src"], ["src"],
                  gone=None, exists=os.path.join(work, "src"))
    # Characters that draw nothing, or draw over ASCII: shown escaped.
    with open(os.path.join(work, "fill.txt"), "w") as f:
        f.write("\u3164" * 1500)
    terminal_case("1500 Hangul fillers (letters drawn blank)",
                  "escape git %s -c \"a.b=$(cat fill.txt)\" status" % fsm, ["fsmonitor"],
                  ["<1500 blank characters>", "core.fsmonitor=touch ~/X;false"], gone=gitx)
    with open(os.path.join(work, "job.sh"), "w") as f:
        f.write("echo harmless\n")
    with open(os.path.join(work, "job\U000e0041.sh"), "w") as f:
        f.write("touch ~/ESCAPED\n")
    terminal_case("a tag character (invisible) in a file name", "escape sh ./job$(printf '\\363\\240\\201\\201').sh",
                  ["\\u"], ["./job\\ue0041.sh"])
    terminal_case("a combining stroke drawn over the command", "escape sh -c 'touch\u0336 ~/ESCAPED'", ["\\u"],
                  ["touch\\u0336 ~/ESCAPED"])
    # A script the agent wrote on the line (its text known only as it
    # runs): the question shows what it runs, not only `sh clean.sh`.
    terminal_case("a script written on the line", "echo \"rm -rf $(printf src)\" > clean.sh; sh clean.sh", ["src"],
                  ["sh clean.sh", "runs: rm -rf src"], gone=None, exists=os.path.join(work, "src"))
    # ... and one whose text is known up front but holds a word known only
    # as it runs: not asked up front as a bare `sh clean.sh`.
    terminal_case("a script written on the line, with a substitution in it",
                  "printf 'rm -rf \"$(echo src)\"\\n' > clean.sh; sh clean.sh", ["src"],
                  ["sh clean.sh", "runs: rm -rf \"$(echo src)\""], gone=None, exists=os.path.join(work, "src"))
    terminal_case("a terminal too small for the question", TOUCH, ["touch"], [], cols=30, rows=4,
                  refused_for_size=True)

    # stdin, stdout, stderr that are not the terminal are named.
    terminal_case("a here-document", "escape sh <<EOF\ntouch ~/ESCAPED\nEOF", ["stdin"], ["stdin: "])
    terminal_case("a pipe", "echo 'touch ~/ESCAPED' | escape sh", ["stdin"], ["stdin: a pipe"])
    terminal_case("a named pipe", "mkfifo ff; (echo 'touch ~/ESCAPED' > ff &); escape sh < ff", ["stdin"],
                  ["stdin: a named pipe"])
    with open(os.path.join(work, "script.sh"), "w") as f:
        f.write("touch ~/ESCAPED\n")
    terminal_case("a file", "escape sh < script.sh", ["stdin"], ["stdin: " + os.path.join(work, "script.sh")])
    terminal_case("stdout to a file", "escape sh -c 'touch ~/ESCAPED' > out.txt 2>&1", ["stdout"],
                  ["stdout: " + os.path.join(work, "out.txt"), "stderr: " + os.path.join(work, "out.txt")])
    if shutil.which("python3"):
        terminal_case("python3 with a here-document",
                      "escape python3 <<EOF\nopen('%s', 'w')\nEOF" % OUTSIDE, ["stdin"], ["stdin: "])
    else:
        missing("python3 with a here-document", "python3 is not installed")

    # The approver: its own terminal, left in a bad state by what ran there
    # before it, its own size.
    def approver_case(title, script, danger, shown, cols=80, rows=24, gone=OUTSIDE, refused_for_size=False,
                      before="\x1b[5;6r\x1b[8m\x1b(0"):
        serial[0] += 1
        name = "a%d" % serial[0]
        if os.environ.get("SCREEN_ONLY", "") not in title:
            return
        raw = os.path.join(base, name + ".raw")
        aenv = dict(ENV, XDG_RUNTIME_DIR=runtime)
        with open(os.path.join(base, name + ".before"), "w") as f:
            f.write(before)
        tmux("new-session", "-d", "-s", name, "-x", str(cols), "-y", str(rows), "-e", "XDG_RUNTIME_DIR=" + runtime,
             "cat '%s'; exec env XDG_RUNTIME_DIR='%s' '%s' --approver --trust-multiplexer" % (
                 os.path.join(base, name + ".before"), runtime, SBSH))
        tmux("pipe-pane", "-t", name, "-o", "cat >> '%s'" % raw)
        if not raw_has(raw, b"") or not wait_screen(name, r"ready|approver"):
            time.sleep(0.5)
        end = time.time() + 10
        while time.time() < end and not os.path.exists(os.path.join(runtime, "sbsh", "approver.sock")):
            time.sleep(0.1)
        proc = subprocess.Popen([SBSH, "-c", script], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=work, env=aenv, start_new_session=True)
        screen_e = settled(name, raw)
        text = human(name, screen_e, danger)
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        tmux("kill-session", "-t", name)
        check(not os.path.exists(gone), title + ": nothing ran outside", text + err.decode(errors="replace"))
        for s in shown:
            check(s in text, title + ": the approver's screen shows " + repr(s), text)
        if refused_for_size:
            check(raw_has(raw, rb"does not fit") and not raw_has(raw, rb"Type \w+ and Enter"),
                  title + ": refused, not shown in part", text)
            said = err.decode(errors="replace")
            check("does not fit on the approver's terminal" in said and "the human said no" not in said,
                  title + ": the agent is told it did not fit, not that the human said no", said)
        if os.path.exists(gone):
            os.unlink(gone)

    approver_case("approver: a terminal left concealed, in a scroll region", TOUCH, ["touch"], ["touch ~/ESCAPED"])
    approver_case("approver: 4 KB of spaces", "escape git %s -c \"a.b=$(cat pad.txt)\" status" % fsm, ["fsmonitor"],
                  ["core.fsmonitor=touch ~/X;false", "argv[0]: git"], gone=gitx)
    approver_case("approver: a here-document", "escape sh <<EOF\ntouch ~/ESCAPED\nEOF", ["stdin"], ["stdin: "])
    approver_case("approver: a terminal too small", TOUCH, ["touch"], [], cols=30, rows=4, refused_for_size=True)
finally:
    tmux("kill-server")
    if os.environ.get("SCREEN_KEEP"):
        sys.exit(summary())
    shutil.rmtree(base, ignore_errors=True)
sys.exit(summary())
