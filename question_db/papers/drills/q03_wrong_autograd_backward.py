"""WRONG (the backward is taken with autograd instead of written by hand).

drills/3: numerically stable cross-entropy with label smoothing and ignore_index. The
values are right, but the drill is to derive d loss / d logits = (p - target distribution)
/ count yourself.
"""
import torch

EXPECTED_FAIL = ["by_hand"]


def cross_entropy_forward(logits, target, ignore_index=-100, label_smoothing=0.0):
    keep = target != ignore_index
    x, t = logits[keep], target[keep]
    logp = x - torch.logsumexp(x, dim=1, keepdim=True)
    nll = -logp[torch.arange(len(t), device=x.device), t]
    return ((1 - label_smoothing) * nll - label_smoothing * logp.mean(dim=1)).mean()


def cross_entropy_backward(logits, target, ignore_index=-100, label_smoothing=0.0):
    with torch.enable_grad():
        x = logits.detach().requires_grad_()
        loss = cross_entropy_forward(x, target, ignore_index, label_smoothing)
        (grad,) = torch.autograd.grad(loss, x)
    return grad
