"""001/30, a correct solution partitioning whole parameters round-robin.

Parameter i (in param-group order) belongs to rank i % world_size. Only the owner keeps
Adam's m and v for it, in ``self.state[p]`` (full-size for that parameter), and computes its
update; every rank averages the gradients first (all_reduce SUM ÷ world_size) and receives
the owner's updated parameter by broadcast. No flattening or padding is needed.
"""
import math

import torch
import torch.distributed as dist


class ShardedAdam(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, rank=0, world_size=1):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps))
        self.rank, self.world_size = rank, world_size

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        index = 0
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                owner = index % self.world_size
                index += 1
                if p.grad is None:
                    continue
                grad = p.grad
                if self.world_size > 1:
                    grad = grad.contiguous()
                    dist.all_reduce(grad, op=dist.ReduceOp.SUM)
                    grad = grad / self.world_size
                if owner == self.rank:
                    state = self.state[p]
                    if not state:
                        state["step"] = 0
                        state["exp_avg"] = torch.zeros_like(p)
                        state["exp_avg_sq"] = torch.zeros_like(p)
                    state["step"] += 1
                    t = state["step"]
                    m, v = state["exp_avg"], state["exp_avg_sq"]
                    m.mul_(beta1).add_(grad, alpha=1 - beta1)
                    v.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                    denom = (v.sqrt() / math.sqrt(1 - beta2 ** t)).add_(group["eps"])
                    p.addcdiv_(m, denom, value=-group["lr"] / (1 - beta1 ** t))
                if self.world_size > 1:
                    buf = p.detach().contiguous()
                    dist.broadcast(buf, src=owner)
                    p.copy_(buf)
        return loss
