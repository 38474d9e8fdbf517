"""The importer on small papers in layouts the seeds do not use: English headers and keys,
other numbering and option styles, keys at the end of a part or in an appendix, versions
and sub-lists inside stems, two papers in one file, a truncated end. Each case is a rule
the generalisation suite (``test_import_generalise.py``) measures at scale."""
from __future__ import annotations

import pytest

from question_db.interchange.text_import import NoQuestions, import_text
from question_db.interchange.text_import import build


def paper(text: str):
    return import_text(text, paper_id="t", name="t.md").paper


EN_MARKDOWN = """# Deep learning practice exam

## Part A — Multiple choice (2 points each)

### Question 1 (2 points)
Which optimizer keeps two moment estimates per parameter?

- (a) SGD
- (b) Adam
- (c) Adagrad
- (d) RMSprop

**Answer:** (b)

**Explanation:** Adam keeps m and v.

### Question 2 (3 points)
Which of these are activation functions? Select all that apply.
(a) ReLU (b) softmax cross-entropy (c) GELU (d) Adam

**Answer:** (a), (c)

## Part B — Coding

### Question 3 (10 points)
Write `relu(x)` for a tensor.

**Answer:**
```python
def relu(x):
    return x.clamp(min=0)
```
"""


def test_english_markdown_headers_options_and_keys():
    p = paper(EN_MARKDOWN)
    assert [q.number for q in p.questions] == [1, 2, 3]
    q1, q2, q3 = p.questions
    assert q1.type == "single_choice" and q1.seed_answer == "B"
    assert q1.options == {"A": "SGD", "B": "Adam", "C": "Adagrad", "D": "RMSprop"}
    assert q1.points == 2 and q1.explanation == "Adam keeps m and v."
    assert q2.type == "multiple_choice" and q2.seed_answer == ["A", "C"] and q2.points == 3
    assert q2.options["B"] == "softmax cross-entropy"
    assert q3.type == "programming" and "return x.clamp(min=0)" in q3.code["seed"]
    assert [q.key_source for q in p.questions] == ["inline"] * 3
    assert p.title == "Deep learning practice exam"


def test_numbered_notes_are_said_to_look_like_notes_not_a_paper():
    notes = ("# Reading notes\n\n1. Attention is all you need: scaled dot products.\n"
             "2. RMSNorm drops the mean; cheaper than LayerNorm.\n"
             "3. RoPE rotates q and k by position.\n4. GQA shares k and v across heads.\n")
    result = import_text(notes, paper_id="t", name="notes.md")
    said = [w for w in result.warnings if "looks like notes" in w.message]
    assert len(said) == 1 and "none of the 4 numbered items" in said[0].message
    real = import_text(EN_MARKDOWN, paper_id="t", name="t.md")
    assert not any("looks like notes" in w.message for w in real.warnings)


def test_an_english_paper_gets_its_defaults_in_english():
    """What the importer writes where the source said nothing (rubric, duration) follows
    the paper's language; a stated English duration is read."""
    p = paper(EN_MARKDOWN)
    q3 = p.questions[2]
    assert q3.rubric[0]["text"].startswith("Mark yourself against the source's answer")
    assert p.duration_note.startswith("The paper states no duration")
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in p.duration_note + q3.rubric[0]["text"])
    timed = paper(EN_MARKDOWN.replace("# Deep learning practice exam\n",
                                      "# Deep learning practice exam\n\nTime allowed: 90 minutes\n"))
    assert (timed.duration_minutes, timed.duration_note) == (90, "the duration the paper states")
    chinese = paper("一、简答题\n1. 什么是梯度消失？（10分）\n答案：略\n")
    assert chinese.questions[0].rubric[0]["text"].startswith("对照原卷答案自评")
    assert chinese.duration_note.startswith("试卷未注明考试时长")


