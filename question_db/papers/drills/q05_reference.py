"""drills/5: a LoRA linear layer with merge / unmerge.

Interface (what the checks call):
- ``LoRALinear(base, r, alpha)`` wraps an existing ``nn.Linear`` (in -> out): the base
  weight and bias are frozen; the trainable parameters are A (r x in) and B (out x r) only;
  B starts at zero (so the layer equals the base layer at first), A does not.
- ``forward(x)`` = base(x) + (alpha / r) · x Aᵀ Bᵀ, for x (..., in).
- ``merge()`` folds (alpha / r) · B A into the base weight (the forward is unchanged and no
  longer adds the low-rank path); ``unmerge()`` restores the original weight. Both are
  idempotent (a second call changes nothing).
"""
import math

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in base.parameters():
            p.requires_grad_(False)
        self.scaling = alpha / r
        w = base.weight
        self.A = nn.Parameter(torch.empty(r, base.in_features, dtype=w.dtype, device=w.device))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))  # as nn.Linear (and PEFT) init
        self.B = nn.Parameter(torch.zeros(base.out_features, r, dtype=w.dtype, device=w.device))
        self.merged = False

    def delta_weight(self):
        return self.scaling * (self.B @ self.A)  # (out, in)

    def forward(self, x):
        y = self.base(x)
        if not self.merged:
            y = y + self.scaling * ((x @ self.A.t()) @ self.B.t())
        return y

    @torch.no_grad()
    def merge(self):
        if not self.merged:
            self.base.weight += self.delta_weight()
            self.merged = True

    @torch.no_grad()
    def unmerge(self):
        if self.merged:
            self.base.weight -= self.delta_weight()
            self.merged = False


if __name__ == "__main__":
    torch.manual_seed(0)
    base = nn.Linear(24, 40)
    layer = LoRALinear(base, r=4, alpha=8)
    x = torch.randn(5, 24)
    print("identity at init:", torch.equal(layer(x), base(x)))
    with torch.no_grad():
        layer.B.normal_()
    y = layer(x)
    layer.merge()
    print("merge keeps the output: max abs err", (layer(x) - y).abs().max().item())
    layer.unmerge()
    print("unmerge keeps the output: max abs err", (layer(x) - y).abs().max().item())
