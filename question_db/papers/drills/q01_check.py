"""Checks for drills/1: KV-cache attention step with grouped-query attention.

Contract: ``KVCache(batch_size, max_len, num_kv_heads, head_dim, *, dtype, device)`` with
``len()``; ``gqa_attention(q, k, v, cache)`` appends the T new keys/values and returns the
causal attention of the T new queries over every cached position; query head h reads kv head
h // (H / H_kv). Storage layout, loops vs. vectorised code and how heads are grouped are the
learner's choice: the checks compare outputs with SDPA and measure the cache's tensors.
"""
import torch
import torch.nn.functional as F

from _examdesk_harness import CheckFailed, tensor_mismatch, check

B, H, H_KV, D = 2, 8, 2, 16


def _inputs(ctx, seq, heads=H, kv_heads=H_KV, dtype=torch.float32, seed=0):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(B, heads, seq, D, generator=g)
    k = torch.randn(B, kv_heads, seq, D, generator=g)
    v = torch.randn(B, kv_heads, seq, D, generator=g)
    return [t.to(device=ctx.device, dtype=dtype) for t in (q, k, v)]


def _expected(q, k, v):
    """Full causal GQA in float64 through SDPA with k/v repeated per query head."""
    group = q.shape[1] // k.shape[1]
    k, v = (t.double().repeat_interleave(group, dim=1) for t in (k, v))
    return F.scaled_dot_product_attention(q.double(), k, v, is_causal=True)


def _cache(ctx, max_len, kv_heads=H_KV, dtype=torch.float32):
    cls = ctx.get("KVCache")
    try:
        return cls(B, max_len, kv_heads, D, dtype=dtype, device=ctx.device)
    except Exception as exc:
        raise CheckFailed(f"KVCache({B}, {max_len}, {kv_heads}, {D}, dtype={dtype}, "
                          f"device={ctx.device}) raised {type(exc).__name__}: {exc}")


def _run_chunks(ctx, q, k, v, chunks, max_len=64, dtype=torch.float32):
    """Feed the sequence in chunks of the given sizes; return the concatenated outputs."""
    attend = ctx.get("gqa_attention")
    cache = _cache(ctx, max_len, k.shape[1], dtype)
    outs, pos = [], 0
    for size in chunks:
        sl = slice(pos, pos + size)
        with torch.no_grad():
            out = attend(q[:, :, sl], k[:, :, sl], v[:, :, sl], cache)
        want_shape = (B, q.shape[1], size, D)
        if not isinstance(out, torch.Tensor) or tuple(out.shape) != want_shape:
            raise CheckFailed(f"a call with {size} new token(s) at position {pos} returned "
                              f"{getattr(out, 'shape', type(out).__name__)}, expected "
                              f"{want_shape}")
        outs.append(out)
        pos += size
        if len(cache) != pos:
            raise CheckFailed(f"after {pos} tokens len(cache) is {len(cache)}, expected {pos}",
                              chunks=list(chunks))
    return torch.cat(outs, dim=2)


def _compare(ctx, got, want, what, chunks, dtype=torch.float32):
    rtol, atol = ctx.tol(dtype)
    bad = tensor_mismatch(got, want, rtol=rtol, atol=atol * 10)
    if bad is None:
        return float((got.double() - want).abs().max())
    pos = bad["first_mismatch"][2]
    raise CheckFailed(f"{what}: output differs from full causal attention, first at position "
                      f"{pos} (chunks {list(chunks)}), max abs err {bad['max_abs_err']:.3g}",
                      **bad)


@check("prefill_matches_causal_attention",
       "one call on an empty cache (12 tokens, H=8, H_kv=2) equals causal SDPA with k/v "
       "repeated per query head; output dtype = input dtype (fp32; bf16 on CUDA)")
def check_prefill(ctx):
    errs = {}
    for dtype in ctx.dtypes:
        q, k, v = _inputs(ctx, 12, dtype=dtype)
        out = _run_chunks(ctx, q, k, v, [12], dtype=dtype)
        ctx.expect(out.dtype == dtype, f"{dtype} inputs gave a {out.dtype} output")
        errs[str(dtype)] = _compare(ctx, out, _expected(q, k, v), "prefill", [12], dtype)
    return {"max_abs_err": errs}


@check("decode_matches_full_forward",
       "prefill 5 tokens, then decode 9 tokens one at a time: the outputs equal one full "
       "causal forward over the 14 tokens")
def check_decode(ctx):
    chunks = [5] + [1] * 9
    q, k, v = _inputs(ctx, 14, seed=1)
    err = _compare(ctx, _run_chunks(ctx, q, k, v, chunks), _expected(q, k, v), "decode",
                   chunks)
    return {"max_abs_err": err, "steps": len(chunks)}


@check("chunked_appends",
       "uneven chunks (3, 1, 4, 2, 2): a chunk's queries see the whole cache plus the earlier "
       "tokens of their own chunk (causal mask offset by the cache length)")
