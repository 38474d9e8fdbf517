"""Paper 000, Q34, a correct solution in GPT-NeoX / Pythia conventions (Hugging Face names).

``input_layernorm`` / ``post_attention_layernorm`` (RMSNorm here, as LLaMA); ``attention``
with one fused ``query_key_value`` (with bias) laid out per head as [q_h k_h v_h] (NeoX's
``(h three d)``), rotate-half RoPE from cos/sin caches and ``dense``; the GELU MLP
``dense_h_to_4h`` → ``dense_4h_to_h``; sequential residuals (``use_parallel_residual=False``:
GPT-NeoX's parallel block is not LLaMA's). Attention through
``flash_attn.flash_attn_interface.flash_attn_func``. FLOPs: dense attention, backward = 2 ×
forward.
"""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

from flash_attn.flash_attn_interface import flash_attn_func


class RMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(hidden_size))

    def forward(self, x):
        xf = x.to(torch.float32)
        variance = xf.pow(2).mean(-1, keepdim=True)
        return self.weight * (xf * torch.rsqrt(variance + self.eps)).to(x.dtype)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, max_position_embeddings=2048, base=10000):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq)
        t = torch.arange(max_position_embeddings, dtype=inv_freq.dtype)
        freqs = torch.einsum("i,j->ij", t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos()[None, None, :, :], persistent=False)
        self.register_buffer("sin_cached", emb.sin()[None, None, :, :], persistent=False)

    def forward(self, x, seq_len):
        return (self.cos_cached[:, :, :seq_len].to(x.dtype),
                self.sin_cached[:, :, :seq_len].to(x.dtype))


class GPTNeoXAttention(nn.Module):
    def __init__(self, hidden_size, num_heads):
        super().__init__()
        self.num_attention_heads, self.head_size = num_heads, hidden_size // num_heads
        self.rotary_emb = RotaryEmbedding(self.head_size)
        self.query_key_value = nn.Linear(hidden_size, 3 * hidden_size)
        self.dense = nn.Linear(hidden_size, hidden_size)

    def forward(self, hidden_states):
        qkv = self.query_key_value(hidden_states)
        qkv = qkv.view(*qkv.shape[:-1], self.num_attention_heads, 3 * self.head_size)
        query = qkv[..., : self.head_size].permute(0, 2, 1, 3)  # (b, heads, seq, head_size)
        key = qkv[..., self.head_size: 2 * self.head_size].permute(0, 2, 1, 3)
        value = qkv[..., 2 * self.head_size:].permute(0, 2, 1, 3)
        cos, sin = self.rotary_emb(value, seq_len=key.shape[-2])
        query = (query * cos) + (rotate_half(query) * sin)
        key = (key * cos) + (rotate_half(key) * sin)
        out = flash_attn_func(query.transpose(1, 2), key.transpose(1, 2), value.transpose(1, 2),
                              causal=True)
        return self.dense(out.reshape(*hidden_states.shape))


class GPTNeoXMLP(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.dense_h_to_4h = nn.Linear(hidden_size, 4 * hidden_size)
        self.dense_4h_to_h = nn.Linear(4 * hidden_size, hidden_size)
        self.act = nn.GELU()

    def forward(self, x):
        return self.dense_4h_to_h(self.act(self.dense_h_to_4h(x)))


class FlashAttnLLaMALayer(nn.Module):
    """GPTNeoXLayer with use_parallel_residual=False."""

    def __init__(self, dim, n_heads, checkpoint=False):
        super().__init__()
        self.gradient_checkpointing = checkpoint
        self.input_layernorm = RMSNorm(dim)
        self.post_attention_layernorm = RMSNorm(dim)
        self.attention = GPTNeoXAttention(dim, n_heads)
        self.mlp = GPTNeoXMLP(dim)

    def _block(self, x):
        x = self.attention(self.input_layernorm(x)) + x
        return self.mlp(self.post_attention_layernorm(x)) + x

    def forward(self, x):
        if self.gradient_checkpointing and self.training and torch.is_grad_enabled():
            return checkpoint(self._block, x, use_reentrant=False)
        return self._block(x)


def forward_flops(batch, seq, dim, n_heads):
    # query_key_value 3·d², dense d², the MLP 2·4·d²: 12·d² per token, 2 FLOPs per multiply-add.
    return 24 * batch * seq * dim * dim + 4 * batch * seq * seq * dim


def backward_flops(batch, seq, dim, n_heads):
    return 2 * forward_flops(batch, seq, dim, n_heads)
