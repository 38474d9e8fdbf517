"""Full-text search over the bank and the learner's notes, Chinese-aware. No Qt.

What is searched, per question: the stem, the options, the key (choice letters, accepted
fill-in answers, numeric results, reference answer, rubric items), the explanation, the
errata, the code a learner sees (reference, starter and seed files) and its topic tags; and
the learner's own note on it.

How: the bank's text is in an FTS5 index with the ``trigram`` tokenizer
(``store_search.SearchIndex``): every substring of three or more characters is found,
whatever the language, so ``梯度检查点`` inside a sentence and ``flash_attn_func`` inside
code both match without a word segmenter. A term of one or two characters (``显存``) has no
trigram: it becomes a substring test over the lower-cased text (``instr``), on the rows the
longer terms matched or, when every term is short, on all of them (bench: search_p95).
Several terms (split at spaces; ``"…"`` keeps a phrase) must all occur. Notes live in the
progress database and are few: they are scanned. A question matching in its note comes
first, then the bank's matches by bm25 (stem matches weighted highest).

A hit carries its question id, the field it matched in and a snippet with the matched
spans (built here for both paths, so both highlight alike). The index is made current with
``refresh_index``: a digest of each paper's indexed text is compared with the stored one and
only changed papers are written again (an edited TOML is found on the next search).
"""
from __future__ import annotations

import hashlib
import json
import re
import time
import weakref
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from . import store_study as note_rows
from .enums import QuestionType
from .model import Bank, Paper, Question
from .store import ProgressStore
from .store_search import FIELDS, SearchIndex

__all__ = ["MIN_TRIGRAM", "Snippet", "SearchHit", "SearchResults", "IndexRefresh",
           "parse_query", "documents", "refresh_index", "search", "make_snippet",
           "lowered"]

MIN_TRIGRAM = 3  # the trigram tokenizer indexes substrings of 3+ characters
SNIPPET_CHARS = 80
NOTE_FIELD = "note"
_SPACE = re.compile(r"\s+")
_TERM = re.compile(r'"([^"]+)"|(\S+)')


