"""Shared fixtures. Qt runs offscreen; every test gets its own data dir."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parents[1]
BUNDLED = REPO / "question_db" / "papers"


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path, monkeypatch):
    """Never touch the learner's real data dir from a test."""
    monkeypatch.setenv("EXAMDESK_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def pack_copy(tmp_path) -> Path:
    """A writable copy of the bundled papers to damage in a test."""
    dest = tmp_path / "papers"
    shutil.copytree(BUNDLED, dest, ignore=shutil.ignore_patterns("__pycache__"))
    return dest
