"""The importer on papers written elsewhere (``tests/data/papers_elsewhere``: another
author, layouts and tools the rendered suite does not use), read the way a learner does:
``question-db import FILE --out DIR`` then ``question-db --papers DIR export --format json``.
Each file's truth was written by hand. Goals as in the generalisation suite."""
from __future__ import annotations

import difflib
import json
import re
import subprocess
import sys
import unicodedata

import pytest

from conftest import REPO

DATA = REPO / "tests" / "data" / "papers_elsewhere"
PAPERS = sorted(p for p in DATA.iterdir() if p.stem + ".truth.json" in
                {t.name for t in DATA.glob("*.truth.json")})


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "question_db", *args], capture_output=True,
                          text=True, cwd=REPO, timeout=120)


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text or "")).strip()


def key_ok(truth: dict, got) -> bool:
    if got in (None, "", []):
        return False
    if isinstance(got, list):
        got = " ".join(x if isinstance(x, str) else " ".join(x) for x in got)
    if truth["type"] in ("single_choice", "multiple_choice"):
        return sorted(re.sub(r"[^A-H]", "", norm(got).upper())) == sorted(truth["key"])
    a, b = norm(got).replace(" ", ""), norm(truth["key"]).replace(" ", "")
    return a == b or difflib.SequenceMatcher(None, a, b).ratio() >= 0.85


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("elsewhere")
    for paper in PAPERS:
        proc = cli("import", str(paper), "--out", str(out / paper.stem))
        assert proc.returncode == 0, proc.stderr
    return out


@pytest.mark.parametrize("paper", PAPERS, ids=[p.name for p in PAPERS])
def test_paper_written_elsewhere_imports(paper, imported):
    proc = cli("--papers", str(imported), "export", "--format", "json", paper.stem)
    assert proc.returncode == 0, proc.stderr
    got = {q["number"]: q for q in json.loads(proc.stdout)["papers"][0]["questions"]}
    truth = json.loads((DATA / f"{paper.stem}.truth.json").read_text(encoding="utf-8"))
    n = len(truth)
    assert sorted(got) == [t["number"] for t in truth]  # every question, none invented
    types = sum(got[t["number"]]["type"] == t["type"] for t in truth)
    options = sum({k: norm(v) for k, v in (got[t["number"]].get("options") or {}).items()}
                  == {k: norm(v) for k, v in t["options"].items()} for t in truth)
    keys = sum(key_ok(t, got[t["number"]].get("seed_answer")) for t in truth)
    stems = sorted(difflib.SequenceMatcher(None, norm(got[t["number"]]["stem"]),
                                           norm(t["stem"])).ratio() for t in truth)
    truncated = [t["number"] for t in truth if bool(got[t["number"]].get("truncated"))
                 != t["truncated"]]
    assert types >= 0.9 * n and options >= 0.9 * n and keys >= 0.9 * n, (types, options, keys)
    assert stems[n // 2] >= 0.97 and truncated == []


def test_two_exports_in_one_file_are_refused_by_name(tmp_path):
    proc = cli("import", str(DATA / "bad2_concat.txt"), "--out", str(tmp_path / "x"))
    assert proc.returncode == 2
    assert "more than one paper" in proc.stderr and "《深度学习》第2章练习" in proc.stderr
    assert not (tmp_path / "x").exists()
