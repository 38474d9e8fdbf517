"""001/29, a correct solution with raw parameters stored (in, out) and a torchtune-style cache.

No ``nn.Linear``: ``W_q``, ``W_k``, ``W_v``, ``W_o`` are ``nn.Parameter`` of shape
(d_model, d_model) applied as ``einsum("bsi,io->bso", x, W)`` (no bias); the RoPE cache is a
buffer (max_len, d_k/2, 2) of [cos, sin] for interleaved pairs, as torchtune's
``RotaryPositionalEmbeddings``; attention by ``F.scaled_dot_product_attention``.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RoPEMultiHeadAttention(nn.Module):
    def __init__(self, d_model, h, max_len=2048, base=10000):
        super().__init__()
        self.h, self.d_k = h, d_model // h
        assert self.d_k * h == d_model and self.d_k % 2 == 0
        for name in ("W_q", "W_k", "W_v", "W_o"):
            setattr(self, name, nn.Parameter(torch.randn(d_model, d_model) / math.sqrt(d_model)))
        theta = 1.0 / (base ** (torch.arange(0, self.d_k, 2).float() / self.d_k))
        idx_theta = torch.einsum("i,j->ij", torch.arange(max_len).float(), theta)
        self.register_buffer("cache", torch.stack([idx_theta.cos(), idx_theta.sin()], dim=-1),
                             persistent=False)

    def rope(self, x):
        """x: (b, s, h, d_k)."""
        s = x.size(1)
        xshaped = x.float().reshape(*x.shape[:-1], -1, 2)
        rope_cache = self.cache[:s].view(1, s, 1, xshaped.size(3), 2)
        out = torch.stack([
            xshaped[..., 0] * rope_cache[..., 0] - xshaped[..., 1] * rope_cache[..., 1],
            xshaped[..., 1] * rope_cache[..., 0] + xshaped[..., 0] * rope_cache[..., 1],
        ], -1)
        return out.flatten(3).type_as(x)

    def forward(self, x, mask=None):
        b, s, _ = x.shape

        def heads(t):
            return t.view(b, s, self.h, self.d_k)

        q = self.rope(heads(torch.einsum("bsi,io->bso", x, self.W_q)))
        k = self.rope(heads(torch.einsum("bsi,io->bso", x, self.W_k)))
        v = heads(torch.einsum("bsi,io->bso", x, self.W_v))
        out = F.scaled_dot_product_attention(
            q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
            attn_mask=None if mask is None else mask != 0)
        return torch.einsum("bsi,io->bso", out.transpose(1, 2).reshape(b, s, -1), self.W_o)


if __name__ == "__main__":
    print(RoPEMultiHeadAttention(64, 4)(torch.randn(2, 10, 64)).shape)
