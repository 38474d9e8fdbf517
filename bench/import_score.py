"""Score an import of a rendered paper against the verified bank it was printed from
(issue 26, item 7; the renderer is ``bench/paper_render.py``).

    result = run_case(pid, layout, fmt, out_dir)    # render, import, score: a row
    print(table([result, ...]))

Metrics per file (``score``), each a fraction of the bank's questions unless said:

- ``found``: bank questions with an imported question of the same number (the importer
  renumbers through the paper), ``extra``: imported questions with no bank number;
- ``types``: same ``type``;
- ``options``: per option of the bank's choice questions, the imported option of that
  letter equals it after normalising (``norm``) both;
- ``keys``: the imported ``seed_answer`` equals the printed key (``paper_render.
  printed_key``): choice letters exactly, fill-in blanks one by one after normalising,
  Markdown answers (calculation, short answer, system design, programming) with a
  normalised similarity of at least ``TEXT_KEY_RATIO``;
- ``stems``: the median ``difflib.SequenceMatcher`` ratio of the normalised stems
  (a missing question counts 0);
- ``code``: imported questions whose every python code block (fenced blocks in any field
  and the ``code`` files) compiles, or which carry a review flag about code, among those
  with code; 1.0 when no question has code;
- ``truncation``: True when some question is flagged truncated exactly when the file was
  cut (then the last question, and only it).

A file the importer cannot read gives a row with ``error`` set and zeros, never an
exception. Seed-damaged layouts are compared after the same damage normalisation of both
sides (``norm(..., damaged=True)``: Traditional->Simplified round trip, every whitespace,
``-`` ``*`` ``#`` dropped, ``torch.compile`` as ``pile``).
"""
from __future__ import annotations

import difflib
import re
import statistics
import sys
import time
import unicodedata
import warnings
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import paper_render as pr  # noqa: E402

__all__ = ["norm", "score", "failure", "run_case", "table", "GOALS", "goals_met",
           "TEXT_KEY_RATIO"]

TEXT_KEY_RATIO = 0.97
GOALS = {"found": 1.0, "types": 0.95, "options": 0.95, "keys": 0.95, "stems": 0.97,
         "code": 1.0}
CODE_KINDS = {"does_not_compile", "truncated", "code_boundary", "no_code", "indentation",
              "lost_whitespace", "deleted_operator"}

_FENCE_LINE = re.compile(r"(?m)^[ \t]*```[\w+-]*[ \t]*$")
_BULLET = re.compile(r"(?m)^[ \t]*(?:[-*+•]|#{1,6})[ \t]+")
_SPACE = re.compile(r"\s+")
# whitespace next to anything but ASCII letters/digits goes (the importer may add or drop
# spaces between Chinese and Latin text); between two ASCII words it is one space
_LOOSE_SPACE = re.compile(r"(?<=[^A-Za-z0-9_]) | (?=[^A-Za-z0-9_])")


@lru_cache(maxsize=1)
def _round_trip():
    import opencc

    s2t, t2s = opencc.OpenCC("s2t"), opencc.OpenCC("t2s")
    return lambda text: t2s.convert(s2t.convert(text))


@lru_cache(maxsize=4096)
def norm(text: str, damaged: bool = False) -> str:
    """Comparable text: NFKC, Markdown's fences, bullets, headings, ``*``, backticks and
    ``#`` out, blanks as ``____``, whitespace normalised (see ``_LOOSE_SPACE``)."""
    text = unicodedata.normalize("NFKC", text or "")
    text = _FENCE_LINE.sub("", text)
    text = _BULLET.sub("", text)
    text = text.replace("*", "").replace("`", "").replace("#", "")
    text = re.sub(r"_{4,}", "____", text)
    if damaged:
        text = _round_trip()(text.replace("torch.compile", "pile"))
        return _SPACE.sub("", text).replace("-", "")
    text = _SPACE.sub(" ", text).strip()
    return _LOOSE_SPACE.sub("", text)


def _ratio(a: str, b: str) -> float:
    if a == b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _key_ok(q, d, damaged: bool) -> bool:
    truth = pr.printed_key(q)
    got = d.seed_answer
    if q.type == "single_choice":
        return got == truth
    if q.type == "multiple_choice":
        return isinstance(got, list) and sorted(got) == truth
    if q.type == "fill_blank":
        return isinstance(got, list) and len(got) == len(truth) and all(
            norm(str(a), damaged) == norm(b, damaged) for a, b in zip(got, truth))
    want = norm(truth, damaged)
    text = got if isinstance(got, str) else ""
    if _ratio(norm(text, damaged), want) >= TEXT_KEY_RATIO:
        return True
    if q.type == "programming" and d.code:  # the code may have gone to the code files only
        code = d.code.get("seed") or d.code.get("reference") or ""
        prose = re.sub(r"```.*?(```|$)", "", text, flags=re.S)
        return _ratio(norm(prose + "\n" + code, damaged), want) >= TEXT_KEY_RATIO
    return False


_PY_BLOCK = re.compile(r"```(python|py|python3)?[ \t]*\n(.*?)(?:```|$)", re.S)


def _code_blocks(d) -> list[str]:
    texts = [d.stem, d.explanation, d.reference_answer,
             d.seed_answer if isinstance(d.seed_answer, str) else "",
             d.answer if isinstance(d.answer, str) else "", *(d.options or {}).values()]
    blocks = [m[2] for t in texts if t for m in _PY_BLOCK.finditer(t)]
    return blocks + [src for src in (d.code or {}).values() if src.strip()] + list(d.wrong)


