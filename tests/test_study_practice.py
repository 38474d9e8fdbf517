"""Navigate, practice sets and runs, Show answer and recite (背题): core actions on real
progress files and the real bundled bank plus a small generated one (no Qt)."""
from __future__ import annotations

import pytest

from question_db import actions, review, stats, study
from question_db.bank import load_bank
from question_db.enums import Mark, ReviewKind, SetOrder, Status
from question_db.model import Bank
from question_db.practice_sets import PracticeSetSpec
from question_db.responses import TextResponse
from question_db.store import ProgressStore

from study_helpers import T0, db_rows, right, synthetic_bank, wrong

BUNDLED = load_bank()


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Bank:
    """The bundled papers plus four generated ones (two of them imported drafts)."""
    generated = synthetic_bank(tmp_path_factory.mktemp("packs"))
    return Bank(papers=[*BUNDLED.papers, *generated.papers])


@pytest.fixture
def store(tmp_path):
    s = ProgressStore(tmp_path / "progress.sqlite3")
    yield s
    s.close()


def submit(store, bank, session_id, q, response, now, seconds=30.0):
    return actions.submit_practice_answer(store, paper=bank.paper(q.paper_id),
                                          session_id=session_id, question=q,
                                          response=response, seconds=seconds, now=now)


# --- navigate -------------------------------------------------------------------------------
def test_navigator_marks_every_status_of_a_practice_session(store, bank):
    paper = bank.paper("syn000")
    sid = actions.open_practice(store, paper=paper, now=T0).session.id
    q1, q2, q3, q4, multi, essay, unmarked = (paper.question(n)
                                              for n in (1, 2, 3, 4, 21, 41, 42))
    void = paper.question(20)
    assert void.status == Status.VOID and essay.type == unmarked.type == "short_answer"
    submit(store, bank, sid, q1, right(q1), T0 + 1)
    submit(store, bank, sid, q2, wrong(q2), T0 + 2)
    submit(store, bank, sid, essay, TextResponse("…", (True, False, False)), T0 + 3)
    submit(store, bank, sid, unmarked, TextResponse("…", None), T0 + 4)  # not self-marked
    actions.save_draft(store, session_id=sid, question=multi, response=right(multi),
                       seconds=5, now=T0 + 5)
    actions.set_flag(store, session_id=sid, question_id=q2.id, flagged=True)
    study.reveal_answer(store, session_id=sid, question=q3, now=T0 + 6)

    marks = study.session_marks(store, paper=paper, session_id=sid)
    got = {m.question_id: m for m in marks.marks}
    assert [m.question_id for m in marks.marks] == [q.id for q in paper.questions]
    assert got[q1.id].mark == Mark.RIGHT and not got[q1.id].flagged
    assert got[q2.id].mark == Mark.WRONG and got[q2.id].flagged
    assert got[essay.id].mark == Mark.PARTLY
    assert got[unmarked.id].mark == Mark.PENDING
    assert got[multi.id].mark == Mark.ANSWERED and got[multi.id].has_draft
    assert got[q3.id].mark == Mark.REVEALED
    assert got[void.id].mark == Mark.VOID
    assert got[q4.id].mark == Mark.UNANSWERED
    assert marks.counts[Mark.RIGHT] == 1 and sum(marks.counts.values()) == len(paper.questions)
    # a run shows only its own questions of the paper, in its order
    part = study.session_marks(store, paper=paper, session_id=sid,
                               question_ids=[q2.id, q1.id])
    assert [m.mark for m in part.marks] == [Mark.WRONG, Mark.RIGHT]


def test_navigator_of_a_live_exam_shows_answered_not_verdicts(store, bank):
    paper = bank.paper("000")
    sid = actions.start_exam(store, paper=paper, duration_s=3600, now=T0).session.id
    q = paper.question(1)
    actions.save_draft(store, session_id=sid, question=q, response=wrong(q), seconds=3,
                       now=T0 + 1)
    marks = study.session_marks(store, paper=paper, session_id=sid)
    assert marks.of(q.id).mark == Mark.ANSWERED  # no verdict before submitting
    actions.submit_exam(store, paper=paper, session_id=sid, responses={q.id: wrong(q)},
                        seconds={}, now=T0 + 2)
    assert study.session_marks(store, paper=paper, session_id=sid).of(q.id).mark == Mark.WRONG


