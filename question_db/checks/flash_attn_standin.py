"""A CPU-capable stand-in for the ``flash_attn`` package (FlashAttention-2's Python API).

Installed into the kernel as the package ``flash_attn`` only when the real one cannot be
imported (it has no CPU build and no wheel here). Like the real package it has the
submodules ``flash_attn.flash_attn_interface``, ``flash_attn.layers.rotary``,
``flash_attn.bert_padding`` (pad_input, unpad_input, index_first_axis, ...),
``flash_attn.utils.distributed`` and ``flash_attn.modules.mha`` (the attention cores
FlashSelfAttention, FlashCrossAttention, SelfAttention, CrossAttention; not the MHA layer),
so the import block at the top of flash-attn's own ``flash_attn/modules/mha.py`` works.
Names and submodules the real package has and this one does not (MHA, flash_attn.ops,
flash_attn.models, ...) raise ImportError naming them. Outputs are contiguous, as the real
kernel's (``out.view(b, s, -1)`` works). Entry points, with flash-attn 2.x signatures and
semantics:

- ``flash_attn_func(q, k, v, ...)``: q, k, v (batch, seqlen, nheads, headdim); k/v may have
  fewer heads (MQA/GQA);
- ``flash_attn_qkvpacked_func(qkv, ...)``: qkv (batch, seqlen, 3, nheads, headdim);
- ``flash_attn_kvpacked_func(q, kv, ...)``: kv (batch, seqlen_k, 2, nheads_k, headdim);
- ``flash_attn_varlen_func``, ``flash_attn_varlen_qkvpacked_func``,
  ``flash_attn_varlen_kvpacked_func``: sequences packed along dim 0, ``cu_seqlens``;
- ``flash_attn_with_kvcache(q, k_cache, v_cache, k, v, rotary_cos, rotary_sin,
  cache_seqlens, cache_batch_idx, ...)``: decoding, new k/v appended to the cache in place
  (no paged cache: block_table and cache_leftpad raise NotImplementedError).

Causal masks are aligned to the bottom-right corner when seqlen_q != seqlen_k (flash-attn
>= 2.1); default softmax scale 1/sqrt(headdim); window_size, softcap and alibi_slopes as in
flash-attn. Unlike the real kernel it also accepts float32/float64 (so answers run on CPU).

Check hooks (no effect unless a check sets them): every call is reported to the callables
in ``OBSERVERS`` as ``(entry_point, q, k, v, causal, softmax_scale)`` with q, k, v in
(batch, seqlen, nheads, headdim); ``ROUTE``, if set, computes the attention instead (the
FLOP checks route it through explicit matmuls that FlopCounterMode counts).
"""
import importlib.machinery
import math
import sys
import types

import torch
import torch.nn.functional as F

__all__ = ["OBSERVERS", "ROUTE", "BACKEND", "flash_attn_func", "flash_attn_qkvpacked_func",
           "flash_attn_kvpacked_func", "flash_attn_varlen_func",
           "flash_attn_varlen_qkvpacked_func", "flash_attn_varlen_kvpacked_func",
           "flash_attn_with_kvcache", "ENTRY_POINTS", "apply_rotary_emb", "apply_rotary_emb_qkv_",
           "apply_rotary_emb_kv_", "RotaryEmbedding"]

__version__ = "2.x-examdesk-standin"
__examdesk_standin__ = True
__path__ = []  # a package: its submodules are registered in sys.modules below

# Captured now, so a check that wraps F.scaled_dot_product_attention sees only the
# learner's own calls, not the stand-in's.
_sdpa = F.scaled_dot_product_attention

OBSERVERS: list = []
ROUTE = None
# When the real package is present the checks reuse these entry points around it: BACKEND is
# then the real flash_attn_func, called after the observers instead of the SDPA path.
BACKEND = None


def _allowed(sq, sk, causal, window_size, device):
    """Bool (sq, sk) mask of allowed keys, bottom-right aligned; None when all are allowed."""
    left, right = window_size
    if causal:
        right = 0
    if left < 0 and right < 0:
        return None
    i = torch.arange(sq, device=device).unsqueeze(1) + (sk - sq)
    j = torch.arange(sk, device=device).unsqueeze(0)
    allowed = torch.ones(sq, sk, dtype=torch.bool, device=device)
    if right >= 0:
        allowed &= j <= i + right
    if left >= 0:
        allowed &= j >= i - left
    return allowed


def _check(q, k, v):
    if q.dim() != 4 or k.dim() != 4 or v.dim() != 4:
        raise RuntimeError("flash_attn expects q, k, v of shape (batch, seqlen, nheads, headdim), "
                           f"got {tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}")
    if not (q.dtype == k.dtype == v.dtype):
        raise RuntimeError("query, key and value must have the same dtype")
    if q.shape[-1] != k.shape[-1] or k.shape[:3] != v.shape[:3]:
        raise RuntimeError(f"incompatible shapes q {tuple(q.shape)}, k {tuple(k.shape)}, "
                           f"v {tuple(v.shape)}")
    if q.shape[2] % k.shape[2]:
        raise RuntimeError("Number of heads in key/value must divide number of heads in query")


