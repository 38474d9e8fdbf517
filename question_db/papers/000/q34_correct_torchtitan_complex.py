"""Paper 000, Q34, a correct solution in torchtitan's conventions.

As torchtitan's llama: ``attention_norm`` / ``ffn_norm`` are ``nn.RMSNorm``; ``attention.wq …
wo``; a SwiGLU ``feed_forward.w1/w2/w3``; the RoPE table ``freqs_cis`` is a complex64
*registered buffer* (the case ``Module.to(dtype)`` would silently break); attention through
``F.scaled_dot_product_attention(is_causal=True)``, whose CUDA flash backend is
FlashAttention-2; weights initialised by ``init_weights`` (truncated normal). FLOPs: dense
attention, backward = 2 × forward.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = freqs_cis[: xq_.shape[1]].view(1, xq_.shape[1], 1, xq_.shape[-1])
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, dim // n_heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)

    def init_weights(self, init_std):
        for linear in (self.wq, self.wk, self.wv):
            nn.init.trunc_normal_(linear.weight, mean=0.0, std=0.02)
        nn.init.trunc_normal_(self.wo.weight, mean=0.0, std=init_std)

    def forward(self, x, freqs_cis):
        bs, seqlen, _ = x.shape
        xq = self.wq(x).view(bs, seqlen, -1, self.head_dim)
        xk = self.wk(x).view(bs, seqlen, -1, self.head_dim)
        xv = self.wv(x).view(bs, seqlen, -1, self.head_dim)
        xq, xk = apply_rotary_emb(xq, xk, freqs_cis=freqs_cis)
        xq, xk, xv = (t.transpose(1, 2) for t in (xq, xk, xv))  # (bs, heads, seq, head_dim)
        output = F.scaled_dot_product_attention(xq, xk, xv, is_causal=True)
        return self.wo(output.transpose(1, 2).contiguous().view(bs, seqlen, -1))


class FeedForward(nn.Module):
    def __init__(self, dim, hidden_dim, multiple_of=256):
        super().__init__()
        hidden_dim = int(2 * hidden_dim / 3)
        hidden_dim = multiple_of * ((hidden_dim + multiple_of - 1) // multiple_of)
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)

    def init_weights(self, init_std):
        nn.init.trunc_normal_(self.w1.weight, mean=0.0, std=0.02)
        for linear in (self.w2, self.w3):
            nn.init.trunc_normal_(linear.weight, mean=0.0, std=init_std)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class FlashAttnLLaMALayer(nn.Module):
    """torchtitan's TransformerBlock owning its freqs_cis buffer."""

    def __init__(self, dim, n_heads, checkpoint=False, max_seq_len=2048, layer_id=0):
        super().__init__()
        self.checkpoint = checkpoint
        self.attention = Attention(dim, n_heads)
        self.feed_forward = FeedForward(dim, 4 * dim)
        self.attention_norm = nn.RMSNorm(dim, eps=1e-5)
        self.ffn_norm = nn.RMSNorm(dim, eps=1e-5)
        self.register_buffer("freqs_cis", precompute_freqs_cis(dim // n_heads, max_seq_len),
                             persistent=True)
        self.init_weights(0.02 / (2 * (layer_id + 1)) ** 0.5)

    def init_weights(self, init_std):
        for norm in (self.attention_norm, self.ffn_norm):
            norm.reset_parameters()
        self.attention.init_weights(init_std)
        self.feed_forward.init_weights(init_std)

    def _block(self, x):
        h = x + self.attention(self.attention_norm(x), self.freqs_cis)
        return h + self.feed_forward(self.ffn_norm(h))

    def forward(self, x):
        if self.checkpoint and self.training and torch.is_grad_enabled():
            return checkpoint(self._block, x, use_reentrant=False)
        return self._block(x)


def _hidden(dim):
    hidden = int(2 * 4 * dim / 3)
    return 256 * ((hidden + 255) // 256)


def forward_flops(batch, seq, dim, n_heads):
    linear = 2 * batch * seq * (4 * dim * dim + 3 * dim * _hidden(dim))
    return linear + 4 * batch * seq * seq * dim


def backward_flops(batch, seq, dim, n_heads):
    return 2 * forward_flops(batch, seq, dim, n_heads)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = FlashAttnLLaMALayer(64, 4, checkpoint=True)
    layer(torch.randn(2, 16, 64)).square().mean().backward()
    print("ok", layer.freqs_cis.dtype)
