"""Checks for paper 000, Q34: simplified LLaMA decoder layer with RoPE + FlashAttention-2.

Interface (the stem): ``FlashAttnLLaMALayer(dim, n_heads, checkpoint=False)``, ``forward(x)``
(batch, seq, dim) -> same shape and dtype; module functions ``forward_flops`` and
``backward_flops``. Everything else is the learner's design, so the checks judge properties:

- name-free: shape/dtype, finiteness, causality, RoPE relative position (from the q, k, v
  handed to the attention call), pre-norm residual (all matrices zeroed -> x + constant),
  bf16/fp16 against the same layer in float64, checkpoint gradients and recomputation,
  torch.compile equivalence, FLOPs against FlopCounterMode run on the learner's own layer;
- through a recognised layout: the learner's parameters are mapped onto roles by how one
  forward uses them (norm weight, q/k/v or fused qkv, output projection, MLP matrices) and a
  float64 reference built from them must give the same output. The RoPE pairing, the qkv
  packing, the grouped-query head grouping, the MLP activation and gate/up order are found by
  trying the known designs; a norm gain ``x̂ · w`` or ``x̂ · (1 + w)`` (Gemma) is seen in use.
"""
import copy
import math
import statistics
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.flop_counter import FlopCounterMode

from _examdesk_harness import CheckFailed, assert_close, cast_floating_, check
from _examdesk_layouts import (HOW_TO_EXPOSE, PAIRINGS, AttentionTap, Matrix, ParamTrace,
                               describe_attention, flash_attn_kind, leaf_name, math_attention,
                               name_roles, relative_error, rope, split_projections)

LAYER = "FlashAttnLLaMALayer"
FLOP_SHAPES = [(2, 16, 64, 8), (3, 5, 48, 6), (1, 40, 16, 2)]  # (b, s, d, h); s > d in one
PERF_SHAPES = [(4, 2048, 2048, 16), (2, 4096, 4096, 32), (8, 1024, 1024, 8)]
ENTRY_HELP = ("flash_attn_func / flash_attn_qkvpacked_func / flash_attn_kvpacked_func / "
              "flash_attn_varlen_func from `flash_attn` or `flash_attn.flash_attn_interface`, "
              "or F.scaled_dot_product_attention(q, k, v, is_causal=True)")


# --------------------------------------------------------------------------------------
# Building and running the learner's layer
# --------------------------------------------------------------------------------------
def _real_flash_attn():
    return flash_attn_kind() == "real"


def _dtypes(ctx):
    """Dtypes to run the learner's layer in: the real FA2 kernel rejects fp32."""
    out = [dt for dt in ctx.dtypes if not (dt == torch.float32 and _real_flash_attn())]
    return out or [torch.bfloat16]


def _name(dtype):
    return str(dtype).replace("torch.", "")


def _build(ctx, dim, n_heads, *, checkpoint=False, seed=0, dtype=torch.float32):
    """Learner's layer, seeded; 1-D parameters moved off their init so ignoring them shows.

    Built in fp32 as the learner would, then moved with ``cast_floating_``: complex buffers
    (a complex64 freqs_cis) keep their dtype, unlike ``Module.to(dtype)``.
    """
    torch.manual_seed(seed)
    cls = ctx.get(LAYER)
    try:
        # Built inside a tap, so that a layer keeping the attention function as an
        # attribute (self.attn_fn = flash_attn_func) keeps one the checks can observe.
        with AttentionTap(ctx.ns, record=False):
            layer = cls(dim, n_heads, checkpoint=checkpoint)
    except Exception as exc:
        raise CheckFailed(f"{LAYER}({dim}, {n_heads}, checkpoint={checkpoint}) raised "
                          f"{type(exc).__name__}: {exc}")
    with torch.no_grad():
        for p in layer.parameters():
            if p.dim() == 1 and p.requires_grad:
                p.uniform_(0.5, 1.5)
    return cast_floating_(layer, dtype, ctx.device)


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


def _grads(layer, x, w):
    """Parameter gradients (name -> tensor or None) of sum(layer(x) * w)."""
    layer.zero_grad(set_to_none=True)
    (layer(x) * w).sum().backward()
    return {n: (None if p.grad is None else p.grad.detach().clone())
            for n, p in layer.named_parameters()}


def _math_route(q, k, v, *, causal, softmax_scale, window_size=(-1, -1), attn_mask=None):
    return math_attention(q, k, v, causal=causal, softmax_scale=softmax_scale,
                          window_size=window_size, attn_mask=attn_mask)


def _oracle(ctx, layer, x):
    """The learner's own layer in float64 (same rounded weights), attention through explicit
    matmuls: what a bf16/fp16 run approximates. Falls back to float32 if float64 raises."""
    for wide in (torch.float64, torch.float32):
        twin = cast_floating_(copy.deepcopy(layer), wide)
        try:
            with AttentionTap(ctx.ns, record=False, route=_math_route), torch.no_grad():
                return twin(x.to(wide)), wide
        except Exception:
            if wide == torch.float32:
                raise
    raise AssertionError("unreachable")


# --------------------------------------------------------------------------------------
# Recognising the learner's layout
# --------------------------------------------------------------------------------------
_GATE = r"(w1|w_?gate|gate(_proj)?|fc_?1|wg|gate_linear|linear_gate|w_g)"
_UP = r"(w3|w_?up|up(_proj)?|fc_?2|wu|up_linear|linear_up|w_u)"
_ACTS = {"silu": F.silu, "gelu": F.gelu, "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
         "relu": F.relu}
