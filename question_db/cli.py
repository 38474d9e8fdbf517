"""``question-db`` / ``python -m question_db``: the bank and checks, headless."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .bank import load_bank
from .export import bank_json
from .model import Bank
from .paths import data_dir, user_papers_dir


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
    text = json.dumps(bank_json(bank), ensure_ascii=False, indent=1)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    else:
        sys.stdout.write(text + "\n")
    for problem in bank.problems:
        print(problem, file=sys.stderr)
    return 0


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

    p = sub.add_parser("export", help="export the bank")
    p.add_argument("--format", choices=["json"], default="json")
    p.add_argument("--out", "-o", help="write to FILE instead of stdout")
    p.set_defaults(func=cmd_export)

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
