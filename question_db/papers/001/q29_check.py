"""Checks for 001/29: multi-head self-attention with RoPE (complex / interleaved form).

Contract: ``RoPEMultiHeadAttention(d_model, h, max_len=2048)``, ``forward(x, mask=None)``,
x (batch, seq, d_model) -> same shape; mask broadcastable to (batch, h, seq, seq) with
1/True = attend, 0/False = masked; ``w_q``/``w_k``/``w_v``/``w_o`` = nn.Linear(d_model,
d_model) with bias; RoPE on q and k, pairs (2i, 2i+1) rotated by pos * 10000^(-2i/d_k);
scores scaled by 1/sqrt(d_k); softmax over keys.
"""
import math
import re

import torch
import torch.nn as nn

from _examdesk_harness import CheckFailed, assert_close, check, tensor_mismatch

CLS = "RoPEMultiHeadAttention"
LINEARS = ("w_q", "w_k", "w_v", "w_o")


# ---------------------------------------------------------------- reference
class _Reference(nn.Module):
    """float64 reference; ``rope``/``scale``/``softmax_dim``/``rope_v`` select variants
    used only to tell the learner what their output looks like on a mismatch."""

    def __init__(self, d_model, h, rope="interleaved", scale="sqrt", softmax_dim=-1,
                 rope_v=False, mask_mode="neg"):
        super().__init__()
        self.h, self.d_k = h, d_model // h
        self.rope, self.scale, self.softmax_dim, self.rope_v = rope, scale, softmax_dim, rope_v
        self.mask_mode = mask_mode
        for name in LINEARS:
            setattr(self, name, nn.Linear(d_model, d_model, dtype=torch.float64))

    def _rotate(self, t):  # t: (batch, h, seq, d_k)
        if self.rope == "none":
            return t
        seq, d_k = t.size(-2), self.d_k
        theta = 10000.0 ** (-torch.arange(0, d_k, 2, dtype=torch.float64, device=t.device) / d_k)
        ang = torch.outer(torch.arange(seq, dtype=torch.float64, device=t.device), theta)
        cos, sin = ang.cos(), ang.sin()
        if self.rope == "interleaved":  # (x_2i + i x_2i+1) * e^{i pos theta_i}
            a, b = t[..., 0::2], t[..., 1::2]
            return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
        a, b = t[..., : d_k // 2], t[..., d_k // 2:]  # "rotate-half" (GPT-NeoX) pairing
        return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)

    def forward(self, x, mask=None):
        bsz, seq, d_model = x.shape
        split = lambda t: t.view(bsz, seq, self.h, self.d_k).transpose(1, 2)  # noqa: E731
        q, k, v = (split(getattr(self, n)(x)) for n in ("w_q", "w_k", "w_v"))
        q, k = self._rotate(q), self._rotate(k)
        if self.rope_v:
            v = self._rotate(v)
        div = {"sqrt": math.sqrt(self.d_k), "dk": float(self.d_k), "none": 1.0}[self.scale]
        scores = q @ k.transpose(-2, -1) / div
        if mask is not None and self.mask_mode != "ignored":
            fill = float("-inf") if self.mask_mode == "neg" else 1e9
            scores = scores.masked_fill(mask.to(scores.device) == 0, fill)
        attn = scores.softmax(dim=self.softmax_dim)
        out = (attn @ v).transpose(1, 2).reshape(bsz, seq, d_model)
        return self.w_o(out)


VARIANTS = {
    "rotate-half pairing (i, i + d_k/2) instead of interleaved (2i, 2i+1)": {"rope": "half"},
    "no RoPE at all (plain multi-head attention)": {"rope": "none"},
    "RoPE also applied to V": {"rope_v": True},
    "scale 1/d_k instead of 1/sqrt(d_k)": {"scale": "dk"},
    "no 1/sqrt(d_k) scale": {"scale": "none"},
    "softmax over queries (dim=-2) instead of keys": {"softmax_dim": -2},
    "masked scores filled with +1e9 instead of a large negative value": {"mask_mode": "pos"},
    "the mask ignored": {"mask_mode": "ignored"},
}