def test_practice_resumes_where_it_was_left_and_the_card_says_so(store, bank, tmp_path):
    paper = bank.paper("001")
    sid = actions.open_practice(store, paper=paper, now=T0).session.id
    progress = actions.library_summary(store, bank=bank, now=T0).practice["001"]
    assert (progress.answered, progress.total, progress.continue_at) == \
        (0, len(paper.questions), paper.questions[0].id)
    for n in (1, 2):
        q = paper.question(n)
        submit(store, bank, sid, q, right(q) if n == 1 else wrong(q), T0 + n)
    study.set_position(store, session_id=sid, question_id=paper.question(17).id, now=T0 + 3)
    store.close()

    reopened = ProgressStore(tmp_path / "progress.sqlite3")  # a new launch
    again = actions.open_practice(reopened, paper=paper)
    assert again.session.id == sid and again.session.position == "001/17"
    card = actions.library_summary(reopened, bank=bank).practice["001"]
    assert (card.answered, card.right, card.wrong, card.session_id, card.continue_at) == \
        (2, 1, 1, sid, "001/17")
    assert card.ever_answered == 2
    assert actions.library_summary(reopened, bank=bank).practice["000"].session_id is None
    reopened.close()


def test_continue_without_a_position_opens_the_first_unanswered(store, bank):
    paper = bank.paper("000")
    sid = actions.open_practice(store, paper=paper, now=T0).session.id
    submit(store, bank, sid, paper.questions[0], right(paper.questions[0]), T0)
    card = study.practice_progress(store, bank=bank)["000"]
    assert card.continue_at == paper.questions[1].id


# --- practice sets --------------------------------------------------------------------------
def test_random_set_is_reproducible_by_its_seed(store, bank):
    spec = PracticeSetSpec(order=SetOrder.RANDOM, count=50, seed=7)
    first = study.build_practice_set(store, bank=bank, spec=spec)
    again = study.build_practice_set(store, bank=bank, spec=spec)
    assert first.question_ids == again.question_ids and len(first.question_ids) == 50
    assert len(set(first.question_ids)) == 50
    other = study.build_practice_set(store, bank=bank, spec=PracticeSetSpec(
        order="random", count=50, seed=8))
    assert other.question_ids != first.question_ids
    # the order the papers were loaded in does not change the draw
    shuffled = Bank(papers=list(reversed(bank.papers)))
    assert study.build_practice_set(store, bank=shuffled, spec=spec).question_ids == \
        first.question_ids
    fresh = study.build_practice_set(store, bank=bank, spec=PracticeSetSpec(order="random",
                                                                             count=5))
    assert fresh.spec.seed is not None  # returned so the set can be repeated
    assert study.build_practice_set(store, bank=bank, spec=fresh.spec).question_ids == \
        fresh.question_ids


def test_set_filters_by_paper_section_type_topic_status_and_drafts(store, bank):
    everything = study.build_practice_set(store, bank=bank, spec=PracticeSetSpec())
    void = {q.id for q in bank.all_questions() if q.status == Status.VOID}
    assert void and not void & set(everything.question_ids)  # drawn only when asked for
    assert everything.matched == len(bank.all_questions()) - len(void)
    assert everything.question_ids == tuple(sorted(
        (q.id for q in bank.all_questions() if q.id not in void),
        key=lambda qid: (qid.rsplit("/", 1)[0], int(qid.rsplit("/", 1)[1]))))  # 顺序
    one = study.build_practice_set(store, bank=bank, spec=PracticeSetSpec(paper_ids=("001",)))
    assert one.question_ids == tuple(q.id for q in bank.paper("001").questions
                                     if q.id not in void)
    section = bank.paper("001").sections[1]
    by_section = study.build_practice_set(store, bank=bank, spec=PracticeSetSpec(
        paper_ids=("001",), sections=(section.title,)))
    assert by_section.question_ids == tuple(
        f"001/{n}" for n in range(section.first, section.last + 1) if f"001/{n}" not in void)
    fills = study.build_practice_set(store, bank=bank, spec={"types": ["fill_blank"]})
    assert fills.question_ids and all(bank.question(i).type == "fill_blank"
                                      for i in fills.question_ids)
    topic = bank.question("001/3").topics[0]
    by_topic = study.build_practice_set(store, bank=bank, spec=PracticeSetSpec(topics=(topic,)))
    assert set(by_topic.question_ids) == {q.id for q in bank.all_questions()
                                          if topic in q.topics and q.id not in void}
    voids = study.build_practice_set(store, bank=bank, spec=PracticeSetSpec(
        statuses=(Status.VOID,)))
    assert set(voids.question_ids) == void
    drafts = {q.id for q in bank.all_questions() if q.draft}
    assert drafts and drafts <= set(everything.question_ids)  # included by default
    verified = study.build_practice_set(store, bank=bank, spec=PracticeSetSpec(
        include_drafts=False))
    assert not drafts & set(verified.question_ids)
    with pytest.raises(ValueError, match="types"):
        PracticeSetSpec(types=("essay",))


