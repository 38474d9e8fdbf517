"""Draft packs: what every importer builds, and the one writer that puts it on disk.

An importer (damaged text, .docx, Moodle XML, GIFT) turns its input into a ``DraftPaper``;
``write_pack`` writes it in the bank format (``paper.toml``, one ``qNN.toml`` per question,
``.py`` files for code, media files beside them), validates it with the normal loader, and
only then moves it into place. A pack that fails validation is never written, and a good
pack is replaced only when asked, never by a half-written one.

The TOML keys are those of ``papers/FORMAT.md``; ``status`` defaults to ``draft``.
"""
from __future__ import annotations

import errno
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..bank import PAPER_FILE, PAPER_ID, load_paper
from ..messages import name_max, os_error_reason
from ..model import Paper, Problem, ReviewFlag
from ..pack_folders import (
    PackLocked,
    aside_path,
    finish_interrupted_write,
    new_staging_folder,
    pack_lock,
)

__all__ = ["PackInvalid", "PackExists", "NotAPack", "PackLocked", "PackNotWritten",
           "DraftSection", "DraftQuestion", "DraftPaper", "ImportResult", "write_pack",
           "draft_from_paper"]


class PackInvalid(ValueError):
    """The draft did not validate; ``problems`` name file, question and field."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


class PackExists(FileExistsError):
    """The target folder holds a pack and replacing was not asked for."""


class NotAPack(ValueError):
    """The target exists, is not empty and is not a pack: it is never replaced."""


class PackNotWritten(OSError):
    """The disk refused the pack: full, read-only, not writable, a file where a folder must
    be, a name too long. Nothing was written; ``kept``: a pack that was at ``folder``
    before is there unchanged. ``str()`` names the folder and the reason; ``errno`` and
    ``filename`` are the refusal's (the staging folder's name replaced by the pack's)."""

    def __init__(self, folder: Path, reason: str, *, code: int | None = None,
                 filename: str | None = None, kept: bool = False) -> None:
        super().__init__(code, reason, filename)
        self.folder = folder
        self.reason = reason
        self.kept = kept

    def __str__(self) -> str:
        return f"{self.folder}: cannot write the pack: {self.reason}"


@dataclass
class DraftSection:
    title: str
    type: str
    first: int
    last: int
    points: float
    scoring: str = ""
    multiple_choice_rule: str = "all_or_nothing"
    note: str = ""

    def to_toml(self) -> dict[str, Any]:
        out: dict[str, Any] = {"title": self.title, "type": self.type, "first": self.first,
                               "last": self.last, "points": _number(self.points)}
        if self.scoring:
            out["scoring"] = self.scoring
        if self.type == "multiple_choice":
            out["multiple_choice_rule"] = self.multiple_choice_rule
        if self.note:
            out["note"] = self.note
        return out


