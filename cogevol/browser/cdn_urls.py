"""Reading CDN URLs: which package, version and file a URL asks for, per CDN.

Every CDN spells a package request its own way (cdnjs's flattened layout and library names,
jsDelivr's `/npm/` and `/+esm`, unpkg's `?module`, esm.sh's version prefixes, jQuery's, D3's,
Plotly's and Tailwind's own hosts). That knowledge changes whenever a new host turns up in
generated pages, independently of how the store picks versions and files, so it lives here;
`cogevol.browser.mirror.Mirror` answers the request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit


@dataclass
class Req:
    """A CDN URL read as a package request: which package, version spec and file, and how
    that CDN lays files out and answers ES-module requests."""

    package: str
    spec: str | None  # version spec as written
    path: str  # "" = the package entry
    style: str  # "npm" (exact layout), "cdnjs" (flattened layout), "entry" (fixed file)
    esm: str | None = None  # CDN whose ES-module conventions apply: esm.sh, jsdelivr, unpkg
    entry_field: str = "main"  # package.json field for a bare URL
    note: str = ""


def split_pkg(rest: str) -> tuple[str, str | None, str] | None:
    """\"@scope/name@ver/path" -> (name, ver, path)."""
    parts = rest.lstrip("/").split("/")
    n = 2 if parts[0].startswith("@") else 1
    if len(parts) < n or not parts[0] or (n == 2 and parts[1] == ""):
        return None
    head = "/".join(parts[:n])
    at = head.find("@", 1)
    name, ver = (head[:at], head[at + 1 :] or None) if at > 0 else (head, None)
    return name, ver, "/".join(parts[n:])


def parse_url(url: str, cdnjs: dict[str, str]) -> Req | None:
    """The request a CDN URL makes, or None for a URL of no known CDN scheme (it stays
    blocked). `cdnjs` maps cdnjs library names (lower case) to npm package names: cdnjs
    names its libraries its own way, and only those the store holds resolve."""
    u = urlsplit(url)
    host, path, query = (u.hostname or "").lower(), unquote(u.path), u.query
    if u.scheme not in ("http", "https"):
        return None
    if host == "cdnjs.cloudflare.com":
        m = re.match(r"/ajax/libs/([^/]+)/([^/]+)/(.+)$", path)
        if not m or m.group(1).lower() not in cdnjs:
            return None
        ver = m.group(2)
        if re.fullmatch(r"r\d+", ver):  # three.js/r128
            ver = f"0.{ver[1:]}.0"
        return Req(cdnjs[m.group(1).lower()], ver, m.group(3), "cdnjs")
    if host in ("cdn.jsdelivr.net", "fastly.jsdelivr.net", "gcore.jsdelivr.net"):
        if not path.startswith("/npm/") or not (p := split_pkg(path[5:])):
            return None
        name, ver, sub = p
        esm = sub.endswith("+esm")
        sub = sub.removesuffix("+esm").strip("/")
        return Req(name, ver, sub, "npm", "jsdelivr" if esm else None, "jsdelivr")
    if host == "unpkg.com":
        if not (p := split_pkg(path)):
            return None
        name, ver, sub = p
        esm = "module" in query.split("&")
        return Req(name, ver, sub.strip("/"), "npm", "unpkg" if esm else None, "unpkg")
    if host == "esm.sh":
        path = re.sub(r"^/(v\d+|stable)(?=/)", "", path).replace("/*", "/", 1)
        if not (p := split_pkg(path)):
            return None
        name, ver, sub = p
        return Req(name, ver, sub.strip("/"), "npm", "esm.sh", "module")
    if host == "ga.jspm.io" and path.startswith("/npm:") and (p := split_pkg(path[5:])):
        return Req(p[0], p[1], p[2], "npm")
    if host == "cdn.tailwindcss.com":
        m = re.match(r"/(\d[\w.]*)", path)
        note = "Tailwind Play CDN served by the v4 browser build (@tailwindcss/browser)"
        if "plugins=" in query:
            note += "; plugins not available"
        return Req(
            "@tailwindcss/browser",
            None,
            "dist/index.global.js",
            "entry",
            note=note + (f"; asked for {m.group(1)}" if m else ""),
        )
    if host == "code.jquery.com":
        m = re.match(r"/jquery-(latest|\d[\d.]*\d)((?:\.slim)?(?:\.min)?)\.js$", path)
        if m:
            return Req(
                "jquery",
                None if m.group(1) == "latest" else m.group(1),
                f"dist/jquery{m.group(2)}.js",
                "entry",
            )
        return None
    if host == "d3js.org":
        m = re.match(r"/d3(?:\.v(\d+))?(\.min)?\.js$", path)
        return Req("d3", m.group(1), f"dist/d3{m.group(2) or ''}.js", "entry") if m else None
    if host == "cdn.plot.ly":
        m = re.match(r"/plotly(-[a-z]+)?-(latest|\d[\d.]*\d)(\.min)?\.js$", path)
        if not m:
            return None
        # plotly-latest was frozen at 1.58.5
        ver = "1.58.5" if m.group(2) == "latest" else m.group(2)
        note = f"partial bundle plotly{m.group(1)} served as the full bundle" if m.group(1) else ""
        return Req("plotly.js-dist-min", ver, "plotly.min.js", "entry", note=note)
    if host == "threejs.org" and re.match(r"/(build|examples)/", path):
        return Req("three", None, path.lstrip("/"), "npm")
    return None