def test_set_of_unanswered_wrong_and_favourites(store, bank):
    paper = bank.paper("000")
    sid = actions.open_practice(store, paper=paper, now=T0).session.id
    q1, q2, q3 = paper.questions[:3]
    submit(store, bank, sid, q1, right(q1), T0)
    submit(store, bank, sid, q2, wrong(q2), T0 + 1)
    study.reveal_answer(store, session_id=sid, question=q3, now=T0 + 2)
    study.set_favourite(store, question_id="001/5", starred=True, now=T0)
    study.set_favourite(store, question_id="001/6", starred=True, now=T0)
    study.set_favourite(store, question_id="001/6", starred=False, now=T0 + 1)

    unanswered = study.build_practice_set(store, bank=bank, spec=PracticeSetSpec(
        paper_ids=("000",), unanswered_only=True))
    assert unanswered.question_ids == tuple(q.id for q in paper.questions[3:]
                                            if q.status != Status.VOID)  # seen ≠ new
    wrong_only = study.build_practice_set(store, bank=bank, spec=PracticeSetSpec(
        wrong_only=True))
    assert wrong_only.question_ids == (q2.id,)  # a revealed key is no wrong answer
    starred = study.build_practice_set(store, bank=bank, spec=PracticeSetSpec(
        favourites_only=True))
    assert starred.question_ids == ("001/5",)


def test_a_set_is_practised_as_a_run_drafts_graded_and_scheduled(store, bank):
    """A random set over every paper, drafts included: sessions per paper, each answer
    graded by its paper's rules and scheduled by FSRS, then the run is continued after a
    restart where it was left."""
    spec = PracticeSetSpec(order="random", count=30, seed=3, paper_ids=("syn001", "001"))
    started = study.start_practice_set(store, bank=bank, spec=spec, title="随机 30", now=T0)
    run = started.run
    assert [q.id for q in run.questions] == list(started.practice_set.question_ids)
    assert set(run.sessions) == {"syn001", "001"} and run.run_id is not None
    draft = next(q for q in run.questions if q.draft and q.scored
                 and q.type == "single_choice")
    outcome = submit(store, bank, run.sessions[draft.paper_id], draft, right(draft), T0 + 1)
    assert outcome.grade.verdict == "correct" and outcome.card is not None
    assert review.card_state(store, draft.id).reps == 1
    verified = next(q for q in run.questions if q.paper_id == "001" and q.scored)
    submit(store, bank, run.sessions["001"], verified, wrong(verified), T0 + 2)
    study.set_position(store, session_id=run.sessions["001"], question_id=verified.id,
                       now=T0 + 3)
    # paper practice is not the run: the paper's own practice session is a new one
    assert actions.open_practice(store, paper=bank.paper("001"), now=T0 + 4).session.id \
        not in run.sessions.values()

    [listed] = study.unfinished_runs(store, bank=bank)
    assert (listed.run_id, listed.title, listed.total, listed.answered, listed.position) == \
        (run.run_id, "随机 30", 30, 2, verified.id)
    assert listed.spec["seed"] == 3
    resumed = study.resume_run(store, bank=bank, run_id=run.run_id)
    assert resumed.questions == run.questions and resumed.sessions == run.sessions
    assert resumed.position == verified.id
    actions.finish_run(store, session_ids=resumed.sessions.values(), now=T0 + 5)
    assert study.unfinished_runs(store, bank=bank) == []


