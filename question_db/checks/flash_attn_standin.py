"""A CPU-capable stand-in for the ``flash_attn`` package (FlashAttention-2's Python API).

Installed into the kernel as the package ``flash_attn`` only when the real one cannot be
imported (it has no CPU build and no wheel here). Like the real package it has the
submodules ``flash_attn.flash_attn_interface`` and ``flash_attn.layers.rotary``, so
``from flash_attn import flash_attn_func``, ``from flash_attn.flash_attn_interface import
flash_attn_qkvpacked_func`` and ``from flash_attn.layers.rotary import RotaryEmbedding``
all work. Entry points, with flash-attn 2.x signatures and semantics:

- ``flash_attn_func(q, k, v, ...)``: q, k, v (batch, seqlen, nheads, headdim); k/v may have
  fewer heads (MQA/GQA);
- ``flash_attn_qkvpacked_func(qkv, ...)``: qkv (batch, seqlen, 3, nheads, headdim);
- ``flash_attn_kvpacked_func(q, kv, ...)``: kv (batch, seqlen_k, 2, nheads_k, headdim);
- ``flash_attn_varlen_func``, ``flash_attn_varlen_qkvpacked_func``,
  ``flash_attn_varlen_kvpacked_func``: sequences packed along dim 0, ``cu_seqlens``.

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
           "ENTRY_POINTS", "apply_rotary_emb", "apply_rotary_emb_qkv_",
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
        return (out, lse, probs) if return_attn_probs else out
    qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))
    if kt.shape[1] != qt.shape[1]:
        kt = kt.repeat_interleave(qt.shape[1] // kt.shape[1], dim=1)
        vt = vt.repeat_interleave(qt.shape[1] // vt.shape[1], dim=1)
    out = _sdpa(qt, kt, vt, attn_mask=allowed, dropout_p=dropout_p, scale=scale)
    return out.transpose(1, 2)


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
        return out.reshape(n * sq, *out.shape[2:])
    outs = []
    for i in range(len(bq) - 1):
        qi, ki, vi = (t[a:b].unsqueeze(0) for t, a, b in
                      ((q, bq[i], bq[i + 1]), (k, bk[i], bk[i + 1]), (v, bk[i], bk[i + 1])))
        slopes = alibi_slopes[i] if alibi_slopes is not None and alibi_slopes.dim() == 2 \
            else alibi_slopes
        outs.append(_attention(entry, qi, ki, vi, dropout_p, softmax_scale, causal,
                               window_size, softcap, slopes, deterministic)[0])
    out = torch.cat(outs, dim=0)
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


ENTRY_POINTS = ("flash_attn_func", "flash_attn_qkvpacked_func", "flash_attn_kvpacked_func",
                "flash_attn_varlen_func", "flash_attn_varlen_qkvpacked_func",
                "flash_attn_varlen_kvpacked_func")


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


# --- submodules -----------------------------------------------------------------------------
def _module(name, doc, package=False, **attrs):
    mod = types.ModuleType(name, doc)
    mod.__dict__.update(attrs)
    mod.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=package)
    if package:
        mod.__path__ = []
    sys.modules[name] = mod
    return mod


def _install_submodules(package_name):
    """Register flash_attn.flash_attn_interface and flash_attn.layers.rotary."""
    interface = _module(f"{package_name}.flash_attn_interface",
                        "examdesk stand-in for flash_attn.flash_attn_interface",
                        **{name: globals()[name] for name in ENTRY_POINTS})
    rotary = _module(f"{package_name}.layers.rotary",
                     "examdesk stand-in for flash_attn.layers.rotary",
                     apply_rotary_emb=apply_rotary_emb, apply_rotary_emb_func=apply_rotary_emb,
                     apply_rotary_emb_qkv_=apply_rotary_emb_qkv_,
                     apply_rotary_emb_kv_=apply_rotary_emb_kv_, RotaryEmbedding=RotaryEmbedding)
    layers = _module(f"{package_name}.layers", "examdesk stand-in for flash_attn.layers",
                     package=True, rotary=rotary)
    globals()["flash_attn_interface"] = interface
    globals()["layers"] = layers


__spec__ = importlib.machinery.ModuleSpec(__name__, None, is_package=True)
_install_submodules(__name__)
