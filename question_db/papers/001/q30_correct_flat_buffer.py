"""001/30, a correct solution with DeepSpeed-style flat buffers and cross-parameter shards.

Per param group, the gradients of the parameters that have one are concatenated into one
flat buffer padded to a multiple of world_size; ``reduce_scatter_tensor`` gives every rank
the summed slice [r·chunk, (r+1)·chunk) of it (so a shard may span several parameters),
Adam runs on that slice with m and v kept as flat tensors in attributes
(``self.exp_avg[g]``, ``self.exp_avg_sq[g]``), and ``all_gather_into_tensor`` rebuilds the
updated flat parameters, copied back into each (possibly non-contiguous) parameter. Which
parameters take part is decided per step, identically on every rank.
"""
import torch
import torch.distributed as dist


class ShardedAdam(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, rank=0, world_size=1):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps))
        self.rank, self.world_size = rank, world_size
        # Flat moments per group over *all* its parameters (fixed layout); steps per element.
        self.exp_avg, self.exp_avg_sq, self.steps, self.layout = [], [], [], []
        for group in self.param_groups:
            sizes = [p.numel() for p in group["params"]]
            total = sum(sizes)
            chunk = -(-total // world_size)
            self.layout.append((sizes, chunk))
            self.exp_avg.append(torch.zeros(chunk))
            self.exp_avg_sq.append(torch.zeros(chunk))
            self.steps.append(torch.zeros(chunk, dtype=torch.int64))

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        ws, rank = self.world_size, self.rank
        for g, group in enumerate(self.param_groups):
            sizes, chunk = self.layout[g]
            beta1, beta2 = group["betas"]
            flat_grad = torch.zeros(chunk * ws)
            active = torch.zeros(chunk * ws, dtype=torch.bool)
            flat_param = torch.zeros(chunk * ws)
            offset = 0
            for p, n in zip(group["params"], sizes):
                flat_param[offset:offset + n] = p.reshape(-1)
                if p.grad is not None:
                    flat_grad[offset:offset + n] = p.grad.reshape(-1)
                    active[offset:offset + n] = True
                offset += n
            if not bool(active.any()):
                continue
            if ws > 1:
                shard_grad = torch.empty(chunk)
                dist.reduce_scatter_tensor(shard_grad, flat_grad, op=dist.ReduceOp.SUM)
                shard_grad /= ws
            else:
                shard_grad = flat_grad
            lo = rank * chunk
            on = active[lo:lo + chunk]
            m, v, t = self.exp_avg[g], self.exp_avg_sq[g], self.steps[g]
            t[on] += 1
            m[on] = m[on] * beta1 + shard_grad[on] * (1 - beta1)
            v[on] = v[on] * beta2 + shard_grad[on] * shard_grad[on] * (1 - beta2)
            tf = t[on].double()
            step_size = (group["lr"] / (1 - beta1 ** tf)).float()
            denom = (v[on].sqrt() / torch.sqrt(1 - beta2 ** tf).float()) + group["eps"]
            shard = flat_param[lo:lo + chunk].clone()
            shard[on] = shard[on] - step_size * m[on] / denom
            if ws > 1:
                gathered = torch.empty(chunk * ws)
                dist.all_gather_into_tensor(gathered, shard)
            else:
                gathered = shard
            offset = 0
            for p, n in zip(group["params"], sizes):
                if p.grad is not None:
                    p.copy_(gathered[offset:offset + n].view_as(p))
                offset += n
        return loss
