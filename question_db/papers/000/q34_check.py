"""Checks for paper 000, Q34: simplified LLaMA decoder layer with RoPE + FlashAttention-2.

Learner's names: FlashAttnLLaMALayer(dim, n_heads, checkpoint=False), forward_flops(...),
backward_flops(...). The checks read q, k, v by wrapping ``flash_attn_func`` wherever the
learner's code can reach it (their namespace and ``sys.modules["flash_attn"]``).
"""
import copy
import math
import statistics
import sys

import torch
import torch.nn as nn
from torch.utils.flop_counter import FlopCounterMode

from _examdesk_harness import CheckFailed, assert_close, check

LAYER = "FlashAttnLLaMALayer"
PARAM_NAMES = {"norm1.weight", "qkv.weight", "o.weight", "norm2.weight",
               "mlp.0.weight", "mlp.2.weight"}
FLOP_SHAPES = [(1, 8, 32, 4), (2, 16, 64, 8), (3, 5, 48, 6)]  # (batch, seq, dim, n_heads)
PERF_SHAPES = [(4, 2048, 2048, 16), (2, 4096, 4096, 32), (8, 1024, 1024, 8)]


# --------------------------------------------------------------------------------------
# Embedded reference (a copy of q34_reference.py with the attention function injectable,
# and fp64-capable so it can serve as the oracle).
# --------------------------------------------------------------------------------------
def _math_attention(q, k, v):
    """Causal attention on (b, s, h, hd) as two dense matmuls (what FlopCounterMode sees)."""
    qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))
    scores = qt @ kt.transpose(-1, -2) / math.sqrt(q.shape[-1])
    s = q.shape[1]
    future = torch.ones(s, s, dtype=torch.bool, device=q.device).triu(1)
    scores = scores.masked_fill(future, float("-inf"))
    return (scores.softmax(-1) @ vt).transpose(1, 2)


def _wide(dtype):
    return torch.promote_types(dtype, torch.float32)


class _RefRMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        xf = x.to(_wide(x.dtype))
        xf = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)
        return xf.to(x.dtype) * self.weight


def _ref_rope(x):
    """Interleaved-pair RoPE, theta = 10000, positions 0..s-1; x: (b, s, h, hd)."""
    s, hd = x.shape[1], x.shape[-1]
    wide = _wide(x.dtype)
    inv_freq = 10000.0 ** (-torch.arange(0, hd, 2, device=x.device, dtype=wide) / hd)
    angles = torch.outer(torch.arange(s, device=x.device, dtype=wide), inv_freq)
    cos, sin = angles.cos()[None, :, None, :], angles.sin()[None, :, None, :]
    xf = x.to(wide)
    even, odd = xf[..., 0::2], xf[..., 1::2]
    out = torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1)
    return out.flatten(-2).to(x.dtype)


class _RefLayer(nn.Module):
    def __init__(self, dim, n_heads, attn=_math_attention):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, dim // n_heads
        self.attn = attn
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)
        self.norm1 = _RefRMSNorm(dim)
        self.norm2 = _RefRMSNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim, bias=False), nn.SiLU(),
                                 nn.Linear(4 * dim, dim, bias=False))

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, s, 3, self.n_heads, self.head_dim).unbind(2)
        h = x + self.o(self.attn(_ref_rope(q), _ref_rope(k), v).reshape(b, s, d))
        return h + self.mlp(self.norm2(h))


def _ref_forward_flops(b, s, d, h):
    return 24 * b * s * d * d + 4 * b * s * s * d


# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------
def _real_flash_attn():
    fa = sys.modules.get("flash_attn")
    return fa is not None and not getattr(fa, "__examdesk_standin__", False)


def _dtypes(ctx):
    """Dtypes to run the learner's layer in: the real FA2 kernel rejects fp32."""
    out = [dt for dt in ctx.dtypes if not (dt == torch.float32 and _real_flash_attn())]
    return out or [torch.bfloat16]


