"""CORRECT, another loop order: FlashAttention-1 style, key blocks outer, query blocks inner.

drills/7: FlashAttention forward in plain PyTorch. Running max m, sum l and the output
are kept for all S queries (O(S·D) memory, still no S x S tensor); each key block updates
every query block it is visible to, and the output is renormalised as it goes.
"""
import math

import torch


def flash_attention_forward(q, k, v, causal=False, block_q=64, block_k=64):
    B, H, S, D = q.shape
    qf, kf, vf = q.float(), k.float(), v.float()
    o = torch.zeros(B, H, S, D, device=q.device)
    m = torch.full((B, H, S, 1), -math.inf, device=q.device)
    l = torch.zeros(B, H, S, 1, device=q.device)
    for j in range(0, S, block_k):
        kj, vj = kf[:, :, j:j + block_k], vf[:, :, j:j + block_k]
        first_q = j if causal else 0  # earlier queries cannot see this key block
        for i in range(first_q - first_q % block_q, S, block_q):
            sij = torch.einsum("bhqd,bhkd->bhqk", qf[:, :, i:i + block_q], kj) / math.sqrt(D)
            if causal:
                qpos = torch.arange(i, min(i + block_q, S), device=q.device)
                kpos = torch.arange(j, min(j + block_k, S), device=q.device)
                sij = torch.where(kpos[None, :] <= qpos[:, None], sij, -math.inf)
            mi, li, oi = m[:, :, i:i + block_q], l[:, :, i:i + block_q], o[:, :, i:i + block_q]
            mnew = torch.maximum(mi, sij.amax(-1, keepdim=True))
            # rows that see nothing in this tile keep m = -inf: avoid (-inf) - (-inf)
            safe = torch.where(torch.isinf(mnew), torch.zeros_like(mnew), mnew)
            pij = torch.exp(sij - safe)
            corr = torch.exp(mi - safe)
            lnew = li * corr + pij.sum(-1, keepdim=True)
            o[:, :, i:i + block_q] = (oi * li * corr + pij @ vj) / lnew.clamp_min(1e-30)
            m[:, :, i:i + block_q], l[:, :, i:i + block_q] = mnew, lnew
    return o.to(q.dtype), (m + torch.log(l)).squeeze(-1)
