"""CORRECT, another design: a growing cache (torch.cat) and SDPA's own GQA support.

drills/1: one attention step with a KV cache and grouped-query attention (GQA).
Keys and values are cached per kv head (not repeated); SDPA with ``enable_gqa=True``
(torch >= 2.5) maps query head h to kv head h // (H / H_kv) itself.
"""
import torch
import torch.nn.functional as F


class KVCache:
    def __init__(self, batch_size, max_len, num_kv_heads, head_dim, *, dtype=torch.float32,
                 device="cpu"):
        self.max_len = max_len
        self.parts = {"k": None, "v": None}

    def __len__(self):
        k = self.parts["k"]
        return 0 if k is None else k.shape[-2]

    def extend(self, k, v):
        if len(self) + k.shape[-2] > self.max_len:
            raise IndexError(f"cache full ({self.max_len} positions)")
        for name, new in (("k", k), ("v", v)):
            old = self.parts[name]
            self.parts[name] = new.clone() if old is None else torch.cat([old, new], dim=-2)
        return self.parts["k"], self.parts["v"]


def gqa_attention(q, k, v, cache):
    if q.shape[1] % k.shape[1]:
        raise ValueError("num_heads must be a multiple of num_kv_heads")
    start, t = len(cache), q.shape[-2]
    keys, values = cache.extend(k, v)
    # query i sits at position start + i and may see keys 0 .. start + i
    allowed = torch.ones(t, keys.shape[-2], dtype=torch.bool, device=q.device).tril(start)
    return F.scaled_dot_product_attention(q, keys, values, attn_mask=allowed, enable_gqa=True)
