# Seed answer of paper 001, question 30, re-typeset: only the extraction damage is
# repaired (whitespace, deleted `-`, `*`, `**` and `#` comments). Its real bugs are
# kept on purpose (see errata in q30.toml), including the missing `import math`.
import torch
import torch.distributed as dist


class ShardedAdam(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, rank=0, world_size=1):
        defaults = dict(lr=lr, betas=betas, eps=eps)
        super().__init__(params, defaults)
        self.rank = rank
        self.world_size = world_size
        # 为每个参数分配状态分片
        for group in self.param_groups:
            for p in group['params']:
                state = self.state[p]
                state['step'] = 0
                sz = p.numel()
                chunk = (sz + world_size - 1) // world_size
                start = min(rank * chunk, sz)
                end = min(start + chunk, sz)
                state['m'] = torch.zeros(end - start, dtype=p.dtype, device=p.device)
                state['v'] = torch.zeros_like(state['m'])

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            beta1, beta2 = group['betas']
            lr = group['lr']
            eps = group['eps']
            for p in group['params']:
                if p.grad is None:
                    continue
                grad = p.grad.flatten()
                state = self.state[p]
                sz = p.numel()
                chunk = (sz + self.world_size - 1) // self.world_size
                start = min(self.rank * chunk, sz)
                end = min(start + chunk, sz)
                local_grad = grad[start:end]
                # 聚合梯度到当前rank
                dist.all_reduce(local_grad, op=dist.ReduceOp.SUM)
                local_grad /= self.world_size
                # 更新m,v
                m, v = state['m'], state['v']
                m.lerp_(local_grad, 1 - beta1)
                v.lerp_(local_grad.square(), 1 - beta2)
                state['step'] += 1
                bias_correction1 = 1 - beta1 ** state['step']
                bias_correction2 = 1 - beta2 ** state['step']
                denom = (v.sqrt() / math.sqrt(bias_correction2)).add_(eps)
                step_size = lr / bias_correction1
                # 更新参数分片
                p_flat = p.flatten()
                p_flat[start:end] -= step_size * m / denom
        dist.barrier()


# 使用示例（需torchrun启动）
def demo():
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    world_size = dist.get_world_size()
    torch.cuda.set_device(rank)
    model = torch.nn.Linear(1024, 1024, bias=False).cuda()
    opt = ShardedAdam(model.parameters(), lr=1e-3, rank=rank, world_size=world_size)
    x = torch.randn(32, 1024, device='cuda')
    y = model(x).sum()
    y.backward()
    opt.step()
    print(f"rank {rank} updated")


if __name__ == "__main__":
    demo()
