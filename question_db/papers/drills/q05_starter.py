"""drills/5: a LoRA linear layer with merge / unmerge.

Fill in the class. Parameter names, nn.Linear submodules or raw Parameters, the orientation
of A and B and A's initialisation are up to you: the checks find A (r x in) and B (out x r)
by shape among the trainable parameters.
"""
import math  # noqa: F401

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    """base(x) + (alpha / r) · x Aᵀ Bᵀ, with the base layer frozen.

    Args:
        base: an existing nn.Linear(in, out); its weight and bias stop requiring grad.
        r: rank of the update; A is (r x in) and starts non-zero, B is (out x r) and
            starts at zero, so the new layer equals ``base`` until B is trained.
        alpha: the update is scaled by alpha / r.
    """

    def __init__(self, base, r, alpha):
        super().__init__()
        raise NotImplementedError

    def forward(self, x):
        """x (..., in) -> (..., out)."""
        raise NotImplementedError

    def merge(self):
        """Fold (alpha / r)·B A into the base weight; the output must not change and the
        low-rank path is no longer added. Calling it twice changes nothing."""
        raise NotImplementedError

    def unmerge(self):
        """Restore the base weight as it was before merge(); idempotent as well."""
        raise NotImplementedError