def _scores_path(q, k, v, scale, allowed, softcap, alibi_slopes):
    """Explicit softmax(q kᵀ) v (for softcap / alibi / attention probabilities)."""
    qt, kt, vt = (t.transpose(1, 2).float() for t in (q, k, v))
    if kt.shape[1] != qt.shape[1]:
        kt = kt.repeat_interleave(qt.shape[1] // kt.shape[1], dim=1)
        vt = vt.repeat_interleave(qt.shape[1] // vt.shape[1], dim=1)
    scores = (qt @ kt.transpose(-1, -2)) * scale
    if softcap:
        scores = softcap * torch.tanh(scores / softcap)
    if alibi_slopes is not None:
        sq, sk = scores.shape[-2:]
        i = torch.arange(sq, device=q.device).unsqueeze(1) + (sk - sq)
        j = torch.arange(sk, device=q.device).unsqueeze(0)
        slopes = alibi_slopes.float()
        slopes = slopes.view(1, -1, 1, 1) if slopes.dim() == 1 else slopes[:, :, None, None]
        scores = scores - slopes * (i - j).abs()
    if allowed is not None:
        scores = scores.masked_fill(~allowed, float("-inf"))
    lse = torch.logsumexp(scores, dim=-1)
    probs = torch.softmax(scores, dim=-1)
    out = (probs @ vt).transpose(1, 2).to(q.dtype)
    return out, lse, probs.to(q.dtype)


def _attention(entry, q, k, v, dropout_p=0.0, softmax_scale=None, causal=False,
               window_size=(-1, -1), softcap=0.0, alibi_slopes=None, deterministic=False,
               return_attn_probs=False):
    _check(q, k, v)
    scale = softmax_scale if softmax_scale is not None else 1.0 / math.sqrt(q.shape[-1])
    for observer in list(OBSERVERS):
        observer(entry, q, k, v, causal, scale)
    if ROUTE is not None:
        out = ROUTE(q, k, v, causal=causal, softmax_scale=scale, window_size=window_size)
        out = out.contiguous()  # the real kernel's layout: out.view(b, s, -1) must work
        return (out, None, None) if return_attn_probs else out
    if BACKEND is not None:
        return BACKEND(q, k, v, dropout_p=dropout_p, softmax_scale=softmax_scale, causal=causal,
                       window_size=window_size, softcap=softcap, alibi_slopes=alibi_slopes,
                       deterministic=deterministic, return_attn_probs=return_attn_probs)
    allowed = _allowed(q.shape[1], k.shape[1], causal, tuple(window_size), q.device)
    if softcap or alibi_slopes is not None or return_attn_probs:
        out, lse, probs = _scores_path(q, k, v, scale, allowed, softcap, alibi_slopes)
        if dropout_p:
            raise NotImplementedError("the examdesk stand-in has no dropout on this path")
        out = out.contiguous()
        return (out, lse, probs) if return_attn_probs else out
    qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))
    if kt.shape[1] != qt.shape[1]:
        kt = kt.repeat_interleave(qt.shape[1] // kt.shape[1], dim=1)
        vt = vt.repeat_interleave(qt.shape[1] // vt.shape[1], dim=1)
    out = _sdpa(qt, kt, vt, attn_mask=allowed, dropout_p=dropout_p, scale=scale)
    # (batch, seqlen, nheads, headdim) contiguous, as the real kernel returns it: a learner's
    # out.view(b, s, -1) right after the call must work.
    return out.transpose(1, 2).contiguous()


def flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False,
                    window_size=(-1, -1), softcap=0.0, alibi_slopes=None,
                    deterministic=False, return_attn_probs=False):
    """out = softmax(q kᵀ · softmax_scale [+ mask]) v, shape (batch, seqlen_q, nheads, headdim)."""
    return _attention("flash_attn_func", q, k, v, dropout_p, softmax_scale, causal,
                      window_size, softcap, alibi_slopes, deterministic, return_attn_probs)


def flash_attn_qkvpacked_func(qkv, dropout_p=0.0, softmax_scale=None, causal=False,
                              window_size=(-1, -1), softcap=0.0, alibi_slopes=None,
                              deterministic=False, return_attn_probs=False):
    """qkv: (batch, seqlen, 3, nheads, headdim)."""
    q, k, v = qkv.unbind(2)
    return _attention("flash_attn_qkvpacked_func", q, k, v, dropout_p, softmax_scale, causal,
                      window_size, softcap, alibi_slopes, deterministic, return_attn_probs)


def flash_attn_kvpacked_func(q, kv, dropout_p=0.0, softmax_scale=None, causal=False,
                             window_size=(-1, -1), softcap=0.0, alibi_slopes=None,
                             deterministic=False, return_attn_probs=False):
    """kv: (batch, seqlen_k, 2, nheads_k, headdim)."""
    k, v = kv.unbind(2)
    return _attention("flash_attn_kvpacked_func", q, k, v, dropout_p, softmax_scale, causal,
                      window_size, softcap, alibi_slopes, deterministic, return_attn_probs)


def _varlen(entry, q, k, v, cu_seqlens_q, cu_seqlens_k, dropout_p, softmax_scale, causal,
            window_size, softcap, alibi_slopes, deterministic, return_attn_probs):
    """Sequences packed along dim 0: (total, nheads, headdim); one attention per sequence."""
    bq, bk = cu_seqlens_q.tolist(), cu_seqlens_k.tolist()
    if len(bq) != len(bk):
        raise RuntimeError("cu_seqlens_q and cu_seqlens_k describe different batch sizes")
    lengths = {(bq[i + 1] - bq[i], bk[i + 1] - bk[i]) for i in range(len(bq) - 1)}
    if len(lengths) == 1 and not return_attn_probs:  # equal lengths: one batched call
        (sq, sk), = lengths
        n = len(bq) - 1
        out = _attention(entry, q[bq[0]:bq[-1]].reshape(n, sq, *q.shape[1:]),
                         k[bk[0]:bk[-1]].reshape(n, sk, *k.shape[1:]),
                         v[bk[0]:bk[-1]].reshape(n, sk, *v.shape[1:]), dropout_p, softmax_scale,
                         causal, window_size, softcap, alibi_slopes, deterministic)
        return out.reshape(n * sq, *out.shape[2:]).contiguous()
    outs = []
    for i in range(len(bq) - 1):
        qi, ki, vi = (t[a:b].unsqueeze(0) for t, a, b in
                      ((q, bq[i], bq[i + 1]), (k, bk[i], bk[i + 1]), (v, bk[i], bk[i + 1])))
        slopes = alibi_slopes[i] if alibi_slopes is not None and alibi_slopes.dim() == 2 \
            else alibi_slopes
        outs.append(_attention(entry, qi, ki, vi, dropout_p, softmax_scale, causal,
                               window_size, softcap, slopes, deterministic)[0])
    out = torch.cat(outs, dim=0).contiguous()
    return (out, None, None) if return_attn_probs else out


def flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k,
                           dropout_p=0.0, softmax_scale=None, causal=False,
                           window_size=(-1, -1), softcap=0.0, alibi_slopes=None,
                           deterministic=False, return_attn_probs=False, block_table=None):
    """q: (total_q, nheads, headdim); k, v: (total_k, nheads_k, headdim)."""
    if block_table is not None:
        raise NotImplementedError("the examdesk stand-in has no paged KV cache (block_table)")
    return _varlen("flash_attn_varlen_func", q, k, v, cu_seqlens_q, cu_seqlens_k, dropout_p,
                   softmax_scale, causal, window_size, softcap, alibi_slopes, deterministic,
                   return_attn_probs)


