"""Load and validate question packs.

Every problem becomes a ``Problem`` (file, question, field, message); loading
never raises on bad content, so one broken file cannot hide the others.
"""
from __future__ import annotations

import math
import re
import sys
from pathlib import Path
from typing import Any, Iterable

from .enums import MultipleChoiceRule, QuestionType, Status
from .model import (
    BLANK_MARK,
    Bank,
    CodeFiles,
    NumericPart,
    Paper,
    Problem,
    Question,
    ReviewFlag,
    RubricItem,
    Section,
)
from .paths import BUNDLED_PAPERS

__all__ = ["load_bank", "load_paper", "load_question", "paper_folders", "PAPER_FILE",
           "PAPER_ID"]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

QUESTION_TYPES = tuple(t.value for t in QuestionType)
STATUSES = tuple(s.value for s in Status)
MULTIPLE_CHOICE_RULES = tuple(r.value for r in MultipleChoiceRule)
PAPER_FILE = "paper.toml"
PAPER_ID = re.compile(r"^[A-Za-z0-9_-]+$")
OPTION_LETTER = re.compile(r"^[A-Z]$")

PAPER_KEYS = {"id", "title", "source", "language", "duration_minutes", "duration_note",
              "sections"}
SECTION_KEYS = {"title", "type", "first", "last", "points", "scoring",
                "multiple_choice_rule", "note"}
COMMON_KEYS = {"number", "type", "points", "topics", "status", "stem", "seed_answer",
               "answer", "explanation", "errata", "verify", "truncated", "truncated_at",
               "review"}
REVIEW_KEYS = {"kind", "text", "why", "field"}
# statuses that may leave the verified key out: nothing is correct (void), or nobody has
# verified the printed key yet and the source printed none (draft)
KEYLESS_STATUSES = ("void", "draft")
TYPE_KEYS = {
    "single_choice": {"options", "also_accept"},
    "multiple_choice": {"options", "also_accept"},
    "fill_blank": {"blank_points"},
    "calculation": {"rubric", "reference_answer"},
    "short_answer": {"rubric"},
    "system_design": {"rubric"},
    "programming": {"rubric", "code"},
}
CODE_KEYS = {"reference", "starter", "seed", "check", "wrong", "correct"}
POINTS_EPS = 1e-6
_PLAIN_FIELD = re.compile(r"^[^:\x00-\x1f\x7f]+$")  # keeps `file:question:field: message` parseable


class _Reporter:
    """Collects problems for one file/question and answers 'is it still valid?'."""

    def __init__(self, problems: list[Problem], file: str, question: str):
        self.problems = problems
        self.file = file
        self.question = question
        self.count = 0

    def __call__(self, field: str, message: str) -> None:
        if not _PLAIN_FIELD.match(field):  # a quoted TOML key may hold ':' or a line break
            field = field.encode("unicode_escape").decode("ascii").replace(":", "\\x3a")
        self.problems.append(Problem(self.file, self.question, field, message))
        self.count += 1


def _read_toml(path: Path, report: _Reporter) -> dict | None:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        report("syntax", f"invalid TOML: {exc}")
    except UnicodeDecodeError as exc:
        report("syntax", f"not UTF-8: {exc}")
    except RecursionError:  # tomllib recurses once per nesting level
        report("syntax", "invalid TOML: arrays or tables nested too deeply")
    except OSError as exc:
        report("file", f"cannot read: {exc.strerror or exc}")
    return None


def _pack_file(folder: Path, name: Any, field: str, report: _Reporter) -> Path | None:
    """A code file named in a question: inside the paper folder (a pack cannot point at
    other files on the machine), present, and UTF-8 (it is shown and sent to a kernel)."""
    if not isinstance(name, str) or not name:
        report(field, "must be a file name")
        return None
    path = folder / name
    try:  # a name can be anything a TOML string holds: NUL, 10 kB long, ...
        if not path.resolve().is_relative_to(folder.resolve()):
            report(field, f"{name!r} is outside the paper folder")
            return None
        if not path.is_file():
            report(field, f"file not found: {path}")
            return None
        path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        report(field, f"not UTF-8: {exc}")
        return None
    except (OSError, ValueError) as exc:
        report(field, f"cannot read {name[:80]!r}: {getattr(exc, 'strerror', None) or exc}")
        return None
    return path


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _text(data: dict, key: str, report: _Reporter, *, required: bool = True) -> str:
    value = data.get(key)
    if value is None:
        if required:
            report(key, "missing")
        return ""
    if not isinstance(value, str):
        report(key, f"must be a string, got {type(value).__name__}")
        return ""
    if required and not value.strip():
        report(key, "must not be empty")
    return value


