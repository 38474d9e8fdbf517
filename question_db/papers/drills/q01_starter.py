"""drills/1: one attention step with a KV cache and grouped-query attention (GQA).

Fill in the two definitions below (plain PyTorch). The checks call exactly this interface;
how the cache stores its tensors, and whether you loop or vectorise, is up to you.
"""
import math  # noqa: F401

import torch


class KVCache:
    """Keys and values of the positions seen so far, for one batch of sequences.

    Args:
        batch_size, max_len, num_kv_heads, head_dim: capacity of the cache.
        dtype, device: of the cached tensors.

    ``len(cache)`` is the number of positions stored so far (0 when new).
    """

    def __init__(self, batch_size, max_len, num_kv_heads, head_dim, *, dtype=torch.float32,
                 device="cpu"):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError


def gqa_attention(q, k, v, cache):
    """Append the new keys/values to ``cache`` and attend the new queries over all of it.

    Args:
        q: (B, H, T, D) queries of the T new tokens (positions L .. L+T-1, L = len(cache)).
        k, v: (B, H_kv, T, D) their keys and values; H must be a multiple of H_kv.
        cache: a KVCache; afterwards len(cache) == L + T.

    Returns:
        (B, H, T, D), dtype of q: softmax(q kᵀ / sqrt(D)) v over cached positions 0 .. L+i
        for the new token i (causal); query head h uses kv head h // (H // H_kv).

    Raises:
        an exception if H % H_kv != 0 or L + T > max_len.
    """
    raise NotImplementedError