def flash_attn_varlen_qkvpacked_func(qkv, cu_seqlens, max_seqlen, dropout_p=0.0,
                                     softmax_scale=None, causal=False, window_size=(-1, -1),
                                     softcap=0.0, alibi_slopes=None, deterministic=False,
                                     return_attn_probs=False):
    """qkv: (total, 3, nheads, headdim)."""
    q, k, v = qkv.unbind(1)
    return _varlen("flash_attn_varlen_qkvpacked_func", q, k, v, cu_seqlens, cu_seqlens,
                   dropout_p, softmax_scale, causal, window_size, softcap, alibi_slopes,
                   deterministic, return_attn_probs)


def flash_attn_varlen_kvpacked_func(q, kv, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                                    max_seqlen_k, dropout_p=0.0, softmax_scale=None,
                                    causal=False, window_size=(-1, -1), softcap=0.0,
                                    alibi_slopes=None, deterministic=False,
                                    return_attn_probs=False):
    """q: (total_q, nheads, headdim); kv: (total_k, 2, nheads_k, headdim)."""
    k, v = kv.unbind(1)
    return _varlen("flash_attn_varlen_kvpacked_func", q, k, v, cu_seqlens_q, cu_seqlens_k,
                   dropout_p, softmax_scale, causal, window_size, softcap, alibi_slopes,
                   deterministic, return_attn_probs)


