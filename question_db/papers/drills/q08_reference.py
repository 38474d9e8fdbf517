"""drills/8: the accept / reject step of speculative decoding.

Interface (what the checks call):
- ``speculative_accept(draft_tokens, draft_probs, target_probs, generator=None)``:
  draft_tokens (B, γ) int64, drawn from draft_probs (B, γ, V) (the draft model's q_i);
  target_probs (B, γ + 1, V) the target model's p_i at the same positions plus one more.
  Returns (tokens, n): tokens (B, γ + 1) int64 and n (B,) int64 in 1 .. γ + 1, where
  tokens[b, :n[b]] is what this step emits: draft i is accepted with probability
  min(1, p_i(x) / q_i(x)); at the first rejection one token is drawn from
  norm(max(0, p_i - q_i)) and the step ends; if all γ are accepted one more token is drawn
  from p_γ. Entries at and after n[b] are ignored. All randomness comes from ``generator``
  when one is given. The emitted tokens are then distributed exactly as if sampled from the
  target model (Leviathan et al., 2023; Chen et al., 2023).
"""
import torch


def speculative_accept(draft_tokens, draft_probs, target_probs, generator=None):
    bsz, gamma = draft_tokens.shape
    device = draft_tokens.device
    tokens = torch.full((bsz, gamma + 1), -1, dtype=torch.long, device=device)
    n = torch.full((bsz,), gamma + 1, dtype=torch.long, device=device)
    active = torch.ones(bsz, dtype=torch.bool, device=device)
    for i in range(gamma):
        x = draft_tokens[:, i]
        p = target_probs[:, i].gather(1, x[:, None])[:, 0]
        q = draft_probs[:, i].gather(1, x[:, None])[:, 0]
        u = torch.rand(bsz, generator=generator, device=device)
        accept = active & (u * q < p)  # u < p/q without dividing; p >= q always accepts
        reject = active & ~accept
        tokens[accept, i] = x[accept]
        if bool(reject.any()):
            residual = (target_probs[reject, i] - draft_probs[reject, i]).clamp_min(0)
            empty = residual.sum(-1, keepdim=True) == 0  # p == q up to rounding: use p
            residual = torch.where(empty, target_probs[reject, i], residual)
            tokens[reject, i] = torch.multinomial(residual, 1, generator=generator)[:, 0]
            n[reject] = i + 1
        active = accept
    if bool(active.any()):  # every draft accepted: a bonus token from p_γ
        bonus = torch.multinomial(target_probs[active, gamma], 1, generator=generator)[:, 0]
        tokens[active, gamma] = bonus
    return tokens, n


if __name__ == "__main__":
    torch.manual_seed(0)
    B, gamma, V = 50000, 3, 6
    p = torch.softmax(torch.randn(gamma + 1, V), -1).expand(B, -1, -1)
    q = torch.softmax(torch.randn(gamma, V), -1).expand(B, -1, -1)
    drafts = torch.multinomial(q.reshape(-1, V), 1).view(B, gamma)
    tokens, n = speculative_accept(drafts, q, p)
    print("first emitted token:", (torch.bincount(tokens[:, 0], minlength=V) / B).numpy().round(3))
    print("target p_0         :", p[0, 0].numpy().round(3))
    alpha = torch.minimum(p[0, :gamma], q[0]).sum(-1)
    expected = 1 + alpha[0] + alpha[0] * alpha[1] + alpha[0] * alpha[1] * alpha[2]
    print(f"tokens per step: {n.float().mean():.3f}, expected {expected:.3f}")
