"""The CDN mirror: URL schemes, version choice, and pages that load libraries in the sandbox."""

import asyncio
import json

import pytest

from cogevol.browser.mirror import Mirror, default_store, store_blob, write_index
from cogevol.browser.pool import PAGE_URL, BrowserConfig, BrowserPool, page_resources

FAKELIB = "window.fakelib = {double: (x) => 2 * x};"


def make_store(root, packages: dict) -> Mirror:
    """A store like infra/cdn/fetch.py writes: {name: {"info": {...}, "versions": {ver: {"files":
    {path: text}, **package.json fields}}}}."""
    index = {}
    for name, spec in packages.items():
        versions = {}
        for ver, meta in spec["versions"].items():
            files = {p: store_blob(root, t.encode()) for p, t in meta["files"].items()}
            versions[ver] = {**meta, "files": files, "license": "MIT"}
        index[name] = {**spec.get("info", {}), "license": "MIT", "versions": versions}
    write_index(root, {"format": 1, "packages": index})
    return Mirror.load(root)


def _v(files: dict, **fields) -> dict:
    return {"files": {"package.json": "{}", **files}, **fields}


@pytest.fixture
def mirror(tmp_path):
    return make_store(tmp_path, {
        "three": {"info": {"cdnjs": ["three.js"], "esm": "build/three.module.js", "umd": "build/three.min.js", "global": "THREE"},
                  "versions": {v: _v({"build/three.min.js": f"/*{v}*/", "build/three.module.js": f"export const REVISION='{v}';",
                                      "examples/jsm/controls/OrbitControls.js": "import { EventDispatcher } from 'three';\nexport class OrbitControls {}"},
                                     main="build/three.js", module="build/three.module.js") for v in ("0.128.0", "0.160.0")}},
        "chart.js": {"info": {"cdnjs": ["Chart.js"], "umd": ["dist/chart.umd.js"], "global": "Chart"},
                     "versions": {"4.4.1": _v({"dist/chart.umd.js": "/*umd*/", "dist/chart.js": "import {Color} from '@kurkle/color';\nexport default 1;",
                                               "auto/auto.js": "export * from '../dist/chart.js';"},
                                              main="./dist/chart.cjs", module="./dist/chart.js", jsdelivr="./dist/chart.umd.js",
                                              dependencies={"@kurkle/color": "^0.3.0"}),
                                  "2.9.4": _v({"dist/Chart.min.js": "/*2*/", "dist/Chart.js": "/*2*/"}, main="dist/Chart.js")}},
        "@kurkle/color": {"versions": {"0.3.4": _v({"dist/color.esm.js": "export class Color {}"}, module="dist/color.esm.js")}},
        "d3": {"info": {"cdnjs": ["d3"], "umd": "dist/d3.min.js", "global": "d3"},
               "versions": {"7.9.0": _v({"dist/d3.min.js": "/*d3*/ (function(g){ typeof exports; g.d3 = {select: 1}; })(this);"},
                                        export_names=["select"]),
                            "5.16.0": _v({"dist/d3.min.js": "/*d3 5*/"})}},
        "jquery": {"versions": {"3.7.1": _v({"dist/jquery.min.js": "/*jq*/", "dist/jquery.slim.min.js": "/*slim*/"})}},
        "plotly.js-dist-min": {"info": {"cdnjs": ["plotly.js"]}, "versions": {v: _v({"plotly.min.js": v}) for v in ("1.58.5", "2.35.3")}},
        "@tailwindcss/browser": {"versions": {"4.1.18": _v({"dist/index.global.js": "/*tw*/"})}},
        "katex": {"info": {"cdnjs": ["KaTeX"]}, "versions": {"0.16.9": _v({"dist/katex.min.css": "x", "dist/fonts/KaTeX_Main-Regular.woff2": "w"})}},
        "react-dom": {"info": {"umd": "umd/react-dom.production.min.js", "global": "ReactDOM", "export_names": ["createRoot"]},
                      "versions": {"18.3.1": _v({"umd/react-dom.production.min.js": "/*rd*/"}, main="index.js",
                                                peerDependencies={"react": "^18.3.1"})}},
        "react": {"info": {"umd": "umd/react.production.min.js", "global": "React"},
                  "versions": {"18.3.1": _v({"umd/react.production.min.js": "/*r*/"})}},
    })


