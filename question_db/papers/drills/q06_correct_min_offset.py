"""CORRECT, another convention: a float offset (the group minimum) instead of an integer
zero-point, int32 codes, scale/zero kept as (out, groups, 1), high nibble first.

drills/6: group-wise int8 / int4 weight quantisation. code = round((w - min) / step),
w ≈ code · step + min (as in e.g. HQQ-style float zero-points); error ≤ step / 2 as well.
"""
import torch


def quantize(w, bits=8, group_size=128):
    rows, cols = w.shape
    assert cols % group_size == 0, "in_features must be a multiple of group_size"
    levels = (1 << bits) - 1
    g = w.to(torch.float32).view(rows, cols // group_size, group_size)
    mn = g.min(dim=2, keepdim=True).values
    step = (g.max(dim=2, keepdim=True).values - mn) / levels
    step = step.masked_fill(step == 0, 1.0)  # constant group: every code is 0, value = mn
    q = ((g - mn) / step).round().clamp_(0, levels).to(torch.int32)
    return q.view(rows, cols), step, mn


def dequantize(codes, scale, zero, group_size=128):
    rows, cols = codes.shape
    q = codes.view(rows, cols // group_size, group_size).to(torch.float32)
    return (q * scale + zero).view(rows, cols)


def pack_int4(codes):
    c = codes.to(torch.uint8).view(codes.shape[0], -1, 2)
    return (c[..., 0] << 4) | c[..., 1]


def unpack_int4(packed):
    return torch.stack([packed >> 4, packed & 15], dim=-1).flatten(1)
