"""examdesk benchmarks: every metric next to a baseline measured in the same run.

    python bench/run.py [--quick] [--json FILE] [--only NAME ...]

Ratios against a same-run baseline keep the numbers meaningful on a noisy machine; the
goals come from the issue tracker. Nothing here is asserted by the test suite.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
PY = sys.executable
ENV = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
       "PYTHONPATH": str(REPO)}
# Launches are measured as a learner runs examdesk: with its bytecode cached (pip writes
# .pyc files at install; a checkout writes them on the first, untimed launch). Some
# sandboxes set PYTHONDONTWRITEBYTECODE, which would recompile every module each launch.
ENV.pop("PYTHONDONTWRITEBYTECODE", None)
# The launches must neither read nor change the learner's settings (window geometry, the
# kernel choice): QSettings reads $XDG_CONFIG_HOME on Linux.
ENV["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="examdesk-bench-config-")


@dataclass
class Metric:
    name: str
    value: float
    unit: str
    baseline: float | None
    ratio: float | None
    goal: str
    met: bool | None
    note: str = ""


def metric(name: str, value: float, unit: str, baseline: float | None, goal: str,
           met: bool | None, note: str = "") -> Metric:
    ratio = value / baseline if baseline else None
    return Metric(name, round(value, 4), unit, None if baseline is None else round(baseline, 4),
                  None if ratio is None else round(ratio, 3), goal, met, note)


def median_of(fn: Callable[[], float], repeat: int) -> float:
    return statistics.median(fn() for _ in range(repeat))


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


# --- child processes that print a marker when they reach the measured point ---------------

def time_to_marker(code: list[str], marker: str, timeout: float = 120.0,
                   env: dict | None = None) -> tuple[float, str]:
    """Seconds from spawn to the first stdout line starting with ``marker`` (+ that line)."""
    return time_to_markers(code, [marker], timeout, env)[marker]


BARE_WINDOW = """
import resource, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv)
def done():
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"READY rss_mib={rss:.1f}", flush=True)
class FirstPaint(QObject):  # the same "painted, then one more loop turn" as the app's marker
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, done)
        return False
w = QMainWindow(); w.resize(1200, 800)
watch = FirstPaint(); w.installEventFilter(watch)
w.show()
app.exec()
"""

RAW_KERNEL_TORCH = """
import time, sys
from jupyter_client import KernelManager
km = KernelManager(kernel_name="python3")
km.kernel_cmd = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
km.start_kernel()
kc = km.client(); kc.start_channels(); kc.wait_for_ready(60)
kc.execute_interactive("import torch", timeout=120)
reply = kc.execute_interactive("", user_expressions={"rss": "__import__('resource').getrusage("
                               "__import__('resource').RUSAGE_SELF).ru_maxrss"}, timeout=30)
rss = int(reply["content"]["user_expressions"]["rss"]["data"]["text/plain"]) / 1024
print(f"READY rss_mib={rss:.1f}", flush=True)
kc.stop_channels(); km.shutdown_kernel(now=True)
"""


def _launch_app(data_dir: str, kernel: bool = False) -> tuple[float, str]:
    result = time_to_marker([PY, "-m", "desktop", "--bench-ready", "--data-dir", data_dir]
                            + ([] if kernel else ["--no-kernel"]), "LIBRARY_READY")
    if kernel:  # the killed app's kernel exits by itself (parent poller, ~1 s): let it
        time.sleep(2.5)
    return result


def bench_launch(quick: bool) -> list[Metric]:
    repeat = 3 if quick else 7
    # The everyday launch: a data folder that has a progress file and a current bank cache
    # (written by the first, untimed launch). A first launch on a new folder is reported,
    # and so is the launch with the console (its kernel is spawned at launch). Runs are
    # interleaved with the baseline's, so a machine that speeds up or slows down during
    # the run moves both alike.
    data_dir = tempfile.mkdtemp(prefix="examdesk-bench-")
    _launch_app(data_dir)
    bare, app, first, with_kernel = [], [], [], []
    for _ in range(repeat):
        bare.append(time_to_marker([PY, "-c", BARE_WINDOW], "READY"))
        app.append(_launch_app(data_dir))
        first.append(_launch_app(tempfile.mkdtemp(prefix="examdesk-bench-")))
        with_kernel.append(_launch_app(data_dir, kernel=True))
    t_bare = statistics.median(t for t, _ in bare)
    t_kernel = statistics.median(t for t, _ in with_kernel)
    t_app = statistics.median(t for t, _ in app)
    t_first = statistics.median(t for t, _ in first)
    rss_bare = float(bare[-1][1].split("rss_mib=")[1])
    rss_app = float(app[-1][1].split("rss_mib=")[1])
    return [
        metric("launch_to_library", t_app, "s", t_bare, "ratio ≤ 2.0 vs bare QMainWindow",
               t_app / t_bare <= 2.0, f"median of {repeat}; data folder in use"),
        metric("first_launch_to_library", t_first, "s", t_bare, "report", None,
               "new data folder: creates the progress file, parses the bank"),
        metric("launch_to_library_with_console", t_kernel, "s", t_app, "report", None,
               "baseline: the same launch without the console (--no-kernel)"),
        metric("app_rss_without_kernel", rss_app, "MiB", rss_bare, "≤ 200 MiB",
               rss_app <= 200),
    ]


# jupyter qtconsole, driven in-process: its first prompt, then the prompt after "import torch"
QTCONSOLE = """
import os
from qtconsole.qtconsoleapp import JupyterQtConsoleApp
app = JupyterQtConsoleApp()
app.initialize([])
widget = app.widget
prompts = [0]
original = widget._prompt_started_hook
def hook():
    original()
    prompts[0] += 1
    if prompts[0] == 1:
        print("PROMPT", flush=True)
        widget.execute("import torch")
    elif prompts[0] == 2:
        print("READY", flush=True)
        app.kernel_manager.shutdown_kernel(now=True)
        os._exit(0)
