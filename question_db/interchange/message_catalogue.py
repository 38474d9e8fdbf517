"""Import and export messages in the learner's language. No Qt.

The importers and exporters say what they found in English sentences: a review flag's
``why`` (``ReviewFlag.why``) and a warning's ``message`` (``Problem.message``), often with
numbers and quoted source text in them. ``i18n/messages_<language>.toml`` (``messages_zh
.toml``) translates them: each key is an English sentence as the core writes it, with a
named placeholder (``{count}``) where the core puts a value; each value is the sentence in
that language with the same placeholders. A key compiles to an anchored regular expression
(the literal text escaped, each placeholder a non-greedy group), so a message is translated
when one key matches it whole, the captured values (numbers, quoted text, code) copied into
the translation unchanged. An exporter's warning is prefixed with its format
(``moodle-xml: …``, ``writing.dropped``): the prefix stays, the rest is translated. A
sentence no key matches is returned as it is: English, never half translated. Tables
(``[moodle]``, ``[text_import]``) only say where the sentences come from.

``translate_from`` reads other catalogues in the same format (the check suites' messages,
``question_db.checks.catalogue``); with ``nested`` a captured value that a key matches whole
is translated too (a check's ``{what}: … differ`` where ``what`` is itself a sentence).
"""
from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Iterable

__all__ = ["translate", "translate_from", "templates", "catalogue_path", "placeholders"]

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
# "moodle-xml: …", "gift: …", "apkg: …" (question_db.interchange.writing.dropped)
_FORMAT_PREFIX = re.compile(r"([a-z][a-z0-9-]*): (.+)", re.DOTALL)


def catalogue_path(language: str) -> Path:
    """Where the messages for ``language`` ("zh_CN" -> i18n/messages_zh.toml) are."""
    return Path(__file__).parent / "i18n" / f"messages_{_base(language)}.toml"


def placeholders(template: str) -> list[str]:
    """The placeholder names in ``template``, in order (repeats included)."""
    return _PLACEHOLDER.findall(template)


def templates(language: str) -> dict[str, str]:
    """English template -> its translation in ``language``, every table merged; empty
    for English and for a language without a catalogue."""
    return dict(_load(_base(language)))


def translate(text: str, language: str) -> str:
    """``text`` (a flag's why, a warning's message) in ``language``; unchanged where no
    template matches it whole, or the language is English."""
    compiled = _compiled(_base(language))
    if not compiled or not text:
        return text
    found = _match(text, compiled)
    if found is not None:
        return found
    prefixed = _FORMAT_PREFIX.fullmatch(text)
    if prefixed:
        rest = _match(prefixed[2], compiled)
        if rest is not None:
            return f"{prefixed[1]}: {rest}"
    return text


def translate_from(text: str, paths: Iterable[Path], *, nested: bool = False) -> str:
    """``text`` translated by the catalogues at ``paths`` (read as ``messages_<language>
    .toml`` is, merged); unchanged where no key matches it whole. No format prefix is split
    off. ``nested``: captured values that a key matches whole are translated as well."""
    files = []
    for path in paths:
        try:
            files.append((Path(path), Path(path).stat().st_mtime_ns))
        except OSError:
            continue
    compiled = _compiled_files(tuple(files))
    if not compiled or not text:
        return text
    found = _match(text, compiled, nested=nested)
    return text if found is None else found


def _match(text: str, compiled: tuple[tuple[re.Pattern, str], ...], *,
           nested: bool = False, depth: int = 0) -> str | None:
    for pattern, target in compiled:
        m = pattern.fullmatch(text)
        if m:
            values = m.groupdict()
            if nested and depth < 4:
                values = {k: (_match(v, compiled, nested=True, depth=depth + 1) or v) if v
                          else v for k, v in values.items()}
            return _PLACEHOLDER.sub(lambda p: values.get(p[1], p[0]), target)
    return None


def _base(language: str) -> str:
    return (language or "").replace("-", "_").split("_")[0].lower()


@lru_cache(maxsize=8)
def _load(base: str) -> tuple[tuple[str, str], ...]:
    if base in ("", "en", "c"):
        return ()
    return _read_pairs(catalogue_path(base))


def _read_pairs(path: Path) -> tuple[tuple[str, str], ...]:
    try:
        with path.open("rb") as file:
            data = tomllib.load(file)
    except (OSError, tomllib.TOMLDecodeError):
        return ()
    pairs: list[tuple[str, str]] = []
    for key, value in data.items():
        table = value if isinstance(value, dict) else {key: value}
        pairs += [(str(k), v) for k, v in table.items() if isinstance(v, str) and v]
    return tuple(pairs)


def _pattern(template: str) -> re.Pattern:
    """The anchored expression for ``template``: literals escaped, each placeholder a
    non-greedy group (a repeated one must repeat the same text)."""
    out, seen, at = [], set(), 0
    for m in _PLACEHOLDER.finditer(template):
        out.append(re.escape(template[at:m.start()]))
        name = m[1]
        out.append(f"(?P={name})" if name in seen else f"(?P<{name}>.*?)")
        seen.add(name)
        at = m.end()
    out.append(re.escape(template[at:]))
    return re.compile("".join(out), re.DOTALL)


@lru_cache(maxsize=8)
def _compiled(base: str) -> tuple[tuple[re.Pattern, str], ...]:
    """The templates compiled once, the most literal text first: where two match, the more
    specific one wins (``the spaces of this code block …`` before ``… this {language}
    block …``)."""
    return _compile(_load(base))


@lru_cache(maxsize=32)
def _compiled_files(files: tuple[tuple[Path, int], ...]) -> tuple[tuple[re.Pattern, str], ...]:
    """The templates of several files (path, mtime: an edited file is read again)."""
    return _compile(tuple(pair for path, _ in files for pair in _read_pairs(path)))


def _compile(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[re.Pattern, str], ...]:
    ordered = sorted(pairs, key=lambda kv: -len(_PLACEHOLDER.sub("", kv[0])))
    return tuple((_pattern(english), target) for english, target in ordered)
