"""The check machinery itself: the harness's dtype hygiene, the flash_attn stand-in package,
the attention tap (also around a real flash_attn package, imitated here: it has no CPU
build) and the bank's list of correct solutions."""
from __future__ import annotations

import importlib
import sys
import types

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from question_db.bank import load_bank
from question_db.checks.inprocess import ensure_flash_attn, harness_module

ensure_flash_attn()
harness = harness_module()
layouts = sys.modules["_examdesk_layouts"]


class ComplexBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("freqs_cis", torch.polar(torch.ones(3), torch.arange(3.0)))
        self.register_buffer("positions", torch.arange(3))


def test_cast_floating_keeps_complex_and_integer_buffers():
    m = harness.cast_floating_(ComplexBuffer(), torch.bfloat16)
    assert m.lin.weight.dtype == torch.bfloat16 and isinstance(m.lin.weight, nn.Parameter)
    assert m.freqs_cis.dtype == torch.complex64
    assert torch.allclose(m.freqs_cis.imag, torch.arange(3.0).sin())
    assert m.positions.dtype == torch.int64


def test_module_to_would_drop_the_imaginary_part():
    """Regression (issue 12): why the checks never call Module.to(dtype) on a learner's layer."""
    with pytest.warns(UserWarning):
        m = ComplexBuffer().to(torch.bfloat16)
    assert not m.freqs_cis.is_complex()


def test_standin_is_a_package_with_the_public_entry_points():
    fa = importlib.import_module("flash_attn")
    assert fa.__examdesk_standin__
    from flash_attn.flash_attn_interface import (flash_attn_func, flash_attn_kvpacked_func,
                                                 flash_attn_qkvpacked_func,
                                                 flash_attn_varlen_func)
    from flash_attn.layers.rotary import RotaryEmbedding, apply_rotary_emb

    torch.manual_seed(0)
    q, k, v = (torch.randn(2, 6, 4, 8) for _ in range(3))
    want = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2),
                                          v.transpose(1, 2), is_causal=True).transpose(1, 2)
    assert torch.allclose(flash_attn_func(q, k, v, causal=True), want, atol=1e-6)
    assert torch.allclose(flash_attn_qkvpacked_func(torch.stack((q, k, v), 2), causal=True),
                          want, atol=1e-6)
    assert torch.allclose(flash_attn_kvpacked_func(q, torch.stack((k, v), 2), causal=True),
                          want, atol=1e-6)
    cu = torch.tensor([0, 6, 12], dtype=torch.int32)
    packed = flash_attn_varlen_func(q.reshape(12, 4, 8), k.reshape(12, 4, 8),
                                    v.reshape(12, 4, 8), cu, cu, 6, 6, causal=True)
    assert torch.allclose(packed.reshape(2, 6, 4, 8), want, atol=1e-6)
    uneven = torch.tensor([0, 2, 12], dtype=torch.int32)  # sequences of 2 and 10 tokens
    out = flash_attn_varlen_func(q.reshape(12, 4, 8), k.reshape(12, 4, 8),
                                 v.reshape(12, 4, 8), uneven, uneven, 10, 10, causal=True)
    first = flash_attn_func(q[:1, :2], k[:1, :2], v[:1, :2], causal=True)[0]
    assert torch.allclose(out[:2], first, atol=1e-6)
    # Rotary: rotate-half by default, interleaved on request, as flash-attn documents.
    cos, sin = torch.randn(6, 4).cos(), torch.randn(6, 4).sin()
    x = torch.randn(2, 6, 4, 8)
    half = torch.cat((x[..., :4] * cos[:, None] - x[..., 4:] * sin[:, None],
                      x[..., :4] * sin[:, None] + x[..., 4:] * cos[:, None]), -1)
    assert torch.allclose(apply_rotary_emb(x, cos, sin), half, atol=1e-6)
    qkv = torch.stack((q, k, v), 2)
    rotated = RotaryEmbedding(8)(qkv.clone())
    assert torch.equal(rotated[:, :, 2], v) and not torch.equal(rotated[:, :, 0], q)