def _name(dtype):
    return str(dtype).replace("torch.", "")


def _build(ctx, dim, n_heads, *, checkpoint=False, seed=0, dtype=torch.float32):
    """Learner's layer, seeded; norm weights moved off 1 so ignoring them shows."""
    torch.manual_seed(seed)
    layer = ctx.get(LAYER)(dim, n_heads, checkpoint=checkpoint)
    with torch.no_grad():
        for p in layer.parameters():
            if p.dim() == 1:
                p.uniform_(0.5, 1.5)
    return layer.to(ctx.device, dtype)


def _reference_from(layer, dim, n_heads, attn=_math_attention):
    """fp64 CPU reference carrying the learner's weights (by the contract's names)."""
    names = {n for n, _ in layer.named_parameters()}
    if names != PARAM_NAMES:
        raise CheckFailed(f"parameter names {sorted(names)}; the interface asks for exactly "
                          f"{sorted(PARAM_NAMES)}", parameters=sorted(names))
    ref = _RefLayer(dim, n_heads, attn).double()
    theirs = dict(layer.named_parameters())
    with torch.no_grad():
        for n, p in ref.named_parameters():
            if theirs[n].shape != p.shape:
                raise CheckFailed(f"parameter {n} has shape {tuple(theirs[n].shape)}, "
                                  f"expected {tuple(p.shape)}")
            p.copy_(theirs[n].detach().double().cpu())
    return ref


def _close(ctx, actual, expected, dtype, what):
    """fp32: elementwise (10× ctx.tol, end-to-end through a layer); bf16/fp16: relative norm."""
    if dtype in (torch.float32, torch.float64):
        rtol, atol = ctx.tol(dtype)
        return assert_close(actual.cpu(), expected.cpu(), rtol=10 * rtol, atol=10 * atol, what=what)
    a, e = actual.detach().double().cpu(), expected.detach().double().cpu()
    if a.shape != e.shape:
        raise CheckFailed(f"{what}: shape {tuple(a.shape)}, expected {tuple(e.shape)}")
    rel = float((a - e).norm() / e.norm().clamp_min(1e-12))
    limit = 1.5 * ctx.tol(dtype)[0]
    if not rel <= limit:
        raise CheckFailed(f"{what}: relative error {rel:.3g} > {limit:.3g} in {_name(dtype)} "
                          f"(max abs err {float((a - e).abs().max()):.3g})", rel_err=rel)
    return {"rel_err": rel}


class _AttnSpy:
    """Replace flash_attn_func (learner namespace + module) by a recording wrapper."""

    def __init__(self, ctx, record=True):
        self.ctx, self.record, self.calls = ctx, record, []

    def __enter__(self):
        self.module = sys.modules.get("flash_attn")
        self.orig = getattr(self.module, "flash_attn_func", None)
        if self.orig is None:
            raise CheckFailed("flash_attn is not importable: run `from flash_attn import "
                              "flash_attn_func` in your code first")
        spy = self

        def flash_attn_func(q, k, v, *args, **kwargs):
            if spy.record:
                spy.calls.append({"q": q.detach().clone(), "k": k.detach().clone(),
                                  "v": v.detach().clone()})
            else:
                spy.calls.append(None)
            return spy.orig(q, k, v, *args, **kwargs)

        self.names = [n for n, val in list(self.ctx.ns.items()) if val is self.orig]
        for n in self.names:
            self.ctx.ns[n] = flash_attn_func
        self.module.flash_attn_func = flash_attn_func
        return self

    def __exit__(self, *exc):
        for n in self.names:
            self.ctx.ns[n] = self.orig
        self.module.flash_attn_func = self.orig
        return False


def _grads(layer, x, w):
    """Parameter gradients (name -> tensor or None) of sum(layer(x) * w)."""
    layer.zero_grad(set_to_none=True)
    (layer(x) * w).sum().backward()
    return {n: (None if p.grad is None else p.grad.detach().clone())
            for n, p in layer.named_parameters()}


