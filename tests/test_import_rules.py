"""One small hand-made damaged snippet per importer rule (prose, structure, code)."""
from __future__ import annotations

import pytest

from question_db.interchange.text_import import import_text
from question_db.interchange.text_import.code import repair_python
from question_db.interchange.text_import.prose import (
    chinese_punctuation,
    find_lost_characters,
    repair_compile_calls,
    restore_hyphens,
    strip_glosses,
    to_simplified,
)
from question_db.interchange.text_import.segment import choice_key, find_options, split_blanks


def paper(text: str):
    return import_text(text, paper_id="t").paper


def kinds(q) -> set[str]:
    return {f.kind for f in q.review}


# --- prose ---------------------------------------------------------------------------------

def test_glosses_removed_only_when_toned():
    assert strip_glosses("認(rèn)證考試") == "認證考試"
    assert strip_glosses("为(wèi)了") == "为了"
    for code in ("f(x)", "RMSNorm(dim)", "pile(model)", "F(a)", "torch.ones(d)"):
        assert strip_glosses(code) == code


def test_traditional_to_simplified():
    assert to_simplified("單項選擇題（每題2分）") == "单项选择题（每题2分）"


def test_pile_repaired_only_in_a_call():
    text, notes = repair_compile_calls("m=pile(model,mode=\"maxautotune\")")
    assert text == 'm=torch.compile(model,mode="max-autotune")'
    assert repair_compile_calls("model.pile(x)")[0] == "model.pile(x)"  # a method: not it
    assert [n.kind for n in notes] == ["restored_hyphen"]
    text, notes = repair_compile_calls("开启pile的模式，compile(x)与stockpile(y)")
    assert text == "开启pile的模式，compile(x)与stockpile(y)"  # not a call: flagged only
    assert [n.kind for n in notes] == ["lost_name"]
    assert repair_compile_calls("用`pile`编译")[0] == "用`torch.compile`编译"


def test_hyphens_of_known_terms_restored_outside_code():
    text, notes = restore_hyphens("用LBFGS，与ZeRO3一致，微调LLaMA65B与BLIP2，"
                                  "使用DPMSolver多步，INT8WeightOnlyQuantization")
    assert text == ("用L-BFGS，与ZeRO-3一致，微调LLaMA-65B与BLIP-2，使用DPM-Solver多步，"
                    "INT8Weight-OnlyQuantization")
    assert notes and notes[0].kind == "restored_hyphen"
    for code in ("attn_op_type=MemoryEfficientAttention", "`skipconnect`", "torch.topk(x)",
                 "zeroshot_model"):
        assert restore_hyphens(code)[0] == code


def test_half_width_comma_next_to_chinese():
    assert chinese_punctuation("eta=0.0,均匀跳步") == "eta=0.0，均匀跳步"
    assert chinese_punctuation("f(a,b)与`g(c,中)`") == "f(a,b)与`g(c,中)`"


def test_lost_characters_flagged_not_guessed():
    text, notes = find_lost_characters("本地?fù)p失与L_r=?logexp(q·d)，(224/16)2=196")
    assert text == "本地?p失与L_r=?logexp(q·d)，(224/16)2=196"
    assert [n.kind for n in notes].count("lost_math") == 3  # two "?" and the ")2"
    assert "lost_character" in [n.kind for n in notes]


# --- structure ------------------------------------------------------------------------------

RUN_ON = ("测试试卷及答案一、单项选择题（每题2分，共4分）1.下列哪项正确？A.甲B.乙C.丙D.丁答案：B解析："
          "乙对。2.以下哪个是：A.一B.二答案：A二、多选题（每题3分，共3分，少选得1分）3.选出正确的："
          "A.aB.bC.cD.d答案：A、C解析：a与c。三、填空题（每空2分，共4分）4.填写________。答案：T/25."
          "下一空________与________。答案：x；y四、简答题（共10分）6.（10分）说明原因。答案与解析：因为如此。")


