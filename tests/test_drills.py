"""The drills pack (question_db/papers/drills): every reference and every alternative correct
solution passes its suite; every one-bug solution fails the checks its EXPECTED_FAIL names.

PyTorch drills run in this process (the harness and suite source the kernel gets). Triton
drills run in one subprocess with TRITON_INTERPRET=1 set before triton is imported: the
interpreter cannot be chosen once triton is loaded, and this process may already have
loaded it (torch imports triton whenever a TorchDispatchMode is entered). The real path,
`question-db check` in a fresh ipykernel, runs once per kind of drill.
"""
from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

from question_db import actions, review
from question_db.bank import load_bank
from question_db.checks.inprocess import run_suite_inprocess
from question_db.checks.runner import solution_exec_code
from question_db.grading import grade_answer
from question_db.responses import CodeResponse
from question_db.store import ProgressStore

REPO = Path(__file__).resolve().parents[1]
BANK = load_bank()
DRILLS = BANK.paper("drills")
QUESTIONS = list(DRILLS.questions)


def expected_failures(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "EXPECTED_FAIL":
            return list(ast.literal_eval(node.value))
    raise AssertionError(f"{path.name} has no EXPECTED_FAIL")


def cli_check(qid: str, path: Path) -> tuple[int, dict]:
    """`question-db check` headless in a fresh kernel, on CPU, as JSON."""
    proc = subprocess.run([sys.executable, "-m", "question_db", "check", qid, str(path),
                           "--device", "cpu", "--json"], capture_output=True, text=True,
                          timeout=600, cwd=REPO)
    assert proc.stdout.strip(), proc.stderr[-3000:]
    return proc.returncode, json.loads(proc.stdout)


def is_triton(q) -> bool:
    return "import triton" in q.code.read("reference")


def alternatives(q) -> list[Path]:
    """Correct solutions in other conventions, saved beside the reference."""
    prefix = q.code.reference.name.replace("_reference.py", "")
    return sorted(q.code.reference.parent.glob(f"{prefix}_correct_*.py"))


def uses_triton(path: Path) -> bool:
    """A solution with Triton kernels, also to a PyTorch drill (Liger-Kernel's designs)."""
    return "import triton" in path.read_text("utf-8")


def solutions(triton: bool) -> list[tuple]:
    """(question, path, kind) for every solution file that does (not) run Triton kernels."""
    out = []
    for q in QUESTIONS:
        entries = [(q, q.code.reference, "reference")]
        entries += [(q, p, "correct") for p in alternatives(q)]
        entries += [(q, p, "wrong") for p in q.code.wrong]
        out += [e for e in entries if uses_triton(e[1]) == triton]
    return out


def solution_id(entry) -> str:
    return entry[1].stem


def assert_outcome(q, path, kind, results: list[dict]) -> None:
    assert results, f"{path.name}: the suite ran no checks"
    failed = {r["name"]: r["message"] for r in results if not r["passed"]}
    if kind == "reference":  # the reference also meets the non-required checks
        assert not failed, f"{path.name}: {failed}"
    elif kind == "correct":
        required = {n: m for n, m in failed.items()
                    if next(r for r in results if r["name"] == n)["required"]}
        assert not required, f"{path.name}: {required}"
    else:
        expected = expected_failures(path)
        names = {r["name"] for r in results}
        assert set(expected) <= names, f"unknown check names in EXPECTED_FAIL: {expected}"
        still_passing = [n for n in expected if n not in failed]
        assert not still_passing, f"{path.name}: {still_passing} passed but must fail"


# --- the pack itself --------------------------------------------------------------------------
def test_pack_loads_as_its_own_paper():
    assert not BANK.problems, [str(p) for p in BANK.problems]
    assert DRILLS.source is None and DRILLS.title == "AI 系统工程编程练习"
    assert len(QUESTIONS) >= 12 and all(q.type == "programming" for q in QUESTIONS)
    assert sum(is_triton(q) for q in QUESTIONS) >= 3
    assert DRILLS.total_points == sum(s.points for s in DRILLS.sections)


@pytest.mark.parametrize("q", QUESTIONS, ids=lambda q: q.id)
def test_every_drill_is_complete(q):
    code = q.code
    assert code.reference and code.starter and code.check, q.id
    assert len(code.wrong) >= 3, q.id
    assert any(r.auto for r in q.rubric), q.id
    assert q.explanation.strip() and "由你决定" in q.stem and "接口约定" in q.stem, q.id
    for path in [code.reference, code.starter, code.check, *code.wrong, *alternatives(q)]:
        compile(path.read_text("utf-8"), str(path), "exec")
    for path in code.wrong:
        assert expected_failures(path), path.name


def test_references_smoke_run_as_main():
    """Each reference's own __main__ self-test, all in one interpreter (Triton interpreted)."""
    script = ("import os, runpy, sys; os.environ['TRITON_INTERPRET'] = '1'\n"
              "for path in sys.argv[1:]:\n"
              "    runpy.run_path(path, run_name='__main__')\n")
    proc = subprocess.run([sys.executable, "-c", script,
                           *[str(q.code.reference) for q in QUESTIONS]],
                          capture_output=True, text=True, timeout=300, cwd=REPO)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]


