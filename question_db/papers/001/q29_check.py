"""Checks for 001/29: multi-head self-attention with RoPE in complex-rotation form.

Interface (the stem): ``RoPEMultiHeadAttention(d_model, h, max_len=2048)``,
``forward(x, mask=None)``, x (batch, seq, d_model) -> same shape and dtype; ``mask`` None (no
mask: every query sees every key) or broadcastable to (batch, h, seq, seq) with 1/True =
attend, 0/False = masked; RoPE on q and k of every head, θ_i = 10000^(−2i/d_k); scores
scaled by 1/√d_k; softmax over keys. The learner chooses parameter names, separate or fused
projections, bias or not, the RoPE pairing ((2i, 2i+1) or (i, i + d_k/2): both rotate a pair
read as a complex number), complex or real arithmetic, buffers or attributes for tables.

Name-free properties: shape/dtype, relative position (a masked-off prefix shifts positions
and must not change the outputs), mask semantics, max_len. Where known weights are needed
(softmax over keys, the 1/√d_k scale, exact agreement) the learner's projections are found by
how one forward uses them (layouts.ParamTrace) and set or read by role.
"""
import math
import re

import torch
import torch.nn.functional as F

from _examdesk_harness import CheckFailed, assert_close, cast_floating_, check, tensor_mismatch
from _examdesk_layouts import (HOW_TO_EXPOSE, PAIRINGS, AttentionTap, Matrix, ParamTrace,
                               leaf_name, relative_error, rope, split_projections)

CLS = "RoPEMultiHeadAttention"


# ---------------------------------------------------------------- building and running
def _make(ctx, d_model, h, seed=0, dtype=torch.float32, **kw):
    """The learner's module (seeded) on ctx.device; floating tensors cast to ``dtype`` only
    (complex RoPE tables keep their dtype)."""
    cls = ctx.get(CLS)
    torch.manual_seed(seed)
    try:
        with AttentionTap(ctx.ns, record=False):  # a kept F.scaled_dot_product_attention
            m = cls(d_model, h, **kw)              # stays observable
    except Exception as exc:
        raise CheckFailed(f"{CLS}({d_model}, {h}{''.join(f', {k}={v}' for k, v in kw.items())}) "
                          f"raised {type(exc).__name__}: {exc}")
    with torch.no_grad():  # biases off zero, so ignoring one shows
        for p in m.parameters():
            if p.dim() == 1 and p.requires_grad:
                p.uniform_(-0.5, 0.5)
    return cast_floating_(m, dtype, ctx.device).eval()


def _run(m, x, mask=None):
    with torch.no_grad():
        y = m(x) if mask is None else m(x, mask=mask)
    if not isinstance(y, torch.Tensor):
        raise CheckFailed(f"forward returned {type(y).__name__}, expected a tensor")
    if y.shape != x.shape:
        raise CheckFailed(f"output shape {tuple(y.shape)}, expected {tuple(x.shape)}")
    return y


def _ones(seq, device):
    return torch.ones(1, 1, seq, seq, dtype=torch.bool, device=device)


# ---------------------------------------------------------------- recognition
_MISTAKES = {
    "mask_none_causal": "mask=None treated as a causal mask (the interface: None = no mask)",
    "no_rope": "no RoPE at all (plain multi-head attention)",
    "rope_on_v": "RoPE also applied to V",
    "scale_dk": "scale 1/d_k instead of 1/sqrt(d_k)",
    "no_scale": "no 1/sqrt(d_k) scale",
    "softmax_queries": "softmax over queries (dim=-2) instead of keys",
    "mask_plus": "masked scores filled with +1e9 instead of a large negative value",
    "mask_ignored": "the mask ignored",
    "rope_freq": "RoPE frequencies 10000^(−i/d_k) instead of 10000^(−2i/d_k)",
}


class _Recognition:
    def __init__(self):
        self.proj = None
        self.o = None
        self.options = []
        self.config = None
        self.best = (float("inf"), None)
        self.attention = ""

    @property
    def cfg(self):
        return self.config or self.best[1] or self.options[0]

    def describe(self, cfg=None) -> str:
        cfg = cfg or self.cfg
        rope_text = PAIRINGS[cfg["pairing"]] if self.config else "no pairing matched"
        return (f"projections: {self.proj.describe(cfg['packing'])} · output: "
                f"{leaf_name(self.o.name)}{' with bias' if self.o.bias else ', no bias'} · "
                f"RoPE: {rope_text} · attention: {self.attention}")

    def mats(self):
        return list(self.proj.mats.values()) + [self.o]


