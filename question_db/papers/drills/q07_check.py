"""Checks for drills/7: FlashAttention-2 forward in plain PyTorch.

Contract: ``flash_attention_forward(q, k, v, causal=False, block_q=64, block_k=64)`` ->
(o, lse) for (B, H, S, D) inputs; o equals SDPA, lse is the natural log-sum-exp of the
scaled scores; tiles of block_q x block_k, online softmax, never an S x S tensor, no SDPA or
flash_attn. Loop order (FlashAttention-1's keys-outer or -2's queries-outer), where the
scale is applied, exp vs exp2 and skipping blocks above the diagonal are the learner's
choice; skipping is measured by a non-required check.

Memory on CPU is traced through torch's function-mode hook: every tensor a torch call
returns inside the learner's function is recorded (size, and bytes alive at once); on
CUDA the allocator's peak is read as well.
"""
import math
import re
import weakref

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

from _examdesk_harness import CheckFailed, check, tensor_mismatch

FN = "flash_attention_forward"
MATMULS = {"matmul", "__matmul__", "__rmatmul__", "bmm", "mm", "baddbmm", "addmm", "einsum"}


def _qkv(ctx, b, h, s, d, seed=0, dtype=torch.float32, q_scale=1.0):
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(b, h, s, d, generator=g) for _ in range(3))
    return [(t * (q_scale if i == 0 else 1.0)).to(ctx.device, dtype) for i, t in enumerate((q, k, v))]


def _expected(q, k, v, causal):
    qd, kd, vd = (t.double() for t in (q, k, v))
    scores = qd @ kd.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if causal:
        s = q.shape[-2]
        scores = scores.masked_fill(torch.ones(s, s, dtype=torch.bool, device=q.device).triu(1),
                                    float("-inf"))
    return scores.softmax(-1) @ vd, scores.logsumexp(-1)


def _call(ctx, q, k, v, **kw):
    with torch.no_grad():
        res = ctx.get(FN)(q, k, v, **kw)
    if not (isinstance(res, tuple) and len(res) == 2):
        raise CheckFailed(f"{FN} returned {type(res).__name__}, expected (o, lse)")
    o, lse = res
    if o.shape != q.shape or tuple(lse.shape) != tuple(q.shape[:-1]):
        raise CheckFailed(f"shapes: o {tuple(o.shape)}, lse {tuple(lse.shape)}; expected "
                          f"{tuple(q.shape)} and {tuple(q.shape[:-1])}")
    return o, lse


def _compare(got, want, what, rtol, atol):
    bad = tensor_mismatch(got, want, rtol=rtol, atol=atol)
    if bad is not None:
        raise CheckFailed(f"{what}: {bad.get('mismatches')} element(s) differ, max abs err "
                          f"{bad['max_abs_err']:.3g}, first at {tuple(bad['first_mismatch'])} "
                          f"({bad['actual_at']:.6g} vs {bad['expected_at']:.6g})", **bad)
    return float((got.double() - want).abs().max())


@check("matches_sdpa",
       "o equals softmax(q kᵀ/√D) v for (2, 3, 100, 32) and (1, 2, 64, 16), causal and not, "
       "default blocks; dtype of q kept (fp32; bf16 on CUDA)")
def check_matches(ctx):
    errs = {}
    for dtype in ctx.dtypes:
        rtol, atol = ctx.tol(dtype)
        for shape in ((2, 3, 100, 32), (1, 2, 64, 16)):
            q, k, v = _qkv(ctx, *shape, dtype=dtype)
            for causal in (False, True):
                o, _ = _call(ctx, q, k, v, causal=causal)
                ctx.expect(o.dtype == dtype, f"{dtype} inputs gave o of dtype {o.dtype}")
                want, _ = _expected(q, k, v, causal)
                errs[f"{shape} causal={causal} {dtype}"] = _compare(
                    o, want, f"{shape}, causal={causal}, {dtype}", rtol, atol * 10)
    return {"max_abs_err": errs}


@check("logsumexp",
       "lse is float32 and equals logsumexp(q kᵀ/√D) over the visible keys (natural log)")
