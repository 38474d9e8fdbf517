<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <location filename="../../desktop/views/question_view.py" line="36"/>
        <source>Single choice</source>
        <translation>单选题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="37"/>
        <source>Multiple choice</source>
        <translation>多选题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="38"/>
        <source>Fill in the blanks</source>
        <translation>填空题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="39"/>
        <source>Calculation</source>
        <translation>计算题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="40"/>
        <source>Short answer</source>
        <translation>简答题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="41"/>
        <source>System design</source>
        <translation>系统设计题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="42"/>
        <source>Programming</source>
        <translation>编程题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="48"/>
        <location filename="../../desktop/views/report.py" line="205"/>
        <location filename="../../desktop/views/report.py" line="208"/>
        <source>Correct</source>
        <translation>正确</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="48"/>
        <source>Partly correct</source>
        <translation>部分正确</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="48"/>
        <source>Wrong</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="49"/>
        <source>Unanswered</source>
        <translation>未作答</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="49"/>
        <location filename="../../desktop/views/report.py" line="206"/>
        <location filename="../../desktop/views/report.py" line="209"/>
        <source>Pending</source>
        <translation>待评</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="49"/>
        <source>Void (not scored)</source>
        <translation>作废（不计分）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="65"/>
        <source>To self-mark</source>
        <translation>待自评</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="43"/>
        <location filename="../../desktop/views/problem_text.py" line="93"/>
        <location filename="../../desktop/views/question_view.py" line="68"/>
        <location filename="../../desktop/views/question_view.py" line="297"/>
        <location filename="../../desktop/views/report.py" line="277"/>
        <source>points</source>
        <translation>分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="75"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="86"/>
        <location filename="../../desktop/views/question_view.py" line="129"/>
        <source>also accepted</source>
        <translation>也接受</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="125"/>
        <location filename="../../desktop/views/question_view.py" line="150"/>
        <source>yours</source>
        <translation>你的答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="43"/>
        <location filename="../../desktop/views/problem_text.py" line="93"/>
        <location filename="../../desktop/views/question_view.py" line="127"/>
        <location filename="../../desktop/views/question_view.py" line="152"/>
        <source>key</source>
        <translation>答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="153"/>
        <source>(accepted within ± %1)</source>
        <translation>（允许误差 ± %1）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="166"/>
        <source>your pick, right</source>
        <translation>选对</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="166"/>
        <source>your pick, wrong</source>
        <translation>选错</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="166"/>
        <source>in the key, not picked</source>
        <translation>漏选</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="208"/>
        <source>Errata: the source paper&apos;s key was wrong and has been corrected</source>
        <translation>勘误：原卷答案有误，已更正</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="209"/>
        <source>Errata: this question is void: no option is correct, so it is not scored</source>
        <translation>勘误：本题作废（无正确选项），不计分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="211"/>
        <source>Errata: this question is disputed; defensible keys are accepted</source>
        <translation>勘误：本题存在争议，合理答案均判对</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="212"/>
        <source>Unverified: imported from a source nobody has checked yet; the key is the one the source printed</source>
        <translation>未核实：本题导入自尚无人核对的来源，答案即原卷所给答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="216"/>
        <source>Errata: the key is right, but the source&apos;s wording or explanation was not</source>
        <translation>勘误：答案正确，但原卷题干或解析有误</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="222"/>
        <location filename="../../desktop/views/report.py" line="139"/>
        <source>Source paper&apos;s key</source>
        <translation>原卷答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="226"/>
        <source>none (void)</source>
        <translation>无（作废）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="227"/>
        <source>Verified key</source>
        <translation>核实答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="233"/>
        <source>Source paper&apos;s answer</source>
        <translation>原卷答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="53"/>
        <source>unanswered</source>
        <translation>未作答</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="53"/>
        <source>answered, not submitted</source>
        <translation>已作答，未提交</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="54"/>
        <location filename="../../desktop/views/navigator.py" line="62"/>
        <source>right</source>
        <translation>正确</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="54"/>
        <source>partly right</source>
        <translation>部分正确</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="54"/>
        <location filename="../../desktop/views/navigator.py" line="63"/>
        <source>wrong</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="55"/>
        <source>pending (self-marks or checks)</source>
        <translation>待评（需自评或运行检查）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="56"/>
        <source>void (not scored)</source>
        <translation>作废（不计分）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="56"/>
        <source>answer shown</source>
        <translation>已看答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="57"/>
        <location filename="../../desktop/views/navigator.py" line="65"/>
        <source>recited</source>
        <translation>已背</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="62"/>
        <source>to do</source>
        <translation>未答</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="62"/>
        <source>draft</source>
        <translation>未提交</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="63"/>
        <source>partly</source>
        <translation>部分对</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="63"/>
        <source>pending</source>
        <translation>待评</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="64"/>
        <location filename="../../desktop/views/search_dialog.py" line="41"/>
        <source>void</source>
        <translation>作废</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="64"/>
        <source>shown</source>
        <translation>已看答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="77"/>
        <location filename="../../desktop/views/navigator.py" line="388"/>
        <source>flagged</source>
        <translation>已标记</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="119"/>
        <location filename="../../desktop/views/navigator.py" line="124"/>
        <source>All questions</source>
        <translation>全部题目</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="123"/>
        <source>%1 questions from %2 papers</source>
        <translation>来自 %2 份试卷的 %1 道题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/navigator.py" line="385"/>
        <location filename="../../desktop/views/question_view.py" line="296"/>
        <location filename="../../desktop/views/report.py" line="299"/>
        <location filename="../../desktop/views/search_dialog.py" line="291"/>
        <source>Question %1</source>
        <translation>第 %1 题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="304"/>
        <source>Flagged</source>
        <translation>已标记</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="321"/>
        <source>This question is void (no correct answer): it is shown for study and is not scored.</source>
        <translation>本题作废（没有正确答案）：仅供学习，不计分。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="326"/>
        <source>Unverified: imported from a source nobody has checked yet; the key is the one the source printed.</source>
        <translation>未核实：本题导入自尚无人核对的来源，答案即原卷所给答案。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="329"/>
        <source>%1 place(s) were flagged for review when it was imported.</source>
        <translation>导入时有 %1 处被标记为待核对。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="396"/>
        <source>Verify in console</source>
        <translation>在控制台验证</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="398"/>
        <source>Runs a snippet that reproduces the key&apos;s figures with torch (needs the console).</source>
        <translation>运行一段代码，用 torch 重新算出答案中的数值（需要控制台）。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="429"/>
        <source>Problem</source>
        <translation>题目</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="431"/>
        <source>Hide the problem: the editor gets the whole width (Ctrl+Shift+P)</source>
        <translation>收起题目：编辑器占满整个宽度（Ctrl+Shift+P）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="432"/>
        <source>Show the problem beside the editor (Ctrl+Shift+P)</source>
        <translation>在编辑器旁显示题目（Ctrl+Shift+P）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="505"/>
        <location filename="../../desktop/views/report.py" line="101"/>
        <location filename="../../desktop/views/report.py" line="124"/>
        <source>Reference answer</source>
        <translation>参考答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="468"/>
        <location filename="../../desktop/views/question_view.py" line="477"/>
        <location filename="../../desktop/views/question_view.py" line="479"/>
        <location filename="../../desktop/views/report.py" line="127"/>
        <location filename="../../desktop/views/report.py" line="133"/>
        <source>Key</source>
        <translation>答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="469"/>
        <source>Worked solution</source>
        <translation>详细解答</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="471"/>
        <location filename="../../desktop/views/report.py" line="130"/>
        <source>Reference solution</source>
        <translation>参考实现</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="483"/>
        <location filename="../../desktop/views/report.py" line="144"/>
        <source>Explanation</source>
        <translation>解析</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="53"/>
        <location filename="../../desktop/views/report.py" line="56"/>
        <location filename="../../desktop/views/report.py" line="70"/>
        <source>no answer</source>
        <translation>未作答</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="79"/>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="81"/>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="82"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="91"/>
        <source>Self-mark question %1</source>
        <translation>自评第 %1 题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_screen.py" line="23"/>
        <source>Papers (text, Markdown, Word, PDF, web page, Moodle XML, GIFT)</source>
        <translation>试卷（文本、Markdown、Word、PDF、网页、Moodle XML、GIFT）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_screen.py" line="25"/>
        <source>All files</source>
        <translation>所有文件</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_screen.py" line="34"/>
        <source>Import pasted text</source>
        <translation>导入粘贴的文本</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_screen.py" line="37"/>
        <source>Paste the whole paper: questions, options, 答案 and 解析 as copied. Damage from the web page (Traditional characters, pinyin glosses, lost symbols) is repaired or flagged for you to check.</source>
        <translation>粘贴整份试卷：题目、选项、答案和解析，按复制的原样粘贴即可。网页带来的问题（繁体字、拼音注音、丢失的符号）会自动修复，或标记出来供你核对。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_screen.py" line="47"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_screen.py" line="71"/>
        <source>Reading %1%2…</source>
        <translation>正在读取 %1%2…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_screen.py" line="96"/>
        <source>%1 s; Cancel stops it and writes nothing.</source>
        <translation>已用 %1 秒；取消会立即停止，不写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_screen.py" line="126"/>
        <location filename="../../desktop/views/report.py" line="172"/>
        <location filename="../../desktop/views/review_session.py" line="59"/>
        <source>Library</source>
        <translation>题库</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_screen.py" line="63"/>
        <location filename="../../desktop/views/import_screen.py" line="129"/>
        <source>Import paper</source>
        <translation>导入试卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="205"/>
        <source>Section</source>
        <translation>题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="205"/>
        <location filename="../../desktop/views/report.py" line="208"/>
        <location filename="../../desktop/views/report.py" line="211"/>
        <source>Points</source>
        <translation>得分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="205"/>
        <location filename="../../desktop/views/report.py" line="208"/>
        <source>Max</source>
        <translation>满分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="208"/>
        <source>Topic</source>
        <translation>知识点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="211"/>
        <source>Question</source>
        <translation>题号</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="58"/>
        <source>Mock exam (组卷)</source>
        <translation>组卷模拟考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="74"/>
        <location filename="../../desktop/views/practice_set_dialog.py" line="90"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="78"/>
        <location filename="../../desktop/views/practice_set_dialog.py" line="100"/>
        <source>Template</source>
        <translation>模板</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="83"/>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="216"/>
        <source>Mock exam</source>
        <translation>模拟考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="89"/>
        <source>min</source>
        <translation>分钟</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="94"/>
        <location filename="../../desktop/views/practice_set_dialog.py" line="140"/>
        <source>New seed</source>
        <translation>换个种子</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="99"/>
        <source>Unverified (imported) questions too</source>
        <translation>也包括未核实（导入）的题目</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="102"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="103"/>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="104"/>
        <location filename="../../desktop/views/practice_set_dialog.py" line="150"/>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="105"/>
        <source>The same seed draws the same exam.</source>
        <translation>种子相同，抽出的试卷也相同。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="111"/>
        <location filename="../../desktop/views/practice_set_dialog.py" line="109"/>
        <source>(imported, unverified)</source>
        <translation>（导入，未核实）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="119"/>
        <location filename="../../desktop/views/report.py" line="211"/>
        <source>Type</source>
        <translation>题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="119"/>
        <source>Available</source>
        <translation>可用题数</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="119"/>
        <location filename="../../desktop/views/practice_set_dialog.py" line="148"/>
        <source>How many</source>
        <translation>抽取题数</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="120"/>
        <source>Points each</source>
        <translation>每题分值</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="161"/>
        <source>Topics (none: any)</source>
        <translation>知识点（不选即不限）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="171"/>
        <location filename="../../desktop/views/practice_set_dialog.py" line="96"/>
        <source>Save as template</source>
        <translation>保存为模板</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="177"/>
        <source>Start exam</source>
        <translation>开始考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="281"/>
        <source>%1 questions · %2 points · %3 min, in %4 section(s)</source>
        <translation>%1 题 · 总分 %2 · %3 分钟 · 共 %4 个大题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="300"/>
        <source>Not enough questions for this exam:</source>
        <translation>题目不足，无法组成这份试卷：</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="301"/>
        <source>not enough %1: %2 needed, %3 available</source>
        <translation>%1不足：需要 %2 道，现有 %3 道</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="317"/>
        <source>(a new exam)</source>
        <translation>（新建考试）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="343"/>
        <source>not taken yet</source>
        <translation>尚未考过</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="345"/>
        <source>best %1 · last %2 of %3 · %4 time(s)</source>
        <translation>最高 %1 · 最近 %2 / %3 分 · 共 %4 次</translation>
    </message>
    <message>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="369"/>
        <source>Saved as the template “%1” (%2).</source>
        <translation>已保存为模板“%1”（%2）。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="211"/>
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <location filename="../../desktop/views/check_results.py" line="57"/>
        <source>%1 of %2 required checks passed</source>
        <translation>通过 %1/%2 项必需检查</translation>
    </message>
    <message>
        <location filename="../../desktop/views/check_results.py" line="62"/>
        <source>%1 optional check(s) failed</source>
        <translation>%1 项可选检查未通过</translation>
    </message>
    <message>
        <location filename="../../desktop/views/check_results.py" line="65"/>
        <source>%1 check(s) not judged here</source>
        <translation>%1 项检查在此环境中未评判</translation>
    </message>
    <message>
        <location filename="../../desktop/views/check_results.py" line="77"/>
        <location filename="../../desktop/views/check_results.py" line="174"/>
        <source>No check run yet: Check runs your code, then the question&apos;s checks.</source>
        <translation>尚未检查：点击“检查”会先运行你的代码，再运行本题的检查。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/check_results.py" line="88"/>
        <location filename="../../desktop/views/report.py" line="212"/>
        <source>Time</source>
        <translation>用时</translation>
    </message>
    <message>
        <location filename="../../desktop/views/check_results.py" line="88"/>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../../desktop/views/check_results.py" line="88"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../desktop/views/check_results.py" line="179"/>
        <source>Checking: running your code in the console, then the checks…</source>
        <translation>正在检查：先在控制台运行你的代码，再运行检查…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/check_results.py" line="185"/>
        <source>Not checked: %1</source>
        <translation>未检查：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/check_results.py" line="195"/>
        <source>All %1 failed checks stopped at the same error: %2</source>
        <translation>未通过的 %1 项检查都停在同一个错误上：%2</translation>
    </message>
    <message>
        <location filename="../../desktop/views/check_results.py" line="199"/>
        <source>That is the starter&apos;s placeholder: replace every &lt;code&gt;raise NotImplementedError&lt;/code&gt; with your code, then check again.</source>
        <translation>这是初始代码里的占位语句：把每一处 &lt;code&gt;raise NotImplementedError&lt;/code&gt; 换成你的代码，然后重新检查。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/check_results.py" line="209"/>
        <source>traceback (the same for each)</source>
        <translation>错误回溯（各项相同）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="199"/>
        <source>Your code answers are checked as soon as the Python console is ready; the results come into this report.</source>
        <translation>Python 控制台就绪后会立即检查你的代码题，结果会写入本成绩单。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="220"/>
        <source>By section</source>
        <translation>按题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="222"/>
        <source>By topic</source>
        <translation>按知识点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="224"/>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="225"/>
        <source>Questions</source>
        <translation>逐题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="226"/>
        <source>Time per question</source>
        <translation>每题用时</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="259"/>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="264"/>
        <source>submitted</source>
        <translation>已交卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="264"/>
        <source>submitted when time ran out</source>
        <translation>时间到自动交卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="266"/>
        <source>in progress</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="266"/>
        <source>abandoned</source>
        <translation>已放弃</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="271"/>
        <source>%1 answer(s) pending: self-mark them under Questions, or run the code checks.</source>
        <translation>%1 道题待评分：请在“逐题”页自评，或运行代码检查。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="277"/>
        <source>time used</source>
        <translation>用时</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="307"/>
        <source>not counted: unverified (imported) question</source>
        <translation>不计分：导入的未核实题目</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="310"/>
        <source>Self-mark…</source>
        <translation>自评…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="314"/>
        <source>Run the checks now</source>
        <translation>现在运行检查</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="350"/>
        <source>Checking your code for question %1… (%2 more to go)</source>
        <translation>正在检查第 %1 题的代码…（还剩 %2 题）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="362"/>
        <source>Your code answers are checked: the results are in this report (Questions).</source>
        <translation>代码题已全部检查：结果见本成绩单的“逐题”页。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="379"/>
        <source>Question %1 was not checked: %2</source>
        <translation>第 %1 题未检查：%2</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="121"/>
        <source>Your answer</source>
        <translation>你的答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="142"/>
        <source>Errata</source>
        <translation>勘误</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="22"/>
        <source>Again</source>
        <translation>重来</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="22"/>
        <source>Hard</source>
        <translation>困难</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="22"/>
        <source>Good</source>
        <translation>良好</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="23"/>
        <source>Easy</source>
        <translation>简单</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="30"/>
        <source>in %1 min</source>
        <translation>%1 分钟后</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="34"/>
        <source>today at %1</source>
        <translation>今天 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="35"/>
        <source>%1 (in %2 days)</source>
        <translation>%1（%2 天后）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="64"/>
        <source>Rate it yourself:</source>
        <translation>自己评分：</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="100"/>
        <source>you rated it</source>
        <translation>你评为</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="100"/>
        <source>examdesk rated it</source>
        <translation>examdesk 评为</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="102"/>
        <source>next review</source>
        <translation>下次复习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="65"/>
        <source>Your pick, and it is in the key</source>
        <translation>你选了此项，它是正确选项</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="67"/>
        <source>Your pick, but it is not in the key</source>
        <translation>你选了此项，但它不是正确选项</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="69"/>
        <source>In the key, but you did not pick it (missed)</source>
        <translation>正确选项，但你没有选（漏选）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/attempt_history.py" line="28"/>
        <source>no verdict</source>
        <translation>无结论</translation>
    </message>
    <message>
        <location filename="../../desktop/views/attempt_history.py" line="50"/>
        <source>Check attempts</source>
        <translation>检查记录</translation>
    </message>
    <message>
        <location filename="../../desktop/views/attempt_history.py" line="56"/>
        <source>No check attempts yet: each Check keeps your code and its results here.</source>
        <translation>还没有检查记录：每次“检查”都会把你的代码和结果保存在这里。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/attempt_history.py" line="68"/>
        <source>Code of this attempt</source>
        <translation>本次检查的代码</translation>
    </message>
    <message>
        <location filename="../../desktop/views/attempt_history.py" line="69"/>
        <source>Diff: this attempt → the editor now</source>
        <translation>差异：本次检查 → 编辑器中的当前代码</translation>
    </message>
    <message>
        <location filename="../../desktop/views/attempt_history.py" line="89"/>
        <source>Put this code in the editor</source>
        <translation>把这段代码放回编辑器</translation>
    </message>
    <message>
        <location filename="../../desktop/views/attempt_history.py" line="93"/>
        <source>The answer is submitted: its code is locked.</source>
        <translation>答案已提交，代码已锁定。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/attempt_history.py" line="110"/>
        <source>No verdict: %1</source>
        <translation>无结论：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/attempt_history.py" line="113"/>
        <source>attempt</source>
        <translation>本次检查</translation>
    </message>
    <message>
        <location filename="../../desktop/views/attempt_history.py" line="114"/>
        <source>editor</source>
        <translation>编辑器</translation>
    </message>
    <message>
        <location filename="../../desktop/views/attempt_history.py" line="116"/>
        <source>The editor holds exactly this code.</source>
        <translation>编辑器中的代码与此完全相同。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="26"/>
        <source>Anki deck (.apkg)</source>
        <translation>Anki 牌组（.apkg）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="26"/>
        <source>Moodle XML (.xml)</source>
        <translation>Moodle XML（.xml）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="27"/>
        <source>GIFT (.gift.txt)</source>
        <translation>GIFT（.gift.txt）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="27"/>
        <source>examdesk JSON (.json)</source>
        <translation>examdesk JSON（.json）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="37"/>
        <location filename="../../desktop/views/bank_files.py" line="109"/>
        <location filename="../../desktop/views/bank_files.py" line="114"/>
        <source>Export questions</source>
        <translation>导出题目</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="44"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="46"/>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="161"/>
        <location filename="../../desktop/views/practice_set_dialog.py" line="121"/>
        <source>Papers</source>
        <translation>试卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="57"/>
        <source>Anki keeps your reviews: exporting again updates the same notes instead of adding copies.</source>
        <translation>Anki 会保留你的复习记录：再次导出会更新原有笔记，而不会重复添加。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="61"/>
        <source>Include my notes (the cards&apos; Note field)</source>
        <translation>包括我的笔记（写入卡片的 Note 字段）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="69"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="109"/>
        <location filename="../../desktop/views/mock_exam_dialog.py" line="214"/>
        <source>Choose at least one paper.</source>
        <translation>请至少选择一份试卷。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="124"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="129"/>
        <source>%1 question(s) written to %2.</source>
        <translation>已将 %1 道题写入 %2。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="132"/>
        <source>%1 thing(s) this format cannot carry were left out or changed; see the details.</source>
        <translation>有 %1 处内容是此格式无法保存的，已省略或改写；请查看详细信息。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/bank_files.py" line="135"/>
        <source>Questions exported</source>
        <translation>题目已导出</translation>
    </message>
    <message>
        <location filename="../../desktop/views/console_placement.py" line="53"/>
        <source>Hide the console (View → Python console brings it back)</source>
        <translation>隐藏控制台（用“视图 → Python 控制台”可重新打开）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/console_placement.py" line="63"/>
        <source>Collapse the console</source>
        <translation>收起控制台</translation>
    </message>
    <message>
        <location filename="../../desktop/views/console_placement.py" line="63"/>
        <source>Open the console</source>
        <translation>展开控制台</translation>
    </message>
    <message>
        <location filename="../../desktop/views/console_placement.py" line="64"/>
        <source>collapsed · %1 opens it</source>
        <translation>已收起 · 按 %1 展开</translation>
    </message>
    <message>
        <location filename="../../desktop/views/console_placement.py" line="90"/>
        <source>&amp;Python console</source>
        <translation>Python 控制台(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../desktop/views/console_placement.py" line="140"/>
        <source>Closed-book exam: the console comes back when you submit</source>
        <translation>闭卷考试：交卷后才能使用控制台</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="79"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="34"/>
        <location filename="../../desktop/views/settings_dialog.py" line="89"/>
        <source>Interface language</source>
        <translation>界面语言</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="35"/>
        <source>The new language is used when examdesk starts again. Restart now? Everything you did is saved first.</source>
        <translation>新的界面语言在 examdesk 重新启动后生效。现在重启吗？你所做的一切会先保存。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="38"/>
        <source>Restart now</source>
        <translation>立即重启</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="39"/>
        <source>Later</source>
        <translation>稍后</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="90"/>
        <source>Takes effect when examdesk starts again (it offers to restart now).</source>
        <translation>在 examdesk 重新启动后生效（保存时可立即重启）。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="94"/>
        <source>Simplified Chinese (as the papers are written)</source>
        <translation>简体中文（与试卷原文一致）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="95"/>
        <source>Traditional Chinese (Taiwan characters, OpenCC s2tw)</source>
        <translation>繁体中文（台湾字形，OpenCC s2tw）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="99"/>
        <source>Questions shown in</source>
        <translation>题目显示为</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="100"/>
        <source>Display only: answers typed in either script are graded alike. Applies to the questions you open from now on.</source>
        <translation>只影响显示：用简体或繁体作答，判分相同。对此后打开的题目生效。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="104"/>
        <source>As the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="104"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="104"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="109"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="116"/>
        <source>Review and the wrong-answer book</source>
        <translation>复习与错题本</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="118"/>
        <source>New cards per day</source>
        <translation>每日新题数</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="119"/>
        <source>Reviews per day</source>
        <translation>每日复习数</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="120"/>
        <source>Leaves the wrong-answer book after</source>
        <translation>移出错题本需连续答对</translation>
    </message>
    <message>
        <location filename="../../desktop/views/settings_dialog.py" line="121"/>
        <source>right answers in a row (it can be put back by hand). The daily limits apply to the review session (Due today).</source>
        <translation>次（移出后可手动放回）。每日上限适用于复习模式（今日复习）。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="13"/>
        <source>everywhere</source>
        <translation>全局</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="13"/>
        <source>on a question (not while typing)</source>
        <translation>题目页（输入时除外）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="14"/>
        <source>practice</source>
        <translation>练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="14"/>
        <source>exam</source>
        <translation>考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="14"/>
        <source>code questions</source>
        <translation>编程题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="16"/>
        <source>pick an option (multiple choice: toggle it)</source>
        <translation>选择选项（多选题：选中/取消）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="63"/>
        <source>Review session</source>
        <translation>复习模式</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="63"/>
        <source>due today</source>
        <translation>今日到期</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="77"/>
        <source>Loading today&apos;s cards…</source>
        <translation>正在加载今日的复习题…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="89"/>
        <location filename="../../desktop/views/shortcuts_help.py" line="17"/>
        <location filename="../../desktop/views/shortcuts_help.py" line="30"/>
        <source>Space</source>
        <translation>空格</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="89"/>
        <source>Show answer</source>
        <translation>查看答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="107"/>
        <source>Back to the library</source>
        <translation>返回题库</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="185"/>
        <source>new %1</source>
        <translation>新题 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="187"/>
        <source>learning %1</source>
        <translation>学习中 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="189"/>
        <source>review %1</source>
        <translation>复习 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="245"/>
        <source>Finishing…</source>
        <translation>正在结束…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="259"/>
        <source>Nothing to review today</source>
        <translation>今天没有要复习的题目</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="260"/>
        <source>No card is due and no new card is left within today&apos;s limit (File ▸ Settings). Come back tomorrow, or practise a paper.</source>
        <translation>没有到期的题目，今日新题也已达上限（文件 ▸ 设置）。明天再来，或者先练一份试卷。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="268"/>
        <source>Done for today</source>
        <translation>今日复习完成</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="269"/>
        <source>%1 card(s) reviewed, %2 of them new</source>
        <translation>已复习 %1 题，其中新题 %2 题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/review_session.py" line="272"/>
        <source>%1 rating(s) in %2 min</source>
        <translation>共评分 %1 次，用时 %2 分钟</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="17"/>
        <source>toggle the last option picked (multiple choice)</source>
        <translation>选中/取消最近选的选项（多选题）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="18"/>
        <source>previous / next question</source>
        <translation>上一题 / 下一题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="19"/>
        <location filename="../../desktop/views/shortcuts_help.py" line="22"/>
        <location filename="../../desktop/views/shortcuts_help.py" line="30"/>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="19"/>
        <source>submit a choice or a fill-in answer</source>
        <translation>提交选择题或填空题的答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="20"/>
        <source>submit any answer, also while typing (Enter is a new line in working, essays and code)</source>
        <translation>提交任意题型的答案，输入时也可用（在解题过程、简答和代码中 Enter 是换行）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="22"/>
        <source>next question (the exam is handed in with its Submit button)</source>
        <translation>下一题（交卷请点“交卷”按钮）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="24"/>
        <source>flag / unflag the question</source>
        <translation>标记 / 取消标记本题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="24"/>
        <source>practice and exam</source>
        <translation>练习和考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="25"/>
        <source>star / unstar the question (favourites)</source>
        <translation>收藏 / 取消收藏本题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="26"/>
        <source>show the answer without answering (reviewed soon, as a miss)</source>
        <translation>不作答直接查看答案（按答错处理，很快安排复习）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="28"/>
        <source>recite mode (背题) on / off</source>
        <translation>开启 / 关闭背题模式</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="29"/>
        <source>recite mode: knew it / didn&apos;t</source>
        <translation>背题模式：记得 / 不记得</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="31"/>
        <source>review session: show the answer, then Again / Hard / Good / Easy</source>
        <translation>复习模式：查看答案，然后评为 重来 / 困难 / 良好 / 简单</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="32"/>
        <source>review session</source>
        <translation>复习模式</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="33"/>
        <source>run your code in the console</source>
        <translation>在控制台运行代码</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="34"/>
        <source>check your code</source>
        <translation>检查代码</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="35"/>
        <source>hide or show the problem beside the editor</source>
        <translation>收起或显示编辑器旁的题目</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="36"/>
        <source>indent / dedent (code editor)</source>
        <translation>增加 / 减少缩进（代码编辑器）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="37"/>
        <source>open or collapse the Python console</source>
        <translation>展开或收起 Python 控制台</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="38"/>
        <source>back to the library</source>
        <translation>返回题库</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="39"/>
        <source>wrong-answer book</source>
        <translation>错题本</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="40"/>
        <source>review what is due today</source>
        <translation>今日复习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="41"/>
        <source>search every question and your notes</source>
        <translation>搜索所有题目和你的笔记</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="42"/>
        <source>practice sets</source>
        <translation>组题练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="43"/>
        <source>mock exam (组卷)</source>
        <translation>组卷模拟考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="44"/>
        <source>dashboard</source>
        <translation>学习统计</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="45"/>
        <source>text larger / smaller / reset</source>
        <translation>文字放大 / 缩小 / 还原</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="46"/>
        <source>settings (language, question script)</source>
        <translation>设置（界面语言、题目简繁）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="47"/>
        <source>this list</source>
        <translation>本快捷键列表</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="48"/>
        <source>quit (asks first during an exam: its clock keeps running)</source>
        <translation>退出（考试中会先确认：计时不会停止）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="57"/>
        <source>Keyboard shortcuts</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="63"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="63"/>
        <source>Does</source>
        <translation>作用</translation>
    </message>
    <message>
        <location filename="../../desktop/views/shortcuts_help.py" line="63"/>
        <source>Where</source>
        <translation>适用范围</translation>
    </message>
    <message>
        <location filename="../../desktop/views/notes.py" line="49"/>
        <source>Favourite: star this question to practise your favourites later (Ctrl+D)</source>
        <translation>收藏本题，以后可专门练习收藏的题目（Ctrl+D）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/notes.py" line="84"/>
        <source>Favourite</source>
        <translation>已收藏</translation>
    </message>
    <message>
        <location filename="../../desktop/views/notes.py" line="84"/>
        <source>Star</source>
        <translation>收藏</translation>
    </message>
    <message>
        <location filename="../../desktop/views/notes.py" line="103"/>
        <source>My note</source>
        <translation>我的笔记</translation>
    </message>
    <message>
        <location filename="../../desktop/views/notes.py" line="106"/>
        <location filename="../../desktop/views/notes.py" line="176"/>
        <source>Add a note</source>
        <translation>添加笔记</translation>
    </message>
    <message>
        <location filename="../../desktop/views/notes.py" line="122"/>
        <source>Your note, in Markdown: what to remember, where you went wrong… Saved as you type.</source>
        <translation>用 Markdown 写笔记：要记住的要点、错在哪里…输入时自动保存。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/notes.py" line="176"/>
        <source>Edit note</source>
        <translation>编辑笔记</translation>
    </message>
    <message>
        <location filename="../../desktop/views/notes.py" line="178"/>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../desktop/views/notes.py" line="211"/>
        <source>editing…</source>
        <translation>编辑中…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/notes.py" line="228"/>
        <source>saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <location filename="../../desktop/views/notes.py" line="235"/>
        <source>not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="60"/>
        <source>Practice sets</source>
        <translation>组题练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="76"/>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="79"/>
        <source>Unfinished sets</source>
        <translation>未完成的练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="95"/>
        <source>Name, to save this set as a template</source>
        <translation>名称（用于把本练习保存为模板）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="115"/>
        <source>All</source>
        <translation>全选</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="115"/>
        <source>None</source>
        <translation>全不选</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="126"/>
        <source>In order (顺序)</source>
        <translation>顺序练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="128"/>
        <source>Random (随机)</source>
        <translation>随机练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="134"/>
        <location filename="../../desktop/views/practice_set_dialog.py" line="293"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="138"/>
        <source>seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="154"/>
        <source>Order</source>
        <translation>出题顺序</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="163"/>
        <source>Sections</source>
        <translation>大题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="164"/>
        <source>Types</source>
        <translation>题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="165"/>
        <source>Topics</source>
        <translation>知识点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="166"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="170"/>
        <source>Nothing ticked in a list means any.</source>
        <translation>列表中不勾选任何项即为不限。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="173"/>
        <source>Unanswered only (never answered or shown)</source>
        <translation>只练未做过的（从未作答或查看答案）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="175"/>
        <source>Wrong only (in the wrong-answer book)</source>
        <translation>只练错题（错题本中的题目）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="177"/>
        <source>Favourites only (★)</source>
        <translation>只练收藏（★）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="179"/>
        <source>Include unverified (imported) questions</source>
        <translation>包括未核实（导入）的题目</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="188"/>
        <source>Filters</source>
        <translation>筛选</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="192"/>
        <source>Practice: answer, then see the key</source>
        <translation>练习：先作答，再看答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="194"/>
        <source>Recite (背题): key and explanation at once</source>
        <translation>背题：直接显示答案和解析</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="207"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="245"/>
        <source>The seed must be a whole number.</source>
        <translation>种子必须是整数。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="288"/>
        <source>all papers</source>
        <translation>全部试卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="292"/>
        <source>Random %1 (seed %2)</source>
        <translation>随机练习：%1（种子 %2）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="295"/>
        <source>In order</source>
        <translation>顺序练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="296"/>
        <source>wrong only</source>
        <translation>只练错题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="297"/>
        <source>unanswered only</source>
        <translation>只练未做过的</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="298"/>
        <source>favourites only</source>
        <translation>只练收藏</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="369"/>
        <source>%1 question(s) match; the set has %2</source>
        <translation>符合条件的有 %1 题，本练习共 %2 题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="372"/>
        <source>seed %1 (the same seed gives the same set)</source>
        <translation>种子 %1（种子相同，抽到的题目也相同）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="375"/>
        <source>from %1 papers</source>
        <translation>来自 %1 份试卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="401"/>
        <source>(a new set)</source>
        <translation>（新建练习）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="421"/>
        <source>Give the set a name to save it as a template.</source>
        <translation>请先给本练习命名，再保存为模板。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="452"/>
        <source>%1 · %2 of %3 answered · started %4</source>
        <translation>%1 · 已答 %2/%3 题 · 开始于 %4</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice_set_dialog.py" line="453"/>
        <source>Practice run</source>
        <translation>练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="43"/>
        <source>numbering</source>
        <translation>题号</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="44"/>
        <source>stem</source>
        <translation>题干</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="44"/>
        <location filename="../../desktop/views/problem_text.py" line="103"/>
        <source>options</source>
        <translation>选项</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="44"/>
        <location filename="../../desktop/views/problem_text.py" line="95"/>
        <source>cut off</source>
        <translation>截断</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="45"/>
        <location filename="../../desktop/views/problem_text.py" line="94"/>
        <source>question type</source>
        <translation>题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="45"/>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="46"/>
        <source>explanation</source>
        <translation>解析</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="46"/>
        <location filename="../../desktop/views/problem_text.py" line="97"/>
        <source>check suite</source>
        <translation>检查套件</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="47"/>
        <location filename="../../desktop/views/problem_text.py" line="102"/>
        <source>accepted variants</source>
        <translation>其他可接受答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="47"/>
        <source>points per blank</source>
        <translation>每空分值</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="48"/>
        <location filename="../../desktop/views/problem_text.py" line="95"/>
        <source>rubric</source>
        <translation>评分要点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="48"/>
        <source>multiple-choice scoring</source>
        <translation>多选计分规则</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="49"/>
        <source>errata</source>
        <translation>勘误</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="49"/>
        <source>topics</source>
        <translation>知识点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="62"/>
        <source>question %1</source>
        <translation>第 %1 题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="66"/>
        <source>the whole paper</source>
        <translation>整张试卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="93"/>
        <source>no key printed</source>
        <translation>原卷无答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="94"/>
        <source>partial credit</source>
        <translation>部分得分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="95"/>
        <source>tolerance</source>
        <translation>容差</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="96"/>
        <source>no code</source>
        <translation>无代码</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="96"/>
        <source>where the code ends</source>
        <translation>代码在哪里结束</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="97"/>
        <source>blanks</source>
        <translation>填空</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="98"/>
        <source>number of blanks</source>
        <translation>空的数量</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="98"/>
        <source>restored hyphen</source>
        <translation>已恢复的连字符</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="99"/>
        <source>lost formula</source>
        <translation>丢失的公式</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="99"/>
        <source>lost name</source>
        <translation>丢失的名称</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="100"/>
        <source>lost character</source>
        <translation>丢失的字符</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="100"/>
        <source>lost spacing</source>
        <translation>丢失的空白</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="101"/>
        <source>code does not compile</source>
        <translation>代码无法编译</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="101"/>
        <source>indentation</source>
        <translation>缩进</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="102"/>
        <source>alternatives</source>
        <translation>其他答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="103"/>
        <source>deleted operator</source>
        <translation>丢失的运算符</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="104"/>
        <source>lost comment</source>
        <translation>丢失的注释</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="104"/>
        <source>text encoding</source>
        <translation>文本编码</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="49"/>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="50"/>
        <source>my note</source>
        <translation>我的笔记</translation>
    </message>
    <message>
        <location filename="../../desktop/views/problem_text.py" line="50"/>
        <source>topic</source>
        <translation>知识点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="41"/>
        <source>verified</source>
        <translation>已核实</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="41"/>
        <source>corrected</source>
        <translation>已勘误</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="42"/>
        <source>disputed</source>
        <translation>有争议</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="42"/>
        <source>unverified (imported)</source>
        <translation>未核实（导入）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="164"/>
        <source>Search questions</source>
        <translation>搜索题目</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="175"/>
        <source>Search stems, options, keys, explanations, errata, code and your notes (Chinese or identifiers)…</source>
        <translation>搜索题干、选项、答案、解析、勘误、代码和你的笔记（中文或标识符）…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="188"/>
        <source>my notes too</source>
        <translation>也搜索我的笔记</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="210"/>
        <source>Enter opens the question in practice · ↑/↓ choose · two-character words work too · &quot;quotes&quot; keep a phrase</source>
        <translation>Enter 在练习中打开该题 · ↑/↓ 选择 · 两个字的词也能搜 · 用 &quot;引号&quot; 括起的短语整体匹配</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="233"/>
        <source>All papers</source>
        <translation>全部试卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="234"/>
        <source>All types</source>
        <translation>全部题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="236"/>
        <source>All topics</source>
        <translation>全部知识点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="238"/>
        <source>Any status</source>
        <translation>全部状态</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="306"/>
        <source>No question matches “%1”.</source>
        <translation>没有与“%1”匹配的题目。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="308"/>
        <source>%1 matches, the best %2 shown</source>
        <translation>共 %1 条结果，显示最相关的 %2 条</translation>
    </message>
    <message>
        <location filename="../../desktop/views/search_dialog.py" line="311"/>
        <source>%1 match(es)</source>
        <translation>%1 条结果</translation>
    </message>
    <message>
        <location filename="../../desktop/views/reference_compare.py" line="34"/>
        <source>Your code and the reference</source>
        <translation>你的代码与参考答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/reference_compare.py" line="37"/>
        <source>No check suite scores this question: compare your code with the reference, then tick the self-marking points it covers.</source>
        <translation>本题没有检查套件评分：请对照参考答案，再勾选你的代码覆盖的自评要点。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/reference_compare.py" line="43"/>
        <source>Your code</source>
        <translation>你的代码</translation>
    </message>
    <message>
        <location filename="../../desktop/views/reference_compare.py" line="44"/>
        <source>Reference</source>
        <translation>参考答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/reference_compare.py" line="45"/>
        <source>Side by side</source>
        <translation>并排对照</translation>
    </message>
    <message>
        <location filename="../../desktop/views/reference_compare.py" line="48"/>
        <source>your code</source>
        <translation>你的代码</translation>
    </message>
    <message>
        <location filename="../../desktop/views/reference_compare.py" line="48"/>
        <source>reference</source>
        <translation>参考答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/reference_compare.py" line="52"/>
        <source>Your code is the same as the reference.</source>
        <translation>你的代码与参考答案完全相同。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/reference_compare.py" line="53"/>
        <source>Differences</source>
        <translation>差异</translation>
    </message>
    <message>
        <location filename="../../desktop/views/date_field.py" line="60"/>
        <source>Pick the date on a calendar</source>
        <translation>在日历上选择日期</translation>
    </message>
    <message>
        <location filename="../../desktop/views/date_field.py" line="95"/>
        <source>Not a date: type it as 2026-12-20</source>
        <translation>不是有效日期：请按 2026-12-20 的格式输入</translation>
    </message>
</context>
<context>
    <name>AnswerSheet</name>
    <message>
        <location filename="../../desktop/views/answer_sheet.py" line="47"/>
        <source>Answer sheet</source>
        <translation>答题卡</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_sheet.py" line="56"/>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_sheet.py" line="72"/>
        <source>Question %1 is void: no correct answer, not scored</source>
        <translation>第 %1 题已作废：没有正确答案，不计分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_sheet.py" line="78"/>
        <source>■ answered   □ unanswered   ⚑ orange border: flagged</source>
        <translation>■ 已答   □ 未答   ⚑ 橙色边框：已标记</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_sheet.py" line="80"/>
        <source>struck through: void (not scored)</source>
        <translation>删除线：作废（不计分）</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <location filename="../../desktop/app.py" line="270"/>
        <source>The progress database cannot be opened, so examdesk cannot save your work.</source>
        <translation>无法打开进度数据库，examdesk 无法保存你的作答。</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="314"/>
        <source>examdesk is already running on the data folder %1 (process %2), but it does not answer. Close that examdesk window, or end the process if it is stuck, then start examdesk again. Your progress is safe: only one examdesk at a time may use a data folder.</source>
        <translation>examdesk 已在数据文件夹 %1 上运行（进程 %2），但没有响应。请关闭那个 examdesk 窗口；如果它卡住了，请结束该进程，然后重新启动 examdesk。你的进度是安全的：同一个数据文件夹同一时间只能由一个 examdesk 使用。</translation>
    </message>
</context>
<context>
    <name>CalculationAnswer</name>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="400"/>
        <source>number, e.g. 2.7e8</source>
        <translation>数值，如 2.7e8</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="409"/>
        <source>Working (expression and derivation):</source>
        <translation>解题过程（表达式与推导）：</translation>
    </message>
</context>
<context>
    <name>ChartPanel</name>
    <message>
        <location filename="../../desktop/views/charts.py" line="108"/>
        <source>No answers yet</source>
        <translation>还没有作答记录</translation>
    </message>
</context>
<context>
    <name>CheckController</name>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="74"/>
        <source>{0} has no check suite</source>
        <translation>{0} 没有检查套件</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="76"/>
        <source>the kernel is not running: restart it, then check again</source>
        <translation>内核未在运行：请重启内核，然后重新检查</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="101"/>
        <source>your code was not run (the kernel aborted it); run it again</source>
        <translation>你的代码没有运行（被内核中止）；请再运行一次</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="106"/>
        <source>no verdict: {0}</source>
        <translation>无结论：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="109"/>
        <source>your code was interrupted before the checks ran</source>
        <translation>你的代码在检查开始前被中断</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="113"/>
        <source>your code raised {0}: {1}</source>
        <translation>你的代码抛出了 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="151"/>
        <location filename="../../desktop/console/check_controller.py" line="160"/>
        <source>the kernel died during the check. {0}</source>
        <translation>内核在检查过程中终止。{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="163"/>
        <source>the kernel was restarted or closed during the check</source>
        <translation>内核在检查过程中被重启或关闭</translation>
    </message>
</context>
<context>
    <name>CheckPanel</name>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="30"/>
        <source>cpu ({0} threads)</source>
        <translation>CPU（{0} 个线程）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="32"/>
        <source>unknown device</source>
        <translation>未知设备</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="34"/>
        <source>Device: {0} · flash_attn: {1}</source>
        <translation>设备：{0} · flash_attn：{1}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="56"/>
        <source>No check run yet</source>
        <translation>尚未运行检查</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="58"/>
        <source>include slow checks (torch.compile)</source>
        <translation>包括慢速检查（torch.compile）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="65"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="65"/>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="65"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="66"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="66"/>
        <source>Dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="66"/>
        <source>Time</source>
        <translation>用时</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="93"/>
        <source>Checking {0}: running your code in the console, then the checks…</source>
        <translation>正在检查 {0}：先在控制台运行你的代码，再运行检查…</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="99"/>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="100"/>
        <source>not judged</source>
        <translation>未评判</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="101"/>
        <source>FAIL</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="102"/>
        <source>warn</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="117"/>
        <source>recognised</source>
        <translation>识别为</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="138"/>
        <source>{0}: no verdict — {1}</source>
        <translation>{0}：无结论 — {1}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="140"/>
        <source>PASSED</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="141"/>
        <source>NOT JUDGED</source>
        <translation>未评判</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="142"/>
        <source>FAILED</source>
        <translation>未通过</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="143"/>
        <source>{0}: {1}/{2} checks passed in {3:.1f} s — {4}</source>
        <translation>{0}：通过 {1}/{2} 项检查，用时 {3:.1f} 秒 — {4}</translation>
    </message>
</context>
<context>
    <name>ConsoleDock</name>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="41"/>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="42"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="43"/>
        <source>busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="44"/>
        <source>dead</source>
        <translation>已终止</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="45"/>
        <source>restarting</source>
        <translation>重启中</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="46"/>
        <source>no kernel</source>
        <translation>无内核</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="52"/>
        <source>Could not read the kernel&apos;s environment: {0}</source>
        <translation>无法读取内核的运行环境：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="56"/>
        <source>Device: CUDA {0}, {1} GiB, compute capability {2}</source>
        <translation>设备：CUDA {0}，{1} GiB，计算能力 {2}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="60"/>
        <source>Device: CPU, {0} threads</source>
        <translation>设备：CPU，{0} 个线程</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="63"/>
        <source>torch is not importable here: {0}</source>
        <translation>此环境中无法导入 torch：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="67"/>
        <source>stand-in (examdesk&apos;s CPU-capable copy of the flash_attn_func API)</source>
        <translation>替代实现（examdesk 自带的 flash_attn_func API 副本，可在 CPU 上运行）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="69"/>
        <source>flash_attn: {0}</source>
        <translation>flash_attn：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="122"/>
        <source>Python console</source>
        <translation>Python 控制台</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="156"/>
        <source>Interrupt</source>
        <translation>中断</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="157"/>
        <source>Stop the running code (Ctrl+C in the console)</source>
        <translation>停止正在运行的代码（相当于在控制台按 Ctrl+C）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="158"/>
        <source>Restart</source>
        <translation>重启</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="159"/>
        <source>Kill the kernel and start a fresh one (variables are lost)</source>
        <translation>结束当前内核并启动一个新内核（变量会丢失）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="177"/>
        <source>Restart kernel</source>
        <translation>重启内核</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="189"/>
        <source>The Python console starts once the window is up…</source>
        <translation>窗口就绪后，Python 控制台将随即启动…</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="276"/>
        <source>the console was closed</source>
        <translation>控制台已关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="320"/>
        <source>Kernel: {0}</source>
        <translation>内核：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="327"/>
        <source>the kernel was restarted</source>
        <translation>内核已重启</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="329"/>
        <source>Restarting the kernel…</source>
        <translation>正在重启内核…</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="340"/>
        <location filename="../../desktop/console/console_dock.py" line="346"/>
        <source>{0}
Restart the kernel to go on; your editor code is kept.</source>
        <translation>{0}
请重启内核后继续；编辑器中的代码会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="358"/>
        <source>The kernel is still busy after the interrupt (code in native loops may not stop). Restart it? Variables will be lost; your editor code is kept.</source>
        <translation>中断后内核仍在忙碌（原生代码中的循环可能无法停止）。要重启内核吗？变量会丢失；编辑器中的代码会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="368"/>
        <source>Switch kernel?</source>
        <translation>切换内核？</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="369"/>
        <source>Switching to {0} shuts down the current kernel: the variables, functions and imports you ran in it are lost (your editor code is kept).</source>
        <translation>切换到 {0} 会关闭当前内核：你在其中运行得到的变量、函数和导入都会丢失（编辑器中的代码会保留）。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="377"/>
        <source>another kernel was chosen</source>
        <translation>已选择另一个内核</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="180"/>
        <source>Reconnect</source>
        <translation>重新连接</translation>
    </message>
</context>
<context>
    <name>ConsoleWiring</name>
    <message>
        <location filename="../../desktop/console/wiring.py" line="65"/>
        <source>Check results</source>
        <translation>检查结果</translation>
    </message>
</context>
<context>
    <name>CrashReporter</name>
    <message>
        <location filename="../../desktop/crash_reporting.py" line="134"/>
        <source>Something went wrong inside examdesk.</source>
        <translation>examdesk 内部出错了。</translation>
    </message>
    <message>
        <location filename="../../desktop/crash_reporting.py" line="139"/>
        <source>Copy details</source>
        <translation>复制详细信息</translation>
    </message>
    <message>
        <location filename="../../desktop/crash_reporting.py" line="152"/>
        <source>What you were doing may not have finished. You can keep working; if this happens again, please send the details.</source>
        <translation>刚才的操作可能没有完成。你可以继续使用；如果再次出现，请把详细信息发给我们。</translation>
    </message>
    <message>
        <location filename="../../desktop/crash_reporting.py" line="155"/>
        <source>They are also in the log file %1.</source>
        <translation>详细信息也已写入日志文件 %1。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/crash_reporting.py" line="158"/>
        <source>%n more error(s) happened since this one.</source>
        <translation>
            <numerusform>此后又发生了 %n 个错误。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/crash_reporting.py" line="163"/>
        <source>… and %n more: see the log file.</source>
        <translation>
            <numerusform>… 另有 %n 个：请查看日志文件。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DashboardView</name>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="69"/>
        <source>Library</source>
        <translation>题库</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="71"/>
        <source>Dashboard</source>
        <translation>学习统计</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="72"/>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="79"/>
        <source>Exam date</source>
        <translation>考试日期</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="121"/>
        <source>%1 graded answers · %2 fully right · %3 due today</source>
        <translation>已判分 %1 题次 · 全对率 %2 · 今日待复习 %3</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="124"/>
        <source>Answers</source>
        <translation>作答</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="134"/>
        <source>Score</source>
        <translation>得分率</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="128"/>
        <source>Topic</source>
        <translation>知识点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="124"/>
        <source>Fully right</source>
        <translation>全对</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="124"/>
        <source>Score rate</source>
        <translation>得分率</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="127"/>
        <source>Score rate by topic (points earned / possible)</source>
        <translation>各知识点得分率（得分 / 满分）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="130"/>
        <source>Score rate by question type (points earned / possible)</source>
        <translation>各题型得分率（得分 / 满分）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="131"/>
        <source>Type</source>
        <translation>题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="132"/>
        <source>Exam scores per paper (%)</source>
        <translation>各试卷考试成绩（%）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="133"/>
        <source>Paper</source>
        <translation>试卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="133"/>
        <source>Attempt</source>
        <translation>第几次</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="133"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="135"/>
        <location filename="../../desktop/views/dashboard.py" line="226"/>
        <source>Reviews due, next 14 days</source>
        <translation>未来 14 天待复习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="136"/>
        <source>Day</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="136"/>
        <source>Due</source>
        <translation>待复习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="137"/>
        <source>Mean time per question (minutes)</source>
        <translation>每题平均用时（分钟）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="138"/>
        <source>Question</source>
        <translation>题号</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="138"/>
        <source>Visits</source>
        <translation>次数</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="138"/>
        <source>Mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="139"/>
        <source>Budget</source>
        <translation>建议用时</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="182"/>
        <source>%1 (mock exam)</source>
        <translation>%1（组卷）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="223"/>
        <source>Exam in %1 days; %2 reviews due before it</source>
        <translation>距考试 %1 天，考前待复习 %2 题次</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="225"/>
        <source>The exam date has passed</source>
        <translation>考试日期已过</translation>
    </message>
</context>
<context>
    <name>ExamView</name>
    <message>
        <location filename="../../desktop/views/exam.py" line="175"/>
        <source>Submit exam…</source>
        <translation>交卷…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="184"/>
        <source>Time left</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="190"/>
        <source>open book</source>
        <translation>开卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="191"/>
        <source>closed book: your code is checked after you submit</source>
        <translation>闭卷：交卷后检查代码</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="192"/>
        <source>Exam</source>
        <translation>考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="244"/>
        <source>Your exam is still running: the clock keeps going while examdesk is closed (%1 left now). Your answers are saved and you can resume. Quit anyway?</source>
        <translation>考试仍在进行：examdesk 关闭期间计时不会停止（现在还剩 %1）。你的答案已保存，之后可以继续考试。仍要退出吗？</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="258"/>
        <source>%1 minutes left.</source>
        <translation>还剩 %1 分钟。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="271"/>
        <source>Submit the exam now? You cannot change answers afterwards.</source>
        <translation>现在交卷吗？交卷后不能再修改答案。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="273"/>
        <source>Unanswered: %1</source>
        <translation>未作答：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="275"/>
        <source>Flagged: %1</source>
        <translation>已标记：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="276"/>
        <source>Time left: %1</source>
        <translation>剩余时间：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="279"/>
        <source>Submit exam</source>
        <translation>交卷</translation>
    </message>
</context>
<context>
    <name>FillBlankAnswer</name>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="285"/>
        <source>Blank %1</source>
        <translation>第 %1 空</translation>
    </message>
</context>
<context>
    <name>ImportReviewView</name>
    <message>
        <location filename="../../desktop/views/import_review.py" line="150"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="154"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="170"/>
        <source>Source as printed (simplified, glosses removed)</source>
        <translation>原文（已转为简体，已去除注音）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="189"/>
        <source>Points</source>
        <translation>分值</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="192"/>
        <source>Type</source>
        <translation>题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="194"/>
        <source>Stem</source>
        <translation>题干</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="197"/>
        <source>Letter</source>
        <translation>字母</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="197"/>
        <source>Option</source>
        <translation>选项内容</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="206"/>
        <source>Add option</source>
        <translation>添加选项</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="208"/>
        <source>Remove option</source>
        <translation>删除选项</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="215"/>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="224"/>
        <source>Key</source>
        <translation>答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="227"/>
        <source>Answer</source>
        <translation>答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="232"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="235"/>
        <source>Explanation</source>
        <translation>解析</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="237"/>
        <source>What the paper got wrong, if anything (needed when you change the printed key)</source>
        <translation>原卷有误之处（如有；修改原卷答案时必填）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="239"/>
        <source>Errata</source>
        <translation>勘误</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="245"/>
        <source>Flags</source>
        <translation>待核对</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="261"/>
        <location filename="../../desktop/views/import_review.py" line="570"/>
        <source>Mark verified</source>
        <translation>标记为已核实</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="271"/>
        <source>Save to papers folder</source>
        <translation>保存到试卷文件夹</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/views/import_review.py" line="299"/>
        <source>%n thing(s) in the file were not imported or were changed:</source>
        <translation>
            <numerusform>文件中有 %n 处内容未导入或已改写：</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="338"/>
        <source>verified</source>
        <translation>已核实</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="338"/>
        <source>corrected</source>
        <translation>已勘误</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/views/import_review.py" line="340"/>
        <source>%n flag(s)</source>
        <translation>
            <numerusform>%n 处待核对</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="342"/>
        <source>draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="350"/>
        <source>%1 questions · %2 verified · %3 flags open</source>
        <translation>%1 题 · 已核实 %2 · 待核对 %3 处</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="386"/>
        <source>printed: %1 (%2)</source>
        <translation>原卷：%1（%2）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="389"/>
        <source>printed: %1</source>
        <translation>原卷：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="390"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="442"/>
        <source>Self-marked against the reference answer</source>
        <translation>对照参考答案自评</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="457"/>
        <source>e.g. B or A,C</source>
        <translation>如 B 或 A,C</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="458"/>
        <source>one key per blank, separated by |</source>
        <translation>每空一个答案，用 | 分隔</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="461"/>
        <source>Worked solution</source>
        <translation>详细解答</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="462"/>
        <source>Reference answer</source>
        <translation>参考答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="493"/>
        <source>next to the question</source>
        <translation>印在题目旁</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="494"/>
        <source>in the key list at the end of its part</source>
        <translation>印在本大题末的答案表中</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="495"/>
        <source>in the answer appendix</source>
        <translation>印在卷末参考答案中</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="499"/>
        <source>(no source text: this draft was opened from a pack)</source>
        <translation>（没有原文：此草稿是从题包打开的）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="501"/>
        <source>(no printed source: this format stores the fields themselves, shown on the right as the file gives them)</source>
        <translation>（没有原文：此格式直接保存各字段，右侧按文件中的内容显示）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="565"/>
        <source>unverified draft</source>
        <translation>未核实的草稿</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="566"/>
        <source>verified: printed key confirmed</source>
        <translation>已核实：原卷答案无误</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="567"/>
        <source>verified: corrected (errata)</source>
        <translation>已核实：已更正（勘误）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="569"/>
        <source>Mark unverified</source>
        <translation>标记为未核实</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="584"/>
        <source>Question %1 is a draft again.</source>
        <translation>第 %1 题已改回草稿。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="592"/>
        <source>Not verified: %1</source>
        <translation>未能核实：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="596"/>
        <source>Question %1 verified as “%2”; %3 flag(s) resolved.</source>
        <translation>第 %1 题已核实为“%2”；已处理 %3 处待核对。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="623"/>
        <source>Saving to %1 …</source>
        <translation>正在保存到 %1 …</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="628"/>
        <source>writing %v/%m</source>
        <translation>正在写入 %v/%m</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="629"/>
        <source>validating</source>
        <translation>正在校验</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="630"/>
        <source>moving into place</source>
        <translation>正在移到目标位置</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="639"/>
        <source>Saved %1 (%2 questions).</source>
        <translation>已保存 %1（%2 题）。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="644"/>
        <source>Replace existing pack</source>
        <translation>替换已有题包</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="645"/>
        <source>%1 already holds a pack; press again to replace it, or change the id.</source>
        <translation>%1 中已有题包；再按一次即可替换，或者修改 ID。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/import_review.py" line="648"/>
        <location filename="../../desktop/views/import_review.py" line="651"/>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
</context>
<context>
    <name>KernelChooser</name>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="44"/>
        <source>Python kernel the console and the checks run in</source>
        <translation>控制台和检查所使用的 Python 内核</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="49"/>
        <source>examdesk (this Python)</source>
        <translation>examdesk（当前 Python）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="111"/>
        <source>examdesk (this Python, %1)</source>
        <translation>examdesk（当前 Python，%1）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="127"/>
        <source>Connect to existing kernel…</source>
        <translation>连接到已有内核…</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="188"/>
        <source>Connect to an existing kernel</source>
        <translation>连接到已有内核</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="189"/>
        <source>Kernel connection files (kernel-*.json *.json)</source>
        <translation>内核连接文件 (kernel-*.json *.json)</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="194"/>
        <source>{0} (connected)</source>
        <translation>{0}（已连接）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="101"/>
        <source>no GPU seen</source>
        <translation>未见 GPU</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="102"/>
        <source>{0} over SSH — {1}</source>
        <translation>{0}（SSH）— {1}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="126"/>
        <source>Remote GPU over SSH…</source>
        <translation>通过 SSH 使用远程 GPU…</translation>
    </message>
</context>
<context>
    <name>KernelSession</name>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="52"/>
        <source>The kernel stopped answering.</source>
        <translation>内核停止了响应。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="58"/>
        <source>The kernel was killed by {0} ({1}).</source>
        <translation>内核被 {0}（{1}）终止。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="60"/>
        <source>Often the out-of-memory killer: the code used more memory than the machine has.</source>
        <translation>通常是内存不足时的 OOM killer 所致：代码占用的内存超过了本机可用内存。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="62"/>
        <source>A crash in native code (segmentation fault).</source>
        <translation>原生代码崩溃（段错误）。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="64"/>
        <source>The process aborted (os.abort or a failed assertion in native code).</source>
        <translation>进程已中止（os.abort 或原生代码中的断言失败）。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="66"/>
        <source>A crash in native code (bus error).</source>
        <translation>原生代码崩溃（总线错误）。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="71"/>
        <source>The kernel exited with status {0}.</source>
        <translation>内核已退出，退出状态为 {0}。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="73"/>
        <location filename="../../desktop/console/kernel_session.py" line="577"/>
        <source>Last lines it wrote:</source>
        <translation>内核最后输出的几行：</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="256"/>
        <source>The kernel could not start: {0}</source>
        <translation>内核无法启动：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="298"/>
        <source>The kernel could not restart: {0}</source>
        <translation>内核无法重启：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="554"/>
        <source>The connected kernel has not answered its heartbeat for {0:.0f} s: it has died or the connection is lost.</source>
        <translation>已连接的内核已有 {0:.0f} 秒未响应心跳：它可能已终止，或连接已断开。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="559"/>
        <source>The kernel did not become ready within {0} s.</source>
        <translation>内核未能在 {0} 秒内就绪。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="522"/>
        <source>The connection to {0} was lost; the kernel still runs there. Reconnect?</source>
        <translation>与 {0} 的连接已断开；内核仍在那里运行。要重新连接吗？</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="525"/>
        <source>The connection to {0} was lost and the remote kernel stopped with it. Reconnect to start a new one?</source>
        <translation>与 {0} 的连接已断开，远程内核也随之停止。要重新连接并启动一个新内核吗？</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="541"/>
        <source>Could not reconnect: {0}</source>
        <translation>无法重新连接：{0}</translation>
    </message>
</context>
<context>
    <name>LibraryView</name>
    <message>
        <location filename="../../desktop/views/library.py" line="376"/>
        <source>Papers</source>
        <translation>试卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="379"/>
        <source>Wrong-answer book</source>
        <translation>错题本</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="382"/>
        <source>Due today</source>
        <translation>今日复习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="385"/>
        <source>Dashboard</source>
        <translation>学习统计</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="388"/>
        <source>Search (Ctrl+K)</source>
        <translation>搜索（Ctrl+K）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="391"/>
        <source>Practice sets</source>
        <translation>组题练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="394"/>
        <source>Mock exam (组卷)</source>
        <translation>组卷模拟考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="401"/>
        <source>Loading the question bank…</source>
        <translation>正在加载题库…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="438"/>
        <source>%1 problem(s) while loading the question bank; the papers below loaded.</source>
        <translation>加载题库时发现 %1 个问题；下列试卷已加载。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="442"/>
        <source>No papers found.</source>
        <translation>未找到试卷。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="554"/>
        <source>Wrong-answer book (%1)</source>
        <translation>错题本（%1）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="555"/>
        <source>Due today (%1)</source>
        <translation>今日复习（%1）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="556"/>
        <source>The review session: each due card&apos;s question, Show answer, then Again / Hard / Good / Easy (new cards too, up to the daily limit)</source>
        <translation>复习模式：逐一显示到期的题目，点“查看答案”，再评为 重来 / 困难 / 良好 / 简单（也包括新题，不超过每日上限）</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop/main_window.py" line="168"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="169"/>
        <source>&amp;Library</source>
        <translation>题库(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="175"/>
        <source>&amp;Export progress…</source>
        <translation>导出学习记录(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="177"/>
        <source>&amp;Import progress…</source>
        <translation>导入学习记录(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="179"/>
        <source>Import &amp;paper (text, Word, Moodle XML, GIFT)…</source>
        <translation>导入试卷（文本、Word、Moodle XML、GIFT）(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="181"/>
        <source>Import pasted &amp;text…</source>
        <translation>导入粘贴的文本(&amp;T)…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="182"/>
        <source>Export &amp;questions (Anki, Moodle, GIFT)…</source>
        <translation>导出题目（Anki、Moodle、GIFT）(&amp;Q)…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="189"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="195"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="202"/>
        <source>&amp;Practice</source>
        <translation>练习(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="203"/>
        <source>&amp;Review</source>
        <translation>复习(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="205"/>
        <source>Practice &amp;sets…</source>
        <translation>组题练习(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="207"/>
        <source>&amp;Continue the last practice set</source>
        <translation>继续上次的组题练习(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="209"/>
        <source>&amp;Mock exam (组卷)…</source>
        <translation>组卷模拟考试(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="211"/>
        <source>Searc&amp;h questions…</source>
        <translation>搜索题目(&amp;H)…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="213"/>
        <source>&amp;Wrong-answer book</source>
        <translation>错题本(&amp;W)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="219"/>
        <source>D&amp;ashboard</source>
        <translation>学习统计(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="229"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="231"/>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="232"/>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="233"/>
        <source>&amp;Reset zoom</source>
        <translation>重置缩放(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="239"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="240"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="301"/>
        <source>Check results log (console)</source>
        <translation>检查结果日志（控制台）</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="363"/>
        <source>examdesk hit a bug while showing a result; your progress was saved. Details for a bug report:</source>
        <translation>examdesk 在显示结果时遇到程序错误；你的进度已保存。以下详细信息可用于报告问题：</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="369"/>
        <source>examdesk</source>
        <translation>examdesk</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="739"/>
        <source>the pasted text</source>
        <translation>粘贴的文本</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="784"/>
        <source>The importer stopped before it finished; nothing was written. examdesk itself is fine.</source>
        <translation>导入程序未能完成就停止了；没有写入任何内容。examdesk 本身不受影响。</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="872"/>
        <source>Quit examdesk?</source>
        <translation>退出 examdesk？</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="358"/>
        <source>Saving or loading progress failed:</source>
        <translation>保存或读取进度失败：</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="215"/>
        <source>&amp;Due today: review session</source>
        <translation>今日复习（复习模式）(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="217"/>
        <source>&amp;Practise today&apos;s questions (as a practice run)</source>
        <translation>练习今日到期的题目（作为一次练习）(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="431"/>
        <source>Paper %1 is not in the question bank.</source>
        <translation>题库中没有试卷 %1。</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="477"/>
        <source>Question %1 is not in the question bank.</source>
        <translation>题库中没有题目 %1。</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="542"/>
        <source>Wrong-answer book</source>
        <translation>错题本</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="549"/>
        <source>Due today</source>
        <translation>今日复习</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="563"/>
        <source>Nothing to practise here.</source>
        <translation>这里没有要练习的题目。</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="611"/>
        <location filename="../../desktop/main_window.py" line="623"/>
        <source>Practice set</source>
        <translation>组题练习</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="708"/>
        <location filename="../../desktop/main_window.py" line="788"/>
        <source>Import paper</source>
        <translation>导入试卷</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="787"/>
        <source>This file cannot be imported; nothing was written.</source>
        <translation>无法导入此文件；没有写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="826"/>
        <source>Time ran out on your exam “%1” while examdesk was closed. It will be submitted with the answers you saved.</source>
        <translation>examdesk 关闭期间，考试“%1”的时间已到，将按已保存的答案交卷。</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="828"/>
        <source>Exam time is up</source>
        <translation>考试时间已到</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="832"/>
        <source>You have an unfinished exam: “%1”, %2 minutes left. The clock kept running while examdesk was closed. Resume it now?</source>
        <translation>你有一场未完成的考试：“%1”，剩余 %2 分钟。examdesk 关闭期间计时未停。现在继续吗？</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="835"/>
        <source>Resume exam</source>
        <translation>继续考试</translation>
    </message>
</context>
<context>
    <name>Messages</name>
    <message>
        <location filename="../../question_db/messages.py" line="30"/>
        <source>Cannot save to {path}: the disk is full. What you just entered was not saved; your earlier progress is intact. Free some space and try again.</source>
        <translation>无法保存到 {path}：磁盘已满。你刚才输入的内容没有保存；之前的进度完好无损。请释放一些空间后重试。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="33"/>
        <source>Cannot save to {path}: the file or its folder is read-only. What you just entered was not saved. Make the folder writable or choose another data folder (--data-dir).</source>
        <translation>无法保存到 {path}：该文件或其所在文件夹是只读的。你刚才输入的内容没有保存。请让该文件夹可写，或另选一个数据文件夹（--data-dir）。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="37"/>
        <source>Cannot use {path}: another program kept it locked. What you just entered was not saved. Close other examdesk windows and try again.</source>
        <translation>无法使用 {path}：另一个程序一直锁定着它。你刚才输入的内容没有保存。请关闭其他 examdesk 窗口后重试。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="40"/>
        <source>Cannot read or write {path} ({detail}). What you just entered was not saved; your earlier progress is intact.</source>
        <translation>无法读写 {path}（{detail}）。你刚才输入的内容没有保存；之前的进度完好无损。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="43"/>
        <source>Your latest changes stay on screen, and examdesk saves them again with your next change once the problem is fixed (free some space, or make the folder writable).</source>
        <translation>你最近的修改仍保留在屏幕上；问题解决后（释放一些空间，或让文件夹可写），examdesk 会在你下一次修改时再次保存它们。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="48"/>
        <source>Read only: the data folder {folder} is read-only, so nothing you enter here is saved. You can read the questions and see their answers. Make the folder writable, or start examdesk with --data-dir set to a writable folder, to practise with your answers saved.</source>
        <translation>只读：数据文件夹 {folder} 是只读的，你在这里输入的内容都不会保存。你可以阅读题目并查看答案。若要保存作答进度，请让该文件夹可写，或用 --data-dir 指定一个可写的文件夹来启动 examdesk。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="53"/>
        <source>Read only: examdesk could not open your progress in {folder} for writing when it started (see the message shown then), so nothing you enter here is saved. You can read the questions and see their answers.</source>
        <translation>只读：examdesk 启动时无法以写入方式打开 {folder} 中的进度（见当时显示的提示），你在这里输入的内容都不会保存。你可以阅读题目并查看答案。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="58"/>
        <source>Your progress file {path} is damaged. It was kept unchanged as {moved_to}, and examdesk started a new, empty progress file.</source>
        <translation>你的进度文件 {path} 已损坏。它已原样保留为 {moved_to}，examdesk 新建了一个空的进度文件。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="61"/>
        <source>No backup of it was found.</source>
        <translation>没有找到它的备份。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="63"/>
        <source>A backup is available ({backup}): restore it to get your progress back as of that day.</source>
        <translation>有可用的备份（{backup}）：恢复它即可找回截至当天的进度。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="66"/>
        <source>Your progress file {path} was written by a newer version of examdesk (schema version {version}; this one understands up to {supported}). It was left untouched. Until you update examdesk, your progress is saved in {side_path} instead.</source>
        <translation>你的进度文件 {path} 由更新版本的 examdesk 写入（数据结构版本 {version}；当前版本最高支持 {supported}），已保持原样未改动。在你更新 examdesk 之前，进度改为保存在 {side_path}。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="71"/>
        <source>The data folder {folder} is read-only, so examdesk cannot save your progress. You can look at what was saved before, but new answers will not be saved. Make the folder writable, or start examdesk with --data-dir set to a writable folder.</source>
        <translation>数据文件夹 {folder} 是只读的，examdesk 无法保存你的进度。你可以查看之前保存的内容，但新的答案不会被保存。请让该文件夹可写，或用 --data-dir 指定一个可写的文件夹来启动 examdesk。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="76"/>
        <source>The disk that holds {path} is full, so examdesk cannot save your progress. Nothing you do will be saved until space is freed; then restart examdesk.</source>
        <translation>存放 {path} 的磁盘已满，examdesk 无法保存你的进度。释放空间之前，你的任何操作都不会被保存；释放后请重启 examdesk。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="80"/>
        <source>examdesk cannot save your progress in {path} ({detail}). Nothing you do will be saved until that is fixed; then restart examdesk.</source>
        <translation>examdesk 无法将进度保存到 {path}（{detail}）。问题解决之前，你的任何操作都不会被保存；解决后请重启 examdesk。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="83"/>
        <source>The daily backup of your progress could not be written to {path} ({detail}). Your progress file itself is fine.</source>
        <translation>无法将进度的每日备份写入 {path}（{detail}）。进度文件本身完好。</translation>
    </message>
    <message>
        <location filename="../../question_db/messages.py" line="86"/>
        <source>Little space is left on the disk that holds {path} ({free_mib} MiB free). When it is full, examdesk cannot save your answers.</source>
        <translation>存放 {path} 的磁盘剩余空间不多（仅剩 {free_mib} MiB）。磁盘满后，examdesk 将无法保存你的答案。</translation>
    </message>
</context>
<context>
    <name>MockExamsCard</name>
    <message>
        <location filename="../../desktop/views/library.py" line="266"/>
        <source>Mock exams (组卷)</source>
        <translation>组卷模考</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="273"/>
        <source>New mock exam…</source>
        <translation>新建组卷…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="276"/>
        <source>Resume exam</source>
        <translation>继续考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="301"/>
        <source>%1 taken</source>
        <translation>已考 %1 次</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="304"/>
        <source>last: %1, %2 of %3 points</source>
        <translation>最近：%1，%2 / %3 分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="308"/>
        <source>%1 under way</source>
        <translation>%1 进行中</translation>
    </message>
</context>
<context>
    <name>PackTrust</name>
    <message>
        <location filename="../../desktop/console/pack_trust.py" line="23"/>
        <source>nothing was run: you did not allow code from the pack “%1” (%2). Press the button again to be asked again.</source>
        <translation>未运行任何代码：你没有允许题包“%1”（%2）的代码。再次点击该按钮可重新询问。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/pack_trust.py" line="30"/>
        <source>“%1” (%2) is not a pack that came with examdesk. Its checks and verify snippets are Python programs that would run on this computer with your rights.

Folder: %3

If you are not sure where this pack comes from, read its files first. Allow its code to run? You are asked again if any of its files change.</source>
        <translation>“%1”（%2）不是 examdesk 自带的题包。它的检查程序和验证片段都是 Python 程序，会以你的权限在这台电脑上运行。

文件夹：%3

如果不确定这个题包的来源，请先阅读它的文件。允许运行它的代码吗？题包的任何文件发生变化时会再次询问。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/pack_trust.py" line="55"/>
        <source>Run code from this pack?</source>
        <translation>运行这个题包的代码？</translation>
    </message>
    <message>
        <location filename="../../desktop/console/pack_trust.py" line="59"/>
        <source>Allow and run</source>
        <translation>允许并运行</translation>
    </message>
    <message>
        <location filename="../../desktop/console/pack_trust.py" line="62"/>
        <source>Don&apos;t run</source>
        <translation>不运行</translation>
    </message>
</context>
<context>
    <name>PaperCard</name>
    <message>
        <location filename="../../desktop/views/library.py" line="123"/>
        <source>%1 (%2 scored: void questions are not)</source>
        <translation>%1（实计 %2，作废题不计分）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="126"/>
        <source>%1 questions · %2 points · %3 min · %4 with errata</source>
        <translation>%1 题 · 总分 %2 · %3 分钟 · %4 题有勘误</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="132"/>
        <source>Errata: questions whose printed key, wording or explanation was wrong and is corrected here (you see both keys), or that have no correct answer at all (void: not scored)</source>
        <translation>勘误：原卷答案、题干或解析有误、已在此更正的题（两个答案都会显示），以及根本没有正确答案的题（作废：不计分）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="139"/>
        <location filename="../../desktop/views/library.py" line="233"/>
        <source>No exam taken yet</source>
        <translation>尚未考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="151"/>
        <source>Practice</source>
        <translation>练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="159"/>
        <source>Recite (背题)</source>
        <translation>背题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="161"/>
        <source>Key, explanation and errata at once; say whether you knew each one</source>
        <translation>直接显示答案、解析和勘误；逐题说明你是否记得</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="164"/>
        <location filename="../../desktop/views/library.py" line="249"/>
        <source>Exam</source>
        <translation>考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="199"/>
        <source>Practice: %1 of %2 answered</source>
        <translation>练习：已答 %1/%2 题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="201"/>
        <source>%1 right</source>
        <translation>对 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="203"/>
        <source>%1 partly</source>
        <translation>部分对 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="205"/>
        <source>%1 wrong</source>
        <translation>错 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="207"/>
        <source>%1 shown or recited</source>
        <translation>看答案或背题 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="213"/>
        <source>Continue at question %1</source>
        <translation>从第 %1 题继续</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="227"/>
        <source>Best %1 · last %2 of %3 points · %4 exam(s)</source>
        <translation>最高 %1 · 最近 %2 / %3 分 · 共 %4 次考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="238"/>
        <source>Unfinished exam: %1 left</source>
        <translation>未完成的考试：剩余 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="240"/>
        <source>Unfinished exam: time is up, it will be submitted</source>
        <translation>未完成的考试：时间已到，将自动交卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="246"/>
        <source>Resume exam</source>
        <translation>继续考试</translation>
    </message>
</context>
<context>
    <name>PaperSessionView</name>
    <message>
        <location filename="../../desktop/views/paper_session.py" line="196"/>
        <source>Previous</source>
        <translation>上一题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/paper_session.py" line="197"/>
        <source>Next</source>
        <translation>下一题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/paper_session.py" line="198"/>
        <source>Flag</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../../desktop/views/paper_session.py" line="200"/>
        <source>Flag this question to come back to it (Ctrl+F)</source>
        <translation>标记本题，稍后回看（Ctrl+F）</translation>
    </message>
</context>
<context>
    <name>PracticeView</name>
    <message>
        <location filename="../../desktop/views/practice.py" line="83"/>
        <source>Library</source>
        <translation>题库</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="411"/>
        <source>Practice</source>
        <translation>练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="112"/>
        <source>Submit</source>
        <translation>提交</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="89"/>
        <source>背题 Recite mode</source>
        <translation>背题模式</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="94"/>
        <source>Recite mode: key, explanation and errata at once, no input; say whether you knew it (1) or not (2) and it is scheduled for review (Ctrl+R)</source>
        <translation>背题模式：直接显示答案、解析和勘误，无需作答；说明你记得（1）还是不记得（2），据此安排复习（Ctrl+R）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="99"/>
        <source>Finish set</source>
        <translation>结束练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="103"/>
        <source>End this practice set (scored over what you answered). Leave with “Library” instead to continue it later.</source>
        <translation>结束本次练习（按已作答的题目计分）。如想稍后继续，请改用“题库”离开。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="114"/>
        <source>Show answer</source>
        <translation>查看答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="117"/>
        <source>See the key without answering (Ctrl+Shift+A): it comes back for review soon, as a miss, and this question can no longer be answered in this session</source>
        <translation>不作答直接查看答案（Ctrl+Shift+A）：按答错处理，很快安排复习，且本次练习中不能再作答此题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="119"/>
        <source>Save self-marks</source>
        <translation>保存自评</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="121"/>
        <source>Knew it (1)</source>
        <translation>记得（1）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="123"/>
        <source>Didn&apos;t know (2)</source>
        <translation>不记得（2）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="168"/>
        <source>Answer sheet</source>
        <translation>答题卡</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="335"/>
        <source>Recited: scheduled by what you said.</source>
        <translation>已背：按你的回答安排复习。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="337"/>
        <source>Answer shown (read only: nothing is scheduled or saved).</source>
        <translation>已显示答案（只读：不会安排复习，也不会保存）。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="339"/>
        <source>Answer shown without answering: not graded, and it comes back for review soon (as a miss).</source>
        <translation>未作答就查看了答案：不判分，并会很快安排复习（按答错处理）。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="392"/>
        <source>Submit (%1)</source>
        <translation>提交（%1）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="397"/>
        <source>%1 of %2 answered · %3 points</source>
        <translation>已答 %1/%2 题 · %3 分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="405"/>
        <source>✓ %1 right · ◐ %2 · ✗ %3 wrong · %4 to do</source>
        <translation>✓ 对 %1 · ◐ %2 · ✗ 错 %3 · 未完成 %4</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="411"/>
        <source>Recite (背题)</source>
        <translation>背题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="445"/>
        <source>Answer first, then submit.</source>
        <translation>请先作答再提交。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="461"/>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="496"/>
        <source>Checking the code you submitted: its result scores it.</source>
        <translation>正在检查你提交的代码：以检查结果计分。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="498"/>
        <source>Not scored yet: no check ran on this code. Press Check when the console is ready; its result scores this answer.</source>
        <translation>尚未计分：这段代码还没有运行检查。控制台就绪后请点“检查”，以其结果为本题计分。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="519"/>
        <source>Not saved: your answer was not stored, so it was not graded. Fix the problem and submit again.</source>
        <translation>未保存：你的答案没有存下来，因此没有判分。请解决问题后重新提交。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="600"/>
        <location filename="../../desktop/views/practice.py" line="683"/>
        <source>next review</source>
        <translation>下次复习</translation>
    </message>
</context>
<context>
    <name>ProgrammingAnswer</name>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="485"/>
        <source>Run in console</source>
        <translation>在控制台运行</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="487"/>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="489"/>
        <location filename="../../desktop/views/answer_widgets.py" line="598"/>
        <source>Reset to starter</source>
        <translation>恢复初始代码</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="491"/>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="493"/>
        <source>Earlier check attempts: open one, diff it with the editor, put its code back</source>
        <translation>以往的检查记录：可打开某一次、与编辑器对比差异，或把它的代码放回编辑器</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="506"/>
        <source>Compare with reference</source>
        <translation>对照参考答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="561"/>
        <source>Recite mode: the reference solution, read-only. Your own code is kept.</source>
        <translation>背题模式：这里是参考答案（只读）。你自己的代码已保留。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="573"/>
        <source>The code changed since these results: check again.</source>
        <translation>得出这些结果后代码已修改：请重新检查。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="599"/>
        <source>Replace your code with the starter code? Ctrl+Z in the editor brings your code back; checked versions stay in the History.</source>
        <translation>用初始代码替换你的代码吗？在编辑器中按 Ctrl+Z 可以找回你的代码；检查过的版本会保留在“历史记录”中。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="619"/>
        <source>History (%1)</source>
        <translation>历史记录（%1）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="637"/>
        <source>These results are for the code as it was when you pressed Check; it has changed since: check again.</source>
        <translation>这些结果对应你点击“检查”时的代码；此后代码已修改：请重新检查。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="648"/>
        <source>The Python console is not available yet; your code is saved and will be checked later.</source>
        <translation>Python 控制台尚不可用；代码已保存，稍后再检查。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="652"/>
        <source>Run your code, then the question&apos;s checks (Ctrl+Shift+Enter)</source>
        <translation>运行你的代码，再运行本题的检查（Ctrl+Shift+Enter）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="654"/>
        <source>Run your code in the console (F5)</source>
        <translation>在控制台运行你的代码（F5）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="681"/>
        <source>This question has no check suite: Run tries your code; after you submit, compare it with the reference answer and self-mark it.</source>
        <translation>本题没有检查套件：“运行”可试跑你的代码；提交后请对照参考答案并自评。</translation>
    </message>
</context>
<context>
    <name>ProgressFiles</name>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="31"/>
        <source>Progress (JSON) (*.json);;Spreadsheet (CSV) (*.csv)</source>
        <translation>学习记录（JSON）(*.json);;表格（CSV）(*.csv)</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="37"/>
        <source>Export progress</source>
        <translation>导出学习记录</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="47"/>
        <source>Progress exported</source>
        <translation>学习记录已导出</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="48"/>
        <source>Your progress was saved to %1.</source>
        <translation>学习记录已保存到 %1。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="49"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="55"/>
        <source>Import progress</source>
        <translation>导入学习记录</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="62"/>
        <source>Import failed</source>
        <translation>导入失败</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="68"/>
        <source>sessions</source>
        <translation>次练习/考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="68"/>
        <source>answers</source>
        <translation>条作答</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="69"/>
        <source>reviews</source>
        <translation>条复习记录</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="72"/>
        <source>Added: %1.</source>
        <translation>新增：%1。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="73"/>
        <source>Skipped, already here: %1.</source>
        <translation>已存在而跳过：%1。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="74"/>
        <source>Progress imported</source>
        <translation>学习记录已导入</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <location filename="../../desktop/qt_strings.py" line="15"/>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../desktop/qt_strings.py" line="16"/>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>RemoteKernelDialog</name>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="46"/>
        <source>Remote GPU over SSH</source>
        <translation>通过 SSH 使用远程 GPU</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="48"/>
        <source>gpu-box (an ~/.ssh/config alias) or lab.example.org</source>
        <translation>gpu-box（~/.ssh/config 中的别名）或 lab.example.org</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="50"/>
        <source>from your SSH config</source>
        <translation>取自你的 SSH 配置</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="53"/>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="55"/>
        <source>SSH agent / config</source>
        <translation>SSH agent / 配置</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="56"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="63"/>
        <source>The remote Python with ipykernel (a venv or conda env: e.g. ~/miniconda3/envs/torch/bin/python)</source>
        <translation>装有 ipykernel 的远程 Python（venv 或 conda 环境，例如 ~/miniconda3/envs/torch/bin/python）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="66"/>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="67"/>
        <source>User:</source>
        <translation>用户：</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="68"/>
        <source>Port:</source>
        <translation>端口：</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="69"/>
        <source>Identity file:</source>
        <translation>身份密钥文件：</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="70"/>
        <source>Remote Python:</source>
        <translation>远程 Python：</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="71"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="73"/>
        <source>Keys come from your SSH agent or config; examdesk stores no password or key. Only the code you run is sent.</source>
        <translation>密钥来自你的 SSH agent 或配置；examdesk 不保存任何密码或密钥。只有你运行的代码会被发送。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="77"/>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="116"/>
        <source>SSH identity file</source>
        <translation>SSH 身份密钥文件</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="134"/>
        <source>Connecting to {0}…</source>
        <translation>正在连接 {0}…</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="168"/>
        <source>Not connected: the host key was not trusted.</source>
        <translation>未连接：未信任该主机密钥。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="172"/>
        <source>Refused: the host&apos;s key has CHANGED since you last connected. This may be an attack; if the server was reinstalled, fix ~/.ssh/known_hosts yourself.
{0}</source>
        <translation>已拒绝：自你上次连接以来，该主机的密钥已经改变。这可能是攻击；如果服务器是重装过的，请自行修正 ~/.ssh/known_hosts。
{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="179"/>
        <source>Could not connect: {0}</source>
        <translation>无法连接：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="186"/>
        <source>ipykernel is missing there: pip install ipykernel in that environment.</source>
        <translation>那里缺少 ipykernel：请在该环境中 pip install ipykernel。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="197"/>
        <source>Python {0} ({1}), answered in {2:.1f} s</source>
        <translation>Python {0}（{1}），{2:.1f} 秒内应答</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="200"/>
        <source>torch: not installed</source>
        <translation>torch：未安装</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="202"/>
        <source>torch {0}</source>
        <translation>torch {0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="205"/>
        <source>cuda:{0} {1}: {2:.1f} of {3:.1f} GiB free</source>
        <translation>cuda:{0} {1}：{3:.1f} GiB 中空闲 {2:.1f} GiB</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="208"/>
        <source>No CUDA device</source>
        <translation>没有 CUDA 设备</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="213"/>
        <source>(the host sent no key)</source>
        <translation>（该主机未发送密钥）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="217"/>
        <source>Unknown host</source>
        <translation>未知主机</translation>
    </message>
    <message>
        <location filename="../../desktop/console/remote_dialog.py" line="218"/>
        <source>examdesk has never connected to {0}. Its key fingerprints are:

{1}

Compare them with what the server&apos;s owner gives you (ssh-keygen -l -f /etc/ssh/ssh_host_ed25519_key.pub on the server). Trust this host?</source>
        <translation>examdesk 从未连接过 {0}。它的密钥指纹是：

{1}

请与服务器管理员给你的指纹比对（在服务器上运行 ssh-keygen -l -f /etc/ssh/ssh_host_ed25519_key.pub）。信任该主机吗？</translation>
    </message>
</context>
<context>
    <name>ReportView</name>
    <message numerus="yes">
        <location filename="../../desktop/views/report.py" line="183"/>
        <source>Practise the %n missed</source>
        <translation>
            <numerusform>错题重练（%n 题）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="186"/>
        <source>A practice run of the questions this exam scored wrong or partly (错题重练)</source>
        <translation>把这次考试做错或部分得分的题作为一轮练习再做一遍</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="190"/>
        <source>Missed in %1</source>
        <translation>%1 错题</translation>
    </message>
</context>
<context>
    <name>ReportsButton</name>
    <message>
        <location filename="../../desktop/views/library.py" line="75"/>
        <source>Past reports</source>
        <translation>历史成绩单</translation>
    </message>
</context>
<context>
    <name>ReviewView</name>
    <message>
        <location filename="../../desktop/views/review_session.py" line="152"/>
        <source>card %1 · %2 left today</source>
        <translation>第 %1 张 · 今天还剩 %2 张</translation>
    </message>
</context>
<context>
    <name>RubricChecklist</name>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="310"/>
        <source>Self-marking: tick each point your answer covers</source>
        <translation>自评：勾选你的答案覆盖的要点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="321"/>
        <source>scored by the checks</source>
        <translation>由代码检查计分</translation>
    </message>
</context>
<context>
    <name>StartExamDialog</name>
    <message>
        <location filename="../../desktop/views/exam.py" line="56"/>
        <source>%1 (the paper prints %2: %3 points are on %4 void question(s), which have no correct answer and are not scored)</source>
        <translation>%1（原卷标注 %2 分，其中 %3 分属于 %4 道作废题：这些题没有正确答案，不计分）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="69"/>
        <source>Start exam</source>
        <translation>开始考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="79"/>
        <source>min</source>
        <translation>分钟</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="80"/>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="83"/>
        <source>Number of questions</source>
        <translation>题量</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="87"/>
        <source>Total points</source>
        <translation>总分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="94"/>
        <source>Exam mode</source>
        <translation>考试模式</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="97"/>
        <source>Closed book, as in the real exam: no Check and no console until you submit; your code is checked after submission and the results are in the report</source>
        <translation>闭卷，与正式考试一致：交卷前不能使用“检查”和控制台；交卷后再检查你的代码，结果见成绩单</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="101"/>
        <source>Open book: Check and the Python console work during the exam</source>
        <translation>开卷：考试期间可以使用“检查”和 Python 控制台</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="113"/>
        <source>Score the %1 unverified (imported) question(s) too: their keys are as the source printed them, nobody has checked them</source>
        <translation>同时为 %1 道未核实（导入）的题目计分：它们的答案是原卷所给答案，尚无人核对</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="120"/>
        <source>The clock cannot be paused. Closing the app does not stop it; you can resume with the time that is left. At zero the exam is submitted automatically.</source>
        <translation>计时不能暂停。关闭程序不会停止计时；重新打开后可按剩余时间继续。时间到将自动交卷。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="127"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
</context>
<context>
    <name>StorageNotice</name>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="76"/>
        <location filename="../../desktop/views/storage_notice.py" line="133"/>
        <source>Your progress file</source>
        <translation>你的进度文件</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="87"/>
        <source>Restore backup</source>
        <translation>恢复备份</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="131"/>
        <source>The backup could not be restored: %1</source>
        <translation>无法恢复备份：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="160"/>
        <source>Not saved</source>
        <translation>未保存</translation>
    </message>
</context>
<context>
    <name>SubjectiveAnswer</name>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="437"/>
        <source>Write your answer here.</source>
        <translation>在此作答。</translation>
    </message>
</context>
<context>
    <name>WrongBookView</name>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="57"/>
        <source>Library</source>
        <translation>题库</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="59"/>
        <source>Wrong-answer book</source>
        <translation>错题本</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="62"/>
        <source>Practise these</source>
        <translation>练习这些题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="72"/>
        <source>All papers</source>
        <translation>全部试卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="75"/>
        <source>All topics</source>
        <translation>全部知识点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="78"/>
        <source>All types</source>
        <translation>全部题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="80"/>
        <source>Show mastered</source>
        <translation>显示已掌握</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="82"/>
        <source>Show graduated</source>
        <translation>显示已移出</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="84"/>
        <source>Entries answered right enough times in a row to leave the book (File ▸ Settings)</source>
        <translation>连续答对足够次数、已移出错题本的题目（文件 ▸ 设置）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="103"/>
        <location filename="../../desktop/views/wrong_book.py" line="239"/>
        <source>Mark mastered</source>
        <translation>标记为已掌握</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="106"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="109"/>
        <source>Put back in the book</source>
        <translation>放回错题本</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="111"/>
        <source>It stays until answered right enough times in a row again</source>
        <translation>放回后，需再次连续答对足够次数才会移出</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="193"/>
        <source>%1 question(s) to review</source>
        <translation>待复习 %1 题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="204"/>
        <location filename="../../desktop/views/wrong_book.py" line="255"/>
        <source>Question %1</source>
        <translation>第 %1 题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="206"/>
        <source>missed %1×</source>
        <translation>错 %1 次</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="207"/>
        <source>mastered</source>
        <translation>已掌握</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="208"/>
        <source>graduated</source>
        <translation>已移出</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="234"/>
        <source>Nothing here: every question you missed is mastered, or none matches the filters.</source>
        <translation>这里没有题目：做错的题都已掌握，或没有题目符合筛选条件。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="238"/>
        <source>Not mastered yet</source>
        <translation>还没掌握</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="246"/>
        <source>missed %1×, last on %2</source>
        <translation>错 %1 次，最近一次 %2</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="249"/>
        <source>graduated: right %1× in a row since</source>
        <translation>已移出：此后连续答对 %1 次</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="252"/>
        <source>right %1× since: mark it mastered when it sticks</source>
        <translation>此后答对 %1 次：记牢了就标记为已掌握</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="275"/>
        <source>Question %1 marked mastered.</source>
        <translation>第 %1 题已标记为已掌握。</translation>
    </message>
</context>
</TS>
