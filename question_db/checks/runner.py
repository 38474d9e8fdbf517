"""Run a question's check suite inside a Jupyter kernel (jupyter_client, no Qt).

The harness, the flash_attn stand-in and the suite travel as source text, so the
kernel's environment needs torch but not examdesk. Each check is one execute
request; a check that outlives its timeout gets the kernel interrupted and is
reported as failed, and the next check runs.
"""
from __future__ import annotations

import ast
import json
import queue
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..model import Bank, Question
from .. import kernels, trust
from ..paths import data_dir

__all__ = ["HERE", "HARNESS_MODULE", "LAYOUTS_MODULE", "INTERRUPT_GRACE_S",
           "KernelUnresponsive", "CheckError", "CheckReport", "solution_exec_code",
           "KernelCheckRunner", "start_kernel", "shutdown_kernel", "interrupter",
           "run_in_fresh_kernel", "format_report", "check_solution_cli"]

HERE = Path(__file__).parent
HARNESS_MODULE = "_examdesk_harness"
LAYOUTS_MODULE = "_examdesk_layouts"
INTERRUPT_GRACE_S = 10.0


class KernelUnresponsive(RuntimeError):
    """The kernel did not answer, even after an interrupt."""


class CheckError(RuntimeError):
    """The check machinery itself failed (not the learner's code)."""


@dataclass
class CheckReport:
    """Outcome of one suite run; ``passed`` means every required check that ran passed."""

    question: str
    device: str
    checks: list[dict] = field(default_factory=list)
    environment: dict = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        required = [c for c in self.checks if c.get("required", True)]
        return bool(required) and all(c["passed"] for c in required)

    @property
    def not_judged(self) -> bool:
        """A required check could not run the code here (e.g. a Triton without block
        pointers): the run is no verdict, not a failure."""
        return any(c.get("not_judged") for c in self.checks if c.get("required", True))

    @property
    def recognised(self) -> list[str]:
        """What the checks recognised in the learner's design (layouts, conventions), once each."""
        return list(dict.fromkeys(c["recognised"] for c in self.checks if c.get("recognised")))

    def to_json(self) -> dict:
        return {"question": self.question, "device": self.device, "passed": self.passed,
                "checks": self.checks, "environment": self.environment,
                "recognised": self.recognised, "seconds": round(self.seconds, 3)}


def _source(name: str) -> str:
    return (HERE / name).read_text(encoding="utf-8")


def _install_code() -> str:
    """Code that defines the harness and layouts modules and the flash_attn stand-in.

    The stand-in is always installed as ``_examdesk_flash_attn`` (the checks reuse its entry
    points to observe calls, also around a real flash_attn); it becomes ``flash_attn`` (a
    package with ``flash_attn_interface`` and ``layers.rotary``) only when the real one does
    not import.
    """
    return (
        "import sys as _s, types as _t\n"
        f"for _n, _src in (({HARNESS_MODULE!r}, {_source('harness.py')!r}),\n"
        f"                 ({LAYOUTS_MODULE!r}, {_source('layouts.py')!r})):\n"
        "    _m = _t.ModuleType(_n)\n"
        "    _s.modules[_n] = _m\n"
        "    exec(compile(_src, '<examdesk ' + _n + '>', 'exec'), _m.__dict__)\n"
        "try:\n"
        "    import flash_attn as _fa\n"
        "    _fa.flash_attn_func\n"
        "except Exception:\n"
        "    _fa = None\n"
        "if _fa is not None and getattr(_fa, '__examdesk_standin__', False):\n"
        "    _s.modules['_examdesk_flash_attn'] = _fa  # installed by an earlier run: the\n"
        "    # learner's names point into it, so it must stay the one the checks observe\n"
        "elif _fa is None or '_examdesk_flash_attn' not in _s.modules:\n"
        "    _n = 'flash_attn' if _fa is None else '_examdesk_flash_attn'\n"
        "    _fa = _t.ModuleType(_n)\n"
        f"    exec(compile({_source('flash_attn_standin.py')!r}, '<flash_attn stand-in>', "
        "'exec'), _fa.__dict__)\n"
        "    _s.modules[_n] = _s.modules['_examdesk_flash_attn'] = _fa\n"
        "del _m, _fa, _t, _src\n"
        # Triton's interpreter (the only way Triton kernels run without a GPU) can only be
        # chosen before triton is first imported, and torch imports triton as a side effect
        # (any TorchDispatchMode or FlopCounterMode does): choose it now on a CPU-only kernel.
        "def _examdesk_triton_mode():\n"
        "    try:\n"
        "        import torch\n"
        "    except Exception:\n"
        "        return\n"
        "    if 'triton' not in _s.modules and not torch.cuda.is_available():\n"
        "        import os\n"
        "        os.environ.setdefault('TRITON_INTERPRET', '1')\n"
        "_examdesk_triton_mode()\n"
        "del _s, _examdesk_triton_mode\n"
        f"import {HARNESS_MODULE}\n"
    )


