"""Read a text file in whatever encoding a learner's paper arrived in.

Order (issue: interchange, "files in any encoding"): a byte-order mark decides; else strict
UTF-8; else GB18030 (a superset of GBK and GB2312, what Chinese Windows tools write). A file
that is none of these, or that looks binary, is refused with a message naming the file.
"""
from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import Path

__all__ = ["UnreadableInput", "DecodedText", "decode_bytes", "read_text_file"]

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE: its BOM starts with FF FE too
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# Control characters other than tab, newline, carriage return and form feed: a text paper
# has none; a zip, an image or a Word file has many.
_CONTROL = {c for c in range(32) if c not in (9, 10, 12, 13)}


class UnreadableInput(ValueError):
    """The file is not text we can decode; ``str()`` names the file and the reason."""

    def __init__(self, path: Path | str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


@dataclass(frozen=True)
class DecodedText:
    text: str  # with universal newlines (CRLF and CR become LF)
    encoding: str  # the codec that decoded it: utf-8, utf-8-sig, utf-16, utf-32, gb18030


def _looks_binary(data: bytes) -> bool:
    sample = data[:8192]
    return b"\x00" in sample or sum(b in _CONTROL for b in sample) > len(sample) // 100


def decode_bytes(data: bytes, *, name: str = "<input>") -> DecodedText:
    """Decode ``data`` (see the module doc for the order); ``UnreadableInput`` otherwise."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(codec)
            except UnicodeDecodeError as exc:
                raise UnreadableInput(name, f"starts with a {codec} byte-order mark but is "
                                            f"not valid {codec} at byte {exc.start}") from None
            return DecodedText(_newlines(text), codec)
    if _looks_binary(data):
        raise UnreadableInput(name, "looks like a binary file, not text (a .docx, .xml or "
                                    ".apkg needs its own format)")
    for codec in ("utf-8", "gb18030"):
        try:
            return DecodedText(_newlines(data.decode(codec)), codec)
        except UnicodeDecodeError:
            continue
    raise UnreadableInput(name, "is neither UTF-8 nor GB18030/GBK text; save it as UTF-8 "
                                "and try again")


def read_text_file(path: Path | str) -> DecodedText:
    """Read and decode a file; ``UnreadableInput`` for a missing, unreadable or binary one."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableInput(path, f"cannot read: {exc.strerror or exc}") from None
    if not data.strip():
        raise UnreadableInput(path, "is empty")
    return decode_bytes(data, name=str(path))


def _newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")
