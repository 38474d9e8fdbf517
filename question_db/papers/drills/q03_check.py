"""Checks for drills/3: cross-entropy with label smoothing and ignore_index, by hand.

Contract: ``cross_entropy_forward(logits, target, ignore_index=-100, label_smoothing=0.0)``
equals ``F.cross_entropy`` (reduction mean); ``cross_entropy_backward(...)`` returns
d loss / d logits without autograd or a built-in loss. Max-shift or logsumexp, loops or
vectorised code, what is shared between the two functions: the learner's choice. Either
function may overwrite the logits it is given (Liger-Kernel writes the gradient into the
logits' storage): every call gets fresh copies, and every reference is computed first, from
tensors the solution never sees.
"""
import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

from _examdesk_harness import CheckFailed, check, tensor_mismatch

N, C = 64, 50
FORBIDDEN = ("cross_entropy", "nll_loss", "log_softmax")


def _data(ctx, seed, extreme=False, ignore_index=-100, n_ignored=9):
    g = torch.Generator().manual_seed(seed)
    logits = 3 * torch.randn(N, C, generator=g)
    if extreme:  # a few entries at ±1e4, including at target positions
        idx = torch.randint(0, N * C, (N,), generator=g)
        sign = torch.where(torch.rand(N, generator=g) < 0.5, -1.0, 1.0)
        logits.view(-1)[idx] = sign * 1e4
    target = torch.randint(0, C, (N,), generator=g)
    if extreme:
        target[:8] = logits[:8].argmin(-1)  # loss ~ 2e4 on these rows
    target[torch.randperm(N, generator=g)[:n_ignored]] = ignore_index
    return logits.to(ctx.device), target.to(ctx.device)


def _expected(logits, target, **kw):
    x = logits.detach().double().requires_grad_()
    loss = F.cross_entropy(x, target, **kw)
    loss.backward()
    return loss.detach(), x.grad


def _forward(ctx, logits, target, **kw):
    with torch.no_grad():  # copies: the solution may overwrite its inputs
        out = ctx.get("cross_entropy_forward")(logits.clone(), target.clone(), **kw)
    if not isinstance(out, torch.Tensor) or out.numel() != 1:
        raise CheckFailed(f"cross_entropy_forward returned {getattr(out, 'shape', type(out))}, "
                          f"expected a 0-dim tensor")
    return out.reshape(())


def _backward(ctx, logits, target, **kw):
    with torch.no_grad():  # copies: the solution may overwrite its inputs
        out = ctx.get("cross_entropy_backward")(logits.clone(), target.clone(), **kw)
    if not isinstance(out, torch.Tensor) or out.shape != logits.shape:
        raise CheckFailed(f"cross_entropy_backward returned "
                          f"{getattr(out, 'shape', type(out).__name__)}, expected "
                          f"{tuple(logits.shape)}")
    return out


def _close_loss(got, want, what):
    err = abs(float(got) - float(want))
    if not (err <= 1e-5 + 1e-5 * abs(float(want))):
        raise CheckFailed(f"{what}: loss {float(got):.7g}, F.cross_entropy gives "
                          f"{float(want):.7g} (abs err {err:.3g})", loss=float(got),
                          expected=float(want))
    return err


def _close_grad(got, want, what, rtol=1e-4):
    bad = tensor_mismatch(got, want, rtol=rtol, atol=1e-6)
    if bad is not None:
        raise CheckFailed(f"{what}: gradient differs from autograd through F.cross_entropy in "
                          f"{bad.get('mismatches', '?')} element(s), first at "
                          f"{tuple(bad.get('first_mismatch', []))} "
                          f"({bad.get('actual_at', float('nan')):.4g} vs "
                          f"{bad.get('expected_at', float('nan')):.4g})", **bad)
    return float((got.double() - want).abs().max())


CASES = [dict(), dict(label_smoothing=0.1), dict(ignore_index=3, label_smoothing=0.2)]


@check("forward_matches",
       "loss equals F.cross_entropy (N=64, C=50, 9 ignored rows) for label_smoothing 0, "
       "0.1 and, with ignore_index=3, 0.2")
def check_forward(ctx):
    errs = {}
    for i, kw in enumerate(CASES):
        logits, target = _data(ctx, i, ignore_index=kw.get("ignore_index", -100))
        want, _ = _expected(logits, target, **kw)
        errs[str(kw)] = _close_loss(_forward(ctx, logits, target, **kw), want, str(kw))
    return {"abs_err": errs}


@check("backward_matches",
       "the hand-written gradient equals autograd through F.cross_entropy for the same cases")
def check_backward(ctx):
    errs = {}
    for i, kw in enumerate(CASES):
        logits, target = _data(ctx, i, ignore_index=kw.get("ignore_index", -100))
        _, grad = _expected(logits, target, **kw)
        errs[str(kw)] = _close_grad(_backward(ctx, logits, target, **kw), grad, str(kw))
    return {"max_abs_err": errs}


@check("extreme_logits_forward",
       "logits with entries of ±1e4 (losses up to ~2e4): finite and equal to F.cross_entropy")
def check_extreme_forward(ctx):
    logits, target = _data(ctx, 10, extreme=True)
    for kw in (dict(), dict(label_smoothing=0.1)):
        want = _expected(logits, target, **kw)[0]
        got = _forward(ctx, logits, target, **kw)
        ctx.expect(bool(torch.isfinite(got)), f"{kw}: loss is {float(got)} for logits of ±1e4: "
                   f"exp overflows unless the row maximum is subtracted first")
        _close_loss(got, want, f"±1e4 logits, {kw}")
    return {"loss": float(got)}


