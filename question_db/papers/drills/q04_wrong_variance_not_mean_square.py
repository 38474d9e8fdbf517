"""WRONG (the statistic is the variance (mean-centred, as in LayerNorm), not the mean of squares).

drills/4: RMSNorm as a torch.autograd.Function with a hand-written backward.

Interface (what the checks call):
- ``RMSNormFunction.apply(x, weight, eps)``: x (..., D), weight (D,), eps float ->
  y = x / sqrt(mean(x², dim=-1) + eps) * weight, same shape and dtype as x; the mean of
  squares is taken in float32 (or wider) whatever the input dtype.
- ``RMSNormFunction.backward`` returns (grad_x, grad_weight, None), written by hand.
"""
import torch

EXPECTED_FAIL = ['forward_matches']


class RMSNormFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, eps):
        xf = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
        rstd = torch.rsqrt(xf.var(dim=-1, unbiased=False, keepdim=True) + eps)
        ctx.save_for_backward(x, weight, rstd)
        return (xf * rstd * weight.to(xf.dtype)).to(x.dtype)

    @staticmethod
    def backward(ctx, grad_out):
        x, weight, rstd = ctx.saved_tensors
        work = rstd.dtype
        xhat = x.to(work) * rstd
        g = grad_out.to(work)
        gh = g * weight.to(work)  # dL/dxhat
        # xhat = x * r with r = (mean(x^2) + eps)^(-1/2):  dx = r * (gh - xhat * mean(gh * xhat))
        grad_x = rstd * (gh - xhat * (gh * xhat).mean(dim=-1, keepdim=True))
        grad_w = (g * xhat).reshape(-1, x.shape[-1]).sum(dim=0)
        return grad_x.to(x.dtype), grad_w.to(weight.dtype), None


def rms_norm(x, weight, eps=1e-6):
    return RMSNormFunction.apply(x, weight, eps)
