"""Paper 000, Q34, a correct solution in Gemma's conventions (Hugging Face ``modeling_gemma``,
as in Google's gemma_pytorch), adapted only to the stem's interface.

``GemmaRMSNorm``: the weight starts at zeros and the gain is ``(1 + weight)``, applied in fp32
before the cast back (``output * (1.0 + self.weight.float())``, then ``type_as(x)``); the
same function family as LLaMA's ``x̂ · w`` with w = 1 + weight. ``q_proj/k_proj/v_proj/o_proj``
without bias, ``softmax_scale = head_dim ** -0.5`` passed to ``flash_attn_func``; the
``GemmaMLP`` ``gate_proj`` / ``up_proj`` / ``down_proj`` with the tanh-approximated GELU
(``gelu_pytorch_tanh``, GeGLU), hidden 8 × dim as in Gemma 7B; rotate-half RoPE from an
``inv_freq`` buffer. Whole-layer checkpointing. FLOPs: dense attention, backward = 2 × forward.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

from flash_attn import flash_attn_func


class GemmaRMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.zeros(dim))

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        output = self._norm(x.float())
        # Llama does x.to(float16) * w whilst Gemma is (x * w).to(float16)
        output = output * (1.0 + self.weight.float())
        return output.type_as(x)


class GemmaRotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", tensor=inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0],
                                                                        -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(dtype=x.dtype), emb.sin().to(dtype=x.dtype)


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin, unsqueeze_dim=1):
    cos = cos.unsqueeze(unsqueeze_dim)
    sin = sin.unsqueeze(unsqueeze_dim)
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed


class GemmaMLP(nn.Module):
    def __init__(self, hidden_size, intermediate_size):
        super().__init__()
        self.gate_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.up_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, hidden_size, bias=False)

    def act_fn(self, x):  # ACT2FN["gelu_pytorch_tanh"]
        return F.gelu(x, approximate="tanh")

    def forward(self, x):
        return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))


class GemmaFlashAttention2(nn.Module):
    def __init__(self, hidden_size, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.num_key_value_heads = num_heads  # Gemma 7B: multi-head (2B: multi-query)
        self.scaling = self.head_dim ** -0.5
        self.q_proj = nn.Linear(hidden_size, num_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden_size, self.num_key_value_heads * self.head_dim,
                                bias=False)
        self.v_proj = nn.Linear(hidden_size, self.num_key_value_heads * self.head_dim,
                                bias=False)
        self.o_proj = nn.Linear(num_heads * self.head_dim, hidden_size, bias=False)

    def forward(self, hidden_states, position_embeddings):
        bsz, q_len, _ = hidden_states.size()
        query_states = self.q_proj(hidden_states)
        key_states = self.k_proj(hidden_states)
        value_states = self.v_proj(hidden_states)
        query_states = query_states.view(bsz, q_len, self.num_heads,
                                         self.head_dim).transpose(1, 2)
        key_states = key_states.view(bsz, q_len, self.num_key_value_heads,
                                     self.head_dim).transpose(1, 2)
        value_states = value_states.view(bsz, q_len, self.num_key_value_heads,
                                         self.head_dim).transpose(1, 2)
        cos, sin = position_embeddings
        query_states, key_states = apply_rotary_pos_emb(query_states, key_states, cos, sin)
        # Flash attention wants (batch, seq, heads, head_dim)
        attn_output = flash_attn_func(query_states.transpose(1, 2), key_states.transpose(1, 2),
                                      value_states.transpose(1, 2), softmax_scale=self.scaling,
                                      causal=True)
        attn_output = attn_output.reshape(bsz, q_len, -1).contiguous()
        return self.o_proj(attn_output)


class FlashAttnLLaMALayer(nn.Module):
    """GemmaDecoderLayer."""

    def __init__(self, dim, n_heads, checkpoint=False, rms_norm_eps=1e-6):
        super().__init__()
        self.gradient_checkpointing = checkpoint
        self.self_attn = GemmaFlashAttention2(dim, n_heads)
        self.mlp = GemmaMLP(dim, 8 * dim)
        self.input_layernorm = GemmaRMSNorm(dim, eps=rms_norm_eps)
        self.post_attention_layernorm = GemmaRMSNorm(dim, eps=rms_norm_eps)
        self.rotary_emb = GemmaRotaryEmbedding(dim // n_heads)

    def _layer(self, hidden_states):
        position_ids = torch.arange(hidden_states.shape[1], device=hidden_states.device)[None]
        position_embeddings = self.rotary_emb(hidden_states, position_ids)
        residual = hidden_states
        hidden_states = self.input_layernorm(hidden_states)
        hidden_states = self.self_attn(hidden_states, position_embeddings)
        hidden_states = residual + hidden_states
        residual = hidden_states
        hidden_states = self.post_attention_layernorm(hidden_states)
        hidden_states = self.mlp(hidden_states)
        return residual + hidden_states

    def forward(self, hidden_states):
        if self.gradient_checkpointing and self.training and torch.is_grad_enabled():
            return checkpoint(self._layer, hidden_states, use_reentrant=False)
        return self._layer(hidden_states)


def forward_flops(batch, seq, dim, n_heads):
    """q, k, v, o 4·d², GeGLU 3·d·(8d); attention dense (both matmuls in full)."""
    return 2 * batch * seq * (4 * dim * dim + 3 * dim * 8 * dim) + 4 * batch * seq * seq * dim


def backward_flops(batch, seq, dim, n_heads):
    return 2 * forward_flops(batch, seq, dim, n_heads)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = FlashAttnLLaMALayer(64, 4, checkpoint=True)
    layer(torch.randn(2, 16, 64)).square().mean().backward()
    print("ok", forward_flops(2, 16, 64, 4))
