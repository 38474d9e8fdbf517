"""Checks for drills/2: temperature, top-k and top-p sampling.

Contract: ``filter_probs(logits, temperature, top_k, top_p)`` returns the distribution sampled
from (temperature, then top-k keeping ties, renormalise, then the smallest top-p nucleus
including the crossing token, renormalise); ``sample(..., generator=None)`` draws token ids
from it. How the sets are found (sort, topk, cumsum direction) and how sampling is done
(multinomial, inverse CDF, Gumbel-max) is the learner's choice.

Statistical checks use a fixed seed and a chi-square test at significance 1e-6: a correct
sampler fails one of them with probability about 2e-6 for a given random stream.
"""
import math

import torch

from _examdesk_harness import CheckFailed, tensor_mismatch, check

ALPHA_Z = 4.7534  # upper 1e-6 quantile of the standard normal


def _ref_probs(logits, temperature=1.0, top_k=0, top_p=1.0):
    """float64 reference, written as plainly as possible."""
    scores = logits.double() / temperature
    vocab = scores.shape[-1]
    if 0 < top_k < vocab:
        kth = scores.sort(dim=-1, descending=True).values[..., top_k - 1:top_k]
        scores = torch.where(scores >= kth, scores, torch.full_like(scores, -math.inf))
    probs = scores.softmax(-1)
    if top_p < 1.0:
        sorted_p, order = probs.sort(dim=-1, descending=True)
        before = sorted_p.cumsum(-1) - sorted_p
        keep_sorted = before < top_p
        keep_sorted[..., 0] = True
        keep = torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)
        probs = torch.where(keep, probs, torch.zeros_like(probs))
        probs = probs / probs.sum(-1, keepdim=True)
    return probs


def _probs(ctx, logits, **kw):
    fn = ctx.get("filter_probs")
    with torch.no_grad():
        out = fn(logits, **kw)
    if not isinstance(out, torch.Tensor) or out.shape != logits.shape:
        raise CheckFailed(f"filter_probs(logits of shape {tuple(logits.shape)}, {kw}) returned "
                          f"{getattr(out, 'shape', type(out).__name__)}, expected the same shape")
    return out


def _logits(ctx, rows, vocab, seed, scale=2.0):
    g = torch.Generator().manual_seed(seed)
    return (scale * torch.randn(rows, vocab, generator=g)).to(ctx.device)


def _row_report(got, want, row, kw):
    kept_got = int((got[row] > 0).sum())
    kept_want = int((want[row] > 0).sum())
    return (f"{kw}: row {row} keeps {kept_got} token(s), expected {kept_want}; "
            f"max abs err {float((got[row].double() - want[row].cpu()).abs().max()):.3g}")


def _compare(got, want, kw):
    bad = tensor_mismatch(got.double().cpu(), want.cpu(), rtol=1e-4, atol=1e-6)
    if bad is not None:
        row = bad["first_mismatch"][0] if "first_mismatch" in bad else 0
        raise CheckFailed(_row_report(got.cpu(), want.cpu(), row, kw), **bad)


SETTINGS = [dict(temperature=1.0, top_k=0, top_p=1.0), dict(temperature=0.7, top_k=10),
            dict(temperature=1.3, top_p=0.8), dict(temperature=0.8, top_k=20, top_p=0.9),
            dict(temperature=2.0, top_k=5, top_p=0.5)]


@check("distribution_matches",
       "filter_probs equals the reference on random logits (6 rows, V = 50) for five "
       "(temperature, top_k, top_p) settings; rows sum to 1, zero outside the kept set")
def check_distribution(ctx):
    logits = _logits(ctx, 6, 50, seed=0)
    for kw in SETTINGS:
        got = _probs(ctx, logits, **kw)
        ctx.expect(got.dtype in (torch.float32, torch.float64),
                   f"{kw}: probabilities are {got.dtype}, expected float32 or float64")
        sums = got.double().sum(-1)
        ctx.expect(bool(((sums - 1).abs() < 1e-5).all()),
                   f"{kw}: rows sum to {float(sums.min()):.6f} .. {float(sums.max()):.6f}",
                   row_sums=[round(float(s), 6) for s in sums])
        _compare(got, _ref_probs(logits, **kw), kw)
    return {"settings": len(SETTINGS)}


@check("top_k_keeps_ties",
       "top_k keeps every token tied with the k-th largest logit; k = 1 keeps the argmax; "
       "k = 0 or k >= V keeps all")
