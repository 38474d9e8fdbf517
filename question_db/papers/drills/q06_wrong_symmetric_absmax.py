"""WRONG (symmetric absmax quantisation (scale = max|w| / (2^(bits-1) - 1), zero fixed at the middle code)).

drills/6: group-wise int8 / int4 weight quantisation with scale and zero-point.

Interface (what the checks call):
- ``quantize(w, bits=8, group_size=128)``: w (out, in) float, in % group_size == 0; a group
  is a run of ``group_size`` consecutive elements of one row. Returns (codes, scale, zero):
  codes an integer tensor (out, in) with values in [0, 2**bits - 1]; scale and zero hold one
  value per group (out · in / group_size of them, any layout ``dequantize`` understands).
  Asymmetric min-max: scale = (max - min) / (2**bits - 1) over the group, so the group's min
  and max map to codes 0 and 2**bits - 1 and every weight is reconstructed within scale / 2.
- ``dequantize(codes, scale, zero, group_size=128)`` -> float32 (out, in).
- ``pack_int4(codes)`` -> uint8 (out, in / 2), two 4-bit codes per byte;
  ``unpack_int4(packed)`` gives the codes back exactly.

This reference stores an integer zero-point z = round(-min / scale) (as float32, unclamped)
and reconstructs (code - z) · scale.
"""
import torch

EXPECTED_FAIL = ['error_bound', 'codes_in_range']


def _grouped(t, group_size):
    rows, cols = t.shape
    if cols % group_size:
        raise ValueError(f"in_features={cols} is not a multiple of group_size={group_size}")
    return t.reshape(rows, cols // group_size, group_size)


def quantize(w, bits=8, group_size=128):
    if bits not in (4, 8):
        raise ValueError("bits must be 4 or 8")
    qmax = 2 ** bits - 1
    g = _grouped(w.float(), group_size)
    absmax = g.abs().amax(dim=-1)
    lo, hi = -absmax, absmax
    scale = absmax / (2 ** (bits - 1) - 1)
    # A constant group has no range: a step of |value| puts the value exactly on the grid.
    flat = scale == 0
    scale = torch.where(flat, torch.where(lo == 0, torch.ones_like(lo), lo.abs()), scale)
    zero = torch.full_like(scale, 2 ** (bits - 1))
    codes = torch.round(g / scale[..., None]) + zero[..., None]
    codes = codes.clamp(0, qmax).to(torch.uint8)
    return codes.reshape(w.shape), scale, zero


def dequantize(codes, scale, zero, group_size=128):
    g = _grouped(codes.float(), group_size)
    return ((g - zero[..., None]) * scale[..., None]).reshape(codes.shape)


def pack_int4(codes):
    c = codes.to(torch.uint8)
    return c[:, 0::2] | (c[:, 1::2] << 4)


def unpack_int4(packed):
    low, high = packed & 0x0F, packed >> 4
    return torch.stack([low, high], dim=-1).reshape(packed.shape[0], -1)
