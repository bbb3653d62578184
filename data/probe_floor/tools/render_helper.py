"""Render each floor-corpus item in headless Chromium for the person labelling it.

For an answers/*.txt (a raw model reply) the page a person would get is the first fenced
```html block if there is one, else the whole reply saved as .html; answers/*.html are used as
they are. Each page is loaded at 1280x800 (Debian chromium, network blocked), screenshotted at
load and ~2 s later, then every visible button is clicked, arrow/WASD/space keys are pressed and
the mouse is moved/clicked over the page centre, with a screenshot after each phase. Writes
<out>/<id>/sheet.png (a contact sheet) and <out>/<id>/log.json (console errors, pixel change
between phases). Screenshots stay outside the repository (default /tmp/probe_floor_shots).

    .venv/bin/python data/probe_floor/tools/render_helper.py [--out DIR] [--only SUBSTRING ...]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw
from playwright.sync_api import sync_playwright

ANSWERS = Path(__file__).resolve().parents[1] / "answers"
FENCE = re.compile(r"```[ \t]*html[^\n]*\n(.*?)(?:```|\Z)", re.S | re.I)


def page_of(path: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".html":
        return text
    m = FENCE.search(text)
    return m.group(1) if m else text


def changed(a: Path, b: Path) -> float:
    x, y = Image.open(a).convert("L"), Image.open(b).convert("L")
    diff = ImageChops.difference(x, y).point(lambda v: 255 if v > 16 else 0)
    return round(sum(diff.histogram()[255:]) / (x.width * x.height), 4)


def run(item: Path, out: Path, browser) -> dict:
    d = out / item.stem
    d.mkdir(parents=True, exist_ok=True)
    html = d / "page.html"
    html.write_text(page_of(item), encoding="utf-8")
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.route(re.compile(r"^https?://"), lambda r: r.abort())
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)[:200]))
    pg.on("console", lambda m: m.type == "error" and errors.append(m.text[:200]))
    pg.on("dialog", lambda dlg: dlg.accept())
    shots = []

    def shot(name):
        p = d / f"{name}.png"
        pg.screenshot(path=str(p))
        shots.append(p)

    try:
        pg.goto(html.as_uri(), timeout=8000)
    except Exception as e:  # noqa: BLE001
        errors.append(f"goto: {e}"[:200])
    pg.wait_for_timeout(400)
    shot("0_load")
    pg.wait_for_timeout(1800)
    shot("1_after2s")
    buttons = pg.locator("button:visible, input[type=button]:visible, input[type=submit]:visible")
    nb = min(buttons.count(), 8)
    for i in range(nb):
        try:
            buttons.nth(i).click(timeout=800)
            pg.wait_for_timeout(250)
        except Exception:  # noqa: BLE001
            pass
    shot("2_clicks")
    for k in ["ArrowRight", "ArrowRight", "ArrowUp", "d", "d", "Space", "ArrowLeft"]:
        pg.keyboard.down(k)
        pg.wait_for_timeout(150)
        pg.keyboard.up(k)
    shot("3_keys")
    for x, y in [(640, 400), (500, 300), (800, 500)]:
        pg.mouse.move(x, y)
        pg.mouse.click(x, y)
        pg.wait_for_timeout(200)
    pg.wait_for_timeout(300)
    shot("4_mouse")
    ctx.close()
    log = {
        "id": item.stem,
        "buttons": nb,
        "errors": errors[:10],
        "change": {
            f"{shots[i].stem}->{shots[i + 1].stem}": changed(shots[i], shots[i + 1])
            for i in range(len(shots) - 1)
        },
    }
    (d / "log.json").write_text(json.dumps(log, indent=1))
    ims = [Image.open(s).resize((640, 400)) for s in shots]
    sheet = Image.new("RGB", (1280, 1200), "white")
    for i, im in enumerate(ims):
        sheet.paste(im, ((i % 2) * 640, (i // 2) * 400))
        ImageDraw.Draw(sheet).text(
            ((i % 2) * 640 + 5, (i // 2) * 400 + 5), shots[i].stem, fill="red"
        )
    sheet.save(d / "sheet.png")
    return log


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/probe_floor_shots")
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    items = sorted(p for p in ANSWERS.iterdir() if p.suffix in (".txt", ".html"))
    if args.only:
        items = [p for p in items if any(s in p.name for s in args.only)]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--use-angle=swiftshader",
                "--enable-unsafe-swiftshader",
            ],
        )
        for it in items:
            log = run(Path(it), Path(args.out), browser)
            print(json.dumps(log), flush=True)
        browser.close()


if __name__ == "__main__":
    main()
