"""WRONG (k/v are repeated to all H query heads before they are cached).

drills/1: one attention step with a KV cache and grouped-query attention (GQA).
The outputs are right, but the cache holds H/H_kv times the memory GQA is meant to save.
"""
import math

import torch

EXPECTED_FAIL = ["cache_stores_kv_heads"]


class KVCache:
    def __init__(self, batch_size, max_len, num_kv_heads, head_dim, *, dtype=torch.float32,
                 device="cpu"):
        self.max_len = max_len
        self.keys = None
        self.values = None

    def __len__(self):
        return 0 if self.keys is None else self.keys.shape[2]

    def append(self, k, v):
        if len(self) + k.shape[2] > self.max_len:
            raise ValueError("KV cache overflow")
        if self.keys is None:
            self.keys, self.values = k, v
        else:
            self.keys = torch.cat([self.keys, k], dim=2)
            self.values = torch.cat([self.values, v], dim=2)
        return self.keys, self.values


def gqa_attention(q, k, v, cache):
    bsz, n_heads, t, d = q.shape
    n_kv = k.shape[1]
    if n_heads % n_kv:
        raise ValueError(f"num_heads={n_heads} is not a multiple of num_kv_heads={n_kv}")
    group = n_heads // n_kv
    start = len(cache)
    keys, values = cache.append(k.repeat_interleave(group, dim=1),
                                v.repeat_interleave(group, dim=1))
    scores = q @ keys.transpose(-2, -1) / math.sqrt(d)
    pos_q = torch.arange(start, start + t, device=q.device)
    pos_k = torch.arange(keys.shape[2], device=q.device)
    scores = scores.masked_fill(pos_k[None, :] > pos_q[:, None], float("-inf"))
    return scores.softmax(dim=-1) @ values
