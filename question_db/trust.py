"""The learner's consent before code from a pack that examdesk did not ship runs.

A pack's check suites and "verify" snippets are Python that runs on this machine (in a
kernel, with the learner's rights). Bundled packs are trusted. Any other pack runs only
after ``grant``: consent is stored in ``data_dir/trusted_packs.json`` keyed by the paper id
and bound to a sha256 over the pack's files, so any change to any file (an update, a
tampered check) asks again.
"""
from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime, timezone
from pathlib import Path

from .paths import BUNDLED_PAPERS
from .model import Paper
from .paths import data_dir as default_data_dir

__all__ = ["TRUST_FILE", "UntrustedPack", "is_bundled", "runs_code", "pack_files",
           "pack_hash", "is_trusted", "needs_consent", "grant", "revoke", "require_trusted"]

TRUST_FILE = "trusted_packs.json"
_SKIP_DIRS = {"__pycache__"}  # written by Python itself when a pack's module is imported


class UntrustedPack(Exception):
    """The pack's code may not run: the learner has not trusted these exact files."""


def is_bundled(paper: Paper) -> bool:
    return paper.folder is not None and paper.folder.resolve().is_relative_to(
        BUNDLED_PAPERS.resolve())


def runs_code(paper: Paper) -> bool:
    """Whether the pack has anything to execute: check suites (which run its references
    and solutions) or verify snippets. Starter and printed code only fill the learner's
    editor (a pack examdesk imported from the learner's own text has nothing else), and
    the learner's own code needs no consent (issue 30)."""
    return any((q.code is not None and q.code.check is not None) or q.verify is not None
               for q in paper.questions)


def pack_files(paper: Paper) -> dict[str, Path]:
    """Every file under the paper's folder by relative name (a symlinked folder counts as
    its link text). The loader refuses code files that resolve outside the folder
    (``bank._pack_file``), so these are all the files that can run."""
    if paper.folder is None:
        raise ValueError(f"{paper.id}: a paper without a folder has no files to trust")
    root = paper.folder.resolve()
    files: dict[str, Path] = {}
    for folder, dirs, names in os.walk(root):  # does not follow symlinked folders
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        for name in names + [d for d in dirs if (Path(folder) / d).is_symlink()]:
            if not name.endswith(".pyc"):
                path = Path(folder) / name
                files[path.relative_to(root).as_posix()] = path
    return files


def pack_hash(paper: Paper) -> str:
    """sha256 over the sorted file names and bytes; every part is length-prefixed, so no
    two different packs frame into the same stream."""
    digest = hashlib.sha256()

    def part(data: bytes) -> None:
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)

    for name, path in sorted(pack_files(paper).items()):
        part(name.encode("utf-8", "surrogateescape"))
        if path.is_symlink() and path.is_dir():
            part(b"link:" + os.readlink(path).encode("utf-8", "surrogateescape"))
        elif path.is_file():
            with path.open("rb") as fh:  # streamed: a pack may carry large data files
                digest.update(os.fstat(fh.fileno()).st_size.to_bytes(8, "big"))
                while chunk := fh.read(1 << 20):
                    digest.update(chunk)
        else:  # a FIFO or device: reading it could block for ever
            part(b"special:" + oct(path.lstat().st_mode).encode())
    return digest.hexdigest()


def _store(data_dir: Path | None) -> Path:
    return (data_dir if data_dir is not None else default_data_dir()) / TRUST_FILE


def _load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) and isinstance(data.get("packs"), dict) else {
            "packs": {}}
    except (OSError, ValueError):  # missing or damaged: nothing is trusted (fail closed)
        return {"packs": {}}


def _save(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(partial, path)  # never a half-written consent file


def is_trusted(paper: Paper, *, data_dir: Path | None = None) -> bool:
    if is_bundled(paper):
        return True
    entry = _load(_store(data_dir))["packs"].get(paper.id)
    if not isinstance(entry, dict):
        return False
    try:
        return entry.get("sha256") == pack_hash(paper)
    except (OSError, ValueError):
        return False


def needs_consent(paper: Paper, *, data_dir: Path | None = None) -> bool:
    """True when running this pack's code must first be approved by the learner."""
    return runs_code(paper) and not is_trusted(paper, data_dir=data_dir)


def grant(paper: Paper, *, data_dir: Path | None = None) -> None:
    """Record the learner's consent to run this pack's code, for its current files only."""
    path = _store(data_dir)
    data = _load(path)
    data["packs"][paper.id] = {"sha256": pack_hash(paper), "folder": str(paper.folder),
                               "granted_at": datetime.now(timezone.utc).isoformat()}
    _save(path, data)


def revoke(paper: Paper, *, data_dir: Path | None = None) -> None:
    path = _store(data_dir)
    data = _load(path)
    if data["packs"].pop(paper.id, None) is not None:
        _save(path, data)


def require_trusted(paper: Paper, *, data_dir: Path | None = None) -> None:
    """Raise ``UntrustedPack`` (a message for the learner) unless the pack's code may run."""
    if needs_consent(paper, data_dir=data_dir):
        raise UntrustedPack(
            f"{paper.id} ({paper.folder}) is not a pack shipped with examdesk, and you have "
            f"not trusted its current files. Its checks and verify snippets are Python that "
            f"would run on this computer with your rights: read them, then allow them.")
