"""The technique matrix: every way a page can move by itself, and every way a control's effect
can show, each with a still twin that must fail, through the real Chromium and the whole
reward (the quiet window, the twin comparison and the end-of-run motion check)."""

import asyncio

import pytest

from cogevol.scoring.local import ScoringSettings, score_pages

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

ANIMATION = "An animation of a shape moving around the screen"
INTERACTIVE = "A page with a button that changes what is shown"

BOX = "<div id=box style='position:absolute;left:20px;top:160px;width:60px;height:60px;background:#c33'></div>"


def page(body: str, style: str = "", script: str = "") -> str:
    return (f"<!doctype html><html><head><style>body{{margin:0;font:16px sans-serif}}{style}</style></head>"
            f"<body><h1>Demo</h1>{body}<script>{script}</script></body></html>")


# (technique, moving page, still twin): every moving page must pass an animation request's
# gate, every still twin must be hard-failed as still
MOTION = {
    "canvas2d": (
        page("<canvas id=c width=600 height=300></canvas>", script="""
const x=c.getContext('2d');let t=0;(function f(){t++;x.fillStyle='#fff';x.fillRect(0,0,600,300);
x.fillStyle='#36c';x.beginPath();x.arc(50+(t*5)%500,150,20,0,7);x.fill();requestAnimationFrame(f)})();"""),
        page("<canvas id=c width=600 height=300></canvas>", script="""
const x=c.getContext('2d');(function f(){x.fillStyle='#fff';x.fillRect(0,0,600,300);
x.fillStyle='#36c';x.beginPath();x.arc(100,150,20,0,7);x.fill();requestAnimationFrame(f)})();"""),
    ),
    "webgl": (
        page("<canvas id=c width=400 height=300></canvas>", script="""
const g=c.getContext('webgl');let t=0;(function f(){t+=0.05;g.clearColor(Math.abs(Math.sin(t)),0.3,0.5,1);
g.clear(g.COLOR_BUFFER_BIT);requestAnimationFrame(f)})();"""),
        page("<canvas id=c width=400 height=300></canvas>", script="""
const g=c.getContext('webgl');(function f(){g.clearColor(0.2,0.3,0.5,1);g.clear(g.COLOR_BUFFER_BIT);requestAnimationFrame(f)})();"""),
    ),
    "css_keyframes": (
        page(BOX, "@keyframes mv{from{transform:translateX(0)}to{transform:translateX(400px)}}#box{animation:mv 2s linear infinite}"),
        page(BOX, "@keyframes mv{from{transform:translateX(0)}to{transform:translateX(400px)}}#box{animation:mv 2s linear infinite;animation-play-state:paused}"),
    ),
    "css_keyframes_colour": (
        page(BOX, "@keyframes glow{0%{background:#c33}50%{background:#33c}100%{background:#c33}}#box{animation:glow 1.5s ease-in-out infinite}"),
        page(BOX, "@keyframes glow{0%{background:#c33}100%{background:#c33}}#box{animation:glow 1.5s ease-in-out infinite}"),
    ),
    "css_transition_on_timer": (
        page(BOX, "#box{transition:transform 1s linear}#box.far{transform:translateX(400px)}",
             "setInterval(()=>box.classList.toggle('far'),1200)"),
        page(BOX, "#box{transition:transform 1s linear}#box.far{outline:0}",
             "setInterval(()=>box.classList.toggle('far'),1200)"),
    ),
    "web_animations": (
        page(BOX, script="box.animate([{transform:'rotate(0deg)'},{transform:'rotate(360deg)'}],{duration:1500,iterations:Infinity})"),
        page(BOX, script="box.animate([{transform:'rotate(0deg)'},{transform:'rotate(360deg)'}],{duration:1500,iterations:Infinity}).pause()"),
    ),
    "inline_style_interval": (
        page(BOX, script="let x=20;setInterval(()=>{x=(x+7)%600;box.style.left=x+'px'},50)"),
        page(BOX, script="setInterval(()=>{box.style.left='20px'},50)"),
    ),
    "inline_style_timeout_chain": (
        page(BOX, script="let y=160;(function f(){y=160+(y+5)%300;box.style.top=y+'px';setTimeout(f,60)})()"),
        page(BOX, script="(function f(){box.style.top='160px';setTimeout(f,60)})()"),
    ),
    "inline_style_raf": (
        page(BOX, script="let a=0;(function f(){a+=3;box.style.transform='rotate('+a+'deg)';requestAnimationFrame(f)})()"),
        page(BOX, script="(function f(){box.style.transform='rotate(30deg)';requestAnimationFrame(f)})()"),
    ),
    # the only change is `none` to the identity at the first frame: a value re-set to itself
    "inline_style_raf_identity": (
        page(BOX, script="let a=0;(function f(){a+=3;box.style.transform='rotate('+a+'deg)';requestAnimationFrame(f)})()"),
        page(BOX, script="(function f(){box.style.transform='rotate(0deg)';requestAnimationFrame(f)})()"),
    ),
    # pseudo-elements are not elements: a glow on ::after
    "css_pseudo_element": (
        page("<button id=cta style='position:relative;padding:20px'>Go</button>",
             "@keyframes glow{0%{opacity:.2;box-shadow:0 0 4px #0cf}50%{opacity:1;box-shadow:0 0 30px #0cf}100%{opacity:.2;box-shadow:0 0 4px #0cf}}"
             "#cta::after{content:'';position:absolute;inset:-6px;border-radius:8px;animation:glow 1.2s ease-in-out infinite}"),
        page("<button id=cta style='position:relative;padding:20px'>Go</button>",
             "#cta::after{content:'';position:absolute;inset:-6px;border-radius:8px;opacity:.6;box-shadow:0 0 12px #0cf}"),
    ),
    "svg_attribute_timer": (
        page("<svg width=600 height=200><circle id=ball cx=20 cy=100 r=15 fill=teal /></svg>",
             script="let cx=20;setInterval(()=>{cx=(cx+6)%580;ball.setAttribute('cx',cx)},40)"),
        page("<svg width=600 height=200><circle id=ball cx=20 cy=100 r=15 fill=teal /></svg>",
             script="setInterval(()=>{ball.setAttribute('cx',20)},40)"),
    ),
    "svg_smil": (
        page("<svg width=600 height=200><circle cx=20 cy=100 r=15 fill=teal>"
             "<animate attributeName=cx values='20;580;20' dur=3s repeatCount=indefinite /></circle></svg>"),
        page("<svg width=600 height=200><circle cx=20 cy=100 r=15 fill=teal>"
             "<animate attributeName=cx values='20;580;20' dur=3s begin=indefinite /></circle></svg>"),
    ),
    "css_animationend_chain": (
        page(BOX, "@keyframes hop{from{transform:none}to{transform:translateX(80px)}}#box.hop{animation:hop .3s linear}",
             "let k=0;box.addEventListener('animationend',()=>{box.classList.remove('hop');box.style.left=(20+(++k)*30)+'px';"
             "void box.offsetWidth;box.classList.add('hop')});box.classList.add('hop')"),
        page(BOX, "@keyframes hop{from{transform:none}to{transform:none}}#box.hop{animation:hop .3s linear}",
             "box.addEventListener('animationend',()=>{box.classList.remove('hop');void box.offsetWidth;box.classList.add('hop')});"
             "box.classList.add('hop')"),
    ),
    "ticking_clock": (
        page("<p id=clock style='font-size:48px'>00:00:00</p>", script="""
let s=0;setInterval(()=>{s++;clock.textContent='00:00:'+String(s).padStart(2,'0')},1000)"""),
        page("<p id=clock style='font-size:48px'>00:00:00</p>", script="setInterval(()=>{clock.textContent='00:00:00'},1000)"),
    ),
}

