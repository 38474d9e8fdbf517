"""A parsed question bank kept on disk, so start-up shows the library without parsing TOML.

Parsing the 65 bundled questions costs ~25 ms of CPU alone and ~70 ms at start-up, where it
competes with the window for the GIL; reading this copy back costs a few ms
(bench: launch_to_library). The cache is only ever a copy: its name is a fingerprint of
every file under the paper folders (path, size, mtime) and of the source of the loader, the
model and this module, so an edited question, an added paper or a new examdesk version
simply misses and the bank is parsed again (``bank_fingerprint``: the launcher has a child
process compute it meanwhile). A cache that cannot be read or written is ignored.

The copy is plain JSON, written and read by a walker over the model's dataclass fields and
their type hints (``model.Bank`` and everything reachable from it): a field added to a
record needs no change here. The data folder is the user's to write, so nothing read from
it may run code (no pickle): the walker only builds the model's own classes, checks every
value against its field's type, and a file that does not match (damaged, tampered, from
another version) is a miss.

Start-up reads only what the library shows: the file is JSON Lines, a header (the bank
without its questions) and then one line per paper with that paper's questions. The header
gives each paper a ``model.LazyQuestions`` that knows its count and totals (the library
card's figures) and decodes its line, by the same walker, on first use. A line found damaged
only then (its checksum, its JSON or its types do not match) cannot be a miss any more: the
cache file is deleted, so the next start parses again, and that paper's questions are
loaded from its folder by the real loader (``BankCacheError`` if even that fails).
"""
from __future__ import annotations

import dataclasses
import enum
import json
import logging
import os
import sys
import threading
import types
import typing
import zlib
from contextvars import ContextVar
from pathlib import Path, PurePath
from typing import Any, Callable, Iterable, NamedTuple

from . import model
from .bank_fingerprint import KeyPrefetch, fingerprint_files
from .model import Bank, LazyQuestions, Paper, QuestionTotals, question_totals
from .paths import BUNDLED_PAPERS

__all__ = ["LOADER_SOURCE", "CACHE_PREFIX", "CACHE_SUFFIX", "FORMAT", "fingerprint",
           "prefetch_fingerprint",
           "cache_path", "cached_bank", "load_and_cache_bank", "encode_bank", "decode_bank",
           "CacheMismatch", "BankCacheError", "Codec"]

# The loader's source: a changed loader must not read an old copy. Not imported here: a
# cache hit needs only the model classes (the loader's imports cost ~10 ms at start-up).
LOADER_SOURCE = Path(__file__).with_name("bank.py")

log = logging.getLogger(__name__)
CACHE_PREFIX = "bank-"
CACHE_SUFFIX = ".jsonl"
# Bumped whenever the encoding below changes shape (the fingerprint covers it too).
FORMAT = "examdesk-bank-cache/2"


def _fingerprint_args(roots: Iterable[Path]) -> tuple[str, list[str], list[str]]:
    header = f"{FORMAT}|{sys.version_info[:2]}"
    sources = [os.fspath(p) for p in (LOADER_SOURCE, Path(model.__file__), Path(__file__))]
    return header, sources, [os.fspath(root) for root in [BUNDLED_PAPERS, *roots]]


def fingerprint(roots: Iterable[Path]) -> str:
    """Changes whenever any file the loader would read, or the code that reads or writes
    the copy (loader, model, this module), changes: a file added, removed, renamed,
    resized or touched."""
    return fingerprint_files(*_fingerprint_args(roots))


def prefetch_fingerprint(roots: list[Path]) -> KeyPrefetch:
    """``fingerprint(roots)``, computed meanwhile by a child process where one can be
    spawned (``bank_fingerprint.KeyPrefetch``); ``cached_bank`` takes it."""
    return KeyPrefetch(*_fingerprint_args(roots))


def cache_path(roots: Iterable[Path], cache_dir: Path) -> Path:
    """Where the copy for the current paper files lives (it may not exist)."""
    return cache_dir / f"{CACHE_PREFIX}{fingerprint(roots)}{CACHE_SUFFIX}"