def _fake_real_flash_attn():
    """A package laid out like the real flash-attn (no stand-in marker); rejects fp32 like the
    CUDA kernel. The real one cannot be installed here (no CPU build)."""
    calls = []
    sdpa = F.scaled_dot_product_attention  # the real kernel is not SDPA: bind it now

    def flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False, **kw):
        if q.dtype == torch.float32:
            raise RuntimeError("FlashAttention only support fp16 and bf16 data type")
        calls.append("real")
        qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))
        return sdpa(qt, kt, vt, is_causal=causal, scale=softmax_scale).transpose(1, 2)

    def flash_attn_qkvpacked_func(qkv, dropout_p=0.0, softmax_scale=None, causal=False, **kw):
        return flash_attn_func(*qkv.unbind(2), dropout_p, softmax_scale, causal)

    interface = types.ModuleType("flash_attn.flash_attn_interface")
    interface.flash_attn_func = flash_attn_func
    interface.flash_attn_qkvpacked_func = flash_attn_qkvpacked_func
    package = types.ModuleType("flash_attn")
    package.__path__ = []
    package.__version__ = "2.8.3"
    package.flash_attn_func = flash_attn_func
    package.flash_attn_qkvpacked_func = flash_attn_qkvpacked_func
    package.flash_attn_interface = interface
    return package, interface, calls


