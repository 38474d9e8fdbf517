"""CORRECT, Liger-Kernel's Triton RMSNorm: a forward kernel per row, a backward kernel that
overwrites grad_out with grad_x and reduces grad_weight from per-program partials.

drills/4: RMSNorm as a torch.autograd.Function with a hand-written backward. Organised like
``LigerRMSNormFunction`` with its "llama" casting: the mean of squares and rstd in float32
(float64 for float64 inputs, so gradcheck is exact), x̂ cast back to the input dtype before
the weight multiplies it (as HF Llama does), the backward entirely in the wide dtype. The
backward writes grad_x over grad_out (Liger's ``in_place=True``), which the stem allows.

On CPU the kernels run in Triton's interpreter, which multiplies bf16 wrongly: the checks
judge float64, float32 and fp16 there, and bf16 only on CUDA.
"""
import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")  # CPU: run kernels in Triton's interpreter
import triton
import triton.language as tl


@triton.jit
def _rms_fwd(Y, X, W, RSTD, stride_y, stride_x, n_cols, eps,
             ACC: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0)
    w = tl.load(W + cols, mask=mask, other=0.0)
    xa = x.to(ACC)
    rstd = 1.0 / tl.sqrt(tl.sum(xa * xa, 0) / n_cols + eps)
    tl.store(RSTD + row, rstd)
    y = (xa * rstd).to(x.dtype) * w  # llama casting: the weight multiplies in x's dtype
    tl.store(Y + row * stride_y + cols, y, mask=mask)


@triton.jit
def _rms_bwd(DY, X, W, RSTD, DW_PART, stride_dy, stride_x, n_rows, n_cols, rows_per_program,
             ACC: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    w = tl.load(W + cols, mask=mask, other=0.0).to(ACC)
    dw = tl.zeros([BLOCK], ACC)
    start = pid * rows_per_program
    end = tl.minimum(start + rows_per_program, n_rows)
    for row in range(start, end):
        dy = tl.load(DY + row * stride_dy + cols, mask=mask, other=0.0)
        x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(ACC)
        rstd = tl.load(RSTD + row)
        xhat = x * rstd
        g = dy.to(ACC)
        gh = g * w
        dx = rstd * (gh - xhat * (tl.sum(gh * xhat, 0) / n_cols))
        dw += g * xhat
        tl.store(DY + row * stride_dy + cols, dx.to(dy.dtype), mask=mask)  # grad_x over dy
    tl.store(DW_PART + pid * n_cols + cols, dw, mask=mask)


def _acc(dtype):
    return (tl.float64, torch.float64) if dtype == torch.float64 else (tl.float32, torch.float32)


class RMSNormFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, eps):
        shape = x.shape
        rows = x.contiguous().view(-1, shape[-1])
        n_rows, n_cols = rows.shape
        acc_tl, acc_torch = _acc(x.dtype)
        y = torch.empty_like(rows)
        rstd = torch.empty(n_rows, dtype=acc_torch, device=x.device)
        block = triton.next_power_of_2(n_cols)
        _rms_fwd[(n_rows,)](y, rows, weight.contiguous(), rstd, y.stride(0), rows.stride(0),
                            n_cols, eps, ACC=acc_tl, BLOCK=block)
        ctx.save_for_backward(rows, weight, rstd)
        return y.view(shape)

    @staticmethod
    def backward(ctx, grad_out):
        rows, weight, rstd = ctx.saved_tensors
        shape = grad_out.shape
        dy = grad_out.contiguous().view(-1, shape[-1])  # the same storage when contiguous
        n_rows, n_cols = dy.shape
        acc_tl, acc_torch = _acc(rows.dtype)
        programs = min(n_rows, 8)  # Liger uses one program per SM
        rows_per_program = triton.cdiv(n_rows, programs)
        dw_part = torch.empty((programs, n_cols), dtype=acc_torch, device=dy.device)
        _rms_bwd[(programs,)](dy, rows, weight.contiguous(), rstd, dw_part, dy.stride(0),
                              rows.stride(0), n_rows, n_cols, rows_per_program, ACC=acc_tl,
                              BLOCK=triton.next_power_of_2(n_cols))
        return dy.view(shape), dw_part.sum(0).to(weight.dtype), None
