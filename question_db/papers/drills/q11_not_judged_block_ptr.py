"""drills/11, a block-pointer RMSNorm kernel written the way CS336 assignment 2 writes its
Triton kernels (``tl.make_block_ptr`` over a tile of rows, ``.advance`` along the hidden
dimension, ``boundary_check`` + ``padding_option="zero"`` instead of masks).

Not listed as correct or wrong: triton 3.9.0, the version the checks are measured with, no
longer has block pointers (``tl.make_block_ptr`` raises NotImplementedError("Block pointers
have been removed in favor of the tensor descriptor API"), interpreted or compiled), so the
checks report every property as not judged, naming the cause (tests/test_drills.py). On a
Triton that still has block pointers it computes the same as q11_reference.py.
"""
import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")  # CPU: run kernels in Triton's interpreter
import triton
import triton.language as tl


@triton.jit
def rms_norm_fwd(x_ptr, weight_ptr, y_ptr, x_stride_row, x_stride_dim, y_stride_row,
                 y_stride_dim, ROWS, D, eps, ROWS_TILE_SIZE: tl.constexpr,
                 D_TILE_SIZE: tl.constexpr):
    row_tile_idx = tl.program_id(0)
    x_block_ptr = tl.make_block_ptr(
        x_ptr, shape=(ROWS, D), strides=(x_stride_row, x_stride_dim),
        offsets=(row_tile_idx * ROWS_TILE_SIZE, 0), block_shape=(ROWS_TILE_SIZE, D_TILE_SIZE),
        order=(1, 0))
    sum_sq = tl.zeros((ROWS_TILE_SIZE,), dtype=tl.float32)
    for _ in range(tl.cdiv(D, D_TILE_SIZE)):
        row = tl.load(x_block_ptr, boundary_check=(0, 1), padding_option="zero")
        row = row.to(tl.float32)
        sum_sq += tl.sum(row * row, axis=1)
        x_block_ptr = x_block_ptr.advance((0, D_TILE_SIZE))
    rstd = 1.0 / tl.sqrt(sum_sq / D + eps)

    x_block_ptr = tl.make_block_ptr(
        x_ptr, shape=(ROWS, D), strides=(x_stride_row, x_stride_dim),
        offsets=(row_tile_idx * ROWS_TILE_SIZE, 0), block_shape=(ROWS_TILE_SIZE, D_TILE_SIZE),
        order=(1, 0))
    weight_block_ptr = tl.make_block_ptr(
        weight_ptr, shape=(D,), strides=(1,), offsets=(0,), block_shape=(D_TILE_SIZE,),
        order=(0,))
    y_block_ptr = tl.make_block_ptr(
        y_ptr, shape=(ROWS, D), strides=(y_stride_row, y_stride_dim),
        offsets=(row_tile_idx * ROWS_TILE_SIZE, 0), block_shape=(ROWS_TILE_SIZE, D_TILE_SIZE),
        order=(1, 0))
    for _ in range(tl.cdiv(D, D_TILE_SIZE)):
        row = tl.load(x_block_ptr, boundary_check=(0, 1), padding_option="zero").to(tl.float32)
        weight = tl.load(weight_block_ptr, boundary_check=(0,), padding_option="zero")
        y = row * rstd[:, None] * weight[None, :].to(tl.float32)
        tl.store(y_block_ptr, y.to(y_ptr.dtype.element_ty),
                 boundary_check=(0, 1))
        x_block_ptr = x_block_ptr.advance((0, D_TILE_SIZE))
        weight_block_ptr = weight_block_ptr.advance((D_TILE_SIZE,))
        y_block_ptr = y_block_ptr.advance((0, D_TILE_SIZE))


def triton_rms_norm(x, weight, eps=1e-6):
    D = x.shape[-1]
    x2d = x.reshape(-1, D)
    y = torch.empty(x2d.shape, dtype=x.dtype, device=x.device)
    rows = x2d.shape[0]
    ROWS_TILE_SIZE, D_TILE_SIZE = 16, min(triton.next_power_of_2(D), 1024)
    rms_norm_fwd[(triton.cdiv(rows, ROWS_TILE_SIZE),)](
        x2d, weight, y, x2d.stride(0), x2d.stride(1), y.stride(0), y.stride(1), rows, D, eps,
        ROWS_TILE_SIZE=ROWS_TILE_SIZE, D_TILE_SIZE=D_TILE_SIZE)
    return y.view(x.shape)
