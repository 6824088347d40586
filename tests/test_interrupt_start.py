"""Ctrl-C while `pbem` starts (its modules load for a good part of a second): one line, exit code 130, never a
Python traceback."""
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.campaign import create

PBEM = Path(sys.executable).with_name("pbem")

# Sends Ctrl-C to itself when a module named on the command line is first imported, then starts pbem as its
# console script does (`from pbem.launch import main; sys.exit(main())`).
SCRIPT = """
import importlib.abc, os, signal, sys
target = sys.argv.pop(1)
class CtrlC(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target_=None):
        if name == target:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, CtrlC())
sys.argv[0] = "pbem"
from pbem.launch import main
sys.exit(main())
"""


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    camp = create(tmp_path_factory.mktemp("c") / "c", ["athens", "sparta"], seed="3", name="c").campaign
    return camp.root


@pytest.mark.parametrize("module", ["pbem.cli", "typer", "click", "pbem.errors", "yaml", "pbem.storage", "pydantic"])
def test_ctrl_c_while_a_module_loads_is_one_line(campaign, module):
    before = (campaign / "audit.log").read_text()
    r = subprocess.run([sys.executable, "-c", SCRIPT, module, "rollback", str(campaign), "1", "--reason", "x"],
                       capture_output=True, text=True, timeout=60)
    assert "Traceback" not in r.stderr, r.stderr
    if r.returncode == 130:
        assert r.stderr.strip().splitlines()[-1].startswith("pbem: interrupted"), r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    else:  # the module was not imported on the way (another typer version): the command just ran
        assert r.returncode == 2 and "already the current turn" in r.stderr, r.stderr
    assert (campaign / "audit.log").read_text() == before


@pytest.mark.skipif(not shutil.which("timeout") or not PBEM.exists(), reason="needs timeout(1) and the pbem script")
@pytest.mark.parametrize("delay", ["0.1", "0.15", "0.2", "0.25", "0.3", "0.4"])
def test_ctrl_c_at_any_moment_of_a_command_never_shows_a_traceback(campaign, delay):
    r = subprocess.run(["timeout", "--preserve-status", "-s", "INT", delay, str(PBEM), "rollback", str(campaign), "1",
                        "--reason", "x"], capture_output=True, text=True, timeout=60)
    if "Traceback" in r.stderr and f"{os.sep}pbem{os.sep}" not in r.stderr.replace(str(PBEM), ""):
        # on a loaded machine the signal may come while Python itself starts (its site module, the script's
        # `import re`), before any code of pbem runs: nothing a program can answer (pbem/launch.py says so)
        return
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode in (130, 2), (r.returncode, r.stderr)  # 2: it finished first (turn 1 is current)
    assert len(r.stderr.strip().splitlines()) <= 1, r.stderr


def test_importing_the_cli_leaves_python_s_ctrl_c_handler_in_place():
    code = "import signal, pbem.cli; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "True", r.stderr
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler or os.name != "posix"


def test_a_second_ctrl_c_while_leaving_is_ignored():
    """People press Ctrl-C twice: the first one's exit is not interrupted by the second (no traceback)."""
    code = ("import signal\nfrom pbem.launch import install, interrupted_while_starting\n"
            "assert install()\n"
            "try:\n    interrupted_while_starting(signal.SIGINT, None)\n"
            "except SystemExit as e:\n    print(e.code, signal.getsignal(signal.SIGINT) is signal.SIG_IGN)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout.split() == ["130", "True"], r.stderr
    assert r.stderr == "pbem: interrupted\n"


def test_a_program_importing_the_cli_keeps_its_own_ctrl_c():
    """Only the `pbem` command (and `python -m pbem.cli`) answers Ctrl-C itself while it loads: a program that
    imports pbem.cli gets its KeyboardInterrupt, even in the middle of that import."""
    code = SCRIPT.split("sys.argv[0] =")[0] + (
        "try:\n    import pbem.cli\nexcept KeyboardInterrupt:\n    print('the host caught it')\n")
    r = subprocess.run([sys.executable, "-c", code, "typer"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "the host caught it", (r.returncode, r.stdout, r.stderr)


def test_a_ctrl_c_after_the_command_has_answered_is_ignored(campaign):
    """A soak test: Ctrl-C just after `ingest` had answered every file killed the process as Python shut down
    (exit status 130 and no word, its work done).  Once the command has answered, a Ctrl-C is ignored: here one
    comes while Python leaves (an atexit callback sends it) and the command's own exit code stands."""
    code = ("import atexit, os, signal, sys, time\n"
            "atexit.register(lambda: (os.kill(os.getpid(), signal.SIGINT), time.sleep(0.2)))\n"
            "sys.argv[0] = 'pbem'\nfrom pbem.launch import main\nsys.exit(main())\n")
    r = subprocess.run([sys.executable, "-c", code, "status", str(campaign)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert "Game turn 1" in r.stdout and r.stderr == "", r.stderr


def test_a_late_ctrl_c_is_ignored_by_python_m_pbem_cli_too(campaign):
    """`python -m pbem.cli` (the module run as the command) ignores a Ctrl-C once it has answered, as `pbem` does
    (a code review)."""
    code = ("import atexit, os, runpy, signal, sys, time\n"
            "atexit.register(lambda: (os.kill(os.getpid(), signal.SIGINT), time.sleep(0.2)))\n"
            "sys.argv = ['pbem', 'status', sys.argv[1]]\nrunpy.run_module('pbem.cli', run_name='__main__')\n")
    r = subprocess.run([sys.executable, "-c", code, str(campaign)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert "Game turn 1" in r.stdout and r.stderr == "", r.stderr


def test_a_ctrl_c_after_a_refusal_was_said_is_ignored(monkeypatch):
    """The Ctrl-C sweep on a busy machine: `pbem rollback DIR 1` at turn 1 said its one-line refusal and then
    "pbem: interrupted" under it, exit code 130.  The refusal is the command's answer: from the moment it is
    said, the `pbem` program ignores Ctrl-C (as it does once a command has answered)."""
    import signal as sig

    import typer

    from pbem import launch
    from pbem.cli import fail
    before = sig.getsignal(sig.SIGINT)
    monkeypatch.setattr(launch, "COMMAND", [True])  # as the `pbem` program runs it
    try:
        with pytest.raises(typer.Exit):
            fail("turn 1 is already the current turn", 2)
        assert sig.getsignal(sig.SIGINT) is sig.SIG_IGN
    finally:
        sig.signal(sig.SIGINT, before)
    monkeypatch.setattr(launch, "COMMAND", [False])  # inside another program's process (a test's): left alone
    with pytest.raises(typer.Exit):
        fail("turn 1 is already the current turn", 2)
    assert sig.getsignal(sig.SIGINT) is before
