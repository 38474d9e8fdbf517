"""Paper 000, Q34: simplified LLaMA decoder layer with RoPE + FlashAttention-2.

Fill in every ``raise NotImplementedError``. The checks rely on this contract:

- ``FlashAttnLLaMALayer(dim, n_heads, checkpoint=False)``; ``forward(x)`` maps
  x: (batch, seq, dim) to a tensor of the same shape and dtype (fp32, bf16, fp16).
- Submodules and parameter names, all Linear layers bias-free:
  ``norm1``, ``norm2``: RMSNorm(dim) with ``weight`` (init ones), eps = 1e-6, mean of
  squares over the last dim computed in fp32, output cast back to the input dtype;
  ``qkv = nn.Linear(dim, 3 * dim)``: output is [q | k | v] (dim features each), each
  viewed as (batch, seq, n_heads, head_dim) with head_dim = dim // n_heads;
  ``o = nn.Linear(dim, dim)``;
  ``mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))``.
- Pre-norm residuals: h = x + o(Attn(norm1(x))); out = h + mlp(norm2(h)).
- RoPE on q and k only (never v), interleaved pairs: (x[2i], x[2i+1]) at position m is
  rotated by the angle m·θ_i, θ_i = 10000^(−2i/head_dim), m = 0 … seq−1.
- Attention: ``flash_attn_func(q, k, v, causal=True)`` imported with
  ``from flash_attn import flash_attn_func`` (default softmax scale 1/√head_dim);
  q, k, v in the FA2 layout (batch, seq, n_heads, head_dim).
- ``checkpoint=True``: in training with grad enabled, the whole layer is recomputed in
  backward (torch.utils.checkpoint), and every parameter still gets its gradient when
  x itself does not require grad.
- The layer must work under ``torch.compile``.
- FLOPs: 2 FLOPs per multiply-add, matmuls and attention only (norms, RoPE, SiLU,
  softmax and residual adds count 0); attention counted as two dense matmuls QKᵀ and PV
  (the causal mask does not halve the count), i.e. what
  ``torch.utils.flop_counter.FlopCounterMode`` reports for that computation. Backward
  without checkpointing, input x not requiring grad.

Real FlashAttention-2 kernels take fp16/bf16 on CUDA only; on a CPU the app installs a
stand-in ``flash_attn`` module with the same API that also takes fp32.
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
    """Rotate interleaved pairs of x: (batch, seq, n_heads, head_dim) by m·θ_i; same dtype."""
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