@dataclass
class DraftQuestion:
    """One question as an importer found it. Keys and shapes follow ``FORMAT.md``;
    ``code`` maps a role (``reference``, ``starter``, ``seed``, ``check``) to source text."""

    number: int
    type: str
    points: float
    stem: str
    status: str = "draft"
    topics: list[str] = field(default_factory=list)
    options: dict[str, str] | None = None
    answer: Any = None  # per type, as in FORMAT.md; None: the source printed no key
    seed_answer: Any = ""  # the key as printed ("" when nothing was printed)
    explanation: str = ""
    errata: str = ""
    also_accept: list = field(default_factory=list)
    blank_points: list[float] | None = None
    parts: list[dict[str, Any]] = field(default_factory=list)  # calculation [[answer]] tables
    rubric: list[dict[str, Any]] = field(default_factory=list)  # text, points[, auto]
    reference_answer: str = ""
    code: dict[str, str] = field(default_factory=dict)
    wrong: list[str] = field(default_factory=list)  # one-bug solutions' sources
    truncated: bool = False
    truncated_at: str = ""
    review: list[ReviewFlag] = field(default_factory=list)
    # the question as the source printed it (for a review screen); never written to TOML
    source_text: str = ""
    # where the printed key was found: "inline", "part" (a key list at the end of its
    # part) or "appendix" (after the last question); "" when none was printed
    key_source: str = ""

    @property
    def file_stem(self) -> str:
        return f"q{self.number:02d}"

    def code_files(self) -> dict[str, str]:
        """File name -> source of every code file this question needs."""
        files = {f"{self.file_stem}_{role}.py": text for role, text in self.code.items()}
        files.update({f"{self.file_stem}_wrong_{i + 1}.py": text
                      for i, text in enumerate(self.wrong)})
        return files

    def to_toml(self) -> dict[str, Any]:
        out: dict[str, Any] = {"number": self.number, "type": self.type,
                               "points": _number(self.points), "status": self.status}
        if self.topics:
            out["topics"] = list(self.topics)
        if self.truncated:
            out["truncated"] = True
            if self.truncated_at:
                out["truncated_at"] = self.truncated_at
        out["stem"] = self.stem
        if self.options is not None:
            out["options"] = dict(sorted(self.options.items()))
        if self.type == "calculation":
            if self.parts:
                out["answer"] = [{k: _number(v) if k in ("value", "tolerance", "points") else v
                                  for k, v in part.items()} for part in self.parts]
            if self.reference_answer or self.status != "draft":
                out["reference_answer"] = self.reference_answer
        elif self.type != "programming" and self.answer not in (None, "", []):
            out["answer"] = self.answer
        out["seed_answer"] = "" if self.seed_answer is None else self.seed_answer
        if self.also_accept:
            out["also_accept"] = list(self.also_accept)
        if self.blank_points is not None:
            out["blank_points"] = [_number(p) for p in self.blank_points]
        if self.explanation:
            out["explanation"] = self.explanation
        if self.errata:
            out["errata"] = self.errata
        if self.code or self.wrong:
            names = {role: f"{self.file_stem}_{role}.py" for role in self.code}
            if self.wrong:
                names["wrong"] = [f"{self.file_stem}_wrong_{i + 1}.py"
                                  for i in range(len(self.wrong))]
            out["code"] = names
        if self.rubric:
            out["rubric"] = [{k: _number(v) if k == "points" else v for k, v in item.items()}
                             for item in self.rubric]
        if self.review and self.status == "draft":
            out["review"] = [{k: v for k, v in flag.to_json().items() if v or k != "field"}
                             for flag in self.review]
        return out


@dataclass
class DraftPaper:
    id: str
    title: str
    sections: list[DraftSection]
    questions: list[DraftQuestion]
    language: str = "zh-Hans"
    duration_minutes: int = 120
    duration_note: str = ""
    source: str | None = None  # the file it was imported from
    media: dict[str, bytes] = field(default_factory=dict)  # relative path -> bytes (images)

    def to_toml(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "title": self.title, "language": self.language,
                               "duration_minutes": self.duration_minutes}
        if self.duration_note:
            out["duration_note"] = self.duration_note
        if self.source:
            out["source"] = self.source
        out["sections"] = [s.to_toml() for s in self.sections]
        return out


@dataclass
class ImportResult:
    """What an importer returns: the draft, and what it skipped or could not carry.

    ``warnings`` are ``Problem`` records (file, question, field, message), e.g. an
    unsupported Moodle question type skipped; ``encoding`` is the codec the input was read
    with (``encoding.read_text_file``), or the container format (``docx``, ``xml``).
    """

    paper: DraftPaper
    warnings: list[Problem] = field(default_factory=list)
    encoding: str = ""


