"""Paper 000, Q34, a correct solution in the style of a CS336 assignment-1 transformer block.

Hand-written modules: ``Linear`` keeps ``weight`` as (d_out, d_in) and applies it with
``einops.einsum``; ``RMSNorm``; ``SwiGLU`` with ``w1`` (gate), ``w3`` (up), ``w2`` (down);
``RotaryPositionalEmbedding(theta, d_k, max_seq_len)`` with cos/sin buffers over pairs
(2i, 2i+1) (``rearrange(... (d two) -> ... d two)``); attention
``F.scaled_dot_product_attention(is_causal=True)``. Checkpoint of the whole block.
FLOPs: dense attention, backward = 2 × forward.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import einsum, rearrange
from torch.utils.checkpoint import checkpoint


class Linear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        std = math.sqrt(2.0 / (in_features + out_features))
        self.weight = nn.Parameter(nn.init.trunc_normal_(
            torch.empty(out_features, in_features), std=std, a=-3 * std, b=3 * std))

    def forward(self, x):
        return einsum(x, self.weight, "... d_in, d_out d_in -> ... d_out")


class RMSNorm(nn.Module):
    def __init__(self, d_model, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d_model))

    def forward(self, x):
        in_dtype = x.dtype
        x = x.to(torch.float32)
        rms = torch.sqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return (x / rms).to(in_dtype) * self.weight


class SwiGLU(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.w1, self.w2, self.w3 = Linear(d_model, d_ff), Linear(d_ff, d_model), \
            Linear(d_model, d_ff)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class RotaryPositionalEmbedding(nn.Module):
    def __init__(self, theta, d_k, max_seq_len):
        super().__init__()
        freqs = theta ** (-torch.arange(0, d_k, 2).float() / d_k)
        angles = einsum(torch.arange(max_seq_len).float(), freqs, "s, f -> s f")
        self.register_buffer("cos", angles.cos(), persistent=False)
        self.register_buffer("sin", angles.sin(), persistent=False)

    def forward(self, x, token_positions):
        """x: (..., seq, d_k); token_positions: (seq,)."""
        cos, sin = self.cos[token_positions], self.sin[token_positions]
        pairs = rearrange(x, "... (d two) -> ... d two", two=2)
        x1, x2 = pairs[..., 0], pairs[..., 1]
        rotated = torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)
        return rearrange(rotated, "... d two -> ... (d two)").to(x.dtype)


class MultiheadSelfAttention(nn.Module):
    def __init__(self, d_model, num_heads, max_seq_len=2048, theta=10000.0):
        super().__init__()
        self.num_heads = num_heads
        d_k = d_model // num_heads
        self.q_proj, self.k_proj = Linear(d_model, d_model), Linear(d_model, d_model)
        self.v_proj, self.output_proj = Linear(d_model, d_model), Linear(d_model, d_model)
        self.rope = RotaryPositionalEmbedding(theta, d_k, max_seq_len)

    def forward(self, x):
        seq = x.shape[-2]
        q, k, v = (rearrange(proj(x), "b s (h d) -> b h s d", h=self.num_heads)
                   for proj in (self.q_proj, self.k_proj, self.v_proj))
        positions = torch.arange(seq, device=x.device)
        q, k = self.rope(q, positions), self.rope(k, positions)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.output_proj(rearrange(out, "b h s d -> b s (h d)"))


class FlashAttnLLaMALayer(nn.Module):
    def __init__(self, dim, n_heads, checkpoint=False):
        super().__init__()
        self.checkpoint = checkpoint
        self.ln1 = RMSNorm(dim)
        self.attn = MultiheadSelfAttention(dim, n_heads)
        self.ln2 = RMSNorm(dim)
        self.ffn = SwiGLU(dim, 8 * dim // 3)

    def _block(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.ffn(self.ln2(x))

    def forward(self, x):
        if self.checkpoint and self.training and torch.is_grad_enabled():
            return checkpoint(self._block, x, use_reentrant=False)
        return self._block(x)


def forward_flops(batch, seq, dim, n_heads):
    d_ff = 8 * dim // 3
    return 2 * batch * seq * (4 * dim * dim + 3 * dim * d_ff) + 4 * batch * seq * seq * dim


def backward_flops(batch, seq, dim, n_heads):
    return 2 * forward_flops(batch, seq, dim, n_heads)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = FlashAttnLLaMALayer(64, 4, checkpoint=True)
    layer(torch.randn(2, 16, 64)).square().mean().backward()
    print("ok")
