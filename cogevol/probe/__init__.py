"""The interactivity probe: run a generated page, drive its controls, and say which are live.

The public names, one import path each: `from cogevol.probe import ProbeConfig, probe_html`.
`probe_html` (and with it Playwright) loads on first use, so the settings and results import
where Chromium's driver is not installed."""

from typing import TYPE_CHECKING

from cogevol.probe.config import Control, ProbeConfig, ProbeResult

if TYPE_CHECKING:  # loaded on first use; dag.py's dependency walk follows it too
    from cogevol.probe.core import probe_html


def __getattr__(name: str):
    if name != "probe_html":
        raise AttributeError(f"module 'cogevol.probe' has no attribute {name!r}")
    from cogevol.probe.core import probe_html

    globals()[name] = probe_html
    return probe_html


__all__ = ["Control", "ProbeConfig", "ProbeResult", "probe_html"]
