"""The probe drives what a page listens for (keys its handlers compare against, shapes drawn on
a canvas, press-move-release drags), reports which driver made a control live, and never turns
the budget into a verdict. Real Chromium, tiny inline pages."""

import asyncio
import json
import subprocess
import sys

import pytest

from cogevol.probe import Control, ProbeConfig
from cogevol.probe.drivers import key_name, order_controls
from cogevol.scoring import ScoringSettings
from cogevol.scoring.local import score_pages

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

# a board: only `r` (reset) and `?` (help) do anything; arrows, space and WASD are ignored
KEYS_PAGE = """<!DOCTYPE html><html><body><h1>Board</h1><p id=help hidden>Press r to reset</p><div id=moves>moves: 3</div>
<script>document.addEventListener('keydown', (e) => {
  if (e.key === 'r') document.getElementById('moves').textContent = 'moves: 0';
  if (e.key === '?') document.getElementById('help').hidden = false;
});</script></body></html>"""

# a rope toy: a press, moves and a release on the canvas pull the rope; a click alone does nothing
DRAG_PAGE = """<!DOCTYPE html><html><body style="margin:0"><canvas id=c width=600 height=400></canvas><script>
const c = document.getElementById('c'), g = c.getContext('2d'); let down = false, end = [300, 200], moved = 0;
function draw() { g.fillStyle = '#fff'; g.fillRect(0, 0, 600, 400); g.strokeStyle = '#333'; g.lineWidth = 4;
  g.beginPath(); g.moveTo(300, 0); g.lineTo(end[0], end[1]); g.stroke(); }
c.addEventListener('mousedown', () => { down = true; moved = 0; });
window.addEventListener('mousemove', (e) => { if (down) { moved++; if (moved > 2) { end = [e.offsetX, e.offsetY]; draw(); } } });
window.addEventListener('mouseup', () => { down = false; });
draw();</script></body></html>"""

# pieces drawn off the fixed click points: only a click on a piece selects it
PIECES_PAGE = """<!DOCTYPE html><html><body style="margin:0"><canvas id=c width=800 height=800></canvas><script>
const c = document.getElementById('c'), g = c.getContext('2d'); const pieces = [[90, 610], [610, 90]]; let sel = -1;
function draw() { g.fillStyle = '#eee'; g.fillRect(0, 0, 800, 800);
  pieces.forEach(([x, y], i) => { g.fillStyle = i === sel ? '#c00' : '#333'; g.beginPath(); g.arc(x, y, 22, 0, 7); g.fill(); }); }
c.addEventListener('click', (e) => { const r = c.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
  pieces.forEach(([px, py], i) => { if (Math.hypot(px - x, py - y) < 22) { sel = i; draw(); } }); });
draw();</script></body></html>"""

# a clicker: one listener on a full-screen board finds the target under the pointer (its
# centre is empty: a miss costs a point the score does not have); the dead copy scores nothing
BOARD_PAGE = """<!DOCTYPE html><html><body style="margin:0"><div id=board style="position:absolute;inset:0;cursor:pointer">
<div class=t style="position:absolute;left:80px;top:90px;width:40px;height:40px;border-radius:50%;background:#c33"></div>
<div class=t style="position:absolute;left:900px;top:600px;width:40px;height:40px;border-radius:50%;background:#33c"></div></div>
<p id=s style="position:absolute;left:10px;top:0">score: 0</p><script>let score = 0;
board.addEventListener('click', (e) => { let hit = false;
  for (const t of document.querySelectorAll('.t')) { const r = t.getBoundingClientRect();
    if (Math.hypot(e.clientX - r.left - 20, e.clientY - r.top - 20) <= 20) { hit = true; if (HITS) score += 5; } }
  if (!hit) score = Math.max(0, score - 1); s.textContent = 'score: ' + score; });</script></body></html>"""

# a knob that listens for clicks and presses and does nothing: a click, then a drag, compared
# step by step without the knob's own look, as the one-step verdict is
DEAD_KNOB = """<!DOCTYPE html><html><body><h1>Mixer</h1><div id=knob style="width:120px;height:60px;background:#ccc">Knob</div>
<script>knob.addEventListener('mousedown', () => {}); knob.addEventListener('click', () => {});</script></body></html>"""