def _unknown_keys(data: dict, allowed: set[str], report: _Reporter, prefix: str = "") -> None:
    for key in sorted(set(data) - allowed):
        report(prefix + key, "unknown field (typo?)")


# --- papers -----------------------------------------------------------------------------

def _load_sections(raw: Any, report: _Reporter) -> list[Section]:
    if not isinstance(raw, list) or not raw:
        report("sections", "must be a non-empty array of tables ([[sections]])")
        return []
    sections = []
    for i, sec in enumerate(raw):
        field = f"sections[{i}]"
        if not isinstance(sec, dict):
            report(field, "must be a table")
            continue
        before = report.count
        _unknown_keys(sec, SECTION_KEYS, report, field + ".")
        qtype = sec.get("type")
        if qtype not in QUESTION_TYPES:
            report(field + ".type", f"unknown question type {qtype!r}; expected one of "
                                    f"{', '.join(QUESTION_TYPES)}")
        for key in ("first", "last"):
            if not isinstance(sec.get(key), int) or isinstance(sec.get(key), bool):
                report(f"{field}.{key}", "must be an integer question number")
        if not _is_number(sec.get("points")) or sec.get("points", 0) < 0:
            report(field + ".points", "must be a non-negative number")
        rule = sec.get("multiple_choice_rule", "all_or_nothing")
        if rule not in MULTIPLE_CHOICE_RULES:
            report(field + ".multiple_choice_rule",
                   f"must be one of {', '.join(MULTIPLE_CHOICE_RULES)}, got {rule!r}")
        title = sec.get("title")
        if not isinstance(title, str) or not title.strip():
            report(field + ".title", "missing")
        if report.count > before:
            continue
        if sec["first"] > sec["last"]:
            report(field + ".first", f"first ({sec['first']}) is after last ({sec['last']})")
            continue
        sections.append(Section(title=title, type=QuestionType(qtype), first=sec["first"],
                                last=sec["last"], points=sec["points"],
                                scoring=str(sec.get("scoring", "")),
                                multiple_choice_rule=MultipleChoiceRule(rule),
                                note=str(sec.get("note", ""))))
    return sections


def _load_paper_meta(path: Path, problems: list[Problem]) -> dict | None:
    report = _Reporter(problems, str(path), "-")
    data = _read_toml(path, report)
    if data is None:
        return None
    _unknown_keys(data, PAPER_KEYS, report)
    meta = {
        "id": _text(data, "id", report),
        "title": _text(data, "title", report),
        "language": _text(data, "language", report),
        "source": data.get("source"),
        "duration_note": _text(data, "duration_note", report, required=False),
    }
    if meta["id"] and not PAPER_ID.match(meta["id"]):
        report("id", f"{meta['id']!r} may only contain letters, digits, '_' and '-'")
    if meta["source"] is not None and not isinstance(meta["source"], str):
        report("source", "must be a string (the seed file name) or omitted")
    duration = data.get("duration_minutes")
    if not isinstance(duration, int) or isinstance(duration, bool) or duration <= 0:
        report("duration_minutes", "must be a positive integer")
    meta["duration_minutes"] = duration
    meta["sections"] = _load_sections(data.get("sections"), report)
    return None if report.count else meta


# --- questions --------------------------------------------------------------------------

