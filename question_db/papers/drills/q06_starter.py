"""drills/6: group-wise int8 / int4 weight quantisation with scale and zero-point.

Fill in the four functions. How scale and zero are stored (dtype, shape, an integer
zero-point or a float offset), the nibble order of pack_int4 and whether the range is the
group's own [min, max] or widened to include 0 are up to you: the checks only read scale and
zero through your dequantize.
"""
import torch


def quantize(w, bits=8, group_size=128):
    """Asymmetric min-max quantisation per group.

    Args:
        w: (out, in) float weights; in % group_size == 0.
        bits: 8 or 4.
        group_size: a group is ``group_size`` consecutive elements of one row
            (w[r, k*group_size:(k+1)*group_size]).

    Returns:
        (codes, scale, zero): codes an integer tensor (out, in) with values in
        [0, 2**bits - 1] (the group's min -> 0, its max -> 2**bits - 1); scale and zero with
        one value per group. Every weight must come back within scale / 2.
    """
    raise NotImplementedError


def dequantize(codes, scale, zero, group_size=128):
    """(out, in) float32 weights reconstructed from ``quantize``'s output."""
    raise NotImplementedError


def pack_int4(codes):
    """(out, in) codes in 0..15 -> uint8 (out, in // 2), two codes per byte."""
    raise NotImplementedError


def unpack_int4(packed):
    """Inverse of pack_int4: the (out, in) codes exactly."""
    raise NotImplementedError
