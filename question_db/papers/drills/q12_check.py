"""Checks for drills/12: a FlashAttention-2 forward kernel in Triton.

Contract: ``triton_flash_attention(q, k, v, causal=False)`` for (B, H, S, D) inputs with any
strides -> (o, lse): o equals SDPA in q's dtype, lse is the natural log-sum-exp (float32),
computed in Triton kernels with an online softmax. Block sizes, num_warps/stages, exp or
exp2, the grid layout and causal block skipping are the learner's choice (blocks: powers of
two from 16 to 128, the stem says; S = 300 and 257 are over twice the largest, so every
allowed tiling runs several query and key blocks: cross-block rescaling and the causal mask
off the diagonal are exercised, which sequences of 64 tokens never do for 64- or 128-wide
blocks).

On CPU the kernels run in Triton's interpreter: correctness on small shapes only. On CUDA
fp32 inputs are compared loosely (tl.dot uses TF32 by default there) and a non-required
check reports TFLOP/s against SDPA in the same run and the device's datasheet peak.
"""
import math
import os
import sys

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

from _examdesk_harness import CheckFailed, check, tensor_mismatch

# --- Triton drills: shared preamble (each suite travels alone, so it is repeated) -------
try:
    import triton
except ImportError:  # reported by triton_ready below
    triton = None

ALLOWED_TORCH = {  # what a wrapper may do itself: allocate, reshape, inspect, launch
    "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "zeros",
    "zeros_like", "new_zeros", "full", "full_like", "new_full", "ones", "ones_like",
    "fill_", "zero_", "contiguous", "view", "view_as", "reshape", "reshape_as", "flatten",
    "unflatten", "transpose", "permute", "t", "expand", "expand_as", "as_strided",
    "unsqueeze", "squeeze", "select", "narrow", "__getitem__", "stride", "size", "dim",
    "numel", "storage_offset", "data_ptr", "untyped_storage", "element_size",
    "is_contiguous", "__get__", "to", "float", "half", "bfloat16", "type", "cpu", "cuda",
    "clone", "copy_", "detach", "__len__", "is_floating_point", "get_device", "__index__",
    "__int__", "item", "__format__", "__hash__",
}
# datasheet dense BF16/FP16 tensor-core TFLOP/s by device-name fragment (most specific first)
DATASHEET_TFLOPS = [("H200", 989.0), ("H100 PCIe", 756.0), ("H100", 989.0), ("A100", 312.0)]


def _interpreted():
    """True when triton's own library functions were built for the interpreter."""
    try:
        from triton.runtime.interpreter import InterpretedFunction
        import triton.language.standard as std
        return isinstance(std.max, InterpretedFunction)
    except Exception:  # another triton layout: trust the environment variable
        return os.environ.get("TRITON_INTERPRET") == "1"


def _triton_problem():
    if triton is None:
        return ("triton is not installed in this kernel's environment (" + sys.executable +
                "): pip install triton (examdesk's own environment: pip install "
                "'examdesk[triton]'), then restart the kernel")
    if not torch.cuda.is_available() and not _interpreted():
        return ("there is no GPU, so Triton kernels must run in Triton's interpreter, which "
                "can only be switched on before triton is first imported (here something "
                "imported triton earlier, e.g. torch.compile or another check): restart the "
                "kernel and run your code again; its first lines set TRITON_INTERPRET=1")
    return None


PROBLEM = _triton_problem()
# With no usable triton only triton_ready is registered: one clear failure, not a cascade.
drill_check = check if PROBLEM is None else (lambda *a, **k: (lambda fn: fn))


@check("triton_ready",
       "triton imports; without a GPU it runs in the interpreter (correctness only, small "
       "shapes); with a GPU the kernels are compiled")
def check_triton_ready(ctx):
    if PROBLEM:
        raise CheckFailed(PROBLEM)
    mode = "interpreter" if _interpreted() else "compiled"
    if not ctx.is_cuda and mode == "compiled":
        raise CheckFailed("this kernel compiles Triton for the GPU, so CPU tensors cannot be "
                          "used: check on cuda (--device cuda), or restart the kernel with "
                          "TRITON_INTERPRET=1 set to check on CPU")
    if ctx.is_cuda and mode == "interpreter":
        return {"message": f"triton {triton.__version__} in the INTERPRETER on a CUDA device: "
                           "correct but slow; unset TRITON_INTERPRET and restart the kernel "
                           "for the performance check", "mode": mode}
    if not ctx.is_cuda:
        return {"message": f"triton {triton.__version__} in the interpreter on CPU: "
                           "correctness only, on small shapes; performance is checked on CUDA",
                "mode": mode}
    return {"message": f"triton {triton.__version__}, kernels compiled for "
                       f"{torch.cuda.get_device_name()}", "mode": mode}


