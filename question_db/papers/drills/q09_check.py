"""Checks for drills/9: RoPE with explicit positions (KV-cache offsets, per-sequence rows).

Contract: ``apply_rope(x, positions, base=10000.0)`` for x (B, H, T, D), positions (T,) or
(B, T); pair i rotated by pos · base^(-2i/D); dtype kept, angles in float32 or wider. The
pairing, (2i, 2i+1) interleaved or (i, i + D/2) rotate-half, is the learner's choice and is
recognised; so are real vs. complex arithmetic and caching of cos/sin.
"""
import torch

from _examdesk_harness import CheckFailed, check, tensor_mismatch

FN = "apply_rope"
B, H, T, D = 2, 3, 12, 32


def _x(ctx, t=T, d=D, seed=0, dtype=torch.float32, b=B):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(b, H, t, d, generator=g).to(ctx.device, dtype)


def _rope(ctx, x, positions, **kw):
    with torch.no_grad():
        out = ctx.get(FN)(x, positions.to(ctx.device), **kw)
    if not isinstance(out, torch.Tensor) or out.shape != x.shape:
        raise CheckFailed(f"{FN} returned {getattr(out, 'shape', type(out).__name__)} for x of "
                          f"shape {tuple(x.shape)}")
    return out


def _reference(x, positions, pairing, base=10000.0):
    d = x.shape[-1]
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    ang = positions.double().cpu()[..., None] * theta
    if ang.dim() == 3:
        ang = ang[:, None]
    cos, sin = ang.cos(), ang.sin()
    xd = x.double().cpu()
    if pairing == "interleaved":
        a, b = xd[..., 0::2], xd[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], -1).flatten(-2)
    a, b = xd[..., : d // 2], xd[..., d // 2:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], -1)


@check("position_zero_identity", "at position 0 the rotation is the identity")
def check_identity(ctx):
    x = _x(ctx)
    out = _rope(ctx, x, torch.zeros(T, dtype=torch.long))
    err = float((out - x).abs().max())
    ctx.expect(err < 1e-6, f"positions all 0 changed x by up to {err:.3g}", max_abs_err=err)
    return {"max_abs_err": err}


@check("norm_preserving",
       "RoPE is a rotation: every (b, h, t) vector keeps its norm (positions up to 3000)")
def check_norm(ctx):
    x = _x(ctx, seed=1)
    pos = torch.randint(0, 3000, (T,), generator=torch.Generator().manual_seed(2))
    out = _rope(ctx, x, pos)
    rel = float(((out.norm(dim=-1) - x.norm(dim=-1)).abs() / x.norm(dim=-1)).max())
    ctx.expect(rel < 1e-5, f"vector norms change by up to {rel:.3g} (relative): the "
                           f"transformation is not a rotation (are cos/sin laid out for the "
                           f"same pairing as the rotated halves?)", max_rel_change=rel)
    return {"max_rel_norm_change": rel}


@check("relative_position",
       "q·k after RoPE depends only on m - n: (m, n) = (5, 2), (105, 102), (4005, 4002) give "
       "the same dot products (atol 2e-3)")
def check_relative(ctx):
    q, k = _x(ctx, t=1, seed=3), _x(ctx, t=1, seed=4)
    dots = []
    for m, n in [(5, 2), (105, 102), (4005, 4002)]:
        qm = _rope(ctx, q, torch.tensor([m]))
        kn = _rope(ctx, k, torch.tensor([n]))
        dots.append((qm.double() * kn.double()).sum(-1))
    spread = float(max((d - dots[0]).abs().max() for d in dots))
    ctx.expect(spread < 2e-3, f"q·k at offset 3 changes with the absolute position by up to "
                              f"{spread:.3g}: RoPE scores must depend only on m - n",
               spread=spread)
    return {"max_spread": spread}


@check("offset_matches_full_sequence",
       "the last 4 of 12 tokens rotated with positions 8..11 equal the same tokens in the full "
       "12-token sequence (a KV-cache decode step)")
def check_offset(ctx):
    x = _x(ctx, seed=5)
    full = _rope(ctx, x, torch.arange(T))
    tail = _rope(ctx, x[:, :, 8:].contiguous(), torch.arange(8, T))
    bad = tensor_mismatch(tail, full[:, :, 8:], rtol=1e-5, atol=1e-5)
    if bad is not None:
        raise CheckFailed(f"positions 8..11 given explicitly differ from the same tokens inside "
                          f"the full sequence (max abs err {bad['max_abs_err']:.3g}): use "
                          f"`positions`, not arange(T)", **bad)
    return {"max_abs_err": float((tail - full[:, :, 8:]).abs().max())}


@check("batch_positions",
       "positions of shape (B, T) give each sequence its own offsets (rows 0..11 and 40..51)")
def check_batch(ctx):
    x = _x(ctx, seed=6)
    pos = torch.stack([torch.arange(T), torch.arange(40, 40 + T)])
    both = _rope(ctx, x, pos)
    for row in range(B):
        alone = _rope(ctx, x[row:row + 1].contiguous(), pos[row])
        bad = tensor_mismatch(both[row:row + 1], alone, rtol=1e-5, atol=1e-5)
        if bad is not None:
            raise CheckFailed(f"with (B, T) positions, sequence {row} differs from rotating it "
                              f"alone with its own positions {pos[row, 0].item()}.."
                              f"{pos[row, -1].item()} (max abs err {bad['max_abs_err']:.3g})",
                              **bad)
    return {"message": "per-sequence positions applied row by row"}


@check("frequencies",
       "equals the reference with θ_i = base^(-2i/D) for one of the two pairings, at "
       "positions up to 5000 and for base 10000 and 500000 (atol 2e-3)")
def check_freqs(ctx):
    x = _x(ctx, seed=7, d=64)
    pos = torch.randint(0, 5000, (T,), generator=torch.Generator().manual_seed(8))
    matched = None
    for base in (10000.0, 500000.0):
        out = _rope(ctx, x, pos, base=base).double().cpu()
        errs = {p: float((out - _reference(x, pos, p, base)).abs().max())
                for p in ("interleaved", "rotate_half")}
        best = min(errs, key=errs.get)
        if errs[best] > 2e-3:
            raise CheckFailed(f"base={base:g}: matches neither pairing (max abs err "
                              f"{errs['interleaved']:.3g} vs interleaved (2i, 2i+1), "
                              f"{errs['rotate_half']:.3g} vs rotate-half (i, i+D/2)): check "
                              f"θ_i = base^(-2i/D) and that `base` is used", errors=errs)
        if matched not in (None, best):
            raise CheckFailed("the pairing changes with `base`", errors=errs)
        matched = best
    name = {"interleaved": "interleaved pairs (2i, 2i+1)",
            "rotate_half": "rotate-half pairs (i, i + D/2)"}[matched]
    return {"message": f"recognised: {name}", "pairing": matched}


@check("dtype_preserved",
       "bf16 and fp16 inputs give outputs of the same dtype, close to the float64 result at "
       "positions up to 4096 (angles must not be computed in half precision)")
def check_dtype(ctx):
    pos = torch.arange(4096 - T, 4096)
    errs = {}
    for dtype in (torch.bfloat16, torch.float16):
        x = _x(ctx, seed=9, dtype=dtype, b=1)
        out = _rope(ctx, x, pos)
        ctx.expect(out.dtype == dtype, f"{dtype} input gave a {out.dtype} output")
        want = [_reference(x.float(), pos, p) for p in ("interleaved", "rotate_half")]
        err = min(float((out.double().cpu() - w).abs().max()) for w in want)
        tol = 4 * float(torch.finfo(dtype).eps) * float(x.abs().max())
        ctx.expect(err <= tol, f"{dtype} at positions 4084..4095: max abs err {err:.3g} > "
                               f"{tol:.3g} (angles pos·θ in {dtype} lose the position: "
                               f"compute them in float32)", max_abs_err=err, tol=tol)
        errs[str(dtype)] = err
    return {"max_abs_err": errs}
