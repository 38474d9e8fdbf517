"""CORRECT, another convention: GPTQ-style range widened to include 0, integer zero-point.

drills/6: group-wise int8 / int4 weight quantisation. As GPTQ's quantizer does, the range is
[min(min, 0), max(max, 0)], so 0 is always exactly representable and the zero-point fits
in 0..2^bits - 1; for groups holding both signs this is the same grid as plain min-max.
"""
import torch


def quantize(w, bits=8, group_size=128):
    maxq = 2 ** bits - 1
    x = w.float().reshape(-1, group_size)            # rows of one group each
    xmin = x.min(dim=1).values.clamp(max=0)
    xmax = x.max(dim=1).values.clamp(min=0)
    both_zero = (xmin == 0) & (xmax == 0)
    xmin[both_zero], xmax[both_zero] = -1.0, 1.0
    scale = (xmax - xmin) / maxq
    zero = torch.round(-xmin / scale)
    q = torch.clamp(torch.round(x / scale[:, None]) + zero[:, None], 0, maxq)
    shape = (w.shape[0], w.shape[1] // group_size)
    return q.to(torch.uint8).reshape(w.shape), scale.reshape(shape), zero.reshape(shape)


def dequantize(codes, scale, zero, group_size=128):
    q = codes.float().reshape(-1, group_size)
    return (scale.reshape(-1, 1) * (q - zero.reshape(-1, 1))).reshape(codes.shape)


def pack_int4(codes):
    c = codes.to(torch.uint8)
    return c[:, ::2] + 16 * c[:, 1::2]


def unpack_int4(packed):
    out = torch.empty(packed.shape[0], packed.shape[1] * 2, dtype=torch.uint8,
                      device=packed.device)
    out[:, ::2] = packed % 16
    out[:, 1::2] = packed // 16
    return out
