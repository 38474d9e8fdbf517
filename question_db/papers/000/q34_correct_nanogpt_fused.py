"""Paper 000, Q34, a correct solution in nanoGPT's conventions, made LLaMA-like.

nanoGPT's ``Block``: ``ln_1`` / ``ln_2`` (here RMSNorm, as LLaMA), ``attn.c_attn`` one fused
(3·dim, dim) projection *with bias* split as [q | k | v], ``attn.c_proj`` with bias, and the
GELU MLP ``mlp.c_fc`` → ``mlp.gelu`` → ``mlp.c_proj`` (the question's "simplified" MLP is the
learner's choice). RoPE rotate-half from cos/sin buffers; ``flash_attn_func``. Checkpointing
only the attention sub-block. FLOPs: dense attention, backward = 2 × forward.
"""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

from flash_attn import flash_attn_func


class RMSNorm(nn.Module):
    def __init__(self, ndim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.eps = eps

    def forward(self, x):
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)).to(x.dtype) \
            * self.weight


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, block_size=1024):
        super().__init__()
        assert n_embd % n_head == 0
        self.c_attn = nn.Linear(n_embd, 3 * n_embd, bias=True)
        self.c_proj = nn.Linear(n_embd, n_embd, bias=True)
        self.n_head, self.n_embd = n_head, n_embd
        head_dim = n_embd // n_head
        inv_freq = 1.0 / (10000 ** (torch.arange(0, head_dim, 2).float() / head_dim))
        freqs = torch.outer(torch.arange(block_size).float(), inv_freq)
        self.register_buffer("cos", freqs.cos(), persistent=False)
        self.register_buffer("sin", freqs.sin(), persistent=False)

    def rope(self, x):
        T = x.size(1)
        cos = self.cos[:T][None, :, None, :].to(x.dtype)
        sin = self.sin[:T][None, :, None, :].to(x.dtype)
        x1, x2 = x.chunk(2, dim=-1)
        return torch.cat((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head)
        k = k.view(B, T, self.n_head, C // self.n_head)
        v = v.view(B, T, self.n_head, C // self.n_head)
        y = flash_attn_func(self.rope(q), self.rope(k), v, causal=True)
        return self.c_proj(y.contiguous().view(B, T, C))


class MLP(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd, bias=True)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * n_embd, n_embd, bias=True)

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


class FlashAttnLLaMALayer(nn.Module):
    def __init__(self, dim, n_heads, checkpoint=False):
        super().__init__()
        self.use_checkpoint = checkpoint
        self.ln_1 = RMSNorm(dim)
        self.attn = CausalSelfAttention(dim, n_heads)
        self.ln_2 = RMSNorm(dim)
        self.mlp = MLP(dim)

    def _attn(self, x):
        return self.attn(self.ln_1(x))

    def forward(self, x):
        if self.use_checkpoint and self.training and torch.is_grad_enabled():
            x = x + checkpoint(self._attn, x, use_reentrant=False)
        else:
            x = x + self._attn(x)
        return x + self.mlp(self.ln_2(x))


def forward_flops(batch, seq, dim, n_heads):
    # c_attn 3·d², c_proj d², c_fc and c_proj of the MLP 4·d² each; 2 FLOPs per multiply-add.
    return 2 * batch * seq * 12 * dim * dim + 4 * batch * seq * seq * dim


def backward_flops(batch, seq, dim, n_heads):
    return 2 * forward_flops(batch, seq, dim, n_heads)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = FlashAttnLLaMALayer(64, 4, checkpoint=True)
    layer(torch.randn(2, 16, 64)).square().mean().backward()
    print("ok")
