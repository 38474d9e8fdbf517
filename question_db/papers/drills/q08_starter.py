"""drills/8: the accept / reject step of speculative decoding.

Fill in the function. Looping over the batch or the positions, or vectorising everything,
is up to you; the checks test the distribution of what you emit.
"""
import torch


def speculative_accept(draft_tokens, draft_probs, target_probs, generator=None):
    """Decide which draft tokens to keep and emit one more token.

    Args:
        draft_tokens: (B, γ) int64, drafted by the small model (x_i ~ q_i).
        draft_probs: (B, γ, V) the small model's distributions q_i.
        target_probs: (B, γ + 1, V) the target model's distributions p_i at the same γ
            positions plus the one after them.
        generator: a torch.Generator; when given, all randomness comes from it.

    Returns:
        (tokens, n): tokens (B, γ + 1) int64 and n (B,) int64 in 1 .. γ + 1;
        tokens[b, :n[b]] is emitted: draft i is accepted with probability
        min(1, p_i(x_i) / q_i(x_i)); at the first rejection a token is drawn from
        norm(max(0, p_i - q_i)) and the step stops; if all γ drafts are accepted a bonus
        token is drawn from p_γ. Entries from n[b] on are ignored.
    """
    raise NotImplementedError