# --- PyTorch drills, in process ---------------------------------------------------------------
TORCH = solutions(triton=False)


@pytest.mark.parametrize("q,path,kind", TORCH, ids=[solution_id(e) for e in TORCH])
def test_torch_drill_solution(q, path, kind):
    assert_outcome(q, path, kind, run_suite_inprocess(q.code.check, path.read_text("utf-8")))


# --- Triton drills, under the interpreter in one subprocess ----------------------------------
TRITON = solutions(triton=True)
TRITON_RUNNER = """
import json, os, sys
os.environ["TRITON_INTERPRET"] = "1"  # before anything imports triton
from pathlib import Path
from question_db.checks.inprocess import run_suite_inprocess
out = {}
for suite, solution in json.loads(sys.argv[1]):
    out[solution] = run_suite_inprocess(Path(suite), Path(solution).read_text("utf-8"))
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def triton_results() -> dict:
    pytest.importorskip("triton", reason="the Triton drills need triton (pip install triton)")
    pairs = [(str(q.code.check), str(path)) for q, path, _ in TRITON]
    proc = subprocess.run([sys.executable, "-W", "ignore", "-c", TRITON_RUNNER,
                           json.dumps(pairs)], capture_output=True, text=True, timeout=600,
                          cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("q,path,kind", TRITON, ids=[solution_id(e) for e in TRITON])
def test_triton_drill_solution(triton_results, q, path, kind):
    results = triton_results[str(path)]
    assert_outcome(q, path, kind, results)
    if is_triton(q):  # a Triton drill's own suite says how its kernels ran
        ready = next(r for r in results if r["name"] == "triton_ready")
        assert "interpreter on CPU" in ready["message"] and "correctness only" in ready["message"]


def test_flash_attention_drill_names_what_a_long_sequence_breaks(triton_results):
    """Issue 29: with 128-wide blocks a 64-token sequence is one key block and one query block,
    so a kernel that never rescales its accumulator, or masks with block-local key offsets,
    passes every short check; S = 300 fails it, and the message names the property."""
    q = DRILLS.question(12)
    wrong = {p.name: p for p in q.code.wrong}
    short = ("matches_sdpa", "logsumexp", "ragged_sequence", "large_scores", "strided_inputs",
             "half_precision")
    no_rescale = {r["name"]: r for r in triton_results[str(wrong["q12_wrong_no_rescale.py"])]}
    assert all(no_rescale[n]["passed"] for n in short), no_rescale
    message = no_rescale["rescale_across_key_blocks"]["message"]
    assert "depends on the order of the keys" in message and "exp(m_old − m_new)" in message
    local = {r["name"]: r for r in triton_results[str(wrong["q12_wrong_block_local_mask.py"])]}
    assert all(local[n]["passed"] for n in short + ("rescale_across_key_blocks",)), local
    message = local["causal_across_key_blocks"]["message"]
    assert "query 128 saw 256 keys, not 129: later keys are visible" in message, message


UNUSABLE_TRITON = """
import json, runpy, sys
from pathlib import Path
from question_db.checks.inprocess import run_suite_inprocess
suites = [Path(p) for p in json.loads(sys.argv[1])]
import triton  # loaded without TRITON_INTERPRET, as after torch.compile or a FlopCounterMode
out = {"imported_early": [run_suite_inprocess(s, "") for s in suites]}
sys.modules["triton"] = None  # from here on `import triton` fails: not installed
out["missing"] = [run_suite_inprocess(s, "") for s in suites]
try:
    runpy.run_path(sys.argv[2])
except ImportError as exc:
    out["reference_error"] = str(exc)