def _number(value: Any) -> Any:
    """2.0 -> 2 so the TOML reads as printed; other values unchanged."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _dump(data: dict[str, Any]) -> str:
    import tomli_w  # deferred: only writing a pack needs it

    return tomli_w.dumps(data, multiline_strings=True)


# Beside NAME a pack is written as ".NAME.<8 characters>.partial" (pack_folders): 18 bytes
# more than NAME, which the file system's longest name must leave room for.
_STAGING_EXTRA = len(".") + len(".01234567.partial")


def _media_name_problem(out_dir: Path, name: str) -> Problem | None:
    """Why a draft's media path ``name`` (``media/flag.png``) cannot be a file of the pack:
    outside it, over another file (``media/../q01.toml``), or a name no file system takes.
    Importers choose safe names (``drafts.DraftCollector.add_media``); this checks every
    importer's before anything is written."""
    shown = name if len(name) <= 60 else name[:60] + "…"
    parts = re.split(r"[/\\]", name)
    if "\x00" in name:
        why = "holds a NUL character"
    elif name.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", name):
        why = "is an absolute path"
    elif bad := next((part for part in parts if part in ("", ".", "..")), None):
        why = f"{bad!r} is not a file name"
    elif long := next((part for part in parts if len(os.fsencode(part)) > 255), None):
        why = f"{long[:40] + '…'!r} is {len(os.fsencode(long))} bytes long; a file name may " \
              f"have at most 255"
    else:
        return None
    return Problem(str(out_dir), "-", "media", f"media file {shown!r}: {why}")


def _safe_media_path(folder: Path, name: str) -> Path:
    target = (folder / name).resolve()
    if not target.is_relative_to(folder.resolve()) or target == folder.resolve():
        raise ValueError(f"media file {name!r} would land outside the pack folder")
    return target


def _write(path: Path, data: str | bytes) -> None:
    """Write one file of the pack; a refusal names the file (a failed ``write()`` does not)."""
    try:
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    except OSError as exc:
        if exc.filename is None:
            exc.filename = str(path)
        raise


def _write_files(paper: DraftPaper, folder: Path,
                 report: Callable[[str, int, int], None]) -> None:
    _write(folder / PAPER_FILE, _dump(paper.to_toml()))
    for done, q in enumerate(paper.questions):
        report("write", done, len(paper.questions))
        _write(folder / f"{q.file_stem}.toml", _dump(q.to_toml()))
        for name, text in q.code_files().items():
            _write(folder / name, text if text.endswith("\n") else text + "\n")
    for name, data in paper.media.items():
        target = _safe_media_path(folder, name)
        target.parent.mkdir(parents=True, exist_ok=True)
        _write(target, data)


def write_pack(paper: DraftPaper, out_dir: Path | str, *, replace: bool = False,
               progress: Callable[[str, int, int], None] | None = None) -> Paper:
    """Write ``paper`` as a pack folder at ``out_dir`` and return it as loaded.

    Built in a temporary folder beside ``out_dir`` (same file system, so the final move is a
    rename), validated with ``load_paper``; ``PackInvalid`` leaves nothing behind. An
    existing non-empty ``out_dir`` is kept unless ``replace`` (``PackExists``), and is never
    replaced unless it is a pack (``NotAPack``: it holds no ``paper.toml``); when replacing,
    the old folder is renamed aside and removed only after the new one is in place.
    Everything runs under the folder's lock (``pack_folders.pack_lock``: ``PackLocked``
    when another process is writing it), after finishing a write to it that was
    interrupted (a kill -9 between the two renames puts the old pack back first).
    ``progress(stage, done, total)`` is called as it goes (stages ``write``, ``validate``,
    ``move``; ``done`` counts questions written), from the calling thread.

    A disk that refuses (full, read-only, a file where a folder must be, a name too long)
    raises ``PackNotWritten``, naming the folder and the reason; the staging folder and
    any parent folder made for the pack are removed again, and the old pack is untouched.
    A media path that is no file name of the pack is ``PackInvalid``, before anything is
    written.
    """
    report = progress or (lambda stage, done, total: None)
    out_dir = Path(out_dir)
    if not PAPER_ID.match(paper.id or ""):
        raise PackInvalid([Problem(str(out_dir / PAPER_FILE), "-", "id",
                                   f"{paper.id!r} may only contain letters, digits, '_' and '-'")])
    media = [problem for name in paper.media if (problem := _media_name_problem(out_dir, name))]
    if media:
        raise PackInvalid(media)
    room = name_max(out_dir) - _STAGING_EXTRA
    if len(os.fsencode(out_dir.name)) > room:
        raise PackNotWritten(out_dir, f"the folder name is {len(os.fsencode(out_dir.name))} "
                                      f"bytes long; at most {room} leave room for the "
                                      f"temporary name it is written under first",
                             code=errno.ENAMETOOLONG, filename=str(out_dir))
    made = [p for p in (out_dir.parent, *out_dir.parent.parents) if not os.path.lexists(p)]
    had_pack = os.path.isfile(out_dir / PAPER_FILE)  # never raises (a name too long)
    try:
        return _write_pack_locked(paper, out_dir, replace, report)
    except BaseException as exc:
        for folder in made:  # deepest first; only the empty folders made above
            try:
                folder.rmdir()
            except OSError:
                break
        if isinstance(exc, OSError) and not isinstance(exc, (PackExists, PackNotWritten)):
            raise _not_written(exc, out_dir, had_pack) from exc
        raise


