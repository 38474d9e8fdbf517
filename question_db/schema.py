"""The progress database's schema: DDL, numbered migrations and ``SCHEMA_VERSION``.

A leaf module (stdlib only): the store, recovery, backups and progress import read the
version without pulling in each other. Migration N takes a file at version N-1 to version
N. Never edit a shipped step: append a new one. The CHECK constraints of shipped steps spell
their vocabularies out, as they were when shipped; queries take theirs from ``enums``.
"""
from __future__ import annotations

import sqlite3
from typing import Callable

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "statements"]

# sqlite-utils' ``Migrations`` records migrations by name in its own table and ignores names
# it does not know, so it cannot tell a too-new file from an old one; a version number can.
# Migration N takes a file at version N-1 to version N. Never edit a shipped step: append.
_V1 = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    paper_id TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('practice', 'exam')),
    state TEXT NOT NULL CHECK (state IN ('active', 'submitted', 'auto_submitted', 'abandoned')),
    started_at REAL NOT NULL,
    deadline REAL,
    finished_at REAL,
    score REAL,
    max_score REAL
);
CREATE INDEX sessions_by_paper ON sessions (paper_id, started_at);
CREATE INDEX sessions_by_state ON sessions (mode, state);

-- every submit is a row: the history is never overwritten
CREATE TABLE answers (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    question_id TEXT NOT NULL,
    response TEXT NOT NULL,      -- JSON
    grade TEXT,                  -- JSON of Grade.to_json(), NULL until graded
    seconds REAL NOT NULL,       -- running total spent on the question in this session
    created_at REAL NOT NULL
);
CREATE INDEX answers_by_session ON answers (session_id, question_id, id);

-- what is on screen, saved while typing: one row per (session, question)
CREATE TABLE drafts (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    question_id TEXT NOT NULL,
    response TEXT NOT NULL,      -- JSON
    seconds REAL NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (session_id, question_id)
);

CREATE TABLE flags (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    question_id TEXT NOT NULL,
    PRIMARY KEY (session_id, question_id)
);
"""

# v2: review scheduling (cards, reviews), per-question totals kept by triggers so the
# dashboard reads ~100 rows instead of scanning every answer, uids for export/import merges.
_V2 = """
ALTER TABLE sessions ADD COLUMN uid TEXT;
UPDATE sessions SET uid = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX sessions_by_uid ON sessions (uid);

ALTER TABLE answers ADD COLUMN uid TEXT;
ALTER TABLE answers ADD COLUMN verdict TEXT;
ALTER TABLE answers ADD COLUMN points REAL;
ALTER TABLE answers ADD COLUMN max_points REAL;
UPDATE answers SET uid = lower(hex(randomblob(16))),
    verdict = json_extract(grade, '$.verdict'),
    points = json_extract(grade, '$.points'),
    max_points = json_extract(grade, '$.max_points');
CREATE UNIQUE INDEX answers_by_uid ON answers (uid);

-- one row per question ever answered; maintained by the triggers below
CREATE TABLE question_totals (
    question_id TEXT PRIMARY KEY,
    attempts INTEGER NOT NULL DEFAULT 0,   -- submitted answers
    graded INTEGER NOT NULL DEFAULT 0,     -- with a verdict correct/partial/wrong
    correct INTEGER NOT NULL DEFAULT 0,
    points REAL NOT NULL DEFAULT 0,        -- over graded answers
    max_points REAL NOT NULL DEFAULT 0,
    visits INTEGER NOT NULL DEFAULT 0,     -- (session, question) pairs
    seconds REAL NOT NULL DEFAULT 0        -- time spent over all visits
);
INSERT INTO question_totals (question_id, attempts, graded, correct, points, max_points,
                             visits, seconds)
SELECT question_id, COUNT(*),
       SUM(verdict IN ('correct', 'partial', 'wrong')), SUM(verdict = 'correct'),
       SUM(CASE WHEN verdict IN ('correct', 'partial', 'wrong') THEN points ELSE 0 END),
       SUM(CASE WHEN verdict IN ('correct', 'partial', 'wrong') THEN max_points ELSE 0 END),
       COUNT(DISTINCT session_id), 0
FROM answers GROUP BY question_id;
UPDATE question_totals SET seconds = (SELECT COALESCE(SUM(s), 0) FROM (
    SELECT MAX(seconds) AS s FROM answers a WHERE a.question_id = question_totals.question_id
    GROUP BY a.session_id));

CREATE TRIGGER answers_totals_insert AFTER INSERT ON answers BEGIN
    INSERT INTO question_totals (question_id) VALUES (NEW.question_id)
        ON CONFLICT (question_id) DO NOTHING;
    UPDATE question_totals SET
        attempts = attempts + 1,
        graded = graded + (COALESCE(NEW.verdict IN ('correct', 'partial', 'wrong'), 0)),
        correct = correct + (COALESCE(NEW.verdict = 'correct', 0)),
        points = points + CASE WHEN NEW.verdict IN ('correct', 'partial', 'wrong')
                          THEN COALESCE(NEW.points, 0) ELSE 0 END,
        max_points = max_points + CASE WHEN NEW.verdict IN ('correct', 'partial', 'wrong')
                                 THEN COALESCE(NEW.max_points, 0) ELSE 0 END,
        visits = visits + NOT EXISTS (SELECT 1 FROM answers WHERE session_id = NEW.session_id
                                      AND question_id = NEW.question_id AND id < NEW.id),
        seconds = seconds + MAX(0, NEW.seconds - COALESCE((SELECT MAX(seconds) FROM answers
                  WHERE session_id = NEW.session_id AND question_id = NEW.question_id
                  AND id < NEW.id), 0))
    WHERE question_id = NEW.question_id;
