"""The reward's floor in a real Chromium: what a small model writes badly is zeroed with its
reason id, and small honest pages are not (cogevol.rewards.answer_format, .substance, the task
type's demand in .expects)."""

import asyncio

import pytest

from cogevol.scoring import ScoreItem, Scorers

DEMO = "Generate a single HTML file with JavaScript demonstrating the concept: bubble sort"
CHART = "Erstelle eine Seite mit einem Balkendiagramm der Verkäufe pro Quartal"
BAKERY = "一个面包店的着陆页，介绍产品和营业时间"

PROSE = """Sure! Here is how bubble sort works.
<html><body>
Bubble sort repeatedly swaps neighbours.
```javascript
function bubbleSort(a) {
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < a.length - i - 1; j++) {
      if (a[j] > a[j + 1]) { [a[j], a[j + 1]] = [a[j + 1], a[j]]; }
    }
  }
  return a;
}
```
You can run it in the console.
</body></html>"""
CODE_AS_TEXT = """```html
<!DOCTYPE html><html><head><title>Sort</title></head><body><h1>Bubble sort</h1>
const a = [5, 3, 8, 1];
function sortStep() { for (let j = 0; j < a.length - 1; j++) { if (a[j] > a[j + 1]) { const t = a[j]; a[j] = a[j + 1]; a[j + 1] = t; } } }
document.getElementById('bars').innerHTML = a.map(v => '<div style="height:' + v * 10 + 'px"></div>').join('');
</body></html>
```"""
LOGS_ONLY = """<!DOCTYPE html><html><head><title>Bubble sort</title></head><body><h1>Bubble Sort Demo</h1>
<div id="viz" style="width:600px;height:300px;border:1px solid #999"></div>
<script>const a=[5,3,8,1];for(let i=0;i<a.length;i++)for(let j=0;j<a.length-1-i;j++)if(a[j]>a[j+1])[a[j],a[j+1]]=[a[j+1],a[j]];console.log(a);</script>
</body></html>"""
CUT = """Here is the page:
```html
<!DOCTYPE html><html><head><style>body{font-family:sans-serif}</style></head><body><h1>Bubble sort</h1><div id="bars"></div>
<script>
const a = [5, 3, 8, 1];
function draw() { document.getElementById('bars').innerHTML = a.map(v => '<div style="height:' + v"""
STEPPER = """<!DOCTYPE html><html><body><h1>Bubble sort</h1><div id="bars"></div><button id="step">Step</button>
<script>const a=[5,3,8,1,7];let i=0,j=0;
function draw(){bars.innerHTML=a.map(v=>'<div style="display:inline-block;width:30px;margin:2px;background:#48c;height:'+v*20+'px"></div>').join('')}
step.onclick=()=>{if(a[j]>a[j+1])[a[j],a[j+1]]=[a[j+1],a[j]];j++;if(j>=a.length-1-i){j=0;i++}draw()};draw();</script></body></html>"""
# the code shown on purpose, in a box styled as code, beside a demonstration that works
TUTORIAL = STEPPER.replace("<h1>Bubble sort</h1>", """<h1>Bubble sort</h1><div style="font-family:monospace;white-space:pre">
function bubbleSort(a) {
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < a.length - i - 1; j++) {
      if (a[j] > a[j + 1]) { const t = a[j]; a[j] = a[j + 1]; a[j + 1] = t; }
    }
  }
}</div>""")
BARS = """<!DOCTYPE html><html lang="de"><body><h1>Verkäufe pro Quartal</h1>
<div style="display:flex;align-items:flex-end;height:200px;gap:10px">
<div style="width:40px;height:120px;background:#c33"></div><div style="width:40px;height:160px;background:#c33"></div>
<div style="width:40px;height:90px;background:#c33"></div><div style="width:40px;height:180px;background:#c33"></div></div>
<p>Q1 Q2 Q3 Q4</p></body></html>"""
SHOP = """<!DOCTYPE html><html lang="zh"><body><h1>小麦面包店</h1>
<p>我们每天清晨手工烘焙面包、可颂和蛋糕，只用本地面粉和新鲜黄油。欢迎来店里品尝。</p>
<h2>营业时间</h2><p>周一至周六 7:00-19:00，周日 8:00-14:00</p></body></html>"""


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_junk_is_zeroed_with_its_reason_and_small_honest_pages_pass():
    cases = [
        (PROSE, DEMO, "format.markdown_shown"),
        (CODE_AS_TEXT, DEMO, "format.code_shown"),
        # the task type's reading is too unsure to fail a still page alone; next to nothing shown is
        (LOGS_ONLY, DEMO, "substance.empty"),
        (CUT, DEMO, "format.truncated"),
        (f"```html\n{STEPPER}\n```\n```html\n{STEPPER}\n```", DEMO, "format.two_documents"),
        (STEPPER, DEMO, "ok"),
        (TUTORIAL, DEMO, "ok"),
        (BARS, CHART, "ok"),
        (SHOP, BAKERY, "ok"),
    ]

    async def run():
        async with Scorers() as s:
            return await s.score([ScoreItem("html", text, request) for text, request, _ in cases])

    scores = asyncio.run(run())
    for (_, request, want), got in zip(cases, scores):
        assert got.details["reason_id"] == want, (request, got.reason)
        assert got.gate == ("pass" if want == "ok" else "fail"), got.reason
        if want != "ok":
            assert got.reward == 0.0
