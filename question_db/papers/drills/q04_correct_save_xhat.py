"""CORRECT, another design: save the normalised input, always work in float32.

drills/4: RMSNorm as a torch.autograd.Function with a hand-written backward. The forward
keeps xhat = x·rstd (instead of x) for the backward; the gradient is written as
rstd·(gh - xhat·Σ(gh·xhat)/D) with gh = grad·weight.
"""
import torch


class RMSNormFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, eps):
        work = torch.promote_types(x.dtype, torch.float32)
        x32 = x.to(work)
        rstd = (x32.square().sum(-1, keepdim=True) / x.shape[-1] + eps) ** -0.5
        xhat = x32 * rstd
        ctx.save_for_backward(xhat, rstd, weight)
        ctx.in_dtype = x.dtype
        return (xhat * weight.to(work)).to(x.dtype)

    @staticmethod
    def backward(ctx, dy):
        xhat, rstd, weight = ctx.saved_tensors
        dy = dy.to(xhat.dtype)
        dims = tuple(range(dy.dim() - 1))
        dweight = (dy * xhat).sum(dim=dims)
        gh = dy * weight.to(xhat.dtype)
        dx = rstd * (gh - xhat * (gh * xhat).sum(-1, keepdim=True) / xhat.shape[-1])
        return dx.to(ctx.in_dtype), dweight.to(weight.dtype), None
