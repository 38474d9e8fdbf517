"""drills/11: a fused RMSNorm forward kernel in Triton.

Interface (what the checks call):
- ``triton_rms_norm(x, weight, eps=1e-6)``: x (..., N) float32 / float16 / bfloat16 with
  unit stride in the last dimension (leading dimensions may be strided), weight (N,);
  returns y = x / sqrt(mean(x², -1) + eps) * weight, same shape and dtype as x, with the
  mean of squares accumulated in float32. All arithmetic in Triton kernel(s). N <= 8192.

Without a GPU the kernels run in Triton's interpreter on CPU tensors, which must be chosen
before triton is first imported: hence the first lines below.
"""
import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")  # CPU: run kernels in Triton's interpreter
try:
    import triton
    import triton.language as tl
except ImportError as exc:  # the kernel's environment has no triton
    raise ImportError("this drill needs triton in the kernel's environment: pip install triton "
                      "(examdesk's own environment: pip install 'examdesk[triton]')") from exc


@triton.jit
def _rms_norm_rows(y_ptr, x_ptr, w_ptr, x_row_stride, y_row_stride, n_cols, eps,
                   BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean_sq = tl.sum(x * x, axis=0) / n_cols  # padded lanes are 0: divide by N, not BLOCK
    rstd = 1.0 / tl.sqrt(mean_sq + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * y_row_stride + cols, (x * rstd * w).to(y_ptr.dtype.element_ty),
             mask=mask)


def triton_rms_norm(x, weight, eps=1e-6):
    if x.stride(-1) != 1:
        raise ValueError("the last dimension must have unit stride")
    n = x.shape[-1]
    rows = x.reshape(-1, n)  # a view when possible (a copy otherwise): one row per program
    out = torch.empty(rows.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n)
    _rms_norm_rows[(rows.shape[0],)](out, rows, weight, rows.stride(0), out.stride(0), n, eps,
                                     BLOCK=block)
    return out.view(x.shape)


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    x = torch.randn(4, 7, 100, device=dev)
    w = torch.randn(100, device=dev)
    want = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
    err = (triton_rms_norm(x, w) - want).abs().max().item()
    mode = "interpreter" if os.environ.get("TRITON_INTERPRET") == "1" else "compiled"
    print(f"triton {triton.__version__} ({mode}): max abs err {err:.2e}")
    assert err < 1e-5
