"""CORRECT, another convention: exp2 with log2(e) folded into the scale (as the Triton
fused-attention tutorial does), the inputs made contiguous first, lse converted to ln.

drills/12: a FlashAttention-2 forward kernel in Triton. exp(x) = 2^(x·log2 e), so scores
are scaled by log2(e)/sqrt(D) and the running max lives in base-2 units; the stored lse is
(m + log2 l) · ln 2.
"""
import math
import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

LOG2E = 1.4426950408889634
LN2 = 0.6931471805599453


@triton.jit
def fa_fwd(Q, K, V, O, LSE, S, qk_scale, CAUSAL: tl.constexpr, D: tl.constexpr,
           BM: tl.constexpr, BN: tl.constexpr):
    pid_m, pid_bh = tl.program_id(0), tl.program_id(1)
    base = pid_bh * S * D  # contiguous (B*H, S, D)
    rm = pid_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(Q + base + rm[:, None] * D + rd[None, :], mask=rm[:, None] < S, other=0.0)
    m = tl.zeros([BM], tl.float32) - float("inf")
    l = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    end = S
    if CAUSAL:
        end = tl.minimum(S, (pid_m + 1) * BM)
    for n0 in range(0, end, BN):
        rn = n0 + tl.arange(0, BN)
        kt = tl.load(K + base + rn[None, :] * D + rd[:, None], mask=rn[None, :] < S, other=0.0)
        s = tl.dot(q, kt) * qk_scale
        keep = rn[None, :] < S
        if CAUSAL:
            keep &= rn[None, :] <= rm[:, None]
        s = tl.where(keep, s, float("-inf"))
        m2 = tl.maximum(m, tl.max(s, axis=1))
        p = tl.math.exp2(s - m2[:, None])
        corr = tl.math.exp2(m - m2)
        v = tl.load(V + base + rn[:, None] * D + rd[None, :], mask=rn[:, None] < S, other=0.0)
        acc = acc * corr[:, None] + tl.dot(p.to(v.dtype), v)
        l = l * corr + tl.sum(p, axis=1)
        m = m2
    tl.store(O + base + rm[:, None] * D + rd[None, :], (acc / l[:, None]).to(O.dtype.element_ty),
             mask=rm[:, None] < S)
    tl.store(LSE + pid_bh * S + rm, (m + tl.math.log2(l)) * 0.6931471805599453, mask=rm < S)


def triton_flash_attention(q, k, v, causal=False):
    B, H, S, D = q.shape
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    o = torch.empty_like(q)
    lse = torch.empty(B, H, S, device=q.device, dtype=torch.float32)
    bm = 128 if q.is_cuda else 32
    fa_fwd[(triton.cdiv(S, bm), B * H)](q, k, v, o, lse, S, LOG2E / math.sqrt(D),
                                         CAUSAL=causal, D=D, BM=bm, BN=32)
    return o, lse
