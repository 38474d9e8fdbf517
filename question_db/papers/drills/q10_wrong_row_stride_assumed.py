"""WRONG (rows are assumed to be packed: the row stride is taken to be N).

drills/10: a fused row-softmax kernel in Triton.

Interface (what the checks call):
- ``triton_softmax(x)``: x (M, N) float32 / float16 / bfloat16 with unit column stride and
  any row stride (e.g. a column slice of a wider tensor); returns softmax over the last
  dimension, shape (M, N), dtype of x, computed by Triton kernel(s): the Python wrapper only
  allocates, reshapes and launches. Every row has at least one finite value; -inf entries
  get probability 0. N <= 8192.

Without a GPU the kernels run in Triton's interpreter on CPU tensors, which must be chosen
before triton is first imported: hence the first lines below.
"""
import os

import torch

EXPECTED_FAIL = ['strided_rows']

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")  # CPU: run kernels in Triton's interpreter
try:
    import triton
    import triton.language as tl
except ImportError as exc:  # the kernel's environment has no triton
    raise ImportError("this drill needs triton in the kernel's environment: pip install triton "
                      "(examdesk's own environment: pip install 'examdesk[triton]')") from exc


@triton.jit
def _softmax_rows(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                  BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    # masked lanes read -inf so they neither win the max nor add to the sum
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask, other=-float("inf"))
    x = x.to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_row_stride + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def triton_softmax(x):
    if x.dim() != 2 or x.stride(1) != 1:
        raise ValueError("expected a 2-D tensor with unit column stride")
    rows, cols = x.shape
    out = torch.empty((rows, cols), dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(cols)
    _softmax_rows[(rows,)](out, x, cols, cols, cols, BLOCK=block,
                           num_warps=4 if block <= 2048 else 8)
    return out
