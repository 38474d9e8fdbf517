"""CORRECT, another layout: A stored as (in, r) and B as (r, out), used as x @ A @ B.

drills/5: a LoRA linear layer with merge / unmerge. A is Gaussian (σ = 1/r, as in the LoRA
paper's "random Gaussian" A), B zero; the base layer is kept as a submodule and frozen.
"""
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, r, alpha):
        super().__init__()
        self.linear = base.requires_grad_(False)
        self.lora_a = nn.Parameter(torch.randn(base.in_features, r) / r)
        self.lora_b = nn.Parameter(torch.zeros(r, base.out_features))
        self.alpha, self.r = alpha, r
        self.is_merged = False

    def forward(self, x):
        y = self.linear(x)
        return y if self.is_merged else y + (x @ self.lora_a @ self.lora_b) * (self.alpha / self.r)

    def _delta(self):
        return (self.lora_a @ self.lora_b).t() * (self.alpha / self.r)

    def merge(self):
        if not self.is_merged:
            with torch.no_grad():
                self.linear.weight.data += self._delta()
            self.is_merged = True

    def unmerge(self):
        if self.is_merged:
            with torch.no_grad():
                self.linear.weight.data -= self._delta()
            self.is_merged = False
