"""The on-disk copy of the parsed bank (question_db/bank_cache.py): used only while every
paper file is unchanged, never able to stop a start, and never able to run code."""
from __future__ import annotations

import dataclasses
import enum
import json
import os
import pickle
from pathlib import Path
from typing import Any, Optional

import pytest

from question_db import bank_cache, model
from question_db.bank import load_bank
from question_db.bank_cache import (CACHE_PREFIX, CACHE_SUFFIX, cache_path, cached_bank,
                                    load_and_cache_bank)


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
    assert len(list(cache.glob(f"{CACHE_PREFIX}*"))) == 1  # the stale copy is gone


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
    (only,) = cache.glob(f"{CACHE_PREFIX}*{CACHE_SUFFIX}")
    only.write_bytes(only.read_bytes()[:-100])  # cut short, as by a crash or a full disk
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


def same_fields(a: Any, b: Any, where: str = "bank") -> None:
    """``a == b`` field for field, and every value of the same type (``==`` alone takes
    2 for 2.0 and a str enum for its text)."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            same_fields(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            same_fields(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), where  # same keys, same order (options A, B, C, D)
        for k in a:
            same_fields(a[k], b[k], f"{where}[{k!r}]")
    else:
        assert a == b, where


def test_every_bundled_paper_comes_back_field_for_field(tmp_path):
    cache = tmp_path / "cache"
    load_and_cache_bank([], cache)
    fresh = load_bank()
    assert [p.id for p in fresh.papers] == ["000", "001", "drills"]
    again = cached_bank([], cache)
    assert again is not None
    for parsed, read in zip(fresh.papers, again.papers, strict=True):
        assert read == parsed
        same_fields(read, parsed, parsed.id)
    same_fields(again, fresh)


class _RunsCode:
    """A pickle payload that would create ``marker`` when unpickled."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_pickle_in_the_cache_is_a_miss_and_never_runs(tmp_path):
    """A user-writable folder must not be able to run code at start-up (issue 11)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    marker = tmp_path / "ran"
    cache_path([], cache).write_bytes(pickle.dumps(_RunsCode(marker)))
    assert cached_bank([], cache) is None
    assert not marker.exists()
    assert pickle.loads(pickle.dumps(_RunsCode(marker))) is None and marker.exists()  # armed


def _written(tmp_path: Path) -> tuple[Path, dict]:
    cache = tmp_path / "cache"
    load_and_cache_bank([], cache)
    path = cache_path([], cache)
    return path, json.loads(path.read_bytes())


class _Record:
    """One record of a written cache document, edited by field name (the file lists each
    class's field names once; records are arrays in that order)."""

    def __init__(self, document: dict, cls: str, values: list):
        self.names, self.values = document["fields"][cls], values

    def __getitem__(self, name: str) -> Any:
        return self.values[self.names.index(name)]

    def __setitem__(self, name: str, value: Any) -> None:
        self.values[self.names.index(name)] = value


def _first_paper_and_question(document: dict) -> tuple[_Record, _Record]:
    bank = _Record(document, "Bank", document["bank"])
    paper = _Record(document, "Paper", bank["papers"][0])
    return paper, _Record(document, "Question", paper["questions"][0])


@pytest.mark.parametrize("tamper", [
    "{}", "[]", "null", '"bank"', '{"format": 1}',
    "wrong format", "wrong fingerprint", "other fields", "bank not a record",
    "a number as text", "a missing field", "an extra field", "a class from elsewhere",
    "an unknown tag", "a path as a number", "a bool for an int",
])
def test_arbitrary_or_tampered_json_is_a_miss(tmp_path, tamper):
    path, document = _written(tmp_path)
    paper, question = _first_paper_and_question(document)
    assert question["id"] == "000/1" and question["number"] == 1  # the layout assumed
    if tamper.startswith(("{", "[", "n", '"')):
        path.write_text(tamper, "utf-8")
    else:
        if tamper == "wrong format":
            document["format"] = "examdesk-bank-cache/0"
        elif tamper == "wrong fingerprint":
            document["fingerprint"] = "0" * 32
        elif tamper == "other fields":
            document["fields"]["Question"].append("learner_notes")
        elif tamper == "bank not a record":
            document["bank"] = {"papers": [], "problems": []}
        elif tamper == "a number as text":
            question["number"] = "1"
        elif tamper == "a missing field":
            question.values.pop()
        elif tamper == "an extra field":
            question.values.append("")
        elif tamper == "a class from elsewhere":  # Question.answer is typed loosely
            question["answer"] = {"record": ["Popen", [["sh", "-c", "touch x"]]]}
        elif tamper == "an unknown tag":
            question["answer"] = {"eval": "__import__('os')"}
        elif tamper == "a path as a number":
            paper["folder"] = 0
        elif tamper == "a bool for an int":
            question["number"] = True
        path.write_text(json.dumps(document, ensure_ascii=False), "utf-8")
    assert cached_bank([], path.parent) is None


def test_an_untampered_rewrite_still_hits(tmp_path):
    """The tamper test's edits are what misses: the same document written back hits."""
    path, document = _written(tmp_path)
    path.write_text(json.dumps(document, ensure_ascii=False), "utf-8")
    assert cached_bank([], path.parent) == load_bank()


def test_an_old_pickle_copy_is_removed_and_never_read(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    marker = tmp_path / "ran"
    old = cache / f"{CACHE_PREFIX}{bank_cache.fingerprint([])}.pickle"
    old.write_bytes(pickle.dumps(_RunsCode(marker)))
    assert cached_bank([], cache) is None
    load_and_cache_bank([], cache)
    assert not old.exists() and not marker.exists()
    assert [p.name for p in cache.iterdir()] == [cache_path([], cache).name]


class Colour(str, enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclasses.dataclass(frozen=True)
class Shade:
    colour: Colour
    depth: float


@dataclasses.dataclass(frozen=True)
class FutureRecord:
    """Types the model does not use today, as a new field might: the walker follows the
    hints, so such a field needs no change in bank_cache.py."""

    colours: tuple[Colour, ...]
    by_number: dict[int, str]
    shade: Optional[Shade]
    pair: tuple[str, float]
    loose: Any
    where: Path | None = None


def test_the_walker_follows_new_field_types():
    value = FutureRecord(colours=(Colour.BLUE, Colour.RED), by_number={2: "b", 1: "a"},
                         shade=Shade(Colour.RED, 2), pair=("x", 0.5),
                         loose=[(1, "a"), {"k": Path("/p")}, Shade(Colour.BLUE, 1.5)],
                         where=Path("/tmp/q"))
    codec = bank_cache._codec(FutureRecord)
    text = json.dumps(codec.encode(value))
    same_fields(codec.decode(json.loads(text)), value)
    with pytest.raises(ValueError):  # an enum value the enum lacks is a mismatch
        codec.decode(json.loads(text.replace('"blue"', '"green"')))


def test_a_value_the_walker_cannot_write_means_no_cache_not_an_error(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    real = load_bank

    def odd_bank(roots):
        bank = real(roots)
        question = bank.papers[0].questions[0]
        odd = dataclasses.replace(question, answer=object())  # no JSON for this
        bank.papers[0] = dataclasses.replace(bank.papers[0], questions=(odd,))
        return bank

    monkeypatch.setattr("question_db.bank.load_bank", odd_bank)
    assert load_and_cache_bank([], cache).papers[0].questions[0].answer is not None
    assert not cache.exists() or not any(cache.iterdir())


# --- the fingerprint -------------------------------------------------------------------------
def _touch_later(path: Path) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))


FILE_CHANGES = {
    "added": lambda paper: (paper / "notes.txt").write_text("x", "utf-8"),
    "removed": lambda paper: (paper / "q02.toml").unlink(),
    "renamed": lambda paper: (paper / "q02.toml").rename(paper / "q02b.toml"),
    "resized, same mtime": lambda paper: _resize_keeping_mtime(paper / "q02.toml"),
    "re-timed, same size": lambda paper: _touch_later(paper / "q02.toml"),
    "a code file touched": lambda paper: _touch_later(next(paper.glob("*.py"))),
    "a file in a subfolder": lambda paper: _nested(paper),
}


def _resize_keeping_mtime(path: Path) -> None:
    st = path.stat()
    path.write_bytes(path.read_bytes() + b"\n")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _nested(paper: Path) -> None:
    (paper / "code").mkdir()
    (paper / "code" / "helper.py").write_text("x = 1\n", "utf-8")


@pytest.mark.parametrize("change", FILE_CHANGES)
def test_any_change_to_a_file_under_a_root_misses(tmp_path, pack_copy, change):
    root = _extra_root(pack_copy, tmp_path)
    cache = tmp_path / "cache"
    load_and_cache_bank([root], cache)
    before = bank_cache.fingerprint([root])
    assert cached_bank([root], cache) is not None and bank_cache.fingerprint([root]) == before
    FILE_CHANGES[change](root / "900")
    assert bank_cache.fingerprint([root]) != before
    assert cached_bank([root], cache) is None


def test_a_symlinked_paper_folder_is_fingerprinted_too(tmp_path, pack_copy):
    """The loader follows a linked paper folder (a pack author's working copy): an edit in
    it must miss. A link cycle ends."""
    root = tmp_path / "user_papers"
    root.mkdir()
    (tmp_path / "work").mkdir()
    elsewhere = _extra_root(pack_copy, tmp_path / "work") / "900"
    try:
        (root / "900").symlink_to(elsewhere, target_is_directory=True)
        (elsewhere / "loop").symlink_to(root, target_is_directory=True)
    except OSError as exc:  # Windows without the privilege
        pytest.skip(f"no symlinks here: {exc}")
    cache = tmp_path / "cache"
    assert load_and_cache_bank([root], cache).paper("900")
    assert cached_bank([root], cache) is not None
    _touch_later(elsewhere / "q02.toml")
    assert cached_bank([root], cache) is None