class _TorchCalls(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.names = {}

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", str(func))
        self.names[name] = self.names.get(name, 0) + 1
        return func(*args, **(kwargs or {}))


def _launch_spy():
    """Count kernel launches (kernel[grid](...)) while active: (enter, exit, counter)."""
    launches = [0]
    try:
        from triton.runtime.jit import KernelInterface
    except ImportError:  # another triton layout: launches are not counted
        return (lambda: None), (lambda: None), None
    original = KernelInterface.__getitem__

    def counting(self, grid):
        launcher = original(self, grid)

        def launch(*args, **kwargs):
            launches[0] += 1
            return launcher(*args, **kwargs)
        return launch

    def enter():
        KernelInterface.__getitem__ = counting

    def leave():
        KernelInterface.__getitem__ = original
    return enter, leave, launches


def _runs_in_triton(ctx, call):
    """Run ``call`` once: it must launch a Triton kernel and compute nothing with torch."""
    enter, leave, launches = _launch_spy()
    calls = _TorchCalls()
    enter()
    try:
        with torch.no_grad(), calls:
            call()
    finally:
        leave()
    outside = {n: c for n, c in calls.names.items() if n not in ALLOWED_TORCH}
    ctx.expect(launches is None or launches[0] >= 1,
               "no Triton kernel was launched (kernel[grid](...))")
    ctx.expect(not outside, "torch computed part of the result outside your kernels: " +
               ", ".join(f"{n} x{c}" for n, c in sorted(outside.items())) +
               " (the wrapper may only allocate, reshape and launch)", torch_calls=outside)
    return {"launches": launches and launches[0], "torch_calls": sorted(calls.names)}


def _bench_ms(fn):
    try:
        from triton.testing import do_bench
        return float(do_bench(fn))
    except Exception:  # older triton without do_bench's defaults: time with CUDA events
        fn()
        torch.cuda.synchronize()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(20):
            fn()
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end) / 20


def _peak_gbps():
    """DRAM bandwidth from the memory clock and bus width (double data rate), if known."""
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    clock_khz = getattr(props, "memory_clock_rate", 0)
    width = getattr(props, "memory_bus_width", 0)
    return 2 * clock_khz * 1e3 * width / 8 / 1e9 if clock_khz and width else None


def _peak_tflops():
    name = torch.cuda.get_device_name()
    return next((v for key, v in DATASHEET_TFLOPS if key in name), None)
# --- end of the shared preamble ----------------------------------------------------------


FN = "triton_flash_attention"


def _qkv(ctx, b, h, s, d, seed=0, dtype=torch.float32, q_scale=1.0):
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(b, h, s, d, generator=g) for _ in range(3))
    return (q * q_scale).to(ctx.device, dtype), k.to(ctx.device, dtype), v.to(ctx.device, dtype)


def _expected(q, k, v, causal):
    qd, kd, vd = (t.double() for t in (q, k, v))
    scores = qd @ kd.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if causal:
        s = q.shape[-2]
        future = torch.ones(s, s, dtype=torch.bool, device=q.device).triu(1)
        scores = scores.masked_fill(future, float("-inf"))
    return scores.softmax(-1) @ vd, scores.logsumexp(-1)


def _attend(ctx, q, k, v, causal):
    with torch.no_grad():
        res = ctx.get(FN)(q, k, v, causal=causal)
    if not (isinstance(res, tuple) and len(res) == 2):
        raise CheckFailed(f"{FN} returned {type(res).__name__}, expected (o, lse)")
    o, lse = res
    if o.shape != q.shape or tuple(lse.shape) != tuple(q.shape[:-1]):
        raise CheckFailed(f"shapes: o {tuple(o.shape)}, lse {tuple(lse.shape)}; expected "
                          f"{tuple(q.shape)} and {tuple(q.shape[:-1])}")
    return o, lse