def test_run_on_paper_structure():
    p = paper(RUN_ON)
    assert p.title == "测试试卷"
    assert [q.number for q in p.questions] == [1, 2, 3, 4, 5, 6]
    assert [q.type for q in p.questions] == ["single_choice", "single_choice",
                                             "multiple_choice", "fill_blank", "fill_blank",
                                             "short_answer"]
    q1, q2, q3, q4, q5, q6 = p.questions
    assert q1.options == {"A": "甲", "B": "乙", "C": "丙", "D": "丁"} and q1.answer == "B"
    assert q1.explanation == "乙对。"
    assert q3.seed_answer == ["A", "C"] and q3.points == 3
    assert q4.seed_answer == ["T/2"]  # "T/25." is the key "T/2" and question 5
    assert q5.seed_answer == ["x", "y"] and q5.answer == [["x"], ["y"]]
    assert q6.points == 10 and q6.seed_answer == "因为如此。"
    assert [s.multiple_choice_rule for s in p.sections if s.type == "multiple_choice"] == \
        ["partial"]
    assert all(q.status == "draft" for q in p.questions)


def test_key_glued_to_the_next_number_and_numbering_not_from_one():
    p = paper("三、填空题（每空1分）28.每________个权重共享scale。答案：12829.回归目标为________噪声。"
              "答案：velocity")
    assert [q.number for q in p.questions] == [28, 29]
    assert [q.seed_answer for q in p.questions] == [["128"], ["velocity"]]


def test_options_a_to_h_and_other_markers():
    stem, options = find_options("选出所有：A.aB.bC.cD.dE.eF.fG.gH.h")
    assert stem == "选出所有：" and list(options) == list("ABCDEFGH")
    stem, options = find_options("下列正确的是（ ）(A)甲(B)乙(C)丙")
    assert options == {"A": "甲", "B": "乙", "C": "丙"}
    _, options = find_options("哪项？A、0.5B、1C、2")
    assert options == {"A": "0.5", "B": "1", "C": "2"}
    assert find_options("没有选项的题干A100GPU") is None


def test_choice_keys():
    assert choice_key("A、B、D解析", "ABCD", single=False)[0] == ["A", "B", "D"]
    assert choice_key("ABD", "ABCD", single=False)[0] == ["A", "B", "D"]
    keys, rest, ambiguous = choice_key("B。因为", "ABCD", single=True)
    assert (keys, rest, ambiguous) == (["B"], "因为", False)
    assert choice_key("E", "ABCD", single=True)[0] == []  # not an option: left unset


def test_fill_keys_split_per_blank():
    assert split_blanks("stuff，context，question", 3) == ["stuff", "context", "question"]
    assert split_blanks("257（224/14）2+1=257；64", 2) == ["257（224/14）2+1=257", "64"]
    assert split_blanks("(1)甲(2)乙", 2) == ["甲", "乙"]
    assert split_blanks("只有一个", 2) is None


def test_fill_key_that_does_not_split_is_flagged_and_not_scored():
    p = paper("一、填空题1.空一________空二________。答案：只有一个答案")
    q = p.questions[0]
    assert q.answer is None and q.seed_answer == ["只有一个答案"]
    assert "blank_count" in kinds(q)


def test_fill_variants_from_brackets():
    q = paper("一、填空题1.采用________加密。答案：SecureAggregation（或Paillier同态）").questions[0]
    # (a space now separates Latin from Chinese, as the bank writes it; grading ignores it)
    assert q.answer == [["SecureAggregation（或 Paillier 同态）", "SecureAggregation",
                         "Paillier 同态"]]


def test_true_false_section_becomes_single_choice():
    p = paper("一、判断题（每题1分）1.RoPE是相对位置编码。答案：√2.ReLU是线性的。答案：×")
    assert [(q.type, q.answer) for q in p.questions] == [("single_choice", "A"),
                                                          ("single_choice", "B")]
    assert p.questions[0].options == {"A": "正确", "B": "错误"}


def test_types_from_shape_without_headers():
    p = paper("1.哪个对？A.甲B.乙答案：A\n2.哪些对？A.甲B.乙C.丙答案：AC\n3.填________。答案：x\n"
              "4.说明原因。答案：因为。")
    assert [q.type for q in p.questions] == ["single_choice", "multiple_choice",
                                             "fill_blank", "short_answer"]


