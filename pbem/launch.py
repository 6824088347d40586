"""The `pbem` command's entry point, kept as small as it can be.

Ctrl-C while the program starts (``pbem.cli`` and its libraries take a good part of a second to load) says
one line, ``pbem: interrupted``, and exits with 130: never a Python traceback.  The handler goes in before
anything else of pbem loads; once ``pbem.cli`` is loaded, Python's own handler is back (the commands rely on
KeyboardInterrupt to stop cleanly).  Only the moments in which Python itself starts remain (its ``site``
module and the script's first lines: a few milliseconds on a quiet machine, more on a loaded one), before any
code of pbem runs.
"""
from __future__ import annotations

import sys

import _signal as signal  # the interpreter's own module, loaded at once: `signal` builds enums first, a few ms


def say_interrupted() -> int:
    try:
        sys.stderr.write("pbem: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return 130


def interrupted_while_starting(signum, frame) -> None:
    """Raised inside an import, SystemExit leaves the `pbem` script quietly.  A second Ctrl-C while it does
    (people press it twice) is ignored: the program is already on its way out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise SystemExit(say_interrupted())


def install() -> bool:
    """Answer Ctrl-C with ``interrupted_while_starting`` if Python's own handler is in place and this is the
    main thread (where handlers are set).  True if it did."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False
    try:
        signal.signal(signal.SIGINT, interrupted_while_starting)
    except ValueError:  # not the main thread
        return False
    return True


def restore() -> None:
    """Python's own handler back, if ours is still the one in place."""
    if signal.getsignal(signal.SIGINT) is interrupted_while_starting:
        signal.signal(signal.SIGINT, signal.default_int_handler)


COMMAND = [False]  # True once `pbem` (or `python -m pbem[.cli]`) runs as a program, not inside another one's process


def main() -> None:
    COMMAND[0] = True
    installed = install()
    from .cli import main as run  # most of the start-up: our handler answers Ctrl-C meanwhile
    try:
        if installed:
            restore()
        run()
    except KeyboardInterrupt:  # in the instant between the two (run() answers its own)
        sys.exit(say_interrupted())
    finally:
        done()


def done() -> None:
    """The command has answered (or is leaving with its exit code): a Ctrl-C from here on is ignored, as Python's
    own handler would raise KeyboardInterrupt while the interpreter shuts down and the process would die of the
    signal, exit status 130, with no word said though its work was done (a soak test: `ingest` answered all six
    files, then died silently)."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        pass
