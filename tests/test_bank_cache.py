"""The on-disk copy of the parsed bank (question_db/bank_cache.py): used only while every
paper file is unchanged, never able to stop a start, and never able to run code."""
from __future__ import annotations

import copy
import dataclasses
import enum
import json
import logging
import os
import pickle
import threading
import time
from pathlib import Path
from typing import Any, Optional

import pytest

from question_db import bank_cache, model
from question_db.bank import load_bank
from question_db.bank_cache import (CACHE_PREFIX, CACHE_SUFFIX, BankCacheError, cache_path,
                                    cached_bank, join_lines, load_and_cache_bank, split_lines)
from question_db.model import LazyQuestions, QuestionTotals, errata_count, question_totals


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
    2 for 2.0 and a str enum for its text). A cache's lazy questions are compared as the
    tuple they decode to."""
    if type(a) is LazyQuestions:
        a = a[:]
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


def _written(tmp_path: Path) -> tuple[Path, dict, list[list]]:
    """A cache of the bundled bank: its path, header and each paper's question records."""
    cache = tmp_path / "cache"
    load_and_cache_bank([], cache)
    path = cache_path([], cache)
    document, lines = split_lines(path.read_bytes())
    return path, document, [json.loads(line) for line in lines]


def _rewrite(path: Path, document: dict, papers: list[list]) -> None:
    """The file as ``encode_bank`` lays it out (offsets, lengths, checksums) for edited
    records: what a careful tamperer writes."""
    path.write_bytes(join_lines(document, [bank_cache._dumps(p) for p in papers]))


class _Record:
    """One record of a written cache document, edited by field name (the file lists each
    class's field names once; records are arrays in that order)."""

    def __init__(self, document: dict, cls: str, values: list):
        self.names, self.values = document["fields"][cls], values

    def __getitem__(self, name: str) -> Any:
        return self.values[self.names.index(name)]

    def __setitem__(self, name: str, value: Any) -> None:
        self.values[self.names.index(name)] = value


def _first_paper(document: dict) -> _Record:
    bank = _Record(document, "Bank", document["bank"])
    return _Record(document, "Paper", bank["papers"][0])


HEADER_TAMPERS = [
    "{}", "[]", "null", '"bank"', '{"format": 1}', "no line break",
    "wrong format", "wrong fingerprint", "other fields", "bank not a record",
    "a path as a number", "questions inline", "a line of no paper", "two papers one line",
    "a count as text", "lines not contiguous", "a line cut short", "a line appended",
]


@pytest.mark.parametrize("tamper", HEADER_TAMPERS)
def test_arbitrary_or_tampered_header_is_a_miss(tmp_path, tamper):
    path, document, papers = _written(tmp_path)
    paper = _first_paper(document)
    assert paper["questions"] == {"line": 0, **question_totals(load_bank().papers[0].questions)
                                  ._asdict()}  # the layout assumed
    if tamper.startswith(("{", "[", "n", '"')):
        path.write_text(tamper if tamper != "no line break" else json.dumps(document), "utf-8")
        assert cached_bank([], path.parent) is None
        return
    if tamper == "wrong format":
        document["format"] = "examdesk-bank-cache/1"
    elif tamper == "wrong fingerprint":
        document["fingerprint"] = "0" * 32
    elif tamper == "other fields":
        document["fields"]["Question"].append("learner_notes")
    elif tamper == "bank not a record":
        document["bank"] = {"papers": [], "problems": []}
    elif tamper == "a path as a number":
        paper["folder"] = 0
    elif tamper == "questions inline":  # the old format's place for them
        paper["questions"] = papers[0]
    elif tamper == "a line of no paper":
        paper["questions"]["line"] = len(papers)
    elif tamper == "two papers one line":
        _Record(document, "Paper", document["bank"][0][1])["questions"]["line"] = 0
    elif tamper == "a count as text":
        paper["questions"]["count"] = "34"
    if tamper in ("lines not contiguous", "a line cut short", "a line appended"):
        data = join_lines(document, [bank_cache._dumps(p) for p in papers])
        if tamper == "lines not contiguous":
            head, _, rest = data.partition(b"\n")
            header = json.loads(head)
            header["lines"][1][0] += 1
            data = bank_cache._dumps(header) + b"\n" + rest
        elif tamper == "a line cut short":
            data = data[:-10] + b"\n"
        else:
            data += b"[]\n"
        path.write_bytes(data)
    else:
        _rewrite(path, document, papers)
    assert cached_bank([], path.parent) is None


