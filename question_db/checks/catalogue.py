"""Check descriptions in the learner's language. No Qt.

A check suite (``qNN_check.py``) states each property in English, in its ``@check(name,
description)``. In its paper's ``i18n/checks_<language>.toml`` (``i18n/checks_zh.toml``: a
subfolder, as every ``*.toml`` beside the questions is read as one) the same descriptions
are translated, one table per suite (``[q34]``), one key per check name; a pack without
one shows the English.

The messages a check returns (``CheckFailed(f"… {err:.3g} …")``, ``{"message": …}``) are
translated by ``translate_message``: the paper's ``i18n/check_messages_<language>.toml``
(one table per suite, merged: suites of a paper share helpers and their sentences) and the
runner's and harness's own sentences (``question_db/checks/i18n/check_messages_<language>
.toml``: timeouts, "the solution raised …"), in the format of the import messages
(``question_db.interchange.message_catalogue``: English templates with ``{placeholders}``,
values copied verbatim, so numbers, shapes, dtypes and code stay as the check wrote them).
A sentence no template matches whole stays English.
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

from question_db.interchange.message_catalogue import translate_from

__all__ = ["descriptions", "catalogue_path", "messages_path", "RUNNER_MESSAGES",
           "translate_message"]

RUNNER_MESSAGES = Path(__file__).parent / "i18n"


def _base(language: str) -> str:
    return (language or "").replace("-", "_").split("_")[0].lower()


def catalogue_path(check_file: Path, language: str) -> Path:
    """Where ``check_file``'s translations for ``language`` ("zh_CN" -> checks_zh.toml)."""
    return Path(check_file).parent / "i18n" / f"checks_{language.split('_')[0].lower()}.toml"


def descriptions(check_file: Path | None, language: str) -> dict[str, str]:
    """Check name -> its description in ``language``; empty where there is none (English,
    a pack without a catalogue, an unreadable file)."""
    if check_file is None or language.split("_")[0].lower() in ("", "en", "c"):
        return {}
    path = catalogue_path(check_file, language)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return {}
    table = _read(path, stamp).get(Path(check_file).stem.removesuffix("_check"), {})
    return {str(k): v for k, v in table.items() if isinstance(v, str)}


@lru_cache(maxsize=16)
def _read(path: Path, _stamp: int) -> dict:
    try:
        with path.open("rb") as file:
            return tomllib.load(file)
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def messages_path(check_file: Path | None, language: str) -> Path:
    """Where the messages of ``check_file``'s paper are in ``language`` ("zh_CN" ->
    i18n/check_messages_zh.toml); the runner's own messages when ``check_file`` is None."""
    folder = RUNNER_MESSAGES if check_file is None else Path(check_file).parent / "i18n"
    return folder / f"check_messages_{_base(language)}.toml"


def translate_message(message: str, check_file: Path | None, language: str) -> str:
    """A check's result message in ``language``: the suite's paper's templates, then the
    runner's; unchanged for English or where no template matches it whole."""
    if not message or _base(language) in ("", "en", "c"):
        return message
    paths = [messages_path(None, language)]
    if check_file is not None:
        paths.insert(0, messages_path(check_file, language))
    return translate_from(message, paths, nested=True)
