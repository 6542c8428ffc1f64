#!/usr/bin/env python3
"""Approvals with this script playing the human on a pty: yes once, yes for
the session, no, no answer in time, the word that made the verdict marked in
the prompt, and a sandboxed background job that tries to answer for the
human. The broker asks; sbsh -c whose text needs nobody as written runs
without one, and refuses what turns out to need approval (both checked)."""
import os, re, shlex, shutil, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pty_human import answer_approvals  # noqa: E402
from report import check, check_sandboxed, summary  # noqa: E402

SBSH = os.environ["SBSH"]
INJECT = shlex.quote(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib", "inject_answer.py"))
last_pid = 0


def run(script, answers, env, cwd, limit=30, enter=b"\r"):
    """Runs sbsh -c script on a pty, answering each approval prompt in turn."""
    global last_pid
    last_pid, _, prompts, out = answer_approvals([SBSH, "-c", script], answers, env, cwd, limit, enter=enter)
    return prompts, out


home = tempfile.mkdtemp(prefix=".sbsh-approve-home-", dir=os.environ.get("HOME", "/root"))
work = tempfile.mkdtemp(prefix="sbsh-approve-")
# The human answers within a minute however busy the machine; the cases
# about a question nobody answers use the short time of short_env.
conf = os.path.join(work, "config")
short = os.path.join(work, "config-short")
for d, seconds in ((conf, 60), (short, 3)):
    os.makedirs(os.path.join(d, "sbsh"))
    with open(os.path.join(d, "sbsh", "config"), "w") as f:
        f.write("approval-timeout = %d\n" % seconds)
# No approver may answer here: the prompt must come on the terminal.
env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=conf, TERM="xterm",
           XDG_RUNTIME_DIR=os.path.join(work, "no-runtime-dir"))
env.pop("CI", None)
short_env = dict(env, XDG_CONFIG_HOME=short)


def touch(*names):
    for n in names:
        open(os.path.join(work, n), "w").write("keep\n")


def exists(n):
    return os.path.exists(os.path.join(work, n))


