"""The study modes' actions: navigate, practice sets, recite, search, favourites and notes,
mock exams (组卷), the review session, the wrong-answer book's graduation. No Qt.

Same shape as ``actions.py`` (whose results and helpers these reuse): the ``ProgressStore``
first, keyword-only arguments after it, one transaction per write, a typed frozen result
carrying ``changes``; reads return plain typed results (no changes). The desktop runs them
as ``db.run(study.x, kw=…, on_done=…)``.
"""
from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from . import mock_exam, navigation, practice_sets, review, review_flow, search as search_mod
from . import store_reviews
from . import store_study as rows
from .actions import OpenRun, OpenSession, Written, _open, start_run
from .changes import NOTHING, Changes
from .enums import ReviewKind, SeenHow, SessionMode, SessionState, TemplateKind
from .mock_exam import CompositionError, MockExamSpec
from .model import Bank, Paper, Question
from .practice_sets import PracticeSet, PracticeSetSpec
from .review import AGAIN, GOOD, CardState, StudySettings
from .review_flow import ReviewCard, ReviewSummary
from .search import IndexRefresh, SearchResults
from .store import PaperSummary, ProgressStore
from .store_search import SearchIndex
from .store_study import NoteRow as Note

__all__ = [
    # navigate
    "session_marks", "set_position", "practice_progress",
    # favourites and notes
    "set_favourite", "save_note", "Note", "NoteSaved", "Personal", "personal", "favourites",
    "notes", "AnkiNotes", "anki_notes",
    # show answer, recite
    "Revealed", "reveal_answer", "Recited", "recite",
    # practice sets and runs
    "build_practice_set", "StartedSet", "start_practice_set", "RunSummary", "unfinished_runs",
    "resume_run", "run_states", "marks_of",
    # templates
    "Template", "TemplateSaved", "save_template", "delete_template", "templates",
    # mock exams
    "ComposedPreview", "compose_mock_exam", "MockExamStarted", "preview_mock_exam",
    "start_mock_exam",
    "CompositionError",
    # review session
    "ReviewStarted", "start_review", "next_review_card", "CardRated", "rate_card",
    "finish_review", "review_summary",
    # settings, wrong-answer book
    "study_settings", "SettingsSaved", "set_study_settings", "put_back",
    # search
    "search", "refresh_search_index",
]


def _now(now: float | None) -> float:
    return time.time() if now is None else now


# --- navigate --------------------------------------------------------------------------------
def session_marks(store: ProgressStore, *, paper: Paper, session_id: int,
                  question_ids: Iterable[str] | None = None) -> navigation.SessionMarks:
    """Each question's mark in the session (the navigator's colours), its flags and where
    the learner left off. ``question_ids``: only these, in this order (a run's questions of
    this paper); default: the whole paper."""
    questions = None
    if question_ids is not None:
        by_id = {q.id: q for q in paper.questions}
        questions = tuple(by_id[qid] for qid in question_ids if qid in by_id)
    return navigation.session_marks(store, paper, session_id, questions)


def set_position(store: ProgressStore, *, session_id: int, question_id: str,
                 now: float | None = None) -> Written:
    """The question on screen (the caller debounces: on leaving a question is enough);
    practice and runs reopen there."""
    with store.write():
        rows.set_position(store, session_id, question_id, _now(now))
    return Written(Changes(sessions=frozenset({session_id})))


def practice_progress(store: ProgressStore, *, bank: Bank
                      ) -> dict[str, navigation.PracticeProgress]:
    """Per paper: answered / total, right, and the Continue target (also in
    ``actions.library_summary``)."""
    return navigation.practice_progress(store, bank)


# --- favourites and notes --------------------------------------------------------------------
def set_favourite(store: ProgressStore, *, question_id: str, starred: bool,
                  now: float | None = None) -> Written:
    """Star or unstar a question (starring a starred one changes nothing)."""
    with store.write():
        changed = rows.set_favourite(store, question_id, starred, _now(now))
    return Written(Changes(favourites=frozenset({question_id})) if changed else NOTHING)


@dataclass(frozen=True)
class NoteSaved:
    note: Note | None  # None: the note is empty (deleted)
    changed: bool  # False: the text was already stored (autosave with nothing new)
    changes: Changes