_ACT_LABEL = {"silu": "SiLU", "gelu": "GELU", "gelu_tanh": "GELU (tanh)", "relu": "ReLU"}
_MISTAKES = {
    "post_norm": "post-norm (x = Norm(x + F(x))) instead of pre-norm residuals",
    "parallel": "a parallel attention + MLP block (GPT-J) instead of sequential residuals",
    "rope_on_v": "RoPE also applied to v",
    "no_rope": "no RoPE at all",
    "noncausal": "non-causal attention (causal=False)",
    "scale_hd": "softmax scale 1/head_dim instead of 1/sqrt(head_dim)",
    "no_scale": "no softmax scale",
    "layernorm": "LayerNorm (mean subtracted) instead of RMSNorm",
    "rope_freq": "RoPE frequencies 10000^(−i/head_dim) instead of 10000^(−2i/head_dim)",
    "kv_grouped_apart": "k and v grouped onto the query heads differently (one by "
                        "repeat_interleave, query head j -> k/v head j // r; the other by "
                        "repeat, j -> j % n_kv): each query head must take k and v from the "
                        "same k/v head",
}
# Grouped-query attention: which k/v head serves query head j (r = n_heads / n_kv). Both are
# the same model up to a permutation of the query heads; flash_attn and HF repeat_kv use the
# first, Tensor.repeat / expand over a leading group axis the second.
_GROUPINGS = {"interleave": "query head j uses k/v head j // r (repeat_interleave, flash_attn, "
                            "HF repeat_kv)",
              "tile": "query head j uses k/v head j % n_kv (Tensor.repeat: heads tiled)"}


class _NormTrace(ParamTrace):
    """ParamTrace that also sees a gain with an offset, ``x̂ * (1 + w)`` (Gemma's RMSNorm,
    weight initialised to zeros): ``offsets[name]`` is the number added to the vector, which
    is then a norm weight (vector use "offset"), not a bias."""

    _ADDS = ("add", "__add__", "__radd__")

    def __init__(self, params: dict):
        super().__init__(params)
        self.offsets: dict = {}

    def _classify(self, name, args, kwargs, found):
        if name in self._ADDS and len(found) == 1:
            numbers = [a for a in list(args) + list(kwargs.values())
                       if isinstance(a, (int, float)) and not isinstance(a, bool)]
            tensors = [a for a in list(args) + list(kwargs.values())
                       if isinstance(a, torch.Tensor)]
            if len(numbers) == 1 and len(tensors) == 1 and "alpha" not in kwargs:
                pname = found[0][1][0]
                if self.vector_use.setdefault(pname, "offset") == "offset":
                    self.offsets.setdefault(pname, float(numbers[0]))
                return
        super()._classify(name, args, kwargs, found)


class _Recognition:
    """How the learner's layer maps onto the reference: roles by parameter name."""

    def __init__(self):
        self.norms = [None, None]   # parameter names of the attention / MLP norm weights
        self.eps = [1e-6, 1e-6]
        self.norm_kind = ["RMSNorm", "RMSNorm"]
        self.norm_offset = [0.0, 0.0]  # gain = offset + weight (1.0: Gemma's x̂ · (1 + w))
        self.proj = None            # layouts.Projections
        self.o = None               # Matrix
        self.mlp_kind = None        # "plain" | "gated" | "fused_gated"
        self.mlp = {}               # role -> Matrix ("up", "gate", "down", "fc")
        self.options = []           # candidate configurations (dicts)
        self.attention = ""
        self.config = None          # the matching configuration
        self.unmapped = []

    def describe(self, cfg=None) -> str:
        cfg = cfg or self.config or (self.options[0] if self.options else {})
        norms = "/".join((n.rsplit(".", 1)[0] if "." in n else n) if n else "(no weight)"
                         for n in self.norms)
        eps = ", ".join(f"{e:g}" for e in dict.fromkeys(self.eps))
        gain = "".join(dict.fromkeys(f", gain {o:g} + weight (Gemma)" for o, n in
                                     zip(self.norm_offset, self.norms) if n and o))
        parts = [f"norms: {self.norm_kind[0]} {norms} (eps {eps}{gain})",
                 f"projections: {self.proj.describe(cfg.get('packing'))}",
                 f"output: {leaf_name(self.o.name)}{' with bias' if self.o.bias else ''}"]
        hidden = self.mlp["down"].inp
        act = _ACT_LABEL.get(cfg.get("act"), "?")
        if self.mlp_kind == "plain":
            parts.append(f"MLP: {act}-MLP {leaf_name(self.mlp['up'].name)}→"
                         f"{leaf_name(self.mlp['down'].name)} (hidden {hidden})")
        else:
            glu = "SwiGLU" if cfg.get("act") == "silu" else f"gated {act}"
            if self.mlp_kind == "gated":
                gate, up = cfg["gate"], cfg["up"]
                roles = f"gate {leaf_name(gate.name)}, up {leaf_name(up.name)}"
            else:
                roles = f"fused {leaf_name(self.mlp['fc'].name)} [{cfg['order']}]"
            parts.append(f"MLP: {glu} ({roles}, down {leaf_name(self.mlp['down'].name)}, "
                         f"hidden {hidden})")
        if cfg.get("pairing"):
            parts.append(f"RoPE: {PAIRINGS[cfg['pairing']]}")
        if cfg.get("grouping"):
            parts.append(f"GQA: {_GROUPINGS[cfg['grouping']]}")
        parts.append(f"attention: {self.attention}")
        return " · ".join(parts)


