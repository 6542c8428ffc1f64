#!/usr/bin/env python3
"""An answer is bound to what was shown (this script plays the human on a
pty): a yes given up front for a line covers a command only in the folder
the question named, with the program it would have run then, and while the
files its words name are the ones they were; a yes for the session only
for the same program in the same folder. Otherwise the command is asked
again as it runs; the human says no, and what the first answer did not
cover is still there."""
import os, shutil, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pty_human import answer_approvals  # noqa: E402
from report import check, summary  # noqa: E402

SBSH = os.environ["SBSH"]


def run(script, answers, env, cwd, limit=30):
    """Runs sbsh -c script on a pty, answering each approval prompt in turn;
    returns the number of prompts and the output."""
    _, _, prompts, out = answer_approvals([SBSH, "-c", script], answers, env, cwd, limit)
    return prompts, out


home = tempfile.mkdtemp(prefix=".sbsh-bound-home-", dir=os.environ.get("HOME", "/root"))
work = tempfile.mkdtemp(prefix="sbsh-bound-")
conf = os.path.join(home, "config")
os.makedirs(os.path.join(conf, "sbsh"))
with open(os.path.join(conf, "sbsh", "config"), "w") as f:
    f.write("approval-timeout = 60\n")  # the human answers however busy the machine
# No approver may answer here: the prompt must come on the terminal.
env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=conf, TERM="dumb",
           XDG_RUNTIME_DIR=os.path.join(work, "no-runtime-dir"))
env.pop("CI", None)


def fresh():
    """work/build, work/src and work/sub/build, each holding one file."""
    for n in ("build", "src", "sub", "bin"):
        path = os.path.join(work, n)
        if os.path.islink(path):
            os.unlink(path)
        shutil.rmtree(path, ignore_errors=True)
    for d in ("build", "src", "sub/build"):
        os.makedirs(os.path.join(work, d))
        with open(os.path.join(work, d, "from-" + d.replace("/", "-")), "w") as f:
            f.write("keep\n")


def there(rel):
    return os.path.exists(os.path.join(work, rel))


try:
    # The question named the line's folder; the command ran in another.
    fresh()
    prompts, out = run("cd sub && rm -rf build", ["y", "n"], env, work)
    check(there("sub/build/from-sub-build") and prompts == 2,
          "a yes up front does not cover the command after a cd: asked again, no, sub/build kept", out)
    check(("in: %s/sub" % work) in out,
          "... and the second question names the folder it runs in", out)

    # An earlier command of the line changed what the operand is.
    fresh()
    prompts, out = run("rm -rf build && mv src build && rm -rf build", ["y", "n"], env, work)
    check(there("build/from-src") and not there("src") and prompts == 2,
          "a yes up front for rm -rf build does not cover it once mv src build made build another folder", out)
    fresh()
    prompts, out = run("rm -rf build && mv src build && eval 'rm -rf build'", ["y", "n"], env, work)
    check(there("build/from-src") and prompts == 2, "... nor the same command in eval text", out)
    fresh()
    prompts, out = run("rm -rf build; ln -s src build; rm -rf build/", ["y", "n"], env, work)
    check(there("src/from-src") and prompts == 2, "... nor once build is a link to src", out)

    # A glob is asked as it runs, with the names it stands for then: an
    # earlier command of the line made it match the former src.
    fresh()
    prompts, out = run("mv src bsrc; rm -rf b*", ["n"], env, work)
    check(there("bsrc/from-src") and prompts == 1 and "approval:\r\n    rm -rf bsrc build" in out and "b*" not in out,
          "a glob is asked as it runs, showing the folders it matches then", out)
    # A tilde too: the question shows the folder, not a quoted '~/x'.
    os.makedirs(os.path.join(home, "victim"), exist_ok=True)
    prompts, out = run("rm -rf ~/victim", ["n"], env, work)
    check(os.path.isdir(os.path.join(home, "victim")) and prompts == 1
          and "approval:\r\n    rm -rf %s/victim" % home in out,
          "a tilde is asked as it runs, showing the folder it names", out)

    # A yes for the session covers the command at the verdict it was shown
    # with, no higher: the agent rewrites the git alias it runs.
    fresh()
    script = ("git init -q sub && git -C sub config alias.x '!rm -rf ../build'\n"
              "cd sub && git x; cd ..\n"
              "git -C sub config alias.x '!rm -rf ../src; git push -f origin master'\n"
              "cd sub && git x; cd ..\n")
    prompts, out = run(script, ["s", "n"], env, work)
    check(prompts == 2 and there("src/from-src") and not there("build"),
          "a yes for the session for a DELETE does not cover the same command once it force-pushes", out)

    # The same answer covers the same command as long as it is the same.
    fresh()
    prompts, out = run("rm -rf build && rm -rf sub/build && echo done", ["y"], env, work)
    check(not there("build") and not there("sub/build") and prompts == 1 and "done" in out,
          "a yes up front still covers what it named, in one question", out)

    # A yes for the session binds the program: the agent's own bin/rm,
    # put first on PATH, is asked about again.
    fresh()
    os.makedirs(os.path.join(work, "b1"))
    script = ("rm -rf b1\n"
              "mkdir -p bin && printf '#!/bin/sh\\necho mine >\"$PWD/pwned\"\\n' >bin/rm && chmod +x bin/rm\n"
              "PATH=$PWD/bin:$PATH rm -rf b1\n"
              "mkdir b1 && rm -rf b1 && echo gone\n")
    prompts, out = run(script, ["s", "n"], env, work)
    check(not there("pwned") and prompts == 2 and not there("b1") and "gone" in out,
          "a yes for the session does not cover another program of the same name; the same one still is", out)
finally:
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(home, ignore_errors=True)
sys.exit(summary())