@pytest.mark.parametrize("number", ["Q{n}.", "{n})", "（{n}）", "第{n}题", "Question {n}:"])
def test_numbering_styles(number):
    text = "\n".join(f"{number.format(n=n)} 下列哪项正确？\nA. 甲{n}\nB. 乙{n}\n答案：B"
                     for n in range(1, 5))
    p = paper("练习卷\n" + text)
    assert [q.number for q in p.questions] == [1, 2, 3, 4]
    assert [q.options["A"] for q in p.questions] == ["甲1", "甲2", "甲3", "甲4"]  # as printed


def test_versions_and_sub_lists_inside_stems_are_not_questions():
    p = paper("一、简答题（每题10分）\n"
              "1. Stable Diffusion 1.x 与 2.1 的区别是什么？要求：\n(1) 说明文本编码器；\n(2) 说明分辨率。\n"
              "答案：1. 编码器不同；2. 分辨率不同。\n"
              "2. 说明 v2.1 中 3.5 倍的来源。\n答案：略。\n"
              "3. 第三题？\n答案：略。")
    assert [q.number for q in p.questions] == [1, 2, 3]
    assert "(2) 说明分辨率" in p.questions[0].stem
    assert p.questions[0].answer.startswith("1. 编码器不同")


WEB_APPENDIX = """2025 校招 AI 笔试（含答案）
一、单选题（每题2分，共10分）
1、甲？
A、a1 B、b1 C、c1 D、d1
2、乙？
A、a2 B、b2 C、c2 D、d2
3、丙？
A、a3 B、b3 C、c3 D、d3
二、多选题（每题3分，共6分）
1、丁？
A、a B、b C、c D、d
2、戊？
A、a B、b C、c D、d
三、填空题（每题2分，共2分）
1、Adam 的两个矩估计是________。
参考答案及解析
一、单选题
1-3 BDA
1、【解析】因为 b1。
二、多选题
1、BD 2、ACD
三、填空题
1、一阶矩与二阶矩
"""


@pytest.mark.parametrize("damaged", [False, True])
def test_appendix_keys_by_part_and_number(damaged):
    text = WEB_APPENDIX
    if damaged:  # the seeds' damage: no whitespace, and the grid's dash lost
        text = "".join(text.split()).replace("-", "")
    p = paper(text)
    assert [q.number for q in p.questions] == [1, 2, 3, 4, 5, 6]
    assert [q.seed_answer for q in p.questions[:5]] == ["B", "D", "A", ["B", "D"],
                                                        ["A", "C", "D"]]
    assert p.questions[5].seed_answer == ["一阶矩与二阶矩"]
    assert {q.key_source for q in p.questions} == {"appendix"}
    assert p.questions[0].explanation == "因为 b1。"
    assert not any(q.truncated for q in p.questions)  # ends on a key: complete


def test_keys_at_the_end_of_each_part():
    p = paper("一、单选题（每题2分）\n1.甲？\nA.a\nB.b\n2.乙？\nA.a\nB.b\n本大题答案：1.B 2.A\n"
              "二、判断题（每题1分）\n3.丙对吗？\n4.丁对吗？\n本大题答案：3.√ 4.×")
    assert [q.seed_answer for q in p.questions] == ["B", "A", "A", "B"]
    assert [q.key_source for q in p.questions] == ["part"] * 4


def test_english_answer_key_appendix_and_part_headings():
    p = paper("Midterm\nPart I - Multiple choice\n1) Which is a norm? [2 marks]\nA) LayerNorm\n"
              "B) Dropout\n2) Which is a loss? [2 marks]\nA) ReLU\nB) Cross-entropy\n"
              "Part II - Short answer\n3) Why warm up the learning rate? [6 marks]\n\n"
              "Answer key\n1. A\n2. B\n3. Early updates are noisy; a small rate keeps Adam "
              "stable.")
    assert [q.type for q in p.questions] == ["single_choice", "single_choice", "short_answer"]
    assert [q.points for q in p.questions] == [2, 2, 6]
    assert [q.seed_answer for q in p.questions[:2]] == ["A", "B"]
    assert p.questions[2].answer.startswith("Early updates are noisy")
    assert [s.title for s in p.sections] == ["Part I - Multiple choice", "Part II - Short answer"]