QUESTION_TAMPERS = ["a number as text", "a missing field", "an extra field",
                    "a class from elsewhere", "an unknown tag", "a bool for an int",
                    "a question left out", "not a list", "invalid JSON", "a byte changed"]


@pytest.mark.parametrize("tamper", QUESTION_TAMPERS)
def test_a_tampered_question_line_is_loaded_from_the_paper_folder(tmp_path, tamper, caplog):
    """The header is sound, so the bank is read; the paper's line is found damaged only
    when first decoded: a warning, the file deleted, the questions from the folder."""
    path, document, papers = _written(tmp_path)
    question = _Record(document, "Question", papers[0][0])
    assert question["id"] == "000/1" and question["number"] == 1  # the layout assumed
    marker = tmp_path / "ran"
    if tamper == "a number as text":
        question["number"] = "1"
    elif tamper == "a missing field":
        question.values.pop()
    elif tamper == "an extra field":
        question.values.append("")
    elif tamper == "a class from elsewhere":  # Question.answer is typed loosely
        question["answer"] = {"record": ["Popen", [["touch", str(marker)]]]}
    elif tamper == "an unknown tag":
        question["answer"] = {"eval": f"__import__('pathlib').Path({str(marker)!r}).touch()"}
    elif tamper == "a bool for an int":
        question["number"] = True
    elif tamper == "a question left out":  # well typed, but not what the header counted
        papers[0].pop()
    elif tamper == "not a list":
        papers[0] = {"tuple": papers[0]}
    if tamper == "invalid JSON":
        lines = [bank_cache._dumps(p) for p in papers]
        lines[0] = lines[0][:-1]
        path.write_bytes(join_lines(document, lines))
    elif tamper == "a byte changed":  # damage, not tampering: the checksum no longer matches
        data = bytearray(path.read_bytes())
        at = data.index("000/1".encode(), data.index(b"\n"))
        data[at:at + 5] = b"000/9"
        path.write_bytes(bytes(data))
    else:
        _rewrite(path, document, papers)
    bank = cached_bank([], path.parent)
    assert bank is not None and path.exists()
    fresh = load_bank()
    lazy = bank.papers[0].questions
    assert len(lazy) == len(fresh.papers[0].questions) and not lazy.decoded
    with caplog.at_level(logging.WARNING, logger="question_db.bank_cache"):
        assert lazy == fresh.papers[0].questions
    assert lazy.decoded and not path.exists()  # the next start parses again
    assert "damaged" in caplog.text and "paper 000" in caplog.text and str(path) in caplog.text
    assert bank.papers[1:] == fresh.papers[1:]  # their lines were fine: still from the cache
    assert bank == fresh and not marker.exists()


def test_an_untampered_rewrite_still_hits(tmp_path):
    """The tamper tests' edits are what misses: the same records written back hit."""
    path, document, papers = _written(tmp_path)
    data = path.read_bytes()
    assert join_lines(*split_lines(data)) == data
    _rewrite(path, json.loads(json.dumps(document)), papers)
    assert path.read_bytes() == data
    bank = cached_bank([], path.parent)
    assert bank == load_bank() and path.exists()


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


# --- lazy questions ------------------------------------------------------------------------
def _cached(roots: list[Path], cache: Path) -> model.Bank:
    load_and_cache_bank(roots, cache)
    bank = cached_bank(roots, cache)
    assert bank is not None
    assert all(type(p.questions) is LazyQuestions and not p.questions.decoded
               for p in bank.papers)
    return bank


def _assert_same_bank(read: model.Bank, fresh: model.Bank) -> None:
    """Paper by paper and question by question, ``==`` both ways, and every field's type."""
    assert len(read.papers) == len(fresh.papers) and read.problems == fresh.problems
    for got, parsed in zip(read.papers, fresh.papers):
        assert got == parsed and parsed == got, parsed.id
        assert got.questions == parsed.questions and parsed.questions == got.questions
        assert not got.questions != parsed.questions and not parsed.questions != got.questions
        for mine, theirs in zip(got.questions, parsed.questions, strict=True):
            assert mine == theirs, theirs.id
        same_fields(got, parsed, parsed.id)


@pytest.fixture(scope="module")
def synthetic_root(tmp_path_factory) -> Path:
    """The benchmark's 100 papers (5,000 questions), written once for this module."""
    from study_helpers import write_bank

    root = tmp_path_factory.mktemp("synthetic") / "papers"
    write_bank(root, papers=100)
    return root