def _discover(ctx, d=32, h=4):
    m = _make(ctx, d, h)
    params = {n: p for n, p in m.named_parameters() if p.requires_grad}  # not tables
    trace = ParamTrace(params)
    x = torch.randn(2, 5, d, device=ctx.device)
    with AttentionTap(ctx.ns, record=False,
                      on_call=lambda info: trace.mark("attention", info["entry"])):
        with torch.no_grad(), trace:
            m(x)
    rec = _Recognition()
    marks = [i for i, kind, _ in trace.events if kind == "attention"]
    rec.attention = "F.scaled_dot_product_attention" if marks else "softmax(q·kᵀ/√d_k)·v"
    marks = marks or [i for i, kind, _ in trace.events if kind == "softmax"]
    if not marks:
        raise CheckFailed("no softmax and no F.scaled_dot_product_attention call was seen in "
                          "one forward, so the checks cannot tell the q/k/v projections from "
                          "the output projection. " + HOW_TO_EXPOSE)
    mats = sorted((Matrix(n, p, trace) for n, p in params.items()
                   if p.dim() == 2 and n in trace.first), key=lambda mm: mm.first)
    pre = [mm for mm in mats if mm.first < marks[0]]
    post = [mm for mm in mats if mm.first > marks[0]]
    try:
        rec.proj = split_projections(pre, d, h)
    except ValueError as exc:
        raise CheckFailed(f"could not map your projections onto q, k, v: {exc}. "
                          + HOW_TO_EXPOSE, parameters=sorted(params))
    if len(post) != 1 or post[0].out != d or post[0].inp != d:
        raise CheckFailed(f"expected one ({d}, {d}) output projection used after the softmax, "
                          f"found {post}. " + HOW_TO_EXPOSE)
    rec.o = post[0]
    rec.options = [{"packing": p, "pairing": r} for p in rec.proj.options for r in PAIRINGS]
    return rec


def _reference(rec, cfg, params, x, h, mask=None, mistakes=()):
    """float64 output of the recognised design with the learner's weights."""
    x = x.detach().double().cpu()
    b, s, d = x.shape
    d_k = d // h
    q, k, v = rec.proj.qkv(x, params, cfg["packing"], h)
    if "no_rope" not in mistakes:
        step = 1 if "rope_freq" in mistakes else 2
        q, k = (rope(t, cfg["pairing"], exponent_step=step) for t in (q, k))
        if "rope_on_v" in mistakes:
            v = rope(v, cfg["pairing"])
    q, k, v = (t.transpose(1, 2) for t in (q, k, v))  # (b, h, s, d_k)
    div = {"scale_dk": float(d_k), "no_scale": 1.0}.get(
        next((mm for mm in mistakes if mm in ("scale_dk", "no_scale")), ""), math.sqrt(d_k))
    scores = q @ k.transpose(-2, -1) / div
    if mask is None and "mask_none_causal" in mistakes:
        mask = torch.ones(s, s).tril()
    if mask is not None and "mask_ignored" not in mistakes:
        fill = 1e9 if "mask_plus" in mistakes else float("-inf")
        scores = scores.masked_fill(mask.cpu() == 0, fill)
    attn = scores.softmax(dim=-2 if "softmax_queries" in mistakes else -1)
    out = (attn @ v).transpose(1, 2).reshape(b, s, d)
    return F.linear(out, rec.o.weight(params), rec.o.bias_value(params))


_RECOGNISED: dict = {}


def _recognise(ctx) -> _Recognition:
    key = (id(ctx.get(CLS)), hash(ctx.source or ""))
    if key in _RECOGNISED:
        return _RECOGNISED[key]
    rec = _discover(ctx)
    d, h = 32, 4
    m = _make(ctx, d, h, seed=1)
    params = dict(m.named_parameters())
    torch.manual_seed(12)
    x = torch.randn(2, 7, d, device=ctx.device)
    y = _run(m, x, _ones(7, ctx.device))
    for cfg in rec.options:
        with torch.no_grad():
            err = relative_error(y, _reference(rec, cfg, params, x, h, _ones(7, "cpu")))
        if err < rec.best[0]:
            rec.best = (err, cfg)
        if err <= 1e-4:
            rec.config = cfg
            break
    _RECOGNISED.clear()
    _RECOGNISED[key] = rec
    return rec