# --------------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------------
@check("shape", "forward maps (batch, seq, dim) to the same shape and dtype, seq = 1 included")
def shape(ctx):
    dt = _dtypes(ctx)[0]
    for b, s, d, h in [(2, 7, 32, 4), (1, 1, 48, 3), (3, 12, 64, 8)]:
        layer = _build(ctx, d, h, dtype=dt)
        x = torch.randn(b, s, d, device=ctx.device, dtype=dt)
        with torch.no_grad():
            y = layer(x)
        ctx.expect(isinstance(y, torch.Tensor), f"forward returned {type(y).__name__}, "
                   "expected a tensor")
        ctx.expect(tuple(y.shape) == (b, s, d), f"output shape {tuple(y.shape)} for input "
                   f"{(b, s, d)} with n_heads={h}", shape=list(y.shape))
        ctx.expect(y.dtype == dt, f"output dtype {_name(y.dtype)} for {_name(dt)} input")


@check("finite", "outputs are finite for zero, tiny and large inputs (RMSNorm eps, fp32 stats)")
def finite(ctx):
    for dt in _dtypes(ctx):
        layer = _build(ctx, 32, 4, dtype=dt).eval()
        torch.manual_seed(1)
        base = torch.randn(2, 6, 32, device=ctx.device)
        for label, x in [("zeros", torch.zeros_like(base)), ("1e-4·randn", 1e-4 * base),
                         ("1e3·randn", 1e3 * base)]:
            with torch.no_grad():
                y = layer(x.to(dt))
            bad = int((~torch.isfinite(y)).sum())
            ctx.expect(bad == 0, f"{bad} non-finite output element(s) for {label} input in "
                       f"{_name(dt)}", input=label)


@check("low_precision", "bf16 and fp16 in -> same dtype out, finite, close to the same layer "
       "in fp32; fp16 inputs of magnitude 300 (x² overflows fp16) stay finite")
def low_precision(ctx):
    done = {}
    for dt in (torch.bfloat16, torch.float16):
        try:  # fp16 matmul is missing on some CPU builds
            torch.ones(2, 2, dtype=dt, device=ctx.device) @ torch.ones(2, 2, dtype=dt,
                                                                       device=ctx.device)
        except RuntimeError:
            continue
        layer = _build(ctx, 64, 4, dtype=dt).eval()
        torch.manual_seed(2)
        x = torch.randn(2, 10, 64, device=ctx.device).to(dt)
        for label, inp in [("randn", x), ("300·randn", 300 * x)]:
            try:
                with torch.no_grad():
                    y = layer(inp)
            except Exception as exc:  # e.g. a Linear fed fp32 activations by the norm
                raise CheckFailed(f"{_name(dt)} forward raised {type(exc).__name__}: {exc} "
                                  "(an activation promoted to fp32 inside the layer?)")
            ctx.expect(y.dtype == dt, f"{_name(dt)} input gave {_name(y.dtype)} output",
                       dtype=_name(y.dtype))
            bad = int((~torch.isfinite(y)).sum())
            ctx.expect(bad == 0, f"{bad} non-finite output element(s) in {_name(dt)} for "
                       f"{label} input (mean of squares must be taken in fp32)")
        if _real_flash_attn():  # no fp32 run to compare with; matches_reference covers bf16
            done[_name(dt)] = "dtype and finiteness only"
            continue
        wide = copy.deepcopy(layer).to(torch.float32)  # same (rounded) weights, fp32 compute
        with torch.no_grad():
            done[_name(dt)] = _close(ctx, layer(x), wide(x.float()), dt,
                                     f"{_name(dt)} output vs the same layer in fp32")
    ctx.expect(bool(done), "neither bf16 nor fp16 matmul runs on this device")
    return {"errors": done}


@check("causal", "changing token t leaves outputs before t unchanged and changes every output "
       "from t on")