print(json.dumps(out))
"""


def test_triton_drills_fail_once_and_say_why_when_triton_is_unusable():
    pytest.importorskip("triton")
    qs = [q for q in QUESTIONS if is_triton(q)]
    proc = subprocess.run([sys.executable, "-c", UNUSABLE_TRITON,
                           json.dumps([str(q.code.check) for q in qs]), str(qs[0].code.reference)],
                          capture_output=True, text=True, timeout=300, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    for results in out["imported_early"]:  # one failure, telling the learner to restart
        assert [(r["name"], r["passed"]) for r in results] == [("triton_ready", False)]
        assert "restart the kernel" in results[0]["message"]
    for results in out["missing"]:  # one failure, telling the learner what to install
        assert [(r["name"], r["passed"]) for r in results] == [("triton_ready", False)]
        assert "pip install triton" in results[0]["message"]
        assert "examdesk[triton]" in results[0]["message"]
    assert "pip install triton" in out["reference_error"]


# --- like any question: graded from its checks, scheduled, in the wrong-answer book -----------
def test_a_drill_is_graded_scheduled_and_kept_in_the_wrong_book(tmp_path):
    q = DRILLS.question(3)
    wrong = next(p for p in q.code.wrong if "naive_softmax" in p.name)
    store = ProgressStore(tmp_path / "progress.db")
    try:
        sid = store.start_session(paper_id=DRILLS.id, mode="practice", now=1_780_000_000.0)
        grades = {}
        for path in (wrong, q.code.reference):
            code = path.read_text("utf-8")
            checks = run_suite_inprocess(q.code.check, code)
            response = CodeResponse(code, tuple(checks), (True,) * len(q.rubric))
            grades[path] = grade_answer(q, response)
            outcome = actions.submit_practice_answer(store, paper=DRILLS, session_id=sid,
                                                     question=q, response=response,
                                                     seconds=600, now=1_780_000_000.0)
            assert outcome.grade == grades[path]
            assert outcome.card is not None and outcome.card.due > 1_780_000_000.0
        assert grades[wrong].verdict != "correct" and grades[wrong].points < q.points
        assert grades[q.code.reference].points == q.points
        book = review.wrong_book(store, BANK, paper_id=DRILLS.id)
        assert [e.question.id for e in book] == [q.id] and book[0].misses == 1
    finally:
        store.close()


# --- the runner's additions for Triton ---------------------------------------------------------
def test_defined_solution_source_is_inspectable():
    """@triton.jit (compiled, as on CUDA) reads its function's source with inspect: the code
    the runner sends registers the solution in linecache, as IPython does for a cell."""
    source = "def twice(x):\n    return 2 * x\n"
    user_ns: dict = {}
    shell = types.SimpleNamespace(user_ns=user_ns)
    exec(solution_exec_code(source, "<solution>"), {"get_ipython": lambda: shell})
    assert inspect.getsource(user_ns["twice"]) == source
    assert user_ns["twice"](3) == 6


COMPILED_JIT = """
import os, types
os.environ.pop("TRITON_INTERPRET", None)
from question_db.checks.runner import solution_exec_code
source = '''
import triton
import triton.language as tl

@triton.jit
def double(x_ptr, n, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    tl.store(x_ptr + i, 2 * tl.load(x_ptr + i, mask=i < n), mask=i < n)
'''
ns = {}
exec(solution_exec_code(source), {"get_ipython": lambda: types.SimpleNamespace(user_ns=ns)})
print(type(ns["double"]).__name__, "def double" in ns["double"].src)
"""


def test_compiled_triton_kernel_can_be_defined_from_the_runner():
    pytest.importorskip("triton")
    proc = subprocess.run([sys.executable, "-c", COMPILED_JIT], capture_output=True, text=True,
                          timeout=120, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["JITFunction", "True"]


# --- the real path: question-db check in a fresh kernel ---------------------------------------
@pytest.mark.kernel
def test_cli_check_passes_a_torch_drill_in_kernel():
    q = DRILLS.question(1)
    rc, report = cli_check(q.id, q.code.reference)
    assert rc == 0, [c for c in report["checks"] if not c["passed"]]
    assert report["passed"] is True and report["device"] == "cpu"


@pytest.mark.kernel
def test_cli_check_runs_a_triton_drill_interpreted_without_the_preamble(tmp_path):
    """The harness chooses Triton's interpreter in a CPU-only kernel before the solution is
    defined, so a solution that never sets TRITON_INTERPRET itself still runs headless."""
    pytest.importorskip("triton")
    q = DRILLS.question(10)
    reference = q.code.read("reference")
    preamble = ('if not torch.cuda.is_available():\n'
                '    os.environ.setdefault("TRITON_INTERPRET", "1")'
                '  # CPU: run kernels in Triton\'s interpreter\n')
    assert preamble in reference
    solution = tmp_path / "softmax.py"
    solution.write_text(reference.replace(preamble, ""), "utf-8")
    rc, report = cli_check(q.id, solution)
    assert rc == 0, [c for c in report["checks"] if not c["passed"]]
    ready = next(c for c in report["checks"] if c["name"] == "triton_ready")
    assert "interpreter on CPU" in ready["message"]


@pytest.mark.kernel
def test_cli_check_fails_a_wrong_triton_drill_in_kernel():
    pytest.importorskip("triton")
    q = DRILLS.question(11)
    path = next(p for p in q.code.wrong if "leading_dims" in p.name)
    rc, report = cli_check(q.id, path)
    assert rc == 1 and report["passed"] is False
    failed = {c["name"] for c in report["checks"] if not c["passed"]}
    assert set(expected_failures(path)) <= failed


def test_stems_say_what_the_triton_checks_need():
    for q in QUESTIONS:
        if is_triton(q):
            assert "TRITON_INTERPRET=1" in q.stem, q.id
            assert 'os.environ.setdefault("TRITON_INTERPRET", "1")' in q.code.read("starter")


def test_int4_packing_checks_the_stated_shape():
    q = BANK.question("drills/6")
    path = next(p for p in q.code.wrong if p.name == "q06_wrong_pack_along_rows.py")
    results = {r["name"]: r for r in run_suite_inprocess(q.code.check, path.read_text("utf-8"))}
    failed = {n for n, r in results.items() if not r["passed"]}
    assert failed == {"int4_packing"}, failed
    assert "expected (out, in/2)" in results["int4_packing"]["message"]
    assert "two rows per byte" in results["int4_packing"]["message"]


BLOCK_PTR_RUNNER = """
import json, os, sys
os.environ["TRITON_INTERPRET"] = "1"  # before anything imports triton
from pathlib import Path
from question_db.checks.inprocess import run_suite_inprocess
print(json.dumps(run_suite_inprocess(Path(sys.argv[1]), Path(sys.argv[2]).read_text("utf-8"))))
"""


def test_block_pointer_kernel_is_reported_not_judged_naming_the_cause():
    """Issue 29: a CS336-style RMSNorm with tl.make_block_ptr failed every check with a raw
    "InterpreterError: NotImplementedError(...)" on triton 3.9, as if it were wrong. Block
    pointers are gone from that Triton (interpreted and compiled): each check says so, names
    the supported range, is marked not judged, and the answer is pending, not 0 points."""
    triton = pytest.importorskip("triton", reason="the Triton drills need triton")
    q = DRILLS.question(11)
    path = q.code.reference.parent / "q11_not_judged_block_ptr.py"
    assert path not in alternatives(q) and path not in q.code.wrong
    proc = subprocess.run([sys.executable, "-W", "ignore", "-c", BLOCK_PTR_RUNNER,
                           str(q.code.check), str(path)], capture_output=True, text=True,
                          timeout=300, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    judged = [r for r in results if r["name"] != "triton_ready"]
    assert judged and all(r.get("not_judged") and not r["passed"] for r in judged), results
    if hasattr(triton.language, "make_block_ptr") and triton.__version__.startswith("3.9"):
        message = judged[0]["message"]
        assert message.startswith(f"Not judged: triton {triton.__version__} has no block "
                                  "pointers"), message
        assert "Supported: triton >= 3.0 (checked with 3.9.0)" in message, message
        assert "base + offsets with a mask" in message, message
    from question_db.grading import check_share
    assert check_share(results) is None
    assert check_share([{**r, "not_judged": False} for r in results]) == 1 / len(results)


def test_block_pointer_missing_from_an_interpreter_only_is_named_too():
    """An older Triton whose interpreter lacks block pointers (compiled kernels have them)
    fails inside make_block_ptr with another error: named as the interpreter's limit."""
    import os

    from question_db.checks.inprocess import harness_module

    harness = harness_module()
    namespace: dict = {"__file__": "/site-packages/triton/language/core.py"}
    exec(compile("def make_block_ptr():\n    raise AttributeError('no create_make_block_ptr')\n",
                 "/site-packages/triton/language/core.py", "exec"), namespace)
    try:
        try:
            namespace["make_block_ptr"]()
        except AttributeError as inner:
            raise RuntimeError("interpreter failed") from inner
    except RuntimeError as exc:
        caught = exc
    old = os.environ.get("TRITON_INTERPRET")
    os.environ["TRITON_INTERPRET"] = "1"
    try:
        message = harness.triton_unsupported(caught)
    finally:
        if old is None:
            del os.environ["TRITON_INTERPRET"]
        else:
            os.environ["TRITON_INTERPRET"] = old
    assert message and "not available in triton" in message and "CPU interpreter" in message
    assert "they run compiled on CUDA" in message and ">= 3.0" in message, message
    assert harness.triton_unsupported(ValueError("shape mismatch")) is None
