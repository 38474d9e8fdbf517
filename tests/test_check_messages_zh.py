"""Check results in the learner's language, the messages (issue 30, item 5): what a check
says about the learner's code (``CheckFailed(f"… {err:.3g} …")``, ``{"message": …}``) and the
runner's own sentences (a timeout, "the solution raised …") read in Chinese in a Chinese UI,
the numbers, shapes, dtypes and code kept as the check wrote them.

The corpus is every message the bundled suites produce on their reference and one-bug
solutions (all 15 suites, in one subprocess with Triton's CPU interpreter, as
tests/test_drills.py runs the Triton drills; ~35 s on 2 cores). Beyond it, every catalogue
key must still be a sentence some check file writes (no stale keys), and nearly every
message template the check files contain has its key.
"""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from question_db.bank import load_bank
from question_db.checks.catalogue import messages_path, translate_message
from question_db.checks.runner import KernelCheckRunner
from question_db.interchange.message_catalogue import placeholders, translate_from
from gui_fixtures import launch, no_leaked_qt_objects  # noqa: F401

REPO = Path(__file__).resolve().parents[1]
PAPERS = REPO / "question_db" / "papers"
CHECKS = REPO / "question_db" / "checks"
SUITES = sorted(PAPERS.glob("*/q*_check.py"))
CATALOGUES = [*sorted(PAPERS.glob("*/i18n/check_messages_zh.toml")),
              CHECKS / "i18n" / "check_messages_zh.toml"]
CJK = re.compile(r"[\u4e00-\u9fff]")
BANK = load_bank()

RUN_ALL = """
import json, os, sys
os.environ["TRITON_INTERPRET"] = "1"  # before anything imports triton (tests/test_drills.py)
from pathlib import Path
from question_db.checks.inprocess import run_solutions_inprocess
out = []
for suite, solutions in json.loads(sys.argv[1]):
    runs = run_solutions_inprocess(Path(suite), [Path(s).read_text("utf-8") for s in solutions])
    out += [[suite, s, r] for s, r in zip(solutions, runs)]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def corpus() -> list[tuple[Path, Path, dict]]:
    """(suite, solution, result) for every check run on every reference and one-bug
    solution."""
    pytest.importorskip("triton", reason="the Triton drills need triton (pip install triton)")
    jobs = [(str(q.code.check), [str(q.code.reference), *map(str, q.code.wrong)])
            for q in BANK.all_questions()
            if q.type == "programming" and q.code is not None and q.code.check]
    assert len(jobs) == len(SUITES)
    proc = subprocess.run([sys.executable, "-W", "ignore", "-c", RUN_ALL, json.dumps(jobs)],
                          capture_output=True, text=True, timeout=600, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = json.loads(proc.stdout.strip().splitlines()[-1])
    return [(Path(suite), Path(solution), result) for suite, solution, results in rows
            for result in results]


def learner_raised(result: dict) -> bool:
    """The harness's ``f"{type(exc).__name__}: {exc}"``: the learner's code raised, and
    the words are Python's (shown as they are, with the traceback)."""
    return (not result["passed"] and "traceback" in (result.get("details") or {})
            and re.match(r"[A-Za-z_][\w.]*(Error|Exception|Interrupt)\b", result["message"])
            is not None)


NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?")
CODE = re.compile(r"\b(?:[A-Za-z_]\w*\(\)|[A-Za-z]\w*_\w+)")


def test_every_message_the_suites_produce_reads_in_chinese(corpus):
    messages = {}
    for suite, _, result in corpus:
        if not learner_raised(result):
            messages.setdefault(result["message"], suite)
    raised = sum(learner_raised(r) for _, _, r in corpus)
    assert len(messages) >= 250 and raised <= 0.05 * len(corpus), (len(messages), raised)
    untranslated, lost = [], []
    for english, suite in messages.items():
        chinese = translate_message(english, suite, "zh_CN")
        if chinese == english or not CJK.search(chinese):
            untranslated.append(english)
            continue
        for token in NUMBER.findall(english) + CODE.findall(english):
            if chinese.count(token) < english.count(token):  # the values, verbatim
                lost.append((token, english, chinese))
    assert not untranslated, untranslated[:20]
    assert not lost, lost[:10]