def test_a_question_without_a_printed_key_is_flagged_not_guessed():
    p = paper("1.甲？\nA.a\nB.b\n答案：A\n2.乙？\nA.a\nB.b\n3.丙？\nA.a\nB.b\n答案：B")
    assert p.questions[1].seed_answer == "" and p.questions[1].answer is None
    assert "no_key" in {f.kind for f in p.questions[1].review}


def test_truncation_only_where_the_source_stops_mid_answer():
    whole = EN_MARKDOWN
    assert not any(q.truncated for q in paper(whole).questions)
    cut = whole[:whole.index("x.clamp")]  # inside the code block
    assert paper(cut).questions[-1].truncated
    sentence = whole.replace("**Explanation:** Adam keeps m and v.", "") + \
        "\n### Question 4 (5 points)\nExplain warm-up.\n\n**Answer:** Early updates are"
    assert paper(sentence).questions[-1].truncated


def test_two_papers_in_one_file_name_the_second():
    one = "2024 模拟试卷\n一、单选题\n1.甲？\nA.a\nB.b\n答案：A\n2.乙？\nA.a\nB.b\n答案：B\n"
    two = "2025 真题试卷\n一、单选题\n1.丙？\nA.a\nB.b\n答案：A\n2.丁？\nA.a\nB.b\n答案：B\n"
    with pytest.raises(NoQuestions, match=r"line 12 \(“2025 真题试卷”\)"):
        paper(one + "\n" + two)
    assert len(paper(one).questions) == 2


def test_no_questions_and_too_large_give_messages():
    with pytest.raises(NoQuestions, match="t.md: no numbered questions"):
        paper("Just a page of notes about transformers.\nNothing numbered here.")
    with pytest.raises(NoQuestions, match="million characters"):
        paper("1.甲？答案：A\n" + "x" * build.MAX_CHARS)


def test_bare_code_is_fenced_but_options_that_look_like_code_are_options():
    p = paper("一、单选题（每题2分）\n"
              "1.哪一行能编译模型？\nA.torch.compile(model)\nB.torch.jit.script(model)\n"
              "C.model.compile()\nD.compile(model)\n答案：A\n"
              "二、编程题（10分）\n2.实现 relu。\n答案：\ndef relu(x):\n    return x.clamp(min=0)\n\n"
              "解析：clamp 即可。")
    q1, q2 = p.questions
    assert q1.options["A"] == "`torch.compile(model)`" or q1.options["A"] == "torch.compile(model)"
    assert list(q1.options) == ["A", "B", "C", "D"] and q1.seed_answer == "A"
    assert q2.type == "programming" and q2.code["seed"] == "def relu(x):\n    return x.clamp(min=0)\n"
    assert q2.explanation == "clamp 即可。"


def test_english_question_marks_are_not_lost_math():
    p = paper("1. What is the rank of a 3x3 identity matrix?\nA. 1\nB. 3\nAnswer: B\n"
              "2. Which loss suits classification?\nA. MSE\nB. Cross-entropy\nAnswer: B")
    assert not [f for q in p.questions for f in q.review if f.kind == "lost_math"]
    assert "lost_math" in {f.kind for f in paper("1.损失L=?log(p)是什么？答案：交叉熵\n"
                                                 "2.第二题？答案：略").questions[0].review}


