"""Practice sets: which questions to practise, chosen by filters, in paper order or seeded
random order. No Qt; the progress filters read the store.

A set is a pure function of its spec, the bank and the learner's progress: the same spec
with the same seed gives the same questions in the same order (candidates are sorted by
paper id and number before sampling, so the order the papers were loaded in does not
matter). ``study.start_practice_set`` turns a set into a practice run.
"""
from __future__ import annotations

import random
import secrets
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from . import review
from . import store_study as rows
from .enums import QuestionType, SetOrder, Status
from .model import Bank, Paper, Question
from .store import ProgressStore

__all__ = ["PracticeSetSpec", "PracticeSet", "build_practice_set", "candidates",
           "question_sort_key", "section_key", "section_title"]


@dataclass(frozen=True)
class PracticeSetSpec:
    """What to practise. Empty filters mean "any"; every filter given must hold.

    ``paper_ids``: None = every paper in the bank. ``sections``: one paper's section
    (``section_key(paper_id, title)``, what the dialog offers) or a title as papers print
    it, in any paper. ``topics``: any of them. ``statuses``: question statuses (ok,
    corrected, void, disputed, draft); void questions (no correct answer, not scored) are
    drawn only when ``statuses`` asks for them. ``include_drafts``: imported, unverified questions
    (practisable, shown as unverified). ``unanswered_only``: never answered and never seen
    (Show answer, recite); ``wrong_only``: in the wrong-answer book now;
    ``favourites_only``: starred. ``count``: None = all that match. ``seed``: for
    ``order="random"``; None = a fresh one, returned with the set so it can be repeated.
    """

    paper_ids: tuple[str, ...] | None = None
    sections: tuple[str, ...] = ()
    types: tuple[QuestionType, ...] = ()
    topics: tuple[str, ...] = ()
    statuses: tuple[Status, ...] = ()
    include_drafts: bool = True
    unanswered_only: bool = False
    wrong_only: bool = False
    favourites_only: bool = False
    order: SetOrder = SetOrder.PAPER
    count: int | None = None
    seed: int | None = None

    def __post_init__(self) -> None:
        # typed members from JSON or a dialog's strings; a bad value names the field
        for name, kind in (("types", QuestionType), ("statuses", Status)):
            try:
                object.__setattr__(self, name, tuple(kind(v) for v in getattr(self, name)))
            except ValueError as exc:
                raise ValueError(f"practice set: {name}: {exc}") from None
        try:
            object.__setattr__(self, "order", SetOrder(self.order))
        except ValueError as exc:
            raise ValueError(f"practice set: order: {exc}") from None
        for name in ("sections", "topics"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if self.paper_ids is not None:
            object.__setattr__(self, "paper_ids", tuple(self.paper_ids))
        if self.count is not None and (not isinstance(self.count, int) or self.count < 1):
            raise ValueError(f"practice set: count must be a positive whole number or None, "
                             f"not {self.count!r}")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(types=[str(t) for t in self.types],
                    statuses=[str(s) for s in self.statuses], order=str(self.order),
                    paper_ids=None if self.paper_ids is None else list(self.paper_ids),
                    sections=list(self.sections), topics=list(self.topics))
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PracticeSetSpec:
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"practice set: unknown field(s) {', '.join(unknown)}")
        return cls(**data)


@dataclass(frozen=True)
class PracticeSet:
    """The questions a spec chose, in order, and the seed that reproduces it."""

    spec: PracticeSetSpec  # with the seed used filled in
    question_ids: tuple[str, ...]
    matched: int  # how many questions passed the filters (before ``count``)
    papers: tuple[str, ...] = field(default=())  # paper ids, in the order first used


def question_sort_key(question: Question) -> tuple[str, int]:
    return question.paper_id, question.number


def _section_title(paper: Paper, question: Question) -> str:
    section = paper.section_of(question)
    return section.title if section else ""


SECTION_SEP = "\x1f"  # never in a title: paper id, then the section's title


def section_key(paper_id: str, title: str) -> str:
    """One paper's section in ``PracticeSetSpec.sections`` (two papers' 一、单选题 are two
    sections, not one)."""
    return f"{paper_id}{SECTION_SEP}{title}"


def section_title(key: str) -> str:
    """The title in a ``section_key`` (a bare title is its own)."""
    return key.rpartition(SECTION_SEP)[2]


def _in_sections(paper: Paper, question: Question, sections: set[str]) -> bool:
    title = _section_title(paper, question)
    return title in sections or section_key(paper.id, title) in sections


def candidates(bank: Bank, spec: PracticeSetSpec, *, starred: set[str] | None = None,
               touched: set[str] | None = None, wrong: set[str] | None = None
               ) -> list[Question]:
    """Questions passing the spec's filters, in paper order. The progress filters need the
    sets they name (``starred``, ``touched`` = answered or seen, ``wrong``)."""
    wanted = None if spec.paper_ids is None else set(spec.paper_ids)
    types, statuses = set(spec.types), set(spec.statuses)
    topics, sections = set(spec.topics), set(spec.sections)
    out: list[Question] = []
    for paper in bank.papers:
        if wanted is not None and paper.id not in wanted:
            continue
        for q in paper.questions:
            if ((types and q.type not in types) or (statuses and q.status not in statuses)
                    or (q.status == Status.VOID and Status.VOID not in statuses)
                    or (not spec.include_drafts and q.draft)
                    or (topics and not topics.intersection(q.topics))
                    or (sections and not _in_sections(paper, q, sections))
                    or (spec.favourites_only and q.id not in starred)
                    or (spec.unanswered_only and q.id in touched)
                    or (spec.wrong_only and q.id not in wrong)):
                continue
            out.append(q)
    out.sort(key=question_sort_key)
    return out


def _progress_sets(store: ProgressStore, spec: PracticeSetSpec) -> dict[str, set[str] | None]:
    return {
        "starred": rows.starred_ids(store) if spec.favourites_only else None,
        "touched": rows.touched_question_ids(store) if spec.unanswered_only else None,
        "wrong": set(review.book_question_ids(store)) if spec.wrong_only else None,
    }


def build_practice_set(store: ProgressStore, bank: Bank, spec: PracticeSetSpec
                       ) -> PracticeSet:
    """The questions of ``spec``: filtered, then ordered (and cut to ``count``)."""
    with store.atomic():  # the progress filters read one snapshot
        pool = candidates(bank, spec, **_progress_sets(store, spec))
    seed = spec.seed
    if spec.order == SetOrder.RANDOM:
        if seed is None:
            seed = secrets.randbelow(2**31)
        rng = random.Random(seed)
        chosen = rng.sample(pool, min(spec.count or len(pool), len(pool)))
    else:
        chosen = pool[:spec.count] if spec.count else pool
    ids = tuple(q.id for q in chosen)
    used = spec if spec.seed == seed else replace(spec, seed=seed)
    return PracticeSet(used, ids, len(pool), tuple(dict.fromkeys(q.paper_id for q in chosen)))