def flash_attn_with_kvcache(q, k_cache, v_cache, k=None, v=None, rotary_cos=None,
                            rotary_sin=None, cache_seqlens=None, cache_batch_idx=None,
                            cache_leftpad=None, block_table=None, softmax_scale=None,
                            causal=False, window_size=(-1, -1), softcap=0.0,
                            rotary_interleaved=True, alibi_slopes=None, num_splits=0,
                            return_softmax_lse=False):
    """Decoding with a KV cache (flash-attn 2.x semantics).

    q: (batch, seqlen_q, nheads, headdim); k_cache, v_cache: (batch_cache, seqlen_cache,
    nheads_k, headdim). k, v (batch, seqlen_new, nheads_k, headdim), if given, are written
    into the caches in place at positions cache_seqlens .. cache_seqlens + seqlen_new − 1
    (after RoPE when rotary_cos/rotary_sin are given); attention then runs over the first
    cache_seqlens + seqlen_new keys of each sequence (all of seqlen_cache when cache_seqlens
    is None), the causal mask aligned to the bottom right. cache_seqlens: int or (batch,)
    int32; cache_batch_idx: which cache rows the batch uses. RoPE (rotary_cos/sin of shape
    (seqlen_ro, rotary_dim / 2)) rotates k at its cache positions and q at cache_seqlens +
    i when causal or local, else every query at position cache_seqlens.
    """
    if block_table is not None:
        raise NotImplementedError("the examdesk flash_attn stand-in has no paged KV cache "
                                  "(block_table) in flash_attn_with_kvcache")
    if cache_leftpad is not None:
        raise NotImplementedError("the examdesk flash_attn stand-in has no cache_leftpad in "
                                  "flash_attn_with_kvcache")
    if q.dim() != 4 or k_cache.dim() != 4 or v_cache.dim() != 4:
        raise RuntimeError("flash_attn_with_kvcache expects q (batch, seqlen_q, nheads, headdim) "
                           "and k_cache, v_cache (batch_cache, seqlen_cache, nheads_k, headdim)")
    if (k is None) != (v is None):
        raise RuntimeError("flash_attn_with_kvcache: give both k and v, or neither")
    batch, seqlen_q = q.shape[:2]
    seqlen_new = 0 if k is None else k.shape[1]
    if cache_seqlens is None:
        if k is not None:
            raise RuntimeError("flash_attn_with_kvcache: appending k, v needs cache_seqlens "
                               "(where to write them)")
        lengths = [k_cache.shape[1]] * batch
    elif isinstance(cache_seqlens, int):
        lengths = [cache_seqlens] * batch
    else:
        lengths = [int(n) for n in cache_seqlens.reshape(-1).tolist()]
        if len(lengths) != batch:
            raise RuntimeError(f"cache_seqlens has {len(lengths)} entries for batch {batch}")
    rows = (list(range(batch)) if cache_batch_idx is None else
            [int(i) for i in cache_batch_idx.reshape(-1).tolist()])
    for b, (row, n) in enumerate(zip(rows, lengths)):
        if n + seqlen_new > k_cache.shape[1]:
            raise RuntimeError(f"flash_attn_with_kvcache: sequence {b} needs {n + seqlen_new} "
                               f"cache positions, the cache has {k_cache.shape[1]}")
    # As in flash-attn: RoPE is applied only when new k, v are passed in.
    rotary = rotary_cos is not None and rotary_sin is not None and k is not None
    local = causal or tuple(window_size) != (-1, -1)
    outs, lses = [], []
    for b, (row, n) in enumerate(zip(rows, lengths)):
        qb = q[b:b + 1]
        kb, vb = k_cache[row:row + 1, :n], v_cache[row:row + 1, :n]
        if k is not None:
            k_new, v_new = k[b:b + 1], v[b:b + 1]
            if rotary:
                k_new = _rotary(k_new, rotary_cos, rotary_sin, rotary_interleaved, n)
            k_new, v_new = k_new.to(k_cache.dtype), v_new.to(v_cache.dtype)
            with torch.no_grad():  # the cache is updated in place, as the kernel does
                k_cache[row, n:n + seqlen_new] = k_new[0]
                v_cache[row, n:n + seqlen_new] = v_new[0]
            # Attention uses the new k, v themselves, so gradients (if any) reach them.
            kb, vb = torch.cat((kb, k_new), dim=1), torch.cat((vb, v_new), dim=1)
        if rotary:
            if local:
                qb = _rotary(qb, rotary_cos, rotary_sin, rotary_interleaved, n)
            else:  # every query at position cache_seqlens
                c = rotary_cos[n].expand(1, seqlen_q, 1, -1)
                sn = rotary_sin[n].expand(1, seqlen_q, 1, -1)
                qb = _rotary_at(qb, c, sn, rotary_interleaved)
        slopes = alibi_slopes[b:b + 1] if alibi_slopes is not None and \
            alibi_slopes.dim() == 2 else alibi_slopes
        res = _attention("flash_attn_with_kvcache", qb, kb, vb, 0.0, softmax_scale, causal,
                         window_size, softcap, slopes, False, return_softmax_lse)
        if return_softmax_lse:
            outs.append(res[0])
            lses.append(res[1])
        else:
            outs.append(res)
    out = torch.cat(outs, dim=0).contiguous()
    if return_softmax_lse:
        lse = torch.cat(lses, dim=0) if all(t is not None for t in lses) else None
        return out, lse
    return out


ENTRY_POINTS = ("flash_attn_func", "flash_attn_qkvpacked_func", "flash_attn_kvpacked_func",
                "flash_attn_varlen_func", "flash_attn_varlen_qkvpacked_func",
                "flash_attn_varlen_kvpacked_func", "flash_attn_with_kvcache")


# --- flash_attn.layers.rotary ---------------------------------------------------------------
def _rotary(x, cos, sin, interleaved, seqlen_offsets):
    """Rotate the first 2·cos.shape[-1] channels of x (batch, seqlen, nheads, headdim)."""
    ro = 2 * cos.shape[-1]
    s = x.shape[1]
    if isinstance(seqlen_offsets, int):
        c, sn = cos[seqlen_offsets:seqlen_offsets + s], sin[seqlen_offsets:seqlen_offsets + s]
        c, sn = c[None, :, None, :], sn[None, :, None, :]
    else:
        idx = seqlen_offsets.view(-1, 1) + torch.arange(s, device=x.device)
        c, sn = cos[idx][:, :, None, :], sin[idx][:, :, None, :]
    if c.shape[1] < s:
        raise RuntimeError(f"cos/sin cover {c.shape[1]} positions, the input has {s}")
    return _rotary_at(x, c, sn, interleaved)


def _rotary_at(x, c, sn, interleaved):
    """Rotate the first 2·c.shape[-1] channels of x by the given cos/sin (broadcast)."""
    ro = 2 * c.shape[-1]
    c, sn = c.float(), sn.float()
    xr = x[..., :ro].float()
    if interleaved:  # GPT-J: pairs (2i, 2i+1)
        x1, x2 = xr[..., 0::2], xr[..., 1::2]
        out = torch.stack((x1 * c - x2 * sn, x1 * sn + x2 * c), dim=-1).flatten(-2)
    else:  # GPT-NeoX: pairs (i, i + ro/2)
        x1, x2 = xr.chunk(2, dim=-1)
        out = torch.cat((x1 * c - x2 * sn, x1 * sn + x2 * c), dim=-1)
    return torch.cat((out.to(x.dtype), x[..., ro:]), dim=-1)


