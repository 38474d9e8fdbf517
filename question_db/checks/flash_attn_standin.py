"""A CPU-capable stand-in for ``flash_attn`` (FlashAttention-2's Python API).

Installed into the kernel as module ``flash_attn`` only when the real package
cannot be imported (it has no CPU build and no wheel here). Same layout and
semantics as ``flash_attn.flash_attn_func``: q, k, v are
(batch, seqlen, nheads, headdim); k/v may have fewer heads (MQA/GQA); causal
masks are aligned to the bottom-right corner when seqlen_q != seqlen_k, as in
flash-attn >= 2.1. Built on ``torch.nn.functional.scaled_dot_product_attention``.
Unlike the real kernel it also accepts float32 (so answers run on CPU).
"""
import math

import torch
import torch.nn.functional as F

__version__ = "2.x-examdesk-standin"
__examdesk_standin__ = True


def _mask(sq: int, sk: int, causal: bool, window_size, device):
    left, right = window_size
    if not causal and left < 0 and right < 0:
        return None
    i = torch.arange(sq, device=device).unsqueeze(1) + (sk - sq)  # bottom-right aligned
    j = torch.arange(sk, device=device).unsqueeze(0)
    allowed = torch.ones(sq, sk, dtype=torch.bool, device=device)
    if causal:
        right = 0
    if right >= 0:
        allowed &= j <= i + right
    if left >= 0:
        allowed &= j >= i - left
    return allowed


def flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False,
                    window_size=(-1, -1), softcap=0.0, alibi_slopes=None,
                    deterministic=False, return_attn_probs=False):
    """out = softmax(q kᵀ · softmax_scale [+ mask]) v, shape (batch, seqlen_q, nheads, headdim)."""
    if q.dim() != 4 or k.dim() != 4 or v.dim() != 4:
        raise RuntimeError("flash_attn_func expects q, k, v of shape (batch, seqlen, nheads, headdim)")
    if not (q.dtype == k.dtype == v.dtype):
        raise RuntimeError("query, key and value must have the same dtype")
    if alibi_slopes is not None or softcap:
        raise NotImplementedError("the examdesk stand-in does not implement alibi_slopes/softcap")
    b, sq, hq, d = q.shape
    sk, hk = k.shape[1], k.shape[2]
    if hq % hk:
        raise RuntimeError("Number of heads in key/value must divide number of heads in query")
    scale = softmax_scale if softmax_scale is not None else 1.0 / math.sqrt(d)
    qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))
    if hk != hq:
        kt = kt.repeat_interleave(hq // hk, dim=1)
        vt = vt.repeat_interleave(hq // hk, dim=1)
    allowed = _mask(sq, sk, causal, window_size, q.device)
    out = F.scaled_dot_product_attention(qt, kt, vt, attn_mask=allowed, dropout_p=dropout_p,
                                         scale=scale)
    out = out.transpose(1, 2)
    if return_attn_probs:
        scores = (qt.float() @ kt.float().transpose(-1, -2)) * scale
        if allowed is not None:
            scores = scores.masked_fill(~allowed, float("-inf"))
        lse = torch.logsumexp(scores, dim=-1)
        return out, lse, torch.softmax(scores, dim=-1).to(q.dtype)
    return out


def flash_attn_qkvpacked_func(qkv, dropout_p=0.0, softmax_scale=None, causal=False, **kw):
    """qkv: (batch, seqlen, 3, nheads, headdim)."""
    return flash_attn_func(qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2], dropout_p, softmax_scale,
                           causal, **kw)


def flash_attn_kvpacked_func(q, kv, dropout_p=0.0, softmax_scale=None, causal=False, **kw):
    """kv: (batch, seqlen_k, 2, nheads_k, headdim)."""
    return flash_attn_func(q, kv[:, :, 0], kv[:, :, 1], dropout_p, softmax_scale, causal, **kw)
