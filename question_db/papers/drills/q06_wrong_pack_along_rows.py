"""drills/6 wrong solution: int4 packing pairs codes of two *rows* in one byte, so the packed
tensor is (out/2, in) instead of the stem's (out, in/2) (two neighbouring input channels of a
row per byte, which is what a kernel unpacking along the reduction dimension reads).
Round-trips exactly and halves the bytes; only the shape is wrong. Otherwise the reference.
"""

import torch

EXPECTED_FAIL = ['int4_packing']


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
    lo, hi = g.amin(dim=-1), g.amax(dim=-1)
    scale = (hi - lo) / qmax
    # A constant group has no range: a step of |value| puts the value exactly on the grid.
    flat = scale == 0
    scale = torch.where(flat, torch.where(lo == 0, torch.ones_like(lo), lo.abs()), scale)
    zero = torch.round(-lo / scale)
    codes = torch.round(g / scale[..., None]) + zero[..., None]
    codes = codes.clamp(0, qmax).to(torch.uint8)
    return codes.reshape(w.shape), scale, zero


def dequantize(codes, scale, zero, group_size=128):
    g = _grouped(codes.float(), group_size)
    return ((g - zero[..., None]) * scale[..., None]).reshape(codes.shape)


def pack_int4(codes):
    c = codes.to(torch.uint8)
    # BUG: pairs two rows (r = 2i, 2i+1) per byte: shape (out/2, in), not (out, in/2).
    return c[0::2, :] | (c[1::2, :] << 4)


def unpack_int4(packed):
    low, high = packed & 0x0F, packed >> 4
    return torch.stack([low, high], dim=1).reshape(-1, packed.shape[1])


if __name__ == "__main__":
    torch.manual_seed(0)
    w = torch.randn(16, 512)
    for bits in (8, 4):
        codes, scale, zero = quantize(w, bits, 128)
        err = (dequantize(codes, scale, zero, 128) - w).abs()
        step = scale.repeat_interleave(128, dim=1)
        print(f"int{bits}: max |error| / step = {(err / step).max().item():.4f} (<= 0.5), "
              f"codes {int(codes.min())}..{int(codes.max())}")
    packed = pack_int4(quantize(w, 4, 128)[0])
    print("int4 packed:", tuple(packed.shape), packed.dtype,
          torch.equal(unpack_int4(packed), quantize(w, 4, 128)[0]))