def test_the_messages_stay_english_in_english_and_unknown_ones_stay_whole():
    suite = PAPERS / "drills" / "q03_check.py"
    english = "finite and within rtol 1e-3"
    assert translate_message(english, suite, "zh_CN") == "结果有限，且在 rtol 1e-3 之内"
    assert translate_message(english, suite, "en_US") == english
    assert translate_message(english, suite, "C") == english
    assert translate_message("", suite, "zh_CN") == ""
    assert translate_message("a sentence no check writes", suite, "zh_CN") == \
        "a sentence no check writes"
    # the runner's own sentences also for a question whose pack has no catalogue
    assert CJK.search(translate_message("not run: needs a CUDA device", None, "zh_CN"))


def test_a_value_that_is_itself_a_sentence_is_translated_inside_the_message():
    """A suite's ``{what}: … differ`` with a ``what`` of its own (``grad_weight for a 3-D
    input``); the numbers in both stay."""
    suite = PAPERS / "drills" / "q04_check.py"
    english = ("grad_weight for a 3-D input: 48 element(s) differ, max abs err 0.0989, "
               "first at (0,) (1.42555 vs 1.41553)")
    assert translate_message(english, suite, "zh_CN") == (
        "3 维输入的 grad_weight：48 个元素不同，最大绝对误差 0.0989，首个位于 (0,)"
        "（1.42555 对比 1.41553）")


class CannedKernel(KernelCheckRunner):
    """The runner's protocol against canned replies: what it says when a check times out
    or the solution raises, without a kernel."""

    def __init__(self, replies: list[dict]):
        super().__init__(client=None, interrupt=lambda: None)
        self.replies = list(replies)

    def execute(self, code: str, *, timeout: float, expression: str | None = None) -> dict:
        return self.replies.pop(0)


def test_the_runners_own_messages_read_in_chinese():
    timed_out = CannedKernel([{"timed_out": True}]).run_check(
        "q", {"name": "causal", "timeout": 30}, "cpu", "")
    assert timed_out["message"].startswith("timed out after 30 s")
    assert translate_message(timed_out["message"], None, "zh_CN") == \
        "30 s 后超时（已中断内核）：卡住了，或者太慢"
    question = BANK.question("001/29")
    report = CannedKernel([{"status": "ok", "value": {"cuda": False}},
                           {"status": "error", "ename": "NameError",
                            "evalue": "name 'torch' is not defined"}]).run_suite(
        question, "x = torch.ones(2)", define=True)
    [defines] = report.checks
    assert translate_message(defines["message"], question.code.check, "zh_CN") == \
        "代码运行时抛出了 NameError: name 'torch' is not defined"


