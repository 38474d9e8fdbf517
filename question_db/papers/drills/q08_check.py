"""Checks for drills/8: the accept / reject step of speculative decoding.

Contract: ``speculative_accept(draft_tokens, draft_probs, target_probs, generator=None)`` ->
(tokens (B, γ+1), n (B,)): accept draft i with probability min(1, p_i(x)/q_i(x)), resample
from norm(max(0, p_i - q_i)) at the first rejection, draw a bonus token from p_γ when all
are accepted. Loops or vectorised code and how the uniforms are drawn are the learner's
choice.

The statistical checks draw B = 20,000 steps with a fixed seed (drafts sampled by the
check from q) and use chi-square or z tests at significance 1e-6 each: a correct
implementation fails one of the five tests with probability about 5e-6 for a given random
stream.
"""
import math

import torch

from _examdesk_harness import CheckFailed, check

FN = "speculative_accept"
B, GAMMA, V = 20000, 3, 8
Z = 4.7534  # upper 1e-6 normal quantile
Z2 = 4.8916  # two-sided 1e-6


def _dists(ctx, seed=0):
    g = torch.Generator().manual_seed(seed)
    p = torch.softmax(1.5 * torch.randn(GAMMA + 1, V, generator=g), -1)
    q = torch.softmax(1.5 * torch.randn(GAMMA, V, generator=g), -1)
    return p.to(ctx.device), q.to(ctx.device)


def _drafts(q, rows, seed):
    g = torch.Generator(device=q.device).manual_seed(seed)
    return torch.stack([torch.multinomial(q[i].expand(rows, -1), 1, replacement=True,
                                          generator=g)[:, 0] for i in range(q.shape[0])], dim=1)


def _run(ctx, drafts, q, p, rows, seed=1234):
    fn = ctx.get(FN)
    qb = q.expand(rows, -1, -1)
    pb = p.expand(rows, -1, -1)
    with torch.no_grad():
        out = fn(drafts, qb, pb, generator=torch.Generator(device=drafts.device).manual_seed(seed))
    if not (isinstance(out, tuple) and len(out) == 2):
        raise CheckFailed(f"{FN} returned {type(out).__name__}, expected (tokens, n)")
    tokens, n = out
    if tuple(tokens.shape) != (rows, GAMMA + 1) or tuple(n.shape) != (rows,):
        raise CheckFailed(f"shapes: tokens {tuple(tokens.shape)}, n {tuple(n.shape)}; expected "
                          f"({rows}, {GAMMA + 1}) and ({rows},)")
    return tokens.long().cpu(), n.long().cpu()


def _chi2_limit(df):
    a = 2.0 / (9.0 * df)
    return df * (1 - a + Z * math.sqrt(a)) ** 3


def _chi2(samples, probs, what):
    probs = probs.double().cpu()
    counts = torch.bincount(samples, minlength=V).double()
    outside = [int(t) for t in range(V) if probs[t] == 0 and counts[t] > 0]
    if outside:
        raise CheckFailed(f"{what}: emitted token(s) {outside} that have probability 0 under "
                          f"the target", outside=outside)
    support = probs > 0
    expected = probs[support] * len(samples)
    stat = float(((counts[support] - expected) ** 2 / expected).sum())
    df = int(support.sum()) - 1
    limit = _chi2_limit(df)
    if stat > limit:
        raise CheckFailed(f"{what}: frequencies {[int(c) for c in counts]} vs expected "
                          f"{[round(float(e), 1) for e in probs * len(samples)]}: chi-square "
                          f"{stat:.1f} > {limit:.1f} ({df} df, significance 1e-6): the emitted "
                          f"token is not distributed as the target model's p",
                          chi2=stat, df=df, limit=limit)
    return {"chi2": round(stat, 2), "df": df, "n": len(samples)}


@check("emitted_prefix",
       "tokens (B, γ+1) int64, n in 1..γ+1; the first n-1 emitted tokens are the draft's own "
       "tokens, and the n-th is a valid token id")
def check_prefix(ctx):
    p, q = _dists(ctx)
    drafts = _drafts(q, 2000, seed=1)
    tokens, n = _run(ctx, drafts, q, p, 2000)
    ctx.expect(int(n.min()) >= 1 and int(n.max()) <= GAMMA + 1,
               f"n ranges {int(n.min())}..{int(n.max())}, expected 1..{GAMMA + 1}")
    d = drafts.cpu()
    for i in range(GAMMA):
        rows = n > i + 1
        bad = int((tokens[rows, i] != d[rows, i]).sum())
        ctx.expect(bad == 0, f"{bad} row(s) with n > {i + 1} emit a token at position {i} that "
                             f"is not the draft's token: accepted drafts are emitted as they are "
                             f"(did the step go on after a rejection?)", position=i, rows=bad)
    last = tokens[torch.arange(len(n)), n - 1]
    ctx.expect(bool(((last >= 0) & (last < V)).all()),
               "the n-th emitted token is not a valid token id for some rows")
    return {"mean_tokens": round(float(n.float().mean()), 3)}