widget._prompt_started_hook = hook
app.start()
"""


def time_to_markers(code: list[str], markers: list[str], timeout: float = 180.0,
                    env: dict | None = None) -> dict[str, tuple[float, str]]:
    """Seconds from spawn to each marker line (in any order), with the line."""
    start = time.perf_counter()
    proc = subprocess.Popen(code, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=env or ENV, cwd=REPO)
    seen: dict[str, tuple[float, str]] = {}
    try:
        for line in proc.stdout:
            for marker in markers:
                if line.startswith(marker) and marker not in seen:
                    seen[marker] = (time.perf_counter() - start, line.strip())
            if len(seen) == len(markers) or time.perf_counter() - start > timeout:
                break
        if len(seen) < len(markers):
            raise RuntimeError(f"{set(markers) - set(seen)} not seen from {' '.join(code[:3])}")
        return seen
    finally:
        proc.kill()
        proc.wait()


def _qtconsole_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("qtconsole.qtconsoleapp") is not None


def bench_console(quick: bool) -> list[Metric]:
    repeat = 2 if quick else 5
    data_dir = tempfile.mkdtemp(prefix="examdesk-bench-")  # in use, as in bench_launch
    _launch_app(data_dir)
    with_qtconsole = _qtconsole_installed()
    raw, app, qtc = [], [], []
    for _ in range(repeat):  # interleaved, as in bench_launch
        raw.append(time_to_marker([PY, "-c", RAW_KERNEL_TORCH], "READY", timeout=180))
        app.append(time_to_markers([PY, "-m", "desktop", "--bench-ready", "--data-dir",
                                    data_dir], ["CONSOLE_PROMPT", "CONSOLE_READY"]))
        if with_qtconsole:
            qtc.append(time_to_markers([PY, "-c", QTCONSOLE], ["PROMPT", "READY"]))
    t_raw = statistics.median(t for t, _ in raw)
    t_app = statistics.median(run["CONSOLE_READY"][0] for run in app)
    t_prompt = statistics.median(run["CONSOLE_PROMPT"][0] for run in app)
    last = app[-1]["CONSOLE_READY"][1]
    kernel_rss = float(last.split("kernel_rss_mib=")[1].split()[0]) if "kernel_rss_mib=" in last \
        else float("nan")
    raw_rss = float(raw[-1][1].split("rss_mib=")[1])
    out = [
        metric("launch_to_console_with_torch", t_app, "s", t_raw,
               "ratio ≤ 1.1 vs raw ipykernel start + import torch", t_app / t_raw <= 1.1,
               "console ready: prompt shown, torch imported, environment probed"),
        metric("kernel_rss_after_torch", kernel_rss, "MiB", raw_rss, "report", None),
    ]
    if with_qtconsole:
        q_prompt = statistics.median(run["PROMPT"][0] for run in qtc)
        q_torch = statistics.median(run["READY"][0] for run in qtc)
        out += [
            metric("launch_to_console_prompt_vs_qtconsole", t_prompt, "s", q_prompt,
                   "ratio ≤ 1.0 vs jupyter qtconsole's first prompt", t_prompt / q_prompt <= 1.0,
                   "both: launch to the first input prompt"),
            metric("launch_to_console_with_torch_vs_qtconsole", t_app, "s", q_torch,
                   "ratio ≤ 1.0 vs jupyter qtconsole + import torch", t_app / q_torch <= 1.0,
                   "qtconsole: first prompt, then `import torch`, to the next prompt"),
        ]
    return out


def _question_switch(*args: str) -> dict:
    code = [PY, "-m", "bench.question_switch", *args]
    out = subprocess.run(code, capture_output=True, text=True, env=ENV, cwd=REPO,
                         timeout=600)
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench_question_switch(quick: bool) -> list[Metric]:
    data = _question_switch(*(["--quick"] if quick else []))
    p95 = data["p95_ms"]
    return [
        metric("question_switch_p50", data["p50_ms"], "ms", data["baseline_p50_ms"],
               "report", None, f"{data['n']} questions"),
        metric("question_switch_p95", p95, "ms", data["baseline_p95_ms"], "p95 ≤ 8 ms",
               p95 <= 8),
        metric("question_switch_p99", data["p99_ms"], "ms", data["baseline_p95_ms"],
               "p99 ≤ 16 ms (a 60 Hz frame)", data["p99_ms"] <= 16),
        metric("question_switch_max", data["max_ms"], "ms", data["baseline_max_ms"], "report",
               None),
    ]


def bench_store(quick: bool) -> list[Metric]:
    from question_db import actions
    from question_db.bank import load_bank
    from question_db.responses import ChoiceResponse, TextResponse
    from question_db.store import ProgressStore

    bank = load_bank()
    # A learner's history: every single-choice question answered again and again (each
    # answer is a review, and the schedule is the replay of the question's reviews).
    singles = [q for q in bank.all_questions() if q.type == "single_choice" and q.scored]
    essay = bank.question("001/31")
    n = 300 if quick else 2000
    with tempfile.TemporaryDirectory() as tmp:
        store = ProgressStore(Path(tmp) / "p.db")
        sessions = {p.id: store.start_session(paper_id=p.id, mode="practice")
                    for p in bank.papers}
        commit, draft = [], []
        for i in range(n):
            q = singles[i % len(singles)]
            # the whole practice answer: graded, stored with its draft and its review
            t = time.perf_counter()
            actions.submit_practice_answer(store, paper=bank.paper(q.paper_id),
                                           session_id=sessions[q.paper_id], question=q,
                                           response=ChoiceResponse((q.answer,)),
                                           seconds=float(i))
            commit.append(time.perf_counter() - t)
            t = time.perf_counter()
            actions.save_draft(store, session_id=sessions["001"], question=essay,
                               response=TextResponse("x" * 200), seconds=float(i))
            draft.append(time.perf_counter() - t)
        store.close()
        # baseline: the physical floor, one bare INSERT + COMMIT in the same journal mode
        conn = sqlite3.connect(Path(tmp) / "raw.db", isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b TEXT, c REAL)")
        raw = []
        for i in range(n):
            t = time.perf_counter()
            conn.execute("BEGIN")
            conn.execute("INSERT INTO t (a, b, c) VALUES (?, ?, ?)", ["001/3", '"B"', i])
            conn.execute("COMMIT")
            raw.append(time.perf_counter() - t)
        conn.close()
    med, med_draft, med_raw = (statistics.median(x) * 1000 for x in (commit, draft, raw))
    return [
        metric("answer_commit_median", med, "ms", med_raw, "median ≤ 1 ms", med <= 1.0,
               f"actions.submit_practice_answer: grade + draft + answer + FSRS review, one "
               f"transaction; {n} answers over {len(singles)} questions"),
        metric("draft_autosave_median", med_draft, "ms", med_raw, "report", None),
    ]


def bench_stats(quick: bool) -> list[Metric]:
    from bench.synthetic import fill_answers
    from question_db import review, stats
    from question_db.bank import load_bank
    from question_db.store import ProgressStore

    bank = load_bank()
    n = 100_000 if quick else 1_000_000
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.db"
        store = ProgressStore(path)
        t = time.perf_counter()
        fill_answers(store, bank, n)
        fill_s = time.perf_counter() - t
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size_mib = path.stat().st_size / 2**20
        baseline = median_of(lambda: _timed(lambda: store.db.execute(
            "SELECT COUNT(*) FROM answers").fetchone()), 5) * 1000
        queries = {
            "accuracy_by_topic": lambda: stats.accuracy_by_topic(store, bank),
            "accuracy_by_type": lambda: stats.accuracy_by_type(store, bank),
            "score_trend": lambda: stats.score_trend(store, "001"),
            "time_per_question": lambda: stats.time_per_question(store),
            "due_forecast_14d": lambda: review.due_forecast(store, days=14),
            "wrong_book": lambda: review.wrong_book(store, bank),
        }
        for name, fn in queries.items():
            ms = median_of(lambda: _timed(fn), 5) * 1000
            out.append(metric(f"stats_{name}", ms, "ms", baseline, "≤ 100 ms", ms <= 100,
                              f"{n:,} answers; baseline = SELECT COUNT(*) over them"))
        store.close()
    out.append(metric("db_size_per_million_answers", size_mib * 1_000_000 / n, "MiB", None,
                      "report", None, f"filled {n:,} answers in {fill_s:.1f} s"))
    return out


def _timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def bench_checks(quick: bool) -> list[Metric]:
    from question_db.bank import load_bank
    from question_db.checks.runner import KernelCheckRunner, shutdown_kernel, start_kernel

    bank = load_bank()
    out = []
    km, kc, log_path = start_kernel()
    try:
        runner = KernelCheckRunner(kc, km.interrupt_kernel)
        t = time.perf_counter()
        env = runner.prepare()  # imports torch: the baseline every check run pays anyway
        baseline = time.perf_counter() - t
        devices = ["cpu"] + (["cuda"] if env.get("cuda") else [])  # CUDA only where present
        drills_cpu: list[float] = []
        for q in [q for q in bank.all_questions() if q.type == "programming"]:
            # Triton kernels take CPU tensors only in Triton's interpreter, which a kernel
            # with CUDA does not choose: there the Triton drills are measured on CUDA only.
            triton = "import triton" in q.code.read("reference")
            for device in devices[1:] if triton and len(devices) > 1 else devices:
                runner.define_solution(q.code.read("reference"))
                report = runner.run_suite(q, q.code.read("reference"), device=device)
                secs = sum(c.get("seconds", 0) for c in report.checks)
                goal = "≤ 10 s on CPU (no compile check)" if device == "cpu" else "report"
                met = (report.seconds <= 10 and report.passed) if device == "cpu" else None
                out.append(metric(f"check_suite_{device}_{q.id.replace('/', '_')}",
                                  report.seconds, "s", baseline, goal, met,
                                  f"{len(report.checks)} checks, {secs:.2f} s inside checks, "
                                  f"passed={report.passed}" +
                                  (", Triton interpreted" if triton and device == "cpu" else "")
                                  + "; baseline = harness install + import torch"))
                if q.paper_id == "drills" and device == "cpu":
                    drills_cpu.append(report.seconds)
        if drills_cpu:
            out.append(metric("check_suites_cpu_drills_total", sum(drills_cpu), "s", baseline,
                              "report", None, f"{len(drills_cpu)} drill suites, one kernel"))
    finally:
        shutdown_kernel(km, kc, log_path)
    return out


def bench_kernel_stall(quick: bool) -> list[Metric]:
    """The longest UI-thread stall around the kernel (bench/kernel_stall.py)."""
    proc = subprocess.run([PY, str(REPO / "bench" / "kernel_stall.py"), "--json"], env=ENV,
                          capture_output=True, text=True, timeout=600)
    line = next((x for x in proc.stdout.splitlines() if x.startswith("STALLS ")), None)
    if line is None:
        raise RuntimeError(f"kernel_stall.py printed no result: {proc.stderr[-500:]}")
    stalls = json.loads(line[len("STALLS "):])
    idle = stalls["idle"]
    out = []
    for name, note in (("restart", "restart an idle kernel (torch imported) until ready"),
                       ("switch_idle", "switch kernels, the old one idle, until ready"),
                       ("switch_busy", "switch away from a kernel running `while True`"),
                       ("quit_idle", "ConsoleDock.shutdown() at quit, idle kernel"),
                       ("quit_busy", "ConsoleDock.shutdown() at quit, busy kernel")):
        bounded = name.startswith("quit")
        goal = "≤ 3.5 s (bounded join)" if bounded else "≤ 0.2 s"
        met = stalls[name] <= (3.5 if bounded else 0.2)
        out.append(metric(f"ui_stall_{name}", stalls[name], "s", idle, goal, met,
                          note + "; baseline: the same 5 ms heartbeat over an idle second"))
    return out


IMPORT_CHILD = """
import sys, time, json
t0 = time.perf_counter()
from question_db.interchange.text_import import read_text_paper
t1 = time.perf_counter()
path = sys.argv[1]
t2 = time.perf_counter(); read_text_paper(path); t3 = time.perf_counter()
print(json.dumps({"imports": t1 - t0, "first": t3 - t2}))
"""


def bench_import(quick: bool) -> list[Metric]:
    """Damaged seed -> draft: the whole import, against reading the same file and running
    the mechanical t2s + gloss removal over it (what the old tools/clean_seed.py did)."""
    from question_db.interchange.encoding import read_text_file
    from question_db.interchange.text_import import read_text_paper
    from question_db.interchange.text_import.prose import to_simplified

    repeat = 5 if quick else 20
    out = []
    seeds = sorted((REPO / "tests" / "data" / "seeds").glob("*.txt"))
    for seed in seeds:
        read_text_paper(seed)  # warm: regexes compiled, OpenCC's dictionary loaded
        full, base = [], []
        for _ in range(repeat):  # interleaved with the baseline
            full.append(_timed(lambda: read_text_paper(seed)))
            base.append(_timed(lambda: to_simplified(read_text_file(seed).text)))
        t_full, t_base = statistics.median(full), statistics.median(base)
        cold = json.loads(subprocess.run([PY, "-c", IMPORT_CHILD, str(seed)], capture_output=True,
                                         text=True, env=ENV, cwd=REPO, check=True
                                         ).stdout.strip().splitlines()[-1])
        name = seed.name.split("_")[0]
        out += [
            metric(f"import_seed_{name}", t_full, "s", t_base, "≤ 1 s per seed", t_full <= 1.0,
                   f"median of {repeat}; baseline = read + t2s/gloss removal of the same file"),
            metric(f"import_seed_{name}_first_in_process", cold["first"], "s", None,
                   "≤ 1 s per seed", cold["first"] <= 1.0,
                   f"first import in a fresh process (after {cold['imports']:.2f} s of "
                   f"module imports; no formatter is used)"),
        ]
    return out


def bench_import_generalise(quick: bool) -> list[Metric]:
    """The verified bank printed in many layouts and formats (bench/paper_render.py),
    imported back and scored per file (bench/import_score.py): per layout, the share of
    its files meeting every goal of issue 26 (found all, types/options/keys >= 95 %, stems
    >= 0.97, code compiles or flagged, truncation exact); per format, seconds per paper.
    The per-file table goes to stderr."""
    from bench import import_score as sc
    from bench import paper_render as pr
    from question_db.interchange.encoding import read_text_file
    from question_db.interchange.text_import.prose import to_simplified

    repeat = 1 if quick else 3
    out: list[Metric] = []
    with tempfile.TemporaryDirectory(prefix="examdesk-generalise-") as tmp:
        sc.run_case("000", "cn_inline", "txt", tmp)  # warm: regexes, OpenCC, python-docx
        rows = [sc.run_case(*case, tmp) for case in pr.cases()]
        for row in rows:  # more timed imports (the first is in the row)
            times = [row["seconds"]]
            for _ in range(repeat - 1):
                times.append(_timed(lambda: _import_quietly(sc, Path(row["path"]))))
            row["seconds"] = statistics.median(times)
        floor = {}
        for pid in pr.PIDS:  # baseline: read + t2s of the same paper as cn_inline .txt
            path = pr.render(pid, "cn_inline", "txt", tmp)
            floor[pid] = statistics.median(_timed(lambda: to_simplified(
                read_text_file(path).text)) for _ in range(max(3, repeat)))
        home = {r["pid"]: r["seconds"] for r in rows
                if r["layout"] == "cn_inline" and r["fmt"] == "txt"}
    print(sc.table(rows), file=sys.stderr)
    by_layout: dict[str, list[dict]] = {}
    for row in rows:
        by_layout.setdefault(row["layout"], []).append(row)
    for layout, group in by_layout.items():
        met = [sc.goals_met(r) for r in group]
        ok = sum(all(m.values()) for m in met)
        missed = sorted({name for m in met for name, good in m.items() if not good})
        files = ", ".join(f"{r['pid']}.{r['fmt']}" for r in group)
        out.append(metric(f"generalise_{layout}", ok / len(group), "files", None,
                          "every file meets every goal", ok == len(group),
                          f"{ok}/{len(group)} files ({files}) meet all goals"
                          + (f"; missed: {', '.join(missed)}" if missed else "")))
    for fmt in pr.FORMATS:
        group = [r for r in rows if r["fmt"] == fmt]
        if not group:
            continue
        seconds = statistics.median(r["seconds"] for r in group)
        if fmt == "txt":
            base = statistics.median(floor[r["pid"]] for r in group)
            why = "read + t2s of the same papers"
        else:
            base = statistics.median(home[r["pid"]] for r in group)
            why = "the same papers' cn_inline .txt import"
        failed = sum(1 for r in group if r["error"])
        out.append(metric(f"generalise_seconds_per_paper_{fmt}", seconds, "s", base,
                          "report", None, f"median of {len(group)} files × {repeat}; "
                          f"{failed} not read; baseline: {why}"))
    return out


def _import_quietly(sc, path: Path) -> None:
    try:
        sc.import_path(path)
    except Exception:  # noqa: BLE001 - a file the importer refuses is timed too
        pass


# Realistic searches on the synthetic bank: Chinese terms of 3+ characters (the trigram
# index), code identifiers, two-character Chinese terms (the substring scan), mixed queries,
# and filtered ones.
SEARCHES = ("梯度检查点", "混合精度训练", "显存占用", "注意力机制", "流水线并行", "投机解码",
            "flash_attn_func", "register_buffer", "scaled_dot_product_attention",
            "torch.compile", "GradScaler", "KV Cache", "显存", "梯度", "量化", "并行",
            "LoRA 微调", "ZeRO 优化器 显存", "旋转位置编码 dtype", "分组查询注意力")
FILTERED = (("显存占用", {"types": ["short_answer"]}), ("梯度", {"statuses": ["draft"]}),
            ("flash_attn_func", {"paper_ids": ["syn003", "syn042"]}),
            ("注意力机制", {"topics": ["推理优化"]}))


def bench_scale(quick: bool) -> list[Metric]:
    """The study modes on a 100-paper / 5,000-question synthetic bank (bench/synthetic_bank):
    loading it, the search index, search latency, building a random practice set."""
    import random

    from bench.synthetic_bank import questions_per_paper, write_bank
    from question_db import actions, study
    from question_db import search as search_mod
    from question_db.bank import load_bank
    from question_db.bank_cache import cached_bank, load_and_cache_bank
    from question_db.practice_sets import PracticeSetSpec
    from question_db.store import ProgressStore
    from question_db.store_search import SearchIndex

    n_papers = 100
    n = n_papers * questions_per_paper()
    out: list[Metric] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "papers"
        write_bank(root, papers=n_papers)
        t = time.perf_counter()
        bank = load_bank([root], include_bundled=False)
        load_s = time.perf_counter() - t
        assert len(bank.all_questions()) == n and not bank.problems, bank.problems[:3]
        cache = Path(tmp) / "cache"
        load_and_cache_bank([root], cache)
        hit_s = median_of(lambda: _timed(lambda: cached_bank([root], cache)), 5)
        out.append(metric("bank_load_5000", load_s, "s", hit_s, "report", None,
                          f"{n:,} questions parsed and validated; baseline: the bank-cache "
                          "hit a launch with unchanged packs pays"))

        path = Path(tmp) / "search.sqlite3"
        index = SearchIndex(path)
        index.count()  # open the file (and import sqlite-utils) outside the timing
        t = time.perf_counter()
        built = search_mod.refresh_index(index, bank)
        build_s = time.perf_counter() - t
        index.close()
        index = SearchIndex(path)  # the next launch: a new bank object, unchanged packs
        index.count()
        t = time.perf_counter()
        checked = search_mod.refresh_index(index, bank)
        check_s = time.perf_counter() - t
        assert checked.papers_written == ()
        edited = _edited_bank(bank)
        t = time.perf_counter()
        one = search_mod.refresh_index(index, edited)
        one_s = time.perf_counter() - t
        assert one.papers_written == (bank.papers[0].id,)
        out += [
            metric("search_index_build", build_s, "s", load_s, "report", None,
                   f"{built.questions:,} questions, FTS5 trigram, from empty; baseline: "
                   "parsing the bank"),
            metric("search_index_check_unchanged", check_s * 1000, "ms", hit_s * 1000,
                   "report", None, "digest of every paper compared, nothing written; "
                   "baseline: the bank-cache hit"),
            metric("search_index_one_paper_changed", one_s * 1000, "ms", check_s * 1000,
                   "report", None, "one edited paper rewritten; baseline: the check alone"),
        ]

        store = ProgressStore(Path(tmp) / "progress.sqlite3")
        rng = random.Random(1)
        questions = bank.all_questions()
        with store.write():  # a learner with 500 notes
            for q in rng.sample(questions, 500):
                study.save_note(store, question_id=q.id, text="笔记：" + q.stem[:rng.randint(
                    40, 400)] + " 记住 GradScaler 和显存")
        edited_bank = edited  # the index holds this one now
        reps = 3 if quick else 10
        lat: dict[str, list[float]] = {}
        for _ in range(reps):
            for query in SEARCHES:
                lat.setdefault(query, []).append(_timed(lambda: study.search(
                    store, index=index, bank=edited_bank, query=query)))
            for query, filters in FILTERED:
                lat.setdefault(f"{query} {filters}", []).append(_timed(lambda: study.search(
                    store, index=index, bank=edited_bank, query=query, **filters)))
        every = [v * 1000 for vs in lat.values() for v in vs]
        short = [v * 1000 for q, vs in lat.items() for v in vs
                 if all(len(t) < 3 for t in search_mod.parse_query(q.split(" {")[0]))]
        # baseline: no index, Python's substring test over every question's text
        texts = [h for _, h in index.iter_haystacks()]
        naive = []
        for _ in range(reps):
            for query in SEARCHES:
                terms = [t.lower() for t in search_mod.parse_query(query)]
                naive.append(_timed(lambda: [i for i, h in enumerate(texts)
                                             if all(t in h for t in terms)]) * 1000)
        p95, naive_p95 = pct(every, 0.95), pct(naive, 0.95)
        out += [
            metric("search_p95", p95, "ms", naive_p95, "p95 ≤ 30 ms", p95 <= 30,
                   f"{len(lat)} queries × {reps} (Chinese, identifiers, 2-character, "
                   f"filtered), 50 hits with snippets, 500 notes searched too; baseline: "
                   "Python substring scan of every question, no snippets"),
            metric("search_short_terms_p95", pct(short, 0.95), "ms", naive_p95, "report",
                   None, "queries whose terms are all under 3 characters: the substring "
                   "scan (instr) instead of the index"),
        ]
        # sqlite-utils' own search() on the same FTS5 table, for comparison (no snippets,
        # no short-term fallback, no filters)
        import sqlite_utils

        conn = sqlite3.connect(path)
        table = sqlite_utils.Database(conn)["questions"]
        su = []
        for _ in range(reps):
            for query in SEARCHES:
                if all(len(t) >= 3 for t in search_mod.parse_query(query)):
                    su.append(_timed(lambda: list(table.search(query, limit=50, quote=True,
                                                               columns=["question_id"]))))
        conn.close()
        fts_only = [v * 1000 for q, vs in lat.items() for v in vs
                    if "{" not in q and all(len(t) >= 3 for t in search_mod.parse_query(q))]
        out.append(metric("search_fts_p95_vs_sqlite_utils", pct(fts_only, 0.95), "ms",
                          pct([v * 1000 for v in su], 0.95), "report", None,
                          "our FTS queries (ids + snippets + notes) vs sqlite-utils "
                          "table.search(quote=True, limit=50) returning ids only"))

        ids = [q.id for q in questions]
        set_ms = [_timed(lambda: study.build_practice_set(store, bank=edited_bank, spec=
                         PracticeSetSpec(order="random", count=50, seed=seed))) * 1000
                  for seed in range(20 if quick else 100)]
        floor = [_timed(lambda: random.Random(seed).sample(ids, 50)) * 1000
                 for seed in range(20 if quick else 100)]
        worst = pct(set_ms, 0.95)
        out.append(metric("practice_set_random_50_p95", worst, "ms", pct(floor, 0.95),
                          "≤ 50 ms", worst <= 50, f"seeded random 50 of {n:,}; baseline: "
                          "random.sample of 50 ids"))
        wrong_set = median_of(lambda: _timed(lambda: study.build_practice_set(
            store, bank=edited_bank, spec=PracticeSetSpec(unanswered_only=True,
                                                          favourites_only=True))), 5) * 1000
        out.append(metric("practice_set_filtered", wrong_set, "ms", pct(floor, 0.95),
                          "report", None, "unanswered ∩ favourites over the whole bank"))

        paper = edited_bank.papers[0]
        sid = actions.open_practice(store, paper=paper).session.id
        note_ms, raw_ms = [], []
        q = paper.questions[0]
        for i in range(50 if quick else 300):
            note_ms.append(_timed(lambda: study.save_note(
                store, question_id=q.id, text="打字中 " * (i % 40 + 1))) * 1000)
        conn = sqlite3.connect(Path(tmp) / "raw.db", isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)")
        for i in range(50 if quick else 300):
            t = time.perf_counter()
            conn.execute("BEGIN")
            conn.execute("INSERT OR REPLACE INTO t VALUES ('a', ?)", ["x" * i])
            conn.execute("COMMIT")
            raw_ms.append((time.perf_counter() - t) * 1000)
        conn.close()
        note = statistics.median(note_ms)
        out.append(metric("note_autosave_median", note, "ms", statistics.median(raw_ms),
                          "≤ 5 ms (autosave every ~500 ms)", note <= 5,
                          "study.save_note: one upsert in one transaction"))
        marks = median_of(lambda: _timed(lambda: study.session_marks(
            store, paper=paper, session_id=sid)), 5) * 1000
        out.append(metric("navigator_marks_50", marks, "ms", None, "report", None,
                          "study.session_marks of a 50-question paper"))
        card = median_of(lambda: _timed(lambda: study.next_review_card(
            store, bank=edited_bank)), 5) * 1000
        out.append(metric("review_next_card_5000", card, "ms", None, "report", None,
                          "the review queue over 5,000 questions, 500 of them new"))
        store.close()
        index.close()
    return out


def _edited_bank(bank):  # noqa: N802 - reads as what it returns
    """``bank`` with the first stem of its first paper edited (a changed pack)."""
    from dataclasses import replace

    from question_db.model import Bank

    first = bank.papers[0]
    q = first.questions[0]
    changed = replace(first, questions=(replace(q, stem=q.stem + "（已修改）"),
                                        *first.questions[1:]))
    return Bank(papers=[changed, *bank.papers[1:]], problems=list(bank.problems))


def bench_scale_launch(quick: bool) -> list[Metric]:
    """The library launch with 5,000 questions installed (their bank cache current)."""
    from bench.synthetic_bank import write_bank

    repeat = 3 if quick else 7
    data_dir = tempfile.mkdtemp(prefix="examdesk-bench-big-")
    write_bank(Path(data_dir) / "papers", papers=100)
    _launch_app(data_dir)  # untimed: parses the bank and writes its cache
    bare, app = [], []
    for _ in range(repeat):
        bare.append(time_to_marker([PY, "-c", BARE_WINDOW], "READY"))
        app.append(_launch_app(data_dir))
    t_bare = statistics.median(t for t, _ in bare)
    t_app = statistics.median(t for t, _ in app)
    switch = _question_switch("--big")
    p95 = switch["p95_ms"]
    return [metric("launch_to_library_5000", t_app, "s", t_bare,
                   "ratio ≤ 2.0 vs bare QMainWindow", t_app / t_bare <= 2.0,
                   f"median of {repeat}; 100 extra papers, bank cache current"),
            metric("question_switch_p95_5000", p95, "ms", switch["baseline_p95_ms"],
                   "p95 ≤ 8 ms", p95 <= 8,
                   f"{switch['n']} switches with 5,000 questions installed: 3 papers' "
                   "practice and a random set of 200 (navigator, star, note panel); "
                   "baseline: QLabel.setText of the stems; go_to + a repaint of the whole "
                   f"screen (UI-thread CPU p95 {switch['cpu_p95_ms']:.1f} ms)"),
            metric("question_switch_p99_5000", switch["p99_ms"], "ms",
                   switch["baseline_p95_ms"], "p99 ≤ 16 ms (a 60 Hz frame)",
                   switch["p99_ms"] <= 16),
            metric("question_switch_frame_p95_5000", switch["frame_p95_ms"], "ms",
                   switch["baseline_p95_ms"], "report", None,
                   "go_to + Qt's own layout and paint of what it made dirty (what reaches "
                   "the screen), 3 papers and the set")]


GROUPS: dict[str, Callable[[bool], list[Metric]]] = {
    "launch": bench_launch,
    "console": bench_console,
    "question_switch": bench_question_switch,
    "store": bench_store,
    "stats": bench_stats,
    "checks": bench_checks,
    "import": bench_import,
    "import_generalise": bench_import_generalise,
    "kernel_stall": bench_kernel_stall,
    "scale": bench_scale,
    "scale_launch": bench_scale_launch,
}


def print_table(metrics: list[Metric]) -> None:
    print(f"{'metric':<34} {'value':>10} {'unit':<4} {'baseline':>9} {'ratio':>7}  "
          f"{'goal':<44} met")
    for m in metrics:
        met = {True: "yes", False: "NO", None: "-"}[m.met]
        base = "-" if m.baseline is None else f"{m.baseline:g}"
        ratio = "-" if m.ratio is None else f"{m.ratio:g}"
        print(f"{m.name:<34} {m.value:>10g} {m.unit:<4} {base:>9} {ratio:>7}  {m.goal:<44} "
              f"{met}")


def markdown_table(metrics: list[Metric]) -> str:
    """The table as the README shows it."""
    def fmt(value: float | None, unit: str = "") -> str:
        return "–" if value is None else f"{value:g}{(' ' + unit) if unit else ''}"

    rows = ["| metric | value | baseline | ratio | goal | met |", "|---|---|---|---|---|---|"]
    for m in metrics:
        met = {True: "yes", False: "**no**", None: "–"}[m.met]
        rows.append(f"| {m.name} | {fmt(m.value, m.unit)} | {fmt(m.baseline, m.unit)} | "
                    f"{fmt(m.ratio)} | {m.goal} | {met} |")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, 100k answers")
    parser.add_argument("--json", metavar="FILE", help="write the metrics as JSON")
    parser.add_argument("--only", nargs="*", choices=sorted(GROUPS), help="run these groups")
    parser.add_argument("--markdown", metavar="FILE", help="write the table as Markdown")
    args = parser.parse_args(argv)
    metrics: list[Metric] = []
    for name in args.only or GROUPS:
        gc.collect()
        try:
            metrics += GROUPS[name](args.quick)
        except Exception as exc:  # one broken group must not hide the others' numbers
            metrics.append(Metric(name, float("nan"), "", None, None, "ran", False,
                                  f"{type(exc).__name__}: {exc}"))
        print(f"[{name} done]", file=sys.stderr, flush=True)
    print_table(metrics)
    if args.json:
        Path(args.json).write_text(json.dumps({"metrics": [asdict(m) for m in metrics]},
                                              indent=1, ensure_ascii=False))
    if args.markdown:
        Path(args.markdown).write_text(markdown_table(metrics), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