def _got(m: Mirror, url: str):
    r = m.resolve(url)
    return None if r is None else (r.package, r.version, r.path)


@pytest.mark.parametrize("url,want", [
    ("https://cdnjs.cloudflare.com/ajax/libs/three.js/r128/three.min.js", ("three", "0.128.0", "build/three.min.js")),
    ("https://cdnjs.cloudflare.com/ajax/libs/Chart.js/4.4.1/chart.umd.min.js", ("chart.js", "4.4.1", "dist/chart.umd.js")),
    ("https://cdnjs.cloudflare.com/ajax/libs/Chart.js/2.9.4/Chart.min.js", ("chart.js", "2.9.4", "dist/Chart.min.js")),
    ("https://cdnjs.cloudflare.com/ajax/libs/KaTeX/0.16.9/fonts/KaTeX_Main-Regular.woff2", ("katex", "0.16.9", "dist/fonts/KaTeX_Main-Regular.woff2")),
    ("https://cdnjs.cloudflare.com/ajax/libs/plotly.js/2.35.3/plotly.min.js", ("plotly.js-dist-min", "2.35.3", "plotly.min.js")),
    ("https://cdn.jsdelivr.net/npm/chart.js@4.4.1", ("chart.js", "4.4.1", "dist/chart.umd.js")),
    ("https://cdn.jsdelivr.net/npm/three@0.160.0/build/three.module.js", ("three", "0.160.0", "build/three.module.js")),
    ("https://cdn.jsdelivr.net/npm/three@0.160.0/build/three.module.min.js", ("three", "0.160.0", "build/three.module.js")),
    ("https://unpkg.com/three@0.128.0/examples/jsm/controls/OrbitControls.js", ("three", "0.128.0", "examples/jsm/controls/OrbitControls.js")),
    ("https://unpkg.com/chart.js@2.9.4", ("chart.js", "2.9.4", "dist/Chart.js")),
    ("https://esm.sh/three@0.160.0/build/three.module.js", ("three", "0.160.0", "build/three.module.js")),
    ("https://esm.sh/v135/three@0.160.0", ("three", "0.160.0", "build/three.module.js")),
    ("https://ga.jspm.io/npm:three@0.160.0/build/three.module.js", ("three", "0.160.0", "build/three.module.js")),
    ("https://cdn.tailwindcss.com", ("@tailwindcss/browser", "4.1.18", "dist/index.global.js")),
    ("https://cdn.tailwindcss.com/3.4.1?plugins=forms,typography", ("@tailwindcss/browser", "4.1.18", "dist/index.global.js")),
    ("https://code.jquery.com/jquery-3.7.1.min.js", ("jquery", "3.7.1", "dist/jquery.min.js")),
    ("https://code.jquery.com/jquery-3.7.1.slim.min.js", ("jquery", "3.7.1", "dist/jquery.slim.min.js")),
    ("https://d3js.org/d3.v7.min.js", ("d3", "7.9.0", "dist/d3.min.js")),
    ("https://d3js.org/d3.v5.min.js", ("d3", "5.16.0", "dist/d3.min.js")),
    ("https://cdn.plot.ly/plotly-2.35.3.min.js", ("plotly.js-dist-min", "2.35.3", "plotly.min.js")),
    ("https://cdn.plot.ly/plotly-latest.min.js", ("plotly.js-dist-min", "1.58.5", "plotly.min.js")),
    ("https://threejs.org/build/three.module.js", ("three", "0.160.0", "build/three.module.js")),
    ("https://example.com/three.min.js", None),
    ("https://cdn.jsdelivr.net/gh/mrdoob/three.js@r128/build/three.min.js", None),
])
def test_url_schemes(mirror, url, want):
    assert _got(mirror, url) == want