def _options(data: dict, report: _Reporter) -> dict[str, str] | None:
    options = data.get("options")
    if not isinstance(options, dict) or len(options) < 2:
        report("options", "must be a table of at least two options (A = \"…\", B = \"…\")")
        return None
    clean = {}
    for letter, text in options.items():
        if not OPTION_LETTER.match(letter):
            report(f"options.{letter}", "option keys must be single capital letters")
        elif not isinstance(text, str) or not text.strip():
            report(f"options.{letter}", "must be non-empty text")
        else:
            clean[letter] = text
    return dict(sorted(clean.items()))


def _choice_key(value: Any, field: str, qtype: str, options: dict, report: _Reporter):
    if qtype == "single_choice":
        if not isinstance(value, str):
            report(field, f"must be one option letter, got {value!r}")
            return None
        if value not in options:
            report(field, f"{value!r} is not among the options {', '.join(options)}")
            return None
        return value
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        report(field, f"must be a non-empty list of option letters, got {value!r}")
        return None
    missing = [v for v in value if v not in options]
    if missing:
        report(field, f"{', '.join(missing)} not among the options {', '.join(options)}")
        return None
    if len(set(value)) != len(value):
        report(field, "repeats a letter")
        return None
    return sorted(value)


def _fill_key(value: Any, field: str, report: _Reporter, *, variants: bool):
    if not isinstance(value, list) or not value:
        report(field, "must be a non-empty list with one entry per blank")
        return None
    out = []
    for i, blank in enumerate(value):
        if variants:
            if (not isinstance(blank, list) or not blank
                    or not all(isinstance(v, str) and v.strip() for v in blank)):
                report(f"{field}[{i}]", "must be a non-empty list of accepted strings")
                return None
            out.append(list(blank))
        else:
            if not isinstance(blank, str):
                report(f"{field}[{i}]", "must be a string")
                return None
            out.append(blank)
    return out


def _rubric(data: dict, report: _Reporter, *, required: bool) -> tuple[RubricItem, ...]:
    raw = data.get("rubric")
    if raw is None:
        if required:
            report("rubric", "missing: subjective answers need [[rubric]] items")
        return ()
    if not isinstance(raw, list):
        report("rubric", "must be an array of tables ([[rubric]])")
        return ()
    items = []
    for i, item in enumerate(raw):
        if (not isinstance(item, dict) or not isinstance(item.get("text"), str)
                or not _is_number(item.get("points")) or item["points"] < 0
                or not isinstance(item.get("auto", False), bool)):
            report(f"rubric[{i}]", "needs text (string), points (non-negative number) and "
                                   "optionally auto (boolean)")
            continue
        items.append(RubricItem(item["text"], item["points"], item.get("auto", False)))
    return tuple(items)


