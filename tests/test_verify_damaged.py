"""`pbem verify` on a damaged archive: a snapshot or log it cannot read is a MISMATCH naming the file, never a
traceback, and a named pipe never hangs it."""
import os
import signal

import pytest

from damaged_campaign import camp, invoke, turn2  # noqa: F401 (fixtures)


@pytest.mark.parametrize("damage", ["truncated", "not json", "bom", "bad utf-8"])
def test_verify_names_a_damaged_first_snapshot(camp, damage):
    path = camp.snapshot_path(1)
    raw = path.read_bytes()
    path.write_bytes({"truncated": raw[:len(raw) // 2], "not json": b"hello", "bom": b"\xef\xbb\xbf" + raw,
                      "bad utf-8": raw.replace(b'"dmg"', b'"\xff"', 1)}[damage])
    r = invoke("verify", camp.root)
    assert r.exit_code == 1, r.output
    assert f"set-up: MISMATCH: {path}: damaged" in r.output and f"turn 1: MISMATCH: {path}" in r.output, r.output


def test_verify_names_a_log_that_is_not_utf8(camp):
    path = camp.log_path(1)
    raw = path.read_bytes()
    path.write_bytes(raw[:100] + b"\xff" + raw[100:])
    r = invoke("verify", camp.root)
    assert r.exit_code == 1 and f"turn 1: MISMATCH: {path}: damaged (not UTF-8 text)" in r.output, r.output


def test_verify_never_hangs_on_a_named_pipe(camp):
    path = camp.snapshot_path(2)
    path.unlink()
    os.mkfifo(path)

    def stuck(*_):
        raise TimeoutError("verify hangs on a named pipe")
    before = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(20)
    try:
        r = invoke("verify", camp.root)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
    assert r.exit_code == 1 and f"turn 1: MISMATCH: {path}: not a regular file" in r.output, r.output
