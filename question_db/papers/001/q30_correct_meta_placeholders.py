"""001/30, a correct solution whose non-owned state slots are meta-device placeholders.

Whole parameters round-robin (parameter i belongs to rank i % world_size), as in PyTorch's
ZeroRedundancyOptimizer. To keep ``self.state`` shaped the same on every rank, the ranks
that do not own a parameter keep ``exp_avg`` / ``exp_avg_sq`` as tensors on the ``meta``
device: they have shape and dtype but no storage, so they cost no memory. Only the owner
keeps real m and v.
"""
import math

import torch
import torch.distributed as dist


class ShardedAdam(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, rank=0, world_size=1):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps))
        self.rank, self.world_size = rank, world_size
        index = 0
        for group in self.param_groups:
            for p in group["params"]:
                owner = index % world_size
                index += 1
                device = p.device if owner == rank else "meta"
                self.state[p] = {"owner": owner, "step": 0,
                                 "exp_avg": torch.zeros_like(p, device=device),
                                 "exp_avg_sq": torch.zeros_like(p, device=device)}

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                grad = p.grad.contiguous().clone()
                if self.world_size > 1:
                    dist.all_reduce(grad, op=dist.ReduceOp.SUM)
                    grad.div_(self.world_size)
                if state["owner"] == self.rank:
                    state["step"] += 1
                    t = state["step"]
                    m, v = state["exp_avg"], state["exp_avg_sq"]
                    m.mul_(beta1).add_(grad, alpha=1 - beta1)
                    v.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                    denom = (v.sqrt() / math.sqrt(1 - beta2 ** t)).add_(group["eps"])
                    p.addcdiv_(m, denom, value=-group["lr"] / (1 - beta1 ** t))
                if self.world_size > 1:
                    buf = p.detach().contiguous()
                    dist.broadcast(buf, src=state["owner"])
                    p.copy_(buf)
        return loss
