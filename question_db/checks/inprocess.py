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

__all__ = ["HERE", "harness_module", "ensure_flash_attn", "run_suite_inprocess",
           "run_solutions_inprocess"]

HERE = Path(__file__).parent


def _module(name: str, filename: str) -> types.ModuleType:
    """Exec one of the files sent to the kernel as module ``name`` (once per process)."""
    mod = sys.modules.get(name)
    if mod is None:
        mod = types.ModuleType(name)
        path = HERE / filename
        sys.modules[name] = mod
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), mod.__dict__)
    return mod


def harness_module() -> types.ModuleType:
    """Import harness.py as ``_examdesk_harness`` (what the kernel sees)."""
    return _module("_examdesk_harness", "harness.py")


def ensure_flash_attn() -> None:
    """Install the layouts module and the flash_attn stand-in, as the kernel gets them.

    The stand-in is ``_examdesk_flash_attn`` always and ``flash_attn`` (a package) unless
    the real package imports.
    """
    _module("_examdesk_layouts", "layouts.py")
    if "_examdesk_flash_attn" in sys.modules:
        return
    real = "flash_attn" in sys.modules or importlib.util.find_spec("flash_attn") is not None
    name = "_examdesk_flash_attn" if real else "flash_attn"
    mod = _module(name, "flash_attn_standin.py")
    sys.modules["_examdesk_flash_attn"] = mod


def run_suite_inprocess(suite_path: Path, solution_source: str, *, device: str = "cpu",
                        include_slow: bool = False) -> list[dict]:
    """Exec the solution in a fresh namespace and run every check of the suite on it."""
    return run_solutions_inprocess(suite_path, [solution_source], device=device,
                                   include_slow=include_slow)[0]


def run_solutions_inprocess(suite_path: Path, sources: list[str], *, device: str = "cpu",
                            include_slow: bool = False) -> list[list[dict]]:
    """Run the suite on many solutions with one load of the suite; one result list each.

    A suite may define ``prepare_many(sources)`` to batch expensive work (the ZeRO suite
    runs the ranks of every solution in one launcher process); it is called once first.
    """
    harness = harness_module()
    ensure_flash_attn()
    suite_id = str(suite_path)
    checks = json.loads(harness.load_suite(suite_id, suite_path.read_text(encoding="utf-8")))
    module = harness.SUITES[suite_id][0]
    if hasattr(module, "prepare_many"):
        module.prepare_many(list(sources))
    out = []
    for source in sources:
        namespace: dict = {"__name__": "__examdesk_solution__"}
        exec(compile(source, "<solution>", "exec"), namespace)
        results = []
        for info in checks:
            if info["slow"] and not include_slow:
                continue
            if info["cuda_only"] and not device.startswith("cuda"):
                continue
            results.append(json.loads(harness.run_check(suite_id, info["name"], device,
                                                        source, namespace)))
        out.append(results)
    return out


if __name__ == "__main__":  # python -m question_db.checks.inprocess SUITE SOLUTION [--slow]
    suite, solution = Path(sys.argv[1]), Path(sys.argv[2])
    for r in run_suite_inprocess(suite, solution.read_text(encoding="utf-8"),
                                 include_slow="--slow" in sys.argv):
        mark = "PASS" if r["passed"] else "FAIL"
        print(f"{mark} {r['name']:<28} {r['seconds']:7.3f}s  {r['message']}")
        if r.get("recognised"):
            print(f"     recognised: {r['recognised']}")