def cached_bank(roots: list[Path], cache_dir: Path,
                prefetched: KeyPrefetch | None = None) -> Bank | None:
    """The bank from the cache when every file is unchanged since it was written, else None.
    Its papers' questions are decoded on first use (``LazyQuestions``). ``prefetched``: the
    launch's ``prefetch_fingerprint``, used when it was started for these ``roots``."""
    if prefetched is not None and prefetched.args == _fingerprint_args(roots):
        key = prefetched.key()
    else:
        key = fingerprint(roots)
    path = cache_dir / f"{CACHE_PREFIX}{key}{CACHE_SUFFIX}"
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("ignoring the bank cache %s: %s", path, exc)
        return None
    try:
        return decode_bank(data, key, path)
    except Exception as exc:  # noqa: BLE001 - damaged, tampered or foreign: only a miss
        log.warning("ignoring the bank cache %s: %s", path, exc)
        return None


def load_and_cache_bank(roots: list[Path], cache_dir: Path) -> Bank:
    """Parse the bank and write the cache for the next start (old copies are removed)."""
    from .bank import load_bank

    key = fingerprint(roots)
    bank = load_bank(roots)
    if key != fingerprint(roots):  # a file changed while parsing: do not cache a mix
        return bank
    try:
        data = encode_bank(bank, key)
    except Exception as exc:  # noqa: BLE001 - a value the walker cannot write: parse next time
        log.warning("the bank cannot be cached (%s): it will be parsed at every start", exc)
        return bank
    target = cache_dir / f"{CACHE_PREFIX}{key}{CACHE_SUFFIX}"
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        for old in cache_dir.glob(f"{CACHE_PREFIX}*"):  # older copies, and any old pickle
            old.unlink(missing_ok=True)
        tmp = cache_dir / f"{CACHE_PREFIX}{key}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    except OSError as exc:  # a full or read-only disk: next start parses again
        log.warning("could not write the bank cache in %s: %s", cache_dir, exc)
    return bank


# --- the file ----------------------------------------------------------------------------
# JSON Lines: line 1 is the header, {"format", "fingerprint", "fields", "bank", "lines"};
# then one line per paper, the JSON array of its questions. In "bank", a paper's questions
# are {"line": i, "count", "points", "scorable_points", "errata"} (``model.QuestionTotals``
# and the index of their line), and "lines" lists each line's [offset, length, crc32],
# its bytes counted from the end of the header line (without the line's newline).
_HEADER_KEYS = {"format", "fingerprint", "fields", "bank", "lines"}
_LAZY_KEYS = {"line", *QuestionTotals._fields}


def encode_bank(bank: Bank, key: str) -> bytes:
    """The cache file for ``bank`` (UTF-8 JSON Lines), tagged with the format, ``key`` and
    the model's field names. Papers may hold tuples or ``LazyQuestions`` (decoded here)."""
    codec = _bank_codec()
    lines: list[bytes] = []
    token = _WRITING.set(lines)
    try:
        encoded = codec.encode(bank)
    finally:
        _WRITING.reset(token)
    document = {"format": FORMAT, "fingerprint": key, "fields": _FIELDS, "bank": encoded}
    return join_lines(document, lines)


def join_lines(document: dict, lines: list[bytes]) -> bytes:
    """The file of a header ``document`` (without "lines") and the paper ``lines``: the
    header gets each line's offset, length and checksum."""
    table, offset = [], 0
    for line in lines:
        table.append([offset, len(line), zlib.crc32(line)])
        offset += len(line) + 1
    header = _dumps({**document, "lines": table})
    return b"\n".join([header, *lines]) + b"\n"


def split_lines(data: bytes) -> tuple[dict, list[bytes]]:
    """The header document and the paper lines of a cache file (for tests and tools; start-up
    reads the lines lazily)."""
    end = data.index(b"\n")
    document = json.loads(data[:end])
    lines = [bytes(data[end + 1 + offset:end + 1 + offset + length])
             for offset, length, _crc in document["lines"]]
    return document, lines


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def decode_bank(data: bytes, key: str, path: Path | None = None) -> Bank:
    """The bank in ``data`` (read from ``path``), its questions still undecoded;
    ``CacheMismatch`` unless the header is what ``encode_bank`` writes for ``key`` with
    today's model. A question line is checked when it is decoded."""
    codec = _bank_codec()
    end = data.find(b"\n")
    if end < 0:
        raise CacheMismatch("not a bank cache")
    document = json.loads(data[:end])
    if type(document) is not dict or document.keys() != _HEADER_KEYS:
        raise CacheMismatch("not a bank cache")
    if document["format"] != FORMAT or document["fingerprint"] != key:
        raise CacheMismatch("written by another examdesk version or for other files")
    if document["fields"] != _FIELDS:
        raise CacheMismatch("written for a model with other fields")
    source = _Source(data, end + 1, path, document["lines"])
    token = _READING.set(source)
    try:
        bank = codec.decode(document["bank"])
    finally:
        _READING.reset(token)
    if len(source.taken) != len(source.lines):
        raise CacheMismatch("a question line belongs to no paper")
    for paper in bank.papers:  # where a damaged line's paper can be loaded from instead
        line = source.by_sequence.get(id(paper.questions))
        if line is not None:
            line.paper, line.folder = paper.id, paper.folder
    source.by_sequence.clear()
    return bank


