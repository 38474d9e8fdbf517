"""Paper 000, Q34 correct solution: the attention through flash-attn's padding-free API,
``flash_attn.bert_padding.unpad_input`` → ``flash_attn_varlen_func`` → ``pad_input`` (how
packed / padded batches are fed to FlashAttention-2), otherwise the reference.
"""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint as activation_checkpoint

from flash_attn import flash_attn_varlen_func
from flash_attn.bert_padding import index_first_axis, pad_input, unpad_input

ROPE_THETA = 10000.0


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        # Mean of squares in fp32 (bf16/fp16 would lose precision); cast back to the
        # *input* dtype before the weight, so the output dtype equals x.dtype.
        xf = x.float()
        xf = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)
        return xf.to(x.dtype) * self.weight


def rope_cos_sin(seq_len, head_dim, device):
    """cos/sin of m * theta_i, shaped (1, seq, 1, head_dim // 2) to broadcast over (b, s, h, .)."""
    inv_freq = ROPE_THETA ** (-torch.arange(0, head_dim, 2, device=device,
                                            dtype=torch.float32) / head_dim)
    angles = torch.outer(torch.arange(seq_len, device=device, dtype=torch.float32), inv_freq)
    return angles.cos()[None, :, None, :], angles.sin()[None, :, None, :]


def apply_rope(x, cos, sin):
    """Rotate interleaved pairs (x[2i], x[2i+1]) of x: (b, s, h, head_dim).

    Real arithmetic instead of view_as_complex: same result, no complex tensors to
    trace under torch.compile, and the angles broadcast explicitly over (b, s, h, .).
    """
    xf = x.float()
    x_even, x_odd = xf[..., 0::2], xf[..., 1::2]
    rotated = torch.stack((x_even * cos - x_odd * sin, x_even * sin + x_odd * cos), dim=-1)
    return rotated.flatten(-2).to(x.dtype)


class FlashAttnLLaMALayer(nn.Module):
    def __init__(self, dim, n_heads, checkpoint=False):
        super().__init__()
        if dim % n_heads or (dim // n_heads) % 2:
            raise ValueError("dim must split into n_heads heads of even size")
        self.n_heads, self.head_dim = n_heads, dim // n_heads
        self.checkpoint = checkpoint
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)
        self.norm1 = RMSNorm(dim)
        self.norm2 = RMSNorm(dim)
        self.mlp = nn.Sequential(
            nn.Linear(dim, 4 * dim, bias=False),
            nn.SiLU(),
            nn.Linear(4 * dim, dim, bias=False),
        )

    def _layer(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, s, 3, self.n_heads, self.head_dim).unbind(2)
        cos, sin = rope_cos_sin(s, self.head_dim, x.device)
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)  # never v: values carry content
        # Padding-free path: unpad (here every token is real), one varlen call, pad back.
        keep = torch.ones(b, s, dtype=torch.bool, device=x.device)
        q_u, idx, cu_seqlens, max_len, _ = unpad_input(q, keep)
        k_u = index_first_axis(k.reshape(b * s, *k.shape[2:]), idx)
        v_u = index_first_axis(v.reshape(b * s, *v.shape[2:]), idx)
        out = flash_attn_varlen_func(q_u, k_u, v_u, cu_seqlens, cu_seqlens, max_len, max_len,
                                     causal=True)  # (total, h, head_dim), contiguous
        attn = pad_input(out, idx, b, s)
        h = x + self.o(attn.view(b, s, d))
        return h + self.mlp(self.norm2(h))

    def forward(self, x):
        if self.checkpoint and self.training and torch.is_grad_enabled():
            # use_reentrant=False: parameters get gradients even when x does not
            # require grad (the reentrant variant then returns a grad-less output).
            return activation_checkpoint(self._layer, x, use_reentrant=False)
        return self._layer(x)


def forward_flops(batch, seq, dim, n_heads):
    """Forward FLOPs = 24·b·s·d² (qkv 6, o 2, mlp 16) + 4·b·s²·d (QKᵀ and PV)."""
    tokens = batch * seq
    linear = 2 * tokens * (dim * 3 * dim + dim * dim + 2 * dim * 4 * dim)
    attention = 2 * 2 * batch * n_heads * seq * seq * (dim // n_heads)
    return linear + attention


def backward_flops(batch, seq, dim, n_heads):
    """Backward = 2 × forward: each matmul needs one for the input grad, one for the weight grad
    (for attention: dQ, dK from dS and dV, dP from dO)."""
    return 2 * forward_flops(batch, seq, dim, n_heads)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = FlashAttnLLaMALayer(64, 4, checkpoint=True)
    x = torch.randn(2, 16, 64)
    y = layer(x)
    y.square().mean().backward()
    assert y.shape == x.shape and y.dtype == x.dtype and torch.isfinite(y).all()
    assert all(p.grad is not None for p in layer.parameters())
    print("output", tuple(y.shape), y.dtype)
    print("forward FLOPs", forward_flops(2, 16, 64, 4),
          "backward FLOPs", backward_flops(2, 16, 64, 4))
