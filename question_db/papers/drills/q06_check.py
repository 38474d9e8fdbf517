"""Checks for drills/6: group-wise int8 / int4 quantisation with scale and zero-point.

Contract: ``quantize(w, bits, group_size)`` -> (codes in [0, 2**bits - 1] of shape (out, in),
scale, zero with one value per group of ``group_size`` consecutive elements of a row);
``dequantize(codes, scale, zero, group_size)`` reconstructs every weight within half a
quantisation step; ``pack_int4`` / ``unpack_int4`` round-trip two codes per byte.
Only the learner's own dequantize reads scale and zero, so their dtype and layout, an
integer zero-point or a float offset (the group minimum), the nibble order, and whether the
range is the group's own [min, max] or is widened to include 0 (as GPTQ does) are the
learner's choice; the step is measured against both ranges.
"""
import torch

from _examdesk_harness import CheckFailed, check

OUT, IN = 8, 256


def _weights(ctx, seed=0):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(OUT, IN, generator=g) * (0.5 + torch.rand(OUT, 1, generator=g))
    w[3, 128:160] += 4.0   # an all-positive group (for group_size 32)
    w[5, :128] *= 20.0     # a wide group next to narrow ones
    return w.to(ctx.device)


def _roundtrip(ctx, w, bits, group_size):
    q, dq = ctx.get("quantize"), ctx.get("dequantize")
    out = q(w, bits, group_size)
    if not (isinstance(out, tuple) and len(out) == 3):
        raise CheckFailed(f"quantize returned {type(out).__name__}, expected (codes, scale, "
                          f"zero)")
    codes, scale, zero = out
    back = dq(codes, scale, zero, group_size)
    if not isinstance(back, torch.Tensor) or back.shape != w.shape:
        raise CheckFailed(f"dequantize returned {getattr(back, 'shape', type(back).__name__)}, "
                          f"expected {tuple(w.shape)}")
    return codes, scale, zero, back


def _steps(w, bits, group_size):
    """Per-element quantisation step for the own-range and the range-including-0 grids."""
    qmax = 2 ** bits - 1
    g = w.double().reshape(w.shape[0], -1, group_size)
    lo, hi = g.amin(-1, keepdim=True), g.amax(-1, keepdim=True)
    own = ((hi - lo) / qmax).expand_as(g).reshape(w.shape)
    with_zero = ((hi.clamp_min(0) - lo.clamp_max(0)) / qmax).expand_as(g).reshape(w.shape)
    return own, with_zero


@check("codes_in_range",
       "codes are integers of shape (out, in) within [0, 2^bits - 1]; in every group that "
       "holds both signs the minimum maps to 0 and the maximum to 2^bits - 1 (int8 and int4)")
def check_codes(ctx):
    w = _weights(ctx)
    for bits in (8, 4):
        codes, *_ = _roundtrip(ctx, w, bits, 128)
        qmax = 2 ** bits - 1
        ctx.expect(isinstance(codes, torch.Tensor) and not codes.dtype.is_floating_point
                   and codes.dtype != torch.bool,
                   f"int{bits}: codes are {getattr(codes, 'dtype', type(codes))}, expected an "
                   f"integer dtype")
        ctx.expect(tuple(codes.shape) == (OUT, IN), f"int{bits}: codes have shape "
                   f"{tuple(codes.shape)}, expected ({OUT}, {IN}) (unpacked)")
        c = codes.long()
        ctx.expect(int(c.min()) >= 0 and int(c.max()) <= qmax,
                   f"int{bits}: codes range {int(c.min())}..{int(c.max())}, expected within "
                   f"0..{qmax}")
        g = w.reshape(OUT, -1, 128)
        mixed = (g.amin(-1) < 0) & (g.amax(-1) > 0)
        cg = c.reshape(OUT, -1, 128)
        full = (cg.amin(-1) == 0) & (cg.amax(-1) == qmax)
        missing = (mixed & ~full).nonzero().tolist()
        if missing:
            r, k = missing[0]
            raise CheckFailed(f"int{bits}: group (row {r}, group {k}) uses codes "
                              f"{int(cg[r, k].min())}..{int(cg[r, k].max())}, not the full "
                              f"0..{qmax}: asymmetric min-max maps the group's min to 0 and its "
                              f"max to {qmax} (a symmetric absmax scheme wastes half the range)",
                              groups_not_full=len(missing))
    return {"message": "int8 codes 0..255, int4 codes 0..15"}