def test_versions_exact_nearest_other_major_unknown(mirror):
    r = mirror.resolve("https://cdn.jsdelivr.net/npm/chart.js@4.4.1/dist/chart.umd.js")
    assert (r.version, r.note) == ("4.4.1", "")
    for spec in ("4.4.0", "4", "^4.2", "4.x", "~4.4.0"):
        r = mirror.resolve(f"https://cdn.jsdelivr.net/npm/chart.js@{spec}/dist/chart.umd.js")
        assert r.version == "4.4.1" and r.note == f"chart.js@{spec} served as 4.4.1 (nearest of major 4)", spec
    r = mirror.resolve("https://cdn.jsdelivr.net/npm/chart.js@latest/dist/chart.umd.js")
    assert r.version == "4.4.1" and "newest kept" in r.note
    assert mirror.resolve("https://cdn.jsdelivr.net/npm/chart.js@3.9.1/dist/chart.min.js") is None  # other major
    assert mirror.resolve("https://cdnjs.cloudflare.com/ajax/libs/Chart.js/5.0.0/chart.umd.js") is None
    assert mirror.resolve("https://d3js.org/d3.v4.min.js") is None
    assert mirror.resolve("https://cdn.jsdelivr.net/npm/lodash@4.17.21/lodash.min.js") is None  # unknown package
    assert mirror.resolve("https://cdnjs.cloudflare.com/ajax/libs/lodash.js/4.17.21/lodash.min.js") is None
    # the nearest version that holds the requested file
    assert _got(mirror, "https://unpkg.com/three@0.150.0/build/three.min.js")[1] == "0.160.0"
    assert mirror.resolve("https://unpkg.com/three@0.160.0/build/no-such-file.js") is None


def test_content_types_and_cors(mirror):
    css = mirror.resolve("https://cdnjs.cloudflare.com/ajax/libs/KaTeX/0.16.9/katex.min.css")
    font = mirror.resolve("https://cdnjs.cloudflare.com/ajax/libs/KaTeX/0.16.9/fonts/KaTeX_Main-Regular.woff2")
    js = mirror.resolve("https://cdnjs.cloudflare.com/ajax/libs/three.js/r128/three.min.js")
    assert css.content_type.startswith("text/css") and font.content_type == "font/woff2"
    assert js.content_type.startswith("application/javascript")
    assert all(r.headers["access-control-allow-origin"] == "*" for r in (css, font, js))


def test_es_modules(mirror):
    # an alias re-exports the canonical URL (one module instance for every spelling)
    stub = mirror.resolve("https://esm.sh/three@0.160").body.decode()
    assert 'export * from "https://esm.sh/three@0.160.0/build/three.module.js"' in stub and "default" not in stub
    # bare imports in a served module point back to the same CDN, at a version the mirror holds
    oc = mirror.resolve("https://esm.sh/three@0.160.0/examples/jsm/controls/OrbitControls.js").body.decode()
    assert "from 'https://esm.sh/three@0.160.0'" in oc
    chart = mirror.resolve("https://esm.sh/chart.js@4.4.1/dist/chart.js").body.decode()
    assert "from 'https://esm.sh/@kurkle/color@0.3.4'" in chart
    assert "https://cdn.jsdelivr.net/npm/@kurkle/color@0.3.4/+esm" in mirror.resolve("https://cdn.jsdelivr.net/npm/chart.js@4.4.1/dist/chart.js/+esm").body.decode()
    assert "https://unpkg.com/@kurkle/color@0.3.4?module" in mirror.resolve("https://unpkg.com/chart.js@4.4.1/dist/chart.js?module").body.decode()
    assert _got(mirror, "https://esm.sh/@kurkle/color@0.3.4/dist/color.esm.js") == ("@kurkle/color", "0.3.4", "dist/color.esm.js")
    # a UMD-only package becomes a module exporting its global; its peer's module is imported first
    d3 = mirror.resolve("https://esm.sh/d3@7.9.0/dist/d3.min.js")
    assert "export default __m" in d3.body.decode() and "select" in d3.body.decode() and "UMD" in d3.note
    rd = mirror.resolve("https://esm.sh/react-dom@18.3.1/umd/react-dom.production.min.js").body.decode()
    assert rd.startswith('import "https://esm.sh/react@18.3.1";') and "createRoot" in rd
    assert _got(mirror, "https://esm.sh/react-dom@18/client") == ("react-dom", "18.3.1", "umd/react-dom.production.min.js")


