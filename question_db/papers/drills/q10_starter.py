"""drills/10: a fused row-softmax kernel in Triton.

Keep the first lines: without a GPU, Triton kernels run in Triton's interpreter on CPU
tensors, and that mode must be chosen before triton is first imported in the kernel. Write
the kernel and the wrapper; rows per program, block size and num_warps are up to you.
"""
import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")  # CPU: run kernels in Triton's interpreter
try:
    import triton
    import triton.language as tl  # noqa: F401
except ImportError as exc:  # the kernel's environment has no triton
    raise ImportError("this drill needs triton in the kernel's environment: pip install triton "
                      "(examdesk's own environment: pip install 'examdesk[triton]')") from exc


@triton.jit
def _softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                    BLOCK: tl.constexpr):
    """One program per row (your choice): load, subtract the max, exp, divide, store."""
    pass


def triton_softmax(x):
    """Softmax over the last dim of x (M, N) (unit column stride, any row stride, N <= 8192).

    Returns a new (M, N) tensor of x's dtype. All arithmetic happens in your kernel(s): the
    wrapper only allocates, reshapes and launches (the checks refuse torch math here).
    """
    raise NotImplementedError
