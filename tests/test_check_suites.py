"""Each check suite accepts its reference and rejects every one-bug solution.

In-process runs (fast, same harness and suite source as the kernel) plus the real
path: `question-db check` in a fresh ipykernel, once per solution file.
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

from question_db.bank import load_bank
from question_db.checks.inprocess import run_suite_inprocess

BANK = load_bank()
# The drills pack has its own tests (tests/test_drills.py: many solutions per process, Triton
# under its interpreter in a subprocess, one real kernel per kind).
SUITES = [q for q in BANK.all_questions()
          if q.type == "programming" and q.code.check and q.paper_id != "drills"]
WRONG = [(q, path) for q in SUITES for path in q.code.wrong]


def expected_failures(path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "EXPECTED_FAIL":
            return list(ast.literal_eval(node.value))
    raise AssertionError(f"{path.name} has no EXPECTED_FAIL")


def test_every_suite_has_wrong_solutions():
    assert {q.id for q in SUITES} == {"000/34", "001/29", "001/30"}
    for q in SUITES:
        assert len(q.code.wrong) >= 4, q.id


@pytest.mark.parametrize("q", SUITES, ids=lambda q: q.id)
def test_reference_passes_inprocess(q):
    results = run_suite_inprocess(q.code.check, q.code.read("reference"))
    failed = [f"{r['name']}: {r['message']}" for r in results if not r["passed"]]
    assert results and not failed, failed


@pytest.mark.parametrize("q,path", WRONG, ids=[f"{q.id}-{p.stem}" for q, p in WRONG])
def test_wrong_solution_fails_its_property_inprocess(q, path):
    expected = expected_failures(path)
    results = {r["name"]: r for r in run_suite_inprocess(q.code.check, path.read_text("utf-8"))}
    assert set(expected) <= set(results), f"unknown check names in EXPECTED_FAIL: {expected}"
    still_passing = [name for name in expected if results[name]["passed"]]
    assert not still_passing, f"{path.name}: {still_passing} passed but must fail"


def cli_check(qid: str, path) -> tuple[int, dict]:
    proc = subprocess.run([sys.executable, "-m", "question_db", "check", qid, str(path),
                           "--device", "cpu", "--json"], capture_output=True, text=True,
                          timeout=600)
    assert proc.stdout.strip(), proc.stderr[-3000:]
    return proc.returncode, json.loads(proc.stdout)


@pytest.mark.kernel
@pytest.mark.parametrize("q", SUITES, ids=lambda q: q.id)
def test_cli_check_passes_reference_in_kernel(q):
    rc, report = cli_check(q.id, q.code.reference)
    assert rc == 0, [c for c in report["checks"] if not c["passed"]]
    assert report["passed"] is True and report["device"] == "cpu"
    assert {"name", "passed", "message", "seconds"} <= set(report["checks"][0])


@pytest.mark.kernel
@pytest.mark.parametrize("q,path", WRONG, ids=[f"{q.id}-{p.stem}" for q, p in WRONG])
def test_cli_check_fails_wrong_solution_in_kernel(q, path):
    rc, report = cli_check(q.id, path)
    assert rc == 1 and report["passed"] is False
    failed = {c["name"] for c in report["checks"] if not c["passed"]}
    assert set(expected_failures(path)) <= failed


@pytest.mark.slow
def test_slow_compile_check_passes_reference():
    q = BANK.question("000/34")
    results = run_suite_inprocess(q.code.check, q.code.read("reference"), include_slow=True)
    slow = [r for r in results if r["slow"]]
    assert slow, "000/34 has no slow (torch.compile) check"
    assert all(r["passed"] for r in slow), slow