@check("extreme_logits_backward",
       "gradients for logits of ±1e4 are finite and equal to autograd's (rtol 1e-3)")
def check_extreme_backward(ctx):
    logits, target = _data(ctx, 10, extreme=True)
    for kw in (dict(), dict(label_smoothing=0.1)):
        want = _expected(logits, target, **kw)[1]
        got = _backward(ctx, logits, target, **kw)
        ctx.expect(bool(torch.isfinite(got).all()),
                   f"{kw}: {int((~torch.isfinite(got)).sum())} non-finite gradient entries for "
                   f"logits of ±1e4")
        # rtol 1e-3: x - logsumexp(x) rounds the log-sum-exp at magnitude 1e4 to fp32's
        # spacing there (~1e-3), a legitimate alternative to subtracting the max first.
        _close_grad(got, want, f"±1e4 logits, {kw}", rtol=1e-3)
    return {"message": "finite and within rtol 1e-3"}


@check("ignore_index",
       "ignored rows get zero gradient and do not affect the loss; the mean is over the "
       "counted rows only (32 of 64 ignored; ignore_index -100 and 7)")
def check_ignore(ctx):
    for ignore in (-100, 7):
        logits, target = _data(ctx, 20, ignore_index=ignore, n_ignored=32)
        kw = dict(ignore_index=ignore, label_smoothing=0.1)
        ignored = target == ignore
        kept = ~ignored
        alone = _expected(logits[kept], target[kept], label_smoothing=0.1)[0]
        grad = _backward(ctx, logits, target, **kw)
        leak = float(grad[ignored].abs().max())
        ctx.expect(leak == 0.0, f"ignore_index={ignore}: ignored rows have gradient entries up "
                                f"to {leak:.3g}, expected exactly 0", max_ignored_grad=leak)
        moved = logits.clone()
        moved[ignored] = 50 * torch.randn_like(moved[ignored])
        a, b = _forward(ctx, logits, target, **kw), _forward(ctx, moved, target, **kw)
        ctx.expect(abs(float(a) - float(b)) <= 1e-6 * abs(float(a)),
                   f"ignore_index={ignore}: changing only the ignored rows changed the loss "
                   f"from {float(a):.6g} to {float(b):.6g}")
        if abs(float(a) - float(alone)) > 1e-5 * abs(float(alone)):
            ratio = float(a) / float(alone)
            raise CheckFailed(f"ignore_index={ignore}: loss {float(a):.6g}, but the mean over "
                              f"the {int(kept.sum())} counted rows is {float(alone):.6g} "
                              f"(ratio {ratio:.3f}: dividing by all {N} rows gives "
                              f"{int(kept.sum()) / N:.3f})", ratio=ratio)
    return {"message": "ignored rows excluded from loss, gradient and the mean"}


@check("label_smoothing_uniform",
       "label smoothing ε gives (1-ε)·nll + ε·mean over all C classes of -log p "
       "(PyTorch's convention: ε/C on every class, the target included)")
def check_smoothing(ctx):
    logits, target = _data(ctx, 30, n_ignored=0)
    eps = 0.3
    logp = logits.double().log_softmax(-1)
    nll = -logp.gather(1, target[:, None]).mean()
    uniform = float((1 - eps) * nll - eps * logp.mean(-1).mean())
    others = float((1 - eps) * nll - eps * ((logp.sum(-1) - logp.gather(1, target[:, None])[:, 0])
                                            / (C - 1)).mean())
    got = float(_forward(ctx, logits, target, label_smoothing=eps))
    if abs(got - uniform) > 1e-5 * abs(uniform):
        hint = (" — that is ε/(C-1) on the other classes only (fairseq's formulation), "
                "not PyTorch's ε/C on all classes" if abs(got - others) < 1e-5 * abs(others)
                else "")
        raise CheckFailed(f"label_smoothing={eps}: loss {got:.6g}, expected {uniform:.6g}{hint}",
                          loss=got, expected=uniform, fairseq_style=others)
    return {"loss": got}


class _CallLog(TorchFunctionMode):
    """Names of the torch functions and tensor methods called inside the block."""

    def __init__(self):
        super().__init__()
        self.names = set()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.names.add(getattr(func, "__name__", str(func)))
        return func(*args, **(kwargs or {}))


@check("by_hand",
       "neither function calls autograd (backward/grad) or a built-in loss/log_softmax")
def check_by_hand(ctx):
    logits, target = _data(ctx, 40)
    calls = []

    def refuse(name):
        def fn(*args, **kwargs):
            calls.append(name)
            raise RuntimeError(f"{name} is not allowed here: write the gradient by hand")
        return fn

    saved = (torch.autograd.grad, torch.autograd.backward, torch.Tensor.backward)
    torch.autograd.grad = refuse("torch.autograd.grad")
    torch.autograd.backward = refuse("torch.autograd.backward")
    torch.Tensor.backward = refuse("Tensor.backward")
    log = _CallLog()
    try:
        with log:
            for fn in ("cross_entropy_forward", "cross_entropy_backward"):
                try:
                    ctx.get(fn)(logits.clone(), target.clone(), label_smoothing=0.1)
                except RuntimeError as exc:
                    if not calls:
                        raise
                    raise CheckFailed(f"{fn} used {calls[0]}: {exc}")
    finally:
        torch.autograd.grad, torch.autograd.backward, torch.Tensor.backward = saved
    used = sorted(n for n in log.names if n in FORBIDDEN)
    ctx.expect(not used, f"built-in loss functions were called: {', '.join(used)} "
                         f"(F.cross_entropy / F.nll_loss / log_softmax): the drill is to write "
                         f"them by hand", calls=used)
    return {"torch_calls": sorted(log.names)}
