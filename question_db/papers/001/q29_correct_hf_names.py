"""001/29, a correct solution in Hugging Face naming, rotate-half RoPE, no biases.

``q_proj``, ``k_proj``, ``v_proj``, ``o_proj`` (``bias=False``, as Llama); cos/sin computed
from an ``inv_freq`` attribute (a plain tensor, not a buffer) and ``rotate_half``; explicit
softmax attention, masked positions filled with ``torch.finfo(dtype).min``.
"""
import math

import torch
import torch.nn as nn


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


class RoPEMultiHeadAttention(nn.Module):
    def __init__(self, d_model, h, max_len=2048):
        super().__init__()
        if d_model % h or (d_model // h) % 2:
            raise ValueError("d_model must split into h heads of even size")
        self.num_heads, self.head_dim, self.max_len = h, d_model // h, max_len
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, d_model, bias=False)
        self.v_proj = nn.Linear(d_model, d_model, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)
        self.inv_freq = 1.0 / (10000 ** (torch.arange(0, self.head_dim, 2).float()
                                         / self.head_dim))

    def cos_sin(self, seq_len, device):
        if seq_len > self.max_len:
            raise ValueError(f"seq_len {seq_len} > max_len {self.max_len}")
        t = torch.arange(seq_len, device=device, dtype=torch.float32)
        freqs = torch.outer(t, self.inv_freq.to(device))
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos(), emb.sin()

    def forward(self, x, mask=None):
        bsz, q_len, _ = x.shape
        shape = (bsz, q_len, self.num_heads, self.head_dim)
        q = self.q_proj(x).view(shape).transpose(1, 2)
        k = self.k_proj(x).view(shape).transpose(1, 2)
        v = self.v_proj(x).view(shape).transpose(1, 2)
        cos, sin = self.cos_sin(q_len, x.device)
        q = (q.float() * cos + rotate_half(q.float()) * sin).to(x.dtype)
        k = (k.float() * cos + rotate_half(k.float()) * sin).to(x.dtype)
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, torch.finfo(scores.dtype).min)
        weights = nn.functional.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        out = torch.matmul(weights, v).transpose(1, 2).reshape(bsz, q_len, -1)
        return self.o_proj(out)


if __name__ == "__main__":
    print(RoPEMultiHeadAttention(64, 4)(torch.randn(2, 10, 64)).shape)
