"""Paper 000, Q34, a correct solution in litgpt's conventions, with grouped-query attention.

litgpt's ``Block``: ``norm_1`` / ``norm_2``; ``attn.qkv`` one fused projection laid out per
query group as [q_1 … q_r | k | v] (litgpt's ``n_query_groups`` layout; here
n_query_groups = n_head / 2, so each k/v head serves two query heads), ``attn.proj``; the
``LLaMAMLP`` ``mlp.fc_1`` (gate), ``mlp.fc_2`` (up), ``mlp.proj`` (down); rotate-half RoPE
from a ``build_rope_cache`` of cos/sin over the whole head dim. Attention through
``flash_attn_varlen_func`` on the packed tokens (cu_seqlens), k/v with fewer heads (FA2's
MQA/GQA). Whole-block checkpointing. FLOPs: causal attention counted exactly (the lower
triangle, s(s+1)/2 query-key pairs), backward = 2 × forward.
"""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

from flash_attn import flash_attn_varlen_func


class RMSNorm(nn.Module):
    def __init__(self, size, dim=-1, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(size))
        self.eps, self.dim = eps, dim

    def forward(self, x):
        dtype = x.dtype
        x = x.float()
        norm_x = torch.mean(x * x, dim=self.dim, keepdim=True)
        x_normed = (x * torch.rsqrt(norm_x + self.eps)).to(dtype=dtype)
        return x_normed * self.weight


def build_rope_cache(seq_len, n_elem, base=10000):
    theta = 1.0 / (base ** (torch.arange(0, n_elem, 2).float() / n_elem))
    idx_theta = torch.outer(torch.arange(seq_len).float(), theta).repeat(1, 2)
    return torch.cos(idx_theta), torch.sin(idx_theta)


def apply_rope(x, cos, sin):
    """x: (B, n_head, T, head_size); cos, sin: (T, head_size)."""
    head_size = x.size(-1)
    x1, x2 = x[..., : head_size // 2], x[..., head_size // 2:]
    rotated = torch.cat((-x2, x1), dim=-1)
    return ((x * cos) + (rotated * sin)).to(dtype=x.dtype)


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.n_head, self.head_size = n_head, n_embd // n_head
        self.n_query_groups = n_head // 2 if n_head % 2 == 0 else n_head
        self.q_per_kv = n_head // self.n_query_groups
        self.qkv = nn.Linear(n_embd, (n_head + 2 * self.n_query_groups) * self.head_size, bias=False)
        self.proj = nn.Linear(n_embd, n_embd, bias=False)

    def forward(self, x, cos, sin):
        B, T, C = x.size()
        qkv = self.qkv(x).view(B, T, self.n_query_groups, self.q_per_kv + 2, self.head_size)
        qkv = qkv.permute(0, 2, 3, 1, 4)  # (B, groups, q_per_kv + 2, T, hs)
        q, k, v = qkv.split((self.q_per_kv, 1, 1), dim=2)
        q = q.reshape(B, -1, T, self.head_size)
        k, v = k.reshape(B, -1, T, self.head_size), v.reshape(B, -1, T, self.head_size)
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        q, k, v = (t.transpose(1, 2).reshape(B * T, -1, self.head_size) for t in (q, k, v))
        cu_seqlens = torch.arange(0, (B + 1) * T, T, dtype=torch.int32, device=x.device)
        y = flash_attn_varlen_func(q, k, v, cu_seqlens, cu_seqlens, T, T, causal=True)
        return self.proj(y.reshape(B, T, C))


class LLaMAMLP(nn.Module):
    def __init__(self, n_embd, intermediate_size):
        super().__init__()
        self.fc_1 = nn.Linear(n_embd, intermediate_size, bias=False)
        self.fc_2 = nn.Linear(n_embd, intermediate_size, bias=False)
        self.proj = nn.Linear(intermediate_size, n_embd, bias=False)

    def forward(self, x):
        x_fc_1, x_fc_2 = self.fc_1(x), self.fc_2(x)
        return self.proj(torch.nn.functional.silu(x_fc_1) * x_fc_2)


class FlashAttnLLaMALayer(nn.Module):
    def __init__(self, dim, n_heads, checkpoint=False, block_size=2048):
        super().__init__()
        self.checkpoint = checkpoint
        self.norm_1 = RMSNorm(dim)
        self.attn = CausalSelfAttention(dim, n_heads)
        self.norm_2 = RMSNorm(dim)
        self.mlp = LLaMAMLP(dim, 3 * dim)
        cos, sin = build_rope_cache(block_size, dim // n_heads)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def _block(self, x):
        T = x.size(1)
        cos, sin = self.cos[:T].to(x.dtype), self.sin[:T].to(x.dtype)
        x = x + self.attn(self.norm_1(x), cos, sin)
        return x + self.mlp(self.norm_2(x))

    def forward(self, x):
        if self.checkpoint and self.training and torch.is_grad_enabled():
            return checkpoint(self._block, x, use_reentrant=False)
        return self._block(x)


def _linear(batch, seq, dim, n_heads):
    kv = dim // 2 if n_heads % 2 == 0 else dim  # k and v widths: n_query_groups · head_size
    return 2 * batch * seq * ((dim + 2 * kv) * dim + dim * dim + 3 * dim * 3 * dim)


def _attention(batch, seq, dim):
    # QKᵀ and PV over the causal lower triangle only: s(s+1)/2 pairs per head.
    return 2 * 2 * batch * dim * seq * (seq + 1) // 2


def forward_flops(batch, seq, dim, n_heads):
    return _linear(batch, seq, dim, n_heads) + _attention(batch, seq, dim)


def backward_flops(batch, seq, dim, n_heads):
    return 2 * forward_flops(batch, seq, dim, n_heads)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = FlashAttnLLaMALayer(64, 4, checkpoint=True)
    layer(torch.randn(2, 16, 64)).square().mean().backward()
    print("ok")
