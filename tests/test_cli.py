"""`question-db` end to end, as a subprocess (the installed entry point's code path)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import BUNDLED


def run(*args, check=False):
    return subprocess.run([sys.executable, "-m", "question_db", *args], capture_output=True,
                          text=True, check=check)


def test_validate_bundled_reports_zero_problems():
    proc = run("validate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "3 paper(s), 77 question(s), 0 problem(s)" in proc.stderr


def test_validate_broken_pack_exits_nonzero_and_names_the_field(pack_copy):
    path = pack_copy / "001" / "q06.toml"
    path.write_text(path.read_text("utf-8").replace('answer = "A"', 'answer = "E"', 1), "utf-8")
    proc = run("validate", str(pack_copy))
    assert proc.returncode == 1
    assert f"{path}:001/6:answer: 'E' is not among the options" in proc.stdout


@pytest.fixture(scope="module")
def export():
    return json.loads(run("export", "--format", "json", check=True).stdout)


def test_export_contract_shape(export):
    papers = export["papers"]
    assert [p["id"] for p in papers] == ["000", "001", "drills"]
    assert [len(p["questions"]) for p in papers] == [34, 31, 12]
    assert papers[0]["source"] == "000_88fc5b147273d5d1.txt"
    assert papers[2]["source"] is None  # an original pack, not repaired from a seed file
    assert [p["total_points"] for p in papers] == [125, 150, 143]
    paper_keys = {"id", "title", "source", "duration_minutes", "total_points", "sections",
                  "questions"}
    q_keys = {"id", "number", "type", "points", "stem", "options", "answer", "seed_answer",
              "status", "errata", "explanation", "topics"}
    for p in papers:
        assert paper_keys <= set(p)
        for s in p["sections"]:
            assert {"title", "type", "points"} <= set(s)
        for q in p["questions"]:
            assert q_keys <= set(q), q["id"]
            assert q["id"] == f"{p['id']}/{q['number']}"


def test_export_answer_shapes(export):
    for p in export["papers"]:
        for q in p["questions"]:
            a, t = q["answer"], q["type"]
            if q["status"] == "void" and a is None:
                continue
            if t == "single_choice":
                assert isinstance(a, str) and a in q["options"]
            elif t == "multiple_choice":
                assert a == sorted(a) and set(a) <= set(q["options"])
            elif t == "fill_blank":
                assert all(isinstance(v, list) and v for v in a)
            elif t == "calculation":
                parts = a if isinstance(a, list) else [a]
                assert all({"value", "tolerance", "unit"} <= set(x) for x in parts)
            else:
                assert isinstance(a, str) and a.strip()
            if t not in ("single_choice", "multiple_choice"):
                assert q["options"] is None


def test_export_types_per_section(export):
    types = {p["id"]: [q["type"] for q in p["questions"]] for p in export["papers"]}
    assert types["000"] == (["single_choice"] * 15 + ["multiple_choice"] * 5
                            + ["fill_blank"] * 10 + ["short_answer"] * 3 + ["programming"])
    assert types["001"] == (["single_choice"] * 10 + ["multiple_choice"] * 5
                            + ["fill_blank"] * 10 + ["calculation"] * 3
                            + ["programming"] * 2 + ["system_design"])
    assert types["drills"] == ["programming"] * 12


def test_every_changed_key_carries_errata(export):
    for p in export["papers"]:
        for q in p["questions"]:
            if q["status"] != "ok":
                assert q["errata"].strip(), q["id"]


def test_list_shows_both_papers():
    out = run("list", check=True).stdout
    assert "000  2025年人工智能工程师认证考试试卷" in out and "001" in out


def test_extra_pack_from_command_line(tmp_path):
    import shutil
    dest = tmp_path / "extra" / "demo"
    shutil.copytree(BUNDLED / "001", dest)
    text = (dest / "paper.toml").read_text("utf-8").replace('id = "001"', 'id = "demo"')
    (dest / "paper.toml").write_text(text, "utf-8")
    out = run("--papers", str(tmp_path / "extra"), "list", check=True).stdout
    assert "demo" in out
