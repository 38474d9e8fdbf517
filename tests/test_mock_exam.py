"""Mock exams (组卷): composition, scoring with the template's points, resume and report
after the store is reopened, questions removed from the bank later (no Qt)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from question_db import actions, review, study
from question_db.enums import SessionState, TemplateKind
from question_db.mock_exam import CompositionError, MockExamSpec, MockPart
from question_db.model import Bank
from question_db.responses import TextResponse
from question_db.store import ProgressStore

from study_helpers import T0, db_rows, right, synthetic_bank, wrong


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Bank:
    return synthetic_bank(tmp_path_factory.mktemp("packs"))  # syn001, syn003: drafts


@pytest.fixture
def store(tmp_path):
    s = ProgressStore(tmp_path / "progress.sqlite3")
    yield s
    s.close()


SPEC = MockExamSpec(title="模拟考试 A", duration_minutes=90, seed=11, parts=(
    MockPart("single_choice", 10, 3), MockPart("multiple_choice", 4, 5),
    MockPart("short_answer", 2, 12.5)))


def test_composition_counts_types_points_and_determinism(store, bank):
    preview = study.compose_mock_exam(store, bank=bank, spec=SPEC)
    paper = preview.paper
    assert [s.type for s in paper.sections] == ["single_choice", "multiple_choice",
                                                "short_answer"]
    assert [(s.first, s.last) for s in paper.sections] == [(1, 10), (11, 14), (15, 16)]
    assert [s.title for s in paper.sections] == ["一、单选题", "二、多选题", "三、简答题"]
    assert [q.number for q in paper.questions] == list(range(1, 17))
    assert paper.total_points == 10 * 3 + 4 * 5 + 2 * 12.5 == SPEC.total_points
    assert len({q.id for q in paper.questions}) == 16  # each bank question once
    essay = paper.questions[-1]
    assert sum(r.points for r in essay.rubric) == pytest.approx(12.5)
    originals = {q.id: q for q in bank.all_questions()}
    for q in paper.questions:  # real bank ids, verified (not draft), scored, in the pool
        source = originals[q.id]
        assert source.type == q.type and source.scored and not source.draft
    assert study.compose_mock_exam(store, bank=bank, spec=SPEC).paper == paper  # same seed
    other = study.compose_mock_exam(store, bank=bank, spec=replace(SPEC, seed=12)).paper
    assert [q.id for q in other.questions] != [q.id for q in paper.questions]
    # available counts per type (verified papers syn000, syn002: 19 scored singles each)
    assert preview.available["single_choice"] == 38


def test_not_enough_questions_names_what_is_short(store, bank):
    spec = MockExamSpec(title="太多", duration_minutes=60, paper_ids=("syn000",), parts=(
        MockPart("single_choice", 5, 2), MockPart("programming", 9, 10),
        MockPart("system_design", 3, 10)))
    with pytest.raises(CompositionError) as error:
        study.compose_mock_exam(store, bank=bank, spec=spec)
    assert [(s.type, s.needed, s.available) for s in error.value.shortages] == [
        ("programming", 9, 3), ("system_design", 3, 2)]
    assert "programming: 9 needed, 3 available" in str(error.value)
    assert "paper(s) syn000" in str(error.value) and "drafts excluded" in str(error.value)
    with pytest.raises(ValueError, match="once"):
        MockExamSpec(title="x", duration_minutes=10, parts=(MockPart("fill_blank", 1, 2),
                                                             MockPart("fill_blank", 1, 2)))


def test_drafts_only_when_the_template_includes_them(store, bank):
    only_drafts = MockExamSpec(title="导入题", duration_minutes=30, paper_ids=("syn001",),
                               parts=(MockPart("single_choice", 5, 2),))
    with pytest.raises(CompositionError, match="drafts excluded"):
        study.compose_mock_exam(store, bank=bank, spec=only_drafts)
    paper = study.compose_mock_exam(store, bank=bank, spec=replace(
        only_drafts, include_drafts=True)).paper
    assert all(q.draft and q.scored for q in paper.questions)  # keyless drafts never drawn


def test_mock_exam_scores_with_the_templates_points_and_schedules_bank_questions(store, bank):
    saved = study.save_template(store, kind=TemplateKind.MOCK_EXAM, name="周测", spec=SPEC,
                                now=T0)
    assert saved.changes.templates and saved.template.paper_id.startswith("mock-")
    started = study.start_mock_exam(store, bank=bank, template_id=saved.template.id, now=T0)
    paper, session = started.paper, started.session.session
    assert session.deadline == T0 + 90 * 60 and session.paper_id == saved.template.paper_id
    singles = [q for q in paper.questions if q.type == "single_choice"]
    multis = [q for q in paper.questions if q.type == "multiple_choice"]
    essay = next(q for q in paper.questions if q.type == "short_answer")
    responses = {q.id: right(q) for q in singles[:6]}
    responses.update({q.id: wrong(q) for q in singles[6:]})
    responses[multis[0].id] = right(multis[0])
    marks = (True,) * (len(essay.rubric) - 1) + (False,)  # all but one rubric item
    responses[essay.id] = TextResponse("答案", marks)
    submitted = actions.submit_exam(store, paper=paper, session_id=session.id,
                                    responses=responses, seconds={}, now=T0 + 600)
    report = submitted.report
    essay_points = 12.5 * (len(essay.rubric) - 1) / len(essay.rubric)
    assert report.score == pytest.approx(6 * 3 + 5 + essay_points, abs=1e-3)  # 4 places
    assert report.max_score == pytest.approx(SPEC.total_points)
    assert [(s.name, s.max_points) for s in report.sections] == [
        ("一、单选题", 30), ("二、多选题", 20), ("三、简答题", 25)]
    # answers and reviews are on the bank's question ids: the book and FSRS are per question
    stored = {r[0] for r in db_rows(store.path, "SELECT question_id FROM answers")}
    assert stored == set(responses) and stored <= {q.id for q in bank.all_questions()}
    assert {e.question.id for e in review.wrong_book(store, bank)} == \
        {q.id for q in singles[6:]}
    assert review.card_state(store, singles[0].id).reps == 1
    [listed] = study.templates(store, kind="mock_exam")
    assert listed.summary.attempts == 1 and listed.summary.best_score == report.score


def test_resume_after_a_kill_and_report_after_reopening(store, bank, tmp_path):
    started = study.start_mock_exam(store, bank=bank, spec=SPEC, now=T0)
    paper, sid = started.paper, started.session.session.id
    first = paper.questions[0]
    actions.save_draft(store, session_id=sid, question=first, response=right(first),
                       seconds=40, now=T0 + 40)
    actions.set_flag(store, session_id=sid, question_id=paper.questions[3].id, flagged=True)
    store.close()  # the app is killed; a new launch reopens the file

    reopened = ProgressStore(tmp_path / "progress.sqlite3")
    [unfinished] = actions.unfinished_exams(reopened, bank=bank)
    assert unfinished.id == sid and unfinished.remaining(T0 + 100) == 90 * 60 - 100
    found = actions.session_paper(reopened, bank=bank, session_id=sid)
    assert found.composed and found.paper == paper and found.missing == ()
    opened = actions.open_session(reopened, bank=bank, session_id=sid)
    assert opened.responses[first.id] == right(first)
    assert opened.flags == {paper.questions[3].id}
    # the deadline passed while the app was closed: auto-submitted with what was drafted
    done = actions.submit_exam(reopened, paper=found.paper, session_id=sid,
                               responses=opened.responses, seconds=opened.seconds,
                               final_state=SessionState.AUTO_SUBMITTED, now=T0 + 90 * 60 + 5)
    assert done.report.state == "auto_submitted" and done.report.score == 3
    again = actions.session_report(reopened, bank=bank, session_id=sid)
    assert again.report.score == 3 and again.paper == paper
    reopened.close()


def test_a_question_removed_from_the_bank_is_reported_missing(store, bank):
    started = study.start_mock_exam(store, bank=bank, spec=SPEC, now=T0)
    sid, paper = started.session.session.id, started.paper
    gone = paper.questions[1]
    actions.submit_exam(store, paper=paper, session_id=sid, seconds={}, now=T0 + 60,
                        responses={q.id: right(q) for q in paper.questions[:2]})
    # the bank grows by a paper and loses one question
    shrunk = Bank(papers=[replace(p, questions=tuple(q for q in p.questions if q.id != gone.id))
                          for p in bank.papers])
    report = actions.session_report(store, bank=shrunk, session_id=sid)
    assert [m.question_id for m in report.missing] == [gone.id]
    assert report.missing[0].position == 2 and report.missing[0].points == 3
    assert [q.number for q in report.paper.questions][:2] == [1, 3]  # numbers kept
    assert report.report.score == 3 and report.report.max_score == SPEC.total_points - 3


def test_template_round_trip_and_a_new_draw(store, bank):
    saved = study.save_template(store, kind="mock_exam", name="A", spec=SPEC.to_json())
    assert saved.template.spec == SPEC
    renamed = study.save_template(store, kind="mock_exam", name="B",
                                  spec=replace(SPEC, duration_minutes=45),
                                  template_id=saved.template.id)
    assert renamed.template.name == "B" and renamed.template.spec.duration_minutes == 45
    same = study.start_mock_exam(store, bank=bank, template_id=saved.template.id)
    redraw = study.start_mock_exam(store, bank=bank, template_id=saved.template.id, seed=99)
    assert [q.id for q in same.paper.questions] != [q.id for q in redraw.paper.questions]
    study.delete_template(store, template_id=saved.template.id)
    assert study.templates(store) == []
    # its exams stay reportable
    assert actions.session_report(store, bank=bank,
                                  session_id=same.session.session.id).paper == same.paper
