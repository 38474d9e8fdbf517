"""Wrong solution: step(closure) calls the closure but drops its loss (returns None).

Everything else is the reference. The stem (and torch.optim.Optimizer.step) says: when a
closure is given, return its loss; a training loop doing `loss = opt.step(closure)` gets None.

Simplified ZeRO-1: Adam whose optimizer state (m, v) is sharded across ranks.

Every rank holds the full parameters and computes full gradients (plain data
parallelism); only the Adam moments are partitioned. One step per parameter:

1. pad the flattened gradient to ``chunk * world_size`` elements so that every
   rank's shard has the same size (collectives need equal sizes on all ranks);
2. all-reduce (SUM) and divide by ``world_size``: the averaged gradient;
3. Adam on this rank's shard only (m, v live only for that shard);
4. all-gather the updated shards so every rank ends with identical parameters.

Production ZeRO uses reduce-scatter in step 2 (each rank only needs its shard);
all_reduce + all_gather is used here because the gloo backend supports them in
every PyTorch 2.x release (the NCCL path would use ``reduce_scatter_tensor`` and
``all_gather_into_tensor`` on the same padded buffers).
"""
import math

import torch
import torch.distributed as dist

EXPECTED_FAIL = ['step_returns_closure_loss']


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
                closure()  # BUG: the loss is dropped
        ws, rank = self.world_size, self.rank
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr, eps = group["lr"], group["eps"]
            for p in group["params"]:
                # Must be the same decision on every rank, or the collectives mismatch.
                if p.grad is None:
                    continue
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
        return None


def _smoke_worker(rank, world_size, init_method, steps, queue):
    dist.init_process_group("gloo", init_method=init_method, rank=rank, world_size=world_size)
    torch.manual_seed(0)  # identical initial parameters on every rank
    model = torch.nn.Linear(7, 5)
    opt = ShardedAdam(model.parameters(), lr=1e-2, rank=rank, world_size=world_size)
    for t in range(steps):
        x = torch.randn(4, 7, generator=torch.Generator().manual_seed(10 * t + rank))
        opt.zero_grad()
        model(x).square().mean().backward()
        opt.step()
    # Plain lists: tensors sent through a Queue share memory with the exiting process.
    queue.put((rank, [p.detach().tolist() for p in model.parameters()],
               sum(s["exp_avg"].numel() for s in opt.state.values())))
    dist.destroy_process_group()


if __name__ == "__main__":
    import os
    import sys
    import tempfile

    import torch.multiprocessing as mp

    world_size, steps = 3, 5  # 35 and 5 elements: uneven shards (12 + 12 + 11, 2 + 2 + 1)

    # Single-process torch.optim.Adam on the averaged gradients.
    torch.manual_seed(0)
    model = torch.nn.Linear(7, 5)
    ref = torch.optim.Adam(model.parameters(), lr=1e-2)
    for t in range(steps):
        ref.zero_grad()
        for r in range(world_size):
            x = torch.randn(4, 7, generator=torch.Generator().manual_seed(10 * t + r))
            (model(x).square().mean() / world_size).backward()
        ref.step()

    # One process per rank; fork (Linux) reuses the imported torch, spawn elsewhere.
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    with tempfile.TemporaryDirectory() as tmp:
        init_method = "file://" + os.path.join(tmp, "rendezvous")
        ctx = mp.get_context(method)
        queue = ctx.Queue()
        procs = [ctx.Process(target=_smoke_worker,
                             args=(r, world_size, init_method, steps, queue))
                 for r in range(world_size)]
        for proc in procs:
            proc.start()
        results = sorted(queue.get(timeout=60) for _ in procs)
        for proc in procs:
            proc.join(timeout=30)

    for rank, params, state_numel in results:
        for p, q in zip(params, model.parameters()):
            torch.testing.assert_close(torch.tensor(p), q.detach(), rtol=1e-5, atol=1e-6)
        print(f"rank {rank}: matches torch.optim.Adam; "
              f"m holds {state_numel} of 40 elements (padded)")