def test_question_without_a_key_is_flagged_and_unscored(tmp_path):
    from question_db.bank import load_paper
    from question_db.interchange.pack import write_pack

    p = paper("一、单选题（每题2分）1.哪个对？A.甲B.乙2.哪个错？A.甲B.乙答案：B")
    assert p.questions[0].answer is None and "no_key" in kinds(p.questions[0])
    loaded = write_pack(p, tmp_path / "t")
    assert [q.scored for q in loaded.questions] == [False, True]
    assert load_paper(tmp_path / "t", []) is not None


def test_clean_multiline_paper_with_code_kept_as_written():
    text = ("模拟卷\n一、编程题（共10分）\n1. 实现 add。\n答案：\n```python\ndef add(a, b):\n"
            "    return a + b  # sum\n```\n")
    q = paper(text).questions[0]
    assert q.type == "programming" and q.points == 10
    assert q.code["seed"] == "def add(a, b):\n    return a + b  # sum\n"
    assert not q.truncated


def test_truncation_marked_with_where_it_was_cut():
    q = paper("一、简答题（共10分）1.说明架构。答案：接入层：限流；缓存：Redis存热点prompt前").questions[0]
    assert q.truncated and q.truncated_at.endswith("Redis存热点prompt前")  # as printed
    complete = paper("一、简答题（共10分）1.说明架构。答案：接入层：限流。").questions[0]
    assert not complete.truncated


# --- code -----------------------------------------------------------------------------------

def code(source: str):
    result = repair_python(source)
    return result, {(f.kind, f.text) for f in result.findings}


def test_imports_classes_and_methods_reindented():
    result, _ = code("importtorch,torch.nnasnnfromflash_attnimportflash_attn_funcclassN(nn.Module)"
                     ":def__init__(self,d,eps=1e-6):super().__init__()self.w=nn.Parameter(torch.o"
                     "nes(d))self.eps=epsdefforward(self,x):returnx*self.wdefhelper(dim):returndim")
    assert result.compiles
    assert result.text == (
        "import torch, torch.nn as nn\nfrom flash_attn import flash_attn_func\n\n\n"
        "class N(nn.Module):\n    def __init__(self, d, eps=1e-6):\n        super().__init__()"
        "\n        self.w = nn.Parameter(torch.ones(d))\n        self.eps = eps\n\n"
        "    def forward(self, x):\n        return x * self.w\n\n\ndef helper(dim):\n"
        "    return dim\n")


def test_loops_conditions_and_comments():
    result, _ = code("defstep(self):forgroupinself.groups:forpingroup['params']:ifp.gradisNone:"
                     "continuegrad=p.grad更新参数p.data.add_(grad)dist.barrier()")
    assert result.compiles
    assert result.text.splitlines() == [
        "def step(self):", "    for group in self.groups:",
        "        for p in group['params']:", "            if p.grad is None:",
        "                continue", "            grad = p.grad", "            # 更新参数",
        "            p.data.add_(grad)", "    dist.barrier()"]
    assert any(f.kind == "indentation" for f in result.findings)


@pytest.mark.parametrize("source,spot", [
    ("defn(x,w):returnxw.t()", "xw"),  # x * w
    ("defn(x,eps=1e6):returnx+eps", "eps=1e6"),  # 1e-6
    ("deff(dim,theta=10000.0):returntheta(dim)", "theta("),  # theta ** (
    ("deff(xq):returnxq.reshape(xq.shape[:1],1,2)", ".reshape(xq.shape[:1]"),  # *shape[:-1]
    ("deff(s,m):returns.masked_fill(m==0,1e9)", "masked_fill(m == 0, 1e9)"),  # -1e9
    ("deff(s):returntorch.softmax(s,dim=1)", "softmax(s, dim=1)"),  # dim=-1
    ("deff(a,b):returntorch.einsum('ij,jk>ik',a,b)", "einsum('ij,jk>ik'"),  # ->
    ("deff(n):returnn(10000(n))", "10000("),  # 10000 ** (
    ("deff(end,start):returnendstart", "endstart"),  # end - start
    ("deff(x):returnx1e9", "x1e9"),  # x * 1e9
])
def test_likely_deleted_operators_are_flagged_and_left_as_printed(source, spot):
    result, found = code(source)
    assert any(kind == "deleted_operator" and spot in text for kind, text in found), found
    assert spot.replace(" ", "") in result.text.replace(" ", "")  # never guessed


