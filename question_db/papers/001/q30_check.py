"""Checks for paper 001 question 30: ZeRO-1 sharded Adam (ShardedAdam).

The optimizer needs real process groups, so the checks run the learner's source
(``ctx.source``) in separate Python processes (``sys.executable``, the kernel's
own Python), one per rank, with the gloo backend on CPU and a ``file://``
rendezvous. World sizes 1, 2 and 3 run at the same time; each rank trains a tiny
model whose parameter sizes (35, 5, 11, 1) divide by neither 2 nor 3, with
rank-dependent gradients, and saves its final parameters and optimizer-state
sizes. The parent replays torch.optim.Adam on the averaged gradients.

One run serves every check (cached per source text). A hang becomes a failure:
collectives use a short gloo timeout and the parent kills the process groups at a
hard deadline.
"""
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

from _examdesk_harness import CheckFailed, check, tensor_mismatch

GLOO_TIMEOUT_S = 5       # a collective that waits longer than this is a hang
HARD_DEADLINE_S = 40     # everything (imports included) must finish by then
WORLD_SIZES = (1, 2, 3)

# Shared by the worker processes and the parent's torch.optim.Adam replay.
COMMON = r'''
import torch

STEPS = 6
LR = 0.05
BETAS = (0.8, 0.95)   # not the defaults: hard-coded betas show up
EPS = 0.05            # comparable to |grad|: Adam then sees the gradient scale


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(7, 5)                    # 35 + 5 elements
        self.scale = torch.nn.Parameter(torch.randn(11))    # 11 elements
        self.temp = torch.nn.Parameter(torch.tensor(0.5))   # 0-dim, 1 element


def make_net():
    torch.manual_seed(0)
    return Net()


def loss_fn(w, b, s, t, step, rank):
    g = torch.Generator().manual_seed(1000 + 97 * step + 13 * rank)
    x = torch.randn(6, 7, generator=g)
    y = torch.randn(6, 5, generator=g)
    z = torch.randn(11, generator=g)
    c = torch.randn((), generator=g)
    h = torch.tanh(x @ w.t() + b)
    return (((h - y) ** 2).mean() + ((s * (1 + rank) - z) ** 2).mean()
            + (t * c - 0.3 * rank) ** 2)
'''

