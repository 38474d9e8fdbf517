"""Checks for drills/11: a fused RMSNorm forward kernel in Triton.

Contract: ``triton_rms_norm(x, weight, eps=1e-6)`` for x (..., N) with unit last-dim stride
returns x / sqrt(mean(x², -1) + eps) * weight in x's dtype, the mean of squares accumulated
in float32, all arithmetic in Triton kernels. Rows per program, one block or a loop over
column chunks, num_warps: the learner's choice.

On CPU the kernels run in Triton's interpreter: correctness on small shapes only. On CUDA
a non-required check reports the achieved bandwidth against a torch implementation and the
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


FN = "triton_rms_norm"


def _inputs(ctx, shape, seed=0, dtype=torch.float32, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    x = (scale * torch.randn(*shape, generator=g)).to(ctx.device, dtype)
    w = (1 + 0.5 * torch.randn(shape[-1], generator=g)).to(ctx.device, dtype)
    return x, w


def _expected(x, w, eps):
    xd = x.double()
    return xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + eps) * w.double()


def _norm(ctx, x, w, eps=1e-6):
    with torch.no_grad():
        y = ctx.get(FN)(x, w, eps)
    if not isinstance(y, torch.Tensor) or y.shape != x.shape:
        raise CheckFailed(f"{FN} returned {getattr(y, 'shape', type(y).__name__)} for x of shape "
                          f"{tuple(x.shape)}")
    return y


def _compare(y, want, what, rtol=1e-5, atol=1e-5):
    bad = tensor_mismatch(y, want, rtol=rtol, atol=atol)
    if bad is not None:
        raise CheckFailed(f"{what}: {bad.get('mismatches')} element(s) differ, max abs err "
                          f"{bad['max_abs_err']:.3g}, first at {tuple(bad['first_mismatch'])} "
                          f"({bad['actual_at']:.6g} vs {bad['expected_at']:.6g})", **bad)
    return float((y.double() - want).abs().max())


@drill_check("runs_in_triton",
             "triton_rms_norm launches a Triton kernel and computes nothing with torch")
def check_runs_in_triton(ctx):
    x, w = _inputs(ctx, (4, 48))
    return _runs_in_triton(ctx, lambda: ctx.get(FN)(x, w, 1e-6))


@drill_check("matches_reference",
             "equals x·rsqrt(mean(x²) + eps)·weight (float64) for (4, 64), (7, 100), "
             "(2, 3, 48), (1, 1000); eps 1e-6 and 1e-2")
def check_matches(ctx):
    errs = {}
    for i, shape in enumerate([(4, 64), (7, 100), (2, 3, 48), (1, 1000)]):
        for eps in (1e-6, 1e-2):
            x, w = _inputs(ctx, shape, seed=i, scale=0.3)
            y = _norm(ctx, x, w, eps)
            errs[f"{shape} eps={eps}"] = _compare(y, _expected(x, w, eps),
                                                  f"shape {shape}, eps={eps}")
    return {"max_abs_err": errs}


@drill_check("strided_rows",
             "a (5, 100) column slice of a (5, 130) tensor (row stride 130) and a 3-D input "
             "whose leading dims are permuted")
def check_strided(ctx):
    big, w = _inputs(ctx, (5, 130), seed=5)
    x = big[:, 10:110]
    w = w[:100].contiguous()
    err = _compare(_norm(ctx, x, w), _expected(x, w, 1e-6), "x = big[:, 10:110]")
    x3, w3 = _inputs(ctx, (3, 4, 40), seed=6)
    x3 = x3.transpose(0, 1)  # (4, 3, 40), last dim still contiguous
    _compare(_norm(ctx, x3, w3), _expected(x3, w3, 1e-6), "x (3, 4, 40).transpose(0, 1)")
    return {"max_abs_err": err}


@drill_check("eps_inside_sqrt",
             "rows of ±1e-4 (mean of squares 1e-8 << eps 1e-6) give |y| ≈ 0.0995·|w|; an "
             "all-zero row gives 0")
def check_eps(ctx):
    x = torch.full((3, 40), 1e-4, device=ctx.device)
    x[1] = -1e-4
    x[2] = 0.0
    w = torch.ones(40, device=ctx.device)
    y = _norm(ctx, x, w)
    ctx.expect(bool(torch.isfinite(y).all()), "non-finite output for an all-zero row")
    err = _compare(y, _expected(x, w, 1e-6), "rows of ±1e-4 with eps=1e-6 (expected 1e-4 / "
                   "sqrt(1e-8 + 1e-6) ≈ 0.0995)", rtol=1e-4, atol=1e-6)
    return {"y_row0": float(y[0, 0]), "max_abs_err": err}


@drill_check("half_precision",
             "fp16 input with values up to a few hundred (squares overflow fp16's 65504): fp16 "
             "output close to the float64 result (accumulate in float32); bf16 too on CUDA")
def check_half(ctx):
    errs = {}
    for dtype in [torch.float16] + ([torch.bfloat16] if ctx.is_cuda else []):
        x, w = _inputs(ctx, (4, 64), seed=7, dtype=dtype, scale=150.0)
        y = _norm(ctx, x, w)
        ctx.expect(y.dtype == dtype, f"{dtype} input gave a {y.dtype} output")
        ctx.expect(bool(torch.isfinite(y).all()),
                   f"{dtype}: non-finite outputs for values up to "
                   f"{float(x.float().abs().max()):.0f}: accumulate x² in float32")
        errs[str(dtype)] = _compare(y, _expected(x, w, 1e-6), str(dtype), rtol=2e-2, atol=2e-2)
    return {"max_abs_err": errs}


@drill_check("bandwidth", "CUDA only: achieved GB/s on (8192, 4096) fp16 against a torch "
             "implementation in the same run and the device's DRAM peak; passes at >= 50% of "
             "torch", required=False, cuda_only=True)
def check_bandwidth(ctx):
    ctx.expect(not _interpreted(), "the kernels are interpreted, not compiled: unset "
                                   "TRITON_INTERPRET and restart the kernel")
    x = torch.randn(8192, 4096, device=ctx.device, dtype=torch.float16)
    w = torch.randn(4096, device=ctx.device, dtype=torch.float16)
    fn = ctx.get(FN)
    if hasattr(torch.nn.functional, "rms_norm"):
        def baseline():
            return torch.nn.functional.rms_norm(x, (4096,), w, 1e-6)
    else:
        def baseline():
            xf = x.float()
            return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)).half() * w
    moved = 2 * x.numel() * x.element_size() + w.numel() * w.element_size()
    ours = moved / (_bench_ms(lambda: fn(x, w, 1e-6)) * 1e-3) / 1e9
    torch_gbps = moved / (_bench_ms(baseline) * 1e-3) / 1e9
    peak = _peak_gbps()
    details = {"GB_per_s": round(ours, 1), "torch_GB_per_s": round(torch_gbps, 1),
               "peak_GB_per_s": peak and round(peak, 1),
               "fraction_of_peak": peak and round(ours / peak, 3),
               "device": torch.cuda.get_device_name()}
    ctx.expect(ours >= 0.5 * torch_gbps, f"{ours:.0f} GB/s, under half of torch's "
               f"{torch_gbps:.0f} GB/s", **details)
    details["message"] = (f"{ours:.0f} GB/s ({ours / torch_gbps:.2f}x torch" +
                          (f", {ours / peak:.0%} of the {peak:.0f} GB/s peak)" if peak else ")"))
    return details
