"""Shared by the Python suites: counting cases, and the closing line that
tests/summarize.sh adds up, "N passed, N failed" (", N skipped" when some
were). The same rules as tests/lib/report.sh: skip_all() exits 77
(automake's SKIP) when the suite cannot run its subject here, and with
SBSH_TEST_STRICT set (.ci/run sets it) what would be skipped for a missing
tool or feature fails instead.

A suite puts this folder on sys.path:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
"""
import os, re, subprocess, sys

passed = failed = skipped = 0
DETAIL = 700  # characters of a failure's detail printed (its end)


def strict():
    return os.environ.get("SBSH_TEST_STRICT", "") not in ("", "0", "false", "no")


def check(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + name)
    else:
        failed += 1
        print("FAIL " + name + (": " + detail[-DETAIL:] if detail else ""))


def skip(name, why):
    """A case that does not apply to this run (not root, an AddressSanitizer
    build): counted as skipped, even under strict."""
    global skipped
    skipped += 1
    print("skip %s (%s)" % (name, why))


def missing(name, why):
    """A case whose tool or kernel feature is missing here: skipped, or a
    failure under SBSH_TEST_STRICT."""
    if strict():
        check(False, name, why + "; SBSH_TEST_STRICT is set: what is missing fails")
    else:
        skip(name, why)


def skip_all(why):
    """The whole suite cannot run here: one line says why, exit 77 (or 1
    under SBSH_TEST_STRICT)."""
    if strict():
        print("FAIL: %s; SBSH_TEST_STRICT is set: a suite that cannot run fails" % why)
        print("%d passed, %d failed" % (passed, failed + 1))
        sys.exit(1)
    print("SKIP: " + why)
    sys.exit(77)


def landlock_abi():
    """The Landlock ABI $SBSH finds on this kernel (0: none)."""
    global _abi
    if _abi is None:
        out = subprocess.run([os.environ["SBSH"], "--doctor", "--json"], stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode(errors="replace")
        m = re.search(r'"abi": (\d+)', out)
        _abi = int(m.group(1)) if m else 0
    return _abi


_abi = None
NO_SANDBOX = "Landlock is not available on this kernel: the case needs the sandbox"


def check_sandboxed(ok, name, detail=""):
    """check() for a case that needs sbsh's sandbox: without Landlock it is
    missing, not failed."""
    if landlock_abi() > 0:
        check(ok, name, detail)
    else:
        missing(name, NO_SANDBOX)


def summary():
    """Prints the closing line; returns the exit status."""
    if skipped:
        print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    else:
        print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0
