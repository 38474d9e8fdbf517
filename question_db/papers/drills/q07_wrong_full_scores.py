"""WRONG (the full S x S score matrix is built and softmaxed at once).

drills/7: FlashAttention-2 forward in plain PyTorch. The values are right, but this is
ordinary attention: memory grows with S², which is what tiling with an online softmax avoids.
"""
import math

import torch

EXPECTED_FAIL = ["never_materialises_scores"]


def flash_attention_forward(q, k, v, causal=False, block_q=64, block_k=64):
    seq = q.shape[-2]
    scores = (q.float() @ k.float().transpose(-1, -2)) / math.sqrt(q.shape[-1])
    if causal:
        future = torch.ones(seq, seq, dtype=torch.bool, device=q.device).triu(1)
        scores = scores.masked_fill(future, float("-inf"))
    lse = torch.logsumexp(scores, dim=-1)
    out = torch.exp(scores - lse[..., None]) @ v.float()
    return out.to(q.dtype), lse
