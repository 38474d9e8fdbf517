"""drills/12: a FlashAttention-2 forward kernel in Triton.

Keep the first lines: without a GPU, Triton kernels run in Triton's interpreter on CPU
tensors, and that mode must be chosen before triton is first imported in the kernel. Block
sizes, num_warps / num_stages, exp or exp2 and the grid layout are up to you.
"""
import math  # noqa: F401
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
def _attn_fwd_kernel(Q, K, V, O, L, seq, scale, CAUSAL: tl.constexpr, D: tl.constexpr,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """One program per (query block, batch·head) (your choice): online softmax over key
    blocks, then o = acc / l and lse = m + log(l). Add the stride arguments you need."""
    pass


def triton_flash_attention(q, k, v, causal=False):
    """FlashAttention-2 forward.

    Args:
        q, k, v: (B, H, S, D), any strides, float32 / float16 / bfloat16;
            D in {16, 32, 64, 128}; any S >= 1.
        causal: query i sees keys j <= i only.

    Returns:
        (o, lse): o (B, H, S, D) in q's dtype; lse (B, H, S) float32, the natural-log
        log-sum-exp of each query's scaled scores. All arithmetic in your kernel(s).
    """
    raise NotImplementedError
