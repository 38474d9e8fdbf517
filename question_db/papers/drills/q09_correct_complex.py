"""CORRECT, another convention: Meta Llama's complex form, interleaved pairs as complex numbers.

drills/9: RoPE with explicit positions. (x_2i, x_2i+1) is read as x_2i + i·x_2i+1 and
multiplied by e^{i·pos·θ_i} (torch.polar); complex arithmetic needs float32, so the input is
upcast and the result cast back.
"""
import torch


def apply_rope(x, positions, base=10000.0):
    d = x.shape[-1]
    freqs = 1.0 / (base ** (torch.arange(0, d, 2, device=x.device)[: d // 2].float() / d))
    angles = torch.outer(positions.reshape(-1).to(x.device).float(), freqs)
    freqs_cis = torch.polar(torch.ones_like(angles), angles).view(*positions.shape, d // 2)
    if positions.dim() == 2:
        freqs_cis = freqs_cis[:, None]
    xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], d // 2, 2))
    return torch.view_as_real(xc * freqs_cis).flatten(-2).to(x.dtype)