def _tol(ctx, dtype):
    if dtype == torch.float32:
        return (1e-2, 1e-2) if ctx.is_cuda else (1e-4, 1e-4)  # TF32 dots on CUDA
    return (2e-2, 2e-2)


def _compare(got, want, what, rtol, atol):
    bad = tensor_mismatch(got, want, rtol=rtol, atol=atol)
    if bad is not None:
        raise CheckFailed(f"{what}: {bad.get('mismatches')} element(s) differ, max abs err "
                          f"{bad['max_abs_err']:.3g}, first at {tuple(bad['first_mismatch'])} "
                          f"({bad['actual_at']:.6g} vs {bad['expected_at']:.6g})", **bad)
    return float((got.double() - want).abs().max())


@drill_check("runs_in_triton",
             "triton_flash_attention launches a Triton kernel and computes nothing with torch "
             "(no matmul, softmax or SDPA in the wrapper)")
def check_runs_in_triton(ctx):
    q, k, v = _qkv(ctx, 1, 1, 32, 16)
    return _runs_in_triton(ctx, lambda: ctx.get(FN)(q, k, v, causal=True))


@drill_check("matches_sdpa",
             "o equals softmax(q kᵀ/√D) v for (1, 1, 64, 32) and (2, 1, 40, 16), causal and not")
def check_matches(ctx):
    errs = {}
    rtol, atol = _tol(ctx, torch.float32)
    for shape in ((1, 1, 64, 32), (2, 1, 40, 16)):
        q, k, v = _qkv(ctx, *shape, seed=1)
        for causal in (False, True):
            o, _ = _attend(ctx, q, k, v, causal)
            ctx.expect(o.dtype == q.dtype, f"o has dtype {o.dtype}, q {q.dtype}")
            want, _ = _expected(q, k, v, causal)
            errs[f"{shape} causal={causal}"] = _compare(o, want, f"{shape}, causal={causal}",
                                                        rtol, atol)
    return {"max_abs_err": errs}


@drill_check("logsumexp",
             "lse is float32 and equals logsumexp of the scaled scores over the visible keys "
             "(natural log, not log2)")
def check_lse(ctx):
    errs = {}
    for causal in (False, True):
        q, k, v = _qkv(ctx, 1, 1, 48, 32, seed=2)
        _, lse = _attend(ctx, q, k, v, causal)
        ctx.expect(lse.dtype == torch.float32, f"lse dtype {lse.dtype}, expected float32")
        _, want = _expected(q, k, v, causal)
        diff = float((lse.double() - want).abs().max())
        if diff > (2e-2 if ctx.is_cuda else 1e-4):
            ratio = float((lse.double() / want).median())
            hint = (" (it looks like log base 2: natural log = log2 · ln 2)"
                    if abs(ratio - 1 / math.log(2)) < 0.05 else "")
            raise CheckFailed(f"causal={causal}: lse differs from logsumexp by up to "
                              f"{diff:.3g}{hint}", max_abs_err=diff, median_ratio=ratio)
        errs[f"causal={causal}"] = diff
    return {"max_abs_err": errs}


@drill_check("ragged_sequence",
             "S = 37 and S = 5 (not multiples of any block): out-of-range keys must be masked "
             "out, causal and not")
def check_ragged(ctx):
    errs = {}
    rtol, atol = _tol(ctx, torch.float32)
    for s in (37, 5):
        q, k, v = _qkv(ctx, 1, 1, s, 16, seed=3)
        for causal in (False, True):
            o, lse = _attend(ctx, q, k, v, causal)
            want_o, want_lse = _expected(q, k, v, causal)
            what = f"S={s}, causal={causal}"
            errs[what] = _compare(o, want_o, what, rtol, atol)
            _compare(lse, want_lse, what + " (lse)", rtol, atol)
    return {"max_abs_err": errs}


# Longer than 2 × the largest block the stem allows (128), and no multiple of any block: every
# allowed tiling runs at least three key blocks and three query blocks, the last one ragged.
LONG_SHAPES = ((1, 1, 300, 16), (1, 1, 257, 32))
MAX_BLOCK = 128