def _norm_eps(layer, pname):
    """eps of the module owning ``pname`` (eps / variance_epsilon / epsilon), else 1e-6."""
    if not pname or "." not in pname:
        owner = layer
    else:
        try:
            owner = layer.get_submodule(pname.rsplit(".", 1)[0])
        except AttributeError:
            owner = layer
    kind = "LayerNorm" if isinstance(owner, nn.LayerNorm) else "RMSNorm"
    for attr in ("eps", "variance_epsilon", "epsilon", "norm_eps"):
        if hasattr(owner, attr):
            value = getattr(owner, attr)
            if value is None:  # nn.RMSNorm(eps=None): torch.finfo(x.dtype).eps at run time
                return float(torch.finfo(torch.float32).eps), kind
            if isinstance(value, (int, float)):
                return float(value), kind
    return 1e-6, kind


def _discover(ctx, d=64, h=4):
    layer = _build(ctx, d, h).eval()
    params = {n: p for n, p in layer.named_parameters() if p.requires_grad}  # not tables
    trace = _NormTrace(params)
    torch.manual_seed(11)
    x = torch.randn(2, 5, d, device=ctx.device)
    rec = _Recognition()
    with AttentionTap(ctx.ns, record=False, route=_math_route,
                      on_call=lambda info: trace.mark("attention", info["entry"])) as tap:
        with torch.no_grad(), trace:
            layer(x)
    rec.attention = describe_attention(tap.calls)
    marks = [i for i, kind, _ in trace.events if kind == "attention"]
    if not marks:
        marks = [i for i, kind, _ in trace.events if kind == "softmax"]
        rec.attention = "hand-written (softmax seen; not FlashAttention-2)" if marks else "none"
    if not marks:
        raise CheckFailed("no attention call was seen in one forward (" + ENTRY_HELP + "), so "
                          "the checks cannot tell the projections before attention from those "
                          "after it. " + HOW_TO_EXPOSE)
    boundary = marks[0]
    mats = sorted((Matrix(n, p, trace) for n, p in params.items()
                   if p.dim() == 2 and n in trace.first), key=lambda m: m.first)
    biases = {m.bias for m in mats if m.bias}
    vectors = sorted((n for n, p in params.items() if p.dim() == 1 and p.numel() == d
                      and n in trace.first and n not in biases
                      and trace.vector_use.get(n) in ("mul", "norm", "offset")),
                     key=lambda n: trace.first[n])
    pre = [m for m in mats if m.first < boundary]
    post = [m for m in mats if m.first > boundary]
    try:
        rec.proj = split_projections(pre, d, h)
    except ValueError as exc:
        raise CheckFailed(f"could not map your projections onto q, k, v: {exc}. "
                          + HOW_TO_EXPOSE, parameters=sorted(params))
    if not post or post[0].out != d or post[0].inp != d:
        raise CheckFailed(f"no ({d}, {d}) output projection used right after attention "
                          f"(matrices after attention: {post}). " + HOW_TO_EXPOSE)
    rec.o = post[0]
    rest = post[1:]
    if not rest or rest[-1].out != d:
        raise CheckFailed(f"no MLP found after the output projection (matrices: {rest}); the "
                          "last matrix used must map the hidden size back to dim. "
                          + HOW_TO_EXPOSE)
    down, ups = rest[-1], rest[:-1]
    hidden = down.inp
    if any(m.inp != d for m in ups):
        raise CheckFailed(f"MLP matrices {ups} do not all take dim={d} as input")
    rec.mlp["down"] = down
    if len(ups) == 1 and ups[0].out == hidden:
        rec.mlp_kind, rec.mlp["up"] = "plain", ups[0]
        mlp_options = [{"act": a} for a in _ACTS]
    elif len(ups) == 1 and ups[0].out == 2 * hidden:
        rec.mlp_kind, rec.mlp["fc"] = "fused_gated", ups[0]
        mlp_options = [{"act": a, "order": o} for a in ("silu", "gelu", "gelu_tanh")
                       for o in ("gate|up", "up|gate")]
    elif len(ups) == 2 and all(m.out == hidden for m in ups):
        rec.mlp_kind = "gated"
        named = name_roles(ups, {"gate": _GATE, "up": _UP})
        orders = [(named["gate"], named["up"])] if named else [(ups[0], ups[1]), (ups[1], ups[0])]
        mlp_options = [{"act": a, "gate": g, "up": u} for a in ("silu", "gelu", "gelu_tanh")
                       for g, u in orders]
    else:
        raise CheckFailed(f"the MLP matrices {ups + [down]} fit none of: up (H, {d}) + down "
                          f"({d}, H); gate and up (H, {d}) each + down; one fused gate/up "
                          f"(2H, {d}) + down. " + HOW_TO_EXPOSE)
    if len(vectors) >= 2:
        rec.norms = vectors[:2]
    elif len(vectors) == 1:  # one weighted norm: before attention or before the MLP?
        rec.norms = [vectors[0], None] if trace.first[vectors[0]] < boundary else \
            [None, vectors[0]]
    for i, n in enumerate(rec.norms):
        rec.eps[i], rec.norm_kind[i] = _norm_eps(layer, n)
        rec.norm_offset[i] = trace.offsets.get(n, 0.0) if n else 0.0
    observed = [detail if kind == "gelu" and detail == "tanh" else kind
                for _, kind, detail in trace.events if kind in ("silu", "gelu", "relu")]
    observed = ["gelu_tanh" if a == "tanh" else a for a in observed]

    def act_rank(opt):
        return (0 if opt["act"] in observed else 1, list(_ACTS).index(opt["act"]))

    mlp_options.sort(key=act_rank)
    groupings = list(_GROUPINGS) if rec.proj.gqa else [None]
    rec.options = [dict(packing=p, pairing=r, grouping=g, **m) for m in mlp_options
                   for p in rec.proj.options for r in PAIRINGS for g in groupings]
    used = {m.name for m in mats} | biases | set(n for n in rec.norms if n)
    rec.unmapped = [n for n in params if n not in used and params[n].requires_grad]
    return rec