def check_lse(ctx):
    errs = {}
    for causal in (False, True):
        q, k, v = _qkv(ctx, 2, 2, 80, 32, seed=1)
        _, lse = _call(ctx, q, k, v, causal=causal)
        ctx.expect(lse.dtype == torch.float32, f"lse dtype {lse.dtype}, expected float32")
        _, want = _expected(q, k, v, causal)
        diff = (lse.double() - want).abs().max()
        if float(diff) > 1e-4:
            ratio = float((lse.double() / want).median())
            hint = (" (looks like log base 2: multiply by ln 2)"
                    if abs(ratio - 1 / math.log(2)) < 0.05 else
                    " (the running max m is missing: lse = m + log l)"
                    if float((want - lse.double()).std()) > 1e-2 else "")
            raise CheckFailed(f"causal={causal}: lse differs from logsumexp by up to "
                              f"{float(diff):.3g}{hint}", max_abs_err=float(diff))
        errs[f"causal={causal}"] = float(diff)
    return {"max_abs_err": errs}


@check("ragged_blocks",
       "S = 50 with block_q=16, block_k=8 and block_q=32, block_k=16 (the last tiles are "
       "partial), causal and not")
def check_ragged(ctx):
    q, k, v = _qkv(ctx, 1, 2, 50, 16, seed=2)
    errs = {}
    for bq, bk in ((16, 8), (32, 16)):
        for causal in (False, True):
            o, lse = _call(ctx, q, k, v, causal=causal, block_q=bq, block_k=bk)
            want_o, want_lse = _expected(q, k, v, causal)
            what = f"S=50, block_q={bq}, block_k={bk}, causal={causal}"
            errs[what] = _compare(o, want_o, what, 1e-4, 1e-4)
            _compare(lse, want_lse, what + " (lse)", 1e-4, 1e-4)
    return {"max_abs_err": errs}


@check("large_scores",
       "q scaled by 40 (scores in the hundreds, fp32 exp overflows past 88): finite and equal "
       "to the reference (the running max keeps exp's argument <= 0)")
def check_large(ctx):
    q, k, v = _qkv(ctx, 1, 2, 96, 32, seed=3, q_scale=40.0)
    for causal in (False, True):
        o, lse = _call(ctx, q, k, v, causal=causal, block_q=32, block_k=32)
        ctx.expect(bool(torch.isfinite(o).all() and torch.isfinite(lse).all()),
                   f"causal={causal}: non-finite outputs for scores up to "
                   f"{float((q @ k.transpose(-1, -2)).abs().max() / math.sqrt(32)):.0f}")
        want_o, want_lse = _expected(q, k, v, causal)
        _compare(o, want_o, f"large scores, causal={causal}", 1e-4, 1e-4)
        _compare(lse, want_lse, f"large scores, causal={causal} (lse)", 1e-5, 1e-3)
    return {"message": "stable for scores in the hundreds"}


class _Trace(TorchFunctionMode):
    """Records what torch calls return: largest tensor, bytes alive at once, matmul FLOPs."""

    def __init__(self, inputs):
        super().__init__()
        self.external = {t.untyped_storage().data_ptr() for t in inputs}
        self.live = {}
        self.current = self.peak = self.largest = 0
        self.flops = 0
        self.names = set()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        name = getattr(func, "__name__", str(func))
        self.names.add(name)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        for t in outs:
            if isinstance(t, torch.Tensor):
                self._track(t)
        if name in MATMULS and isinstance(out, torch.Tensor):
            self.flops += _matmul_flops(name, args, out)
        return out

    def _track(self, t):
        self.largest = max(self.largest, t.numel())
        storage = t.untyped_storage()
        ptr = storage.data_ptr()
        if ptr in self.external or ptr == 0:
            return
        if ptr in self.live:
            self.live[ptr][0] += 1
        else:
            self.live[ptr] = [1, storage.nbytes()]
            self.current += storage.nbytes()
            self.peak = max(self.peak, self.current)
        weakref.finalize(t, self._release, ptr)

    def _release(self, ptr):
        entry = self.live.get(ptr)
        if entry is None:
            return
        entry[0] -= 1
        if entry[0] == 0:
            self.current -= entry[1]
            del self.live[ptr]