class BankCacheError(RuntimeError):
    """A paper's questions are neither in the bank cache nor loadable from its folder."""


class _Source:
    """One cache file being read: its bytes (kept until every paper's line is decoded)."""

    def __init__(self, data: bytes, base: int, path: Path | None, table: Any) -> None:
        if type(table) is not list:
            raise _mismatch("a table of lines", table)
        offset = 0
        for row in table:  # contiguous, in order, up to the last byte: nothing cut or added
            if (type(row) is not list or len(row) != 3 or any(type(v) is not int for v in row)
                    or row[0] != offset or row[1] < 0 or row[2] < 0):
                raise CacheMismatch("a damaged table of lines")
            offset += row[1] + 1
        if base + offset != len(data):
            raise CacheMismatch(f"{len(data) - base} bytes of question lines, the header "
                                f"says {offset}")
        self.data, self.base, self.path, self.lines = data, base, path, table
        self.taken: set[int] = set()
        self.by_sequence: dict[int, _Line] = {}  # id(LazyQuestions) -> its line, while read


class _Line:
    """How one paper's ``LazyQuestions`` gets its tuple: its line of the cache file, else
    (damaged) its folder. Called once per success (``LazyQuestions`` holds the lock)."""

    def __init__(self, source: _Source, index: int, totals: QuestionTotals,
                 decode: Convert) -> None:
        self.source: _Source | None = source  # None once read, or found damaged
        self.path = source.path
        self.index, self.totals, self.decode = index, totals, decode
        self.paper: str | None = None  # set by decode_bank, for a damaged line
        self.folder: Path | None = None
        self.damaged: Exception | None = None

    def __call__(self) -> tuple:
        source = self.source
        if source is not None:
            offset, length, crc = source.lines[self.index]
            start = source.base + offset
            raw = source.data[start:start + length]
            try:
                if zlib.crc32(raw) != crc:
                    raise CacheMismatch("its checksum does not match")
                questions = self.decode(json.loads(raw))
                if question_totals(questions) != self.totals:
                    raise CacheMismatch("its questions do not add up to the header's totals")
            except Exception as exc:  # noqa: BLE001 - damaged or tampered: the folder has them
                self.damaged = exc
                self._discard()
            else:
                return questions
            finally:
                self.source = None  # the bytes go with the last paper's line read
        return self._from_folder()

    def _discard(self) -> None:
        log.warning("the bank cache %s is damaged (paper %s: %s): it is deleted, and the "
                    "paper's questions are loaded from %s", self.path, self.paper,
                    self.damaged, self.folder)
        if self.path is not None:
            try:
                self.path.unlink(missing_ok=True)  # the next start parses again
            except OSError as exc:
                log.warning("could not delete the bank cache %s: %s", self.path, exc)

    def _from_folder(self) -> tuple:
        why = self.damaged
        failed = (f"the questions of paper {self.paper!r} in the bank cache {self.path} are "
                  f"damaged ({why}), and")
        if self.folder is None:
            raise BankCacheError(f"{failed} the paper has no folder to load them from") from why
        from .bank import load_paper

        problems: list[model.Problem] = []
        try:
            paper = load_paper(self.folder, problems)
        except Exception as exc:  # noqa: BLE001 - a clear error below, with the cache's reason
            raise BankCacheError(f"{failed} loading them from {self.folder} failed: "
                                 f"{exc}") from exc
        if paper is None or paper.id != self.paper:
            found = "; ".join(map(str, problems[:3])) if paper is None else (
                f"it holds paper {paper.id!r}")
            raise BankCacheError(f"{failed} loading them from {self.folder} failed: "
                                 f"{found or 'no paper'}") from why
        for problem in problems[:20]:
            log.warning("%s", problem)
        return paper.questions