def _reference(rec, cfg, params, x, n_heads, mistakes=()):
    """float64 output of the recognised design with the learner's weights; x (b, s, d)."""
    x = x.detach().double().cpu()
    b, s, d = x.shape
    hd = d // n_heads

    def norm(t, i):
        w = (params[rec.norms[i]].detach().double().cpu() + rec.norm_offset[i]
             if rec.norms[i] else None)
        if "layernorm" in mistakes:
            t = t - t.mean(-1, keepdim=True)
        y = t * torch.rsqrt(t.pow(2).mean(-1, keepdim=True) + rec.eps[i])
        return y if w is None else y * w

    def lin(m, t):
        return F.linear(t, m.weight(params), m.bias_value(params))

    def attention(t):
        q, k, v = rec.proj.qkv(t, params, cfg["packing"], n_heads)
        if "no_rope" not in mistakes:
            step = 1 if "rope_freq" in mistakes else 2
            q, k = (rope(t, cfg["pairing"], exponent_step=step) for t in (q, k))
            if "rope_on_v" in mistakes:
                v = rope(v, cfg["pairing"])
        if k.shape[2] != n_heads:  # grouped-query: k/v heads onto query heads
            r = n_heads // k.shape[2]
            k_grouping = cfg.get("grouping") or "interleave"
            v_grouping = k_grouping
            if "kv_grouped_apart" in mistakes:
                v_grouping = "tile" if k_grouping == "interleave" else "interleave"
            k, v = (t.repeat(1, 1, r, 1) if g == "tile" else t.repeat_interleave(r, dim=2)
                    for t, g in ((k, k_grouping), (v, v_grouping)))
        scale = {"scale_hd": 1 / hd, "no_scale": 1.0}.get(
            next((m for m in mistakes if m in ("scale_hd", "no_scale")), ""), 1 / math.sqrt(hd))
        a = math_attention(q, k, v, causal="noncausal" not in mistakes, softmax_scale=scale)
        return lin(rec.o, a.reshape(b, s, d))

    def mlp(t):
        act = _ACTS[cfg["act"]]
        if rec.mlp_kind == "plain":
            return lin(rec.mlp["down"], act(lin(rec.mlp["up"], t)))
        if rec.mlp_kind == "gated":
            return lin(rec.mlp["down"], act(lin(cfg["gate"], t)) * lin(cfg["up"], t))
        first, second = lin(rec.mlp["fc"], t).chunk(2, dim=-1)
        gate, up = (first, second) if cfg["order"] == "gate|up" else (second, first)
        return lin(rec.mlp["down"], act(gate) * up)

    if "post_norm" in mistakes:
        h = norm(x + attention(x), 0)
        return norm(h + mlp(h), 1)
    if "parallel" in mistakes:
        return x + attention(norm(x, 0)) + mlp(norm(x, 0 if rec.norms[1] is None else 1))
    h = x + attention(norm(x, 0))
    return h + mlp(norm(h, 1))


_RECOGNISED: dict = {}


def _recognise(ctx) -> _Recognition:
    """Discover the layout, then the configuration whose reference matches (cached)."""
    key = (id(ctx.get(LAYER)), hash(ctx.source or ""))
    if key in _RECOGNISED:
        return _RECOGNISED[key]
    rec = _discover(ctx)
    d, h = 64, 4
    layer = _build(ctx, d, h, seed=1).eval()
    params = dict(layer.named_parameters())
    torch.manual_seed(12)
    x = torch.randn(2, 7, d, device=ctx.device)
    with torch.no_grad(), AttentionTap(ctx.ns, record=False, route=_math_route):
        y = layer(x)
    scored = []
    for cfg in rec.options:
        with torch.no_grad():
            err = relative_error(y, _reference(rec, cfg, params, x, h))
        scored.append((err, cfg))
        if err <= 1e-4:
            rec.config = cfg
            break
    rec.best = min(scored, key=lambda t: t[0])
    _RECOGNISED.clear()
    _RECOGNISED[key] = rec
    return rec


def _mismatch_hint(ctx, rec, layer, x, y, h):
    """Which known mistake, applied to one of the recognised designs, reproduces the output."""
    params = dict(layer.named_parameters())
    err, cfg = rec.best
    for mistake, text in _MISTAKES.items():
        if mistake == "kv_grouped_apart" and not rec.proj.gqa:
            continue
        for option in sorted(rec.options, key=lambda o: o is not cfg):
            with torch.no_grad():
                alt = _reference(rec, option, params, x, h, mistakes=(mistake,))
            if relative_error(y, alt) <= 1e-4:
                return f": it matches {text}, in the layout {rec.describe(option)}"
    return (f"; closest correct design: {rec.describe(cfg)} (relative error {err:.3g})"
            + (f"; parameters not mapped to any role: {rec.unmapped}" if rec.unmapped else ""))


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


@check("flash_attention", "attention runs through FlashAttention-2: a flash_attn entry point, "
       "or F.scaled_dot_product_attention with is_causal=True (its CUDA flash backend is FA2)")