def _set_roles(ctx, m, rec, d_model, h, weights: dict):
    """Write (d_model, d_model) weights for roles q, k, v, o into the learner's module; all
    biases of these projections set to zero."""
    params = dict(m.named_parameters())
    cfg = rec.cfg
    for role in "qkv":
        mat, rows = rec.proj.rows(role, cfg["packing"], d_model, h)
        mat.write(params, rows, weights[role])
    rec.o.write(params, torch.arange(d_model), weights["o"])
    with torch.no_grad():
        for mat in rec.mats():
            if mat.bias:
                params[mat.bias].zero_()


def _require_layout(ctx):
    try:
        return _recognise(ctx)
    except CheckFailed as exc:
        raise CheckFailed("this check sets the projection weights by role, and " + exc.message,
                          **exc.details)


# ---------------------------------------------------------------- checks
@check("shape", "x (batch, seq, d_model) -> same shape and dtype, finite, for several d_model/h")
def check_shape(ctx):
    dev = ctx.device
    for d_model, h, bsz, seq in [(64, 4, 2, 10), (48, 3, 1, 7), (32, 8, 3, 1), (8, 1, 2, 5)]:
        m = _make(ctx, d_model, h)
        torch.manual_seed(1)
        x = torch.randn(bsz, seq, d_model, device=dev)
        y = _run(m, x)
        ctx.expect(y.dtype == x.dtype, f"d_model={d_model}, h={h}: output dtype {y.dtype}, "
                   f"input {x.dtype}")
        ctx.expect(bool(torch.isfinite(y).all()), f"d_model={d_model}, h={h}: non-finite output")
    return {"message": "shapes ok for (d_model, h) in (64,4), (48,3), (32,8), (8,1)"}


@check("relative_position",
       "scores depend only on m - n: after a masked-off prefix the outputs are unchanged; "
       "and positions matter (output is not permutation-equivariant)")
def check_relative_position(ctx):
    dev = ctx.device
    rtol, atol = ctx.tol(torch.float32)
    d_model, h, bsz, seq, pre = 32, 4, 2, 12, 29
    m = _make(ctx, d_model, h)
    torch.manual_seed(2)
    x = torch.randn(bsz, seq, d_model, device=dev)
    prefix = torch.randn(bsz, pre, d_model, device=dev)
    total = pre + seq
    # Block-diagonal mask: prefix attends to prefix, x attends to x only, so x sits at
    # positions pre..total-1 but sees exactly the same tokens as when run alone (with an
    # all-ones mask: the same masking path, whatever mask=None means to the learner).
    block = torch.zeros(1, 1, total, total, dtype=torch.bool, device=dev)
    block[..., :pre, :pre] = True
    block[..., pre:, pre:] = True
    alone = _run(m, x, _ones(seq, dev))
    shifted = _run(m, torch.cat([prefix, x], dim=1), block)[:, pre:]
    bad = tensor_mismatch(shifted, alone, rtol=rtol, atol=atol * 10)
    if bad is not None:
        raise CheckFailed(
            f"shifting the sequence by {pre} positions (masked-off prefix) changed the output: "
            f"max abs err {bad['max_abs_err']:.3g} at {tuple(bad.get('first_mismatch', []))}; "
            f"RoPE scores must depend only on the offset m - n (absolute positions leak in, "
            f"e.g. RoPE on V or on q only, or the mask is not applied)", **bad)
    # Positions must matter: without RoPE, attention is permutation-equivariant.
    perm = torch.randperm(seq, generator=torch.Generator().manual_seed(3)).to(dev)
    permuted = _run(m, x[:, perm], _ones(seq, dev))
    diff = float((permuted - alone[:, perm]).abs().max())
    scale = float(alone.abs().max())
    ctx.expect(diff > 1e-3 * scale,
               f"permuting the tokens only permuted the outputs (max diff {diff:.3g}): the "
               f"positions have no effect, so RoPE is not applied along the sequence axis",
               max_abs_diff=diff)
    return {"shift_max_abs_err": float((shifted - alone).abs().max()), "permutation_diff": diff}


@check("mask_semantics",
       "mask 1 = attend, 0 = masked: masked keys get zero weight (padding and causal masks); "
       "mask=None means no mask (equals an all-ones mask)")
