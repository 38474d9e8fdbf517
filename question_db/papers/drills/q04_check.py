"""Checks for drills/4: RMSNorm as a torch.autograd.Function with a hand-written backward.

Contract: ``RMSNormFunction.apply(x, weight, eps)`` = x / sqrt(mean(x², -1) + eps) * weight,
dtype of x, statistic in float32 or wider; its ``backward`` returns (grad_x, grad_weight,
None). What is saved for backward, recompute vs. store, and the internal precision are the
learner's choice. The backward may overwrite grad_out with grad_x (Liger-Kernel's in-place
RMSNorm backward does): every backward gets its own copy of grad_out and every reference is
computed first. The forward must leave x and weight as they were (checked).
"""
import torch

from _examdesk_harness import (CheckFailed, TritonLaunches, check, tensor_mismatch,
                               triton_bf16_problem)


def _fn(ctx):
    cls = ctx.get("RMSNormFunction")
    if not (isinstance(cls, type) and issubclass(cls, torch.autograd.Function)):
        raise CheckFailed("`RMSNormFunction` must be a subclass of torch.autograd.Function")
    return cls


def _ref(x, w, eps):
    xd = x.detach().double().requires_grad_()
    wd = w.detach().double().requires_grad_()
    y = xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + eps) * wd
    return xd, wd, y