def flash_attention(ctx):
    dt = _dtypes(ctx)[0]
    layer = _build(ctx, 32, 4, dtype=dt).eval()
    x = torch.randn(2, 6, 32, device=ctx.device, dtype=dt)
    with AttentionTap(ctx.ns, record=False) as tap, torch.no_grad():
        layer(x)
    ctx.expect(bool(tap.calls), "no FlashAttention-2 call was seen in a forward: use "
               + ENTRY_HELP + " (call it through the imported name or module so the checks "
               "see it)")
    for call in tap.calls:
        if call["entry"] == "scaled_dot_product_attention" and call["attn_mask"]:
            raise CheckFailed("F.scaled_dot_product_attention was given an explicit attn_mask: "
                              "PyTorch then cannot use its FlashAttention-2 backend; pass "
                              "is_causal=True and no mask")
    ctx.recognised = f"attention: {describe_attention(tap.calls)} ({len(tap.calls)} call(s) " \
                     "per forward)"
    return {"calls": tap.calls}


@check("low_precision", "bf16 and fp16 in -> same dtype out, finite, close to the same layer "
       "in float64; fp16 inputs of magnitude 300 (x² overflows fp16) stay finite")
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
        for label, inp in [("randn", x), ("300·randn", 300 * x)]:
            with torch.no_grad():
                y = layer(inp)
            want, wide = _oracle(ctx, layer, inp)
            done[f"{_name(dt)} {label}"] = {
                **_close(ctx, y, want, dt, f"{_name(dt)} output for {label} input vs the same "
                                           f"layer in {_name(wide)} (statistics in fp32?)"),
                "oracle": _name(wide)}
    ctx.expect(bool(done), "neither bf16 nor fp16 matmul runs on this device")
    done["norms fp16, |x| ≈ 300"] = _norm_probe(ctx)
    return {"errors": done}


def _norm_probe(ctx):
    """The recognised RMSNorm modules on fp16 input of magnitude 300, whose x² overflows
    fp16: the output must still equal RMSNorm computed in float64 (statistics in fp32).
    Through the whole layer the residual (300) would hide the sublayers' fp16 rounding."""
    try:
        rec = _recognise(ctx)
    except CheckFailed:
        return "skipped: layout not recognised (see matches_reference)"
    layer = _build(ctx, 64, 4, dtype=torch.float16).eval()
    torch.manual_seed(14)
    x = (300 * torch.randn(2, 5, 64, device=ctx.device)).half()
    probed = {}
    for name, eps, offset in zip(rec.norms, rec.eps, rec.norm_offset):
        if not name or "." not in name:
            continue  # a weight of the layer itself: no separate module to call
        module = layer.get_submodule(name.rsplit(".", 1)[0])
        try:
            with torch.no_grad():
                y = module(x)
        except Exception:
            continue  # not callable on its own (a module that needs more arguments)
        if not isinstance(y, torch.Tensor) or y.shape != x.shape:
            continue
        w = dict(layer.named_parameters())[name].detach().double().cpu() + offset
        xd = x.double().cpu()
        want = xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + eps) * w
        probed[name] = _close(ctx, y, want, torch.float16,
                              f"{name.rsplit('.', 1)[0]} on fp16 input of magnitude 300 (x² "
                              "overflows fp16: take the mean of squares in fp32)")
    return probed or "no separate norm module to call"


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


@check("rope_relative", "with identical tokens at every position, q_m·k_n (as passed to the "
       "attention call) depends only on m − n and varies with it; v is position-free")
