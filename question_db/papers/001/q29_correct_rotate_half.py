"""001/29, a correct solution with the rotate-half pairing (GPT-NeoX / Hugging Face Llama).

Same module as the reference except for the RoPE pairing: in every head the pair
(x_i, x_{i + d_k/2}) is read as the complex number x_i + i*x_{i + d_k/2} and multiplied by
e^{i*pos*theta_i}, theta_i = 10000^(-2i/d_k). Both pairings are complex rotations of pairs of
dimensions, so scores depend only on the offset m - n either way; with the same weights the
two give different outputs, since the pairs differ (a fixed permutation of the q and k
projections' output rows, bias entries included, maps one onto the other: Hugging Face's
Llama weight conversion permutes Meta's wq and wk this way).
"""
import math

import torch
import torch.nn as nn


class RoPEMultiHeadAttention(nn.Module):
    def __init__(self, d_model, h, max_len=2048):
        super().__init__()
        if d_model % h:
            raise ValueError(f"d_model={d_model} is not divisible by h={h}")
        d_k = d_model // h
        if d_k % 2:
            # RoPE rotates pairs of dimensions, so it is the per-head size that
            # must be even, not just d_model.
            raise ValueError(f"RoPE needs an even head size, got d_k={d_k}")
        self.d_model, self.h, self.d_k, self.max_len = d_model, h, d_k, max_len
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)
        # Angles pos * theta_i, computed in float64 so positions near max_len
        # keep their precision; stored as float32 cos/sin.
        theta = 10000.0 ** (-torch.arange(0, d_k, 2, dtype=torch.float64) / d_k)
        angles = torch.outer(torch.arange(max_len, dtype=torch.float64), theta)
        # Non-persistent: derived from max_len, so the state_dict holds only the
        # learned weights and loads across different max_len.  Real buffers
        # (not one complex buffer) because Module.to(bfloat16) would drop the
        # imaginary part of a complex one.
        self.register_buffer("cos", angles.cos().float(), persistent=False)
        self.register_buffer("sin", angles.sin().float(), persistent=False)

    def _rope(self, t):
        """Rotate t (batch, seq, h, d_k): pairs (2i, 2i+1) times e^{i*pos*theta_i}."""
        seq = t.size(1)
        rot = torch.complex(self.cos[:seq].float(), self.sin[:seq].float())  # (seq, d_k/2)
        # Rotate in float32 even for bf16 inputs: view_as_complex needs fp32/fp64.
        half = t.size(-1) // 2
        tc = torch.complex(t[..., :half].float(), t[..., half:].float())
        out = tc * rot[:, None, :]  # broadcast over heads
        return torch.cat([out.real, out.imag], dim=-1).type_as(t)

    def forward(self, x, mask=None):
        batch, seq, _ = x.shape
        if seq > self.max_len:
            raise ValueError(f"sequence length {seq} exceeds max_len={self.max_len}")
        shape = (batch, seq, self.h, self.d_k)
        q = self._rope(self.w_q(x).view(shape)).transpose(1, 2)  # (batch, h, seq, d_k)
        k = self._rope(self.w_k(x).view(shape)).transpose(1, 2)
        v = self.w_v(x).view(shape).transpose(1, 2)  # values carry no position
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)  # (batch, h, seq_q, seq_k)
        if mask is not None:
            # Finite minimum instead of -inf: no NaN if a row is fully masked,
            # and no overflow error in fp16 (unlike a literal -1e9).
            scores = scores.masked_fill(mask == 0, torch.finfo(scores.dtype).min)
        attn = scores.softmax(dim=-1)  # normalise over keys
        out = (attn @ v).transpose(1, 2).reshape(batch, seq, self.d_model)
        return self.w_o(out)

