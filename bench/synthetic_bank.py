"""A synthetic question bank for benchmarks and scale tests (not product code).

``write_bank(root, papers=100)`` writes ``papers`` TOML packs of 50 questions each (100 →
5,000 questions) that the real loader accepts without a problem: Chinese stems, options
and explanations of realistic length about LLM training and inference, code identifiers
in backticks, fill-ins with blanks, calculations with numeric parts, rubric-marked answers,
and programming questions with real ``.py`` reference and starter files. Every fifth paper
is an imported pack (every question ``draft``, some without a key); the others have a
``void`` and a ``corrected`` question each. Deterministic for a given ``seed``.

    python -m bench.synthetic_bank OUT_DIR [--papers N]
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

import tomli_w

__all__ = ["LAYOUT", "CONCEPTS", "IDENTIFIERS", "write_bank", "questions_per_paper"]

# (type, count, points per question): 50 questions, 200 points
LAYOUT = (("single_choice", 20, 2), ("multiple_choice", 8, 3), ("fill_blank", 8, 2),
          ("calculation", 4, 5), ("short_answer", 5, 6), ("system_design", 2, 10),
          ("programming", 3, 10))
SECTION_NAMES = {"single_choice": "单选题", "multiple_choice": "多选题", "fill_blank": "填空题",
                 "calculation": "计算题", "short_answer": "简答题", "system_design": "系统设计题",
                 "programming": "编程题"}
CONCEPTS = ("梯度检查点", "混合精度训练", "显存占用", "注意力机制", "张量并行", "流水线并行",
            "数据并行", "KV Cache", "权重量化", "LoRA 微调", "RLHF", "FlashAttention", "旋转位置编码",
            "ZeRO 优化器", "学习率预热", "梯度累积", "专家混合模型", "投机解码", "连续批处理",
            "分页注意力", "层归一化", "激活重计算", "算子融合", "通信重叠", "损失缩放", "知识蒸馏",
            "前缀缓存", "序列并行", "多查询注意力", "分组查询注意力")
IDENTIFIERS = ("flash_attn_func", "register_buffer", "torch.utils.checkpoint.checkpoint",
               "scaled_dot_product_attention", "torch.amp.GradScaler", "dist.all_reduce",
               "ZeroRedundancyOptimizer", "torch.compile", "nn.Module.forward",
               "apply_rotary_pos_emb", "repeat_kv", "torch.cuda.max_memory_allocated",
               "FullyShardedDataParallel", "DistributedSampler", "torch.bfloat16")
SCENES = ("大模型预训练", "千卡集群训练", "在线推理服务", "长上下文推理", "指令微调", "边缘设备部署",
          "多模态模型训练", "强化学习对齐", "检索增强生成", "低延迟解码")
EFFECTS = ("显存峰值显著下降", "吞吐提升约 1.8 倍", "通信量减半", "数值稳定性更好",
           "首字延迟降低", "收敛速度变慢", "计算量增加约 30%", "精度损失可以忽略")
TOPICS = ("分布式训练", "显存估算", "推理优化", "注意力机制", "位置编码", "混合精度", "模型量化",
          "微调", "强化学习/RLHF", "PyTorch", "系统设计", "torch.compile")


def questions_per_paper() -> int:
    return sum(count for _, count, _ in LAYOUT)


def _sentence(rng: random.Random) -> str:
    concept, other = rng.sample(CONCEPTS, 2)
    form = rng.randrange(5)
    if form == 0:
        return f"在{rng.choice(SCENES)}中使用{concept}，通常{rng.choice(EFFECTS)}。"
    if form == 1:
        return (f"{concept}与{other}可以同时开启，调用 `{rng.choice(IDENTIFIERS)}` 时要注意"
                f"张量的 dtype 与 device 一致。")
    if form == 2:
        return (f"若序列长度为 {rng.choice((2048, 4096, 8192, 32768))}、batch 为 "
                f"{rng.choice((1, 8, 16, 64))}，{concept}的开销随序列长度线性增长。")
    if form == 3:
        return f"{concept}的核心思想是用计算换显存，反向传播时重新计算被丢弃的激活。"
    return (f"实践中常把{concept}和{other}组合使用，并用 `{rng.choice(IDENTIFIERS)}` "
            f"检查{rng.choice(('梯度', '权重', '激活', '优化器状态'))}是否正确。")


def _text(rng: random.Random, low: int, high: int) -> str:
    """Sentences until the text is between ``low`` and ``high`` characters long."""
    out = ""
    while len(out) < low:
        out += _sentence(rng)
    return out[:high]


def _option(rng: random.Random) -> str:
    return rng.choice((f"{rng.choice(CONCEPTS)}只在推理阶段生效",
                       f"使用 `{rng.choice(IDENTIFIERS)}` 即可完成",
                       f"{rng.choice(EFFECTS)}",
                       f"与{rng.choice(CONCEPTS)}互斥，不能同时使用",
                       f"需要额外 {rng.choice((2, 4, 8, 16))} GB 显存"))


def _code(rng: random.Random, name: str) -> tuple[str, str]:
    reference = f'''import torch
from torch import nn


class {name}(nn.Module):
    """{rng.choice(CONCEPTS)}: the reference solution."""

    def __init__(self, dim: int) -> None:
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.register_buffer("scale", torch.tensor(dim ** -0.5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # {rng.choice(IDENTIFIERS)} is what a production version would call
        return torch.softmax(self.proj(x) * self.scale, dim=-1)
'''
    starter = f'''import torch
from torch import nn


class {name}(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        # TODO: {rng.choice(CONCEPTS)}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError
'''
    return reference, starter


def _question(rng: random.Random, folder: Path, number: int, qtype: str, points: float,
              status: str) -> dict:
    q: dict = {"number": number, "type": qtype, "points": points,
               "topics": rng.sample(TOPICS, rng.choice((1, 1, 2))), "status": status,
               "seed_answer": ""}
    draft = status == "draft"
    keyless = draft and rng.random() < 0.2
    if qtype in ("single_choice", "multiple_choice"):
        q["stem"] = _text(rng, 60, 200) + "以下说法正确的是："
        q["options"] = {letter: _option(rng) for letter in "ABCD"}
        if qtype == "single_choice":
            key = rng.choice("ABCD")
        else:
            key = sorted(rng.sample("ABCD", rng.choice((2, 3))))
        if status != "void" and not keyless:
            q["answer"] = key
        if draft:
            q["seed_answer"] = key if not keyless else ""
    elif qtype == "fill_blank":
        blanks = rng.choice((1, 2))
        q["stem"] = _text(rng, 50, 160) + "其中关键技术是 ________" + (
            "，对应的 API 是 ________。" if blanks == 2 else "。")
        key = [[rng.choice(CONCEPTS)], [rng.choice(IDENTIFIERS)]][:blanks]
        if not keyless:
            q["answer"] = key
    elif qtype == "calculation":
        value = rng.choice((1.5, 12.0, 80.0, 2.72e8, 4096.0))
        q["stem"] = _text(rng, 80, 220) + "请计算所需显存（GB）。"
        q["answer"] = [{"label": "(1)", "value": value, "tolerance": value * 0.01,
                        "unit": "GB", "points": points}]
        q["reference_answer"] = _text(rng, 100, 300)
    elif qtype in ("short_answer", "system_design"):
        q["stem"] = _text(rng, 80, 240) + "请简述原因并给出改进方案。"
        q["answer"] = _text(rng, 200, 600)
        items = 3 if qtype == "short_answer" else 5
        q["rubric"] = [{"text": _text(rng, 20, 60), "points": points / items}
                       for _ in range(items)]
    else:  # programming
        name = f"Block{number}"
        reference, starter = _code(rng, name)
        stem = _text(rng, 80, 200) + f"请实现 `{name}`，可以使用 `flash_attn_func` 的接口约定。"
        q["stem"] = stem
        ref_file, start_file = f"q{number:02d}_reference.py", f"q{number:02d}_starter.py"
        (folder / ref_file).write_text(reference, encoding="utf-8")
        (folder / start_file).write_text(starter, encoding="utf-8")
        q["code"] = {"seed": ref_file, "starter": start_file} if draft else {
            "reference": ref_file, "starter": start_file}
        q["rubric"] = [{"text": "通过全部必需检查", "points": points, "auto": True}]
    if not draft:
        q["explanation"] = _text(rng, 150, 600)
    if status in ("void", "corrected"):
        q["errata"] = "原卷答案有误：" + _text(rng, 40, 120)
    return q


def write_paper(root: Path, index: int, rng: random.Random, *, imported: bool) -> Path:
    paper_id = f"syn{index:03d}"
    folder = root / paper_id
    folder.mkdir(parents=True)
    sections, number = [], 1
    for qtype, count, points in LAYOUT:
        sections.append({"title": f"{len(sections) + 1}. {SECTION_NAMES[qtype]}", "type": qtype,
                         "first": number, "last": number + count - 1, "points": count * points,
                         "scoring": f"每题{points}分"})
        for i in range(count):
            if imported:
                status = "draft"
            elif qtype == "single_choice" and i == count - 1:
                status = "void"
            elif qtype == "single_choice" and i == count - 2:
                status = "corrected"
            else:
                status = "ok"
            q = _question(rng, folder, number, qtype, points, status)
            (folder / f"q{number:02d}.toml").write_text(tomli_w.dumps(q), encoding="utf-8")
            number += 1
    meta = {"id": paper_id, "title": f"合成试卷 {index:03d}（{rng.choice(SCENES)}）",
            "language": "zh-Hans", "duration_minutes": 120, "sections": sections}
    if imported:
        meta["source"] = f"imported_{index:03d}.txt"
    (folder / "paper.toml").write_text(tomli_w.dumps(meta), encoding="utf-8")
    return folder


def write_bank(root: Path, *, papers: int = 100, seed: int = 0,
               imported_every: int = 5) -> list[Path]:
    """``papers`` paper folders under ``root`` (50 questions each); returns them."""
    rng = random.Random(seed)
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    return [write_paper(root, i, rng, imported=imported_every > 0
                                              and i % imported_every == imported_every - 1)
            for i in range(papers)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--papers", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    write_bank(args.out, papers=args.papers, seed=args.seed)
    print(f"wrote {args.papers} papers ({args.papers * questions_per_paper()} questions) "
          f"to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
