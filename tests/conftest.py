"""Shared fixtures. Qt runs offscreen; every test gets its own data dir; Qt and kernel
tests (markers ``gui``, ``kernel``) must leave nothing running (``no_leaks``)."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parents[1]
BUNDLED = REPO / "question_db" / "papers"


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path, monkeypatch):
    """Never touch the learner's real data dir or settings from a test (QSettings reads
    $XDG_CONFIG_HOME in the examdesk processes a test starts)."""
    monkeypatch.setenv("EXAMDESK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


@pytest.fixture(autouse=True)
def runtime_root(monkeypatch) -> Iterator[Path]:
    """Each test's own Jupyter runtime dir: kernel files (question_db/kernels.py
    ``runtime_dir()`` is ``<this>/examdesk``) stay out of the user's and other tests'.
    Short, in the temp dir: ipc socket paths are limited to 107 bytes."""
    root = Path(tempfile.mkdtemp(prefix="rt-"))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(root))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def pack_copy(tmp_path) -> Path:
    """A writable copy of the bundled papers to damage in a test."""
    dest = tmp_path / "papers"
    shutil.copytree(BUNDLED, dest, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


@contextmanager
def mounted_tmpfs(folder: Path, size: str) -> Iterator[Path]:
    """A real tmpfs of ``size`` (e.g. "1m") mounted at ``folder``, unmounted afterwards; the
    test is skipped where mounting is impossible (not root, no mount permission)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (CI runs as root)")
    folder.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True, text=True)
    if proc.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


LEAK_CHECKED_MARKERS = {"gui", "kernel"}


@pytest.fixture(autouse=True)
def no_leaks(request, runtime_root):
    """After a Qt or kernel test: no child process, thread, open file, kernel file
    (connection file, ipc socket, log) in the runtime dir, top-level widget or running
    QTimer it started is left (tests/leaks.py). Autouse and set up first, so it checks
    after every other fixture of the test has cleaned up. Core tests skip it."""
    markers = {m.name for m in request.node.iter_markers()}
    if not markers & LEAK_CHECKED_MARKERS:
        yield
        return
    from leaks import LeakWatch

    qt = "gui" in markers
    if qt:
        request.getfixturevalue("qapp")
    watch = LeakWatch(qt=qt, runtime_dir=runtime_root / "examdesk")
    yield
    problems = watch.problems()
    assert not problems, "; ".join(problems)