def check_top_k(ctx):
    logits = torch.tensor([[3.0, 2.0, 0.0, 2.0, 1.0, 2.0]], device=ctx.device)
    got = _probs(ctx, logits, top_k=2)
    kept = sorted(int(i) for i in (got[0] > 0).nonzero().flatten())
    ctx.expect(kept == [0, 1, 3, 5],
               f"logits {logits[0].tolist()} with top_k=2 kept tokens {kept}, expected "
               f"[0, 1, 3, 5]: the three tokens tied at the 2nd-largest logit 2.0 all stay",
               kept=kept)
    _compare(got, _ref_probs(logits, top_k=2), {"top_k": 2})
    rand = _logits(ctx, 4, 30, seed=1)
    one = _probs(ctx, rand, top_k=1)
    ctx.expect(bool((one.argmax(-1) == rand.argmax(-1)).all() and (one.max(-1).values == 1).all()),
               "top_k=1 must put all mass on the argmax")
    for k in (0, 30, 100):
        _compare(_probs(ctx, rand, top_k=k), _ref_probs(rand), {"top_k": k})
    return {"kept_with_ties": kept}


@check("top_p_smallest_set",
       "top_p keeps the smallest set of most probable tokens whose mass reaches p (the token "
       "that crosses p included); p -> 0 keeps only the argmax, p = 1 keeps all")
def check_top_p(ctx):
    logits = _logits(ctx, 8, 40, seed=2)
    for p in (0.3, 0.75, 0.95):
        got = _probs(ctx, logits, top_p=p)
        full = logits.double().softmax(-1).cpu()
        for row in range(logits.shape[0]):
            sorted_p = full[row].sort(descending=True).values
            need = int((sorted_p.cumsum(0) < p).sum()) + 1
            kept = int((got[row] > 0).sum())
            if kept != need:
                mass = float(full[row][got[row].cpu() > 0].sum())
                raise CheckFailed(
                    f"top_p={p}: row {row} keeps {kept} token(s) with mass {mass:.4f}; the "
                    f"smallest set reaching {p} has {need} (mass "
                    f"{float(sorted_p[:need].sum()):.4f}): keep the token that crosses p",
                    kept=kept, expected=need, kept_mass=mass)
    tiny = _probs(ctx, logits, top_p=1e-8)
    ctx.expect(bool(((tiny > 0).sum(-1) == 1).all() and (tiny.argmax(-1) == logits.argmax(-1)).all()),
               "top_p=1e-8 must keep exactly one token, the argmax (never an empty set)",
               kept=[int(n) for n in (tiny > 0).sum(-1)])
    _compare(_probs(ctx, logits, top_p=1.0), _ref_probs(logits), {"top_p": 1.0})
    return {"message": "nucleus sizes right for p = 0.3, 0.75, 0.95, 1e-8, 1"}


@check("temperature_first",
       "the temperature divides the logits before filtering: at T = 0.5 and T = 2 the "
       "nucleus is taken from the tempered distribution")
def check_temperature(ctx):
    logits = _logits(ctx, 6, 40, seed=3)
    for t in (0.5, 2.0):
        _compare(_probs(ctx, logits, temperature=t), _ref_probs(logits, temperature=t),
                 {"temperature": t})
        got = _probs(ctx, logits, temperature=t, top_p=0.7)
        want = _ref_probs(logits, temperature=t, top_p=0.7)
        kept, need = (got > 0).sum(-1).tolist(), (want > 0).sum(-1).tolist()
        if kept != need:
            raise CheckFailed(f"temperature={t}, top_p=0.7: rows keep {kept} tokens, expected "
                              f"{need} (nucleus of the distribution after dividing by T)",
                              kept=kept, expected=need)
        _compare(got, want, {"temperature": t, "top_p": 0.7})
    return {"message": "tempered before filtering"}


@check("top_k_then_top_p",
       "top-p is taken on the renormalised top-k distribution: p = (0.5, 0.3, 0.2), "
       "top_k=2, top_p=0.6 keeps one token (0.5/0.8 = 0.625 >= 0.6)")
def check_order(ctx):
    logits = torch.tensor([[0.5, 0.3, 0.2]], dtype=torch.float64, device=ctx.device).log()
    got = _probs(ctx, logits.float(), top_k=2, top_p=0.6)
    kept = int((got[0] > 0).sum())
    ctx.expect(kept == 1, f"kept {kept} tokens, expected 1: after top_k=2 the distribution is "
                          f"(0.625, 0.375), whose 0.6-nucleus is the first token alone",
               probs=[round(float(x), 4) for x in got[0]])
    rand = _logits(ctx, 6, 40, seed=4)
    _compare(_probs(ctx, rand, top_k=12, top_p=0.6), _ref_probs(rand, top_k=12, top_p=0.6),
             {"top_k": 12, "top_p": 0.6})
    return {"kept": kept}


def _chi2_limit(df):
    """Wilson-Hilferty approximation of the chi-square upper quantile at 1e-6."""
    a = 2.0 / (9.0 * df)
    return df * (1 - a + ALPHA_Z * math.sqrt(a)) ** 3