_WRITING: ContextVar[list[bytes]] = ContextVar("bank_cache_writing")
_READING: ContextVar[_Source] = ContextVar("bank_cache_reading")


class CacheMismatch(ValueError):
    """The file does not hold what the model's types say (a miss, never an error)."""


# --- the walker ------------------------------------------------------------------------------
# One codec per type, built once from the type hints. Typed positions are written bare (a
# str as a string, a dataclass as an array of its fields in declaration order, whose names
# the file lists once); values whose type the hints leave open (``Any``, a bare ``list`` or
# ``tuple``, a union such as ``model.AnswerKey``) are written tagged, so a tuple stays a
# tuple and a list a list (``==`` tells them apart). Only dataclasses and enums reachable
# from ``Bank`` can be built, and each only through its own ``__init__``.
Convert = Callable[[Any], Any]


class Codec(NamedTuple):
    encode: Convert
    decode: Convert
    leaf: tuple[type, ...] | None = None  # JSON-native: written as is, only checked


_CODECS: dict[Any, Codec] = {}
_CLASSES: dict[str, type] = {}  # by qualified name: what a tagged value may name
_FIELDS: dict[str, list[str]] = {}  # each record's field names, in the file's order
_PRIMITIVES = (type(None), bool, int, float, str)
_BUILDING = threading.Lock()  # the UI thread reads the cache, a worker may write it


def _bank_codec() -> Codec:
    with _BUILDING:  # once built, every codec a bank needs is in _CODECS (read-only)
        return _codec(Bank)


def _mismatch(expected: object, value: object) -> CacheMismatch:
    return CacheMismatch(f"expected {expected}, found {type(value).__name__}")


def _codec(tp: Any) -> Codec:
    try:
        return _CODECS[tp]
    except KeyError:
        pass
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _dataclass_codec(tp)
    codec = _build(tp)
    _CODECS[tp] = codec
    return codec


def _register(cls: type) -> None:
    other = _CLASSES.setdefault(cls.__qualname__, cls)
    if other is not cls:
        raise TypeError(f"two model classes are named {cls.__qualname__}")


def _build(tp: Any) -> Codec:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Any or tp is object:
        return _DYNAMIC
    if tp in (type(None), bool, int, str):
        return _leaf((tp,))
    if tp is float:  # a float field may hold an int (TOML ``points = 2``)
        return _leaf((float, int))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum_codec(tp)
    if isinstance(tp, type) and issubclass(tp, PurePath):
        return _path_codec(tp)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in args if a is not type(None)]
        if len(members) == 1:  # Optional[X]: null or an X
            return _optional(_codec(members[0]))
        return _union_codec(args)
    if tp in (tuple, list, dict):
        origin, args = tp, ()
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _sequence_codec(tuple, _codec(args[0]))
        if args:
            return _fixed_tuple_codec([_codec(a) for a in args])
        return _sequence_codec(tuple, _DYNAMIC)
    if origin is list:
        return _sequence_codec(list, _codec(args[0]) if args else _DYNAMIC)
    if origin is dict:
        key, value = args if args else (Any, Any)
        return _dict_codec(key, _codec(value))
    raise TypeError(f"the bank cache cannot store a {tp!r}")


def _leaf(kinds: tuple[type, ...]) -> Codec:
    def check(value: Any) -> Any:
        if type(value) not in kinds:
            raise _mismatch(kinds, value)
        return value
    return Codec(check, check, kinds)


def _optional(inner: Codec) -> Codec:
    if inner.leaf is not None:
        return _leaf((type(None), *inner.leaf))
    encode, decode = inner.encode, inner.decode
    return Codec(lambda v: None if v is None else encode(v),
                 lambda j: None if j is None else decode(j))


def _enum_codec(cls: type[enum.Enum]) -> Codec:
    _register(cls)

    def encode(value: Any) -> Any:
        if not isinstance(value, cls) or type(value.value) not in _PRIMITIVES:
            raise _mismatch(cls.__name__, value)
        return value.value

    members = {m.value: m for m in cls}  # what cls(value) looks up first, ~1 µs sooner

    def decode(value: Any) -> Any:
        if type(value) not in _PRIMITIVES:
            raise _mismatch(cls.__name__, value)
        member = members.get(value)
        if member is None:
            return cls(value)  # ValueError for a value the enum does not have: a miss
        return member
    return Codec(encode, decode)