def _long_mismatch(ctx, inputs, causal):
    """(o, message of the first mismatch) on a long sequence; message None when it matches."""
    rtol, atol = _tol(ctx, torch.float32)
    q, k, v = inputs
    o, lse = _attend(ctx, q, k, v, causal)
    want_o, want_lse = _expected(q, k, v, causal)
    what = f"{tuple(q.shape)}, causal={causal}"
    for label, got, want in (("o", o, want_o), ("lse", lse, want_lse)):
        try:
            _compare(got, want, f"{what} ({label})", rtol, atol)
        except CheckFailed as exc:
            return o, str(exc)
    return o, None


def _order_dependent(ctx, inputs, o):
    """max |o(keys, values reversed together) − o|, or None: attention without a mask does
    not depend on the order of the keys; an online softmax that skips the rescaling does."""
    q, k, v = inputs
    o_flipped, _ = _attend(ctx, q, k.flip(-2), v.flip(-2), False)
    rtol, atol = _tol(ctx, torch.float32)
    bad = tensor_mismatch(o_flipped, o, rtol=rtol, atol=atol)
    return None if bad is None else bad["max_abs_err"]


def _visible_keys(ctx, shape):
    """Keys each query sees under causal=True, read from lse with every score 0 (lse = log of
    the number of visible keys): (first query with a wrong count, its count), or None."""
    b, h, s, d = shape
    q = torch.zeros(b, h, s, d, device=ctx.device)
    k = torch.randn(b, h, s, d, generator=torch.Generator().manual_seed(9)).to(ctx.device)
    _, lse = _attend(ctx, q, k, k, True)
    seen = lse.double().exp().cpu().reshape(-1, s)[0]
    if not bool(torch.isfinite(seen).all()) or float((seen - seen.round()).abs().max()) > 1e-3:
        return "unreadable"
    wrong = (seen.round() != torch.arange(1, s + 1, dtype=torch.float64)).nonzero()
    if not len(wrong):
        return None
    i = int(wrong[0, 0])
    return i, int(seen[i].round())


@drill_check("rescale_across_key_blocks",
             "S = 300 (over 2 × 128, so several key blocks for every allowed block size), not "
             "causal: when a later key block raises a row's running max, acc and the running "
             "sum are rescaled by exp(m_old − m_new), so o does not depend on the key order")
def check_rescale(ctx):
    shape = LONG_SHAPES[0]
    inputs = _qkv(ctx, *shape, seed=20)
    o, message = _long_mismatch(ctx, inputs, False)
    if message is None:
        return {"shape": list(shape), "message": f"{shape} matches, several key blocks"}
    shift = _order_dependent(ctx, inputs, o)
    if shift is not None:
        raise CheckFailed(
            f"{message}. The output also depends on the order of the keys (reversing keys and "
            f"values together changed o by up to {shift:.3g}; attention does not): are acc "
            "and the running sum rescaled by exp(m_old − m_new) when a later key block raises "
            "a row's running max?", shape=list(shape), order_shift=shift)
    raise CheckFailed(f"{message} (a sequence of several key blocks, longer than "
                      f"2 × {MAX_BLOCK})", shape=list(shape))


@drill_check("causal_across_key_blocks",
             "S = 300 and S = 257, causal: in every query block (not only the first) query i "
             "sees exactly the keys j <= i: the mask compares absolute positions (a key "
             "block's start plus the offset in it, against the query's), not offsets within "
             "a block")
def check_causal_blocks(ctx):
    for seed, shape in enumerate(LONG_SHAPES, start=30):
        _, message = _long_mismatch(ctx, _qkv(ctx, *shape, seed=seed), True)
        if message is None:
            continue
        counts = _visible_keys(ctx, shape)
        if isinstance(counts, tuple):
            i, n = counts
            side = ("later keys are visible: the future leaks in" if n > i + 1 else
                    "earlier keys are masked out")
            raise CheckFailed(
                f"{message}. With every score 0 (lse = log of the number of visible keys) "
                f"query {i} saw {n} keys, not {i + 1}: {side}. The causal mask must compare "
                "absolute positions (e.g. key start_n + offs_n against the query's "
                "start_m·BLOCK_M + offs_m), not offsets within a block", shape=list(shape),
                query=i, visible_keys=n)
        if counts is None:
            raise CheckFailed(f"{message}. Every query sees the right keys (read from lse with "
                              "all scores 0), so the mask holds; the error is elsewhere (see "
                              "rescale_across_key_blocks)", shape=list(shape))
        raise CheckFailed(message, shape=list(shape))
    return {"shapes": [list(s) for s in LONG_SHAPES]}


