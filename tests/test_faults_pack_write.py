"""Writing a pack when things go wrong (issue 28): a target that is not a pack.

Real processes and real folders: ``question-db import`` as a subprocess.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from pack_write_driver import draft
from question_db.bank import load_bank
from question_db.interchange.pack import NotAPack, write_pack


def cli(*args: object) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "question_db", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=REPO)


def run_cli(*args: object) -> subprocess.CompletedProcess:
    proc = cli(*args)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def loaded(root: Path) -> dict[str, tuple[str, int]]:
    """Paper id -> (title, number of questions) as the bank loader sees ``root``."""
    bank = load_bank([root], include_bundled=False)
    return {p.id: (p.title, len(p.questions)) for p in bank.papers}


@pytest.fixture
def quiz(tmp_path) -> Path:
    """What the imports read: a GIFT file of 34 questions (the smallest importer's input)."""
    path = tmp_path / "quiz.gift"
    path.write_text("\n\n".join(f"::Q{n}:: Question {n}? {{=yes ~no}}" for n in range(1, 35)),
                    encoding="utf-8")
    return path


@pytest.fixture
def root(tmp_path) -> Path:
    """A papers folder holding pack ``mine``: "old", 30 questions."""
    folder = tmp_path / "papers"
    write_pack(draft("old", 30), folder / "mine")
    return folder


# --- item 1: --replace never removes a folder that is not a pack ------------------------------
@pytest.mark.parametrize("kind", ["thesis folder", "file"])
def test_replace_refuses_a_target_that_is_not_a_pack(tmp_path, kind, quiz):
    """Regression (issue 28, item 1): `import --out DIR --replace` removed any DIR (a thesis,
    the home folder)."""
    target = tmp_path / "thesis"
    if kind == "file":
        target.write_text("my thesis\n")
    else:
        (target / "chapters").mkdir(parents=True)
        (target / "chapters" / "one.tex").write_text("\\chapter{One}\n")
        (target / "notes.txt").write_text("do not lose\n")
    before = tree(target) if target.is_dir() else target.read_bytes()
    proc = run_cli("import", quiz, "--out", target, "--replace")
    assert proc.returncode == 2, proc.stderr
    assert f"question-db import: {target}: already exists and is a" in proc.stderr
    assert "not an examdesk pack (it holds no paper.toml)" in proc.stderr
    assert "nothing was written" in proc.stderr and "Traceback" not in proc.stderr
    assert (tree(target) if target.is_dir() else target.read_bytes()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["quiz.gift", "thesis"]  # no staging


def test_replace_refuses_a_non_pack_in_process_too(tmp_path):
    """The GUI's save path calls ``write_pack`` itself: the same refusal, nothing touched."""
    target = tmp_path / "home"
    (target / ".ssh").mkdir(parents=True)
    (target / ".ssh" / "id_ed25519").write_text("secret\n")
    with pytest.raises(NotAPack, match=f"{target}: already exists"):
        write_pack(draft("new", 3), target, replace=True)
    assert tree(target) == {".ssh/id_ed25519": b"secret\n"}


def test_replace_still_replaces_a_pack_and_fills_an_empty_folder(root, tmp_path):
    write_pack(draft("new", 31), root / "mine", replace=True)
    (tmp_path / "empty").mkdir()
    write_pack(draft("fresh", 2, "fresh"), tmp_path / "empty")
    assert loaded(root) == {"mine": ("new", 31)}
    assert loaded(tmp_path / "empty") == {"fresh": ("fresh", 2)}
    assert sorted(p.name for p in root.iterdir()) == ["mine"]
