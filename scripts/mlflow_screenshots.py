#!/usr/bin/env python
"""Screenshots of the MLflow UI pages a manager opens, for docs/mlflow/ (issue 14's check).

MLflow 3's UI opens in its GenAI view unless the URL says `workflowType=machine_learning` (then
it remembers the choice): the links here, and in the README, carry it.

Starts `mlflow server` on 127.0.0.1 over a store (default: this checkout's mlruns/), opens the
experiment, the newest pipeline run, the newest evaluate run (overview and artifacts), the newest
grpo_html run's charts and the registered model in Debian's Chromium, and writes one PNG each.

    python scripts/mlflow_screenshots.py [--store sqlite:///mlruns/mlflow.db] [--out docs/mlflow]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import mlflow

from cogevol.browser.pool import find_chromium
from cogevol.pipeline.tracking import EXPERIMENT, KIND_TAG, REGISTERED_MODEL, STAGE_TAG
from cogevol.scoring.service import free_port


def newest(client, exp_id: str, filter_string: str):
    runs = client.search_runs([exp_id], filter_string=filter_string, max_results=1, order_by=["attributes.start_time DESC"])
    return runs[0] if runs else None


def pages(store: str) -> dict[str, str]:
    """name -> UI route (the part after #) of each page worth a screenshot."""
    mlflow.set_tracking_uri(store)
    client = mlflow.MlflowClient()
    exp = client.get_experiment_by_name(EXPERIMENT)
    if exp is None:
        sys.exit(f"no experiment {EXPERIMENT!r} in {store}: run the pipeline first")
    eid = exp.experiment_id
    out = {"1_experiment": f"/experiments/{eid}"}
    pipeline = newest(client, eid, f"tags.`{KIND_TAG}` = 'pipeline'")
    if pipeline:
        out["2_pipeline_run"] = f"/experiments/{eid}/runs/{pipeline.info.run_id}"
    # (the artifact view opens on the first artifact, the comparison picture, whatever path follows)
    for stage, tab in (("evaluate", ""), ("evaluate", "/artifacts/evaluate/0_comparison.png"), ("grpo_html", "/model-metrics")):
        run = newest(client, eid, f"tags.`{STAGE_TAG}` = '{stage}'")
        if run:
            name = f"3_{stage}_{Path(tab).stem or 'overview'}"
            out[name] = f"/experiments/{eid}/runs/{run.info.run_id}{tab}"
    out["4_registered_model"] = f"/models/{REGISTERED_MODEL}"
    return out


async def shoot(base: str, routes: dict[str, str], out: Path) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=find_chromium(), args=["--disable-background-networking"])
        page = await browser.new_page(viewport={"width": 1440, "height": 1000})
        for name, route in routes.items():
            sep = "&" if "?" in route else "?"
            await page.goto(f"{base}/#{route}{sep}workflowType=machine_learning", wait_until="load")
            await page.wait_for_timeout(5000)  # the UI polls (never network-idle); charts draw after the data arrives
            for name_ in ("Got it", "Close"):  # first-visit tips and the assistant panel cover the page
                with contextlib.suppress(Exception):
                    await page.get_by_role("button", name=name_).first.click(timeout=1000)
            await page.wait_for_timeout(500)
            await page.screenshot(path=str(out / f"{name}.png"), full_page=False)
            print(f"{name}: {route}", flush=True)
        await browser.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", default=os.environ.get("MLFLOW_TRACKING_URI", "sqlite:///mlruns/mlflow.db"))
    ap.add_argument("--out", default="docs/mlflow")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    routes = pages(a.store)
    port = free_port()
    root = Path(a.store[len("sqlite:///"):]).parent if a.store.startswith("sqlite:///") else Path("mlruns")
    server = subprocess.Popen([sys.executable, "-m", "mlflow", "server", "--backend-store-uri", a.store,
                               "--artifacts-destination", str((root / "artifacts").resolve()),
                               "--host", "127.0.0.1", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.5)
        asyncio.run(shoot(base, routes, out))
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
