"""question_db/bank_fingerprint: the bank cache's key computed by a child process started
early (the launcher's prefetch) is the key computed in the process; whatever goes wrong
with the child, the key is still right (computed here instead)."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from question_db import bank_cache
from question_db.bank_cache import cached_bank, load_and_cache_bank, prefetch_fingerprint
from question_db.bank_fingerprint import KeyPrefetch, fingerprint_files



def _papers(tmp_path: Path) -> Path:
    root = tmp_path / "papers" / "p1"
    root.mkdir(parents=True)
    for i in range(30):
        (root / f"q{i:02d}.toml").write_text(f"n = {i}\n", "utf-8")
    (root / "sub").mkdir()
    (root / "sub" / "code.py").write_text("x = 1\n", "utf-8")
    return tmp_path / "papers"


@pytest.mark.skipif(not hasattr(os, "posix_spawn"), reason="no posix_spawn: computed here")
def test_the_childs_key_is_the_key_computed_here(tmp_path):
    roots = [_papers(tmp_path)]
    prefetch = prefetch_fingerprint(roots)
    assert prefetch.spawned
    assert prefetch.key() == bank_cache.fingerprint(roots)
    assert prefetch.key() == prefetch.key()  # read once
    (roots[0] / "p1" / "q03.toml").write_text("n = 33\n", "utf-8")
    assert prefetch_fingerprint(roots).key() == bank_cache.fingerprint(roots) != prefetch.key()


@pytest.mark.parametrize("child", ["exits without a key", "cannot be started",
                                   "writes garbage"])
def test_a_failed_child_still_gives_the_right_key(tmp_path, monkeypatch, child):
    roots = [_papers(tmp_path)]
    if child == "exits without a key":
        monkeypatch.setattr(sys, "executable", "/bin/false")
    elif child == "cannot be started":
        monkeypatch.setattr(sys, "executable", str(tmp_path / "no-such-python"))
    else:
        script = tmp_path / "garbage"
        script.write_text("#!/bin/sh\necho not-a-key\n", "utf-8")
        script.chmod(0o755)
        monkeypatch.setattr(sys, "executable", str(script))
    prefetch = prefetch_fingerprint(roots)
    monkeypatch.undo()
    assert prefetch.key() == bank_cache.fingerprint(roots)


def test_cached_bank_uses_a_prefetch_only_for_its_own_roots(tmp_path, monkeypatch):
    roots = [_papers(tmp_path)]
    cache = tmp_path / "cache"
    load_and_cache_bank(roots, cache)
    assert cached_bank(roots, cache, prefetch_fingerprint(roots)) is not None
    other = prefetch_fingerprint([])  # started for other roots: not asked
    try:
        monkeypatch.setattr(KeyPrefetch, "key", lambda self: pytest.fail("asked another key"))
        assert cached_bank(roots, cache, other) is not None
    finally:
        other.close()


@pytest.mark.skipif(not hasattr(os, "posix_spawn"), reason="no posix_spawn: nothing to leave")
def test_no_child_is_left_behind(tmp_path):
    """Closed with its key unread (a launch that ends early), before or after the child
    ended: the child is gone and reaped, not a zombie of examdesk's."""
    import psutil

    roots = [_papers(tmp_path)]
    me = psutil.Process()
    before = {p.pid for p in me.children()}
    early = prefetch_fingerprint(roots)
    early.close()  # at once: most likely still starting up
    late = prefetch_fingerprint(roots)
    child = next(p for p in me.children() if p.pid not in before)
    deadline = time.monotonic() + 30
    while child.status() != psutil.STATUS_ZOMBIE and time.monotonic() < deadline:
        time.sleep(0.01)  # ended, not reaped (psutil's wait would reap it)
    assert child.status() == psutil.STATUS_ZOMBIE
    late.close()
    read = prefetch_fingerprint(roots)
    assert read.key() == bank_cache.fingerprint(roots)
    read.close()
    assert {p.pid for p in me.children()} == before


def test_the_fingerprint_changes_with_each_input(tmp_path):
    roots = [os.fspath(_papers(tmp_path))]
    source = tmp_path / "loader.py"
    source.write_text("x\n", "utf-8")
    key = fingerprint_files("h", [os.fspath(source)], roots)
    assert len(key) == 32 and key == fingerprint_files("h", [os.fspath(source)], roots)
    assert fingerprint_files("h2", [os.fspath(source)], roots) != key
    source.write_text("xy\n", "utf-8")
    assert fingerprint_files("h", [os.fspath(source)], roots) != key
