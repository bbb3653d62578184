"""Operate the deeper screens of the depth and model-ui-arena pages for the labeller.

label_helper.py's generic phases (click visible buttons, keys, mouse, scroll) rarely get past a
start screen or an empty list, so the vibe-code-bench and model-ui-arena pages were also driven here,
in the same browser setup (label_helper.ARGS, CDN URLs served from npm, everything else blocked;
these pages load nothing remote anyway), by a short scripted use per request, with a screenshot
after each step:

- quiz: press the start button, then for up to 12 questions click the first answer option,
  screenshot the feedback, press Next if there is one; screenshot the end screen, press Play Again.
- notes: press New, type a title and a body, press Save, reload (persistence), search for the
  title, open the note, press Delete (confirm dialogs are accepted, prompt() dialogs answered
  "Groceries"); the selectors of each page are listed in NOTES_STEPS.
- kanban: add a card "Write report" (urgent), drag it to the "In Progress" column, open it, rename
  it, reload (persistence), delete it; per-page selectors in KANBAN_STEPS.
- recorder: press Start/开始, wait, Pause/暂停, Resume, Stop/停止 (confirm dialogs accepted), look
  for the summary.
- click-fireworks: click five points, screenshot 0.3 s and 1.3 s later, then 25 quick clicks.
- neon-countdown: screenshots 1, 5, 9 and 12.5 s after load (end state), press Restart/重新,
  screenshot again.

Controls are found by their visible text (English or Chinese) or role; a step that finds nothing
is logged as "not found" and the screenshot shows what the page looks like then.

Usage: python data/probe_real/tools/depth_ops.py [--out /tmp/probe_real_depth] [--only SUBSTRING ...]
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import re
import shutil
import time
from pathlib import Path

from label_helper import ARGS, TYPES, NpmCache, sheet
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]

CLICKABLE = "button:visible, input[type=button]:visible, input[type=submit]:visible, [role=button]:visible, a:visible"


def find(page, pattern: str, sel: str = CLICKABLE, exclude: str | None = None):
    """First visible control whose text/value/aria-label/title matches pattern (case-insensitive)."""
    loc = page.locator(sel)
    rx, ex = re.compile(pattern, re.I), re.compile(exclude, re.I) if exclude else None
    for i in range(min(loc.count(), 80)):
        el = loc.nth(i)
        try:
            txt = " ".join(
                filter(
                    None,
                    [
                        el.inner_text(timeout=300),
                        el.get_attribute("value"),
                        el.get_attribute("aria-label"),
                        el.get_attribute("title"),
                        el.get_attribute("id"),
                        el.get_attribute("class"),
                    ],
                )
            ).strip()
        except Exception:
            continue
        if rx.search(txt) and not (ex and ex.search(txt)):
            return el, txt[:40]
    return None, None


def click(page, log, pattern, sel=CLICKABLE, exclude=None, wait=500):
    el, txt = find(page, pattern, sel, exclude)
    if el is None:
        log.append(f"not found: {pattern}")
        return False
    try:
        el.click(timeout=3000)
    except Exception:
        try:
            el.evaluate("e => e.click()")  # slow software renderer: scripted click
        except Exception as e:
            log.append(f"click failed {txt}: {str(e)[:80]}")
            return False
    log.append(f"clicked {txt!r}")
    page.wait_for_timeout(wait)
    return True


def fill_first(page, log, sel, text):
    loc = page.locator(sel)
    for i in range(loc.count()):
        el = loc.nth(i)
        try:
            if el.is_visible() and el.is_editable():
                el.fill(text, timeout=2000)
                log.append(f"typed {text!r} into {sel}")
                return el
        except Exception:
            continue
    log.append(f"no editable {sel}")
    return None


TEXT_IN = "input[type=text], input:not([type]), input[type=search]"


def op_quiz(page, shot, log):
    click(page, log, r"begin|start|play|开始", wait=800)
    shot("start")
    # answer options of these pages: `.option` elements, or the buttons in #answer-container
    opts = page.locator("#answer-container button:visible, .option:visible")
    for q in range(12):
        if not opts.count():
            log.append(f"q{q + 1}: no option visible")
            break
        el = opts.nth(q % opts.count())  # vary the chosen option so some answers are wrong
        txt = (el.inner_text(timeout=500) or "")[:20]
        try:
            el.click(timeout=2000)
        except Exception:
            el.evaluate("e => e.click()")
        log.append(f"q{q + 1}: answered {txt!r}")
        page.wait_for_timeout(700)
        if q < 2:
            shot(f"q{q + 1}_feedback")
        nxt = page.locator("#nextBtn:visible, #next-btn:visible")
        if nxt.count():
            nxt.first.click(timeout=2000)
            log.append("next")
        page.wait_for_timeout(1600)  # pages that advance on their own
    page.wait_for_timeout(800)
    shot("end")
    log.append("end text: " + page.evaluate("() => document.body.innerText.replace(/\\s+/g, ' ').slice(0, 160)"))
    click(page, log, r"play again|restart|try again|retake|再", wait=800)
    shot("again")


# The notes and kanban pages differ too much for one generic routine, so each is operated by its own
# short list of steps, written after reading the page's markup (a selector that finds nothing is
# logged and the run goes on). ("shot", name) takes a screenshot.
NOTES_STEPS = {
    "gemini-3-flash-preview": [
        ("click", "text=+ New Note"), ("fill", "#note-title", "Groceries"),
        ("type", "#note-content", "Buy milk and eggs"), ("shot", "typed"), ("click", ".modal >> text=Save"),
    ],
    "kimi-k2-0905": [
        ("click", ".new-note-btn"), ("fill", "#noteTitle", "Groceries"),
        ("type", "#noteContent", "Buy milk and eggs"), ("shot", "typed"), ("click", "text=Save Note"),
    ],
    "olmo-3.1-32b-think": [
        ("click", "#addNewNoteBtn"), ("fill", "#noteTitle", "Groceries"),
        ("fill", "#noteContent", "Buy milk and eggs"), ("shot", "typed"), ("click", "#saveBtn"),
    ],
    # titles and bodies are asked for with window.prompt(); the dialog handler answers "Groceries"
    "llama-3.1-8b-instruct": [("click", "#add-note"), ("shot", "typed")],
}
NOTES_SEARCH = {
    "gemini-3-flash-preview": "#search", "kimi-k2-0905": "#searchInput",
    "olmo-3.1-32b-think": "#searchInput", "llama-3.1-8b-instruct": "#search-input",
}


def step(page, log, st):
    kind, *args = st
    try:
        if kind == "click":
            page.locator(args[0]).first.click(timeout=3000)
        elif kind == "fill":
            page.locator(args[0]).first.fill(args[1], timeout=3000)
        elif kind == "type":
            page.locator(args[0]).first.click(timeout=3000)
            page.keyboard.type(args[1])
        elif kind == "select":
            page.locator(args[0]).first.select_option(args[1], timeout=3000)
        elif kind == "press":
            page.keyboard.press(args[0])
        elif kind == "drag":
            page.locator(args[0]).first.drag_to(page.locator(args[1]).first, timeout=5000)
        log.append(f"{kind} {args[0]!r} ok")
    except Exception as e:
        log.append(f"{kind} {args[0]!r} FAILED: {str(e).splitlines()[0][:80]}")
    page.wait_for_timeout(600)


def run_steps(page, shot, log, steps):
    for st in steps:
        if st[0] == "shot":
            shot(st[1])
        else:
            step(page, log, st)


def op_notes(page, shot, log, model):
    run_steps(page, shot, log, NOTES_STEPS[model])
    shot("saved")
    page.reload()
    page.wait_for_timeout(1200)
    shot("reloaded")
    step(page, log, ("fill", NOTES_SEARCH[model], "Groc"))
    step(page, log, ("press", "Enter"))
    if model == "llama-3.1-8b-instruct":
        step(page, log, ("click", "#search-note"))
    shot("search")
    step(page, log, ("fill", NOTES_SEARCH[model], ""))
    step(page, log, ("click", "text=Groceries"))
    shot("opened")
    click(page, log, r"delete|remove|trash|🗑|删除", wait=800)
    shot("deleted")


KANBAN_STEPS = {
    "claude-sonnet-4.5": [
        ("fill", "#cardTitle", "Write report"), ("select", "#cardPriority", "urgent"),
        ("click", "#addCardForm button[type=submit]"), ("shot", "added"),
        ("drag", ".card >> text=Write report", "[data-column=inprogress]"), ("shot", "dragged"),
        ("click", ".card >> text=Write report"), ("shot", "card_clicked"),
        ("fill", "#editCardTitle", "Write final report"), ("click", "#saveEditBtn"), ("shot", "edited"),
    ],
    "glm-4.7": [
        ("click", "text=+ Add Card"), ("fill", "#cardTitle", "Write report"),
        ("select", "#cardPriority", "urgent"), ("click", "#cardForm button[type=submit]"), ("shot", "added"),
        ("drag", "#todo >> text=Write report", "#inprogress"), ("shot", "dragged"),
        ("click", "text=Write report"), ("shot", "card_clicked"),
        ("fill", "#cardTitle", "Write final report"), ("click", "#cardForm button[type=submit]"), ("shot", "edited"),
    ],
    "chatgpt-4o-latest": [
        ("click", "text=+ Add Card"), ("fill", "#cardTitle", "Write report"),
        ("select", "#cardPriority", "urgent"), ("click", "#cardModal >> text=Save"), ("shot", "added"),
        ("drag", ".card >> nth=0", ".column[data-column=inprogress]"), ("shot", "dragged"),
        ("click", ".card-buttons button >> nth=0"), ("shot", "card_clicked"),
        ("fill", "#cardTitle", "Write final report"), ("click", "#cardModal >> text=Save"), ("shot", "edited"),
    ],
    "llama-3.1-8b-instruct": [
        ("fill", "#card-title-input", "Write report"), ("click", "#add-card-button"), ("shot", "added"),
        ("drag", "text=Write report", "#in-progress"), ("shot", "dragged"),
    ],
}


def op_kanban(page, shot, log, model):
    run_steps(page, shot, log, KANBAN_STEPS[model])
    page.reload()
    page.wait_for_timeout(1200)
    shot("reloaded")
    if model == "chatgpt-4o-latest":
        step(page, log, ("click", ".card-buttons button >> nth=1"))
    else:
        step(page, log, ("click", "text=/Write (final )?report/"))
        click(page, log, r"delete", wait=800)
    shot("deleted")


def op_recorder(page, shot, log):
    click(page, log, r"start|record|开始|录音|⏺|▶|⏵", exclude=r"stop|pause|停止|暂停|⏸|⏹", wait=2600)
    shot("recording")
    click(page, log, r"pause|暂停|⏸", wait=900)
    shot("paused")
    if not click(page, log, r"resume|continue|继续", wait=1600):
        click(page, log, r"start|record|开始|录音|⏺|▶|⏵", exclude=r"stop|停止|⏹", wait=1600)
    click(page, log, r"stop|停止|结束|⏹|■", wait=900)
    # a confirm dialog is accepted by the page handler; some pages use their own confirm button
    click(page, log, r"confirm|yes|ok|确认|确定|是", wait=900)
    shot("stopped")


def op_fireworks(page, shot, log):
    for i, (x, y) in enumerate([(640, 300), (300, 250), (950, 350), (500, 500), (800, 200)]):
        page.mouse.click(x, y)
        page.wait_for_timeout(120)
    page.wait_for_timeout(200)
    shot("clicks_0.3s")
    page.wait_for_timeout(1000)
    shot("clicks_1.3s")
    for i in range(25):
        page.mouse.click(200 + 35 * i, 200 + (i * 53) % 300)
        page.wait_for_timeout(40)
    shot("burst_25")
    page.wait_for_timeout(2500)
    shot("after_2.5s")
    log.append(f"js heap {page.evaluate('() => performance.memory ? performance.memory.usedJSHeapSize : 0')}")


def op_countdown(page, shot, log):
    for t, name in [(1000, "t1s"), (4000, "t5s"), (4000, "t9s"), (3500, "t12.5s")]:
        page.wait_for_timeout(t)
        shot(name)
    click(page, log, r"restart|replay|again|reset|重新|再", wait=700)
    shot("restart_0.7s")
    page.wait_for_timeout(2000)
    shot("restart_2.7s")


OPS = {
    "quiz": op_quiz,
    "notes": op_notes,
    "kanban": op_kanban,
    "recorder": op_recorder,
    "click-fireworks": op_fireworks,
    "neon-countdown": op_countdown,
}


def run(br, cache, f: Path, out: Path):
    out.mkdir(parents=True, exist_ok=True)
    rid = f.stem.split("__")[1]
    log = {"steps": [], "errors": []}
    ctx = br.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.on("pageerror", lambda e: log["errors"].append(str(e)[:200]))
    page.on("console", lambda m: m.type == "error" and log["errors"].append(m.text[:200]))
    def dialog(d):
        log["steps"].append(f"dialog {d.type}: {d.message[:60]!r} accepted")
        if d.type == "prompt":
            d.accept("Groceries")
        else:
            d.accept()

    page.on("dialog", dialog)

    def route(r):
        url = r.request.url
        if url.startswith(("file:", "data:", "blob:")):
            return r.continue_()
        p = cache.resolve(url)
        if p is None:
            return r.abort()
        ctype = TYPES.get(p.suffix) or mimetypes.guess_type(p.name)[0] or "application/octet-stream"
        return r.fulfill(status=200, body=p.read_bytes(), headers={"content-type": ctype})

    page.route("**/*", route)
    shots = []

    def shot(name):
        p = out / f"{len(shots):02d}_{name}.png"
        try:
            page.screenshot(path=str(p), timeout=15000)
        except Exception as e:
            log["errors"].append(f"shot {name}: {e}"[:200])
            return
        shots.append(p)

    t0 = time.time()
    page.goto(f.as_uri(), wait_until="load", timeout=30000)
    page.wait_for_timeout(800)
    shot("load")
    try:
        fn = OPS[rid]
        if rid in ("notes", "kanban"):
            fn(page, shot, log["steps"], f.stem.split("__")[2])
        else:
            fn(page, shot, log["steps"])
    except Exception as e:
        log["errors"].append(f"op: {e}"[:300])
        shot("op_error")
    log["seconds"] = round(time.time() - t0, 1)
    try:
        log["body_text"] = page.evaluate("() => document.body.innerText.slice(0, 600)")
    except Exception:
        pass
    ctx.close()
    for k in range(0, len(shots), 6):
        sheet(shots[k : k + 6], out / f"sheet{k // 6}.png", f"{f.name} steps {k}-{k + 5}")
    (out / "log.json").write_text(json.dumps(log, indent=1, ensure_ascii=False))
    return log


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/probe_real_depth")
    ap.add_argument("--cache", default="/tmp/cdn_cache")
    ap.add_argument("--only", nargs="*", default=[])
    a = ap.parse_args()
    cache = NpmCache(Path(a.cache))
    files = [f for f in sorted((ROOT / "pages").glob("*.html")) if f.stem.split("__")[1] in OPS]
    if a.only:
        files = [f for f in files if any(s in f.name for s in a.only)]
    with sync_playwright() as pw:
        br = pw.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS, headless=True)
        for f in files:
            try:
                log = run(br, cache, f, Path(a.out) / f.stem)
                print(f.stem, log["seconds"], "errors:", len(log["errors"]), "|", "; ".join(log["steps"])[:300], flush=True)
            except Exception as e:
                print(f.stem, "FAILED", e, flush=True)
        br.close()


if __name__ == "__main__":
    main()
