"""The desktop's importer in a child process (question_db/interchange/import_process.py,
issue 28, item 3): results and refusals come back as they would in-process; a child that
runs out of memory or is killed is a clear message, never the caller's problem. Real
processes, real limits."""
from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import psutil
import pytest

from question_db.interchange.import_process import (ImportCancelled, ImporterFailed,
                                                    ImportRefused, import_file_isolated,
                                                    import_pasted_isolated)

SEED = Path(__file__).parent / "data" / "seeds" / "001_5b9d8d0b41fe1c3c.txt"


def test_a_paper_comes_back_as_the_importer_made_it():
    from question_db.interchange.importers import import_file

    here = import_file(SEED)
    there = import_file_isolated(SEED)
    assert there.paper == here.paper and there.warnings == here.warnings
    assert import_pasted_isolated("::Q1:: 2 + 2 = ? {=4 ~3 ~5}\n").paper.questions


def test_a_refusal_names_the_file_and_the_reason(tmp_path):
    junk = tmp_path / "photo.txt"
    junk.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(ImportRefused, match="photo.txt.*binary"):
        import_file_isolated(junk)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="RLIMIT_AS is Linux's")
def test_running_out_of_memory_is_said_with_the_limit():
    # 40 MiB of address space: not even the importers can be imported
    with pytest.raises(ImporterFailed, match=r"001_5b9d8d0b41fe1c3c\.txt: the importer ran "
                                             r"out of memory \(its limit is 40 MiB\)"):
        import_file_isolated(SEED, memory_limit=40 * 2**20)


def test_a_killed_importer_is_said_and_leaves_nothing(tmp_path):
    """What the OOM killer does to a child that grows too big (sent here by the test)."""
    big = tmp_path / "long.txt"
    big.write_text("".join(f"{i}. question {i}?\nA. yes\nB. no\n答案：A\n\n"
                           for i in range(1, 40_000)), encoding="utf-8")
    outcome: list[BaseException] = []
    worker = threading.Thread(target=lambda: _catch(outcome, big))
    worker.start()
    me = psutil.Process()
    deadline = time.monotonic() + 30
    while not me.children() and time.monotonic() < deadline:
        time.sleep(0.01)
    for child in me.children():
        os.kill(child.pid, signal.SIGKILL)
    worker.join(60)
    assert outcome and isinstance(outcome[0], ImporterFailed), outcome
    assert "long.txt: the importer was killed (SIGKILL)" in str(outcome[0])
    assert me.children() == []


def test_a_cancelled_import_stops_its_child_at_once(tmp_path):
    """Issue 28 item 8: cancel stops the importer process within a frame or so, says so,
    and leaves no process behind."""
    big = tmp_path / "long.txt"
    big.write_text("".join(f"{i}. question {i}?\nA. yes\nB. no\n答案：A\n\n"
                           for i in range(1, 40_000)), encoding="utf-8")
    cancel = threading.Event()
    outcome: list[BaseException] = []
    worker = threading.Thread(target=lambda: _catch(outcome, big, cancel))
    worker.start()
    me = psutil.Process()
    deadline = time.monotonic() + 30
    while not me.children() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert me.children(), "the importer child never started"
    cancelled_at = time.monotonic()
    cancel.set()
    worker.join(30)
    stopped_after = time.monotonic() - cancelled_at
    assert outcome and isinstance(outcome[0], ImportCancelled), outcome
    assert "long.txt: import cancelled; nothing was written" in str(outcome[0])
    assert me.children() == []
    assert stopped_after < 5  # not the minutes the import would take (seconds: 2 shared cores)


def _catch(outcome: list, path: Path, cancel: threading.Event | None = None) -> None:
    try:
        import_file_isolated(path, cancel=cancel)
    except BaseException as exc:  # noqa: BLE001 - the test looks at it
        outcome.append(exc)
