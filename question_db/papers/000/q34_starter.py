"""Paper 000, Q34: simplified LLaMA decoder layer with RoPE + FlashAttention-2.

Fill in every ``raise NotImplementedError``. The checks require only this interface:

- ``FlashAttnLLaMALayer(dim, n_heads, checkpoint=False)``; ``forward(x)`` maps
  x: (batch, seq, dim) to a tensor of the same shape and dtype (fp32, bf16, fp16).
  head_dim = dim // n_heads, even; n_heads query heads (k/v: as many, or fewer: GQA).
- Pre-norm residuals: h = x + Attn(RMSNorm(x)); out = h + MLP(RMSNorm(h)); the mean of
  squares in fp32, the norm's output in the input dtype.
- RoPE on q and k only (never v), positions m = 0 … seq−1, θ_i = 10000^(−2i/head_dim).
- Causal attention, scale 1/√head_dim, through FlashAttention-2: any ``flash_attn`` entry
  point (``flash_attn_func``, ``flash_attn_qkvpacked_func``, ...), or
  ``F.scaled_dot_product_attention(q, k, v, is_causal=True)`` without an attn_mask.
- ``checkpoint=True``: in training with grad enabled, recompute (part of) the layer in
  backward with torch.utils.checkpoint; same gradients, and every parameter still gets
  one when x itself does not require grad.
- The layer must work under ``torch.compile``.
- ``forward_flops`` / ``backward_flops`` describe *your* layer: 2 FLOPs per multiply-add,
  matmuls and the attention matmuls QKᵀ and PV only (norms, RoPE, activations, softmax and
  residual adds count 0); backward without checkpointing, x requiring grad. Causal
  attention dense (as FlopCounterMode counts it), halved, or exactly s(s+1)/2; attention
  backward 2× its forward, or 2.5× (FlashAttention-2's count with the recompute of P).

Your choice: names, separate or fused q/k/v projections, bias, MLP (SiLU-MLP, SwiGLU,
GELU ...) and its width, RMSNorm eps, RoPE pairing ((2i, 2i+1) or (i, i + head_dim/2)),
complex or real arithmetic, where the angle table lives, checkpoint granularity.

Real FlashAttention-2 kernels take fp16/bf16 on CUDA only; on a CPU the app installs a
stand-in ``flash_attn`` package with the same API that also takes fp32.
"""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint as activation_checkpoint  # noqa: F401

from flash_attn import flash_attn_func  # noqa: F401


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        raise NotImplementedError

    def forward(self, x):
        """x / sqrt(mean(x², last dim) + eps) · weight; statistics in fp32, output in x.dtype."""
        raise NotImplementedError


def apply_rope(x, theta=10000.0):
    """Rotate pairs of x: (batch, seq, n_heads, head_dim) by m·θ_i; same dtype."""
    raise NotImplementedError


class FlashAttnLLaMALayer(nn.Module):
    def __init__(self, dim, n_heads, checkpoint=False):
        super().__init__()
        raise NotImplementedError

    def forward(self, x):
        """(batch, seq, dim) -> (batch, seq, dim), same dtype; causal; pre-norm."""
        raise NotImplementedError


def forward_flops(batch, seq, dim, n_heads):
    """FLOPs of one forward pass of the layer (convention in the module docstring)."""
    raise NotImplementedError


def backward_flops(batch, seq, dim, n_heads):
    """FLOPs of one backward pass without checkpointing (same convention)."""
    raise NotImplementedError