def test_code_that_cannot_compile_is_flagged():
    result, found = code("defbias(beta1,step):return1beta1step")
    assert not result.compiles and "invalid decimal literal" in result.error
    assert any(kind == "does_not_compile" for kind, _ in found)


def test_code_cut_off_inside_a_statement_is_kept_as_a_comment():
    result, found = code("classL(nn.Module):def__init__(self,d):super().__init__()"
                         "self.mlp=nn.Sequential(nn.Linear(d,")
    assert result.compiles and result.truncated
    assert result.text.rstrip().endswith("# [cut off here in the source, inside:] "
                                         "self.mlp = nn.Sequential(nn.Linear(d,")
    assert ("truncated", "self.mlp = nn.Sequential(nn.Linear(d,") in found


def test_bare_annotation_flagged_as_lost_comment():
    _, found = code("defrotate(self,x):x:[batch,h,seq,d_k]n=x.size(2)returnn")
    assert ("lost_comment", "x: [batch, h, seq, d_k]") in found


def test_unfenced_code_in_a_programming_answer():
    q = paper("一、编程题（共10分）1.实现relu。答案：如下importtorchdefrelu(x):"
              "returntorch.clamp(x,min=0)解析：截断负值。").questions[0]
    assert q.code["seed"] == ("import torch\n\n\ndef relu(x):\n"
                              "    return torch.clamp(x, min=0)\n")
    assert "code_boundary" in kinds(q) and q.explanation == "截断负值。"


def test_generic_choice_section_split_by_key_shape(tmp_path):
    from question_db.interchange.pack import write_pack

    p = paper("一、选择题（每题2分，共6分）1.哪个？A.甲B.乙答案：A2.哪些？A.甲B.乙C.丙答案：AB"
              "3.哪个？A.甲B.乙答案：B")
    assert [q.type for q in p.questions] == ["single_choice", "multiple_choice",
                                             "single_choice"]
    assert [(s.type, s.first, s.last) for s in p.sections] == [
        ("single_choice", 1, 1), ("multiple_choice", 2, 2), ("single_choice", 3, 3)]
    assert write_pack(p, tmp_path / "c").total_points == 6


def test_numbered_list_inside_an_explanation_is_not_a_question():
    p = paper("一、单选题（每题2分）1.哪个对？A.甲B.乙答案：A解析：理由有二：1.甲对；2.乙错。"
              "2.哪个错？A.甲B.乙答案：B解析：略。3.第三题？A.甲B.乙答案：A")
    assert [q.number for q in p.questions] == [1, 2, 3]
    assert p.questions[0].explanation == "理由有二：1.甲对；2.乙错。"
    assert p.questions[1].stem == "哪个错？" and p.questions[1].answer == "B"


@pytest.mark.parametrize("keys", ["参考答案：一、1.A2.B二、3.A、C", "答案：1-2 AB 3.AC"])
def test_keys_printed_after_the_questions(keys):
    p = paper("一、单选题（每题2分）1.哪个？A.甲B.乙2.哪个？A.甲B.乙二、多选题（每题3分）3.哪些？"
              "A.甲B.乙C.丙" + keys)
    assert [q.seed_answer for q in p.questions] == ["A", "B", ["A", "C"]]
    assert "参考" not in p.questions[1].options["B"] and p.questions[2].options["C"] == "丙"


def test_page_marks_of_the_printed_original_are_dropped():
    p = paper("一、单选题（每题2分）1.哪个对？A.甲B.乙答案：A第1页共2页2.哪个错？A.甲第2页，共2页B.乙答案：B")
    assert [q.options for q in p.questions] == [{"A": "甲", "B": "乙"}] * 2
