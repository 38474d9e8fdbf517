"""A pack's code runs only with the learner's consent to its exact files.

Real files in tmp dirs; the CLI tests run ``question-db check`` as a subprocess, and the
one that is let through starts a real ipykernel.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BUNDLED
from question_db import trust
from question_db.bank import load_bank
from question_db.model import Paper

REPO = Path(__file__).resolve().parents[1]

TINY_PAPER = """id = "tiny"
title = "Tiny pack"
language = "en"
duration_minutes = 10

[[sections]]
title = "Code"
type = "programming"
first = 1
last = 1
points = 2
"""
TINY_QUESTION = """number = 1
type = "programming"
points = 2
stem = "Define `one()` returning 1."
seed_answer = ""
explanation = "It returns 1."

[code]
reference = "q01_reference.py"
check = "q01_check.py"

[[rubric]]
text = "checks pass"
points = 2
auto = true
"""
TINY_CHECK = """from pathlib import Path
from _examdesk_harness import check

Path({marker!r}).write_text("the pack's code ran")


@check("returns_one")
def returns_one(ctx):
    ctx.expect(ctx.get("one")() == 1, "one() must return 1")
"""


@pytest.fixture
def tiny(tmp_path) -> Path:
    """A pack that is not bundled, whose check suite leaves a marker file when it runs."""
    root = tmp_path / "packs" / "tiny"
    root.mkdir(parents=True)
    (root / "paper.toml").write_text(TINY_PAPER, "utf-8")
    (root / "q01.toml").write_text(TINY_QUESTION, "utf-8")
    (root / "q01_reference.py").write_text("def one():\n    return 1\n", "utf-8")
    (root / "q01_check.py").write_text(
        TINY_CHECK.format(marker=str(tmp_path / "marker")), "utf-8")
    return root


def paper_at(folder: Path) -> Paper:
    bank = load_bank([folder], include_bundled=False)
    assert not bank.problems, [str(p) for p in bank.problems]
    return bank.papers[0]


@pytest.fixture
def data_dir(tmp_path) -> Path:
    return tmp_path / "data"


def test_bundled_packs_are_trusted_without_asking(data_dir):
    for paper in load_bank().papers:
        assert trust.runs_code(paper) and trust.is_bundled(paper)
        assert trust.is_trusted(paper, data_dir=data_dir)
        assert not trust.needs_consent(paper, data_dir=data_dir)
    assert not (data_dir / trust.TRUST_FILE).exists()


def test_consent_is_asked_once_and_bound_to_the_files(tiny, data_dir):
    paper = paper_at(tiny)
    assert not trust.is_bundled(paper)
    assert trust.needs_consent(paper, data_dir=data_dir)
    with pytest.raises(trust.UntrustedPack, match="tiny"):
        trust.require_trusted(paper, data_dir=data_dir)
    trust.grant(paper, data_dir=data_dir)
    assert trust.is_trusted(paper, data_dir=data_dir)
    assert not trust.needs_consent(paper_at(tiny), data_dir=data_dir)  # a fresh load too
    trust.require_trusted(paper, data_dir=data_dir)
    stored = json.loads((data_dir / trust.TRUST_FILE).read_text("utf-8"))
    assert stored["packs"]["tiny"]["sha256"] == trust.pack_hash(paper)
    assert not trust.is_trusted(paper, data_dir=data_dir.parent / "other-data")  # per data dir


@pytest.mark.parametrize("change", ["edit_check", "add_file", "remove_file", "rename_file",
                                    "edit_toml"])
def test_any_change_to_the_pack_asks_again(tiny, data_dir, change):
    (tiny / "notes.txt").write_text("pack notes", "utf-8")
    trust.grant(paper_at(tiny), data_dir=data_dir)
    check = tiny / "q01_check.py"
    if change == "edit_check":
        check.write_text(check.read_text("utf-8") + "import os; os.system('true')\n", "utf-8")
    elif change == "add_file":
        (tiny / "helper.py").write_text("EVIL = 1\n", "utf-8")
    elif change == "remove_file":
        (tiny / "notes.txt").unlink()
    elif change == "rename_file":
        (tiny / "q01_reference.py").rename(tiny / "q01_ref.py")
        toml = tiny / "q01.toml"
        toml.write_text(toml.read_text("utf-8").replace("q01_reference.py", "q01_ref.py"))
    elif change == "edit_toml":
        toml = tiny / "q01.toml"
        toml.write_text(toml.read_text("utf-8").replace("It returns 1.", "It returns one."))
    assert trust.needs_consent(paper_at(tiny), data_dir=data_dir)


def test_python_bytecode_caches_do_not_count(tiny, data_dir):
    trust.grant(paper_at(tiny), data_dir=data_dir)
    cache = tiny / "__pycache__"
    cache.mkdir()
    (cache / "q01_reference.cpython-311.pyc").write_bytes(b"\x00" * 16)
    assert trust.is_trusted(paper_at(tiny), data_dir=data_dir)


@pytest.mark.parametrize("how", ["symlink", "relative_path"])
def test_code_outside_the_pack_is_refused_by_the_loader(tiny, tmp_path, how):
    """The hash covers the pack folder, so code must come from inside it: a check that
    resolves elsewhere could change after consent without changing the hash."""
    outside = tmp_path / "packs" / "shared_check.py"
    shutil.move(tiny / "q01_check.py", outside)
    if how == "symlink":
        (tiny / "q01_check.py").symlink_to(outside)
    else:
        toml = tiny / "q01.toml"
        toml.write_text(toml.read_text("utf-8").replace('"q01_check.py"',
                                                        '"../shared_check.py"'), "utf-8")
    bank = load_bank([tiny], include_bundled=False)
    assert any(p.field == "code.check" and "outside the paper folder" in p.message
               for p in bank.problems), [str(p) for p in bank.problems]
    assert bank.papers[0].questions == ()


def test_hash_frames_names_and_bytes(tmp_path):
    """Moving a byte from one file to the next, or renaming, changes the hash."""
    def digest(files: dict[str, bytes]) -> str:
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        for name, data in files.items():
            (folder / name).write_bytes(data)
        return trust.pack_hash(Paper(id="p", title="", source=None, language="en",
                                     duration_minutes=1, sections=(), questions=(),
                                     folder=folder))
    base = digest({"a": b"xy", "b": b""})
    assert digest({"a": b"xy", "b": b""}) == base
    assert digest({"a": b"x", "b": b"y"}) != base
    assert digest({"a": b"xy", "c": b""}) != base
    assert digest({"ab": b"xy"}) != base


def test_damaged_consent_file_trusts_nothing(tiny, data_dir):
    trust.grant(paper_at(tiny), data_dir=data_dir)
    (data_dir / trust.TRUST_FILE).write_text("{not json", "utf-8")
    assert trust.needs_consent(paper_at(tiny), data_dir=data_dir)
    trust.grant(paper_at(tiny), data_dir=data_dir)  # granting again repairs it
    assert trust.is_trusted(paper_at(tiny), data_dir=data_dir)
    trust.revoke(paper_at(tiny), data_dir=data_dir)
    assert trust.needs_consent(paper_at(tiny), data_dir=data_dir)


def test_a_pack_without_code_needs_no_consent(pack_copy, data_dir):
    paper = paper_at(pack_copy / "001")
    paper = Paper(id=paper.id, title=paper.title, source=paper.source,
                  language=paper.language, duration_minutes=paper.duration_minutes,
                  sections=paper.sections, folder=paper.folder,
                  questions=tuple(q for q in paper.questions if not (q.code or q.verify)))
    assert not trust.runs_code(paper) and not trust.needs_consent(paper, data_dir=data_dir)


# --- question-db check ------------------------------------------------------------------------
def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "question_db", *args], capture_output=True,
                          text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(REPO)})


def test_cli_refuses_an_untrusted_pack_and_runs_none_of_its_code(tiny, tmp_path, data_dir):
    solution = tmp_path / "solution.py"
    solution.write_text("def one():\n    return 1\n", "utf-8")
    proc = cli("--papers", str(tiny), "--data-dir", str(data_dir), "check", "tiny/1",
               str(solution), "--device", "cpu")
    assert proc.returncode == 2
    assert "not a pack shipped with examdesk" in proc.stderr and "--trust" in proc.stderr
    assert not (tmp_path / "marker").exists()  # the check suite never ran


@pytest.mark.kernel
def test_cli_runs_a_trusted_pack_or_one_run_with_trust(tiny, tmp_path, data_dir):
    solution = tmp_path / "solution.py"
    solution.write_text("def one():\n    return 1\n", "utf-8")
    marker = tmp_path / "marker"
    args = ["--papers", str(tiny), "--data-dir", str(data_dir), "check", "tiny/1",
            str(solution), "--device", "cpu", "--json"]
    proc = cli(*args, "--trust")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout)["passed"] is True and marker.exists()
    assert not (data_dir / trust.TRUST_FILE).exists()  # --trust is for that run only

    marker.unlink()
    trust.grant(paper_at(tiny), data_dir=data_dir)  # what the desktop's consent dialog does
    proc = cli(*args)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert marker.exists()


def test_a_fifo_in_a_pack_is_hashed_without_reading_it(tiny, data_dir):
    """Reading a FIFO blocks until someone writes: hashing must not hang the app."""
    os.mkfifo(tiny / "pipe")
    trust.grant(paper_at(tiny), data_dir=data_dir)
    assert trust.is_trusted(paper_at(tiny), data_dir=data_dir)
