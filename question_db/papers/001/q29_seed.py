import torch
import torch.nn as nn
import math


class RoPEMultiHeadAttention(nn.Module):
    def __init__(self, d_model, h, max_len=2048):
        super().__init__()
        assert d_model % h == 0
        self.d_model = d_model
        self.h = h
        self.d_k = d_model // h
        self.scale = math.sqrt(self.d_k)
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)
        # 预计算旋转角频率
        inv_freq = 1.0 / (10000 ** (torch.arange(0, self.d_k, 2).float() / self.d_k))
        t = torch.arange(max_len, dtype=torch.float32)
        freqs = torch.outer(t, inv_freq)  # [max_len, d_k//2]
        self.register_buffer("cos", freqs.cos())
        self.register_buffer("sin", freqs.sin())

    def rotate(self, x):
        # x: [batch, h, seq, d_k]
        seq_len = x.size(2)
        cos = self.cos[:seq_len, :]  # [seq, d_k//2]
        sin = self.sin[:seq_len, :]
        x1, x2 = x[..., ::2], x[..., 1::2]
        x_rot = torch.empty_like(x)
        x_rot[..., ::2] = x1 * cos - x2 * sin
        x_rot[..., 1::2] = x1 * sin + x2 * cos
        return x_rot

    def forward(self, x, mask=None):
        batch, seq, _ = x.size()
        Q = self.w_q(x).view(batch, seq, self.h, self.d_k).transpose(1, 2)
        K = self.w_k(x).view(batch, seq, self.h, self.d_k).transpose(1, 2)
        V = self.w_v(x).view(batch, seq, self.h, self.d_k).transpose(1, 2)
        Q = self.rotate(Q)
        K = self.rotate(K)
        scores = torch.einsum("bhqd,bhkd->bhqk", Q, K) / self.scale
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        attn = torch.softmax(scores, dim=-1)
        out = torch.einsum("bhqk,bhkd->bhqd", attn, V)
        out = out.transpose(1, 2).contiguous().view(batch, seq, self.d_model)
        return self.w_o(out)


# 测试
torch.manual_seed(0)
m = RoPEMultiHeadAttention(d_model=512, h=8)
x = torch.randn(2, 100, 512)
y = m(x)
assert y.shape == x.shape
print("RoPE attention output shape:", y.shape)
