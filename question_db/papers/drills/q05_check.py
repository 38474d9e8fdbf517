"""Checks for drills/5: LoRA linear layer with merge / unmerge.

Contract: ``LoRALinear(base, r, alpha)`` around an ``nn.Linear``; trainable A (r x in) and
B (out x r) only, B zero at init; forward = base(x) + (alpha/r)·x Aᵀ Bᵀ; ``merge()`` /
``unmerge()`` fold the update into the frozen weight and back, idempotently. Parameter
names, nn.Linear submodules or raw Parameters, either orientation of A and B, A's init and
how the original weight is restored are the learner's choice: A and B are recognised by
shape among the trainable parameters.
"""
import copy
import math

import torch
import torch.nn as nn

from _examdesk_harness import CheckFailed, check, tensor_mismatch

IN, OUT, R, ALPHA = 24, 40, 4, 8.0


def _build(ctx, seed=0, r=R, alpha=ALPHA):
    cls = ctx.get("LoRALinear")
    torch.manual_seed(seed)
    base = nn.Linear(IN, OUT).to(ctx.device)
    frozen = copy.deepcopy(base)
    try:
        layer = cls(base, r, alpha)
    except Exception as exc:
        raise CheckFailed(f"LoRALinear(nn.Linear({IN}, {OUT}), {r}, {alpha}) raised "
                          f"{type(exc).__name__}: {exc}")
    return layer.to(ctx.device), frozen


def _adapters(layer, r=R):
    """(A as (r, in), B as (out, r), how they were found) from the trainable parameters."""
    trainable = [(n, p) for n, p in layer.named_parameters() if p.requires_grad]
    a = b = None
    for name, p in trainable:
        if p.shape == (r, IN):
            a = (name, p, False)
        elif p.shape == (IN, r):
            a = (name, p, True)
        elif p.shape == (OUT, r):
            b = (name, p, False)
        elif p.shape == (r, OUT):
            b = (name, p, True)
    if a is None or b is None:
        shapes = {n: tuple(p.shape) for n, p in trainable}
        raise CheckFailed(f"cannot find A ({R}x{IN} or {IN}x{R}) and B ({OUT}x{R} or "
                          f"{R}x{OUT}) among the trainable parameters {shapes}",
                          trainable=shapes)
    return a, b


def _matrix(entry):
    name, p, transposed = entry
    return p.t() if transposed else p


def _set_random(layer, seed=1):
    a, b = _adapters(layer)
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for _, p, _ in (a, b):
            p.copy_(0.3 * torch.randn(p.shape, generator=g))
    return _matrix(a).detach().clone(), _matrix(b).detach().clone()


def _frozen_weight(layer):
    """The (out, in) weight that merge() folds into: a non-trainable tensor of that shape."""
    found = [t for t in list(layer.parameters()) + list(layer.buffers())
             if tuple(t.shape) == (OUT, IN) and not t.requires_grad]
    if len(found) != 1:
        raise CheckFailed(f"expected exactly one frozen ({OUT}, {IN}) weight in the layer, "
                          f"found {len(found)}")
    return found[0]


def _x(ctx, *shape, seed=2):
    return torch.randn(*shape, IN, generator=torch.Generator().manual_seed(seed)).to(ctx.device)


@check("identity_at_init",
       "a new LoRALinear(nn.Linear(24, 40), r=4, alpha=8) gives exactly base(x)")
def check_identity(ctx):
    layer, frozen = _build(ctx)
    x = _x(ctx, 7)
    with torch.no_grad():
        got, want = layer(x), frozen(x)
    bad = tensor_mismatch(got, want, rtol=0, atol=1e-6)
    if bad is not None:
        raise CheckFailed(f"at initialisation the output differs from the base layer by up "
                          f"to {bad.get('max_abs_err', float('nan')):.3g}: B must start at zero",
                          **bad)
    return {"max_abs_err": float((got - want).abs().max())}


@check("trainable_parameters",
       "only A and B are trainable: r·(in + out) = 256 parameters; the base weight and bias "
       "are frozen")
def check_trainable(ctx):
    layer, _ = _build(ctx)
    trainable = {n: p.numel() for n, p in layer.named_parameters() if p.requires_grad}
    total = sum(trainable.values())
    ctx.expect(total == R * (IN + OUT),
               f"{total} trainable parameters {trainable}, expected r·(in+out) = "
               f"{R * (IN + OUT)}: freeze the base layer (requires_grad=False)",
               trainable=trainable)
    a, b = _adapters(layer)
    return {"A": a[0] + (" (stored transposed)" if a[2] else ""),
            "B": b[0] + (" (stored transposed)" if b[2] else "")}


@check("zero_b_init",
       "at init B is all zeros and A is not, so the first backward moves B (A's gradient is "
       "0, base parameters get none)")
def check_init(ctx):
    layer, _ = _build(ctx)
    a, b = _adapters(layer)
    A, B = _matrix(a).detach(), _matrix(b).detach()
    ctx.expect(bool((B == 0).all()), f"B ({b[0]}) is not zero at init (max |B| "
                                     f"{float(B.abs().max()):.3g})")
    ctx.expect(bool((A != 0).any()),
               f"A ({a[0]}) is zero too: with A = B = 0 the gradient of each is proportional "
               f"to the other, so training never moves them")
    x = _x(ctx, 6, seed=3)
    layer(x).pow(2).sum().backward()
    grad_b = b[1].grad
    ctx.expect(grad_b is not None and float(grad_b.abs().max()) > 0,
               "B received no gradient after one backward")
    frozen = [n for n, p in layer.named_parameters() if not p.requires_grad and p.grad is not None]
    ctx.expect(not frozen, f"frozen parameters received gradients: {frozen}")
    return {"max_abs_grad_B": float(grad_b.abs().max()),
            "max_abs_grad_A": float(a[1].grad.abs().max()) if a[1].grad is not None else 0.0}