def rope_relative(ctx):
    dt, s, d, h = _dtypes(ctx)[0], 12, 32, 2
    layer = _build(ctx, d, h, dtype=dt).eval()
    torch.manual_seed(4)
    x = torch.randn(1, 1, d, device=ctx.device).expand(2, s, d).contiguous().to(dt)
    with AttentionTap(ctx.ns) as spy, torch.no_grad():
        layer(x)
    ctx.expect(len(spy.calls) >= 1, "no attention call was seen (" + ENTRY_HELP + ")")
    q, k, v = (spy.calls[0][n].double().cpu() for n in "qkv")
    ctx.expect(tuple(q.shape) == (2, s, h, d // h) and k.shape == v.shape
               and k.shape[:2] == (2, s) and k.shape[3] == d // h and h % k.shape[2] == 0,
               f"the attention call got q {tuple(q.shape)}, k {tuple(k.shape)}, v "
               f"{tuple(v.shape)}; expected (batch, seq, n_heads, head_dim) = {(2, s, h, d // h)}"
               " (SDPA takes (batch, n_heads, seq, head_dim))")
    if k.shape[2] != h:  # grouped-query: each k/v head serves h // h_kv query heads
        k, v = (t.repeat_interleave(h // t.shape[2], dim=2) for t in (k, v))
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
               "alone (RoPE missing on q or k, or q and k rotated differently)", spread=worst)
    variation = float((torch.stack(by_offset) - by_offset[s - 1]).abs().max())
    ctx.expect(variation >= 1e-2 * scale, f"q_m·k_n does not vary with m − n (max variation "
               f"{variation:.3g}, scale {scale:.3g}): RoPE is not applied (or every position got "
               "the same angle)", variation=variation)
    return {"spread": worst, "variation": variation, "scale": scale}


def _attention_sees_norm(ctx, dt, found: dict) -> None:
    """Pre-norm feeds attention RMSNorm(x), and RMSNorm(4x) = RMSNorm(x): q, k, v unchanged."""
    layer = _build(ctx, 32, 4, dtype=dt).eval()
    torch.manual_seed(5)
    x = 3 * torch.randn(2, 7, 32, device=ctx.device, dtype=dt)
    seen = []
    for scale in (1, 4):
        with AttentionTap(ctx.ns) as spy, torch.no_grad():
            out = layer(scale * x)
        seen.append((spy.calls[0] if spy.calls else None, out))
    (first, out1), (second, out4) = seen
    if first is None or second is None:  # no attention call seen: other checks say so
        return
    tol = 1e-4 if dt == torch.float32 else 4 * ctx.tol(dt)[0]
    change = {}
    for n in "qkv":
        a, b = first[n].double().cpu(), second[n].double().cpu()
        change[n] = float((b - a).abs().max()) / max(float(a.abs().max()), 1e-12)
    found[_name(dt)] = {"relative_change_of_qkv_for_4x": change}
    if max(change.values()) <= tol:
        return
    ratio = float(second["q"].double().norm()) / max(float(first["q"].double().norm()), 1e-12)
    # Where is the norm then? Normalised sub-layer contributions (out − x) stay bounded when
    # x grows; un-normalised ones grow with it.
    grow = float((out4.double() - 4 * x.double()).norm()) / max(
        float((out1.double() - x.double()).norm()), 1e-12)
    order = ("x + Norm(F(x)), the norm after each sub-layer (OLMo 2's order)" if grow < 2 else
             "no RMSNorm before attention")
    raise CheckFailed(
        f"found {order}, not the stem's pre-norm h = x + Attn(RMSNorm(x)), out = h + "
        f"MLP(RMSNorm(h)): scaling x by 4 changed attention's q, k, v by up to "
        f"{max(change.values()):.3g} (relative; q grew ×{ratio:.3g}; output − x grew "
        f"×{grow:.3g}), so attention does not see RMSNorm(x) ({_name(dt)})",
        relative_change=change, q_growth=ratio, contribution_growth=grow)


@check("pre_norm", "with every weight matrix zeroed the layer returns x + a constant (pre-norm "
       "residuals; post-norm would return a normalised x), and attention sees RMSNorm(x): its "
       "q, k, v do not change when x is scaled ×4 (x + Norm(F(x)) would scale them)")
def pre_norm(ctx):
    found = {}
    for dt in _dtypes(ctx):
        layer = _build(ctx, 32, 4, dtype=dt).eval()
        mats = [p for p in layer.parameters() if p.dim() >= 2 and p.requires_grad]
        ctx.expect(bool(mats), "the layer has no weight matrices (parameters with 2+ dims)")
        with torch.no_grad():
            for p in mats:
                p.zero_()
            torch.manual_seed(5)
            x = 3 * torch.randn(2, 7, 32, device=ctx.device, dtype=dt)
            offset = layer(x) - x      # pre-norm: the biases' contribution, the same everywhere
            offset2 = layer(0.5 * x + 1) - (0.5 * x + 1)
        rtol, atol = ctx.tol(dt)
        expected = offset[:1, :1].expand_as(offset)
        assert_close(offset, expected, rtol=rtol, atol=10 * atol,
                     what=f"output − x with all weight matrices zeroed ({_name(dt)}; expected "
                          "the same constant for every token: the residual stream must not be "
                          "normalised, as post-norm x = Norm(x + F(x)) does)")
        assert_close(offset2, expected, rtol=rtol, atol=10 * atol,
                     what=f"output − x for another input, weights zeroed ({_name(dt)})")
        _attention_sees_norm(ctx, dt, found)
    return found


@check("matches_reference", "output equals a float64 reference built from your weights in the "
       "recognised layout (projections, GQA head grouping, RoPE pairing, norms and their gain "
       "w or 1 + w, MLP, softmax scale), two shapes")
def matches_reference(ctx):
    rec = _recognise(ctx)
    ctx.recognised = rec.describe()
    if rec.config is None:
        torch.manual_seed(12)
        layer = _build(ctx, 64, 4, seed=1).eval()
        x = torch.randn(2, 7, 64, device=ctx.device)
        with torch.no_grad(), AttentionTap(ctx.ns, record=False, route=_math_route):
            y = layer(x)
        raise CheckFailed("output differs from every correct design in the recognised layout"
                          + _mismatch_hint(ctx, rec, layer, x, y, 4),
                          best_relative_error=rec.best[0])
    errors = {}
    for dt in _dtypes(ctx):
        for b, s, d, h in [(2, 11, 64, 4), (1, 6, 48, 2)]:
            layer = _build(ctx, d, h, dtype=dt).eval()
            params = dict(layer.named_parameters())
            torch.manual_seed(6)
            x = torch.randn(b, s, d, device=ctx.device, dtype=dt)
            with torch.no_grad():
                res = _close(ctx, layer(x), _reference(rec, rec.config, params, x, h), dt,
                             f"output vs reference, shape {(b, s, d)}, n_heads={h}, {_name(dt)}")
            errors[f"{_name(dt)} {(b, s, d, h)}"] = res
    return {"errors": errors, "recognised": ctx.recognised}


@check("checkpoint_grads", "checkpoint=True gives the same gradients as checkpoint=False and "
       "reaches every parameter when the input does not require grad (reentrant pitfall)")
def checkpoint_grads(ctx):
    d, h = 32, 4
    for dt in _dtypes(ctx):
        plain = _build(ctx, d, h, checkpoint=False, dtype=dt).train()
        ckpt = _build(ctx, d, h, checkpoint=True, dtype=dt).train()
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


def _training_step(ctx, flag, dt):
    """Forward + backward; activations saved for backward, recomputation seen in backward."""
    layer = _build(ctx, 32, 4, checkpoint=flag, dtype=dt).train()
    torch.manual_seed(8)
    x = torch.randn(2, 6, 32, device=ctx.device, dtype=dt, requires_grad=True)
    phase = {"backward": False, "forward_calls": 0, "backward_calls": 0}

    def count(*_):
        phase["backward_calls" if phase["backward"] else "forward_calls"] += 1

    hooks = [m.register_forward_hook(count) for m in layer.modules() if m is not layer]
    saved = {"bytes": 0}

    def pack(t):
        saved["bytes"] += t.numel() * t.element_size()
        return t

    try:
        with AttentionTap(ctx.ns, record=False) as tap:
            with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
                y = layer(x)
            n_fwd = len(tap.calls)
            phase["backward"] = True
            y.float().square().sum().backward()
            n_bwd = len(tap.calls) - n_fwd
    finally:
        for hook in hooks:
            hook.remove()
    with torch.no_grad():
        layer.eval()(x)  # eval / no_grad with checkpoint=True still runs
    return {"attention_calls_forward": n_fwd, "attention_calls_backward": n_bwd,
            "module_calls_backward": phase["backward_calls"], "saved_bytes": saved["bytes"]}


@check("checkpoint_recompute", "checkpoint=True saves fewer activations for backward than "
       "checkpoint=False (the checkpointed part is recomputed), checkpoint=False recomputes "
       "nothing; eval/no_grad still runs")
def checkpoint_recompute(ctx):
    dt = _dtypes(ctx)[0]
    plain, ckpt = _training_step(ctx, False, dt), _training_step(ctx, True, dt)
    report = {"checkpoint=False": plain, "checkpoint=True": ckpt}
    ctx.expect(plain["attention_calls_backward"] == 0 and plain["module_calls_backward"] == 0,
               "checkpoint=False but backward recomputed part of the layer", **report)
    ctx.expect(ckpt["saved_bytes"] < plain["saved_bytes"],
               f"checkpoint=True saved {ckpt['saved_bytes']} bytes of activations for backward, "
               f"no fewer than checkpoint=False ({plain['saved_bytes']}): nothing was "
               "checkpointed (in training mode with grad enabled)", **report)
    seen = [w for w, n in (("attention", ckpt["attention_calls_backward"]),
                           ("submodules", ckpt["module_calls_backward"])) if n]
    what = f"recomputes {' and '.join(seen)} in backward; " if seen else ""
    ctx.recognised = (f"checkpointing: {what}saved activations {ckpt['saved_bytes']} bytes vs "
                      f"{plain['saved_bytes']} without")
    return report


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


# --------------------------------------------------------------------------------------
# FLOPs: the learner's formula against FlopCounterMode on the learner's own layer
# --------------------------------------------------------------------------------------
_FLOP_CACHE: dict = {}


def _matmul_counts():
    """FlopCounterMode's formulas, except products with a contraction of length 1: those are
    outer products (a RoPE angle table built as ``inv_freq @ positions``), which the stem's
    convention counts as 0 like the rest of RoPE."""
    from torch.utils import flop_counter as fc

    aten = torch.ops.aten

    def mm(a, b, *args, out_shape=None, **kwargs):
        return 0 if a[-1] == 1 else fc.mm_flop(a, b)

    def addmm(c, a, b, *args, out_shape=None, **kwargs):
        return 0 if a[-1] == 1 else fc.mm_flop(a, b)

    def bmm(a, b, *args, out_shape=None, **kwargs):
        return 0 if a[-1] == 1 else fc.bmm_flop(a, b)

    def baddbmm(c, a, b, *args, out_shape=None, **kwargs):
        return 0 if a[-1] == 1 else fc.bmm_flop(a, b)

    return {aten.mm: mm, aten.addmm: addmm, aten.bmm: bmm, aten.baddbmm: baddbmm}


def _counted(ctx, shp):
    """FlopCounterMode totals of the learner's layer (attention as explicit matmuls)."""
    key = (id(ctx.get(LAYER)), hash(ctx.source or ""), shp)
    if key not in _FLOP_CACHE:
        b, s, d, h = shp
        layer = _build(ctx, d, h, dtype=torch.float32).train()
        torch.manual_seed(10)
        # x requires grad, as inside a network: every matmul then has its input gradient.
        x = torch.randn(b, s, d, device=ctx.device, requires_grad=True)
        with AttentionTap(ctx.ns, record=False, route=_math_route) as tap:
            with FlopCounterMode(display=False, custom_mapping=_matmul_counts()) as fwd:
                y = layer(x)
            attention = sum(c["flops"] for c in tap.calls)
            with FlopCounterMode(display=False, custom_mapping=_matmul_counts()) as bwd:
                y.sum().backward()
        _FLOP_CACHE[key] = {"forward": fwd.get_total_flops(), "backward": bwd.get_total_flops(),
                            "attention": attention, "seq": s}
    return _FLOP_CACHE[key]


def _causal_factors(s):
    return [("dense attention (both matmuls in full, what FlopCounterMode counts)", 1.0),
            ("causal attention halved (the FlashAttention-2 benchmark convention)", 0.5),
            ("causal attention, exact lower triangle s(s+1)/2", (s + 1) / (2 * s))]


def _conventions(which, count):
    """(name, expected FLOPs) for the published counting conventions at one shape."""
    a, s = count["attention"], count["seq"]
    if which == "forward":
        rest = count["forward"] - a
        return [(name, rest + f * a) for name, f in _causal_factors(s)]
    rest = count["backward"] - 2 * a  # the math path's backward: 4 matmuls = 2× forward
    return [(f"{name}; attention backward {k:g}× its forward "
             f"({'no recompute' if k == 2 else 'FlashAttention-2 count, with the recompute of P'})",
             rest + k * f * a) for k in (2.0, 2.5) for name, f in _causal_factors(s)]


def _flops_check(ctx, fname, which):
    fn = ctx.get(fname)
    rows, matching = {}, None
    for shp in FLOP_SHAPES:
        count = _counted(ctx, shp)
        try:
            got = fn(*shp)
        except Exception as exc:
            raise CheckFailed(f"{fname}{shp} raised {type(exc).__name__}: {exc}")
        ctx.expect(isinstance(got, (int, float)) and not isinstance(got, bool) and
                   math.isfinite(got), f"{fname}{shp} returned {got!r}, expected a number")
        conv = _conventions(which, count)
        hits = {name for name, want in conv if abs(got - want) <= max(0.5, 1e-9 * abs(want))}
        matching = hits if matching is None else matching & hits
        rows[str(shp)] = {"formula": got, "counted_total": count[which],
                          "attention_forward": count["attention"],
                          "conventions": {name: want for name, want in conv}}
    if not matching:
        worst = {}
        for shp in FLOP_SHAPES:
            for name, want in rows[str(shp)]["conventions"].items():
                ratio = rows[str(shp)]["formula"] / want if want else float("inf")
                worst[name] = max(worst.get(name, 0.0), abs(math.log(ratio)) if ratio > 0
                                  else float("inf"))
        nearest = min(worst, key=worst.get)
        shp = max(FLOP_SHAPES, key=lambda t: abs(math.log(max(
            rows[str(t)]["formula"], 1e-300) / rows[str(t)]["conventions"][nearest])))
        row = rows[str(shp)]
        want = row["conventions"][nearest]
        dense = [rows[str(t)]["formula"] / next(iter(rows[str(t)]["conventions"].values()))
                 for t in FLOP_SHAPES]
        hint = ""
        for factor, text in ((0.5, "1 FLOP per multiply-add? The convention counts 2"),
                             (2.0, "4 FLOPs per multiply-add? The convention counts 2")):
            if all(abs(r - factor) < 1e-9 for r in dense):
                hint = f" (exactly {factor:g}× the dense count on every shape: {text})"
        raise CheckFailed(
            f"{fname}{shp} = {row['formula']:g}; FlopCounterMode on your layer gives {want:g} "
            f"in the nearest convention, ratio {row['formula'] / want:.4f}{hint}; no published "
            f"convention matches on all {len(FLOP_SHAPES)} shapes (nearest: {nearest})",
            rows=rows, nearest=nearest)
    chosen = sorted(matching)[0]
    ctx.recognised = f"{which} FLOPs convention: {chosen}"
    return {"rows": rows, "convention": chosen}


@check("flops_forward", "forward_flops(batch, seq, dim, n_heads) equals FlopCounterMode's count "
       "of your layer's forward on three shapes (attention dense, or causal-halved)")
def flops_forward(ctx):
    return _flops_check(ctx, "forward_flops", "forward")


@check("flops_backward", "backward_flops(batch, seq, dim, n_heads) equals FlopCounterMode's count "
       "of your layer's backward (no checkpointing; attention 2× or FA2's 2.5×) on three shapes")
def flops_backward(ctx):
    return _flops_check(ctx, "backward_flops", "backward")


# --------------------------------------------------------------------------------------
# Performance (CUDA only, informative)
# --------------------------------------------------------------------------------------
class _PerfReference(nn.Module):
    """A plain LLaMA-style layer (fused qkv, interleaved RoPE, SiLU-MLP) timed beside yours."""

    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, dim // n_heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)
        self.norm1, self.norm2 = nn.RMSNorm(dim, eps=1e-6), nn.RMSNorm(dim, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim, bias=False), nn.SiLU(),
                                 nn.Linear(4 * dim, dim, bias=False))

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, s, 3, self.n_heads, self.head_dim).unbind(2)
        inv = 10000.0 ** (-torch.arange(0, self.head_dim, 2, device=x.device) / self.head_dim)
        ang = torch.outer(torch.arange(s, device=x.device, dtype=torch.float32), inv)
        cos, sin = ang.cos()[None, :, None, :], ang.sin()[None, :, None, :]

        def rot(t):
            a, c = t.float()[..., 0::2], t.float()[..., 1::2]
            return torch.stack((a * cos - c * sin, a * sin + c * cos), -1).flatten(-2).to(t.dtype)

        fa = sys.modules["flash_attn"].flash_attn_func
        h = x + self.o(fa(rot(q), rot(k), v, causal=True).reshape(b, s, d))
        return h + self.mlp(self.norm2(h))


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