def test_default_store_env(monkeypatch, tmp_path):
    monkeypatch.setenv("COGEVOL_CDN_MIRROR", str(tmp_path))
    assert default_store() == tmp_path
    monkeypatch.delenv("COGEVOL_CDN_MIRROR")
    assert default_store().parts[-2:] == (".cache", "cdn-mirror")


async def _run_page(cfg, html, until="() => document.title !== ''", timeout=8000):
    async with BrowserPool(cfg) as pool, pool.page(html) as page:
        await page.goto(PAGE_URL, timeout=timeout)
        await page.wait_for_function(until, timeout=timeout)
        return await page.evaluate("() => document.title"), page_resources(page)


@pytest.mark.browser
@pytest.mark.timeout(120)
def test_page_loads_libraries_from_the_fake_mirror(tmp_path):
    make_store(tmp_path, {
        "fakelib": {"info": {"cdnjs": ["FakeLib.js"]}, "versions": {"1.2.0": _v({"dist/fakelib.min.js": FAKELIB})}},
        "fakemod": {"versions": {"2.0.0": _v({"index.mjs": "export const triple = (x) => 3 * x; export default 7;"}, module="index.mjs")}},
    })
    html = """<title></title>
    <script src="https://cdn.jsdelivr.net/npm/fakelib@1.2.0/dist/fakelib.min.js"></script>
    <script>const a = fakelib.double(2); delete window.fakelib;</script>
    <script src="https://cdnjs.cloudflare.com/ajax/libs/FakeLib.js/1.1.0/fakelib.min.js"></script>
    <script type="module">
      import seven, { triple } from "https://esm.sh/fakemod@2";
      let net = "?";
      try { await fetch("https://example.com/data.json"); net = "net-ok"; } catch (e) { net = "net-blocked"; }
      document.title = [a, fakelib.double(3), triple(seven), net].join(",");
    </script>"""
    title, res = asyncio.run(_run_page(BrowserConfig(mirror=str(tmp_path)), html))
    assert title == "4,6,21,net-blocked"
    assert res["blocked"] == ["https://example.com/data.json"]
    mirrored = {m["url"]: m for m in res["mirrored"]}
    assert mirrored["https://cdnjs.cloudflare.com/ajax/libs/FakeLib.js/1.1.0/fakelib.min.js"]["note"] \
        == "fakelib@1.1.0 served as 1.2.0 (nearest of major 1)"
    assert mirrored["https://cdn.jsdelivr.net/npm/fakelib@1.2.0/dist/fakelib.min.js"]["version"] == "1.2.0"
    assert "https://esm.sh/fakemod@2.0.0/index.mjs" in mirrored  # the alias' canonical module


