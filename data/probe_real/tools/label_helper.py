"""Operate each corpus page in headless Chromium so a person can label it.

For every page: load at 1280x800 with the network blocked except public-CDN library URLs,
which are served from npm tarballs (``npm pack NAME@VERSION``) unpacked under a local cache;
screenshot at load (+0.5 s) and again ~2 s later; then click the visible buttons and nudge
sliders/selects, press keys, move/click/drag the mouse over the main canvas, screenshotting after
each phase, and finally scroll one screen down. Writes
``<out>/<id>/{0_load,1_after2s,2_clicks,3_keys,4_mouse,5_scroll}.png``, a contact sheet
``<out>/<id>/sheet.png`` (what the labeller looked at) and ``<out>/<id>/log.json`` (console
errors, blocked URLs, pixel change between phases).

The labels themselves (labels.jsonl) were written by a person looking at the sheets and the code.

Usage:
    python data/probe_real/tools/label_helper.py [--out /tmp/probe_real_shots] [--cache /tmp/cdn_cache]
           [--only SUBSTRING ...]
Needs: playwright, Pillow, Debian ``chromium`` on PATH, and npm for the CDN cache (tarballs are
fetched with ``npm pack`` on first use).
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import re
import shutil
import subprocess
import tarfile
import time
from pathlib import Path
from urllib.parse import urlparse

from PIL import Image, ImageChops, ImageDraw
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--enable-unsafe-swiftshader",
    "--use-angle=swiftshader",
    "--disable-background-networking",
]
TYPES = {
    ".js": "application/javascript",
    ".mjs": "application/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".woff2": "font/woff2",
    ".woff": "font/woff",
    ".ttf": "font/ttf",
}


# ---------------------------------------------------------------- CDN URL -> npm package file
def cdn_to_npm(url: str):
    """Map a public CDN URL to (package, version, path-in-package) or None."""
    u = urlparse(url)
    host, path = u.netloc, u.path
    m = None
    if host in ("cdn.jsdelivr.net",) and path.startswith("/npm/"):
        m = re.match(r"/npm/((?:@[^/]+/)?[^/@]+)@([^/]+)(/.*)?$", path)
    elif host in ("unpkg.com", "cdn.skypack.dev", "esm.sh"):
        m = re.match(r"/((?:@[^/]+/)?[^/@]+)@([^/]+)(/.*)?$", path)
    if m:
        return m.group(1), m.group(2), (m.group(3) or "").lstrip("/")
    if host in ("cdn.jsdelivr.net", "unpkg.com") and not m:
        # no version in the URL: the CDN serves the latest release, so does npm's "latest" tag
        m = re.match(r"(?:/npm)?/((?:@[^/@]+/)?[^/@]+)(/.*)?$", path)
        if m:
            return m.group(1), "latest", (m.group(2) or "").lstrip("/")
    if host == "cdnjs.cloudflare.com":
        m = re.match(r"/ajax/libs/three\.js/r(\d+)/(.*)$", path)
        if m:
            rest = m.group(2)
            if "/" not in rest:  # cdnjs only hosts the build files at the top level
                rest = "build/" + rest
            return "three", f"0.{m.group(1)}.0", rest
        m = re.match(r"/ajax/libs/dat-gui/([^/]+)/(.*)$", path)
        if m:
            return "dat.gui", m.group(1), "build/" + m.group(2)
        m = re.match(r"/ajax/libs/gsap/([^/]+)/(.*)$", path)
        if m:
            return "gsap", m.group(1), "dist/" + m.group(2)
        m = re.match(r"/ajax/libs/font-awesome/([^/]+)/(.*)$", path)
        if m:
            return "@fortawesome/fontawesome-free", m.group(1), m.group(2)
    if host == "cdn.tailwindcss.com":
        # The v3 Play CDN script is not on npm; the v4 browser build is its closest npm stand-in.
        return "@tailwindcss/browser", "4.3.4", "dist/index.global.js"
    if host == "cdn.rawgit.com":
        m = re.match(r"/mrdoob/three\.js/r(\d+)/(.*)$", path)
        if m:
            return "three", f"0.{m.group(1)}.0", m.group(2)
    return None


class NpmCache:
    def __init__(self, root: Path):
        self.root = root
        (root / "tgz").mkdir(parents=True, exist_ok=True)
        (root / "x").mkdir(parents=True, exist_ok=True)
        self.missing: set[str] = set()

    def pkg_dir(self, pkg: str, ver: str) -> Path | None:
        key = f"{pkg}@{ver}"
        d = self.root / "x" / key.replace("/", "+")
        if (d / "package").is_dir():
            return d / "package"
        if key in self.missing:
            return None
        tgz_name = pkg.lstrip("@").replace("/", "-") + f"-{ver}.tgz"
        tgz = self.root / "tgz" / tgz_name
        if not tgz.exists() and shutil.which("npm"):
            r = subprocess.run(
                ["npm", "pack", key, "--silent"],
                cwd=self.root / "tgz",
                capture_output=True,
                timeout=300,
            )
            if ver == "latest" and r.returncode == 0:  # npm names the tarball by real version
                packed = self.root / "tgz" / r.stdout.decode().strip().splitlines()[-1]
                if packed.is_file():
                    packed.rename(tgz)
        if not tgz.exists():
            self.missing.add(key)
            return None
        d.mkdir(parents=True, exist_ok=True)
        with tarfile.open(tgz) as tf:
            tf.extractall(d, filter="data")
        return d / "package"

    def resolve(self, url: str) -> Path | None:
        hit = cdn_to_npm(url)
        if not hit:
            return None
        pkg, ver, rel = hit
        base = self.pkg_dir(pkg, ver)
        if base is None:
            return None
        if not rel:  # bare specifier: package entry point (ESM first)
            meta = json.loads((base / "package.json").read_text())
            cdn = meta.get("unpkg") or meta.get("jsdelivr")
            if ver == "latest" and isinstance(cdn, str) and cdn:
                rel = cdn.removeprefix("./")  # what the CDN serves for a version-less package URL
            else:
                rel = meta.get("module") or meta.get("main") or "index.js"
        f = base / rel
        if not f.is_file() and hit and "jsdelivr" in url and rel.endswith(".min.js"):
            f = base / (rel[:-7] + ".js")  # jsDelivr minifies any .js on request
        return f if f.is_file() else None


# ---------------------------------------------------------------- driving a page
def diff_frac(a: Path, b: Path) -> float:
    ia, ib = Image.open(a).convert("RGB"), Image.open(b).convert("RGB")
    if ia.size != ib.size:
        return 1.0
    d = ImageChops.difference(ia, ib).convert("L").point(lambda v: 255 if v > 12 else 0)
    return round(sum(d.histogram()[255:]) / (ia.size[0] * ia.size[1]), 4)


def sheet(shots: list[Path], out: Path, title: str):
    tw, th = 640, 400
    img = Image.new("RGB", (tw * 3, th * 2 + 24), "white")
    ImageDraw.Draw(img).text((6, 4), title, fill="black")
    for i, p in enumerate(shots):
        t = Image.open(p).convert("RGB").resize((tw, th))
        ImageDraw.Draw(t).text((6, 6), p.stem, fill="red")
        img.paste(t, ((i % 3) * tw, 24 + (i // 3) * th))
    img.save(out)


def drive(pw_browser, cache: NpmCache, page_file: Path, out: Path) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    log = {"console_errors": [], "page_errors": [], "blocked": [], "served": []}
    ctx = pw_browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.on("console", lambda m: m.type == "error" and log["console_errors"].append(m.text[:200]))
    page.on("pageerror", lambda e: log["page_errors"].append(str(e)[:200]))
    page.on("dialog", lambda d: d.dismiss())

    def route(r):
        url = r.request.url
        if url.startswith(("file:", "data:", "blob:")):
            return r.continue_()
        f = cache.resolve(url)
        if f is None:
            log["blocked"].append(url[:160])
            return r.abort()
        log["served"].append(url[:160])
        ctype = TYPES.get(f.suffix) or mimetypes.guess_type(f.name)[0] or "application/octet-stream"
        return r.fulfill(
            status=200,
            body=f.read_bytes(),
            headers={"content-type": ctype, "access-control-allow-origin": "*"},
        )

    page.route("**/*", route)
    shots = []

    def shot(name):
        p = out / f"{name}.png"
        try:
            page.screenshot(path=str(p), timeout=15000)
        except Exception as e:  # hung renderer: keep going, record it
            log.setdefault("shot_errors", []).append(f"{name}: {e}"[:200])
            Image.new("RGB", (1280, 800), "magenta").save(p)
        shots.append(p)

    t0 = time.time()
    try:
        page.goto(page_file.as_uri(), wait_until="load", timeout=30000)
    except Exception as e:
        log["goto_error"] = str(e)[:200]
    page.wait_for_timeout(500)
    shot("0_load")
    page.wait_for_timeout(2000)
    shot("1_after2s")

    # clicks: visible buttons and nudged form controls
    clicked = []
    try:
        btns = page.locator(
            "button:visible, input[type=button]:visible, input[type=submit]:visible, [role=button]:visible"
        )
        for i in range(min(btns.count(), 6)):
            b = btns.nth(i)
            try:
                clicked.append((b.inner_text(timeout=500) or b.get_attribute("value") or "?")[:30])
                b.click(timeout=1500)
                page.wait_for_timeout(350)
            except Exception:
                pass
        rng = page.locator("input[type=range]:visible")
        for i in range(min(rng.count(), 4)):
            try:
                rng.nth(i).evaluate(
                    "e => {e.value = e.max || 100; e.dispatchEvent(new Event('input', {bubbles:true})); e.dispatchEvent(new Event('change', {bubbles:true}));}"
                )
                clicked.append(f"range#{i}")
            except Exception:
                pass
        sel = page.locator("select:visible")
        for i in range(min(sel.count(), 2)):
            try:
                n = sel.nth(i).evaluate("e => e.options.length")
                if n > 1:
                    sel.nth(i).select_option(index=n - 1, timeout=1000)
                    clicked.append(f"select#{i}")
            except Exception:
                pass
        chk = page.locator("input[type=checkbox]:visible")
        for i in range(min(chk.count(), 3)):
            try:
                chk.nth(i).click(timeout=1000)
                clicked.append(f"checkbox#{i}")
            except Exception:
                pass
    except Exception as e:
        log["click_error"] = str(e)[:200]
    log["clicked"] = clicked
    page.wait_for_timeout(600)
    shot("2_clicks")

    # keys: hold right, jump, WASD, space (games, fly-throughs)
    try:
        page.mouse.click(640, 400)
        page.keyboard.down("ArrowRight")
        page.wait_for_timeout(700)
        page.keyboard.up("ArrowRight")
        for k in ["ArrowUp", "Space", "KeyW", "KeyW", "KeyD", "ArrowLeft", "Space"]:
            page.keyboard.down(k)
            page.wait_for_timeout(120)
            page.keyboard.up(k)
        page.keyboard.down("KeyW")
        page.wait_for_timeout(500)
        page.keyboard.up("KeyW")
    except Exception as e:
        log["key_error"] = str(e)[:200]
    page.wait_for_timeout(300)
    shot("3_keys")

    # mouse: sweep, clicks, drag over the largest canvas (or the page centre)
    try:
        box = page.evaluate("""() => { let best=null, a=0; for (const c of document.querySelectorAll('canvas')) {
            const r=c.getBoundingClientRect(); if (r.width*r.height>a) {a=r.width*r.height; best=[r.x,r.y,r.width,r.height];} }
            return best; }""")
        x, y, w, h = box if box else (0, 0, 1280, 800)
        x0, y0 = x + min(w, 1280) / 2, y + min(h, 800) / 2
        for dx, dy in [(-200, -100), (150, -150), (200, 100), (0, 0)]:
            page.mouse.move(x0 + dx, y0 + dy)
            page.mouse.click(x0 + dx, y0 + dy)
            page.wait_for_timeout(200)
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move(x0 + 90, y0 + 30)
        page.mouse.move(x0 + 180, y0 + 60)
        page.mouse.up()
        page.mouse.wheel(0, -300)
    except Exception as e:
        log["mouse_error"] = str(e)[:200]
    page.wait_for_timeout(500)
    shot("4_mouse")

    # scroll: one screen down (landing pages and scroll-triggered section transitions)
    try:
        page.evaluate("() => window.scrollTo(0, Math.round(window.innerHeight * 1.2))")
        page.mouse.wheel(0, 400)
    except Exception as e:
        log["scroll_error"] = str(e)[:200]
    page.wait_for_timeout(1200)
    shot("5_scroll")

    log["seconds"] = round(time.time() - t0, 1)
    log["dom_text_len"] = (
        page.evaluate("() => (document.body && document.body.innerText || '').trim().length")
        if not page.is_closed()
        else 0
    )
    log["n_canvas"] = page.evaluate("() => document.querySelectorAll('canvas').length")
    log["diff"] = {
        "load->2s": diff_frac(shots[0], shots[1]),
        "2s->clicks": diff_frac(shots[1], shots[2]),
        "clicks->keys": diff_frac(shots[2], shots[3]),
        "keys->mouse": diff_frac(shots[3], shots[4]),
        "mouse->scroll": diff_frac(shots[4], shots[5]),
    }
    ctx.close()
    sheet(shots, out / "sheet.png", f"{page_file.name}  diff={log['diff']}")
    (out / "log.json").write_text(json.dumps(log, indent=1))
    return log


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/probe_real_shots")
    ap.add_argument("--cache", default="/tmp/cdn_cache")
    ap.add_argument("--only", nargs="*", default=[])
    a = ap.parse_args()
    cache = NpmCache(Path(a.cache))
    files = sorted((ROOT / "pages").glob("*.html"))
    if a.only:
        files = [f for f in files if any(s in f.name for s in a.only)]
    with sync_playwright() as pw:
        br = pw.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS, headless=True)
        for f in files:
            try:
                log = drive(br, cache, f, Path(a.out) / f.stem)
                print(
                    f.stem,
                    log["seconds"],
                    log["diff"],
                    f"blocked={len(log['blocked'])} errs={len(log['page_errors']) + len(log['console_errors'])}",
                    flush=True,
                )
            except Exception as e:
                print(f.stem, "FAILED", e, flush=True)
                try:
                    br.close()
                except Exception:
                    pass
                br = pw.chromium.launch(
                    executable_path=shutil.which("chromium"), args=ARGS, headless=True
                )
        br.close()


if __name__ == "__main__":
    main()