def causal(ctx):
    t, s = 5, 9
    for dt in _dtypes(ctx):
        layer = _build(ctx, 32, 4, dtype=dt).eval()
        torch.manual_seed(3)
        x = torch.randn(2, s, 32, device=ctx.device, dtype=dt)
        x2 = x.clone()
        x2[:, t] = torch.randn(2, 32, device=ctx.device, dtype=dt)
        with torch.no_grad():
            y1, y2 = layer(x), layer(x2)
        rtol, atol = ctx.tol(dt)
        assert_close(y2[:, :t], y1[:, :t], rtol=rtol, atol=atol,
                     what=f"outputs before the changed token {t} ({_name(dt)}; future leaked "
                          "into the past)")
        change = (y2[:, t:] - y1[:, t:]).abs().amax(dim=(0, 2)).float().cpu()
        floor = 1e-3 * float(y1.abs().max())
        stuck = [t + i for i, c in enumerate(change.tolist()) if c <= floor]
        ctx.expect(not stuck, f"outputs at positions {stuck} did not change when token {t} "
                   f"changed (max change {float(change.min()):.3g} <= {floor:.3g})")
        ctx.details[f"min_change_{_name(dt)}"] = float(change.min())
        ctx.details[f"floor_{_name(dt)}"] = floor


@check("rope_relative", "with identical tokens at every position, q_m·k_n (as passed to "
       "flash_attn_func) depends only on m − n and varies with it; v is position-free")