@pytest.mark.browser
@pytest.mark.timeout(120)
def test_without_mirror_cdn_requests_stay_blocked():
    html = """<title></title><script src="https://cdn.jsdelivr.net/npm/chart.js@4"></script>
    <script>document.title = typeof Chart;</script>"""
    title, res = asyncio.run(_run_page(BrowserConfig(mirror=None), html))
    assert title == "undefined" and res == {"mirrored": [], "blocked": ["https://cdn.jsdelivr.net/npm/chart.js@4"]}


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_real_store_three_r128_and_chartjs_4_render():
    store = default_store()
    if not (store / "index.json").is_file():
        pytest.skip(f"no CDN mirror at {store}: run infra/setup.sh (or infra/cdn/fetch.py) to fill it")
    html = """<title></title><canvas id="c" width="300" height="150"></canvas><div id="g"></div>
    <script src="https://cdnjs.cloudflare.com/ajax/libs/three.js/r128/three.min.js"></script>
    <script src="https://cdn.jsdelivr.net/npm/chart.js@4"></script>
    <script>
      const r = new THREE.WebGLRenderer({preserveDrawingBuffer: true});
      r.setSize(64, 64); document.getElementById('g').appendChild(r.domElement);
      const scene = new THREE.Scene(); scene.background = new THREE.Color(0xff0000);
      r.render(scene, new THREE.PerspectiveCamera());
      const px = new Uint8Array(4); r.getContext().readPixels(0, 0, 1, 1, r.getContext().RGBA, r.getContext().UNSIGNED_BYTE, px);
      const ch = new Chart(document.getElementById('c'), {type: 'bar', options: {animation: false, responsive: false},
        data: {labels: ['a', 'b'], datasets: [{data: [1, 2]}]}});
      document.title = JSON.stringify([THREE.REVISION, px[0], Chart.version.split('.')[0], Math.round(ch.chartArea.width) > 0]);
    </script>"""
    title, res = asyncio.run(_run_page(BrowserConfig(mirror=str(store)), html))
    assert json.loads(title) == ["128", 255, "4", True], res
    assert res["blocked"] == [] and {m["package"] for m in res["mirrored"]} == {"three", "chart.js"}


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_real_store_es_modules_from_esm_sh():
    store = default_store()
    if not (store / "index.json").is_file():
        pytest.skip(f"no CDN mirror at {store}: run infra/setup.sh (or infra/cdn/fetch.py) to fill it")
    html = """<title></title><script type="module">
      import * as THREE from "https://esm.sh/three@0.160.0";
      import { OrbitControls } from "https://esm.sh/three@0.160/examples/jsm/controls/OrbitControls.js";
      import * as d3 from "https://cdn.jsdelivr.net/npm/d3@7/+esm";
      const cam = new THREE.PerspectiveCamera();
      const oc = new OrbitControls(cam, document.body);
      document.title = JSON.stringify([THREE.REVISION, typeof oc.update, d3.scaleLinear().domain([0, 1]).range([0, 10])(0.5)]);
    </script>"""
    title, res = asyncio.run(_run_page(BrowserConfig(mirror=str(store)), html))
    assert json.loads(title) == ["160", "function", 5], res
    assert res["blocked"] == []


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_real_store_icon_libraries_draw_their_icons():
    store = default_store()
    if not (store / "index.json").is_file():
        pytest.skip(f"no CDN mirror at {store}: run infra/setup.sh (or infra/cdn/fetch.py) to fill it")
    html = """<title></title><i data-lucide="menu"></i><i data-feather="x"></i>
    <script src="https://unpkg.com/lucide@latest"></script>
    <script src="https://cdnjs.cloudflare.com/ajax/libs/feather-icons/4.29.0/feather.min.js"></script>
    <script>lucide.createIcons(); feather.replace();
      document.title = JSON.stringify([document.querySelectorAll('svg.lucide').length,
                                       document.querySelectorAll('svg.feather').length]);</script>"""
    title, res = asyncio.run(_run_page(BrowserConfig(mirror=str(store)), html))
    assert json.loads(title) == [1, 1], res
    assert res["blocked"] == [] and {m["package"] for m in res["mirrored"]} == {"lucide", "feather-icons"}


def test_a_file_missing_from_the_nearest_version_stays_missing(tmp_path):
    # three r128 has examples/js, r160 does not: r152 on the real CDN has none either, so the
    # older release must not stand in for it (a page that breaks online breaks here too)
    m = make_store(tmp_path, {"three": {"info": {"cdnjs": ["three.js"]}, "versions": {
        "0.128.0": _v({"build/three.min.js": "/*128*/", "examples/js/controls/OrbitControls.js": "/*oc*/"}),
        "0.160.0": _v({"build/three.min.js": "/*160*/"})}}})
    assert m.resolve("https://cdn.jsdelivr.net/npm/three@0.152.2/examples/js/controls/OrbitControls.js") is None
    near = m.resolve("https://cdn.jsdelivr.net/npm/three@0.134.0/examples/js/controls/OrbitControls.js")
    assert near is not None and near.version == "0.128.0" and "nearest" in near.note
