"""``question-db`` / ``python -m question_db``: the bank and checks, headless."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .bank import load_bank
from .model import Bank
from .paths import data_dir, user_papers_dir

__all__ = ["cmd_validate", "cmd_list", "cmd_export", "cmd_import", "import_summary",
           "cmd_check", "build_parser", "main"]


def _bank(args: argparse.Namespace, *, paths: list[str] | None = None) -> Bank:
    extra = [Path(p) for p in (args.papers or [])]
    if paths:
        return load_bank(extra + [Path(p) for p in paths], include_bundled=False)
    user = user_papers_dir(data_dir(args.data_dir))
    return load_bank(extra + ([user] if user.is_dir() else []))


def cmd_validate(args: argparse.Namespace) -> int:
    bank = _bank(args, paths=args.path)
    for problem in bank.problems:
        print(problem)
    n_questions = sum(len(p.questions) for p in bank.papers)
    print(f"{len(bank.papers)} paper(s), {n_questions} question(s), "
          f"{len(bank.problems)} problem(s)", file=sys.stderr)
    return 1 if bank.problems or not bank.papers else 0


def cmd_list(args: argparse.Namespace) -> int:
    bank = _bank(args)
    for paper in bank.papers:
        changed = sum(1 for q in paper.questions if q.status != "ok")
        print(f"{paper.id}  {paper.title}  ({len(paper.questions)} questions, "
              f"{paper.total_points:g} points, {paper.duration_minutes} min, "
              f"{changed} with errata)")
        if args.questions:
            for q in paper.questions:
                print(f"  {q.id:<8} {q.type:<16} {q.points:>4g}  {q.status:<9} "
                      f"{', '.join(q.topics)}")
    for problem in bank.problems:
        print(problem, file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    bank = _bank(args)
    for problem in bank.problems:
        print(problem, file=sys.stderr)
    papers = bank.papers
    if args.paper_ids:
        known = {p.id: p for p in bank.papers}
        unknown = [pid for pid in args.paper_ids if pid not in known]
        if unknown:
            print(f"question-db export: no paper {', '.join(map(repr, unknown))} (known: "
                  f"{', '.join(known) or 'none'})", file=sys.stderr)
            return 2
        papers = [known[pid] for pid in dict.fromkeys(args.paper_ids)]
    if args.format == "json" and not args.out:
        from .interchange.exporters import json_bytes

        sys.stdout.write(json_bytes(papers).decode("utf-8"))
        return 0
    if not args.out:
        print(f"question-db export: --format {args.format} needs --out FILE", file=sys.stderr)
        return 2
    from .interchange.exporters import export_papers
    from .messages import os_error_reason

    notes, note_times = (None, None) if args.no_notes or args.format != "apkg" \
        else _learner_notes(args)
    had_file = Path(args.out).is_file()
    try:
        warnings = export_papers(args.format, papers, Path(args.out), notes=notes,
                                 note_times=note_times)
    except OSError as exc:  # written whole or not at all (atomic_file): nothing replaced
        kept = "; the file already there is unchanged" if had_file else ""
        print(f"question-db export: cannot write {args.out}: "
              f"{os_error_reason(exc, args.out)}{kept}", file=sys.stderr)
        return 1
    for warning in warnings:
        print(warning, file=sys.stderr)
    n_questions = sum(len(p.questions) for p in papers)
    print(f"wrote {n_questions} question(s) from {len(papers)} paper(s) to {args.out} "
          f"({args.format}; {len(warnings)} warning(s) about what it cannot carry)",
          file=sys.stderr)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from .interchange.encoding import UnreadableInput
    from .interchange.importers import FormatUnavailable, import_file
    from .interchange.pack import (PackExists, PackInvalid, PackLocked, PackNotWritten,
                                   write_pack)

    try:
        result = import_file(args.file, fmt=args.format, paper_id=args.id, title=args.title)
        write_pack(result.paper, args.out, replace=args.replace)
    except PackInvalid as exc:
        print("question-db import: the draft did not validate (a bug in the importer; "
              "please report it with the input file):", file=sys.stderr)
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        print("nothing was written", file=sys.stderr)
        return 1
    except PackLocked as exc:  # another import into the same folder: busy, not bad input
        print(f"question-db import: {exc}", file=sys.stderr)
        print("nothing was written", file=sys.stderr)
        return 1
    except PackNotWritten as exc:  # the disk refused: full, read-only, not a folder, ...
        print(f"question-db import: {exc}", file=sys.stderr)
        print("nothing was written" + (f"; the pack already at {exc.folder} is unchanged"
                                       if exc.kept else ""), file=sys.stderr)
        return 1
    except (UnreadableInput, FormatUnavailable, PackExists, ValueError) as exc:
        print(f"question-db import: {exc}", file=sys.stderr)
        print("nothing was written", file=sys.stderr)
        return 2
    print(import_summary(result, args.out))
    return 0


def import_summary(result, out: str | Path) -> str:
    """What an import found, for a person deciding what to review first."""
    from collections import Counter

    paper = result.paper
    types = Counter(q.type for q in paper.questions)
    flags = Counter(f.kind for q in paper.questions for f in q.review)
    code = [f for q in paper.questions for f in q.review if f.field.endswith("code")]
    blocks = sum(1 for q in paper.questions for _ in q.code)
    broken = Counter(f.kind for f in code)["does_not_compile"]
    truncated = [q for q in paper.questions if q.truncated]
    lines = [f"imported {paper.title!r} as {paper.id!r} into {out}"
             f"{f' (read as {result.encoding})' if result.encoding else ''}",
             f"questions: {len(paper.questions)} ("
             + ", ".join(f"{t} {n}" for t, n in types.most_common()) + "), "
             f"{sum(q.points for q in paper.questions):g} points, all status=draft",
             f"code files: {blocks}; code blocks not compiling: {broken}",
             "review flags: " + (", ".join(f"{k} {n}" for k, n in flags.most_common())
                                 or "none"),
             "truncated: " + (", ".join(f"question {q.number} (cut after …{q.truncated_at[-30:]})"
                                        for q in truncated) or "no")]
    if result.warnings:
        lines.append(f"warnings ({len(result.warnings)}):")
        lines += [f"  {w}" for w in result.warnings]
    return "\n".join(lines)


def _learner_notes(args: argparse.Namespace
                   ) -> tuple[dict[str, str] | None, dict[str, float] | None]:
    """The learner's notes from the data folder's progress file, read-only (a running
    examdesk may be using it); none when there is no progress file."""
    from .paths import progress_path

    path = progress_path(data_dir(args.data_dir))
    if not path.is_file():
        return None, None
    from .store import ProgressStore
    from .study import anki_notes

    store = ProgressStore(path, read_only=True)
    try:
        if not store.conn.execute("PRAGMA database_list").fetchone()[2]:  # nothing readable
            print(f"question-db export: {path} could not be read (damaged, or from another "
                  "examdesk version): exporting without your notes", file=sys.stderr)
            return None, None
        found = anki_notes(store)
    finally:
        store.close()
    print(f"question-db export: {len(found.notes)} note(s) of yours from {path} "
          "(--no-notes leaves them out)", file=sys.stderr)
    return found.notes, found.note_times


def cmd_check(args: argparse.Namespace) -> int:
    from .checks.runner import check_solution_cli  # deferred: pulls in jupyter_client

    return check_solution_cli(_bank(args), args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="question-db", description=__doc__)
    parser.add_argument("--papers", action="append", metavar="PATH",
                        help="extra paper folder or folder of papers (repeatable)")
    parser.add_argument("--data-dir", help="data directory (default: $EXAMDESK_DATA_DIR or "
                                           "the platform's user data dir)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="validate packs; exit 1 if any problem")
    p.add_argument("path", nargs="*", help="pack(s) to validate (default: all installed)")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("list", help="list papers")
    p.add_argument("-q", "--questions", action="store_true", help="also list questions")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("export", help="export papers: JSON, an Anki deck (apkg), Moodle XML "
                                      "or GIFT; warnings on stderr name what a format drops")
    p.add_argument("--format", choices=["json", "apkg", "moodle-xml", "gift"], default="json")
    p.add_argument("--out", "-o", metavar="FILE",
                   help="write to FILE (written whole or not at all; json: default stdout)")
    p.add_argument("--no-notes", action="store_true",
                   help="apkg: leave out your notes (by default each card's Note field holds "
                        "your note from the data folder's progress file)")
    p.add_argument("paper_ids", nargs="*", metavar="PAPER_ID",
                   help="papers to export (default: all)")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help="import a paper (damaged web text, Markdown, HTML, PDF, "
                                      ".docx, Moodle XML, GIFT) as a draft pack")
    p.add_argument("file", help="the paper: .txt / .md / .html / .pdf / .docx / Moodle .xml / "
                                "GIFT")
    p.add_argument("--out", required=True, help="pack folder to create")
    # = importers.FORMATS (tests/test_import_formats.py checks), not imported: keeps
    # `question-db --help` free of the importers
    p.add_argument("--format", choices=["auto", "text", "markdown", "html", "pdf", "docx",
                                        "moodle-xml", "gift"],
                   default="auto", help="input format (default: decided by the content)")
    p.add_argument("--id", help="paper id (default: from the file name)")
    p.add_argument("--title", help="paper title (default: as printed)")
    p.add_argument("--replace", action="store_true", help="replace an existing pack at --out")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("check", help="run a programming question's checks on a solution")
    p.add_argument("question", help="question id, e.g. 001/29")
    p.add_argument("solution", help="Python file with the solution")
    p.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--slow", action="store_true", help="also run slow checks (torch.compile)")
    p.add_argument("--kernel", help="kernelspec name, or connect:FILE to use a running kernel "
                                    "(e.g. on a GPU box) by its connection file (default: "
                                    "this Python)")
    p.add_argument("--trust", action="store_true",
                   help="run the checks of a pack that is not bundled and not yet trusted "
                        "(this run only)")
    p.set_defaults(func=cmd_check)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
