"""Paper 000, Q34, a correct solution in flash-attn's own module conventions.

flash-attn's ``MHA``: one fused ``Wqkv`` with bias, rearranged ``... (three h d) -> ... three h
d`` with einops, RoPE from ``flash_attn.layers.rotary.RotaryEmbedding`` (rotate-half, applied
in place to the packed qkv), ``flash_attn_qkvpacked_func``, ``out_proj``; its ``Block`` has
``norm1`` / ``norm2`` and a ``GatedMlp`` whose single ``fc1`` yields [up | gate]
(``y, gate = fc1(x).chunk(2); y * silu(gate)``). As flash-attn's ``MHA(checkpointing=True)``,
only the attention core is recomputed in backward. FLOPs in the FlashAttention-2 benchmark
convention: causal attention halved, attention backward 2.5 × its forward.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange
from torch.utils.checkpoint import checkpoint

from flash_attn import flash_attn_qkvpacked_func
from flash_attn.layers.rotary import RotaryEmbedding


class RMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(hidden_size))

    def forward(self, x):
        xf = x.float()
        return (xf * torch.rsqrt(xf.square().mean(-1, keepdim=True) + self.eps)).type_as(x) \
            * self.weight


class MHA(nn.Module):
    def __init__(self, embed_dim, num_heads, causal=True, checkpointing=False):
        super().__init__()
        self.embed_dim, self.num_heads, self.causal = embed_dim, num_heads, causal
        self.head_dim = embed_dim // num_heads
        self.checkpointing = checkpointing
        self.rotary_emb = RotaryEmbedding(self.head_dim, interleaved=False)
        self.Wqkv = nn.Linear(embed_dim, 3 * embed_dim, bias=True)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=True)

    def inner_attn(self, qkv):
        return flash_attn_qkvpacked_func(qkv, causal=self.causal)

    def forward(self, x):
        qkv = rearrange(self.Wqkv(x), "... (three h d) -> ... three h d", three=3,
                        d=self.head_dim)
        qkv = self.rotary_emb(qkv)
        if self.checkpointing and self.training and torch.is_grad_enabled():
            context = checkpoint(self.inner_attn, qkv, use_reentrant=False)
        else:
            context = self.inner_attn(qkv)
        return self.out_proj(rearrange(context, "... h d -> ... (h d)"))


def gated_hidden(in_features, multiple_of=128):
    hidden = int(8 * in_features / 3)
    return (hidden + multiple_of - 1) // multiple_of * multiple_of


class GatedMlp(nn.Module):
    def __init__(self, in_features, activation=F.silu):
        super().__init__()
        hidden = gated_hidden(in_features)
        self.activation = activation
        self.fc1 = nn.Linear(in_features, 2 * hidden, bias=False)
        self.fc2 = nn.Linear(hidden, in_features, bias=False)

    def forward(self, x):
        y, gate = self.fc1(x).chunk(2, dim=-1)
        return self.fc2(y * self.activation(gate))


class FlashAttnLLaMALayer(nn.Module):
    """flash-attn's Block in pre-norm order (prenorm=True, no dropout)."""

    def __init__(self, dim, n_heads, checkpoint=False):
        super().__init__()
        self.norm1 = RMSNorm(dim)
        self.mixer = MHA(dim, n_heads, causal=True, checkpointing=checkpoint)
        self.norm2 = RMSNorm(dim)
        self.mlp = GatedMlp(dim)

    def forward(self, hidden_states):
        hidden_states = hidden_states + self.mixer(self.norm1(hidden_states))
        return hidden_states + self.mlp(self.norm2(hidden_states))


def _linear_flops(batch, seq, dim):
    return 2 * batch * seq * (3 * dim * dim + dim * dim + 3 * dim * gated_hidden(dim))


def _attention_flops(batch, seq, dim):
    # flash-attn's benchmark: 4·b·s²·h·head_dim, halved for causal.
    return 4 * batch * seq * seq * dim // 2


def forward_flops(batch, seq, dim, n_heads):
    return _linear_flops(batch, seq, dim) + _attention_flops(batch, seq, dim)


def backward_flops(batch, seq, dim, n_heads):
    # Linear layers: 2× forward. Attention: 2.5× (FA2 recomputes P = softmax(QKᵀ) in backward).
    return 2 * _linear_flops(batch, seq, dim) + 2.5 * _attention_flops(batch, seq, dim)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = FlashAttnLLaMALayer(64, 4, checkpoint=True)
    layer(torch.randn(2, 16, 64)).square().mean().backward()
    print("ok", forward_flops(2, 16, 64, 4), backward_flops(2, 16, 64, 4))