def _not_written(exc: OSError, out_dir: Path, had_pack: bool) -> PackNotWritten:
    """``exc`` as the pack's refusal: the path it names with the staging folder's random
    name replaced by the pack's, and what was kept."""
    filename = exc.filename
    staging = re.escape(str(out_dir.parent / f".{out_dir.name}.")) + r"[a-z0-9_]{8}\.partial"
    if isinstance(filename, str) and (m := re.match(staging + r"(?=$|[/\\])", filename)):
        filename = str(out_dir) + filename[m.end():]
    inside = ""
    if isinstance(filename, str) and Path(filename).is_relative_to(out_dir) and \
            Path(filename) != out_dir:
        inside = f"writing {Path(filename).relative_to(out_dir).as_posix()}"
    refused = OSError(exc.errno, exc.strerror, filename)
    reason = os_error_reason(refused, out_dir, context=inside)
    kept = had_pack and os.path.isfile(out_dir / PAPER_FILE)
    aside = aside_path(out_dir)
    if had_pack and not kept and os.path.lexists(aside):  # both renames of a swap failed
        reason += f"; the old pack waits in {aside}, and the next import or start puts it back"
    return PackNotWritten(out_dir, reason, code=exc.errno, filename=filename, kept=kept)


def _write_pack_locked(paper: DraftPaper, out_dir: Path, replace: bool,
                       report: Callable[[str, int, int], None]) -> Paper:
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    with pack_lock(out_dir):
        finish_interrupted_write(out_dir)
        _check_target(out_dir, replace)
        staging = new_staging_folder(out_dir)  # its files and folders as the umask says
        try:
            _write_files(paper, staging, report)
            report("validate", len(paper.questions), len(paper.questions))
            problems: list[Problem] = []
            loaded = load_paper(staging, problems)
            if problems or loaded is None:
                raise PackInvalid([_relocate(p, staging, out_dir) for p in problems]
                                  or [Problem(str(out_dir / PAPER_FILE), "-", "-",
                                              "the pack did not load")])
            _fsync_tree(staging)
            report("move", len(paper.questions), len(paper.questions))
            _move_into_place(staging, out_dir)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        final: list[Problem] = []
        result = load_paper(out_dir, final)
    assert result is not None and not final, final  # validated above; same files
    return result