# still scenes whose only change is a counter: never an animation
COUNTERS = {
    "fps_over_black_webgl": page(
        "<canvas id=c width=800 height=500></canvas><div id=fps style='position:fixed;top:4px;right:8px'>FPS: 0</div>", script="""
const g=c.getContext('webgl');let n=0,last=performance.now();(function f(t){g.clearColor(0,0,0,1);g.clear(g.COLOR_BUFFER_BIT);
n++;if(t-last>250){fps.textContent='FPS: '+Math.round(n*1000/(t-last));n=0;last=t}requestAnimationFrame(f)})(last);"""),
    "frame_number_on_canvas": page("<canvas id=c width=800 height=500></canvas>", script="""
const x=c.getContext('2d');let k=0;(function f(){k++;x.fillStyle='#123';x.fillRect(0,0,800,500);x.fillStyle='#eee';
x.fillRect(300,200,120,80);x.font='14px monospace';x.fillText('frame '+k,10,20);requestAnimationFrame(f)})();"""),
    "timestamp_over_svg": page(
        "<svg width=900 height=500><rect x=100 y=100 width=300 height=200 fill=navy /></svg><small id=ts>t=0</small>",
        script="setInterval(()=>{ts.textContent='t='+performance.now().toFixed(0)},100)"),
}