# a keyboard game: its board is a canvas nothing on the page listens to the pointer over, so
# clicking it is nothing a player would try (no dead control); the arrow keys move the ship
KEYBOARD_GAME = """<!DOCTYPE html><html><body style="margin:0"><canvas id=c width=600 height=400></canvas><script>
const c = document.getElementById('c'), g = c.getContext('2d'); let x = 300;
function draw() { g.fillStyle = '#000'; g.fillRect(0, 0, 600, 400); g.fillStyle = '#0c0'; g.fillRect(x - 20, 360, 40, 20); }
document.addEventListener('keydown', (e) => { if (e.key === 'ArrowLeft') x -= 20; if (e.key === 'ArrowRight') x += 20; draw(); });
draw();</script></body></html>"""

# particles drawn to the pointer (a mousemove listener on the window, no press): FOLLOWS false
# is the dead copy, which reads the pointer and draws nothing of it; a button with a hover style
# covers one of the canvas's corner points, where a pointer moved across would light it up
FOLLOW_PAGE = """<!DOCTYPE html><html><head><style>canvas{display:block;width:100vw;height:100vh}
#b{position:fixed;left:25vw;top:75vh;transform:translate(-50%,-50%);background:#ddd}#b:hover{background:#c00}</style></head>
<body style="margin:0"><canvas id=c width=640 height=400></canvas><button id=b>Info</button><script>
const g = c.getContext('2d'); let mx = 320, my = 200, t = 0;
window.addEventListener('mousemove', (e) => { const r = c.getBoundingClientRect();
  if (FOLLOWS) { mx = (e.clientX - r.left) * 640 / r.width; my = (e.clientY - r.top) * 400 / r.height; } });
function frame() { t++; g.fillStyle = '#113'; g.fillRect(0, 0, 640, 400); g.fillStyle = '#fc0';
  for (let k = 0; k < 12; k++) g.fillRect(mx + 30 * Math.cos(t / 8 + k), my + 30 * Math.sin(t / 8 + k), 6, 6);
  requestAnimationFrame(frame); }
frame();</script></body></html>"""

# every frame burns CPU: with a tiny budget nothing can be driven, but the page still answers
SLOW_PAGE = """<!DOCTYPE html><html><body><button id=b>go</button><p id=o>0</p><script>
b.onclick = () => { o.textContent = +o.textContent + 1; };
function frame() { const t = performance.now(); let x = 0; for (let i = 0; i < 3e6; i++) x += Math.sqrt(i); requestAnimationFrame(frame); }
requestAnimationFrame(frame);</script></body></html>"""


def _probe(pages, cfg=None, requests=None):
    return {r["path"]: r for r in asyncio.run(score_pages(list(pages.items()), ScoringSettings(probe=cfg or ProbeConfig()), requests=requests))}


def test_keys_read_from_handlers_canvas_shapes_board_pieces_and_drags():
    r = _probe({"keys": KEYS_PAGE, "drag": DRAG_PAGE, "pieces": PIECES_PAGE, "game": KEYBOARD_GAME,
                "board": BOARD_PAGE.replace("HITS", "true"), "dead board": BOARD_PAGE.replace("HITS", "false"),
                "knob": DEAD_KNOB})
    keys = r["keys"]
    assert not keys["hard_fail"], keys["reason"]
    (kb,) = [c for c in keys["controls"] if c["kind"] == "keyboard"]
    assert kb["verdict"] == "live" and kb["driver"] == "handler-keys" and "holding r" in kb["evidence"]
    drag = r["drag"]
    (canvas,) = [c for c in drag["controls"] if c["kind"] == "canvas"]
    assert canvas["verdict"] == "live" and canvas["driver"] == "drag", canvas
    pieces = r["pieces"]
    (board,) = [c for c in pieces["controls"] if c["kind"] == "canvas"]
    assert board["verdict"] == "live" and board["driver"] == "canvas-shapes", board
    board, dead = r["board"], r["dead board"]
    (area,) = [c for c in board["controls"] if c["label"] == "board"]
    assert area["verdict"] == "live" and area["driver"] == "pieces", area
    (area,) = [c for c in dead["controls"] if c["label"] == "board"]
    assert area["verdict"] == "dead" and dead["hard_fail"], area
    (knob,) = [c for c in r["knob"]["controls"] if c["label"] == "Knob"]
    assert knob["drag"] and knob["verdict"] == "dead", knob
    game = r["game"]
    assert not [c for c in game["controls"] if c["kind"] == "canvas"], game["controls"]
    (board,) = [c for c in game["controls"] if "listens to the pointer" in (c.get("reason") or "")]
    assert board["status"] == "excluded", board
    assert game["terms"]["interactivity"] == 0.0 and not game["hard_fail"], game["controls"]


