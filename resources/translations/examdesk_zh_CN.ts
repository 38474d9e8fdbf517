<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <location filename="../../desktop/views/question_view.py" line="31"/>
        <source>Single choice</source>
        <translation>单选题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="32"/>
        <source>Multiple choice</source>
        <translation>多选题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="33"/>
        <source>Fill in the blanks</source>
        <translation>填空题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="34"/>
        <source>Calculation</source>
        <translation>计算题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="35"/>
        <source>Short answer</source>
        <translation>简答题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="36"/>
        <source>System design</source>
        <translation>系统设计题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="37"/>
        <source>Programming</source>
        <translation>编程题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="43"/>
        <location filename="../../desktop/views/report.py" line="174"/>
        <location filename="../../desktop/views/report.py" line="177"/>
        <source>Correct</source>
        <translation>正确</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="43"/>
        <source>Partly correct</source>
        <translation>部分正确</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="43"/>
        <source>Wrong</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="44"/>
        <source>Unanswered</source>
        <translation>未作答</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="44"/>
        <location filename="../../desktop/views/report.py" line="175"/>
        <location filename="../../desktop/views/report.py" line="178"/>
        <source>Pending</source>
        <translation>待评</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="44"/>
        <source>Void (not scored)</source>
        <translation>作废（不计分）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="54"/>
        <location filename="../../desktop/views/report.py" line="241"/>
        <source>points</source>
        <translation>分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="61"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="72"/>
        <source>also accepted</source>
        <translation>也接受</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="120"/>
        <source>Errata: the source paper&apos;s key was wrong and has been corrected</source>
        <translation>勘误：原卷答案有误，已更正</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="121"/>
        <source>Errata: this question is void: no option is correct, so it is not scored</source>
        <translation>勘误：本题作废（无正确选项），不计分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="123"/>
        <source>Errata: this question is disputed; defensible keys are accepted</source>
        <translation>勘误：本题存在争议，合理答案均判对</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="124"/>
        <source>Errata: the key is right, but the source&apos;s wording or explanation was not</source>
        <translation>勘误：答案正确，但原卷题干或解析有误</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="131"/>
        <location filename="../../desktop/views/report.py" line="132"/>
        <source>Source paper&apos;s key</source>
        <translation>原卷答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="135"/>
        <source>none (void)</source>
        <translation>无（作废）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="136"/>
        <source>Verified key</source>
        <translation>核实答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="142"/>
        <source>Source paper&apos;s answer</source>
        <translation>原卷答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="171"/>
        <location filename="../../desktop/views/report.py" line="264"/>
        <source>Question %1</source>
        <translation>第 %1 题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="177"/>
        <source>Flagged</source>
        <translation>已标记</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="189"/>
        <source>This question is void (no correct answer): it is shown for study and is not scored.</source>
        <translation>本题作废（没有正确答案）：仅供学习，不计分。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="215"/>
        <source>Verify in console</source>
        <translation>在控制台验证</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="217"/>
        <source>Runs a snippet that reproduces the key&apos;s figures with torch (needs the console).</source>
        <translation>运行一段代码，用 torch 重新算出答案中的数值（需要控制台）。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="249"/>
        <location filename="../../desktop/views/report.py" line="94"/>
        <location filename="../../desktop/views/report.py" line="117"/>
        <source>Reference answer</source>
        <translation>参考答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="252"/>
        <location filename="../../desktop/views/question_view.py" line="259"/>
        <location filename="../../desktop/views/report.py" line="120"/>
        <location filename="../../desktop/views/report.py" line="126"/>
        <source>Key</source>
        <translation>答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="253"/>
        <source>Worked solution</source>
        <translation>详细解答</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="256"/>
        <location filename="../../desktop/views/report.py" line="123"/>
        <source>Reference solution</source>
        <translation>参考实现</translation>
    </message>
    <message>
        <location filename="../../desktop/views/question_view.py" line="263"/>
        <location filename="../../desktop/views/report.py" line="137"/>
        <source>Explanation</source>
        <translation>解析</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="50"/>
        <location filename="../../desktop/views/report.py" line="70"/>
        <source>no answer</source>
        <translation>未作答</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="84"/>
        <source>Self-mark question %1</source>
        <translation>自评第 %1 题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="163"/>
        <source>Library</source>
        <translation>题库</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="174"/>
        <source>Section</source>
        <translation>题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="174"/>
        <location filename="../../desktop/views/report.py" line="177"/>
        <location filename="../../desktop/views/report.py" line="180"/>
        <source>Points</source>
        <translation>得分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="174"/>
        <location filename="../../desktop/views/report.py" line="177"/>
        <source>Max</source>
        <translation>满分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="177"/>
        <source>Topic</source>
        <translation>知识点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="180"/>
        <source>Question</source>
        <translation>题号</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="180"/>
        <source>Type</source>
        <translation>题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="180"/>
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="181"/>
        <source>Time</source>
        <translation>用时</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="189"/>
        <source>By section</source>
        <translation>按题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="191"/>
        <source>By topic</source>
        <translation>按知识点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="193"/>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="194"/>
        <source>Questions</source>
        <translation>逐题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="195"/>
        <source>Time per question</source>
        <translation>每题用时</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="224"/>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="229"/>
        <source>submitted</source>
        <translation>已交卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="229"/>
        <source>submitted when time ran out</source>
        <translation>时间到自动交卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="231"/>
        <source>in progress</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="231"/>
        <source>abandoned</source>
        <translation>已放弃</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="236"/>
        <source>%1 answer(s) pending: self-mark them under Questions, or run the code checks.</source>
        <translation>%1 道题待评分：请在“逐题”页自评，或运行代码检查。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="241"/>
        <source>time used</source>
        <translation>用时</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="271"/>
        <source>Self-mark…</source>
        <translation>自评…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="275"/>
        <source>Run the checks now</source>
        <translation>现在运行检查</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="114"/>
        <source>Your answer</source>
        <translation>你的答案</translation>
    </message>
    <message>
        <location filename="../../desktop/views/report.py" line="135"/>
        <source>Errata</source>
        <translation>勘误</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="24"/>
        <source>Again</source>
        <translation>重来</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="24"/>
        <source>Hard</source>
        <translation>困难</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="24"/>
        <source>Good</source>
        <translation>良好</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="25"/>
        <source>Easy</source>
        <translation>简单</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="32"/>
        <source>in %1 min</source>
        <translation>%1 分钟后</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="36"/>
        <source>today at %1</source>
        <translation>今天 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="37"/>
        <source>%1 (in %2 days)</source>
        <translation>%1（%2 天后）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="58"/>
        <source>Rate it yourself:</source>
        <translation>自己评分：</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="77"/>
        <source>you rated it</source>
        <translation>你评为</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="77"/>
        <source>examdesk rated it</source>
        <translation>examdesk 评为</translation>
    </message>
    <message>
        <location filename="../../desktop/views/rating_bar.py" line="79"/>
        <source>next review</source>
        <translation>下次复习</translation>
    </message>
