"""001/30, a correct solution shaped like torch.distributed.optim.ZeroRedundancyOptimizer.

Parameters are partitioned whole, greedily by size (largest first, to the rank with the least
so far), and each rank keeps an inner ``torch.optim.Adam`` over its own partition only, with
the param-group structure (and per-group lr) preserved: that inner optimizer's ``state``
holds this rank's m and v. ``step()``: average every gradient over the ranks (all_reduce SUM
÷ world_size), step the inner Adam, then broadcast each parameter from the rank that owns it.
"""
import torch
import torch.distributed as dist


class ShardedAdam(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, rank=0, world_size=1):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps))
        self.rank, self.world_size = rank, world_size
        sizes = [0] * world_size
        self.owner = {}
        every = [p for group in self.param_groups for p in group["params"]]
        for p in sorted(every, key=lambda t: t.numel(), reverse=True):
            r = min(range(world_size), key=lambda i: sizes[i])
            self.owner[p] = r
            sizes[r] += p.numel()
        local_groups = []
        for group in self.param_groups:
            mine = [p for p in group["params"] if self.owner[p] == rank]
            if mine:
                local_groups.append({**{k: v for k, v in group.items() if k != "params"},
                                     "params": mine})
        self.optim = torch.optim.Adam(local_groups, lr=lr, betas=betas, eps=eps) \
            if local_groups else None

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        every = [p for group in self.param_groups for p in group["params"]]
        for p in every:  # the same decision on every rank: grads are None everywhere or nowhere
            if p.grad is not None and self.world_size > 1:
                dist.all_reduce(p.grad, op=dist.ReduceOp.SUM)
                p.grad.div_(self.world_size)
        if self.optim is not None:
            self.optim.step()
        if self.world_size > 1:
            for p in every:
                if p.grad is not None:
                    buf = p.detach().contiguous()
                    dist.broadcast(buf, src=self.owner[p])
                    p.copy_(buf)
        return loss