def test_a_scene_that_follows_the_pointer_is_live_where_nothing_covers_it():
    # the pointer crosses the canvas without a press and the twin's stays put; it never crosses
    # the button over the canvas (whose hover style is no response of the canvas)
    ask = "particles that swirl and follow the mouse"
    pages = {"follows": FOLLOW_PAGE.replace("FOLLOWS", "true"), "ignores": FOLLOW_PAGE.replace("FOLLOWS", "false")}
    r = _probe(pages, requests={k: ask for k in pages})
    (canvas,) = [c for c in r["follows"]["controls"] if c["kind"] == "canvas"]
    assert canvas["verdict"] == "live" and canvas["driver"] == "canvas-hover", canvas
    assert not r["follows"]["hard_fail"], r["follows"]["reason"]
    ignores = r["ignores"]
    (canvas,) = [c for c in ignores["controls"] if c["kind"] == "canvas"]
    assert canvas["verdict"] == "dead", canvas
    # nothing in its code wires a control (it only hears the pointer move), so what zeroes it is
    # the reading "follow the mouse": one control word, short of a hard fail, priced to ~0
    assert ignores["reason_id"] == "priced.unmet" and "interactive" in ignores["unmet"], ignores["reason"]
    assert ignores["reward"] < 0.1, ignores["reason"]


def test_key_names():
    assert key_name("r") == "r" and key_name("?") == "?" and key_name(" ") == "Space"
    assert key_name("KeyR") == "KeyR" and key_name("#82") == "r" and key_name("#37") == "ArrowLeft"
    assert key_name("Esc") == "Escape" and key_name("NotAKey") is None


def test_controls_the_request_names_come_first():
    controls = [Control(0, "click", "button", "Reset", "operable"), Control(1, "click", "button", "Launch rocket", "operable"),
                Control(2, "click", "button", "Hidden", "not_operable"), Control(3, "keyboard", "keyboard", "document", "operable")]
    assert order_controls(controls, "") == [0, 1, 3]
    assert order_controls(controls, "a rocket you launch with a button") == [1, 0, 3]
    assert order_controls(controls, "steer with the arrow keys") == [3, 0, 1]


def test_budget_is_never_a_verdict_against_a_slow_page():
    r = _probe({"slow": SLOW_PAGE}, cfg=ProbeConfig(page_timeout_s=0.1), requests={"slow": "a counter with a go button"})["slow"]
    assert r["outcome"] == "ok" and r["budget_exhausted"] and r["controls_skipped"] == 1
    assert not r["hard_fail"] and "budget" in r["reason"] and r["expects"] == ["interactive"]
    assert [(c["index"], c["status"]) for c in r["controls"]] == [(0, "skipped")]