# --- the catalogues against the check files ------------------------------------------------
def message_templates(path: Path) -> set[str]:
    """The sentences ``path`` writes, as templates: each string or f-string (with
    ``"…" + NAME + "…"`` joined, module constants filled in), every ``{expression}`` a
    placeholder; docstrings, ``@check`` descriptions and dict keys left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants: dict[str, str] = {}
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)):
            skip.add(id(body[0].value))
        if isinstance(node, ast.FunctionDef):
            skip |= {id(n) for d in node.decorator_list for n in ast.walk(d)}
        if isinstance(node, ast.Dict):
            skip |= {id(n) for k in node.keys if k is not None for n in ast.walk(k)}

    def text(node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.JoinedStr):
            return "".join(v.value if isinstance(v, ast.Constant) else "{v}"
                           for v in node.values)
        if isinstance(node, ast.Name) and node.id in constants:
            return constants[node.id]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = text(node.left), text(node.right)
            if left is None and right is None:
                return None
            return (left if left is not None else "{v}") + (right if right is not None
                                                            else "{v}")
        return None

    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and text(node.value) is not None):
            constants[node.targets[0].id] = text(node.value)
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if id(node) in skip:
            return
        template = text(node) if not isinstance(node, ast.Name) else None
        if template is not None:
            found.add(template)
        for child in ast.iter_child_nodes(node):  # and the parts that are not text
            if template is None or text(child) is None:  # (a conditional hint)
                visit(child)
    visit(tree)
    return found


def test_every_catalogue_entry_keeps_its_placeholders_and_is_chinese():
    for path in CATALOGUES:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert data and all(isinstance(t, dict) for t in data.values()), path
        for table in data.values():
            for english, chinese in table.items():
                assert sorted(placeholders(english)) == sorted(placeholders(chinese)), \
                    (path.name, english)
                # Chinese words, or (a label of values) Chinese punctuation between them
                assert chinese != english and (CJK.search(chinese) or re.search(
                    r"[\u3000-\u303f\uff00-\uffef]", chinese)), (path.name, english)


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda p: p.parent.parent.name)
def test_no_entry_names_a_sentence_the_checks_no_longer_write(catalogue, tmp_path):
    """Each key, read as a message, is one a check file writes (its paper's suites or the
    check machinery): matched whole by a template taken from the code."""
    # the machinery's catalogue serves every paper: its keys may come from any suite
    sources = (sorted(catalogue.parent.parent.glob("q*_check.py"))
               if catalogue.parent.parent != CHECKS else SUITES)
    written = set().union(*(message_templates(p) for p in
                            [*sources, *sorted(CHECKS.glob("*.py"))]))
    written.add("ok")  # harness.run_check: a passed check with no message of its own
    # the code's templates as a catalogue of their own: a key it translates is written
    code = tmp_path / "code.toml"
    numbered = (re.sub(r"\{v\}", lambda _, n=iter(range(99)): f"{{v{next(n)}}}", t)
                for t in sorted(written) if t)  # each value its own placeholder
    code.write_text("\n".join(f"{json.dumps(t, ensure_ascii=False)} = \"✓\""
                              for t in numbered), encoding="utf-8")
    stale = [english for table in tomllib.loads(catalogue.read_text("utf-8")).values()
             for english in table if translate_from(english, [code]) != "✓"]
    assert not stale, stale


def test_nearly_every_message_template_of_the_suites_has_its_chinese():
    """Of the templates a suite's file holds, those left are its recognised-layout labels
    (``MLP: {act}-MLP …``, ``whole parameters per rank``: shown under "recognised"), short
    labels in code (``H100 PCIe``, ``{what} (lse)``): at least 70% per file, 85% over all."""
    keys = {re.sub(r"\{\w+\}", "{}", k) for path in CATALOGUES
            for table in tomllib.loads(path.read_text("utf-8")).values() for k in table}
    total = have = 0
    for suite in SUITES:
        templates = {re.sub(r"\{\w+\}", "{}", t) for t in message_templates(suite)
                     if " " in t.strip() and len(t) >= 8 and "\n" not in t}
        covered = templates & keys
        assert len(covered) >= 0.7 * len(templates), (suite.name, sorted(templates - keys))
        total, have = total + len(templates), have + len(covered)
    assert have >= 0.85 * total, (have, total)


def test_each_paper_with_suites_has_its_catalogue():
    assert {p.parent for p in SUITES} == {c.parent.parent for c in CATALOGUES[:-1]}
    for suite in SUITES:
        assert messages_path(suite, "zh_CN").is_file()


# --- the results pane of a Chinese UI ------------------------------------------------------
@pytest.mark.gui
def test_a_chinese_ui_shows_the_check_messages_in_chinese(launch, corpus):
    """The results of a real wrong solution (001/29, the 1/d_k scale) fed to the workspace as
    the console reports them: the row and the detail pane read in Chinese, numbers kept."""
    from PySide6.QtCore import QLocale

    from desktop.views.practice import PracticeView

    question = BANK.question("001/29")
    wrong = next(p for p in question.code.wrong if p.name == "q29_wrong_scale_dk.py")
    checks = [result for _, solution, result in corpus if solution == wrong]
    failed = next(c for c in checks if c["name"] == "scale_sqrt_dk" and not c["passed"])
    english = failed["message"]
    chinese = translate_message(english, question.code.check, "zh_CN")
    assert english.startswith("d_k=") and CJK.search(chinese)
    before = QLocale()
    QLocale.setDefault(QLocale("zh_CN"))
    try:
        app = launch()
        app.window.set_console_available(True)
        app.window.resize(1400, 900)
        app.window.open_practice("001")
        view = app.wait_screen(PracticeView)
        view.go_to(next(i for i, q in enumerate(view.questions) if q.id == question.id))
        app.wait_idle()
        answer = view.current_page().answer
        answer.check_button.click()
        app.window.on_check_finished(question.id, {"checks": checks, "error": None})
        app.wait_idle()
        results = answer.results
        row = next(results.table.topLevelItem(i) for i in range(results.table.topLevelItemCount())
                   if results.table.topLevelItem(i).text(1) == "scale_sqrt_dk")
        assert row.text(2) == chinese.splitlines()[0] and row.toolTip(2) == chinese
        results.table.setCurrentItem(row)
        shown = results.detail.text()
        assert "分数乘的是" in shown and english not in shown
        for number in NUMBER.findall(english):
            assert number in shown, (number, shown)
        passed = next(results.table.topLevelItem(i)
                      for i in range(results.table.topLevelItemCount())
                      if results.rows()[i]["passed"])
        assert CJK.search(passed.text(2)), passed.text(2)  # "ok" and the like too
    finally:
        QLocale.setDefault(before)