</context>
<context>
    <name>AnswerSheet</name>
    <message>
        <location filename="../../desktop/views/answer_sheet.py" line="32"/>
        <source>Answer sheet</source>
        <translation>答题卡</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_sheet.py" line="41"/>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_sheet.py" line="60"/>
        <source>■ answered   □ unanswered   ⚑ orange border: flagged</source>
        <translation>■ 已答   □ 未答   橙色边框：已标记</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <location filename="../../desktop/app.py" line="154"/>
        <source>The progress database cannot be opened, so examdesk cannot save your work.</source>
        <translation>无法打开进度数据库，examdesk 无法保存你的作答。</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="188"/>
        <source>examdesk is already running on the data folder %1 (process %2), but it does not answer. Close that examdesk window, or end the process if it is stuck, then start examdesk again. Your progress is safe: only one examdesk at a time may use a data folder.</source>
        <translation>examdesk 已在数据文件夹 %1 上运行（进程 %2），但没有响应。请关闭那个 examdesk 窗口；如果它卡住了，请结束该进程，然后重新启动 examdesk。你的进度是安全的：同一个数据文件夹同一时间只能由一个 examdesk 使用。</translation>
    </message>
</context>
<context>
    <name>CalculationAnswer</name>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="294"/>
        <source>number, e.g. 2.7e8</source>
        <translation>数值，如 2.7e8</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="303"/>
        <source>Working (expression and derivation):</source>
        <translation>解题过程（表达式与推导）：</translation>
    </message>