START = "<button id=go>Start</button>"

# a page still until an input: motion the input sets off that goes on counts ("moves on its own
# later"); the input's own inertia dying down (an orbit drag eased by damping) does not
SPOKES = """const x=c.getContext('2d');let a=0,v=0,down=null;
function draw(){x.fillStyle='#012';x.fillRect(0,0,600,400);x.strokeStyle='#6cf';for(let i=0;i<40;i++){const t=a+i*Math.PI/20;
x.beginPath();x.moveTo(300,200);x.lineTo(300+380*Math.cos(t),200+380*Math.sin(t));x.stroke()}}"""
SET_OFF = {
    "canvas_start_button": page(START + "<canvas id=c width=600 height=400></canvas>", script=SPOKES + """
let on=false;go.onclick=()=>{on=true};(function f(){if(on)a+=0.02;draw();requestAnimationFrame(f)})();"""),
    "canvas_drag_damping": page("<canvas id=c width=600 height=400></canvas>", script=SPOKES + """
c.addEventListener('pointerdown',e=>{down=e.clientX});addEventListener('pointerup',()=>{down=null});
c.addEventListener('pointermove',e=>{if(down!==null){v+=(e.clientX-down)*0.002;down=e.clientX}});
(function f(){a+=v*0.05;v*=0.95;draw();requestAnimationFrame(f)})();"""),
}

