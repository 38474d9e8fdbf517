"""Every code file in the bank compiles; every reference solution smoke-runs on CPU."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from question_db.bank import load_bank

BANK = load_bank()
# The drills pack's code is compiled and smoke-run in tests/test_drills.py (one process for all).
PROGRAMMING = [q for q in BANK.all_questions()
               if q.type == "programming" and q.paper_id != "drills"]
FENCE = re.compile(r"```python\n(.*?)```", re.S)
# Run a file as __main__ with the flash_attn stand-in importable, as in the kernel.
SMOKE = ("import runpy, sys; from question_db.checks.inprocess import ensure_flash_attn; "
         "ensure_flash_attn(); runpy.run_path(sys.argv[1], run_name='__main__')")


def test_there_are_programming_questions():
    assert {q.id for q in PROGRAMMING} == {"000/34", "001/29", "001/30"}


@pytest.mark.parametrize("q", PROGRAMMING, ids=lambda q: q.id)
def test_code_files_compile(q):
    paths = [q.code.reference, q.code.starter, q.code.seed, q.code.check, *q.code.correct,
             *q.code.wrong]
    for path in filter(None, paths):
        compile(path.read_text("utf-8"), str(path), "exec")


@pytest.mark.parametrize("q", PROGRAMMING, ids=lambda q: q.id)
def test_reference_smoke_runs_on_cpu(q):
    proc = subprocess.run([sys.executable, "-c", SMOKE, str(q.code.reference)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]


def _text_fields(q):
    yield "stem", q.stem
    yield "explanation", q.explanation
    yield "errata", q.errata
    yield "reference_answer", q.reference_answer
    for name in ("answer", "seed_answer"):
        value = getattr(q, name)
        if isinstance(value, str):
            yield name, value


BLOCKS = [(q.id, field, i, block) for q in BANK.all_questions()
          for field, text in _text_fields(q) for i, block in enumerate(FENCE.findall(text))]


def test_bank_has_python_blocks():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("qid,field,index,block", BLOCKS,
                         ids=[f"{b[0]}-{b[1]}-{b[2]}" for b in BLOCKS])
def test_fenced_python_blocks_compile(qid, field, index, block):
    try:
        compile(block, f"{qid}:{field}[{index}]", "exec")
    except SyntaxError as exc:
        pytest.fail(f"{qid}:{field}: python block {index} does not compile: {exc}")