def save_note(store: ProgressStore, *, question_id: str, text: str,
              now: float | None = None) -> NoteSaved:
    """The learner's Markdown note on a question, saved while typing (one statement; an
    unchanged text is not written again). Empty or blank text deletes the note."""
    at = _now(now)
    with store.write():
        if text.strip():
            changed = rows.save_note(store, question_id, text, at)
        else:
            changed = rows.clear_note(store, question_id, at)
        note = rows.note_rows(store, [question_id]).get(question_id)
    return NoteSaved(note, changed,
                     Changes(notes=frozenset({question_id})) if changed else NOTHING)


@dataclass(frozen=True)
class Personal:
    """The learner's own marks on some questions: stars and notes."""

    starred: frozenset[str]
    notes: dict[str, Note]


def personal(store: ProgressStore, *, question_ids: Iterable[str]) -> Personal:
    """Stars and notes of ``question_ids`` (a paper's, a run's): one read for a screen."""
    ids = list(question_ids)
    with store.atomic():
        starred = rows.starred_ids(store) & set(ids)
        found = rows.note_rows(store, ids)
    return Personal(frozenset(starred), found)


def favourites(store: ProgressStore, *, bank: Bank) -> list[Question]:
    """Starred questions still in the bank, in bank order."""
    starred = rows.starred_ids(store)
    return [q for q in bank.all_questions() if q.id in starred]


def notes(store: ProgressStore, *, bank: Bank) -> list[tuple[Question, Note]]:
    """Every note on a question still in the bank, newest first."""
    by_id = {q.id: q for q in bank.all_questions()}
    found = sorted(rows.note_rows(store).values(), key=lambda n: -n.updated_at)
    return [(by_id[n.question_id], n) for n in found if n.question_id in by_id]


@dataclass(frozen=True)
class AnkiNotes:
    """The arguments ``interchange.exporters.export_papers(..., notes=, note_times=)``
    takes: the learner's notes and when each last changed."""

    notes: dict[str, str]
    note_times: dict[str, float]


def anki_notes(store: ProgressStore) -> AnkiNotes:
    return AnkiNotes(*rows.note_export(store))


# --- Show answer, recite (背题) ----------------------------------------------------------------
@dataclass(frozen=True)
class Revealed:
    card: CardState | None
    scheduled: bool  # False: already answered or shown in this session, or void
    changes: Changes


def _practice_session(store: ProgressStore, session_id: int) -> None:
    session = store.session(session_id)
    if session.mode != SessionMode.PRACTICE:
        raise ValueError(f"session {session_id} is an exam: its keys are shown after "
                         "submitting")
    if session.state != SessionState.ACTIVE:
        raise ValueError(f"session {session_id} is {session.state}")


def reveal_answer(store: ProgressStore, *, session_id: int, question: Question,
                  now: float | None = None) -> Revealed:
    """"Show answer" in practice without answering: the key is shown, the question counts
    as seen in this session (navigator: revealed) and is scheduled as a miss (Again), once.
    It is not a wrong answer: the wrong-answer book and the statistics do not count it, and
    an answer to it in this session is refused (``actions.AnswerShown``)."""
    with store.write():
        _practice_session(store, session_id)
        if (not question.scored or rows.has_answer(store, session_id, question.id)
                or rows.seen_row(store, session_id, question.id) is not None):
            return Revealed(review.card_state(store, question.id), False, NOTHING)
        uid = uuid.uuid4().hex
        card = review.record_self_rating(store, question.id, rating=AGAIN,
                                         kind=ReviewKind.REVEAL, uid=uid, now=now)
        rows.add_seen(store, session_id, question.id, how=SeenHow.REVEALED, review_uid=uid,
                      at=_now(now))
    return Revealed(card, True, Changes(sessions=frozenset({session_id}),
                                        questions=frozenset({question.id}), reviews=True))


@dataclass(frozen=True)
class Recited:
    card: CardState | None  # None: a void question (nothing to recall)
    rating: int | None  # GOOD (knew it) or AGAIN (didn't)
    changes: Changes