def apply_rotary_emb(x, cos, sin, interleaved=False, inplace=False, seqlen_offsets=0,
                     cu_seqlens=None, max_seqlen=None):
    """x: (batch, seqlen, nheads, headdim), or (total, nheads, headdim) with cu_seqlens;
    cos, sin: (seqlen_rotary, rotary_dim / 2)."""
    if cu_seqlens is None:
        out = _rotary(x, cos, sin, interleaved, seqlen_offsets)
    else:
        bounds = cu_seqlens.tolist()
        pieces = []
        for i in range(len(bounds) - 1):
            off = seqlen_offsets if isinstance(seqlen_offsets, int) else int(seqlen_offsets[i])
            pieces.append(_rotary(x[bounds[i]:bounds[i + 1]].unsqueeze(0), cos, sin,
                                  interleaved, off)[0])
        out = torch.cat(pieces, dim=0)
    if inplace:
        x.copy_(out)
        return x
    return out


def apply_rotary_emb_qkv_(qkv, cos, sin, cos_k=None, sin_k=None, interleaved=False,
                          seqlen_offsets=0, num_heads_q=None):
    """In place on q and k of qkv (batch, seqlen, 3, nheads, headdim), or of
    (batch, seqlen, num_heads_q + 2·num_heads_k, headdim) given num_heads_q."""
    cos_k = cos if cos_k is None else cos_k
    sin_k = sin if sin_k is None else sin_k
    if qkv.dim() == 5:
        q, k = qkv[:, :, 0], qkv[:, :, 1]
    else:
        if num_heads_q is None:
            raise ValueError("num_heads_q is needed for qkv of shape (b, s, hq + 2·hk, d)")
        hk = (qkv.shape[2] - num_heads_q) // 2
        q, k = qkv[:, :, :num_heads_q], qkv[:, :, num_heads_q:num_heads_q + hk]
    new_q = _rotary(q, cos, sin, interleaved, seqlen_offsets)
    new_k = _rotary(k, cos_k, sin_k, interleaved, seqlen_offsets)
    q.copy_(new_q)
    k.copy_(new_k)
    return qkv


def apply_rotary_emb_kv_(kv, cos, sin, interleaved=False, seqlen_offsets=0):
    """In place on k of kv (batch, seqlen, 2, nheads, headdim)."""
    k = kv[:, :, 0]
    k.copy_(_rotary(k, cos, sin, interleaved, seqlen_offsets))
    return kv


