"""Paper 000, Q34, a correct solution in Hugging Face transformers' Llama conventions.

``input_layernorm`` / ``post_attention_layernorm`` (``variance_epsilon``), ``self_attn`` with
``q_proj/k_proj/v_proj/o_proj``, ``mlp`` with ``gate_proj/up_proj/down_proj``; RoPE by
``rotate_half`` (pairs (i, i + head_dim/2)) from an ``inv_freq`` buffer (non-persistent);
attention in (batch, heads, seq, head_dim) as in HF, transposed to the FA2 layout for
``flash_attn.flash_attn_interface.flash_attn_func``. Checkpointing per sub-block (attention
and MLP each recomputed), not the whole layer. FLOPs: causal attention halved (the
FlashAttention-2 benchmark's count), backward = 2 × forward.
"""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

from flash_attn.flash_attn_interface import flash_attn_func


def intermediate_size(hidden_size):
    return 64 * ((8 * hidden_size // 3 + 63) // 64)


class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)


class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, head_dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.int64).float()
                                   / head_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv_freq = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        freqs = (inv_freq @ position_ids[:, None, :].float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin, unsqueeze_dim=1):
    cos, sin = cos.unsqueeze(unsqueeze_dim), sin.unsqueeze(unsqueeze_dim)
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


class LlamaAttention(nn.Module):
    def __init__(self, hidden_size, num_heads):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, hidden_size // num_heads
        self.q_proj = nn.Linear(hidden_size, num_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden_size, num_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden_size, num_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(num_heads * self.head_dim, hidden_size, bias=False)

    def forward(self, hidden_states, position_embeddings):
        input_shape = hidden_states.shape[:-1]
        hidden_shape = (*input_shape, -1, self.head_dim)
        query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        cos, sin = position_embeddings
        query_states, key_states = apply_rotary_pos_emb(query_states, key_states, cos, sin)
        attn_output = flash_attn_func(query_states.transpose(1, 2), key_states.transpose(1, 2),
                                      value_states.transpose(1, 2), causal=True)
        return self.o_proj(attn_output.reshape(*input_shape, -1).contiguous())


class LlamaMLP(nn.Module):
    def __init__(self, hidden_size, intermediate):
        super().__init__()
        self.gate_proj = nn.Linear(hidden_size, intermediate, bias=False)
        self.up_proj = nn.Linear(hidden_size, intermediate, bias=False)
        self.down_proj = nn.Linear(intermediate, hidden_size, bias=False)
        self.act_fn = nn.SiLU()

    def forward(self, x):
        return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))


class FlashAttnLLaMALayer(nn.Module):
    """LlamaDecoderLayer."""

    def __init__(self, dim, n_heads, checkpoint=False):
        super().__init__()
        self.gradient_checkpointing = checkpoint
        self.self_attn = LlamaAttention(dim, n_heads)
        self.mlp = LlamaMLP(dim, intermediate_size(dim))
        self.input_layernorm = LlamaRMSNorm(dim, eps=1e-6)
        self.post_attention_layernorm = LlamaRMSNorm(dim, eps=1e-6)
        self.rotary_emb = LlamaRotaryEmbedding(dim // n_heads)

    def _attention_block(self, hidden_states, cos, sin):
        return self.self_attn(self.input_layernorm(hidden_states), (cos, sin))

    def _mlp_block(self, hidden_states):
        return self.mlp(self.post_attention_layernorm(hidden_states))

    def forward(self, hidden_states):
        position_ids = torch.arange(hidden_states.shape[1], device=hidden_states.device)[None]
        cos, sin = self.rotary_emb(hidden_states, position_ids)
        if self.gradient_checkpointing and self.training and torch.is_grad_enabled():
            hidden_states = hidden_states + checkpoint(self._attention_block, hidden_states,
                                                       cos, sin, use_reentrant=False)
            return hidden_states + checkpoint(self._mlp_block, hidden_states,
                                              use_reentrant=False)
        hidden_states = hidden_states + self._attention_block(hidden_states, cos, sin)
        return hidden_states + self._mlp_block(hidden_states)


def forward_flops(batch, seq, dim, n_heads):
    """Projections 4·d², SwiGLU 3·d·intermediate; causal attention counted half of dense."""
    tokens = batch * seq
    linear = 2 * tokens * (4 * dim * dim + 3 * dim * intermediate_size(dim))
    return linear + 2 * batch * seq * seq * dim


def backward_flops(batch, seq, dim, n_heads):
    return 2 * forward_flops(batch, seq, dim, n_heads)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = FlashAttnLLaMALayer(64, 4, checkpoint=True)
    layer(torch.randn(2, 16, 64)).square().mean().backward()
    print("ok", forward_flops(2, 16, 64, 4))