def test_wrong_book_and_due_runs_are_recorded_too(store, bank):
    run = actions.start_run(store, bank=bank, question_ids=["001/3", "000/1", "nope/9"],
                            title="错题本", now=T0)
    assert [q.id for q in run.questions] == ["001/3", "000/1"]  # unknown ids skipped
    assert db_rows(store.path, "SELECT question_id FROM run_questions WHERE run_id = ? "
                   "ORDER BY position", [run.run_id]) == [("001/3",), ("000/1",)]


# --- Show answer and recite -----------------------------------------------------------------
def test_show_answer_schedules_a_miss_once_and_counts_as_seen(store, bank):
    paper = bank.paper("001")
    sid = actions.open_practice(store, paper=paper, now=T0).session.id
    q = paper.question(4)
    shown = study.reveal_answer(store, session_id=sid, question=q, now=T0)
    assert shown.scheduled and shown.card.last_rating == review.AGAIN
    assert shown.changes.reviews and sid in shown.changes.sessions
    again = study.reveal_answer(store, session_id=sid, question=q, now=T0 + 5)
    assert not again.scheduled and again.card.reps == 1  # once per session
    # seen, not answered: no answer row, no statistics, not in the wrong-answer book
    assert db_rows(store.path, "SELECT COUNT(*) FROM answers") == [(0,)]
    assert stats.accuracy_by_type(store, bank) == []
    assert review.wrong_book(store, bank) == []
    assert db_rows(store.path, "SELECT kind, rating, missed FROM reviews") == \
        [(ReviewKind.REVEAL, review.AGAIN, 0)]
    with pytest.raises(actions.AnswerShown):
        submit(store, bank, sid, q, right(q), T0 + 6)
    answered = paper.question(5)
    submit(store, bank, sid, answered, right(answered), T0 + 7)
    assert not study.reveal_answer(store, session_id=sid, question=answered).scheduled
    exam = actions.start_exam(store, paper=paper, duration_s=600, now=T0).session.id
    with pytest.raises(ValueError, match="exam"):
        study.reveal_answer(store, session_id=exam, question=q)


def test_recite_knew_it_is_good_and_didnt_is_again_but_never_an_answer(store, bank):
    q = bank.question("001/3")
    knew = study.recite(store, question=q, knew=True, now=T0)
    assert knew.rating == review.GOOD and knew.card.last_rating == review.GOOD
    missed = study.recite(store, question=bank.question("001/4"), knew=False, now=T0)
    assert missed.rating == review.AGAIN
    assert db_rows(store.path, "SELECT COUNT(*) FROM answers") == [(0,)]
    assert db_rows(store.path, "SELECT COUNT(*) FROM question_totals") == [(0,)]
    assert review.wrong_book(store, bank) == []  # "didn't know" is not a wrong answer
    assert {r[0] for r in db_rows(store.path, "SELECT kind FROM reviews")} == {"recite"}
    # in a session: marked recited; reciting again there re-rates instead of adding
    sid = actions.open_practice(store, paper=bank.paper("000"), now=T0).session.id
    q0 = bank.question("000/2")
    study.recite(store, question=q0, knew=False, session_id=sid, now=T0 + 1)
    changed = study.recite(store, question=q0, knew=True, session_id=sid, now=T0 + 2)
    assert changed.card.reps == 1 and changed.card.last_rating == review.GOOD
    assert study.session_marks(store, paper=bank.paper("000"),
                               session_id=sid).of(q0.id).mark == Mark.RECITED
    void = next(q for q in bank.all_questions() if not q.scored)
    assert study.recite(store, question=void, knew=True).card is None


def test_recited_good_does_not_graduate_a_wrong_answer(store, bank):
    paper = bank.paper("001")
    sid = actions.open_practice(store, paper=paper, now=T0).session.id
    q = paper.question(3)
    submit(store, bank, sid, q, wrong(q), T0)
    for i in range(3):
        study.recite(store, question=q, knew=True, now=T0 + 10 + i)
    [entry] = review.wrong_book(store, bank)
    assert entry.question.id == q.id and entry.streak == 0 and not entry.graduated