def _inputs(ctx, shape, dtype=torch.float32, seed=0, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    x = (scale * torch.randn(*shape, generator=g)).to(ctx.device, dtype)
    w = (1 + 0.5 * torch.randn(shape[-1], generator=g)).to(ctx.device, dtype)
    return x.requires_grad_(), w.requires_grad_()


def _grads(cls, x, w, eps, g):
    """y and the hand-written gradients; backward gets a copy of g, which it may overwrite."""
    y = cls.apply(x, w, eps)
    gx, gw = torch.autograd.grad(y, (x, w), g.clone())
    return y, gx, gw


def _expect_close(got, want, what, rtol, atol):
    bad = tensor_mismatch(got, want, rtol=rtol, atol=atol)
    if bad is not None:
        if bad["reason"] == "shape":
            raise CheckFailed(f"{what}: shape {tuple(bad['shape'])}, expected "
                              f"{tuple(bad['expected_shape'])}", **bad)
        raise CheckFailed(f"{what}: {bad['mismatches']} element(s) differ, max abs err "
                          f"{bad['max_abs_err']:.3g}, first at {tuple(bad['first_mismatch'])} "
                          f"({bad['actual_at']:.6g} vs {bad['expected_at']:.6g})", **bad)
    return float((got.detach().double() - want.detach().double()).abs().max())


@check("is_autograd_function",
       "RMSNormFunction is a torch.autograd.Function and its output's grad_fn is its own "
       "backward (not autograd tracing the forward)")
def check_function(ctx):
    cls = _fn(ctx)
    x, w = _inputs(ctx, (2, 8))
    y = cls.apply(x, w, 1e-6)
    node = y.grad_fn
    ctx.expect(getattr(node, "_forward_cls", None) is cls,
               f"y.grad_fn is {type(node).__name__}, expected RMSNormFunction's backward node: "
               f"call the forward through RMSNormFunction.apply")
    return {"grad_fn": type(node).__name__}


@check("forward_matches",
       "y equals x·rsqrt(mean(x²) + eps)·weight (float64 reference) for shapes (4, 32), "
       "(2, 5, 48), (3, 1, 7, 16) and eps 1e-6, 1e-2")
def check_forward(ctx):
    cls = _fn(ctx)
    errs = {}
    for i, shape in enumerate([(4, 32), (2, 5, 48), (3, 1, 7, 16)]):
        for eps in (1e-6, 1e-2):
            x, w = _inputs(ctx, shape, seed=i, scale=0.3)  # small rows: eps matters at 1e-2
            want = _ref(x, w, eps)[2]
            x0, w0 = x.detach().clone(), w.detach().clone()
            with torch.no_grad():
                y = cls.apply(x, w, eps)
            ctx.expect(torch.equal(x, x0) and torch.equal(w, w0),
                       f"{shape}: the forward changed its input x or weight in place; other "
                       f"layers still read them (only grad_out may be overwritten, in backward)")
            ctx.expect(y.dtype == x.dtype, f"{shape}: output dtype {y.dtype}, input {x.dtype}")
            errs[f"{shape} eps={eps}"] = _expect_close(y, want, f"shape {shape}, eps={eps}",
                                                       1e-5, 1e-6)
    return {"max_abs_err": errs}


@check("gradcheck_float64",
       "hand-written grad_x and grad_weight equal autograd's on the float64 reference, and "
       "torch.autograd.gradcheck passes (x (2, 3, 8), weight (8,), eps 1e-5)")
def check_gradcheck(ctx):
    cls = _fn(ctx)
    x, w = _inputs(ctx, (2, 3, 8), dtype=torch.float64, seed=3)
    g = torch.randn(2, 3, 8, dtype=torch.float64, generator=torch.Generator().manual_seed(4))
    g = g.to(ctx.device)
    xd, wd, y = _ref(x, w, 1e-5)
    want_x, want_w = torch.autograd.grad(y, (xd, wd), g)
    _, gx, gw = _grads(cls, x, w, 1e-5, g)
    errs = {"grad_x": _expect_close(gx, want_x, "grad_x", 1e-7, 1e-9),
            "grad_weight": _expect_close(gw, want_w, "grad_weight", 1e-7, 1e-9)}
    try:
        ok = torch.autograd.gradcheck(cls.apply, (x, w, 1e-5), eps=1e-6, atol=1e-6)
    except Exception as exc:  # GradcheckError: numerical vs analytical Jacobian
        raise CheckFailed(f"gradcheck failed: {str(exc)[:300]}")
    ctx.expect(bool(ok), "gradcheck returned False")
    return {"max_abs_err": errs}


@check("weight_grad_over_all_leading_dims",
       "for x (2, 5, 48) grad_weight has shape (48,) and sums over both leading dimensions")
def check_weight_grad(ctx):
    cls = _fn(ctx)
    x, w = _inputs(ctx, (2, 5, 48), seed=5)
    g = torch.randn(2, 5, 48, generator=torch.Generator().manual_seed(6)).to(ctx.device)
    xd, wd, y = _ref(x, w, 1e-6)
    want = torch.autograd.grad(y, wd, g.double())[0]
    _, _, gw = _grads(cls, x, w, 1e-6, g)
    return {"max_abs_err": _expect_close(gw, want, "grad_weight for a 3-D input", 1e-4, 1e-5)}


@check("eps_inside_sqrt",
       "rows of 1e-4 (mean of squares 1e-8 << eps 1e-6) follow rsqrt(mean + eps); an all-zero "
       "row gives y = 0 and finite gradients")
def check_eps(ctx):
    cls = _fn(ctx)
    x = torch.full((3, 16), 1e-4, device=ctx.device)
    x[1] = -1e-4
    x[2] = 0.0
    x.requires_grad_()
    w = torch.ones(16, device=ctx.device, requires_grad=True)
    g = torch.ones(3, 16, device=ctx.device)
    want = _ref(x, w, 1e-6)[2]
    y, gx, gw = _grads(cls, x, w, 1e-6, g)
    ctx.expect(bool(torch.isfinite(gx).all() and torch.isfinite(gw).all()),
               "non-finite gradients for an all-zero row: eps must sit inside the square root")
    err = _expect_close(y, want, "rows of ±1e-4 with eps=1e-6 (expected |y| = 1e-4 / "
                                 "sqrt(1e-8 + 1e-6) ≈ 0.0995)", 1e-4, 1e-6)
    return {"y_row0": float(y[0, 0].detach()), "max_abs_err": err}


@check("half_precision",
       "bf16 and fp16 inputs (values up to ~300, whose squares overflow fp16) give outputs and "
       "gradients of the input dtype close to the float64 reference (bf16 Triton kernels in "
       "Triton's CPU interpreter are not judged: it multiplies bf16 wrongly)")
def check_half(ctx):
    cls = _fn(ctx)
    out, not_judged = {}, None
    for dtype in (torch.bfloat16, torch.float16):
        x, w = _inputs(ctx, (4, 64), dtype=dtype, seed=7, scale=150.0)
        g = torch.randn(4, 64, generator=torch.Generator().manual_seed(8)).to(ctx.device, dtype)
        xd, wd, ref = _ref(x, w, 1e-6)
        want_x = torch.autograd.grad(ref, xd, g.double(), retain_graph=True)[0]
        with TritonLaunches() as launches:
            y, gx, gw = _grads(cls, x, w, 1e-6, g)
        ctx.expect(y.dtype == dtype and gx.dtype == dtype and gw.dtype == dtype,
                   f"{dtype}: y {y.dtype}, grad_x {gx.dtype}, grad_weight {gw.dtype}; all "
                   f"should be {dtype}")
        if dtype == torch.bfloat16 and launches.count and (problem := triton_bf16_problem()):
            not_judged = problem  # its values say nothing about the solution
            continue
        ctx.expect(bool(torch.isfinite(y).all()),
                   f"{dtype}: non-finite outputs for values up to "
                   f"{float(x.detach().abs().max()):.0f}: take the mean of squares in float32 "
                   f"(300² = 90000 > fp16's maximum 65504)")
        out[str(dtype)] = _expect_close(y, ref, f"{dtype} forward", 2e-2, 2e-2)
        _expect_close(gx, want_x, f"{dtype} grad_x", 5e-2, 1e-3)
    if not_judged:
        return {"max_abs_err": out, "not_judged": ["bfloat16 values"],
                "message": f"fp16 judged; bf16 values NOT judged: your Triton kernels ran in "
                           f"{not_judged}. Check on a CUDA device to judge bf16"}
    return {"max_abs_err": out}
