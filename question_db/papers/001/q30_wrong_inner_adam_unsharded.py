"""Wrong solution: a wrapper whose inner torch.optim.Adam covers every parameter on every rank.

Gradients are averaged and the result is exactly Adam's, but each rank keeps m and v for the
whole model: nothing is sharded, which is the one thing ZeRO-1 is for.
"""
import torch
import torch.distributed as dist

EXPECTED_FAIL = ['state_sharded']


class ShardedAdam(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, rank=0, world_size=1):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps))
        self.rank, self.world_size = rank, world_size
        self.inner = torch.optim.Adam(self.param_groups, lr=lr, betas=betas, eps=eps)

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None and self.world_size > 1:
                    dist.all_reduce(p.grad, op=dist.ReduceOp.SUM)
                    p.grad.div_(self.world_size)
        self.inner.step()  # BUG: full m and v on every rank
        return None