# (technique, page whose button works, twin whose button does nothing visible)
CONTROLS = {
    "canvas2d": (
        page(START + "<canvas id=c width=300 height=200></canvas>", script="""
const x=c.getContext('2d');x.fillStyle='#eee';x.fillRect(0,0,300,200);go.onclick=()=>{x.fillStyle='#c33';x.fillRect(50,50,80,80)}"""),
        page(START + "<canvas id=c width=300 height=200></canvas>", script="""
const x=c.getContext('2d');x.fillStyle='#eee';x.fillRect(0,0,300,200);go.onclick=()=>{x.fillStyle='#eee';x.fillRect(50,50,80,80)}"""),
    ),
    "webgl": (
        page(START + "<canvas id=c width=300 height=200></canvas>", script="""
const g=c.getContext('webgl');let r=0.1;const d=()=>{g.clearColor(r,0.2,0.3,1);g.clear(g.COLOR_BUFFER_BIT)};d();go.onclick=()=>{r=0.9;d()}"""),
        page(START + "<canvas id=c width=300 height=200></canvas>", script="""
const g=c.getContext('webgl');const d=()=>{g.clearColor(0.1,0.2,0.3,1);g.clear(g.COLOR_BUFFER_BIT)};d();go.onclick=d"""),
    ),
    "css_keyframes_class": (
        page(START + BOX, "@keyframes mv{from{transform:translateX(0)}to{transform:translateX(300px)}}#box.on{animation:mv 1s linear infinite}",
             "go.onclick=()=>box.classList.add('on')"),
        page(START + BOX, "@keyframes mv{from{transform:translateX(0)}to{transform:translateX(300px)}}#box.on{animation:mv 1s linear infinite}",
             "go.onclick=()=>box.classList.add('off')"),
    ),
    "css_transition_style": (
        page(START + BOX, "#box{transition:transform .6s ease}", "go.onclick=()=>{box.style.transform='translateY(120px)'}"),
        page(START + BOX, "#box{transition:transform .6s ease}", "go.onclick=()=>{box.style.transform='none'}"),
    ),
    "web_animations": (
        page(START + BOX, script="go.onclick=()=>box.animate([{opacity:1},{opacity:0.2}],{duration:800,fill:'forwards'})"),
        page(START + BOX, script="go.onclick=()=>box.animate([{opacity:1},{opacity:1}],{duration:800,fill:'forwards'})"),
    ),
    "inline_style_interval": (
        page(START + BOX, script="go.onclick=()=>{let x=20;setInterval(()=>{x+=5;box.style.left=x+'px'},50)}"),
        page(START + BOX, script="go.onclick=()=>{setInterval(()=>{box.style.left='20px'},50)}"),
    ),
    "inline_style_raf": (
        page(START + BOX, script="go.onclick=()=>{let a=0;(function f(){a+=4;box.style.transform='rotate('+a+'deg)';if(a<360)requestAnimationFrame(f)})()}"),
        page(START + BOX, script="go.onclick=()=>{(function f(){box.style.transform='none'})()}"),
    ),
    "svg_attribute": (
        page(START + "<svg width=300 height=100><rect id=bar x=0 y=40 width=20 height=20 fill=teal /></svg>",
             script="go.onclick=()=>bar.setAttribute('width',200)"),
        page(START + "<svg width=300 height=100><rect id=bar x=0 y=40 width=20 height=20 fill=teal /></svg>",
             script="go.onclick=()=>bar.setAttribute('width',20)"),
    ),
    "svg_smil_begin": (
        page(START + "<svg width=300 height=100><circle cx=20 cy=50 r=10 fill=teal><animate id=an attributeName=cx to=280 dur=1s begin=indefinite fill=freeze /></circle></svg>",
             script="go.onclick=()=>an.beginElement()"),
        page(START + "<svg width=300 height=100><circle cx=20 cy=50 r=10 fill=teal><animate id=an attributeName=cx to=280 dur=1s begin=indefinite fill=freeze /></circle></svg>",
             script="go.onclick=()=>{}"),
    ),
    "css_play_state_pause": (
        page(START + BOX, "@keyframes mv{from{transform:translateX(0)}to{transform:translateX(400px)}}#box{animation:mv 2s linear infinite}",
             "go.onclick=()=>{box.style.animationPlayState='paused'}"),
        page(START + BOX, "@keyframes mv{from{transform:translateX(0)}to{transform:translateX(400px)}}#box{animation:mv 2s linear infinite}",
             "go.onclick=()=>{box.style.animationPlayState='running'}"),
    ),
    "web_animation_pause": (
        page(START + BOX, script="const an=box.animate([{transform:'none'},{transform:'translateX(400px)'}],{duration:2000,iterations:Infinity});"
             "go.onclick=()=>an.playState==='running'?an.pause():an.play()"),
        page(START + BOX, script="const an=box.animate([{transform:'none'},{transform:'translateX(400px)'}],{duration:2000,iterations:Infinity});"
             "go.onclick=()=>{if(an.playState!=='running')an.play()}"),
    ),
    "layout_width": (
        page(START + "<div id=bar style='height:20px;width:40px;background:#393'></div>", script="go.onclick=()=>{bar.style.width='300px'}"),
        page(START + "<div id=bar style='height:20px;width:40px;background:#393'></div>", script="go.onclick=()=>{bar.style.width='40px'}"),
    ),
    "visibility_class": (
        page(START + "<div id=panel class=hid>Hello</div>", ".hid{visibility:hidden}", "go.onclick=()=>panel.classList.remove('hid')"),
        page(START + "<div id=panel class=hid>Hello</div>", ".hid{visibility:hidden}", "go.onclick=()=>panel.dataset.x=1"),
    ),
    "timer_ticks_at_1s": (
        page(START + "<p id=t style='font-size:40px'>10</p>", script="""
let n=10,h=null;go.onclick=()=>{if(!h)h=setInterval(()=>{n--;t.textContent=n},1000)}"""),
        page(START + "<p id=t style='font-size:40px'>10</p>", script="""
let n=10,h=null;go.onclick=()=>{if(!h)h=setInterval(()=>{t.textContent=n},1000)}"""),
    ),
    "result_after_1500ms": (
        page(START + "<p id=out></p>", script="go.onclick=()=>setTimeout(()=>{out.textContent='Found a path of 12 steps'},1500)"),
        page(START + "<p id=out></p>", script="go.onclick=()=>setTimeout(()=>{out.dataset.done=1},1500)"),
    ),
}