def test_a_bare_answer_summary_line_and_bank_metadata():
    p = paper("## 1. Which activation is bounded?\n- A. ReLU\n- B. Sigmoid\n\nAnswer\n\nB\n\n"
              "## 2. Which is an optimizer?\n- A. Adam\n- B. GELU\n\nShow answer\n\nA\n")
    assert [q.seed_answer for q in p.questions] == ["B", "A"]
    p = paper("【单选题】1、哪个是优化器？\nA．Adam\nB．GELU\n正确答案：A\n试题解析：Adam 是优化器。\n"
              "难度：★★\n知识点：优化\n【单选题】2、哪个是激活函数？\nA．Adam\nB．GELU\n正确答案：B\n")
    assert p.questions[0].explanation == "Adam 是优化器。"
    assert [q.seed_answer for q in p.questions] == ["A", "B"]


def test_a_key_table_printed_down_the_page():
    p = paper("一、单选题（每题2分）\n1、甲？\nA. a\nB. b\n2、乙？\nA. a\nB. b\n"
              "二、编程题（15分）\n3、写一个函数。\n参考答案\n题号 | 答案\n1 | B\n2 | A\n3 | 略\n")
    assert [q.seed_answer for q in p.questions[:2]] == ["B", "A"]
    assert p.questions[2].points == 15  # a one-question part's "（15分）"


def test_a_quiz_inside_a_form_is_read(tmp_path):
    from question_db.interchange.importers import import_file

    page = tmp_path / "quiz.html"
    page.write_text("<html><body><nav>Home | Quizzes</nav><form id='quiz'>"
                    "<h3>1. Which is an optimizer?</h3><label><input type=radio> A) Adam</label>"
                    "<label><input type=radio> B) GELU</label>"
                    "<details><summary>Show answer</summary>Answer: A</details>"
                    "<h3>2. Which is an activation?</h3><label><input type=radio> A) Adam"
                    "</label><label><input type=radio> B) GELU</label>"
                    "<details><summary>Show answer</summary>Answer: B</details></form>"
                    "<script>var x = 1;</script></body></html>", encoding="utf-8")
    p = import_file(page).paper
    assert [q.seed_answer for q in p.questions] == ["A", "B"]
    assert p.questions[0].options == {"A": "Adam", "B": "GELU"}


def test_two_bank_exports_without_part_headings_are_named():
    one = ("《机器学习》第1章练习（题库导出）\n【单选题】1、甲？\nA．a\nB．b\n正确答案：A\n"
           "【单选题】2、乙？\nA．a\nB．b\n正确答案：B\n【单选题】3、丙？\nA．a\nB．b\n正确答案：A\n")
    two = one.replace("《机器学习》第1章", "《深度学习》第2章")
    with pytest.raises(NoQuestions, match="line 14 \\(“《深度学习》第2章练习（题库导出）”\\)"):
        paper(one + two)
    assert len(paper(one).questions) == 3


def test_running_heads_beside_page_marks_are_dropped_and_language_read():
    p = paper("2026年秋季《深度学习》期末考试试卷（A卷）\n1. 甲？\nA. a\nB. b\n答案：A\n\n"
              "第 1 页 共 2 页\n\n《深度学习》期末考试试卷（A卷）\n2. 乙？\nA. a\nB. b\n答案：B\n")
    assert p.questions[0].options["B"] == "b" and "试卷" not in p.questions[1].stem
    assert p.language == "zh-Hans"
    assert paper(EN_MARKDOWN).language == "en"


def test_sub_questions_answered_part_by_part_are_not_options():
    p = paper("Problem 1 [6 points] A classifier has 40 true positives and 10 false positives.\n"
              "(a) Compute the precision.\n(b) Compute the recall given 40 false negatives.\n"
              "Solution: (a) Precision = 40/50 = 0.8. (b) Recall = 40/80 = 0.5.\n"
              "Problem 2 [2 points] Which is a metric?\n(A) F1\n(B) Adam\nSolution: (A)\n")
    q1, q2 = p.questions
    assert q1.options is None and "(b) Compute the recall" in q1.stem
    assert q2.options == {"A": "F1", "B": "Adam"} and q2.seed_answer == "A"