def _path_codec(cls: type) -> Codec:
    def encode(value: Any) -> Any:
        if not isinstance(value, PurePath):
            raise _mismatch("a path", value)
        return str(value)

    def decode(value: Any) -> Any:
        if type(value) is not str:
            raise _mismatch("a path", value)
        return cls(value)
    return Codec(encode, decode)


def _union_codec(args: tuple) -> Codec:
    # Members the JSON cannot tell apart by itself: write tagged, check the member on read.
    allowed = tuple(typing.get_origin(a) or a for a in args)
    for member in args:
        _codec(member)  # registers the classes a member names

    def encode(value: Any) -> Any:
        if not isinstance(value, allowed):
            raise _mismatch(allowed, value)
        return _dynamic(value)

    def decode(value: Any) -> Any:
        result = _undynamic(value)
        if not isinstance(result, allowed):
            raise _mismatch(allowed, result)
        return result
    return Codec(encode, decode)


def _sequence_codec(kind: type, item: Codec) -> Codec:
    encode_item, decode_item, leaf = item

    def encode(value: Any) -> Any:
        if type(value) is not kind:
            raise _mismatch(kind.__name__, value)
        return [encode_item(v) for v in value]

    def decode(value: Any) -> Any:
        if type(value) is not list:
            raise _mismatch("a list", value)
        if leaf is not None:
            for v in value:
                if type(v) not in leaf:
                    raise _mismatch(leaf, v)
            return value if kind is list else kind(value)
        return kind([decode_item(v) for v in value])
    return Codec(encode, decode)


def _fixed_tuple_codec(items: list[Codec]) -> Codec:
    def encode(value: Any) -> Any:
        if type(value) is not tuple or len(value) != len(items):
            raise _mismatch(f"a tuple of {len(items)}", value)
        return [c.encode(v) for c, v in zip(items, value)]

    def decode(value: Any) -> Any:
        if type(value) is not list or len(value) != len(items):
            raise _mismatch(f"a list of {len(items)}", value)
        return tuple(c.decode(v) for c, v in zip(items, value))
    return Codec(encode, decode)


def _dict_codec(key: Any, value: Codec) -> Codec:
    encode_value, decode_value = value.encode, value.decode
    if key is str:  # a JSON object
        def encode(d: Any) -> Any:
            if type(d) is not dict or any(type(k) is not str for k in d):
                raise _mismatch("a dict with text keys", d)
            return {k: encode_value(v) for k, v in d.items()}

        def decode(j: Any) -> Any:
            if type(j) is not dict:
                raise _mismatch("an object", j)
            return {k: decode_value(v) for k, v in j.items()}
        return Codec(encode, decode)
    encode_key, decode_key = _codec(key)[:2]

    def encode_pairs(d: Any) -> Any:
        if type(d) is not dict:
            raise _mismatch("a dict", d)
        return [[encode_key(k), encode_value(v)] for k, v in d.items()]

    def decode_pairs(j: Any) -> Any:
        if type(j) is not list or any(type(p) is not list or len(p) != 2 for p in j):
            raise _mismatch("a list of pairs", j)
        return {decode_key(k): decode_value(v) for k, v in j}
    return Codec(encode_pairs, decode_pairs)


def _dataclass_codec(cls: type) -> Codec:
    """An array of the values of ``cls``'s fields, each by its own field's codec."""
    _register(cls)
    names: list[str] = []
    plan: list[tuple[tuple[type, ...] | None, Convert]] = []  # (leaf kinds, decode)
    encoders: list[Convert] = []
    by_keyword = False  # a keyword-only field: __init__ cannot take the values in order

    def encode(value: Any) -> Any:
        if type(value) is not cls:
            raise _mismatch(cls.__qualname__, value)
        return [enc(getattr(value, name)) for name, enc in zip(names, encoders)]

    def decode(value: Any) -> Any:
        if type(value) is not list or len(value) != len(plan):
            raise _mismatch(f"{cls.__qualname__} ({len(plan)} fields)", value)
        args = []
        for (leaf, dec), v in zip(plan, value):
            if leaf is None:
                args.append(dec(v))
            elif type(v) in leaf:
                args.append(v)
            else:
                raise _mismatch(leaf, v)
        return cls(**dict(zip(names, args))) if by_keyword else cls(*args)

    _CODECS[cls] = codec = Codec(encode, decode)  # first: a record may refer to itself
    try:
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if f.init:  # a field outside __init__ is derived: rebuilt by the class itself
                field_codec = (_lazy_questions_codec(hints[f.name]) if (cls, f.name) in _LAZY
                               else _codec(hints[f.name]))
                names.append(f.name)
                by_keyword = by_keyword or f.kw_only is True
                encoders.append(field_codec.encode)
                plan.append((field_codec.leaf, field_codec.decode))
    except BaseException:
        del _CODECS[cls]
        raise
    _FIELDS[cls.__qualname__] = names
    return codec