@drill_check("large_scores",
             "q scaled by 20 (scores near ±100, past fp32 exp's range): finite and correct")
def check_large(ctx):
    q, k, v = _qkv(ctx, 1, 1, 40, 32, seed=4, q_scale=20.0)
    rtol, atol = _tol(ctx, torch.float32)
    for causal in (False, True):
        o, lse = _attend(ctx, q, k, v, causal)
        ctx.expect(bool(torch.isfinite(o).all() and torch.isfinite(lse).all()),
                   f"causal={causal}: non-finite outputs for large scores (subtract the running "
                   f"max before exp)")
        want_o, _ = _expected(q, k, v, causal)
        _compare(o, want_o, f"large scores, causal={causal}", rtol, atol)
    return {"message": "stable for large scores"}


@drill_check("strided_inputs",
             "q, k, v laid out as (B, S, H, D) and passed as .transpose(1, 2) views (not "
             "contiguous): use their strides, or make them contiguous")
def check_strided(ctx):
    g = torch.Generator().manual_seed(5)
    q, k, v = (torch.randn(1, 24, 2, 16, generator=g).to(ctx.device).transpose(1, 2)
               for _ in range(3))
    rtol, atol = _tol(ctx, torch.float32)
    o, lse = _attend(ctx, q, k, v, causal=True)
    want_o, want_lse = _expected(q, k, v, True)
    err = _compare(o, want_o, "(B, S, H, D).transpose(1, 2) inputs", rtol, atol)
    _compare(lse, want_lse, "(B, S, H, D).transpose(1, 2) inputs (lse)", rtol, atol)
    return {"max_abs_err": err, "q_strides": list(q.stride())}


@drill_check("half_precision",
             "float16 inputs give float16 o (float32 lse) close to the float64 result; bf16 "
             "too on CUDA")
def check_half(ctx):
    errs = {}
    for dtype in [torch.float16] + ([torch.bfloat16] if ctx.is_cuda else []):
        q, k, v = _qkv(ctx, 1, 1, 32, 16, seed=6, dtype=dtype)
        o, lse = _attend(ctx, q, k, v, causal=True)
        ctx.expect(o.dtype == dtype and lse.dtype == torch.float32,
                   f"{dtype} inputs gave o {o.dtype}, lse {lse.dtype}")
        want_o, _ = _expected(q, k, v, True)
        errs[str(dtype)] = _compare(o, want_o, str(dtype), *_tol(ctx, dtype))
    return {"max_abs_err": errs}


@drill_check("tflops", "CUDA only: TFLOP/s of (4, 16, 2048, 64) fp16, non-causal (4·B·H·S²·D "
             "FLOPs) against SDPA in the same run and the datasheet dense fp16 peak; passes "
             "at >= 30% of SDPA", required=False, cuda_only=True)
def check_tflops(ctx):
    ctx.expect(not _interpreted(), "the kernels are interpreted, not compiled: unset "
                                   "TRITON_INTERPRET and restart the kernel")
    b, h, s, d = 4, 16, 2048, 64
    q, k, v = (torch.randn(b, h, s, d, device=ctx.device, dtype=torch.float16)
               for _ in range(3))
    fn = ctx.get(FN)
    flops = 4 * b * h * s * s * d
    ours = flops / (_bench_ms(lambda: fn(q, k, v, causal=False)) * 1e-3) / 1e12
    sdpa = flops / (_bench_ms(lambda: F.scaled_dot_product_attention(q, k, v)) * 1e-3) / 1e12
    peak = _peak_tflops()
    details = {"TFLOP_per_s": round(ours, 1), "sdpa_TFLOP_per_s": round(sdpa, 1),
               "datasheet_peak_TFLOP_per_s": peak,
               "fraction_of_peak": peak and round(ours / peak, 3),
               "device": torch.cuda.get_device_name()}
    ctx.expect(ours >= 0.3 * sdpa, f"{ours:.0f} TFLOP/s, under 30% of SDPA's {sdpa:.0f}",
               **details)
    details["message"] = (f"{ours:.0f} TFLOP/s ({ours / sdpa:.2f}x SDPA" +
                          (f", {ours / peak:.0%} of the {peak:.0f} TFLOP/s datasheet peak)"
                           if peak else ")"))
    return details
