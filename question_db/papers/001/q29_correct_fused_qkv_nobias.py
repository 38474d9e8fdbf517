"""001/29, a correct solution: one fused bias-free qkv projection, Meta-style complex table.

``qkv = nn.Linear(d_model, 3·d_model, bias=False)`` split as [q | k | v], ``proj`` without
bias; RoPE in complex form on interleaved pairs with a complex64 ``freqs_cis`` *buffer*
(``torch.polar``), applied with ``view_as_complex``; attention by
``F.scaled_dot_product_attention`` with the mask turned into a boolean ``attn_mask``
(True = attend). ``mask=None`` means no mask.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def precompute_freqs_cis(head_dim, max_len, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, head_dim, 2).float() / head_dim))
    angles = torch.outer(torch.arange(max_len, dtype=torch.float32), freqs)
    return torch.polar(torch.ones_like(angles), angles)  # (max_len, head_dim / 2), complex64


class RoPEMultiHeadAttention(nn.Module):
    def __init__(self, d_model, h, max_len=2048):
        super().__init__()
        assert d_model % h == 0 and (d_model // h) % 2 == 0, "d_k = d_model / h must be even"
        self.h, self.d_k, self.max_len = h, d_model // h, max_len
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.proj = nn.Linear(d_model, d_model, bias=False)
        self.register_buffer("freqs_cis", precompute_freqs_cis(self.d_k, max_len),
                             persistent=False)

    def rotate(self, x):
        """x: (batch, heads, seq, d_k)."""
        xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
        xc = xc * self.freqs_cis[: x.shape[-2]]
        return torch.view_as_real(xc).flatten(-2).type_as(x)

    def forward(self, x, mask=None):
        b, s, d = x.shape
        assert s <= self.max_len, f"sequence length {s} > max_len {self.max_len}"
        q, k, v = self.qkv(x).view(b, s, 3, self.h, self.d_k).permute(2, 0, 3, 1, 4)
        attn_mask = None if mask is None else mask.to(torch.bool)
        out = F.scaled_dot_product_attention(self.rotate(q), self.rotate(k), v,
                                             attn_mask=attn_mask)
        return self.proj(out.transpose(1, 2).reshape(b, s, d))


if __name__ == "__main__":
    m = RoPEMultiHeadAttention(64, 4)
    x = torch.randn(2, 10, 64)
    causal = torch.ones(10, 10, dtype=torch.bool).tril()
    x2 = x.clone()
    x2[:, 6:] += 1.0
    assert torch.allclose(m(x, causal)[:, :6], m(x2, causal)[:, :6], atol=1e-6)
    print("ok", m(x).shape)