def check_mask_semantics(ctx):
    dev = ctx.device
    rtol, atol = ctx.tol(torch.float32)
    d_model, h, bsz, seq = 32, 4, 2, 10
    m = _make(ctx, d_model, h)
    torch.manual_seed(4)
    x = torch.randn(bsz, seq, d_model, device=dev)
    # 1. padding mask (batch, 1, 1, seq), 0/1 integers: last 3 keys of batch 1 masked.
    pad = torch.ones(bsz, 1, 1, seq, dtype=torch.long, device=dev)
    pad[1, ..., -3:] = 0
    x2 = x.clone()
    x2[1, -3:] = 5 * torch.randn(3, d_model, device=dev)
    y, y2 = _run(m, x, pad), _run(m, x2, pad)
    bad = tensor_mismatch(y2[1, :-3], y[1, :-3], rtol=rtol, atol=atol)
    if bad is not None:
        raise CheckFailed(
            f"padding mask (int, shape {tuple(pad.shape)}, 0 on the last 3 keys): changing the "
            f"masked tokens changed the other outputs (max abs err {bad['max_abs_err']:.3g}); "
            f"keys where mask == 0 must get zero attention weight (masked_fill with a large "
            f"NEGATIVE value)", **bad)
    # 2. causal bool mask (1, 1, seq, seq): outputs up to t ignore tokens after t.
    causal = torch.tril(torch.ones(seq, seq, dtype=torch.bool, device=dev))[None, None]
    t = seq // 2
    x3 = x.clone()
    x3[:, t + 1:] = 5 * torch.randn(bsz, seq - t - 1, d_model, device=dev)
    y, y3 = _run(m, x, causal), _run(m, x3, causal)
    bad = tensor_mismatch(y3[:, :t + 1], y[:, :t + 1], rtol=rtol, atol=atol)
    if bad is not None:
        raise CheckFailed(
            f"causal mask (bool lower triangle): changing tokens after position {t} changed "
            f"outputs at positions <= {t} (max abs err {bad['max_abs_err']:.3g}); "
            f"the mask is not respected", **bad)
    # 3. mask=None is no mask: equal to an all-ones mask.
    ones = torch.ones(1, 1, seq, seq, dtype=torch.long, device=dev)
    none, full = _run(m, x), _run(m, x, ones)
    if tensor_mismatch(none, full, rtol=rtol, atol=atol) is not None:
        if tensor_mismatch(none, _run(m, x, causal), rtol=rtol, atol=atol) is None:
            raise CheckFailed("mask=None gives the causal-mask output: in this interface "
                              "mask=None means no mask (every query attends to every key); "
                              "apply a causal mask only when one is passed")
        assert_close(none, full, rtol=rtol, atol=atol, what="mask=None vs an all-ones mask")
    return {"message": "padding (int), causal (bool) and all-ones masks behave; None = no mask"}


@check("softmax_over_keys",
       "attention weights (read out through one-hot values) are >= 0 and sum to 1 over keys")
