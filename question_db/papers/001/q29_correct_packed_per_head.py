"""001/29, a correct solution with GPT-NeoX's per-head packed projection.

``query_key_value`` is one (3·d_model, d_model) Linear *with bias* whose output is laid out
per head as [q_h | k_h | v_h] (NeoX/Megatron ``(h three d)``), ``dense`` the output
projection; interleaved RoPE in real arithmetic (x_2i cos − x_2i+1 sin, x_2i sin + x_2i+1
cos) from cos/sin tables kept as plain attributes and moved to the input's device; attention
written with ``einsum``.
"""
import math

import torch
import torch.nn as nn


class RoPEMultiHeadAttention(nn.Module):
    def __init__(self, d_model, h, max_len=2048):
        super().__init__()
        self.h, self.d_k, self.max_len = h, d_model // h, max_len
        if d_model % h or self.d_k % 2:
            raise ValueError("need d_model % h == 0 and an even head size")
        self.query_key_value = nn.Linear(d_model, 3 * d_model)
        self.dense = nn.Linear(d_model, d_model)
        theta = 10000.0 ** (-torch.arange(0, self.d_k, 2, dtype=torch.float64) / self.d_k)
        angles = torch.outer(torch.arange(max_len, dtype=torch.float64), theta)
        self.cos, self.sin = angles.cos().float(), angles.sin().float()

    def _rope(self, t):
        """t: (batch, seq, h, d_k)."""
        s = t.shape[1]
        cos = self.cos[:s].to(t.device)[None, :, None, :]
        sin = self.sin[:s].to(t.device)[None, :, None, :]
        tf = t.float()
        even, odd = tf[..., 0::2], tf[..., 1::2]
        return torch.stack((even * cos - odd * sin, even * sin + odd * cos), -1) \
            .flatten(-2).type_as(t)

    def forward(self, x, mask=None):
        b, s, d = x.shape
        if s > self.max_len:
            raise ValueError("sequence longer than max_len")
        qkv = self.query_key_value(x).view(b, s, self.h, 3, self.d_k)
        q, k, v = qkv[..., 0, :], qkv[..., 1, :], qkv[..., 2, :]
        q, k = self._rope(q), self._rope(k)
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(~mask.bool(), float("-inf"))
        probs = scores.softmax(dim=-1)
        out = torch.einsum("bhqk,bkhd->bqhd", probs, v).reshape(b, s, d)
        return self.dense(out)


if __name__ == "__main__":
    print(RoPEMultiHeadAttention(64, 4)(torch.randn(2, 10, 64)).shape)