WORKER = r'''
import datetime, json, os, pathlib, sys, time, traceback

out_dir, gloo_timeout, deadline = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
jobs = [tuple(int(x) for x in job.split(":")) for job in sys.argv[4].split(",")]  # ws:rank


def tensors_numel(obj):
    import torch
    if isinstance(obj, torch.Tensor):
        return obj.numel()
    if isinstance(obj, dict):
        return sum(tensors_numel(v) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return sum(tensors_numel(v) for v in obj)
    return 0


def prepare_torch():
    import torch
    import torch.distributed  # noqa: F401
    torch.set_num_threads(1)
    # Optimizer methods are wrapped by torch._disable_dynamo, whose first call imports
    # torch._dynamo (seconds of CPU per process). Pre-fill its per-function cache with
    # the plain function: same behaviour outside torch.compile, much faster start.
    for fn in vars(torch.optim.Optimizer).values():
        inner = getattr(fn, "__wrapped__", None)
        if callable(inner) and not hasattr(inner, "__dynamo_disable"):
            setattr(inner, "__dynamo_disable", inner)


def run_rank(ws, rank):
    tag = os.path.join(out_dir, "ws%d_rank%d" % (ws, rank))
    peers = [os.path.join(out_dir, "ws%d_rank%d" % (ws, r)) for r in range(ws)]
    stage = "import torch"
    try:
        prepare_torch()
        import torch
        import torch.distributed as dist
        common = {}
        with open(os.path.join(out_dir, "common.py"), encoding="utf-8") as f:
            exec(compile(f.read(), "common.py", "exec"), common)
        stage = "exec of your source"
        ns = {"__name__": "__examdesk_worker__"}
        with open(os.path.join(out_dir, "solution.py"), encoding="utf-8") as f:
            exec(compile(f.read(), "<your code>", "exec"), ns)
        cls = ns.get("ShardedAdam")
        if cls is None:
            raise RuntimeError("your source does not define ShardedAdam")
        # Start together, so that the gloo timeout measures collectives only.
        stage = "waiting for the other ranks"
        open(tag + ".ready", "w").close()
        while not all(os.path.exists(t + ".ready") for t in peers):
            if time.time() > deadline or any(os.path.exists(t + ".err") for t in peers):
                raise TimeoutError("another rank of this group never started")
            time.sleep(0.02)
        stage = "init_process_group"
        rdzv = pathlib.Path(os.path.abspath(out_dir), "rendezvous_ws%d" % ws).as_uri()
        dist.init_process_group("gloo", init_method=rdzv, rank=rank, world_size=ws,
                                timeout=datetime.timedelta(seconds=gloo_timeout))
        net = common["make_net"]()
        params = [net.lin.weight, net.lin.bias, net.scale, net.temp]
        init = [p.detach().clone() for p in params]
        stage = "ShardedAdam(...)"
        opt = cls(net.parameters(), lr=common["LR"], betas=common["BETAS"], eps=common["EPS"],
                  rank=rank, world_size=ws)
        for step in range(common["STEPS"]):
            stage = "step %d" % (step + 1)
            for p in params:
                p.grad = None
            common["loss_fn"](*params, step, rank).backward()
            opt.step()
        stage = "collect results"
        torch.save({"params": [p.detach().clone() for p in params], "init": init,
                    "state_numel": [tensors_numel(opt.state.get(p, {})) for p in params],
                    "numel": [p.numel() for p in params]}, tag + ".pt.tmp")
        os.replace(tag + ".pt.tmp", tag + ".pt")
    except BaseException:
        with open(tag + ".err.tmp", "w") as f:
            json.dump({"stage": stage, "error": traceback.format_exc()[-1500:],
                       "time": time.time()}, f)
        os.replace(tag + ".err.tmp", tag + ".err")
        return 1
    try:
        dist.destroy_process_group()
    except Exception:
        pass
    return 0


if len(jobs) == 1:
    code = run_rank(*jobs[0])
else:
    # Linux: import torch once, then fork one child per (world size, rank).
    prepare_torch()
    children = []
    for job in jobs:
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                code = run_rank(*job)
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        children.append(pid)
    # A rank that failed leaves its peers blocked (at most gloo_timeout in a collective,
    # forever in plain Python): stop the rest of that group shortly after.
    running = dict(zip(children, jobs))
    failed_at = {}
    while running:
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid in running:
            ws = running.pop(pid)[0]
            if status != 0:
                failed_at.setdefault(ws, time.time())
            continue
        for pid, (ws, rank) in list(running.items()):
            if ws in failed_at and time.time() - failed_at[ws] > gloo_timeout + 2:
                os.kill(pid, 9)
        time.sleep(0.02)
    code = 0
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
'''

_CACHE: dict = {}
_COMMON_NS: dict = {}


def _common():
    if not _COMMON_NS:
        exec(compile(COMMON, "common.py", "exec"), _COMMON_NS)
    return _COMMON_NS


def _runnable(source: str) -> str:
    # Notebook line magics / shell escapes are not Python: blank them out.
    return "\n".join("pass  # (IPython line removed)" if line[:1] in ("%", "!") else line
                     for line in source.splitlines())


def _kill(proc) -> None:
    if proc.poll() is not None:
        return
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError, OSError):
        pass


def _tail(path: Path, n: int = 600) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-n:]
    except OSError:
        return ""


def _load(path: Path):
    try:
        return torch.load(path, weights_only=True)
    except TypeError:  # torch < 1.13 has no weights_only
        return torch.load(path)


