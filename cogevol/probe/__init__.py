"""The interactivity probe: run a generated page, drive its controls, and say which are live."""

from cogevol.probe.core import ProbeConfig, ProbeResult, probe_html

__all__ = ["ProbeConfig", "ProbeResult", "probe_html"]