@pytest.mark.slow
def test_the_synthetic_5000_question_bank_comes_back_question_for_question(tmp_path,
                                                                            synthetic_root):
    fresh = load_bank([synthetic_root])
    assert len(fresh.papers) == 103 and not fresh.problems
    read = _cached([synthetic_root], tmp_path / "cache")
    _assert_same_bank(read, fresh)
    assert read.all_questions() == fresh.all_questions()


def test_the_bundled_bank_comes_back_question_for_question(tmp_path):
    _assert_same_bank(_cached([], tmp_path / "cache"), load_bank())


def test_counts_points_and_errata_are_read_without_decoding(tmp_path, synthetic_root):
    """What a library card shows (library.py PaperCard) is in the header."""
    read = _cached([synthetic_root], tmp_path / "cache")
    fresh = load_bank([synthetic_root])
    for got, parsed in zip(read.papers, fresh.papers):
        expected = (len(parsed.questions), parsed.total_points, parsed.scorable_points,
                    sum(1 for q in parsed.questions if q.errata))
        assert (len(got.questions), got.total_points, got.scorable_points,
                errata_count(got.questions)) == expected, parsed.id
        assert type(got.total_points) is type(parsed.total_points)  # 200, not 200.0
        assert question_totals(got.questions) == question_totals(parsed.questions)
        assert bool(got.questions) is bool(parsed.questions)
        assert not got.questions.decoded, parsed.id
    assert {errata_count(p.questions) for p in fresh.papers} > {0}  # the test means something
    assert any(p.total_points != p.scorable_points for p in fresh.papers)
    for got, parsed in zip(read.papers, fresh.papers):  # decoded: the tuple's own totals
        assert got.questions[:] == parsed.questions and got.questions.decoded
        assert question_totals(got.questions) == question_totals(parsed.questions)


def test_decoding_a_paper_leaves_the_others_undecoded(tmp_path):
    read = _cached([], tmp_path / "cache")
    first, *rest = read.papers
    assert first.questions[0].id == f"{first.id}/1"
    assert first.questions.decoded and not any(p.questions.decoded for p in rest)
    assert read.question(f"{rest[0].id}/2").number == 2 and rest[0].questions.decoded


