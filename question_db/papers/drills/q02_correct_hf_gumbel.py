"""CORRECT, another convention: Hugging Face-style ascending sort and Gumbel-max sampling.

drills/2: temperature, top-k and top-p (nucleus) sampling.
The nucleus is found from the low end (drop tokens whose ascending cumulative mass stays
<= 1 - top_p, as transformers' TopPLogitsWarper does), and tokens are drawn with the
Gumbel-max trick: argmax(log p + G), G = -log(-log U), U ~ Uniform(0, 1).
"""
import torch


def filter_probs(logits, temperature=1.0, top_k=0, top_p=1.0):
    scores = logits.to(torch.float32) / temperature
    if top_k > 0 and top_k < scores.size(-1):
        threshold = scores.topk(top_k, dim=-1).values[..., -1, None]
        scores = torch.where(scores < threshold, torch.tensor(float("-inf")), scores)
    if top_p < 1.0:
        ascending, idx = scores.sort(dim=-1)
        cumulative = ascending.softmax(dim=-1).cumsum(dim=-1)
        remove = cumulative <= 1 - top_p
        remove[..., -1] = False  # the most probable token always stays
        scores = scores.masked_fill(remove.scatter(-1, idx, remove), float("-inf"))
    return scores.softmax(dim=-1)


def sample(logits, temperature=1.0, top_k=0, top_p=1.0, generator=None):
    probs = filter_probs(logits, temperature, top_k, top_p)
    u = torch.rand(probs.shape, generator=generator, device=probs.device)
    gumbel = -torch.log(-torch.log(u.clamp_min(1e-20)))
    return (probs.log() + gumbel).argmax(dim=-1)
