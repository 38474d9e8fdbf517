"""drills/9: rotary position embedding (RoPE) with explicit positions, for a KV cache.

Fill in the function. The pairing of dimensions ((2i, 2i+1) or (i, i + D/2)), real or
complex arithmetic and any cos/sin caching are up to you; the checks recognise both
pairings.
"""
import torch


def apply_rope(x, positions, base=10000.0):
    """Rotate q or k by their positions.

    Args:
        x: (B, H, T, D) queries or keys, D even, any float dtype.
        positions: int64 (T,) shared by the batch, or (B, T) one row per sequence
            (e.g. L .. L+T-1 for the T new tokens after a cache of length L).
        base: θ_i = base^(-2i/D), i = 0 .. D/2 - 1.

    Returns:
        same shape and dtype as x; pair i at position pos rotated by pos · θ_i, with the
        angles computed in float32 (or wider).
    """
    raise NotImplementedError
