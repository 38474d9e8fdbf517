"""WRONG (the positions argument is ignored and arange(T) is used).

drills/9: rotary position embedding (RoPE) with explicit positions, for a KV cache.

Interface (what the checks call):
- ``apply_rope(x, positions, base=10000.0)``: x (B, H, T, D), D even; positions int64 of
  shape (T,) (shared by the batch) or (B, T) (one row per sequence, e.g. after a prefix of
  different length). Returns the same shape and dtype: each pair of dimensions at position
  pos is rotated by the angle pos · θ_i, θ_i = base^(-2i/D), i = 0 .. D/2 - 1; angles are
  computed in float32 (or wider) whatever x's dtype.
- Which dimensions form pair i is the learner's choice: (2i, 2i+1) as Meta's Llama / GPT-J /
  RoFormer, or (i, i + D/2) as Hugging Face / GPT-NeoX ("rotate half").

This reference uses interleaved pairs (2i, 2i+1) with real arithmetic.
"""
import torch

EXPECTED_FAIL = ['offset_matches_full_sequence', 'position_zero_identity']


def apply_rope(x, positions, base=10000.0):
    d = x.shape[-1]
    if d % 2:
        raise ValueError(f"head dim {d} must be even")
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float32, device=x.device) / d)
    pos = torch.arange(x.shape[-2], device=x.device, dtype=torch.float32)
    angles = pos[..., None] * theta  # (T, D/2) or (B, T, D/2)
    if angles.dim() == 3:
        angles = angles[:, None]  # (B, 1, T, D/2): broadcast over heads
    cos, sin = angles.cos(), angles.sin()
    xf = x.float()
    a, b = xf[..., 0::2], xf[..., 1::2]
    out = torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
    return out.to(x.dtype)
