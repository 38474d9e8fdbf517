"""The search index: a cache database of the bank's text with an FTS5 ``trigram`` index.

The bank is files, so its index is not progress: it lives in its own SQLite file in the
data folder's cache (``paths.search_index_path``), and is rebuilt, paper by paper, whenever a
paper's indexed text changes (``search.refresh_index`` compares a digest per paper). A
damaged, unreadable or older-format file is deleted and built again; where the folder is
not writable the index lives in memory. The learner's notes stay in the progress database
(``store_study.note_texts``) and are searched there.

Tables: ``questions`` (one row per question: ids and filters, each text field, and
``haystack``, all fields lower-cased for the substring scan), ``questions_fts`` (FTS5,
external content over ``questions``' text fields, kept in sync by triggers; created with
sqlite-utils' ``enable_fts(..., tokenize="trigram", create_triggers=True)``),
``question_topics`` and ``papers`` (digest per paper). Part of the store: the only SQL of
search. Thread-safe: one lock around the connection (the desktop calls it from the store
thread, a rebuild may run beside it).
"""
from __future__ import annotations

import logging
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Sequence

log = logging.getLogger(__name__)

__all__ = ["INDEX_FORMAT", "FIELDS", "WEIGHTS", "SearchIndex", "IndexedRow"]

INDEX_FORMAT = 3  # bump when the tables or what goes in them change: old files are rebuilt
# topic: the question's topic tags, as text (显存估算 finds its ten questions, whose text
# never says it)
FIELDS = ("stem", "options", "answer", "explanation", "errata", "code", "topic")
WEIGHTS = (10.0, 4.0, 4.0, 2.0, 2.0, 1.0, 3.0)  # bm25 column weights: a stem match first
# haystack: every field lower-cased, joined by newlines; stem_end / key_end: where the stem
# and the options + key end in it (the substring scan ranks a stem match first)
_COLUMNS = ("question_id", "paper_id", "number", "type", "status", *FIELDS, "haystack",
            "stem_end", "key_end")


@dataclass(frozen=True)
class IndexedRow:
    """A stored question: ids, filters and its text fields (for the snippet)."""

    row_id: int
    question_id: str
    paper_id: str
    number: int
    type: str
    status: str
    fields: dict[str, str]


def _in_list(values: Sequence) -> str:
    return "(" + ", ".join("?" * len(values)) + ")"