def _matmul_flops(name, args, out):
    tensors = [a for a in args if isinstance(a, torch.Tensor)]
    if name == "einsum":
        spec = args[0] if isinstance(args[0], str) else ""
        ops = tensors if tensors else [t for t in args[1] if isinstance(t, torch.Tensor)]
        sizes = {}
        for letters, t in zip(spec.split("->")[0].split(","), ops):
            for letter, n in zip(letters.strip(), t.shape):
                sizes[letter] = n
        return 2 * math.prod(sizes.values()) if sizes else 0
    if name in ("baddbmm", "addmm"):
        tensors = tensors[1:]
    if len(tensors) < 2:
        return 0
    return 2 * out.numel() * tensors[0].shape[-1]


def _traced(ctx, q, k, v, **kw):
    trace = _Trace([q, k, v])
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # hundreds of tiny tile matmuls: thread hand-offs cost more
    try:
        with torch.no_grad(), trace:
            ctx.get(FN)(q, k, v, **kw)
    finally:
        torch.set_num_threads(threads)
    return trace


@check("never_materialises_scores",
       "S = 1024, D = 32, default blocks: no tensor of S²/4 or more elements is created and "
       "the intermediates alive at once stay under S²·4 bytes / 4 (1 MiB; the full fp32 score "
       "matrix is 4 MiB); on CUDA the allocator's peak is checked too")
def check_memory(ctx):
    s = 1024
    q, k, v = _qkv(ctx, 1, 1, s, 32, seed=4)
    if ctx.is_cuda:
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.memory_allocated()
    trace = _traced(ctx, q, k, v)
    details = {"largest_elements": trace.largest, "peak_live_MiB": round(trace.peak / 2**20, 3),
               "full_scores_MiB": s * s * 4 / 2**20}
    if ctx.is_cuda:
        torch.cuda.synchronize()
        extra = torch.cuda.max_memory_allocated() - before
        details["cuda_peak_extra_MiB"] = round(extra / 2**20, 3)
        ctx.expect(extra < s * s * 4 / 4, f"CUDA peak grew by {extra / 2**20:.2f} MiB while "
                   f"the full score matrix is {s * s * 4 / 2**20:.0f} MiB", **details)
    ctx.expect(trace.largest < s * s // 4,
               f"a tensor of {trace.largest} elements was created (S² = {s * s}): the S x S "
               f"score matrix (or a large part of it) was materialised", **details)
    ctx.expect(trace.peak < s * s * 4 / 4,
               f"intermediates alive at once reached {trace.peak / 2**20:.2f} MiB (full scores: "
               f"{s * s * 4 / 2**20:.0f} MiB)", **details)
    return details


@check("written_by_hand",
       "no F.scaled_dot_product_attention, flash_attn or other ready-made attention")
def check_by_hand(ctx):
    q, k, v = _qkv(ctx, 1, 2, 64, 16, seed=5)
    trace = _traced(ctx, q, k, v, causal=True)
    used = sorted(n for n in trace.names if "scaled_dot_product" in n or "attention" in n)
    code = re.sub(r"#.*", "", ctx.source or "")
    if re.search(r"^\s*(from|import)\s+(flash_attn|xformers)\b", code, flags=re.M):
        used.append("flash_attn/xformers import")
    ctx.expect(not used, f"ready-made attention used: {', '.join(used)}", used=used)
    return {"message": "no ready-made attention"}


@check("causal_skips_blocks",
       "causal attention skips the key blocks above the diagonal: its matmul FLOPs are <= 0.6x "
       "the non-causal ones (S = 1024, blocks 64: 136 of 256 tiles -> 0.53x)", required=False)
def check_skip(ctx):
    q, k, v = _qkv(ctx, 1, 1, 1024, 32, seed=6)
    full = _traced(ctx, q, k, v, causal=False).flops
    causal = _traced(ctx, q, k, v, causal=True).flops
    ctx.expect(full > 0, "no matmul was seen (torch.matmul / @ / bmm / einsum)")
    ratio = causal / full
    ctx.expect(ratio <= 0.6, f"causal attention does {ratio:.2f}x the matmul FLOPs of "
               f"non-causal: tiles entirely above the diagonal are computed and then masked",
               flops_causal=causal, flops_full=full, ratio=ratio)
    return {"flops_causal": causal, "flops_full": full, "ratio": round(ratio, 3)}
