"""WRONG (the causal mask compares tile-local offsets (tl.arange) instead of absolute positions).

drills/12: a FlashAttention-2 forward kernel in Triton.

Interface (what the checks call):
- ``triton_flash_attention(q, k, v, causal=False)``: q, k, v (B, H, S, D) with any strides,
  float32 / float16 / bfloat16, D in {16, 32, 64, 128}, any S >= 1. Returns (o, lse):
  o (B, H, S, D) in q's dtype equals softmax(q kᵀ / sqrt(D)) v (query i sees keys j <= i
  when causal); lse (B, H, S) float32 is the natural-log log-sum-exp of each query's
  scaled scores. Tiled with an online softmax inside Triton kernel(s); the wrapper only
  allocates and launches.

Without a GPU the kernels run in Triton's interpreter on CPU tensors, which must be chosen
before triton is first imported: hence the first lines below.
"""
import math
import os

import torch

EXPECTED_FAIL = ['matches_sdpa']

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")  # CPU: run kernels in Triton's interpreter
try:
    import triton
    import triton.language as tl
except ImportError as exc:  # the kernel's environment has no triton
    raise ImportError("this drill needs triton in the kernel's environment: pip install triton "
                      "(examdesk's own environment: pip install 'examdesk[triton]')") from exc


@triton.jit
def _attn_fwd(Q, K, V, O, L,
              sqb, sqh, sqs, sqd, skb, skh, sks, skd, svb, svh, svs, svd,
              sob, soh, sos, sod, heads, seq, scale,
              CAUSAL: tl.constexpr, D: tl.constexpr, BLOCK_M: tl.constexpr,
              BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // heads
    h = bh % heads
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    row_ok = offs_m < seq
    q = tl.load(Q + b * sqb + h * sqh + offs_m[:, None] * sqs + offs_d[None, :] * sqd,
                mask=row_ok[:, None], other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    if CAUSAL:  # key blocks after this query block are fully masked: skip them
        hi = tl.minimum((start_m + 1) * BLOCK_M, seq)
    else:
        hi = seq
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        col_ok = cols < seq
        k = tl.load(K + b * skb + h * skh + cols[:, None] * sks + offs_d[None, :] * skd,
                    mask=col_ok[:, None], other=0.0)
        v = tl.load(V + b * svb + h * svh + cols[:, None] * svs + offs_d[None, :] * svd,
                    mask=col_ok[:, None], other=0.0)
        s = tl.dot(q, tl.trans(k)) * scale
        visible = col_ok[None, :]
        if CAUSAL:
            visible = visible & (offs_n[None, :] <= tl.arange(0, BLOCK_M)[:, None])
        s = tl.where(visible, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)  # rescale what was accumulated under the old max
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(O + b * sob + h * soh + offs_m[:, None] * sos + offs_d[None, :] * sod,
             acc.to(O.dtype.element_ty), mask=row_ok[:, None])
    tl.store(L + bh * seq + offs_m, m_i + tl.log(l_i), mask=row_ok)


def triton_flash_attention(q, k, v, causal=False):
    bsz, heads, seq, dim = q.shape
    if dim not in (16, 32, 64, 128):
        raise ValueError("head dim must be 16, 32, 64 or 128")
    o = torch.empty_like(q)
    lse = torch.empty((bsz, heads, seq), dtype=torch.float32, device=q.device)
    block_m, block_n = (64, 64) if q.is_cuda else (16, 16)  # small tiles: fast interpreter
    grid = (triton.cdiv(seq, block_m), bsz * heads)
    _attn_fwd[grid](q, k, v, o, lse, *q.stride(), *k.stride(), *v.stride(), *o.stride(),
                    heads, seq, 1.0 / math.sqrt(dim), CAUSAL=causal, D=dim,
                    BLOCK_M=block_m, BLOCK_N=block_n)
    return o, lse