class SearchIndex:
    """The index file (``path``; None: in memory). Opened on first use."""

    def __init__(self, path: Path | None = None):
        self.path = None if path is None else Path(path)
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self.indexed_bank = None  # weak reference to the bank last made current (search.py)
        self._scan_cache: tuple[list[str], list[tuple]] | None = None

    # --- opening ------------------------------------------------------------------------
    @property
    def lock(self) -> threading.RLock:
        return self._lock

    def _connect(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        if self.path is None:
            self._conn = self._create(sqlite3.connect(":memory:", check_same_thread=False))
            return self._conn
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(str(self.path), check_same_thread=False)
            if self._format(conn) != INDEX_FORMAT:
                conn.close()
                self._delete_files()
                conn = sqlite3.connect(str(self.path), check_same_thread=False)
                self._create(conn)
            else:
                self._configure(conn)
        except (sqlite3.Error, OSError) as exc:
            # a cache: damaged or not writable means build it again, in memory at worst
            log.warning("search index %s unusable (%s): rebuilding", self.path, exc)
            try:
                self._delete_files()
                conn = self._create(sqlite3.connect(str(self.path), check_same_thread=False))
            except (sqlite3.Error, OSError) as again:
                log.warning("search index kept in memory: %s", again)
                conn = self._create(sqlite3.connect(":memory:", check_same_thread=False))
        self._conn = conn
        return conn

    def _delete_files(self) -> None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    @staticmethod
    def _format(conn: sqlite3.Connection) -> int | None:
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        except sqlite3.OperationalError:  # a new file (no meta table) or not an index
            return None
        return int(row[0]) if row else None

    @staticmethod
    def _configure(conn: sqlite3.Connection) -> None:
        conn.isolation_level = None  # transactions are explicit (``transaction``)
        # a cache: WAL survives an app kill; after a power cut a damaged file is rebuilt
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=OFF")

    def _create(self, conn: sqlite3.Connection) -> sqlite3.Connection:
        import sqlite_utils

        self._configure(conn)
        db = sqlite_utils.Database(conn)
        db["questions"].create({"id": int, **{c: str for c in _COLUMNS}, "number": int,
                                "stem_end": int, "key_end": int}, pk="id")
        db["questions"].create_index(["question_id"], unique=True)
        db["questions"].create_index(["paper_id", "number"])
        db["question_topics"].create({"row_id": int, "topic": str})
        db["question_topics"].create_index(["topic", "row_id"])
        db["question_topics"].create_index(["row_id"])
        db["papers"].create({"paper_id": str, "digest": str}, pk="paper_id")
        # sqlite-utils writes the FTS5 DDL (external content on ``questions``) and its
        # insert/update/delete triggers; the trigram tokenizer makes it substring search
        db["questions"].enable_fts(list(FIELDS), tokenize="trigram", create_triggers=True)
        weights = ", ".join(f"{w:g}" for w in WEIGHTS)
        conn.execute("INSERT INTO questions_fts (questions_fts, rank) VALUES ('rank', ?)",
                     [f"bm25({weights})"])
        db["meta"].insert({"key": "format", "value": str(INDEX_FORMAT)}, pk="key")
        return conn

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            self._scan_cache = None

    # --- writing ------------------------------------------------------------------------
    def digests(self) -> dict[str, str]:
        with self._lock:
            return {r[0]: r[1] for r in self._connect().execute(
                "SELECT paper_id, digest FROM papers")}

    def replace_papers(self, documents: dict[str, tuple[str, list[dict]]],
                       removed: Iterable[str] = ()) -> None:
        """In one transaction: drop the rows of the papers in ``documents`` and of
        ``removed``, insert ``documents`` (paper id -> (digest, rows)). A row is a dict of
        ``_COLUMNS`` plus ``topics`` (a list)."""
        with self._lock:
            conn = self._connect()
            conn.execute("BEGIN IMMEDIATE")
            try:
                for paper_id in [*documents, *removed]:
                    conn.execute("DELETE FROM question_topics WHERE row_id IN "
                                 "(SELECT id FROM questions WHERE paper_id = ?)", [paper_id])
                    conn.execute("DELETE FROM questions WHERE paper_id = ?", [paper_id])
                    conn.execute("DELETE FROM papers WHERE paper_id = ?", [paper_id])
                insert = (f"INSERT INTO questions ({', '.join(_COLUMNS)}) "
                          f"VALUES ({', '.join('?' * len(_COLUMNS))})")
                for paper_id, (digest, rows) in documents.items():
                    for row in rows:
                        row_id = conn.execute(insert, [row[c] for c in _COLUMNS]).lastrowid
                        conn.executemany(
                            "INSERT INTO question_topics (row_id, topic) VALUES (?, ?)",
                            [(row_id, t) for t in row["topics"]])
                    conn.execute("INSERT INTO papers (paper_id, digest) VALUES (?, ?)",
                                 [paper_id, digest])
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            finally:
                self._scan_cache = None

    # --- reading ------------------------------------------------------------------------
    @staticmethod
    def _filters(paper_ids: Sequence[str], types: Sequence[str], statuses: Sequence[str],
                 topics: Sequence[str], contains: Sequence[str]) -> tuple[list[str], list]:
        where: list[str] = []
        params: list = []
        for column, values in (("q.paper_id", paper_ids), ("q.type", types),
                               ("q.status", statuses)):
            if values:
                where.append(f"{column} IN {_in_list(values)}")
                params += list(values)
        if topics:
            where.append(f"q.id IN (SELECT row_id FROM question_topics WHERE topic IN "
                         f"{_in_list(topics)})")
            params += list(topics)
        for needle in contains:  # short terms (< 3 characters): a substring test
            where.append("instr(q.haystack, ?) > 0")
            params.append(needle)
        return where, params

    def match(self, fts_query: str, *, contains: Sequence[str] = (),
              paper_ids: Sequence[str] = (), types: Sequence[str] = (),
              statuses: Sequence[str] = (), topics: Sequence[str] = (),
              limit: int = 50) -> tuple[list[int], int]:
        """FTS5 ``MATCH`` (bm25 with ``WEIGHTS``): (row ids best first, how many matched).
        One query: ranking needs every match scored anyway, so the count is its length."""
        where, params = self._filters(paper_ids, types, statuses, topics, contains)
        if where:
            sql = ("SELECT q.id FROM questions_fts JOIN questions q "
                   "ON q.id = questions_fts.rowid WHERE questions_fts MATCH ?"
                   + "".join(f" AND {w}" for w in where) + " ORDER BY rank")
        else:
            sql = "SELECT rowid FROM questions_fts WHERE questions_fts MATCH ? ORDER BY rank"
        with self._lock:
            ids = [r[0] for r in self._connect().execute(sql, [fts_query, *params])]
        return ids[:limit], len(ids)

    def _scan_rows(self) -> tuple[list[str], list[tuple]]:
        """(haystacks, their rows' (id, paper id, type, status, topics, stem_end, key_end)),
        by paper and number, kept in memory (~1 MB per 1,000 questions) until the index
        changes."""
        if self._scan_cache is None:
            topics: dict[int, set[str]] = {}
            conn = self._connect()
            for row_id, topic in conn.execute("SELECT row_id, topic FROM question_topics"):
                topics.setdefault(row_id, set()).add(topic)
            hays, meta = [], []
            for r in conn.execute("SELECT id, paper_id, type, status, stem_end, key_end, "
                                  "haystack FROM questions ORDER BY paper_id, number"):
                hays.append(r[6])
                meta.append((r[0], r[1], r[2], r[3], frozenset(topics.get(r[0], ())), r[4],
                             r[5]))
            self._scan_cache = (hays, meta)
        return self._scan_cache

    def warm(self) -> None:
        """Load what the substring scan reads (after a refresh, off the first search)."""
        with self._lock:
            self._scan_rows()

    def scan(self, needles: Sequence[str], *, paper_ids: Sequence[str] = (),
             types: Sequence[str] = (), statuses: Sequence[str] = (),
             topics: Sequence[str] = (), limit: int = 50) -> tuple[list[int], int]:
        """Every needle a substring of the lower-cased text: for terms under 3 characters,
        which trigrams cannot index. Stem matches first, then options and key, then the
        rest (by where the first needle is in ``haystack``), then by paper and number.

        In Python over the text kept in memory: ``in`` is ~5× faster than SQLite's
        ``instr``/``LIKE`` over the same rows (measured: 2 vs 9–11 ms for 5,000 questions;
        bench: search_short_terms_p95)."""
        first, rest = needles[0], needles[1:]
        with self._lock:
            hays, meta = self._scan_rows()
        hits = [i for i, hay in enumerate(hays) if first in hay]
        for needle in rest:
            hits = [i for i in hits if needle in hays[i]]
        if paper_ids or types or statuses or topics:
            papers, kinds, states, wanted = (set(paper_ids), set(types), set(statuses),
                                             set(topics))
            hits = [i for i in hits if (not papers or meta[i][1] in papers)
                    and (not kinds or meta[i][2] in kinds)
                    and (not states or meta[i][3] in states)
                    and (not wanted or meta[i][4] & wanted)]

        def field_rank(i: int) -> int:
            at = hays[i].find(first)
            return 0 if at < meta[i][5] else 1 if at < meta[i][6] else 2

        ranked = sorted(hits, key=field_rank)  # stable: by paper and number within a rank
        return [meta[i][0] for i in ranked[:limit]], len(hits)

    def rows(self, row_ids: Sequence[int]) -> list[IndexedRow]:
        """The stored rows, in the order of ``row_ids``."""
        if not row_ids:
            return []
        with self._lock:
            found = {r[0]: r for r in self._connect().execute(
                f"SELECT id, question_id, paper_id, number, type, status, "
                f"{', '.join(FIELDS)} FROM questions WHERE id IN {_in_list(row_ids)}",
                list(row_ids))}
        out = []
        for row_id in row_ids:
            r = found[row_id]
            out.append(IndexedRow(r[0], r[1], r[2], r[3], r[4], r[5],
                                  dict(zip(FIELDS, r[6:]))))
        return out

    def count(self) -> int:
        with self._lock:
            return self._connect().execute("SELECT COUNT(*) FROM questions").fetchone()[0]

    def iter_haystacks(self) -> Iterator[tuple[str, str]]:
        """(question id, haystack) of every row (tests and the bench's baseline)."""
        with self._lock:
            rows = self._connect().execute("SELECT question_id, haystack FROM questions")
            yield from rows.fetchall()
