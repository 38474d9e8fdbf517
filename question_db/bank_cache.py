"""A parsed question bank kept on disk, so start-up shows the library without parsing TOML.

Parsing the 65 bundled questions costs ~25 ms of CPU alone and ~70 ms at start-up, where it
competes with the window for the GIL; unpickling the result costs ~2 ms
(bench: launch_to_library). The cache is only ever a copy: its name is a fingerprint of
every file under the paper folders (path, size, mtime) and of the loader's own source, so
an edited question, an added paper or a new examdesk version simply misses and the bank
is parsed again. A cache that cannot be read or written is ignored.
"""
from __future__ import annotations

import hashlib
import logging
import os
import pickle
import sys
from pathlib import Path
from typing import Iterable

from . import model
from .model import Bank
from .paths import BUNDLED_PAPERS

# The loader's source: a changed loader must not read an old copy. Not imported here: a
# cache hit needs only the model classes (the loader's imports cost ~10 ms at start-up).
LOADER_SOURCE = Path(__file__).with_name("bank.py")

log = logging.getLogger(__name__)
CACHE_PREFIX = "bank-"


def _files(root: Path) -> Iterable[tuple[str, int, int]]:
    for folder, _dirs, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            try:
                st = os.stat(path)
            except OSError:  # vanished meanwhile: the parse will say what is wrong
                continue
            yield path, st.st_size, st.st_mtime_ns


def fingerprint(roots: Iterable[Path]) -> str:
    """Changes whenever any file the loader would read, or the loader itself, changes."""
    digest = hashlib.sha256(f"{sys.version_info[:2]}|{pickle.HIGHEST_PROTOCOL}".encode())
    sources = [LOADER_SOURCE, Path(model.__file__)]
    for source in sources:
        st = source.stat()
        digest.update(f"{source}|{st.st_size}|{st.st_mtime_ns}\n".encode())
    for root in [BUNDLED_PAPERS, *roots]:
        digest.update(f"root {root}\n".encode())
        for entry in sorted(_files(Path(root))):
            digest.update(("%s|%d|%d\n" % entry).encode())
    return digest.hexdigest()[:32]


def cached_bank(roots: list[Path], cache_dir: Path) -> Bank | None:
    """The bank from the cache when every file is unchanged since it was written, else None."""
    path = cache_dir / f"{CACHE_PREFIX}{fingerprint(roots)}.pickle"
    try:
        with open(path, "rb") as f:
            bank = pickle.load(f)
    except FileNotFoundError:
        return None
    except Exception as exc:  # noqa: BLE001 - a damaged copy is only a miss
        log.warning("ignoring the bank cache %s: %s", path, exc)
        return None
    return bank if isinstance(bank, Bank) else None


def load_and_cache_bank(roots: list[Path], cache_dir: Path) -> Bank:
    """Parse the bank and write the cache for the next start (old copies are removed)."""
    from .bank import load_bank

    key = fingerprint(roots)
    bank = load_bank(roots)
    if key != fingerprint(roots):  # a file changed while parsing: do not cache a mix
        return bank
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        for old in cache_dir.glob(f"{CACHE_PREFIX}*.pickle"):
            old.unlink(missing_ok=True)
        tmp = cache_dir / f"{CACHE_PREFIX}{key}.tmp"
        with open(tmp, "wb") as f:
            pickle.dump(bank, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, cache_dir / f"{CACHE_PREFIX}{key}.pickle")
    except OSError as exc:  # a full or read-only disk: next start parses again
        log.warning("could not write the bank cache in %s: %s", cache_dir, exc)
    return bank