def test_cli_request_shapes_the_gate(tmp_path):
    page = tmp_path / "anim.html"
    page.write_text("""<!DOCTYPE html><html><body><canvas id=c width=300 height=200></canvas><button>Decor</button><script>
    const g = c.getContext('2d'); let x = 0;
    (function f() { g.fillStyle = '#fff'; g.fillRect(0, 0, 300, 200); g.fillStyle = '#06c'; g.fillRect(x = (x + 3) % 280, 90, 20, 20); requestAnimationFrame(f); })();
    </script><script src="https://cdn.example.org/missing.js"></script></body></html>""")
    out = {}
    for request in ("a bouncing ball animation", ""):
        p = subprocess.run([sys.executable, "-m", "cogevol.cli", "probe", str(page), *(["--request", request] if request else [])],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        out[request] = json.loads(p.stdout)
    anim, plain = out["a bouncing ball animation"], out[""]
    assert anim["expects"] == ["animation"] and not anim["hard_fail"] and anim["animates"]
    assert "interactivity" not in anim["terms"]  # the decorative button earns nothing
    assert plain["expects"] == ["interactive"] and plain["hard_fail"]  # no request: the interactive gate
    assert anim["blocked_resources"] == ["https://cdn.example.org/missing.js"]


def test_errors_thrown_by_timer_callbacks_are_the_pages_not_the_harness():
    page = """<!DOCTYPE html><html><body><h1>Orbit</h1><canvas id=c width=200 height=200></canvas><script>
    const g = c.getContext('2d'); let t = 0;
    function animate() { requestAnimationFrame(animate); t++; g.fillStyle = '#fff'; g.fillRect(0, 0, 200, 200);
      g.fillStyle = '#c00'; g.fillRect(90 + 40 * Math.cos(t / 5), 90 + 40 * Math.sin(t / 5), 20, 20); TWEEN.update(); }
    animate();</script></body></html>"""
    r = _probe({"orbit": page}, requests={"orbit": "an animation of a red square going round in circles"})["orbit"]
    assert r["outcome"] == "ok" and not r["harness_error"] and r["animates"] and not r["hard_fail"], r["reason"]
    assert r["error_count"] > 1 and any("TWEEN is not defined" in e for e in r["errors"])
    assert r["error_kinds"] == 1 and r["terms"]["console_errors"] == round(1 / 3, 4)  # one bug, every frame


def test_an_animation_that_throws_after_its_first_seconds_is_frozen():
    # a loop that throws at its 90th frame (about 1.5 s on a screen) is watched until it does
    # (watch_ms); one built for the first window throws once the layout measures resize it,
    # after the end-of-run look saw it move, and is looked at again; a loop that throws
    # schedules no next frame
    page = """<!DOCTYPE html><html><body style="margin:0"><canvas id=c width=600 height=400></canvas><script>
    const g = c.getContext('2d'), w0 = innerWidth; let t = 0;
    function frame() { t++; if (THROWS && innerWidth !== w0) throw new TypeError('grid built for ' + w0 + ' px');
      g.fillStyle = '#fff'; g.fillRect(0, 0, 600, 400); g.fillStyle = '#36c';
      for (let x = 0; x < 15; x++) g.fillRect(x * 40, 180 + 80 * Math.sin(t / 6 + x), 30, 30);
      requestAnimationFrame(frame); }
    frame();</script></body></html>"""
    wave = "an animation of a wave of blue squares"
    pages = {"resized": page.replace("THROWS", "true"), "late": page.replace("THROWS && innerWidth !== w0", "t > 90"),
             "wave": page.replace("THROWS", "false")}
    r = _probe(pages, requests={k: wave for k in pages})
    for name in ("resized", "late"):
        assert r[name]["animates"] and r[name]["moves_at_end"] is False and r[name]["hard_fail"], (name, r[name]["reason"])
        assert "stops after a script error" in r[name]["reason"] and "grid built for" in r[name]["reason"]
    assert r["wave"]["moves_at_end"] and not r["wave"]["hard_fail"], r["wave"]["reason"]
    watched = _probe({"late": pages["late"]}, cfg=ProbeConfig(watch_ms=0), requests={"late": wave})["late"]
    assert not watched["hard_fail"], "the late throw is past a look that does not watch"


def test_a_loading_screen_that_lifts_by_itself_is_waited_for_once():
    page = """<!DOCTYPE html><html><body><button id=b>add</button><p id=o>0</p>
    <div id=load style="position:fixed;inset:0;background:#123;color:#fff">Loading...</div><script>
    b.onclick = () => { o.textContent = +o.textContent + 1; };
    setTimeout(() => document.getElementById('load').remove(), 1200);</script></body></html>"""
    r = _probe({"load": page}, requests={"load": "a counter with an add button"})["load"]
    assert not r["hard_fail"] and r["controls_live"] == 1, r["reason"]
    stuck = page.replace("setTimeout(() => document.getElementById('load').remove(), 1200);", "")
    r = _probe({"stuck": stuck}, requests={"stuck": "a counter with an add button"})["stuck"]
    assert r["hard_fail"] and "covered by div#load" in r["reason"]


def test_an_answer_after_a_timer_is_live_on_the_baseline_method_too():
    # a Start Scan that shows its result once a timer fires; a Share that does nothing
    page = """<!DOCTYPE html><html><body><h1>Scan</h1><p id=out>ready</p><button id=go>Start Scan</button>
    <button id=no>Share</button><script>
    go.onclick = () => setTimeout(() => { document.getElementById('out').textContent = 'done'; }, 900);
    no.onclick = () => setTimeout(() => {}, 900);</script></body></html>"""
    for method in ("twin", "baseline"):
        r = _probe({"scan": page}, cfg=ProbeConfig(counterfactual=method), requests={"scan": "a scan button"})["scan"]
        verdicts = {c["label"]: (c.get("verdict"), c.get("evidence", "")) for c in r["controls"]}
        assert verdicts["Start Scan"][0] == "live" and "ms after the input" in verdicts["Start Scan"][1], (method, verdicts)
        assert verdicts["Share"][0] == "dead", (method, verdicts)