@pytest.fixture(scope="module")
def results():
    items, requests = [], {}
    for name, (moving, still) in MOTION.items():
        items += [(f"motion/{name}/moving", moving), (f"motion/{name}/still", still)]
    items += [(f"counter/{name}", html) for name, html in COUNTERS.items()]
    for name, (live, dead) in CONTROLS.items():
        items += [(f"control/{name}/live", live), (f"control/{name}/dead", dead)]
    items += [(f"set_off/{name}", html) for name, html in SET_OFF.items()]
    for key, _ in items:
        requests[key] = INTERACTIVE if key.startswith("control/") else ANIMATION
    # two pages in flight: the virtual clock keeps verdicts the same under load (probe_stability)
    return {r["path"]: r for r in asyncio.run(score_pages(items, ScoringSettings(workers=2), requests=requests))}


@pytest.mark.parametrize("name", sorted(MOTION))
def test_moving_page_passes_and_still_twin_fails(results, name):
    moving, still = results[f"motion/{name}/moving"], results[f"motion/{name}/still"]
    assert moving["animates"] and not moving["hard_fail"], (moving["reason"], moving["motion"])
    assert moving["motion"].startswith("moves:")
    assert still["hard_fail"] and not still["animates"], (still["reason"], still["motion"])
    assert "nothing moves on its own" in still["reason"]


@pytest.mark.parametrize("name", sorted(COUNTERS))
def test_a_counter_over_a_still_scene_is_not_motion(results, name):
    r = results[f"counter/{name}"]
    assert r["hard_fail"] and not r["animates"], (r["reason"], r["motion"])
    assert r["motion"].startswith("still:"), r["motion"]


def test_motion_an_input_sets_off_counts_and_its_inertia_does_not(results):
    started, eased = results["set_off/canvas_start_button"], results["set_off/canvas_drag_damping"]
    assert not started["animates"] and started["moves_later"], (started["reason"], started["motion"])
    assert not started["hard_fail"], started["reason"]
    drag = next(c for c in eased["controls"] if c.get("kind") == "canvas")
    assert drag["verdict"] == "live", eased["controls"]  # the drag turns the wheel...
    assert not eased["moves_later"] and eased["hard_fail"], (eased["reason"], eased["motion"])
    assert "nothing moves on its own" in eased["reason"]  # ...which then eases to a stop


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_working_control_is_live_and_dead_twin_is_dead(results, name):
    live, dead = results[f"control/{name}/live"], results[f"control/{name}/dead"]
    go_live = next(c for c in live["controls"] if c.get("label") == "Start")
    go_dead = next(c for c in dead["controls"] if c.get("label") == "Start")
    assert go_live["verdict"] == "live" and not live["hard_fail"], (live["reason"], live["controls"])
    assert go_dead["verdict"] == "dead" and dead["hard_fail"], (dead["reason"], dead["controls"])


def test_delayed_responses_say_when_they_showed(results):
    ev = next(c for c in results["control/timer_ticks_at_1s/live"]["controls"] if c.get("label") == "Start")["evidence"]
    assert "ms after the input" in ev, ev
