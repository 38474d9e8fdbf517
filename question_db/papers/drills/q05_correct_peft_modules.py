"""CORRECT, another layout: PEFT-style nn.Linear adapters and a saved copy of the weight.

drills/5: a LoRA linear layer with merge / unmerge. ``lora_A = nn.Linear(in, r)`` and
``lora_B = nn.Linear(r, out)`` (no bias), A initialised like nn.Linear, B zero; merge()
keeps the original weight so unmerge() restores it bit for bit.
"""
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, r, alpha):
        super().__init__()
        base.weight.requires_grad = False
        if base.bias is not None:
            base.bias.requires_grad = False
        self.base_layer = base
        self.lora_A = nn.Linear(base.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        nn.init.zeros_(self.lora_B.weight)
        self.scale = alpha / r
        self._original = None  # the unmerged weight while merged

    def forward(self, x):
        out = self.base_layer(x)
        if self._original is None:
            out = out + self.lora_B(self.lora_A(x)) * self.scale
        return out

    @torch.no_grad()
    def merge(self):
        if self._original is None:
            self._original = self.base_layer.weight.detach().clone()
            self.base_layer.weight.add_(self.lora_B.weight @ self.lora_A.weight, alpha=self.scale)

    @torch.no_grad()
    def unmerge(self):
        if self._original is not None:
            self.base_layer.weight.copy_(self._original)
            self._original = None
