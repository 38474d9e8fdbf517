"""Check descriptions in the learner's language. No Qt.

A check suite (``qNN_check.py``) states each property in English, in its ``@check(name,
description)``. In its paper's ``i18n/checks_<language>.toml`` (``i18n/checks_zh.toml``: a
subfolder, as every ``*.toml`` beside the questions is read as one) the same descriptions
are translated, one table per suite (``[q34]``), one key per check name; a pack without
one shows the English. The messages a check returns carry its numbers and stay as
the check wrote them.
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

__all__ = ["descriptions", "catalogue_path"]


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
