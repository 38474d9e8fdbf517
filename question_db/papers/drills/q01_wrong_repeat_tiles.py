"""WRONG (query head h reads kv head h % H_kv, as k.repeat(1, g, 1, 1) tiles them).

drills/1: one attention step with a KV cache and grouped-query attention (GQA).

Interface (what the checks call):
- ``KVCache(batch_size, max_len, num_kv_heads, head_dim, *, dtype=torch.float32,
  device="cpu")``; ``len(cache)`` = number of positions stored so far.
- ``gqa_attention(q, k, v, cache)``: q (B, H, T, D), k and v (B, H_kv, T, D) for the T new
  tokens. Appends k, v at positions L .. L+T-1 (L = len(cache) before the call) and returns
  (B, H, T, D): causal softmax(q kᵀ / sqrt(D)) v over all L+T cached positions; query head h
  reads kv head h // (H / H_kv). Raises if H is not a multiple of H_kv or the cache would
  overflow.

This reference preallocates (B, H_kv, max_len, D) buffers and groups the query heads with a
view instead of copying k/v H/H_kv times.
"""
import math

import torch

EXPECTED_FAIL = ['query_head_grouping', 'prefill_matches_causal_attention']


class KVCache:
    def __init__(self, batch_size, max_len, num_kv_heads, head_dim, *, dtype=torch.float32,
                 device="cpu"):
        shape = (batch_size, num_kv_heads, max_len, head_dim)
        self.k = torch.zeros(shape, dtype=dtype, device=device)
        self.v = torch.zeros(shape, dtype=dtype, device=device)
        self.length = 0

    def __len__(self):
        return self.length

    def append(self, k, v):
        """Store k, v (B, H_kv, T, D); return all cached keys and values so far."""
        t = k.shape[2]
        if self.length + t > self.k.shape[2]:
            raise ValueError(f"KV cache overflow: {self.length} + {t} > {self.k.shape[2]}")
        self.k[:, :, self.length:self.length + t] = k
        self.v[:, :, self.length:self.length + t] = v
        self.length += t
        return self.k[:, :, :self.length], self.v[:, :, :self.length]


def gqa_attention(q, k, v, cache):
    bsz, n_heads, t, d = q.shape
    n_kv = k.shape[1]
    if n_heads % n_kv:
        raise ValueError(f"num_heads={n_heads} is not a multiple of num_kv_heads={n_kv}")
    group = n_heads // n_kv
    start = len(cache)
    keys, values = cache.append(k, v)
    total = keys.shape[2]
    # query head h = kv * group + j  ->  (kv, j): head h reads kv head h // group
    qg = q.view(bsz, group, n_kv, t, d).transpose(1, 2)
    scores = torch.einsum("bkgtd,bksd->bkgts", qg, keys) / math.sqrt(d)
    pos_q = torch.arange(start, start + t, device=q.device)
    pos_k = torch.arange(total, device=q.device)
    scores = scores.masked_fill(pos_k[None, :] > pos_q[:, None], float("-inf"))
    out = torch.einsum("bkgts,bksd->bkgtd", scores.softmax(dim=-1), values)
    return out.transpose(1, 2).reshape(bsz, n_heads, t, d)
