"""Checks for drills/10: a fused row-softmax kernel in Triton.

Contract: ``triton_softmax(x)`` for x (M, N) with unit column stride and any row stride
returns softmax over the last dimension in x's dtype, computed in Triton kernels (the
wrapper only allocates, reshapes and launches). Rows per program, block size, one pass or
an online loop over column chunks, num_warps: the learner's choice.

On CPU the kernels run in Triton's interpreter: correctness on small shapes only. On CUDA
a non-required check reports the achieved bandwidth against torch.softmax and the
device's peak.
"""
import os
import sys

import torch
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


FN = "triton_softmax"


def _x(ctx, rows, cols, seed=0, dtype=torch.float32, scale=3.0):
    g = torch.Generator().manual_seed(seed)
    return (scale * torch.randn(rows, cols, generator=g)).to(ctx.device, dtype)


def _softmax(ctx, x):
    with torch.no_grad():
        y = ctx.get(FN)(x)
    if not isinstance(y, torch.Tensor) or y.shape != x.shape:
        raise CheckFailed(f"{FN} returned {getattr(y, 'shape', type(y).__name__)} for x of shape "
                          f"{tuple(x.shape)}")
    return y


def _compare(y, x, what, rtol=1e-5, atol=1e-6):
    want = x.double().softmax(-1)
    bad = tensor_mismatch(y, want, rtol=rtol, atol=atol)
    if bad is not None:
        raise CheckFailed(f"{what}: {bad.get('mismatches')} element(s) differ from softmax, max "
                          f"abs err {bad['max_abs_err']:.3g}, first at "
                          f"{tuple(bad['first_mismatch'])} ({bad['actual_at']:.6g} vs "
                          f"{bad['expected_at']:.6g})", **bad)
    return float((y.double() - want).abs().max())


@drill_check("runs_in_triton",
             "triton_softmax launches a Triton kernel and computes nothing with torch")
def check_runs_in_triton(ctx):
    x = _x(ctx, 4, 50)
    return _runs_in_triton(ctx, lambda: ctx.get(FN)(x))


@drill_check("matches_torch_softmax",
             "equals softmax over the last dim for (1, 1), (5, 33), (16, 100), (3, 128) and "
             "(2, 1000): widths that are not powers of two need masked lanes")
def check_matches(ctx):
    errs = {}
    for i, (rows, cols) in enumerate([(1, 1), (5, 33), (16, 100), (3, 128), (2, 1000)]):
        x = _x(ctx, rows, cols, seed=i, scale=-3.0 if i == 2 else 3.0)
        errs[f"{rows}x{cols}"] = _compare(_softmax(ctx, x), x, f"shape ({rows}, {cols})")
    return {"max_abs_err": errs}


@drill_check("strided_rows",
             "rows of a column slice (x = big[:, 3:103] of a (6, 120) tensor: row stride 120) "
             "are read with their own stride")
def check_strided(ctx):
    big = _x(ctx, 6, 120, seed=10)
    x = big[:, 3:103]
    err = _compare(_softmax(ctx, x), x, "x = big[:, 3:103] (row stride 120, width 100)")
    return {"row_stride": x.stride(0), "max_abs_err": err}


@drill_check("large_and_infinite_values",
             "values of ±1e4 and -inf entries: finite, -inf gets probability 0, rows sum to 1 "
             "(subtract the row maximum first)")
def check_extreme(ctx):
    x = _x(ctx, 4, 70, seed=11)
    x[0, 5] = 1e4
    x[1, :] = -1e4
    x[1, 7] = 3e3
    x[2, ::3] = float("-inf")
    x[3, :60] = float("-inf")
    y = _softmax(ctx, x)
    ctx.expect(bool(torch.isfinite(y).all()), f"{int((~torch.isfinite(y)).sum())} non-finite "
               f"outputs for values of ±1e4 / -inf: exp overflows unless the row max is "
               f"subtracted first")
    ctx.expect(bool((y[2, ::3] == 0).all()), "-inf inputs must give probability 0")
    return {"max_abs_err": _compare(y, x, "±1e4 and -inf values")}


@drill_check("dtype_preserved",
             "float16 input gives float16 output close to the float64 softmax (bf16 too on "
             "CUDA)")
def check_dtype(ctx):
    errs = {}
    for dtype in [torch.float16] + ([torch.bfloat16] if ctx.is_cuda else []):
        x = _x(ctx, 8, 96, seed=12, dtype=dtype)
        y = _softmax(ctx, x)
        ctx.expect(y.dtype == dtype, f"{dtype} input gave a {y.dtype} output")
        errs[str(dtype)] = _compare(y, x, str(dtype), rtol=1e-2, atol=2e-3)
    return {"max_abs_err": errs}


@drill_check("bandwidth", "CUDA only: achieved GB/s on (8192, 4096) fp32 against torch.softmax "
             "in the same run and the device's DRAM peak; passes at >= 50% of torch",
             required=False, cuda_only=True)
def check_bandwidth(ctx):
    ctx.expect(not _interpreted(), "the kernels are interpreted, not compiled: unset "
                                   "TRITON_INTERPRET and restart the kernel")
    x = torch.randn(8192, 4096, device=ctx.device)
    fn = ctx.get(FN)
    moved = 2 * x.numel() * x.element_size()  # read x once, write y once
    ours = moved / (_bench_ms(lambda: fn(x)) * 1e-3) / 1e9
    torch_gbps = moved / (_bench_ms(lambda: torch.softmax(x, dim=-1)) * 1e-3) / 1e9
    peak = _peak_gbps()
    details = {"GB_per_s": round(ours, 1), "torch_GB_per_s": round(torch_gbps, 1),
               "peak_GB_per_s": peak and round(peak, 1),
               "fraction_of_peak": peak and round(ours / peak, 3),
               "device": torch.cuda.get_device_name()}
    ctx.expect(ours >= 0.5 * torch_gbps, f"{ours:.0f} GB/s, under half of torch.softmax's "
               f"{torch_gbps:.0f} GB/s", **details)
    details["message"] = (f"{ours:.0f} GB/s ({ours / torch_gbps:.2f}x torch.softmax" +
                          (f", {ours / peak:.0%} of the {peak:.0f} GB/s peak)" if peak else ")"))
    return details