@pytest.fixture
def real_flash_attn(monkeypatch):
    package, interface, calls = _fake_real_flash_attn()
    for name in [n for n in sys.modules if n == "flash_attn" or n.startswith("flash_attn.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "flash_attn", package)
    monkeypatch.setitem(sys.modules, "flash_attn.flash_attn_interface", interface)
    return package, interface, calls


def test_tap_sees_and_routes_calls_to_a_real_flash_attn(real_flash_attn):
    package, interface, calls = real_flash_attn
    assert layouts.flash_attn_kind() == "real"
    ns = {"flash_attn_qkvpacked_func": interface.flash_attn_qkvpacked_func,
          "__name__": "learner"}
    qkv = torch.randn(1, 5, 3, 2, 8, dtype=torch.bfloat16)
    with layouts.AttentionTap(ns) as tap:
        ns["flash_attn_qkvpacked_func"](qkv, causal=True)   # the learner's imported name
        package.flash_attn_func(*qkv.unbind(2), causal=True)  # through the module
    assert [c["entry"] for c in tap.calls] == ["flash_attn_qkvpacked_func", "flash_attn_func"]
    assert calls == ["real", "real"] and tap.calls[0]["q"].shape == (1, 5, 2, 8)
    routed = []

    def route(q, k, v, **kw):
        routed.append(q.dtype)
        return layouts.math_attention(q, k, v, **kw)

    x = torch.randn(1, 5, 3, 2, 8, dtype=torch.float64)
    with layouts.AttentionTap(ns, record=False, route=route):
        ns["flash_attn_qkvpacked_func"](x, causal=True)  # fp64: only the route can take it
    assert routed == [torch.float64] and calls == ["real", "real"]
    # Everything is restored afterwards.
    assert ns["flash_attn_qkvpacked_func"] is interface.flash_attn_qkvpacked_func
    assert package.flash_attn_func is interface.flash_attn_func


def test_tap_sees_sdpa_and_restores_it():
    original = F.scaled_dot_product_attention
    q = torch.randn(1, 2, 4, 8)
    with layouts.AttentionTap({"__name__": "learner"}) as tap:
        F.scaled_dot_product_attention(q, q, q, is_causal=True)
    assert tap.calls[0]["entry"] == "scaled_dot_product_attention"
    assert tap.calls[0]["q"].shape == (1, 4, 2, 8)  # reported in (batch, seq, heads, dim)
    assert F.scaled_dot_product_attention is original


def test_param_trace_orientation_bias_and_order():
    class Raw(nn.Module):
        def __init__(self):
            super().__init__()
            self.w_in = nn.Parameter(torch.randn(4, 6))   # used as x @ w_in: (in, out)
            self.b_in = nn.Parameter(torch.randn(6))
            self.lin = nn.Linear(6, 4)                    # (out, in)
            self.w_out = nn.Parameter(torch.randn(3, 4))  # used as x @ w_out.T: (out, in)

        def forward(self, x):
            return self.lin(torch.relu(x @ self.w_in + self.b_in)) @ self.w_out.T

    m = Raw()
    params = dict(m.named_parameters())
    trace = layouts.ParamTrace(params)
    with trace:
        m(torch.randn(2, 4))
    assert trace.stored_in_out == {"w_in": True, "lin.weight": False, "w_out": False}
    assert trace.bias_of == {"w_in": "b_in", "lin.weight": "lin.bias"}
    assert trace.first["w_in"] < trace.first["lin.weight"]
    assert [kind for _, kind, _ in trace.events] == ["relu"]


def test_bank_lists_correct_solutions(pack_copy):
    toml = pack_copy / "001" / "q29.toml"
    text = toml.read_text("utf-8")
    toml.write_text(text.replace('    "q29_correct_hf_names.py",\n',
                                 '    "q29_correct_hf_names.py",\n    "q29_wrong_no_rope.py",\n'
                                 '    "missing.py",\n', 1), "utf-8")
    bank = load_bank([pack_copy], include_bundled=False)
    messages = [str(p) for p in bank.problems]
    assert any(":001/29:code.correct: file not found" in m for m in messages), messages
    assert any(":001/29:code.correct: listed as both correct and wrong: q29_wrong_no_rope.py"
               in m for m in messages), messages
    bundled = load_bank().question("001/29").code
    assert [p.name for p in bundled.correct][:2] == ["q29_correct_rotate_half.py",
                                                     "q29_correct_fused_qkv_nobias.py"]


def test_a_kept_sdpa_reference_stays_observable():
    """A layer built inside a tap may keep F.scaled_dot_product_attention as an attribute:
    later taps still see its calls, and outside a tap it just computes."""
    ns = {"__name__": "learner"}
    with layouts.AttentionTap(ns, record=False):
        kept = F.scaled_dot_product_attention
    q = torch.randn(1, 2, 3, 4)
    assert torch.allclose(kept(q, q, q), layouts._SDPA(q, q, q))
    with layouts.AttentionTap(ns) as tap:
        kept(q, q, q, is_causal=True)
    assert [c["entry"] for c in tap.calls] == ["scaled_dot_product_attention"]
    assert F.scaled_dot_product_attention is layouts._SDPA


def test_standin_outputs_are_contiguous_like_the_real_kernel():
    """A learner's out.view(b, s, -1) right after the call must work (issue 29)."""
    from flash_attn import (flash_attn_func, flash_attn_qkvpacked_func, flash_attn_varlen_func,
                            flash_attn_with_kvcache)

    torch.manual_seed(0)
    q, k, v = (torch.randn(2, 5, 4, 8) for _ in range(3))
    for out in (flash_attn_func(q, k, v, causal=True), flash_attn_func(q, k, v, softcap=5.0),
                flash_attn_qkvpacked_func(torch.stack((q, k, v), 2)),
                flash_attn_with_kvcache(q, k, v, causal=True)):
        assert out.is_contiguous() and out.view(2, 5, -1).shape == (2, 5, 32)
    one = torch.tensor([0, 5], dtype=torch.int32)  # one sequence: the batched path
    for cu, n in ((one, 5), (torch.tensor([0, 2, 5], dtype=torch.int32), 3)):
        out = flash_attn_varlen_func(q[0], k[0], v[0], cu, cu, n, n, causal=True)
        assert out.is_contiguous() and out.view(5, -1).shape == (5, 32)
    with layouts.AttentionTap({}, route=lambda q, k, v, **kw: torch.zeros_like(q).transpose(
            1, 2).contiguous().transpose(1, 2)):
        routed = flash_attn_func(q, k, v)
    assert routed.is_contiguous() and routed.view(2, 5, -1).shape == (2, 5, 32)


def test_standin_kvcache_appends_in_place_and_matches_full_attention():
    from flash_attn import flash_attn_func, flash_attn_with_kvcache
    from flash_attn.layers.rotary import apply_rotary_emb

    torch.manual_seed(1)
    b, h, hk, d, cap = 2, 4, 2, 8, 10
    q_all, k_all, v_all = (torch.randn(b, 7, n, d) for n in (h, hk, hk))
    cos, sin = (f(torch.randn(cap, d // 2)) for f in (torch.cos, torch.sin))
    k_cache, v_cache = torch.zeros(b, cap, hk, d), torch.zeros(b, cap, hk, d)
    lens = torch.tensor([3, 5], dtype=torch.int32)
    # Prefill: rotated keys at their positions; then one decoding step for each sequence.
    for i, n in enumerate(lens.tolist()):
        k_cache[i, :n] = apply_rotary_emb(k_all[i:i + 1, :n], cos, sin, interleaved=True)[0]
        v_cache[i, :n] = v_all[i, :n]
    q1, k1, v1 = (torch.stack([t[i, n] for i, n in enumerate(lens.tolist())]).unsqueeze(1)
                  for t in (q_all, k_all, v_all))
    out = flash_attn_with_kvcache(q1, k_cache, v_cache, k=k1, v=v1, rotary_cos=cos,
                                  rotary_sin=sin, cache_seqlens=lens, causal=True)
    assert out.shape == (b, 1, h, d) and out.is_contiguous()
    for i, n in enumerate(lens.tolist()):
        kr = apply_rotary_emb(k_all[i:i + 1, :n + 1], cos, sin, interleaved=True)
        assert torch.allclose(k_cache[i, :n + 1], kr[0], atol=1e-6)  # appended in place
        assert torch.allclose(v_cache[i, n], v_all[i, n])
        assert not k_cache[i, n + 1:].any()
        qr = apply_rotary_emb(q_all[i:i + 1, n:n + 1], cos[n:], sin[n:], interleaved=True)
        want = flash_attn_func(qr, kr, v_all[i:i + 1, :n + 1], causal=True)
        assert torch.allclose(out[i:i + 1], want, atol=1e-5)
    # cache_batch_idx picks cache rows; without cache_seqlens the whole cache is attended.
    full = flash_attn_with_kvcache(q_all[:1, :2], k_cache, v_cache,
                                   cache_batch_idx=torch.tensor([1], dtype=torch.int32))
    assert torch.allclose(full, flash_attn_func(q_all[:1, :2], k_cache[1:], v_cache[1:]),
                          atol=1e-6)
    with pytest.raises(NotImplementedError, match="block_table"):
        flash_attn_with_kvcache(q1, k_cache, v_cache, block_table=torch.zeros(2, 1))


def test_standin_bert_padding_round_trips_with_gradients():
    from flash_attn import flash_attn_func, flash_attn_varlen_func
    from flash_attn.bert_padding import index_first_axis, pad_input, unpad_input

    torch.manual_seed(2)
    mask = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], dtype=torch.bool)
    x = torch.randn(2, 5, 4, 8, requires_grad=True)
    unpadded, indices, cu, max_len, used = unpad_input(x, mask)
    assert unpadded.shape == (8, 4, 8) and max_len == 5
    assert cu.tolist() == [0, 3, 8] and cu.dtype == torch.int32 and used.tolist() == [3, 5]
    assert torch.equal(index_first_axis(x.reshape(10, 4, 8), indices), unpadded)
    out = flash_attn_varlen_func(unpadded, unpadded, unpadded, cu, cu, max_len, max_len,
                                 causal=True)
    padded = pad_input(out, indices, 2, 5)
    assert padded.shape == (2, 5, 4, 8) and not padded[0, 3:].any()
    want = flash_attn_func(x[:1, :3], x[:1, :3], x[:1, :3], causal=True)
    assert torch.allclose(padded[:1, :3], want, atol=1e-6)
    padded.sum().backward()
    assert x.grad is not None and not x.grad[0, 3:].any() and x.grad[1].abs().sum() > 0


def test_standin_mha_import_block_works_and_absent_names_fail_loudly():
    """The imports at the top of flash-attn's flash_attn/modules/mha.py; what the stand-in
    does not have raises ImportError naming it, never a silent None."""
    exec("from flash_attn.utils.distributed import get_dim_for_local_rank\n"
         "from flash_attn import (flash_attn_kvpacked_func, flash_attn_qkvpacked_func,\n"
         "    flash_attn_varlen_kvpacked_func, flash_attn_varlen_qkvpacked_func,\n"
         "    flash_attn_with_kvcache)\n"
         "try:\n"
         "    from flash_attn.ops.fused_dense import ColumnParallelLinear, FusedDense\n"
         "except ImportError:\n"
         "    FusedDense = ColumnParallelLinear = None\n"
         "from flash_attn.layers.rotary import RotaryEmbedding\n", {})
    from flash_attn.modules.mha import (CrossAttention, FlashCrossAttention, FlashSelfAttention,
                                        SelfAttention, get_alibi_slopes)
    from flash_attn.utils.distributed import get_dim_for_local_rank

    assert [get_dim_for_local_rank(10, 3, r) for r in range(3)] == [4, 3, 3]
    assert get_alibi_slopes(8)[0] == 0.5 and len(get_alibi_slopes(6)) == 6
    torch.manual_seed(3)
    qkv = torch.randn(2, 5, 3, 4, 8)
    flash = FlashSelfAttention(causal=True)(qkv)
    assert torch.allclose(flash, SelfAttention(causal=True)(qkv), atol=1e-5)
    kv = qkv[:, :, 1:]
    assert torch.allclose(FlashCrossAttention()(qkv[:, :, 0], kv),
                          CrossAttention()(qkv[:, :, 0], kv), atol=1e-5)
    for statement, name in [("from flash_attn.modules.mha import MHA", "modules.mha.MHA"),
                            ("from flash_attn.ops.fused_dense import FusedDense", "flash_attn.ops"),
                            ("import flash_attn.models.gpt", "flash_attn.models"),
                            ("from flash_attn.utils.distributed import all_gather", "all_gather")]:
        with pytest.raises(ImportError, match=name.replace(".", r"\.")) as info:
            exec(statement, {})
        assert "examdesk flash_attn stand-in" in str(info.value)
    import flash_attn.bert_padding as bp
    assert not hasattr(bp, "no_such_name")  # unknown names stay plain AttributeErrors
