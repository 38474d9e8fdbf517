"""Writing a pack when things go wrong (issue 28): a target that is not a pack, a writer
killed with -9 mid-write or mid-swap, two imports into the same folder at once.

Real processes and real folders: ``question-db import`` as a subprocess, and
``pack_write_driver.py`` running the real ``write_pack`` until it is SIGKILLed at a chosen
moment, leaving exactly the files a killed writer leaves.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from pack_write_driver import draft
from question_db.bank import load_bank
from question_db.interchange.pack import NotAPack, PackLocked, write_pack
from question_db.pack_folders import finish_interrupted_writes, lock_path, pack_lock

DRIVER = Path(__file__).with_name("pack_write_driver.py")
RACE_TRIALS = 6  # as the fault-injection run that found the race


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


def kill_when_paused(root: Path, *extra: str) -> None:
    """Run the driver replacing ``root/mine`` with a 40-question pack and SIGKILL it at
    the pause ``extra`` asks for."""
    proc = subprocess.Popen([sys.executable, str(DRIVER), str(root / "mine"), "new", "40",
                             *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=REPO)
    try:
        line = proc.stdout.readline()
        assert line == b"PAUSED\n", (line, proc.stderr.read() if proc.poll() is not None
                                     else b"")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL


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


# --- item 2: what a killed writer leaves is never loaded, and is cleaned up ------------------
def test_a_writer_killed_mid_write_leaves_a_partial_the_loader_ignores(root):
    """Regression (issue 28, item 2): a killed import's `.mine.<rand>.partial` sorted before
    `mine`, loaded first and won (a half copy showed 86 of 276 questions)."""
    kill_when_paused(root, "--pause-after", "12")
    partials = sorted(root.glob(".mine.*.partial"))
    assert len(partials) == 1 and (partials[0] / "paper.toml").is_file()
    assert len(list(partials[0].glob("q*.toml"))) == 12  # the half copy
    assert lock_path(root / "mine").exists()  # the dead writer's lock file
    assert loaded(root) == {"mine": ("old", 30)}  # the real pack, whole
    assert load_bank([root], include_bundled=False).problems == []

    done = finish_interrupted_writes(root)  # what the next start runs (under the lock)
    assert done == [f"{root / 'mine'}: removed {partials[0].name} (an unfinished write)"]
    assert sorted(p.name for p in root.iterdir()) == ["mine"]  # the stale lock taken, gone
    assert loaded(root) == {"mine": ("old", 30)}


def test_a_writer_killed_mid_swap_gets_the_old_pack_back(root):
    """Killed between the two renames of a replace: no `mine`, the old pack in
    `.mine.replaced`, the new one whole in its `.partial`. The next start restores the old
    pack (the learner never saw the new one in place) and removes the new copy."""
    kill_when_paused(root, "--pause-in-swap")
    assert not (root / "mine").exists() and (root / ".mine.replaced" / "paper.toml").exists()
    assert loaded(root) == {}  # neither copy is taken for the pack

    done = finish_interrupted_writes(root)
    assert done[0] == f"{root / 'mine'}: restored from .mine.replaced (a replace was " \
                      "interrupted)"
    assert sorted(p.name for p in root.iterdir()) == ["mine"]
    assert loaded(root) == {"mine": ("old", 30)}


def test_the_next_import_finishes_an_interrupted_swap_first(root, quiz):
    kill_when_paused(root, "--pause-in-swap")
    proc = run_cli("import", quiz, "--out", root / "mine", "--id", "mine", "--replace")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in root.iterdir()) == ["mine"]
    assert loaded(root)["mine"][1] == 34


def test_a_clean_up_leaves_a_write_in_progress_alone(root):
    """A live writer's partial is not a leftover: start-up skips a folder whose lock is held."""
    staging = root / ".mine.abcd1234.partial"
    staging.mkdir()
    with pack_lock(root / "mine"):
        assert finish_interrupted_writes(root) == []
    assert staging.is_dir()
    assert finish_interrupted_writes(root) != [] and not staging.exists()


def test_a_lock_file_naming_a_dead_process_is_taken_over(root, quiz):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    lock_path(root / "mine").write_text(dead.stdout)
    proc = run_cli("import", quiz, "--out", root / "mine", "--id", "mine", "--replace")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in root.iterdir()) == ["mine"]


# --- item 16: two imports into one folder --------------------------------------------------
def test_an_import_into_a_folder_being_written_says_so_and_exits_1(root, quiz):
    with pack_lock(root / "mine"):
        proc = run_cli("import", quiz, "--out", root / "mine", "--replace")
    assert proc.returncode == 1, proc.stderr
    assert f"question-db import: {root / 'mine'}: process {os.getpid()} is writing this " \
           "pack right now; try again when it has finished" in proc.stderr
    assert "nothing was written" in proc.stderr and "Traceback" not in proc.stderr
    assert loaded(root) == {"mine": ("old", 30)}


def test_two_concurrent_replace_imports_never_crash(root, quiz):
    """Regression (issue 28, item 16): one of two concurrent `--replace` imports died with a
    traceback in 4 of 6 trials. Now each ends with 0, or 1 and a message; a pack is there,
    whole, with nothing left beside it."""
    outcomes = []
    for _ in range(RACE_TRIALS):
        procs = [cli("import", quiz, "--out", root / "mine", "--id", "mine", "--replace",
                     "--title", f"run {i}") for i in range(2)]
        results = [(p.returncode, err) for p in procs
                   for _out, err in [p.communicate(timeout=120)]]
        for code, err in results:
            assert "Traceback" not in err, err
            assert code == 0 or (code == 1 and "is writing this pack right now" in err), err
        assert 0 in [code for code, _ in results]
        assert sorted(p.name for p in root.iterdir()) == ["mine"]
        title, count = loaded(root)["mine"]
        assert count == 34 and title in ("run 0", "run 1")
        outcomes.append(sorted(code for code, _ in results))
    print(f"exit codes of {RACE_TRIALS} races: {outcomes}")


def test_in_process_a_held_lock_raises_pack_locked(root):
    with pack_lock(root / "mine"):
        with pytest.raises(PackLocked, match="is writing this pack right now"):
            write_pack(draft("new", 3), root / "mine", replace=True)
    assert loaded(root) == {"mine": ("old", 30)}