def _is_empty_folder(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink() and not any(path.iterdir())


def _check_target(out_dir: Path, replace: bool) -> None:
    """Refuse a target that holds something other than a pack (a thesis, a home folder:
    replacing removes the old folder), and a pack unless ``replace``."""
    if not os.path.lexists(out_dir) or _is_empty_folder(out_dir):
        return
    if not (out_dir.is_dir() and (out_dir / PAPER_FILE).is_file()):
        what = "a folder" if out_dir.is_dir() else "a file"
        raise NotAPack(f"{out_dir}: already exists and is {what} that is not an examdesk "
                       f"pack (it holds no {PAPER_FILE}), so it is never replaced; choose "
                       f"a new folder for the pack")
    if not replace:
        raise PackExists(f"{out_dir}: already exists and is not empty (choose another folder "
                         f"or replace it)")


def _relocate(problem: Problem, staging: Path, out_dir: Path) -> Problem:
    return Problem(problem.file.replace(str(staging), str(out_dir)), problem.question,
                   problem.field, problem.message.replace(str(staging), str(out_dir)))


def _fsync_tree(folder: Path) -> None:
    """Flush the files before the rename makes them the pack (a power cut must not leave a
    pack of empty files in place of a good one)."""
    for path in folder.rglob("*"):
        if path.is_file():
            try:
                with path.open("rb") as fh:
                    os.fsync(fh.fileno())
            except OSError as exc:  # EIO from fsync names no file
                if exc.filename is None:
                    exc.filename = str(path)
                raise


def _move_into_place(staging: Path, out_dir: Path) -> None:
    """Rename ``staging`` to ``out_dir`` (checked by ``_check_target``: missing, empty or a
    pack); a pack there is renamed aside first and removed once the new one is in place."""
    if _is_empty_folder(out_dir):
        out_dir.rmdir()
    if not os.path.lexists(out_dir):
        os.replace(staging, out_dir)
        return
    aside = aside_path(out_dir)  # none left: finish_interrupted_write ran under the lock
    os.replace(out_dir, aside)
    try:
        os.replace(staging, out_dir)
    except BaseException:
        os.replace(aside, out_dir)  # put the good pack back
        raise
    if aside.is_symlink():  # the pack was a link to a folder: remove the link only
        aside.unlink()
    else:
        shutil.rmtree(aside, ignore_errors=True)  # what is left, the next import removes


def draft_from_paper(paper: Paper) -> DraftPaper:
    """A loaded pack back as a ``DraftPaper`` (to review it again and re-save it with
    ``write_pack(..., replace=True)``). Code is read from its files. A question with a
    ``verify`` snippet is refused: a draft does not carry one, and dropping it would lose
    a verified figure."""
    with_verify = [q.id for q in paper.questions if q.verify is not None]
    if with_verify:
        raise ValueError(f"{paper.folder}: {', '.join(with_verify)} have verify snippets, "
                         f"which a draft cannot carry; edit those packs by hand")
    sections = [DraftSection(s.title, s.type, s.first, s.last, s.points, s.scoring,
                             s.multiple_choice_rule, s.note) for s in paper.sections]
    return DraftPaper(id=paper.id, title=paper.title, sections=sections,
                      questions=[_draft_question(q) for q in paper.questions],
                      language=paper.language, duration_minutes=paper.duration_minutes,
                      duration_note=paper.duration_note, source=paper.source)


def _draft_question(q) -> DraftQuestion:
    answer: Any = q.answer
    if q.type == "programming":
        answer = None
    elif q.type == "calculation":
        answer = None
    code: dict[str, str] = {}
    wrong: list[str] = []
    if q.code is not None:
        for role in ("reference", "starter", "seed", "check"):
            path = getattr(q.code, role)
            if path is not None:
                code[role] = path.read_text(encoding="utf-8")
        wrong = [p.read_text(encoding="utf-8") for p in q.code.wrong]
    return DraftQuestion(
        number=q.number, type=q.type, points=q.points, stem=q.stem, status=q.status,
        topics=list(q.topics), options=dict(q.options) if q.options is not None else None,
        answer=answer, seed_answer=q.seed_answer if q.seed_answer is not None else "",
        explanation=q.explanation, errata=q.errata, also_accept=list(q.also_accept),
        blank_points=list(q.blank_points) if q.blank_points else None,
        parts=[p.to_json() for p in q.parts],
        rubric=[{"text": r.text, "points": r.points, **({"auto": True} if r.auto else {})}
                for r in q.rubric],
        reference_answer=q.reference_answer, code=code, wrong=wrong, truncated=q.truncated,
        truncated_at=q.truncated_at, review=list(q.review))
