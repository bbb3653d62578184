"""A request's template (role-play, constraints, output format, grading) is not what the page
shows: only the task is read for mentions and counts."""

from cogevol.checklist.lexicon import lexicon
from cogevol.checklist.rules import plan_rules

ZH = """你是一个参加前端压测的模型。请按以下硬约束输出代码：

[硬约束]
1. 仅允许使用: HTML + CSS + JavaScript
2. 仅输出一个文件: `index.html`
3. 总行数 <= 180
4. 禁止外部依赖（禁止 npm 包、禁止 CDN）

[输出格式]
1. 先输出一段 3-5 行“设计说明”（中文）
2. 然后输出完整 `index.html` 代码块

[评分重点]
- 创意与视觉完成度
- 交互与状态管理

[主题] 天气卡片
目标：做一个显示五个城市天气的卡片页面。

必做功能：
1. 每张卡片显示温度和湿度
2. 点击卡片切换摄氏度和华氏度"""

EN = """You are a senior front-end engineer taking part in a benchmark.

## Constraints
- A single file, index.html, under 200 lines of code
- No external dependencies, no CDN

## Task
Build a pomodoro timer with a progress ring and a session counter.

## Scoring
- Visual polish
- Code quality"""


def mentioned(request: str) -> list[str]:
    return [c.value for c in plan_rules(request).checks if c.check == "mentions"]


def test_a_templates_constraints_format_and_grading_are_set_aside_in_any_language():
    zh = mentioned(ZH)
    assert any("天气" in w for w in zh) and any("温度" in w or "湿度" in w for w in zh)
    assert not any(w in ("npm", "模型", "硬约束", "参加前端压测", "设计说明") for w in zh), zh
    counts = [(c.n, c.value) for c in plan_rules(ZH).checks if c.check == "count"]
    assert counts == [(5, "城市天气")]  # five cities; not 180 lines, not 3-5 lines of notes
    en = mentioned(EN)
    assert {"pomodoro", "timer", "progress", "session"} <= set(en), en
    assert not {"senior", "benchmark", "dependencies", "polish", "quality", "engineer"} & set(en), en
    assert plan_rules(ZH).language == "zh"  # the language is read from the whole request


def test_a_plain_request_keeps_every_word_and_content_lines_stay():
    s = lexicon().scaffold
    one = "Create a single-file HTML page with a bar chart of rainfall in 5 cities"
    assert s.content(one) == one
    todo = "Build a to-do app.\nUsers add tasks.\nEach task has Done and Delete buttons.\nKeep it in one file."
    assert s.content(todo) == "Build a to-do app.\nUsers add tasks.\nEach task has Done and Delete buttons."
    assert s.content("Output:") == "Output:"  # nothing would be left: the request stays whole


JAM = """**Subject: Autonomous Creative Challenge: Build an Engaging Browser Game**

**Your Role:** You are an autonomous creative coding agent.

**Your Mission:** Design and implement a uniquely engaging browser-based game.

**Unleash Your Creativity:**
* You have **total freedom** regarding the game's concept, genre, theme and art style.

**Evaluation Priority:**
1.  **User Engagement & Replayability:** How much do players want to keep playing?
* **Supporting Factors:** Creativity/Originality, Fun Factor, Polish."""


def test_an_open_prompt_names_nothing_its_praise_role_and_grading_would_make_things():
    s = lexicon().scaffold
    kept = s.content(JAM)
    assert "coding agent" not in kept and "Fun Factor" not in kept, kept  # "**Your Role:** ...", "Evaluation Priority"
    assert "uniquely engaging" in kept  # the mission is the task
    assert mentioned(JAM) == [], mentioned(JAM)  # what it leaves to the author is no must either
    assert mentioned("Create the best design masterpiece you can with a single HTML file.") == []
    assert mentioned("HTML 파일 하나로 너가 할 수 있는 최대한의 디자인 역작을 만들어줘.") == []