def _compiles(src: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarnings of damaged code
        try:
            compile(src, "<block>", "exec")
            return True
        except (SyntaxError, ValueError):
            return False


def _code_flagged(d) -> bool:
    return any(f.kind in CODE_KINDS or "code" in (f.field or "") for f in d.review)


def score(paper, result, *, damaged: bool = False, cut: bool = False) -> dict:
    """The metrics (see the module doc) of ``result`` (an ``ImportResult``) against bank
    ``paper``. ``damaged``: compare as the seeds' damage leaves text; ``cut``: the file
    was cut off in the last question."""
    draft = result.paper
    bank = list(paper.questions)
    by_number: dict[int, object] = {}
    for d in draft.questions:
        by_number.setdefault(d.number, d)
    numbers = {q.number for q in bank}
    matched = [(q, by_number.get(q.number)) for q in bank]
    found = [(q, d) for q, d in matched if d is not None]
    n = len(bank)
    types = sum(1 for q, d in found if d.type == q.type)
    options_total = options_ok = 0
    for q, d in matched:
        for letter, text in (q.options or {}).items():
            options_total += 1
            got = ((d.options or {}).get(letter) if d is not None else None)
            if got is not None and norm(got, damaged) == norm(text, damaged):
                options_ok += 1
    last = bank[-1].number if bank else 0
    key_pool = [(q, d) for q, d in matched if not (cut and q.number == last)]
    keys = sum(1 for q, d in key_pool if d is not None and _key_ok(q, d, damaged))
    stems = [(_ratio(norm(d.stem, damaged), norm(q.stem, damaged)) if d is not None else 0.0)
             for q, d in matched]
    with_code = code_ok = 0
    for d in draft.questions:
        blocks = _code_blocks(d)
        if not blocks:
            continue
        with_code += 1
        if all(_compiles(b) for b in blocks) or _code_flagged(d):
            code_ok += 1
    flagged = [d.number for d in draft.questions if d.truncated]
    truncation_ok = flagged == ([last] if cut else [])
    return {
        "questions": n, "imported": len(draft.questions),
        "found": len(found) / n if n else 1.0,
        "extra": sum(1 for d in draft.questions if d.number not in numbers),
        "types": types / n if n else 1.0,
        "options": options_ok / options_total if options_total else 1.0,
        "keys": keys / len(key_pool) if key_pool else 1.0,
        "stems": statistics.median(stems) if stems else 1.0,
        "code": code_ok / with_code if with_code else 1.0, "code_questions": with_code,
        "truncation": truncation_ok, "truncated_flagged": flagged, "cut": cut,
        "error": None,
    }


def failure(paper, exc: BaseException, *, cut: bool = False) -> dict:
    """The row of a file the importer did not read."""
    message = f"{type(exc).__name__}: {exc}"
    return {"questions": len(paper.questions), "imported": 0, "found": 0.0, "extra": 0,
            "types": 0.0, "options": 0.0, "keys": 0.0, "stems": 0.0, "code": 0.0,
            "code_questions": 0, "truncation": False, "truncated_flagged": [], "cut": cut,
            "error": message[:300]}


def goals_met(row: dict) -> dict[str, bool]:
    """Each of the issue's goals for one row (see ``GOALS``)."""
    out = {name: row[name] >= goal for name, goal in GOALS.items()}
    out["extra"] = row["extra"] == 0
    out["truncation"] = bool(row["truncation"])
    out["read"] = row["error"] is None
    return out


def import_path(path: Path):
    from question_db.interchange.importers import import_file

    return import_file(path)


def run_case(pid: str, layout: str, fmt: str, out_dir: Path | str, *,
             path: Path | None = None) -> dict:
    """Render (unless ``path`` is given), import and score one case; never raises for
    an import that fails (the row carries the error)."""
    paper = pr.bank_paper(pid)
    path = path or pr.render(pid, layout, fmt, out_dir)
    cut = bool(pr.cut_kind(layout))
    t = time.perf_counter()
    try:
        result = import_path(path)
    except Exception as exc:  # noqa: BLE001 - a reader that fails is a row, not a crash
        row = failure(paper, exc, cut=cut)
        result = None
    seconds = time.perf_counter() - t
    if result is not None:
        try:
            row = score(paper, result, damaged=pr.is_damaged(layout), cut=cut)
        except Exception as exc:  # noqa: BLE001 - a draft the scorer cannot read
            row = failure(paper, exc, cut=cut)
    row.update(pid=pid, layout=layout, fmt=fmt, seconds=seconds, path=str(path))
    row["result"] = result
    return row


def _pct(x: float) -> str:
    return f"{x:.2f}"


def table(rows: list[dict]) -> str:
    """A Markdown table, one row per file: | paper | layout | fmt | found | types |
    options | keys | stems | code | truncation | s | error |."""
    head = ("| paper | layout | fmt | found | types | options | keys | stems | code | "
            "truncation | s | error |")
    out = [head, "|" + "---|" * head.count(" | ") + "---|"]
    for r in rows:
        found = f"{round(r['found'] * r['questions'])}/{r['questions']}"
        if r.get("extra"):
            found += f" +{r['extra']}"
        trunc = ("ok" if r["truncation"] else "**no**") + (" (cut)" if r["cut"] else "")
        cells = [r["pid"], r["layout"], r["fmt"], found, _pct(r["types"]), _pct(r["options"]),
                 _pct(r["keys"]), _pct(r["stems"]),
                 f"{_pct(r['code'])}" + (f" ({r['code_questions']})" if r["code_questions"]
                                         else ""),
                 trunc, f"{r['seconds']:.2f}",
                 (r["error"] or "").replace("|", "/").replace("\n", " ")[:90]]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":  # the baseline table: every case of the suite
    import tempfile

    with tempfile.TemporaryDirectory(prefix="examdesk-generalise-") as tmp:
        rows = [run_case(*case, tmp) for case in pr.cases()]
    print(table(rows))
