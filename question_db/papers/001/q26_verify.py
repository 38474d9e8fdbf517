"""Reproduce 001/26's figures: attention FLOPs for n = 1024, d = 64 (2 FLOPs per MAC)."""
import math

import torch
from torch.utils.flop_counter import FlopCounterMode

n, d = 1024, 64
q, k, v = (torch.randn(n, d) for _ in range(3))
mask = torch.triu(torch.full((n, n), float("-inf")), diagonal=1)  # 0 on/below diagonal

with FlopCounterMode(display=False) as qk_counter:
    scores = q @ k.T
with FlopCounterMode(display=False) as pv_counter:
    probs = torch.softmax(scores / math.sqrt(d) + mask, dim=-1)
    out = probs @ v

elementwise = 7 * n * n  # scale, add mask, row max, subtract, exp, row sum, divide
FIGURES = {
    "QKᵀ 矩阵乘 FLOPs": qk_counter.get_total_flops(),
    "P·V（softmax 结果乘 V）FLOPs": pv_counter.get_total_flops(),
    "总 FLOPs（稠密计算，含 softmax 等逐元素运算）":
        qk_counter.get_total_flops() + pv_counter.get_total_flops() + elementwise,
}
for label, value in FIGURES.items():
    print(f"{label}: {value:,}")
print("causal rows sum to 1:", torch.allclose(probs.sum(-1), torch.ones(n)),
      "| future weights are 0:", bool((probs.triu(1) == 0).all()))
