#!/usr/bin/env python3
"""escape through the broker, with this script playing the human on a pty.

Checks: approved (the command runs outside the sandbox), a wrong code and no
answer (refused, status 121, nothing runs), headless (refused without a
prompt), and a sandboxed background job that tries to type or read the
answer (TIOCSTI, /dev/tty) cannot approve anything."""
import os, re, shlex, shutil, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pty_human import play  # noqa: E402
from report import check, summary  # noqa: E402

SBSH = os.environ["SBSH"]
INJECT = shlex.quote(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib", "inject_answer.py"))
REFUSED = 121


def run(args, answer, env=None, cwd=None, limit=30):
    """Runs sbsh on a pty; answer is 'code', 'wrong' or None. Returns (status, output)."""
    answered = [False]

    def respond(out):
        m = re.search(rb"Type (\w{4}) and Enter", out)
        if m and not answered[0] and answer:
            answered[0] = True
            return (m.group(1) if answer == "code" else b"zzzz") + b"\r"
        return None

    _, status, out = play([SBSH] + args, respond, env, cwd, limit)
    return os.waitstatus_to_exitcode(status), out


base = tempfile.mkdtemp(prefix="sbsh-escape-", dir=os.environ.get("HOME", "/root"))
project = os.path.join(base, "project")
outside = os.path.join(base, "outside")
os.makedirs(project)
os.makedirs(outside)
# The human answers within a minute however busy the machine; the cases
# about a question nobody answers use the short time of short_env.
conf = os.path.join(base, "config")
short = os.path.join(base, "config-short")
for d, seconds in ((conf, 60), (short, 5)):
    os.makedirs(os.path.join(d, "sbsh"))
    with open(os.path.join(d, "sbsh", "config"), "w") as f:
        f.write("approval-timeout = %d\n" % seconds)
env = dict(os.environ, XDG_CONFIG_HOME=conf)
env.pop("CI", None)
short_env = dict(env, XDG_CONFIG_HOME=short)
try:
    target = os.path.join(outside, "approved")
    status, out = run(["-c", "escape touch %s; echo status=$?" % target], "code", env, project)
    check(os.path.exists(target), "approved escape runs outside the sandbox", out[-300:])
    check("status=0" in out, "approved escape returns the command's status", out[-300:])
    check("OUTSIDE the sandbox" in out and "touch " + target in out, "the prompt shows the command")

    status, out = run(["-c", "escape sh -c 'exit 3'; echo status=$?"], "code", env, project)
    check("status=3" in out, "the escaped command's exit status comes back", out[-300:])
    check("folder the sandbox can write" not in out, "a program from a read-only folder: no warning", out[-400:])

    # A program the agent could have swapped is shown with a warning: one
    # in the project, and one reached through a symlink in the project.
    with open(os.path.join(project, "tool"), "w") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(os.path.join(project, "tool"), 0o755)
    status, out = run(["-c", "escape ./tool; echo status=$?"], "code", env, project)
    check("this program lives in a folder the sandbox can write" in out and "status=0" in out,
          "a program in the project is shown with the swap warning", out[-400:])
    os.symlink(project, os.path.join(outside, "via"))
    status, out = run(["-c", "escape %s/via/tool; echo status=$?" % outside], "code", env, project)
    check("this program lives in a folder the sandbox can write" in out and "status=0" in out,
          "... also when named through a symlink from outside", out[-400:])

    target = os.path.join(outside, "wrong")
    status, out = run(["-c", "escape touch %s; echo status=$?" % target], "wrong", env, project)
    check(not os.path.exists(target), "a wrong code refuses")
    check("status=%d" % REFUSED in out, "a refusal has status %d" % REFUSED, out[-300:])

    target = os.path.join(outside, "timeout")
    t0 = time.time()
    status, out = run(["-c", "escape touch %s; echo status=$?" % target], None, short_env, project)
    check(not os.path.exists(target) and "status=%d" % REFUSED in out,
          "no answer in time refuses", out[-300:])
    check(time.time() - t0 < 20, "the time limit from the config file applies")

    target = os.path.join(outside, "headless")
    status, out = run(["-c", "escape touch %s; echo status=$?" % target], "code",
                      dict(env, CI="true"), project)
    check(not os.path.exists(target), "headless (CI set): refused")
    check("Type" not in out and "headless" in out, "headless: nobody is asked, the message says why", out[-300:])

    # The relay goes on while an escaped command runs: more output than a
    # pty holds reaches the terminal, and ^C and ^\ interrupt the command.
    status, out = run(["-c", "escape seq 1 200000; echo status=$?"], "code", env, project, 60)
    check("\n200000" in out.replace("\r", "") and "status=0" in out,
          "an escape writing more than the pty holds finishes, all of it shown", out[-300:])
    for key, sig in ((b"\x03", 130), (b"\x1c", 131)):
        typed = [False, False]

        def respond(out, key=key):
            m = re.search(rb"Type (\w{4}) and Enter", out)
            if m and not typed[0]:
                typed[0] = True
                return m.group(1) + b"\r"
            if typed[0] and not typed[1] and b"started" in out.split(b"Type")[-1]:
                typed[1] = True
                return key
            return None
        _, st, out = play([SBSH, "-c", "escape sh -c 'echo started; sleep 60; echo slept'; echo status=$?"],
                          respond, env, project, 40)
        ran = out.split("approved.")[-1]
        check("status=%d" % sig in ran and "slept" not in ran,
              "%s during an escape reaches the escaped command" % ("^C" if sig == 130 else "^\\"), out[-300:])

    # An escape does not run what the agent planted in the project: the
    # protected files are put back first, and git is pinned as inside.
    repo = os.path.join(base, "repo")
    os.makedirs(repo)
    import subprocess
    subprocess.run(["git", "init", "-q", repo], check=True)
    subprocess.run(["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty",
                    "-m", "init"], check=True)
    mark = os.path.join(outside, "planted")
    plants = [
        ("core.fsmonitor in .git/config, escape git status",
         "printf '[core]\\n\\tfsmonitor = \"touch %s; false\"\\n' >> .git/config; escape git status" % mark),
        ("a pre-commit hook, escape git commit",
         "printf '#!/bin/sh\\ntouch %s\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; "
         "escape git -c user.name=t -c user.email=t@t commit -q --allow-empty -m x" % mark),
        ("core.hooksPath to a folder of the agent's, escape git commit",
         "mkdir -p h; printf '#!/bin/sh\\ntouch %s\\n' > h/pre-commit; chmod +x h/pre-commit; "
         "git config core.hooksPath h; escape git -c user.name=t -c user.email=t@t commit -q --allow-empty -m y" % mark),
    ]
    plants.append(("json/__init__.py in the folder, escape python3 -m json.tool",
                   "mkdir -p json; printf 'open(\"%s\", \"w\")\\n' > json/__init__.py; "
                   "echo '{}' > in.json; escape python3 -m json.tool in.json" % mark))
    for name, line in plants:
        status, out = run(["-c", line + "; echo status=$?"], "code", env, repo)
        check(not os.path.exists(mark) and "status=" in out, "escape after planting %s: the plant does not run" % name,
              out[-500:])
        if os.path.exists(mark):
            os.unlink(mark)

    # Git reads config the warden does not guard: a repository the agent
    # made below the project, one in a temp folder reached by -C, a .git
    # file or --git-dir, a file the project's config includes. A key there
    # that runs a program is refused before anyone is asked; git run by
    # another program (sh -c 'git log') counts the same.
    pager = "touch %s; cat" % mark
    temp = ('t=$(mktemp -d); git init -q "$t/evil"; git -C "$t/evil" config core.pager "%s"; '
            'git -C "$t/evil" -c user.name=t -c user.email=t@t commit -q --allow-empty -m x; ' % pager)
    nested = [
        ("core.pager in a repository made below the project", "git init -q sub && git -C sub config core.pager "
         "\"%s\" && git -C sub -c user.name=t -c user.email=t@t commit -q --allow-empty -m x; cd sub; "
         "escape git log" % pager, "sub/.git/config"),
        ("an alias in a repository made below the project", "git init -q sub2 && git -C sub2 config alias.st "
         "'!touch %s'; cd sub2; escape git st" % mark, "alias.st"),
        ("git -C into a repository in a temp folder", temp + 'escape git -C "$t/evil" log', "core.pager"),
        ("--git-dir of a repository in a temp folder", temp + 'escape git --git-dir="$t/evil/.git" log', "core.pager"),
        ("a .git file naming a repository in a temp folder",
         temp + 'mkdir -p sub3; echo "gitdir: $t/evil/.git" > sub3/.git; cd sub3; escape git log', "core.pager"),
        ("git run by sh -c in a repository made below the project",
         "git init -q sub4 && git -C sub4 config core.pager \"%s\" && git -C sub4 -c user.name=t -c user.email=t@t "
         "commit -q --allow-empty -m x; cd sub4; escape sh -c 'git log'" % pager, "core.pager"),
        ("a temp file the project's config includes",
         "t=$(mktemp -d); printf '[core]\\n\\tpager = %s\\n' > \"$t/inc\"; git config include.path \"$t/inc\"; "
         "escape git log" % pager, "core.pager"),
    ]
    for name, line, said in nested:
        status, out = run(["-c", line + "; echo status=$?"], "code", env, repo)
        check(not os.path.exists(mark) and "status=%d" % REFUSED in out and "which the agent can write, sets" in out
              and said in out and "Type " not in out, "escape git after %s: refused, nobody asked, the key named"
              % name, out[-500:])
        if os.path.exists(mark):
            os.unlink(mark)
        subprocess.run("rm -rf sub sub2 sub3 sub4", shell=True, cwd=repo)
    # The human's own settings (the project's config as the warden keeps
    # it) still run: a pager set before the session.
    subprocess.run(["git", "-C", repo, "config", "core.pager", "cat"], check=True)
    status, out = run(["-c", "escape git log --oneline; echo status=$?"], "code", env, repo)
    check("status=0" in out and "init" in out, "the project's own core.pager (the human's) still runs", out[-400:])
    subprocess.run(["git", "-C", repo, "config", "--unset", "core.pager"], check=True)
    # A folder the escape names, where the agent can write, is flagged.
    status, out = run(["-c", "t=$(mktemp -d); escape ls \"$t\"; echo status=$?"], "code", env, outside)
    check("a folder the agent can write" in out and "status=0" in out,
          "a folder named by the escape, where the agent can write: flagged", out[-500:])

    # A job the agent left running plants again after the restore, while
    # the escaped command runs: the session's processes are paused from
    # the yes to the command's end, and go on afterwards.
    planter = ("@@sh -c 'echo $$ > planter.pid; while :; do printf \"[alias]\\n\\tst = \\\"!touch "
               + mark + "\\\"\\n\" >> .git/config; echo x >> beat; sleep 0.02; done' </dev/null >/dev/null 2>&1 & ")
    for name, how in [("a git alias", ""), ("a git alias, from a job in a session of its own", "setsid ")]:
        line = (planter.replace("@@", how, 1) + "sleep 0.2; escape sh -c 'sleep 0.5; git st'; a=$(wc -l < beat); "
                "sleep 0.3; b=$(wc -l < beat); [ \"$b\" -gt \"$a\" ] && echo resumed; kill $(cat planter.pid)")
        status, out = run(["-c", line], "code", env, repo)
        check(not os.path.exists(mark), "a job planting %s during the escape: the plant does not run" % name,
              out[-500:])
        check("resumed" in out, "... and the paused job goes on afterwards (%s)" % name, out[-300:])
        if os.path.exists(mark):
            os.unlink(mark)
    # The same job, left by an earlier session (its warden adopted it), or
    # adopted by init (a session without protection; that one only beats:
    # what it planted between sessions would be in the next baseline, as
    # --no-protect allows): not the escaping session's, paused all the same.
    beater = ("setsid sh -c 'echo $$ > planter.pid; while :; do echo x >> beat; sleep 0.02; done' "
              "</dev/null >/dev/null 2>&1 &")
    for name, how, job in [("left by an earlier session", [], planter.replace("@@", "setsid ", 1)),
                           ("adopted by init", ["--no-protect"], beater)]:
        for leftover in ("beat", "planter.pid"):
            if os.path.exists(os.path.join(repo, leftover)):
                os.unlink(os.path.join(repo, leftover))
        subprocess.run([SBSH] + how + ["-c", job], cwd=repo, env=dict(env, CI="1"), stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
        line = ("sleep 0.2; escape sh -c 'a=$(wc -l < beat); sleep 0.5; git st; b=$(wc -l < beat); "
                "[ \"$b\" = \"$a\" ] && echo paused-$((6*7))'; a=$(wc -l < beat); sleep 0.3; "
                "b=$(wc -l < beat); [ \"$b\" -gt \"$a\" ] && echo resumed")
        status, out = run(["-c", line], "code", env, repo)
        try:
            os.kill(int(open(os.path.join(repo, "planter.pid")).read()), 9)
        except (OSError, ValueError):
            pass
        check(not os.path.exists(mark) and "paused-42" in out,
              "a job %s planting during the escape: paused, the plant does not run" % name, out[-500:])
        check("resumed" in out, "... and it goes on afterwards (%s)" % name, out[-300:])
        if os.path.exists(mark):
            os.unlink(mark)
    subprocess.run(["git", "-C", repo, "config", "--unset-all", "alias.st"], stderr=subprocess.DEVNULL)
    for leftover in ("beat", "planter.pid"):
        if os.path.exists(os.path.join(repo, leftover)):
            os.unlink(os.path.join(repo, leftover))

    with open(os.path.join(project, "job.sh"), "w") as f:
        f.write("echo harmless\n")
    # Where the agent can write, the question says so: the folder it runs
    # in and the files it names; and it offers a folder the agent cannot
    # write (CODE~). Outside the agent's folders, neither.
    def answer_away(out):
        m = re.search(rb"Type (\w{4}) and Enter", out)
        if m and not answer_away.done:
            answer_away.done = True
            return m.group(1) + b"~\r"
        return None
    answer_away.done = False
    _, st, out = play([SBSH, "-c", "escape sh -c 'pwd' job.sh; echo status=$?"], answer_away, env, project, 30)
    asked = out.split("approved.")[0]
    ran = out.split("approved.")[-1]
    home = os.path.realpath(os.environ.get("HOME", "/root"))
    check("runs where the agent can write" in asked and "job.sh: the agent can write it" in asked
          and "~ and Enter to run it in" in asked, "an escape in the project: the folder and the file named are flagged,"
          " another folder offered", asked[-700:])
    check(home in ran and "status=0" in ran, "CODE~ runs it in the folder offered", out[-300:])
    status, out = run(["-c", "cd %s && escape true; echo status=$?" % outside], "code", env, project)
    check("status=0" in out and "runs where the agent can write" not in out and "~ and Enter" not in out,
          "an escape in a folder the agent cannot write: no such warning, nothing else offered", out[-500:])

    # A file the escape names is swapped by the agent while the human
    # reads the question: it does not run (rewritten, renamed over, or a
    # symlink pointed elsewhere).
    swapped = os.path.join(outside, "swapped")
    with open(os.path.join(project, "job.sh"), "w") as f:
        f.write("echo harmless\n")
    with open(os.path.join(project, "evil.sh"), "w") as f:
        f.write("touch %s\n" % swapped)
    os.symlink("job.sh", os.path.join(project, "link.sh"))
    swaps = [
        ("rewritten", "job.sh", "cp job.sh keep.sh; cat evil.sh > job.sh"),
        ("renamed over", "job.sh", "cp job.sh keep.sh; cp evil.sh new.sh; mv new.sh job.sh"),
        ("a symlink pointed elsewhere", "link.sh", "cp job.sh keep.sh; ln -sf evil.sh link.sh"),
    ]
    for name, operand, swap in swaps:
        asked = [False]

        def slow_human(out):
            m = re.search(rb"Type (\w{4}) and Enter", out)
            if m and not asked[0]:
                asked[0] = True
                # The agent's job swaps the file while the human reads.
                open(os.path.join(project, "asked"), "w").close()
                deadline = time.time() + 10
                while not os.path.exists(os.path.join(project, "swapped.done")) and time.time() < deadline:
                    time.sleep(0.05)
                return m.group(1) + b"\r"
            return None
        line = ("(while [ ! -e asked ]; do sleep 0.05; done; %s; touch swapped.done) & escape sh %s; echo status=$?; "
                "wait") % (swap, operand)
        _, st, out = play([SBSH, "-c", line], slow_human, env, project, 30)
        shutil.copy(os.path.join(project, "keep.sh"), os.path.join(project, "job.sh"))
        os.unlink(os.path.join(project, "link.sh"))
        os.symlink("job.sh", os.path.join(project, "link.sh"))
        for done in ("asked", "swapped.done"):
            os.unlink(os.path.join(project, done))
        check(not os.path.exists(swapped) and "changed after" in out and "status=%d" % REFUSED in out,
              "an operand %s after the question: not run, the human told" % name, out[-400:])
        if os.path.exists(swapped):
            os.unlink(swapped)

    # A sandboxed background job tries to answer for the human.
    target = os.path.join(outside, "injected")
    status, out = run(["-c", "python3 %s yes 4 0.2 inject.log & sleep 0.5; escape touch %s; echo status=$?; wait"
                       % (INJECT, target)], None, short_env, project)
    check(not os.path.exists(target), "a sandboxed background job cannot answer the prompt", out[-400:])
    check("status=%d" % REFUSED in out, "... and the escape is refused", out[-300:])
finally:
    shutil.rmtree(base, ignore_errors=True)

sys.exit(summary())