try:
    touch("a")
    prompts, out = run("rm a; echo status=$?", ["y"], env, work)
    check(not exists("a") and "status=0" in out, "yes once: the command runs", out)
    check(prompts == 1 and "DELETE" in out and "rm deletes files" in out,
          "the prompt names the verdict and the reason", out)
    check("\x1b[7mrm\x1b[27m a\r\n    ^^\r\n" in out,
          "the deciding word is in reverse video, with a caret line under it", out)

    touch("m1", "m2")
    prompts, out = run("rm m1; rm m2", ["y"], env, work)
    check(prompts == 1 and "\x1b[7mrm\x1b[27m m1; \x1b[7mrm\x1b[27m m2\r\n    ^^     ^^\r\n" in out,
          "a line asked up front marks the word of each command", out)

    touch("-f")
    prompts, out = run("rm ./-f; echo status=$?", ["n"], dict(env, TERM="dumb"), work)
    check(prompts == 1 and "\x1b[" not in out and "    rm ./-f\r\n    ^^\r\n" in out,
          "without attributes (TERM=dumb) the caret line still marks it", out)

    prompts, out = run("git push --force origin main 2>/dev/null; npm publish 2>/dev/null", ["n"], env, work)
    check(prompts == 1 and "git push \x1b[7m--force\x1b[27m origin main" in out
          and "npm \x1b[7mpublish\x1b[27m" in out, "--force and publish are the marked words", out)

    touch("t")
    prompts, out = run("rm $'t\\e[2Jx' t; echo status=$?", ["n"], env, work)
    check(prompts == 1 and "\x1b[2J" not in out and "rm\x1b[27m $'t\\E[2Jx' t" in out and exists("t"),
          "control characters in the command are shown escaped, and asked about once", out)

    odd = os.path.join(work, "d\x1b[2Jx")
    os.mkdir(odd)
    open(os.path.join(odd, "u"), "w").close()
    prompts, out = run("rm u; echo status=$?", ["n"], env, odd)
    check(prompts == 1 and "\x1b[2J" not in out and "in: " + work + "/d\\x1b[2Jx" in out,
          "control characters in the folder are shown escaped", out)

    touch("b")
    prompts, out = run("rm b; echo status=$?", ["n"], env, work)
    check(exists("b") and "status=121" in out, "no: refused with status 121, the file survives", out)

    touch("c")
    prompts, out = run("rm c; echo status=$?", [], short_env, work)
    check(exists("c") and "status=121" in out, "no answer in time: refused", out)
    check("nobody answered within 3 s" in out and "the human said no" not in out,
          "a timeout is reported as a timeout, never as the human's no", out)

    touch("d")
    prompts, out = run("rm d; touch d; f=d; rm $f; echo status=$?", ["s"], env, work)
    check(not exists("d") and prompts == 1, "yes for the session: the same command is not asked again", out)

    touch("e", "e2")
    prompts, out = run("rm e; x=e2; rm $x; echo status=$?", ["y"], env, work)
    check(not exists("e") and not exists("e2") and prompts == 1,
          "a line is asked once, up front, for everything decidable", out)

    touch("g")
    prompts, out = run("v=$(echo g); rm \"$v\"; echo status=$?", ["y"], env, work)
    check(not exists("g") and prompts == 1, "what only expansion reveals is asked when it runs", out)

    touch("h")
    prompts, out = run("python3 %s y 5 0.1 & sleep 0.5; rm h; echo status=$?; wait" % INJECT, [], short_env, work)
    check(exists("h") and "status=121" in out, "a sandboxed background job cannot answer the prompt", out)

    # a bare n at the terminal is the whole answer; y needs Enter
    touch("bn")
    started = time.time()
    prompts, out = run("rm bn; echo status=$?; read -r -t 1 line; echo read=$?", ["n"], env, work, limit=10, enter=b"")
    check(exists("bn") and "status=121" in out and prompts == 1 and "the human said no" in out
          and time.time() - started < 8,
          "n without Enter at the terminal: refused at once", out)
    prompts, out = run("rm bn; echo status=$?", ["y"], short_env, work, limit=10, enter=b"")
    check(exists("bn") and "status=0" not in out, "y without Enter at the terminal does not approve", out)

    # Who asks: the broker, always. sbsh -c whose text needs nobody as
    # written forks none but the warden: the shell is then the very process
    # the terminal started, or the warden's child (gp: its grandparent),
    # or, once the supervisor started, their child (up: the shell's parent).
    who = "read -r _ _ _ gp _ </proc/$PPID/stat; read -r _ _ _ up _ </proc/$$/stat; echo pid=$$ gp=$gp up=$up; "
    prompts, out = run(who + "ls >/dev/null", [], env, work)
    check(("pid=%d " % last_pid in out or "gp=%d " % last_pid in out or "up=%d\r\n" % last_pid in out)
          and prompts == 0, "sbsh -c whose text needs nobody runs without a broker", out)
    touch("k2")
    prompts, out = run(who + "rm k2; echo status=$?", ["y"], env, work)
    check(not exists("k2") and "pid=%d " % last_pid not in out and "gp=%d\r\n" % last_pid not in out and "pid=" in out
          and prompts == 1 and "status=0" in out,
          "text that needs approval gets the broker, which asks", out)
    check_tiocsti = ("python3 -c 'import fcntl, os, termios\n"
                     "try:\n fcntl.ioctl(0, termios.TIOCSTI, b\"y\"); print(\"typed\")\n"
                     "except OSError as e: print(\"errno\", e.errno)'")
    prompts, out = run(check_tiocsti, [], env, work)
    check_sandboxed("errno 1\r\n" in out,
                    "a command cannot type into the terminal it inherited (TIOCSTI: EPERM)", out)
    # The guard is loaded just before the first program, on every path
    # that starts one: until then only sbsh's own code runs.
    # (/proc/self: the shell itself; $$ would start the supervisor, which
    # is started with the guard, and adds its own filter)
    filters = ("while read -r l; do case $l in Seccomp_filters*) echo \"%s ${l#*:}\";; esac; "
               "done </proc/self/status")
    prompts, out = run(filters % "before" + "; /bin/true; " + filters % "after", [], env, work)
    check_sandboxed(re.search(r"before\s+0\r\n", out) and
                    re.search(r"after\s+[12]\r\n", out),
                    "the terminal guard waits for the first program, and is there once it runs", out)
    for how, text in [("spawned", check_tiocsti + "; true"), ("in a pipeline", check_tiocsti + " | cat"),
                      ("in $( )", "echo \"$(" + check_tiocsti + ")\""), ("by exec", "exec " + check_tiocsti),
                      ("after ~user", "echo ~root >/dev/null; " + filters % "tilde")]:
        prompts, out = run(text, [], env, work)
        ok = "errno 1\r\n" in out if how != "after ~user" else re.search(
            r"tilde\s+[12]\r\n", out)
        check_sandboxed(ok, "the terminal guard is loaded for a program started " + how, out)
    prompts, out = run("grep Seccomp_filters /proc/self/status; \"$SBSH\" -c 'grep Seccomp_filters "
                       "/proc/self/status; " + check_tiocsti.replace("'", "'\\''") + "'",
                       [], dict(env, SBSH=SBSH), work)
    # (the guard, and the supervisor's filter: trusted/supervisor.c)
    counts = re.findall(r"Seccomp_filters:\t(\d+)\r\n", out)
    check_sandboxed(len(counts) == 2 and counts[0] == counts[1] and int(counts[0]) >= 1 and "errno 1\r\n" in out,
                    "a nested sbsh keeps the filters it inherited instead of loading more", out)
    # A git alias made by the line itself is seen only as it runs: without
    # a broker it is refused, and the message says why and what to do.
    repo = os.path.join(work, "gp")
    os.makedirs(repo)
    os.system("git init -q '%s'" % repo)
    prompts, out = run("git config alias.fp 'push --force'; git fp origin main 2>/dev/null; echo status=$?",
                       [], env, repo)
    check(prompts == 0 and "refused FORCE_PUSH (this sbsh -c has no broker" in out
          and "run that command as its own sbsh -c" in out and "status=121" in out,
          "what needs approval only as it runs, in a text that needed none, is refused, saying why", out)
    # On the broker's pty the shell leads its own session, and its exit
    # hangs up the terminal's foreground group: a job it leaves outlives
    # it all the same, as under bash -c.
    touch("k3")
    prompts, out = run("rm k3; (sleep 1; touch survived) >/dev/null 2>&1 &", ["y"], env, work)
    for _ in range(40):
        if exists("survived"):
            break
        time.sleep(0.1)
    check(prompts == 1 and not exists("k3") and exists("survived"),
          "a job left by sbsh -c on the broker's pty outlives the shell", out)
    # A sourced file is judged as it runs: its text gets the broker.
    prompts, out = run("printf '\\145scape true\\n' >s.sh; . ./s.sh; echo status=$?", [], short_env, work)
    check("OUTSIDE the sandbox" in out and "status=121" in out,
          "a sourced file gets the broker: its escape is put to the human", out)
finally:
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(home, ignore_errors=True)

sys.exit(summary())
