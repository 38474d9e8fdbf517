"""001/29: multi-head self-attention with RoPE (rotary position embedding).

Implement the class below with PyTorch's own operators (F.scaled_dot_product_attention
allowed; no transformers / flash_attn / xformers / nn.MultiheadAttention).  The checks
require only this interface; names, fused or separate projections, bias, the RoPE pairing
and complex or real arithmetic are your choice.
"""
import math  # noqa: F401

import torch  # noqa: F401
import torch.nn as nn


class RoPEMultiHeadAttention(nn.Module):
    """Multi-head self-attention with RoPE applied to q and k.

    Args:
        d_model: model width; ``d_model % h == 0`` and the head size
            ``d_k = d_model // h`` must be even (RoPE rotates pairs).
        h: number of heads.
        max_len: longest sequence supported (rotation table size).

    RoPE: in every head, split q and k into d_k/2 pairs; the pair (a, b) at position
    pos is treated as the complex number a + i*b and multiplied by e^{i*pos*theta_i},
    theta_i = 10000^(-2i/d_k), i = 0 .. d_k/2 - 1. Pairs (2i, 2i+1) (RoFormer, Meta)
    or (i, i + d_k/2) (GPT-NeoX, Hugging Face) are both accepted. V is not rotated.
    """

    def __init__(self, d_model, h, max_len=2048):
        super().__init__()
        raise NotImplementedError

    def forward(self, x, mask=None):
        """Self-attention over x.

        Args:
            x: (batch, seq, d_model), seq <= max_len.
            mask: None (no mask: every query sees every key), or a bool / 0-1
                integer tensor broadcastable to
                (batch, h, seq, seq) (e.g. (1, 1, seq, seq) causal or
                (batch, 1, 1, seq) padding): 1/True = may attend,
                0/False = masked (that key gets zero weight).  Every query
                keeps at least one key.

        Returns:
            (batch, seq, d_model), dtype of x: the output projection of
            concat_heads(softmax(q kᵀ / sqrt(d_k)) v), softmax over the keys.
        """
        raise NotImplementedError