@check("error_bound",
       "every weight is reconstructed within half a step, step = (max - min)/(2^bits - 1) of "
       "its group (own range, or widened to include 0): bits 8 and 4, group_size 128 and 32")
def check_error(ctx):
    w = _weights(ctx)
    worst = {}
    for bits in (8, 4):
        for group_size in (128, 32):
            *_, back = _roundtrip(ctx, w, bits, group_size)
            err = (back.double() - w.double()).abs()
            own, with_zero = _steps(w, bits, group_size)
            ratio = err / with_zero
            if not bool(torch.isfinite(back).all()):
                raise CheckFailed(f"int{bits}, group_size {group_size}: non-finite values")
            bad = ratio > 0.5 * (1 + 1e-4) + 1e-7 / with_zero
            if bool(bad.any()):
                r, c = bad.nonzero()[0].tolist()
                raise CheckFailed(
                    f"int{bits}, group_size {group_size}: w[{r}, {c}] = {float(w[r, c]):.5g} "
                    f"comes back as {float(back[r, c]):.5g}, error {float(err[r, c]):.3g} = "
                    f"{float(err[r, c] / own[r, c]):.3f} steps of its group (allowed 0.5; "
                    f"step {float(own[r, c]):.3g}); {int(bad.sum())} element(s) over",
                    elements_over=int(bad.sum()), worst_steps=float((err / own).max()))
            worst[f"int{bits}/g{group_size}"] = round(float((err / own).max()), 4)
    return {"max_error_in_steps": worst}


@check("group_semantics",
       "a group is group_size consecutive elements of one row: a spike in w[2, 40] changes "
       "the reconstruction of group (2, 1) only (group_size 32); one scale per group")
def check_groups(ctx):
    w = _weights(ctx)
    codes, scale, zero, base = _roundtrip(ctx, w, 8, 32)
    n_scale = scale.numel() if isinstance(scale, torch.Tensor) else len(scale)
    ctx.expect(n_scale == OUT * IN // 32, f"{n_scale} scales for {OUT}x{IN} weights with "
               f"group_size 32, expected {OUT * IN // 32}")
    spiked = w.clone()
    spiked[2, 40] = 50.0
    *_, back = _roundtrip(ctx, spiked, 8, 32)
    changed = (back != base)
    changed[2, 40] = False
    inside = torch.zeros_like(changed)
    inside[2, 32:64] = True
    outside = (changed & ~inside).nonzero().tolist()
    if outside:
        r, c = outside[0]
        raise CheckFailed(f"a spike at w[2, 40] changed the reconstruction of w[{r}, {c}] "
                          f"(outside the group w[2, 32:64]) and {len(outside) - 1} more: "
                          f"groups must be runs of group_size elements within a row",
                          changed_outside=len(outside))
    ctx.expect(bool(changed[2, 32:64].any()),
               "a spike of 50 inside group w[2, 32:64] did not change that group's other "
               "values: is group_size used at all?")
    return {"changed_in_group": int(changed[2, 32:64].sum())}


@check("exact_on_grid",
       "weights that already lie on a group's grid ((k - z)·step for integers k, z; the "
       "group spans codes 0..2^bits - 1) come back exactly (within 1e-4 of a step)")
def check_grid(ctx):
    g = torch.Generator().manual_seed(3)
    for bits in (8, 4):
        qmax = 2 ** bits - 1
        steps = torch.randint(0, qmax + 1, (OUT, IN), generator=g).double()
        steps[:, ::128] = 0
        steps[:, 1::128] = qmax  # each group spans the full grid
        # grid points (k - z)·step with an integer z in 1..qmax-1: zero lies on the grid, as
        # both an integer zero-point and a float offset (the group min) can represent
        z = torch.randint(1, qmax, (OUT, 2), generator=g).double().repeat_interleave(128, dim=1)
        step = 2.0 ** -torch.randint(3, 8, (OUT, 2), generator=g).double()
        step = step.repeat_interleave(128, dim=1)  # powers of two: exact in float32
        w = ((steps - z) * step).float().to(ctx.device)
        *_, back = _roundtrip(ctx, w, bits, 128)
        own, _ = _steps(w, bits, 128)
        err = float(((back.double() - w.double()).abs() / own).max())
        ctx.expect(err <= 1e-4,
                   f"int{bits}: weights on the group's grid come back with errors up to "
                   f"{err:.3g} steps, expected exact (the step or the zero-point is off)",
                   max_error_in_steps=err)
    return {"message": "on-grid weights exact for int8 and int4"}