@check("samples_follow_distribution",
       "20,000 draws from a batch whose rows are 4 permutations of one logit vector "
       "(T=0.8, top_k=8, top_p=0.9): never outside the kept set, and frequencies pass a "
       "chi-square test at significance 1e-6 (fixed seed)")
def check_samples(ctx):
    fn = ctx.get("sample")
    vocab, per_group = 12, 5000
    base = _logits(ctx, 1, vocab, seed=5, scale=0.7)[0]
    perms = [torch.randperm(vocab, generator=torch.Generator().manual_seed(10 + i))
             for i in range(4)]
    rows = torch.stack([base[p.to(ctx.device)] for p in perms])
    logits = rows.repeat_interleave(per_group, dim=0)
    kw = dict(temperature=0.8, top_k=8, top_p=0.9)
    torch.manual_seed(0)
    with torch.no_grad():
        draws = fn(logits, generator=torch.Generator(device=ctx.device).manual_seed(1234), **kw)
    ctx.expect(isinstance(draws, torch.Tensor) and tuple(draws.shape) == (logits.shape[0],),
               f"sample returned {getattr(draws, 'shape', type(draws).__name__)}, expected "
               f"({logits.shape[0]},)")
    ctx.expect(draws.dtype == torch.int64, f"token ids are {draws.dtype}, expected int64")
    draws = draws.cpu()
    stat, df, worst = 0.0, 0, (0.0, None)
    for i in range(4):
        want = _ref_probs(rows[i:i + 1], **kw)[0].cpu()
        got = draws[i * per_group:(i + 1) * per_group]
        outside = [int(t) for t in got.unique() if want[int(t)] == 0]
        if outside:
            raise CheckFailed(f"row group {i}: sampled token(s) {outside} that the filter "
                              f"removed (probability 0)", outside=outside)
        counts = torch.bincount(got, minlength=vocab).double()
        support = want > 0
        expected = want[support] * per_group
        part = float(((counts[support] - expected) ** 2 / expected).sum())
        stat += part
        df += int(support.sum()) - 1
        if part > worst[0]:
            worst = (part, i, [int(c) for c in counts[support]],
                     [round(float(e), 1) for e in expected])
    limit = _chi2_limit(df)
    if stat > limit:
        raise CheckFailed(f"frequencies do not follow the filtered distribution: chi-square "
                          f"{stat:.1f} on {df} degrees of freedom, limit {limit:.1f} "
                          f"(significance 1e-6); worst row group {worst[1]}: counts "
                          f"{worst[2]} vs expected {worst[3]}",
                          chi2=stat, df=df, limit=limit)
    return {"chi2": round(stat, 2), "df": df, "limit": round(limit, 2)}


@check("seeded_generator",
       "the same generator seed gives the same tokens whatever the global RNG did in between; "
       "another seed gives different tokens")
def check_seed(ctx):
    fn = ctx.get("sample")
    logits = _logits(ctx, 1000, 20, seed=6, scale=0.5)

    def draw(seed):
        torch.rand(17)  # move the global RNG: only the generator may matter
        with torch.no_grad():
            return fn(logits, temperature=1.0, generator=torch.Generator(
                device=ctx.device).manual_seed(seed)).cpu()

    a, b, c = draw(7), draw(7), draw(8)
    same = int((a == b).sum())
    ctx.expect(same == a.numel(), f"two draws with generator seed 7 agree on only {same} of "
                                  f"{a.numel()} tokens: take randomness from `generator`",
               agree=same)
    ctx.expect(int((a != c).sum()) > 0, "seeds 7 and 8 gave identical draws for 1000 rows",
               agree=int((a == c).sum()))
    shaped = fn(logits.view(10, 100, 20), generator=torch.Generator(
        device=ctx.device).manual_seed(0))
    ctx.expect(tuple(shaped.shape) == (10, 100), f"logits (10, 100, V) gave samples of shape "
                                                 f"{tuple(shaped.shape)}, expected (10, 100)")
    return {"agree_same_seed": same, "differ_other_seed": int((a != c).sum())}


@check("half_precision_logits",
       "bf16 and fp16 logits work and give probabilities close to those of their fp32 values")
def check_half(ctx):
    logits = _logits(ctx, 4, 30, seed=8)
    for dtype in (torch.bfloat16, torch.float16):
        low = logits.to(dtype)
        got = _probs(ctx, low, temperature=0.9, top_k=10, top_p=0.9)
        want = _ref_probs(low.float(), temperature=0.9, top_k=10, top_p=0.9)
        bad = tensor_mismatch(got.double().cpu(), want.cpu(), rtol=1e-2, atol=1e-3)
        if bad is not None:
            raise CheckFailed(f"{dtype} logits: probabilities differ from the fp32 computation "
                              f"(max abs err {bad.get('max_abs_err', float('nan')):.3g})", **bad)
    return {"message": "bf16 and fp16 logits ok"}
