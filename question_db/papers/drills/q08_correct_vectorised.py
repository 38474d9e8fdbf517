"""CORRECT, another design: every position decided at once, first rejection by cumprod.

drills/8: the accept / reject step of speculative decoding. All γ uniforms are drawn up
front; the number of accepted drafts is the length of the leading run of acceptances, and
the last token comes from the residual at that position (or from p_γ if the run is full).
"""
import torch


def speculative_accept(draft_tokens, draft_probs, target_probs, generator=None):
    bsz, gamma = draft_tokens.shape
    idx = draft_tokens.unsqueeze(-1)
    p_x = target_probs[:, :gamma].gather(-1, idx).squeeze(-1)
    q_x = draft_probs.gather(-1, idx).squeeze(-1)
    u = torch.rand(bsz, gamma, generator=generator, device=draft_tokens.device)
    ok = u < (p_x / q_x).clamp(max=1.0)
    accepted = ok.long().cumprod(dim=1).sum(dim=1)          # leading run of acceptances
    rows = torch.arange(bsz, device=draft_tokens.device)
    at = accepted.clamp(max=gamma - 1)
    residual = (target_probs[rows, at] - draft_probs[rows, at]).clamp(min=0)
    full = accepted == gamma
    dist = torch.where(full[:, None], target_probs[:, gamma], residual)
    dist = torch.where(dist.sum(-1, keepdim=True) > 0, dist, target_probs[rows, at])
    last = torch.multinomial(dist, 1, generator=generator).squeeze(-1)
    tokens = torch.cat([draft_tokens, draft_tokens[:, :1]], dim=1).clone()
    tokens[rows, accepted] = last
    return tokens, accepted + 1