def solution_exec_code(source: str, filename: str = "<solution>") -> str:
    """Define the learner's code in the user namespace without running its __main__ block.

    The source is registered in ``linecache`` (as IPython does for a cell), so tracebacks
    show its lines and ``inspect.getsource`` works: ``@triton.jit`` needs the latter to
    compile a kernel.
    """
    return (
        "import linecache as _examdesk_lc\n"
        f"_examdesk_lc.cache[{filename!r}] = ({len(source)}, None, "
        f"{source!r}.splitlines(True), {filename!r})\n"
        "del _examdesk_lc\n"
        "_examdesk_ns = get_ipython().user_ns\n"
        "_examdesk_name = _examdesk_ns.get('__name__')\n"
        "_examdesk_ns['__name__'] = '__examdesk_solution__'\n"
        "try:\n"
        f"    exec(compile({source!r}, {filename!r}, 'exec'), _examdesk_ns)\n"
        "finally:\n"
        "    _examdesk_ns['__name__'] = _examdesk_name\n"
        "    del _examdesk_ns, _examdesk_name\n"
    )


def _literal(plain: str) -> Any:
    value = ast.literal_eval(plain)
    return json.loads(value) if isinstance(value, str) else value


class KernelCheckRunner:
    """Speaks the check protocol over a blocking kernel client.

    ``interrupt`` interrupts the kernel (``km.interrupt_kernel`` or a control-channel
    request for a kernel we only connected to).
    """

    def __init__(self, client, interrupt: Callable[[], None]):
        self.client = client
        self.interrupt = interrupt

    def execute(self, code: str, *, timeout: float, expression: str | None = None) -> dict:
        """Run ``code`` silently; return the reply content plus ``value`` of ``expression``.

        Replies are matched on ``parent_header.msg_id`` (they can arrive out of order).
        On timeout the kernel is interrupted; ``timed_out`` is set in the result.
        """
        exprs = {"value": expression} if expression else {}
        msg_id = self.client.execute(code, silent=True, store_history=False,
                                     user_expressions=exprs, allow_stdin=False)
        deadline = time.monotonic() + timeout
        timed_out = False
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if timed_out:
                    raise KernelUnresponsive("the kernel did not answer an interrupt within "
                                             f"{INTERRUPT_GRACE_S:.0f} s")
                timed_out = True
                self.interrupt()
                deadline = time.monotonic() + INTERRUPT_GRACE_S
                continue
            try:
                msg = self.client.get_shell_msg(timeout=min(remaining, 0.5))
            except queue.Empty:
                if not self.client.is_alive():
                    raise KernelUnresponsive("the kernel died")
                continue
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            content = dict(msg["content"])
            content["timed_out"] = timed_out
            if expression and content.get("status") == "ok":
                result = content.get("user_expressions", {}).get("value", {})
                if result.get("status") != "ok":
                    raise CheckError(f"{result.get('ename')}: {result.get('evalue')}")
                content["value"] = _literal(result["data"]["text/plain"])
            return content

    def _ok(self, code: str, timeout: float, expression: str | None = None, what: str = ""):
        reply = self.execute(code, timeout=timeout, expression=expression)
        if reply.get("status") != "ok":
            raise CheckError(f"{what}: {reply.get('ename')}: {reply.get('evalue')}")
        return reply.get("value")

    def prepare(self) -> dict:
        """Install harness + stand-in; return the kernel's environment facts."""
        return self._ok(_install_code(), 60, f"{HARNESS_MODULE}.environment()",
                        "installing the check harness")

    def define_solution(self, source: str, filename: str = "<solution>") -> dict:
        """Exec the learner's code in the kernel; the reply says whether it raised."""
        return self.execute(solution_exec_code(source, filename), timeout=120)

    def load_suite(self, suite_id: str, source: str) -> list[dict]:
        code = f"{HARNESS_MODULE}.LAST = {HARNESS_MODULE}.load_suite({suite_id!r}, {source!r})"
        return self._ok(code, 60, f"{HARNESS_MODULE}.LAST", "loading the check suite")

    def run_check(self, suite_id: str, info: dict, device: str, source: str) -> dict:
        code = (f"{HARNESS_MODULE}.LAST = ''\n"
                f"{HARNESS_MODULE}.run_check({suite_id!r}, {info['name']!r}, {device!r}, "
                f"{source!r})")
        start = time.perf_counter()
        reply = self.execute(code, timeout=float(info.get("timeout", 60)),
                             expression=f"{HARNESS_MODULE}.LAST")
        base = {"name": info["name"], "description": info.get("description", ""),
                "required": info.get("required", True), "slow": info.get("slow", False),
                "device": device, "details": {}}
        if reply.get("timed_out"):
            return {**base, "passed": False, "seconds": round(time.perf_counter() - start, 3),
                    "message": f"timed out after {info.get('timeout', 60):g} s (kernel "
                               f"interrupted): a hang or far too slow"}
        if reply.get("status") != "ok" or not reply.get("value"):
            return {**base, "passed": False, "seconds": round(time.perf_counter() - start, 3),
                    "message": f"{reply.get('ename', 'error')}: {reply.get('evalue', '')}"}
        return reply["value"]

    def run_suite(self, question: Question, source: str, *, device: str = "auto",
                  include_slow: bool = False, define: bool = False,
                  on_result: Callable[[dict], None] | None = None) -> CheckReport:
        """Run every applicable check of ``question`` against ``source``.

        define: exec ``source`` in the kernel first (headless use); in the app the
        learner has already run their code in the console.
        """
        if question.code is None or question.code.check is None:
            raise CheckError(f"{question.id} has no check suite")
        start = time.perf_counter()
        env = self.prepare()
        if device == "auto":
            device = "cuda" if env.get("cuda") else "cpu"
        report = CheckReport(question.id, device, environment=env)
        if define:
            reply = self.define_solution(source)
            if reply.get("status") != "ok":
                report.checks.append({
                    "name": "defines", "passed": False, "required": True, "seconds": 0.0,
                    "device": device, "details": {"traceback": reply.get("traceback", [])[-3:]},
                    "message": f"the solution raised {reply.get('ename')}: "
                               f"{reply.get('evalue')}"})
                report.seconds = time.perf_counter() - start
                return report
        suite_id = question.id
        for info in self.load_suite(suite_id, question.code.read("check")):
            if info.get("slow") and not include_slow:
                continue
            if info.get("cuda_only") and device != "cuda":
                continue
            result = self.run_check(suite_id, info, device, source)
            report.checks.append(result)
            if on_result:
                on_result(result)
        report.seconds = time.perf_counter() - start
        return report


