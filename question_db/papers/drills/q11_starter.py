"""drills/11: a fused RMSNorm forward kernel in Triton.

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
def _rms_norm_kernel(y_ptr, x_ptr, w_ptr, x_row_stride, y_row_stride, n_cols, eps,
                     BLOCK: tl.constexpr):
    """One program per row (your choice): mean of squares in float32, scale, store."""
    pass


def triton_rms_norm(x, weight, eps=1e-6):
    """y = x / sqrt(mean(x², -1) + eps) * weight for x (..., N), weight (N,), N <= 8192.

    x has unit stride in the last dimension (leading dimensions may be strided); returns a
    tensor of x's shape and dtype. All arithmetic happens in your kernel(s).
    """
    raise NotImplementedError