def check_softmax_over_keys(ctx):
    dev = ctx.device
    d_model, h, bsz, seq = 64, 2, 2, 16
    d_k = d_model // h
    rec = _require_layout(ctx)
    m = _make(ctx, d_model, h)
    eye = torch.eye(d_model)
    gen = torch.Generator().manual_seed(13)
    _set_roles(ctx, m, rec, d_model, h, {"q": 4 * torch.randn(d_model, d_model, generator=gen)
                                         / math.sqrt(d_model),
                                         "k": 4 * torch.randn(d_model, d_model, generator=gen)
                                         / math.sqrt(d_model), "v": eye, "o": eye})
    # Token n is amp_n * e_{2n} in every head, so V_n = amp_n * e_{2n} and the output of
    # query q in the pair (2n, 2n+1) has norm amp_n * attn[q, n] (whatever the pairing, also
    # if V were rotated): dividing by amp_n reads the attention weights off the output.
    torch.manual_seed(5)
    amp = 1.0 + 0.5 * torch.rand(bsz, seq, device=dev)
    x = torch.zeros(bsz, seq, d_model, device=dev)
    for n in range(seq):
        for hd in range(h):
            x[:, n, hd * d_k + 2 * n] = amp[:, n]
    y = _run(m, x, _ones(seq, dev)).double()
    pairs = y.view(bsz, seq, h, d_k // 2, 2).norm(dim=-1)  # (batch, query, head, key)
    if rec.cfg["pairing"] == "half":  # value channel 2n pairs with 2n+1 only if interleaved;
        pairs = y.view(bsz, seq, h, d_k).abs()[..., 0::2]  # V is never rotated: read e_{2n}
    weights = pairs / amp.double()[:, None, None, :]
    rows = weights.sum(-1)  # (batch, query, head)
    err = float((rows - 1).abs().max())
    ctx.expect(err < 1e-3, f"attention weights of a query do not sum to 1 over the keys "
               f"(row sums range {float(rows.min()):.4f}..{float(rows.max()):.4f}); softmax "
               f"must normalise over keys (dim=-1 of (batch, h, seq_q, seq_k))",
               row_sum_min=float(rows.min()), row_sum_max=float(rows.max()))
    ctx.recognised = rec.describe()
    return {"row_sum_max_err": err, "weight_spread": float(weights.max() - weights.min())}


@check("scale_sqrt_dk",
       "scores are scaled by 1/sqrt(d_k) (two-token probe, independent of the RoPE pairing)")
def check_scale(ctx):
    dev = ctx.device
    rec = _require_layout(ctx)
    found = {}
    for d_model, h in [(32, 2), (32, 8)]:
        d_k = d_model // h
        c2 = 2.0 * math.sqrt(d_k)  # makes the expected logit s / sqrt(d_k) equal 2
        m = _make(ctx, d_model, h)
        eye = torch.eye(d_model)
        _set_roles(ctx, m, rec, d_model, h, {"q": math.sqrt(c2) * eye, "k": math.sqrt(c2) * eye,
                                             "v": eye, "o": eye})
        # Token 0 is zero -> k_0 = v_0 = 0; token 1 has unit norm in every head.  Query 1
        # then scores s = c2 * |x_1h|^2 = c2 against key 1 (RoPE at equal positions
        # cancels whatever the pairing) and 0 against key 0, so its output in head h
        # has norm sigmoid(s * scale) (also if V were rotated).
        torch.manual_seed(6)
        x1 = torch.randn(h, d_k)
        x1 = (x1 / x1.norm(dim=-1, keepdim=True)).reshape(d_model)
        x = torch.stack([torch.zeros(d_model), x1])[None].to(dev)
        y = _run(m, x, _ones(2, dev))[0, 1].double().view(h, d_k)
        w = y.norm(dim=-1).clamp(1e-12, 1 - 1e-12)
        measured = (torch.log(w / (1 - w)) / c2)  # effective multiplier of q.k, per head
        eff = float(measured.mean())
        found[d_k] = eff
        want = 1 / math.sqrt(d_k)
        if abs(eff - want) > 1e-3 * want or float(measured.max() - measured.min()) > 1e-3 * want:
            guess = min({"1/sqrt(d_k)": want, "1/d_k": 1 / d_k, "1 (no scale)": 1.0,
                         "sqrt(d_k)": math.sqrt(d_k)}.items(), key=lambda kv: abs(kv[1] - eff))
            hint = (f"closest: {guess[0]}" if guess[0] != "1/sqrt(d_k)" else
                    "q.k of two tokens at the same position changed: are q and k rotated "
                    "by the same angles?")
            raise CheckFailed(f"d_k={d_k}: scores are multiplied by {eff:.5g}, expected "
                              f"1/sqrt(d_k) = {want:.5g} ({hint})",
                              d_k=d_k, measured_scale=eff, expected_scale=want,
                              per_head=[float(v) for v in measured])
    return {"measured_scale": {str(k): v for k, v in found.items()}}


@check("reference_agreement",
       "matches a float64 reference built from your weights in the recognised layout (no "
       "mask, causal, padding; fp32, and bf16 on CUDA)")
def check_reference(ctx):
    dev = ctx.device
    rec = _recognise(ctx)
    ctx.recognised = rec.describe()
    d_model, h, bsz, seq = 64, 4, 2, 24
    torch.manual_seed(7)
    x = torch.randn(bsz, seq, d_model, device=dev)
    causal = torch.tril(torch.ones(seq, seq, dtype=torch.bool, device=dev))[None, None]
    pad = torch.ones(bsz, 1, 1, seq, dtype=torch.long, device=dev)
    pad[0, ..., -5:] = 0
    worst = {}
    for dtype in ctx.dtypes:
        m = _make(ctx, d_model, h, dtype=dtype)
        params = dict(m.named_parameters())
        xd = x.to(dtype)
        for label, mask in [("no mask", None), ("causal mask", causal), ("padding mask", pad)]:
            y = _run(m, xd, mask)
            with torch.no_grad():
                want = _reference(rec, rec.cfg, params, xd, h, mask)
            err = relative_error(y, want)
            limit = 1e-5 if dtype == torch.float32 else 1.5 * ctx.tol(dtype)[0]
            rtol, atol = ctx.tol(dtype)
            bad = (tensor_mismatch(y, want, rtol=rtol, atol=atol) if dtype == torch.float32
                   else (None if err <= limit else {"rel_err": err}))
            if bad is None:
                worst[f"{label} {str(dtype)[6:]}"] = float((y.double().cpu() - want).abs().max())
                continue
            hint = ""
            for mistake, what in _MISTAKES.items():
                for cfg in sorted(rec.options, key=lambda c: c is not rec.cfg):
                    with torch.no_grad():
                        alt = _reference(rec, cfg, params, xd, h, mask, mistakes=(mistake,))
                    if relative_error(y, alt) <= max(1e-5, limit):
                        hint = f": your output matches {what}"
                        break
                if hint:
                    break
            if not hint:
                hint = (f"; closest correct design: {rec.describe()} (relative error "
                        f"{rec.best[0]:.3g} on random input)")
            raise CheckFailed(f"{str(dtype)[6:]}, {label}: output differs from the reference "
                              f"(relative error {err:.3g}){hint}", **bad)
    return {"max_abs_err": worst}


@check("max_len",
       "seq == max_len works (max_len=96 and the default 2048), and the relative-position "
       "property still holds at positions near 2047")
def check_max_len(ctx):
    dev = ctx.device
    m = _make(ctx, 32, 4, max_len=96)
    torch.manual_seed(8)
    y = _run(m, torch.randn(1, 96, 32, device=dev))
    ctx.expect(bool(torch.isfinite(y).all()), "max_len=96, seq=96: non-finite output")
    # Default max_len: the last 16 of 2048 tokens, attending only to each other,
    # must give what they give alone (positions 2032..2047 vs 0..15).
    d_model, h, total, tail = 16, 2, 2048, 16
    m = _make(ctx, d_model, h)
    torch.manual_seed(9)
    x = torch.randn(1, total, d_model, device=dev)
    block = torch.zeros(1, 1, total, total, dtype=torch.bool, device=dev)
    block[..., :-tail, :-tail] = True
    block[..., -tail:, -tail:] = True
    far = _run(m, x, block)[:, -tail:]
    near = _run(m, x[:, -tail:], _ones(tail, dev))
    # fp32 angles pos * theta carry ~1e-4 rad rounding near pos 2047: looser tolerance.
    bad = tensor_mismatch(far, near, rtol=1e-3, atol=1e-4)
    if bad is not None:
        raise CheckFailed(
            f"with the default max_len, tokens at positions {total - tail}..{total - 1} give "
            f"different outputs than at 0..{tail - 1} (max abs err {bad['max_abs_err']:.3g}); "
            f"the output depends on absolute position there (rotation angles wrong or "
            f"inaccurate at large positions, RoPE on V, or the block mask ignored)", **bad)
    return {"far_vs_near_max_abs_err": float((far - near).abs().max())}


@check("no_ready_made_library",
       "the stem forbids ready-made implementations (transformers, flash_attn, xformers, "
       "nn.MultiheadAttention, rotary-embedding packages); PyTorch's own operators, "
       "F.scaled_dot_product_attention included, are allowed")
def check_no_library(ctx):
    code = re.sub(r"#.*", "", ctx.source or "")
    imports = re.findall(r"^\s*(?:from|import)\s+(transformers|flash_attn|xformers|"
                         r"rotary_embedding_torch|torchtune)\b", code, flags=re.M)
    hits = sorted(set(imports)) + (["nn.MultiheadAttention"]
                                   if re.search(r"MultiheadAttention\s*\(", code) else []) + (
        ["F.multi_head_attention_forward"] if "multi_head_attention_forward" in code else [])
    ctx.expect(not hits, f"uses a ready-made implementation: {', '.join(hits)}", found=hits)