def _numeric_parts(raw: Any, report: _Reporter) -> tuple[NumericPart, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        report("answer", "calculation answers are [[answer]] tables (label, value, tolerance, "
                         "unit, points)")
        return ()
    parts = []
    for i, part in enumerate(raw):
        field = f"answer[{i}]"
        if not isinstance(part, dict):
            report(field, "must be a table")
            continue
        bad = [k for k in ("value", "tolerance", "points") if not _is_number(part.get(k))]
        if bad:
            report(field, f"{', '.join(bad)} must be finite numbers")
            continue
        if part["tolerance"] < 0:
            report(field + ".tolerance", "must not be negative")
            continue
        parts.append(NumericPart(str(part.get("label", f"({i + 1})")), float(part["value"]),
                                 float(part["tolerance"]), str(part.get("unit", "")),
                                 part["points"]))
    return tuple(parts)


def _code_files(data: dict, folder: Path, report: _Reporter, *,
                draft: bool = False) -> CodeFiles | None:
    raw = data.get("code")
    if not isinstance(raw, dict):
        report("code", "programming questions need a [code] table with at least `reference`"
                       + (" (a draft: `seed` or `starter`)" if draft else ""))
        return None
    _unknown_keys(raw, CODE_KEYS, report, "code.")

    def resolve(key: str, name: Any) -> Path | None:
        return _pack_file(folder, name, f"code.{key}", report)

    if draft and "reference" not in raw:  # imported code, not solved by a person yet
        reference = None
        if not ({"seed", "starter"} & set(raw)):
            report("code", "a draft's [code] table needs `reference`, `seed` or `starter`")
    else:
        reference = resolve("reference", raw.get("reference"))
    optional = {k: resolve(k, raw[k]) for k in ("starter", "seed", "check") if k in raw}
    lists = {}
    for key in ("wrong", "correct"):
        names = raw.get(key, [])
        if not isinstance(names, list):
            report(f"code.{key}", "must be a list of file names")
            names = []
        lists[key] = tuple(p for p in (resolve(key, n) for n in names) if p)
    both = sorted({p.name for p in lists["wrong"]} & {p.name for p in lists["correct"]})
    if both:
        report("code.correct", f"listed as both correct and wrong: {', '.join(both)}")
    if reference is None and not draft:
        return None
    return CodeFiles(reference=reference, wrong=lists["wrong"], correct=lists["correct"],
                     **optional)


def _draft_fields(data: dict, status: str, report: _Reporter) -> dict[str, Any]:
    """``truncated``/``truncated_at`` (any status) and ``review`` flags (drafts only)."""
    fields: dict[str, Any] = {}
    truncated = data.get("truncated", False)
    if not isinstance(truncated, bool):
        report("truncated", "must be true or false")
    elif truncated:
        fields["truncated"] = True
        fields["truncated_at"] = _text(data, "truncated_at", report, required=False)
    elif "truncated_at" in data:
        report("truncated_at", "only a question with truncated = true says where it was cut")
    raw = data.get("review")
    if raw is None:
        return fields
    if status != "draft":
        report("review", "review flags belong to drafts: resolve them before verifying")
        return fields
    if not isinstance(raw, list):
        report("review", "must be an array of tables ([[review]]: kind, text, why)")
        return fields
    flags = []
    for i, item in enumerate(raw):
        if (not isinstance(item, dict) or set(item) - REVIEW_KEYS
                or not all(isinstance(item.get(k), str) for k in ("kind", "text", "why"))
                or not isinstance(item.get("field", ""), str)):
            report(f"review[{i}]", "needs kind, text and why (strings) and optionally field")
            continue
        flags.append(ReviewFlag(item["kind"], item["text"], item["why"], item.get("field", "")))
    fields["review"] = tuple(flags)
    return fields


def _check_points(total: float, parts: Iterable[float], field: str, report: _Reporter) -> None:
    parts = list(parts)
    if parts and abs(sum(parts) - total) > POINTS_EPS:
        report(field, f"points add up to {sum(parts):g}, but the question is worth {total:g}")


def load_question(path: Path, paper_id: str, problems: list[Problem]) -> Question | None:
    """Parse and validate one question file; None (with problems recorded) if unusable."""
    label = f"{paper_id}/{path.stem}"
    report = _Reporter(problems, str(path), label)
    data = _read_toml(path, report)
    if data is None:
        return None
    number = data.get("number")
    if not isinstance(number, int) or isinstance(number, bool) or number <= 0:
        report("number", "missing or not a positive integer")
        return None
    report.question = f"{paper_id}/{number}"
    qtype = data.get("type")
    if qtype not in QUESTION_TYPES:
        report("type", f"unknown question type {qtype!r}; expected one of "
                       f"{', '.join(QUESTION_TYPES)}")
        return None
    _unknown_keys(data, COMMON_KEYS | TYPE_KEYS[qtype], report)
    points = data.get("points")
    if not _is_number(points) or points < 0:
        report("points", "missing or not a non-negative number")
        points = 0
    status = data.get("status", "ok")
    if status not in STATUSES:
        report("status", f"must be one of {', '.join(STATUSES)}, got {status!r}")
    stem = _text(data, "stem", report)
    explanation = _text(data, "explanation", report, required=status != "draft")
    errata = _text(data, "errata", report, required=status not in ("ok", "draft"))
    if status == "ok" and errata.strip():
        report("errata", "a question with errata is never `ok`: use `corrected` when the "
                         "printed key was right but its explanation or code was not")
    draft = status == "draft"
    topics = data.get("topics", [])
    if not isinstance(topics, list) or not all(isinstance(t, str) and t for t in topics):
        report("topics", "must be a list of non-empty strings")
        topics = []
    before = report.count
    fields: dict[str, Any] = _draft_fields(data, status, report)
    if "verify" in data:
        verify = _pack_file(path.parent, data["verify"], "verify", report)
        if verify is not None:
            fields["verify"] = verify
    answer = data.get("answer")
    seed_answer = data.get("seed_answer")
    if "seed_answer" not in data:
        report("seed_answer", "missing (what the seed printed; use \"\" for original packs)")

    if qtype in ("single_choice", "multiple_choice"):
        options = _options(data, report) or {}
        fields["options"] = options
        if answer is None and status not in KEYLESS_STATUSES:
            report("answer", "missing (only a void or draft question may omit it)")
        elif answer is not None and options:
            answer = _choice_key(answer, "answer", qtype, options, report)
        if options and seed_answer not in (None, ""):
            seed_answer = _choice_key(seed_answer, "seed_answer", qtype, options, report)
        also = data.get("also_accept", [])
        if not isinstance(also, list):
            report("also_accept", "must be a list of alternative keys")
        elif also and status != "disputed":
            report("also_accept", "only a disputed question may accept alternative keys")
        elif options:
            fields["also_accept"] = tuple(
                _choice_key(k, f"also_accept[{i}]", qtype, options, report)
                for i, k in enumerate(also))
    elif qtype == "fill_blank" and answer is None and status in KEYLESS_STATUSES:
        if seed_answer not in (None, ""):
            seed_answer = _fill_key(seed_answer, "seed_answer", report, variants=False)
    elif qtype == "fill_blank":
        answer = _fill_key(answer, "answer", report, variants=True)
        if seed_answer not in (None, ""):
            seed_answer = _fill_key(seed_answer, "seed_answer", report, variants=False)
        blanks = len(BLANK_MARK.findall(stem))
        if answer is not None and blanks != len(answer):
            report("answer", f"{len(answer)} blank(s) in the key but {blanks} in the stem "
                             f"(blanks are runs of 4+ underscores)")
        blank_points = data.get("blank_points")
        if blank_points is None and answer:
            blank_points = [points / len(answer)] * len(answer)
        if answer and (not isinstance(blank_points, list) or len(blank_points) != len(answer)
                       or not all(_is_number(p) for p in blank_points)):
            report("blank_points", "must list one number per blank")
        elif answer:
            _check_points(points, blank_points, "blank_points", report)
            fields["blank_points"] = tuple(blank_points)
    elif qtype == "calculation":
        parts = _numeric_parts(answer, report)
        rubric = _rubric(data, report, required=False)
        if not parts and not rubric:
            report("answer", "a calculation needs numeric [[answer]] parts or [[rubric]] items")
        _check_points(points, [p.points for p in parts] + [r.points for r in rubric],
                      "answer", report)
        fields.update(parts=parts, rubric=rubric,
                      reference_answer=_text(data, "reference_answer", report,
                                             required=not draft))
        answer = [p.to_json() for p in parts]
    elif qtype in ("short_answer", "system_design"):
        answer = _text(data, "answer", report, required=not draft)
        rubric = _rubric(data, report, required=True)
        _check_points(points, [r.points for r in rubric], "rubric", report)
        fields["rubric"] = rubric
    else:  # programming
        code = _code_files(data, path.parent, report, draft=draft)
        rubric = _rubric(data, report, required=True)
        _check_points(points, [r.points for r in rubric], "rubric", report)
        fields.update(code=code, rubric=rubric)
        answer = (code.read("reference") or code.read("seed") or None) if code else None

    if report.count > before or status not in STATUSES:
        return None
    return Question(
        id=f"{paper_id}/{number}", paper_id=paper_id, number=number, type=QuestionType(qtype),
        points=points, stem=stem, status=Status(status), answer=answer, seed_answer=seed_answer,
        explanation=explanation, errata=errata, topics=tuple(topics), source_file=str(path),
        **fields)


def load_paper(folder: Path, problems: list[Problem]) -> Paper | None:
    """Load one paper folder; question files that fail are reported and left out."""
    paper_path = folder / PAPER_FILE
    meta = _load_paper_meta(paper_path, problems)
    if meta is None:
        return None
    questions: dict[int, Question] = {}
    for path in sorted(folder.glob("*.toml")):
        if path.name == PAPER_FILE:
            continue
        q = load_question(path, meta["id"], problems)
        if q is None:
            continue
        if q.number in questions:
            problems.append(Problem(str(path), q.id, "number",
                                    f"duplicate id {q.id}: also defined in "
                                    f"{questions[q.number].source_file}"))
            continue
        questions[q.number] = q
    ordered = tuple(questions[n] for n in sorted(questions))
    _check_sections(paper_path, meta, ordered, problems)
    return Paper(id=meta["id"], title=meta["title"], source=meta["source"],
                 language=meta["language"], duration_minutes=meta["duration_minutes"],
                 duration_note=meta["duration_note"], sections=tuple(meta["sections"]),
                 questions=ordered, folder=folder)


def _check_sections(paper_path: Path, meta: dict, questions: tuple[Question, ...],
                    problems: list[Problem]) -> None:
    sections: list[Section] = meta["sections"]
    for q in questions:
        owners = [s for s in sections if s.contains(q.number)]
        if len(owners) != 1:
            problems.append(Problem(q.source_file, q.id, "number",
                                    f"belongs to {len(owners)} sections; expected exactly one"))
        elif owners[0].type != q.type:
            problems.append(Problem(q.source_file, q.id, "type",
                                    f"{q.type} in section {owners[0].title!r} of type "
                                    f"{owners[0].type}"))
    numbers = {q.number for q in questions}
    for i, s in enumerate(sections):
        members = [q for q in questions if s.contains(q.number)]
        absent = [n for n in range(s.first, s.last + 1) if n not in numbers]
        if absent:
            problems.append(Problem(str(paper_path), "-", f"sections[{i}]",
                                    f"{s.title}: question(s) {', '.join(map(str, absent))} "
                                    f"missing or failed to load"))
        elif abs(sum(q.points for q in members) - s.points) > POINTS_EPS:
            problems.append(Problem(str(paper_path), "-", f"sections[{i}].points",
                                    f"{s.title}: questions add up to "
                                    f"{sum(q.points for q in members):g}, section states "
                                    f"{s.points:g}"))


def paper_folders(root: Path) -> list[Path]:
    """A folder holding paper.toml is one paper; otherwise its subfolders are papers.

    Dot-folders are never papers: ``.NAME.<random>.partial`` and ``.NAME.replaced`` are a
    write in progress or what a killed one left (``pack_folders``), and a half copy that
    sorted first would win over the real pack of the same id.
    """
    if (root / PAPER_FILE).is_file():
        return [root]
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir()
                  if not p.name.startswith(".") and p.is_dir() and (p / PAPER_FILE).exists())


def load_bank(roots: Iterable[Path] | None = None, *, include_bundled: bool = True) -> Bank:
    """Load the bundled papers plus every paper under ``roots``.

    A paper whose id is already taken is reported and skipped, never merged.
    """
    bank = Bank()
    all_roots = ([BUNDLED_PAPERS] if include_bundled else []) + [Path(r) for r in roots or ()]
    seen: dict[str, Path] = {}
    for root in all_roots:
        if not root.exists():
            bank.problems.append(Problem(str(root), "-", "path", "does not exist"))
            continue
        for folder in paper_folders(root):
            if folder.resolve() in {p.resolve() for p in seen.values()}:
                continue
            paper = load_paper(folder, bank.problems)
            if paper is None:
                continue
            if paper.id in seen:
                bank.problems.append(Problem(str(folder / PAPER_FILE), "-", "id",
                                             f"duplicate paper id {paper.id!r}: already loaded "
                                             f"from {seen[paper.id]}"))
                continue
            seen[paper.id] = folder
            bank.papers.append(paper)
    return bank
