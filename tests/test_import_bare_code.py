"""Bare code in plain-text papers is found and fenced, prose never (issue 26, item 4).

Real inputs only: the verified bank's Python files printed bare between prose, the bank's
own prose (stems, options, explanations, errata), and English sentences that look like
code. Run alone: ``pytest tests/test_import_bare_code.py -s`` prints the measured counts.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from bench.bare_code_speed import sample_text
from question_db.bank import load_paper
from question_db.interchange.text_import.bare_code import code_spans, fence_bare_code

PAPERS = Path(__file__).resolve().parents[1] / "question_db" / "papers"
BANK_FILES = sorted(PAPERS.rglob("*.py"))
STEM_ZH = "下面这段代码实现了题目要求的功能，请阅读后回答问题。"
EXPLANATION_EN = ("This solution keeps the shapes of the inputs and returns the result on the "
                  "same device.")
EXPLANATION_ZH = "解析：该实现保持输入的形状，并在同一设备上返回结果。"
FENCE = re.compile(r"^(```|~~~)", re.M)

# English prose that starts like code or is full of code words: never fenced
TRAPS = [
    "Which import is correct for loading a checkpoint?",
    "Return the sum of the two tensors.",
    "For each token, the model computes a score.",
    "If x is None: the function returns early.",
    "class imbalance is a common problem in fraud detection.",
    "import torch before you call any CUDA function.",
    "from the import statement alone we cannot tell the version.",
    "def is the keyword that starts a function definition.",
    "return values are cached after the first call.",
    "for example, x = 3 and y = 4 give 7.",
    "with torch.no_grad() the memory use drops sharply.",
    "try: it is cheaper than you think.",
    "Note: x is None when the cache is empty.",
    "Time: O(n log n) for the sort.",
    "print the result and compare it with the reference.",
    "while training, the learning rate decays.",
    "if the batch is empty, skip it.",
    "self.weight is initialised from a normal distribution.",
    "Use model.eval() before inference.",
    "lambda is the weight of the regulariser.",
    "pip install is not needed for this question.",
    "python is slower than C for tight loops.",
    "Adam (2014) adapts the step size per parameter.",
    "Hello, world",
    "e.g. torch.compile(model) or torch.jit.script(model).",
    "x = 3 is a valid assignment.",
    "f(x) = x² + 1 is convex.",
    "The call foo(bar) raises TypeError.",
    "See Section 3.2 (Equation 4).",
    "raise the learning rate if the loss plateaus.",
    "assert that the shapes match before the matmul.",
    "else the program falls back to the CPU.",
    "Yes, or no",
    "@decorators wrap functions.",
    "global batch size = 1024 across 8 GPUs.",
    "del is rarely needed in Python.",
    "yield is what turns a function into a generator.",
    "continue training from the last checkpoint.",
    "break the problem into smaller pieces;",
    "return x if x > 0 else 0 is the ReLU.",
    "for i in range(10): is how a loop starts.",
    "model.train() switches dropout on.",
    "torch.cuda.synchronize() waits for the GPU to finish.",
    "make sure the GPU is idle.",
    "git is used for version control.",
    "cd into the project folder and run it.",
    "lr = 3e-4 works well for AdamW.",
    "(see the figure below)",
    "Input: a list of integers; Output: their sum.",
    "Accuracy: 0.95",
    "In summary, x.shape == (B, T, C).",
    "Precision = TP / (TP + FP), recall = TP / (TP + FN).",
    "Step 1: load the data; step 2: train.",
    "int main is the entry point of a C program;",
    "The kernel uses __syncthreads() to wait for all threads.",
    "export the model to ONNX before deployment.",
    "threadIdx.x is the index of the thread within its block.",
]


def _lines(text: str) -> list[str]:
    """Lines without trailing whitespace, outer blank lines dropped."""
    lines = [x.rstrip() for x in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def _fenced_blocks(text: str) -> list[tuple[str, str]]:
    return re.findall(r"^```(\w*)\n(.*?)\n```$", text, re.M | re.S)


def _layouts(code: str) -> list[tuple[str, int]]:
    """The code between prose: (text, index of the code's first line)."""
    return [
        (f"{STEM_ZH}\n\nAnswer:\n{code}\n\n{EXPLANATION_EN}\n", 3),
        (f"{STEM_ZH}\nAnswer:\n{code}\n{EXPLANATION_EN}\n", 2),
        (f"1. {STEM_ZH}\n\nAnswer:\n\n{code}\n\n\n{EXPLANATION_ZH}\n", 4),
    ]


def _bank_texts() -> list[tuple[str, str]]:
    out = []
    for pid in ("000", "001", "drills"):
        for q in load_paper(PAPERS / pid, []).questions:
            for field in ("stem", "explanation", "errata"):
                if getattr(q, field):
                    out.append((f"{q.id} {field}", getattr(q, field)))
            for letter, option in (q.options or {}).items():
                out.append((f"{q.id} options.{letter}", option))
    return out


def _exact(code: str) -> list[str]:
    """The layouts in which ``code`` is not fenced as exactly one run of exactly itself."""
    code = code.rstrip("\n")
    want = _lines(code)
    bad = []
    for n, (text, first) in enumerate(_layouts(code)):
        spans = code_spans(text)
        blocks = _fenced_blocks(fence_bare_code(text))
        if spans != [(first, first + len(want))] or len(blocks) != 1 or \
                blocks[0][0] != "python" or _lines(blocks[0][1]) != want:
            bad.append(f"layout {n}: spans {spans}, want {(first, first + len(want))}")
    return bad


def test_bank_files_are_fenced_exactly():
    assert len(BANK_FILES) > 150
    failures = {}
    for path in BANK_FILES:
        bad = _exact(path.read_text(encoding="utf-8"))
        if bad:
            failures[str(path.relative_to(PAPERS))] = bad
    exact = len(BANK_FILES) - len(failures)
    print(f"\nbank files fenced exactly (3 layouts each): {exact}/{len(BANK_FILES)}")
    assert not failures, failures


def test_damaged_indentation_is_still_one_run():
    failures = {}
    for path in BANK_FILES:
        code = "\n".join(x.lstrip() for x in path.read_text(encoding="utf-8").split("\n"))
        bad = _exact(code)
        if bad:
            failures[str(path.relative_to(PAPERS))] = bad
    print(f"\nbank files without indentation fenced exactly: "
          f"{len(BANK_FILES) - len(failures)}/{len(BANK_FILES)}")
    assert not failures, failures


def test_bank_prose_gets_no_fence():
    texts = _bank_texts()
    assert len(texts) > 300
    false_positives = [name for name, text in texts if fence_bare_code(text) != text]
    print(f"\nbank texts: {len(texts)}, false positives: {len(false_positives)}")
    assert false_positives == []


def test_bank_code_with_its_fences_removed_is_fenced_again_and_nothing_else():
    found = 0
    for name, text in _bank_texts():
        lines = text.split("\n")
        if not any(FENCE.match(x) for x in lines):
            continue
        bare, code_at, inside = [], [], False
        for line in lines:
            if FENCE.match(line):
                inside = not inside
                continue
            if inside:
                code_at.append(len(bare))
            bare.append(line)
        spans = code_spans("\n".join(bare))
        assert [i for a, b in spans for i in range(a, b)] == code_at, name
        found += 1
    assert found >= 1


def test_bank_as_one_printed_paper_gets_no_new_fence():
    parts = []
    for pid in ("000", "001", "drills"):
        for q in load_paper(PAPERS / pid, []).questions:
            parts.append(f"{q.number}. {q.stem}")
            parts += [f"{letter}. {option}" for letter, option in (q.options or {}).items()]
            key = q.answer if q.options else None  # a programming key is code: left out
            parts.append(f"答案：{''.join(key) if key else '见解析'}")
            parts.append(f"解析：{q.explanation}")
    paper = "\n".join(parts)
    assert fence_bare_code(paper) == paper


def test_code_like_english_sentences_are_prose():
    assert len(TRAPS) >= 40
    false_positives = [t for t in TRAPS if code_spans(t)]
    block = "\n".join(TRAPS)
    paragraphs = "\n\n".join(TRAPS)
    print(f"\ntrap sentences: {len(TRAPS)}, fenced: {len(false_positives)}")
    assert false_positives == []
    assert code_spans(block) == [] and code_spans(paragraphs) == []
    assert code_spans(f"{STEM_ZH}\n{block}\n{EXPLANATION_ZH}") == []


@pytest.mark.parametrize("trap", TRAPS)
def test_a_trap_next_to_code_stays_out_of_the_fence(trap):
    code = "def area(r):\n    return 3.14159 * r * r"
    assert code_spans(f"{trap}\n{code}\n{EXPLANATION_ZH}") == [(1, 3)]
    assert code_spans(f"{code}\n{trap}\n\n{EXPLANATION_EN}") == [(0, 2)]


def test_stem_snippet_and_answer_function_are_two_runs():
    text = (
        "3. 阅读下面的代码片段，回答输出的形状。\n"
        "x = torch.randn(2, 3, 4)\n"
        "y = x.transpose(0, 1)\n"
        "print(y.shape)\n"
        "A. (2, 3, 4)\n"
        "B. (3, 2, 4)\n"
        "答案：B\n"
        "4. 实现一个函数，返回张量每行的最大值。\n"
        "Answer:\n"
        "def row_max(x):\n"
        "    # 每行取最大值\n"
        "    values, _ = x.max(dim=1)\n"
        "\n"
        "    return values\n"
        "\n"
        "The function reduces over dim 1 and drops the indices.\n")
    assert code_spans(text) == [(1, 4), (9, 14)]
    blocks = _fenced_blocks(fence_bare_code(text))
    assert [lang for lang, _ in blocks] == ["python", "python"]
    assert blocks[1][1] == ("def row_max(x):\n    # 每行取最大值\n    values, _ = "
                            "x.max(dim=1)\n\n    return values")


def test_answer_marker_on_the_code_line_is_split():
    text = "Answer: def f(x):\n    return x + 1\nThe function adds one.\n"
    assert fence_bare_code(text) == ("Answer:\n```python\ndef f(x):\n    return x + 1\n"
                                     "```\nThe function adds one.\n")
    assert code_spans(text) == [(0, 2)]
    zh = "答案：import torch\n解析：先导入 torch。"
    assert fence_bare_code(zh) == "答案：\n```python\nimport torch\n```\n解析：先导入 torch。"
    # a one-line answer that is no run: the line is given back unchanged
    for kept in ("Answer: x = 3", "Answer:  C", "答案：B", "Answer: model.eval()"):
        assert fence_bare_code(kept + "\nDone.") == kept + "\nDone."


def test_existing_fences_are_left_alone():
    text = ("题目如下：\n```python\nimport torch\nx = 1\n```\n解释。\n~~~\n"
            "for i in range(3):\n    print(i)\n~~~\n说明。\n"
            "```\nimport os\nos.getcwd()\n")  # the last fence is never closed
    assert fence_bare_code(text) == text
    assert code_spans(text) == []
    after = "```text\nnot python\n```\nimport os\nprint(os.sep)\n"
    assert fence_bare_code(after) == ("```text\nnot python\n```\n```python\nimport os\n"
                                      "print(os.sep)\n```\n")


def test_blank_lines_inside_are_kept_and_trailing_ones_left_out():
    text = "代码：\nimport math\n\n\ndef f(x):\n\n    return math.sqrt(x)\n\n\n\n结束。"
    out = fence_bare_code(text)
    assert out == ("代码：\n```python\nimport math\n\n\ndef f(x):\n\n    return math.sqrt(x)\n"
                   "```\n\n\n\n结束。")


def test_other_languages_get_their_info_string():
    shell = ("Install and launch:\npip install -r requirements.txt\n"
             "torchrun --nproc_per_node=8 train.py --config configs/base.yaml\nThen wait.")
    assert [lang for lang, _ in _fenced_blocks(fence_bare_code(shell))] == ["bash"]
    cuda = ("What is wrong with this kernel?\n"
            "__global__ void scale(float* x, float a, int n) {\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    x[i] *= a;\n"
            "}\n"
            "答案：缺少边界检查。")
    assert code_spans(cuda) == [(1, 5)]
    assert [lang for lang, _ in _fenced_blocks(fence_bare_code(cuda))] == ["cuda"]
    c = "int add(int a, int b) {\n    return a + b;\n}\n"
    assert [lang for lang, _ in _fenced_blocks(fence_bare_code(c))] == ["cpp"]


def test_strings_and_comments_may_hold_chinese_and_prose():
    text = ('题目：\nLABELS = {\n    "正样本": 1,\n    "负样本": 0,\n}\n'
            'def describe(x):\n    """Return a description.\n\n    1. The first step.\n'
            '    答案：不是标记，是字符串里的文字。\n    """\n'
            '    return "这是中文"  # 中文注释\n以上代码返回中文。')
    assert code_spans(text) == [(1, 12)]


def test_crlf_line_ends_are_kept():
    text = "说明：\r\nimport os\r\nprint(os.sep)\r\n结束。\r\n"
    assert fence_bare_code(text) == ("说明：\r\n```python\r\nimport os\r\nprint(os.sep)\r\n"
                                     "```\r\n结束。\r\n")


def _seconds(text: str) -> float:
    t0 = time.perf_counter()
    fence_bare_code(text)
    return time.perf_counter() - t0


@pytest.mark.slow
def test_time_grows_linearly():
    """1 MB vs 4 MB of the bank printed bare (mostly code, the worst case), each the best
    of two runs, interleaved so that a busy machine slows both: no timing is asserted,
    only the ratio. ``bench/bare_code_speed.py`` prints the times (8 MB included)."""
    small, large = sample_text(1_000_000), sample_text(4_000_000)
    t_small, t_large = [], []
    for _ in range(2):
        t_small.append(_seconds(small))
        t_large.append(_seconds(large))
    ratio = min(t_large) / min(t_small)
    print(f"\n1 MB {min(t_small):.2f} s, 4 MB {min(t_large):.2f} s, ratio {ratio:.2f}")
    assert ratio < 6


@pytest.mark.parametrize("name, unit", [
    ("long comment blocks", "x = 1\n" + "# a comment line\n" * 200 + "Prose after.\n"),
    ("unclosed brackets", "x = foo(\n" + "    a,\n" * 200 + "Prose after.\n"),
    ("unclosed docstrings", 'def f():\n    """never closed\n' + "text\n" * 50),
    ("unknown lines", "x = 1\n" + "x or y\n" * 3 + "y = 2\n"),
    ("blank lines", "x = 1\n" + "\n" * 3 + "y = 2\n" + "\n" * 5),
])
def test_pathological_inputs_stay_linear(name, unit):
    small = unit * (100_000 // len(unit) + 1)
    large = small * 4
    # 4x the input: ~4x the time if linear, ~16x if quadratic. The best of 3 runs and a
    # bound of 8 keep a busy 2-core box (6.2 seen under load) from failing linear code.
    ratio = min(_seconds(large) for _ in range(3)) / min(_seconds(small) for _ in range(3))
    assert ratio < 8, (name, ratio)