# ---------------------------------------------------------------- helpers
def _make(ctx, d_model, h, seed=0, **kw):
    """Build the learner's module (seeded) on ctx.device in fp32, checking the contract."""
    cls = ctx.get(CLS)
    torch.manual_seed(seed)
    try:
        m = cls(d_model, h, **kw)
    except Exception as exc:
        raise CheckFailed(f"{CLS}({d_model}, {h}{''.join(f', {k}={v}' for k, v in kw.items())}) "
                          f"raised {type(exc).__name__}: {exc}")
    for name in LINEARS:
        lin = getattr(m, name, None)
        if not (isinstance(lin, nn.Linear) and lin.in_features == d_model
                and lin.out_features == d_model and lin.bias is not None):
            raise CheckFailed(f"`self.{name}` must be nn.Linear(d_model, d_model) with bias "
                              f"(got {type(lin).__name__}); the checks set these weights")
    return m.to(ctx.device).eval()


def _weights(m):
    sd = m.state_dict()
    return {f"{n}.{p}": sd[f"{n}.{p}"] for n in LINEARS for p in ("weight", "bias")}


def _reference(m, d_model, h, device, **variant):
    ref = _Reference(d_model, h, **variant).to(device)
    ref.load_state_dict({k: v.double() for k, v in _weights(m).items()})
    return ref


def _run(m, x, mask=None):
    with torch.no_grad():
        y = m(x) if mask is None else m(x, mask=mask)
    if not isinstance(y, torch.Tensor):
        raise CheckFailed(f"forward returned {type(y).__name__}, expected a tensor")
    if y.shape != x.shape:
        raise CheckFailed(f"output shape {tuple(y.shape)}, expected {tuple(x.shape)}")
    return y


def _eye_(lin, scale=1.0):
    with torch.no_grad():
        lin.weight.copy_(torch.eye(lin.in_features) * scale)
        lin.bias.zero_()


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
    # positions pre..total-1 but sees exactly the same tokens as when run alone.
    block = torch.zeros(1, 1, total, total, dtype=torch.bool, device=dev)
    block[..., :pre, :pre] = True
    block[..., pre:, pre:] = True
    alone = _run(m, x)
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
    permuted = _run(m, x[:, perm])
    diff = float((permuted - alone[:, perm]).abs().max())
    scale = float(alone.abs().max())
    ctx.expect(diff > 1e-3 * scale,
               f"permuting the tokens only permuted the outputs (max diff {diff:.3g}): the "
               f"positions have no effect, so RoPE is not applied along the sequence axis",
               max_abs_diff=diff)
    return {"shift_max_abs_err": float((shifted - alone).abs().max()), "permutation_diff": diff}


@check("mask_semantics",
       "mask 1 = attend, 0 = masked: masked keys get zero weight (padding and causal masks); "
       "an all-ones mask equals mask=None")
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
    # 3. all-ones mask == no mask.
    ones = torch.ones(1, 1, seq, seq, dtype=torch.long, device=dev)
    assert_close(_run(m, x, ones), _run(m, x), rtol=rtol, atol=atol,
                 what="all-ones mask vs mask=None")
    return {"message": "padding (int), causal (bool) and all-ones masks behave"}


@check("softmax_over_keys",
       "attention weights (read out through one-hot values) are >= 0 and sum to 1 over keys")
