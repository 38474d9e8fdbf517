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

# v3: study modes (issue 15). Practice resumes where it was left (sessions.position); a
# practice run (a set, the wrong-answer book, today's reviews) is recorded with its
# question order so it can be continued; a composed mock exam (组卷) keeps the question list
# and points it started with, so it is resumed and reported identically however the bank
# changes; favourites and notes (kept, not deleted, when cleared: an older import must not
# bring them back); saved practice-set and mock-exam templates; self-rated reviews (Show
# answer, 背题, the review session) are reviews of their own kind, never answers, so the
# dashboard and the wrong-answer book count only graded answers; review sessions with their
# daily counts; a wrong-answer book entry put back by hand.
_V3 = """
CREATE TABLE practice_runs (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    spec TEXT,                      -- JSON of the practice set it came from; NULL: chosen
    created_at REAL NOT NULL        -- by hand (wrong-answer book, today's reviews)
);
CREATE TABLE run_questions (
    run_id INTEGER NOT NULL REFERENCES practice_runs (id),
    position INTEGER NOT NULL,      -- 0-based order in the run
    question_id TEXT NOT NULL,
    PRIMARY KEY (run_id, position)
);

ALTER TABLE sessions ADD COLUMN position TEXT;        -- the question on screen
ALTER TABLE sessions ADD COLUMN position_at REAL;     -- when it was put there
ALTER TABLE sessions ADD COLUMN run_id INTEGER REFERENCES practice_runs (id);
CREATE INDEX sessions_by_run ON sessions (run_id) WHERE run_id IS NOT NULL;

-- a mock exam's paper, fixed when it starts (the session's paper_id names no bank paper)
CREATE TABLE composed_exams (
    session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
    template_uid TEXT,              -- NULL: composed without a saved template
    title TEXT NOT NULL,
    spec TEXT NOT NULL              -- JSON of the spec it was composed from
);
CREATE TABLE composed_questions (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    position INTEGER NOT NULL,      -- the question's number in the composed paper (1-based)
    question_id TEXT NOT NULL,      -- the bank question: answers and reviews use this id
    type TEXT NOT NULL,
    points REAL NOT NULL,           -- as the template says, not as the source paper printed
    section TEXT NOT NULL,
    PRIMARY KEY (session_id, position)
);

CREATE TABLE templates (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('practice_set', 'mock_exam')),
    name TEXT NOT NULL,
    spec TEXT NOT NULL,             -- JSON
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);

CREATE TABLE favourites (
    question_id TEXT PRIMARY KEY,
    starred INTEGER NOT NULL CHECK (starred IN (0, 1)),  -- 0: unstarred (kept for merges)
    updated_at REAL NOT NULL
);

CREATE TABLE notes (
    question_id TEXT PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    text TEXT NOT NULL,             -- Markdown; '' = deleted (kept for merges)
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);

CREATE TABLE review_sessions (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    started_at REAL NOT NULL,
    finished_at REAL
);

-- answer: from a graded answer (all reviews before v3); reveal: "Show answer" without an
-- answer (Again); recite: 背题 knew it / didn't; review: rated in a review session
ALTER TABLE reviews ADD COLUMN kind TEXT NOT NULL DEFAULT 'answer'
    CHECK (kind IN ('answer', 'reveal', 'recite', 'review'));
ALTER TABLE reviews ADD COLUMN review_session_id INTEGER REFERENCES review_sessions (id);
ALTER TABLE reviews ADD COLUMN was_new INTEGER NOT NULL DEFAULT 0;  -- the question's first
ALTER TABLE reviews ADD COLUMN seconds REAL;                         -- time to the rating
CREATE INDEX reviews_by_review_session ON reviews (review_session_id)
    WHERE review_session_id IS NOT NULL;
CREATE INDEX reviews_rated_today ON reviews (reviewed_at) WHERE kind = 'review';

-- a question shown with its key in a session without being answered: one review each
CREATE TABLE session_seen (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    question_id TEXT NOT NULL,
    how TEXT NOT NULL CHECK (how IN ('revealed', 'recited')),
    review_uid TEXT NOT NULL,
    seen_at REAL NOT NULL,
    PRIMARY KEY (session_id, question_id)
);

-- put back into the wrong-answer book by hand: in the book again from returned_at
CREATE TABLE book_returns (
    question_id TEXT PRIMARY KEY,
    returned_at REAL NOT NULL
);
"""

# v4 "check_attempts": every run of a programming question's checks keeps the code it ran on
# and the results (the workspace's attempt history: open or diff an earlier attempt); an exam
# remembers whether it is open book (checks and the console during the exam) or closed book
# (the default: checks run after submission), and whether unverified (draft) questions count
# in its score (default: they do not; the learner chooses at the start).
_V4 = """
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
ALTER TABLE sessions ADD COLUMN include_drafts INTEGER NOT NULL DEFAULT 0;
"""


# v5 "incremental cards": a card records how many reviews it is the replay of, and any
# change to its question's reviews clears that (triggers), so a new review that sorts last
# extends a still-current card by one FSRS step instead of replaying the whole history on
# every answer (bench: answer_commit_median); anything else replays in full, as before.
# Cards cached before v5 start unmarked: their next review replays in full. A regrade finds
# the review of its answer by the answer's uid instead of scanning the question's reviews.
_V5 = """
ALTER TABLE cards ADD COLUMN replayed INTEGER;  -- reviews it replays; NULL: replay in full

CREATE TRIGGER reviews_stale_card_insert AFTER INSERT ON reviews BEGIN
    UPDATE cards SET replayed = NULL WHERE question_id = NEW.question_id;
END;

CREATE TRIGGER reviews_stale_card_update AFTER UPDATE ON reviews BEGIN
    UPDATE cards SET replayed = NULL WHERE question_id IN (OLD.question_id, NEW.question_id);
END;

CREATE TRIGGER reviews_stale_card_delete AFTER DELETE ON reviews BEGIN
    UPDATE cards SET replayed = NULL WHERE question_id = OLD.question_id;
END;

CREATE INDEX reviews_by_answer ON reviews (answer_uid) WHERE answer_uid IS NOT NULL;
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
                                                            _script(_V3), _script(_V4),
                                                            _script(_V5)]
SCHEMA_VERSION = len(MIGRATIONS)
