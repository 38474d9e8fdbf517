"""The one catalogue of what examdesk tells a learner about storage trouble.

The core reports a *kind* and its parameters (``StorageError.kind``/``params``,
``recovery.Notice.kind``/``params``); this table turns them into text. The CLI and the logs
read it in English (``render``); the desktop passes Qt's translator
(``render(kind, params, QCoreApplication.translate)``), and lupdate extracts the templates
from the ``QT_TRANSLATE_NOOP`` marks below, so no message is written twice.

Templates use ``{name}`` placeholders; a translation keeps them as they are.
"""
from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any, Callable, Mapping

__all__ = ["CONTEXT", "TEMPLATES", "render", "QT_TRANSLATE_NOOP", "os_error_reason", "name_max"]

CONTEXT = "Messages"


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate reads
    """Marks ``text`` for translation in ``context``; returns it unchanged (no Qt here)."""
    return text


TEMPLATES: dict[str, str] = {
    # a write the disk refused (sqlite_file.StorageError); {path}: the progress file
    "disk_full": QT_TRANSLATE_NOOP(
        "Messages", "Cannot save to {path}: the disk is full. What you just entered was not "
                    "saved; your earlier progress is intact. Free some space and try again."),
    "read_only": QT_TRANSLATE_NOOP(
        "Messages", "Cannot save to {path}: the file or its folder is read-only. What you "
                    "just entered was not saved. Make the folder writable or choose another "
                    "data folder (--data-dir)."),
    "locked": QT_TRANSLATE_NOOP(
        "Messages", "Cannot use {path}: another program kept it locked. What you just "
                    "entered was not saved. Close other examdesk windows and try again."),
    "disk_io": QT_TRANSLATE_NOOP(
        "Messages", "Cannot read or write {path} ({detail}). What you just entered was not "
                    "saved; your earlier progress is intact."),
    "kept_on_screen": QT_TRANSLATE_NOOP(
        "Messages", "Your latest changes stay on screen, and examdesk saves them again with "
                    "your next change once the problem is fixed (free some space, or make the "
                    "folder writable)."),
    # a paper opened for practice on a store that cannot be written; {folder}: the data dir
    "practice_read_only": QT_TRANSLATE_NOOP(
        "Messages", "Read only: the data folder {folder} is read-only, so nothing you enter "
                    "here is saved. You can read the questions and see their answers. Make "
                    "the folder writable, or start examdesk with --data-dir set to a writable "
                    "folder, to practise with your answers saved."),
    "practice_not_saved": QT_TRANSLATE_NOOP(
        "Messages", "Read only: examdesk could not open your progress in {folder} for "
                    "writing when it started (see the message shown then), so nothing you "
                    "enter here is saved. You can read the questions and see their answers."),
    # what opening the progress file found (recovery.Notice)
    "notice_corrupt": QT_TRANSLATE_NOOP(
        "Messages", "Your progress file {path} is damaged. It was kept unchanged as "
                    "{moved_to}, and examdesk started a new, empty progress file."),
    "notice_corrupt_no_backup": QT_TRANSLATE_NOOP(
        "Messages", "No backup of it was found."),
    "notice_corrupt_backup": QT_TRANSLATE_NOOP(
        "Messages", "A backup is available ({backup}): restore it to get your progress back "
                    "as of that day."),
    "notice_too_new": QT_TRANSLATE_NOOP(
        "Messages", "Your progress file {path} was written by a newer version of examdesk "
                    "(schema version {version}; this one understands up to {supported}). It "
                    "was left untouched. Until you update examdesk, your progress is saved in "
                    "{side_path} instead."),
    "notice_read_only": QT_TRANSLATE_NOOP(
        "Messages", "The data folder {folder} is read-only, so examdesk cannot save your "
                    "progress. You can look at what was saved before, but new answers will "
                    "not be saved. Make the folder writable, or start examdesk with --data-dir "
                    "set to a writable folder."),
    "notice_disk_full": QT_TRANSLATE_NOOP(
        "Messages", "The disk that holds {path} is full, so examdesk cannot save your "
                    "progress. Nothing you do will be saved until space is freed; then restart "
                    "examdesk."),
    "notice_storage": QT_TRANSLATE_NOOP(
        "Messages", "examdesk cannot save your progress in {path} ({detail}). Nothing you do "
                    "will be saved until that is fixed; then restart examdesk."),
    "notice_backup_failed": QT_TRANSLATE_NOOP(
        "Messages", "The daily backup of your progress could not be written to {path} "
                    "({detail}). Your progress file itself is fine."),
    "notice_low_disk": QT_TRANSLATE_NOOP(
        "Messages", "Little space is left on the disk that holds {path} ({free_mib} MiB "
                    "free). When it is full, examdesk cannot save your answers."),
}

