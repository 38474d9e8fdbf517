"""The modes of the files examdesk writes for the learner (issue 28, item 11).

Exports and written packs get what ``open()``/``mkdir()`` would give them under the
process umask; progress exports (personal data) are 0600 like the progress database.
Regression: every export was 0644 under umask 077 (``mkstemp`` then a chmod to 0644), and a
written pack folder was 0700 under any umask (``mkdtemp``).
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pack_write_driver import draft
from question_db.atomic_file import write_atomically
from question_db.bank import load_bank
from question_db.interchange.exporters import SUFFIXES, export_papers
from question_db.interchange.pack import write_pack
from question_db.progress_io import export_progress
from question_db.store import ProgressStore

UMASKS = [0o077, 0o022]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(params=UMASKS, ids=lambda m: f"umask-{m:03o}")
def umask(request):
    old = os.umask(request.param)
    yield request.param
    os.umask(old)


@pytest.fixture(scope="module")
def papers():
    return [load_bank().paper("000")]


@pytest.mark.parametrize("fmt", ["json", "gift", "moodle-xml", "apkg"])
def test_an_export_gets_the_umask_s_mode(tmp_path, umask, papers, fmt):
    out = tmp_path / f"bank{SUFFIXES[fmt]}"
    export_papers(fmt, papers, out)
    assert mode(out) == 0o666 & ~umask, f"{out}: {mode(out):o}"
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temporary file left


def test_a_replaced_export_keeps_its_mode(tmp_path, umask):
    out = tmp_path / "bank.json"
    out.write_text("old")
    out.chmod(0o640)
    write_atomically(out, b"new")
    assert out.read_bytes() == b"new" and mode(out) == 0o640


def test_a_written_pack_gets_the_umask_s_modes(tmp_path, umask):
    folder = tmp_path / "papers" / "mine"
    write_pack(draft("modes", 3), folder)
    assert mode(folder) == 0o777 & ~umask, f"{folder}: {mode(folder):o}"
    files = sorted(folder.iterdir())
    assert files and all(mode(f) == 0o666 & ~umask for f in files), \
        {f.name: f"{mode(f):o}" for f in files}


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_a_progress_export_is_private_whatever_the_umask(tmp_path, umask, suffix):
    store = ProgressStore(tmp_path / "progress.sqlite3")
    try:
        out = tmp_path / f"progress{suffix}"
        export_progress(store, out)
        assert mode(out) == 0o600, f"{out}: {mode(out):o}"
        out.chmod(0o644)  # a copy an older examdesk left readable: replaced, made private
        export_progress(store, out)
        assert mode(out) == 0o600
    finally:
        store.close()