@check("scaling_alpha_over_r",
       "with random A, B the layer adds (alpha/r)·x Aᵀ Bᵀ: measured on x = I for "
       "(r, alpha) = (4, 8) and (8, 8)")
def check_scaling(ctx):
    found = {}
    for r, alpha in ((4, 8.0), (8, 8.0)):
        layer, frozen = _build(ctx, r=r, alpha=alpha)
        a, b = _adapters(layer, r)
        g = torch.Generator().manual_seed(4)
        with torch.no_grad():
            for _, p, _ in (a, b):
                p.copy_(0.3 * torch.randn(p.shape, generator=g))
            eye = torch.eye(IN, device=ctx.device)
            delta = (layer(eye) - frozen(eye)).double()  # (in, out) = (s·B A)ᵀ
        ba = (_matrix(b) @ _matrix(a)).t().double().detach()
        scale = float((delta * ba).sum() / (ba * ba).sum())
        found[f"r={r},alpha={alpha:g}"] = scale
        want = alpha / r
        resid = float((delta - scale * ba).abs().max())
        if resid > 1e-4 * float(delta.abs().max()) + 1e-6:
            raise CheckFailed(f"r={r}: the added term is not a multiple of x Aᵀ Bᵀ (residual "
                              f"{resid:.3g}); with A found as `{a[0]}` and B as `{b[0]}`",
                              residual=resid)
        if abs(scale - want) > 1e-4 * want:
            names = {"alpha/r": want, "alpha": alpha, "alpha/sqrt(r) (rsLoRA)":
                     alpha / math.sqrt(r), "1 (no scaling)": 1.0}
            near = min(names, key=lambda k: abs(names[k] - scale))
            raise CheckFailed(f"r={r}, alpha={alpha:g}: the low-rank term is scaled by "
                              f"{scale:.5g}, expected alpha/r = {want:.5g} (closest: {near})",
                              measured=scale, expected=want)
    return {"measured_scaling": found}


@check("merge_exact",
       "merge() keeps the output (atol 1e-5), puts W0 + (alpha/r)·B A into the frozen weight "
       "and does not add the low-rank path again; a second merge() changes nothing")
def check_merge(ctx):
    layer, _ = _build(ctx)
    A, B = _set_random(layer)
    weight = _frozen_weight(layer)
    w0 = weight.detach().clone()
    x = _x(ctx, 3, 5, seed=5)
    with torch.no_grad():
        before = layer(x)
        layer.merge()
        after = layer(x)
        merged = weight.detach().clone()
        layer.merge()
        twice = layer(x)
    bad = tensor_mismatch(after, before, rtol=1e-5, atol=1e-5)
    if bad is not None:
        raise CheckFailed(f"after merge() the output changed by up to {bad['max_abs_err']:.3g}"
                          f" (added twice, or merged without the alpha/r scaling?)", **bad)
    want = w0 + (ALPHA / R) * (B @ A)
    bad = tensor_mismatch(merged, want, rtol=1e-5, atol=1e-6)
    if bad is not None:
        raise CheckFailed(f"after merge() the frozen weight is not W0 + (alpha/r)·B A (max abs "
                          f"err {bad.get('max_abs_err', float('nan')):.3g})", **bad)
    bad = tensor_mismatch(twice, before, rtol=1e-5, atol=1e-5)
    if bad is not None:
        raise CheckFailed(f"a second merge() changed the output by up to "
                          f"{bad['max_abs_err']:.3g}: merge must be idempotent", **bad)
    return {"max_abs_err": float((after - before).abs().max())}


@check("unmerge_restores",
       "unmerge() restores the original weight (atol 1e-6) and output; a second unmerge() "
       "changes nothing; training can continue after merge/unmerge")
def check_unmerge(ctx):
    layer, _ = _build(ctx)
    _set_random(layer)
    weight = _frozen_weight(layer)
    w0 = weight.detach().clone()
    x = _x(ctx, 4, seed=6)
    with torch.no_grad():
        before = layer(x)
        layer.merge()
        layer.unmerge()
        layer.unmerge()
        after = layer(x)
    bad = tensor_mismatch(weight.detach(), w0, rtol=0, atol=1e-6)
    if bad is not None:
        raise CheckFailed(f"after merge(); unmerge(); unmerge() the weight differs from the "
                          f"original by up to {bad['max_abs_err']:.3g}", **bad)
    bad = tensor_mismatch(after, before, rtol=1e-5, atol=1e-5)
    if bad is not None:
        raise CheckFailed(f"after unmerge() the output changed by up to "
                          f"{bad['max_abs_err']:.3g}", **bad)
    layer(x).sum().backward()
    a, b = _adapters(layer)
    ctx.expect(a[1].grad is not None and b[1].grad is not None,
               "after unmerge() A and B no longer receive gradients")
    return {"weight_max_abs_err": float((weight.detach() - w0).abs().max())}