END;

CREATE TRIGGER answers_totals_regrade AFTER UPDATE OF verdict, points, max_points ON answers
BEGIN
    UPDATE question_totals SET
        graded = graded - (COALESCE(OLD.verdict IN ('correct', 'partial', 'wrong'), 0))
                        + (COALESCE(NEW.verdict IN ('correct', 'partial', 'wrong'), 0)),
        correct = correct - (COALESCE(OLD.verdict = 'correct', 0))
                          + (COALESCE(NEW.verdict = 'correct', 0)),
        points = points - CASE WHEN OLD.verdict IN ('correct', 'partial', 'wrong')
                          THEN COALESCE(OLD.points, 0) ELSE 0 END
                        + CASE WHEN NEW.verdict IN ('correct', 'partial', 'wrong')
                          THEN COALESCE(NEW.points, 0) ELSE 0 END,
        max_points = max_points - CASE WHEN OLD.verdict IN ('correct', 'partial', 'wrong')
                                  THEN COALESCE(OLD.max_points, 0) ELSE 0 END
                                + CASE WHEN NEW.verdict IN ('correct', 'partial', 'wrong')
                                  THEN COALESCE(NEW.max_points, 0) ELSE 0 END
    WHERE question_id = NEW.question_id;
END;

-- FSRS card per question (fsrs.Card.to_json()), a cache of replaying its reviews
CREATE TABLE cards (
    question_id TEXT PRIMARY KEY,
    card TEXT NOT NULL,
    due REAL NOT NULL,
    mastered_at REAL                      -- set by the learner; a later miss reopens it
);
CREATE INDEX cards_by_due ON cards (due);

CREATE TABLE reviews (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    question_id TEXT NOT NULL,
    answer_uid TEXT,                      -- the answer this outcome came from
    rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),
    missed INTEGER NOT NULL,              -- lands the question in the wrong-answer book
    source TEXT NOT NULL CHECK (source IN ('auto', 'override')),
    reviewed_at REAL NOT NULL
);
CREATE INDEX reviews_by_question ON reviews (question_id, reviewed_at);

-- per-question review summary for the wrong-answer book, kept by the triggers below
CREATE TABLE question_reviews (
    question_id TEXT PRIMARY KEY,
    reviews INTEGER NOT NULL DEFAULT 0,
    misses INTEGER NOT NULL DEFAULT 0,
    last_missed_at REAL
);

CREATE TRIGGER reviews_totals_insert AFTER INSERT ON reviews BEGIN
    INSERT INTO question_reviews (question_id) VALUES (NEW.question_id)
        ON CONFLICT (question_id) DO NOTHING;
    UPDATE question_reviews SET
        reviews = reviews + 1,
        misses = misses + NEW.missed,
        last_missed_at = CASE WHEN NEW.missed = 1 AND (last_missed_at IS NULL
                              OR NEW.reviewed_at > last_missed_at)
                         THEN NEW.reviewed_at ELSE last_missed_at END
    WHERE question_id = NEW.question_id;
END;

CREATE TRIGGER reviews_totals_update AFTER UPDATE OF missed ON reviews BEGIN
    UPDATE question_reviews SET
        misses = misses - OLD.missed + NEW.missed,
        last_missed_at = (SELECT MAX(reviewed_at) FROM reviews
                          WHERE question_id = NEW.question_id AND missed = 1)
    WHERE question_id = NEW.question_id;
END;

CREATE TABLE mastery (
    question_id TEXT NOT NULL,
    mastered_at REAL NOT NULL,
    PRIMARY KEY (question_id, mastered_at)
);

CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

# v3 "check_attempts": every run of a programming question's checks keeps the code it ran on
# and the results (the workspace's attempt history: open or diff an earlier attempt), and an
# exam remembers whether it is open book (checks and the console during the exam) or closed
# book (the default: checks run after submission). Migration number and name agreed for the
# merge with the study-modes branch; renumber here, never edit a shipped step.
_V3 = """
CREATE TABLE check_attempts (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    question_id TEXT NOT NULL,
    code TEXT NOT NULL,
    checks TEXT NOT NULL,        -- JSON list of the check result dicts, in run order
    error TEXT,                  -- why there is no verdict (kernel died, ...), else NULL
    passed INTEGER NOT NULL,     -- required checks passed
    required INTEGER NOT NULL,   -- required checks run
    created_at REAL NOT NULL
);
CREATE INDEX check_attempts_by_question ON check_attempts (question_id, created_at);

ALTER TABLE sessions ADD COLUMN open_book INTEGER NOT NULL DEFAULT 0;
"""


def statements(script: str) -> list[str]:
    """Split a script into complete statements (trigger bodies contain ';')."""
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--"):
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    assert not buf.strip(), f"incomplete SQL statement: {buf[:80]}"
    return out


def _script(script: str) -> Callable[[sqlite3.Connection], None]:
    # Not executescript(): it COMMITs first, which would break a migration's atomicity.
    return lambda conn: [conn.execute(statement) for statement in statements(script)]


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_script(_V1), _script(_V2),
                                                           _script(_V3)]
SCHEMA_VERSION = len(MIGRATIONS)
