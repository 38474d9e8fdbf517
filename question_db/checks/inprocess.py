"""Run a check suite in this process (development and fast tests).

The real path is ``runner.py`` (a fresh kernel, hangs turned into failures by
interrupting it). This in-process variant runs the very same harness and suite
source, so suite authors can iterate without a kernel.
"""
from __future__ import annotations

import importlib.util
import json
import sys
import types
from pathlib import Path

HERE = Path(__file__).parent


def harness_module() -> types.ModuleType:
    """Import harness.py as ``_examdesk_harness`` (what the kernel sees)."""
    mod = sys.modules.get("_examdesk_harness")
    if mod is None:
        mod = types.ModuleType("_examdesk_harness")
        source = (HERE / "harness.py").read_text(encoding="utf-8")
        sys.modules["_examdesk_harness"] = mod
        exec(compile(source, str(HERE / "harness.py"), "exec"), mod.__dict__)
    return mod


def ensure_flash_attn() -> None:
    """Install the stand-in as ``flash_attn`` unless the real package imports."""
    if "flash_attn" in sys.modules or importlib.util.find_spec("flash_attn") is not None:
        return
    mod = types.ModuleType("flash_attn")
    path = HERE / "flash_attn_standin.py"
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), mod.__dict__)
    sys.modules["flash_attn"] = mod


def run_suite_inprocess(suite_path: Path, solution_source: str, *, device: str = "cpu",
                        include_slow: bool = False) -> list[dict]:
    """Exec the solution in a fresh namespace and run every check of the suite on it."""
    harness = harness_module()
    ensure_flash_attn()
    namespace: dict = {"__name__": "__examdesk_solution__"}
    exec(compile(solution_source, "<solution>", "exec"), namespace)
    suite_id = str(suite_path)
    checks = json.loads(harness.load_suite(suite_id, suite_path.read_text(encoding="utf-8")))
    results = []
    for info in checks:
        if info["slow"] and not include_slow:
            continue
        if info["cuda_only"] and not device.startswith("cuda"):
            continue
        results.append(json.loads(harness.run_check(suite_id, info["name"], device,
                                                    solution_source, namespace)))
    return results


if __name__ == "__main__":  # python -m question_db.checks.inprocess SUITE SOLUTION [--slow]
    suite, solution = Path(sys.argv[1]), Path(sys.argv[2])
    for r in run_suite_inprocess(suite, solution.read_text(encoding="utf-8"),
                                 include_slow="--slow" in sys.argv):
        mark = "PASS" if r["passed"] else "FAIL"
        print(f"{mark} {r['name']:<28} {r['seconds']:7.3f}s  {r['message']}")
