"""Wrong solution: a parameter whose grad is None is stepped with a zero gradient
instead of being skipped, so its momentum keeps moving it (torch.optim.Adam skips it).
"""
import math

import torch
import torch.distributed as dist

EXPECTED_FAIL = ['ws1_plain_adam', 'ws2_matches_adam', 'ws3_uneven_matches_adam']


class ShardedAdam(torch.optim.Optimizer):
    """Adam (weight_decay=0, amsgrad=False) with ZeRO-1 optimizer-state sharding.

    The default process group must already be initialised by the caller; every
    rank must call ``step()`` for the same parameters (collectives must match).
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, rank=0, world_size=1):
        if not 0.0 <= lr:
            raise ValueError(f"invalid lr: {lr}")
        if not (0.0 <= betas[0] < 1.0 and 0.0 <= betas[1] < 1.0):
            raise ValueError(f"invalid betas: {betas}")
        if world_size < 1 or not 0 <= rank < world_size:
            raise ValueError(f"invalid rank/world_size: {rank}/{world_size}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps))
        self.rank = rank
        self.world_size = world_size

    def _chunk(self, numel):
        # ceil(numel / world_size): the padded shard size, equal on every rank.
        return (numel + self.world_size - 1) // self.world_size

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        ws, rank = self.world_size, self.rank
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr, eps = group["lr"], group["eps"]
            for p in group["params"]:
                # Must be the same decision on every rank, or the collectives mismatch.
                if p.grad is None:  # BUG: should be skipped, not treated as zero
                    p.grad = torch.zeros_like(p)
                n = p.numel()
                chunk = self._chunk(n)
                lo, hi = rank * chunk, (rank + 1) * chunk

                # 1-2. Padded full gradient, summed over ranks, then averaged
                # (gloo has no ReduceOp.AVG in older releases).
                flat_grad = torch.zeros(chunk * ws, dtype=p.dtype, device=p.device)
                flat_grad[:n] = p.grad.reshape(-1)
                if ws > 1:
                    dist.all_reduce(flat_grad, op=dist.ReduceOp.SUM)
                    flat_grad.div_(ws)
                g = flat_grad[lo:hi]

                # 3. Adam on the own shard; state exists only for these `chunk` elements.
                state = self.state[p]
                if not state:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros(chunk, dtype=p.dtype, device=p.device)
                    state["exp_avg_sq"] = torch.zeros(chunk, dtype=p.dtype, device=p.device)
                m, v = state["exp_avg"], state["exp_avg_sq"]
                state["step"] += 1
                t = state["step"]
                m.mul_(beta1).add_(g, alpha=1 - beta1)
                v.mul_(beta2).addcmul_(g, g, value=1 - beta2)
                bias_correction1 = 1 - beta1 ** t
                bias_correction2 = 1 - beta2 ** t
                # Same formula (and order of operations) as torch.optim.Adam.
                denom = (v.sqrt() / math.sqrt(bias_correction2)).add_(eps)
                flat_param = torch.zeros(chunk * ws, dtype=p.dtype, device=p.device)
                flat_param[:n] = p.reshape(-1)
                shard = flat_param[lo:hi].addcdiv_(m, denom, value=-lr / bias_correction1)
                # Padding elements have g = 0, hence m = 0: they stay 0 and are dropped.

                # 4. Every rank receives every updated shard: identical parameters.
                if ws > 1:
                    pieces = [torch.empty_like(shard) for _ in range(ws)]
                    dist.all_gather(pieces, shard.contiguous())
                    flat_param = torch.cat(pieces)
                p.copy_(flat_param[:n].view_as(p))
        return loss

