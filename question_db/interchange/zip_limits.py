"""Reading zip archives someone else made without letting them blow up (issue 28, item 3).

A zip can hold a million entries, or one entry that inflates a thousandfold (2 GiB from
2 MB of deflate). Before anything is decompressed, ``open_zip`` checks the archive's
directory against ``ZipLimits`` (entry count, declared size of each entry and of all); the
reads (``read_member``, ``copy_member``) then stop at the limit whatever the headers said.
(Python's zipfile also stops at an entry's declared size and then fails its CRC, so a
header that lies makes the entry unreadable rather than bigger.)

Every refusal is an ``UnreadableInput`` naming the file, the entry and the limit.
"""
from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .encoding import UnreadableInput

__all__ = ["ZipLimits", "open_zip", "read_member", "copy_member"]

_CHUNK = 1 << 20


@dataclass(frozen=True)
class ZipLimits:
    """What one kind of archive may hold; ``kind`` names it in messages ("an Anki deck")."""

    kind: str
    entries: int
    entry_bytes: int
    total_bytes: int


def _mib(size: int) -> str:
    return f"{size / 2**20:,.0f} MiB"


def open_zip(path: Path | str, limits: ZipLimits) -> zipfile.ZipFile:
    """The archive, opened, after its directory was checked against ``limits``."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise UnreadableInput(path, f"is not a readable zip archive ({exc})") from None
    try:
        _check(path, archive.infolist(), limits)
    except BaseException:
        archive.close()
        raise
    return archive


def _check(path: Path | str, infos: list[zipfile.ZipInfo], limits: ZipLimits) -> None:
    if len(infos) > limits.entries:
        raise UnreadableInput(path, f"holds {len(infos):,} entries; {limits.kind} may hold "
                                    f"{limits.entries:,} (refused before reading)")
    for info in infos:
        if info.file_size > limits.entry_bytes:
            raise UnreadableInput(
                path, f"its entry {info.filename!r} would expand to {_mib(info.file_size)} "
                      f"(from {_mib(info.compress_size)}); an entry of {limits.kind} may "
                      f"be {_mib(limits.entry_bytes)} (a zip bomb?); refused before reading")
    total = sum(info.file_size for info in infos)
    if total > limits.total_bytes:
        raise UnreadableInput(path, f"would expand to {_mib(total)}; {limits.kind} may hold "
                                    f"{_mib(limits.total_bytes)} (refused before reading)")


def read_member(archive: zipfile.ZipFile, name: str, limit: int) -> bytes:
    """The bytes of entry ``name``, never more than ``limit`` of them in memory."""
    with archive.open(name) as member:
        data = member.read(limit + 1)
    if len(data) > limit:
        raise UnreadableInput(archive.filename or "zip", f"its entry {name!r} is larger than "
                                                         f"{_mib(limit)}; refused")
    return data


def copy_member(archive: zipfile.ZipFile, name: str, dest: Path, limit: int) -> None:
    """Entry ``name`` streamed into the file ``dest``, at most ``limit`` bytes."""
    with archive.open(name) as member, open(dest, "wb") as out:
        _copy_at_most(member, out, limit, archive.filename or "zip", name)


def _copy_at_most(src: BinaryIO, dest: BinaryIO, limit: int, path: str, name: str) -> None:
    copied = 0
    while chunk := src.read(_CHUNK):
        copied += len(chunk)
        if copied > limit:
            raise UnreadableInput(path, f"its entry {name!r} is larger than {_mib(limit)}; "
                                        f"refused")
        dest.write(chunk)
