"""The importer's generalisation suite (issue 26, item 7): the verified bank printed as
exam papers in many layouts and formats (``bench/paper_render.py``), imported back with
``import_file`` and compared with the bank (``bench/import_score.py``).

Goals per file: every question found (and none invented), types >= 95 %, options exact
>= 95 %, printed keys >= 95 %, stem similarity median >= 0.97, every code block compiling
or flagged, truncation flagged exactly when the file was cut. Two papers in one file:
both imported or refused naming the second; a file without questions: a clear error.

Many cases fail until the importer's rewrite and the .md/.pdf/.html/.docx readers land;
``python bench/import_score.py`` prints the whole table.
"""
from __future__ import annotations

import sys

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO))
from bench import import_score as sc  # noqa: E402
from bench import paper_render as pr  # noqa: E402
from question_db.interchange.encoding import UnreadableInput  # noqa: E402
from question_db.interchange.importers import import_file  # noqa: E402

CASES = pr.cases()


@pytest.fixture(scope="module")
def papers_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("rendered")


def _summary(row: dict) -> str:
    return (f"found {row['found']:.2f} (+{row['extra']} extra), types {row['types']:.2f}, "
            f"options {row['options']:.2f}, keys {row['keys']:.2f}, stems {row['stems']:.2f}, "
            f"code {row['code']:.2f}, truncated flagged {row['truncated_flagged']} "
            f"(cut: {row['cut']})")


@pytest.mark.parametrize("pid,layout,fmt", CASES, ids=[f"{p}-{lo}-{f}" for p, lo, f in CASES])
def test_rendered_paper_imports_back(pid, layout, fmt, papers_dir):
    row = sc.run_case(pid, layout, fmt, papers_dir)
    assert row["error"] is None, f"{row['path']} was not imported: {row['error']}"
    missed = [name for name, ok in sc.goals_met(row).items() if not ok]
    assert not missed, f"{row['path']}: goals missed: {', '.join(missed)}; {_summary(row)}"


def test_two_papers_in_one_file_are_both_imported_or_named(papers_dir):
    path = pr.render_two_papers(papers_dir)
    first, second = pr.bank_paper("000"), pr.bank_paper("001")
    try:
        result = import_file(path)
    except UnreadableInput as exc:
        message = str(exc)
        assert str(path) in message
        assert second.title[:12] in message, message  # names the second paper
        return
    numbers = len(result.paper.questions)
    assert numbers == len(first.questions) + len(second.questions), (
        f"two papers read as one with {numbers} questions and no message")


@pytest.mark.parametrize("fmt", ["txt", "docx"])
def test_a_file_without_questions_is_refused_clearly(fmt, papers_dir):
    path = pr.render_no_questions(papers_dir, fmt)
    with pytest.raises(UnreadableInput) as info:
        import_file(path)
    message = str(info.value)
    assert str(path) in message
    assert "question" in message.lower() or "题" in message, message