</context>
<context>
    <name>ChartPanel</name>
    <message>
        <location filename="../../desktop/views/charts.py" line="106"/>
        <source>No answers yet</source>
        <translation>还没有作答记录</translation>
    </message>
</context>
<context>
    <name>CheckController</name>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="72"/>
        <source>{0} has no check suite</source>
        <translation>{0} 没有检查套件</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="74"/>
        <source>the kernel is not running: restart it, then check again</source>
        <translation>内核未在运行：请重启内核，然后重新检查</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="92"/>
        <source>your code was not run (the kernel aborted it); run it again</source>
        <translation>你的代码没有运行（被内核中止）；请再运行一次</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="97"/>
        <source>no verdict: {0}</source>
        <translation>无结论：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="100"/>
        <source>your code was interrupted before the checks ran</source>
        <translation>你的代码在检查开始前被中断</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="104"/>
        <source>your code raised {0}: {1}</source>
        <translation>你的代码抛出了 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="142"/>
        <location filename="../../desktop/console/check_controller.py" line="151"/>
        <source>the kernel died during the check. {0}</source>
        <translation>内核在检查过程中终止。{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_controller.py" line="154"/>
        <source>the kernel was restarted or closed during the check</source>
        <translation>内核在检查过程中被重启或关闭</translation>
    </message>
</context>
<context>
    <name>CheckPanel</name>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="29"/>
        <source>cpu ({0} threads)</source>
        <translation>CPU（{0} 个线程）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="31"/>
        <source>unknown device</source>
        <translation>未知设备</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="33"/>
        <source>Device: {0} · flash_attn: {1}</source>
        <translation>设备：{0} · flash_attn：{1}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="55"/>
        <source>No check run yet</source>
        <translation>尚未运行检查</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="57"/>
        <source>include slow checks (torch.compile)</source>
        <translation>包括慢速检查（torch.compile）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="64"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="64"/>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="64"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="65"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="65"/>
        <source>Dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="65"/>
        <source>Time</source>
        <translation>用时</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="92"/>
        <source>Checking {0}: running your code in the console, then the checks…</source>
        <translation>正在检查 {0}：先在控制台运行你的代码，再运行检查…</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="98"/>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="99"/>
        <source>FAIL</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="99"/>
        <source>warn</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="129"/>
        <source>{0}: no verdict — {1}</source>
        <translation>{0}：无结论 — {1}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="131"/>
        <source>PASSED</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="131"/>
        <source>FAILED</source>
        <translation>未通过</translation>
    </message>
    <message>
        <location filename="../../desktop/console/check_panel.py" line="132"/>
        <source>{0}: {1}/{2} checks passed in {3:.1f} s — {4}</source>
        <translation>{0}：通过 {1}/{2} 项检查，用时 {3:.1f} 秒 — {4}</translation>
    </message>
</context>
<context>
    <name>ConsoleDock</name>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="36"/>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="37"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="38"/>
        <source>busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="39"/>
        <source>dead</source>
        <translation>已终止</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="40"/>
        <source>restarting</source>
        <translation>重启中</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="41"/>
        <source>no kernel</source>
        <translation>无内核</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="47"/>
        <source>Could not read the kernel&apos;s environment: {0}</source>
        <translation>无法读取内核的运行环境：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="51"/>
        <source>Device: CUDA {0}, {1} GiB, compute capability {2}</source>
        <translation>设备：CUDA {0}，{1} GiB，计算能力 {2}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="55"/>
        <source>Device: CPU, {0} threads</source>
        <translation>设备：CPU，{0} 个线程</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="58"/>
        <source>torch is not importable here: {0}</source>
        <translation>此环境中无法导入 torch：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="62"/>
        <source>stand-in (examdesk&apos;s CPU-capable copy of the flash_attn_func API)</source>
        <translation>替代实现（examdesk 自带的 flash_attn_func API 副本，可在 CPU 上运行）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="64"/>
        <source>flash_attn: {0}</source>
        <translation>flash_attn：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="115"/>
        <source>Python console</source>
        <translation>Python 控制台</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="144"/>
        <source>Interrupt</source>
        <translation>中断</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="145"/>
        <source>Stop the running code (Ctrl+C in the console)</source>
        <translation>停止正在运行的代码（相当于在控制台按 Ctrl+C）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="146"/>
        <source>Restart</source>
        <translation>重启</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="147"/>
        <source>Kill the kernel and start a fresh one (variables are lost)</source>
        <translation>结束当前内核并启动一个新内核（变量会丢失）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="165"/>
        <source>Restart kernel</source>
        <translation>重启内核</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="172"/>
        <source>The Python console starts once the window is up…</source>
        <translation>窗口就绪后，Python 控制台将随即启动…</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="212"/>
        <source>the console was closed</source>
        <translation>控制台已关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="255"/>
        <source>Kernel: {0}</source>
        <translation>内核：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="261"/>
        <source>the kernel was restarted</source>
        <translation>内核已重启</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="263"/>
        <source>Restarting the kernel…</source>
        <translation>正在重启内核…</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="274"/>
        <source>{0}
Restart the kernel to go on; your editor code is kept.</source>
        <translation>{0}
请重启内核后继续；编辑器中的代码会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="280"/>
        <source>The kernel is still busy after the interrupt (code in native loops may not stop). Restart it? Variables will be lost; your editor code is kept.</source>
        <translation>中断后内核仍在忙碌（原生代码中的循环可能无法停止）。要重启内核吗？变量会丢失；编辑器中的代码会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/console_dock.py" line="285"/>
        <source>another kernel was chosen</source>
        <translation>已选择另一个内核</translation>
    </message>
</context>
<context>
    <name>ConsoleWiring</name>
    <message>
        <location filename="../../desktop/console/wiring.py" line="44"/>
        <source>Check results</source>
        <translation>检查结果</translation>
    </message>
</context>
<context>
    <name>DashboardView</name>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="93"/>
        <source>Library</source>
        <translation>题库</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="95"/>
        <source>Dashboard</source>
        <translation>学习统计</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="96"/>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="103"/>
        <source>Exam date</source>
        <translation>考试日期</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="137"/>
        <source>%1 graded answers · %2 fully right · %3 due today</source>
        <translation>已判分 %1 题次 · 全对 %2 · 今日待复习 %3</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="140"/>
        <source>Answers</source>
        <translation>作答</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="140"/>
        <source>Right</source>
        <translation>全对</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="140"/>
        <location filename="../../desktop/views/dashboard.py" line="147"/>
        <source>Score</source>
        <translation>得分率</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="141"/>
        <source>Accuracy by topic</source>
        <translation>各知识点正确率</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="141"/>
        <source>Topic</source>
        <translation>知识点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="143"/>
        <source>Accuracy by question type</source>
        <translation>各题型正确率</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="144"/>
        <source>Type</source>
        <translation>题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="145"/>
        <source>Exam scores per paper (%)</source>
        <translation>各试卷考试成绩（%）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="146"/>
        <source>Paper</source>
        <translation>试卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="146"/>
        <source>Attempt</source>
        <translation>第几次</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="146"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="148"/>
        <location filename="../../desktop/views/dashboard.py" line="234"/>
        <source>Reviews due, next 14 days</source>
        <translation>未来 14 天待复习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="149"/>
        <source>Day</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="149"/>
        <source>Due</source>
        <translation>待复习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="150"/>
        <source>Mean time per question (minutes)</source>
        <translation>每题平均用时（分钟）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="151"/>
        <source>Question</source>
        <translation>题号</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="151"/>
        <source>Visits</source>
        <translation>次数</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="151"/>
        <source>Mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="152"/>
        <source>Budget</source>
        <translation>建议用时</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="231"/>
        <source>Exam in %1 days; %2 reviews due before it</source>
        <translation>距考试 %1 天，考前待复习 %2 题次</translation>
    </message>
    <message>
        <location filename="../../desktop/views/dashboard.py" line="233"/>
        <source>The exam date has passed</source>
        <translation>考试日期已过</translation>
    </message>
</context>
<context>
    <name>ExamView</name>
    <message>
        <location filename="../../desktop/views/exam.py" line="108"/>
        <source>Submit exam…</source>
        <translation>交卷…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="117"/>
        <source>Time left</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="123"/>
        <source>Exam</source>
        <translation>考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="156"/>
        <source>%1 minutes left.</source>
        <translation>还剩 %1 分钟。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="169"/>
        <source>Submit the exam now? You cannot change answers afterwards.</source>
        <translation>现在交卷吗？交卷后不能再修改答案。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="171"/>
        <source>Unanswered: %1</source>
        <translation>未作答：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="173"/>
        <source>Flagged: %1</source>
        <translation>已标记：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="174"/>
        <source>Time left: %1</source>
        <translation>剩余时间：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="177"/>
        <source>Submit exam</source>
        <translation>交卷</translation>
    </message>
</context>
<context>
    <name>FillBlankAnswer</name>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="195"/>
        <source>Blank %1</source>
        <translation>第 %1 空</translation>
    </message>
</context>
<context>
    <name>KernelChooser</name>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="27"/>
        <source>Python kernel the console and the checks run in</source>
        <translation>控制台和检查所使用的 Python 内核</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="32"/>
        <source>examdesk (this Python)</source>
        <translation>examdesk（当前 Python）</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="68"/>
        <source>Connect to existing kernel…</source>
        <translation>连接到已有内核…</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="102"/>
        <source>Connect to an existing kernel</source>
        <translation>连接到已有内核</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="103"/>
        <source>Kernel connection files (kernel-*.json *.json)</source>
        <translation>内核连接文件 (kernel-*.json *.json)</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_chooser.py" line="108"/>
        <source>{0} (connected)</source>
        <translation>{0}（已连接）</translation>
    </message>
</context>
<context>
    <name>KernelSession</name>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="44"/>
        <source>The kernel stopped answering.</source>
        <translation>内核停止了响应。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="50"/>
        <source>The kernel was killed by {0} ({1}).</source>
        <translation>内核被 {0}（{1}）终止。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="52"/>
        <source>Often the out-of-memory killer: the code used more memory than the machine has.</source>
        <translation>通常是内存不足时的 OOM killer 所致：代码占用的内存超过了本机可用内存。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="54"/>
        <source>A crash in native code (segmentation fault).</source>
        <translation>原生代码崩溃（段错误）。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="56"/>
        <source>The process aborted (os.abort or a failed assertion in native code).</source>
        <translation>进程已中止（os.abort 或原生代码中的断言失败）。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="58"/>
        <source>A crash in native code (bus error).</source>
        <translation>原生代码崩溃（总线错误）。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="63"/>
        <source>The kernel exited with status {0}.</source>
        <translation>内核已退出，退出状态为 {0}。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="65"/>
        <location filename="../../desktop/console/kernel_session.py" line="463"/>
        <source>Last lines it wrote:</source>
        <translation>内核最后输出的几行：</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="211"/>
        <source>The kernel could not start: {0}</source>
        <translation>内核无法启动：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="242"/>
        <source>The kernel could not restart: {0}</source>
        <translation>内核无法重启：{0}</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="440"/>
        <source>The connected kernel has not answered its heartbeat for {0:.0f} s: it has died or the connection is lost.</source>
        <translation>已连接的内核已有 {0:.0f} 秒未响应心跳：它可能已终止，或连接已断开。</translation>
    </message>
    <message>
        <location filename="../../desktop/console/kernel_session.py" line="445"/>
        <source>The kernel did not become ready within {0} s.</source>
        <translation>内核未能在 {0} 秒内就绪。</translation>
    </message>
</context>
<context>
    <name>LibraryView</name>
    <message>
        <location filename="../../desktop/views/library.py" line="170"/>
        <source>Papers</source>
        <translation>试卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="173"/>
        <source>Wrong-answer book</source>
        <translation>错题本</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="176"/>
        <source>Due today</source>
        <translation>今日复习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="180"/>
        <source>Dashboard</source>
        <translation>学习统计</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="186"/>
        <source>Loading the question bank…</source>
        <translation>正在加载题库…</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="216"/>
        <source>%1 problem(s) while loading the question bank; the papers below loaded.</source>
        <translation>加载题库时发现 %1 个问题；下列试卷已加载。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="220"/>
        <source>No papers found.</source>
        <translation>未找到试卷。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="233"/>
        <source>Wrong-answer book (%1)</source>
        <translation>错题本（%1）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="234"/>
        <source>Due today (%1)</source>
        <translation>今日复习（%1）</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop/main_window.py" line="131"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="132"/>
        <source>&amp;Library</source>
        <translation>题库(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="138"/>
        <source>&amp;Export progress…</source>
        <translation>导出学习记录(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="140"/>
        <source>&amp;Import progress…</source>
        <translation>导入学习记录(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="147"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="151"/>
        <source>&amp;Review</source>
        <translation>复习(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="153"/>
        <source>&amp;Wrong-answer book</source>
        <translation>错题本(&amp;W)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="155"/>
        <source>&amp;Due today</source>
        <translation>今日复习(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="156"/>
        <source>D&amp;ashboard</source>
        <translation>学习统计(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="162"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="163"/>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="164"/>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="165"/>
        <source>&amp;Reset zoom</source>
        <translation>重置缩放(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="196"/>
        <source>examdesk</source>
        <translation>examdesk</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="197"/>
        <source>Saving or loading progress failed:</source>
        <translation>保存或读取进度失败：</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="244"/>
        <source>Paper %1 is not in the question bank.</source>
        <translation>题库中没有试卷 %1。</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="313"/>
        <source>Wrong-answer book</source>
        <translation>错题本</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="320"/>
        <source>Due today</source>
        <translation>今日复习</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="326"/>
        <source>Nothing to practise here.</source>
        <translation>这里没有要练习的题目。</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="375"/>
        <source>Time ran out on your exam “%1” while examdesk was closed. It will be submitted with the answers you saved.</source>
        <translation>examdesk 关闭期间，考试“%1”的时间已到，将按已保存的答案交卷。</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="377"/>
        <source>Exam time is up</source>
        <translation>考试时间已到</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="381"/>
        <source>You have an unfinished exam: “%1”, %2 minutes left. The clock kept running while examdesk was closed. Resume it now?</source>
        <translation>你有一场未完成的考试：“%1”，剩余 %2 分钟。examdesk 关闭期间计时未停。现在继续吗？</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="384"/>
        <source>Resume exam</source>
        <translation>继续考试</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="406"/>
        <source>Not checked: %1</source>
        <translation>未检查：%1</translation>
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
        <location filename="../../desktop/views/library.py" line="59"/>
        <source>%1 questions · %2 points · %3 min · %4 corrected or void</source>
        <translation>%1 题 · %2 分 · %3 分钟 · %4 题已勘误或作废</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="66"/>
        <location filename="../../desktop/views/library.py" line="112"/>
        <source>No exam taken yet</source>
        <translation>尚未考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="76"/>
        <source>Practice</source>
        <translation>练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="79"/>
        <location filename="../../desktop/views/library.py" line="124"/>
        <source>Exam</source>
        <translation>考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="84"/>
        <source>Past reports</source>
        <translation>历史成绩单</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="106"/>
        <source>Best %1 · last %2 of %3 points · %4 exam(s)</source>
        <translation>最高 %1 · 最近 %2 / %3 分 · 共 %4 次考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="117"/>
        <source>Unfinished exam: %1 left</source>
        <translation>未完成的考试：剩余 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="119"/>
        <source>Unfinished exam: time is up, it will be submitted</source>
        <translation>未完成的考试：时间已到，将自动交卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/library.py" line="121"/>
        <source>Resume exam</source>
        <translation>继续考试</translation>
    </message>
</context>
<context>
    <name>PaperSessionView</name>
    <message>
        <location filename="../../desktop/views/paper_session.py" line="104"/>
        <source>Previous</source>
        <translation>上一题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/paper_session.py" line="105"/>
        <source>Next</source>
        <translation>下一题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/paper_session.py" line="106"/>
        <source>Flag</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../../desktop/views/paper_session.py" line="108"/>
        <source>Flag this question to come back to it (Ctrl+F)</source>
        <translation>标记本题，稍后回看（Ctrl+F）</translation>
    </message>
</context>
<context>
    <name>PracticeView</name>
    <message>
        <location filename="../../desktop/views/practice.py" line="59"/>
        <source>Library</source>
        <translation>题库</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="62"/>
        <source>Practice</source>
        <translation>练习</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="69"/>
        <source>Submit (Enter)</source>
        <translation>提交（Enter）</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="73"/>
        <source>Save self-marks</source>
        <translation>保存自评</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="112"/>
        <source>%1 of %2 answered · %3 points</source>
        <translation>已答 %1/%2 题 · %3 分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/practice.py" line="132"/>
        <source>Answer first, then submit.</source>
        <translation>请先作答再提交。</translation>
    </message>
</context>
<context>
    <name>ProgrammingAnswer</name>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="379"/>
        <source>Run in console</source>
        <translation>在控制台运行</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="380"/>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="406"/>
        <source>The Python console is not available yet; your code is saved and will be checked later.</source>
        <translation>Python 控制台尚不可用；代码已保存，稍后再检查。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="414"/>
        <source>%1 of %2 checks passed</source>
        <translation>通过 %1/%2 项检查</translation>
    </message>
</context>
<context>
    <name>ProgressFiles</name>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="33"/>
        <source>Progress (JSON) (*.json);;Spreadsheet (CSV) (*.csv)</source>
        <translation>学习记录（JSON）(*.json);;表格（CSV）(*.csv)</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="39"/>
        <source>Export progress</source>
        <translation>导出学习记录</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="49"/>
        <source>Progress exported</source>
        <translation>学习记录已导出</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="50"/>
        <source>Your progress was saved to %1.</source>
        <translation>学习记录已保存到 %1。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="51"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="57"/>
        <source>Import progress</source>
        <translation>导入学习记录</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="64"/>
        <source>Import failed</source>
        <translation>导入失败</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="70"/>
        <source>sessions</source>
        <translation>次练习/考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="70"/>
        <source>answers</source>
        <translation>条作答</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="71"/>
        <source>reviews</source>
        <translation>条复习记录</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="74"/>
        <source>Added: %1.</source>
        <translation>新增：%1。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="75"/>
        <source>Skipped, already here: %1.</source>
        <translation>已存在而跳过：%1。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/progress_files.py" line="76"/>
        <source>Progress imported</source>
        <translation>学习记录已导入</translation>
    </message>
</context>
<context>
    <name>RubricChecklist</name>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="220"/>
        <source>Self-marking: tick each point your answer covers</source>
        <translation>自评：勾选你的答案覆盖的要点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="231"/>
        <source>scored by the checks</source>
        <translation>由代码检查计分</translation>
    </message>
</context>
<context>
    <name>StartExamDialog</name>
    <message>
        <location filename="../../desktop/views/exam.py" line="44"/>
        <source>Start exam</source>
        <translation>开始考试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="54"/>
        <source>min</source>
        <translation>分钟</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="55"/>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="56"/>
        <source>Questions</source>
        <translation>逐题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="57"/>
        <source>Points</source>
        <translation>得分</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="64"/>
        <source>The clock cannot be paused. Closing the app does not stop it; you can resume with the time that is left. At zero the exam is submitted automatically.</source>
        <translation>计时不能暂停。关闭程序不会停止计时；重新打开后可按剩余时间继续。时间到将自动交卷。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/exam.py" line="71"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
</context>
<context>
    <name>StorageNotice</name>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="40"/>
        <source>Your progress file %1 is damaged. It was kept unchanged as %2, and examdesk started a new, empty progress file.</source>
        <translation>你的进度文件 %1 已损坏。它已原样保留为 %2，examdesk 新建了一个空的进度文件。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="45"/>
        <source>No backup of it was found.</source>
        <translation>没有找到它的备份。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="46"/>
        <source>A backup is available (%1): restore it to get your progress back as of that day.</source>
        <translation>有可用的备份（%1）：恢复它即可找回截至当天的进度。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="50"/>
        <source>Your progress file %1 was written by a newer version of examdesk. It was left untouched. Until you update examdesk, your progress is saved in %2 instead.</source>
        <translation>你的进度文件 %1 由更新版本的 examdesk 写入，已保持原样未改动。在你更新 examdesk 之前，进度改为保存在 %2。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="56"/>
        <source>The data folder %1 is read-only, so examdesk cannot save your progress. You can look at what was saved before, but new answers will not be saved. Make the folder writable, or start examdesk with --data-dir set to a writable folder.</source>
        <translation>数据文件夹 %1 是只读的，examdesk 无法保存你的进度。你可以查看之前保存的内容，但新的答案不会被保存。请让该文件夹可写，或用 --data-dir 指定一个可写的文件夹来启动 examdesk。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="63"/>
        <source>The disk that holds %1 is full, so examdesk cannot save your progress. Nothing you do will be saved until space is freed; then restart examdesk.</source>
        <translation>存放 %1 的磁盘已满，examdesk 无法保存你的进度。释放空间之前，你的任何操作都不会被保存；释放后请重启 examdesk。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="68"/>
        <source>The daily backup of your progress could not be written to %1. Your progress file itself is fine.</source>
        <translation>无法将进度的每日备份写入 %1。进度文件本身完好。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="72"/>
        <source>Little space is left on the disk that holds %1. When it is full, examdesk cannot save your answers.</source>
        <translation>存放 %1 的磁盘剩余空间不多。磁盘满后，examdesk 将无法保存你的答案。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="75"/>
        <source>examdesk cannot save your progress in %1. Nothing you do will be saved until that is fixed; then restart examdesk.</source>
        <translation>examdesk 无法将进度保存到 %1。问题解决之前，你的任何操作都不会被保存；解决后请重启 examdesk。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="104"/>
        <location filename="../../desktop/views/storage_notice.py" line="161"/>
        <source>Your progress file</source>
        <translation>你的进度文件</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="115"/>
        <source>Restore backup</source>
        <translation>恢复备份</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="137"/>
        <source>the progress file is still busy; try again in a moment</source>
        <translation>进度文件仍在使用中，请稍后再试</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="159"/>
        <source>The backup could not be restored: %1</source>
        <translation>无法恢复备份：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="171"/>
        <source>The disk is full, so your latest changes could not be saved.</source>
        <translation>磁盘已满，你最近的修改未能保存。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="174"/>
        <source>The progress file or its folder is read-only, so your latest changes could not be saved.</source>
        <translation>进度文件或其所在文件夹是只读的，你最近的修改未能保存。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="177"/>
        <source>The disk refused to save your latest changes.</source>
        <translation>磁盘拒绝保存你最近的修改。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="178"/>
        <source>They stay on screen, and examdesk saves them again with your next change once the problem is fixed (free some space, or make the folder writable).</source>
        <translation>这些内容仍保留在屏幕上；问题解决后（释放一些空间，或让文件夹可写），examdesk 会在你下一次修改时再次保存它们。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/storage_notice.py" line="198"/>
        <source>Not saved</source>
        <translation>未保存</translation>
    </message>
</context>
<context>
    <name>SubjectiveAnswer</name>
    <message>
        <location filename="../../desktop/views/answer_widgets.py" line="337"/>
        <source>Write your answer here.</source>
        <translation>在此作答。</translation>
    </message>
</context>
<context>
    <name>WrongBookView</name>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="53"/>
        <source>Library</source>
        <translation>题库</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="55"/>
        <source>Wrong-answer book</source>
        <translation>错题本</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="58"/>
        <source>Practise these</source>
        <translation>练习这些题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="68"/>
        <source>All papers</source>
        <translation>全部试卷</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="71"/>
        <source>All topics</source>
        <translation>全部知识点</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="74"/>
        <source>All types</source>
        <translation>全部题型</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="76"/>
        <source>Show mastered</source>
        <translation>显示已掌握</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="92"/>
        <location filename="../../desktop/views/wrong_book.py" line="210"/>
        <source>Mark mastered</source>
        <translation>标记为已掌握</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="95"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="165"/>
        <source>%1 question(s) to review</source>
        <translation>待复习 %1 题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="176"/>
        <location filename="../../desktop/views/wrong_book.py" line="222"/>
        <source>Question %1</source>
        <translation>第 %1 题</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="178"/>
        <source>missed %1×</source>
        <translation>错 %1 次</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="179"/>
        <source>mastered</source>
        <translation>已掌握</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="205"/>
        <source>Nothing here: every question you missed is mastered, or none matches the filters.</source>
        <translation>这里没有题目：做错的题都已掌握，或没有题目符合筛选条件。</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="209"/>
        <source>Not mastered yet</source>
        <translation>还没掌握</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="216"/>
        <source>missed %1×, last on %2</source>
        <translation>错 %1 次，最近一次 %2</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="219"/>
        <source>right %1× since: mark it mastered when it sticks</source>
        <translation>此后答对 %1 次：记牢了就标记为已掌握</translation>
    </message>
    <message>
        <location filename="../../desktop/views/wrong_book.py" line="242"/>
        <source>Question %1 marked mastered.</source>
        <translation>第 %1 题已标记为已掌握。</translation>
    </message>
</context>
</TS>