def lowered(text: str) -> str:
    """Lower case, one character for one (so positions in it are positions in ``text``):
    ``str.lower`` unless it changes the length (a few letters, e.g. 'İ', lower to two)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(cl := c.lower()) != 1 else cl for c in text)


def parse_query(text: str) -> list[str]:
    """Terms of a query: split at whitespace, ``"quoted phrases"`` kept whole, repeats
    dropped, order kept."""
    terms = [m.group(1) or m.group(2) for m in _TERM.finditer(text or "")]
    return list(dict.fromkeys(t.strip() for t in terms if t.strip()))


# --- what goes in the index ----------------------------------------------------------------
def _key_text(q: Question) -> str:
    parts: list[str] = []
    if q.type in (QuestionType.SINGLE_CHOICE, QuestionType.MULTIPLE_CHOICE):
        keys = [q.answer] if isinstance(q.answer, str) else list(q.answer or [])
        parts += [f"{k}. {q.options.get(k, '')}" if q.options else k for k in keys]
    elif q.type == QuestionType.FILL_BLANK:
        parts += [" / ".join(v) for v in (q.answer or [])]
    elif q.type in (QuestionType.SHORT_ANSWER, QuestionType.SYSTEM_DESIGN):
        parts.append(q.answer or "")
    parts += [f"{p.label} {p.value:g} {p.unit}".strip() for p in q.parts]
    parts.append(q.reference_answer)
    parts += [r.text for r in q.rubric]
    return "\n".join(p for p in parts if p)


def _code_text(q: Question) -> str:
    if q.code is None:
        return ""
    texts = []
    for which in ("reference", "starter", "seed"):
        try:
            texts.append(q.code.read(which))
        except (OSError, UnicodeDecodeError):  # vanished since the bank loaded
            continue
    return "\n".join(t for t in dict.fromkeys(texts) if t)


def document(q: Question) -> dict:
    """The index row of one question."""
    options = "\n".join(f"{k}. {v}" for k, v in (q.options or {}).items())
    fields = {"stem": q.stem, "options": options, "answer": _key_text(q),
              "explanation": q.explanation, "errata": q.errata, "code": _code_text(q),
              "topic": " · ".join(q.topics)}
    stem_end = len(fields["stem"])
    key_end = stem_end + 1 + len(fields["options"]) + 1 + len(fields["answer"])
    return {"question_id": q.id, "paper_id": q.paper_id, "number": q.number,
            "type": str(q.type), "status": str(q.status), "topics": list(q.topics),
            **fields, "haystack": lowered("\n".join(fields.values())),
            "stem_end": stem_end, "key_end": key_end}


def documents(paper: Paper) -> tuple[str, list[dict]]:
    """(digest of the indexed text, rows) of a paper."""
    rows = [document(q) for q in paper.questions]
    digest = hashlib.blake2b(json.dumps(rows, ensure_ascii=False, sort_keys=True).encode(),
                             digest_size=16).hexdigest()
    return digest, rows


@dataclass(frozen=True)
class IndexRefresh:
    """What ``refresh_index`` did."""

    papers_written: tuple[str, ...]
    papers_removed: tuple[str, ...]
    questions: int  # rows in the index afterwards
    seconds: float
    checked: bool = True  # False: the same bank object was made current before: no work


def refresh_index(index: SearchIndex, bank: Bank, *, force: bool = False) -> IndexRefresh:
    """Make the index hold ``bank``'s text: papers whose digest changed are written again,
    papers no longer in the bank are removed. Once done for a bank object, calling it again
    with the same object costs nothing (a reloaded bank is a new object; ``force`` checks
    anyway)."""
    start = time.perf_counter()
    with index.lock:
        if not force and index.indexed_bank is not None and index.indexed_bank() is bank:
            return IndexRefresh((), (), index.count(), time.perf_counter() - start, False)
        stored = index.digests()
        current = {p.id: documents(p) for p in bank.papers}
        changed = {pid: doc for pid, doc in current.items() if stored.get(pid) != doc[0]}
        removed = tuple(sorted(set(stored) - set(current)))
        if changed or removed:
            index.replace_papers(changed, removed)
        index.warm()  # the first short-term search should not pay for loading the text
        index.indexed_bank = weakref.ref(bank)
        return IndexRefresh(tuple(changed), removed, index.count(),
                            time.perf_counter() - start)


# --- results -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Snippet:
    """A short piece of a field, single-line, with the matched spans (start, end)."""

    text: str
    spans: tuple[tuple[int, int], ...] = ()

    def marked(self, before: str, after: str,
               escape: Callable[[str], str] = lambda s: s) -> str:
        """The text with ``before``/``after`` around each match, the rest ``escape``d
        (``html.escape`` and ``<b>``/``</b>`` for a rich-text label)."""
        out, at = [], 0
        for start, end in self.spans:
            out += [escape(self.text[at:start]), before, escape(self.text[start:end]), after]
            at = end
        out.append(escape(self.text[at:]))
        return "".join(out)


@dataclass(frozen=True)
class SearchHit:
    question_id: str
    paper_id: str
    number: int
    type: str
    status: str
    field: str  # where the snippet comes from: stem, options, answer, explanation,
    #             errata, code or note
    snippet: Snippet
    in_note: bool = False  # the learner's note matched too (or only it)


@dataclass(frozen=True)
class SearchResults:
    query: str
    terms: tuple[str, ...]
    hits: tuple[SearchHit, ...]
    total: int  # matches before ``limit`` (bank matches counted by the index, plus notes)
    substring_scan: bool = False  # every term was under 3 characters: no index was used
    seconds: float = 0.0
    refreshed: IndexRefresh | None = field(default=None, compare=False)


def _spans(low: str, needles: Sequence[str], start: int, end: int) -> list[tuple[int, int]]:
    spans = []
    for needle in needles:
        at = low.find(needle, start)
        while at != -1 and at < end:
            spans.append((max(at, start), min(at + len(needle), end)))
            at = low.find(needle, at + 1)
    merged: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def make_snippet(text: str, needles: Sequence[str], width: int = SNIPPET_CHARS) -> Snippet:
    """``width`` characters around the first match of any (lower-case) needle, whitespace
    collapsed, with every match in it marked; '…' where it was cut."""
    flat = _SPACE.sub(" ", text).strip()
    low = lowered(flat)
    firsts = [i for i in (low.find(n) for n in needles) if i != -1]
    first = min(firsts) if firsts else 0
    start = max(0, min(first - width // 3, len(flat) - width))
    end = min(len(flat), start + width)
    spans = [(s - start, e - start) for s, e in _spans(low, needles, start, end)]
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(flat) else ""
    shift = len(prefix)
    return Snippet(prefix + flat[start:end] + suffix,
                   tuple((s + shift, e + shift) for s, e in spans))


def _readable(field_name: str, text: str, needles: Sequence[str]) -> str:
    """The part of a field a snippet is cut from, as the learner reads it: Markdown's
    words without its marks (``**``, backticks, ``#``, list and table syntax); code and
    tags as they are. Only the lines around the first match are converted (~0.2 ms a
    whole field: 50 hits shown)."""
    if field_name in ("code", "topic") or not text:
        return text
    from .interchange.markup import plain_text  # for the hits shown only

    low = lowered(text)
    first = min((i for i in (low.find(n) for n in needles) if i != -1), default=0)
    start = text.rfind("\n", 0, max(0, first - 2 * SNIPPET_CHARS)) + 1
    end = text.find("\n", first + 4 * SNIPPET_CHARS)
    return ("… " if start else "") + plain_text(text[start:end if end != -1 else None])


def _best_field(fields: dict[str, str], needles: Sequence[str]) -> str:
    """The field holding the most terms; on a tie the first in ``FIELDS`` order."""
    def held(name: str) -> int:
        low = (fields.get(name) or "").lower()
        return sum(1 for n in needles if n in low)

    return max(FIELDS, key=lambda name: (held(name), -FIELDS.index(name)))


def _note_matches(store: ProgressStore, needles: Sequence[str]) -> dict[str, str]:
    """Notes holding every (lower-case) needle. SQLite filters by the needles it can test
    exactly (no letters with case: as written; ASCII: after its ASCII ``lower``); Python
    checks every needle on what comes back."""
    caseless = [n for n in needles if n.upper() == n]
    folded = [n for n in needles if n not in caseless and n.isascii()]
    found = {}
    for qid, text in note_rows.note_texts(store, caseless=caseless, ascii_folded=folded):
        low = text.lower()
        if all(n in low for n in needles):
            found[qid] = text
    return found


def search(store: ProgressStore, index: SearchIndex, bank: Bank, query: str, *,
           paper_ids: Iterable[str] = (), types: Iterable[str] = (),
           statuses: Iterable[str] = (), topics: Iterable[str] = (),
           include_notes: bool = True, limit: int = 50) -> SearchResults:
    """Questions whose text (or note) holds every term of ``query``, filtered by paper, type,
    status (``draft`` for imported ones) and topic (any of them)."""
    start = time.perf_counter()
    terms = parse_query(query)
    if not terms:
        return SearchResults(query, (), (), 0)
    refreshed = refresh_index(index, bank)
    filters = {"paper_ids": list(paper_ids), "types": [str(t) for t in types],
               "statuses": [str(s) for s in statuses], "topics": list(topics)}
    needles = [lowered(t) for t in terms]
    long_terms = [t for t in terms if len(t) >= MIN_TRIGRAM]
    short = [lowered(t) for t in terms if len(t) < MIN_TRIGRAM]
    if long_terms:
        fts = " AND ".join('"' + t.replace('"', '""') + '"' for t in long_terms)
        row_ids, total = index.match(fts, contains=short, limit=limit, **filters)
    else:
        row_ids, total = index.scan(short, limit=limit, **filters)
    rows = index.rows(row_ids)

    hits: list[SearchHit] = []
    notes = _note_matches(store, needles) if include_notes else {}
    by_id = _questions_by_id(bank) if notes else {}
    noted: set[str] = set()
    for qid, text in notes.items():
        q = by_id.get(qid)
        if q is None or not _passes(q, filters):
            continue
        noted.add(qid)
        if len(hits) < limit:  # snippets only for what is shown
            hits.append(SearchHit(qid, q.paper_id, q.number, str(q.type), str(q.status),
                                  NOTE_FIELD,
                                  make_snippet(_readable(NOTE_FIELD, text, needles), needles),
                                  in_note=True))
    total += len(noted)
    for row in rows:
        if row.question_id in noted:
            total -= 1  # counted once, as the note hit
            continue
        if len(hits) >= limit:
            break
        name = _best_field(row.fields, needles)
        hits.append(SearchHit(row.question_id, row.paper_id, row.number, row.type,
                              row.status, name, make_snippet(
                                  _readable(name, row.fields[name], needles), needles)))
    return SearchResults(query, tuple(terms), tuple(hits), total,
                         substring_scan=not long_terms,
                         seconds=time.perf_counter() - start, refreshed=refreshed)


_BY_ID: list = [None, {}]  # (weak reference to a bank, its questions by id)


def _questions_by_id(bank: Bank) -> dict[str, Question]:
    """The bank's questions by id, built once per bank object (5,000 questions: ~1 ms)."""
    if _BY_ID[0] is None or _BY_ID[0]() is not bank:
        _BY_ID[:] = [weakref.ref(bank), {q.id: q for q in bank.all_questions()}]
    return _BY_ID[1]


def _passes(q: Question, filters: dict[str, list[str]]) -> bool:
    return ((not filters["paper_ids"] or q.paper_id in filters["paper_ids"])
            and (not filters["types"] or q.type in filters["types"])
            and (not filters["statuses"] or q.status in filters["statuses"])
            and (not filters["topics"] or bool(set(filters["topics"]) & set(q.topics))))