def check_chunks(ctx):
    chunks = [3, 1, 4, 2, 2]
    q, k, v = _inputs(ctx, sum(chunks), seed=2)
    err = _compare(ctx, _run_chunks(ctx, q, k, v, chunks), _expected(q, k, v), "chunked",
                   chunks)
    return {"max_abs_err": err}


@check("query_head_grouping",
       "changing the values of kv head j changes exactly query heads j*g .. j*g+g-1 "
       "(g = H / H_kv = 4)")
def check_grouping(ctx):
    q, k, v = _inputs(ctx, 6, seed=3)
    group = H // H_KV
    base = _run_chunks(ctx, q, k, v, [6])
    for j in range(H_KV):
        v2 = v.clone()
        v2[:, j] += 3.0
        changed = (_run_chunks(ctx, q, k, v2, [6]) - base).abs().amax(dim=(0, 2, 3)) > 1e-4
        got = [h for h in range(H) if changed[h]]
        want = list(range(j * group, (j + 1) * group))
        if got != want:
            raise CheckFailed(f"changing kv head {j} changed query heads {got}, expected {want}: "
                              f"query head h must read kv head h // {group} (repeat_interleave "
                              f"order, not repeat/tile)", kv_head=j, changed=got, expected=want)
    return {"message": f"query heads grouped {group} per kv head, in order"}


def _tensor_bytes(obj, seen, depth=0):
    """Bytes of the distinct tensor storages reachable from ``obj`` (attributes, containers)."""
    if isinstance(obj, torch.Tensor):
        key = obj.untyped_storage().data_ptr()
        if key in seen:
            return 0
        seen.add(key)
        return obj.untyped_storage().nbytes()
    if depth > 3:
        return 0
    if isinstance(obj, dict):
        items = list(obj.values())
    elif isinstance(obj, (list, tuple)):
        items = list(obj)
    elif hasattr(obj, "__dict__") and not isinstance(obj, type):
        items = list(vars(obj).values())
    else:
        return 0
    return sum(_tensor_bytes(item, seen, depth + 1) for item in items)


@check("cache_stores_kv_heads",
       "a full cache holds at most 2·B·max_len·H_kv·D elements: k/v are cached per kv head, "
       "not repeated to H heads (GQA's memory saving)")
def check_cache_size(ctx):
    max_len = 16
    q, k, v = _inputs(ctx, max_len, seed=4)
    attend = ctx.get("gqa_attention")
    cache = _cache(ctx, max_len)
    with torch.no_grad():
        attend(q[:, :, :8], k[:, :, :8], v[:, :, :8], cache)
        for i in range(8, max_len):
            attend(q[:, :, i:i + 1], k[:, :, i:i + 1], v[:, :, i:i + 1], cache)
    found = _tensor_bytes(cache, set())
    per_elem = torch.empty((), dtype=torch.float32).element_size()
    bound = 2 * B * max_len * H_KV * D * per_elem
    ctx.expect(found > 0, "no tensors found on the cache object (its attributes, lists or "
                          "dicts): the checks measure the cache's memory there")
    ctx.expect(found <= bound * 1.01,
               f"the full cache holds {found} bytes, {found / bound:.2f}× the "
               f"2·B·max_len·H_kv·D·4 = {bound} bytes that GQA needs (H/H_kv = {H // H_KV}: "
               f"k/v repeated per query head before caching?)", bytes=found, bound=bound)
    return {"bytes": found, "bound": bound, "ratio": round(found / bound, 3)}


@check("head_counts",
       "MHA (H_kv = H) and MQA (H_kv = 1) work; H not a multiple of H_kv (6 vs 4) raises")
def check_head_counts(ctx):
    errs = {}
    for heads, kv_heads in [(4, 4), (4, 1)]:
        q, k, v = _inputs(ctx, 7, heads=heads, kv_heads=kv_heads, seed=5)
        got = _run_chunks(ctx, q, k, v, [3, 1, 3])
        errs[f"H={heads},H_kv={kv_heads}"] = _compare(ctx, got, _expected(q, k, v),
                                                      f"H={heads}, H_kv={kv_heads}", [3, 1, 3])
    q, k, v = _inputs(ctx, 3, heads=6, kv_heads=4, seed=6)
    cache = _cache(ctx, 8, 4)
    try:
        with torch.no_grad():
            out = ctx.get("gqa_attention")(q, k, v, cache)
    except Exception as exc:
        errs["H=6,H_kv=4"] = f"raised {type(exc).__name__}"
    else:
        raise CheckFailed(f"H=6 query heads with H_kv=4 kv heads returned a "
                          f"{tuple(out.shape)} tensor instead of raising: 6 heads cannot be "
                          f"split evenly into 4 groups")
    return {"results": errs}


@check("refuses_overflow", "appending past max_len raises instead of writing out of bounds")
def check_overflow(ctx):
    q, k, v = _inputs(ctx, 6, seed=7)
    cache = _cache(ctx, 4)
    try:
        with torch.no_grad():
            ctx.get("gqa_attention")(q, k, v, cache)
    except Exception as exc:
        return {"message": f"6 tokens into a max_len=4 cache raised {type(exc).__name__}"}
    raise CheckFailed("6 tokens were accepted by a cache with max_len=4")

