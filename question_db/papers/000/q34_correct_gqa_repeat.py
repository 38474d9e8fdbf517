"""Paper 000, Q34, a correct solution with grouped-query attention whose k/v heads are tiled
with ``Tensor.repeat``: query head j uses k/v head j mod n_kv_heads.

Meta's llama ``model.py`` with ``n_kv_heads`` = n_heads / 2, except that ``repeat_kv`` is
written as ``x.repeat(1, 1, n_rep, 1)`` (heads kv_0 … kv_{n-1}, kv_0 … kv_{n-1}, …) instead
of Meta's expand + reshape, which equals ``repeat_interleave`` (kv_0, kv_0, kv_1, kv_1, …,
query head j using k/v head j // n_rep, as flash_attn does with fewer k/v heads). The two
groupings are the same model up to a permutation of the query heads (and the matching
columns of wo); both are grouped-query attention. k and v are grouped the same way.
FLOPs: attention dense, backward = 2 × forward.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint as activation_checkpoint

from flash_attn import flash_attn_func

MULTIPLE_OF = 256
NORM_EPS = 1e-5


def n_kv_heads_for(n_heads):
    return n_heads // 2 if n_heads % 2 == 0 else n_heads


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        return self._norm(x.float()).type_as(x) * self.weight


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim))
    t = torch.arange(end, dtype=torch.float32)
    freqs = torch.outer(t, freqs)
    return torch.polar(torch.ones_like(freqs), freqs)  # complex64, (end, dim // 2)


def reshape_for_broadcast(freqs_cis, x):
    shape = [d if i in (1, x.ndim - 1) else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    xq_out = torch.view_as_real(xq_ * reshape_for_broadcast(freqs_cis, xq_)).flatten(3)
    xk_out = torch.view_as_real(xk_ * reshape_for_broadcast(freqs_cis, xk_)).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


def repeat_kv(x, n_rep):
    """(bs, seq, n_kv_heads, head_dim) -> (bs, seq, n_kv_heads * n_rep, head_dim), tiled:
    head j of the result is k/v head j % n_kv_heads."""
    if n_rep == 1:
        return x
    return x.repeat(1, 1, n_rep, 1)


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, dim // n_heads
        self.n_kv_heads = n_kv_heads_for(n_heads)
        self.n_rep = n_heads // self.n_kv_heads
        self.wq = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(dim, self.n_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(dim, self.n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(n_heads * self.head_dim, dim, bias=False)

    def forward(self, x, freqs_cis):
        bsz, seqlen, _ = x.shape
        xq, xk, xv = self.wq(x), self.wk(x), self.wv(x)
        xq = xq.view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = xk.view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xv = xv.view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xq, xk = apply_rotary_emb(xq, xk, freqs_cis=freqs_cis)
        keys, values = repeat_kv(xk, self.n_rep), repeat_kv(xv, self.n_rep)
        output = flash_attn_func(xq, keys, values, causal=True)
        return self.wo(output.reshape(bsz, seqlen, -1))


def ffn_hidden_dim(dim, multiple_of=MULTIPLE_OF):
    hidden = int(2 * (4 * dim) / 3)
    return multiple_of * ((hidden + multiple_of - 1) // multiple_of)


class FeedForward(nn.Module):
    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class FlashAttnLLaMALayer(nn.Module):
    def __init__(self, dim, n_heads, checkpoint=False, max_seq_len=2048):
        super().__init__()
        self.checkpoint = checkpoint
        self.attention = Attention(dim, n_heads)
        self.feed_forward = FeedForward(dim, ffn_hidden_dim(dim))
        self.attention_norm = RMSNorm(dim, eps=NORM_EPS)
        self.ffn_norm = RMSNorm(dim, eps=NORM_EPS)
        self.freqs_cis = precompute_freqs_cis(dim // n_heads, max_seq_len * 2)

    def _block(self, x):
        self.freqs_cis = self.freqs_cis.to(x.device)
        freqs_cis = self.freqs_cis[: x.shape[1]]
        h = x + self.attention(self.attention_norm(x), freqs_cis)
        return h + self.feed_forward(self.ffn_norm(h))

    def forward(self, x):
        if self.checkpoint and self.training and torch.is_grad_enabled():
            return activation_checkpoint(self._block, x, use_reentrant=False)
        return self._block(x)


def forward_flops(batch, seq, dim, n_heads):
    """wq, wo d² each; wk, wv d·d_kv each; SwiGLU 3·d·hidden; QKᵀ and PV dense (over the
    n_heads query heads: the repeated k/v heads are each used by their query head)."""
    d_kv = dim // n_heads * n_kv_heads_for(n_heads)
    linear = 2 * batch * seq * (2 * dim * dim + 2 * dim * d_kv + 3 * dim * ffn_hidden_dim(dim))
    return linear + 4 * batch * seq * seq * dim


def backward_flops(batch, seq, dim, n_heads):
    return 2 * forward_flops(batch, seq, dim, n_heads)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = FlashAttnLLaMALayer(64, 4, checkpoint=True)
    layer(torch.randn(2, 16, 64)).square().mean().backward()
    assert all(p.grad is not None for p in layer.parameters())
    print("ok", forward_flops(2, 16, 64, 4))