def recite(store: ProgressStore, *, question: Question, knew: bool,
           session_id: int | None = None, now: float | None = None) -> Recited:
    """背题: key, explanation and errata were shown; the learner says whether they knew it.
    Knew it → Good, didn't → Again: a self-rated review (two buttons, as 题库 apps have; the
    review session offers all four). It schedules the card but is no answer: it neither
    enters the wrong-answer book nor counts as right in the statistics or toward
    graduation. With a practice ``session_id`` the question is marked recited there, and
    reciting it again in that session changes the rating instead of adding one."""
    if not question.scored:
        return Recited(None, None, NOTHING)
    rating = GOOD if knew else AGAIN
    at = _now(now)
    with store.write():
        if session_id is not None:
            _practice_session(store, session_id)
            seen = rows.seen_row(store, session_id, question.id)
            if seen is not None:
                how, uid = seen
                if how != SeenHow.RECITED:  # its key was revealed: that miss stands
                    return Recited(review.card_state(store, question.id), None, NOTHING)
                store_reviews.rerate_review_uid(store, uid, rating)
                card = review.replay(store, question.id)
                return Recited(card, rating, _recited(question, session_id))
        uid = uuid.uuid4().hex
        card = review.record_self_rating(store, question.id, rating=rating,
                                         kind=ReviewKind.RECITE, uid=uid, now=at)
        if session_id is not None:
            rows.add_seen(store, session_id, question.id, how=SeenHow.RECITED, review_uid=uid,
                          at=at)
    return Recited(card, rating, _recited(question, session_id))


def _recited(question: Question, session_id: int | None) -> Changes:
    return Changes(sessions=frozenset({session_id}) if session_id is not None else frozenset(),
                   questions=frozenset({question.id}), reviews=True)


# --- practice sets and runs ------------------------------------------------------------------
def _set_spec(spec: PracticeSetSpec | dict) -> PracticeSetSpec:
    return spec if isinstance(spec, PracticeSetSpec) else PracticeSetSpec.from_json(spec)


def build_practice_set(store: ProgressStore, *, bank: Bank, spec: PracticeSetSpec | dict
                       ) -> PracticeSet:
    """Preview a set: its question ids, how many matched, the seed (read only)."""
    return practice_sets.build_practice_set(store, bank, _set_spec(spec))


@dataclass(frozen=True)
class StartedSet:
    practice_set: PracticeSet
    run: OpenRun
    changes: Changes


def start_practice_set(store: ProgressStore, *, bank: Bank, spec: PracticeSetSpec | dict,
                       title: str = "", now: float | None = None) -> StartedSet:
    """Build the set and practise it as a run (``actions.start_run``: a session per paper,
    graded and scheduled as any practice). The run keeps the spec, seed included."""
    chosen = practice_sets.build_practice_set(store, bank, _set_spec(spec))
    run = start_run(store, bank=bank, question_ids=chosen.question_ids, title=title,
                    spec=chosen.spec.to_json(), now=now)
    return StartedSet(chosen, run, run.changes)


@dataclass(frozen=True)
class RunSummary:
    """An unfinished practice run, for a "Continue" list."""

    run_id: int
    title: str
    created_at: float
    total: int  # its questions still in the bank
    answered: int
    position: str | None
    spec: dict | None


def unfinished_runs(store: ProgressStore, *, bank: Bank) -> list[RunSummary]:
    """Runs with a session still open, newest first."""
    known = {q.id for q in bank.all_questions()}
    out = []
    with store.atomic():
        for run_id in rows.unfinished_run_ids(store):
            run = rows.run_row(store, run_id)
            ids = [qid for qid in rows.run_question_ids(store, run_id) if qid in known]
            sessions = rows.run_sessions(store, run_id)
            answered = rows.latest_verdicts(store, [s.id for s in sessions])
            done = {qid for per in answered.values() for qid in per}
            out.append(RunSummary(run_id, run.title, run.created_at, len(ids),
                                  sum(1 for qid in ids if qid in done),
                                  rows.run_position(store, run_id), run.spec))
    return out


def resume_run(store: ProgressStore, *, bank: Bank, run_id: int) -> OpenRun:
    """Continue a run: its questions in their order, its sessions (a paper's session that
    was closed meanwhile, or a paper the run had none for, gets a new one), its position."""
    by_id = {q.id: q for q in bank.all_questions()}
    with store.write():
        run = rows.run_row(store, run_id)
        questions = [by_id[qid] for qid in rows.run_question_ids(store, run_id)
                     if qid in by_id]
        papers = {q.paper_id: bank.paper(q.paper_id) for q in questions}
        existing = rows.run_sessions(store, run_id)
        sessions = {s.paper_id: s.id for s in existing if s.state == SessionState.ACTIVE}
        for pid in papers:
            if pid not in sessions:
                sessions[pid] = store.start_session(paper_id=pid, mode=SessionMode.PRACTICE,
                                                    run_id=run_id)
        position = rows.run_position(store, run_id)
    return OpenRun(tuple(questions), papers, {pid: sessions[pid] for pid in papers},
                   Changes(sessions=frozenset(sessions.values())), run_id, run.title,
                   position)