Translate = Callable[[str, str], str]


def render(kind: str, params: Mapping[str, Any], translate: Translate | None = None) -> str:
    """The text for ``kind`` with ``params`` filled in, translated when ``translate`` is
    given (``translate(context, source_text)``, as ``QCoreApplication.translate``)."""
    template = TEMPLATES[kind]
    if translate is not None:
        template = translate(CONTEXT, template)
    return template.format_map(_Defaults(params))


class _Defaults(dict):
    """``format_map`` mapping that leaves an unknown placeholder visible instead of failing
    (a translation with a typo in a placeholder must not crash the error path)."""

    def __init__(self, params: Mapping[str, Any]):
        super().__init__({k: str(v) for k, v in params.items()})

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


# Why the disk refused a file (an import's pack, an export), in words, for the CLI and the
# logs: English only, like the rest of what ``question-db`` prints.
_REASONS: dict[int, str] = {
    errno.ENOSPC: "the disk is full",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied: you may not write to that folder",
    errno.EPERM: "the operation is not permitted there",
    errno.EFBIG: "a file is larger than the file size limit this process runs under",
    errno.EIO: "the disk reported an input/output error",
    errno.ENOENT: "a folder on the way does not exist",
    errno.EISDIR: "that is a folder, not a file",
    errno.ENAMETOOLONG: "a name in the path is longer than the file system allows",
}
if hasattr(errno, "EDQUOT"):  # not on Windows
    _REASONS[errno.EDQUOT] = "your disk quota is used up"


def os_error_reason(exc: OSError, target: Path | str | None = None, *,
                    context: str = "") -> str:
    """Why writing ``target`` failed with ``exc``, in words and with the error's code:
    "the disk is full (ENOSPC)", "/home/me/notes.txt is a file, not a folder", "the name
    'aaaa…' is 300 bytes long; the file system allows at most 255 (ENAMETOOLONG)".
    ``context`` (what was being done: "writing media/a.png") joins the code in brackets."""
    code = "; ".join(filter(None, [errno.errorcode.get(exc.errno or 0, ""), context]))
    paths = [Path(p) for p in (exc.filename, target) if p]
    if exc.errno in (errno.ENOTDIR, errno.EEXIST):
        for path in paths:  # a regular file where a folder is needed on the way
            blocker = next((p for p in [path, *path.parents]
                            if os.path.lexists(p) and not os.path.isdir(p)), None)
            if blocker is not None:
                return f"{blocker} is a file, not a folder" + (f" ({context})" if context
                                                                else "")
    if exc.errno == errno.ENAMETOOLONG:
        for path in paths:
            for part in path.parts:
                size = len(os.fsencode(part))
                if size > min(255, name_max(path)):
                    shown = part if len(part) <= 40 else part[:40] + "…"
                    return (f"the name {shown!r} is {size} bytes long; the file system "
                            f"allows at most {name_max(path)} ({code})")
    reason = _REASONS.get(exc.errno or 0) or exc.strerror or str(exc)
    return f"{reason} ({code})" if code else reason


def name_max(path: Path | str) -> int:
    """The longest file name (bytes) the file system that would hold ``path`` takes (asked
    of its nearest existing folder); 255 where it does not say."""
    for folder in Path(path).parents:
        try:
            return int(os.pathconf(folder, "PC_NAME_MAX"))
        except (OSError, ValueError, AttributeError):  # missing; Windows has no pathconf
            continue
    return 255
