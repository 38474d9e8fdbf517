"""CORRECT, Liger-Kernel's design: one Triton kernel per row computes the loss and writes the
gradient into the logits' own storage.

drills/3: numerically stable cross-entropy with label smoothing and ignore_index, forward
and backward by hand. Organised like Liger-Kernel's fused cross-entropy: a first pass over
column blocks keeps an online max and sum of exponentials (and the row sum, for the
smoothing term), a second pass overwrites each logit with its gradient
(softmax − smoothed one-hot) / n_counted, so no (N, C) gradient is ever allocated. Both
functions therefore consume ``logits`` (the stem allows it): ``cross_entropy_backward``
runs the same kernel and returns the logits tensor, now holding the gradient.

Without a GPU the kernel runs in Triton's interpreter on CPU tensors, which must be chosen
before triton is first imported: hence the first lines below.
"""
import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")  # CPU: run kernels in Triton's interpreter
import triton
import triton.language as tl


@triton.jit
def _ce_fwd_bwd(X, stride_x, Y, LOSS, n_cols, n_counted, ignore_index, smoothing,
                BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    X += row * stride_x
    y = tl.load(Y + row)
    if y == ignore_index:  # an ignored row: zero gradient, no loss
        for start in range(0, n_cols, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            tl.store(X + cols, tl.zeros([BLOCK], tl.float32), mask=cols < n_cols)
        tl.store(LOSS + row, 0.0)
        return
    m = float("-inf")
    d = 0.0
    row_sum = 0.0
    for start in range(0, n_cols, BLOCK):  # pass 1: online max and sum of exp
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, 0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), 0)
        row_sum += tl.sum(tl.where(cols < n_cols, x, 0.0), 0)
        m = m_new
    lse = m + tl.log(d)
    x_y = tl.load(X + y).to(tl.float32)
    # -Σ q·log p with q = (1-ε)·onehot + ε/C  =  (1-ε)(lse - x_y) + ε(lse - mean(x))
    loss = (1.0 - smoothing) * (lse - x_y) + smoothing * (lse - row_sum / n_cols)
    tl.store(LOSS + row, loss / n_counted)
    for start in range(0, n_cols, BLOCK):  # pass 2: the gradient, written over the logits
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        grad = tl.exp(x - m) / d - smoothing / n_cols
        grad = tl.where(cols == y, grad - (1.0 - smoothing), grad)
        tl.store(X + cols, grad / n_counted, mask=cols < n_cols)


def _run(logits, target, ignore_index, label_smoothing):
    if logits.stride(-1) != 1:
        logits = logits.contiguous()
    n_rows, n_cols = logits.shape
    n_counted = int((target != ignore_index).sum())
    loss_rows = torch.zeros(n_rows, dtype=torch.float32, device=logits.device)
    block = min(triton.next_power_of_2(n_cols), 4096)
    _ce_fwd_bwd[(n_rows,)](logits, logits.stride(0), target.contiguous(), loss_rows, n_cols,
                           n_counted, ignore_index, label_smoothing, BLOCK=block)
    return loss_rows.sum(), logits


def cross_entropy_forward(logits, target, ignore_index=-100, label_smoothing=0.0):
    return _run(logits, target, ignore_index, label_smoothing)[0]


def cross_entropy_backward(logits, target, ignore_index=-100, label_smoothing=0.0):
    return _run(logits, target, ignore_index, label_smoothing)[1]
