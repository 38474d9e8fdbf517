"""The on-disk copy of the parsed bank (question_db/bank_cache.py): used only while every
paper file is unchanged, and never able to stop a start."""
from __future__ import annotations

import os
from pathlib import Path

from question_db import model
from question_db.bank import load_bank
from question_db.bank_cache import CACHE_PREFIX, cached_bank, load_and_cache_bank


def _extra_root(pack_copy: Path, tmp_path: Path) -> Path:
    """A user papers folder holding one copied paper under a new id."""
    root = tmp_path / "user_papers"
    paper = root / "900"
    paper.parent.mkdir()
    os.rename(pack_copy / "001", paper)
    meta = paper / "paper.toml"
    meta.write_text(meta.read_text("utf-8").replace('id = "001"', 'id = "900"'), "utf-8")
    return root


def test_a_written_cache_returns_the_same_bank(tmp_path):
    cache = tmp_path / "cache"
    assert cached_bank([], cache) is None  # nothing written yet
    parsed = load_and_cache_bank([], cache)
    again = cached_bank([], cache)
    assert again is not None and again == parsed == load_bank()
    assert [p.name for p in cache.iterdir()] == [p.name for p in cache.glob(f"{CACHE_PREFIX}*")]


def test_an_edited_question_misses_and_the_edit_is_seen(tmp_path, pack_copy):
    root = _extra_root(pack_copy, tmp_path)
    cache = tmp_path / "cache"
    first = load_and_cache_bank([root], cache)
    question = root / "900" / "q01.toml"
    text = question.read_text("utf-8")
    assert first.question("900/1").stem in text
    question.write_text(text.replace(first.question("900/1").stem[:8], "EDITED——"), "utf-8")
    st = question.stat()  # same size is possible: the mtime must be enough
    os.utime(question, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert cached_bank([root], cache) is None
    second = load_and_cache_bank([root], cache)
    assert second.question("900/1").stem.startswith("EDITED——")
    assert cached_bank([root], cache) == second
    assert len(list(cache.glob(f"{CACHE_PREFIX}*.pickle"))) == 1  # the stale copy is gone


def test_an_added_paper_misses(tmp_path):
    root = tmp_path / "user_papers"
    root.mkdir()
    cache = tmp_path / "cache"
    load_and_cache_bank([root], cache)
    assert cached_bank([root], cache) is not None
    (root / "900").mkdir()
    (root / "900" / "paper.toml").write_text("id = 1\n", "utf-8")
    assert cached_bank([root], cache) is None


def test_a_damaged_cache_is_a_miss_and_an_unwritable_one_is_ignored(tmp_path):
    cache = tmp_path / "cache"
    load_and_cache_bank([], cache)
    (only,) = cache.glob(f"{CACHE_PREFIX}*.pickle")
    only.write_bytes(b"\x80\x05 not a pickle")
    assert cached_bank([], cache) is None
    blocked = tmp_path / "file_not_dir"
    blocked.write_text("x")
    bank = load_and_cache_bank([], blocked / "cache")  # cannot create the folder: no error
    assert bank == load_bank()


def test_the_cache_depends_on_the_loader_source(tmp_path, monkeypatch):
    """A new examdesk version (another bank.py/model.py) never reads an old copy: the
    fingerprint covers their path, size and mtime."""
    cache = tmp_path / "cache"
    load_and_cache_bank([], cache)
    assert cached_bank([], cache) is not None
    newer = tmp_path / "model.py"
    newer.write_bytes(Path(model.__file__).read_bytes())
    monkeypatch.setattr(model, "__file__", str(newer))
    assert cached_bank([], cache) is None
