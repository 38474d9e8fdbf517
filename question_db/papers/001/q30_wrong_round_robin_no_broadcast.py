"""Wrong solution: round-robin partition whose owners never send their updated parameters.

Each rank updates only the parameters it owns and keeps the others as they were, so ranks
diverge after the first step and none holds the Adam result for the whole model.
"""
import math

import torch
import torch.distributed as dist

EXPECTED_FAIL = ['ws2_matches_adam', 'ws3_uneven_matches_adam', 'ranks_identical']


class ShardedAdam(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, rank=0, world_size=1):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps))
        self.rank, self.world_size = rank, world_size

    @torch.no_grad()
    def step(self, closure=None):
        index = 0
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                owner = index % self.world_size
                index += 1
                if p.grad is None:
                    continue
                grad = p.grad.contiguous()
                if self.world_size > 1:
                    dist.all_reduce(grad, op=dist.ReduceOp.SUM)
                    grad = grad / self.world_size
                if owner != self.rank:
                    continue  # BUG: the owner's result is never broadcast
                state = self.state[p]
                if not state:
                    state.update(step=0, exp_avg=torch.zeros_like(p), exp_avg_sq=torch.zeros_like(p))
                state["step"] += 1
                t = state["step"]
                state["exp_avg"].mul_(beta1).add_(grad, alpha=1 - beta1)
                state["exp_avg_sq"].mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denom = (state["exp_avg_sq"].sqrt() / math.sqrt(1 - beta2 ** t)).add_(group["eps"])
                p.addcdiv_(state["exp_avg"], denom, value=-group["lr"] / (1 - beta1 ** t))
        return None
