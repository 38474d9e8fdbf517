"""Check attempts: every run of a programming question's checks, with the code it ran on.

The workspace's history (open or diff an earlier attempt) reads these; the grade of an
answer still comes from the checks stored with its response (``grading``), an attempt is
the learner's record of what they tried. ``failure_summary`` turns a run where every check
failed on the same exception (the starter's ``raise NotImplementedError``) into one message
instead of one traceback per check. No Qt.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

__all__ = ["CheckAttempt", "required_passed", "failure_summary", "SharedFailure",
           "strip_ansi", "traceback_text"]

# IPython colours its tracebacks with terminal escapes: learners must never read them raw.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def strip_ansi(text: str) -> str:
    """``text`` without terminal colour and cursor escapes."""
    return _ANSI.sub("", text)


def traceback_text(value: Any) -> str:
    """A stored traceback (IPython's list of frames, or one string) as plain text."""
    if isinstance(value, (list, tuple)):
        value = "\n".join(str(v) for v in value)
    return strip_ansi(str(value or ""))


@dataclass(frozen=True)
class CheckAttempt:
    """One check run: the code, the result dicts of the harness, and why there is no
    verdict (``error``) when the suite could not run."""

    id: int
    uid: str
    session_id: int
    question_id: str
    code: str
    checks: tuple[dict, ...]
    error: str | None
    passed: int  # required checks passed
    required: int  # required checks run
    created_at: float

    @property
    def all_passed(self) -> bool:
        return self.error is None and self.required > 0 and self.passed == self.required


def required_passed(checks: Iterable[dict]) -> tuple[int, int]:
    """(required checks passed, required checks run); a check marked ``not_judged`` (this
    environment could not run the code, e.g. a Triton without block pointers) is neither."""
    required = [c for c in checks if c.get("required", True) and not c.get("not_judged")]
    return sum(1 for c in required if c.get("passed")), len(required)


@dataclass(frozen=True)
class SharedFailure:
    """Several checks failed with the very same exception: say it once."""

    message: str  # "NotImplementedError: " as the harness reported it
    count: int  # how many checks failed with it
    traceback: str  # the first one's traceback (the harness keeps its last frames)
    starter_placeholder: bool  # NotImplementedError: the starter's unfinished parts


def _exception_message(check: dict) -> str | None:
    """The exception a failed check stopped at, when the learner's code raised (the harness
    puts a traceback in the details then; a failed property has none)."""
    details = check.get("details") or {}
    if check.get("passed") or not isinstance(details, dict) or not details.get("traceback"):
        return None
    return str(check.get("message") or "")


def failure_summary(checks: Iterable[dict], *, at_least: int = 2) -> SharedFailure | None:
    """The exception shared by every failed check, if at least ``at_least`` failed and all
    failed the same way because the code raised; else None (real, differing failures)."""
    failed = [c for c in checks if not c.get("passed")]
    messages = [_exception_message(c) for c in failed]
    if len(failed) < at_least or None in messages or len(set(messages)) != 1:
        return None
    message: Any = strip_ansi(messages[0])
    return SharedFailure(message=message, count=len(failed),
                         traceback=traceback_text((failed[0].get("details") or {}).get("traceback")),
                         starter_placeholder=message.startswith("NotImplementedError"))