def test_two_threads_get_the_same_questions_and_decode_once(tmp_path, monkeypatch):
    read = _cached([], tmp_path / "cache")
    paper = read.papers[0]
    calls = []
    real = bank_cache._Line.__call__

    def slow(self):  # wide enough a window that both threads are inside it
        calls.append(threading.current_thread().name)
        time.sleep(0.05)
        return real(self)

    monkeypatch.setattr(bank_cache._Line, "__call__", slow)
    start = threading.Barrier(2)
    got: dict[str, tuple] = {}

    def touch(name: str) -> None:
        start.wait()
        got[name] = tuple(paper.questions)

    threads = [threading.Thread(target=touch, args=(n,), name=n) for n in ("ui", "store")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1  # one decode
    assert all(a is b for a, b in zip(got["ui"], got["store"], strict=True))  # same objects
    assert paper.questions[0] is got["ui"][0]


def test_a_lazy_sequence_behaves_as_the_tuple_it_stands_for(tmp_path):
    cached = _cached([], tmp_path / "cache").papers[0]
    parsed = load_bank().papers[0]
    lazy, items = cached.questions, parsed.questions
    assert len(lazy) == len(items) and bool(lazy) and not lazy.decoded
    assert lazy == items and items == lazy and not lazy != items and not items != lazy
    assert lazy != items[:-1] and items[:-1] != lazy and lazy != list(items)
    assert list(lazy) == list(items) and list(reversed(lazy)) == list(reversed(items))
    assert lazy[0] == items[0] and lazy[-1] == items[-1]
    assert type(lazy[1:3]) is tuple and lazy[1:3] == items[1:3] and lazy[::-1] == items[::-1]
    assert items[2] in lazy and items[2] is not lazy[2] and object() not in lazy
    assert lazy.index(items[3]) == 3 and lazy.count(items[3]) == 1
    with pytest.raises(ValueError):
        lazy.index(items[3], 4)
    with pytest.raises(IndexError):
        lazy[len(items)]
    assert type(lazy + items[:1]) is tuple and lazy + items[:1] == items + items[:1]
    assert type(items[:1] + lazy) is tuple and items[:1] + lazy == items[:1] + items
    assert lazy + lazy == items + items and lazy * 2 == items * 2
    with pytest.raises(TypeError):
        lazy + [1]  # as a tuple: no list concatenation
    assert repr(lazy) == repr(items)
    assert (lazy < items + items[:1]) and (lazy <= items) and not (lazy > items)
    assert isinstance(lazy, __import__("collections.abc").abc.Sequence)
    # hash: as the tuple's (a question with options is unhashable, as in the tuple)
    with pytest.raises(TypeError):
        hash(items)
    with pytest.raises(TypeError):
        hash(lazy)
    hashable = LazyQuestions(3, QuestionTotals(3, 0, 0, 0), lambda: ("a", "b", "c"))
    assert hash(hashable) == hash(("a", "b", "c")) and hashable == ("a", "b", "c")
    # another lazy sequence over the same questions
    again = _cached([], tmp_path / "cache2").papers[0].questions
    assert again == lazy and lazy == again and not again != lazy
    other = _cached([], tmp_path / "cache3").papers[1].questions
    assert other != lazy and not other.decoded  # other lengths: no decoding needed
    # copies and pickles are plain tuples
    for clone in (copy.copy(lazy), copy.deepcopy(lazy), pickle.loads(pickle.dumps(lazy))):
        assert type(clone) is tuple and clone == items
    paper_copy = pickle.loads(pickle.dumps(cached))
    assert type(paper_copy.questions) is tuple and paper_copy == parsed
    assert type(copy.deepcopy(cached).questions) is tuple
    # dataclasses.replace keeps or replaces them like any field
    renamed = dataclasses.replace(cached, title="x")
    assert renamed.questions is lazy and renamed == dataclasses.replace(parsed, title="x")
    fewer = dataclasses.replace(cached, questions=lazy[:2])
    assert fewer.questions == items[:2] and fewer.total_points == sum(q.points for q in items[:2])
    empty = LazyQuestions(0, QuestionTotals(0, 0, 0, 0), tuple)
    assert not empty and len(empty) == 0 and empty != (1,) and not empty.decoded
    assert empty == () and list(empty) == [] and empty.decoded


def test_a_cached_bank_can_be_written_again(tmp_path):
    roots: list[Path] = []
    read = _cached(roots, tmp_path / "cache")
    key = bank_cache.fingerprint(roots)
    again = bank_cache.decode_bank(bank_cache.encode_bank(read, key), key)
    assert again == load_bank()


def test_a_paper_whose_line_and_folder_both_fail_names_both(tmp_path, pack_copy, caplog):
    root = _extra_root(pack_copy, tmp_path)
    cache = tmp_path / "cache"
    parsed = load_and_cache_bank([root], cache).paper("900")
    path = cache_path([root], cache)
    document, lines = split_lines(path.read_bytes())
    assert _Record(document, "Paper", document["bank"][0][-1])["id"] == "900"
    lines[-1] = lines[-1].replace(b'"900/1"', b'"900/X"')  # damaged: the checksum fails
    path.write_bytes(b"\n".join([bank_cache._dumps(document), *lines]) + b"\n")
    bank = cached_bank([root], cache)
    assert bank is not None
    paper = bank.paper("900")
    (root / "900" / "paper.toml").unlink()  # and the folder can no longer be loaded
    count, points = len(paper.questions), paper.total_points  # no decoding
    assert (count, points) == (len(parsed.questions), parsed.total_points)
    with caplog.at_level(logging.WARNING, logger="question_db.bank_cache"):
        with pytest.raises(BankCacheError) as error:
            list(paper.questions)
    message = str(error.value)
    assert "'900'" in message and str(path) in message and str(root / "900") in message
    assert "checksum" in message and not path.exists()
    with pytest.raises(BankCacheError):  # every use says so, none gets a half paper
        paper.questions[0]
    assert not paper.questions.decoded
    assert bank.paper("001").questions == load_bank().paper("001").questions  # the others


def test_a_damaged_line_falls_back_to_the_folder_as_it_is_now(tmp_path, pack_copy):
    """The header's count was the cache's; once decoded from the folder, the count and
    totals are the folder's."""
    root = _extra_root(pack_copy, tmp_path)
    cache = tmp_path / "cache"
    n = len(load_and_cache_bank([root], cache).paper("900").questions)
    path = cache_path([root], cache)
    data = bytearray(path.read_bytes())
    at = data.rindex(b'"900/1"')
    data[at + 1] = ord("8")
    path.write_bytes(bytes(data))
    bank = cached_bank([root], cache)
    assert bank is not None and len(bank.paper("900").questions) == n
    (root / "900" / f"q{n:02d}.toml").unlink()  # edited meanwhile (a stale cache would miss)
    questions = bank.paper("900").questions
    assert [q.number for q in questions] == list(range(1, n)) and len(questions) == n - 1
    assert question_totals(questions) == question_totals(tuple(questions))
    assert not path.exists()


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