def run_states(store: ProgressStore, *, run: OpenRun) -> dict[str, OpenSession]:
    """What a run's screen restores, per paper id: its session's responses (the newer of
    draft and answer), submitted answers, flags and time, as ``actions.open_session``
    gives them (one snapshot)."""
    with store.atomic():
        return {pid: _open(store, run.papers[pid], sid) for pid, sid in run.sessions.items()}


def marks_of(store: ProgressStore, *, papers: Mapping[str, Paper],
             sessions: Mapping[str, int], question_ids: Sequence[str]
             ) -> dict[str, navigation.QuestionMark]:
    """The navigator's marks of a screen's questions, which may span papers (a run: one
    session per paper), by question id."""
    by_paper: dict[str, list[str]] = {}
    for qid in question_ids:
        by_paper.setdefault(qid.rsplit("/", 1)[0], []).append(qid)
    out: dict[str, navigation.QuestionMark] = {}
    for pid, ids in by_paper.items():
        if pid in papers and pid in sessions:
            found = session_marks(store, paper=papers[pid], session_id=sessions[pid],
                                  question_ids=ids)
            out.update((m.question_id, m) for m in found.marks)
    return out


# --- templates -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Template:
    """A saved practice set or mock exam."""

    id: int
    uid: str
    kind: TemplateKind
    name: str
    spec: PracticeSetSpec | MockExamSpec
    created_at: float
    updated_at: float
    paper_id: str | None = None  # a mock exam's: its sessions' paper id
    summary: PaperSummary | None = None  # a mock exam's best / last score, attempts


def _typed_spec(kind: TemplateKind, spec):
    if kind == TemplateKind.MOCK_EXAM:
        return spec if isinstance(spec, MockExamSpec) else MockExamSpec.from_json(spec)
    return _set_spec(spec)


def _template(store: ProgressStore, row: rows.TemplateRow) -> Template:
    kind = TemplateKind(row.kind)
    paper_id = mock_exam.mock_paper_id(row.uid) if kind == TemplateKind.MOCK_EXAM else None
    return Template(row.id, row.uid, kind, row.name, _typed_spec(kind, row.spec),
                    row.created_at, row.updated_at, paper_id,
                    store.paper_summary(paper_id, mode=SessionMode.EXAM) if paper_id else None)


@dataclass(frozen=True)
class TemplateSaved:
    template: Template
    changes: Changes


def save_template(store: ProgressStore, *, kind: TemplateKind | str, name: str,
                  spec: PracticeSetSpec | MockExamSpec | dict, template_id: int | None = None,
                  now: float | None = None) -> TemplateSaved:
    """Save a new template, or replace ``template_id``'s name and spec (its past mock exams
    keep the questions they had). The spec is validated first (``ValueError``)."""
    kind = TemplateKind(kind)
    if not name.strip():
        raise ValueError("a template needs a name")
    typed = _typed_spec(kind, spec)
    at = _now(now)
    with store.write():
        if template_id is None:
            template_id = rows.insert_template(store, kind=kind, name=name.strip(),
                                               spec=typed.to_json(), at=at)
        else:
            rows.update_template(store, template_id, name=name.strip(), spec=typed.to_json(),
                                 at=at)
        saved = _template(store, rows.template_rows(store, template_id=template_id)[0])
    return TemplateSaved(saved, Changes(templates=True))


def delete_template(store: ProgressStore, *, template_id: int) -> Written:
    """Forget a template; its past mock exams and their reports stay."""
    with store.write():
        rows.delete_template(store, template_id)
    return Written(Changes(templates=True))


def templates(store: ProgressStore, *, kind: TemplateKind | str | None = None
              ) -> list[Template]:
    """Saved templates, oldest first (a mock exam's with its scores)."""
    with store.atomic():
        return [_template(store, r) for r in rows.template_rows(
            store, None if kind is None else str(TemplateKind(kind)))]