@check("perf", "bf16 speed vs a plain FlashAttention-2 layer on three shapes: ms, achieved "
       "TFLOP/s (dense 24·b·s·d² + 4·b·s²·d count), % of the device's dense bf16 peak; fails if "
       "the learner's forward+backward is over 1.5× slower", cuda_only=True, required=False,
       timeout=600)
def perf(ctx):
    if not ctx.is_cuda:
        return {"message": "not run: needs a CUDA device"}
    name = torch.cuda.get_device_name(ctx.device)
    peak = next((p for key, p in _PEAKS if key in name), None)
    rows, worst = [], 0.0
    for b, s, d, h in PERF_SHAPES:
        dt = torch.bfloat16
        learner = _build(ctx, d, h, dtype=dt).train()
        ref = cast_floating_(_PerfReference(d, h), dt, ctx.device).train()
        x = torch.randn(b, s, d, device=ctx.device, dtype=dt)
        g = torch.randn(b, s, d, device=ctx.device, dtype=dt)
        flops = 24 * b * s * d * d + 4 * b * s * s * d
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
                       "attention work, so its true rate on that part is about 2× lower); "
                       "a learner's MLP wider than 4·dim does more work than the reference"}
    if worst > 1.5:
        raise CheckFailed(f"forward+backward up to {worst:.2f}× slower than the reference on "
                          f"{name}", **details)
    return details
