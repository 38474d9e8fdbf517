"""CORRECT, another design: two passes over fixed-size column chunks, rows of any width.

drills/11: a fused RMSNorm forward kernel in Triton. The first loop accumulates the sum of
squares in float32 chunk by chunk, the second normalises and stores, so the block size does
not depend on N (useful when a row does not fit in registers).
"""
import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def rmsnorm_fwd(X, W, Y, stride_x, stride_y, N, eps, CHUNK: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride_x
    Y += row * stride_y
    acc = tl.zeros([CHUNK], dtype=tl.float32)
    for off in range(0, N, CHUNK):
        cols = off + tl.arange(0, CHUNK)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        acc += x * x
    rstd = tl.rsqrt(tl.sum(acc, axis=0) / N + eps)
    for off in range(0, N, CHUNK):
        cols = off + tl.arange(0, CHUNK)
        m = cols < N
        x = tl.load(X + cols, mask=m, other=0.0).to(tl.float32)
        w = tl.load(W + cols, mask=m, other=0.0).to(tl.float32)
        tl.store(Y + cols, (x * rstd * w).to(Y.dtype.element_ty), mask=m)


def triton_rms_norm(x, weight, eps=1e-6):
    shape = x.shape
    x2 = x.reshape(-1, shape[-1])
    y = torch.empty_like(x2)
    rmsnorm_fwd[(x2.shape[0],)](x2, weight, y, x2.stride(0), y.stride(0), shape[-1], eps,
                                CHUNK=64)
    return y.reshape(shape)
