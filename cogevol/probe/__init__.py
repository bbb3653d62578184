"""The interactivity probe: run a generated page, drive its controls, and say which are live.

The public names, one import path each: `from cogevol.probe import ProbeConfig, probe_html`."""

from cogevol.probe.config import Control, ProbeConfig, ProbeResult
from cogevol.probe.core import probe_html

__all__ = ["Control", "ProbeConfig", "ProbeResult", "probe_html"]