@check("identical_models",
       "when q == p every draft is accepted (n = γ+1) and the bonus token follows p_γ "
       "(chi-square)")
def check_identical(ctx):
    p, _ = _dists(ctx)
    q = p[:GAMMA].clone()
    drafts = _drafts(q, B, seed=2)
    tokens, n = _run(ctx, drafts, q, p, B)
    short = int((n != GAMMA + 1).sum())
    ctx.expect(short == 0, f"with identical draft and target {short} of {B} steps stopped "
                           f"early or emitted no bonus token (n != {GAMMA + 1}): p/q = 1 must "
                           f"always accept, and a full acceptance adds one token from p_γ",
               n_counts=torch.bincount(n, minlength=GAMMA + 2).tolist())
    return _chi2(tokens[:, GAMMA], p[GAMMA], "bonus token (q == p)")


@check("impossible_draft_rejected",
       "a draft token with target probability 0 is always rejected and never emitted")
def check_impossible(ctx):
    p, q = _dists(ctx)
    p = p.clone()
    x = int(q[0].argmax())
    p[0, x] = 0.0
    p[0] /= p[0].sum()
    drafts = _drafts(q, 4000, seed=3)
    drafts[:, 0] = x
    tokens, n = _run(ctx, drafts, q, p, 4000)
    ctx.expect(bool((n == 1).all()), f"{int((n != 1).sum())} step(s) accepted draft token {x} "
                                     f"although the target gives it probability 0")
    ctx.expect(bool((tokens[:, 0] != x).all()),
               f"the resampled token equals the rejected one ({x}) in "
               f"{int((tokens[:, 0] == x).sum())} row(s): resample from max(0, p - q), which is "
               f"0 there")
    return {"rows": 4000}


@check("first_token_is_target_distributed",
       "over 20,000 steps with drafts from q, the first emitted token follows p_0 "
       "(chi-square, significance 1e-6)")
def check_first(ctx):
    p, q = _dists(ctx)
    tokens, _ = _run(ctx, _drafts(q, B, seed=4), q, p, B)
    tv = float(0.5 * (p[0] - q[0]).abs().sum())
    return {**_chi2(tokens[:, 0], p[0], "first token"), "tv_p0_q0": round(tv, 3)}


@check("later_tokens_target_distributed",
       "given the drafts before it were accepted, the token at position 1 follows p_1 and at "
       "position 2 follows p_2 (chi-square on those steps)")
def check_later(ctx):
    p, q = _dists(ctx, seed=5)
    tokens, n = _run(ctx, _drafts(q, B, seed=6), q, p, B)
    out = {}
    for i in (1, 2):
        rows = n > i  # drafts 0..i-1 accepted, so position i was emitted
        if int(rows.sum()) < 500:
            raise CheckFailed(f"only {int(rows.sum())} of {B} steps reached position {i}; "
                              f"the acceptance rate is far too low")
        out[f"position_{i}"] = _chi2(tokens[rows, i], p[i], f"position {i}")
    return out


@check("expected_tokens_per_step",
       "mean tokens per step equals 1 + α0 + α0α1 + α0α1α2 with αi = Σ min(p_i, q_i) "
       "(z-test, significance 1e-6)")
def check_rate(ctx):
    p, q = _dists(ctx, seed=7)
    _, n = _run(ctx, _drafts(q, B, seed=8), q, p, B)
    alpha = torch.minimum(p[:GAMMA], q).sum(-1).double().cpu()
    expected = float(1 + alpha[0] + alpha[0] * alpha[1] + alpha[0] * alpha[1] * alpha[2])
    mean = float(n.double().mean())
    se = float(n.double().std()) / math.sqrt(B)
    z = (mean - expected) / max(se, 1e-12)
    ctx.expect(abs(z) < Z2, f"mean tokens per step {mean:.4f}, expected {expected:.4f} "
                            f"(z = {z:.1f}): acceptance probability must be min(1, p/q)",
               mean=mean, expected=expected, z=z, alphas=[round(float(a), 4) for a in alpha])
    return {"mean": round(mean, 4), "expected": round(expected, 4), "z": round(z, 2)}


@check("seeded_generator",
       "the same generator seed gives the same tokens whatever the global RNG did in between")
def check_seed(ctx):
    p, q = _dists(ctx)
    drafts = _drafts(q, 500, seed=9)
    torch.rand(13)
    a = _run(ctx, drafts, q, p, 500, seed=77)
    torch.rand(29)
    b = _run(ctx, drafts, q, p, 500, seed=77)
    same = bool(torch.equal(a[0], b[0]) and torch.equal(a[1], b[1]))
    ctx.expect(same, "two runs with generator seed 77 differ: take every random number from "
                     "`generator` (torch.rand / torch.multinomial accept generator=)")
    return {"message": "reproducible under a seed"}