def _run_all(source: str) -> dict:
    """Run world sizes 1, 2, 3 at the same time; return {ws: outcome}."""
    tmp = Path(tempfile.mkdtemp(prefix="examdesk_zero1_"))
    procs = {}
    try:
        (tmp / "solution.py").write_text(_runnable(source), encoding="utf-8")
        (tmp / "common.py").write_text(COMMON, encoding="utf-8")
        (tmp / "worker.py").write_text(WORKER, encoding="utf-8")
        env = dict(os.environ, OMP_NUM_THREADS="1", CUDA_VISIBLE_DEVICES="",
                   PYTHONDONTWRITEBYTECODE="1", PYTHONWARNINGS="ignore")
        started = time.time()
        deadline = started + HARD_DEADLINE_S
        jobs = [f"{ws}:{rank}" for ws in WORLD_SIZES for rank in range(ws)]
        # One process that imports torch once and forks every rank (Linux), else one
        # process per rank. Each gets its own session/process group to kill on a hang.
        groups = [jobs] if sys.platform.startswith("linux") else [[job] for job in jobs]
        for i, group in enumerate(groups):
            log = open(tmp / f"launcher{i}.log", "wb")
            kwargs = ({"start_new_session": True} if os.name == "posix" else
                      {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP})
            procs[i] = subprocess.Popen(
                [sys.executable, str(tmp / "worker.py"), str(tmp), str(GLOO_TIMEOUT_S),
                 str(deadline), ",".join(group)],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                cwd=str(tmp), env=env, **kwargs)
            log.close()
        failed_at: dict = {}
        while time.time() < deadline and any(p.poll() is None for p in procs.values()):
            if len(groups) > 1:  # one process per rank: stop the peers of a failed rank
                for i, p in procs.items():
                    if p.poll() not in (None, 0):
                        failed_at.setdefault(groups[i][0].split(":")[0], time.time())
                for i, p in procs.items():
                    when = failed_at.get(groups[i][0].split(":")[0])
                    if when is not None and time.time() - when > GLOO_TIMEOUT_S + 2:
                        _kill(p)
            time.sleep(0.03)
        hung = any(p.poll() is None for p in procs.values())
        for p in procs.values():
            _kill(p)
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        elapsed = round(time.time() - started, 2)
        logs = " ".join(_tail(tmp / f"launcher{i}.log", 300) for i in procs).strip()
        outcome = {}
        for ws in WORLD_SIZES:
            ranks, errors = [], []
            for rank in range(ws):
                pt, err = tmp / f"ws{ws}_rank{rank}.pt", tmp / f"ws{ws}_rank{rank}.err"
                if pt.exists():
                    ranks.append(_load(pt))
                    continue
                ranks.append(None)
                if err.exists():
                    info = json.loads(err.read_text(encoding="utf-8"))
                    lines = info["error"].strip().splitlines()
                    last = re.sub(r"\[[^\]]*:\d+\] ", "", lines[-1] if lines else "")
                    errors.append((info["time"], f"rank {rank} failed during {info['stage']}: "
                                                 f"{last}"[:200]))
                elif hung:
                    errors.append((deadline, f"rank {rank} still running after "
                                             f"{HARD_DEADLINE_S} s (hang), killed"))
                else:
                    errors.append((deadline, f"rank {rank} was stopped (blocked after a peer "
                                             f"failed, or crashed): {logs[-200:]!r}"))
            # First failure first: later ones are usually peers losing their connection.
            outcome[ws] = {"ranks": ranks, "errors": [e for _, e in sorted(errors)],
                           "seconds": elapsed}
        return outcome
    finally:
        for p in procs.values():
            _kill(p)
        shutil.rmtree(tmp, ignore_errors=True)


def _results(ctx) -> dict:
    ctx.get("ShardedAdam")  # defined in the console at all?
    source = ctx.source or ""
    if "ShardedAdam" not in source:
        raise CheckFailed("the source sent to the checks does not define ShardedAdam")
    key = hashlib.sha256(source.encode("utf-8")).hexdigest()
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = _run_all(source)
    return _CACHE[key]


def _scenario(ctx, ws: int) -> list:
    out = _results(ctx)[ws]
    if out["errors"]:
        hint = ""
        if any("timed out" in e.lower() or "hang" in e for e in out["errors"]):
            hint = (" (a hang: every rank must call the same collectives, in the same order, "
                    "with tensors of the same size)")
        raise CheckFailed(f"world_size={ws} did not complete{hint}: " + "; ".join(out["errors"]),
                          world_size=ws, errors=out["errors"])
    return out["ranks"]


def _expected(ws: int, init: list) -> list:
    """torch.optim.Adam on the gradients averaged over ``ws`` ranks."""
    c = _common()
    params = [p.clone().requires_grad_(True) for p in init]
    opt = torch.optim.Adam(params, lr=c["LR"], betas=c["BETAS"], eps=c["EPS"])
    for step in range(c["STEPS"]):
        total = [torch.zeros_like(p) for p in params]
        for rank in range(ws):
            grads = torch.autograd.grad(c["loss_fn"](*params, step, rank), params)
            total = [a + g for a, g in zip(total, grads)]
        for p, g in zip(params, total):
            p.grad = g / ws
        opt.step()
    return [p.detach() for p in params]


NAMES = ["lin.weight", "lin.bias", "scale", "temp"]