@check("constant_groups",
       "an all-zero row and a constant group (all 0.75 or all -2) come back exactly, "
       "without NaN or inf (zero range must not divide by zero)")
def check_constant(ctx):
    w = _weights(ctx, seed=4)
    w[0] = 0.0
    w[1, :128] = 0.75
    w[6, 128:] = -2.0
    for bits in (8, 4):
        *_, back = _roundtrip(ctx, w, bits, 128)
        ctx.expect(bool(torch.isfinite(back).all()),
                   f"int{bits}: {int((~torch.isfinite(back)).sum())} non-finite values for "
                   f"constant groups (scale 0?)")
        for name, sl in (("row 0 (zeros)", (0, slice(None))), ("w[1, :128] (0.75)",
                         (1, slice(0, 128))), ("w[6, 128:] (-2)", (6, slice(128, None)))):
            err = float((back[sl] - w[sl]).abs().max())
            ctx.expect(err <= 1e-6, f"int{bits}: {name} comes back with error {err:.3g}",
                       error=err)
    return {"message": "constant groups exact"}


@check("int4_packing",
       "pack_int4 stores two codes of one row per byte: uint8 of shape (out, in/2) (two rows "
       "per byte, (out/2, in), fails); unpack_int4 returns the codes exactly")
def check_packing(ctx):
    pack, unpack = ctx.get("pack_int4"), ctx.get("unpack_int4")
    codes = torch.randint(0, 16, (OUT, IN), generator=torch.Generator().manual_seed(5))
    codes[0, :16] = torch.arange(16)
    codes = codes.to(torch.uint8).to(ctx.device)
    packed = pack(codes)
    ctx.expect(isinstance(packed, torch.Tensor) and packed.dtype == torch.uint8,
               f"pack_int4 returned {getattr(packed, 'dtype', type(packed).__name__)}, "
               f"expected uint8")
    ctx.expect(packed.numel() == codes.numel() // 2,
               f"pack_int4 of {codes.numel()} codes holds {packed.numel()} bytes, expected "
               f"{codes.numel() // 2}", shape=list(packed.shape))
    ctx.expect(tuple(packed.shape) == (OUT, IN // 2),
               f"pack_int4 of codes ({OUT}, {IN}) returned shape {tuple(packed.shape)}, expected "
               f"(out, in/2) = ({OUT}, {IN // 2}): the two codes of a byte are neighbouring "
               "input channels of one row"
               + (" (this packs two rows per byte)" if tuple(packed.shape) == (OUT // 2, IN)
                  else ""), shape=list(packed.shape))
    back = unpack(packed)
    ctx.expect(tuple(back.shape) == (OUT, IN), f"unpack_int4 returned shape "
               f"{tuple(back.shape)}, expected ({OUT}, {IN})")
    wrong = int((back.long() != codes.long()).sum())
    if wrong:
        idx = (back.long() != codes.long()).nonzero()[0].tolist()
        raise CheckFailed(f"unpack_int4(pack_int4(codes)) differs in {wrong} of {codes.numel()} "
                          f"codes, first at {tuple(idx)} ({int(back[tuple(idx)])} vs "
                          f"{int(codes[tuple(idx)])})", mismatches=wrong)
    codes4, scale, zero, back4 = _roundtrip(ctx, _weights(ctx), 4, 128)
    again = ctx.get("dequantize")(unpack(pack(codes4)), scale, zero, 128)
    ctx.expect(torch.equal(again, back4), "dequantize(unpack_int4(pack_int4(codes))) differs "
                                          "from dequantize(codes)")
    return {"bytes": packed.numel(), "codes": codes.numel()}