# A paper's questions go to a line of their own (``encode_bank``/``decode_bank``): the
# header holds their line's index and their totals, and reading it gives a LazyQuestions
# that decodes the line with the tuple's own codec.
_LAZY = {(Paper, "questions")}


def _lazy_questions_codec(tp: Any) -> Codec:
    inner = _codec(tp)
    encode_items, decode_items = inner.encode, inner.decode

    def encode(value: Any) -> Any:
        lines = _WRITING.get(None)
        if lines is None:
            raise TypeError("a paper's questions are written by encode_bank only")
        if type(value) is LazyQuestions:
            value = value[:]  # decodes: a cached bank written again
        line = _dumps(encode_items(value))  # checks it is a tuple of questions
        lines.append(line)
        return {"line": len(lines) - 1, **question_totals(value)._asdict()}

    def decode(value: Any) -> Any:
        source = _READING.get(None)
        if source is None:
            raise CacheMismatch("a paper's questions outside a bank cache")
        if type(value) is not dict or value.keys() != _LAZY_KEYS:
            raise _mismatch("a paper's question line", value)
        index, count, points, scorable, errata = (value[k] for k in ("line", *QuestionTotals._fields))
        if (type(index) is not int or not 0 <= index < len(source.lines)
                or index in source.taken):
            raise CacheMismatch(f"no question line {index!r} for this paper")
        if (type(count) is not int or count < 0 or type(errata) is not int
                or not 0 <= errata <= count or type(points) not in (int, float)
                or type(scorable) not in (int, float)):
            raise CacheMismatch("a paper's totals are damaged")
        source.taken.add(index)
        totals = QuestionTotals(count, points, scorable, errata)
        line = _Line(source, index, totals, decode_items)
        questions = LazyQuestions(count, totals, line)
        source.by_sequence[id(questions)] = line
        return questions
    return Codec(encode, decode)


# Tagged values, where the hints leave the type open: JSON null/bool/number/string/array are
# themselves; everything else is a one-key object naming what it is.
def _dynamic(value: Any) -> Any:
    kind = type(value)
    if kind in _PRIMITIVES:
        return value
    if kind is list:
        return [_dynamic(v) for v in value]
    if kind is tuple:
        return {"tuple": [_dynamic(v) for v in value]}
    if kind is dict:
        return {"dict": [[_dynamic(k), _dynamic(v)] for k, v in value.items()]}
    if isinstance(value, PurePath):
        return {"path": str(value)}
    if _CLASSES.get(kind.__qualname__) is kind:
        return {"record": [kind.__qualname__, _codec(kind).encode(value)]}
    raise TypeError(f"the bank cache cannot store a {kind.__qualname__} where the model's "
                    "types leave the type open")


def _undynamic(value: Any) -> Any:
    kind = type(value)
    if kind in _PRIMITIVES:
        return value
    if kind is list:
        return [_undynamic(v) for v in value]
    if kind is not dict or len(value) != 1:
        raise _mismatch("a tagged value", value)
    ((tag, body),) = value.items()
    if tag == "tuple" and type(body) is list:
        return tuple(_undynamic(v) for v in body)
    if tag == "dict" and type(body) is list and all(
            type(p) is list and len(p) == 2 for p in body):
        return {_undynamic(k): _undynamic(v) for k, v in body}
    if tag == "path" and type(body) is str:
        return Path(body)
    if tag == "record" and type(body) is list and len(body) == 2 and body[0] in _CLASSES:
        return _codec(_CLASSES[body[0]]).decode(body[1])
    raise CacheMismatch(f"unknown tagged value {tag!r}")


_DYNAMIC = Codec(_dynamic, _undynamic)
