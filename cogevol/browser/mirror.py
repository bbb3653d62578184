"""Serve the libraries generated pages load from public CDNs out of a local mirror.

Pages pull three.js, Chart.js, D3 and friends from cdnjs, jsDelivr, unpkg, esm.sh and the
libraries' own hosts; the sandbox has no network, so without this such pages render nothing.
infra/cdn/fetch.py fills a content-addressed store from the npm registry (<store>/blobs/<sha256>
plus <store>/index.json: package -> version -> file -> sha256, the package.json fields that
resolve bare URLs, and the licence). `Mirror.resolve(url)` maps a CDN URL to one stored file:

- the exact version when it is stored; a range, tag, major-only or missing version gets the
  nearest stored version of the same major, with a note; another major or an unknown package
  resolves to None and stays blocked;
- ES-module URLs (esm.sh, jsDelivr `/+esm`, unpkg `?module`) get the package's browser ES module
  with bare imports rewritten to the same CDN, or an ES module built around the UMD build;
  an alias URL (`three@0.160`, a bare package) answers with a stub re-exporting the canonical
  URL, so that every alias shares one module instance.

How each CDN spells a request is read in cogevol.browser.cdn_urls; this module is the store.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from cogevol.browser.cdn_urls import Req, parse_url

REPO_ROOT = Path(__file__).resolve().parents[2]

CONTENT_TYPES = {
    ".js": "application/javascript; charset=utf-8",
    ".mjs": "application/javascript; charset=utf-8",
    ".cjs": "application/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".wasm": "application/wasm",
    ".woff2": "font/woff2",
    ".woff": "font/woff",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".eot": "application/vnd.ms-fontobject",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".gif": "image/gif",
    ".txt": "text/plain; charset=utf-8",
    ".html": "text/html; charset=utf-8",
}
JS = CONTENT_TYPES[".js"]
ESM_BASES = {
    "esm.sh": "https://esm.sh/",
    "jsdelivr": "https://cdn.jsdelivr.net/npm/",
    "unpkg": "https://unpkg.com/",
}
BARE_IMPORT = re.compile(
    r"""(\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)(["'])([^"'./\s][^"'\s:]*)\2"""
)
DEFAULT_EXPORT = re.compile(rb"\bexport\s+default\b|\bas\s+default\s*[,}]")
UMD_HEAD = re.compile(rb"typeof\s+exports|typeof\s+define|typeof\s+module")
MODULE_SYNTAX = re.compile(
    rb"(?:^|[;}\s])(?:export\s*[{*]|export\s+(?:default|const|let|var|function|class|async)\b|import\s*[{*\"']|import\s+[\w$]+\s+from\b)"
)


def default_store() -> Path:
    """$COGEVOL_CDN_MIRROR, else .cache/cdn-mirror at the repository root."""
    env = os.environ.get("COGEVOL_CDN_MIRROR")
    return Path(env) if env else REPO_ROOT / ".cache" / "cdn-mirror"


def store_blob(store: Path, data: bytes) -> str:
    """Write `data` as <store>/blobs/<sha256> (once) and return the hash."""
    sha = hashlib.sha256(data).hexdigest()
    path = Path(store) / "blobs" / sha
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        # fetch.py writes from threads
        tmp = path.with_suffix(f".tmp{os.getpid()}-{threading.get_ident()}")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    return sha


def write_index(store: Path, index: dict) -> None:
    """Replace <store>/index.json atomically: a pool reading it never sees half a file."""
    path = Path(store) / "index.json"
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(json.dumps(index, sort_keys=True))
    os.replace(tmp, path)


@dataclass
class Resolved:
    """What the sandbox answers for a CDN URL."""

    body: bytes
    content_type: str
    package: str
    requested: str | None  # the version as the URL spelled it ("4", "^3.2", "latest", None)
    version: str  # the version served
    path: str  # file inside the package ("" for a generated stub)
    note: str = ""  # set when what is served is not exactly what was asked for

    @property
    def headers(self) -> dict[str, str]:
        # module scripts and fonts are CORS requests from the page's origin
        return {
            "content-type": self.content_type,
            "access-control-allow-origin": "*",
            "cache-control": "public, max-age=31536000, immutable",
        }


def _vtuple(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v)[:3])


class Mirror:
    """A loaded store: `Mirror.load(path).resolve(url) -> Resolved | None`."""

    def __init__(self, root: Path, index: dict):
        self.root = Path(root)
        self.packages: dict = index.get("packages", {})
        self.cdnjs = {
            c.lower(): name for name, p in self.packages.items() for c in p.get("cdnjs") or ()
        }
        self._cache: dict[str, Resolved | None] = {}
        self._cached_bytes = 0

    @classmethod
    def load(cls, path: str | os.PathLike | None = None) -> Mirror:
        """The store at `path` (default_store() when None), read once per pool."""
        root = Path(path) if path else default_store()
        return cls(root, json.loads((root / "index.json").read_text()))

    def parse(self, url: str) -> Req | None:
        """The request `url` makes of this store (cogevol.browser.cdn_urls.parse_url)."""
        return parse_url(url, self.cdnjs)

    # --- versions and files ----------------------------------------------------------------------

    def pick(
        self, package: str, spec: str | None, want: Callable[[str], bool] | None = None
    ) -> tuple[str, str] | None:
        """(version, note) for a version spec: exact, else nearest of the same major. `want(v)`
        says whether v holds what was asked for; the version is chosen first and a miss stays a
        miss, as on the real CDN (three r152 has no examples/js: an older release that has it
        must not stand in)."""
        got = self._pick(package, spec)
        return got if got is not None and (want is None or want(got[0])) else None

    def _pick(self, package: str, spec: str | None) -> tuple[str, str] | None:
        versions = list(self.packages.get(package, {}).get("versions", {}))
        if not versions:
            return None
        s = (spec or "").strip()
        if s in versions:
            return s, ""
        alt = re.split(r"\|\||\s", s.replace(" - ", " "))[0] if s else ""
        nums = [int(x) for x in re.findall(r"\d+", re.sub(r"^[\^~=<>v\s]+", "", alt))[:3]]
        # "latest", a dist-tag, nothing at all
        if not nums or not re.match(r"^[\^~=<>v\s]*\d", alt):
            v = max(versions, key=_vtuple)
            return v, f"{package}@{spec or '(no version)'} served as {v} (newest kept)"
        same = [v for v in versions if _vtuple(v)[0] == nums[0]]
        if not same:
            return None
        target = nums + [None] * (3 - len(nums))

        def distance(v):
            t = _vtuple(v) + (0, 0)
            return tuple(
                abs(t[i] - target[i]) if target[i] is not None else 0 for i in (1, 2)
            ) + tuple(-x for x in t)

        v = min(same, key=distance)
        return v, f"{package}@{spec} served as {v} (nearest of major {nums[0]})"

    def _files(self, package: str, version: str) -> dict[str, str]:
        return self.packages[package]["versions"][version]["files"]

    def find_file(self, package: str, version: str, path: str, style: str) -> str | None:
        """The stored file a CDN path names, allowing for what CDNs serve that npm does not hold
        as such (minified twins, extensionless paths, cdnjs's flattened layout)."""
        files = self._files(package, version)
        path = path.strip("/")
        cands = [path]
        if path.endswith(".min.js"):  # jsDelivr minifies on the fly; serve the file we have
            cands.append(path[:-7] + ".js")
        elif path.endswith(".js"):
            cands.append(path[:-3] + ".min.js")
        if path.endswith(".min.css"):
            cands.append(path[:-8] + ".css")
        elif path.endswith(".css"):
            cands.append(path[:-4] + ".min.css")
        if not re.search(r"\.\w+$", path):
            cands += [path + ".js", path + "/index.js", path + ".mjs"]
        for c in cands:
            if c in files:
                return c
            if style != "cdnjs":
                continue
            # cdnjs flattens the npm layout (three.js/r128/three.min.js is build/three.min.js); it
            # does not host files from deeper folders
            # (three.js/r128/OrbitControls.js is a 404 there)
            for pre in ("dist/", "build/", "lib/", "umd/", "dist/umd/"):
                if pre + c in files:
                    return pre + c
        return None

    def _entry(self, package: str, version: str, field: str, esm: bool) -> str | None:
        meta = self.packages[package]["versions"][version]
        files = meta["files"]
        fields = ["module", "browser", "main"] if esm else [field, "browser", "main"]
        if esm and self.packages[package].get("esm"):
            fields.insert(0, "_esm")
        for f in fields:
            val = self.packages[package].get("esm") if f == "_esm" else meta.get(f)
            if isinstance(val, str):
                p = val.lstrip("./") if val.startswith("./") else val
                for c in (p, p + ".js", p + "/index.js"):
                    if c in files:
                        return c
        if esm and (umd := self.umd(package, version)):
            return umd
        return "index.js" if "index.js" in files else None

    def umd(self, package: str, version: str) -> str | None:
        """The UMD build of this version (packages.yaml `umd`: a path or a list of candidates)."""
        umd = self.packages[package].get("umd") or ()
        files = self._files(package, version)
        return next((u for u in ([umd] if isinstance(umd, str) else umd) if u in files), None)

    def _export(self, package: str, version: str, sub: str) -> str | None:
        """A subpath through package.json `exports` ("react-dom/client", "three/addons/...")."""
        exports = self.packages[package]["versions"][version].get("exports")
        if not isinstance(exports, dict):
            return None
        key = "./" + sub
        target = exports.get(key)
        if target is None:
            for k, t in exports.items():
                if k.endswith("*") and key.startswith(k[:-1]) and isinstance(t, str):
                    target = t.replace("*", key[len(k) - 1 :])
                    break
        while isinstance(target, dict):
            target = next(
                (target[c] for c in ("browser", "import", "module", "default") if c in target), None
            )
        if isinstance(target, str) and target.removeprefix("./") in self._files(package, version):
            return target.removeprefix("./")
        return None

    # --- answers ---------------------------------------------------------------------------------

    def resolve(self, url: str) -> Resolved | None:
        """What to answer for `url`, or None (blocked); cached, as a pool asks for the same
        few libraries over and over."""
        if url in self._cache:
            return self._cache[url]
        try:
            out = self._resolve(url)
        except (KeyError, ValueError, OSError):
            out = None
        size = len(out.body) if out else 0
        # a pool serves the same few libraries over and over
        if self._cached_bytes + size > 64 << 20:
            self._cache.clear()
            self._cached_bytes = 0
        self._cache[url] = out
        self._cached_bytes += size
        return out

    def _resolve(self, url: str) -> Resolved | None:
        req = self.parse(url)
        if req is None or req.package not in self.packages:
            return None
        pkg = req.package
        if req.path and req.style != "entry":
            got = self.pick(
                pkg,
                req.spec,
                lambda v: (
                    self.find_file(pkg, v, req.path, req.style) is not None
                    or (req.esm and self._export(pkg, v, req.path)) is not None
                    or (req.esm and self.umd(pkg, v)) is not None
                ),
            )
        else:
            got = self.pick(
                pkg,
                req.spec,
                (lambda v: req.path in self._files(pkg, v)) if req.style == "entry" else None,
            )
        if got is None:
            return None
        version, note = got
        note = "; ".join(n for n in (note, req.note) if n)
        if req.style == "entry":
            path = req.path
        elif req.path:
            path = self.find_file(pkg, version, req.path, req.style) or (
                self._export(pkg, version, req.path) if req.esm else None
            )
        else:
            path = self._entry(pkg, version, req.entry_field, bool(req.esm))
        if req.esm and not path:
            path = self.umd(pkg, version)  # react-dom/client: the UMD global has it all
        if not path or path not in self._files(pkg, version):
            return None
        if (
            req.path
            and path.rsplit("/", 1)[-1] != req.path.rsplit("/", 1)[-1]
            and req.style != "entry"
        ):
            note = "; ".join(n for n in (note, f"{req.path} served as {path}") if n)
        if req.esm:
            return self._module(req, version, path, url, note)
        body = self._read(pkg, version, path)
        ctype = CONTENT_TYPES.get(os.path.splitext(path)[1].lower(), "application/octet-stream")
        return Resolved(body, ctype, pkg, req.spec, version, path, note)

    def _read(self, package: str, version: str, path: str) -> bytes:
        return (self.root / "blobs" / self._files(package, version)[path]).read_bytes()

    def canonical(self, esm: str, package: str, version: str, path: str) -> str:
        """The one URL an ES module is served under on CDN `esm`; aliases re-export it."""
        if esm == "jsdelivr":
            return f"{ESM_BASES[esm]}{package}@{version}/{path}/+esm"
        if esm == "unpkg":
            return f"{ESM_BASES[esm]}{package}@{version}/{path}?module"
        return f"{ESM_BASES[esm]}{package}@{version}/{path}"

    def _module(self, req: Req, version: str, path: str, url: str, note: str) -> Resolved:
        pkg = req.package
        canon = self.canonical(req.esm, pkg, version, path)
        raw = self._read(pkg, version, path)
        is_module = path.endswith(".mjs") or (
            not UMD_HEAD.search(raw[:4000]) and MODULE_SYNTAX.search(raw) is not None
        )
        if urlsplit(url)._replace(fragment="").geturl().split("?")[0] != canon.split("?")[0]:
            # an alias: re-export the canonical URL so that every alias shares one instance
            lines = [f'export * from "{canon}";']
            if not is_module or DEFAULT_EXPORT.search(raw):
                lines.append(f'export {{ default }} from "{canon}";')
            return Resolved("\n".join(lines).encode(), JS, pkg, req.spec, version, path, note)
        if is_module:
            body = self._rewrite_imports(
                req.esm, pkg, version, raw.decode("utf-8", "replace")
            ).encode()
        else:
            body = self._umd_module(pkg, version, raw)
            note = "; ".join(n for n in (note, "UMD build wrapped as an ES module") if n)
        return Resolved(body, JS, pkg, req.spec, version, path, note)

    def _rewrite_imports(self, esm: str, package: str, version: str, src: str) -> str:
        meta = self.packages[package]["versions"][version]
        deps = {**(meta.get("peerDependencies") or {}), **(meta.get("dependencies") or {})}

        def sub(m):
            spec = m.group(3)
            name, rest = (
                (spec.split("/", 2)[:2], spec.split("/", 2)[2:])
                if spec.startswith("@")
                else (spec.split("/", 1)[:1], spec.split("/", 1)[1:])
            )
            name = "/".join(name)
            if name == package:
                ver = version
            elif name in self.packages:
                got = self.pick(name, deps.get(name))
                ver = got[0] if got else deps.get(name, "latest")
            else:
                ver = deps.get(name, "latest")
            path = rest[0] if rest else ""
            target = f"{ESM_BASES[esm]}{name}@{ver}" + (f"/{path}" if path else "")
            if esm == "jsdelivr":
                target += "/+esm"
            elif esm == "unpkg":
                target += "?module"
            return f"{m.group(1)}{m.group(2)}{target}{m.group(2)}"

        return BARE_IMPORT.sub(sub, src)

    def _umd_module(self, package: str, version: str, raw: bytes) -> bytes:
        """An ES module around a UMD build: run it as a classic script would run (indirect eval:
        sloppy mode, `this` is the window, top-level vars become globals), export its global."""
        info, meta = self.packages[package], self.packages[package]["versions"][version]
        glob = info.get("global") or ""
        names = [
            n
            for n in meta.get("export_names") or info.get("export_names") or ()
            if re.fullmatch(r"[A-Za-z_$][\w$]*", n) and n != "default"
        ]
        # a UMD build that needs another library's global (react-dom needs React) gets it first
        out = []
        for dep, rng in {
            **(meta.get("peerDependencies") or {}),
            **(meta.get("dependencies") or {}),
        }.items():
            if (
                dep in self.packages
                and self.packages[dep].get("global")
                and (got := self.pick(dep, rng))
            ):
                out.append(f'import "{ESM_BASES["esm.sh"]}{dep}@{got[0]}";')
        src = json.dumps(raw.decode("utf-8", "replace"))
        out += [
            f"(0, eval)({src});",
            f"const __m = globalThis[{json.dumps(glob)}];",
            "export default __m;",
        ]
        if names:
            out.append(f"export const {{ {', '.join(names)} }} = __m;")
        return "\n".join(out).encode()
