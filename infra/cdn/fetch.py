"""Fill the local CDN mirror from the npm registry (run by infra/setup.sh).

For every package@version in infra/cdn/packages.yaml: `npm pack` the tarball, check it against
infra/cdn/lock.json (a changed tarball for a pinned version is refused), keep the files pages can
load (no docs, tests, sourcemaps or TypeScript), store each as <store>/blobs/<sha256> and describe
it in <store>/index.json, which cogevol.browser.mirror reads. Idempotent: a version whose blobs are
all present is not downloaded again. A package that fails is reported and skipped.

    .venv/bin/python infra/cdn/fetch.py [--store DIR] [--only NAME ...] [--jobs N]
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import fnmatch
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from cogevol.browser.mirror import default_store, store_blob, write_index  # noqa: E402

HERE = Path(__file__).resolve().parent
PACKAGE_FIELDS = ("main", "module", "unpkg", "jsdelivr", "browser", "exports", "dependencies", "peerDependencies")
DROP = ("*.map", "*.ts", "*.mts", "*.cts", "*.tsx", "*.flow", "*.md", "*.markdown", "*.tgz",
        "docs/*", "doc/*", "test/*", "tests/*", "__tests__/*", "*/test/*", "*/tests/*", "*/__tests__/*",
        "*/docs/*", ".*", "*/.*")
ALWAYS = ("package.json", "LICENSE*", "LICENCE*", "license*", "COPYING*")


def kept(path: str, keep: list[str] | None, drop: list[str] | None = None) -> bool:
    if any(fnmatch.fnmatchcase(path, g) for g in ALWAYS):
        return True
    if any(fnmatch.fnmatchcase(path, g) for g in (*DROP, *(drop or ()))):
        return False
    # fnmatch's * crosses "/", so "dist/*" and "dist/**" both mean "anything under dist/"
    return keep is None or any(fnmatch.fnmatchcase(path, g) for g in keep)


def keep_key(pkg: dict) -> str:
    return hashlib.sha256(json.dumps([pkg.get("keep"), pkg.get("drop"), DROP, ALWAYS]).encode()).hexdigest()[:16]


def npm_pack(spec: str, dest: str) -> Path:
    out = subprocess.run(["npm", "pack", spec, "--json", "--ignore-scripts", "--pack-destination", dest],
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError((out.stderr or out.stdout).strip().splitlines()[-1] if (out.stderr or out.stdout).strip() else f"npm pack exit {out.returncode}")
    return Path(dest) / json.loads(out.stdout)[0]["filename"]


def unpack(store: Path, tgz: bytes, pkg: dict) -> tuple[dict, dict]:
    """(package.json, {path: sha256}) for the kept files of an npm tarball."""
    files, meta = {}, {}
    with tarfile.open(fileobj=io.BytesIO(tgz), mode="r:gz") as tar:
        for m in tar:
            if not m.isfile():
                continue
            path = m.name.split("/", 1)[1] if "/" in m.name else m.name  # strip "package/"
            if ".." in path.split("/") or path.startswith("/"):
                continue
            data = tar.extractfile(m).read()
            if path == "package.json":
                meta = json.loads(data)
            if kept(path, pkg.get("keep"), pkg.get("drop")):
                files[path] = store_blob(store, data)
    return meta, files


def fetch_one(store: Path, pkg: dict, version: str, locked: dict | None) -> tuple[dict, dict, int]:
    spec = f"{pkg['name']}@{version}"
    with tempfile.TemporaryDirectory(prefix="cdn-") as tmp:
        tgz = npm_pack(spec, tmp).read_bytes()
    sha = hashlib.sha256(tgz).hexdigest()
    if locked and locked.get("tarball_sha256") not in (None, sha):
        raise RuntimeError(f"tarball sha256 {sha[:12]} differs from lock.json {locked['tarball_sha256'][:12]}")
    meta, files = unpack(store, tgz, pkg)
    if meta.get("version") != version:
        raise RuntimeError(f"registry returned version {meta.get('version')}")
    lic = meta.get("license")
    lic = lic.get("type") if isinstance(lic, dict) else lic
    if isinstance(lic, str) and "http" in lic:  # gsap's licence field is a paragraph with links: keep its name
        lic = lic.split(":")[0].strip()
    entry = {k: meta[k] for k in PACKAGE_FIELDS if k in meta}
    entry.update(files=files, license=lic, tarball_sha256=sha, keep_key=keep_key(pkg))
    stored = sum((store / "blobs" / h).stat().st_size for h in set(files.values()))
    lock = {"tarball_sha256": sha, "tarball_bytes": len(tgz), "license": lic, "files": len(files), "stored_bytes": stored}
    return entry, lock, len(tgz)


def add_export_names(store: Path, index: dict) -> None:
    """The names each UMD build puts on its global (run once per version with node; best effort)."""
    for info in index.values():
        umds = [info["umd"]] if isinstance(info.get("umd"), str) else info.get("umd") or []
        for entry in info["versions"].values():
            if "export_names" in entry or not info.get("global"):
                continue
            umd = next((u for u in umds if u in entry["files"]), None)
            names = []
            if umd:
                try:
                    out = subprocess.run(["node", str(HERE / "exports.js"), info["global"]], capture_output=True, timeout=60,
                                         input=(store / "blobs" / entry["files"][umd]).read_bytes())
                    names = json.loads(out.stdout or b"[]")
                except (OSError, subprocess.TimeoutExpired, ValueError):
                    names = []
            entry["export_names"] = names


def cached(store: Path, entry: dict | None, pkg: dict, locked: dict | None) -> bool:
    return bool(entry) and entry.get("keep_key") == keep_key(pkg) \
        and (not locked or locked.get("tarball_sha256") == entry.get("tarball_sha256")) \
        and all((store / "blobs" / h).is_file() for h in entry["files"].values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", type=Path, default=None, help="default: $COGEVOL_CDN_MIRROR or .cache/cdn-mirror")
    ap.add_argument("--packages", type=Path, default=HERE / "packages.yaml")
    ap.add_argument("--lock", type=Path, default=HERE / "lock.json")
    ap.add_argument("--only", nargs="*", default=None, help="package names to (re)fetch")
    ap.add_argument("--jobs", type=int, default=4)
    args = ap.parse_args(argv)
    store = (args.store or default_store()).resolve()
    (store / "blobs").mkdir(parents=True, exist_ok=True)
    t0 = time.time()

    pkgs = yaml.safe_load(args.packages.read_text())["packages"]
    lock = json.loads(args.lock.read_text()) if args.lock.is_file() else {"packages": {}}
    index_path = store / "index.json"
    old = json.loads(index_path.read_text())["packages"] if index_path.is_file() else {}

    index, todo = {}, []
    for pkg in pkgs:
        name = pkg["name"]
        index[name] = {k: pkg[k] for k in ("cdnjs", "esm", "umd", "global", "export_names") if k in pkg}
        index[name].update(license=pkg.get("license"), versions={})
        for v in pkg["versions"]:
            v = str(v)
            entry = old.get(name, {}).get("versions", {}).get(v)
            if cached(store, entry, pkg, lock["packages"].get(f"{name}@{v}")):
                index[name]["versions"][v] = entry
            elif args.only is None or name in args.only:
                todo.append((pkg, v))
            elif entry:
                index[name]["versions"][v] = entry
    print(f"[cdn] store {store}: {sum(len(p['versions']) for p in index.values())} cached, {len(todo)} to fetch", flush=True)

    failed, downloaded = [], 0
    with cf.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        futs = {ex.submit(fetch_one, store, pkg, v, lock["packages"].get(f"{pkg['name']}@{v}")): (pkg, v) for pkg, v in todo}
        for fut in cf.as_completed(futs):
            pkg, v = futs[fut]
            spec = f"{pkg['name']}@{v}"
            try:
                entry, locked, n = fut.result()
            except Exception as e:  # one package failing leaves the others usable
                failed.append(spec)
                print(f"[cdn] FAILED {spec}: {e}", flush=True)
                continue
            downloaded += n
            index[pkg["name"]]["versions"][v] = entry
            lock["packages"][spec] = locked
            print(f"[cdn] {spec}: {n / 1e6:.1f} MB tarball, {locked['files']} files kept "
                  f"({locked['stored_bytes'] / 1e6:.1f} MB), licence {locked['license']}", flush=True)

    add_export_names(store, index)
    write_index(store, {"format": 1, "packages": index})
    lock["packages"] = dict(sorted(lock["packages"].items()))
    text = json.dumps(lock, indent=1, sort_keys=True) + "\n"
    if not args.lock.is_file() or args.lock.read_text() != text:
        args.lock.write_text(text)
    live = {h for p in index.values() for e in p["versions"].values() for h in e["files"].values()}
    for b in (store / "blobs").iterdir():  # blobs no entry uses any more (a package dropped or trimmed)
        if b.name not in live:
            b.unlink()
    blobs = list((store / "blobs").iterdir())
    print(f"[cdn] done in {time.time() - t0:.0f}s: downloaded {downloaded / 1e6:.1f} MB, store holds "
          f"{len(blobs)} blobs, {sum(b.stat().st_size for b in blobs) / 1e6:.1f} MB"
          + (f"; FAILED: {', '.join(sorted(failed))}" if failed else ""), flush=True)
    return 0  # failures are reported, not fatal: pages using those libraries stay blocked


if __name__ == "__main__":
    sys.exit(main())