# --- mock exams (组卷) -------------------------------------------------------------------------
@dataclass(frozen=True)
class ComposedPreview:
    """What a spec composes now (nothing stored): the paper and the pool per type."""

    paper: Paper
    available: dict[str, int]  # per type: questions the spec could draw


def compose_mock_exam(store: ProgressStore, *, bank: Bank, spec: MockExamSpec | dict
                      ) -> ComposedPreview:
    """Compose without starting (the dialog's preview); ``CompositionError`` names every
    type that is short, with how many are needed and available."""
    spec = _typed_spec(TemplateKind.MOCK_EXAM, spec)
    pool = mock_exam.pool(bank, spec)
    questions = mock_exam.compose(bank, spec)
    built = mock_exam.build_paper("mock-preview", spec.title, spec, questions, bank)
    return ComposedPreview(built.paper, {str(t): len(qs) for t, qs in pool.items()})


@dataclass(frozen=True)
class MockExamStarted:
    """A started mock exam: its paper (give it to the exam screen as a paper exam's) and
    the session to restore."""

    paper: Paper
    session: OpenSession
    changes: Changes


def _mock_spec(store: ProgressStore, template_id: int | None,
               spec: MockExamSpec | dict | None, seed: int | None = None
               ) -> tuple[MockExamSpec, str | None]:
    """The spec a mock exam is composed from (a saved template's, or the one given) and
    the template's uid."""
    template_uid = None
    if template_id is not None:
        row = rows.template_rows(store, template_id=template_id)
        if not row or row[0].kind != TemplateKind.MOCK_EXAM:
            raise KeyError(f"no mock-exam template with id {template_id}")
        spec, template_uid = MockExamSpec.from_json(row[0].spec), row[0].uid
    elif spec is None:
        raise ValueError("a mock exam needs a template_id or a spec")
    spec = _typed_spec(TemplateKind.MOCK_EXAM, spec)
    return (spec if seed is None else replace(spec, seed=seed)), template_uid


def preview_mock_exam(store: ProgressStore, *, bank: Bank, template_id: int | None = None,
                      spec: MockExamSpec | dict | None = None) -> ComposedPreview:
    """What ``start_mock_exam`` would start (the start dialog shows its duration, questions
    and points); nothing is stored."""
    spec, _uid = _mock_spec(store, template_id, spec)
    return compose_mock_exam(store, bank=bank, spec=spec)


def start_mock_exam(store: ProgressStore, *, bank: Bank, template_id: int | None = None,
                    spec: MockExamSpec | dict | None = None, seed: int | None = None,
                    duration_s: int | None = None, open_book: bool = False,
                    now: float | None = None) -> MockExamStarted:
    """A timed exam composed from a saved template (or a spec), its question list and
    points stored with the session. It then runs as a paper exam: ``actions.save_draft``,
    ``set_flag``, ``submit_exam`` (auto-submit too), ``mark_exam_answer``, ``exam_report``
    with this ``paper``; after a restart ``actions.unfinished_exams`` lists it and
    ``actions.session_paper`` / ``open_session`` / ``session_report`` rebuild it.
    ``seed``: another draw than the template's (a new paper from the same spec);
    ``duration_s`` and ``open_book``: what the start dialog chose (the spec's duration and
    closed book by default)."""
    spec, template_uid = _mock_spec(store, template_id, spec, seed)
    questions = mock_exam.compose(bank, spec)
    paper_id = mock_exam.new_paper_id(template_uid)
    with store.write():
        # a template that draws drafts scores them: the learner chose them for this exam
        session_id = store.start_session(
            paper_id=paper_id, mode=SessionMode.EXAM,
            duration_s=spec.duration_minutes * 60 if duration_s is None else duration_s,
            open_book=open_book, include_drafts=spec.include_drafts, now=now)
        rows.save_composed(store, session_id, template_uid=template_uid, title=spec.title,
                           spec=spec.to_json(), questions=list(questions))
        built = mock_exam.build_paper(paper_id, spec.title, spec, questions, bank,
                                      template_uid)
        opened = _open(store, built.paper, session_id)
    return MockExamStarted(built.paper, opened, Changes(
        sessions=frozenset({session_id}), papers=frozenset({paper_id}), templates=True))


