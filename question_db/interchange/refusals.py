"""Why a file was not imported, a pack not saved, an export not written: in the learner's
language. No Qt.

An importer that refuses a file raises one English sentence that names it: ``str()`` of
``UnreadableInput`` is ``{path}: {reason}``; ``NoQuestions``, ``GiftError``,
``MoodleXmlError``, ``FormatUnavailable`` are their message (a GIFT or Moodle file with no
question examdesk can import lists the skipped ones below, one ``Problem`` a line); the
importer's child process says how it ended (``ImporterFailed``: out of memory, killed,
crashed, too slow) or passes the refusal on as text (``ImportRefused``). Saving a pack
refuses with ``NotAPack``, ``PackExists``, ``PackLocked`` and ``PackNotWritten``
(``{folder}: cannot write the pack: {reason}``, the reason ``messages.os_error_reason``'s:
"the disk is full (ENOSPC)").

The sentences are templates in ``i18n/messages_<language>.toml`` (the ``[refusals…]``
tables), read by ``message_catalogue.translate_from`` with ``nested``: a sentence made of
others is translated part by part (the pack's frame, then the disk's reason inside it, then
"writing media/a.png" inside that), and a file named ``<pasted text>`` is named in the
language too. The list under a GIFT or Moodle refusal is translated line by line, as its
warnings are on the review screen. A sentence no template matches stays as it is.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..messages import os_error_reason
from .message_catalogue import catalogue_path, translate, translate_from

__all__ = ["refusal_text", "export_failure"]

# "  file:question:field: message", a skipped question under a GIFT or Moodle refusal
_LISTED = re.compile(r"(\s+)([^\n]*?:[^:\n]*:[^:\n]*): (.+)")


def refusal_text(text: str, language: str) -> str:
    """``text`` (``str()`` of a refusal) in ``language``; unchanged for English, a language
    without a catalogue, and a sentence no template matches."""
    path = catalogue_path(language)
    if not text or not path.is_file():
        return text
    head, *listed = text.split("\n")
    lines = [translate_from(head, [path], nested=True)]
    for line in listed:
        m = _LISTED.fullmatch(line)
        lines.append(f"{m[1]}{m[2]}: {translate(m[3], language)}" if m else line)
    return "\n".join(lines)


def export_failure(error: BaseException, path: Path | str) -> str:
    """Why writing the export ``path`` failed, as one sentence naming it (in English:
    ``refusal_text`` translates it): the disk's reason for an ``OSError`` ("the disk is
    full (ENOSPC)", never a temporary file's name), the message otherwise. An export is
    written whole or not at all (``atomic_file``): a file already there is unchanged."""
    if isinstance(error, OSError):
        return f"{path}: cannot write the file: {os_error_reason(error, path)}"
    return f"{path}: {error}"
