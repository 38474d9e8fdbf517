"""Files that inflate far beyond their size (issue 28, item 3), built in milliseconds.

Deflate compresses zeros about 1,000 to 1; compressing 2 GiB takes seconds, so the
stream is made from one compressed MiB of zeros ended by a full flush (no back reference
crosses it), repeated: a valid stream of any length, ~1 KiB per MiB. The checksums are
computed over the zeros as the real thing would be (a reader checks them only at the end,
after inflating everything).
"""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

MIB = 2**20
GIB = 2**30
_ZEROS = bytes(MIB)


def _zero_blocks(size: int) -> bytes:
    """Raw deflate of ``size`` zero bytes (a multiple of 1 MiB)."""
    assert size % MIB == 0
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = compressor.compress(_ZEROS) + compressor.flush(zlib.Z_FULL_FLUSH)
    return block * (size // MIB) + compressor.flush(zlib.Z_FINISH)  # an empty last block


def _checksum(function, start: int, size: int) -> int:
    """CRC-32 or Adler-32 of ``size`` zero bytes, 64 MiB at a time."""
    chunk = bytes(64 * MIB)
    value = start
    for _ in range(size // len(chunk)):
        value = function(chunk, value)
    return function(bytes(size % len(chunk)), value)


def write_zip_bomb(path: Path, member: str, size: int = 2 * GIB,
                   others: dict[str, bytes] | None = None) -> Path:
    """A zip whose entry ``member`` inflates to ``size`` bytes of zeros (``others``: small
    entries stored beside it, e.g. ``[Content_Types].xml``)."""
    entries = [(name, data, data, zlib.crc32(data), 0) for name, data in
               (others or {}).items()]
    entries.append((member, _zero_blocks(size), None, _checksum(zlib.crc32, 0, size), 8))
    out, directory = bytearray(), bytearray()
    for name, stored, plain, crc, method in entries:
        encoded = name.encode()
        usize = len(plain) if plain is not None else size
        directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0,
                                 0x21, crc, len(stored), usize, len(encoded), 0, 0, 0, 0, 0,
                                 len(out)) + encoded
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0x21, crc,
                           len(stored), usize, len(encoded), 0) + encoded + stored
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries),
                      len(directory), len(out), 0)
    path.write_bytes(bytes(out + directory + end))
    return path


def write_pdf_bomb(path: Path, size: int = 2 * GIB) -> Path:
    """A one-page PDF whose content stream (FlateDecode) inflates to ``size`` zero bytes."""
    stream = (b"\x78\xda" + _zero_blocks(size)
              + struct.pack(">I", _checksum(zlib.adler32, 1, size)))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
               b"/Resources << >> >>",
               b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream
               + b"\nendstream"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path