def rope_relative(ctx):
    dt, s, d, h = _dtypes(ctx)[0], 12, 32, 2
    layer = _build(ctx, d, h, dtype=dt).eval()
    torch.manual_seed(4)
    x = torch.randn(1, 1, d, device=ctx.device).expand(2, s, d).contiguous().to(dt)
    with _AttnSpy(ctx) as spy, torch.no_grad():
        layer(x)
    ctx.expect(len(spy.calls) >= 1, "flash_attn_func was never called (call it through the "
               "name imported by `from flash_attn import flash_attn_func`)")
    q, k, v = (spy.calls[0][n].double().cpu() for n in "qkv")
    ctx.expect(tuple(q.shape) == (2, s, h, d // h) and q.shape == k.shape == v.shape,
               f"flash_attn_func got q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}; "
               f"FA2 layout is (batch, seq, n_heads, head_dim) = {(2, s, h, d // h)}")
    tol = 1e-4 if dt == torch.float32 else 2 * ctx.tol(dt)[0]
    v_spread = float((v - v[:, :1]).abs().max())
    v_scale = float(v.abs().max())
    ctx.expect(v_spread <= tol * v_scale, f"v differs across positions by {v_spread:.3g} although "
               "every token is identical: a position rotation was applied to v",
               v_spread=v_spread)
    gram = torch.einsum("bmhd,bnhd->bhmn", q, k)
    scale = float(q.norm(dim=-1).max() * k.norm(dim=-1).max())
    worst, by_offset = 0.0, []
    for offset in range(-(s - 1), s):  # offset = n − m
        diag = torch.diagonal(gram, offset=offset, dim1=-2, dim2=-1)
        worst = max(worst, float((diag - diag[..., :1]).abs().max()))
        by_offset.append(diag[..., 0])
    ctx.expect(worst <= tol * scale, f"q_m·k_n differs by {worst:.3g} between pairs with the same "
               f"m − n (scale |q||k| = {scale:.3g}): the rotation is not a function of position "
               "alone (RoPE missing on q or k, or positions not 0..seq−1)", spread=worst)
    variation = float((torch.stack(by_offset) - by_offset[s - 1]).abs().max())
    ctx.expect(variation >= 1e-2 * scale, f"q_m·k_n does not vary with m − n (max variation "
               f"{variation:.3g}, scale {scale:.3g}): RoPE is not applied (or every position got "
               "the same angle)", variation=variation)
    return {"spread": worst, "variation": variation, "scale": scale}


@check("pre_norm", "with every nn.Linear weight zeroed the layer is the identity (pre-norm "
       "residual; post-norm would return RMSNorm(x))")
def pre_norm(ctx):
    for dt in _dtypes(ctx):
        layer = _build(ctx, 32, 4, dtype=dt).eval()
        linears = [m for m in layer.modules() if isinstance(m, nn.Linear)]
        ctx.expect(bool(linears), "the layer has no nn.Linear submodules (the interface asks for "
                   "qkv, o and mlp as nn.Linear)")
        with torch.no_grad():
            for m in linears:
                m.weight.zero_()
            torch.manual_seed(5)
            x = 3 * torch.randn(2, 7, 32, device=ctx.device, dtype=dt)
            y = layer(x)
        rtol, atol = ctx.tol(dt)
        assert_close(y, x, rtol=rtol, atol=atol,
                     what=f"output with all Linear weights zeroed ({_name(dt)}; expected x)")


@check("matches_reference", "output equals the reference layer (same weights, fp64) for two "
       "shapes: qkv split, heads, RoPE pairing, norms, MLP, softmax scale")
def matches_reference(ctx):
    errors = {}
    for dt in _dtypes(ctx):
        for b, s, d, h in [(2, 11, 64, 4), (1, 6, 48, 2)]:
            layer = _build(ctx, d, h, dtype=dt).eval()
            ref = _reference_from(layer, d, h)
            torch.manual_seed(6)
            x = torch.randn(b, s, d, device=ctx.device, dtype=dt)
            with torch.no_grad():
                res = _close(ctx, layer(x), ref(x.double().cpu()), dt,
                             f"output vs reference, shape {(b, s, d)}, n_heads={h}, {_name(dt)}")
            errors[f"{_name(dt)} {(b, s, d, h)}"] = res
    return {"errors": errors}


@check("checkpoint_grads", "checkpoint=True gives the same gradients as checkpoint=False and "
       "reaches every parameter when the input does not require grad (reentrant pitfall)")
def checkpoint_grads(ctx):
    d, h = 32, 4
    for dt in _dtypes(ctx):
        plain = _build(ctx, d, h, checkpoint=False, dtype=dt).train()
        ckpt = ctx.get(LAYER)(d, h, checkpoint=True).to(ctx.device, dt).train()
        ckpt.load_state_dict(plain.state_dict())
        torch.manual_seed(7)
        x = torch.randn(2, 8, d, device=ctx.device, dtype=dt)
        w = torch.randn(2, 8, d, device=ctx.device, dtype=dt)
        expected = _grads(plain, x, w)
        try:
            got = _grads(ckpt, x, w)
        except RuntimeError as exc:
            raise CheckFailed("checkpoint=True, input without requires_grad: backward raised "
                              f"RuntimeError: {str(exc)[:160]} (reentrant checkpoint returns an "
                              "output with no grad_fn when no input requires grad)")
        missing = [n for n, g in got.items() if g is None]
        ctx.expect(not missing, f"checkpoint=True, input without requires_grad: no gradient for "
                   f"{missing}", missing=missing)
        rtol, atol = ctx.tol(dt)
        for n, g in expected.items():
            ctx.expect(g is not None, f"checkpoint=False: no gradient for {n}")
            assert_close(got[n], g, rtol=rtol, atol=atol,
                         what=f"grad of {n}, checkpoint=True vs False ({_name(dt)})")
        xa, xb = x.clone().requires_grad_(), x.clone().requires_grad_()
        (plain(xa) * w).sum().backward()
        (ckpt(xb) * w).sum().backward()
        ctx.expect(xb.grad is not None, "checkpoint=True: no gradient for the input x")
        assert_close(xb.grad, xa.grad, rtol=rtol, atol=atol,
                     what=f"grad of x, checkpoint=True vs False ({_name(dt)})")


@check("checkpoint_recompute", "checkpoint=True recomputes attention during backward "
       "(checkpoint=False does not); eval/no_grad still runs")
def checkpoint_recompute(ctx):
    dt = _dtypes(ctx)[0]
    counts = {}
    for flag in (False, True):
        layer = _build(ctx, 32, 4, checkpoint=flag, dtype=dt).train()
        torch.manual_seed(8)
        x = torch.randn(2, 6, 32, device=ctx.device, dtype=dt, requires_grad=True)
        with _AttnSpy(ctx, record=False) as spy:
            y = layer(x)
            n_fwd = len(spy.calls)
            y.float().square().sum().backward()
            n_bwd = len(spy.calls) - n_fwd
        counts[flag] = (n_fwd, n_bwd)
        ctx.expect(n_fwd == 1, f"checkpoint={flag}: forward called flash_attn_func {n_fwd} times, "
                   "expected once (call it through the imported name)")
        with torch.no_grad():
            layer.eval()(x)
    ctx.expect(counts[True][1] >= 1, "checkpoint=True but backward did not recompute attention: "
               "activations were stored, nothing was checkpointed", counts=str(counts))
    ctx.expect(counts[False][1] == 0, f"checkpoint=False but backward called flash_attn_func "
               f"{counts[False][1]} time(s)", counts=str(counts))
    return {"attention_calls_forward_backward": {str(k): v for k, v in counts.items()}}


@check("compile", "torch.compile(layer) matches eager in outputs and parameter gradients",
       slow=True, timeout=900)
def compile_matches(ctx):
    import torch._dynamo

    dt = _dtypes(ctx)[0]
    torch._dynamo.reset()
    eager = _build(ctx, 64, 4, dtype=dt).train()
    compiled_layer = copy.deepcopy(eager)
    compiled = torch.compile(compiled_layer)
    torch.manual_seed(9)
    x = torch.randn(2, 16, 64, device=ctx.device, dtype=dt)
    w = torch.randn(2, 16, 64, device=ctx.device, dtype=dt)
    with torch.no_grad():
        y_e = eager(x)
        y_c = compiled(x)
    rtol, atol = ctx.tol(dt)
    assert_close(y_c, y_e, rtol=10 * rtol, atol=10 * atol, what="compiled output vs eager")
    g_e = _grads(eager, x, w)
    compiled_layer.zero_grad(set_to_none=True)
    (compiled(x) * w).sum().backward()
    for n, p in compiled_layer.named_parameters():
        ctx.expect(p.grad is not None, f"compiled: no gradient for {n}")
        assert_close(p.grad, g_e[n], rtol=10 * rtol, atol=10 * atol,
                     what=f"compiled grad of {n} vs eager")
    torch._dynamo.reset()


_FLOP_CACHE = {}


def _counted(b, s, d, h):
    """FlopCounterMode totals (forward, backward) of the reference, input without grad."""
    key = (b, s, d, h)
    if key not in _FLOP_CACHE:
        torch.manual_seed(10)
        ref = _RefLayer(d, h)
        x = torch.randn(b, s, d)
        with FlopCounterMode(display=False) as fwd:
            y = ref(x)
        with FlopCounterMode(display=False) as bwd:
            y.sum().backward()
        _FLOP_CACHE[key] = (fwd.get_total_flops(), bwd.get_total_flops())
    return _FLOP_CACHE[key]


def _flops_check(ctx, fname, which):
    fn = ctx.get(fname)
    rows = {}
    for shp in FLOP_SHAPES:
        want = _counted(*shp)[which]
        got = fn(*shp)
        ctx.expect(isinstance(got, (int, float)) and not isinstance(got, bool) and
                   math.isfinite(got), f"{fname}{shp} returned {got!r}, expected a number")
        rows[str(shp)] = {"formula": got, "counted": want}
        ctx.expect(abs(got - want) < 0.5, f"{fname}(batch, seq, dim, n_heads={shp[3]}) "
                   f"= {got} for {shp}, FlopCounterMode counts {want} "
                   f"(ratio {got / want:.4f})", rows=rows)
    return {"rows": rows}


@check("flops_forward", "forward_flops(batch, seq, dim, n_heads) equals FlopCounterMode's count of "
       "the reference layer's forward on three shapes")
def flops_forward(ctx):
    return _flops_check(ctx, "forward_flops", 0)


@check("flops_backward", "backward_flops(batch, seq, dim, n_heads) equals FlopCounterMode's count "
       "of the reference layer's backward (no checkpointing) on three shapes")
def flops_backward(ctx):
    return _flops_check(ctx, "backward_flops", 1)


# Dense bf16 tensor-core peaks (TFLOP/s, no sparsity), matched in order on the device name.
_PEAKS = [("H100 PCIe", 756.0), ("H200", 989.0), ("H100", 989.0), ("H800", 989.0),
          ("A100", 312.0), ("A800", 312.0), ("L40S", 362.0), ("L4", 121.0)]


def _time_ms(fn, reps):
    fn()
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


@check("perf", "bf16 speed vs the reference (FlashAttention-2) on three shapes: ms, achieved "
       "TFLOP/s from the FLOPs formula, % of the device's dense bf16 peak; fails if the "
       "learner's forward+backward is over 1.5× slower", cuda_only=True, required=False,
       timeout=600)
def perf(ctx):
    if not ctx.is_cuda:
        return {"message": "not run: needs a CUDA device"}
    name = torch.cuda.get_device_name(ctx.device)
    peak = next((p for key, p in _PEAKS if key in name), None)
    fa_func = sys.modules["flash_attn"].flash_attn_func

    def fa_attention(q, k, v):
        return fa_func(q, k, v, causal=True)

    rows, worst = [], 0.0
    for b, s, d, h in PERF_SHAPES:
        dt = torch.bfloat16
        learner = _build(ctx, d, h, dtype=dt).train()
        ref = _RefLayer(d, h, fa_attention).to(ctx.device, dt).train()
        if {n for n, _ in learner.named_parameters()} == PARAM_NAMES:
            ref.load_state_dict(learner.state_dict(), strict=False)
        x = torch.randn(b, s, d, device=ctx.device, dtype=dt)
        g = torch.randn(b, s, d, device=ctx.device, dtype=dt)
        flops = _ref_forward_flops(b, s, d, h)
        row = {"shape": [b, s, d, h]}
        for label, layer in (("learner", learner), ("reference", ref)):
            def fwd(layer=layer):
                with torch.no_grad():
                    layer(x)

            def train_step(layer=layer):
                layer(x).backward(g)

            t_f, t_t = _time_ms(fwd, 10), _time_ms(train_step, 10)
            layer.zero_grad(set_to_none=True)
            row[label] = {"fwd_ms": round(t_f, 3), "fwd_bwd_ms": round(t_t, 3),
                          "fwd_tflops": round(flops / t_f / 1e9, 1),
                          "fwd_bwd_tflops": round(3 * flops / t_t / 1e9, 1)}
            if peak:
                row[label]["fwd_bwd_pct_peak"] = round(100 * 3 * flops / t_t / 1e9 / peak, 1)
        ratio = row["learner"]["fwd_bwd_ms"] / row["reference"]["fwd_bwd_ms"]
        row["slowdown"] = round(ratio, 2)
        worst = max(worst, ratio)
        rows.append(row)
        del learner, ref, x, g
        torch.cuda.empty_cache()
    details = {"device": name, "peak_tflops": peak, "rows": rows,
               "note": "TFLOP/s use the dense count (causal FA2 skips about half of the "
                       "attention work, so its true rate on that part is about 2× lower)"}
    if worst > 1.5:
        raise CheckFailed(f"forward+backward up to {worst:.2f}× slower than the reference on "
                          f"{name}", **details)
    return details
