"""Writes a pack with the real ``write_pack`` and stops at a chosen moment, to be killed there
(tests/test_faults_pack_write.py).

    python tests/pack_write_driver.py OUT_DIR TITLE QUESTIONS [--pause-after N | --pause-in-swap]

``--pause-after N``: once N question files are written into the staging folder;
``--pause-in-swap``: once the old pack is renamed to ``.NAME.replaced`` and before the new
one is renamed into place (the one moment a replace has no pack at ``NAME``). It prints
``PAUSED`` (flushed) and sleeps until killed; without a pause it writes the pack and exits.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from question_db.interchange.pack import (  # noqa: E402
    DraftPaper,
    DraftQuestion,
    DraftSection,
    write_pack,
)


def draft(title: str, questions: int, paper_id: str = "mine") -> DraftPaper:
    """A valid pack of ``questions`` single-choice questions of one point each."""
    return DraftPaper(
        id=paper_id, title=title,
        sections=[DraftSection("One", "single_choice", 1, questions, questions)],
        questions=[DraftQuestion(number=n, type="single_choice", points=1,
                                 stem=f"{title}: question {n}?",
                                 options={"A": "yes", "B": "no"}, answer="A", seed_answer="A")
                   for n in range(1, questions + 1)])


def pause() -> None:
    print("PAUSED", flush=True)
    while True:
        time.sleep(60)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("title")
    parser.add_argument("questions", type=int)
    parser.add_argument("--pause-after", type=int)
    parser.add_argument("--pause-in-swap", action="store_true")
    args = parser.parse_args()

    def progress(stage: str, done: int, total: int) -> None:
        if stage == "write" and done == args.pause_after:
            pause()

    if args.pause_in_swap:
        real_replace = os.replace

        def replace(src, dst) -> None:
            real_replace(src, dst)
            if str(dst).endswith(".replaced"):
                pause()

        os.replace = replace  # what the writer's module calls: the real rename, then a stop
    write_pack(draft(args.title, args.questions), args.out, replace=True, progress=progress)


if __name__ == "__main__":
    main()
