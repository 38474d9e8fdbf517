"""CORRECT, another convention: log-softmax through torch.logsumexp, per-row gathers.

drills/3: numerically stable cross-entropy with label smoothing and ignore_index, forward
and backward by hand. ``torch.logsumexp`` does the max-shift internally; the smoothed loss
is written as (1-ε)·nll + ε·mean_c(-log p_c) and the gradient as softmax minus the smoothed
target, both only over the counted rows.
"""
import torch


def cross_entropy_forward(logits, target, ignore_index=-100, label_smoothing=0.0):
    keep = target != ignore_index
    x, t = logits[keep], target[keep]
    logp = x - torch.logsumexp(x, dim=1, keepdim=True)
    nll = -logp[torch.arange(len(t), device=x.device), t]
    smooth = -logp.mean(dim=1)
    return ((1 - label_smoothing) * nll + label_smoothing * smooth).mean()


def cross_entropy_backward(logits, target, ignore_index=-100, label_smoothing=0.0):
    keep = target != ignore_index
    x, t = logits[keep], target[keep]
    probs = torch.exp(x - torch.logsumexp(x, dim=1, keepdim=True))
    probs -= label_smoothing / x.shape[1]
    probs[torch.arange(len(t), device=x.device), t] -= 1 - label_smoothing
    grad = torch.zeros_like(logits)
    grad[keep] = probs / len(t)
    return grad
