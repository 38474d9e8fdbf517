"""A person verifying an imported draft question: what must be true first, and the status
it gets.

Honesty rules (FORMAT.md, issue "bring any paper in"): a verified key the person changed
from the printed one makes the question ``corrected`` and needs errata saying what the paper
got wrong; a question with errata is never ``ok``; every verified question needs an
explanation; a programming question's code becomes its reference solution, so it must at
least compile. The review flags are resolved by verifying (the loader keeps flags on drafts
only); ``unverify`` puts the question back to ``draft``.
"""
from __future__ import annotations

import warnings

from ..grading import normalize_blank
from ..model import BLANK_MARK
from .pack import DraftQuestion

__all__ = ["CHOICE", "printed_key_changed", "verification_problems", "verify", "unverify"]

CHOICE = ("single_choice", "multiple_choice")


def printed_key_changed(q: DraftQuestion) -> bool:
    """The key a person set differs from the printed one (objective questions only; a
    printed key that was missing and is now given counts as changed)."""
    if q.type in CHOICE:
        given = sorted(q.answer) if isinstance(q.answer, list) else q.answer
        printed = sorted(q.seed_answer) if isinstance(q.seed_answer, list) else q.seed_answer
        return (given or None) != (printed or None)
    if q.type == "fill_blank":
        # as the grader compares: spacing, width, case and 繁/简 do not change a key
        given = [normalize_blank(v[0]) for v in q.answer] if q.answer else None
        printed = [normalize_blank(p) for p in q.seed_answer] if q.seed_answer else None
        return given != printed
    return False


def verification_problems(q: DraftQuestion) -> list[str]:
    """What stops ``q`` from being verified now (empty: it can be)."""
    problems = []
    if not q.stem.strip():
        problems.append("the stem is empty")
    if not q.explanation.strip():
        problems.append("write an explanation: why the key is right")
    if q.type in CHOICE:
        keys = q.answer if isinstance(q.answer, list) else [q.answer] if q.answer else []
        if not keys:
            problems.append("set the key")
        elif any(k not in (q.options or {}) for k in keys):
            problems.append("the key names a letter that is not an option")
        elif q.type == "single_choice" and len(keys) != 1:
            problems.append("a single-choice key is one letter")
    elif q.type == "fill_blank":
        blanks = len(BLANK_MARK.findall(q.stem))
        if not q.answer or len(q.answer) != blanks:
            problems.append(f"the stem has {blanks} blank(s): give one key for each")
    elif q.type in ("short_answer", "system_design") and not str(q.answer or "").strip():
        problems.append("write the reference answer")
    elif q.type == "calculation" and not q.reference_answer.strip():
        problems.append("write the worked solution")
    elif q.type == "programming":
        code = q.code.get("reference") or q.code.get("seed") or ""
        if not code.strip():
            problems.append("a verified programming question needs reference code")
        else:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", SyntaxWarning)
                    compile(code, "<reference>", "exec")
            except SyntaxError as exc:
                problems.append(f"the code does not compile (line {exc.lineno}: {exc.msg})")
    if printed_key_changed(q) and not q.errata.strip():
        problems.append("you changed the printed key: say in errata what the paper got wrong")
    return problems


def verify(q: DraftQuestion) -> None:
    """Mark ``q`` verified (``ok``, or ``corrected`` when the key changed or there are
    errata). ``ValueError`` lists what is missing."""
    problems = verification_problems(q)
    if problems:
        raise ValueError("; ".join(problems))
    q.status = "corrected" if printed_key_changed(q) or q.errata.strip() else "ok"
    if q.type == "programming":
        q.code["reference"] = q.code.get("reference") or q.code.get("seed", "")
    q.review = []


def unverify(q: DraftQuestion, review: list | None = None) -> None:
    """Back to ``draft`` (with the flags it had, when given)."""
    q.status = "draft"
    if review is not None:
        q.review = list(review)