def check_softmax_over_keys(ctx):
    dev = ctx.device
    d_model, h, bsz, seq = 64, 2, 2, 16
    d_k = d_model // h
    m = _make(ctx, d_model, h)
    with torch.no_grad():  # sharper, non-uniform attention
        m.w_q.weight.mul_(4.0)
        m.w_k.weight.mul_(4.0)
    _eye_(m.w_v)
    _eye_(m.w_o)
    # Token n is amp_n * e_{2n} in every head, so V_n = amp_n * e_{2n} and the output
    # of query q in the pair (2n, 2n+1) has norm amp_n * attn[q, n] (also if V were
    # rotated by RoPE): dividing by amp_n reads the attention weights off the output.
    torch.manual_seed(5)
    amp = 1.0 + 0.5 * torch.rand(bsz, seq, device=dev)  # vary q/k between batches
    x = torch.zeros(bsz, seq, d_model, device=dev)
    for n in range(seq):
        for hd in range(h):
            x[:, n, hd * d_k + 2 * n] = amp[:, n]
    y = _run(m, x).double()
    pairs = y.view(bsz, seq, h, d_k // 2, 2).norm(dim=-1)  # (batch, query, head, key)
    weights = pairs / amp.double()[:, None, None, :]
    rows = weights.sum(-1)  # (batch, query, head)
    err = float((rows - 1).abs().max())
    ctx.expect(err < 1e-3, f"attention weights of a query do not sum to 1 over the keys "
               f"(row sums range {float(rows.min()):.4f}..{float(rows.max()):.4f}); softmax "
               f"must normalise over keys (dim=-1 of (batch, h, seq_q, seq_k))",
               row_sum_min=float(rows.min()), row_sum_max=float(rows.max()))
    return {"row_sum_max_err": err, "weight_spread": float(weights.max() - weights.min())}


@check("scale_sqrt_dk",
       "scores are scaled by 1/sqrt(d_k) (two-token probe, independent of the RoPE pairing)")
def check_scale(ctx):
    dev = ctx.device
    found = {}
    for d_model, h in [(32, 2), (32, 8)]:
        d_k = d_model // h
        c2 = 2.0 * math.sqrt(d_k)  # makes the expected logit s / sqrt(d_k) equal 2
        m = _make(ctx, d_model, h)
        for name in LINEARS:
            _eye_(getattr(m, name), math.sqrt(c2) if name in ("w_q", "w_k") else 1.0)
        # Token 0 is zero -> k_0 = v_0 = 0; token 1 has unit norm in every head.  Query 1
        # then scores s = c2 * |x_1h|^2 = c2 against key 1 (RoPE at equal positions
        # cancels whatever the pairing) and 0 against key 0, so its output in head h
        # has norm sigmoid(s * scale) (also if V were rotated).
        torch.manual_seed(6)
        x1 = torch.randn(h, d_k)
        x1 = (x1 / x1.norm(dim=-1, keepdim=True)).reshape(d_model)
        x = torch.stack([torch.zeros(d_model), x1])[None].to(dev)
        y = _run(m, x)[0, 1].double().view(h, d_k)
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
       "matches an embedded reference with the same weights (no mask, causal, padding; "
       "fp32, and bf16 on CUDA)")
def check_reference(ctx):
    dev = ctx.device
    d_model, h, bsz, seq = 64, 4, 2, 24
    torch.manual_seed(7)
    x = torch.randn(bsz, seq, d_model, device=dev)
    causal = torch.tril(torch.ones(seq, seq, dtype=torch.bool, device=dev))[None, None]
    pad = torch.ones(bsz, 1, 1, seq, dtype=torch.long, device=dev)
    pad[0, ..., -5:] = 0
    worst = {}
    for dtype in ctx.dtypes:
        m = _make(ctx, d_model, h).to(dtype)
        ref = _reference(m, d_model, h, dev)
        rtol, atol = ctx.tol(dtype)
        xd = x.to(dtype)
        for label, mask in [("no mask", None), ("causal mask", causal), ("padding mask", pad)]:
            y = _run(m, xd, mask)
            with torch.no_grad():
                want = ref(xd.double(), mask)
            bad = tensor_mismatch(y, want, rtol=rtol, atol=atol)
            if bad is None:
                worst[f"{label} {str(dtype)[6:]}"] = float((y.double() - want).abs().max())
                continue
            hint = ""
            for what, variant in VARIANTS.items():
                with torch.no_grad():
                    alt = _reference(m, d_model, h, dev, **variant)(xd.double(), mask)
                if tensor_mismatch(y, alt, rtol=rtol, atol=atol) is None:
                    hint = f"; your output matches a reference with {what}"
                    break
            raise CheckFailed(
                f"{str(dtype)[6:]}, {label}: {bad.get('mismatches', '?')} element(s) differ "
                f"from the reference; max abs err {bad.get('max_abs_err', float('nan')):.3g}, "
                f"max rel err {bad.get('max_rel_err', float('nan')):.3g}, first at "
                f"{tuple(bad.get('first_mismatch', []))} ({bad.get('actual_at', float('nan')):.6g}"
                f" vs {bad.get('expected_at', float('nan')):.6g}){hint}", **bad)
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
    near = _run(m, x[:, -tail:])
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
       "nn.MultiheadAttention, rotary-embedding packages)")
def check_no_library(ctx):
    code = re.sub(r"#.*", "", ctx.source or "")
    imports = re.findall(r"^\s*(?:from|import)\s+(transformers|flash_attn|xformers|"
                         r"rotary_embedding_torch|torchtune)\b", code, flags=re.M)
    hits = sorted(set(imports)) + (["nn.MultiheadAttention"]
                                   if re.search(r"MultiheadAttention\s*\(", code) else [])
    ctx.expect(not hits, f"uses a ready-made implementation: {', '.join(hits)}", found=hits)
