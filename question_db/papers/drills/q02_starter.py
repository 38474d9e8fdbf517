"""drills/2: temperature, top-k and top-p (nucleus) sampling.

Fill in both functions (plain PyTorch). The checks call exactly this interface; how you
find the kept sets and how you draw the samples is up to you.
"""
import torch


def filter_probs(logits, temperature=1.0, top_k=0, top_p=1.0):
    """The distribution that sampling draws from.

    Args:
        logits: (..., V) any float dtype.
        temperature: > 0; logits are divided by it first.
        top_k: keep the k largest logits and every token tied with the k-th; 0 or >= V: all.
        top_p: then, on the renormalised top-k distribution, keep the smallest set of most
            probable tokens whose total probability reaches top_p (the token that crosses
            top_p is kept; at least one token always); 1.0: all.

    Returns:
        (..., V) float32 (or float64): zero outside the kept set, rows sum to 1.
    """
    raise NotImplementedError


def sample(logits, temperature=1.0, top_k=0, top_p=1.0, generator=None):
    """Draw one token id per row from ``filter_probs(logits, temperature, top_k, top_p)``.

    Returns:
        (...,) int64. With a ``torch.Generator`` all randomness comes from it (same seed,
        same tokens); with None, from the global RNG.
    """
    raise NotImplementedError
