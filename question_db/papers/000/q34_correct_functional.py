"""Paper 000, Q34, a correct solution in a functional style with raw parameters.

No ``nn.Linear``: weights are ``nn.Parameter`` stored (in, out) and applied as ``x @ W + b``;
q has its own weight, k and v share one fused (dim, 2·dim) weight, and attention goes through
``flash_attn_kvpacked_func(q, kv)``. Norms via ``F.rms_norm``; a plain GELU (tanh) MLP with
biases; interleaved RoPE in real arithmetic, cos/sin recomputed each call (no table). Only
the MLP is checkpointed. FLOPs: dense attention, backward = 2 × forward.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

from flash_attn import flash_attn_kvpacked_func


def _param(*shape, scale):
    return nn.Parameter(torch.randn(*shape) * scale)


def rope_interleaved(x):
    """x: (b, s, h, d); pairs (2i, 2i+1) rotated by position·10000^(−2i/d)."""
    s, d = x.shape[1], x.shape[-1]
    inv = torch.exp(-math.log(10000.0) * torch.arange(0, d, 2, device=x.device) / d)
    ang = torch.arange(s, device=x.device, dtype=torch.float32)[:, None] * inv[None, :]
    cos, sin = ang.cos()[:, None, :], ang.sin()[:, None, :]
    xf = x.float()
    even, odd = xf[..., ::2], xf[..., 1::2]
    out = torch.empty_like(xf)
    out[..., ::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out.to(x.dtype)


class FlashAttnLLaMALayer(nn.Module):
    def __init__(self, dim, n_heads, checkpoint=False):
        super().__init__()
        self.dim, self.n_heads, self.checkpoint = dim, n_heads, checkpoint
        s = dim ** -0.5
        self.attn_norm_w = nn.Parameter(torch.ones(dim))
        self.mlp_norm_w = nn.Parameter(torch.ones(dim))
        self.w_q = _param(dim, dim, scale=s)
        self.w_kv = _param(dim, 2 * dim, scale=s)
        self.w_out = _param(dim, dim, scale=s)
        self.w_up = _param(dim, 4 * dim, scale=s)
        self.b_up = nn.Parameter(torch.zeros(4 * dim))
        self.w_down = _param(4 * dim, dim, scale=(4 * dim) ** -0.5)
        self.b_down = nn.Parameter(torch.zeros(dim))

    def _norm(self, x, weight):
        return F.rms_norm(x.float(), (self.dim,), eps=1e-6).to(x.dtype) * weight

    def _mlp(self, h):
        u = F.gelu(self._norm(h, self.mlp_norm_w) @ self.w_up + self.b_up, approximate="tanh")
        return u @ self.w_down + self.b_down

    def forward(self, x):
        b, s, d = x.shape
        hd = d // self.n_heads
        a = self._norm(x, self.attn_norm_w)
        q = (a @ self.w_q).view(b, s, self.n_heads, hd)
        kv = (a @ self.w_kv).view(b, s, 2, self.n_heads, hd)
        k = rope_interleaved(kv[:, :, 0])
        kv = torch.stack((k, kv[:, :, 1]), dim=2)
        out = flash_attn_kvpacked_func(rope_interleaved(q), kv, causal=True)
        h = x + out.reshape(b, s, d) @ self.w_out
        if self.checkpoint and self.training and torch.is_grad_enabled():
            return h + checkpoint(self._mlp, h, use_reentrant=False)
        return h + self._mlp(h)


def forward_flops(batch, seq, dim, n_heads):
    # q d², kv 2·d², out d², MLP 2·4·d²: 12·d² per token, 2 FLOPs per multiply-add.
    return 24 * batch * seq * dim * dim + 4 * batch * seq * seq * dim


def backward_flops(batch, seq, dim, n_heads):
    return 2 * forward_flops(batch, seq, dim, n_heads)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = FlashAttnLLaMALayer(64, 4, checkpoint=True)
    layer(torch.randn(2, 16, 64)).square().mean().backward()
    print("ok")