def _matches_adam(ctx, ws: int) -> dict:
    ranks = _scenario(ctx, ws)
    expected = _expected(ws, ranks[0]["init"])
    rtol, atol = ctx.tol(torch.float32)
    worst = 0.0
    for rank, res in enumerate(ranks):
        for name, actual, exp in zip(NAMES, res["params"], expected):
            bad = tensor_mismatch(actual, exp, rtol=rtol, atol=atol)
            if bad is not None:
                if bad["reason"] == "shape":
                    raise CheckFailed(f"world_size={ws}, rank {rank}: {name} has shape "
                                      f"{bad['shape']}, expected {bad['expected_shape']}", **bad)
                raise CheckFailed(
                    f"world_size={ws}, rank {rank}: {name} after 6 steps differs from "
                    f"torch.optim.Adam on the averaged gradients in {bad['mismatches']} "
                    f"element(s); max abs err {bad['max_abs_err']:.3g}, first at "
                    f"{tuple(bad['first_mismatch'])} ({bad['actual_at']:.6g} vs "
                    f"{bad['expected_at']:.6g})", world_size=ws, rank=rank, param=name, **bad)
            worst = max(worst, float((actual.double() - exp.double()).abs().max()))
    return {"world_size": ws, "max_abs_err": worst, "run_seconds": _results(ctx)[ws]["seconds"]}


@check("ws1_plain_adam", "world_size=1 (one process, group of one) equals torch.optim.Adam",
       timeout=90)
def ws1_plain_adam(ctx):
    cls = ctx.get("ShardedAdam")
    ctx.expect(isinstance(cls, type) and issubclass(cls, torch.optim.Optimizer),
               "ShardedAdam must be a subclass of torch.optim.Optimizer")
    return _matches_adam(ctx, 1)


@check("ws2_matches_adam",
       "world_size=2: parameters equal torch.optim.Adam on the gradients averaged over ranks",
       timeout=90)
def ws2_matches_adam(ctx):
    return _matches_adam(ctx, 2)


@check("ws3_uneven_matches_adam",
       "world_size=3 (35, 5, 11, 1 elements: uneven shards) completes without hanging and "
       "matches torch.optim.Adam on the averaged gradients", timeout=90)
def ws3_uneven_matches_adam(ctx):
    return _matches_adam(ctx, 3)


@check("ranks_identical", "after step() every rank holds identical full parameters "
       "(world_size 2 and 3)", timeout=90)
def ranks_identical(ctx):
    worst = {}
    for ws in (2, 3):
        ranks = _scenario(ctx, ws)
        for rank in range(1, ws):
            for name, a, b in zip(NAMES, ranks[rank]["params"], ranks[0]["params"]):
                if a.shape != b.shape:
                    raise CheckFailed(f"world_size={ws}: {name} has shape {list(a.shape)} on "
                                      f"rank {rank} but {list(b.shape)} on rank 0")
                diff = float((a.double() - b.double()).abs().max()) if a.numel() else 0.0
                worst[f"ws{ws}"] = max(worst.get(f"ws{ws}", 0.0), diff)
                if diff > 1e-6:
                    raise CheckFailed(
                        f"world_size={ws}: ranks diverged: {name} differs between rank {rank} "
                        f"and rank 0 by up to {diff:.3g} (the updated shards must be "
                        f"all-gathered)", world_size=ws, rank=rank, param=name, max_abs_diff=diff)
    return {"max_abs_diff_between_ranks": worst}


@check("state_sharded", "each rank keeps Adam m and v in self.state[p] only for its shard: "
       "at most 2*ceil(numel/world_size)+2 elements per parameter, all ranks together >= 2*numel",
       timeout=90)
def state_sharded(ctx):
    report = {}
    for ws in (2, 3):
        ranks = _scenario(ctx, ws)
        numels = ranks[0]["numel"]
        per_rank = [r["state_numel"] for r in ranks]
        report[f"ws{ws}"] = {name: {"numel": n, "state_per_rank": [s[i] for s in per_rank]}
                             for i, (name, n) in enumerate(zip(NAMES, numels))}
        for i, (name, n) in enumerate(zip(NAMES, numels)):
            limit = 2 * (-(-n // ws)) + 2
            for rank, sizes in enumerate(per_rank):
                if sizes[i] > limit:
                    raise CheckFailed(
                        f"world_size={ws}, rank {rank}: optimizer state of {name} ({n} elements) "
                        f"holds {sizes[i]} elements, more than 2*ceil({n}/{ws})+2 = {limit}: "
                        f"m and v are not sharded", state=report)
            total = sum(sizes[i] for sizes in per_rank)
            if total < 2 * n:
                raise CheckFailed(
                    f"world_size={ws}: optimizer state of {name} over all ranks holds {total} "
                    f"elements < 2*{n}: keep m and v (tensors) in self.state[p]", state=report)
    return {"state": report}