# --- the review session ----------------------------------------------------------------------
@dataclass(frozen=True)
class ReviewStarted:
    review_session_id: int
    card: ReviewCard | None  # the first card; None: nothing due and no new card today
    changes: Changes = NOTHING


def start_review(store: ProgressStore, *, bank: Bank, now: float | None = None
                 ) -> ReviewStarted:
    session_id = review_flow.start(store, now=now)
    return ReviewStarted(session_id, review_flow.next_card(store, bank, now=now))


def next_review_card(store: ProgressStore, *, bank: Bank, now: float | None = None
                     ) -> ReviewCard | None:
    return review_flow.next_card(store, bank, now=now)


@dataclass(frozen=True)
class CardRated:
    card: CardState  # the rated card's new schedule
    next: ReviewCard | None  # the card to show next; None: done for today
    changes: Changes


def rate_card(store: ProgressStore, *, bank: Bank, review_session_id: int, question_id: str,
              rating: int, seconds: float, now: float | None = None) -> CardRated:
    """Again / Hard / Good / Easy (1–4) on the shown card; ``seconds`` from showing it to
    the rating. Returns the next card, so the screen needs one call per card."""
    card = review_flow.rate(store, review_session_id=review_session_id,
                            question_id=question_id, rating=rating, seconds=seconds, now=now)
    return CardRated(card, review_flow.next_card(store, bank, now=now),
                     Changes(questions=frozenset({question_id}), reviews=True))


def finish_review(store: ProgressStore, *, review_session_id: int,
                  now: float | None = None) -> ReviewSummary:
    """End the session: its summary (ratings per button, cards, new cards, time)."""
    return review_flow.finish(store, review_session_id, now=now)


def review_summary(store: ProgressStore, *, review_session_id: int) -> ReviewSummary:
    return review_flow.summary(store, review_session_id)


# --- settings and the wrong-answer book ------------------------------------------------------
def study_settings(store: ProgressStore) -> StudySettings:
    return review.study_settings(store)


@dataclass(frozen=True)
class SettingsSaved:
    settings: StudySettings
    changes: Changes


def set_study_settings(store: ProgressStore, *, new_per_day: int | None = None,
                       reviews_per_day: int | None = None,
                       graduate_after: int | None = None) -> SettingsSaved:
    """Daily limits of the review session and the 错题本's graduation count (``ValueError``
    for a value that is not a whole number ≥ 0, ≥ 1 for graduate_after)."""
    given = {k: v for k, v in (("new_per_day", new_per_day),
                               ("reviews_per_day", reviews_per_day),
                               ("graduate_after", graduate_after)) if v is not None}
    settings = review.save_study_settings(store, **given)
    return SettingsSaved(settings, Changes(settings=True, reviews=bool(given)))


def put_back(store: ProgressStore, *, question_id: str, now: float | None = None) -> Written:
    """Put a question (back) into the wrong-answer book by hand; graduating it again takes
    ``graduate_after`` right answers from now."""
    review.put_back(store, question_id, now=now)
    return Written(Changes(questions=frozenset({question_id}), reviews=True))


# --- search ----------------------------------------------------------------------------------
def search(store: ProgressStore, *, index: SearchIndex, bank: Bank, query: str,
           paper_ids: Iterable[str] = (), types: Iterable[str] = (),
           statuses: Iterable[str] = (), topics: Iterable[str] = (),
           include_notes: bool = True, limit: int = 50) -> SearchResults:
    """Search stems, options, keys, explanations, errata, code and notes (see
    ``search.py``); the index is brought up to date with ``bank`` first (free when it is the
    bank it was last brought up to date with)."""
    return search_mod.search(store, index, bank, query, paper_ids=paper_ids, types=types,
                             statuses=statuses, topics=topics, include_notes=include_notes,
                             limit=limit)


def refresh_search_index(store: ProgressStore, *, index: SearchIndex, bank: Bank,
                         force: bool = False) -> IndexRefresh:
    """Bring the index up to date now (after the bank loaded or a pack changed), so the
    first search does not pay for it."""
    return search_mod.refresh_index(index, bank, force=force)


def search_index_for(data_dir: Path) -> SearchIndex:
    """The index file of a data folder (in its cache; rebuilt when missing or damaged)."""
    from .paths import search_index_path

    return SearchIndex(search_index_path(data_dir))
