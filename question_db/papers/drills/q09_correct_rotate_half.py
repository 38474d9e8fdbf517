"""CORRECT, another convention: Hugging Face / GPT-NeoX "rotate half" pairs (i, i + D/2).

drills/9: RoPE with explicit positions. cos/sin are built as cat([freqs, freqs]) so that
dimension i and i + D/2 share the angle pos · θ_i.
"""
import torch


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x, positions, base=10000.0):
    dim = x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, device=x.device).float() / dim))
    freqs = positions.to(x.device).float().unsqueeze(-1) * inv_freq
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos(), emb.sin()
    if positions.dim() == 2:  # (B, T, D) -> (B, 1, T, D)
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    xf = x.float()
    return (xf * cos + rotate_half(xf) * sin).to(x.dtype)