# --- a private kernel for headless runs -------------------------------------------------

def start_kernel(kernel_name: str = kernels.APP_KERNEL, *, startup_timeout: float = 60.0):
    """Start a fresh kernel (``APP_KERNEL`` or an installed kernelspec's name), or connect to
    a running one (``connect:/path/kernel-123.json``); return (manager or None, blocking
    client, stderr log path or None). ``shutdown_kernel`` undoes all of it."""
    if kernel_name.startswith(kernels.CONNECT_PREFIX):
        kc = kernels.connect_client(kernel_name[len(kernels.CONNECT_PREFIX):])
        kc.start_channels()
        try:
            kc.wait_for_ready(timeout=startup_timeout)
        except RuntimeError:
            shutdown_kernel(None, kc)
            raise KernelUnresponsive(f"the kernel at {kernel_name} does not answer")
        return None, kc, None
    km, log_path = kernels.start_managed_kernel(kernel_name)
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=startup_timeout)
    except RuntimeError:
        why = kernels.tail(log_path)
        shutdown_kernel(km, kc, log_path)
        raise KernelUnresponsive("the kernel did not start:\n" + why)
    return km, kc, log_path


def shutdown_kernel(km, kc, log_path: Path | None = None) -> None:
    """Idempotent, bounded shutdown (``kernels.shutdown_kernel``), then the log goes too; a
    kernel we only connected to keeps running."""
    try:
        kernels.shutdown_kernel(km, kc)
    finally:
        kernels.remove_log(log_path)