class RotaryEmbedding(torch.nn.Module):
    """flash_attn.layers.rotary.RotaryEmbedding without XPos: applies RoPE in place to a
    packed qkv (batch, seqlen, 3, nheads, headdim), or to q and kv."""

    def __init__(self, dim, base=10000.0, interleaved=False, scale_base=None,
                 pos_idx_in_fp32=True, device=None):
        super().__init__()
        if scale_base is not None:
            raise NotImplementedError("the examdesk stand-in has no XPos (scale_base)")
        self.dim, self.base, self.interleaved = dim, float(base), interleaved
        inv_freq = 1.0 / (self.base ** (torch.arange(0, dim, 2, device=device,
                                                     dtype=torch.float32) / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self._cached = (0, None, None, None)

    def _cos_sin(self, seqlen, device, dtype):
        n, cos, sin, key = self._cached
        if n < seqlen or key != (device, dtype) or cos is None:
            inv_freq = 1.0 / (self.base ** (torch.arange(0, self.dim, 2, device=device,
                                                         dtype=torch.float32) / self.dim))
            freqs = torch.outer(torch.arange(seqlen, device=device, dtype=torch.float32),
                                inv_freq)
            cos, sin = freqs.cos().to(dtype), freqs.sin().to(dtype)
            self._cached = (seqlen, cos, sin, (device, dtype))
        return cos, sin

    def forward(self, qkv, kv=None, seqlen_offset=0, max_seqlen=None, num_heads_q=None):
        seqlen = qkv.shape[1]
        length = max_seqlen if max_seqlen is not None else seqlen + (
            seqlen_offset if isinstance(seqlen_offset, int) else int(seqlen_offset.max()))
        cos, sin = self._cos_sin(length, qkv.device, qkv.dtype)
        if kv is None:
            return apply_rotary_emb_qkv_(qkv, cos, sin, interleaved=self.interleaved,
                                         seqlen_offsets=seqlen_offset, num_heads_q=num_heads_q)
        q = apply_rotary_emb(qkv, cos, sin, interleaved=self.interleaved, inplace=True,
                             seqlen_offsets=seqlen_offset)
        kv = apply_rotary_emb_kv_(kv, cos, sin, interleaved=self.interleaved,
                                  seqlen_offsets=seqlen_offset)
        return q, kv


# --- flash_attn.bert_padding ---------------------------------------------------------------
class IndexFirstAxis(torch.autograd.Function):
    """input[indices] along the first axis (the gradient is scattered back)."""

    @staticmethod
    def forward(ctx, input, indices):
        ctx.save_for_backward(indices)
        ctx.first_axis_dim = input.shape[0]
        return input[indices]

    @staticmethod
    def backward(ctx, grad_output):
        (indices,) = ctx.saved_tensors
        grad = grad_output.new_zeros((ctx.first_axis_dim, *grad_output.shape[1:]))
        grad[indices] = grad_output
        return grad, None


class IndexPutFirstAxis(torch.autograd.Function):
    """zeros(first_axis_dim, ...) with values written at indices."""

    @staticmethod
    def forward(ctx, values, indices, first_axis_dim):
        ctx.save_for_backward(indices)
        out = values.new_zeros((first_axis_dim, *values.shape[1:]))
        out[indices] = values
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (indices,) = ctx.saved_tensors
        return grad_output[indices], None, None


index_first_axis = IndexFirstAxis.apply
index_put_first_axis = IndexPutFirstAxis.apply


def unpad_input(hidden_states, attention_mask, unused_mask=None):
    """hidden_states (batch, seqlen, ...), attention_mask (batch, seqlen) bool/int, 1 = keep.

    Returns (hidden_states (total_nnz, ...), indices (total_nnz,), cu_seqlens (batch + 1,)
    int32, max_seqlen_in_batch int, seqused (batch,) int32), as flash-attn >= 2.6.3 (earlier
    releases return the first four only). unused_mask: tokens allocated but not attended to
    (kept in the output, counted in cu_seqlens, not in seqused).
    """
    all_masks = attention_mask if unused_mask is None else (attention_mask + unused_mask)
    seqlens_in_batch = all_masks.sum(dim=-1, dtype=torch.int32)
    used_seqlens_in_batch = attention_mask.sum(dim=-1, dtype=torch.int32)
    indices = torch.nonzero(all_masks.flatten(), as_tuple=False).flatten()
    max_seqlen_in_batch = int(seqlens_in_batch.max().item())
    cu_seqlens = F.pad(torch.cumsum(seqlens_in_batch, dim=0, dtype=torch.int32), (1, 0))
    flat = hidden_states.reshape(-1, *hidden_states.shape[2:])
    return (index_first_axis(flat, indices), indices, cu_seqlens, max_seqlen_in_batch,
            used_seqlens_in_batch)


def unpad_input_for_concatenated_sequences(hidden_states, attention_mask_in_length):
    """attention_mask_in_length (batch, seqlen): each row lists the lengths of the sequences
    concatenated in it, then zeros. Returns (hidden_states, indices, cu_seqlens, max_seqlen)."""
    length = attention_mask_in_length.sum(dim=-1)
    seqlen = attention_mask_in_length.size(-1)
    mask_2d = (torch.arange(seqlen, device=length.device).expand(len(length), seqlen)
               < length.unsqueeze(1))
    real = torch.nonzero(attention_mask_in_length.flatten(), as_tuple=False).flatten()
    seqlens_in_batch = attention_mask_in_length.flatten()[real]
    indices = torch.nonzero(mask_2d.flatten(), as_tuple=False).flatten()
    max_seqlen_in_batch = int(seqlens_in_batch.max().item())
    cu_seqlens = F.pad(torch.cumsum(seqlens_in_batch, dim=0, dtype=torch.int32), (1, 0))
    flat = hidden_states.reshape(-1, *hidden_states.shape[2:])
    return index_first_axis(flat, indices), indices, cu_seqlens, max_seqlen_in_batch


def pad_input(hidden_states, indices, batch, seqlen):
    """(total_nnz, ...) back to (batch, seqlen, ...), zeros where the mask was 0."""
    out = index_put_first_axis(hidden_states, indices, batch * seqlen)
    return out.reshape(batch, seqlen, *hidden_states.shape[1:])


# --- flash_attn.utils.distributed (what flash_attn/modules/mha.py imports) ------------------
def get_dim_for_local_rank(dim, world_size, local_rank, multiple_of=1):
    """This rank's share of ``dim`` in units of ``multiple_of`` (the first ranks get one
    more when it does not divide evenly)."""
    multiple = dim // multiple_of
    div, mod = divmod(multiple, world_size)
    return (div + int(local_rank < mod)) * multiple_of


def all_gather_raw(input_, process_group, async_op=False):
    import torch.distributed as dist
    world_size = dist.get_world_size(process_group)
    output = input_.new_empty((world_size * input_.shape[0], *input_.shape[1:]))
    handle = dist.all_gather_into_tensor(output, input_.contiguous(), group=process_group,
                                         async_op=async_op)
    return output, handle


def reduce_scatter_raw(input_, process_group, async_op=False):
    import torch.distributed as dist
    world_size = dist.get_world_size(process_group)
    assert input_.shape[0] % world_size == 0
    output = input_.new_empty((input_.shape[0] // world_size, *input_.shape[1:]))
    handle = dist.reduce_scatter_tensor(output, input_.contiguous(), group=process_group,
                                        async_op=async_op)
    return output, handle


def all_reduce_raw(input_, process_group, async_op=False):
    import torch.distributed as dist
    input_ = input_.contiguous()
    handle = dist.all_reduce(input_, group=process_group, async_op=async_op)
    return input_, handle


# --- flash_attn.modules.mha: the attention cores ---------------------------------------------
class FlashSelfAttention(torch.nn.Module):
    """softmax(QKᵀ·scale)V on a packed qkv (batch, seqlen, 3, nheads, headdim), or
    (total, 3, nheads, headdim) with cu_seqlens and max_seqlen."""

    def __init__(self, causal=False, softmax_scale=None, attention_dropout=0.0,
                 window_size=(-1, -1), alibi_slopes=None, deterministic=False):
        super().__init__()
        self.causal, self.softmax_scale = causal, softmax_scale
        self.drop = torch.nn.Dropout(attention_dropout)
        self.register_buffer("alibi_slopes", alibi_slopes, persistent=False)
        self.window_size, self.deterministic = window_size, deterministic

    def forward(self, qkv, causal=None, cu_seqlens=None, max_seqlen=None):
        causal = self.causal if causal is None else causal
        p = self.drop.p if self.training else 0.0
        if cu_seqlens is not None:
            return flash_attn_varlen_qkvpacked_func(
                qkv, cu_seqlens, max_seqlen, p, softmax_scale=self.softmax_scale,
                causal=causal, alibi_slopes=self.alibi_slopes, window_size=self.window_size,
                deterministic=self.deterministic)
        return flash_attn_qkvpacked_func(qkv, p, softmax_scale=self.softmax_scale,
                                         causal=causal, alibi_slopes=self.alibi_slopes,
                                         window_size=self.window_size,
                                         deterministic=self.deterministic)


class FlashCrossAttention(torch.nn.Module):
    """q (batch, seqlen_q, nheads, headdim), kv (batch, seqlen_k, 2, nheads_k, headdim), or
    packed with cu_seqlens / cu_seqlens_k."""

    def __init__(self, causal=False, softmax_scale=None, attention_dropout=0.0,
                 alibi_slopes=None, window_size=(-1, -1), deterministic=False):
        super().__init__()
        self.causal, self.softmax_scale = causal, softmax_scale
        self.drop = torch.nn.Dropout(attention_dropout)
        self.register_buffer("alibi_slopes", alibi_slopes, persistent=False)
        self.window_size, self.deterministic = window_size, deterministic

    def forward(self, q, kv, causal=None, cu_seqlens=None, max_seqlen=None,
                cu_seqlens_k=None, max_seqlen_k=None):
        causal = self.causal if causal is None else causal
        p = self.drop.p if self.training else 0.0
        if cu_seqlens is not None:
            return flash_attn_varlen_kvpacked_func(
                q, kv, cu_seqlens, cu_seqlens_k, max_seqlen, max_seqlen_k, p,
                softmax_scale=self.softmax_scale, causal=causal,
                alibi_slopes=self.alibi_slopes, window_size=self.window_size,
                deterministic=self.deterministic)
        return flash_attn_kvpacked_func(q, kv, p, softmax_scale=self.softmax_scale,
                                        causal=causal, alibi_slopes=self.alibi_slopes,
                                        window_size=self.window_size,
                                        deterministic=self.deterministic)


def _key_padding_bias(key_padding_mask, dtype):
    if key_padding_mask is None:
        return None
    return torch.zeros(key_padding_mask.shape, dtype=dtype, device=key_padding_mask.device) \
        .masked_fill(~key_padding_mask.bool(), float("-inf"))[:, None, None, :]


def _reference_attention(module, q, k, v, causal, key_padding_mask):
    """SelfAttention's and CrossAttention's computation: ``module`` holds causal,
    softmax_scale and the attention dropout."""
    causal = module.causal if causal is None else causal
    if k.shape[2] != q.shape[2]:
        k = k.repeat_interleave(q.shape[2] // k.shape[2], dim=2)
        v = v.repeat_interleave(q.shape[2] // v.shape[2], dim=2)
    scale = module.softmax_scale or 1.0 / math.sqrt(q.shape[-1])
    scores = torch.einsum("bthd,bshd->bhts", q, k * scale)
    bias = _key_padding_bias(key_padding_mask, scores.dtype)
    if bias is not None:
        scores = scores + bias
    if causal:
        allowed = _allowed(q.shape[1], k.shape[1], True, (-1, -1), q.device)
        scores = scores.masked_fill(~allowed, float("-inf"))
    attention = module.drop(torch.softmax(scores, dim=-1, dtype=v.dtype))
    return torch.einsum("bhts,bshd->bthd", attention, v).contiguous()


class SelfAttention(torch.nn.Module):
    """The same computation as FlashSelfAttention in plain PyTorch; key_padding_mask
    (batch, seqlen), True = keep."""

    def __init__(self, causal=False, softmax_scale=None, attention_dropout=0.0):
        super().__init__()
        self.causal, self.softmax_scale = causal, softmax_scale
        self.drop = torch.nn.Dropout(attention_dropout)

    def forward(self, qkv, causal=None, key_padding_mask=None):
        q, k, v = qkv.unbind(dim=2)
        return _reference_attention(self, q, k, v, causal, key_padding_mask)


class CrossAttention(torch.nn.Module):
    """q (batch, seqlen_q, nheads, headdim), kv (batch, seqlen_k, 2, nheads_k, headdim)."""

    def __init__(self, causal=False, softmax_scale=None, attention_dropout=0.0):
        super().__init__()
        self.causal, self.softmax_scale = causal, softmax_scale
        self.drop = torch.nn.Dropout(attention_dropout)

    def forward(self, q, kv, causal=None, key_padding_mask=None):
        k, v = kv.unbind(dim=2)
        return _reference_attention(self, q, k, v, causal, key_padding_mask)


# --- submodules -----------------------------------------------------------------------------
def get_alibi_slopes(nheads):
    """ALiBi slopes (Press et al.) for nheads heads, as flash_attn.modules.mha computes them."""
    def power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start ** i for i in range(n)]
    if math.log2(nheads).is_integer():
        return power_of_2(nheads)
    closest = 2 ** math.floor(math.log2(nheads))
    return power_of_2(closest) + get_alibi_slopes(2 * closest)[0::2][:nheads - closest]


_ABSENT_HINT = ("the examdesk flash_attn stand-in (CPU, no flash-attn build here) does not "
                "provide {what}; use the flash_attn entry points (flash_attn_func, "
                "flash_attn_varlen_func, flash_attn_with_kvcache, ...), flash_attn.bert_padding "
                "or flash_attn.layers.rotary, or write it in PyTorch")


def _module(name, doc, package=False, absent=(), **attrs):
    """A stand-in module. Names in ``absent`` exist in the real module but not here:
    importing one raises ImportError naming it (not a silent None)."""
    mod = types.ModuleType(name, doc)
    mod.__dict__.update(attrs)
    mod.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=package)
    if package:
        mod.__path__ = []
    absent = frozenset(absent)

    def __getattr__(attr, _name=name):
        if attr in absent:
            raise ImportError(_ABSENT_HINT.format(what=f"{_name}.{attr}"), name=_name)
        raise AttributeError(f"module {_name!r} has no attribute {attr!r} (examdesk flash_attn "
                             "stand-in)")

    if absent:
        mod.__getattr__ = __getattr__
    sys.modules[name] = mod
    return mod


class _AbsentSubmodules:
    """A meta-path finder: importing a submodule of the stand-in that it does not provide
    (flash_attn.ops.fused_dense, flash_attn.models, ...) raises ModuleNotFoundError naming
    it, as importing it from a flash-attn build without it would (so try/except ImportError
    fallbacks such as flash_attn/modules/mha.py's work)."""

    def __init__(self, package_name):
        self.package_name = package_name

    def find_spec(self, fullname, path=None, target=None):
        owner = sys.modules.get(self.package_name)
        if (fullname.startswith(self.package_name + ".") and fullname not in sys.modules
                and getattr(owner, "__examdesk_standin__", False)):  # not a real package
            raise ModuleNotFoundError(_ABSENT_HINT.format(what=f"the module {fullname}"),
                                      name=fullname)
        return None


def _install_submodules(package_name):
    """Register the stand-in's submodules: flash_attn.flash_attn_interface, .layers.rotary,
    .bert_padding, .utils.distributed, .modules.mha (the attention cores)."""
    g = globals()
    interface = _module(f"{package_name}.flash_attn_interface",
                        "examdesk stand-in for flash_attn.flash_attn_interface",
                        **{name: g[name] for name in ENTRY_POINTS})
    rotary = _module(f"{package_name}.layers.rotary",
                     "examdesk stand-in for flash_attn.layers.rotary",
                     apply_rotary_emb=apply_rotary_emb, apply_rotary_emb_func=apply_rotary_emb,
                     apply_rotary_emb_qkv_=apply_rotary_emb_qkv_,
                     apply_rotary_emb_kv_=apply_rotary_emb_kv_, RotaryEmbedding=RotaryEmbedding)
    layers = _module(f"{package_name}.layers", "examdesk stand-in for flash_attn.layers",
                     package=True, rotary=rotary)
    bert_padding = _module(
        f"{package_name}.bert_padding", "examdesk stand-in for flash_attn.bert_padding",
        absent=("IndexFirstAxisResidual", "index_first_axis_residual"),
        **{n: g[n] for n in ("IndexFirstAxis", "IndexPutFirstAxis", "index_first_axis",
                             "index_put_first_axis", "unpad_input",
                             "unpad_input_for_concatenated_sequences", "pad_input")})
    distributed = _module(
        f"{package_name}.utils.distributed",
        "examdesk stand-in for flash_attn.utils.distributed (raw collectives only)",
        absent=("AllGatherFunc", "ReduceScatterFunc", "AllReduceFunc", "all_gather",
                "reduce_scatter", "all_reduce", "sync_shared_params",
                "allreduce_sequence_parallel_grad"),
        **{n: g[n] for n in ("get_dim_for_local_rank", "all_gather_raw", "reduce_scatter_raw",
                             "all_reduce_raw")})
    utils = _module(f"{package_name}.utils", "examdesk stand-in for flash_attn.utils",
                    package=True, distributed=distributed)
    mha = _module(
        f"{package_name}.modules.mha",
        "examdesk stand-in for flash_attn.modules.mha: the attention cores (no MHA layer)",
        absent=("MHA", "ParallelMHA", "LinearResidual"),
        **{n: g[n] for n in ("FlashSelfAttention", "FlashCrossAttention", "SelfAttention",
                             "CrossAttention", "get_alibi_slopes", *ENTRY_POINTS,
                             "RotaryEmbedding", "get_dim_for_local_rank")})
    modules = _module(f"{package_name}.modules", "examdesk stand-in for flash_attn.modules",
                      package=True, mha=mha)
    g.update(flash_attn_interface=interface, layers=layers, bert_padding=bert_padding,
             utils=utils, modules=modules)
    if not any(isinstance(f, _AbsentSubmodules) and f.package_name == package_name
               for f in sys.meta_path):
        sys.meta_path.append(_AbsentSubmodules(package_name))


__spec__ = importlib.machinery.ModuleSpec(__name__, None, is_package=True)
_install_submodules(__name__)
