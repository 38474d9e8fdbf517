"""One entry point for every export format (the ``export`` command and the File menu).

``export_papers(fmt, papers, out)`` writes the file atomically and returns the warnings
about what the format could not carry, each naming the question and the field.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping

from ..model import Bank, Paper, Problem

__all__ = ["EXPORT_FORMATS", "SUFFIXES", "json_bytes", "export_papers"]

EXPORT_FORMATS = ("json", "apkg", "moodle-xml", "gift")
SUFFIXES = {"json": ".json", "apkg": ".apkg", "moodle-xml": ".xml", "gift": ".gift.txt"}


def json_bytes(papers: list[Paper]) -> bytes:
    from ..export import bank_json

    return (json.dumps(bank_json(Bank(papers=list(papers))), ensure_ascii=False, indent=1)
            + "\n").encode("utf-8")


def export_papers(fmt: str, papers: list[Paper], out: Path | str, *,
                  notes: Mapping[str, str] | None = None,
                  note_times: Mapping[str, float] | None = None) -> list[Problem]:
    """Write ``papers`` to ``out`` in ``fmt`` (one of ``EXPORT_FORMATS``).

    ``notes``/``note_times`` (question id -> the learner's note / when it changed) only
    matter for ``apkg``, whose cards have a field for the note.
    """
    if fmt == "json":
        from ..atomic_file import write_atomically

        write_atomically(out, json_bytes(papers))
        return []
    if fmt == "apkg":
        from .anki import write_apkg

        return write_apkg(papers, out, notes=notes, note_times=note_times)
    if fmt == "moodle-xml":
        from .moodle import write_moodle_xml

        return write_moodle_xml(papers, out)
    if fmt == "gift":
        from .gift import write_gift

        return write_gift(papers, out)
    raise ValueError(f"unknown export format {fmt!r}; expected one of "
                     f"{', '.join(EXPORT_FORMATS)}")