def interrupter(km, kc) -> Callable[[], None]:
    """How to interrupt: a signal for our own kernel, a control message for a connected one."""
    if km is not None:
        return km.interrupt_kernel
    return lambda: kc.control_channel.send(kc.session.msg("interrupt_request", content={}))


def run_in_fresh_kernel(question: Question, source: str, *, device: str = "auto",
                        include_slow: bool = False,
                        kernel_name: str = kernels.APP_KERNEL) -> CheckReport:
    """Headless: start a kernel (or connect), define the solution, run the suite, shut down."""
    km, kc, log_path = start_kernel(kernel_name)
    try:
        runner = KernelCheckRunner(kc, interrupter(km, kc))
        return runner.run_suite(question, source, device=device, include_slow=include_slow,
                                define=True)
    finally:
        shutdown_kernel(km, kc, log_path)


def format_report(report: CheckReport) -> str:
    env = report.environment
    lines = [f"{report.question} on {report.device} — torch {env.get('torch')}, "
             f"flash_attn: {env.get('flash_attn')}"]
    for c in report.checks:
        mark = ("PASS" if c["passed"] else "N/J " if c.get("not_judged") else
                "FAIL" if c.get("required", True) else "warn")
        lines.append(f"  {mark}  {c['name']:<26} {c.get('seconds', 0):7.2f}s  {c['message']}")
    lines.extend(f"  recognised: {text}" for text in report.recognised)
    n_pass = sum(1 for c in report.checks if c["passed"])
    lines.append(f"{n_pass}/{len(report.checks)} checks passed in {report.seconds:.1f} s: "
                 f"{'PASSED' if report.passed else 'NOT JUDGED' if report.not_judged else 'FAILED'}")
    return "\n".join(lines)


def check_solution_cli(bank: Bank, args) -> int:
    """``question-db check QUESTION SOLUTION.py``: exit 0 only if every required check passed."""
    try:
        question = bank.question(args.question)
    except KeyError as exc:
        print(f"question-db check: {exc.args[0]}", file=sys.stderr)
        return 2
    if not getattr(args, "trust", False):  # --trust: this run only; nothing is recorded
        try:
            trust.require_trusted(bank.paper(question.paper_id),
                                  data_dir=data_dir(getattr(args, "data_dir", None)))
        except trust.UntrustedPack as exc:
            print(f"question-db check: {exc} To run them once, pass --trust.", file=sys.stderr)
            return 2
    try:
        source = Path(args.solution).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"question-db check: cannot read {args.solution}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        report = run_in_fresh_kernel(question, source, device=args.device,
                                     include_slow=args.slow,
                                     kernel_name=args.kernel or kernels.APP_KERNEL)
    except (CheckError, KernelUnresponsive) as exc:
        print(f"question-db check: {question.id}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        print(format_report(report))
    return 0 if report.passed else 1
